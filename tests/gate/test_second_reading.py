"""The gate against the independent second reading (examples/second-reading, issue 23).

The second reading was written from the five documents alone, with readings and a storage
accounting of its own; its fault kit breaks one sentence per fault.  These tests keep the gate
honest against it: one failure never hides another, and its faithful build is not failed on the
first cases of a seed.  ``benchmarks/independent.py`` measures the whole kit and ten seeds.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cfconform.conformance.gate import run_gate

ROOT = Path(__file__).resolve().parents[2]
KIT = ROOT / "examples" / "second-reading" / "impl.py"
sys.path.insert(0, str(ROOT))

from benchmarks.loopback import LoopbackAdapter  # noqa: E402


def _build(faults: str | None):
    return lambda: LoopbackAdapter(KIT, faults)


@pytest.mark.xdist_group("second-reading")
def test_a_build_with_two_faults_in_two_families_reports_both_rules():
    """OFF-DEST-DB2 breaks OFFLOAD(SMDS) (OFFLOAD-006), Q-LIFO breaks FIFO order (QUEUE-001)."""
    result = run_gate(_build("OFF-DEST-DB2,Q-LIFO"), hypothesis_profile="dev", seed=1, profiles=["mq"])
    failing = {rule for f in result.failures for rule in f.rules}
    assert (1, True, True) == (result.exit_code, "OFFLOAD-006" in failing, "QUEUE-001" in failing)


@pytest.mark.xdist_group("second-reading")
def test_each_failure_has_its_own_reproducer():
    result = run_gate(_build("OFF-DEST-DB2,Q-LIFO"), hypothesis_profile="dev", seed=1, profiles=["mq"])
    assert len(result.failures) >= 2 and all(f.ops for f in result.failures)


@pytest.mark.xdist_group("second-reading")
@pytest.mark.parametrize("profile", ["mq", "cqs"])
def test_the_faithful_build_conforms_in_the_dev_profile(profile: str):
    result = run_gate(_build(None), hypothesis_profile="dev", seed=1, profiles=[profile])
    failures = [f"{f.rules} step {f.step} {f.field}" for f in result.failures]
    assert (0, []) == (result.exit_code, failures)


TRACES = sorted((ROOT / "tests" / "gate" / "second_reading_traces").glob("*.json"))


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.stem)
def test_a_trace_once_falsely_failed_passes_on_the_faithful_build(path: Path):
    """Each trace here once drew a false verdict on the faithful second reading (its name says why
    it must not): replayed through the one checker, it passes."""
    import json

    from cfconform.judge.runner import run_trace
    from cfconform.reference_model.codec import config_from_record, op_from_record

    record = json.loads(path.read_text(encoding="utf-8"))
    ops = [op_from_record(op) for op in record["ops"]]
    result = run_trace(_build(None)(), config_from_record(record["config"]), ops)
    assert result.verdict in ("pass", "unjudged") and result.divergence is None  # (a refusal left open: unjudged)
