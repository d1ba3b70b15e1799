"""The mq-profile state machine: MQPUT/MQGET, units of work, events, offload, backup and recovery."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import initialize, precondition, rule

from properties import admin_fields as af
from properties.base import INDEX, MAX_FILL, ProfiledMachine
from properties.strategies import configs, lengths
from reference_model import operations as o
from reference_model.config import Config
from reference_model.model import Model

MQ_TARGETS = ("OFFLD1TH", "OFFLD2TH", "OFFLD3TH", "FULLTHRESHOLD", "QDEPTHHI", "MAXDEPTH", "full")
ADMIN = ("set_perfmev", "start_or_stop", "backup", "fail_structure", "recover", "inspect")


def _reached(model: Model, queue: Any, target: str) -> bool:
    """Whether ``queue`` (or its structure) is at or past ``target``, in the model's current state."""
    d = queue.defn
    if target == "QDEPTHHI":
        return 100 * queue.depth >= d.qdepthhi * d.maxdepth
    if target == "MAXDEPTH":
        return queue.depth >= d.maxdepth
    if d.cfstruct is None:
        return True
    s = model.structures[d.cfstruct]
    usage = model.usage(s, "max")
    if target == "full":
        return usage >= 100.0
    threshold = s.defn.fullthreshold if target == "FULLTHRESHOLD" else getattr(s.defn, target.lower())
    return usage > threshold


