"""The faults of the queue depth event mutants (``qdepth_family``).

:func:`fire_variant` and :func:`toggle_variant` are :func:`cfconform.reference_model.events.fire`
and ``_toggle`` with one decision changed; :func:`firing` and :func:`thresholds`
install them into MQPUT and MQGET.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cfconform.reference_model import events, mq
from cfconform.reference_model.model import Model
from cfconform.reference_model.operations import (
    AlterQueue,
    Backout,
    Commit,
    Get,
    Put,
    StopQmgr,
)
from cfconform.reference_model.outcomes import CMD_INVALID, MQRC_Q_FULL, MQRC_STORAGE_MEDIUM_FULL, EventMessage, Outcome
from cfconform.reference_model.state import Queue

from .kit import (
    Patched,
    chain,
    evolve,
    post,
    rebind,
    rebound,
    state,
    wrap,
)
from .mq_common import with_defn


def toggle_variant(changes: dict[str, dict[str, bool]]) -> Callable[[Model, Queue, str], None]:
    """``events._toggle`` where event kinds in ``changes`` set these switches instead."""

    def toggle(model: Model, q: Queue, kind: str) -> None:
        if kind not in changes:
            events._toggle(model, q, kind)
            return
        for switch, value in changes[kind].items():
            setattr(q, switch, value)

    return toggle


def fire_variant(
    *,
    toggle: Callable[[Model, Queue, str], None] = events._toggle,
    message: Callable[..., EventMessage] = events._message,
    shared_toggle_needs_perfmev: bool = False,
    nonshared_toggles_anyway: bool = False,
    nonshared_ignores_perfmev: bool = False,
    coordinator_issues: bool = True,
    others: Callable[[Model, Any], bool] = lambda model, m: m.active and m.perfmev,
    correl: str = "new",
    broadcast: Callable[[str], str] | None = None,
) -> Callable[[Model, Queue, str, str], tuple[EventMessage, ...]]:
    """:func:`cfconform.reference_model.events.fire` with one decision changed.

    ``correl`` is ``new`` (one new CorrelId per event), ``same`` (never a new one)
    or ``each`` (a new one per message); ``broadcast(kind)`` overrides the
    ``event_broadcast`` reading per event kind.
    """

    def fire(model: Model, q: Queue, kind: str, detector: str) -> tuple[EventMessage, ...]:
        if q.defn.cfstruct is None:
            owner = model.qmgrs[q.defn.qmgr]  # type: ignore[index]
            if not owner.perfmev and not nonshared_ignores_perfmev:
                if nonshared_toggles_anyway:
                    toggle(model, q, kind)
                return ()
            toggle(model, q, kind)
            return (message(q, owner.name, kind, 0),)
        coordinator = model.qmgrs[detector]
        if shared_toggle_needs_perfmev and not coordinator.perfmev:
            return ()
        toggle(model, q, kind)
        reading = broadcast(kind) if broadcast else model.readings.event_broadcast
        if not coordinator.perfmev and reading == "if-coordinator-enabled":
            return ()
        issuers = [coordinator] if coordinator.perfmev and coordinator_issues else []
        issuers += [m for m in model.qmgrs.values() if m is not coordinator and others(model, m)]
        if not issuers:
            return ()
        out = []
        for i, m in enumerate(issuers):
            if (correl == "new" and i == 0) or correl == "each":
                model.correl += 1
            out.append(message(q, m.name, kind, max(model.correl, 1)))
        return tuple(out)

    return fire


def firing(**kwargs: Any) -> Callable[[Model], None]:
    """Install a :func:`fire_variant` into MQPUT and MQGET."""
    ns = Patched(events, fire=fire_variant(**kwargs))
    return chain(rebound(Put, events=ns, _queue_full=rebind(mq._queue_full, events=ns)), rebound(Get, events=ns))


def thresholds(
    *,
    high: Callable[..., bool] | None = None,
    low: Callable[..., bool] | None = None,
) -> Callable[[Model], None]:
    """Install other ``high_reached``/``low_reached`` conversions into MQPUT and MQGET."""
    ns = Patched(events, high_reached=high or events.high_reached, low_reached=low or events.low_reached)
    return chain(rebound(Put, events=ns), rebound(Get, events=ns))


def count(pct: int, maxdepth: int, how: str) -> int:
    exact = pct * maxdepth
    return {
        "floor": exact // 100,
        "ceil": -(-exact // 100),
        "nearest": (exact + 50) // 100,
        "intdiv": pct // 100 * maxdepth,
    }[how]


def qfull_disables_hi_on_shared(model: Model, q: Queue, kind: str) -> None:
    """Mixed qfull_hi_flag: 'disabled' on shared queues, 'unchanged' on nonshared ones."""
    events._toggle(model, q, kind)
    if kind == "QFULL" and q.defn.cfstruct is not None:
        q.hi = False


def cumulative_message(q: Queue, qmgr: str, kind: str, correl: int) -> EventMessage:
    enq, deq = q.stats.get(qmgr, (0, 0))
    return EventMessage(qmgr, kind, q.defn.name, correl, enq, deq)


def group_totals_message(q: Queue, qmgr: str, kind: str, correl: int) -> EventMessage:
    enq = sum(s[0] for s in q.stats.values())
    deq = sum(s[1] for s in q.stats.values())
    q.stats[qmgr] = [0, 0]
    return EventMessage(qmgr, kind, q.defn.name, correl, enq, deq)


def ignoring_switch(op_type: type, switch: str, kind: str) -> Callable[[Model], None]:
    """The event is checked whether or not its switch is enabled."""

    def make(original: Any) -> Any:
        def handler(model: Model, op: Any) -> Outcome:
            q = model.queues[op.queue]
            saved = getattr(q, switch)
            setattr(q, switch, True)
            out = original(model, op)
            if not any(e.kind == kind for e in out.events):
                setattr(q, switch, saved)
            return out

        return handler

    return wrap(op_type, make)


def low_on_put(model: Model, op: Put, out: Outcome) -> Outcome:
    q = model.queues[op.queue]
    d = q.defn
    if out.ok and q.lo and events.low_reached(q.depth, d.qdepthlo, d.maxdepth, model.readings.qdepth_percent):
        return evolve(out, events=out.events + events.fire(model, q, "QDPLO", op.qmgr))
    return out


def full_when_filled(model: Model, op: Put, out: Outcome) -> Outcome:
    q = model.queues[op.queue]
    if out.ok and q.max and q.depth >= q.defn.maxdepth:
        return evolve(out, events=out.events + events.fire(model, q, "QFULL", op.qmgr))
    return out


def restore_switches_on_backout() -> Callable[[Model], None]:
    def on_put(original: Any) -> Any:
        def handler(model: Model, op: Put) -> Outcome:
            q = model.queues[op.queue]
            if op.syncpoint:
                state(model, "switches").setdefault(op.qmgr, {}).setdefault(q.defn.name, (q.hi, q.lo, q.max))
            return original(model, op)

        return handler

    def on_backout(model: Model, op: Backout, out: Outcome) -> Outcome:
        for name, (hi, lo, mx) in state(model, "switches").pop(op.qmgr, {}).items():
            q = model.queues[name]
            q.hi, q.lo, q.max = hi, lo, mx
        return out

    def on_commit(model: Model, op: Commit, out: Outcome) -> Outcome:
        state(model, "switches").pop(op.qmgr, None)
        return out

    return chain(wrap(Put, on_put), post(Backout, on_backout), post(Commit, on_commit))


def defer_events_to_commit() -> Callable[[Model], None]:
    def on_put(model: Model, op: Put, out: Outcome) -> Outcome:
        if op.syncpoint and out.events:
            held = state(model, "held")
            held[op.qmgr] = held.get(op.qmgr, ()) + out.events
            return evolve(out, events=())
        return out

    def on_commit(model: Model, op: Commit, out: Outcome) -> Outcome:
        return evolve(out, events=out.events + state(model, "held").pop(op.qmgr, ()))

    def on_backout(model: Model, op: Backout, out: Outcome) -> Outcome:
        state(model, "held").pop(op.qmgr, None)
        return out

    return chain(post(Put, on_put), post(Commit, on_commit), post(Backout, on_backout))


def depth_unlimited(model: Model, op: Put) -> Outcome | None:
    q = model.queues[op.queue]
    if q.depth < q.defn.maxdepth:
        return None
    return with_defn(q, {"maxdepth": 999_999_999}, lambda: mq.put(model, op))


def full_one_early(model: Model, op: Put) -> Outcome | None:
    q = model.queues[op.queue]
    if q.depth + 1 >= q.defn.maxdepth:
        return Outcome("put", False, MQRC_Q_FULL, ("QDEPTH-015",))
    return None


def q_full_reason(model: Model, op: Put, out: Outcome) -> Outcome:
    return evolve(out, reason=MQRC_STORAGE_MEDIUM_FULL) if out.reason == MQRC_Q_FULL else out


def reject_maxdepth_zero(model: Model, op: AlterQueue) -> Outcome | None:
    if dict(op.changes).get("maxdepth") == 0:
        return Outcome("alter_queue", False, CMD_INVALID, ("QDEPTH-014",))
    return None


def stopped_stay_silent() -> Callable[[Model], None]:
    """QDEPTH-016 fault: a queue manager that was ever stopped is still taken as inactive for events."""

    def on_stop(model: Model, op: StopQmgr, out: Outcome) -> Outcome:
        state(model, "stopped")[op.qmgr] = True
        return out

    def others(model: Model, m: Any) -> bool:
        return m.active and m.perfmev and m.name not in state(model, "stopped")

    return chain(post(StopQmgr, on_stop), firing(others=others))
