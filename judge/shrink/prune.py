"""Strategy ``prune``: the queues no operation names (filler queues, say), then also the
structures neither an operation nor a remaining queue names (filler structures).

Run first, before any delta debugging, so every later replay is quicker (a configuration at the
512-queue limit opens and inspects hundreds of queues); the pruned configurations are also the
first of the smaller configurations (:mod:`.configs`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from cfconform.reference_model.config import Config
from cfconform.reference_model.errors import ConfigurationError

from .common import referenced


def pruned(config: Config, ops: Sequence[Any], named: set[str] | None = None) -> list[Config]:
    """The configuration without the queues no operation names (filler queues, say), then also
    without the structures neither an operation nor a remaining queue names (filler structures).
    ``named``: :func:`.common.referenced` of ``ops``, when the caller has it already."""
    used = set(referenced(ops) if named is None else named)
    queues = tuple(q for q in config.queues if q.name in used)
    used |= {q.cfstruct for q in queues if q.cfstruct}
    structures = tuple(s for s in config.structures if s.name in used) or config.structures[:1]
    out = []
    for changes in ({"queues": queues, "structures": structures}, {"queues": queues}):
        try:
            smaller = attrs.evolve(config, **changes)
        except ConfigurationError:
            continue
        if smaller != config and smaller not in out:
            out.append(smaller)
    return out
