"""Run a state machine against an adapter and return plain results (the seam the gate and tests use)."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import attrs
from hypothesis import seed as hypothesis_seed
from hypothesis import settings as Settings
from hypothesis.errors import FlakyStrategyDefinition
from hypothesis.stateful import run_state_machine_as_test

from cfconform.adapters.protocol import Adapter
from cfconform.judge.shrink import minimise_shortest, replay_first
from cfconform.judge.trace import AdapterFault, TraceResult
from cfconform.reference_model.codec import config_to_record, op_to_record

from .base import SearchOver
from .directed import CASES as DIRECTED_CASES
from .directed import run_directed
from .machine import AdapterFailure, ConformanceFailure, machine_for
from .profiles import profile_settings
from .seeded import seed_alone


def _crash(config: Any, ops: list[Any], message: str) -> TraceResult:
    """The case the implementation crashed in, as it ran (a crash that a fresh replay does not
    repeat depends on the process's history: the trace is the reproducer, exit 3)."""
    records = tuple(op_to_record(op) for op in ops)
    note = f"{message} (the replay of these {len(ops)} steps did not crash: it depends on what ran before)"
    fault = AdapterFault(len(ops) - 1 if ops else None, note, False)
    return TraceResult(config_to_record(config), records, max(0, len(ops) - 1), {}, {}, fault=fault)


@attrs.frozen
class MachineRun:
    """What one gate run found: the shrunk failing trace (if any) and what was exercised."""

    profile: str
    seed: int | None
    cases: int
    steps: int
    seconds: float
    rules_exercised: dict[str, int]
    boundaries: dict[str, dict[str, int]]
    failure: TraceResult | None
    error: str | None = None
    #: Seconds from the start to the first failing case (the gate's verdict), if any failed.
    seconds_to_failure: float | None = None
    #: Test cases ended, not judged, per operation kind the implementation does not support.
    refused: dict[str, int] = attrs.field(factory=dict)
    #: Test cases ended, not judged, at a divergence blamed only on unclaimed rules (per rule).
    unclaimed: dict[str, int] = attrs.field(factory=dict)
    #: Test cases ended at a divergence blamed only on masked rules (already reported, deviations).
    masked: dict[str, int] = attrs.field(factory=dict)
    #: Forbidden configurations not opened, per reason (judge/opening.py).
    unopened: dict[str, int] = attrs.field(factory=dict)
    #: Configurations opened again with a refused keyword at its default, per keyword (judge.soften).
    softened: dict[str, int] = attrs.field(factory=dict)


log = logging.getLogger("properties.run")  # the name -v shows, kept from before the cfconform namespace

#: Fresh generation runs after Hypothesis finds generation inconsistent (see :func:`_generate`).
FLAKY_RESTARTS = 5


def _generate(machine: Any, factory: Any, settings: Settings, seed: int | None) -> None:
    """Hypothesis generation, restarted with a derived seed and the examples left when Hypothesis
    reports its data generation inconsistent.  The machine never generates again an operation the
    implementation refused (``Recorder.unsupported``, ``refused_shapes``): that knowledge grows
    during the run, so a case Hypothesis replays may take another path (FlakyStrategyDefinition).
    Restarting keeps what was learnt and loses only Hypothesis's own search tree."""
    rec = machine.recorder
    start = rec.cases
    for attempt in range(FLAKY_RESTARTS + 1):
        left = settings.max_examples - (rec.cases - start)
        if left <= 0:
            return
        run_settings = Settings(settings, max_examples=left) if attempt else settings
        run = factory if attempt == 0 or seed is None else hypothesis_seed(seed + 7919 * attempt)(lambda: machine())
        try:
            run_state_machine_as_test(run, settings=run_settings)
            return
        except FlakyStrategyDefinition:
            if rec.failures:
                raise
            log.info("generation inconsistent after %d cases (refusals learnt meanwhile): restarting", rec.cases)
    return


def run_machine(
    adapter_factory: Callable[[], Adapter],
    profile: str,
    *,
    hypothesis_profile: str = "ci",
    seed: int | None = None,
    settings: Settings | None = None,
    reproduce: bool = True,
    masked: frozenset[str] = frozenset(),
    directed: int | None = None,
    families: Iterable[str] | None = None,
    watch: Callable[[str, Any], None] | None = None,
) -> MachineRun:
    """Run the ``profile`` machine against fresh adapters from ``adapter_factory``.

    Hypothesis generates, from the seed alone (:func:`cfconform.properties.seeded.seed_alone`);
    after the first failure it goes on for a while collecting more failing cases
    (:data:`cfconform.properties.base.MORE_CASES`), minimised through the adapter by
    :func:`cfconform.judge.shrink.minimise_shortest` rather than by Hypothesis's
    shrinker, which spent over 90% of the gate's time in measurements (and can
    run for minutes against a slow out-of-process implementation).  The shortest
    minimised trace is the reported failure.  Divergences blamed only on ``masked`` rules end their
    case unjudged (the gate masks what it has already found, to explore on).
    """
    machine = machine_for(adapter_factory, profile, families)
    if watch is not None:  # progress: the recorder's counts are read while the machine runs
        watch(profile, machine.recorder)
    if directed is None:  # explicit settings (tests) run generation alone unless told otherwise
        directed = DIRECTED_CASES.get(hypothesis_profile, 0) if settings is None else 0
    machine.recorder.masked = masked
    machine.recorder.look_on = reproduce  # the verdict alone: stop at the first failing case
    factory: Any = lambda: machine()  # noqa: E731 - a fresh factory object per run, for @seed
    if seed is not None:
        factory = hypothesis_seed(seed)(factory)
    start = time.perf_counter()
    error = None
    try:
        run_directed(machine, profile, directed, seed, families)
        with seed_alone():
            if not (machine.recorder.failures and not machine.recorder.keep_looking()):
                _generate(machine, factory, settings or profile_settings(hypothesis_profile), seed)
    except (ConformanceFailure, AdapterFailure, SearchOver):
        pass  # recorded by the machine's recorder
    except Exception:
        # Hypothesis may wrap our failure (a FlakyFailure group when it did not recur on
        # Hypothesis's own replay); the recorded trace is replayed below and judged on its own.
        if not machine.recorder.failures:
            raise
    seconds = time.perf_counter() - start
    rec = machine.recorder
    to_failure = None if rec.first_failure_at is None else rec.first_failure_at - start
    failure = (
        minimise_shortest(adapter_factory, rec.failures) if reproduce else replay_first(adapter_factory, rec.failures)
    )
    rec.failures.clear()  # Hypothesis keeps machine classes (and so their recorders) for the process's life
    if failure is not None and failure.verdict == "pass" and rec.crash is not None:
        failure = _crash(*rec.crash)  # it crashed, then not on replay: still an implementation error
    elif failure is not None and failure.verdict == "pass":  # not deterministic: a failing verdict of its own
        error = f"flaky: a failing trace of {len(failure.ops)} steps passed on replay"
    rec.crash = None
    boundaries = {k: dict(v) for k, v in rec.boundaries.items()}
    rules = dict(Counter(rec.rules))
    return MachineRun(
        profile, seed, rec.cases, rec.steps, seconds, rules, boundaries, failure, error, to_failure,
        dict(rec.refused), dict(rec.unclaimed), dict(rec.masked_halts), dict(rec.unopened), dict(rec.softened),
    )  # fmt: skip
