"""The structure alter and overflow mode beginning (CQS-003, CQS-004, CQS-005, CQS-008, CAPACITY-004/005).

z/OS answers CQS's alter (:class:`~cfconform.reference_model.operations.AlterOutcome`, or inside the
CQSPUT under the ``sync`` reading): success grows the primary (CQS-004); failure starts overflow mode,
and queues are selected at once (CQS-005, CQS-008) and moved or fenced off (CQS-011, CQS-012), overflow
mode ending at once if none needed it (CQS-014, CQS-015).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..accounting import usage_pct
from ..errors import ConfigurationError
from ..outcomes import CMD_INVALID, CMD_NO_ALTER_PENDING, Outcome
from .relief import _below_target, _end_overflow
from .selection import select
from .storage import _move
from .usage import _base_usage, _metric, _usage, target

if TYPE_CHECKING:
    from ..group import GroupState
    from ..operations import AlterOutcome
    from ..state import Structure


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
    moved = s.defn.ovflwstr is not None and any(sig.startswith("OVERFLOW_QUEUE ") for sig in signals)
    signals = (f"OVERFLOW_ON {s.defn.name}", *signals, *model.full_signals(s, moved=moved))
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


def _altered(model: GroupState, s: Structure, size_kb: int | None) -> Outcome:
    from ..accounting import pool_totals

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
