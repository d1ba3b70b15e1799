"""Queue depth events and their toggling (QDEPTH-001..013, seed 004, ibm-facts 4).

Events are generated and toggled outside syncpoint (QDEPTH-012): they are
decided at put/get time and never undone by a backout.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .outcomes import EventMessage

if TYPE_CHECKING:
    from .group import GroupState
    from .state import Qmgr, Queue


def high_reached(depth: int, pct: int, maxdepth: int, reading: str) -> bool:
    """QDEPTH-001/013: depth at or above QDEPTHHI percent of MAXDEPTH, under a conversion reading."""
    if reading == "real":
        return 100 * depth >= pct * maxdepth
    limit = pct * maxdepth // 100 if reading == "floor" else -(-pct * maxdepth // 100)
    return depth >= limit


def low_reached(depth: int, pct: int, maxdepth: int, reading: str) -> bool:
    """QDEPTH-002/013: depth at or below QDEPTHLO percent of MAXDEPTH."""
    if reading == "real":
        return 100 * depth <= pct * maxdepth
    limit = pct * maxdepth // 100 if reading == "floor" else -(-pct * maxdepth // 100)
    return depth <= limit


#: QDEPTH-004/005/006: the switches each event sets (QDPHIEV, QDPLOEV and QDPMAXEV are ``hi``, ``lo`` and
#: ``max``); QDPHIEV after Queue Full is the reading ``qfull_hi_flag``'s.
SWITCHES = {
    "QDPHI": {"hi": False, "lo": True, "max": True},
    "QDPLO": {"hi": True, "lo": False, "max": True},
    "QFULL": {"lo": True, "max": False},
}


def _toggle(model: GroupState, q: Queue, kind: str) -> None:
    """QDEPTH-004/005/006: the switches each event flips."""
    for switch, value in SWITCHES[kind].items():
        setattr(q, switch, value)
    if kind == "QFULL" and model.readings.qfull_hi_flag == "disabled":
        q.hi = False


def _message(q: Queue, qmgr: str, kind: str, correl: int) -> EventMessage:
    """QDEPTH-011: the issuing queue manager's statistics since its last event message, or since
    RESET QSTATS restarted them (QDEPTH-017)."""
    enq, deq = q.stats.get(qmgr, (0, 0))
    q.stats[qmgr] = [0, 0]
    if qmgr in q.reset:
        q.from_reset, q.reset = True, q.reset - {qmgr}
    return EventMessage(qmgr, kind, q.defn.name, correl, enq, deq)


def _issue(q: Queue, names: list[str], kind: str, correl: int) -> tuple[EventMessage, ...]:
    q.from_reset = False
    return tuple(_message(q, name, kind, correl) for name in names)


def fire(model: GroupState, q: Queue, kind: str, detector: str) -> tuple[EventMessage, ...]:
    """Raise event ``kind`` detected by ``detector`` on ``q``; return the event messages.

    Shared queues toggle even when PERFMEV is DISABLED (QDEPTH-007); the detector
    becomes the coordinating queue manager (QDEPTH-009) and every other active
    queue manager with PERFMEV ENABLED issues a message with the same CorrelId
    (QDEPTH-010, QDEPTH-016).  Nonshared queues do nothing while the owner has
    PERFMEV DISABLED (QDEPTH-008) and carry no CorrelId (``correl`` 0).
    """
    if q.defn.cfstruct is None:
        owner = model.qmgrs[q.defn.qmgr]  # type: ignore[index]
        if _muted(owner):
            return ()
        _toggle(model, q, kind)
        return _issue(q, [owner.name], kind, 0)
    _toggle(model, q, kind)
    coordinator = model.qmgrs[detector]
    if _silenced(model, coordinator, kind):
        return ()
    issuers = _issuers(model, coordinator)
    if not issuers:
        return ()
    model.correl += 1
    return _issue(q, issuers, kind, model.correl)


def _muted(owner: Qmgr) -> bool:
    """QDEPTH-008: a nonshared queue's events do nothing (no switch, no message) while its owner has
    PERFMEV(DISABLED)."""
    return not owner.perfmev


def _silenced(model: GroupState, coordinator: Qmgr, kind: str) -> bool:
    """QDEPTH-010: whether a shared queue's event ``kind`` gives no event message at all: the coordinator
    has PERFMEV(DISABLED) and, under the ``event_broadcast`` reading, then broadcasts nothing."""
    return not coordinator.perfmev and model.readings.event_broadcast == "if-coordinator-enabled"


def _issuers(model: GroupState, coordinator: Qmgr) -> list[str]:
    """QDEPTH-009/010/016: the queue managers that issue a shared queue's event message, the
    coordinator first (if its PERFMEV is ENABLED), then every other active one with PERFMEV ENABLED."""
    first = [coordinator.name] if coordinator.perfmev else []
    return first + [m.name for m in model.qmgrs.values() if m is not coordinator and m.active and m.perfmev]


TOGGLE_RULE = {"QDPHI": "QDEPTH-004", "QDPLO": "QDEPTH-005", "QFULL": "QDEPTH-006"}


def rules_for(kind: str, q: Queue, messages: tuple[EventMessage, ...]) -> tuple[str, ...]:
    """The rules that decided an event's switches and messages."""
    counted = ("QDEPTH-011", "QDEPTH-017") if q.from_reset else ("QDEPTH-011",)
    if q.defn.cfstruct is None:
        return (TOGGLE_RULE[kind], "QDEPTH-008") + (counted if messages else ())
    found = (TOGGLE_RULE[kind], "QDEPTH-007", "QDEPTH-016")
    if messages:
        found += ("QDEPTH-009", "QDEPTH-010", *counted)
    return found


def count(q: Queue, qmgr: str, enq: int, deq: int) -> None:
    """Add to ``qmgr``'s MsgEnqCount/MsgDeqCount for ``q``."""
    stats = q.stats.get(qmgr)
    if stats is None:
        q.stats[qmgr] = [enq, deq]
    else:
        stats[0] += enq
        stats[1] += deq
