"""Mutants of the queue depth event rules (QDEPTH-001..017), profile ``mq``: one row each (:func:`.kit.family`).

Reproducers use MAXDEPTH 4 with QDEPTHHI(25) and QDEPTHLO(0), so that one put reaches the high limit and one get the
low limit under every ``qdepth_percent`` reading (``MAXDEPTH(0)`` makes the first put a Queue Full), and one queue
manager unless the rule is about the others.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from cfconform.reference_model import events, mq
from cfconform.reference_model import outcomes as rc
from cfconform.reference_model.model import Model
from cfconform.reference_model.operations import AlterQueue, Backout, Commit, Get, Put, ResetQstats, StartQmgr, StopQmgr
from cfconform.reference_model.outcomes import EventMessage, Outcome
from cfconform.reference_model.state import Queue

from .kit import Patched, around, chain, family, lenient, post, pre, reading, reason_for, rebind, rebound, refuse, state
from .mq_common import INSPECT, full_at, get, mq_config, one, put, qd, sd


def firing(fire: Callable[..., tuple[EventMessage, ...]]) -> Callable[[Model], None]:
    """Install another ``events.fire`` into MQPUT (its Queue Full path too) and MQGET."""
    ns = Patched(events, fire=fire)
    return chain(rebound(Put, events=ns, _queue_full=rebind(mq._queue_full, events=ns)), rebound(Get, events=ns))


def fire_with(**names: Any) -> Callable[[Model], None]:
    """:func:`cfconform.reference_model.events.fire` with some of its rule functions swapped
    (``_toggle``, ``_issue``, ``_issuers``, ``_muted``, ``_silenced``)."""
    return firing(rebind(events.fire, **names))


def issuing(others: Callable[[Model, Any], bool], coordinator: bool = True) -> Callable[[Model], None]:
    """The coordinator (PERFMEV ENABLED; none unless ``coordinator``) and the other queue managers
    where ``others(model, m)`` holds issue the event messages."""
    return fire_with(
        _issuers=lambda model, c: (
            [c.name] * (c.perfmev and coordinator)
            + [m.name for m in model.qmgrs.values() if m is not c and others(model, m)]
        )
    )


def thresholds(*, high: Any = events.high_reached, low: Any = events.low_reached) -> Callable[[Model], None]:
    """Other ``high_reached``/``low_reached`` conversions of QDEPTHHI/QDEPTHLO in MQPUT and MQGET."""
    return rebound((Put, Get), events=Patched(events, high_reached=high, low_reached=low))


def _toggles(changes: dict[str, dict[str, bool]]) -> Callable[[Model], None]:
    """Event kinds in ``changes`` set these switches instead (``events.SWITCHES``)."""
    return fire_with(_toggle=rebind(events._toggle, SWITCHES=events.SWITCHES | changes))


def _correl_each(model: Model, q: Queue, kind: str, detector: str) -> tuple[EventMessage, ...]:
    """Each event message of a shared queue gets a CorrelId of its own."""
    found = events.fire(model, q, kind, detector)
    if q.defn.cfstruct is None or not found:
        return found
    model.correl += len(found) - 1
    return tuple(attrs.evolve(e, correl=e.correl + i) for i, e in enumerate(found))


def group_totals_message(q: Queue, qmgr: str, kind: str, correl: int) -> EventMessage:
    enq, deq = (sum(s[i] for s in q.stats.values()) for i in (0, 1))
    q.stats[qmgr] = [0, 0]
    return EventMessage(qmgr, kind, q.defn.name, correl, enq, deq)


def ignoring_switch(op_type: type, switch: str) -> Callable[[Model], None]:
    """The event is checked whether or not its switch is enabled (a switch still enabled after the step
    gets its old value back; one the event disabled stays so)."""

    def before(model: Model, op: Any) -> tuple[Queue, bool]:
        q = model.queues[op.queue]
        saved = getattr(q, switch)
        setattr(q, switch, True)
        return q, saved

    return around(op_type, before, lambda m, op, kept: getattr(kept[0], switch) and setattr(kept[0], switch, kept[1]))


def also_fires(kind: str, when: Callable[[Model, Queue], bool]) -> Callable[[Model], None]:
    """An accepted put also raises event ``kind`` where ``when(model, q)`` holds after it."""

    def fn(model: Model, op: Put, out: Outcome) -> Outcome:
        q = model.queues[op.queue]
        fired = events.fire(model, q, kind, op.qmgr) if out.ok and when(model, q) else ()
        return attrs.evolve(out, events=out.events + fired) if fired else out

    return post(Put, fn)


def _save_switches(model: Model, op: Put) -> None:
    """Keep the event switches a queue had before ``op.qmgr``'s unit of work first put to it."""
    q = model.queues[op.queue]
    if op.syncpoint:
        state(model, "switches").setdefault(op.qmgr, {}).setdefault(op.queue, (q.hi, q.lo, q.max))


