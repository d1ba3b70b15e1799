"""Mutants of the backup and recovery rules (RECOVERY-001..008), profile ``mq``.

Reproducers use a CFLEVEL(3) RECOVER(YES) structure; a RECOVER outcome reports
the structure's usage, which shows what was restored without a get.
"""

from __future__ import annotations

from typing import Any

import attrs

from cfconform.reference_model import mq
from cfconform.reference_model.model import Model
from cfconform.reference_model.operations import (
    Backup,
    FailStructure,
    Get,
    Inspect,
    Put,
    Recover,
    StopQmgr,
)
from cfconform.reference_model.outcomes import (
    CMD_NOT_ALLOWED,
    CMD_NOT_FAILED,
    MQRC_CF_STRUC_FAILED,
    MQRC_NO_MSG_AVAILABLE,
    MQRC_STORAGE_MEDIUM_FULL,
    Outcome,
)
from cfconform.reference_model.state import Message, Structure

from .kit import Mutant, chain, evolve, mutant, post, pre, rebound, state, wrap
from .mq_common import get, mq_config, put, sd, structure_of

RECOVERABLE = sd(cflevel=3, recover=True)

BACKUP = Backup("QM01", "APP1")

FAIL = FailStructure("APP1")

RECOVER = Recover("APP1")

PURGE = Recover("APP1", purge=True)


def pput(tag: int = 0, **kw: Any) -> Put:
    """A persistent put."""
    return put(persistent=True, tag=tag, **kw)


def _unfailed(op_type: type) -> Any:
    """MQI calls are served by a failed structure as if it had not failed."""

    def fn(model: Model, op: Any) -> Outcome | None:
        s = structure_of(model, op.queue)
        if s is None or not s.failed:
            return None
        s.failed = False
        try:
            return model._dispatch_original[op_type](model, op)  # type: ignore[attr-defined]
        finally:
            s.failed = True

    def install(model: Model) -> None:
        model._dispatch_original = dict(model._dispatch)  # type: ignore[attr-defined]
        pre(op_type, fn)(model)

    return install


def _reason_for(reason: Any, new: Any) -> Any:
    def fn(model: Model, op: Any, out: Outcome) -> Outcome:
        return evolve(out, reason=new) if out.reason == reason else out

    return fn


def _backup_anyway(model: Model, op: Backup) -> Outcome | None:
    s = model.structures[op.cfstruct]
    if s.failed or model.qmgrs[op.qmgr].active is False or mq._recoverable(s):
        return None
    s.backup_taken = True
    return Outcome("backup", rules=("RECOVERY-001",))


def _backup_only_at_3(model: Model, op: Backup) -> Outcome | None:
    if model.structures[op.cfstruct].defn.cflevel > 3:
        return Outcome("backup", False, CMD_NOT_ALLOWED, ("RECOVERY-001",))
    return None


def _forget_backup(model: Model, op: Backup, out: Outcome) -> Outcome:
    model.structures[op.cfstruct].backup_taken = False
    return out


def _backup_all(model: Model, op: Backup, out: Outcome) -> Outcome:
    if out.ok:
        for s in model.structures.values():
            s.backup_taken = True
    return out


def _reverse_restored(model: Model, op: Recover, out: Outcome) -> Outcome:
    if out.ok and not op.purge:
        for q in model.queues.values():
            if q.defn.cfstruct == op.cfstruct:
                q.msgs.reverse()
    return out


def _empty_keeping(keep: Any) -> Any:
    """``mq._empty`` that keeps the messages ``keep(msg)`` selects, as committed."""

    def empty(model: Model, s: Structure) -> dict[str, list[Message]]:
        kept: dict[str, list[Message]] = {}
        for q in model.queues.values():
            if q.defn.cfstruct != s.defn.name:
                continue
            kept[q.defn.name] = [m.clone() for m in q.msgs if keep(m)]
        out = mq._empty(model, s)
        for name, msgs in kept.items():
            for m in msgs:
                m.uncommitted = m.locked = False
            out[name] = msgs
        return out

    return rebound(FailStructure, _empty=empty)


