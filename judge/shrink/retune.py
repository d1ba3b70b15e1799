"""Strategy ``retune``: the operations a short trace spends reaching its queue's depth settings: those
settings taken from a small grid instead (QDEPTH-001, -013), every ALTER QLOCAL of the queue dropped.
Run once the variant rounds bring nothing, for traces of :data:`RETUNE_LIMIT` steps or fewer
(each of the grid's few hundred configurations costs a replay)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from operator import eq
from typing import Any

import attrs

from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config
from cfconform.reference_model.errors import ConfigurationError

from ..trace import TraceResult
from .common import EVENT_SWITCHES
from .ddmin import ddmin
from .search import kept, measure, signature

#: MAXDEPTHs and depth percentages tried for a short trace's queue: percentages that are a whole
#: count of these depths and ones that fall a fraction of a message past one (QDEPTH-013).
_RETUNE_MAXDEPTHS = (2, 3, 5, 7, 10)
_RETUNE_PERCENTS = (12, 17, 20, 33, 50, 67, 80)
_DEPTH_KEYS = ("maxdepth", "qdepthhi", "qdepthlo")


def retuned_depths(config: Config, ops: Sequence[Any]) -> list[tuple[Config, list[Any]]]:
    """For the queue the trace's ALTER QLOCALs change (else the first queue put to or got from
    with a depth event switched on): its depth settings taken from a small grid instead, every
    ALTER QLOCAL of it dropped (their event switches folded).  A generated trace often meets
    two settings in turn, one for each half of what a reading gets wrong; a single setting
    where both show lets the trace keep only the puts and gets of one (QDEPTH-013).  A
    threshold that is a whole count of a small MAXDEPTH is reached in fewer puts (QDEPTH-001)."""
    alters = [op for op in ops if isinstance(op, o.AlterQueue) and any(k in dict(op.changes) for k in _DEPTH_KEYS)]
    name = alters[0].name if alters else _first_with_events(config, ops)
    if name is None:
        return []
    switches = {k: v for op in alters if op.name == name for k, v in op.changes if k in EVENT_SWITCHES}
    rest = [op for op in ops if not (isinstance(op, o.AlterQueue) and op.name == name)]
    out = []
    for maxdepth in _RETUNE_MAXDEPTHS:
        for high in _RETUNE_PERCENTS:
            for low in _RETUNE_PERCENTS:
                queues = tuple(
                    attrs.evolve(q, maxdepth=maxdepth, qdepthhi=high, qdepthlo=low, **switches) if q.name == name else q
                    for q in config.queues
                )
                out.append((attrs.evolve(config, queues=queues), rest))
    return out


def _first_with_events(config: Config, ops: Sequence[Any]) -> str | None:
    """The first queue the trace puts to or gets from that has a depth event switched on."""
    evented = {q.name for q in config.queues if any(getattr(q, k) for k in EVENT_SWITCHES)}
    return next((op.queue for op in ops if isinstance(op, o.Put | o.Get) and op.queue in evented), None)


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
    """The shortest trace under another depth setting of its queue (:func:`retuned_depths`),
    tried once the other variants bring nothing: each costs a replay, so only for short traces.
    A variant counts if it breaks the same rules in the same field, though perhaps at a get
    where the original broke them at a put (the same reading of QDEPTHHI and QDEPTHLO)."""
    for candidate, ops_in in retuned_depths(config, ops):
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
