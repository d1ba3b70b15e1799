"""Mutants of the IMS CQS structure-overflow rules (CQS-001..022), profile ``cqs``: one row each.

Reproducers use structures a few KB above the fixed overhead with one element per entry (``ratio=1``) and messages
of one to a few elements, so that usage is the same under both ``cqs_usage_metric`` readings; where the selection
target matters they use ``OVFLWMAX(100)`` on a full structure, for which all four ``cqs_target`` readings give 80%.
A small ``LGMSGSZ`` makes one put fill the primary with staging parts while its ready queue stays small.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from itertools import takewhile
from typing import Any

from cfconform.reference_model import cqs
from cfconform.reference_model.config import Config, QueueDef, StructureDef
from cfconform.reference_model.model import Model
from cfconform.reference_model.operations import AdvanceClock, AlterOutcome, Get, Put, SetOverflowExit
from cfconform.reference_model.outcomes import CQS_REJECTED_OVERFLOW, CQS_STRUCTURE_FULL, Outcome
from cfconform.reference_model.state import Structure

from .kit import Patched, chain, evolve, family, post, pre, reading, reason_for, rebind, rebound, state, wrap
from .mq_common import INSPECT, get, put, redefined, structure_of

PRIM, STAGING = "PRIM", "<staging>"


def cfg(*, size: int = 6147, initsize: int | None = None, lgmsgsz: int = 4096, **fields: Any) -> Config:
    """A one-structure CQS group (``queues``, by default ``Q1``; the Queue Overflow ``exit``), overflow structure
    ``OVFL``; ``size`` 6147 gives 4 entries and 4 elements."""
    queues = tuple(QueueDef(q, cfstruct=PRIM) for q in fields.pop("queues", ("Q1",)))
    exit = fields.pop("exit", None)
    sd = StructureDef(
        PRIM, size_kb=size, initsize_kb=initsize, **{"ratio": 1, "fullthreshold": 0, "ovflwstr": "OVFL", **fields}
    )
    return Config(profile="cqs", qmgrs=("QM01",), structures=(sd,), queues=queues, lgmsgsz=lgmsgsz, overflow_exit=exit)


def selecting(**names: Any) -> Callable[[Model], None]:
    """The failed alter's selection (:func:`cfconform.reference_model.cqs.select`) with some of its rule
    functions swapped (``_candidates``, ``_vetoes``, ``target``, ``usage_pct``)."""
    return overflowing(select=rebind(cqs.select, **names))


def overflowing(**names: Any) -> Callable[[Model], None]:
    """The failed alter's selection and its moves (:func:`cfconform.reference_model.cqs._selected`) with some
    of its rule functions swapped (``select``, ``_move``)."""
    return rebound(AlterOutcome, _overflow=rebind(cqs._overflow, _selected=rebind(cqs._selected, **names)))


def _with_staging(model: Model, s: Structure) -> list[tuple[str, int, int]]:
    """The candidates and the staging queue (its parts), largest first."""
    parts = [p for q in model.queues.values() if q.defn.cfstruct == s.defn.name for m in q.msgs for p in m.staged]
    found = [*cqs._candidates(model, s), (STAGING, len(parts), sum(parts))]
    return sorted((c for c in found if c[1]), key=lambda c: (-c[2], -c[1], c[0]))


def _then_failed(model: Model, out: Outcome, name: str) -> Outcome:
    """``out`` followed at once by z/OS failing structure ``name``'s alter (overflow mode), as one outcome
    without the ALTER signal."""
    model.structures[name].alter_pending = True
    failed = cqs.alter_outcome(model, AlterOutcome(name, False))
    signals = tuple(x for x in out.signals if x != f"ALTER {name}") + failed.signals
    return evolve(out, signals=signals, rules=(*out.rules, *failed.rules), usage=failed.usage)


def _altering(model: Model, op: Put, out: Outcome) -> Outcome:
    name = structure_of(model, op.queue).defn.name  # type: ignore[union-attr]
    return _then_failed(model, out, name) if f"ALTER {name}" in out.signals else out


def _unchanged(rule: str, signals: bool = True) -> Callable[..., Outcome]:
    """An alter outcome that changes nothing but ends the alter (``signals``: with the full signals)."""

    def answer(model: Model, s: Structure, _: Any) -> Outcome:
        s.alter_pending = False
        full = model.full_signals(s) if signals else ()
        return Outcome("alter_outcome", rules=(rule,), signals=full, usage=s.pools.as_tuple())

    return answer


def _later(model: Model, s: Structure) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """CQS-008 fault: the failing alter selects no queue; they are selected at the next request."""
    state(model, "deferred")[s.defn.name] = True
    return (), ()


def _select_late(original: Callable[[Model, Any], Outcome]) -> Callable[[Model, Any], Outcome]:
    def handler(model: Model, op: Any) -> Outcome:
        names = sorted(state(model, "deferred"))
        state(model, "deferred").clear()
        signals = tuple(x for name in names for x in cqs._selected(model, model.structures[name])[0])
        out = original(model, op)
        return evolve(out, signals=signals + out.signals) if signals else out

    return handler


def unselected_where(when: Callable[[Structure], bool], fenced: Any = lambda s: False) -> Callable[[Model], None]:
    """A put to a selected queue carried out as if the queue were not selected on structures where
    ``when(s)`` holds, and as if every queue were selected where ``fenced(s)`` holds."""
    return rebound(Put, _in_overflow=lambda s, name: fenced(s) or (cqs._in_overflow(s, name) and not when(s)))


def leave_when_emptied(model: Model, op: Get, out: Outcome) -> Outcome:
    s = structure_of(model, op.queue)
    if not out.ok or s is None or s.defn.ovflwstr is None or op.queue not in s.overflow_queues:
        return out
    if model.queues[op.queue].msgs:
        return out
    s.overflow_queues.discard(op.queue)
    signals = (f"OVERFLOW_QUEUE_OFF {s.defn.name} {op.queue}",)
    return evolve(out, signals=out.signals + signals + (() if s.overflow_queues else cqs._end_overflow(s)))


def scanning(**names: Any) -> Callable[[Model], None]:
    """The scan of overflowed queues (:func:`cfconform.reference_model.cqs.scan_between`) with some of its
    rule functions swapped (``_scanned``, ``_leaves``)."""
    return rebound(AdvanceClock, cqs=Patched(cqs, scan_between=rebind(cqs.scan_between, **names)))


def _overflow_at_max(model: Model, s: Structure, op: AlterOutcome) -> Outcome:
    """CQS-005 fault: overflow mode only if usage is still at OVFLWMAX."""
    at_max = cqs._usage(model, s) >= s.defn.effective_ovflwmax
    return (cqs._overflow if at_max else _unchanged("CQS-005"))(model, s, op)


def end_with_first_queue(model: Model, op: AdvanceClock, out: Outcome) -> Outcome:
    for s in model.structures.values():
        if s.overflow_mode and any(x.startswith(f"OVERFLOW_QUEUE_OFF {s.defn.name} ") for x in out.signals):
            off = tuple(f"OVERFLOW_QUEUE_OFF {s.defn.name} {name}" for name in sorted(s.overflow_queues))
            out = evolve(out, signals=out.signals + off + cqs._end_overflow(s))
    return out


def move_whole_messages(model: Model, s: Structure, names: list[str]) -> None:
    """CQS-019 fault: later (staging) parts move to the overflow structure with the first part."""
    cqs._move(model, s, names)
    for msg in (m for name in names for m in model.queues[name].msgs if m.on_overflow and m.staged):
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


def relief(goal: Callable[[Model, Structure], float]) -> Callable[[Model], None]:
    """CQS-015 faults: leaving overflow (without OVFLWSTR) against another target."""
    return rebound(Get, relieved=rebind(cqs.relieved, _below_target=rebind(cqs._below_target, target=goal)))


def _entries_pct(model: Model, s: Structure) -> float:
    eu, et, _, _ = model.pools(s)
    return 100.0 * eu / et if et else 100.0


def _reached(usage: Callable[[Model, Structure], float], strict: bool = False) -> Callable[[Model], None]:
    """The OVFLWMAX check against another usage figure (or ``>``)."""
    over = operator.gt if strict else operator.ge
    return rebound(Put, _threshold_reached=lambda m, s, *_: over(usage(m, s), s.defn.effective_ovflwmax))


def _exit_kept(when_removed_only: bool) -> Callable[[Model], None]:
    """SET OVERFLOW EXIT acknowledged but the exit in force kept (``when_removed_only``: only a removal)."""
    kept = Outcome("set_overflow_exit", rules=("CQS-009", "CQS-010"))
    return pre(SetOverflowExit, lambda m, op: None if op.vetoes is not None and when_removed_only else kept)


FAIL, GROW = AlterOutcome(PRIM, False), AlterOutcome(PRIM, True)
ELEVEN = tuple(f"Q{n}" for n in range(1, 12))
# Usage figures below are elements in use out of 4 (size 6147), 10 (6151) or 21 (6158).
FILL = [put(600), FAIL]  # fills the primary, and the alter fails: overflow mode

# fmt: off
MUTANTS = family(
    "CQS",
    ("001-a", "OVFLWMAX defaults to 80% instead of 70%.", cfg(), [put(600), INSPECT],
     redefined(ovflwmax=lambda v: 80 if v is None else v)),
    ("001-b", "OVFLWMAX defaults to 60% instead of 70%.", cfg(size=6151), [put(1408)],
     redefined(ovflwmax=lambda v: 60 if v is None else v)),
    ("002-a", "The configured OVFLWMAX is ignored; 70% is always used.", cfg(ovflwmax=50), [put(300), INSPECT],
     redefined(ovflwmax=lambda v: None)),
    ("003-a", "The alter starts only when usage exceeds OVFLWMAX, not when it reaches it.", cfg(ovflwmax=75),
     [put(600), INSPECT], _reached(cqs._usage, strict=True)),
    ("003-b", "An alter outcome arriving with no alter pending is acted on.", cfg(initsize=6147, size=6151), [GROW],
     pre(AlterOutcome, lambda m, op: setattr(m.structures[op.cfstruct], "alter_pending", True))),
    ("003-c", "Every put at or above OVFLWMAX starts another alter while one is pending.", cfg(ovflwmax=25),
     [put(), put()], rebound(Put, _may_alter=lambda s: not s.defn.resource and not s.overflow_mode)),
    ("003-d", "Reaching OVFLWMAX enters overflow mode at once, without trying an alter.", cfg(), [put(600)],
     post(Put, _altering)),
    ("004-a", "A successful alter does not grow the primary structure.", cfg(initsize=6147, size=6151),
     [put(600), GROW, INSPECT], rebound(AlterOutcome, _altered=_unchanged("CQS-004"))),
    ("004-b", "A successful alter still puts the structure into overflow mode.", cfg(initsize=6147, size=6151),
     [put(600), GROW],
     post(AlterOutcome, lambda m, op, o: _then_failed(m, o, op.cfstruct) if op.success and o.ok else o)),
    ("004-c", "A successful alter grows the primary to SIZE, whatever size z/OS reached.",
     cfg(initsize=6147, size=6151), [put(600), AlterOutcome(PRIM, True, 6148), INSPECT],
     rebound(AlterOutcome, _altered=lambda m, s, size_kb: cqs._altered(m, s, None))),
    ("005-a", "A failed alter enters overflow mode only if usage is still at OVFLWMAX.", cfg(),
     [put(600), get(), FAIL], rebound(AlterOutcome, _overflow=_overflow_at_max)),
    ("005-b", "A failed alter is ignored: no overflow mode.", cfg(), FILL,
     rebound(AlterOutcome, _overflow=_unchanged("CQS-005", signals=False))),
    # (three 2 KB objects against one: more space under any accounting, even before the last put)
    ("006-a", "Candidates are taken smallest first.", cfg(size=6160, ratio=8, ovflwstr=None, queues=("Q1", "Q2")),
     [INSPECT, put(2048), put(2048, "Q2"), put(2048, "Q2"), put(2048, "Q2"), FAIL],
     selecting(_candidates=lambda m, s: sorted(cqs._candidates(m, s), key=lambda c: (c[2], c[1], c[0])))),
    ("007-a", "Selection never stops: every approved queue is selected.", cfg(ovflwmax=50, queues=("Q1", "Q2")),
     [INSPECT, put(), put(300, "Q2"), FAIL], selecting(usage_pct=lambda *_: math.inf)),
    # 21 entries, ten queues of two data objects and one of one: full at the last put; one queue
    # takes usage below OVFLWMAX (90%), three take it 20% below (71%), under every target reading
    ("007-b", "Selection stops once projected usage is below OVFLWMAX, not 20% below it.",
     cfg(size=6158, ovflwmax=100, ovflwstr=None, queues=ELEVEN),
     [INSPECT, *(put(queue=q) for q in ELEVEN[:10] for _ in range(2)), put(queue="Q11"), FAIL],
     selecting(target=lambda model, s: s.defn.effective_ovflwmax - 1e-9)),
    ("008-a", "Queues are selected at the next request after the failed alter, not within it.", cfg(), FILL,
     chain(rebound(AlterOutcome, _overflow=rebind(cqs._overflow, _selected=_later)),
           wrap((Put, Get, AdvanceClock), _select_late))),
    ("009-a", "The Queue Overflow exit's veto is ignored.", cfg(exit=("Q1",)), FILL,
     selecting(_vetoes=lambda model: frozenset())),
    ("009-b", "A vetoed candidate ends the selection instead of being skipped.",
     cfg(ovflwmax=50, queues=("Q1", "Q2"), exit=("Q2",)), [put(), put(300, "Q2"), FAIL],
     selecting(_candidates=lambda m, s: list(takewhile(lambda c: c[0] not in cqs._vetoes(m), cqs._candidates(m, s))))),
    ("009-c", "An exit installed while CQS runs is never called.", cfg(), [SetOverflowExit(("Q1",)), *FILL],
     _exit_kept(False)),
    ("010-a", "With no exit defined every candidate is rejected.", cfg(), FILL,
     selecting(_vetoes=lambda m: frozenset(m.queues if m.overflow_exit is None else m.overflow_exit))),
    ("010-b", "Removing the exit leaves the old exit's vetoes in force.", cfg(exit=("Q1",)),
     [SetOverflowExit(None), *FILL], _exit_kept(True)),
    ("011-a", "Approved queues are not moved: their data stays on the primary.", cfg(), FILL,
     overflowing(_move=lambda model, s, names: None)),
    ("012-a", "Without OVFLWSTR, puts to a selected queue are still accepted.", cfg(ovflwstr=None),
     [*FILL, put()], unselected_where(lambda s: s.defn.ovflwstr is None)),
    # the 600-byte message's cost is seen (inspect before it), so the structure certainly has
    # room for the empty one (were it in doubt, STRUCTURE_FULL is admissible too: reason precedence)
    ("012-b", "Without OVFLWSTR, puts to a selected queue are rejected as STRUCTURE_FULL.",
     cfg(ovflwstr=None, size=6158, ovflwmax=10), [INSPECT, *FILL, put()],
     reason_for(Put, CQS_REJECTED_OVERFLOW, CQS_STRUCTURE_FULL)),
    ("012-c", "Without OVFLWSTR, puts to every queue of the structure are rejected.",
     cfg(ovflwstr=None, queues=("Q1", "Q2")), [*FILL, put(queue="Q2")],
     unselected_where(lambda s: False, fenced=lambda s: s.overflow_mode and s.defn.ovflwstr is None)),
    ("013-a", "A queue leaves overflow mode as soon as it is emptied, not at the next scan.", cfg(),
     [*FILL, get()], post(Get, leave_when_emptied)),
    ("013-b", "Overflowed queues are scanned every 30 minutes instead of 15.", cfg(),
     [*FILL, get(), AdvanceClock(900)], scanning(_scanned=rebind(cqs._scanned, SCAN_SECONDS=1800))),
    ("013-c", "The scan takes queues out of overflow mode whether or not they are empty.", cfg(),
     [*FILL, AdvanceClock(900)], scanning(_leaves=lambda model, name: True)),
    ("013-d", "Overflowed queues are scanned every 10 minutes instead of 15.", cfg(),
     [*FILL, get(), AdvanceClock(600)], scanning(_scanned=rebind(cqs._scanned, SCAN_SECONDS=600))),
    ("014-b", "Overflow mode ends when the first queue leaves it, though others remain.",
     cfg(size=6151, ovflwmax=0, queues=("Q1", "Q2"), lgmsgsz=128),
     [put(1152), put(queue="Q2"), FAIL, get(), AdvanceClock(900)], post(AdvanceClock, end_with_first_queue)),
    ("015-a", "Without OVFLWSTR, overflow mode never ends as usage falls.", cfg(ovflwmax=50, ovflwstr=None),
     [put(300), FAIL, get(), AdvanceClock(900)], relief(lambda model, s: float("-inf"))),
    ("015-b", "Without OVFLWSTR, overflow mode ends once usage is below OVFLWMAX, not 20% below.",
     cfg(size=6158, ovflwmax=50, ovflwstr=None), [put(), put(2432), FAIL, get()],
     relief(lambda model, s: s.defn.effective_ovflwmax - 1e-9)),
    ("016-a", "A resource structure goes through overflow processing like a queue structure.",
     cfg(ovflwstr=None, resource=True), [put(600)], redefined(resource=lambda v: False)),
    ("017-a", "Messages longer than LGMSGSZ are stored whole, not in parts.", cfg(lgmsgsz=128),
     [put(300), INSPECT], lambda m: setattr(m, "lgmsgsz", 10**9)),
    ("018-a", "The staging queue is a candidate for overflow like any queue.", cfg(size=6151, lgmsgsz=128),
     [put(1152), FAIL],
     chain(overflowing(select=rebind(cqs.select, _candidates=_with_staging),
                       _move=lambda m, s, names: cqs._move(m, s, [n for n in names if n in m.queues])),
           post(AlterOutcome, without_pseudo_queue))),
    ("019-a", "Staging parts of a selected queue's messages move to the overflow structure too.",
     cfg(size=6151, lgmsgsz=128), [put(1152), FAIL, INSPECT], overflowing(_move=move_whole_messages)),
    ("020-a", "OVFLWMAX is compared with list-entry usage instead of data elements.", cfg(),
     [put(600), INSPECT], _reached(_entries_pct)),
    ("020-b", "OVFLWMAX is compared with combined entry and element storage.", cfg(), [put(600), INSPECT],
     _reached(lambda model, s: model.usage(s, "combined"))),
    ("020-c", "Mixed reading: data elements for the OVFLWMAX check, max(entries, elements) for leaving overflow mode.",
     cfg(size=6149, ratio=6, ovflwmax=50, ovflwstr=None), [put(1152), put(), FAIL, get(), AdvanceClock(900)],
     reading(Get, cqs_usage_metric="max"), ("cqs_usage_metric",)),
    ("021-b", "LGMSGSZ is not capped at 30632 bytes.", cfg(size=6400, lgmsgsz=32000), [put(31000), INSPECT],
     lambda m: setattr(m, "lgmsgsz", (m.config.lgmsgsz + 3) // 4 * 4)),
)
# fmt: on
