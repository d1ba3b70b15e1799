"""Strategy ``narrow``: the rules of a failure that breaks two or more that a shorter trace need not
break: two rules broken together may need a longer trace than one of them alone (a queue at
MAXDEPTH in a full structure, a put to an unselected queue once the structure is full).  What a
minimised failure may become (:func:`narrows`): some but not all of the same rules, at the same
kind of operation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from operator import eq
from typing import Any

from cfconform.reference_model.config import Config
from cfconform.reference_model.errors import ConfigurationError

from ..trace import TraceResult
from .ddmin import ddmin
from .search import failing_under, kept, signature

#: The variants to try under (the registry's :func:`.registry.variants`).
Variants = Callable[[Config, list[Any]], list[tuple[Config, list[Any], bool]]]


def narrows(target: str, key: str | None) -> bool:
    """Whether failure ``key`` breaks some but not all of the rules failure ``target`` names, at the
    same kind of operation (a put to a full queue over-accepted, say, where ``target`` also needed a
    full structure): what a minimised failure may become (:func:`.driver.minimise`)."""
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
    variants: Variants | None = None,
) -> tuple[Config, list[Any]] | None:
    """A shorter trace (fewer of ``ops``, or with ``variants`` under one of the variants it gives)
    that breaks only some of the rules ``target`` names: two rules broken together may need a longer
    trace than one of them alone (a queue at MAXDEPTH in a full structure, a put to an unselected
    queue once the structure is full).  Tried for traces of three steps or more that break two rules."""
    if len(ops) < 3 or "+" not in target.split("|")[0]:
        return None
    narrower = partial(narrows, target)
    reduced, found = ddmin(run, config, ops, narrower, budget)
    if found is not None:
        return config, reduced
    for candidate, ops_in, windows in variants(config, ops) if variants is not None else []:
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
