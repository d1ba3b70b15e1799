"""Progress of ``run`` and ``mutants`` as a CI log sees it (issue 24): a line on stderr within 2 s of
the command starting and then at least every 2 s to its end; ``-q`` silences it, ``-v`` adds a line
per case (run) or per mutant.  ``fuzz`` and ``diff``: ``tests/spark/test_progress.py``."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FAST = ["--hypothesis-profile", "dev", "--seed", "1", "--profile", "mq"]
#: The bound (2 s) plus what the reading side may add on a loaded machine; the lines are due every 1.6 s.
BOUND = 2.0 + 0.3


def timed_stderr(*args: str, timeout: float = 300) -> tuple[int, list[tuple[float, str]], float]:
    """Run ``cfconform ARGS``; its exit code, each stderr line with the seconds since it was started,
    and the seconds it took."""
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cfconform.cli", *args],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    lines = [(time.monotonic() - start, line.rstrip("\n")) for line in proc.stderr]
    code = proc.wait(timeout=timeout)
    return code, lines, time.monotonic() - start


def assert_steady(lines: list[tuple[float, str]], ended: float) -> None:
    """The first line within 2 s, no gap longer than the bound, the last one close to the end."""
    times = [t for t, _ in lines]
    assert times and times[0] <= 2.0, lines[:2]
    gaps = [b - a for a, b in zip([*times], [*times[1:], ended], strict=True)]
    assert max(gaps) <= BOUND, f"a gap of {max(gaps):.2f} s: {lines}"


def test_run_reports_progress_within_2_s_and_every_2_s_after(tmp_path: Path):
    code, lines, ended = timed_stderr("run", "--adapter", "tests.gate.faulty:Slow", *FAST, "--out", str(tmp_path))
    assert code == 0 and ended > 2 * BOUND, (code, ended)  # long enough to show the period
    assert_steady(lines, ended)
    assert any("cases" in text and "ETA" in text for _, text in lines), lines
    assert lines[-1][1].endswith("(done)")


def test_mutants_report_progress_within_2_s_and_every_2_s_after():
    code, lines, ended = timed_stderr("mutants", "--only", "M-QDEPTH-0*", "--no-reproducer", *FAST[:4])
    assert code in (0, 1) and ended > 2 * BOUND, (code, ended)
    assert_steady(lines, ended)
    assert any("mutants" in text and "ETA" in text for _, text in lines), lines


def test_quiet_silences_and_verbose_adds_a_line_per_case(tmp_path: Path):
    code, quiet, _ = timed_stderr("-q", "run", "--adapter", "reference", *FAST, "--out", str(tmp_path / "q"))
    assert (code, quiet) == (0, [])
    code, verbose, _ = timed_stderr("-v", "run", "--adapter", "reference", *FAST, "--out", str(tmp_path / "v"))
    cases = [text for _, text in verbose if "cfconform.gate: case " in text]
    assert code == 0 and len(cases) >= 100, verbose[:5]  # the dev profile: 100 generated cases and more


def test_quiet_and_verbose_mutants():
    args = ["mutants", "--only", "M-QDEPTH-001-a,M-QDEPTH-002-a", "--no-reproducer", *FAST[:4]]
    code, quiet, _ = timed_stderr("-q", *args)
    assert (code, quiet) == (0, [])
    code, verbose, _ = timed_stderr("-v", *args)
    per_mutant = [text for _, text in verbose if "conformance.mutation: mutants " in text]  # the logger keeps its name
    assert (code, len(per_mutant)) == (0, 2), verbose
