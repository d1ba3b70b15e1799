"""Mutants of the CFLEVEL rules (CFLEVEL-001..009), profile ``mq``.

Reproducers put one message (persistent, or longer than 63 KB, or longer than
MAXMSGL) or alter one structure; mixed-reading mutants use two structures of
different CFLEVELs so that each reason-code reading is pinned by one put.
"""

from __future__ import annotations

from typing import Any

from cfconform.reference_model import admin, mq
from cfconform.reference_model.model import Model
from cfconform.reference_model.operations import AlterQueue, AlterStructure, Inspect, Put
from cfconform.reference_model.outcomes import (
    MQRC_MSG_TOO_BIG_FOR_Q,
    MQRC_PERSISTENT_NOT_ALLOWED,
    MQRC_STORAGE_MEDIUM_FULL,
    MQRC_WRONG_CF_LEVEL,
    Outcome,
)
from cfconform.reference_model.units import KB, SIZE_63_75K, SIZE_63K

from .kit import (
    Mutant,
    apply_queue_changes,
    apply_structure_changes,
    lenient,
    mutant,
    pre,
    rebind,
    rebound,
    wrap,
)
from .mq_common import (
    alter,
    as_nonpersistent,
    deciding,
    mq_config,
    put,
    put_reason,
    qd,
    refusal_with,
    refusing,
    reject_alter,
    rules,
    sd,
    structure_of,
    with_defn,
)


def _cflevel_is(*levels: int) -> Any:
    return lambda model, op: structure_of(model, op.queue).defn.cflevel in levels  # type: ignore[union-attr]


def _maxmsgl_unchecked(model: Model, op: Put) -> Outcome | None:
    q = model.queues[op.queue]
    if op.length <= q.defn.maxmsgl:
        return None
    return with_defn(q, {"maxmsgl": 100 * 1024 * KB}, lambda: mq.put(model, op))


def _maxmsgl_inclusive(model: Model, op: Put) -> Outcome | None:
    q = model.queues[op.queue]
    if op.length == q.defn.maxmsgl:
        return Outcome("put", False, MQRC_MSG_TOO_BIG_FOR_Q, ("CFLEVEL-008",))
    return None


def _cflevel_first(limit_level: int) -> Any:
    def fn(model: Model, op: Put) -> Outcome | None:
        s = structure_of(model, op.queue)
        if s is not None and not s.failed and s.defn.cflevel < limit_level and op.length > SIZE_63K:
            return Outcome("put", False, MQRC_WRONG_CF_LEVEL, ("CFLEVEL-003",))
        return None

    return pre(Put, fn)


def _persistent_like_level2(model: Model, op: Put) -> Outcome | None:
    s = structure_of(model, op.queue)
    if op.persistent and s is not None and s.defn.cflevel == 3:
        return Outcome("put", False, MQRC_PERSISTENT_NOT_ALLOWED, ("CFLEVEL-002",))
    return None


def _committed_in_use(model: Model, s: Any) -> bool:
    return any(not m.uncommitted for q in model.queues.values() if q.defn.cfstruct == s.defn.name for m in q.msgs)


_unguarded_alter = rebind(admin.alter_structure, _in_use=lambda model, s: False)


def _guard_below_3_only(original: Any) -> Any:
    """CFLEVEL-009 fault: the emptiness check guards only a decrease to below CFLEVEL(3)."""

    def handler(model: Model, op: AlterStructure) -> Outcome:
        new = dict(op.changes).get("cflevel")
        return _unguarded_alter(model, op) if new is not None and new >= 3 else original(model, op)

    return handler


