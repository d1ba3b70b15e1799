"""Strategy ``inspection``: the steps after the implementation's state already departed from every
reading: the trace ends in an inspection that shows the fault where it happened (the earliest such
point, by bisection), and minimisation restarts on that shorter trace."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config

from ..trace import TraceResult


def inspected_at(
    run: Callable[[Config, Sequence[Any]], TraceResult], config: Config, ops: list[Any], step: int, budget: list[int]
) -> list[Any] | None:
    """The first ``step`` operations and an inspection, if the inspection already shows a divergence."""
    candidate = [*ops[:step], o.Inspect()]
    budget[0] -= 1
    result = run(config, candidate)
    shown = result.divergence is not None and result.steps_checked == len(candidate)
    return candidate if shown and result.divergence.op.get("op") == o.Inspect.KIND else None  # type: ignore[union-attr]


def shown_earlier(
    run: Callable[[Config, Sequence[Any]], TraceResult], config: Config, ops: list[Any], budget: list[int]
) -> list[Any] | None:
    """A shorter trace ending in an inspection that shows the implementation's state already
    departed from every reading (the earliest such point found by bisection), or None.

    A fault in state (a switch set wrongly by a Queue Full event, overflow mode ended too soon)
    often shows only several operations later, when the state decides an outcome; the
    inspection shows it where it happened, and names the rule that decided that state rather
    than the rule of the later outcome.  The result is a different failure of the same trace:
    the cause of the one found, not another bug (the trace up to there matched every outcome).
    """
    if len(ops) < 3 or budget[0] <= 0:
        return None
    found = inspected_at(run, config, ops, len(ops) - 2, budget)
    if found is None:
        return None
    low, high = 0, len(ops) - 2  # shown at ``high``; find the earliest step it is shown at
    while low < high and budget[0] > 0:
        middle = (low + high) // 2
        candidate = inspected_at(run, config, ops, middle, budget)
        if candidate is None:
            low = middle + 1
        else:
            found, high = candidate, middle
    return found
