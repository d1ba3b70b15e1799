"""The gate against a third implementation written from the documents alone (examples/third-reading,
its own readings, accounting and choices where the documents are silent).  Each trace here once drew
a false verdict on it; replayed through the one checker, it passes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cfconform.adapters.wire.client import WireAdapter
from cfconform.judge.runner import run_trace
from cfconform.reference_model.codec import config_from_record, op_from_record

ROOT = Path(__file__).resolve().parents[2]
IMPL = ROOT / "examples" / "third-reading" / "impl.py"
TRACES = sorted((ROOT / "tests" / "gate" / "third_reading_traces").glob("*.json"))


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.stem)
def test_a_trace_once_falsely_failed_passes_on_the_third_reading(path: Path):
    record = json.loads(path.read_text(encoding="utf-8"))
    ops = [op_from_record(op) for op in record["ops"]]
    adapter = WireAdapter([sys.executable, str(IMPL)])
    try:
        result = run_trace(adapter, config_from_record(record["config"]), ops)
    finally:
        adapter.close()
    assert result.verdict in ("pass", "unjudged") and result.divergence is None
