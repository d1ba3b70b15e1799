"""The faults of the CQS mutants (``cqs_family``): selection variants and handler wrappers.

Each function either patches one model instance or is a replacement for one
model function, installed with the helpers of :mod:`cfconform.adapters.mutants.kit`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cfconform.reference_model import cqs
from cfconform.reference_model.accounting import fits, usage_pct
from cfconform.reference_model.model import Model
from cfconform.reference_model.operations import (
    AdvanceClock,
    AlterOutcome,
    Get,
    Put,
    SetOverflowExit,
)
from cfconform.reference_model.outcomes import CQS_REJECTED_OVERFLOW, CQS_STRUCTURE_FULL, Outcome
from cfconform.reference_model.state import Structure

from .kit import (
    chain,
    evolve,
    force_evolve,
    post,
    pre,
    rebind,
    rebound,
    setup,
    state,
    wrap,
)


def _structure_of(model: Model, queue: str) -> Structure:
    return model.structures[model.queues[queue].defn.cfstruct]  # type: ignore[index]


def set_ovflwmax(fn: Callable[[int | None], int | None]) -> Callable[[Model], None]:
    def install(model: Model) -> None:
        for s in model.structures.values():
            s.defn = force_evolve(s.defn, {"ovflwmax": fn(s.defn.ovflwmax)})

    return setup(install)


STAGING = "<staging>"


def select_variant(
    *,
    order: Callable[[tuple[Any, int, int]], Any] | None = None,
    goal: Callable[[Model, Structure], float] | None = None,
    exhaust: bool = False,
    vetoes: Callable[[Model], frozenset[str]] | None = None,
    stop_at_veto: bool = False,
    staging: bool = False,
) -> Callable[[Model, Structure], list[str]]:
    """:func:`cfconform.reference_model.cqs.select` with one decision changed."""

    def select(model: Model, s: Structure) -> list[str]:
        metric = model.readings.cqs_usage_metric
        eu, et, lu, lt = model.pools(s)
        target = cqs.target(model, s) if goal is None else goal(model, s)
        sized = [(q.defn.name, *cqs._space(q)) for q in model.queues.values() if q.defn.cfstruct == s.defn.name]
        if staging:
            staged = [
                p for q in model.queues.values() if q.defn.cfstruct == s.defn.name for m in q.msgs for p in m.staged
            ]
            sized.append((STAGING, len(staged), sum(staged)))
        candidates = [c for c in sized if c[1]]
        candidates.sort(key=order or (lambda c: (-c[2], -c[1], c[0])))
        veto = frozenset(model.overflow_exit or ()) if vetoes is None else vetoes(model)
        room = cqs._overflow_room(model, s)
        approved: list[str] = []
        for name, entries, elements in candidates:
            if not exhaust and usage_pct(metric, (eu, et, lu, lt), model.acct) <= target:
                break
            if name in veto:
                if stop_at_veto:
                    break
                continue
            if room is not None:
                if not fits(room, entries, elements):
                    continue
                room = (room[0] + entries, room[1], room[2] + elements, room[3])
            approved.append(name)
            eu, lu = eu - entries, lu - elements
        return approved

    return select


def selecting(**kwargs: Any) -> Callable[[Model], None]:
    return rebound(AlterOutcome, select=select_variant(**kwargs))


def resignal_alter(model: Model, op: Put, out: Outcome) -> Outcome:
    s = _structure_of(model, op.queue)
    signal = f"ALTER {s.defn.name}"
    if out.ok and s.alter_pending and signal not in out.signals and cqs._usage(model, s) >= s.defn.effective_ovflwmax:
        return evolve(out, signals=(*out.signals, signal), rules=(*out.rules, "CQS-003"))
    return out


def overflow_without_alter(model: Model, op: Put, out: Outcome) -> Outcome:
    s = _structure_of(model, op.queue)
    signal = f"ALTER {s.defn.name}"
    if signal not in out.signals:
        return out
    failed = cqs.alter_outcome(model, AlterOutcome(s.defn.name, False))
    signals = tuple(x for x in out.signals if x != signal) + failed.signals
    return evolve(out, signals=signals, rules=(*out.rules, *failed.rules), usage=failed.usage)


def accept_unsolicited(model: Model, op: AlterOutcome) -> None:
    model.structures[op.cfstruct].alter_pending = True


def no_growth(model: Model, s: Structure, size_kb: int | None) -> Outcome:
    s.alter_pending = False
    return Outcome("alter_outcome", rules=("CQS-004",), signals=model.full_signals(s), usage=s.pools.as_tuple())


def overflow_after_success(model: Model, op: AlterOutcome, out: Outcome) -> Outcome:
    if not (op.success and out.ok):
        return out
    model.structures[op.cfstruct].alter_pending = True
    failed = cqs.alter_outcome(model, AlterOutcome(op.cfstruct, False))
    return evolve(out, rules=(*out.rules, *failed.rules), signals=out.signals + failed.signals, usage=failed.usage)


def skip_overflow_if_below(model: Model, op: AlterOutcome) -> Outcome | None:
    s = model.structures[op.cfstruct]
    if op.success or not s.alter_pending or cqs._usage(model, s) >= s.defn.effective_ovflwmax:
        return None
    s.alter_pending = False
    return Outcome("alter_outcome", rules=("CQS-005",), signals=model.full_signals(s), usage=s.pools.as_tuple())


def ignore_failure(model: Model, op: AlterOutcome) -> Outcome | None:
    s = model.structures[op.cfstruct]
    if op.success or not s.alter_pending:
        return None
    s.alter_pending = False
    return Outcome("alter_outcome", rules=("CQS-005",), usage=s.pools.as_tuple())


def deferred_selection() -> Callable[[Model], None]:
    """CQS-008: the failing alter only sets overflow mode; queues are selected at the next request."""

    def fail_only(model: Model, op: AlterOutcome) -> Outcome | None:
        s = model.structures[op.cfstruct]
        if op.success or not s.alter_pending:
            return None
        s.alter_pending, s.overflow_mode, s.overflow_start = False, True, model.clock
        s.overflow_base = cqs._usage(model, s)
        state(model, "deferred").setdefault("names", set()).add(s.defn.name)
        return Outcome(
            "alter_outcome", rules=("CQS-005",), signals=(f"OVERFLOW_ON {s.defn.name}",), usage=s.pools.as_tuple()
        )

    def select_late(original: Callable[[Model, Any], Outcome]) -> Callable[[Model, Any], Outcome]:
        def handler(model: Model, op: Any) -> Outcome:
            signals: tuple[str, ...] = ()
            for name in sorted(state(model, "deferred").pop("names", ())):
                s = model.structures[name]
                approved = cqs.select(model, s)
                s.overflow_queues = set(approved)
                signals += tuple(f"OVERFLOW_QUEUE {name} {n}" for n in approved)
                if s.defn.ovflwstr is not None:
                    cqs._move(model, s, approved)
                    if not approved:
                        signals += cqs._end_overflow(s)
            out = original(model, op)
            return evolve(out, signals=signals + out.signals) if signals else out

        return handler

    return chain(
        pre(AlterOutcome, fail_only), wrap(Put, select_late), wrap(Get, select_late), wrap(AdvanceClock, select_late)
    )


def keep_exit(model: Model, op: SetOverflowExit) -> Outcome | None:
    return Outcome("set_overflow_exit", rules=("CQS-009", "CQS-010"))


def keep_exit_on_remove(model: Model, op: SetOverflowExit) -> Outcome | None:
    return keep_exit(model, op) if op.vetoes is None else None


def unfenced_put(model: Model, op: Put) -> Outcome | None:
    s = _structure_of(model, op.queue)
    if op.queue not in s.overflow_queues or s.defn.ovflwstr is not None:
        return None
    s.overflow_queues.discard(op.queue)
    try:
        return cqs.put(model, op)
    finally:
        s.overflow_queues.add(op.queue)


def full_instead_of_fenced(model: Model, op: Put, out: Outcome) -> Outcome:
    if out.reason == CQS_REJECTED_OVERFLOW:
        return evolve(out, reason=CQS_STRUCTURE_FULL, rules=("CAPACITY-001",))
    return out


def fence_structure(model: Model, op: Put) -> Outcome | None:
    s = _structure_of(model, op.queue)
    if s.overflow_mode and s.defn.ovflwstr is None and op.queue not in s.overflow_queues:
        return Outcome("put", False, CQS_REJECTED_OVERFLOW, ("CQS-012",))
    return None


def leave_when_emptied(model: Model, op: Get, out: Outcome) -> Outcome:
    s = _structure_of(model, op.queue)
    if not out.ok or s.defn.ovflwstr is None or op.queue not in s.overflow_queues or model.queues[op.queue].msgs:
        return out
    s.overflow_queues.discard(op.queue)
    signals = (f"OVERFLOW_QUEUE_OFF {s.defn.name} {op.queue}",)
    if not s.overflow_queues:
        signals += cqs._end_overflow(s)
    return evolve(out, signals=out.signals + signals)


def scan_every(seconds: int) -> Callable[[Model], None]:
    scanned = rebind(cqs._scanned, SCAN_SECONDS=seconds)
    scan = rebind(cqs.scan_between, _scanned=scanned)
    return rebound(AdvanceClock, cqs=patched_cqs(scan_between=scan))


def patched_cqs(**overrides: Any) -> Any:
    from .kit import Patched

    return Patched(cqs, **overrides)


def scan_all(model: Model, start: int, end: int) -> Outcome:
    """CQS-013 fault: each scan takes every queue out of overflow mode, empty or not."""
    signals: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    for s in model.structures.values():
        if not (s.overflow_mode and s.defn.ovflwstr is not None and cqs._scanned(model, s, start, end)):
            continue
        rules = ("CQS-013", "CQS-014")
        signals += tuple(f"OVERFLOW_QUEUE_OFF {s.defn.name} {n}" for n in sorted(s.overflow_queues))
        signals += cqs._end_overflow(s)
    return Outcome("advance_clock", rules=rules, signals=signals)


def stay_without_queues(model: Model, op: AlterOutcome, out: Outcome) -> Outcome:
    s = model.structures[op.cfstruct]
    signal = f"OVERFLOW_OFF {s.defn.name}"
    if s.defn.ovflwstr is None or signal not in out.signals:
        return out
    s.overflow_mode = True
    return evolve(
        out, signals=tuple(x for x in out.signals if x != signal), rules=tuple(r for r in out.rules if r != "CQS-014")
    )


def end_with_first_queue(model: Model, op: AdvanceClock, out: Outcome) -> Outcome:
    for s in model.structures.values():
        left = any(x.startswith(f"OVERFLOW_QUEUE_OFF {s.defn.name} ") for x in out.signals)
        if left and s.overflow_mode:
            for name in sorted(s.overflow_queues):
                out = evolve(out, signals=(*out.signals, f"OVERFLOW_QUEUE_OFF {s.defn.name} {name}"))
            out = evolve(out, signals=out.signals + cqs._end_overflow(s))
    return out


def first_part_staged() -> Callable[[Model], None]:
    def on_put(model: Model, op: Put, out: Outcome) -> Outcome:
        if out.ok and "CQS-017" in out.rules:
            _structure_of(model, op.queue).staging_depth += 1
        return out

    def on_get(original: Callable[[Model, Any], Outcome]) -> Callable[[Model, Any], Outcome]:
        def handler(model: Model, op: Get) -> Outcome:
            msgs = model.queues[op.queue].msgs
            split = bool(msgs and msgs[0].staged)
            out = original(model, op)
            if out.ok and split:
                _structure_of(model, op.queue).staging_depth -= 1
            return out

        return handler

    return chain(post(Put, on_put), wrap(Get, on_get))


def move_whole_messages(model: Model, s: Structure, names: list[str]) -> None:
    """CQS-019 fault: later (staging) parts move to the overflow structure with the first part."""
    cqs._move(model, s, names)
    for name in names:
        for msg in model.queues[name].msgs:
            if msg.on_overflow and msg.staged:
                parts, elements = len(msg.staged), sum(msg.staged)
                s.pools.entries_used -= parts
                s.pools.elements_used -= elements
                s.staging_depth -= parts
                msg.elements += elements
                msg.staged = ()


def without_pseudo_queue(model: Model, op: AlterOutcome, out: Outcome) -> Outcome:
    for s in model.structures.values():
        s.overflow_queues.discard(STAGING)
    return out


def entries_pct(model: Model, s: Structure) -> float:
    eu, et, _, _ = model.pools(s)
    return 100.0 * eu / et if et else 100.0


def with_lgmsgsz(fn: Callable[[int], int]) -> Callable[[Model], None]:
    def install(model: Model) -> None:
        model.lgmsgsz = fn(model.config.lgmsgsz)

    return setup(install)


def primary_for_new(model: Model, op: Put) -> Outcome | None:
    s = _structure_of(model, op.queue)
    if op.queue not in s.overflow_queues or s.defn.ovflwstr is None:
        return None
    s.overflow_queues.discard(op.queue)
    try:
        return cqs.put(model, op)
    finally:
        s.overflow_queues.add(op.queue)


def relief(goal: Callable[[Model, Structure], float]) -> Callable[[Model], None]:
    """CQS-015 faults: leaving overflow (without OVFLWSTR) against another target."""
    return rebound(Get, relieved=rebind(cqs.relieved, _below_target=rebind(cqs._below_target, target=goal)))


def usage_metric_by_step(alter: str, exit_: str) -> Callable[[Model], None]:
    """Mixed reading: one cqs_usage_metric for the OVFLWMAX check, another for leaving overflow."""
    leave = rebind(
        cqs.relieved,
        _below_target=rebind(
            cqs._below_target, _metric=lambda model: exit_, _usage=lambda model, s: model.usage(s, exit_)
        ),
    )
    reach = rebind(cqs._threshold_reached, _metric=lambda model: alter)
    return chain(rebound(Put, _threshold_reached=reach), rebound(Get, relieved=leave))
