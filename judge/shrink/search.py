"""The search primitives every strategy shares: a failure's signature, one replay through a fresh
adapter, a variant tried with windows of operations left out, and the measure every accepted step
lowers (delta debugging itself is the strategy :mod:`.ddmin`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cfconform.adapters.protocol import Adapter
from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config

from ..runner import run_trace
from ..trace import TraceResult
from .common import qmgrs_named


def signature(result: TraceResult) -> str | None:
    """A failure's signature (rules, field, operation kind), "fault" for an adapter fault, else None."""
    if result.divergence is not None:
        return result.divergence.signature()
    if result.fault is not None:
        return "fault"
    return None


def kept(result: TraceResult) -> int:
    """How many leading operations matter: up to the divergence, or up to and including the faulting one."""
    if result.divergence is None and result.fault is not None and result.fault.step is not None:
        return result.fault.step + 1
    return result.steps_checked


def runner(adapter_factory: Callable[[], Adapter]) -> Callable[[Config, Sequence[Any]], TraceResult]:
    """One replay of a candidate trace through a fresh adapter, closed afterwards."""

    def run(config: Config, candidate: Sequence[Any]) -> TraceResult:
        adapter = adapter_factory()
        try:
            return run_trace(adapter, config, candidate, batch=False)
        finally:
            adapter.close()

    return run


#: Longest trace for which a smaller configuration is also tried without a window of operations.
WINDOW_LIMIT = 16
#: Chunks the coarse delta debugging after a variant of a trace longer than that goes down to.
COARSE_CHUNKS = 8
#: Windows tried per variant, widest first: most variants fail to reproduce under any window, and
#: trying every one of a 16-step trace's 120 windows would spend the budget on a few variants.
WINDOW_TRIES = 30


def failing_under(
    run: Callable[[Config, Sequence[Any]], TraceResult],
    config: Config,
    ops: list[Any],
    accepts: Callable[[str | None], bool],
    budget: list[int],
    *,
    windows: bool = True,
) -> tuple[list[Any], TraceResult | None]:
    """``ops`` or (``windows``) ``ops`` without one contiguous window (largest first) whose failure
    under ``config`` ``accepts``.

    A smaller structure reaches its thresholds in fewer puts, so the operations that
    reached them on the larger one overshoot (the trace passes, or fails another way);
    dropping a window of them lets delta debugging continue from the smaller structure.
    """
    result = run(config, ops)
    budget[0] -= 1
    if accepts(signature(result)):
        return ops, result
    if not windows or len(ops) > WINDOW_LIMIT:
        return ops, None
    tries = WINDOW_TRIES
    for width in range(len(ops) - 1, 0, -1):
        for begin in range(len(ops) - width + 1):
            if budget[0] <= 0 or tries <= 0:
                return ops, None
            tries -= 1
            candidate = ops[:begin] + ops[begin + width :]
            result = run(config, candidate)
            budget[0] -= 1
            if accepts(signature(result)):
                return candidate, result
    return ops, None


def measure(config: Config, ops: Sequence[Any]) -> tuple[int, int, int, int, int, int, int]:
    """What minimisation lowers: the trace's length, then its queues, then the queue managers that
    put or get, then sizes (structure SIZE and INITSIZE, MAXDEPTH, SETXCF ALTER sizes), then alter
    outcomes with a size, then message lengths, then OFFLDnSZ (a rule any length meets lets the
    puts be shorter next).  Every accepted variant lowers it, so the search ends."""
    sizes = sum(s.size_kb + s.effective_initsize_kb for s in config.structures)
    sizes += sum(q.maxdepth for q in config.queues)
    sizes += sum(op.size_kb for op in ops if isinstance(op, o.SetxcfAlter))
    sized_outcomes = sum(1 for op in ops if isinstance(op, o.AlterOutcome) and op.size_kb is not None)
    lengths = sum(op.length for op in ops if isinstance(op, o.Put))
    offload_sizes = sum(s.offld1sz + s.offld2sz + s.offld3sz for s in config.structures)
    return len(ops), len(config.queues), qmgrs_named(ops), sizes, sized_outcomes, lengths, offload_sizes
