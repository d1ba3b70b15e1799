"""Issue 24's remaining bad inputs, each walked through the CLI: an init reply nested too deep to
parse is a protocol error (exit 3, one line), directories holding no campaign given to ``diff`` are
a usage error (exit 2, one line, before the JVM), and no process the implementation started
outlives the run (``check-protocol`` and ``run``)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
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


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill(0); it no longer runs
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(") ", 1)[1].startswith("Z"))


@pytest.mark.parametrize("command", ["run", "check-protocol"])
def test_an_init_reply_nested_too_deep_is_exit_3_in_one_line(command: str):
    extra = FAST if command == "run" else []
    done = _cli(command, "--adapter", f"wire:{sys.executable} {FAKES / 'fake_nested_init.py'}", *extra)
    assert (done.returncode, "Traceback" in done.stderr, "RecursionError" in done.stderr) == (3, False, False)
    said = done.stderr if command == "run" else done.stdout  # check-protocol reports each check on stdout
    assert "nested too deeply" in said, said


@pytest.mark.parametrize("detach", ["", "1"], ids=["in-group", "setsid"])
@pytest.mark.parametrize("command", ["check-protocol", "run"])
def test_no_grandchild_of_the_implementation_outlives_the_run(command: str, detach: str, tmp_path: Path):
    pid_file = tmp_path / "grandchild.pid"
    extra = [*FAST, "--out", str(tmp_path / "report")] if command == "run" else []
    done = _cli(
        "-q",
        command,
        "--adapter",
        f"wire:{sys.executable} {FAKES / 'fake_grandchild.py'}",
        *extra,
        env={"FAKE_PID_FILE": str(pid_file), "FAKE_DETACH": detach},
    )
    assert "Traceback" not in done.stderr and done.returncode != 2, done.stderr
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(pid), f"grandchild {pid} still running after the run ended"


def test_diff_of_directories_holding_no_campaign_is_exit_2_in_one_line_before_the_jvm(tmp_path: Path):
    """(A corrupt Parquet file inside a real campaign: ``tests/spark/test_progress.py``, with a JVM.)"""
    runs = []
    for name in ("run-a", "run-b"):
        failures = tmp_path / name / "failures"
        failures.mkdir(parents=True)
        (failures / "part-00000.parquet").write_bytes(b"PAR1 this is not parquet at all")
        runs.append(str(tmp_path / name))
    done = _cli("diff", *runs, env={"PATH": str(Path(sys.executable).parent)}, timeout=60)  # no java: never asked
    lines = done.stderr.strip().splitlines()
    assert (done.returncode, "Traceback" in done.stderr, len(lines)) == (2, False, 1), done.stderr
    assert "RUN_A" in done.stderr and "campaign.json" in done.stderr


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["run", "--adapter", "reference", "--hypothesis-profile", "nope"], "--hypothesis-profile"),
        (["size", "--messages"], "--messages"),
        (["nope"], "COMMAND"),
    ],
)
def test_a_usage_error_is_one_line_naming_the_option_and_exit_2(args: list[str], option: str, capsys):
    from cfconform.cli.main import main

    with pytest.raises(SystemExit) as exc:
        main(args)
    err = capsys.readouterr().err
    assert (exc.value.code, err.count("\n"), option in err, "usage:" in err) == (2, 1, True, False)


def test_progress_past_its_estimate_shows_no_total_and_no_eta():
    from cfconform.conformance.progress import Progress

    progress = Progress("test", 10, quiet=True)
    progress.done = 12
    line = progress.line()
    assert ("12 cases" in line, "/10" in line, "ETA" in line) == (True, False, False)