def _backup_image_only() -> Any:
    """RECOVER restores the backup image without replaying the log."""

    def on_backup(model: Model, op: Backup, out: Outcome) -> Outcome:
        if out.ok:
            state(model, "images")[op.cfstruct] = {
                m.seq for q in model.queues.values() if q.defn.cfstruct == op.cfstruct for m in q.msgs
            }
        return out

    def on_recover(model: Model, op: Recover, out: Outcome) -> Outcome:
        if not out.ok or op.purge:
            return out
        s = model.structures[op.cfstruct]
        image = state(model, "images").get(op.cfstruct, set())
        for q in model.queues.values():
            if q.defn.cfstruct != op.cfstruct:
                continue
            for m in [m for m in q.msgs if m.seq not in image]:
                q.msgs.remove(m)
                q.depth -= 1
                model.live.pop(m.seq, None)
                s.pools.entries_used -= 1
                s.pools.elements_used -= m.elements
        return evolve(out, usage=s.pools.as_tuple())

    return chain(post(Backup, on_backup), post(Recover, on_recover))


def _recover_unrecoverable(model: Model, op: Recover) -> Outcome | None:
    s = model.structures[op.cfstruct]
    if mq._recoverable(s) or not s.failed:
        return None
    s.failed, s.failure_snapshot = False, {}
    return Outcome("recover", rules=("RECOVERY-005",))


def _purge_as_normal(original: Any) -> Any:
    def handler(model: Model, op: Recover) -> Outcome:
        return original(model, attrs.evolve(op, purge=False))

    return handler


def _purge_stays_failed(model: Model, op: Recover, out: Outcome) -> Outcome:
    if op.purge and out.ok:
        model.structures[op.cfstruct].failed = True
    return out


def _recover_healthy(purge: bool) -> Any:
    def fn(model: Model, op: Recover) -> Outcome | None:
        s = model.structures[op.cfstruct]
        if s.failed or op.purge != purge or not mq._recoverable(s):
            return None
        return Outcome("recover", rules=("RECOVERY-003",))

    return fn


def _recover_without_backup(model: Model, op: Recover) -> Outcome | None:
    s = model.structures[op.cfstruct]
    if s.failed:
        s.backup_taken = True
    return None


def _drop_nonpersistent_on_stop(model: Model, op: StopQmgr, out: Outcome) -> Outcome:
    for q in model.queues.values():
        s = model.structures.get(q.defn.cfstruct) if q.defn.cfstruct else None
        if s is None:
            continue
        for m in [m for m in q.msgs if not m.persistent and not m.uncommitted and not m.locked]:
            mq._remove(model, q, q.msgs.index(m), s)
            q.depth -= 1
    return out


TWO_QMGRS = ("QM01", "QM02")


