"""CAPACITY-003 after CQS moves queues off the primary within a CQSPUT: the IXC586I the move calls
for may come at a later step, as under ``full_signal_timing=deferred``, whatever the reading, since
whether z/OS's monitoring sees the structure before or after CQS's processing of the put is not
documented (``GroupState.full_signals(moved=...)``).  One never said within the hour still fails."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cfconform.adapters.wire.client import WireAdapter
from cfconform.judge.runner import run_trace
from cfconform.reference_model.codec import config_from_record, op_from_record

ROOT = Path(__file__).resolve().parents[2]
TRACE = (
    ROOT / "tests" / "gate" / "twelfth_reading_traces" / "capacity-003-ixc586i-after-an-overflow-move-said-next.json"
)
TWELFTH = [sys.executable, str(ROOT / "examples" / "twelfth-reading" / "impl.py")]


def _result(*fault: str):
    record = json.loads(TRACE.read_text(encoding="utf-8"))
    adapter = WireAdapter([*TWELFTH, *(("--fault", *fault) if fault else ())])
    try:
        return run_trace(adapter, config_from_record(record["config"]), [op_from_record(o) for o in record["ops"]])
    finally:
        adapter.close()


def test_an_ixc586i_said_at_the_next_step_after_an_overflow_move_passes():
    result = _result()
    assert (result.verdict, result.divergence) == ("pass", None)


def test_an_ixc586i_never_said_after_an_overflow_move_fails_an_hour_later():
    result = _result("CAP_NO_586")
    assert result.verdict == "fail"
    assert "CAPACITY-003" in result.divergence.rules and result.divergence.op["op"] == "advance_clock"