MUTANTS: tuple[Mutant, ...] = (
    # CFLEVEL-001: 1..5
    mutant(
        "M-CFLEVEL-001-a",
        "CFLEVEL(6) is accepted.",
        mq_config(sd(cflevel=3)),
        [alter(cflevel=6)],
        lenient(AlterStructure, "CFLEVEL-001", apply_structure_changes),
    ),
    mutant(
        "M-CFLEVEL-001-b",
        "CFLEVEL(5) is rejected (upper bound taken as exclusive).",
        mq_config(sd(cflevel=4)),
        [alter(cflevel=5)],
        reject_alter(lambda c: c.get("cflevel") == 5, "CFLEVEL-001"),
    ),
    # CFLEVEL-002: CFLEVEL(1)/(2) nonpersistent only
    mutant(
        "M-CFLEVEL-002-a",
        "Persistent messages are accepted at CFLEVEL(2).",
        mq_config(sd(cflevel=2)),
        [put(persistent=True)],
        refusing(as_nonpersistent(lambda s: s.defn.cflevel <= 2)),
    ),
    mutant(
        "M-CFLEVEL-002-b",
        "A persistent put at CFLEVEL(2) fails with 2030 (neither 2048 nor 2366).",
        mq_config(sd(cflevel=2)),
        [put(persistent=True)],
        put_reason("CFLEVEL-002", MQRC_MSG_TOO_BIG_FOR_Q),
    ),
    mutant(
        "M-CFLEVEL-002-c",
        "Mixed reading: 2048 at CFLEVEL(1) but 2366 at CFLEVEL(2).",
        mq_config(sd("APP1", cflevel=1), sd("APP2", cflevel=2)),
        [put(persistent=True), put(queue="Q2", persistent=True)],
        put_reason("CFLEVEL-002", MQRC_WRONG_CF_LEVEL, _cflevel_is(2)),
        mixes=("persistent_low_cflevel_rc",),
    ),
    # CFLEVEL-003: CFLEVEL(1)-(3) up to 63 KB
    mutant(
        "M-CFLEVEL-003-a",
        "CFLEVEL(3) accepts messages up to 63.75 KB.",
        mq_config(sd(size=6400, ratio=255, cflevel=3)),
        [put(65000)],
        refusing(refusal_with(SIZE_63K=SIZE_63_75K)),
    ),
    mutant(
        "M-CFLEVEL-003-b",
        "CFLEVEL(3) rejects a message of exactly 63 KB.",
        mq_config(sd(size=6400, ratio=255, cflevel=3)),
        [put(SIZE_63K)],
        refusing(refusal_with(SIZE_63K=SIZE_63K - 1)),
    ),
    mutant(
        "M-CFLEVEL-003-c",
        "A put over 63 KB at CFLEVEL(3) fails with 2192 (neither 2366 nor 2030).",
        mq_config(sd(cflevel=3, size=8192)),  # plenty of room (Table 2): 2192 cannot be a full structure
        [Inspect(), put(65000)],
        put_reason("CFLEVEL-003", MQRC_STORAGE_MEDIUM_FULL),
    ),
    mutant(
        "M-CFLEVEL-003-d",
        "Mixed reading: 2030 at CFLEVEL(2) but 2366 at CFLEVEL(3).",
        mq_config(sd("APP1", cflevel=2), sd("APP2", cflevel=3)),
        [put(65000), put(65000, "Q2")],
        put_reason("CFLEVEL-003", MQRC_MSG_TOO_BIG_FOR_Q, _cflevel_is(1, 2)),
        mixes=("large_low_cflevel_rc",),
    ),
    # CFLEVEL-004: CFLEVEL(3)+ persistent, but not on RECOVER(NO)
    mutant(
        "M-CFLEVEL-004-a",
        "A persistent put to a RECOVER(NO) structure is accepted.",
        mq_config(sd(cflevel=3)),
        [put(persistent=True)],
        refusing(as_nonpersistent(lambda s: s.defn.cflevel >= 3 and not s.defn.recover)),
    ),
    mutant(
        "M-CFLEVEL-004-b",
        "CFLEVEL(3) is treated like CFLEVEL(2): persistent puts fail even with RECOVER(YES).",
        mq_config(sd(cflevel=3, recover=True)),
        [put(persistent=True)],
        pre(Put, _persistent_like_level2),
    ),
    mutant(
        "M-CFLEVEL-004-c",
        "A persistent put to a RECOVER(NO) structure fails with 2366 instead of 2048.",
        mq_config(sd(cflevel=3)),
        [put(persistent=True)],
        put_reason("CFLEVEL-004", MQRC_WRONG_CF_LEVEL),
    ),
    # CFLEVEL-005: CFLEVEL(4)/(5) up to 100 MB
    mutant(
        "M-CFLEVEL-005-a",
        "CFLEVEL(4) still rejects messages over 63 KB.",
        mq_config(sd(cflevel=4)),
        [put(70000)],
        _cflevel_first(5),
    ),
    mutant(
        "M-CFLEVEL-005-b",
        "MAXMSGL above 100 MB is accepted.",
        mq_config(sd()),
        [AlterQueue("Q1", {"maxmsgl": 100 * 1024 * KB + 1})],
        lenient(AlterQueue, "CFLEVEL-005", apply_queue_changes),
    ),
    # CFLEVEL-006: offload rules only at CFLEVEL(5)
    mutant(
        "M-CFLEVEL-006-a",
        "The offload rules are applied at CFLEVEL(4) too.",
        mq_config(sd(cflevel=4, **rules((0, 0), None, None))),
        [put(1), put(1)],
        deciding(rules_level=4),
    ),
    mutant(
        "M-CFLEVEL-006-b",
        "The offload rules are not applied at CFLEVEL(5) (only the forced offload).",
        mq_config(sd(**rules((0, 0), None, None))),
        [put(1)],
        deciding(rules_level=6),
    ),
    # CFLEVEL-007: RECOVER(YES) needs CFLEVEL(3)+
    mutant(
        "M-CFLEVEL-007-a",
        "RECOVER(YES) is accepted at CFLEVEL(2).",
        mq_config(sd(cflevel=2)),
        [alter(recover=True)],
        lenient(AlterStructure, "CFLEVEL-007", apply_structure_changes),
    ),
    mutant(
        "M-CFLEVEL-007-b",
        "CFLEVEL can be lowered to 2 on a RECOVER(YES) structure.",
        mq_config(sd(cflevel=3, recover=True)),
        [alter(cflevel=2)],
        lenient(AlterStructure, "CFLEVEL-007", apply_structure_changes),
    ),
    # CFLEVEL-008: longer than MAXMSGL fails with 2030
    mutant(
        "M-CFLEVEL-008-a",
        "MAXMSGL is not enforced.",
        mq_config(queues=[qd(maxmsgl=100)]),
        [put(101)],
        pre(Put, _maxmsgl_unchecked),
    ),
    mutant(
        "M-CFLEVEL-008-b",
        "A message of exactly MAXMSGL bytes is rejected.",
        mq_config(queues=[qd(maxmsgl=100)]),
        [put(100)],
        pre(Put, _maxmsgl_inclusive),
    ),
    mutant(
        "M-CFLEVEL-008-c",
        "The CFLEVEL length limit is checked before MAXMSGL (2366 where 2030 is due).",
        mq_config(sd(cflevel=3), queues=[qd(maxmsgl=1000)]),
        [put(65000)],
        _cflevel_first(4),
    ),
    # CFLEVEL-009: CFLEVEL decreased from 3+ only while every queue is empty
    mutant(
        "M-CFLEVEL-009-a",
        "CFLEVEL can be decreased while messages are on the structure.",
        mq_config(sd(cflevel=3)),
        [put(), alter(cflevel=2)],
        rebound(AlterStructure, _in_use=lambda model, s: False),
    ),
    mutant(
        "M-CFLEVEL-009-b",
        "CFLEVEL cannot be decreased even when every queue is empty.",
        mq_config(sd(cflevel=3)),
        [alter(cflevel=2)],
        rebound(AlterStructure, _in_use=lambda model, s: True),
    ),
    mutant(
        "M-CFLEVEL-009-c",
        "Uncommitted puts do not count when checking that the queues are empty.",
        mq_config(sd(cflevel=3)),
        [put(syncpoint=True), alter(cflevel=2)],
        rebound(AlterStructure, _in_use=_committed_in_use),
    ),
    mutant(
        "M-CFLEVEL-009-d",
        "Only a decrease to below CFLEVEL(3) needs empty queues (4 to 3 is let through).",
        mq_config(sd(cflevel=4)),
        [put(), alter(cflevel=3)],
        wrap(AlterStructure, _guard_below_3_only),
    ),
)
