"""Strategy ``operations`` (a variant): simpler operations under the same configuration: a second
queue manager, syncpoints and their commits, SETXCF ALTER and alter-outcome sizes, one of two
clock advances in a row, message lengths, and one of two like puts (merged into the other)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import attrs

from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config

from .common import SIZE_LADDER, qmgrs_named


def one_caller(ops: Sequence[Any]) -> list[list[Any]]:
    """Every put and get issued by the queue manager of the first one (no unit of work open:
    a commit or backout names the queue manager whose work it ends)."""
    if qmgrs_named(ops) < 2 or any(isinstance(op, o.Commit | o.Backout) for op in ops):
        return []
    first = next(op.qmgr for op in ops if isinstance(op, o.Put | o.Get))
    return [[attrs.evolve(op, qmgr=first) if isinstance(op, o.Put | o.Get) else op for op in ops]]


def outside_syncpoint(ops: Sequence[Any]) -> list[list[Any]]:
    """Every put and get outside syncpoint, and no COMMIT or BACKOUT: a unit of work that only
    made a message count before it was committed costs a step for the commit (and a get that
    follows it may then go too)."""
    if not any(isinstance(op, o.Put | o.Get) and op.syncpoint for op in ops):
        return []
    return [
        [
            attrs.evolve(op, syncpoint=False) if isinstance(op, o.Put | o.Get) else op
            for op in ops
            if not isinstance(op, o.Commit | o.Backout)
        ]
    ]


def empty_messages(ops: Sequence[Any], sized: list[int]) -> list[list[Any]]:
    """Every put at ``sized`` positions with an empty message, or with a one-byte message (an
    offload rule of OFFLDnSZ(0) may need a length above it, OFFLOAD-002), then each on its own
    with an empty message: a reproducer whose lengths do not matter shows it."""
    out = [[attrs.evolve(op, length=0) if i in sized else op for i, op in enumerate(ops)]] if sized else []
    longer = [i for i in sized if ops[i].length > 1]
    out += [[attrs.evolve(op, length=1) if i in longer else op for i, op in enumerate(ops)]] if longer else []
    if len(sized) > 1:
        out += [[*ops[:i], attrs.evolve(ops[i], length=0), *ops[i + 1 :]] for i in sized]
    return out


def simpler_operations(config: Config, ops: Sequence[Any]) -> list[list[Any]]:
    """The operations with one SETXCF ALTER size lowered (smallest first): a contraction further
    below the storage in use needs fewer puts to fill that storage (CAPACITY-006); an alter
    outcome to SIZE rather than a given size (the structure can then shrink under it, CQS-004);
    every put and get by one caller, or outside syncpoint; empty messages; or with two puts to the same queue by the
    same caller made one put of both lengths, or of as many data elements (the space they take
    is reached in one step; OVFLWMAX counts elements, CQS-020)."""
    fixed = config.accounting.fixed_kb
    out: list[list[Any]] = one_caller(ops) + outside_syncpoint(ops)
    for i, op in enumerate(ops):
        if isinstance(op, o.SetxcfAlter) and op.size_kb > fixed + 1:
            for usable in (u for u in SIZE_LADDER if fixed + u < op.size_kb):
                out.append([*ops[:i], attrs.evolve(op, size_kb=fixed + usable), *ops[i + 1 :]])
        if isinstance(op, o.AlterOutcome) and op.size_kb is not None:
            out.append([*ops[:i], attrs.evolve(op, size_kb=None), *ops[i + 1 :]])
    # two clock advances in a row made one (the scans they pass are the same: CQS-013)
    out += [
        [*ops[:i], o.AdvanceClock(first.seconds + second.seconds), *ops[i + 2 :]]
        for i, (first, second) in enumerate(pairwise(ops))
        if isinstance(first, o.AdvanceClock) and isinstance(second, o.AdvanceClock)
    ]
    puts = [i for i, op in enumerate(ops) if isinstance(op, o.Put)]
    out += empty_messages(ops, [i for i in puts if ops[i].length > 0])
    acct = config.accounting
    # both lengths; and as many data elements as the two took (one header, up to an element's rounding)
    extras = (0, acct.header_bytes, acct.header_bytes + acct.element_bytes - 1)
    for i, j in pairwise(puts):
        first, second = ops[i], ops[j]
        if (first.qmgr, first.queue, first.syncpoint) == (second.qmgr, second.queue, second.syncpoint):
            for extra in extras:
                merged = attrs.evolve(first, length=first.length + second.length + extra)
                out.append([*ops[:i], merged, *ops[i + 1 : j], *ops[j + 1 :]])
    return out


def candidates(config: Config, ops: list[Any]) -> list[tuple[Config, list[Any], bool]]:
    """Each simpler trace under the same configuration, one replay each (no windows)."""
    return [(config, variant, False) for variant in simpler_operations(config, ops)]
