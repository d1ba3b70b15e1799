"""IMS CQS structure overflow (seed 000; ibm-facts 1): the cqs profile's operations.

Sequence: a CQSPUT that leaves primary usage at or above OVFLWMAX starts a
structure alter (CQS-003); z/OS answers with :class:`AlterOutcome`.  Success
means no overflow (CQS-004); failure means overflow mode (CQS-005), in which
queues are selected (CQS-006..010, CQS-018) atomically (CQS-008), then moved
(CQS-011, CQS-019) or fenced off (CQS-012).  Overflow ends by the 15-minute
scan (CQS-013/014) or by usage falling (CQS-015).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .accounting import elements_for, fits, usage_pct
from .errors import ConfigurationError
from .group import TABLE2_FIXED_KB, TABLE2_MARGIN
from .outcomes import (
    CMD_INVALID,
    CMD_NO_ALTER_PENDING,
    CQS_NO_MSG,
    CQS_REJECTED_OVERFLOW,
    CQS_STRUCTURE_FULL,
    Outcome,
)  # fmt: skip
from .state import Message, Pools, Queue, Structure

if TYPE_CHECKING:
    from .config import Accounting
    from .group import GroupState
    from .operations import AlterOutcome, Get, Put, SetOverflowExit

SCAN_SECONDS = 900


def target(model: GroupState, s: Structure) -> float:
    """CQS-007/015: usage "20% below the overflow threshold", under the target reading."""
    threshold = s.defn.effective_ovflwmax
    reading = model.readings.cqs_target
    if reading == "points":
        return threshold - 20.0
    if reading == "points-floor":
        return max(0.0, threshold - 20.0)
    if reading == "relative":
        return 0.8 * threshold
    if reading == "drop-points":
        return s.overflow_base - 20.0
    return 0.8 * s.overflow_base


def _metric(model: GroupState) -> str:
    """CQS-020: the usage CQS compares with OVFLWMAX, under the ``cqs_usage_metric`` reading."""
    return model.readings.cqs_usage_metric


def _usage(model: GroupState, s: Structure) -> float:
    return model.usage(s, _metric(model))


def message_parts(length: int, lgmsgsz: int, acct: Accounting) -> tuple[int, tuple[int, ...]]:
    """CQS-017: elements of the first part and of each later (staging) part of a ``length``-byte
    message, ``lgmsgsz`` being LGMSGSZ as rounded (CQS-021)."""
    if length <= lgmsgsz:
        return elements_for(length, acct), ()
    full, last = divmod(length - lgmsgsz, lgmsgsz)
    staged = (elements_for(lgmsgsz, acct),) * full + ((elements_for(last, acct),) if last else ())
    return elements_for(lgmsgsz, acct), staged


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
        if full:
            return Outcome("put", False, CQS_STRUCTURE_FULL, ("CAPACITY-001", "CQS-012"), usage=s.pools.as_tuple())
        return Outcome("put", False, CQS_REJECTED_OVERFLOW, ("CQS-012",))
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
        return Outcome("put", False, CQS_STRUCTURE_FULL, ("CAPACITY-001",), usage=s.pools.as_tuple())
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
    signals = model.full_signals(s)
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
        signals += (f"ALTER {s.defn.name}",)
        rules += ("CQS-003", "CQS-020", "CQS-001" if s.defn.ovflwmax is None else "CQS-002")
        if model.readings.cqs_alter == "sync":
            done = _alter_now(model, s)
            signals += done.signals
            rules += done.rules
        else:
            s.alter_pending = True
    return Outcome("put", True, rules=rules, signals=signals, usage=s.pools.as_tuple())


def _may_alter(s: Structure) -> bool:
    """CQS-003/016: whether a CQSPUT reaching OVFLWMAX starts an alter: on a queue structure (not a
    resource one) with no alter pending, not in overflow mode."""
    return not s.defn.resource and not s.alter_pending and not s.overflow_mode


def _in_overflow(s: Structure, name: str) -> bool:
    """CQS-012/022: whether a CQSPUT to queue ``name`` finds it in overflow mode (rejected without an
    overflow structure, its first part put there with one)."""
    return name in s.overflow_queues


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


def _reselect_due(model: GroupState, s: Structure, parts: int) -> bool:
    """Whether this CQSPUT, in overflow mode, takes usage to OVFLWMAX again and CQS selects more
    queues (reading ``cqs_reselect``).  A selection the implementation shows only later (no CQS
    signals) is not judged here."""
    if s.defn.resource or s.alter_pending or s.selection_open is not None:
        return False
    if model.hint is not None and not model.hint.cqs_signals:
        return False
    if not (_threshold_reached(model, s, parts) and model.readings.cqs_reselect == "select"):
        return False
    # "When the usage of a structure reaches the overflow threshold": whether a put that finds usage
    # at the threshold already (no new crossing) selects again is not stated, so there the
    # implementation's choice stands (its selection, if it makes one, is judged as any other)
    if model.hint is not None and not _selects(model, s.defn.name):
        before = model.before(s)
        return model.reached(before, s.defn.effective_ovflwmax, _metric(model), True) is False
    return True


def _round_unseen(model: GroupState, s: Structure, parts: int) -> bool:
    """Whether this CQSPUT may have run a further selection round (``cqs_reselect=select``) that an
    implementation showing no CQS signals did not show: its usage, if reported, reached OVFLWMAX."""
    hint = model.hint
    if hint is None or hint.cqs_signals or s.defn.resource or model.readings.cqs_reselect != "select":
        return False
    return model.after(s) is None or _threshold_reached(model, s, parts)


def _reselect(model: GroupState, s: Structure) -> list[str]:
    """Another selection round over the queues not yet in overflow mode (CQS-006/007/009/010): the
    implementation's, when each queue it names is an unvetoed candidate holding data, the first pick
    among them (or, without OVFLWSTR, none: see below), and (without OVFLWSTR) no candidate certainly
    larger than one chosen is passed over; else the model's own.  Approved queues move with OVFLWSTR (CQS-011)."""
    name, vetoes = s.defn.name, frozenset(model.overflow_exit or ())
    mine = {
        q.defn.name: q
        for q in model.queues.values()
        if q.defn.cfstruct == name and q.msgs and q.defn.name not in s.overflow_queues
    }
    chosen = None
    if model.hint is not None:
        prefix = f"OVERFLOW_QUEUE {name} "
        reported = [sig[len(prefix) :] for sig in model.hint.outcome.signals if sig.startswith(prefix)]
        candidates = {n: _first_parts(model, q) for n, q in mine.items() if n not in vetoes}
        sound = set(reported) <= set(candidates) and len(set(reported)) == len(reported)
        if sound and s.defn.ovflwstr is None:
            passed = [q for n, q in mine.items() if n not in reported and n not in vetoes]
            sound = not any(_surely_larger(model, b, mine[a]) for a in reported for b in passed)
        first = _first_pick(candidates)
        # without OVFLWSTR the data of queues selected earlier stays: whether "enough queues have
        # been selected" counts them as gone is not stated, so a round may select none at all
        done = s.defn.ovflwstr is None and not reported
        sound = sound and (done or first is None or first in reported or not _surely_fits(s, candidates[first]))
        chosen = reported if sound else None
    if chosen is None:
        hint, model.hint = model.hint, None
        try:
            chosen = select(model, s, exclude=frozenset(s.overflow_queues))
        finally:
            model.hint = hint
    s.overflow_queues |= set(chosen)
    if s.defn.ovflwstr is not None:
        _move(model, s, chosen)
    return chosen


