"""The end of overflow mode by usage falling (CQS-015, CQS-020), and overflow mode ending (CQS-014).

Without OVFLWSTR, overflow mode ends once primary usage is 20% below the threshold: at the CQSDEL
that brings it there, or within one scan interval, under the ``cqs_relief_timing`` reading.
:func:`_end_overflow` is how overflow mode ends, whatever ends it (a CQSDEL, a scan, an adopted
report).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..accounting import usage_pct
from .usage import SCAN_SECONDS, _metric, _usage, target

if TYPE_CHECKING:
    from ..group import GroupState
    from ..state import Structure


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
