"""The mq profile's traffic: MQPUT/MQGET, boundary-targeting fill and drain, units of work and a
queue-manager outage (the probes and commands are in :mod:`cfconform.properties.mq_machine`)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import initialize, precondition, rule

from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config
from cfconform.reference_model.model import Model
from cfconform.reference_model.units import SIZE_63_75K, SIZE_63K

from . import boundaries as b
from .base import BIG_FILL, INDEX, MAX_FILL, ProfiledMachine
from .strategies import boundary_lengths, configs, lengths

#: Lengths relative to the put's structure: one of its OFFLDnSZ values, one byte under or over (OFFLOAD-002/003).
RELATIVE_LENGTHS = tuple((n, delta) for n in (1, 2, 3) for delta in (-1, 0, 1))
#: A length: a documented boundary (half the time), relative to the structure (resolved when the put
#: is made), or anything.
Length = int | tuple[int, int]
MQ_LENGTHS = st.one_of(boundary_lengths(), boundary_lengths(), st.sampled_from(RELATIVE_LENGTHS), lengths())
MQ_TARGETS = ("OFFLD1TH", "OFFLD2TH", "OFFLD3TH", "FULLTHRESHOLD", "QDEPTHHI", "MAXDEPTH", "full")
#: How a fill's puts are made: outside syncpoint, or in a unit of work then committed or backed out.
FILL_UNITS = ("none", "commit", "backout")


def reached(model: Model, queue: Any, target: str, usage: float | None = None) -> bool:
    """Whether ``queue`` (or its structure) is at or past ``target``, in the model's current state;
    ``usage``: the structure's usage as the implementation reports it, when it does."""
    d = queue.defn
    if target == "QDEPTHHI":
        return 100 * queue.depth >= d.qdepthhi * d.maxdepth
    if target == "MAXDEPTH":
        return queue.depth >= d.maxdepth
    if d.cfstruct is None:
        return True
    s = model.structures[d.cfstruct]
    usage = model.usage(s, "max") if usage is None else usage
    if target == "full":
        return usage >= 100.0
    if target == "FULLTHRESHOLD":  # IXC585E when usage "reaches" it (CAPACITY-002): stop on it, if it lands there
        return usage >= s.defn.fullthreshold
    return usage > getattr(s.defn, target.lower())


#: Lengths the two readings of the forced-offload boundary disagree on (OFFLOAD-004: 63 KB or
#: 63.75 KB): just above 63 KB, between, and exactly 63.75 KB.
DISPUTED_LENGTHS = (SIZE_63K + 1, 64_896, SIZE_63_75K)


