"""Strategy ``depths`` (a variant): an ALTER QLOCAL's QDEPTHHI or QDEPTHLO lowered by whole messages,
so fewer puts reach it (QDEPTH-013), tried without the puts that reached the old threshold."""

from __future__ import annotations

from typing import Any

import attrs

from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config


def nearer_depths(config: Config, op: o.AlterQueue) -> list[o.AlterQueue]:
    """The ALTER QLOCAL with QDEPTHHI (or QDEPTHLO) lowered by whole messages of its MAXDEPTH: a
    fraction of a message past a whole count on the same side of a half as before (where the
    percent-to-count readings differ, QDEPTH-013), reached in fewer puts.  For a MAXDEPTH that
    does not divide 100 (7, say), the whole percent nearest each lower count plus that fraction."""
    changes = dict(op.changes)
    queue = next((q for q in config.queues if q.name == op.name), None)
    maxdepth = changes.get("maxdepth", queue.maxdepth if queue is not None else None)
    if not isinstance(maxdepth, int) or not 0 < maxdepth <= _NEARER_MAXDEPTH:
        return []
    out = []
    for key in ("qdepthhi", "qdepthlo"):
        value = changes.get(key)
        if isinstance(value, int) and 0 < value <= 100:
            out += [attrs.evolve(op, changes={**changes, key: v}) for v in _lower_percents(value, maxdepth)]
    return out


#: Largest MAXDEPTH whose thresholds are lowered message by message (one candidate a message).
_NEARER_MAXDEPTH = 100


def _lower_percents(percent: int, maxdepth: int) -> list[int]:
    """Whole percents of ``maxdepth`` one, two, ... messages below ``percent``, each past its whole
    count by a fraction on the same side of a half (or as whole) as ``percent`` is."""
    side = _fraction_side(percent, maxdepth)
    out: list[int] = []
    for messages in range(1, percent * maxdepth // 100 + 1):
        lower = round(percent - 100 * messages / maxdepth)
        if lower > 0 and lower not in out and _fraction_side(lower, maxdepth) == side:
            out.append(lower)
    return out


def _fraction_side(percent: int, maxdepth: int) -> int:
    """Where ``percent`` of ``maxdepth`` falls past its whole count: -1 none, 0 below a half,
    1 at a half, 2 above it (the percent-to-count readings, QDEPTH-013)."""
    past = percent * maxdepth % 100
    return -1 if past == 0 else (past > 50) + (past >= 50)


def candidates(config: Config, ops: list[Any]) -> list[tuple[Config, list[Any], bool]]:
    """A threshold nearer the depth the queue had: tried without the puts that reached the old one."""
    return [
        (config, [*ops[:i], lower, *ops[i + 1 :]], True)
        for i, op in enumerate(ops)
        if isinstance(op, o.AlterQueue)
        for lower in nearer_depths(config, op)
    ]
