"""The mq profile's definitions and rarer commands: DEFINE QLOCAL and CFSTRUCT (reserved names,
the next past each topology limit), PERFMEV, queue-manager start and stop, BACKUP, structure
failure, RECOVER and inspect."""

from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from cfconform.reference_model import operations as o
from cfconform.reference_model.validation import MAX_STRUCTURES_PER_QSG

from . import admin_fields as af
from .base import INDEX
from .mq_traffic import MQTraffic

ADMIN = ("set_perfmev", "reset_qstats", "start_or_stop", "backup", "fail_structure", "recover", "inspect")
#: Names IBM reserves: CSQ_ADMIN holds no messages (TOPOLOGY-001); CSQSYSAPPL counts against the limit.
RESERVED_STRUCTURES = ("CSQ_ADMIN", "CSQSYSAPPL")
#: Application structures one below the limit (63 beside CSQ_ADMIN: TOPOLOGY-003).
ONE_BELOW_LIMIT = MAX_STRUCTURES_PER_QSG - 2


def _at_a_limit(machine: MQAdmin) -> bool:
    """Whether the configuration is at a topology limit (filler structures or queues)."""
    if machine.config is None:
        return False
    if len(machine.model.structures) > 60:
        return True
    per_structure = Counter(q.defn.cfstruct for q in machine.model.queues.values() if q.defn.cfstruct)
    return max(per_structure.values(), default=0) > 509


class MQAdmin(MQTraffic):
    """Definitions and the rarer commands, each a rule of its own (TOPOLOGY, RECOVERY, QDEPTH-008)."""

    @rule(data=st.data())
    def define(self, data: st.DataObject) -> None:
        """DEFINE QLOCAL or DEFINE CFSTRUCT, some invalid, some of a reserved name (TOPOLOGY-001); in a
        configuration at a topology limit, the next one past it (TOPOLOGY-003..005)."""
        what = data.draw(st.sampled_from(("queue", "structure", "at limit", "reserved")))
        if what == "reserved":
            self._define_reserved(data)
            return
        valid = what == "at limit"  # a valid definition, so only the limit decides
        if valid:
            what = "structure" if len(self.model.structures) > 60 else "queue"
        (self._define_queue if what == "queue" else self._define_structure)(data, valid)

    @precondition(_at_a_limit)
    @rule(data=st.data())
    def define_past_limit(self, data: st.DataObject) -> None:
        """In a configuration built at a topology limit, a valid definition of the next structure or
        queue (the 63rd or 64th structure, the 512th or 513th queue: TOPOLOGY-003..005) often.  The
        next structure may be CSQSYSAPPL, which changes the limit the others count against (TOPOLOGY-004);
        beside 62 others it always is: as the 63rd it must be accepted, and only that case tells
        CSQSYSAPPL counted once from counted twice (a plain 63rd comes from ``define`` at the limit)."""
        count = len(self.model.structures)
        if count <= 60:
            self._define_queue(data, True)
        elif "CSQSYSAPPL" not in self.model.structures and (count == ONE_BELOW_LIMIT or data.draw(st.booleans())):
            self._do(o.DefineStructure({"name": "CSQSYSAPPL", "size_kb": 6400}))
        else:
            self._define_structure(data, True)

    def _define_reserved(self, data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(RESERVED_STRUCTURES))
        if data.draw(st.booleans()):
            self._do(o.DefineStructure({"name": name, "size_kb": 6400}))
        else:
            self._do(o.DefineQueue({"name": f"N{len(self.model.queues)}", "cfstruct": name, "maxdepth": 5}))

    @rule(data=st.data())
    def admin(self, data: st.DataObject) -> None:
        """The rarer commands: PERFMEV, RESET QSTATS, queue-manager start and stop, BACKUP, failures, RECOVER,
        inspect."""
        kind = data.draw(st.sampled_from(ADMIN), label="admin")
        getattr(self, f"_{kind}")(data)

    def _set_perfmev(self, data: st.DataObject) -> None:
        self._do(o.SetPerfmev(self._qmgr(data.draw(INDEX)), data.draw(st.booleans())))

    def _reset_qstats(self, data: st.DataObject) -> None:
        """RESET QSTATS on a queue manager that can reach the queue (its owner, if nonshared): QDEPTH-017."""
        queue = self.model.queues[self._queue(data.draw(INDEX))]
        self._do(o.ResetQstats(queue.defn.qmgr or self._qmgr(data.draw(INDEX)), queue.defn.name))

    def _start_or_stop(self, data: st.DataObject) -> None:
        name = self._qmgr(data.draw(INDEX))
        self._do(o.StartQmgr(name) if data.draw(st.booleans()) else o.StopQmgr(name))

    def _backup(self, data: st.DataObject) -> None:
        self._do(o.Backup(self._qmgr(data.draw(INDEX)), self._structure(data.draw(INDEX))))

    def _fail_structure(self, data: st.DataObject) -> None:
        queue = self.model.queues[self._recoverable_queue(data.draw(INDEX))]
        name = queue.defn.cfstruct or self._structure(data.draw(INDEX))
        if self.model.structures[name].defn.recover or data.draw(st.integers(0, 3)) == 0:
            self._do(o.FailStructure(name))

    def _recover(self, data: st.DataObject) -> None:
        self._do(o.Recover(self._structure(data.draw(INDEX)), data.draw(st.booleans())))

    def _recoverable_queue(self, q: int) -> str:
        """A queue on a RECOVER(YES) structure if there is one (a failed RECOVER(NO) structure stays
        failed, so failing one mostly ends what a test case can exercise), else any queue."""
        names = [
            n
            for n, queue in self.model.queues.items()
            if queue.defn.cfstruct is not None and self.model.structures[queue.defn.cfstruct].defn.recover
        ]
        return self._pick(names, q) if names else self._queue(q)

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
