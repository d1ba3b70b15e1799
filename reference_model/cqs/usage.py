"""What CQS compares with OVFLWMAX and with the overflow target (CQS-007, CQS-015, CQS-020).

The usage figure under the ``cqs_usage_metric`` reading, the target "20% below the overflow threshold"
under the ``cqs_target`` reading, the usage as overflow mode starts (the drop readings measure from it),
and the 15-minute scan interval (CQS-013).  The bottom of the ``cqs`` package: every other module of it
reads these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..accounting import usage_pct

if TYPE_CHECKING:
    from ..group import GroupState
    from ..state import Structure

#: CQS-013: the seconds between two scans of the queues in overflow mode ("The queues are scanned every 15 minutes").
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


def _base_usage(model: GroupState, s: Structure) -> float:
    """Usage when overflow mode starts (the drop readings of CQS-007 measure from it); -1 when the
    implementation has not reported it."""
    if model.hint is None:
        return _usage(model, s)
    pools = s.overflow_seen
    return -1.0 if pools is None else usage_pct(_metric(model), pools, model.acct)
