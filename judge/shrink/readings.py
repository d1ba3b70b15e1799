"""Strategy ``readings`` (IMS CQS): the steps after the one that chose a reading a later step
contradicts: the failure shown at that step, under a configuration where the readings agree there.

A trace fails once no admissible reading is left.  Often an earlier step's outcome was
admissible only under some readings (the implementation left overflow mode at a drop of 20
points from the usage at entry, say: CQS-015 under ``cqs_target`` drop-points) and a later
step contradicts those.  The reproducer then needs both steps and whatever lies between.
Under another configuration the readings may agree at that earlier step; the outcome there
is then wrong under every reading, and the trace up to that step reproduces the fault on
its own, at the rule the step decides.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from cfconform.adapters.protocol import Adapter
from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config

from ..checker import Checker
from ..trace import TraceResult
from .grid import LENGTHS, grid_structures

#: The ambiguities a configuration grid below can make agree (CQS-007/015/020).
_OVERFLOW_READINGS = frozenset({"cqs_target", "cqs_usage_metric"})


def reading_steps(
    adapter_factory: Callable[[], Adapter], config: Config, ops: Sequence[Any]
) -> list[tuple[int, set[str]]]:
    """The steps before the first divergence at which the readings consistent with the trace
    narrowed, each with the ambiguities it narrowed (none if the implementation cannot be replayed)."""
    adapter = adapter_factory()
    out: list[tuple[int, set[str]]] = []
    try:
        checker = Checker(config, adapter.capabilities())
        adapter.open(config)
        before = checker.readings_followed()
        for index, op in enumerate(ops):
            if not checker.check(op, adapter.apply(op)).ok:
                break
            after = checker.readings_followed()
            narrowed = {key for key, readings in after.items() if readings != before[key]}
            if narrowed:
                out.append((index, narrowed))
            before = after
    except Exception:
        pass
    finally:
        adapter.close()
    return out


def overflow_grid(config: Config, ops: list[Any]) -> Iterator[tuple[Config, list[Any]]]:
    """Each CQS queue structure's usable size, RATIO and OVFLWMAX from a grid (smallest first),
    with the longest put's length from a ladder.  Where overflow mode was entered at usage well
    above OVFLWMAX, "20% below" read from the threshold and from the usage at entry differ; a
    structure whose OVFLWMAX sits just under the usage one put reaches makes them agree."""
    puts = [i for i, op in enumerate(ops) if isinstance(op, o.Put)]
    longest = max(puts, key=lambda i: ops[i].length, default=None)
    for candidate in grid_structures(config):
        if longest is None:
            yield candidate, ops
            continue
        for length in LENGTHS:
            yield candidate, [*ops[:longest], attrs.evolve(ops[longest], length=length), *ops[longest + 1 :]]


def disambiguated(
    adapter_factory: Callable[[], Adapter],
    run: Callable[[Config, Sequence[Any]], TraceResult],
    config: Config,
    ops: list[Any],
    budget: list[int],
) -> tuple[Config, list[Any]] | None:
    """A configuration and the trace up to a step that narrowed the readings, under which that step
    diverges from every reading; or None.  Only the CQS overflow readings have a grid."""
    if config.profile != "cqs":
        return None
    for step, narrowed in reversed(reading_steps(adapter_factory, config, ops)):
        if step + 1 >= len(ops) or not narrowed & _OVERFLOW_READINGS:
            continue
        for candidate, prefix in overflow_grid(config, ops[: step + 1]):
            if budget[0] <= 0:
                return None
            budget[0] -= 1
            result = run(candidate, prefix)
            if result.divergence is not None and result.steps_checked == step + 1:
                return candidate, prefix
    return None
