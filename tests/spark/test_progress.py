"""Progress of ``fuzz`` and ``diff`` as a CI log sees it (issue 24), each in its own process and JVM:
a line on stderr within 2 s of the command starting, then at least every 2 s to its end (while
Spark starts, blocks run, tables are consolidated, reports written and Spark stops), an ETA while
blocks run; ``-q`` silences it.  And a corrupt Parquet file given to ``diff`` is exit 2 in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.gate.test_exit_contract_progress import assert_steady, timed_stderr
from tests.spark.conftest import _require_java

pytestmark = [pytest.mark.spark, pytest.mark.xdist_group("spark")]

CAMPAIGN = ["--adapter", "reference", "--traces", "1200", "--steps", "10", "--profile", "mq", "--master", "local[2]"]


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, list[tuple[float, str]], float]:
    """One small campaign run by ``cfconform fuzz`` (its output, exit code, timed stderr lines, seconds)."""
    _require_java()
    out = tmp_path_factory.mktemp("progress") / "campaign"
    code, lines, ended = timed_stderr("fuzz", *CAMPAIGN, "--out", str(out))
    return out, code, lines, ended


def ours(lines: list[tuple[float, str]], label: str) -> list[tuple[float, str]]:
    """Our lines (the JVM's launcher may print one of its own, e.g. about incubator modules)."""
    return [(t, text) for t, text in lines if text.startswith(label)]


def test_fuzz_reports_progress_within_2_s_and_every_2_s_to_its_end(fuzzed):
    _, code, lines, ended = fuzzed
    assert code == 0, lines
    mine = ours(lines, "cfconform fuzz:")
    assert_steady(mine, ended)
    texts = [text for _, text in mine]
    assert any("ETA" in t and "ETA -" not in t for t in texts), texts  # a rate and an ETA while blocks run
    assert any("starting Spark" in t for t in texts) and texts[-1].startswith("cfconform fuzz: done in"), texts
    assert sum("Spark UI: http" in t for t in texts) == 1, texts  # printed once


def test_diff_reports_progress_within_2_s_and_every_2_s_to_its_end(fuzzed):
    out, *_ = fuzzed
    code, lines, ended = timed_stderr("diff", str(out), str(out), "--master", "local[2]")
    assert code == 0, lines
    mine = ours(lines, "cfconform diff:")
    assert_steady(mine, ended)
    assert any("joining" in text for _, text in mine), mine


def test_quiet_silences_fuzz_and_diff(fuzzed, tmp_path: Path):
    out, *_ = fuzzed
    copy = tmp_path / "campaign"
    shutil.copytree(out, copy)
    (copy / "summary.json").unlink()  # consolidated and reported again: Spark starts and runs jobs
    code, lines, _ = timed_stderr("-q", "fuzz", *CAMPAIGN, "--out", str(copy))
    assert (code, ours(lines, "cfconform")) == (0, []), lines
    code, lines, _ = timed_stderr("-q", "diff", str(out), str(copy), "--master", "local[2]")
    assert (code, ours(lines, "cfconform")) == (0, []), lines


def test_diff_of_a_corrupt_parquet_file_is_exit_2_in_one_line(fuzzed, tmp_path: Path):
    out, *_ = fuzzed
    corrupt = tmp_path / "corrupt"
    corrupt.mkdir()
    (corrupt / "campaign.json").write_text((out / "campaign.json").read_text())
    (corrupt / "divergences").mkdir()
    (corrupt / "divergences" / "part-00000.parquet").write_bytes(b"PAR1 this is not parquet at all PAR1")
    code, lines, _ = timed_stderr("-q", "diff", str(out), str(corrupt), "--master", "local[2]")
    mine = ours(lines, "cfconform")
    assert (code, len(mine), any("Traceback" in t for _, t in lines)) == (2, 1, False), lines
    assert "RUN_A/RUN_B" in mine[0][1] and json.loads((out / "campaign.json").read_text())
