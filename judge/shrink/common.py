"""What several strategies share: the names a trace uses, the ladder of structure sizes, the queue
depth event switches, and alter outcomes moved with a structure made smaller."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config

#: Usable sizes (KB above the fixed overhead) tried for each structure, smallest first.
SIZE_LADDER = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 128, 256)
#: The queue depth event switches (QDEPTH-003..006).
EVENT_SWITCHES = ("qdphiev", "qdploev", "qdpmaxev")


def referenced(ops: Iterable[Any]) -> set[str]:
    """The queue and structure names the operations name."""
    names: set[str] = set()
    for op in ops:
        names.update(
            v
            for k, v in attrs.asdict(op, recurse=False).items()
            if k in ("queue", "cfstruct", "name") and isinstance(v, str)
        )
    return names


def qmgrs_named(ops: Sequence[Any]) -> int:
    """How many queue managers put or get: fewer is simpler (and lets their puts merge)."""
    return len({op.qmgr for op in ops if isinstance(op, o.Put | o.Get)})


def fitted(old: Config, new: Config, ops: list[Any]) -> list[Any]:
    """``ops`` with each alter outcome's size moved with its structure from ``old`` to ``new``: as far
    above the new INITSIZE as it was above the old one, and at most the new SIZE (a smaller
    structure keeps the alter CQS started: CQS-004)."""
    before = {s.name: s for s in old.structures}
    after = {s.name: s for s in new.structures}
    out = []
    for op in ops:
        if isinstance(op, o.AlterOutcome) and op.size_kb is not None and op.cfstruct in after:
            was, now = before[op.cfstruct], after[op.cfstruct]
            size = min(now.size_kb, now.effective_initsize_kb + max(0, op.size_kb - was.effective_initsize_kb))
            op = attrs.evolve(op, size_kb=size)
        out.append(op)
    return out