class MQTraffic(ProfiledMachine):
    """Puts and gets (two put rules: puts are the operation most rules are about), the same message
    on every structure, large-message boundaries, fill to a boundary and drain, units of work
    and a queue-manager outage."""

    @initialize(config=configs("mq"))
    def open(self, config: Config) -> None:
        self._open(config)
        # the implementation's usage from the start: offload decisions are then judged on it
        self._do(o.Inspect())

    def _length(self, queue: Any, length: Length) -> int:
        if isinstance(length, int):
            return length
        n, delta = length
        if queue.defn.cfstruct is None:
            return 0
        return max(0, getattr(self.model.structures[queue.defn.cfstruct].defn, f"offld{n}sz") + delta)

    def _put(self, m: int, q: int, length: Length, persistent: bool, syncpoint: bool) -> None:
        queue = self.model.queues[self._queue(q)]
        qmgr = queue.defn.qmgr or self._qmgr(m)
        size = self._length(queue, length)
        self._do(o.Put(qmgr, queue.defn.name, size, persistent, syncpoint, len(self.ops)))

    def _get(self, m: int, q: int, syncpoint: bool) -> None:
        queue = self.model.queues[self._queue(q)]
        self._do(o.Get(queue.defn.qmgr or self._qmgr(m), queue.defn.name, syncpoint))

    @rule(m=INDEX, q=INDEX, length=MQ_LENGTHS, persistent=st.booleans(), syncpoint=st.booleans())
    def put(self, m: int, q: int, length: Length, persistent: bool, syncpoint: bool) -> None:
        self._put(m, q, length, persistent, syncpoint)

    @rule(m=INDEX, q=INDEX, length=MQ_LENGTHS, persistent=st.booleans(), syncpoint=st.booleans())
    def put_more(self, m: int, q: int, length: Length, persistent: bool, syncpoint: bool) -> None:
        """A second put rule: puts are the operation most rules are about."""
        self._put(m, q, length, persistent, syncpoint)

    @rule(m=INDEX, length=boundary_lengths(), persistent=st.booleans(), disputed=st.booleans())
    def put_everywhere(self, m: int, length: int, persistent: bool, disputed: bool) -> None:
        """The same message on one queue of every structure: a reading that differs between
        CFLEVELs or between structures only shows when the same message meets both
        (CFLEVEL-002/003, OFFLOAD-004 mixed readings).  ``disputed``: instead, each length of
        the interval the two forced-offload readings disagree on (above 63 KB, up to 63.75 KB)."""
        self._everywhere(m, DISPUTED_LENGTHS if disputed else (length,), persistent)

    def _everywhere(self, m: int, lengths: tuple[int, ...], persistent: bool) -> None:
        """Each of ``lengths`` on the roomiest queue of every structure."""
        for length in lengths:
            for i in self._roomiest_queues().values():
                self._put(m, i, length, persistent, False)

    def _roomiest_queues(self) -> dict[str, int]:
        """Per structure, the index of its queue with most room below MAXDEPTH."""
        best: dict[str, tuple[int, int]] = {}
        for i, queue in enumerate(self.model.queues.values()):
            name = queue.defn.cfstruct
            room = queue.defn.maxdepth - queue.depth
            if name is not None and (name not in best or room > best[name][0]):
                best[name] = (room, i)
        return {name: i for name, (_, i) in best.items()}

    def _roomiest(self, cfstruct: str) -> int:
        return self._roomiest_queues()[cfstruct]

    def _with_room(self, q: int) -> int:
        """Queue ``q`` if it is shared and below MAXDEPTH, else the first shared queue from it that is
        (a unit of work on a full or private queue shows nothing of the sharing rules)."""
        queues = list(self.model.queues.values())
        for k in range(len(queues)):
            queue = queues[(q + k) % len(queues)]
            if queue.defn.cfstruct is not None and queue.defn.qmgr is None and queue.depth < queue.defn.maxdepth - 1:
                return (q + k) % len(queues)
        return q

    @rule(m=INDEX, boundary=st.sampled_from(b.LARGE_MESSAGE_BOUNDARIES))
    def large_messages(self, m: int, boundary: int) -> None:
        """The large-message boundaries on every structure: one byte under, at and over a boundary
        (63K, 63.75K, 64K), and a length between 63K and 63.75K where the forced-offload readings
        disagree (CFLEVEL-003/004, OFFLOAD-004)."""
        for length in (boundary - 1, boundary, boundary + 1, b.MQ_INTERIOR_LENGTHS[-1]):
            for i in self._roomiest_queues().values():
                self._put(m, i, length, False, False)

    @rule(m=INDEX, q=INDEX, syncpoint=st.booleans())
    def get(self, m: int, q: int, syncpoint: bool) -> None:
        self._get(m, q, syncpoint)

    @rule(
        m=INDEX,
        q=INDEX,
        length=MQ_LENGTHS,
        boundary=st.sampled_from(MQ_TARGETS),
        past=st.integers(0, 1),
        persistent=st.booleans(),
        unit=st.sampled_from(FILL_UNITS),
    )
    def fill(
        self, m: int, q: int, length: Length, boundary: str, past: int, persistent: bool, unit: str, wait: int = 0
    ) -> None:
        """Boundary targeting: put ``length``-byte messages until ``boundary`` is reached (and ``past``
        more).  ``unit``: outside syncpoint, or in one unit of work that is then committed or backed
        out, so that the backout takes the queue or structure back across the boundary it crossed
        (CAPACITY-003: IXC586I, QDEPTH-012, CAPACITY-010).  ``wait`` seconds then pass (the directed
        cases: an hour, by which z/OS's monitoring must have issued IXC585E under the ``deferred``
        reading too, CAPACITY-002, so a structure left exactly at FULLTHRESHOLD is judged)."""
        syncpoint = unit != "none"
        self._fill(m, q, length, boundary, past, persistent, syncpoint)
        if syncpoint:
            qmgr = self.model.queues[self._queue(q)].defn.qmgr or self._qmgr(m)
            self._do((o.Commit if unit == "commit" else o.Backout)(qmgr))
        if wait and not (self.halted or self.failed):
            self._do(o.AdvanceClock(wait))

    def _fill(
        self, m: int, q: int, length: Length, boundary: str, past: int, persistent: bool, syncpoint: bool
    ) -> None:
        queue = self.model.queues[self._queue(q)]
        extra, limit, start = past, MAX_FILL, self.usage(queue.defn.cfstruct)
        for i in range(BIG_FILL):
            if i >= limit:
                return
            if reached(self.model, queue, boundary, self.usage(queue.defn.cfstruct)):
                if extra == 0:
                    return
                extra -= 1
            if boundary not in ("QDEPTHHI", "MAXDEPTH") and queue.defn.cfstruct is not None:
                q = self._roomiest(queue.defn.cfstruct)  # a structure target: MAXDEPTH must not end it
            self._put(m, q, length, persistent, syncpoint)
            if not self._last_ok():
                return
            if i == 0:
                limit = self._fill_limit(queue, boundary, start, past)

    def _fill_limit(self, queue: Any, boundary: str, start: float | None, past: int) -> int:
        """Puts a fill may take: MAX_FILL, or (toward a structure threshold, as the implementation
        reports its usage) as many as its first put's growth says the threshold needs, up to BIG_FILL."""
        now = self.usage(queue.defn.cfstruct)
        if boundary in ("QDEPTHHI", "MAXDEPTH") or start is None or now is None or now <= start:
            return MAX_FILL
        s = self.model.structures[queue.defn.cfstruct]
        goal = 100.0 if boundary == "full" else float(getattr(s.defn, boundary.lower()))
        return max(MAX_FILL, min(BIG_FILL, int((goal - now) / (now - start)) + past + 2))

    def _empty_structure(self, m: int, cfstruct: str) -> None:
        """Get every available message from every queue of ``cfstruct``."""
        for name, other in self.model.queues.items():
            if other.defn.cfstruct != cfstruct:
                continue
            for _ in range(MAX_FILL):
                if not other.msgs:
                    break
                self._do(o.Get(other.defn.qmgr or self._qmgr(m), name, False))
                if not self._last_ok():
                    break

    @rule(m=INDEX, q=INDEX)
    def drain(self, m: int, q: int) -> None:
        """Get every available message (down through QDEPTHLO and to empty)."""
        for _ in range(MAX_FILL):
            self._get(m, q, False)
            if not self._last_ok():
                return

    @rule(
        m=INDEX,
        q=INDEX,
        length=MQ_LENGTHS,
        put=st.booleans(),
        meanwhile=st.sampled_from(("nothing", "lower cflevel", "empty, lower cflevel", "get elsewhere", "inspect")),
        commit=st.booleans(),
    )
    def unit_of_work(self, m: int, q: int, length: Length, put: bool, meanwhile: str, commit: bool) -> None:
        """A put or get under syncpoint; while it is uncommitted, optionally a command that must
        see it (lowering CFLEVEL: CFLEVEL-009, also with the structure emptied first so that the
        uncommitted put is all it holds; another queue manager's get: QUEUE-00x; inspect);
        then COMMIT or BACKOUT by the same queue manager (CAPACITY-010, QDEPTH-012)."""
        q = self._with_room(q)
        queue = self.model.queues[self._queue(q)]
        qmgr = queue.defn.qmgr or self._qmgr(m)
        emptied = meanwhile.startswith("empty") and queue.defn.cfstruct is not None
        if not (put or emptied or queue.msgs):  # a message for the unit of work to get
            self._do(o.Put(qmgr, queue.defn.name, 0, False, False, len(self.ops)))
        if emptied:  # then a put: the uncommitted message is all the structure holds
            self._empty_structure(m, queue.defn.cfstruct)  # type: ignore[arg-type]
        if put or emptied:
            self._do(o.Put(qmgr, queue.defn.name, self._length(queue, length), False, True, len(self.ops)))
        else:
            self._do(o.Get(qmgr, queue.defn.name, True))
        if meanwhile.endswith("lower cflevel") and queue.defn.cfstruct is not None:
            level = self.model.structures[queue.defn.cfstruct].defn.cflevel
            self._do(o.AlterStructure(queue.defn.cfstruct, {"cflevel": max(1, level - 1)}))
        elif meanwhile == "get elsewhere":
            other = next((n for n in self.model.qmgrs if n != qmgr), qmgr)
            self._do(o.Get(queue.defn.qmgr or other, queue.defn.name, False))
        elif meanwhile == "inspect":
            self._do(o.Inspect())
        self._do((o.Commit if commit else o.Backout)(qmgr))

    @rule(m=INDEX, commit=st.booleans())
    def end_unit_of_work(self, m: int, commit: bool) -> None:
        self._do((o.Commit if commit else o.Backout)(self._qmgr(m)))

    @precondition(lambda self: self.config is not None and len(self.config.qmgrs) > 1)
    @rule(m=INDEX, q=INDEX, persistent=st.booleans(), syncpoint=st.booleans())
    def qmgr_outage(self, m: int, q: int, persistent: bool, syncpoint: bool) -> None:
        """A put through one queue manager, which then stops; another gets from the queue; the first
        restarts (RECOVERY-008: shared messages survive, QUEUE-005: its unit of work is backed out)."""
        queue = self.model.queues[self._queue(self._with_room(q))]
        qmgr = self._qmgr(m)
        other = next(n for n in self.model.qmgrs if n != qmgr)
        self._do(o.Put(queue.defn.qmgr or qmgr, queue.defn.name, 0, persistent, syncpoint, len(self.ops)))
        self._do(o.StopQmgr(qmgr))
        self._do(o.Get(queue.defn.qmgr or other, queue.defn.name, False))
        self._do(o.StartQmgr(qmgr))