def _seen_cost(model: GroupState, s: Structure, parts: int) -> tuple[int, int] | None:
    """The entries and elements a CQSPUT of ``parts`` data objects added, as the implementation
    reported them (checker mode); unknown when queues moved to the overflow structure within it
    (its report then nets their departure against the message: CQS-011)."""
    before, after = model.before(s), model.after(s)
    if model.hint is None or before is None or after is None or before[1::2] != after[1::2]:
        return None
    if _selects(model, s.defn.name) or _moved_within(model, s, parts):
        return None
    return (after[0] - before[0], after[2] - before[2])


def _threshold_reached(model: GroupState, s: Structure, parts: int = 1) -> bool:
    """CQS-001/002/020: usage after the put at or over OVFLWMAX.  Where the implementation's figures
    leave it open (see :meth:`GroupState.reached`), its own report of starting the alter stands.
    ``parts``: the data objects the put adds (CQS-017), each a list entry of the primary."""
    name = s.defn.name
    after, before = model.after(s), model.before(s)
    if model.hint is not None and after is not None and before is not None:
        if _moved_within(model, s, parts):
            return True  # overflow processing ran in it
        # a CQSPUT whose alter completed inside it reports usage after the alter: the threshold was
        # met by what it put into the structure as it was before
        after = (after[0], before[1], after[2], before[3])
    elif model.hint is not None and after is not None and s.defn.ovflwstr is not None and _selects(model, name):
        # usage before the put unknown (the last report was the overflow structure's): figures taken
        # after queues moved within it cannot deny the threshold its own selection shows reached
        return True
    reached = model.reached(after, s.defn.effective_ovflwmax, _metric(model), True)
    if reached is None:
        hint = model.hint
        if hint is None:
            return False
        # (in overflow mode, a further selection round shows the threshold reached: cqs_reselect)
        again = s.overflow_mode and any(sig.startswith(f"OVERFLOW_QUEUE {name} ") for sig in hint.outcome.signals)
        return hint.says(f"ALTER {name}") or hint.says(f"OVERFLOW_ON {name}") or again
    return reached


def _unseen(model: GroupState, s: Structure) -> bool:
    """Whether this CQSPUT may have reached OVFLWMAX unseen: the implementation reported no usage
    for it (or none the model can read) and reports no CQS signals, so an alter it started shows
    only when z/OS's answer is accepted, or in ``inspect`` (:func:`adopt_alter`)."""
    hint = model.hint
    if hint is None or hint.cqs_signals:
        return False
    return model.reached(model.after(s), s.defn.effective_ovflwmax, _metric(model), True) is None


def _adopt_unseen_overflow(model: GroupState, s: Structure, name: str) -> None:
    """CQS-012 under the ``sync`` reading: a CQSPUT refused as its queue is in overflow mode shows
    that an alter started unseen (:func:`_unseen`) failed inside an earlier CQSPUT and overflow mode
    began.  Which queues were selected is left open, this one among them (:func:`adopt_put`)."""
    hint = model.hint
    if hint is None or not s.alter_unseen or s.overflow_mode or s.alter_pending or s.defn.ovflwstr is not None:
        return
    if hint.outcome.ok or hint.outcome.reason != CQS_REJECTED_OVERFLOW:
        return
    _begin_unseen(model, s, lambda q: bool(q.msgs) or q.defn.name == name)


def _begin_unseen(model: GroupState, s: Structure, keep: Any) -> None:
    """Overflow mode begun at a CQSPUT the implementation did not show (CQS-005): an alter started
    unseen failed inside it.  Which queues were selected is left open among those ``keep`` admits."""
    s.alter_unseen, s.overflow_mode, s.overflow_start = False, True, model.clock
    s.overflow_seen, s.overflow_base, s.pick_due = None, _base_usage(model, s), False
    _overflow_room(model, s)
    s.selection_open = _open_candidates(model, s, keep)
    s.selection_costs, s.selection_shown, s.selection_by_costs, s.overflow_queues = None, set(), False, set()


def adopt_alter(model: GroupState, s: Structure, shown: Any, mode: Any = None) -> None:
    """At ``inspect``: an alter the implementation may have started unseen is pending if it says so.
    Under the ``sync`` reading it may instead have failed inside the CQSPUT (CQS-003/005): an
    ``inspect`` showing overflow mode, no alter pending, shows overflow mode begun unseen, its
    candidates the queues holding data objects (second reading withholding usage, cqs seed 5)."""
    if not s.alter_unseen or s.alter_pending or not isinstance(shown, bool):
        return
    if not shown and mode is True and not s.overflow_mode and model.readings.cqs_alter == "sync":
        _begin_unseen(model, s, lambda q: bool(q.msgs))
        return
    s.alter_pending, s.alter_unseen = shown, False


def _selects(model: GroupState, name: str) -> bool:
    """Whether the implementation's outcome shows queues of structure ``name`` selected (CQS-006)."""
    hint = model.hint
    return hint is not None and any(sig.startswith(f"OVERFLOW_QUEUE {name} ") for sig in hint.outcome.signals)


def _moved_within(model: GroupState, s: Structure, parts: int) -> bool:
    """Whether the implementation's figures show queues moved to the overflow structure within a
    CQSPUT after which the primary holds at least ``parts`` more entries if nothing moved: it
    gained fewer (CQS-011)."""
    after, before = model.after(s), model.before(s)
    if model.hint is None or after is None or before is None:
        return False
    return after[0] < before[0] + parts or after[2] < before[2]


