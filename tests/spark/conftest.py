"""Spark sessions for the Spark tests: one of each kind, shared by every test of that kind.

``local``: a classic ``local[2,4]`` session in this process (two cores; a failed task is retried).
``connect``: a Spark Connect client of a local Spark Connect server, started once from the
installed PySpark (``sbin/start-connect-server.sh``, ``local[2,4]`` inside, a free port) and
stopped at the end (``sbin/stop-connect-server.sh``, then by its process ID).  The two
sessions live side by side: the code under test picks each session's own column functions
(:func:`cfconform.spark_fuzz.session.sql_api`).

Spark tests are marked ``spark`` and ``xdist_group("spark")``: with ``pytest -n 2
--dist loadgroup`` they all run in one xdist worker and share these JVMs.  Under plain
``--dist load`` they still pass, but each worker that receives a Spark test starts its own.
``cluster`` tests also start a standalone master and worker (``-m "not cluster"`` skips them).
Without Java every Spark test is skipped, saying so.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from cfconform.spark_fuzz.testing import KILL_DIR_ENV

KINDS = ("local", "connect")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "cluster: starts a Spark standalone master and worker on 127.0.0.1")
    config.addinivalue_line("markers", "nightly: a long campaign, run only with CFCONFORM_NIGHTLY=1")


def _require_java() -> None:
    if not (shutil.which("java") or os.environ.get("JAVA_HOME")):
        pytest.skip("Spark needs Java (17 or later) on PATH or in JAVA_HOME; none here")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(check: Callable[[], Any], what: str, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError, ValueError):
            if check():
                return
        time.sleep(0.5)
    raise TimeoutError(f"{what} did not come up within {timeout} s")


def answers(port: int) -> bool:
    socket.create_connection(("127.0.0.1", port), timeout=1).close()
    return True


@pytest.fixture(scope="session")
def kill_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Per kind, where :class:`cfconform.spark_fuzz.testing.KillOnce` leaves its marker (only Spark's Python workers
    see it)."""
    return {kind: tmp_path_factory.mktemp(f"kill-once-{kind}") for kind in KINDS}


@pytest.fixture(scope="session")
def spark(kill_dirs) -> Iterator[Any]:
    """The classic ``local[2,4]`` session."""
    from cfconform.spark_fuzz.session import build_session

    _require_java()
    conf = {f"spark.executorEnv.{KILL_DIR_ENV}": str(kill_dirs["local"]), "spark.sql.shuffle.partitions": "4",
            "spark.driver.memory": "1g"}  # fmt: skip
    session = build_session("local[2]", "cfconform-tests", ui=False, conf=conf)
    yield session
    session.stop()


def _pid_of(pid_dir: Path) -> int | None:
    found = sorted(pid_dir.glob("*SparkConnectServer*.pid"))
    return int(found[0].read_text().strip()) if found else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture(scope="session")
def connect_server(kill_dirs, tmp_path_factory) -> Iterator[str]:
    """A Spark Connect server on 127.0.0.1 (``local[2,4]`` inside); yields its ``sc://`` URL."""
    import pyspark

    _require_java()
    spark_home = Path(pyspark.__file__).parent
    start, stop = spark_home / "sbin" / "start-connect-server.sh", spark_home / "sbin" / "stop-connect-server.sh"
    if not start.exists():
        pytest.fail(f"this PySpark has no {start.name} (Spark 4 ships the Spark Connect server; 3.5 needs --packages)")
    base = tmp_path_factory.mktemp("connect-server")
    (base / "conf").mkdir()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_SUBMIT_ARGS", "SPARK_REMOTE", "MASTER")} | {
        "SPARK_HOME": str(spark_home), "SPARK_CONF_DIR": str(base / "conf"), "SPARK_LOG_DIR": str(base),
        "SPARK_PID_DIR": str(base), "SPARK_IDENT_STRING": "cfconform-tests", "SPARK_LOCAL_IP": "127.0.0.1",
        # (local mode: the server's Python workers inherit its environment; a Connect client's
        # spark.executorEnv settings never reach them)
        "PYSPARK_PYTHON": sys.executable, KILL_DIR_ENV: str(kill_dirs["connect"]),
    }  # fmt: skip
    confs = {
        "spark.connect.grpc.binding.address": "127.0.0.1", "spark.connect.grpc.binding.port": str(port),
        "spark.ui.enabled": "false", "spark.sql.shuffle.partitions": "4",
        "spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1",
    }  # fmt: skip
    argv = [str(start), "--master", "local[2,4]", "--driver-memory", "1g"]
    for key, value in confs.items():
        argv += ["--conf", f"{key}={value}"]
    started = subprocess.run(argv, env=env, cwd=base, capture_output=True, text=True, timeout=120, check=False)
    pid = _pid_of(base)
    logs = lambda: "\n".join(p.read_text(errors="replace")[-3000:] for p in base.glob("*.out"))  # noqa: E731
    try:
        if started.returncode != 0 or pid is None:
            pytest.fail(f"the Spark Connect server did not start: {started.stdout}{started.stderr}{logs()}")
        wait_for(lambda: answers(port) or not _alive(pid), "the Spark Connect server", timeout=120)
        if not _alive(pid):
            pytest.fail(f"the Spark Connect server exited: {logs()}")
        yield f"sc://127.0.0.1:{port}"
    finally:
        subprocess.run([str(stop)], env=env, cwd=base, capture_output=True, timeout=60, check=False)
        if pid is not None:
            for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
                deadline = time.monotonic() + wait
                while _alive(pid) and time.monotonic() < deadline:
                    time.sleep(0.2)
                if not _alive(pid):
                    break
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, sig)


@pytest.fixture(scope="session")
def connect_spark(connect_server) -> Iterator[Any]:
    """A Spark Connect client session of :func:`connect_server`."""
    from cfconform.spark_fuzz.session import connect_session

    session = connect_session(connect_server, {"spark.sql.shuffle.partitions": "4"})
    yield session
    session.stop()


@pytest.fixture(scope="session")
def sessions(request) -> Callable[[str], Any]:
    """``sessions(kind)``: the shared session of ``kind`` (``local`` or ``connect``), started on first use."""

    def get(kind: str) -> Any:
        return request.getfixturevalue({"local": "spark", "connect": "connect_spark"}[kind])

    return get


@pytest.fixture(scope="session")
def table(spark) -> Callable[..., list[tuple]]:
    """``table(out, "divergences", columns)``: the sorted rows of one of a campaign's Parquet tables."""

    def read(out: Any, name: str, columns: Sequence[str]) -> list[tuple]:
        frame = spark.read.parquet(f"{out}/{name}").select(*columns)
        rows = [tuple(tuple(v) if isinstance(v, list) else v for v in r) for r in frame.collect()]
        return sorted(rows, key=lambda row: tuple((v is None, v if v is not None else 0) for v in row))

    return read