def _restore_switches(model: Model, op: Backout | Commit, out: Outcome) -> Outcome:
    """The end of a unit of work forgets the switches kept; a backout restores them."""
    for name, (hi, lo, mx) in state(model, "switches").pop(op.qmgr, {}).items() if isinstance(op, Backout) else ():
        model.queues[name].hi, model.queues[name].lo, model.queues[name].max = hi, lo, mx
    return out


def _held(model: Model, op: Any, out: Outcome) -> Outcome:
    """Events of puts under syncpoint held back until the unit of work ends (given at commit)."""
    held = state(model, "held")
    if isinstance(op, Put):
        if not (op.syncpoint and out.events):
            return out
        held[op.qmgr] = held.get(op.qmgr, ()) + out.events
        return attrs.evolve(out, events=())
    kept = held.pop(op.qmgr, ())
    return attrs.evolve(out, events=out.events + kept) if isinstance(op, Commit) else out


def _enabled(model: Model, m: Any) -> bool:
    return m.active and m.perfmev  # (the model's test for the other queue managers)


def q1(**fields: Any) -> Any:
    """Shared queue Q1 on APP1, MAXDEPTH(4) QDEPTHHI(25) QDEPTHLO(0), switches off unless given."""
    return qd("Q1", **{"maxdepth": 4, "qdepthhi": 25, "qdepthlo": 0, **fields})


def cfg(*queues: Any, **kw: Any) -> Any:
    return mq_config(sd(), queues=list(queues) or [q1(qdphiev=True)], **kw)


TWO = ("QM01", "QM02")
_FULL = {"maxdepth": 0, "qdpmaxev": True}
_LOCAL = {"maxdepth": 4, "qdepthhi": 25, "qdphiev": True}