def _alter_now(model: GroupState, s: Structure) -> Outcome:
    """The ``sync`` reading of CQS-003: the alter completes inside the CQSPUT.  Whether z/OS could
    grow the structure is the implementation's (it reports overflow mode if not); on its own the
    model grows a structure below its SIZE and fails the alter of one already at SIZE."""
    hint = model.hint
    # z/OS accepts an alter within INITSIZE..SIZE (CAPACITY-004): it fails only at SIZE; once the
    # implementation chose a size of its own, its report (signals, or pools offered) says
    failed = s.size_kb >= s.defn.size_kb
    if hint is not None and not s.size_known:
        if hint.cqs_signals:
            failed = hint.says(f"OVERFLOW_ON {s.defn.name}")
        else:
            before, after = model.before(s), model.after(s)
            if before is not None and after is not None:
                failed = not (after[1] > before[1] or after[3] > before[3])
    s.alter_pending = True
    if failed:
        return alter_outcome(model, _Answer(s.defn.name, False, None))
    out = _altered(model, s, None)
    if hint is not None:
        s.size_known, s.size_range = False, None  # grown by the implementation to a size of its choosing
    return out


class _Answer:
    """z/OS's answer to an alter, when the alter completes inside the put (``sync``)."""

    def __init__(self, cfstruct: str, success: bool, size_kb: int | None) -> None:
        self.cfstruct, self.success, self.size_kb = cfstruct, success, size_kb


def _charge(s: Structure, msg: Message, sign: int) -> None:
    """Add (+1) or release (-1) a data object's storage: first part where it lives, later parts on the primary."""
    home = s.overflow_pools if msg.on_overflow else s.pools
    home.entries_used += sign  # type: ignore[union-attr]
    home.elements_used += sign * msg.elements  # type: ignore[union-attr]
    if msg.staged:
        s.pools.entries_used += sign * len(msg.staged)
        s.pools.elements_used += sign * sum(msg.staged)
        s.staging_depth += sign * len(msg.staged)


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


def relieved(model: GroupState, s: Structure) -> tuple[str, ...]:
    """CQS-015: without OVFLWSTR, overflow ends once primary usage is 20% below the threshold, then or
    within one scan interval (:func:`_may_lag`)."""
    if not s.overflow_mode or s.defn.ovflwstr is not None:
        return ()
    if _below_target(model, s):
        return () if _may_lag(model, s) else _end_overflow(s, model)
    if model.after(s) is not None:
        s.relief_since = None  # (usage back above the target: a scan to come would keep overflow mode)
    hint = model.hint
    if hint is not None and not hint.cqs_signals and model.after(s) is None:
        s.relief_unseen = True  # (neither usage nor CQS signals shown: it may have ended, unseen)
    return ()


def _may_lag(model: GroupState, s: Structure) -> bool:
    """Checker mode: whether overflow mode, usage now 20% below the threshold, may still last.

    Reading ``cqs_relief_timing``: ``at-delete`` ends it at the CQSDEL that brings usage down (seed
    000's sentence read at once); ``by-scan`` (ibm-facts 1.5: "the exit from overflow is eventually
    consistent. Allow a lag of up to one scan period") ends it then or at a scan up to SCAN_SECONDS
    later (usage still down); one that says nothing by then is judged (tenth reading, cqs seed 1).
    Under ``by-scan`` one that shows no CQS signals may have ended it unseen meanwhile
    (``relief_unseen``: a CQSPUT's answer shows which).  A reading, not a freedom per step: an
    implementation showing no CQS signals that ended it at once and then reached OVFLWMAX again
    starts a new overflow mode with a new selection (second reading, cqs seed 1), which the lag
    cannot explain.
    """
    hint = model.hint
    if hint is None or hint.says(f"OVERFLOW_OFF {s.defn.name}"):
        return False
    if model.readings.cqs_relief_timing == "at-delete":
        return False
    if s.relief_since is None:
        s.relief_since = model.clock
    if model.clock - s.relief_since >= SCAN_SECONDS:
        return False
    if not hint.cqs_signals:
        s.relief_unseen = True
    return True


def _lagging_relief(model: GroupState, s: Structure) -> tuple[str, ...]:
    """At ``advance_clock``: overflow mode whose end may lag (:func:`_may_lag`) ends if the implementation
    says so, or must have ended once a scan interval has passed since usage fell (CQS-015)."""
    if not s.overflow_mode or s.defn.ovflwstr is not None:
        return ()
    if s.relief_since is None:
        return _found_by_scan(model, s)
    if model.hint is not None and model.hint.says(f"OVERFLOW_OFF {s.defn.name}"):
        return _end_overflow(s, model)
    if _seen_above_target(model, s):
        s.relief_since = None  # (puts took usage back above the target: a scan now keeps overflow mode)
        return ()
    return () if _may_lag(model, s) else _end_overflow(s, model)


def _found_by_scan(model: GroupState, s: Structure) -> tuple[str, ...]:
    """CQS-015 under ``by-scan``: overflow mode that began with usage already 20% below the threshold
    (no CQSDEL brought it there: :func:`_exits_at_start`) may end at a scan that finds usage there, when
    the implementation says so (eleventh reading, cqs seed 2: OVFLWMAX(0), the alter failing on an
    empty structure, OVERFLOW_OFF at the next scan)."""
    hint = model.hint
    if hint is None or model.readings.cqs_relief_timing != "by-scan" or not hint.says(f"OVERFLOW_OFF {s.defn.name}"):
        return ()
    if _seen_above_target(model, s):
        return ()
    return _end_overflow(s, model)


def _seen_above_target(model: GroupState, s: Structure) -> bool:
    """Whether the implementation's last reported usage is above the target, where the target is
    known without a usage it never reported (the drop readings need the usage at overflow start)."""
    seen = model.before(s)
    fixed = model.readings.cqs_target in ("points", "relative", "points-floor") or s.overflow_base >= 0
    return seen is not None and fixed and usage_pct(_metric(model), seen, model.acct) > target(model, s)


