"""The plumbing of the gate's state machines: one adapter, one checker, every step judged.

Each Hypothesis test case draws a configuration, opens the adapter (reset by
``open``; see :mod:`cfconform.conformance.reuse`) and applies operations one at a time;
every step is judged by :class:`cfconform.judge.checker.Checker` (the one checker).
Rule arguments are indices into the configuration's queues, queue managers and
structures, so they shrink well; the operations actually applied are recorded
for the reproducer.  The profile machines are in :mod:`cfconform.properties.mq_machine`
and :mod:`cfconform.properties.cqs_machine`.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
from hypothesis import event, reject
from hypothesis import strategies as st
from hypothesis.errors import UnsatisfiedAssumption
from hypothesis.stateful import RuleBasedStateMachine

from cfconform.adapters.protocol import Adapter, AdapterError, NotSupported, is_refusal
from cfconform.judge.checker import Checker, StepVerdict
from cfconform.judge.claims import any_claimed
from cfconform.judge.opening import judge_open
from cfconform.judge.refusals import queue_documented
from cfconform.judge.soften import open_softened
from cfconform.reference_model import operations as o
from cfconform.reference_model.accounting import pool_totals
from cfconform.reference_model.config import Accounting, Config
from cfconform.reference_model.errors import ConfigurationError
from cfconform.reference_model.model import Model
from cfconform.reference_model.readings import AMBIGUITIES, Readings
from cfconform.reference_model.state import Structure

from .coverage import probes

log = logging.getLogger("cfconform.gate")

#: Indices into the configuration's names; -1 is the last (the 32nd queue manager, the newest structure).
INDEX = st.integers(-1, 7)
#: The top index, taken as the last name too (-1 is the other way there).
INDEX_LAST = 7
#: Puts (or gets) at most in one boundary-targeting rule.
MAX_FILL = 24
#: Puts at most in a fill toward a structure threshold the implementation's usage says is further
#: away than MAX_FILL puts (its accounting is its own: a structure may hold many more messages).
BIG_FILL = 400
#: After the first conformance failure, generation goes on for up to this many more test cases,
#: collecting up to ``MORE_FAILURES`` more failing ones: the gate minimises each and reports the
#: shortest (the first failure Hypothesis meets is often a long way round to the same fault).
MORE_CASES = 100
MORE_FAILURES = 4
#: SETXCF ALTER sizes relative to INITSIZE, SIZE and the current size, and 0 (CAPACITY-004..008).
SETXCF_WHERE = (
    "initsize-1", "initsize", "size-1", "size", "size+1", "current-1", "current-2", "in use", "in use-1", "zero"
)  # fmt: skip
SETXCF_TARGETS = st.sampled_from(SETXCF_WHERE)


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


class SearchOver(Exception):
    """Ends generation ``MORE_CASES`` cases after the first failure (the failures are recorded)."""


#: A failing case: its configuration and operations (not the exception: its traceback would keep
#: every frame of the case alive for as long as Hypothesis keeps the machine class).
Failure = tuple[Config, list[Any]]


#: What identifies a refused ALTER (see :func:`_shape`).
Shape = tuple[str, frozenset[str], tuple[Any, ...]]


class Recorder:
    """What one machine class saw across all its test cases: coverage and the failing cases."""

    def __init__(self) -> None:
        self.rules: Counter[str] = Counter()
        self.boundaries: dict[str, Counter[str]] = {}
        self.steps = 0
        self.cases = 0
        self.failures: list[Failure] = []
        #: Test cases ended, not judged, at an operation kind the implementation does not support
        #: (NotSupported), and at divergences blamed only on rules it does not claim.
        self.refused: Counter[str] = Counter()
        self.unclaimed: Counter[str] = Counter()
        #: The readings the last judged case was found to follow: the next case tries them first
        #: (an implementation follows one reading per ambiguity, so searching again is waste).
        self.readings: Readings | None = None
        #: Operation kinds the implementation answered "not supported": never generated again.
        self.unsupported: set[str] = set()
        #: Commands it refused where no sentence requires them to succeed, by kind and the keywords
        #: they changed (an ALTER of FULLTHRESHOLD, say): not generated again either.
        self.refused_shapes: set[Shape] = set()
        #: Rules masked while exploring on after a failure (and known deviations): a divergence
        #: blamed on them alone ends the case unjudged, like one on an unclaimed rule.
        self.masked: frozenset[str] = frozenset()
        self.masked_halts: Counter[str] = Counter()
        #: Forbidden configurations not judged, per reason (an adapter that takes only valid ones).
        self.unopened: Counter[str] = Counter()
        #: Configurations opened again after a refusal naming a keyword, set to its default, per
        #: keyword (judge.soften): the case is judged on the configuration that opened.
        self.softened: Counter[str] = Counter()
        self.first_failure_at: float | None = None  # time.perf_counter() when the first case failed
        #: The first case the implementation crashed in (could not answer), and what it said.
        self.crash: tuple[Config, list[Any], str] | None = None
        self._first_failing_case: int | None = None
        #: Whether generation goes on after the first failure (False: the verdict is enough).
        self.look_on = True

    def record_failure(self, failure: Failure) -> None:
        if self._first_failing_case is None:
            self._first_failing_case = self.cases
            self.first_failure_at = time.perf_counter()
        self.failures.append(failure)

    def _cases_since_first_failure(self) -> int:
        return 0 if self._first_failing_case is None else self.cases - self._first_failing_case

    def keep_looking(self) -> bool:
        """Whether generation goes on after the failure just recorded (see ``MORE_CASES``)."""
        return self.look_on and len(self.failures) <= MORE_FAILURES and self._cases_since_first_failure() < MORE_CASES

    def search_over(self) -> bool:
        """Whether ``MORE_CASES`` cases have been generated since the first failure."""
        return self._cases_since_first_failure() >= MORE_CASES


def smallest_holding(s: Structure, acct: Accounting) -> int:
    """The smallest size (KB) whose pools hold what ``s`` has in use: the CAPACITY-006 boundary."""
    kb = acct.fixed_kb
    used = (s.pools.entries_used, s.pools.elements_used)
    while kb < s.defn.size_kb:
        entries, elements = pool_totals(kb, s.defn.ratio, acct)
        if entries >= used[0] and elements >= used[1]:
            break
        kb += 1
    return kb


def _shape(op: Any, model: Any) -> Shape | None:
    """What identifies an ALTER the implementation refused: its kind and the keywords it changes, and
    for a CFLEVEL change the level it goes from and to (refusing 5 to 1, which the documents leave
    open, says nothing of 4 to 3, which they decide: CFLEVEL-009), and for an ALTER QLOCAL the keywords
    given values the documents do not state (judge.refusals.queue_documented)."""
    changes = getattr(op, "changes", None)
    if changes is None:
        return None
    values = dict(changes)
    detail: tuple[Any, ...] = ()
    if op.KIND == "alter_structure" and "cflevel" in values:
        s = model.structures.get(op.name)
        detail = (None if s is None else s.defn.cflevel, values["cflevel"])
    if op.KIND == "alter_queue":  # (refusing MAXDEPTH(0), which no sentence bounds, says nothing of 5000)
        detail = tuple(sorted(k for k, v in values.items() if not queue_documented(k, v)))
    return (op.KIND, frozenset(values), detail)


class MachineBase(RuleBasedStateMachine):
    adapter_factory: Callable[[], Adapter]
    recorder: Recorder

    def __init__(self) -> None:
        super().__init__()
        self.adapter: Adapter | None = None
        self.config: Config | None = None
        self.ops: list[Any] = []
        self.checker: Checker | None = None
        self.driver: Model | None = None
        self.failed = False
        self.halted = False  # the case ended, not judged (see Recorder.refused and .unclaimed)
        self.skipped = False  # the last operation was not applied (a kind the implementation refused)
        self.directed = False  # run by cfconform.properties.directed, outside a Hypothesis test case

    # -- plumbing -----------------------------------------------------------------
    def _open(self, config: Config) -> None:
        if self.recorder.search_over():
            raise SearchOver()
        self.config = config
        self.recorder.cases += 1
        self.adapter = type(self).adapter_factory()
        try:
            caps = self.adapter.capabilities()
            self.config, keywords = open_softened(self.adapter, config)  # (judge.soften)
            self.recorder.softened.update(keywords)
            self.checker = Checker(self.config, caps, self.recorder.readings)
            declared = {k: v for k, v in caps.readings.items() if v != "unknown" and k in AMBIGUITIES}
            self.driver = Model(attrs.evolve(self.config, readings=Readings(**declared)))
        except Exception as err:  # an implementation that cannot even open is a verdict, not our crash
            if is_refusal(err) or isinstance(err, ConfigurationError):
                # a configuration no sentence requires it to accept: dropped, never a verdict
                self.recorder.refused["open"] += 1
                self.halted = True
                self._drop()
            self._fail(AdapterFailure(f"open: {type(err).__name__}: {err}"))

    def open_forbidden(self, record: dict[str, Any] | None) -> None:
        """A directed case of its own: open a configuration a sentence forbids (:mod:`.forbidden`);
        the judge is :func:`cfconform.judge.opening.judge_open`.  ``None``: nothing to open."""
        if record is None:
            return
        if self.recorder.search_over():
            raise SearchOver()
        self.recorder.cases += 1
        adapter = type(self).adapter_factory()
        try:
            result = judge_open(adapter, record)
        finally:
            adapter.close()
        self.recorder.rules.update(result.rules_exercised)
        if result.unjudged is not None:
            self.recorder.unopened[result.unjudged] += 1
        elif result.verdict in ("fail", "error"):
            self.failed = True
            self.recorder.record_failure((record, []))  # type: ignore[arg-type]

    @property
    def model(self) -> Model:
        """The model generation steers by: the case's own, on the declared (else default) readings,
        taking the implementation's reports as the checker does.  It is not the checker's current
        candidate, whose readings come partly from earlier cases: generation must depend on the
        case's draws and the implementation's answers alone (Hypothesis replays cases)."""
        return self.driver  # type: ignore[return-value]

    def _do(self, op: Any) -> None:
        self.skipped = False
        if self.halted:
            return
        shape = _shape(op, self.model)
        if op.KIND in self.recorder.unsupported or shape in self.recorder.refused_shapes:
            self.skipped = True  # refused before: never generated for it again
            return
        reached = probes(self.model, op)
        self.ops.append(op)
        try:
            observed = self.adapter.apply(op)  # type: ignore[union-attr]
        except AdapterError as err:
            if is_refusal(err):
                if isinstance(err, NotSupported):
                    self.recorder.unsupported.add(op.KIND)
                return self._halt(self.recorder.refused, (op.KIND,))
            self._fail(AdapterFailure(f"step {len(self.ops) - 1} ({op.KIND}): {err}"))
        except Exception as err:  # an in-process implementation crashing is a verdict
            self._fail(AdapterFailure(f"step {len(self.ops) - 1} ({op.KIND}): {type(err).__name__}: {err}"))
        for rule_id, where in reached:
            self.recorder.boundaries.setdefault(rule_id, Counter())[where] += 1
        judged = len(self.checker.history)  # type: ignore[union-attr]
        verdict = self.checker.check(op, observed)  # type: ignore[union-attr]
        if len(self.checker.history) > judged:  # type: ignore[union-attr]
            with contextlib.suppress(ConfigurationError):  # the driver only steers generation
                self.driver.step(op, None, self.checker.history[-1][2])  # type: ignore[union-attr]
        self.recorder.steps += 1
        exercised = verdict.rules if verdict.ok else verdict.expected.rules
        self.recorder.rules.update(exercised)
        if not self.directed:
            for rule_id in exercised:
                event(rule_id)
        if not verdict.ok:
            if verdict.refused:  # a command it may refuse: not supported, never a verdict
                if shape is not None:
                    self.recorder.refused_shapes.add(shape)
                return self._halt(self.recorder.refused, (op.KIND,))
            caps = self.checker.caps  # type: ignore[union-attr]
            if not any_claimed(verdict.rules, caps):
                return self._halt(self.recorder.unclaimed, verdict.rules)
            if not any_claimed(verdict.rules, caps, self.recorder.masked):  # already reported, or a deviation
                return self._halt(self.recorder.masked_halts, verdict.rules)
            self._fail(ConformanceFailure(verdict))

    def _halt(self, counter: Counter[str], keys: tuple[str, ...]) -> None:
        """End this case without a verdict: later operations are not applied, nor judged."""
        counter.update(keys)
        self.halted = True

    def _last_ok(self) -> bool:
        """Whether the step just taken was judged a match (boundary-targeting loops stop otherwise)."""
        return not (self.halted or self.skipped) and self.checker.history[-1][1].ok  # type: ignore[union-attr]

    def _fail(self, err: BaseException) -> None:
        """Record this case's failure; end the run, or (a conformance failure while the recorder
        keeps looking) set the case aside as invalid so that Hypothesis generates on."""
        self.failed = True
        self.recorder.record_failure((self.config, list(self.ops)))  # type: ignore[arg-type]
        if isinstance(err, AdapterFailure) and self.recorder.crash is None:
            self.recorder.crash = (self.config, list(self.ops), str(err))  # type: ignore[assignment]
        # a one-step failure cannot get shorter: no reason to look on
        if isinstance(err, ConformanceFailure) and len(self.ops) > 1 and self.recorder.keep_looking():
            self._drop()
        raise err

    def usage(self, structure: str | None) -> float | None:
        """The implementation's usage of ``structure`` (the larger of its entry and element
        percentages) as it last reported it, if that report is still current; else None.  Fills
        steer by it, so that they reach a threshold under the implementation's own accounting
        (which the documents leave to it) and not only under the model's."""
        pools = self.checker.view.get(structure) if self.checker is not None and structure else None
        if pools is None or pools[1] <= 0 or pools[3] <= 0:
            return None
        return max(100.0 * pools[0] / pools[1], 100.0 * pools[2] / pools[3])

    def _drop(self) -> None:
        """Set this case aside, not judged (Hypothesis's ``reject``; a directed case just ends)."""
        if self.directed:
            raise UnsatisfiedAssumption()
        reject()

    def _pick(self, names: list[str], index: int) -> str:
        return names[index % len(names)]

    def _qmgr(self, i: int) -> str:
        """The queue manager at index ``i``; twice as often the last (the 32nd: TOPOLOGY-006)."""
        names = list(self.model.qmgrs)
        return names[-1] if i == INDEX_LAST else self._pick(names, i)

    def _queue(self, i: int) -> str:
        return self._pick(list(self.model.queues), i)

    def _structure(self, i: int) -> str:
        return self._pick(list(self.model.structures), i)

    def teardown(self) -> None:
        if log.isEnabledFor(logging.INFO):  # -v: one line per case
            end = "failed" if self.failed else "ended, not judged" if self.halted else "passed"
            log.info("case %d: %d operations, %s", self.recorder.cases, len(self.ops), end)
        checker = self.checker
        if checker is not None and checker.failed is None and not self.failed and checker.alive:
            self.recorder.readings = checker.alive[0].readings
        if self.adapter is not None:
            self.adapter.close()