# fmt: off
MUTANTS = family(
    "QDEPTH",
    ("001-a", "Queue Depth High only when depth exceeds QDEPTHHI, not when it reaches it.", cfg(), [put()],
     thresholds(high=lambda d, pct, md, reading: 100 * d > pct * md)),
    ("001-b", "Queue Depth High is raised although QDPHIEV is DISABLED.", cfg(q1()), [put()],
     ignoring_switch(Put, "hi")),
    ("002-a", "Queue Depth Low only when depth falls below QDEPTHLO, not when it reaches it.", cfg(q1(qdploev=True)),
     [put(), get()], thresholds(low=lambda d, pct, md, reading: 100 * d < pct * md)),
    ("002-b", "Queue Depth Low is also checked on puts.", cfg(q1(qdploev=True, qdepthlo=50)), [put()],
     also_fires("QDPLO", lambda m, q: q.lo and events.low_reached(q.depth, q.defn.qdepthlo, q.defn.maxdepth,
                                                                  m.readings.qdepth_percent))),
    ("002-c", "Queue Depth Low is raised although QDPLOEV is DISABLED.", cfg(q1()), [put(), get()],
     ignoring_switch(Get, "lo")),
    ("003-a", "No Queue Full event: the rejected put is all that happens.", cfg(q1(**_FULL)), [put()],
     firing(lambda m, q, kind, det: () if kind == "QFULL" else events.fire(m, q, kind, det))),
    ("003-b", "Queue Full is raised by the put that fills the queue, not the first one rejected.",
     cfg(q1(maxdepth=1, qdpmaxev=True)), [put()],
     also_fires("QFULL", lambda m, q: q.max and q.depth >= q.defn.maxdepth)),
    ("003-c", "Queue Full is raised although QDPMAXEV is DISABLED.", cfg(q1(maxdepth=0)), [put()],
     ignoring_switch(Put, "max")),
    ("004-a", "A high event leaves QDPHIEV ENABLED (repeated high events).", cfg(), [put(), put()],
     _toggles({"QDPHI": {"lo": True, "max": True}})),
    ("004-b", "A high event does not enable QDPLOEV.", cfg(), [put(), get()],
     _toggles({"QDPHI": {"hi": False, "max": True}})),
    ("004-c", "A high event does not enable QDPMAXEV.", cfg(q1(qdphiev=True, maxdepth=1, qdepthhi=100)),
     [put(), put()], _toggles({"QDPHI": {"hi": False, "lo": True}})),
    ("005-a", "A low event does not enable QDPHIEV.", cfg(q1(qdploev=True)), [put(), get(), put()],
     _toggles({"QDPLO": {"lo": False, "max": True}})),
    ("005-b", "A low event leaves QDPLOEV ENABLED.", cfg(q1(qdploev=True)), [put(), get(), INSPECT],
     _toggles({"QDPLO": {"hi": True, "max": True}})),
    ("005-c", "A low event does not enable QDPMAXEV.", cfg(q1(qdploev=True)), [put(), get(), INSPECT],
     _toggles({"QDPLO": {"hi": True, "lo": False}})),
    ("006-a", "A Queue Full event leaves QDPMAXEV ENABLED (repeated Queue Full events).", cfg(q1(**_FULL)),
     [put(), put()], _toggles({"QFULL": {"lo": True}})),
    ("006-b", "A Queue Full event does not enable QDPLOEV.", cfg(q1(**_FULL)), [put(), INSPECT],
     _toggles({"QFULL": {"max": False}})),
    ("006-c", "A Queue Full event enables QDPHIEV.", cfg(q1(**_FULL)), [put(), INSPECT],
     _toggles({"QFULL": {"hi": True, "lo": True, "max": False}})),
    ("006-d", "Mixed reading: Queue Full disables QDPHIEV on shared queues only.",
     cfg(q1(**_FULL, qdphiev=True), qd("Q2", None, qmgr="QM01", maxdepth=0, qdphiev=True, qdpmaxev=True)),
     [put(), put(queue="Q2"), INSPECT],
     reading(Put, qfull_hi_flag=lambda m, op: "disabled" if m.queues[op.queue].defn.cfstruct else "unchanged"),
     ("qfull_hi_flag",)),
    ("007-a", "Shared-queue switches are not toggled when the detecting queue manager has PERFMEV(DISABLED).",
     cfg(perfmev_disabled=("QM01",)), [put(), INSPECT],
     firing(lambda m, q, kind, det: events.fire(m, q, kind, det) if m.qmgrs[det].perfmev else ())),
    ("008-a", "A nonshared queue's switches toggle while PERFMEV is DISABLED.",
     cfg(qd("Q1", None, qmgr="QM01", **_LOCAL), perfmev_disabled=("QM01",)), [put(), INSPECT],
     firing(lambda m, q, kind, det: (events._toggle(m, q, kind), events.fire(m, q, kind, det))[1])),
    ("008-b", "A nonshared queue issues event messages while PERFMEV is DISABLED.",
     cfg(qd("Q1", None, qmgr="QM01", **_LOCAL), perfmev_disabled=("QM01",)), [put()],
     fire_with(_muted=lambda owner: False)),
    ("009-a", "Every event message carries the same CorrelId.", cfg(q1(qdphiev=True)), [put(), get()],
     fire_with(_issue=lambda q, names, kind, c: events._issue(q, names, kind, min(c, 1)))),
    ("009-b", "The detecting queue manager issues no event message.", cfg(), [put()],
     issuing(_enabled, coordinator=False)),
    ("009-c", "The first queue manager of the group issues its event message first, not the one that detected "
     "the event (the coordinator issues its own, then broadcasts).", cfg(qmgrs=TWO), [put(qmgr="QM02")],
     post(Put, lambda m, op, o: attrs.evolve(
         o, events=tuple(sorted(o.events, key=lambda e: list(m.qmgrs).index(e.qmgr)))))),
    ("010-a", "Each queue manager's event message gets a CorrelId of its own.", cfg(qmgrs=TWO), [put()],
     firing(_correl_each)),
    ("010-b", "Only the detecting queue manager issues an event message.", cfg(qmgrs=TWO), [put()],
     issuing(lambda model, m: False)),
    ("010-c", "Queue managers with PERFMEV(DISABLED) issue event messages too.",
     cfg(qmgrs=TWO, perfmev_disabled=("QM02",)), [put()], issuing(lambda model, m: m.active)),
    ("010-d", "Mixed reading: high events are broadcast always, low events only if the coordinator has "
     "PERFMEV(ENABLED).",
     cfg(q1(qdphiev=True), qmgrs=TWO, perfmev_disabled=("QM01",)), [put(), get()],
     fire_with(_silenced=lambda m, c, kind: kind != "QDPHI" and not c.perfmev), ("event_broadcast",)),
    ("011-a", "MsgEnqCount/MsgDeqCount are not reset by an event message (cumulative).", cfg(q1(qdphiev=True)),
     [put(), get()],
     fire_with(_issue=rebind(events._issue, _message=lambda q, qmgr, kind, c: EventMessage(
         qmgr, kind, q.defn.name, c, *q.stats.get(qmgr, (0, 0)))))),
    ("011-b", "Each event message carries the group's totals, not its queue manager's.",
     cfg(q1(qdepthhi=50, qdphiev=True), qmgrs=TWO), [put(qmgr="QM02"), put()],
     fire_with(_issue=rebind(events._issue, _message=group_totals_message))),
    ("012-a", "A backout restores the event switches.", cfg(), [put(syncpoint=True), Backout("QM01"), put()],
     chain(pre(Put, _save_switches), post((Backout, Commit), _restore_switches))),
    ("012-b", "Events of puts under syncpoint are held until commit.", cfg(), [put(syncpoint=True)],
     post((Put, Commit, Backout), _held)),
    ("013-a", "QDEPTHHI percent is rounded to the nearest count.",
     cfg(q1(maxdepth=10, qdepthhi=12, qdphiev=True), qd("Q2", maxdepth=10, qdepthhi=17, qdphiev=True)),
     [put(), put(queue="Q2")], thresholds(high=lambda d, pct, md, reading: d >= (pct * md + 50) // 100)),
    ("013-b", "The limit is computed as QDEPTHHI // 100 * MAXDEPTH (integer division first).",
     cfg(q1(maxdepth=10, qdepthhi=50, qdphiev=True)), [put()],
     thresholds(high=lambda d, pct, md, reading: d >= pct // 100 * md)),
    ("013-c", "Mixed reading: floor for QDEPTHHI, ceil for QDEPTHLO.",
     cfg(q1(maxdepth=10, qdepthhi=15, qdepthlo=5, qdphiev=True)), [put(), put(), get()],
     thresholds(high=lambda d, pct, md, reading: d >= pct * md // 100,
                low=lambda d, pct, md, reading: d <= -(-pct * md // 100)), ("qdepth_percent",)),
    ("014-a", "QDEPTHHI above 100 is accepted.", cfg(), [AlterQueue("Q1", {"qdepthhi": 101})],
     lenient(AlterQueue, "QDEPTH-014")),
    ("015-a", "MAXDEPTH is not enforced.", cfg(q1(maxdepth=0)), [put()], full_at(lambda q: 999_999_999)),
    ("015-b", "The queue is full one message early (depth + 1 >= MAXDEPTH).", cfg(q1(maxdepth=1)), [put()],
     refuse(Put, lambda m, op: (q := m.queues[op.queue]).depth + 1 >= q.defn.maxdepth, rc.MQRC_Q_FULL, "QDEPTH-015")),
    # plenty of room (Table 2): not a full structure
    ("015-c", "A put to a full queue fails with 2192 instead of 2053.", one(size=8192, queues=[q1(maxdepth=0)]),
     [INSPECT, put()], reason_for(Put, rc.MQRC_Q_FULL, rc.MQRC_STORAGE_MEDIUM_FULL)),
    ("016-a", "A stopped queue manager still issues event messages.", cfg(qmgrs=TWO), [StopQmgr("QM02"), put()],
     issuing(lambda model, m: m.perfmev)),
    ("016-b", "A restarted queue manager is still taken as inactive: it issues no event messages.", cfg(qmgrs=TWO),
     [StopQmgr("QM02"), StartQmgr("QM02"), put()],
     chain(post(StopQmgr, lambda m, op, o: state(m, "stopped").update({op.qmgr: True}) or o),
           issuing(lambda m, qm: _enabled(m, qm) and qm.name not in state(m, "stopped")))),
    ("017-a", "RESET QSTATS is acknowledged but resets nothing.", cfg(q1(qdepthhi=50, qdphiev=True)),
     [put(), ResetQstats("QM01", "Q1"), put()],
     pre(ResetQstats, lambda model, op: Outcome("reset_qstats", rules=("QDEPTH-017",)))),
    ("017-b", "RESET QSTATS resets every queue manager's counts, not only the issuing one's.",
     cfg(q1(qdepthhi=50, qdphiev=True), qmgrs=TWO), [put(qmgr="QM02"), ResetQstats("QM01", "Q1"), put()],
     post(ResetQstats, lambda m, op, o: m.queues[op.queue].stats.update({n: [0, 0] for n in m.queues[op.queue].stats})
          or o)),
)
# fmt: on
