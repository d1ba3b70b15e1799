"""The mq-profile state machine: the traffic of :mod:`cfconform.properties.mq_traffic`, the definitions of
:mod:`cfconform.properties.mq_admin` and the offload probes of :mod:`cfconform.properties.mq_offload`, plus the depth
probe, the failure cycle, and the administrative commands."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import rule

from cfconform.reference_model import operations as o
from cfconform.reference_model.state import Queue

from . import admin_fields as af
from . import boundaries as b
from .base import INDEX, MAX_FILL, smallest_holding
from .mq_probes import MQProbes
from .mq_traffic import DISPUTED_LENGTHS

#: MAXDEPTH and depth percentages for the depth probe: percentages that are a whole number of
#: messages of these depths and ones that fall below or above half a message.
PROBE_MAXDEPTHS = (7, 10, 3, 20)
PROBE_PERCENTS = (12, 17, 50, 80, 20, 0, 100, 33, 67)
#: A RECOVER(YES) structure a failure cycle defines when the configuration has no second one.
OTHER_RECOVERABLE = "APPBKUP"


class MQMachine(MQProbes):
    """The mq profile.  Rules: the traffic (:class:`~cfconform.properties.mq_traffic.MQTraffic`), the
    definitions and rarer commands (:class:`~cfconform.properties.mq_admin.MQAdmin`), the offload probes
    (:class:`~cfconform.properties.mq_offload.MQOffload`), the depth probe, a structure failure cycle, a
    resize cycle, and one rule per kind of administrative
    command (each rule gets an equal share of the steps, so commands are not starved by puts)."""

    @rule(seconds=st.sampled_from(b.MQ_CLOCK_STEPS))
    def advance_clock(self, seconds: int) -> None:
        """Time passes: z/OS's structure-full monitoring may issue IXC585E/IXC586I now, and must have
        within an hour of the condition (CAPACITY-002/003, full_signal_timing ``deferred``)."""
        self._do(o.AdvanceClock(seconds))

    @rule(
        m=INDEX,
        q=INDEX,
        maxdepth=st.sampled_from(PROBE_MAXDEPTHS),
        percents=st.lists(st.sampled_from(PROBE_PERCENTS), min_size=2, max_size=3),
        low=st.sampled_from(PROBE_PERCENTS),
        until=st.sampled_from(("QDEPTHHI", "MAXDEPTH")),
        past=st.integers(0, 1),
    )
    def depth_probe(self, m: int, q: int, maxdepth: int, percents: list[int], low: int, until: str, past: int) -> None:
        """Boundary targeting for the queue depth events: with every event switched on, set
        MAXDEPTH and, in turn, each QDEPTHHI of ``percents`` (QDEPTHLO ``low``), and fill the
        queue to QDEPTHHI or to MAXDEPTH (Queue Full) and drain it, on queue ``q`` and then on a
        queue of the other kind (shared or nonshared).  A percentage of MAXDEPTH that is not a
        whole count is where the rounding readings differ, one way below half a message and
        another above; a reading that differs between shared and nonshared queues shows only
        when both meet the same settings (QDEPTH-002/003/006/013 mixed readings)."""
        first = self.model.queues[self._queue(q)]
        other = next(
            (n for n, x in self.model.queues.items() if (x.defn.cfstruct is None) != (first.defn.cfstruct is None)),
            None,
        )
        for name in (first.defn.name, other) if other else (first.defn.name,):
            i = list(self.model.queues).index(name)
            for percent in percents:
                self.drain(m, i)
                switches = {"qdphiev": True, "qdploev": True, "qdpmaxev": True}
                limits = {"maxdepth": maxdepth, "qdepthhi": percent, "qdepthlo": low}
                self._do(o.AlterQueue(name, {**limits, **switches}))
                self.fill(m, i, 0, until, past, False, "none")
                if until == "MAXDEPTH":  # switched on again, Queue Full meets QDPHIEV(YES) (QDEPTH-006)
                    self._do(o.AlterQueue(name, switches))
                    self._put(m, i, 0, False, False)
                self._do(o.Inspect())  # the switches as the events left them (draining toggles them back)
            self.drain(m, i)

    @rule(m=INDEX, q=INDEX, who=st.sampled_from(("issuer", "other")))
    def reset_probe(self, m: int, q: int, who: str) -> None:
        """QDEPTH-017: with every event switched on, put on queue ``q`` from two queue managers
        (the owner twice, if nonshared), RESET QSTATS on one of them, put again, and fill to
        QDEPTHHI: each event message counts from its queue manager's reset or last message."""
        name = self._queue(q)
        owner = self.model.queues[name].defn.qmgr
        self.drain(m, q)
        switches = {"qdphiev": True, "qdploev": True, "qdpmaxev": True}
        self._do(o.AlterQueue(name, {"maxdepth": 10, "qdepthhi": 80, "qdepthlo": 0, **switches}))
        first, second = (owner, owner) if owner else (self._qmgr(m), self._qmgr(m + 1))
        for qmgr in (first, second):
            self._do(o.Put(qmgr, name, 0, False, False, len(self.ops)))
        self._do(o.ResetQstats(first if who == "issuer" else second, name))
        self._do(o.Put(first, name, 0, False, False, len(self.ops)))
        self.fill(m, q, 0, "QDEPTHHI", 0, False, "none")
        self.drain(m, q)

    @rule(
        m=INDEX,
        q=INDEX,
        early=st.sampled_from(("none", "none", "recover", "purge")),
        before=st.sampled_from((0, 2, 2, 1)),
        backup=st.sampled_from(("same", "same", "other", "other", "none")),
        after=st.integers(0, 1),
        uncommitted=st.booleans(),
        purge=st.booleans(),
        unrecoverable=st.integers(0, 3),
        volatile=st.integers(0, 1),
    )
    def failure_cycle(
        self,
        m: int,
        q: int,
        early: str,
        before: int,
        backup: str,
        after: int,
        uncommitted: bool,
        purge: bool,
        unrecoverable: int,
        volatile: int = 0,
        writer_stops: bool = False,
    ) -> None:
        """Boundary targeting for backup and recovery: optionally RECOVER the healthy structure
        first (RECOVERY-006); ``before`` committed persistent messages of different lengths
        (what comes back, and in which order: RECOVERY-003); BACKUP CFSTRUCT (of the queue's
        structure, of another recoverable one if there is one, or none: RECOVERY-007); ``after``
        more (logged after the backup) and, if ``uncommitted``, one put under syncpoint left
        uncommitted (not recovered); the structure fails; RECOVER CFSTRUCT; then a get from the
        queue (RECOVERY-001..007).  With an uncommitted put, a TYPE(PURGE) recovery comes after
        a TYPE(NORMAL) one and another failure: PURGE alone would discard the put unseen, and
        M-RECOVERY-003-b (uncommitted messages recovered) survived a seed whose cases with an
        uncommitted put all drew PURGE.  ``volatile`` nonpersistent messages go before the backup:
        RECOVER restores persistent messages only (RECOVERY-004).

        A RECOVER(NO) structure stays failed for the rest of the test case, so one is failed only
        in one cycle in four (``unrecoverable == 0``).  With ``writer_stops`` the queue manager that
        put the messages stops before the failure and another one reads them after RECOVER: the logs
        of all the queue managers are replayed, active or not (RECOVERY-003)."""
        queue = self.model.queues[self._recoverable_queue(q)]
        name = queue.defn.cfstruct or self._structure(q)
        if not self.model.structures[name].defn.recover and unrecoverable:
            return
        if backup == "other":  # what fails has no backup of its own, and another structure has one
            name = self._unbacked_recoverable(name)
        qmgr = queue.defn.qmgr or self._qmgr(m)
        if early != "none":
            self._do(o.Recover(name, early == "purge"))
        for _ in range(volatile):
            self._do(o.Put(qmgr, queue.defn.name, 1, False, False, len(self.ops)))
        self._persistent_puts(qmgr, queue.defn.name, before)
        if backup != "none":
            self._do(o.Backup(qmgr, name if backup == "same" else self._other_recoverable(name, m)))
        self._persistent_puts(qmgr, queue.defn.name, after)
        if uncommitted:
            self._do(o.Put(qmgr, queue.defn.name, 2, True, True, len(self.ops)))
        normal_first = uncommitted and purge  # PURGE would discard the uncommitted put unseen
        reader = self._stop_writer(qmgr, queue) if writer_stops else None
        self._do(o.FailStructure(name))
        self._do(o.Recover(name, purge and not normal_first))
        self._do(o.Get(reader or qmgr, queue.defn.name, False))
        if reader is not None:
            self._do(o.StartQmgr(qmgr))
        if normal_first:  # then the PURGE, after another failure
            if not self.model.structures[name].failed:
                self._do(o.FailStructure(name))
            self._do(o.Recover(name, True))
        if self.model.structures[name].failed:  # not recovered (no backup): purge, so the case goes on
            self._do(o.Recover(name, True))

    def _stop_writer(self, qmgr: str, queue: Queue) -> str | None:
        """Stop ``qmgr`` and return another active queue manager to read the shared ``queue`` with
        (None, and nothing stopped, when there is none or the queue is not shared)."""
        others = [n for n, x in self.model.qmgrs.items() if n != qmgr and x.active]
        if queue.defn.cfstruct is None or not others or not self.model.qmgrs[qmgr].active:
            return None
        self._do(o.StopQmgr(qmgr))
        return others[0]

    def _unbacked_recoverable(self, name: str) -> str:
        """``name`` if it is a RECOVER(YES) structure never backed up, else another such structure,
        defined now if there is none (RECOVERY-007: a backup of another structure is no backup)."""
        fresh = [n for n, s in self.model.structures.items() if s.defn.recover and not s.backup_taken]
        if fresh:
            return name if name in fresh else fresh[0]
        new = f"APPNB{len(self.model.structures)}"
        self._do(o.DefineStructure({"name": new, "cflevel": 3, "recover": True}))
        return new if new in self.model.structures else name

    def _other_recoverable(self, name: str, m: int) -> str:
        """Another RECOVER(YES) structure than ``name``: one of the configuration's, or one defined
        now (a backup of another structure taken for one of this structure: RECOVERY-007)."""
        others = [n for n, s in self.model.structures.items() if n != name and s.defn.recover]
        if others:
            return self._pick(others, m)
        self._do(o.DefineStructure({"name": OTHER_RECOVERABLE, "cflevel": 3, "recover": True}))
        return OTHER_RECOVERABLE if OTHER_RECOVERABLE in self.model.structures else self._structure(m + 1)

    def _persistent_puts(self, qmgr: str, queue: str, count: int) -> None:
        """``count`` committed persistent messages, each a different length (so order shows)."""
        for i in range(count):
            self._do(o.Put(qmgr, queue, i, True, False, len(self.ops)))

    @rule(m=INDEX, length=st.sampled_from((0, *DISPUTED_LENGTHS, 65_000)), persistent=st.booleans())
    def every_cflevel(self, m: int, length: int, persistent: bool) -> None:
        """The same message on a queue at each CFLEVEL, 1 to 5, defining a structure with a queue
        at a level no queue is on: a reading that differs between levels shows only when one
        message meets both, and a generated configuration holds two levels at most
        (CFLEVEL-002/003 reason codes, OFFLOAD-004 mixed readings)."""
        for level in range(1, 6):
            queue = self._queue_at_cflevel(level)
            if queue is not None:
                self._put(m, list(self.model.queues).index(queue), length, persistent, False)

    @rule(data=st.data())
    def alter_structure(self, data: st.DataObject) -> None:
        """ALTER CFSTRUCT, one keyword mostly, some out of range (OFFLOAD-006/007/011/013, CFLEVEL-001/009)."""
        name = self._structure(data.draw(INDEX))
        changes = data.draw(af.ALTER_STRUCTURE_CHANGES)
        if changes.get("cflevel") in ("down", "up"):  # one level from where the structure is
            level = self.model.structures[name].defn.cflevel
            changes["cflevel"] = level - 1 if changes["cflevel"] == "down" else level + 1
        self._do(o.AlterStructure(name, changes))

    @rule(s=INDEX, keyword=st.sampled_from(sorted(af.STRUCTURE_RANGES)))
    def alter_range_edges(self, s: int, keyword: str) -> None:
        """ALTER CFSTRUCT one keyword one past each end of its range, to each end, and back to its
        value (CFLEVEL-001, CAPACITY-009, OFFLOAD-011): a range read as exclusive at one end, or
        not checked at the other, shows in one step.  Drawn among all the keywords at random, an
        end value of one keyword came once in more than a hundred alters."""
        name = self._structure(s)
        lo, hi = af.STRUCTURE_RANGES[keyword]
        for value in (lo - 1, hi + 1, hi, lo, getattr(self.model.structures[name].defn, keyword)):
            self._do(o.AlterStructure(name, {keyword: value}))

    @rule(keyword=st.sampled_from(sorted(af.STRUCTURE_RANGES)))
    def define_range_edges(self, keyword: str) -> None:
        """DEFINE CFSTRUCT with one keyword one past each end of its range (CFLEVEL-001, CAPACITY-009,
        OFFLOAD-011), at CFLEVEL(5) so that no OFFLDn* below it is in question: a range checked by
        ALTER but not by DEFINE shows (the eighth reading's faults CFL_RANGE6 and ADM_FT_RANGE)."""
        lo, hi = af.STRUCTURE_RANGES[keyword]
        for value in (lo - 1, hi + 1):
            name = f"DR{len(self.model.structures)}"
            self._do(o.DefineStructure({"name": name, "size_kb": 6400, "cflevel": 5, keyword: value}))

    @rule(level=st.sampled_from((4, 3, 2)))
    def cflevel_steps_down(self, level: int) -> None:
        """CFLEVEL-009: DEFINE an empty RECOVER(NO) structure at CFLEVEL ``level`` (below 5) and ALTER its
        CFLEVEL down one level at a time to 1, then back up.  Nothing there is left open by the
        documents (no OFFLOAD in effect, no RECOVER(YES) below 3), so each decrease is judged."""
        name = f"DOWN{len(self.model.structures)}"
        self._do(o.DefineStructure({"name": name, "size_kb": 6400, "cflevel": level, "recover": False}))
        if not self._last_ok():
            return
        for lower in range(level - 1, 0, -1):
            self._do(o.AlterStructure(name, {"cflevel": lower}))
        self._do(o.AlterStructure(name, {"cflevel": level}))

    @rule(data=st.data())
    def alter_queue(self, data: st.DataObject) -> None:
        """ALTER QLOCAL: event switches and depth limits, some out of range (QDEPTH-014, CFLEVEL-005)."""
        self._do(o.AlterQueue(self._queue(data.draw(INDEX)), data.draw(af.ALTER_QUEUE_CHANGES)))

    @rule(data=st.data())
    def setxcf_alter(self, data: st.DataObject) -> None:
        self._setxcf_alter(data)

    @rule(
        q=INDEX,
        grow=st.sampled_from(("size", "size-1")),
        length=st.sampled_from((0, 1000, 4096)),
        back=st.sampled_from(("initsize", "in use", "in use-1")),
    )
    def resize_cycle(self, q: int, grow: str, length: int, back: str) -> None:
        """SETXCF ALTER a structure up from INITSIZE, put until it holds more than INITSIZE could,
        then ALTER it back down to INITSIZE or to around the storage in use (CAPACITY-004/006)."""
        queue = self.model.queues[self._queue(q)]
        if queue.defn.cfstruct is None:
            return
        s = self.model.structures[queue.defn.cfstruct]
        self._do(o.SetxcfAlter(s.defn.name, s.defn.size_kb - (1 if grow == "size-1" else 0)))
        for _ in range(MAX_FILL):
            if smallest_holding(s, self.model.acct) > s.defn.effective_initsize_kb:
                break
            self._put(0, q, length, False, False)
            if not self._last_ok():
                break
        in_use = smallest_holding(s, self.model.acct)
        target = {"initsize": s.defn.effective_initsize_kb, "in use": in_use, "in use-1": in_use - 1}[back]
        self._do(o.SetxcfAlter(s.defn.name, target))
