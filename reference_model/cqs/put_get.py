"""CQSPUT and CQSREAD + CQSDEL (CQS-012, CQS-017, CQS-019, CQS-022, QUEUE-001, CAPACITY-001/010).

A CQSPUT is refused on a fenced queue (CQS-012), split into parts (CQS-017), stored, and then checked
against OVFLWMAX, which starts an alter (CQS-003); in overflow mode it may select again.  A CQSREAD +
CQSDEL of the oldest data object may end overflow mode without OVFLWSTR (CQS-015).  The top of the
``cqs`` package: it draws on every other module of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..accounting import fits
from ..errors import ConfigurationError
from ..outcomes import CQS_NO_MSG, CQS_REJECTED_OVERFLOW, CQS_STRUCTURE_FULL, Outcome
from ..state import Message
from .adopt import _adopt_unseen_overflow, _adopt_unseen_relief, _unseen, adopt_put
from .alter import _alter_now
from .relief import _end_overflow, relieved
from .selection import _reselect
from .storage import _charge, _in_overflow, message_parts
from .threshold import (
    _may_alter,
    _moved_within,
    _reselect_due,
    _round_unseen,
    _seen_cost,
    _selects,
    _threshold_reached,
)
from .usage import _metric

if TYPE_CHECKING:
    from ..group import GroupState
    from ..operations import Get, Put
    from ..state import Structure


def put(model: GroupState, op: Put) -> Outcome:
    """CQSPUT: rejected on a fenced queue (CQS-012), split (CQS-017), then the OVFLWMAX check."""
    model.qmgr(op.qmgr)
    q = model.queue(op.queue)
    s = model.structures[q.defn.cfstruct]  # type: ignore[index]
    if type(op.length) is not int or op.length < 0:  # no IMS document caps a CQS message's length
        raise ConfigurationError("put.length", op.length, "an integer >= 0", "CQS-017")
    name = q.defn.name
    _adopt_unseen_overflow(model, s, name)
    _adopt_unseen_relief(model, s, name)
    adopt_put(model, s, name)
    overflowed = _in_overflow(s, name)
    first, staged = message_parts(op.length, model.lgmsgsz, model.acct)
    later = sum(staged)  # (elements of the later parts: once, a message may have thousands of them)
    if overflowed and s.defn.ovflwstr is None:
        # when the message may not fit either, which of the two documented refusals wins is not
        # documented: the implementation's STRUCTURE_FULL stands unless the room is certain
        said_full = model.hint is not None and model.hint.outcome.reason == CQS_STRUCTURE_FULL
        full = said_full and not model.room(s, 1 + len(staged), first + later, (CQS_STRUCTURE_FULL,), True, op.length)
        signals, rules = _at_refusal(model, s)
        if full:
            rules = ("CAPACITY-001", "CQS-012", *rules)
            return Outcome("put", False, CQS_STRUCTURE_FULL, rules, signals=signals, usage=s.pools.as_tuple())
        return Outcome("put", False, CQS_REJECTED_OVERFLOW, ("CQS-012", *rules), signals=signals)
    if model.hint is not None:
        primary = not overflowed or bool(staged)
        # certain room by the costs seen (GroupState.room) only for a message kept whole on the primary
        length = op.length if not overflowed else None
        ok = model.room(s, 1 + len(staged), first + later, (CQS_STRUCTURE_FULL,), primary, length)
    else:
        primary = model.pools(s)
        ok = fits(primary, len(staged), later)
        if overflowed:
            ok = ok and fits(s.overflow_pools.as_tuple(), 1, first)  # type: ignore[union-attr]
        else:
            ok = fits(primary, 1 + len(staged), first + later)
    if not ok:
        signals, rules = _at_refusal(model, s)
        rules = ("CAPACITY-001", *rules)
        return Outcome("put", False, CQS_STRUCTURE_FULL, rules, signals=signals, usage=s.pools.as_tuple())
    msg = Message(model.next_seq(), op.tag, op.length, False, False, first, False)
    msg.cost = _seen_cost(model, s, 1 + len(staged))
    msg.staged = staged
    msg.on_overflow = overflowed
    _charge(s, msg, +1)
    q.msgs.append(msg)
    q.depth += 1
    rules = ("CQS-017", "CQS-021") if staged else ()
    if overflowed:
        rules += ("CQS-022",)
    signals = model.full_signals(s, moved=s.defn.ovflwstr is not None and _selects(model, s.defn.name))
    # queues moved within this put: overflow processing began again, so the scan had released all
    # the implementation selected (emptied candidates only) and overflow mode had ended.  A put to a
    # queue that may be in overflow mode puts its first part on the overflow structure, its later
    # parts still on the primary (CQS-019)
    maybe_overflowed = name in s.overflow_queues or name in (s.selection_open or {})
    gain = len(staged) + (0 if maybe_overflowed else 1)  # the least the primary gains if nothing moved
    if s.overflow_mode and s.selection_scanned and _moved_within(model, s, gain):
        signals += _end_overflow(s, model)
    if s.overflow_mode and not s.round_unseen and _round_unseen(model, s, 1 + len(staged)):
        s.round_unseen = True
    if s.overflow_mode and _reselect_due(model, s, 1 + len(staged)):
        more = _reselect(model, s)
        signals += tuple(f"OVERFLOW_QUEUE {s.defn.name} {n}" for n in more)
        rules += ("CQS-006", "CQS-007")
        if more and s.defn.ovflwstr is not None:
            signals += _passing_full(model, s, signals)
    idle = _may_alter(s)
    # (a scan ran over a selection never shown: overflow mode may have ended, unseen, before this put)
    # (or, without OVFLWSTR, a CQSDEL may have ended it unseen: see relieved)
    scanned = s.selection_open is not None and s.selection_scanned
    left = s.overflow_mode and (scanned or s.relief_unseen) and not s.alter_pending
    if (idle or left) and (_unseen(model, s) or (left and _threshold_reached(model, s, 1 + len(staged)))):
        s.alter_unseen = True
        if model.readings.cqs_alter == "sync":  # an alter completed unseen leaves a size of its own
            s.size_known, s.size_range = False, None
    if idle and _threshold_reached(model, s, 1 + len(staged)):
        started, why = _start_alter(model, s)
        signals, rules = signals + started, rules + why
    return Outcome("put", True, rules=rules, signals=signals, usage=s.pools.as_tuple())


def _at_refusal(model: GroupState, s: Structure) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The signals and rules of a CQSPUT refused (for room, or on a queue in overflow mode).

    "When the usage of a structure reaches the overflow threshold, CQS attempts to make the
    structure larger by initiating a structure alter" (seed 000) does not wait for a put that
    succeeds, so a refused put finding usage at OVFLWMAX may start the alter (CQS-003) or, in
    overflow mode, a further selection round (CQS-006, ``cqs_reselect=select``) as any other put
    may.  The model follows what the implementation shows and requires neither: usage it shows
    below the threshold still rules them out, and a selection is judged as any other."""
    if model.hint is None:
        return (), ()
    if _may_alter(s):
        return _alter_at_refusal(model, s)
    if s.overflow_mode and _selects(model, s.defn.name) and _reselect_due(model, s, 0):
        more = _reselect(model, s)
        signals = tuple(f"OVERFLOW_QUEUE {s.defn.name} {n}" for n in more)
        if more and s.defn.ovflwstr is not None:
            signals += _passing_full(model, s, signals)
        return signals, ("CQS-006", "CQS-007")
    return (), ()


