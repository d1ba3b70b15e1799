"""Other ways to a shorter failing trace, for minimisation (judge/shrink.py): breaking only
some of the rules a failure names (:func:`narrows`), and a short trace's queue depth settings
taken from a grid (:func:`retuned`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from operator import eq
from typing import Any

from cfconform.reference_model.config import Config
from cfconform.reference_model.errors import ConfigurationError

from . import shrink_depths
from . import shrink_variants as v
from .shrink_search import ddmin, failing_under, kept, measure, signature
from .trace import TraceResult


def narrows(target: str, key: str | None) -> bool:
    """Whether failure ``key`` breaks some but not all of the rules failure ``target`` names, at the
    same kind of operation (a put to a full queue over-accepted, say, where ``target`` also needed a
    full structure): what a minimised failure may become (:func:`minimise`)."""
    if key is None or key == "fault" or target == "fault":
        return False
    rules, _, kind = target.split("|")
    other, _, other_kind = key.split("|")
    return other_kind == kind and set(other.split("+")) < set(rules.split("+"))


def narrowed(
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
    reduced, found = ddmin(run, config, ops, narrower, budget)
    if found is not None:
        return config, reduced
    for candidate, ops_in, windows in v.variants(config, ops) if variants else []:
        if budget[0] <= 0:
            break
        try:
            start, result = failing_under(run, candidate, ops_in, narrower, budget, windows=windows)
        except ConfigurationError:
            continue
        if result is not None:
            reduced, _ = ddmin(run, candidate, start[: kept(result)], partial(eq, signature(result)), budget)
            if len(reduced) < len(ops):
                return candidate, reduced
    return None


#: Longest trace whose queue depth settings are retuned (a grid of a few hundred configurations).
RETUNE_LIMIT = 8


def retuned(
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
        found_key = signature(result)
        if found_key is None or found_key.rsplit("|", 1)[0] != target.rsplit("|", 1)[0]:
            continue  # the same rules and field; the step that shows them may be a get rather than a put
        ops_now, found = ddmin(run, candidate, ops_in[: kept(result)], partial(eq, found_key), budget)
        if measure(candidate, ops_now) < measure(config, ops):
            config, ops, best = candidate, ops_now, found or result
    return config, ops, best
