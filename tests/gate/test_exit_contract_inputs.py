"""Issue 24's bad inputs not walked elsewhere, each through the CLI as a user gives it: the documented
exit code, one line on stderr naming the option, no traceback, no "[none: ...]" citation; options'
old spellings still work and stay out of ``--help``; the gate starts one implementation process;
a type-wrong reply or transcript is never a verdict."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FAKES = REPO / "tests" / "adapters" / "fakes"
FAST = ["--hypothesis-profile", "dev", "--seed", "1", "--profile", "mq"]


def _cli(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cfconform.cli", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def _one_line(done: subprocess.CompletedProcess[str]) -> tuple[int, int, bool, bool]:
    """(exit code, stderr lines, a traceback shown, a "[none: ...]" citation shown)."""
    err = done.stderr
    return done.returncode, len(err.strip().splitlines()), "Traceback" in err, "[none" in err


def _read_only_dir() -> str:
    """An existing directory no file can be created in, even by root: /proc."""
    if not Path("/proc/self").is_dir():
        pytest.skip("needs Linux /proc")
    return "/proc"


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    """A regular file: a path under it cannot be a directory."""
    path = tmp_path / "file"
    path.write_text("not a directory")
    return path


@pytest.mark.parametrize("spelling", ["--out", "--report-dir"])
@pytest.mark.parametrize("where", ["under-a-file", "read-only"])
def test_run_refuses_an_unwritable_output_directory_up_front(spelling: str, where: str, a_file: Path):
    out = str(a_file / "sub") if where == "under-a-file" else _read_only_dir()
    done = _cli("run", "--adapter", "reference", *FAST, spelling, out)
    assert _one_line(done) == (2, 1, False, False), done.stderr
    assert f"cfconform run: {spelling} {out}: " in done.stderr  # the spelling the user gave


@pytest.mark.parametrize("where", ["under-a-file", "read-only"])
def test_fuzz_refuses_an_unwritable_out_before_the_jvm(where: str, a_file: Path):
    out = str(a_file / "sub") if where == "under-a-file" else _read_only_dir()
    done = _cli("fuzz", "--adapter", "reference", "--traces", "10", "--steps", "5", "--out", out)
    assert _one_line(done) == (2, 1, False, False), done.stderr
    assert "--out" in done.stderr and "Spark UI" not in done.stderr


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["run", "--adapter", "reference", *FAST, "--timeout", "nan"], "--timeout"),
        (["run", "--adapter", "reference", *FAST, "--timeout", "0"], "--timeout"),
        (["run", "--adapter", "reference", *FAST, "--timeout", "1e9"], "--timeout"),
        (["replay", "x.json", "--adapter", "reference", "--timeout", "-1"], "--timeout"),
        (["check-protocol", "--adapter", "wire:true", "--timeout", "nan"], "--timeout"),
        (["check-protocol", "--adapter", "wire:true", "--max-line-bytes", "0"], "--max-line-bytes"),
        (["serve-reference", "--max-line-bytes", "-1"], "--max-line-bytes"),
        (["fuzz", "--adapter", "reference", "--traces", "10", "--steps", "5", "--timeout", "nan"], "--timeout"),
        (["fuzz", "--adapter", "reference", "--traces", "10", "--steps", "5", "--progress-seconds", "-1"],
         "--progress-seconds"),
        (["fuzz", "--adapter", "wire:python3 'unbalanced", "--traces", "10", "--steps", "5"], "--adapter"),
        (["fuzz", "--adapter-cmd", "python3 'unbalanced", "--traces", "10", "--steps", "5"], "--adapter"),
        (["run", "--adapter-cmd", "python3 'unbalanced", *FAST], "--adapter"),
        (["check-protocol", "--cmd", "python3 'unbalanced"], "--adapter"),
        (["serve-reference", "--readings", "no-equals-sign"], "--readings"),
        (["adapters", "--format", "yaml"], "--format"),
        (["rules", "--family", "NOPE"], "NOPE"),
        (["mutants", "--seeds", "5-1"], "--seeds"),
    ],
)  # fmt: skip
def test_bad_values_are_exit_2_in_one_line(args: list[str], option: str):
    done = _cli(*args)
    assert _one_line(done) == (2, 1, False, False), done.stderr
    assert option in done.stderr


def test_an_unwritable_rows_file_is_exit_2_before_any_mutant_runs(a_file: Path):
    done = _cli("mutants", "--only", "M-QDEPTH-001-a", "--rows", str(a_file / "rows.jsonl"))
    assert _one_line(done) == (2, 1, False, False) and "--rows" in done.stderr


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('[[deviation]]\nrule = "NOPE-001"\nreason = "x"\n', "rule"),
        ('[[deviation]]\nrule = "QUEUE-001"\nreason = "x"\nexpires = "tomorrow"\n', "expires"),
        ("[[deviation]]\nrule = \n", "--deviations"),
    ],
)
def test_a_bad_deviations_file_is_exit_2_naming_the_field(text: str, field: str, tmp_path: Path):
    path = tmp_path / "deviations.toml"
    path.write_text(text)
    done = _cli("run", "--adapter", "reference", *FAST, "--deviations", str(path), "--out", str(tmp_path / "r"))
    assert _one_line(done) == (2, 1, False, False), done.stderr
    assert field in done.stderr


@pytest.mark.parametrize("rules", ["NOPE-*", "offload-*"])  # (a case typo matches nothing too)
def test_mutants_and_rules_selecting_nothing_are_exit_4(rules: str):
    for command in ("mutants", "rules"):
        done = _cli(command, "--rules", rules)
        assert _one_line(done) == (4, 1, False, False), (command, done.stderr)


def test_an_implementation_claiming_no_family_judges_nothing_exit_4(tmp_path: Path):
    done = _cli("-q", "run", "--adapter", "tests.gate.faulty:ClaimsNothing", *FAST, "--out", str(tmp_path))
    assert (done.returncode, "Traceback" in done.stderr, "result: NOTHING JUDGED (exit 4)" in done.stdout) == (
        4,
        False,
        True,
    ), done.stdout


@pytest.mark.parametrize("bad", ["nan_usage", "nan_value", "string_ok", "missing_ok", "unknown_field"])
def test_a_type_wrong_or_nan_reply_is_a_protocol_error_never_a_verdict(bad: str, tmp_path: Path):
    adapter = f"wire:{sys.executable} {FAKES / 'fake_bad_outcome.py'}"
    env = {"FAKE_BAD": bad, "FAKE_BAD_AT": "3"}
    done = _cli("-q", "run", "--adapter", adapter, *FAST, "--out", str(tmp_path), env=env)
    assert (done.returncode, "Traceback" in done.stderr, "schema-invalid" in done.stdout) == (3, False, True)
    (record,) = [json.loads(line, parse_constant=_no_constant) for line in (tmp_path / "results.jsonl").open()]
    assert [r["rule"] for r in record["rules"] if r["verdict"] == "fail"] == []  # no rule blamed for it
    assert [f["kind"] for f in record["failures"]] == ["fault"]
    assert list((tmp_path / "reproducers").glob("*.json"))  # the steps up to the bad reply, to replay


def _no_constant(name: str) -> None:
    raise AssertionError(f"{name} written into results.jsonl")


def _transcript(tmp_path: Path) -> dict:
    """A real transcript: the one a faulty run writes."""
    report = tmp_path / "r"
    done = _cli("-q", "run", "--adapter", "tests.gate.faulty:DropEvents", *FAST, "--out", str(report))
    assert done.returncode == 1, done.stdout
    return json.loads(sorted((report / "reproducers").glob("*.json"))[0].read_text())


def test_replay_of_a_type_wrong_transcript_is_exit_2_and_of_an_empty_one_exit_4(tmp_path: Path):
    good = _transcript(tmp_path)
    spoiled = {
        "config": {**good["config"], "structures": "APP1"},  # a string where a list of objects belongs
        "ops": [{**good["ops"][0], "op": 5}],
        "profile": 3,
    }
    for field, value in spoiled.items():
        path = tmp_path / f"{field}.json"
        path.write_text(json.dumps({**good, field: value}))
        done = _cli("replay", str(path), "--adapter", "reference")
        assert _one_line(done) == (2, 1, False, False), (field, done.stderr)
        assert "transcript" in done.stderr or "op=" in done.stderr
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({**good, "ops": []}))
    done = _cli("replay", str(empty), "--adapter", "reference")
    assert (done.returncode, "NOTHING JUDGED (exit 4)" in done.stdout) == (4, True), done.stdout


@pytest.mark.parametrize(
    ("old", "new", "help_args"),
    [
        (["run", "--adapter-cmd", f"{sys.executable} -m cfconform.cli serve-reference"], "--adapter-cmd",
         ["run", "--help"]),
        (["run", "--adapter", "reference", "--report-dir", "{tmp}"], "--report-dir", ["run", "--help"]),
        (["check-protocol", "--cmd", f"{sys.executable} -m cfconform.cli serve-reference"], "--cmd",
         ["check-protocol", "--help"]),
        (["adapters", "--json"], "--json", ["adapters", "--help"]),
        (["mutants", "--only", "NOPE", "--format", "table"], ",table", ["mutants", "--help"]),  # (not a choice)
        (["rules", "--format", "table"], ",table", ["rules", "--help"]),
    ],
)  # fmt: skip
def test_old_spellings_still_work_and_are_not_shown(old: list[str], new: str, help_args: list[str], tmp_path: Path):
    args = [a.replace("{tmp}", str(tmp_path)) for a in old]
    args += FAST if args[0] == "run" else []
    done = _cli("-q", *args)
    assert done.returncode in (0, 4) and "Traceback" not in done.stderr, done.stderr  # (--only NOPE: 4)
    assert "usage" not in done.stderr.lower()
    assert new not in _cli(*help_args).stdout


def test_the_gate_starts_one_implementation_process_per_run(tmp_path: Path):
    """README: "The gate starts one instance of the implementation per run" (both profiles)."""
    pids = tmp_path / "pids"
    adapter = f"wire:{sys.executable} {FAKES / 'fake_counted.py'}"
    done = _cli("-q", "run", "--adapter", adapter, "--hypothesis-profile", "dev", "--seed", "1",
                "--out", str(tmp_path / "r"), env={"FAKE_PID_FILE": str(pids)})  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(pids.read_text().split()) == 1