def _alter_at_refusal(model: GroupState, s: Structure) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """:func:`_at_refusal` on a structure with no alter or overflow mode under way (after overflow
    mode ended at once, say: the ``ends`` reading of ``cqs_empty_overflow``): the alter the
    implementation shows (``ALTER``), or one it may have started unseen (no CQS signals, usage not
    shown: as at a put that succeeds, :func:`_unseen`)."""
    hint = model.hint
    usage = model.after(s) or model.before(s)
    reached = model.reached(usage, s.defn.effective_ovflwmax, _metric(model), True)
    if reached is False or hint is None:
        return (), ()
    if not hint.says(f"ALTER {s.defn.name}"):
        if reached is None and not hint.cqs_signals:
            s.alter_unseen = True
            if model.readings.cqs_alter == "sync":  # (an alter completed unseen leaves a size of its own)
                s.size_known, s.size_range = False, None
        return (), ()
    return _start_alter(model, s)


def _start_alter(model: GroupState, s: Structure) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """CQS-003/020: a CQSPUT reaching OVFLWMAX starts the alter (signals and rules): pending under
    ``cqs_alter=async``, completed inside the put under ``sync`` (:func:`_alter_now`)."""
    signals = (f"ALTER {s.defn.name}",)
    rules = ("CQS-003", "CQS-020", "CQS-001" if s.defn.ovflwmax is None else "CQS-002")
    if model.readings.cqs_alter != "sync":
        s.alter_pending = True
        return signals, rules
    done = _alter_now(model, s)
    return signals + done.signals, rules + done.rules


def _passing_full(model: GroupState, s: Structure, signals: tuple[str, ...]) -> tuple[str, ...]:
    """CAPACITY-002/003 within a CQSPUT that moved queues to the overflow structure: the put may take
    the primary to FULLTHRESHOLD before the queues leave it, so z/OS may issue IXC585E and then
    IXC586I in the one step (no document says whether it sees a condition that brief).  The pair is
    accepted when the implementation reports both and the primary does not end at the threshold
    (where its usage after the step is unknown, the IXC585E is already taken from its report)."""
    hint, name = model.hint, s.defn.name
    rise, fall = f"IXC585E {name}", f"IXC586I {name}"
    if hint is None or fall in signals or not (hint.says(rise) and hint.says(fall)):
        return ()
    after = model.after(s)
    if after is not None and model.reached(after, s.defn.fullthreshold, "max", True) is not False:
        return ()
    if rise in signals:
        s.full_warning = False
        return (fall,)
    return () if s.full_warning else (rise, fall)


def get(model: GroupState, op: Get) -> Outcome:
    """CQSREAD + CQSDEL of the oldest data object; may end overflow without OVFLWSTR (CQS-015)."""
    model.qmgr(op.qmgr)
    q = model.queue(op.queue)
    s = model.structures[q.defn.cfstruct]  # type: ignore[index]
    if not q.msgs:
        return Outcome("get", False, CQS_NO_MSG, ("QUEUE-001",))
    msg = q.msgs.pop(0)
    q.depth -= 1
    _charge(s, msg, -1)
    rules: tuple[str, ...] = ("QUEUE-001", "CAPACITY-010")
    signals = model.full_signals(s)
    ended = relieved(model, s)
    if ended:  # usage, read as CQS-020 reads it, fell 20% below the threshold
        signals += ended
        rules += ("CQS-015", "CQS-020")
    return Outcome("get", True, rules=rules, tag=msg.tag, signals=signals, usage=s.pools.as_tuple())
