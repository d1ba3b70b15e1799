"""The 15-minute scan of queues in overflow mode, and the Queue Overflow exit (CQS-009, CQS-010, CQS-013, CQS-014).

Every scan interval (reading ``cqs_scan_anchor``) CQS takes empty queues out of overflow mode, and
overflow mode ends when none is left; the relief that may lag a scan interval (CQS-015) is settled at
the same clock advance.  SET OVERFLOW EXIT installs or removes the exit's vetoes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..outcomes import Outcome
from .relief import _end_overflow, _lagging_relief
from .selection import _vetoes
from .usage import SCAN_SECONDS

if TYPE_CHECKING:
    from ..group import GroupState
    from ..operations import SetOverflowExit
    from ..state import Structure


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
