"""Minimise a failing trace through the adapter (delta debugging over the operation list).

Used by the gate after Hypothesis finds a failure, and by campaign triage.  A
candidate counts as failing only if it fails the same way (same signature, or an
adapter fault for fault traces), so minimisation never slides to another bug.
The result is 1-minimal: removing any single operation makes it pass.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from adapters.protocol import Adapter
from conformance.runner import run_trace
from conformance.trace import TraceResult
from reference_model.config import Config


def _key(result: TraceResult) -> str | None:
    if result.divergence is not None:
        return result.divergence.signature()
    if result.fault is not None:
        return "fault"
    return None


def _kept(result: TraceResult) -> int:
    """How many leading operations matter: up to the divergence, or up to and including the faulting one."""
    if result.divergence is None and result.fault is not None and result.fault.step is not None:
        return result.fault.step + 1
    return result.steps_checked


def minimise(adapter_factory: Callable[[], Adapter], config: Config, ops: Sequence[Any], *,
             max_runs: int = 2000) -> TraceResult:
    """The shortest failing trace found (ddmin), replayed once more for its record.

    ``ops`` must fail against ``adapter_factory()``; the returned result fails the same way.
    """

    def run(candidate: Sequence[Any]) -> TraceResult:
        adapter = adapter_factory()
        try:
            return run_trace(adapter, config, candidate, batch=False)
        finally:
            adapter.close()

    best = run(ops)
    target = _key(best)
    if target is None:
        return best
    current = list(ops[: _kept(best)])  # nothing after the first failing step matters
    runs = 1
    granularity = 2
    while len(current) >= 2 and runs < max_runs:
        chunk = max(1, len(current) // granularity)
        reduced = False
        for start in range(0, len(current), chunk):
            candidate = current[:start] + current[start + chunk:]
            result = run(candidate)
            runs += 1
            if _key(result) == target:
                current, best, reduced = candidate[: _kept(result)], result, True
                granularity = max(granularity - 1, 2)
                break
        if not reduced:
            if chunk == 1:
                break
            granularity = min(len(current), granularity * 2)
    return best if len(best.ops) == len(current) else run(current)