def _adopt_unseen_relief(model: GroupState, s: Structure, name: str) -> None:
    """CQS-015 for an implementation showing neither usage nor CQS signals: a CQSPUT accepted to a
    queue in overflow mode (no OVFLWSTR) shows that a CQSDEL since brought usage 20% below the
    threshold and ended overflow mode unseen (:func:`relieved`); one refused shows it had not
    (second reading withholding usage, cqs seed 5).  While the selection is still open, an accepted
    CQSPUT to a queue it must have taken shows the same (second reading, fault CQS-EXIT-NEVER's
    scenario: the alter completed, overflow mode ended at the CQSDEL, no CQS signal shown)."""
    hint = model.hint
    if hint is None or not s.relief_unseen or not s.overflow_mode:
        return
    if s.defn.ovflwstr is not None:
        return  # (with OVFLWSTR a put to a queue in overflow mode is accepted either way)
    if not _in_overflow(s, name):
        return
    if s.selection_open is not None and hint.outcome.ok and _may_be_passed(model, s, name):
        return  # (the selection may have passed the queue over: adopt_put reads the answer)
    s.relief_unseen = False
    if hint.outcome.ok:
        _end_overflow(s)


def adopt_relief(s: Structure, mode: Any) -> None:
    """At ``inspect``: overflow mode a CQSDEL may have ended unseen (:func:`relieved`) is as shown."""
    if s.relief_unseen and isinstance(mode, bool):
        s.relief_unseen = False
        if not mode and s.overflow_mode:
            _end_overflow(s)


def _below_target(model: GroupState, s: Structure) -> bool:
    """Usage after this step at or below the target; in checker mode on the implementation's figures,
    and where those are missing (or the target rests on a usage it never reported) its report stands."""
    if model.hint is None:
        return _usage(model, s) <= target(model, s)
    after = model.after(s)
    fixed = model.readings.cqs_target in ("points", "relative", "points-floor")
    goal = target(model, s) if fixed or s.overflow_base >= 0 else None
    if after is None or goal is None:
        return model.hint.says(f"OVERFLOW_OFF {s.defn.name}")
    return usage_pct(_metric(model), after, model.acct) <= goal


def _end_overflow(s: Structure, model: GroupState | None = None) -> tuple[str, ...]:
    """Overflow mode ends.  The queues still in it return to normal processing with it; an
    implementation may say so of each (``OVERFLOW_QUEUE_OFF``), or not: no document says."""
    said: tuple[str, ...] = ()
    if model is not None and model.hint is not None:
        maybe = s.overflow_queues | set(s.selection_open or ())
        said = tuple(f"OVERFLOW_QUEUE_OFF {s.defn.name} {q}" for q in sorted(maybe))
        said = tuple(sig for sig in said if model.hint.says(sig))
    s.overflow_mode, s.relief_unseen, s.approvals, s.round_unseen = False, False, None, False
    s.relief_since = None
    s.overflow_queues = set()
    s.selection_open, s.selection_scanned = None, False
    return (*said, f"OVERFLOW_OFF {s.defn.name}")


def _space(q: Queue) -> tuple[int, int]:
    """Entries and elements a queue's first parts use on the primary structure."""
    on_primary = [m for m in q.msgs if not m.on_overflow]
    return len(on_primary), sum(m.elements for m in on_primary)


def _candidates(model: GroupState, s: Structure) -> list[tuple[str, int, int]]:
    """CQS-006/018: the queues of ``s`` using space on the primary, ``(name, entries, elements)``,
    largest first.  The staging queue is not a queue of ours at all, so it is never a candidate;
    queues using no space are not candidates: moving them would not lower usage."""
    sized = [(q.defn.name, *_space(q)) for q in model.queues.values() if q.defn.cfstruct == s.defn.name]
    return sorted((c for c in sized if c[1]), key=lambda c: (-c[2], -c[1], c[0]))


def _vetoes(model: GroupState) -> frozenset[str]:
    """CQS-009/010: the queues the Queue Overflow exit rejects (none without an exit)."""
    return frozenset(model.overflow_exit or ())


def select(model: GroupState, s: Structure, exclude: frozenset[str] = frozenset()) -> list[str]:
    """CQS-006/007/009/010/018: approved queues, largest first, until projected usage meets the target.

    With an overflow structure, a queue whose data objects would not all fit
    there is passed over, since a queue is never in both structures (CQS-011).
    """
    if model.hint is not None:
        return _select_reported(model, s)
    metric = model.readings.cqs_usage_metric
    eu, et, lu, lt = model.pools(s)
    goal = target(model, s)
    vetoes = _vetoes(model) | exclude
    room = _overflow_room(model, s)
    approved: list[str] = []
    for name, entries, elements in _candidates(model, s):
        if usage_pct(metric, (eu, et, lu, lt), model.acct) <= goal:
            break
        if name in vetoes:
            continue
        if room is not None:
            if not fits(room, entries, elements):
                continue
            room = (room[0] + entries, room[1], room[2] + elements, room[3])
        approved.append(name)
        eu, lu = eu - entries, lu - elements
    return approved


def _select_reported(model: GroupState, s: Structure) -> list[str]:
    """Checker mode: how much space each queue uses is the implementation's, so the queues it
    reports selected stand if they keep what the documents state (CQS-006/009, ibm-facts 1.3): each
    is a queue of this structure holding data, none was vetoed by the exit, and, without an overflow
    structure, none was chosen while an unvetoed queue that certainly uses more space was passed
    over.  Otherwise the model's own selection is expected, and the divergence names the rules."""
    name = s.defn.name
    if not model.hint.cqs_signals:  # type: ignore[union-attr]
        return _select_open(model, s)
    prefix = f"OVERFLOW_QUEUE {name} "
    reported = [sig[len(prefix) :] for sig in model.hint.outcome.signals if sig.startswith(prefix)]  # type: ignore[union-attr]
    mine = {q.defn.name: q for q in model.queues.values() if q.defn.cfstruct == name and q.msgs}
    vetoes = frozenset(model.overflow_exit or ())
    sound = all(n in mine and n not in vetoes for n in reported) and len(set(reported)) == len(reported)
    if sound:  # (with OVFLWSTR a queue may be passed over because its data would not fit there)
        passed = [q for n, q in mine.items() if n not in reported and n not in vetoes and _fits_overflow(model, s, q)]
        sound = not any(_surely_larger(model, b, mine[a]) for a in reported for b in passed)
    candidates = {n: _first_parts(model, q) for n, q in mine.items() if n not in vetoes}
    first = _first_pick(candidates) if s.pick_due else None
    sound = sound and (first is None or first in reported or not _surely_fits(s, candidates[first]))
    s.selection_costs = _costs(model, s, list(candidates))
    if sound and not _selection_sound(model, s, set(reported)):
        sound = False
    if sound:
        return reported
    by_costs = _select_by_costs(model, s)
    s.selection_by_costs = by_costs is not None
    if by_costs is not None:
        return by_costs
    hint, model.hint = model.hint, None
    try:
        return select(model, s)
    finally:
        model.hint = hint


