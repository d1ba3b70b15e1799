"""Adopting what the implementation shows later (CQS-003, CQS-005, CQS-006, CQS-012, CQS-015).

An implementation that reports no usage or no CQS signals shows an alter, a selection or the end of
overflow mode only later: in a CQSPUT it accepts or refuses, or in ``inspect``.  The model keeps such
a question open (``alter_unseen``, ``selection_open``, ``relief_unseen``, ``round_unseen``) and adopts
the answer when it keeps the documented relations: the ``adopt_*`` functions (called at ``inspect``
from ``judge/seen.py``, and before a CQSPUT) and the ``_unseen`` helpers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..outcomes import CQS_REJECTED_OVERFLOW
from .relief import _end_overflow
from .selection import _open_candidates, _selection_sound, _vetoes
from .sizes import _first_pick, _larger, _surely_fits
from .storage import _charge, _in_overflow, _in_parts, _overflow_room
from .usage import _base_usage, _metric

if TYPE_CHECKING:
    from ..group import GroupState
    from ..state import Structure


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


def adopt_selection(model: GroupState, s: Structure, reported: Any, mode: Any = False) -> None:
    """At ``inspect``, an open selection becomes the one the implementation reports, if it keeps the
    relations of :func:`_select_reported` (candidates only, none vetoed, no larger queue passed over).
    After a scan released emptied candidates (``selection_scanned``) only the first holds."""
    if s.selection_open is None or not s.overflow_mode or not isinstance(reported, list):
        return
    chosen = set(reported)
    later = chosen - set(s.selection_open)
    if later and not (s.round_unseen and all(_later_pick(model, s, n) for n in later)):
        return
    if not (s.selection_scanned or _reported_sound(model, s, chosen - later)):
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


def _later_pick(model: GroupState, s: Structure, name: str) -> bool:
    """Whether ``name`` may have joined overflow mode in a selection round after the first that the
    implementation did not show (``round_unseen``, ``cqs_reselect=select``): a queue of the structure
    the exit approves, or approved at some time in this overflow mode (twelfth reading, CQS signals
    withheld, cqs seed 1: a queue first put to after overflow mode began, selected and moved within
    the CQSPUTs that reached OVFLWMAX(0))."""
    q = model.queues.get(name)
    if q is None or q.defn.cfstruct != s.defn.name:
        return False
    return name not in _vetoes(model) or (s.approvals is not None and name in s.approvals)


def _reported_sound(model: GroupState, s: Structure, chosen: set[str]) -> bool:
    """The first pick chosen, enough chosen (:func:`_selection_sound`), and (without OVFLWSTR) no
    candidate passed over that is surely larger than one chosen."""
    sizes = s.selection_open or {}
    first = _first_pick(sizes) if s.pick_due else None
    if (first is not None and first not in chosen) or not _selection_sound(model, s, chosen):
        return False
    passed = [n for n in sizes if n not in chosen and (s.defn.ovflwstr is None or _surely_fits(s, sizes[n]))]
    return not any(_larger(sizes[b], sizes[a]) for a in chosen for b in passed)
