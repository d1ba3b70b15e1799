"""The gate against the fourth to twelfth readings (examples/fourth-, sixth- to twelfth-reading in
Python, examples/fifth-reading in Node.js): implementations written from the documents alone, each
with readings, accounting and choices of its own.  Each trace here once drew a false verdict on one
of them; replayed through the one checker it passes (or ends unjudged).  A trace marked
``"expect": "fail"`` is a departure of that reading from a sentence: it must still fail, on its rule."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from cfconform.adapters.wire.client import WireAdapter
from cfconform.judge.runner import run_trace
from cfconform.reference_model.codec import config_from_record, op_from_record
from cfconform.reference_model.operations import Inspect

ROOT = Path(__file__).resolve().parents[1].parent
COMMANDS = {
    "fourth": [sys.executable, str(ROOT / "examples" / "fourth-reading" / "impl.py")],
    "fifth": ["node", str(ROOT / "examples" / "fifth-reading" / "impl.js")],
    "sixth": [sys.executable, str(ROOT / "examples" / "sixth-reading" / "impl.py")],
    "seventh": [sys.executable, str(ROOT / "examples" / "seventh-reading" / "impl.py")],
    "eighth": [sys.executable, str(ROOT / "examples" / "eighth-reading" / "impl.py")],
    "ninth": [sys.executable, str(ROOT / "examples" / "ninth-reading" / "impl.py")],
    "tenth": [sys.executable, str(ROOT / "examples" / "tenth-reading" / "impl.py")],
    "eleventh": [sys.executable, str(ROOT / "examples" / "eleventh-reading" / "impl.py")],
    "twelfth": [sys.executable, str(ROOT / "examples" / "twelfth-reading" / "impl.py")],
}
TRACES = [
    (reading, path)
    for reading in COMMANDS
    for path in sorted((ROOT / "tests" / "gate" / f"{reading}_reading_traces").glob("*.json"))
]


@pytest.mark.parametrize(("reading", "path"), TRACES, ids=lambda v: v if isinstance(v, str) else v.stem)
def test_a_trace_once_falsely_failed_is_judged_as_the_documents_decide(reading: str, path: Path):
    if COMMANDS[reading][0] == "node" and shutil.which("node") is None:
        pytest.skip("node is not installed (the fifth reading is a Node.js program)")
    record = json.loads(path.read_text(encoding="utf-8"))
    adapter = WireAdapter(COMMANDS[reading])
    try:
        result = run_trace(adapter, config_from_record(record["config"]), [op_from_record(o) for o in record["ops"]])
    finally:
        adapter.close()
    if record.get("expect") == "fail":
        assert ("fail", True) == (result.verdict, record["rule"] in result.divergence.rules)
    else:
        assert result.verdict in ("pass", "unjudged") and result.divergence is None


#: Faults of the two kits whose smallest scenarios the oracle once failed to tell from the faithful
#: build (each now a regression of the checker's power): (reading, fault ID).
TOLD_APART = [
    ("fourth", "cqs-select-least-space"),
    ("fourth", "cqs-target-forgets-20"),
    ("fourth", "sizing-alter-no-effect"),
    ("fifth", "qdepth-first-qmgr-coordinates"),
    ("sixth", "CQS_TARGET_AT_THRESHOLD"),
    ("sixth", "CQS_VETO_STOPS"),
    ("eighth", "OFF_CF4_SMDS"),
]


def _scenario_verdict(reading: str, fault: str | None, scenario: dict) -> str:
    command = [*COMMANDS[reading], *(["--fault", fault] if fault else [])]
    ops = [Inspect(), *(op_from_record(o) for o in scenario["ops"]), Inspect()]
    adapter = WireAdapter(command)
    try:
        return run_trace(adapter, config_from_record(scenario["config"]), ops).verdict
    finally:
        adapter.close()


@pytest.mark.parametrize(("reading", "fault"), TOLD_APART, ids=lambda v: v)
def test_the_oracle_tells_a_kit_fault_from_the_faithful_build_on_its_scenario(reading: str, fault: str):
    kit = f"{reading}-reading"
    faults = json.loads((ROOT / "examples" / kit / "faults.json").read_text(encoding="utf-8"))
    scenario = next(f["scenario"] for f in faults if f["id"] == fault)
    assert ("pass", "fail") == (_scenario_verdict(reading, None, scenario), _scenario_verdict(reading, fault, scenario))


WITHHOLDING = ROOT / "tests" / "gate" / "withholding.py"
WITHHELD = sorted((ROOT / "tests" / "gate" / "withheld_traces").glob("*.json"))


@pytest.mark.parametrize("path", WITHHELD, ids=lambda p: p.stem)
def test_a_reading_that_shows_less_is_judged_only_on_what_it_shows(path: Path):
    """A reading (the seventh unless the trace names another kit) declaring no readings, or
    withholding observables (tests/gate/withholding.py):
    each trace once drew a false verdict on what it did not show, and now passes."""
    record = json.loads(path.read_text(encoding="utf-8"))
    impl = ROOT / "examples" / f"{record.get('kit', 'seventh')}-reading" / "impl.py"
    adapter = WireAdapter([sys.executable, str(WITHHOLDING), str(impl), record["variant"]])
    try:
        result = run_trace(adapter, config_from_record(record["config"]), [op_from_record(o) for o in record["ops"]])
    finally:
        adapter.close()
    assert result.verdict in ("pass", "unjudged") and result.divergence is None