def _surely_fits(s: Structure, lengths: list[int]) -> bool:
    """Whether a queue's data objects certainly fit an empty overflow structure (or there is none):
    four times what Table 2 says they cost within the storage it has for messages, and four times
    the list entries they need, each entry coming with ``ratio`` elements (a structure of many
    elements per entry has few entries: the seventh reading's, at ratio 90, holds two)."""
    if s.defn.ovflwstr is None:
        return True
    if s.overflow_pools is not None and s.overflow_pools.entries_used:
        return False
    room = (s.defn.ovflw_size_kb - TABLE2_FIXED_KB) * 1024
    per_entry = (1 + s.defn.ratio) * SURELY_ELEMENT_BYTES
    bytes_ok = room >= TABLE2_MARGIN * sum(n + 1024 for n in lengths)
    return bytes_ok and room >= TABLE2_MARGIN * len(lengths) * per_entry


def _select_open(model: GroupState, s: Structure) -> list[str]:
    """An implementation that reports no CQS signals shows its selection only later, in puts it
    rejects and in ``inspect``: the model selects on its own accounting and keeps the selection open,
    so that what the implementation shows is adopted when it keeps the documented relations
    (:func:`adopt_put`, :func:`adopt_selection`)."""
    hint, model.hint = model.hint, None
    try:
        chosen = select(model, s)
    finally:
        model.hint = hint
    vetoes = frozenset(model.overflow_exit or ())
    s.selection_open = _open_candidates(model, s, lambda q: bool(q.msgs) and q.defn.name not in vetoes)
    s.selection_costs = _costs(model, s, list(s.selection_open))
    s.selection_shown = set()
    by_costs = _select_by_costs(model, s)
    s.selection_by_costs = by_costs is not None
    if by_costs is not None:
        return by_costs
    first = _first_pick(s.selection_open) if s.pick_due else None
    return chosen if first is None or first in chosen else [*chosen, first]


def _open_candidates(model: GroupState, s: Structure, keep: Any) -> dict[str, list[int]]:
    """The queues of ``s`` that ``keep`` admits to a selection the implementation has not shown yet,
    each with the lengths of its data objects on the primary (longest first)."""
    return {
        q.defn.name: _first_parts(model, q) for q in model.queues.values() if q.defn.cfstruct == s.defn.name and keep(q)
    }


def _select_by_costs(model: GroupState, s: Structure) -> list[str] | None:
    """CQS-006/007 on the implementation's own figures: largest first (elements), until projected
    usage is at or below the target.  Queues of equal size are taken in name order here; the
    implementation's own order among them is adopted when it shows it (ties are not documented)."""
    costs, seen = s.selection_costs, s.overflow_seen
    if costs is None or seen is None or s.defn.ovflwstr is not None:
        return None
    if _in_parts(model, costs):
        return None
    metric, goal = _metric(model), target(model, s)
    eu, et, lu, lt = seen
    chosen: list[str] = []
    for name in sorted(costs, key=lambda n: (-costs[n][1], -costs[n][0], n)):
        if usage_pct(metric, (eu, et, lu, lt), model.acct) <= goal:
            break
        chosen.append(name)
        eu, lu = eu - costs[name][0], lu - costs[name][1]
    return chosen


def _costs(model: GroupState, s: Structure, names: list[str]) -> dict[str, tuple[int, int]] | None:
    """What each queue uses of the primary structure in the implementation's own units, when every
    message's cost was seen (the usage it reported before and after the put; for a message in parts,
    its later parts included)."""
    out = {}
    for name in names:
        entries = elements = 0
        for m in model.queues[name].msgs:
            if m.on_overflow:
                continue
            if m.cost is None:
                return None
            entries, elements = entries + m.cost[0], elements + m.cost[1]
        out[name] = (entries, elements)
    return out


def _selection_sound(model: GroupState, s: Structure, chosen: set[str], complete: bool = True) -> bool:
    """CQS-006/007 on the implementation's own figures, when it showed each message's cost: queues
    are taken largest first (by elements) and selection stops once projected usage is at or below
    the target (so without the smallest one it was not), and, without an overflow structure, it
    does not stop short of the target while a candidate is left."""
    costs, seen = s.selection_costs, s.overflow_seen
    if costs is None or seen is None:
        return True
    if not chosen:  # overflow starts above the target: an empty selection leaves a candidate unselected
        if not (complete and s.pick_due and costs):
            return True  # (with OVFLWSTR, unless none would surely fit the overflow structure)
        return s.defn.ovflwstr is not None and not any(_surely_fits_all(model, s, [n]) for n in costs)
    metric, goal = _metric(model), target(model, s)

    def projected(names: set[str]) -> float:
        eu, et, lu, lt = seen
        e, el = sum(costs[n][0] for n in names), sum(costs[n][1] for n in names)
        return usage_pct(metric, (eu - e, et, lu - el, lt), model.acct)

    passed = [n for n in costs if n not in chosen]
    # a message in parts leaves its later parts on the primary: its cost overstates what moving its
    # queue frees, so only the under-selection check (which that overstatement cannot fool) applies
    exact = not _in_parts(model, costs)
    # with an overflow structure a larger queue is passed over when its data would not fit there
    # beside the chosen ones: only a passed queue that surely fits shows a smaller one taken before it
    larger = [b for b in passed if s.defn.ovflwstr is None or _surely_fits_all(model, s, [*chosen, b])]
    if exact and any(costs[b][1] > costs[a][1] and costs[b][0] >= costs[a][0] for a in chosen for b in larger):
        return False
    smallest = min(chosen, key=lambda n: costs[n][1])
    if exact and len(chosen) > 1 and projected(chosen - {smallest}) <= goal:
        return False
    # (with part of the selection known, only what more queues could not mend is judged; with an
    # overflow structure, a queue is passed over when its data would not fit there, so stopping short
    # is judged only while a passed queue would surely fit beside the chosen ones: _surely_fits)
    if not (complete and passed and projected(chosen) > goal):
        return True
    return s.defn.ovflwstr is not None and not any(_surely_fits_all(model, s, [*chosen, b]) for b in passed)


def _surely_fits_all(model: GroupState, s: Structure, names: list[str]) -> bool:
    """Whether the data objects of the queues ``names`` certainly fit the overflow structure together."""
    return _surely_fits(s, [n for name in names for n in _first_parts(model, model.queues[name])])


