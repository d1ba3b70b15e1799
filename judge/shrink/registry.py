"""The shrinking strategies, in the order they first run, each with what it removes.

Two kinds: a *pass* is called by the driver (:mod:`.driver`) at its place in the flow and returns
a shorter or smaller failing trace (or nothing); a *variant* gives candidate (configuration,
operations, try windows) triples, and the driver's variant rounds try them in registry order,
keeping those that still fail the same way and lower :func:`.search.measure`.  README.md tells
when each pass runs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import attrs

from cfconform.reference_model.config import Config

from . import (
    configs,
    ddmin,
    depths,
    fold,
    inspection,
    narrow,
    operations,
    prune,
    readings,
    retarget,
    retune,
    runs,
    threshold,
    unsplit,
)


@attrs.frozen
class Strategy:
    """One way of shrinking a failing trace: ``name`` (its module's), a line saying what it removes,
    its kind, and the function the driver calls (for a variant, ``candidates(config, ops)``)."""

    name: str
    removes: str
    kind: Literal["pass", "variant"]
    run: Callable[..., Any] = attrs.field(eq=False, repr=False)


STRATEGIES: tuple[Strategy, ...] = (
    Strategy("prune", "the queues, then the structures, that no operation names", "pass", prune.pruned),
    Strategy("ddmin", "the operations the failure does not need (delta debugging)", "pass", ddmin.ddmin),
    Strategy(
        "inspection",
        "the steps after the implementation's state already departed (the trace ends in an inspection)",
        "pass",
        inspection.shown_earlier,
    ),
    Strategy(
        "narrow", "the rules of a failure of two or more that a shorter trace need not break", "pass", narrow.narrowed
    ),
    Strategy("fold", "a command, made part of the configuration instead", "variant", fold.candidates),
    Strategy(
        "retarget",
        "a queue, its puts and gets moved to an earlier queue of the same structure",
        "variant",
        retarget.candidates,
    ),
    Strategy(
        "unsplit",
        "messages put in parts, and runs of puts to one queue (IMS CQS: LGMSGSZ at its largest)",
        "variant",
        unsplit.candidates,
    ),
    Strategy(
        "operations",
        "a second queue manager, syncpoints, ALTER sizes, a clock advance, message lengths, a second like put",
        "variant",
        operations.candidates,
    ),
    Strategy(
        "depths",
        "the puts that reached an ALTER QLOCAL depth threshold, lowered by whole messages",
        "variant",
        depths.candidates,
    ),
    Strategy(
        "configs",
        "queues, structure sizes, RATIOs, thresholds, MAXDEPTHs and event switches from the configuration",
        "variant",
        configs.candidates,
    ),
    Strategy(
        "threshold",
        "size from an IMS CQS primary structure, its OVFLWMAX moved with it",
        "variant",
        threshold.candidates,
    ),
    Strategy(
        "retune",
        "the operations that reach a short trace's queue depth settings (the settings from a grid)",
        "pass",
        retune.retuned,
    ),
    Strategy(
        "readings",
        "the steps after the one that chose a reading a later step contradicts (IMS CQS)",
        "pass",
        readings.disambiguated,
    ),
    Strategy(
        "runs", "all but a few puts of each run of like puts (under a structure from a grid)", "pass", runs.rescaled
    ),
)

#: The variants, in the order the driver's rounds try them.
VARIANTS: tuple[Strategy, ...] = tuple(s for s in STRATEGIES if s.kind == "variant")


def variants(config: Config, ops: list[Any]) -> list[tuple[Config, list[Any], bool]]:
    """Candidate (configuration, operations, try windows) triples, in a stable order: each variant's in
    registry order (those that cost one replay each first, then smaller configurations, each tried
    with windows of operations left out, then CQS structures made smaller with another OVFLWMAX)."""
    out: list[tuple[Config, list[Any], bool]] = []
    for strategy in VARIANTS:
        out += strategy.run(config, ops)
    return out
