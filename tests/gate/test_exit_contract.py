"""The exit-code contract (README, issue 24): 0 conforms with something judged, 1 does not conform,
2 usage or configuration, 3 implementation or protocol, 4 nothing judged; errors in one line, found
before the work starts; progress on stderr."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from cfconform.cli.main import main
from cfconform.conformance.progress import Progress

REPO = Path(__file__).resolve().parents[2]
FAST = ["--hypothesis-profile", "dev", "--seed", "1", "--profile", "mq"]


def _cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cfconform.cli", *args], cwd=REPO, capture_output=True, text=True, timeout=timeout
    )


@pytest.mark.parametrize("rules", ["NOPE-*", "offload-*"])  # (a case typo matches nothing too)
def test_rules_matching_nothing_exit_4_with_one_line(rules: str):
    done = _cli("run", "--adapter", "reference", *FAST, "--rules", rules)
    assert (done.returncode, len(done.stderr.strip().splitlines()), "Traceback" in done.stderr) == (4, 1, False)


def test_an_unwritable_report_dir_exits_2_before_the_implementation_starts(tmp_path: Path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    start = time.monotonic()
    done = _cli("run", "--adapter", "tests.gate.faulty:Crashes", *FAST, "--report-dir", str(blocker / "sub"))
    assert (done.returncode, "--report-dir" in done.stderr, "Traceback" in done.stderr) == (2, True, False)
    assert time.monotonic() - start < 2  # the gate never ran (the bound)


def test_version_is_printed(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert (exc.value.code, capsys.readouterr().out.startswith("cfconform ")) == (0, True)


def test_an_unexpected_error_is_one_line_and_never_exit_1(monkeypatch: pytest.MonkeyPatch, capsys):
    import cfconform.cli.commands.rules as rules_command

    def broken(args):
        raise RuntimeError("boom")

    monkeypatch.setattr(rules_command, "run", broken)
    code = main(["rules"])
    err = capsys.readouterr().err
    assert (code, err.count("\n"), "Traceback" in err, "boom" in err) == (3, 1, False, True)


def test_progress_reports_within_two_seconds_and_says_done():
    class Recorder:
        cases, steps, first_failure_at = 0, 0, None

    lines: list[str] = []

    class Stream:
        def write(self, text: str) -> None:
            lines.extend(t for t in text.splitlines() if t)

        def flush(self) -> None:
            pass

    rec = Recorder()
    with Progress("test", 10, stream=Stream(), interval=0.2) as progress:  # type: ignore[arg-type]
        progress.watch("mq", rec)
        rec.cases, rec.steps = 4, 40
        time.sleep(0.5)
    assert lines[0] == "test: started" and any("4/10 cases 40 steps" in line for line in lines)
    assert lines[-1].endswith("(done)")


def test_quiet_silences_progress():
    lines: list[str] = []

    class Stream:
        def write(self, text: str) -> None:
            lines.append(text)

        def flush(self) -> None:
            pass

    with Progress("test", 10, quiet=True, stream=Stream(), interval=0.1):  # type: ignore[arg-type]
        time.sleep(0.3)
    assert lines == []


def test_a_crash_mid_reply_is_exit_3_with_its_exit_code_and_stderr(tmp_path: Path):
    server = REPO / "tests" / "gate" / "crashy_server.py"
    done = _cli("run", "--adapter-cmd", f"{sys.executable} {server}", *FAST, "--report-dir", str(tmp_path))
    out = done.stdout + done.stderr
    assert (done.returncode, "exited with code 7" in out, "boom" in out, "flaky" in out) == (3, True, True, False)
    assert list((tmp_path / "reproducers").glob("*.json"))  # the steps up to the crash, to replay


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--structure-size", "2000000G", "--reserve", "10"], "--structure-size"),
        (["--usable-pct", "768000"], "--usable-pct"),
        (["--name", "THISISAVERYLONGNAMEOFSTRUCTURE"], "--name"),
        (["--fullthreshold", "101"], "--fullthreshold"),
    ],
)
def test_size_refuses_nonsense_in_one_line(args: list[str], option: str, capsys):
    code = main(["size", "--messages", "10", "--avg-size", "1K", *args])
    err = capsys.readouterr().err
    assert (code, err.count("\n"), option in err, "Traceback" in err) == (2, 1, True, False)


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--admin", "--qmgrs", "0"], "--qmgrs"),
        (["--admin", "--qmgrs", "33"], "--qmgrs"),
        (["--admin", "--qmgrs", "4", "--admin-table", "v7"], "--admin-table"),
        (["--admin", "--qmgrs", "4", "--qsg", "QSG12"], "--qsg"),
        (["--admin"], "--qmgrs"),
        (["--admin", "--qmgrs", "4", "--messages", "10"], "--messages"),
        (["--csqsysappl", "--channels", "500000000"], "--channels"),
        (["--csqsysappl", "--group-urs", "1000000000"], "--group-urs"),
        (["--csqsysappl", "--qmgrs", "4"], "--qmgrs"),
        (["--admin", "--csqsysappl", "--qmgrs", "4"], "--csqsysappl"),
        (["--messages", "512000000000", "--avg-size", "1K"], "--messages"),
        (["--messages", "10"], "--avg-size"),
        (["--messages", "10", "--avg-size", "1K", "--channels", "2"], "--channels"),
    ],
)
def test_size_admin_and_csqsysappl_refuse_nonsense_in_one_line(args: list[str], option: str, capsys):
    code = main(["size", *args])
    err = capsys.readouterr().err
    assert (code, err.count("\n"), option in err, "Traceback" in err) == (2, 1, True, False)


def test_size_uses_the_usable_share(capsys):
    main(["size", "--messages", "200000", "--avg-size", "1K", "--format", "json"])
    whole = capsys.readouterr().out
    main(["size", "--messages", "200000", "--avg-size", "1K", "--usable-pct", "50", "--format", "json"])
    half = capsys.readouterr().out
    import json

    assert json.loads(half)["required_mb"] == pytest.approx(2 * json.loads(whole)["required_mb"])


@pytest.mark.parametrize("command", ["fuzz", "diff"])
def test_spark_commands_without_java_exit_2_in_one_line(command: str, tmp_path: Path):
    env = {"HOME": str(tmp_path), "PATH": str(Path(sys.executable).parent)}  # no java on it
    runs = [tmp_path / "a", tmp_path / "b"]
    for run in runs:  # (what diff checks before it asks for Java)
        (run / "divergences").mkdir(parents=True)
        (run / "campaign.json").write_text("{}")
    args = {"fuzz": ["--adapter", "reference", "--traces", "10", "--steps", "5", "--out", str(tmp_path / "out")],
            "diff": [str(r) for r in runs]}[command]  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "cfconform.cli", command, *args],
        cwd=REPO, capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert (done.returncode, "Java" in done.stderr, len(done.stderr.strip().splitlines())) == (2, True, 1)


def test_mutants_matching_nothing_exit_4():
    done = _cli("mutants", "--only", "NOPE-*")
    assert (done.returncode, "Traceback" in done.stderr) == (4, False)


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["diff", "/nonexistent/run-a", "/nonexistent/run-b"], "RUN_A"),
        (["check-protocol", "--adapter", "wire:python3 'unbalanced"], "--adapter"),
        (["run", "--adapter", "wire:python3 'unbalanced", *FAST], "--adapter"),
        (["fuzz", "--adapter", "reference", "--traces", "10", "--steps", "1000000000"], "--steps"),
        (["fuzz", "--adapter", "reference", "--traces", "1000000000000000", "--steps", "10"], "--traces"),
        (["replay", "/nonexistent/transcript.json", "--adapter", "reference"], "transcript"),
    ],
)
def test_bad_input_is_exit_2_in_one_line_before_any_work(args: list[str], option: str):
    start = time.monotonic()
    done = _cli(*args)
    assert (done.returncode, option in done.stderr, "Traceback" in done.stderr, "[none" in done.stderr) == (
        2,
        True,
        False,
        False,
    )
    assert len(done.stderr.strip().splitlines()) == 1 and time.monotonic() - start < 20  # no JVM, no gate


def test_the_readme_exit_code_table_is_what_help_shows(capsys: pytest.CaptureFixture[str]):
    """README.md's table and ``--help`` state one contract (cfconform.cli.main.EXIT_CODES), row by row."""
    from cfconform.cli.main import EXIT_CODES

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    table = readme.split("Exit codes, the same for every command:", 1)[1].split("\n\n", 2)[1]
    rows = [line.strip("|").split("|") for line in table.splitlines()[2:]]
    assert [(int(code), text.strip().replace("`", "")) for code, text in rows] == list(EXIT_CODES)
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    shown = capsys.readouterr().out
    assert all(f"  {code}  {text}" in shown for code, text in EXIT_CODES)


def test_on_a_terminal_progress_is_a_live_bar_and_status_lines_go_above_it():
    import io

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    class Recorder:
        cases, steps, first_failure_at = 0, 0, None

    screen, rec = Terminal(), Recorder()
    with Progress("test", 10, stream=screen, interval=0.2) as progress:
        progress.watch("mq", rec)
        rec.cases, rec.steps = 4, 40
        progress.say("a status line")
        time.sleep(0.8)
    shown = screen.getvalue()
    assert "\r" in shown and "4/10" in shown and "40 steps" in shown  # redrawn in place, not line by line
    assert "a status line\n" in shown and "test: started" not in shown