def _first_pick(candidates: dict[str, list[int]]) -> str | None:
    """The queue any selection must take first (CQS-006: "selects queues using the most space"): the
    only candidate, or one certainly larger than every other.  Overflow mode starts at or above the
    threshold, above the target, so selection takes at least one queue when there is a candidate."""
    names = [n for n, lengths in candidates.items() if lengths]
    for n in names:
        if all(o == n or _larger(candidates[n], candidates[o]) for o in names):
            return n
    return None


def adopt_put(model: GroupState, s: Structure, name: str) -> None:
    """Before a CQSPUT to ``name`` in overflow mode while a selection is open (no OVFLWSTR): the
    implementation's answer says whether it selected the queue; adopt it if the queue was a
    candidate, or (:func:`_reselected_unseen`) joined in a later round it did not show."""
    hint = model.hint
    if hint is None or not s.overflow_mode:
        return
    if _reselected_unseen(model, s, name):
        s.overflow_queues.add(name)
        return
    if s.selection_open is None:
        return
    if s.defn.ovflwstr is not None:
        _adopt_moved(model, s, name)
        return
    rejected = not hint.outcome.ok and hint.outcome.reason == CQS_REJECTED_OVERFLOW
    shown = s.selection_shown | {name}
    if rejected and name in s.selection_open and _selection_sound(model, s, shown, complete=False):
        s.overflow_queues.add(name)
        s.selection_shown = shown
    elif hint.outcome.ok and name in s.overflow_queues and _may_be_passed(model, s, name):
        s.overflow_queues.discard(name)


def _reselected_unseen(model: GroupState, s: Structure, name: str) -> bool:
    """CQS-006/012 under ``cqs_reselect=select``, for an implementation showing no CQS signals and
    no OVFLWSTR: a CQSPUT refused as in overflow mode to a queue outside the first selection's
    candidates that an exit approved at some time in this overflow mode (the exit may have changed
    since the round: eighth reading, nothing shown, cqs seed 1) shows a later selection round the
    implementation did not show."""
    hint = model.hint
    if hint is None or hint.cqs_signals or s.defn.ovflwstr is not None or model.readings.cqs_reselect != "select":
        return False
    if hint.outcome.ok or hint.outcome.reason != CQS_REJECTED_OVERFLOW or name in s.overflow_queues:
        return False
    approved = name not in _vetoes(model) or (s.approvals is not None and name in s.approvals)
    # a candidate of the first selection the first could not have taken: a later round may have
    # (usage reported back at OVFLWMAX after overflow mode began: eighth reading, usage only, seed 1)
    later = name not in (s.selection_open or {}) or (
        s.round_unseen and not _selection_sound(model, s, s.selection_shown | {name}, complete=False)
    )
    return later and approved


def _adopt_moved(model: GroupState, s: Structure, name: str) -> None:
    """With OVFLWSTR: a CQSPUT the implementation accepted while it reported every primary entry or
    element in use went to the overflow structure, so its queue was selected (and moved)."""
    seen = model.before(s)
    full = seen is not None and (seen[0] >= seen[1] or seen[2] >= seen[3])
    if not (model.hint.outcome.ok and full and name in s.selection_open and name not in s.overflow_queues):  # type: ignore[union-attr]
        return
    s.overflow_queues.add(name)
    _overflow_room(model, s)
    for m in model.queues[name].msgs:
        if not m.on_overflow:
            _charge(s, m, -1)
            m.on_overflow = True
            _charge(s, m, +1)


def _may_be_passed(model: GroupState, s: Structure, name: str) -> bool:
    """Whether a selection may leave ``name`` out: it is not the first pick, and, when the costs are
    known, another candidate the same size is left out (a tie the documents do not order)."""
    if s.pick_due and name == _first_pick(s.selection_open or {}):
        return False
    costs = s.selection_costs
    if costs is None or not s.selection_by_costs or s.defn.ovflwstr is not None or _in_parts(model, costs):
        return True  # (a selection not made on the implementation's costs does not bind it)
    return any(costs[o] == costs[name] and o not in s.overflow_queues for o in costs if o != name)


def _in_parts(model: GroupState, names: Any) -> bool:
    """Whether a queue among ``names`` holds a message in parts: its cost then includes later parts
    that stay on the primary, so it overstates what selecting the queue frees."""
    return any(m.staged for n in names for m in model.queues[n].msgs)


def adopt_selection(model: GroupState, s: Structure, reported: Any, mode: Any = False) -> None:
    """At ``inspect``, an open selection becomes the one the implementation reports, if it keeps the
    relations of :func:`_select_reported` (candidates only, none vetoed, no larger queue passed over).
    After a scan released emptied candidates (``selection_scanned``) only the first holds."""
    if s.selection_open is None or not s.overflow_mode or not isinstance(reported, list):
        return
    chosen = set(reported)
    if not chosen <= set(s.selection_open) or not (s.selection_scanned or _reported_sound(model, s, chosen)):
        return
    if s.defn.ovflwstr is not None:
        for q in model.queues.values():
            if q.defn.cfstruct == s.defn.name:
                for m in q.msgs:
                    if m.on_overflow != (q.defn.name in chosen):
                        _charge(s, m, -1)
                        m.on_overflow = q.defn.name in chosen
                        _charge(s, m, +1)
    s.overflow_queues = chosen
    s.selection_open, s.selection_scanned = None, False
    # CQS-014: with no queue in overflow mode, overflow mode ends, at once or at the next scan
    # ("When all queues have been removed, CQS exits overflow mode"): as the implementation shows
    if not chosen and s.defn.ovflwstr is not None and mode is not True:
        _end_overflow(s)


def _reported_sound(model: GroupState, s: Structure, chosen: set[str]) -> bool:
    """The first pick chosen, enough chosen (:func:`_selection_sound`), and (without OVFLWSTR) no
    candidate passed over that is surely larger than one chosen."""
    sizes = s.selection_open or {}
    first = _first_pick(sizes) if s.pick_due else None
    if (first is not None and first not in chosen) or not _selection_sound(model, s, chosen):
        return False
    passed = [n for n in sizes if n not in chosen and (s.defn.ovflwstr is None or _surely_fits(s, sizes[n]))]
    return not any(_larger(sizes[b], sizes[a]) for a in chosen for b in passed)


def _first_parts(model: GroupState, q: Queue) -> list[int]:
    """The lengths of ``q``'s data objects on the primary, longest first: a message longer than
    LGMSGSZ keeps only its first part on the queue, the rest on the staging queue (CQS-017/019),
    so that is all of it that counts as the space the queue uses."""
    return sorted((min(m.length, model.lgmsgsz) for m in q.msgs if not m.on_overflow), reverse=True)


