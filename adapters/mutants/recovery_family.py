"""Mutants of the backup and recovery rules (RECOVERY-001..008), profile ``mq``: one row each.

Reproducers use a CFLEVEL(3) RECOVER(YES) structure; a RECOVER outcome reports the structure's usage, which shows
what was restored without a get.
"""

from __future__ import annotations

from typing import Any

import attrs

from cfconform.reference_model import mq
from cfconform.reference_model import outcomes as rc
from cfconform.reference_model.model import Model
from cfconform.reference_model.operations import Backup, FailStructure, Get, Put, Recover, StopQmgr
from cfconform.reference_model.outcomes import Outcome
from cfconform.reference_model.state import Message, Queue, Structure

from .kit import around, chain, during, family, post, pre, reason_for, rebind, rebound, refuse, state, wrap
from .mq_common import INSPECT, get, mq_config, one, put, sd, structure_of

BACKUP, FAIL = Backup("QM01", "APP1"), FailStructure("APP1")
RECOVER, PURGE = Recover("APP1"), Recover("APP1", purge=True)
RECOVERABLE = {"cflevel": 3, "recover": True}


def pput(tag: int = 0, **kw: Any) -> Put:
    """A persistent put."""
    return put(persistent=True, tag=tag, **kw)


def _after(op_type: type, fn: Any) -> Any:
    """Run ``fn(model, op)`` after the model answered ``op_type`` (when ``ok``), keeping its outcome."""
    return post(op_type, lambda m, op, o: (fn(m, op) if o.ok else None, o)[1])


def _keeping(survives: Any) -> Any:
    """A structure failure keeps the messages ``survives(msg)`` selects, as committed (``mq._survives``)."""
    return rebound(FailStructure, _empty=rebind(mq._empty, _survives=survives))


def _queues(model: Model, name: str) -> list[Queue]:
    return [q for q in model.queues.values() if q.defn.cfstruct == name]


def _image(model: Model, op: Backup) -> None:
    """Remember the messages a backup holds (what an image without the log restores)."""
    state(model, "images")[op.cfstruct] = {m.seq for q in _queues(model, op.cfstruct) for m in q.msgs}


def _image_only(model: Model, s: Structure) -> dict[str, list[Message]]:
    """RECOVERY-003 fault: RECOVER restores the backup image without replaying the log."""
    image = state(model, "images").get(s.defn.name, set())
    return {name: [m for m in msgs if m.seq in image] for name, msgs in s.failure_snapshot.items()}


def _recover_unrecoverable(model: Model, op: Recover) -> Outcome | None:
    s = model.structures[op.cfstruct]
    if mq._recoverable(s) or not s.failed:
        return None
    s.failed, s.failure_snapshot = False, {}
    return Outcome("recover", rules=("RECOVERY-005",))


def _recover_healthy(purge: bool) -> Any:
    def fn(model: Model, op: Recover) -> Outcome | None:
        s = model.structures[op.cfstruct]
        if s.failed or op.purge != purge or not mq._recoverable(s):
            return None
        return Outcome("recover", rules=("RECOVERY-003",))

    return pre(Recover, fn)


def _drop_nonpersistent_on_stop(model: Model, op: StopQmgr, out: Outcome) -> Outcome:
    for q in model.queues.values():
        s = model.structures.get(q.defn.cfstruct) if q.defn.cfstruct else None
        for m in [m for m in q.msgs if not m.persistent and not m.uncommitted and not m.locked] if s else ():
            mq._remove(model, q, q.msgs.index(m), s)
            q.depth -= 1
    return out


