"""Minimisation variants for traces over queue depth thresholds (QDEPTH-013): ALTER QLOCAL
thresholds lowered by whole messages, and a queue's depth settings taken from a small grid."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

import attrs

from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config, QueueDef


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


#: MAXDEPTHs and depth percentages tried for a short trace's queue: percentages that are a whole
#: count of these depths and ones that fall a fraction of a message past one (QDEPTH-013).
_RETUNE_MAXDEPTHS = (2, 3, 5, 7, 10)
_RETUNE_PERCENTS = (12, 17, 20, 33, 50, 67, 80)
_DEPTH_KEYS = ("maxdepth", "qdepthhi", "qdepthlo")
#: The queue depth event switches (QDEPTH-003..006).
EVENT_SWITCHES = ("qdphiev", "qdploev", "qdpmaxev")


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


def full_at_once(queue: QueueDef) -> list[QueueDef]:
    """The queue at MAXDEPTH 0 with its depth event switches in each other combination: a trace
    that puts and gets only to set the switches a Queue Full event then toggles (QDEPTH-003..006)
    keeps just the put that finds the queue full, when both changes are made together."""
    now = tuple(getattr(queue, k) for k in EVENT_SWITCHES)
    return [
        attrs.evolve(queue, maxdepth=0, **dict(zip(EVENT_SWITCHES, combo, strict=True)))
        for combo in product((False, True), repeat=len(EVENT_SWITCHES))
        if combo != now and sum(a != b for a, b in zip(combo, now, strict=True)) > (queue.maxdepth == 0)
    ]
