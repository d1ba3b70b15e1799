"""Minimise a failing trace through the adapter (delta debugging over the operation list).

Used by the gate after Hypothesis finds a failure, and by campaign triage.  A
candidate counts as failing only if it fails the same way (same signature, or an
adapter fault for fault traces), so minimisation never slides to another bug; it may
only narrow to a shorter trace breaking some of the same rules at the same kind of
operation (:func:`narrows`), once the variants bring nothing more, or straight after
the first delta debugging for a trace still longer than 16 steps.  It may also end earlier:
in an inspection that already shows the implementation's state departed (the fault's cause,
:func:`conformance.shrink_inspect.shown_earlier`), or, for a failure that arose because a
later step contradicted the reading an earlier step chose, at that earlier step under a
configuration where the readings agree there (:func:`conformance.shrink_readings.disambiguated`),
or with its runs of like puts cut to a few under a small structure from a grid
(:func:`conformance.shrink_runs.rescaled`).
The result is 1-minimal: removing any single operation makes it pass.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from operator import eq
from typing import Any

from adapters.protocol import Adapter
from conformance import shrink_depths
from conformance import shrink_variants as v
from conformance.runner import run_trace
from conformance.shrink_inspect import shown_earlier
from conformance.shrink_readings import disambiguated
from conformance.shrink_runs import rescaled
from conformance.trace import TraceResult
from reference_model import operations as o
from reference_model.config import Config
from reference_model.errors import ConfigurationError


def _key(result: TraceResult) -> str | None:
    if result.divergence is not None:
        return result.divergence.signature()
    if result.fault is not None:
        return "fault"
    return None


def _kept(result: TraceResult) -> int:
    """How many leading operations matter: up to the divergence, or up to and including the faulting one."""
    if result.divergence is None and result.fault is not None and result.fault.step is not None:
        return result.fault.step + 1
    return result.steps_checked


def _runner(adapter_factory: Callable[[], Adapter]) -> Callable[[Config, Sequence[Any]], TraceResult]:
    def run(config: Config, candidate: Sequence[Any]) -> TraceResult:
        adapter = adapter_factory()
        try:
            return run_trace(adapter, config, candidate, batch=False)
        finally:
            adapter.close()

    return run


def _ddmin(
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
            if accepts(_key(result)):
                current, best, reduced = candidate[: _kept(result)], result, True
                granularity = max(granularity - 1, 2)
                break
        if not reduced:
            if chunk == 1 or (finest is not None and granularity >= finest):
                break
            granularity = min(len(current), granularity * 2)
    return current, best


#: Longest trace for which a smaller configuration is also tried without a window of operations.
_WINDOW_LIMIT = 16
#: Chunks the coarse delta debugging after a variant of a trace longer than that goes down to.
_COARSE_CHUNKS = 8
#: Replays the structure grid of a trace with its runs cut may take (three cuts of 3,360 structures
#: and lengths a structure; each replay is of a few steps), and those a trace it found is minimised with.
_GRID_RUNS = 10_500
_RESHAPED_RUNS = 300
#: Windows tried per variant, widest first: most variants fail to reproduce under any window, and
#: trying every one of a 16-step trace's 120 windows would spend the budget on a few variants.
_WINDOW_TRIES = 30


def _failing_under(
    run: Callable[[Config, Sequence[Any]], TraceResult],
    config: Config,
    ops: list[Any],
    accepts: Callable[[str | None], bool],
    budget: list[int],
    *,
    windows: bool = True,
) -> tuple[list[Any], TraceResult | None]:
    """``ops`` or (``windows``) ``ops`` without one contiguous window (largest first) whose failure
    under ``config`` ``accepts``.

    A smaller structure reaches its thresholds in fewer puts, so the operations that
    reached them on the larger one overshoot (the trace passes, or fails another way);
    dropping a window of them lets delta debugging continue from the smaller structure.
    """
    result = run(config, ops)
    budget[0] -= 1
    if accepts(_key(result)):
        return ops, result
    if not windows or len(ops) > _WINDOW_LIMIT:
        return ops, None
    tries = _WINDOW_TRIES
    for width in range(len(ops) - 1, 0, -1):
        for begin in range(len(ops) - width + 1):
            if budget[0] <= 0 or tries <= 0:
                return ops, None
            tries -= 1
            candidate = ops[:begin] + ops[begin + width :]
            result = run(config, candidate)
            budget[0] -= 1
            if accepts(_key(result)):
                return candidate, result
    return ops, None


def _measure(config: Config, ops: Sequence[Any]) -> tuple[int, int, int, int, int, int, int]:
    """What minimisation lowers: the trace's length, then its queues, then the queue managers that
    put or get, then sizes (structure SIZE and INITSIZE, MAXDEPTH, SETXCF ALTER sizes), then alter
    outcomes with a size, then message lengths, then OFFLDnSZ (a rule any length meets lets the
    puts be shorter next).  Every accepted variant lowers it, so the search ends."""
    sizes = sum(s.size_kb + s.effective_initsize_kb for s in config.structures)
    sizes += sum(q.maxdepth for q in config.queues)
    sizes += sum(op.size_kb for op in ops if isinstance(op, o.SetxcfAlter))
    sized_outcomes = sum(1 for op in ops if isinstance(op, o.AlterOutcome) and op.size_kb is not None)
    lengths = sum(op.length for op in ops if isinstance(op, o.Put))
    offload_sizes = sum(s.offld1sz + s.offld2sz + s.offld3sz for s in config.structures)
    return len(ops), len(config.queues), v.qmgrs_named(ops), sizes, sized_outcomes, lengths, offload_sizes


def _pruned_first(
    run: Callable[[Config, Sequence[Any]], TraceResult], config: Config, ops: list[Any], target: str, budget: list[int]
) -> Config:
    """The configuration without the queues and structures the trace never names, if the trace
    fails the same way under it: every replay of delta debugging is then quicker (a
    configuration at the 512-queue limit opens and inspects hundreds of queues)."""
    for smaller in v.pruned(config, ops):
        budget[0] -= 1
        if _key(run(smaller, ops)) == target:
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
    rules at the same kind of operation in fewer steps (:func:`narrows`).
    """
    run = _runner(adapter_factory)
    best = run(config, ops)
    target = _key(best)
    if target is None:
        return best
    budget, same = [max_runs], partial(eq, target)
    config = _pruned_first(run, config, list(ops[: _kept(best)]), target, budget)
    current, found = _ddmin(run, config, list(ops[: _kept(best)]), same, budget)
    best = found or best
    shown = shown_earlier(run, config, current, budget)
    if shown is not None:
        return minimise(adapter_factory, config, shown, max_runs=budget[0])
    if len(current) > _WINDOW_LIMIT:  # a long trace may need to fill a structure only for one of the rules
        narrowed = _narrowed(run, config, current, target, budget, variants=False)
        if narrowed is not None:
            return minimise(adapter_factory, *narrowed, max_runs=budget[0])
    position, since_improved = 0, 0
    while budget[0] > 0:
        candidates = v.variants(config, current)
        if since_improved >= len(candidates):
            break  # a whole round of variants without improvement
        candidate, ops_in, windows = candidates[position % len(candidates)]
        position, since_improved = position + 1, since_improved + 1
        try:
            start, result = _failing_under(run, candidate, ops_in, same, budget, windows=windows)
        except ConfigurationError:
            continue
        if result is None:
            continue
        # on a long trace, a variant that lets little go is not worth a full pass (hundreds of replays)
        finest = _COARSE_CHUNKS if len(start) > _WINDOW_LIMIT else None
        ops_now, found = _ddmin(run, candidate, start[: _kept(result)], same, budget, finest)
        if _measure(candidate, ops_now) >= _measure(config, current):
            continue  # only keep a variant that makes the reproducer shorter or the configuration smaller
        config, current, best, since_improved = candidate, ops_now, found or result, 0
        position -= 1  # the variant at this position of the new list is the next one not yet tried
    if len(current) > _WINDOW_LIMIT:  # the variants' coarse passes may have left it short of 1-minimal
        current, found = _ddmin(run, config, current, same, budget)
        best = found or best
    if len(current) <= _RETUNE_LIMIT:
        config, current, best = _retuned(run, config, current, best, target, budget)
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
    structure (:func:`conformance.shrink_runs.rescaled`), or fewer of its rules (:func:`_narrowed`)."""
    shown = shown_earlier(run, config, ops, budget)
    if shown is not None:
        return config, shown
    chosen = disambiguated(adapter_factory, run, config, ops, budget) if len(ops) <= _RETUNE_LIMIT else None
    # the grid's traces are a few steps each: an allowance of their own, however much is left
    chosen = chosen or rescaled(run, config, ops, lambda result: _key(result) == target, [_GRID_RUNS])
    return chosen or _narrowed(run, config, ops, target, budget)


def narrows(target: str, key: str | None) -> bool:
    """Whether failure ``key`` breaks some but not all of the rules failure ``target`` names, at the
    same kind of operation (a put to a full queue over-accepted, say, where ``target`` also needed a
    full structure): what a minimised failure may become (:func:`minimise`)."""
    if key is None or key == "fault" or target == "fault":
        return False
    rules, _, kind = target.split("|")
    other, _, other_kind = key.split("|")
    return other_kind == kind and set(other.split("+")) < set(rules.split("+"))


def _narrowed(
    run: Callable[[Config, Sequence[Any]], TraceResult],
    config: Config,
    ops: list[Any],
    target: str,
    budget: list[int],
    *,
    variants: bool = True,
) -> tuple[Config, list[Any]] | None:
    """A shorter trace (fewer of ``ops``, or with ``variants`` under a variant of the configuration)
    that breaks only some of the rules ``target`` names: two rules broken together may need a longer
    trace than one of them alone (a queue at MAXDEPTH in a full structure, a put to an unselected
    queue once the structure is full).  Tried for traces of three steps or more that break two rules."""
    if len(ops) < 3 or "+" not in target.split("|")[0]:
        return None
    narrower = partial(narrows, target)
    reduced, found = _ddmin(run, config, ops, narrower, budget)
    if found is not None:
        return config, reduced
    for candidate, ops_in, windows in v.variants(config, ops) if variants else []:
        if budget[0] <= 0:
            break
        try:
            start, result = _failing_under(run, candidate, ops_in, narrower, budget, windows=windows)
        except ConfigurationError:
            continue
        if result is not None:
            reduced, _ = _ddmin(run, candidate, start[: _kept(result)], partial(eq, _key(result)), budget)
            if len(reduced) < len(ops):
                return candidate, reduced
    return None


#: Longest trace whose queue depth settings are retuned (a grid of a few hundred configurations).
_RETUNE_LIMIT = 8


def _retuned(
    run: Callable[[Config, Sequence[Any]], TraceResult],
    config: Config,
    ops: list[Any],
    best: TraceResult,
    target: str,
    budget: list[int],
) -> tuple[Config, list[Any], TraceResult]:
    """The shortest trace under another depth setting of its queue (:func:`shrink_depths.retuned_depths`),
    tried once the other variants bring nothing: each costs a replay, so only for short traces.
    A variant counts if it breaks the same rules in the same field, though perhaps at a get
    where the original broke them at a put (the same reading of QDEPTHHI and QDEPTHLO)."""
    for candidate, ops_in in shrink_depths.retuned_depths(config, ops):
        if budget[0] <= 0:
            break
        budget[0] -= 1
        try:
            result = run(candidate, ops_in)
        except ConfigurationError:
            continue
        key = _key(result)
        if key is None or key.rsplit("|", 1)[0] != target.rsplit("|", 1)[0]:
            continue  # the same rules and field; the step that shows them may be a get rather than a put
        ops_now, found = _ddmin(run, candidate, ops_in[: _kept(result)], partial(eq, key), budget)
        if _measure(candidate, ops_now) < _measure(config, ops):
            config, ops, best = candidate, ops_now, found or result
    return config, ops, best


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
    run = _runner(adapter_factory)
    best: tuple[Config, list[Any]] | None = None
    seen: list[tuple[Config, Sequence[Any]]] = []
    for config, ops in failures:
        if (config, ops) in seen:
            continue
        seen.append((config, ops))
        first = run(config, ops)
        target = _key(first)
        if target is None:
            return first
        reduced, _ = _ddmin(run, config, list(ops[: _kept(first)]), partial(eq, target), [_FIRST_PASS_RUNS])
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
    return _runner(adapter_factory)(config, ops)
