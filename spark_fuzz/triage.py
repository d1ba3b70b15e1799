"""Triage of a campaign's failures (pure Python, driver side, on small aggregated data).

The Spark shell groups the divergence rows by signature (rule IDs, first diverging
field, operation kind) and hands over one :class:`Example` per signature: the
shortest failing trace (smallest ``trace_length``, then lowest trace index).  Here
that trace is regenerated from its seed (``generate`` is a pure function, so no trace
is ever stored), minimised through the adapter with
:func:`cfconform.judge.shrink.minimise`, and turned into a reproducer transcript in the
``cfconform replay`` format (:mod:`cfconform.conformance.reproducer`).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from cfconform.adapters.protocol import Adapter
from cfconform.judge.results import FailureRecord
from cfconform.judge.shrink import minimise
from cfconform.judge.shrink.search import signature
from cfconform.judge.trace import TraceResult
from cfconform.properties.generator import generate

from .blocks import CampaignSpec, trace_profile, trace_seed

#: ddmin runs allowed per signature (each run replays a candidate through a fresh adapter).
MAX_RUNS = 2000


@attrs.frozen
class Example:
    """The representative (shortest) failing trace of one signature, and how often it occurred."""

    signature: str
    count: int
    kind: str
    rules: tuple[str, ...] = attrs.field(converter=tuple)
    field: str
    op: str
    trace: int
    seed: int
    profile: str
    step: int | None
    trace_length: int

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Example:
        names = {a.name for a in attrs.fields(cls)}
        return cls(**{k: v for k, v in record.items() if k in names})

    def to_record(self) -> dict[str, Any]:
        return attrs.asdict(self) | {"rules": list(self.rules)}


def order_signatures(examples: Iterable[Example]) -> list[Example]:
    """Most frequent first, then by signature (a stable order for reports and triage)."""
    return sorted(examples, key=lambda e: (-e.count, e.signature))


def regenerate(spec: CampaignSpec, example: Example) -> tuple[Any, list[Any]]:
    """The example's configuration and failing prefix, rebuilt from its seed."""
    if trace_seed(spec.seed, example.trace) != example.seed or trace_profile(spec.profiles, example.trace) != (
        example.profile
    ):
        raise ValueError(f"trace {example.trace} of campaign seed {spec.seed} is not seed {example.seed}")
    config, ops = generate(example.seed, example.profile, spec.steps, spec.skip)
    return config, (ops[: example.trace_length] if example.trace_length > 0 else ops)


def failure_record(profile: str, result: TraceResult) -> FailureRecord:
    """A failing :class:`TraceResult` as the gate's failure record (what transcripts are written from)."""
    d, f = result.divergence, result.fault
    if d is not None:
        return FailureRecord(profile, d.rules, d.step, d.field, d.expected, d.observed, result.config, result.ops,
                             d.expected_outcome, d.observed_outcome, result.readings, {}, {})  # fmt: skip
    return FailureRecord(profile, (), f.step if f else None, "adapter", None, f.message if f else None,
                         result.config, result.ops, None, None, result.readings, {}, {}, kind="fault")  # fmt: skip


def triage_example(
    spec: CampaignSpec, example: Example, factory: Callable[[], Adapter], *, max_runs: int = MAX_RUNS
) -> dict[str, Any]:
    """Regenerate, minimise and transcribe one signature's example.

    Returns a JSON-safe record: the example, ``reproduced`` (the regenerated trace failed
    again), the ``minimised_signature`` (minimisation keeps the example's signature, or shows
    the same fault at fewer of its rules, in the state, or at the step that chose a reading:
    :func:`cfconform.judge.shrink.minimise`), the original and minimised lengths, and the
    ``transcript`` (None when the failure did not reproduce: a flaky implementation).
    """
    from cfconform.conformance.reproducer import transcript_stem, write_transcript

    config, ops = regenerate(spec, example)
    result = minimise(factory, config, ops, max_runs=max_runs)
    reproduced = signature(result) is not None
    record: dict[str, Any] = {
        "example": example.to_record(), "reproduced": reproduced, "original_length": len(ops),
        "minimised_length": len(result.ops) if reproduced else None, "minimised_signature": signature(result),
        "transcript": None, "stem": None,
    }  # fmt: skip
    if reproduced:
        transcript = write_transcript(failure_record(example.profile, result), spec.adapter)
        record["transcript"] = transcript
        record["stem"] = transcript_stem(transcript)
    return record


def replay_command(path: str, adapter_spec: str) -> str:
    """The ``cfconform replay`` command line for a transcript."""
    if adapter_spec.startswith("wire:"):
        return f"cfconform replay {shlex.quote(path)} --adapter-cmd {shlex.quote(adapter_spec[len('wire:') :])}"
    return f"cfconform replay {shlex.quote(path)} --adapter {shlex.quote(adapter_spec)}"
