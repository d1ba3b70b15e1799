"""Run one trace through an adapter and the checker (used by the gate, campaigns and replays)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any

from cfconform.adapters.protocol import Adapter, AdapterError, Capabilities, is_refusal
from cfconform.reference_model.codec import op_to_record
from cfconform.reference_model.config import Config
from cfconform.reference_model.errors import ConfigurationError
from cfconform.reference_model.outcomes import Outcome

from .checker import Checker
from .claims import any_claimed
from .opening import judge_open
from .soften import open_softened
from .trace import AdapterFault, TraceResult, divergence_from


def _observe(adapter: Adapter, ops: Sequence[Any], batch: bool) -> tuple[list[Outcome], AdapterFault | None]:
    """Apply ``ops``; a crash, hang or protocol breach becomes an :class:`AdapterFault`, never an exception."""
    outcomes: list[Outcome] = []
    try:
        if batch:
            outcomes = list(adapter.apply_batch(ops))
        else:
            for op in ops:
                outcomes.append(adapter.apply(op))
    except AdapterError as err:
        if batch and is_refusal(err):  # the outcomes before the refused operation still count
            outcomes = list(getattr(err, "outcomes", None) or [])
        # a batch error names its position in the batch; one operation's error, that operation
        step = err.step if batch and err.step is not None else len(outcomes)
        return outcomes, AdapterFault(step, str(err), err.definite, refused=is_refusal(err))
    except Exception as err:  # an in-process implementation that crashes is a verdict, not our crash
        return outcomes, AdapterFault(len(outcomes), f"{type(err).__name__}: {err}", False)
    if len(outcomes) != len(ops):
        return outcomes, AdapterFault(len(outcomes), f"{len(outcomes)} outcomes for {len(ops)} operations", False)
    return outcomes, None


def _count(judged: list[tuple[str, ...]]) -> dict[str, int]:
    """How often each rule was exercised, in the order first exercised (one count, not one a step)."""
    return dict(Counter(chain.from_iterable(judged)))


def run_trace(
    adapter: Adapter, config: Config, ops: Sequence[Any], *, caps: Capabilities | None = None, batch: bool = True
) -> TraceResult:
    """Open ``adapter`` with ``config``, apply ``ops`` and judge every step.

    ``config`` given as a record is a configuration a sentence forbids (:mod:`.opening`): only
    the ``open`` is judged.

    With ``batch`` the operations go to the adapter in one call (one round trip
    for out-of-process adapters); judging still stops at the first divergence.
    """
    if isinstance(config, Mapping):  # a configuration a sentence forbids, as its record
        return judge_open(adapter, config, ops, caps)
    caps = caps or adapter.capabilities()
    try:
        config, _ = open_softened(adapter, config)  # (a keyword it named refused: at its default)
    except Exception as err:
        readings = Checker(config, caps).readings_followed()
        if is_refusal(err) or isinstance(err, ConfigurationError):  # its to refuse: not supported
            unjudged = f"open: not supported: {err}"
            return TraceResult(config, ops, 0, {}, readings, unjudged=unjudged)
        fault = AdapterFault(None, f"open failed: {type(err).__name__}: {err}", isinstance(err, AdapterError))
        return TraceResult(config, ops, 0, {}, readings, fault=fault)
    checker = Checker(config, caps)
    outcomes, fault = _observe(adapter, ops, batch)
    judged: list[tuple[str, ...]] = []  # each step's rules, counted once the trace ends (_count)
    divergence, unjudged = None, None
    if fault is not None and fault.refused:
        unjudged, fault = f"step {fault.step}: not supported: {fault.message}", None
    for index, (op, observed) in enumerate(zip(ops, outcomes, strict=False)):
        try:
            verdict = checker.check(op, observed)
        except ConfigurationError as err:  # e.g. a shrunk trace naming a structure it no longer defines
            return TraceResult(
                config,
                ops,
                index,
                _count(judged),
                checker.readings_followed(),
                invalid=f"step {index}: {err}",
            )
        judged.append(verdict.rules if verdict.ok else verdict.expected.rules)
        if not verdict.ok:
            if verdict.refused:
                unjudged = f"step {index}: not supported: {op_to_record(op)['op']} refused"
                outcomes, fault = outcomes[:index], None
                break
            if not any_claimed(verdict.rules, caps):  # ends the trace here, unjudged
                unjudged = f"step {index}: diverged on unclaimed rules {', '.join(verdict.rules)}"
                outcomes, fault = outcomes[:index], None
                break
            divergence = divergence_from(verdict, op_to_record(op))
            fault = None
            break
    steps = divergence.step + 1 if divergence else len(outcomes)
    return TraceResult(
        config,
        ops,
        steps,
        _count(judged),
        checker.readings_followed(),
        divergence=divergence,
        fault=fault,
        unjudged=unjudged,
    )
