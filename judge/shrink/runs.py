"""Strategy ``runs``: all but a few puts of each run of like puts, under a structure from a grid.

A generated trace often reaches a usage level through many puts alike but for their queue
(the list entries of dozens of zero-length messages, say, until entry usage stays above the
level at which overflow mode ends; or equal messages on five queues, so that selection for
overflow must take three of them).  Delta debugging cannot drop any of them under that
structure, and a smaller structure alone overshoots with all of them.  With each run cut to
one, two or three puts, and every length scaled by one factor, a structure from the overflow
grid (a few KB usable, another RATIO and OVFLWMAX) often reaches the same levels, and the
failure then needs only a handful of steps.  An MQ structure's grid varies FULLTHRESHOLD
instead of OVFLWMAX (a usage that falls back exactly to the threshold, say).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config
from cfconform.reference_model.errors import ConfigurationError

from ..trace import TraceResult
from .grid import LENGTHS, grid_structures

#: Puts kept of each run, fewest first (selection for overflow may need a few queues alike).
_KEPT = (1, 2, 3)


def _alike(op: Any) -> Any:
    """What makes two operations alike: a put's tag (puts are tagged in order) and queue aside."""
    return attrs.evolve(op, tag=0, queue="") if isinstance(op, o.Put) else op


def cut_runs(ops: Sequence[Any], keep: int) -> list[Any]:
    """``ops`` with each run of consecutive alike operations cut to its first ``keep``."""
    out: list[Any] = []
    run_length = 0
    for op in ops:
        run_length = run_length + 1 if out and _alike(out[-1]) == _alike(op) else 1
        if run_length <= keep:
            out.append(op)
    return out


def scaled(ops: Sequence[Any]) -> Iterator[list[Any]]:
    """``ops`` with every put's length scaled by one factor, the longest becoming each length of
    the grid's ladder in turn (the proportions between the queues decide which are selected)."""
    longest = max((op.length for op in ops if isinstance(op, o.Put)), default=0)
    for length in LENGTHS if longest else (0,):
        yield [
            attrs.evolve(op, length=op.length * length // longest) if isinstance(op, o.Put) and longest else op
            for op in ops
        ]


def rescaled(
    run: Callable[[Config, Sequence[Any]], TraceResult],
    config: Config,
    ops: list[Any],
    accepts: Callable[[TraceResult], bool],
    budget: list[int],
) -> tuple[Config, list[Any]] | None:
    """A structure from the grid and ``ops`` with its runs cut (and its lengths scaled), under which
    the trace fails as ``accepts``; or None.  The grid varies a CQS structure's OVFLWMAX and an MQ
    structure's FULLTHRESHOLD (CAPACITY-002/003).  Only where cutting the runs shortens the trace."""
    threshold = "ovflwmax" if config.profile == "cqs" else "fullthreshold"
    tried: list[list[Any]] = []
    for keep in _KEPT:
        short = cut_runs(ops, keep)
        if len(short) == len(ops) or short in tried:
            continue
        tried.append(short)
        for candidate in grid_structures(config, threshold):
            for trial in scaled(short):
                if budget[0] <= 0:
                    return None
                budget[0] -= 1
                try:
                    result = run(candidate, trial)
                except ConfigurationError:
                    continue
                if accepts(result):
                    return candidate, trial
    return None
