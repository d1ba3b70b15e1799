"""Run a state machine against an adapter and return plain results (the seam the gate and tests use)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
from hypothesis import seed as hypothesis_seed
from hypothesis import settings as Settings
from hypothesis.stateful import run_state_machine_as_test

from adapters.protocol import Adapter
from conformance.shrink import minimise
from conformance.trace import TraceResult
from properties.machine import AdapterFailure, ConformanceFailure, machine_for
from properties.profiles import profile_settings


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


def run_machine(
    adapter_factory: Callable[[], Adapter],
    profile: str,
    *,
    hypothesis_profile: str = "ci",
    seed: int | None = None,
    settings: Settings | None = None,
) -> MachineRun:
    """Run the ``profile`` machine against fresh adapters from ``adapter_factory``.

    Hypothesis generates; on a failure the operation list is minimised through
    the adapter by :func:`conformance.shrink.minimise` rather than by Hypothesis's
    shrinker, which spent over 90% of the gate's time in measurements (and can
    run for minutes against a slow out-of-process implementation).
    """
    machine = machine_for(adapter_factory, profile)
    factory: Any = lambda: machine()  # noqa: E731 - a fresh factory object per run, for @seed
    if seed is not None:
        factory = hypothesis_seed(seed)(factory)
    start = time.perf_counter()
    error = None
    try:
        run_state_machine_as_test(factory, settings=settings or profile_settings(hypothesis_profile))
    except (ConformanceFailure, AdapterFailure):
        pass  # recorded by the machine's recorder
    except Exception:
        # Hypothesis may wrap our failure (a FlakyFailure group when it did not recur on
        # Hypothesis's own replay); the recorded trace is replayed below and judged on its own.
        if machine.recorder.last_failure is None:
            raise
    seconds = time.perf_counter() - start
    failure = None
    rec = machine.recorder
    if rec.last_failure is not None:
        config, ops, _ = rec.last_failure
        failure = minimise(adapter_factory, config, ops)
        if failure.verdict == "pass":  # the implementation is not deterministic: a failing verdict of its own
            error = f"flaky: a failing trace of {len(ops)} steps passed on replay"
    boundaries = {k: dict(v) for k, v in rec.boundaries.items()}
    rules = dict(Counter(rec.rules))
    return MachineRun(profile, seed, rec.cases, rec.steps, seconds, rules, boundaries, failure, error)
