"""CQS-015 without OVFLWSTR: overflow mode ends when usage drops 20% below the threshold, at once
(reading ``cqs_relief_timing=at-delete``) or at a scan up to one interval later (``by-scan``, ibm-facts
1.5: "Allow a lag of up to one scan period")."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

from cfconform.adapters.delegating import DelegatingAdapter
from cfconform.adapters.mutants import MUTANT_BY_ID
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.adapters.wire.client import WireAdapter
from cfconform.judge.runner import run_trace
from cfconform.reference_model import operations as o
from cfconform.reference_model.codec import config_from_record, op_from_record
from cfconform.reference_model.outcomes import Outcome

SCENARIO = MUTANT_BY_ID["M-CQS-015-a"]  # a put, the alter failing (overflow mode), a get relieving it


class Lagging(DelegatingAdapter):
    """The reference, but OVERFLOW_OFF comes at the first ``advance_clock`` of at least ``after`` seconds."""

    def __init__(self, after: int, reading: str = "by-scan") -> None:
        super().__init__(ReferenceAdapter())
        self.after, self.held, self.reading = after, (), reading

    def capabilities(self) -> Any:
        """The reference's, but following the ``cqs_relief_timing`` reading given (or ``unknown``)."""
        caps = self.inner.capabilities()
        return attrs.evolve(caps, readings={**caps.readings, "cqs_relief_timing": self.reading})

    def apply(self, op: Any) -> Outcome:
        out = self.inner.apply(op)
        off = tuple(s for s in out.signals if s.startswith("OVERFLOW_OFF"))
        self.held += off
        signals = tuple(s for s in out.signals if s not in off)
        if isinstance(op, o.AdvanceClock) and op.seconds >= self.after and self.held:
            signals, self.held = signals + self.held, ()
        return attrs.evolve(out, signals=signals)

    def apply_batch(self, ops: Any) -> list[Outcome]:
        return [self.apply(op) for op in ops]


def _verdict(adapter: Any, *waits: int) -> str:
    ops = [*SCENARIO.scenario, *(o.AdvanceClock(w) for w in waits), o.Inspect()]
    return run_trace(adapter, SCENARIO.config, ops).verdict


def test_overflow_mode_may_end_at_the_next_scan_after_usage_falls():
    assert "pass" == _verdict(Lagging(after=600), 600)


def test_overflow_mode_still_on_a_scan_interval_after_usage_fell_fails():
    assert "fail" == _verdict(Lagging(after=2000), 600, 600)


def test_overflow_mode_that_ends_at_once_still_passes():
    assert "pass" == _verdict(ReferenceAdapter(), 600)


def test_a_lag_is_found_as_the_by_scan_reading_when_none_is_declared():
    assert "pass" == _verdict(Lagging(after=600, reading="unknown"), 600)


def test_an_implementation_declaring_at_delete_that_lags_fails():
    assert "fail" == _verdict(Lagging(after=600, reading="at-delete"), 600)


TRACES = Path(__file__).parent / "eleventh_reading_traces"
#: Eleventh reading, cqs seed 2: overflow mode began with usage already below the target; OVERFLOW_OFF at the next scan.
BEGUN_BELOW = (
    Path(__file__).parent / "eleventh_reading_traces" / "cqs-overflow-begun-below-the-target-ends-at-a-scan.json"
)
ELEVENTH = [sys.executable, str(Path(__file__).resolve().parents[2] / "examples" / "eleventh-reading" / "impl.py")]


class _Declaring(DelegatingAdapter):
    """The eleventh reading, declaring ``cqs_relief_timing`` as given."""

    def __init__(self, reading: str) -> None:
        super().__init__(WireAdapter(ELEVENTH))
        self.reading = reading

    def capabilities(self) -> Any:
        caps = self.inner.capabilities()
        return attrs.evolve(caps, readings={**caps.readings, "cqs_relief_timing": self.reading})


@pytest.mark.parametrize(("reading", "verdict"), [("by-scan", "pass"), ("unknown", "pass"), ("at-delete", "fail")])
def test_overflow_mode_begun_below_the_target_may_end_at_a_scan_only_by_scan(reading: str, verdict: str):
    record = json.loads(BEGUN_BELOW.read_text(encoding="utf-8"))
    adapter = _Declaring(reading)
    try:
        got = run_trace(adapter, config_from_record(record["config"]), [op_from_record(r) for r in record["ops"]])
    finally:
        adapter.close()
    assert verdict == got.verdict