# fmt: off
MUTANTS = family(
    "RECOVERY",
    ("001-a", "BACKUP CFSTRUCT is accepted on a RECOVER(NO) structure.", one(cflevel=3), [BACKUP],
     rebound(Backup, _recoverable=lambda s: True)),
    ("001-b", "BACKUP CFSTRUCT answers ok but records no backup.", one(**RECOVERABLE), [BACKUP, FAIL, RECOVER],
     post(Backup, lambda m, op, o: (setattr(m.structures[op.cfstruct], "backup_taken", False), o)[1])),
    ("001-c", "BACKUP CFSTRUCT is refused above CFLEVEL(3).", one(cflevel=5, recover=True), [BACKUP],
     refuse(Backup, lambda m, op: m.structures[op.cfstruct].defn.cflevel > 3, rc.CMD_NOT_ALLOWED, "RECOVERY-001")),
    ("002-a", "A put to a failed structure is accepted.", one(**RECOVERABLE), [FAIL, put()],
     during(Put, lambda m, op: structure_of(m, op.queue), failed=False)),
    ("002-b", "A get from a failed structure answers 2033 (no message) instead of 2373.", one(**RECOVERABLE),
     [FAIL, get()], refuse(Get, lambda m, op: structure_of(m, op.queue).failed, rc.MQRC_NO_MSG_AVAILABLE, "QUEUE-001")),
    ("002-c", "A put to a failed structure fails with 2192 instead of 2373.", one(**RECOVERABLE), [FAIL, put()],
     reason_for(Put, rc.MQRC_CF_STRUC_FAILED, rc.MQRC_STORAGE_MEDIUM_FULL)),
    ("003-a", "RECOVER restores the messages in reverse order.", one(**RECOVERABLE),
     [pput(1), pput(2), BACKUP, FAIL, RECOVER, get()],
     _after(Recover, lambda m, op: op.purge or [q.msgs.reverse() for q in _queues(m, op.cfstruct)])),
    ("003-b", "RECOVER also restores persistent messages that were not committed.", one(**RECOVERABLE),
     [pput(syncpoint=True), BACKUP, FAIL, RECOVER, INSPECT], _keeping(lambda m: m.persistent)),
    ("003-c", "RECOVER restores the backup only: persistent messages put after it are lost.", one(**RECOVERABLE),
     [BACKUP, pput(), FAIL, RECOVER, INSPECT], chain(_after(Backup, _image), rebound(Recover, _restored=_image_only))),
    ("003-d", "RECOVER CFSTRUCT is accepted on a RECOVER(NO) structure.", one(cflevel=3), [FAIL, RECOVER],
     pre(Recover, _recover_unrecoverable)),
    ("004-a", "Nonpersistent messages survive a structure failure and are recovered.", one(**RECOVERABLE),
     [put(), BACKUP, FAIL, RECOVER, INSPECT], _keeping(lambda m: not m.uncommitted)),
    ("005-a", "RECOVER TYPE(PURGE) is carried out as TYPE(NORMAL).", one(**RECOVERABLE), [FAIL, PURGE],
     wrap(Recover, lambda f: lambda m, op: f(m, attrs.evolve(op, purge=False)))),
    ("005-b", "After RECOVER TYPE(PURGE) the structure is still failed.", one(**RECOVERABLE), [FAIL, PURGE, put()],
     _after(Recover, lambda m, op: op.purge and setattr(m.structures[op.cfstruct], "failed", True))),
    ("006-a", "RECOVER TYPE(NORMAL) on a structure that has not failed answers ok.", one(**RECOVERABLE), [RECOVER],
     _recover_healthy(False)),
    ("006-b", "RECOVER TYPE(PURGE) on a structure that has not failed answers ok but purges nothing.",
     one(**RECOVERABLE), [put(), PURGE, get()], _recover_healthy(True)),
    ("007-a", "RECOVER TYPE(NORMAL) works without any backup.", one(**RECOVERABLE), [FAIL, RECOVER],
     around(Recover, lambda m, op: (s := m.structures[op.cfstruct]).failed and setattr(s, "backup_taken", True))),
    ("007-b", "A backup of any structure counts as a backup of every structure.",
     mq_config(sd(**RECOVERABLE), sd("APP2", **RECOVERABLE)), [Backup("QM01", "APP2"), FAIL, RECOVER],
     _after(Backup, lambda m, op: [setattr(s, "backup_taken", True) for s in m.structures.values()])),
    ("008-a", "Nonpersistent shared messages are lost when a queue manager stops.",
     mq_config(sd(), qmgrs=("QM01", "QM02")), [put(), StopQmgr("QM01"), get(qmgr="QM02")],
     post(StopQmgr, _drop_nonpersistent_on_stop)),
)
# fmt: on
