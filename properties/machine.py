"""Hypothesis rule-based state machines that drive an adapter and the checker side by side.

``machine_for(adapter_factory, profile)`` returns a ``RuleBasedStateMachine``
class.  Each Hypothesis test case draws a configuration, opens a fresh adapter,
and applies operations one at a time; every step is judged by
:class:`conformance.checker.Checker` (the one checker).  Arguments are indices
into the configuration's queues, queue managers and structures, so they shrink
well; the operations actually applied are recorded for the reproducer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import event
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from adapters.protocol import Adapter, AdapterError
from conformance.checker import Checker, StepVerdict
from properties import boundaries as b
from properties.coverage import probes
from properties.strategies import configs, lengths
from reference_model import operations as o
from reference_model.config import Config
from reference_model.model import Model

INDEX = st.integers(0, 7)


class ConformanceFailure(AssertionError):
    """The implementation departed from every admissible reading of the rules."""

    def __init__(self, verdict: StepVerdict) -> None:
        self.verdict = verdict
        d = verdict.diff
        super().__init__(
            f"step {verdict.index}: {d.field} expected {d.expected!r} observed {d.observed!r} "
            f"[{', '.join(verdict.rules)}]"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.verdict,))


class AdapterFailure(AssertionError):
    """The implementation could not answer (crash, hang, protocol breach)."""


class Recorder:
    """What one machine class saw across all its test cases: coverage and the last failure."""

    def __init__(self) -> None:
        self.rules: Counter[str] = Counter()
        self.boundaries: dict[str, Counter[str]] = {}
        self.steps = 0
        self.cases = 0
        self.last_failure: tuple[Config, list[Any], BaseException] | None = None


class _Base(RuleBasedStateMachine):
    adapter_factory: Callable[[], Adapter]
    recorder: Recorder

    def __init__(self) -> None:
        super().__init__()
        self.adapter: Adapter | None = None
        self.config: Config | None = None
        self.ops: list[Any] = []
        self.checker: Checker | None = None

    # -- plumbing -----------------------------------------------------------------
    def _open(self, config: Config) -> None:
        self.config = config
        self.recorder.cases += 1
        self.adapter = type(self).adapter_factory()
        try:
            caps = self.adapter.capabilities()
            self.checker = Checker(config, caps)
            self.adapter.open(config)
        except Exception as err:  # an implementation that cannot even open is a verdict, not our crash
            self._fail(AdapterFailure(f"open: {type(err).__name__}: {err}"))

    @property
    def model(self) -> Model:
        return self.checker.alive[0].model  # type: ignore[union-attr]

    def _do(self, op: Any) -> None:
        for rule_id, where in probes(self.model, op):
            self.recorder.boundaries.setdefault(rule_id, Counter())[where] += 1
        self.ops.append(op)
        try:
            observed = self.adapter.apply(op)  # type: ignore[union-attr]
        except AdapterError as err:
            self._fail(AdapterFailure(f"step {len(self.ops) - 1} ({op.KIND}): {err}"))
        except Exception as err:  # an in-process implementation crashing is a verdict
            self._fail(AdapterFailure(f"step {len(self.ops) - 1} ({op.KIND}): {type(err).__name__}: {err}"))
        verdict = self.checker.check(op, observed)  # type: ignore[union-attr]
        self.recorder.steps += 1
        self.recorder.rules.update(verdict.expected.rules)
        for rule_id in verdict.expected.rules:
            event(rule_id)
        if not verdict.ok:
            self._fail(ConformanceFailure(verdict))

    def _fail(self, err: BaseException) -> None:
        self.recorder.last_failure = (self.config, list(self.ops), err)  # type: ignore[assignment]
        raise err

    def _pick(self, names: list[str], index: int) -> str:
        return names[index % len(names)]

    def _qmgr(self, i: int) -> str:
        return self._pick(list(self.model.qmgrs), i)

    def _queue(self, i: int) -> str:
        return self._pick(list(self.model.queues), i)

    def _structure(self, i: int) -> str:
        return self._pick(list(self.model.structures), i)

    def teardown(self) -> None:
        if self.adapter is not None:
            self.adapter.close()


MAX_FILL = 24
MQ_TARGETS = ("OFFLD1TH", "OFFLD2TH", "OFFLD3TH", "FULLTHRESHOLD", "QDEPTHHI", "MAXDEPTH", "full")


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


MQ_ADMIN = (
    "inspect",
    "set_perfmev",
    "start_or_stop",
    "backup",
    "fail_structure",
    "recover",
    "alter_queue",
    "alter_structure",
    "define_queue",
    "define_structure",
    "setxcf_alter",
)
CQS_ADMIN = ("inspect", "set_overflow_exit", "define_structure", "setxcf_alter", "unsolicited_alter_outcome")
ALTER_STRUCTURE_CHANGES = st.fixed_dictionaries({}, optional={
    "cflevel": st.integers(1, 5), "recover": st.booleans(),
    "offload": st.sampled_from((None, "SMDS", "DB2", "DISK")), "fullthreshold": st.sampled_from((0, 80, 85, 101)),
    **{f"offld{n}th": st.sampled_from((*b.THRESHOLDS, -1, 101)) for n in (1, 2, 3)},
    **{f"offld{n}sz": st.sampled_from((*b.OFFLOAD_SIZES, 65536, 65537)) for n in (1, 2, 3)},
})  # fmt: skip
ALTER_QUEUE_CHANGES = st.fixed_dictionaries({}, optional={
    "qdphiev": st.booleans(), "qdploev": st.booleans(), "qdpmaxev": st.booleans(),
    "qdepthhi": st.sampled_from((-1, 0, 50, 80, 100, 101)), "qdepthlo": st.sampled_from((-1, 0, 20, 100, 101)),
    "maxdepth": st.sampled_from((-1, 0, 1, 5, 999_999_999, 1_000_000_000)),
})  # fmt: skip
DEFINE_QUEUE_FIELDS = st.fixed_dictionaries({}, optional={
    "qdepthhi": st.sampled_from((-1, 0, 80, 100, 101)), "maxdepth": st.sampled_from((-1, 0, 5)),
    "maxmsgl": st.sampled_from((-1, 64 * 1024, 104_857_601)), "name": st.sampled_from(("bad name!", "Q0")),
})  # fmt: skip
DEFINE_MQ_STRUCTURE_FIELDS = st.fixed_dictionaries({}, optional={
    "name": st.sampled_from(("CSQ_ADMIN", "lower", "TOOLONGNAME12X", "9START", "CSQSYSAPPL")),
    "cflevel": st.integers(0, 6), "recover": st.booleans(), "offload": st.sampled_from(("SMDS", "DB2", "X")),
    "offld1th": st.sampled_from((-1, 0, 100, 101)), "offld2sz": st.sampled_from((-1, 0, 65536, 65537)),
    "fullthreshold": st.sampled_from((-1, 0, 85, 101)), "size_kb": st.sampled_from((-1, 0, 6400)),
    "initsize_kb": st.sampled_from((6300, 7000)),
})  # fmt: skip
DEFINE_CQS_STRUCTURE_FIELDS = st.fixed_dictionaries({}, optional={
    "resource": st.booleans(), "ovflwmax": st.sampled_from((-1, 0, 70, 100, 101)),
    "ovflwstr": st.sampled_from(("OVFL2", "PRIM1", "bad")), "size_kb": st.sampled_from((0, 6200)),
})  # fmt: skip
SETXCF_TARGETS = st.sampled_from(("initsize-1", "initsize", "size-1", "size", "size+1"))


class _Profiled(_Base):
    """Rules shared by both profiles; each test case ends with an ``inspect`` (state-only faults)."""

    ADMIN: tuple[str, ...] = ()

    def teardown(self) -> None:
        try:
            if self.checker is not None and self.checker.failed is None and self.recorder.last_failure is None:
                self._do(o.Inspect())
        finally:
            super().teardown()

    @rule(data=st.data())
    def admin(self, data: st.DataObject) -> None:
        """The less frequent operations, one rule between them so puts and gets dominate."""
        kind = data.draw(st.sampled_from(self.ADMIN), label="admin")
        getattr(self, f"_{kind}")(data)

    def _inspect(self, data: st.DataObject) -> None:
        self._do(o.Inspect())

    def _setxcf_alter(self, data: st.DataObject) -> None:
        d = self.model.structures[self._structure(data.draw(INDEX))].defn
        which = data.draw(SETXCF_TARGETS)
        base = d.effective_initsize_kb if which.startswith("initsize") else d.size_kb
        self._do(o.SetxcfAlter(d.name, base + (-1 if which.endswith("-1") else 1 if which.endswith("+1") else 0)))


class MQMachine(_Profiled):
    """The mq profile: MQPUT/MQGET, units of work, events, offload, backup and recovery."""

    ADMIN = MQ_ADMIN

    @initialize(config=configs("mq"))
    def open(self, config: Config) -> None:
        self._open(config)

    def _put(self, m: int, q: int, length: int, persistent: bool, syncpoint: bool) -> None:
        queue = self.model.queues[self._queue(q)]
        qmgr = queue.defn.qmgr or self._qmgr(m)
        self._do(o.Put(qmgr, queue.defn.name, length, persistent, syncpoint, len(self.ops)))

    @rule(m=INDEX, q=INDEX, length=lengths(), persistent=st.booleans(), syncpoint=st.booleans())
    def put(self, m: int, q: int, length: int, persistent: bool, syncpoint: bool) -> None:
        self._put(m, q, length, persistent, syncpoint)

    @rule(m=INDEX, q=INDEX, length=lengths(), persistent=st.booleans(), syncpoint=st.booleans())
    def put_more(self, m: int, q: int, length: int, persistent: bool, syncpoint: bool) -> None:
        """A second put rule: puts are the operation most rules are about."""
        self._put(m, q, length, persistent, syncpoint)

    @rule(m=INDEX, q=INDEX, syncpoint=st.booleans())
    def get(self, m: int, q: int, syncpoint: bool) -> None:
        queue = self.model.queues[self._queue(q)]
        self._do(o.Get(queue.defn.qmgr or self._qmgr(m), queue.defn.name, syncpoint))

    @rule(m=INDEX, q=INDEX, length=lengths(), boundary=st.sampled_from(MQ_TARGETS), past=st.integers(0, 1))
    def fill(self, m: int, q: int, length: int, boundary: str, past: int) -> None:
        """Boundary targeting: put ``length``-byte messages until ``boundary`` is reached (and ``past`` more)."""
        queue = self.model.queues[self._queue(q)]
        qmgr = queue.defn.qmgr or self._qmgr(m)
        extra = past
        for _ in range(MAX_FILL):
            if _reached(self.model, queue, boundary):
                if extra == 0:
                    return
                extra -= 1
            before = len(self.ops)
            self._do(o.Put(qmgr, queue.defn.name, length, False, False, before))
            if not self.checker.history[-1][1].ok:  # type: ignore[union-attr]
                return

    @rule(m=INDEX, q=INDEX)
    def drain(self, m: int, q: int) -> None:
        """Get every available message (down through QDEPTHLO and to empty)."""
        queue = self.model.queues[self._queue(q)]
        for _ in range(MAX_FILL):
            self._do(o.Get(queue.defn.qmgr or self._qmgr(m), queue.defn.name, False))
            if not self.checker.history[-1][1].ok:  # type: ignore[union-attr]
                return

    @rule(m=INDEX, s=INDEX, backup=st.one_of(st.none(), INDEX), purge=st.booleans(), q=INDEX)
    def failure_cycle(self, m: int, s: int, backup: int | None, purge: bool, q: int) -> None:
        """BACKUP CFSTRUCT (of some structure, or none), a structure fails, RECOVER CFSTRUCT, then a get
        (RECOVERY-001..007: what comes back, and in which order)."""
        name = self._structure(s)
        if backup is not None:
            self._do(o.Backup(self._qmgr(m), self._structure(backup)))
        self._do(o.FailStructure(name))
        self._do(o.Recover(name, purge))
        queue = self.model.queues[self._queue(q)]
        self._do(o.Get(queue.defn.qmgr or self._qmgr(m), queue.defn.name, False))

    @rule(m=INDEX, commit=st.booleans())
    def end_unit_of_work(self, m: int, commit: bool) -> None:
        self._do((o.Commit if commit else o.Backout)(self._qmgr(m)))

    def _set_perfmev(self, data: st.DataObject) -> None:
        self._do(o.SetPerfmev(self._qmgr(data.draw(INDEX)), data.draw(st.booleans())))

    def _start_or_stop(self, data: st.DataObject) -> None:
        name = self._qmgr(data.draw(INDEX))
        self._do(o.StartQmgr(name) if data.draw(st.booleans()) else o.StopQmgr(name))

    def _backup(self, data: st.DataObject) -> None:
        self._do(o.Backup(self._qmgr(data.draw(INDEX)), self._structure(data.draw(INDEX))))

    def _fail_structure(self, data: st.DataObject) -> None:
        self._do(o.FailStructure(self._structure(data.draw(INDEX))))

    def _recover(self, data: st.DataObject) -> None:
        self._do(o.Recover(self._structure(data.draw(INDEX)), data.draw(st.booleans())))

    def _alter_queue(self, data: st.DataObject) -> None:
        """ALTER QLOCAL: event switches and depth limits, some out of range (QDEPTH-014)."""
        self._do(o.AlterQueue(self._queue(data.draw(INDEX)), data.draw(ALTER_QUEUE_CHANGES)))

    def _alter_structure(self, data: st.DataObject) -> None:
        """ALTER CFSTRUCT with any subset of keywords, some out of range (OFFLOAD-006/007/011/013, CFLEVEL-009)."""
        self._do(o.AlterStructure(self._structure(data.draw(INDEX)), data.draw(ALTER_STRUCTURE_CHANGES)))

    def _define_queue(self, data: st.DataObject) -> None:
        """New queues (the 512th and 513th when the configuration is near the limit), some invalid."""
        record = {
            "name": f"N{len(self.model.queues)}",
            "cfstruct": self._structure(data.draw(INDEX)),
            "maxdepth": 5,
            **data.draw(DEFINE_QUEUE_FIELDS),
        }
        self._do(o.DefineQueue(record))

    def _define_structure(self, data: st.DataObject) -> None:
        """New structures (the 63rd and 64th near the limit), some invalid (CFLEVEL, OFFLOAD, names, ranges)."""
        fields = data.draw(DEFINE_MQ_STRUCTURE_FIELDS)
        self._do(o.DefineStructure({"name": f"NEW{len(self.model.structures)}", "size_kb": 6400, **fields}))


class CQSMachine(_Profiled):
    """The cqs profile: CQSPUT/CQSREAD, the alter, overflow mode and the 15-minute scan."""

    ADMIN = CQS_ADMIN
    CQS_LENGTHS = st.one_of(st.sampled_from((-1, -2, -3, -4)), st.integers(0, 40_000))

    @initialize(config=configs("cqs"))
    def open(self, config: Config) -> None:
        self._open(config)

    def _put(self, m: int, q: int, length: int) -> None:
        if length < 0:  # a boundary relative to LGMSGSZ: lg-1, lg, lg+1, 2lg+1
            lg = self.model.lgmsgsz
            length = (lg - 1, lg, lg + 1, 2 * lg + 1)[-length - 1]
        self._do(o.Put(self._qmgr(m), self._queue(q), length, tag=len(self.ops)))

    @rule(m=INDEX, q=INDEX, length=CQS_LENGTHS)
    def put(self, m: int, q: int, length: int) -> None:
        self._put(m, q, length)

    @rule(m=INDEX, q=INDEX, length=CQS_LENGTHS)
    def put_more(self, m: int, q: int, length: int) -> None:
        self._put(m, q, length)

    @rule(m=INDEX, q=INDEX)
    def get(self, m: int, q: int) -> None:
        self._do(o.Get(self._qmgr(m), self._queue(q)))

    @rule(m=INDEX, q=INDEX, length=CQS_LENGTHS)
    def fill(self, m: int, q: int, length: int) -> None:
        """Boundary targeting: put until CQS starts an alter (OVFLWMAX reached) or a put is refused."""
        for _ in range(MAX_FILL):
            if any(s.alter_pending or s.overflow_mode for s in self.model.structures.values()):
                return
            self._put(m, q, length)
            if not self.checker.history[-1][1].ok:  # type: ignore[union-attr]
                return

    @rule(m=INDEX, q=INDEX)
    def drain(self, m: int, q: int) -> None:
        """Read every data object of a queue, down to empty (what the overflow scan looks for)."""
        for _ in range(MAX_FILL):
            self._do(o.Get(self._qmgr(m), self._queue(q)))
            if not self.checker.history[-1][1].ok:  # type: ignore[union-attr]
                return

    @precondition(lambda self: any(s.alter_pending for s in self.model.structures.values()))
    @rule(success=st.booleans(), grow=st.sampled_from((0, 1, 100, 1000)))
    def alter_outcome(self, success: bool, grow: int) -> None:
        s = next(s for s in self.model.structures.values() if s.alter_pending)
        size = min(s.defn.size_kb, s.size_kb + grow)
        self._do(o.AlterOutcome(s.defn.name, success, size if success else None))

    @rule(seconds=st.sampled_from(b.CLOCK_STEPS))
    def advance_clock(self, seconds: int) -> None:
        self._do(o.AdvanceClock(seconds))

    def _unsolicited_alter_outcome(self, data: st.DataObject) -> None:
        """z/OS answering an alter CQS never started must be refused (CQS-003)."""
        s = self.model.structures[self._structure(data.draw(INDEX))]
        self._do(o.AlterOutcome(s.defn.name, data.draw(st.booleans()), None))

    def _set_overflow_exit(self, data: st.DataObject) -> None:
        vetoes = data.draw(st.one_of(st.none(), st.lists(INDEX, max_size=3)))
        names = None if vetoes is None else tuple(sorted({self._queue(v) for v in vetoes}))
        self._do(o.SetOverflowExit(names))

    def _define_structure(self, data: st.DataObject) -> None:
        """CQSSGxxx structure definitions, some invalid (CQS-002, CQS-016)."""
        fields = data.draw(DEFINE_CQS_STRUCTURE_FIELDS)
        self._do(o.DefineStructure({"name": f"PRIM{len(self.model.structures) + 1}", **fields}))


def machine_for(adapter_factory: Callable[[], Adapter], profile: str) -> type[_Base]:
    """A fresh machine class bound to ``adapter_factory`` with its own :class:`Recorder`."""
    base = MQMachine if profile == "mq" else CQSMachine
    return type(
        f"{base.__name__}For", (base,), {"adapter_factory": staticmethod(adapter_factory), "recorder": Recorder()}
    )
