"""Strategy ``ddmin``: the operations the failure does not need (delta debugging over the
operation list, Zeller's ddmin).  A candidate counts only if it fails as the caller ``accepts``
(the same signature, for the driver), and keeps only the operations up to its failure.

The driver runs it after pruning, after every variant it keeps (a coarse pass on a long trace), once
more on a trace still long after the variant rounds, and inside the other strategies on what they
find."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cfconform.reference_model.config import Config

from ..trace import TraceResult
from .search import kept, signature


def ddmin(
    run: Callable[[Config, Sequence[Any]], TraceResult],
    config: Config,
    ops: list[Any],
    accepts: Callable[[str | None], bool],
    budget: list[int],
    finest: int | None = None,
) -> tuple[list[Any], TraceResult | None]:
    """Delta debugging over ``ops`` (whose failure ``accepts``); ``budget[0]`` counts down replays.
    With ``finest``, no finer than that many chunks: a coarse pass, whose cost does not grow with
    the trace's length."""
    current, best = ops, None
    granularity = 2
    while len(current) >= 2 and budget[0] > 0:
        chunk = max(1, len(current) // granularity)
        reduced = False
        for start in range(0, len(current), chunk):
            candidate = current[:start] + current[start + chunk :]
            result = run(config, candidate)
            budget[0] -= 1
            if accepts(signature(result)):
                current, best, reduced = candidate[: kept(result)], result, True
                granularity = max(granularity - 1, 2)
                break
        if not reduced:
            if chunk == 1 or (finest is not None and granularity >= finest):
                break
            granularity = min(len(current), granularity * 2)
    return current, best
