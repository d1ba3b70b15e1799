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
from reference_model.config import Config, QueueDef, StructureDef
from reference_model.model import Model

INDEX = st.integers(0, 7)


class ConformanceFailure(AssertionError):
    """The implementation departed from every admissible reading of the rules."""

    def __init__(self, verdict: StepVerdict) -> None:
        self.verdict = verdict
        d = verdict.diff
        super().__init__(f"step {verdict.index}: {d.field} expected {d.expected!r} observed {d.observed!r} "
                         f"[{', '.join(verdict.rules)}]")


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

    # -- rules shared by both profiles ----------------------------------------------
    @rule()
    def inspect(self) -> None:
        self._do(o.Inspect())

    @rule(s=INDEX, which=st.sampled_from(("initsize-1", "initsize", "size-1", "size", "size+1")))
    def setxcf_alter(self, s: int, which: str) -> None:
        d = self.model.structures[self._structure(s)].defn
        base = d.effective_initsize_kb if which.startswith("initsize") else d.size_kb
        self._do(o.SetxcfAlter(d.name, base + (-1 if which.endswith("-1") else 1 if which.endswith("+1") else 0)))


class MQMachine(_Base):
    """The mq profile: MQPUT/MQGET, units of work, events, offload, backup and recovery."""

    @initialize(config=configs("mq"))
    def open(self, config: Config) -> None:
        self._open(config)

    @rule(m=INDEX, q=INDEX, length=lengths(), persistent=st.booleans(), syncpoint=st.booleans())
    def put(self, m: int, q: int, length: int, persistent: bool, syncpoint: bool) -> None:
        queue = self.model.queues[self._queue(q)]
        qmgr = queue.defn.qmgr or self._qmgr(m)
        self._do(o.Put(qmgr, queue.defn.name, length, persistent, syncpoint, len(self.ops)))

    @rule(m=INDEX, q=INDEX, syncpoint=st.booleans())
    def get(self, m: int, q: int, syncpoint: bool) -> None:
        queue = self.model.queues[self._queue(q)]
        self._do(o.Get(queue.defn.qmgr or self._qmgr(m), queue.defn.name, syncpoint))

    @rule(m=INDEX)
    def commit(self, m: int) -> None:
        self._do(o.Commit(self._qmgr(m)))

    @rule(m=INDEX)
    def backout(self, m: int) -> None:
        self._do(o.Backout(self._qmgr(m)))

    @rule(m=INDEX, enabled=st.booleans())
    def set_perfmev(self, m: int, enabled: bool) -> None:
        self._do(o.SetPerfmev(self._qmgr(m), enabled))

    @rule(m=INDEX, start=st.booleans())
    def start_or_stop(self, m: int, start: bool) -> None:
        name = self._qmgr(m)
        self._do(o.StartQmgr(name) if start else o.StopQmgr(name))

    @rule(m=INDEX, s=INDEX)
    def backup(self, m: int, s: int) -> None:
        self._do(o.Backup(self._qmgr(m), self._structure(s)))

    @rule(s=INDEX)
    def fail_structure(self, s: int) -> None:
        self._do(o.FailStructure(self._structure(s)))

    @rule(s=INDEX, purge=st.booleans())
    def recover(self, s: int, purge: bool) -> None:
        self._do(o.Recover(self._structure(s), purge))

    @rule(q=INDEX, hi=st.booleans(), lo=st.booleans(), full=st.booleans())
    def alter_queue(self, q: int, hi: bool, lo: bool, full: bool) -> None:
        self._do(o.AlterQueue(self._queue(q), {"qdphiev": hi, "qdploev": lo, "qdpmaxev": full}))

    @rule(s=INDEX, changes=st.fixed_dictionaries({}, optional={
        "cflevel": st.integers(1, 5), "recover": st.booleans(),
        "offload": st.sampled_from((None, "SMDS", "DB2", "DISK")), "fullthreshold": st.sampled_from((0, 80, 85, 101)),
        **{f"offld{n}th": st.sampled_from((*b.THRESHOLDS, -1, 101)) for n in (1, 2, 3)},
        **{f"offld{n}sz": st.sampled_from((*b.OFFLOAD_SIZES, 65536, 65537)) for n in (1, 2, 3)},
    }))
    def alter_structure(self, s: int, changes: dict[str, Any]) -> None:
        """ALTER CFSTRUCT with any subset of keywords, some out of range (OFFLOAD-006/007/011/013, CFLEVEL-009)."""
        self._do(o.AlterStructure(self._structure(s), changes))

    @rule(s=INDEX, fields=st.fixed_dictionaries({}, optional={
        "qdepthhi": st.sampled_from((-1, 0, 80, 100, 101)), "maxdepth": st.sampled_from((-1, 0, 5)),
        "maxmsgl": st.sampled_from((-1, 64 * 1024, 104_857_601)), "name": st.sampled_from(("bad name!", "Q0")),
    }))
    def define_queue(self, s: int, fields: dict[str, Any]) -> None:
        """New queues (the 512th and 513th when the configuration is near the limit), some invalid."""
        record = {"name": f"N{len(self.model.queues)}", "cfstruct": self._structure(s), "maxdepth": 5, **fields}
        self._do(o.DefineQueue(record))

    @rule(fields=st.fixed_dictionaries({}, optional={
        "name": st.sampled_from(("CSQ_ADMIN", "lower", "TOOLONGNAME12X", "9START", "CSQSYSAPPL")),
        "cflevel": st.integers(0, 6), "recover": st.booleans(), "offload": st.sampled_from(("SMDS", "DB2", "X")),
        "offld1th": st.sampled_from((-1, 0, 100, 101)), "offld2sz": st.sampled_from((-1, 0, 65536, 65537)),
        "fullthreshold": st.sampled_from((-1, 0, 85, 101)), "size_kb": st.sampled_from((-1, 0, 6400)),
        "initsize_kb": st.sampled_from((6300, 7000)),
    }))
    def define_structure(self, fields: dict[str, Any]) -> None:
        """New structures (the 63rd and 64th near the limit), some invalid (CFLEVEL, OFFLOAD, names, ranges)."""
        self._do(o.DefineStructure({"name": f"NEW{len(self.model.structures)}", "size_kb": 6400, **fields}))


