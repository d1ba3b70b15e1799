"""Known deviations through ``cfconform run --deviations``: warnings, expiry and unexpected passes.

The gate is deterministic for a seed, so a second run with the same seed fails the same rules.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from cfconform.cli.main import main

FAST = ["--hypothesis-profile", "dev", "--seed", "1", "--profile", "mq"]
FAULTY = "tests.gate.faulty:DropEvents"


def cfconform(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out + out.err


def _record(report_dir: Path) -> dict:
    return json.loads((report_dir / "results.jsonl").read_text().splitlines()[-1])


def _deviations(path: Path, rules: list[str], expires: str | None = None) -> Path:
    extra = f"expires = {expires}\n" if expires else ""
    path.write_text("".join(f'[[deviation]]\nrule = "{r}"\nreason = "tracked in ISSUE-1"\n{extra}\n' for r in rules))
    return path


def _run(capsys, tmp_path: Path, adapter: str, deviations: Path | None = None) -> tuple[int, str, dict]:
    report_dir = tmp_path / "report"
    extra = ["--deviations", str(deviations)] if deviations else []
    code, out = cfconform(capsys, "run", "--adapter", adapter, *FAST, "--report-dir", str(report_dir), *extra)
    return code, out, _record(report_dir)


@pytest.fixture
def failing_rules(tmp_path, capsys) -> list[str]:
    code, out, record = _run(capsys, tmp_path / "first", FAULTY)
    assert 1 == code, out
    return [r["rule"] for r in record["rules"] if r["verdict"] == "fail"]


def test_listed_failures_turn_exit_1_into_0_with_warnings(tmp_path, capsys, failing_rules):
    deviations = _deviations(tmp_path / "dev.toml", failing_rules)
    code, out, record = _run(capsys, tmp_path, FAULTY, deviations)
    assert 0 == code, out
    assert failing_rules == [r["rule"] for r in record["rules"] if r["verdict"] == "known-deviation"]
    assert f"warning: {failing_rules[0]}: known deviation: tracked in ISSUE-1" in out
    assert "result: CONFORMS (exit 0)" in out


def test_an_expired_deviation_fails_the_gate(tmp_path, capsys, failing_rules):
    yesterday = (dt.date.today() - dt.timedelta(days=1)).isoformat()
    deviations = _deviations(tmp_path / "dev.toml", failing_rules, expires=yesterday)
    code, out, _ = _run(capsys, tmp_path, FAULTY, deviations)
    assert 1 == code, out
    assert f"{failing_rules[0]}: known deviation expired on {yesterday}" in out


def test_a_deviation_that_is_not_expired_yet_still_passes(tmp_path, capsys, failing_rules):
    tomorrow = (dt.date.today() + dt.timedelta(days=1)).isoformat()
    code, out, _ = _run(capsys, tmp_path, FAULTY, _deviations(tmp_path / "dev.toml", failing_rules, tomorrow))
    assert 0 == code, out


def test_a_deviation_for_a_passing_rule_is_an_unexpected_pass_and_fails(tmp_path, capsys):
    code, out, record = _run(capsys, tmp_path / "first", "reference")
    assert 0 == code, out
    passing = next(r["rule"] for r in record["rules"] if r["verdict"] == "pass")
    code, out, record = _run(capsys, tmp_path, "reference", _deviations(tmp_path / "dev.toml", [passing]))
    assert 1 == code, out
    assert f"{passing}: listed as a known deviation but passed (unexpected pass)" in out


def test_a_deviation_naming_an_unknown_rule_is_a_configuration_error(tmp_path, capsys):
    code, out = cfconform(
        capsys,
        "run",
        "--adapter",
        "reference",
        *FAST,
        "--report-dir",
        str(tmp_path),
        "--deviations",
        str(_deviations(tmp_path / "dev.toml", ["NOPE-001"])),
    )
    assert 2 == code
    assert "deviation[0].rule" in out