MUTANTS: tuple[Mutant, ...] = (
    # RECOVERY-001: BACKUP needs CFLEVEL(3)+ and RECOVER(YES)
    mutant(
        "M-RECOVERY-001-a",
        "BACKUP CFSTRUCT is accepted on a RECOVER(NO) structure.",
        mq_config(sd(cflevel=3)),
        [BACKUP],
        pre(Backup, _backup_anyway),
    ),
    mutant(
        "M-RECOVERY-001-b",
        "BACKUP CFSTRUCT answers ok but records no backup.",
        mq_config(RECOVERABLE),
        [BACKUP, FAIL, RECOVER],
        post(Backup, _forget_backup),
    ),
    mutant(
        "M-RECOVERY-001-c",
        "BACKUP CFSTRUCT is refused above CFLEVEL(3).",
        mq_config(sd(cflevel=5, recover=True)),
        [BACKUP],
        pre(Backup, _backup_only_at_3),
    ),
    # RECOVERY-002: a failed structure answers 2373
    mutant(
        "M-RECOVERY-002-a",
        "A put to a failed structure is accepted.",
        mq_config(RECOVERABLE),
        [FAIL, put()],
        _unfailed(Put),
    ),
    mutant(
        "M-RECOVERY-002-b",
        "A get from a failed structure answers 2033 (no message) instead of 2373.",
        mq_config(RECOVERABLE),
        [FAIL, get()],
        pre(
            Get,
            lambda m, op: (
                Outcome("get", False, MQRC_NO_MSG_AVAILABLE, ("QUEUE-001",))
                if structure_of(m, op.queue).failed
                else None
            ),
        ),
    ),  # type: ignore[union-attr]
    mutant(
        "M-RECOVERY-002-c",
        "A put to a failed structure fails with 2192 instead of 2373.",
        mq_config(RECOVERABLE),
        [FAIL, put()],
        post(Put, _reason_for(MQRC_CF_STRUC_FAILED, MQRC_STORAGE_MEDIUM_FULL)),
    ),
    # RECOVERY-003: RECOVER restores committed persistent messages as of the failure, in order
    mutant(
        "M-RECOVERY-003-a",
        "RECOVER restores the messages in reverse order.",
        mq_config(RECOVERABLE),
        [pput(1), pput(2), BACKUP, FAIL, RECOVER, get()],
        post(Recover, _reverse_restored),
    ),
    mutant(
        "M-RECOVERY-003-b",
        "RECOVER also restores persistent messages that were not committed.",
        mq_config(RECOVERABLE),
        [pput(syncpoint=True), BACKUP, FAIL, RECOVER, Inspect()],
        _empty_keeping(lambda m: m.persistent),
    ),
    mutant(
        "M-RECOVERY-003-c",
        "RECOVER restores the backup only: persistent messages put after it are lost.",
        mq_config(RECOVERABLE),
        [BACKUP, pput(), FAIL, RECOVER, Inspect()],
        _backup_image_only(),
    ),
    mutant(
        "M-RECOVERY-003-d",
        "RECOVER CFSTRUCT is accepted on a RECOVER(NO) structure.",
        mq_config(sd(cflevel=3)),
        [FAIL, RECOVER],
        pre(Recover, _recover_unrecoverable),
    ),
    # RECOVERY-004: nonpersistent messages are lost when the structure fails
    mutant(
        "M-RECOVERY-004-a",
        "Nonpersistent messages survive a structure failure and are recovered.",
        mq_config(RECOVERABLE),
        [put(), BACKUP, FAIL, RECOVER, Inspect()],
        _empty_keeping(lambda m: not m.uncommitted),
    ),
    # RECOVERY-005: TYPE(PURGE) leaves the structure empty (and usable)
    mutant(
        "M-RECOVERY-005-a",
        "RECOVER TYPE(PURGE) is carried out as TYPE(NORMAL).",
        mq_config(RECOVERABLE),
        [FAIL, PURGE],
        wrap(Recover, _purge_as_normal),
    ),
    mutant(
        "M-RECOVERY-005-b",
        "After RECOVER TYPE(PURGE) the structure is still failed.",
        mq_config(RECOVERABLE),
        [FAIL, PURGE, put()],
        post(Recover, _purge_stays_failed),
    ),
    # RECOVERY-006: RECOVER fails on a structure that has not failed
    mutant(
        "M-RECOVERY-006-a",
        "RECOVER TYPE(NORMAL) on a structure that has not failed answers ok.",
        mq_config(RECOVERABLE),
        [RECOVER],
        pre(Recover, _recover_healthy(False)),
    ),
    mutant(
        "M-RECOVERY-006-b",
        "RECOVER TYPE(PURGE) on a structure that has not failed answers ok but purges nothing.",
        mq_config(RECOVERABLE),
        [put(), PURGE, get()],
        pre(Recover, _recover_healthy(True)),
    ),
    mutant(
        "M-RECOVERY-006-c",
        "RECOVER on a structure that has not failed answers NOT_ALLOWED, not NOT_FAILED.",
        mq_config(RECOVERABLE),
        [RECOVER],
        post(Recover, _reason_for(CMD_NOT_FAILED, CMD_NOT_ALLOWED)),
    ),
    # RECOVERY-007: TYPE(NORMAL) needs a backup
    mutant(
        "M-RECOVERY-007-a",
        "RECOVER TYPE(NORMAL) works without any backup.",
        mq_config(RECOVERABLE),
        [FAIL, RECOVER],
        pre(Recover, _recover_without_backup),
    ),
    mutant(
        "M-RECOVERY-007-b",
        "A backup of any structure counts as a backup of every structure.",
        mq_config(RECOVERABLE, sd("APP2", cflevel=3, recover=True)),
        [Backup("QM01", "APP2"), FAIL, RECOVER],
        post(Backup, _backup_all),
    ),
    # RECOVERY-008: shared messages survive queue manager stops
    mutant(
        "M-RECOVERY-008-a",
        "Nonpersistent shared messages are lost when a queue manager stops.",
        mq_config(sd(), qmgrs=TWO_QMGRS),
        [put(), StopQmgr("QM01"), get(qmgr="QM02")],
        post(StopQmgr, _drop_nonpersistent_on_stop),
    ),
)
