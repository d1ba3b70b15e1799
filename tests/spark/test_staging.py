"""Resuming clears Spark's staging directories, waiting out a job still writing them (spark_fuzz/staging.py)."""

from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

from cfconform.spark_fuzz.arrowfs import ArrowFS
from cfconform.spark_fuzz.staging import StagingBusy, clean_staging


def _staging(out: Path, name: str = ".spark-staging-1") -> Path:
    where = out / "parts" / name / "block=3"
    where.mkdir(parents=True)
    (where / "part-0.parquet").write_bytes(b"x")
    return where.parent


def test_a_still_staging_directory_is_removed_and_done_blocks_are_kept(tmp_path):
    _staging(tmp_path)
    _staging(tmp_path, "_temporary")
    (tmp_path / "parts" / "block=0").mkdir()
    assert clean_staging(ArrowFS(str(tmp_path)), settle=0.01) == 1
    assert ["block=0"] == sorted(p.name for p in (tmp_path / "parts").iterdir())


def test_nothing_to_clean_returns_at_once(tmp_path):
    (tmp_path / "parts" / "block=0").mkdir(parents=True)
    assert clean_staging(ArrowFS(str(tmp_path)), patience=0) == 0


def test_a_job_still_writing_is_waited_for_until_its_directory_stays_away(tmp_path):
    """A writer that recreates its staging directory (a Connect server's job after its client was killed)."""
    stop = threading.Event()

    def writer() -> None:
        n = 0
        while not stop.is_set():
            where = tmp_path / "parts" / ".spark-staging-9" / f"block={n % 4}"
            with contextlib.suppress(FileNotFoundError):  # (removed between the two: write again)
                where.mkdir(parents=True, exist_ok=True)
                (where / f"part-{n}.parquet").write_bytes(b"x")
            n += 1
            time.sleep(0.001)

    _staging(tmp_path, ".spark-staging-9")
    thread = threading.Thread(target=writer)
    thread.start()
    threading.Timer(0.5, stop.set).start()
    try:
        rounds = clean_staging(ArrowFS(str(tmp_path)), patience=30, settle=0.2)
    finally:
        stop.set()
        thread.join()
    assert rounds >= 2, "the writer recreated its directory at least once"
    assert not (tmp_path / "parts" / ".spark-staging-9").exists()


def test_a_writer_that_never_stops_is_an_error_naming_the_directory(tmp_path):
    fs = ArrowFS(str(tmp_path))

    def recreate(seconds: float) -> None:
        _staging(tmp_path, ".spark-staging-7")

    ticks = iter(range(100))
    with pytest.raises(StagingBusy, match=r"parts.*\.spark-staging-7.*for 3 s"):
        _staging(tmp_path, ".spark-staging-7")
        clean_staging(fs, patience=3, settle=1, sleep=recreate, clock=lambda: float(next(ticks)))
