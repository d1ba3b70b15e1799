"""Strategy ``retarget`` (a variant): a queue whose puts and gets can all go to an earlier queue of the
same structure (one queue reaches the structure's thresholds as well as several, and its puts can
then merge); the emptied queue leaves the configuration."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config
from cfconform.reference_model.errors import ConfigurationError

from .common import referenced


def retargeted(config: Config, ops: Sequence[Any]) -> list[tuple[Config, list[Any]]]:
    """The puts and gets of one queue moved to the first queue of the same structure the trace
    uses, and the emptied queue dropped from the configuration: one queue reaches the structure's
    thresholds as well as several, and its puts can then merge."""
    by_name = {q.name: q for q in config.queues}
    named_otherwise = referenced(op for op in ops if not isinstance(op, o.Put | o.Get))
    used = [n for n in dict.fromkeys(op.queue for op in ops if isinstance(op, o.Put | o.Get)) if n in by_name]
    out: list[tuple[Config, list[Any]]] = []
    for k, source in enumerate(used):
        target = next((t for t in used[:k] if by_name[t].cfstruct == by_name[source].cfstruct), None)
        if target is None or source in named_otherwise or by_name[source].cfstruct is None:
            continue
        moved = [attrs.evolve(op, queue=target) if getattr(op, "queue", None) == source else op for op in ops]
        try:
            out.append((attrs.evolve(config, queues=tuple(q for q in config.queues if q.name != source)), moved))
        except ConfigurationError:
            continue
    return out


def candidates(config: Config, ops: list[Any]) -> list[tuple[Config, list[Any], bool]]:
    """Each retargeted trace, one replay each (no windows)."""
    return [(c, moved, False) for c, moved in retargeted(config, ops)]