#: A data object at least this long costs some storage under any accounting (more than an entry's
#: adjunct area can hold, at least one element of any size a product would choose).
SURELY_COSTS = 2048

#: The bytes an entry and each of its elements may take at the most that :func:`_surely_fits` allows
#: for: z/OS list structures use 256-byte elements, and an entry is smaller than that.
SURELY_ELEMENT_BYTES = 256


def _larger(b: list[int], a: list[int]) -> bool:
    """Whether data objects of lengths ``b`` use more space than those of ``a`` (longest first) under
    any accounting that charges a longer object no less and an object of SURELY_COSTS bytes
    something, even if ``b``'s longest object was not counted yet (an alter completed inside the
    CQSPUT that added it may select before the put's object is on the queue): without it, ``b``
    still has an object at least as long as each of ``a``'s, and another of SURELY_COSTS bytes."""
    rest = b[1:]
    if not a or len(rest) <= len(a) or any(y < x for y, x in zip(rest, a, strict=False)):
        return False
    return any(y >= SURELY_COSTS for y in rest[len(a) :])


def _fits_overflow(model: GroupState, s: Structure, q: Queue) -> bool:
    """Whether ``q``'s data objects certainly fit the overflow structure (or there is none)."""
    return s.defn.ovflwstr is None or _surely_fits(s, _first_parts(model, q))


def _surely_larger(model: GroupState, big: Queue, small: Queue) -> bool:
    """Whether ``big`` uses more structure space than ``small``: see :func:`_larger`."""
    return _larger(_first_parts(model, big), _first_parts(model, small))


def _overflow_room(model: GroupState, s: Structure) -> tuple[int, int, int, int] | None:
    if s.defn.ovflwstr is None:
        return None
    if s.overflow_pools is None:
        s.overflow_pools = Pools(s.defn.ovflw_size_kb, s.defn.ratio, model.acct)
    return s.overflow_pools.as_tuple()


def _move(model: GroupState, s: Structure, names: list[str]) -> None:
    """CQS-011/019: first parts of approved queues move to the overflow structure (they fit: see select)."""
    _overflow_room(model, s)
    ovfl = s.overflow_pools
    for name in names:
        for msg in model.queues[name].msgs:
            if msg.on_overflow:
                continue
            s.pools.entries_used -= 1
            s.pools.elements_used -= msg.elements
            ovfl.entries_used += 1  # type: ignore[union-attr]
            ovfl.elements_used += msg.elements  # type: ignore[union-attr]
            msg.on_overflow = True


def alter_outcome(model: GroupState, op: AlterOutcome) -> Outcome:
    """z/OS answers CQS's alter: success grows the primary, failure enters overflow mode."""
    s = model.structure(op.cfstruct)
    if not s.alter_pending:
        # an alter started at a put the implementation did not show is its word (see _unseen)
        if not (s.alter_unseen and model.hint is not None and model.hint.outcome.ok):
            return Outcome("alter_outcome", False, CMD_NO_ALTER_PENDING, ("CQS-003",))
        if s.overflow_mode:  # the overflow mode a scan ended unseen before the alter began
            _end_overflow(s)
        s.alter_pending = True
    s.alter_unseen = False
    if op.success:
        return _altered(model, s, op.size_kb)
    s.alter_pending = False
    return _overflow(model, s, op)


def _overflow(model: GroupState, s: Structure, op: Any) -> Outcome:
    """CQS-005: the alter failed: overflow mode starts, and queues are selected at once (CQS-008)."""
    s.overflow_mode = True
    s.overflow_start = model.clock
    s.overflow_seen = _usage_at_start(model, s, op)
    s.overflow_base = _base_usage(model, s)
    s.pick_due = _pick_due(model, s, op)
    signals, rules = _selected(model, s)
    signals = (f"OVERFLOW_ON {s.defn.name}", *signals, *model.full_signals(s))
    return Outcome("alter_outcome", rules=("CQS-005", *rules), signals=signals, usage=s.pools.as_tuple())


def _selected(model: GroupState, s: Structure) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """CQS-006..012, 014, 015, 018, 019: the queues selected as overflow mode starts, moved to the overflow
    structure (or, without one, fenced off), and overflow mode ended at once if none needed it; the
    signals and the rules."""
    approved = select(model, s)
    rules: tuple[str, ...] = (
        "CQS-006",
        "CQS-007",
        "CQS-008",
        "CQS-018",
        "CQS-009" if model.overflow_exit is not None else "CQS-010",
    )
    signals = tuple(f"OVERFLOW_QUEUE {s.defn.name} {n}" for n in approved)
    s.overflow_queues = set(approved)
    if s.defn.ovflwstr is not None:
        _move(model, s, approved)
        rules += ("CQS-011", "CQS-019")
        if not approved and s.selection_open is None and model.readings.cqs_empty_overflow == "ends":
            signals += _end_overflow(s, model)
            rules += ("CQS-014",)
    else:
        rules += ("CQS-012",)
        if _below_target(model, s):
            if _exits_at_start(model, s):
                signals += _end_overflow(s, model)
                rules += ("CQS-015",)
            elif model.hint is not None and not model.hint.cqs_signals:
                s.relief_unseen = True  # (it may have left at once, unseen: see _exits_at_start)
    return signals, rules


def _exits_at_start(model: GroupState, s: Structure) -> bool:
    """CQS-015 when usage is already 20% below the threshold as overflow mode starts (a get between
    the CQSPUT that reached it and z/OS's answer): "exits overflow mode when the primary structure
    usage drops 20% below" does not say whether it leaves at once or at the next CQSDEL that finds
    usage there (no drop has happened yet), so an implementation that reports CQS's signals may do
    either; one that stays leaves at that CQSDEL (:func:`relieved`).  One showing none is taken to
    stay, its overflow mode perhaps over unseen (``relief_unseen``; eighth reading, usage only)."""
    hint = model.hint
    if hint is not None and not hint.cqs_signals:
        return False  # (it may do either, unseen: the caller marks relief_unseen)
    return hint is None or hint.says(f"OVERFLOW_OFF {s.defn.name}")


def _usage_at_start(model: GroupState, s: Structure, op: Any) -> tuple[int, int, int, int] | None:
    """The implementation's usage as overflow mode starts, before any queue moves: what it reported
    before z/OS's answer, or, for an alter completed inside the CQSPUT, after the put when nothing
    moves (no OVFLWSTR)."""
    if model.hint is None:
        return None
    if isinstance(op, _Answer):
        return model.after(s) if s.defn.ovflwstr is None else None
    return model.before(s)