class ProfiledMachine(MachineBase):
    """Operations shared by both profiles; each test case ends with an ``inspect`` (state-only faults)."""

    def teardown(self) -> None:
        try:
            if self.checker is not None and self.checker.failed is None and not (self.failed or self.halted):
                self._do(o.Inspect())
        finally:
            super().teardown()

    def _inspect(self, data: st.DataObject) -> None:
        self._do(o.Inspect())

    def _setxcf_alter(self, data: st.DataObject) -> None:
        """SETXCF START,ALTER around INITSIZE, SIZE and the current size (CAPACITY-004..008)."""
        self._setxcf_to(data.draw(INDEX), data.draw(SETXCF_TARGETS))

    def _setxcf_to(self, index: int, which: str) -> None:
        s = self.model.structures[self._structure(index)]
        d = s.defn
        if which == "zero":
            size = 0
        elif which.startswith("in use"):
            size = smallest_holding(s, self.model.acct) - (1 if which.endswith("-1") else 0)
        elif which.startswith("current"):
            size = s.size_kb - int(which[-1])
        else:
            base = d.effective_initsize_kb if which.startswith("initsize") else d.size_kb
            size = base + (-1 if which.endswith("-1") else 1 if which.endswith("+1") else 0)
        self._do(o.SetxcfAlter(d.name, size))
