"""One Spark session for every Spark test: ``local[2,4]`` (two cores; a failed task is retried).

Spark tests are marked ``spark`` and ``xdist_group("spark")``: with ``pytest -n auto
--dist loadgroup`` they all run in one xdist worker and share this one JVM.  Under
plain ``-n auto`` (``--dist load``) they still pass, but each worker that receives a
Spark test starts its own session.  ``cluster`` tests also start a standalone master
and worker (``-m "not cluster"`` skips them).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from spark_fuzz.testing import KILL_DIR_ENV


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "cluster: starts a Spark standalone master and worker on 127.0.0.1")


@pytest.fixture(scope="session")
def kill_dir(tmp_path_factory: pytest.TempPathFactory):
    """Where :class:`spark_fuzz.testing.KillOnce` leaves its marker (only Spark's Python workers see it)."""
    return tmp_path_factory.mktemp("kill-once")


@pytest.fixture(scope="session")
def spark(kill_dir) -> Iterator[Any]:
    from spark_fuzz.session import build_session

    if not (shutil.which("java") or os.environ.get("JAVA_HOME")):
        pytest.skip("Spark needs Java (17) on PATH or JAVA_HOME")
    conf = {f"spark.executorEnv.{KILL_DIR_ENV}": str(kill_dir), "spark.sql.shuffle.partitions": "4",
            "spark.driver.memory": "1g"}  # fmt: skip
    session = build_session("local[2]", "cfconform-tests", ui=False, conf=conf)
    yield session
    session.stop()


@pytest.fixture(scope="session")
def table(spark) -> Callable[..., list[tuple]]:
    """``table(out, "divergences", columns)``: the sorted rows of one of a campaign's Parquet tables."""

    def read(out: Any, name: str, columns: Sequence[str]) -> list[tuple]:
        frame = spark.read.parquet(f"{out}/{name}").select(*columns)
        rows = [tuple(tuple(v) if isinstance(v, list) else v for v in r) for r in frame.collect()]
        return sorted(rows, key=lambda row: tuple((v is None, v if v is not None else 0) for v in row))

    return read