def _pick_due(model: GroupState, s: Structure, op: Any) -> bool:
    """Whether the selection must take at least one queue.  CQS-007: "CQS stops selecting queues when
    enough queues have been selected to cause the primary structure usage to fall 20% below the
    overflow threshold": none are needed when usage is already there as overflow mode starts (a get
    between the CQSPUT that reached the threshold and z/OS's answer).  An alter completed inside the
    put starts overflow mode at the threshold, above any target; otherwise, in checker mode, only the
    implementation's own usage at that moment says it is above the target (unknown: not judged)."""
    if model.hint is None or isinstance(op, _Answer):
        return model.hint is not None or _usage(model, s) > target(model, s)
    seen = s.overflow_seen
    return seen is not None and usage_pct(_metric(model), seen, model.acct) > target(model, s)


def _base_usage(model: GroupState, s: Structure) -> float:
    """Usage when overflow mode starts (the drop readings of CQS-007 measure from it); -1 when the
    implementation has not reported it."""
    if model.hint is None:
        return _usage(model, s)
    pools = s.overflow_seen
    return -1.0 if pools is None else usage_pct(_metric(model), pools, model.acct)


def _altered(model: GroupState, s: Structure, size_kb: int | None) -> Outcome:
    from .accounting import pool_totals

    new = s.defn.size_kb if size_kb is None else size_kb
    if not isinstance(new, int) or not _alterable_to(s, new):
        err = ConfigurationError("alter_outcome.size_kb", new, f"{s.size_kb}..{s.defn.size_kb}", "CAPACITY-005")
        return Outcome("alter_outcome", False, CMD_INVALID, (err.rule_id,), value=err.to_record())
    hint = model.hint
    if hint is not None and not hint.outcome.ok and new in (s.size_kb, s.defn.size_kb):
        # a success to the current size, or to SIZE: z/OS's alter takes a size "greater than the
        # current" and, by MQ's seed, "less than SIZE" (readings alter_not_larger, alter_at_size);
        # whether CQS's alter is bound alike is not documented, so refusing it stands (tenth
        # reading, cqs seed 2: SIZE = INITSIZE, an alter to 6146 KB from 6146 KB refused)
        return Outcome("alter_outcome", False, hint.outcome.reason, ("CAPACITY-005", "CAPACITY-006"))
    s.alter_pending = False
    s.size_kb, s.size_known, s.size_range = new, True, None  # (an earlier contraction's range is over)
    s.pools.entries_total, s.pools.elements_total = pool_totals(new, s.defn.ratio, model.acct)
    return Outcome("alter_outcome", rules=("CQS-004",), signals=model.full_signals(s), usage=s.pools.as_tuple())


def _alterable_to(s: Structure, new: int) -> bool:
    """CAPACITY-004/005: z/OS alters a structure to a size from its current one up to its SIZE."""
    return s.size_kb <= new <= s.defn.size_kb


def _scanned(model: GroupState, s: Structure, start: int, end: int) -> bool:
    anchor = 0 if model.readings.cqs_scan_anchor == "clock" else s.overflow_start
    nxt = anchor + ((max(start, anchor) - anchor) // SCAN_SECONDS + 1) * SCAN_SECONDS
    return nxt <= end


def scan_between(model: GroupState, start: int, end: int) -> Outcome:
    """CQS-013/014: every scan in (start, end] takes empty queues out of overflow mode."""
    signals: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    for s in model.structures.values():
        ended = _lagging_relief(model, s)
        if ended:
            signals, rules = signals + ended, (*rules, "CQS-015", "CQS-020")
        if not (s.overflow_mode and s.defn.ovflwstr is not None and _scanned(model, s, start, end)):
            continue
        if s.selection_open is not None:
            # which queues are in overflow mode is not shown yet: only if every candidate is empty
            # does the scan certainly leave none (the selection is a subset of the candidates)
            if any(model.queues[n].msgs for n in s.selection_open):
                _scan_open(model, s)
                rules += ("CQS-013",) if "CQS-013" not in rules else ()
                continue
            s.overflow_queues = {n for n in s.overflow_queues if n in s.selection_open}
            s.selection_open = None
        rules += ("CQS-013",) if "CQS-013" not in rules else ()
        had = bool(s.overflow_queues)  # (none: nothing was ever selected, every candidate vetoed)
        for name in sorted(s.overflow_queues):
            if _leaves(model, name):
                s.overflow_queues.discard(name)
                signals += (f"OVERFLOW_QUEUE_OFF {s.defn.name} {name}",)
        if not s.overflow_queues and (had or model.readings.cqs_empty_overflow in ("ends", "next-scan")):
            if s.round_unseen and _holding(model, s):
                s.relief_unseen = True  # (a later round unseen may have selected a queue still holding data)
                continue
            signals += _end_overflow(s, model)
            rules += ("CQS-014",) if "CQS-014" not in rules else ()
    return Outcome("advance_clock", rules=rules, signals=signals)


def _holding(model: GroupState, s: Structure) -> bool:
    """Whether a queue of ``s`` holds data objects (one a later selection round may have taken)."""
    return any(q.msgs for q in model.queues.values() if q.defn.cfstruct == s.defn.name)


def _leaves(model: GroupState, name: str) -> bool:
    """CQS-013: whether a scan takes queue ``name`` out of overflow mode: it is empty."""
    return not model.queues[name].msgs


def _scan_open(model: GroupState, s: Structure) -> None:
    """CQS-013 while the selection is not shown yet: the empty candidates are out of overflow mode
    whether or not they were selected; the rest stay open (whether overflow mode has ended is shown
    by the implementation, :func:`adopt_selection`)."""
    for name in [n for n in s.selection_open or {} if not model.queues[n].msgs]:
        del s.selection_open[name]  # type: ignore[union-attr]
        s.overflow_queues.discard(name)
    s.selection_scanned = True


def set_overflow_exit(model: GroupState, op: SetOverflowExit) -> Outcome:
    """Install or remove the Queue Overflow exit (CQS-009/010)."""
    names, vetoed, vetoes = [q.defn.name for q in model.queues.values()], _vetoes(model), frozenset(op.vetoes or ())
    for s in model.structures.values():
        if s.overflow_mode:  # (a later selection round may have run under either exit)
            before = s.approvals if s.approvals is not None else {n for n in names if n not in vetoed}
            s.approvals = before | {n for n in names if n not in vetoes}
    model.overflow_exit = op.vetoes
    return Outcome("set_overflow_exit", rules=("CQS-009", "CQS-010"))
