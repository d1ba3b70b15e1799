"""The mq-profile state machine: the traffic of :mod:`properties.mq_traffic` plus the offload and
depth probes, the failure cycle, and the administrative commands."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import rule

from properties import admin_fields as af
from properties import boundaries as b
from properties.base import INDEX, MAX_FILL, smallest_holding
from properties.mq_admin import MQAdmin
from properties.mq_traffic import DISPUTED_LENGTHS, reached
from reference_model import operations as o

#: Empty messages at most to bring a structure to an offload threshold: one list entry each, so a
#: structure with a few hundred entries needs that many (spread over its queues, below MAXDEPTH).
PROBE_FILL = 160
#: MAXDEPTH and depth percentages for the depth probe: percentages that are a whole number of
#: messages of these depths and ones that fall below or above half a message.
PROBE_MAXDEPTHS = (7, 10, 3, 20)
PROBE_PERCENTS = (12, 17, 50, 80, 20, 0, 100, 33, 67)
#: The offload rules probe's patterns: (a shared threshold, else OFFLDnTH 0; OFFLD1SZ..OFFLD3SZ).
OFFLOAD_PATTERNS = {
    "shared": (True, (4 * 1024, 1024, 0)),
    "rising": (False, (1024, 2 * 1024, 3 * 1024)),
    "off": (False, (64 * 1024,) * 3),
}
#: A RECOVER(YES) structure a failure cycle defines when the configuration has no second one.
OTHER_RECOVERABLE = "APPBKUP"
#: A CFLEVEL(4) structure the offload rules probe defines when no queue is on one.
LEVEL_4 = "APPLEVEL4"


class MQMachine(MQAdmin):
    """The mq profile.  Rules: the traffic (:class:`~properties.mq_traffic.MQTraffic`), the
    definitions and rarer commands (:class:`~properties.mq_admin.MQAdmin`), the offload and depth
    probes, a structure failure cycle, a resize cycle, and one rule per kind of administrative
    command (each rule gets an equal share of the steps, so commands are not starved by puts)."""

    @rule(
        m=INDEX,
        q=INDEX,
        at=st.sampled_from(("its own", "its own", "empty", "OFFLD1TH", "OFFLD2TH", "OFFLD3TH")),
        n=st.sampled_from((1, 2, 3)),
        delta=st.sampled_from((-1, 0, 1, 1, "all")),
    )
    def offload_probe(self, m: int, q: int, at: str, n: int, delta: int | str) -> None:
        """Boundary targeting for the offload rules: bring the queue's structure to a threshold
        (empty it: usage 0, which an OFFLDnTH of 0 equals; or put empty messages until usage
        passes OFFLDnTH, where the usage metrics can disagree), then put a message one byte
        under, at or over OFFLDnSZ (or all three: ``delta`` "all") of rule ``n``, then of the other
        two rules (a mixed reading shows only when two rules meet the same usage)
        (OFFLOAD-002/003/012).  The empty messages go to
        whichever of the structure's queues has most room, so MAXDEPTH does not end the fill."""
        self._threshold_probe(m, q, at, n, delta)

    @rule(m=INDEX, pattern=st.sampled_from(tuple(OFFLOAD_PATTERNS)), threshold=st.sampled_from(b.SHARED_THRESHOLDS))
    def offload_rules_probe(self, m: int, pattern: str, threshold: int) -> None:
        """Set all three offload rules of the emptied CFLEVEL(5) structure with queues that has
        most elements per entry to one pattern, and probe it; a structure generated with such
        rules met the probes in one test case in hundreds.

        * ``shared``: one threshold, sizes falling (4 KB, 1 KB, 0); empty messages until usage
          passes it (entry usage leads where a message uses fewer elements than the ratio), then
          one byte over each size in rule order.  The first message is offloaded only under the
          larger of entry and element usage, the next two only if rule 2 or 3 reads that usage
          too (OFFLOAD-012 mixed readings).
        * ``rising``: thresholds 0, sizes rising (1, 2, 3 KB); each size exactly, on the empty
          structure.  Only an inclusive comparison offloads, and the first message meets rule 1
          alone (OFFLOAD-002, a comparison read one way for rule 1 and another for the others).
        * ``off``: thresholds 0, every OFFLDnSZ 64K (each rule off); two 1-byte messages, the
          second above usage 0: nothing may be offloaded (OFFLOAD-003).  Then each length the
          forced-offload readings disagree on, on every structure: with no rule to offload it,
          only the boundary decides (OFFLOAD-004, read one way at CFLEVEL(4), another at 5)."""
        used = {q.defn.cfstruct for q in self.model.queues.values()}
        levels = [s for s in self.model.structures.values() if s.defn.cflevel == 5 and s.defn.name in used]
        if not levels:
            return
        name = max(levels, key=lambda s: s.defn.ratio).defn.name
        self._empty_structure(m, name)
        shared, sizes = OFFLOAD_PATTERNS[pattern]
        rules = {f"offld{n}th": threshold if shared else 0 for n in (1, 2, 3)}
        rules.update({f"offld{n}sz": size for n, size in zip((1, 2, 3), sizes, strict=True)})
        self._do(o.AlterStructure(name, rules))
        if pattern == "off":
            for _ in range(2):
                self._put(m, self._roomiest(name), 1, False, False)
            self._with_a_queue_at_cflevel_4()
            self._everywhere(m, DISPUTED_LENGTHS, False)
        else:
            self._threshold_probe(m, self._roomiest(name), "OFFLD1TH" if shared else "empty", 1, 1 if shared else 0)

    def _with_a_queue_at_cflevel_4(self) -> None:
        """A CFLEVEL(4) structure with a queue, defined now if there is none: the forced-offload
        readings show at CFLEVEL(4) as well as at 5, and are read alike at both (OFFLOAD-004)."""
        if any(self.model.structures[q.defn.cfstruct].defn.cflevel == 4 for q in self._shared_queues()):
            return
        if LEVEL_4 not in self.model.structures:
            self._do(o.DefineStructure({"name": LEVEL_4, "cflevel": 4}))
        if LEVEL_4 in self.model.structures and f"Q{LEVEL_4}" not in self.model.queues:
            self._do(o.DefineQueue({"name": f"Q{LEVEL_4}", "cfstruct": LEVEL_4}))

    def _shared_queues(self) -> list[Any]:
        return [q for q in self.model.queues.values() if q.defn.cfstruct is not None]

    def _threshold_probe(self, m: int, q: int, at: str, n: int, delta: int | str) -> None:
        """Bring queue ``q``'s structure to ``at``, then put each rule's size boundary (see :meth:`offload_probe`)."""
        queue = self.model.queues[self._queue(q)]
        if queue.defn.cfstruct is None:
            return
        if at == "its own":  # the structure's own first threshold: empty if it is 0
            at = "empty" if self.model.structures[queue.defn.cfstruct].defn.offld1th == 0 else "OFFLD1TH"
        q = self._roomiest(queue.defn.cfstruct)  # so the puts are not stopped by MAXDEPTH first
        queue = self.model.queues[self._queue(q)]
        if at == "empty":
            self._empty_structure(m, queue.defn.cfstruct)
        else:
            for _ in range(PROBE_FILL):
                if reached(self.model, queue, at):
                    break
                self._put(m, self._roomiest(queue.defn.cfstruct), 0, False, False)
                if not self._last_ok():
                    return
            q = self._roomiest(queue.defn.cfstruct)
        for k in (n, n % 3 + 1, (n + 1) % 3 + 1):  # one message per rule, each at the same usage
            for d in (-1, 0, 1) if delta == "all" else (delta,):
                if at == "empty":
                    self._empty_structure(m, queue.defn.cfstruct)
                self._put(m, q, (k, d), False, False)

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
                self.fill(m, i, 0, until, past, False)
                if until == "MAXDEPTH":  # switched on again, Queue Full meets QDPHIEV(YES) (QDEPTH-006)
                    self._do(o.AlterQueue(name, switches))
                    self._put(m, i, 0, False, False)
                self._do(o.Inspect())  # the switches as the events left them (draining toggles them back)
            self.drain(m, i)

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
    ) -> None:
        """Boundary targeting for backup and recovery: optionally RECOVER the healthy structure
        first (RECOVERY-006); ``before`` committed persistent messages of different lengths
        (what comes back, and in which order: RECOVERY-003); BACKUP CFSTRUCT (of the queue's
        structure, of another recoverable one if there is one, or none: RECOVERY-007); ``after``
        more (logged after the backup) and, if ``uncommitted``, one put under syncpoint left
        uncommitted (not recovered); the structure fails; RECOVER CFSTRUCT; then a get from the
        queue (RECOVERY-001..007).

        A RECOVER(NO) structure stays failed for the rest of the test case, so one is failed only
        in one cycle in four (``unrecoverable == 0``)."""
        queue = self.model.queues[self._recoverable_queue(q)]
        name = queue.defn.cfstruct or self._structure(q)
        if not self.model.structures[name].defn.recover and unrecoverable:
            return
        if backup == "other":  # what fails has no backup of its own, and another structure has one
            name = self._unbacked_recoverable(name)
        qmgr = queue.defn.qmgr or self._qmgr(m)
        if early != "none":
            self._do(o.Recover(name, early == "purge"))
        self._persistent_puts(qmgr, queue.defn.name, before)
        if backup != "none":
            self._do(o.Backup(qmgr, name if backup == "same" else self._other_recoverable(name, m)))
        self._persistent_puts(qmgr, queue.defn.name, after)
        if uncommitted:
            self._do(o.Put(qmgr, queue.defn.name, 2, True, True, len(self.ops)))
        self._do(o.FailStructure(name))
        self._do(o.Recover(name, purge))
        self._do(o.Get(qmgr, queue.defn.name, False))
        if self.model.structures[name].failed:  # not recovered (no backup): purge, so the case goes on
            self._do(o.Recover(name, True))

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