class CQSMachine(_Base):
    """The cqs profile: CQSPUT/CQSREAD, the alter, overflow mode and the 15-minute scan."""

    @initialize(config=configs("cqs"))
    def open(self, config: Config) -> None:
        self._open(config)

    @rule(m=INDEX, q=INDEX, length=st.one_of(st.sampled_from((-1, -2, -3, -4)), st.integers(0, 40_000)))
    def put(self, m: int, q: int, length: int) -> None:
        if length < 0:  # a boundary relative to LGMSGSZ: lg-1, lg, lg+1, 2lg+1
            lg = self.model.lgmsgsz
            length = (lg - 1, lg, lg + 1, 2 * lg + 1)[-length - 1]
        self._do(o.Put(self._qmgr(m), self._queue(q), length, tag=len(self.ops)))

    @rule(m=INDEX, q=INDEX)
    def get(self, m: int, q: int) -> None:
        self._do(o.Get(self._qmgr(m), self._queue(q)))

    @precondition(lambda self: any(s.alter_pending for s in self.model.structures.values()))
    @rule(success=st.booleans(), grow=st.sampled_from((0, 100, 1000)))
    def alter_outcome(self, success: bool, grow: int) -> None:
        s = next(s for s in self.model.structures.values() if s.alter_pending)
        size = min(s.defn.size_kb, s.size_kb + grow)
        self._do(o.AlterOutcome(s.defn.name, success, size if success else None))

    @rule(vetoes=st.one_of(st.none(), st.lists(INDEX, max_size=3)))
    def set_overflow_exit(self, vetoes: list[int] | None) -> None:
        names = None if vetoes is None else tuple(sorted({self._queue(v) for v in vetoes}))
        self._do(o.SetOverflowExit(names))

    @rule(seconds=st.sampled_from(b.CLOCK_STEPS))
    def advance_clock(self, seconds: int) -> None:
        self._do(o.AdvanceClock(seconds))

    @rule(fields=st.fixed_dictionaries({}, optional={
        "resource": st.booleans(), "ovflwmax": st.sampled_from((-1, 0, 70, 100, 101)),
        "ovflwstr": st.sampled_from(("OVFL2", "PRIM1", "bad")), "size_kb": st.sampled_from((0, 6200)),
    }))
    def define_structure(self, fields: dict[str, Any]) -> None:
        """CQSSGxxx structure definitions, some invalid (CQS-002, CQS-016)."""
        self._do(o.DefineStructure({"name": f"PRIM{len(self.model.structures) + 1}", **fields}))


def machine_for(adapter_factory: Callable[[], Adapter], profile: str) -> type[_Base]:
    """A fresh machine class bound to ``adapter_factory`` with its own :class:`Recorder`."""
    base = MQMachine if profile == "mq" else CQSMachine
    return type(f"{base.__name__}For", (base,), {"adapter_factory": staticmethod(adapter_factory),
                                                  "recorder": Recorder()})
