"""The driver: minimise a failing trace through the adapter with the strategies of the registry
(:mod:`.registry`), in the order README.md describes.

Used by the gate after Hypothesis finds a failure, and by campaign triage.  A
candidate counts as failing only if it fails the same way (same signature, or an
adapter fault for fault traces), so minimisation never slides to another bug; it may
only narrow to a shorter trace breaking some of the same rules at the same kind of
operation (:func:`.narrow.narrows`), once the variants bring nothing
more, or straight after the first delta debugging for a trace still longer than 16 steps.
The search primitives (windows, the measure, a failure's signature) are in
:mod:`.search`.  It may also end earlier:
in an inspection that already shows the implementation's state departed (the fault's cause,
:func:`.inspection.shown_earlier`), or, for a failure that arose because a
later step contradicted the reading an earlier step chose, at that earlier step under a
configuration where the readings agree there (:func:`.readings.disambiguated`),
or with its runs of like puts cut to a few under a small structure from a grid
(:func:`.runs.rescaled`).
The result is 1-minimal: removing any single operation makes it pass.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from operator import eq
from typing import Any

from cfconform.adapters.protocol import Adapter
from cfconform.reference_model.config import Config
from cfconform.reference_model.errors import ConfigurationError

from ..trace import TraceResult
from .ddmin import ddmin
from .inspection import shown_earlier
from .narrow import narrowed
from .prune import pruned
from .readings import disambiguated
from .registry import variants
from .retune import RETUNE_LIMIT, retuned
from .runs import rescaled
from .search import COARSE_CHUNKS, WINDOW_LIMIT, failing_under, kept, measure, runner, signature

#: Replays the structure grid of a trace with its runs cut may take (three cuts of 3,360 structures
#: and lengths a structure; each replay is of a few steps), and those a trace it found is minimised with.
_GRID_RUNS = 10_500
_RESHAPED_RUNS = 300


def _pruned_first(
    run: Callable[[Config, Sequence[Any]], TraceResult], config: Config, ops: list[Any], target: str, budget: list[int]
) -> Config:
    """The configuration without the queues and structures the trace never names, if the trace
    fails the same way under it: every replay of delta debugging is then quicker (a
    configuration at the 512-queue limit opens and inspects hundreds of queues)."""
    for smaller in pruned(config, ops):
        budget[0] -= 1
        if signature(run(smaller, ops)) == target:
            return smaller
    return config


def minimise(
    adapter_factory: Callable[[], Adapter], config: Config, ops: Sequence[Any], *, max_runs: int = 3000
) -> TraceResult:
    """The shortest failing trace found, replayed once more for its record.

    Delta debugging over the operations, then (greedily, in rounds over the variants
    until a whole round brings nothing) smaller structures, queue depths and operands,
    each followed by another round of delta debugging: a smaller structure crosses its
    thresholds in fewer puts.  ``ops`` must fail against
    ``adapter_factory()``; the returned result fails the same way, or breaks some of the same
    rules at the same kind of operation in fewer steps (:func:`.narrow.narrows`).
    """
    run = runner(adapter_factory)
    best = run(config, ops)
    target = signature(best)
    if target is None or not isinstance(config, Config):  # (a forbidden configuration: its open is the case)
        return best
    budget, same = [max_runs], partial(eq, target)
    config = _pruned_first(run, config, list(ops[: kept(best)]), target, budget)
    current, found = ddmin(run, config, list(ops[: kept(best)]), same, budget)
    best = found or best
    shown = shown_earlier(run, config, current, budget)
    if shown is not None:
        return minimise(adapter_factory, config, shown, max_runs=budget[0])
    if len(current) > WINDOW_LIMIT:  # a long trace may need to fill a structure only for one of the rules
        fewer = narrowed(run, config, current, target, budget)
        if fewer is not None:
            return minimise(adapter_factory, *fewer, max_runs=budget[0])
    position, since_improved = 0, 0
    while budget[0] > 0:
        candidates = variants(config, current)
        if since_improved >= len(candidates):
            break  # a whole round of variants without improvement
        candidate, ops_in, windows = candidates[position % len(candidates)]
        position, since_improved = position + 1, since_improved + 1
        try:
            start, result = failing_under(run, candidate, ops_in, same, budget, windows=windows)
        except ConfigurationError:
            continue
        if result is None:
            continue
        # on a long trace, a variant that lets little go is not worth a full pass (hundreds of replays)
        finest = COARSE_CHUNKS if len(start) > WINDOW_LIMIT else None
        ops_now, found = ddmin(run, candidate, start[: kept(result)], same, budget, finest)
        if measure(candidate, ops_now) >= measure(config, current):
            continue  # only keep a variant that makes the reproducer shorter or the configuration smaller
        config, current, best, since_improved = candidate, ops_now, found or result, 0
        position -= 1  # the variant at this position of the new list is the next one not yet tried
    if len(current) > WINDOW_LIMIT:  # the variants' coarse passes may have left it short of 1-minimal
        current, found = ddmin(run, config, current, same, budget)
        best = found or best
    if len(current) <= RETUNE_LIMIT:
        config, current, best = retuned(run, config, current, best, target, budget)
    reshaped = _reshaped(adapter_factory, run, config, current, target, budget)
    if reshaped is not None:
        # at least a short pass: the grid may have found it with the main budget spent
        return minimise(adapter_factory, *reshaped, max_runs=max(budget[0], _RESHAPED_RUNS))
    return best if len(best.ops) == len(current) else run(config, current)


def _reshaped(
    adapter_factory: Callable[[], Adapter],
    run: Callable[[Config, Sequence[Any]], TraceResult],
    config: Config,
    ops: list[Any],
    target: str,
    budget: list[int],
) -> tuple[Config, list[Any]] | None:
    """A shorter trace showing the same fault otherwise, once the variants bring nothing: its state
    inspected where it departed, the step that chose a reading under a configuration where the
    readings agree there (short traces only), its runs of one put cut to one under a grid
    structure (:func:`.runs.rescaled`), or fewer of its rules
    (:func:`.narrow.narrowed`)."""
    shown = shown_earlier(run, config, ops, budget)
    if shown is not None:
        return config, shown
    chosen = disambiguated(adapter_factory, run, config, ops, budget) if len(ops) <= RETUNE_LIMIT else None
    # the grid's traces are a few steps each: an allowance of their own, however much is left
    chosen = chosen or rescaled(run, config, ops, lambda result: signature(result) == target, [_GRID_RUNS])
    return chosen or narrowed(run, config, ops, target, budget, variants=variants)


#: Replays delta debugging may spend on each candidate failure before the shortest is minimised fully.
_FIRST_PASS_RUNS = 300


def minimise_shortest(
    adapter_factory: Callable[[], Adapter], failures: Sequence[tuple[Config, Sequence[Any]]]
) -> TraceResult | None:
    """The shortest reproducer of several failing traces (the earliest among equals).

    Each distinct trace first gets a cheap round of delta debugging over its operations;
    the one that came out shortest is then minimised fully (:func:`minimise`).  A trace
    that passes on its first replay is returned as it is (a passing result: the
    implementation is not deterministic).
    """
    run = runner(adapter_factory)
    best: tuple[Config, list[Any]] | None = None
    seen: list[tuple[Config, Sequence[Any]]] = []
    for config, ops in failures:
        if (config, ops) in seen:
            continue
        seen.append((config, ops))
        first = run(config, ops)
        target = signature(first)
        if target is None:
            return first
        reduced, _ = ddmin(run, config, list(ops[: kept(first)]), partial(eq, target), [_FIRST_PASS_RUNS])
        if best is None or len(reduced) < len(best[1]):
            best = (config, reduced)
    return None if best is None else minimise(adapter_factory, *best)


def replay_first(
    adapter_factory: Callable[[], Adapter], failures: Sequence[tuple[Config, Sequence[Any]]]
) -> TraceResult | None:
    """The first failing trace replayed once as it is, not minimised (a passing result: the
    implementation is not deterministic)."""
    if not failures:
        return None
    config, ops = failures[0]
    return runner(adapter_factory)(config, ops)