class MQMachine(ProfiledMachine):
    """The mq profile.  Rules: puts and gets, boundary-targeting fill and drain, units of work,
    a queue-manager outage, a structure failure cycle, and one rule per kind of administrative
    command (each rule gets an equal share of the steps, so commands are not starved by puts)."""

    @initialize(config=configs("mq"))
    def open(self, config: Config) -> None:
        self._open(config)

    def _put(self, m: int, q: int, length: int, persistent: bool, syncpoint: bool) -> None:
        queue = self.model.queues[self._queue(q)]
        qmgr = queue.defn.qmgr or self._qmgr(m)
        self._do(o.Put(qmgr, queue.defn.name, length, persistent, syncpoint, len(self.ops)))

    def _get(self, m: int, q: int, syncpoint: bool) -> None:
        queue = self.model.queues[self._queue(q)]
        self._do(o.Get(queue.defn.qmgr or self._qmgr(m), queue.defn.name, syncpoint))

    def _last_ok(self) -> bool:
        return self.checker.history[-1][1].ok  # type: ignore[union-attr]

    @rule(m=INDEX, q=INDEX, length=lengths(), persistent=st.booleans(), syncpoint=st.booleans())
    def put(self, m: int, q: int, length: int, persistent: bool, syncpoint: bool) -> None:
        self._put(m, q, length, persistent, syncpoint)

    @rule(m=INDEX, q=INDEX, length=lengths(), persistent=st.booleans(), syncpoint=st.booleans())
    def put_more(self, m: int, q: int, length: int, persistent: bool, syncpoint: bool) -> None:
        """A second put rule: puts are the operation most rules are about."""
        self._put(m, q, length, persistent, syncpoint)

    @rule(m=INDEX, q=INDEX, syncpoint=st.booleans())
    def get(self, m: int, q: int, syncpoint: bool) -> None:
        self._get(m, q, syncpoint)

    @rule(
        m=INDEX,
        q=INDEX,
        length=lengths(),
        boundary=st.sampled_from(MQ_TARGETS),
        past=st.integers(0, 1),
        persistent=st.booleans(),
    )
    def fill(self, m: int, q: int, length: int, boundary: str, past: int, persistent: bool) -> None:
        """Boundary targeting: put ``length``-byte messages until ``boundary`` is reached (and ``past`` more)."""
        queue = self.model.queues[self._queue(q)]
        extra = past
        for _ in range(MAX_FILL):
            if _reached(self.model, queue, boundary):
                if extra == 0:
                    return
                extra -= 1
            self._put(m, q, length, persistent, False)
            if not self._last_ok():
                return

    @rule(m=INDEX, q=INDEX)
    def drain(self, m: int, q: int) -> None:
        """Get every available message (down through QDEPTHLO and to empty)."""
        for _ in range(MAX_FILL):
            self._get(m, q, False)
            if not self._last_ok():
                return

    @rule(m=INDEX, q=INDEX, length=lengths(), put=st.booleans(), commit=st.booleans())
    def unit_of_work(self, m: int, q: int, length: int, put: bool, commit: bool) -> None:
        """A put or get under syncpoint, then COMMIT or BACKOUT by the same queue manager
        (QUEUE-00x units of work, CAPACITY-010 storage on commit, QDEPTH-012 switches on backout)."""
        queue = self.model.queues[self._queue(q)]
        qmgr = queue.defn.qmgr or self._qmgr(m)
        if put:
            self._do(o.Put(qmgr, queue.defn.name, length, False, True, len(self.ops)))
        else:
            self._do(o.Get(qmgr, queue.defn.name, True))
        self._do((o.Commit if commit else o.Backout)(qmgr))

    @rule(m=INDEX, commit=st.booleans())
    def end_unit_of_work(self, m: int, commit: bool) -> None:
        self._do((o.Commit if commit else o.Backout)(self._qmgr(m)))

    @precondition(lambda self: self.config is not None and len(self.config.qmgrs) > 1)
    @rule(m=INDEX, q=INDEX, persistent=st.booleans(), syncpoint=st.booleans())
    def qmgr_outage(self, m: int, q: int, persistent: bool, syncpoint: bool) -> None:
        """A put through one queue manager, which then stops; another gets from the queue; the first
        restarts (RECOVERY-008: shared messages survive, QUEUE-005: its unit of work is backed out)."""
        queue = self.model.queues[self._queue(q)]
        qmgr = self._qmgr(m)
        other = next(n for n in self.model.qmgrs if n != qmgr)
        self._do(o.Put(queue.defn.qmgr or qmgr, queue.defn.name, 0, persistent, syncpoint, len(self.ops)))
        self._do(o.StopQmgr(qmgr))
        self._do(o.Get(queue.defn.qmgr or other, queue.defn.name, False))
        self._do(o.StartQmgr(qmgr))

    def _recoverable_queue(self, q: int) -> str:
        """A queue on a RECOVER(YES) structure if there is one (a failed RECOVER(NO) structure stays
        failed, so failing one mostly ends what a test case can exercise), else any queue."""
        names = [
            n
            for n, queue in self.model.queues.items()
            if queue.defn.cfstruct is not None and self.model.structures[queue.defn.cfstruct].defn.recover
        ]
        return self._pick(names, q) if names else self._queue(q)

    @rule(m=INDEX, q=INDEX, backup=st.sampled_from(("same", "none", "other")), purge=st.booleans())
    def failure_cycle(self, m: int, q: int, backup: str, purge: bool) -> None:
        """BACKUP CFSTRUCT (of the queue's structure, of another, or none), the structure fails,
        RECOVER CFSTRUCT, then a get from the queue (RECOVERY-001..007: what comes back, in which order)."""
        queue = self.model.queues[self._recoverable_queue(q)]
        name = queue.defn.cfstruct or self._structure(q)
        qmgr = queue.defn.qmgr or self._qmgr(m)
        if backup != "none":
            target = name if backup == "same" else self._structure(m + 1)
            self._do(o.Backup(qmgr, target))
        self._do(o.FailStructure(name))
        self._do(o.Recover(name, purge))
        self._do(o.Get(qmgr, queue.defn.name, False))
        if self.model.structures[name].failed:  # not recovered (no backup): purge, so the case goes on
            self._do(o.Recover(name, True))

    @rule(data=st.data())
    def alter_structure(self, data: st.DataObject) -> None:
        """ALTER CFSTRUCT, one keyword mostly, some out of range (OFFLOAD-006/007/011/013, CFLEVEL-001/009)."""
        name = self._structure(data.draw(INDEX))
        changes = data.draw(af.ALTER_STRUCTURE_CHANGES)
        if changes.get("cflevel") in ("down", "up"):  # one level from where the structure is
            level = self.model.structures[name].defn.cflevel
            changes["cflevel"] = level - 1 if changes["cflevel"] == "down" else level + 1
        self._do(o.AlterStructure(name, changes))

    @rule(data=st.data())
    def alter_queue(self, data: st.DataObject) -> None:
        """ALTER QLOCAL: event switches and depth limits, some out of range (QDEPTH-014, CFLEVEL-005)."""
        self._do(o.AlterQueue(self._queue(data.draw(INDEX)), data.draw(af.ALTER_QUEUE_CHANGES)))

    @rule(data=st.data())
    def setxcf_alter(self, data: st.DataObject) -> None:
        self._setxcf_alter(data)

    @rule(data=st.data())
    def define(self, data: st.DataObject) -> None:
        """DEFINE QLOCAL or DEFINE CFSTRUCT; in a configuration at a topology limit, the next one
        past it (the 64th structure, the 513th queue: TOPOLOGY-003..005)."""
        what = data.draw(st.sampled_from(("queue", "structure", "at limit")))
        valid = what == "at limit"  # a valid definition, so only the limit decides
        if valid:
            what = "structure" if len(self.model.structures) > 60 else "queue"
        (self._define_queue if what == "queue" else self._define_structure)(data, valid)

    @rule(data=st.data())
    def admin(self, data: st.DataObject) -> None:
        """The rarer commands: PERFMEV, queue-manager start and stop, BACKUP, failures, RECOVER, inspect."""
        kind = data.draw(st.sampled_from(ADMIN), label="admin")
        getattr(self, f"_{kind}")(data)

    def _set_perfmev(self, data: st.DataObject) -> None:
        self._do(o.SetPerfmev(self._qmgr(data.draw(INDEX)), data.draw(st.booleans())))

    def _start_or_stop(self, data: st.DataObject) -> None:
        name = self._qmgr(data.draw(INDEX))
        self._do(o.StartQmgr(name) if data.draw(st.booleans()) else o.StopQmgr(name))

    def _backup(self, data: st.DataObject) -> None:
        self._do(o.Backup(self._qmgr(data.draw(INDEX)), self._structure(data.draw(INDEX))))

    def _fail_structure(self, data: st.DataObject) -> None:
        queue = self.model.queues[self._recoverable_queue(data.draw(INDEX))]
        self._do(o.FailStructure(queue.defn.cfstruct or self._structure(data.draw(INDEX))))

    def _recover(self, data: st.DataObject) -> None:
        self._do(o.Recover(self._structure(data.draw(INDEX)), data.draw(st.booleans())))

    def _busiest_structure(self) -> str:
        counts = {name: 0 for name in self.model.structures}
        for q in self.model.queues.values():
            if q.defn.cfstruct in counts:
                counts[q.defn.cfstruct] += 1
        return max(counts, key=lambda n: counts[n])

    def _define_queue(self, data: st.DataObject, valid: bool = False) -> None:
        """New queues, usually on the structure with most queues (its 512th and 513th), some invalid."""
        busiest = valid or data.draw(st.booleans())
        record = {
            "name": f"N{len(self.model.queues)}",
            "cfstruct": self._busiest_structure() if busiest else self._structure(data.draw(INDEX)),
            "maxdepth": 5,
            **({} if valid else data.draw(af.DEFINE_QUEUE_FIELDS)),
        }
        self._do(o.DefineQueue(record))

    def _define_structure(self, data: st.DataObject, valid: bool = False) -> None:
        """New structures (the 63rd and 64th near the limit), some invalid (CFLEVEL, OFFLOAD, names, CQS fields)."""
        fields = {} if valid else data.draw(af.DEFINE_MQ_STRUCTURE_FIELDS)
        self._do(o.DefineStructure({"name": f"NEW{len(self.model.structures)}", "size_kb": 6400, **fields}))
