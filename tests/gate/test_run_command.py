"""``cfconform run`` and ``cfconform replay``: exit codes, reports, reproducers (issue "The conformance gate").

Most tests run one profile with the ``dev`` Hypothesis profile and a fixed seed to stay fast.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cfconform.cli.main import main
from cfconform.reference_model.rules import RULES

REPO = Path(__file__).resolve().parents[2]
FAST = ["--hypothesis-profile", "dev", "--seed", "1", "--profile", "mq"]
FAULTY = "tests.gate.faulty:DropEvents"


def cfconform(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """Run the CLI in-process; returns (exit code, stdout + stderr)."""
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out + out.err


def _records(report_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (report_dir / "results.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def faulty_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, Path]:
    """One gate run against the faulty adapter, shared by the tests that read its outputs."""
    report_dir = tmp_path_factory.mktemp("faulty") / "report"
    capture = subprocess.run(
        [sys.executable, "-m", "cfconform.cli", "run", "--adapter", FAULTY, *FAST, "--report-dir", str(report_dir)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return capture.returncode, capture.stdout + capture.stderr, report_dir


def _transcripts(report_dir: Path) -> list[Path]:
    """One transcript per failure: the gate explores on after a failure (issue 23)."""
    return sorted((report_dir / "reproducers").glob("*.json"))


def _transcript(report_dir: Path) -> Path:
    return _transcripts(report_dir)[0]


def test_run_against_reference_exits_0_and_writes_every_report(tmp_path, capsys):
    code, out = cfconform(capsys, "run", "--adapter", "reference", *FAST, "--report-dir", str(tmp_path))
    assert 0 == code, out
    assert {"results.jsonl", "report.md", "report.html", "junit.xml"} == {p.name for p in tmp_path.iterdir()}
    (record,) = _records(tmp_path)
    assert (0, "reference", ["mq"], 1) == (record["exit_code"], record["adapter"], record["profiles"], record["seed"])
    assert record["started"].endswith("+00:00")
    assert "result: CONFORMS (exit 0)" in out and "verdicts: " in out


def test_run_appends_to_results_jsonl_and_honours_junit_and_rules(tmp_path, capsys):
    junit = tmp_path / "ci" / "gate.xml"
    for _ in range(2):
        code, out = cfconform(
            capsys,
            "run",
            "--adapter",
            "reference",
            *FAST,
            "--rules",
            "QDEPTH-*,QUEUE-001",
            "--report-dir",
            str(tmp_path / "r"),
            "--junit",
            str(junit),
        )
        assert 0 == code, out
    records = _records(tmp_path / "r")
    assert 2 == len(records)
    expected = [r.id for r in RULES if r.family == "QDEPTH"] + ["QUEUE-001"]
    assert expected == [r["rule"] for r in records[0]["rules"]]
    assert not (tmp_path / "r" / "junit.xml").exists()
    assert len(expected) == len(list(ET.parse(junit).getroot().iter("testcase")))


def test_run_against_faulty_adapter_exits_1_and_summarises_the_failure(faulty_run):
    code, out, report_dir = faulty_run
    assert 1 == code, out
    assert "result: DOES NOT CONFORM (exit 1)" in out
    assert "FAIL mq: step " in out and "events expected" in out and "observed []" in out
    assert re.search(r"\bQDEPTH-0\d\d\b", out)  # DropEvents drops every depth event: some event rule fails
    assert _transcripts(report_dir)
    for path in _transcripts(report_dir):
        assert f"transcript: {path}" in out
        assert f"cfconform replay {path} --adapter {FAULTY}" in out


def test_faulty_run_writes_junit_markdown_html_and_a_reproducer(faulty_run):
    _, _, report_dir = faulty_run
    (record,) = _records(report_dir)
    failures = record["failures"]
    failing = [r["rule"] for r in record["rules"] if r["verdict"] == "fail"]
    assert failing and all(rule.startswith("QDEPTH-") for rule in failing)
    transcripts = [str(p.relative_to(report_dir)) for p in _transcripts(report_dir)]
    assert sorted(transcripts) == sorted(f["reproducer"] for f in failures)
    ids = {r.id for r in RULES}
    every = list(ET.parse(report_dir / "junit.xml").getroot().iter("testcase"))
    cases = {c.get("name"): c for c in every if c.get("name") in ids}
    assert len(RULES) == len(cases)
    # besides one case per rule, only profile-level notes (test cases ended unjudged after a failure)
    assert all(c.get("name") == "run[mq]" for c in every if c.get("name") not in ids)
    assert failing == [name for name, case in cases.items() if case.find("failure") is not None]
    markdown = (report_dir / "report.md").read_text()
    assert f"## Failures ({len(failures)})" in markdown and "field `events`" in markdown
    assert len(failures) == (report_dir / "report.html").read_text().count("<svg")
    for failure in failures:
        stem = Path(failure["reproducer"]).stem
        assert stem.startswith(failure["rules"][0] + "-")
        assert (report_dir / "reproducers" / f"test_{stem.replace('-', '_')}.py").exists()


def test_replay_confirms_the_failure_against_the_faulty_adapter(faulty_run, capsys):
    code, out = cfconform(capsys, "replay", str(_transcript(faulty_run[2])), "--adapter", FAULTY)
    assert 1 == code, out
    assert "DIVERGES" in out and "field:    events" in out and "rules:    " in out
    assert "the recorded failure is confirmed" in out


def test_replay_passes_against_the_reference(faulty_run, capsys):
    code, out = cfconform(capsys, "replay", str(_transcript(faulty_run[2])), "--adapter", "reference")
    assert 0 == code, out
    assert "result: CONFORMS (exit 0)" in out


def test_replay_exits_3_on_an_adapter_fault(faulty_run, capsys):
    code, out = cfconform(capsys, "replay", str(_transcript(faulty_run[2])), "--adapter", "tests.gate.faulty:Crashes")
    assert 3 == code, out
    assert "ADAPTER FAULT: RuntimeError: implementation crashed" in out


def test_replay_that_ends_unjudged_exits_4(tmp_path, capsys):
    """An operation the implementation does not support ends the replay before the recorded
    failure: neither confirmed nor cleared, so nothing was judged of it (exit 4, not 1)."""
    transcript = tmp_path / "t.json"
    record = {"format": "cfconform-transcript", "version": 1, "adapter": "x", "profile": "mq", "readings": {},
              "config": {"profile": "mq", "structures": [{"name": "APP1"}],
                         "queues": [{"name": "Q1", "cfstruct": "APP1"}]},
              "ops": [{"op": "define_structure", "structure": {"name": "APP2"}}],
              "expected": {"kind": "divergence", "step": 0, "field": "ok", "expected": True, "observed": False,
                           "rules": ["TOPOLOGY-005"]}}  # fmt: skip
    transcript.write_text(json.dumps(record))
    code, out = cfconform(capsys, "replay", str(transcript), "--adapter", "tests.gate.faulty:RefusesAdministration")
    assert (4, True) == (code, "NOT JUDGED (exit 4)" in out), out


def test_replay_exits_2_on_a_bad_transcript(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "cfconform-transcript", "version": 1}')
    code, out = cfconform(capsys, "replay", str(bad), "--adapter", "reference")
    assert 2 == code
    assert "transcript.adapter" in out


def _pytest_file(path: Path, adapter: str | None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("CFCONFORM_ADAPTER", None)
    if adapter is not None:
        env["CFCONFORM_ADAPTER"] = adapter
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(path)],
        cwd=path.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_generated_pytest_file_fails_against_the_faulty_adapter_and_passes_against_reference(faulty_run):
    test_file = sorted((faulty_run[2] / "reproducers").glob("test_*.py"))[0]
    failing = _pytest_file(test_file, None)  # default: the adapter it was recorded against
    assert 1 == failing.returncode, failing.stdout
    assert f"{FAULTY}: step " in failing.stdout and "events expected" in failing.stdout
    passing = _pytest_file(test_file, "reference")
    assert 0 == passing.returncode, passing.stdout


def test_unknown_adapter_exits_2(tmp_path, capsys):
    code, out = cfconform(capsys, "run", "--adapter", "no-such-adapter", *FAST, "--report-dir", str(tmp_path))
    assert 2 == code
    assert "no-such-adapter" in out and "configuration error" in out


def test_malformed_deviations_file_exits_2(tmp_path, capsys):
    bad = tmp_path / "deviations.toml"
    bad.write_text("[[deviation]]\nrule = \n")
    code, out = cfconform(
        capsys, "run", "--adapter", "reference", *FAST, "--deviations", str(bad), "--report-dir", str(tmp_path / "r")
    )
    assert 2 == code
    assert "deviations" in out


def test_unclaimed_profile_exits_2(tmp_path, capsys):
    code, out = cfconform(
        capsys,
        "run",
        "--adapter",
        "tests.gate.faulty:MQOnly",
        "--hypothesis-profile",
        "dev",
        "--profile",
        "cqs",
        "--report-dir",
        str(tmp_path),
    )
    assert 2 == code
    assert "claims profiles mq" in out


def test_crashing_adapter_exits_3_with_a_fault_verdict(tmp_path, capsys):
    code, out = cfconform(capsys, "run", "--adapter", "tests.gate.faulty:Crashes", *FAST, "--report-dir", str(tmp_path))
    assert 3 == code, out
    (record,) = _records(tmp_path)
    (failure,) = record["failures"]
    assert ("fault", "RuntimeError: implementation crashed") == (failure["kind"], failure["observed"])
    assert "FAULT mq: adapter fault at step 0: RuntimeError: implementation crashed" in out
    assert "result: ADAPTER ERROR (exit 3)" in out
    junit = ET.parse(tmp_path / "junit.xml").getroot()
    assert ["adapter[mq]"] == [c.get("name") for c in junit.iter("testcase") if c.find("error") is not None]


def test_console_script_runs_the_gate(tmp_path):
    exe = Path(sys.executable).with_name("cfconform")
    done = subprocess.run(
        [
            str(exe),
            "run",
            "--adapter",
            "reference",
            "--hypothesis-profile",
            "dev",
            "--seed",
            "3",
            "--profile",
            "cqs",
            "--report-dir",
            str(tmp_path),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert 0 == done.returncode, done.stdout + done.stderr
    assert "profiles cqs" in done.stdout


def test_adapter_cmd_that_cannot_start_exits_3(tmp_path, capsys):
    code, out = cfconform(capsys, "run", "--adapter-cmd", "false", *FAST, "--report-dir", str(tmp_path))
    assert 3 == code
    assert "adapter error before any trace ran" in out and "'false' exited with code 1" in out


@pytest.mark.slow
def test_adapter_cmd_runs_the_gate_over_the_wire_protocol(tmp_path, capsys):
    server = f"{sys.executable} -m cfconform.cli serve-reference"
    code, out = cfconform(
        capsys,
        "run",
        "--adapter-cmd",
        server,
        "--hypothesis-profile",
        "dev",
        "--seed",
        "2",
        "--profile",
        "cqs",
        "--timeout",
        "20",
        "--report-dir",
        str(tmp_path),
    )
    assert 0 == code, out
    assert f"cfconform run: wire:{server} (reference)" in out
