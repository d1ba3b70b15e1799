"""The SparkSession of a campaign (Spark-only): a local or cluster session, or a Spark Connect client.

Everything a campaign asks of Spark goes through the DataFrame API, so the same code runs
on ``local[N]``, a cluster (``spark://``, YARN, Kubernetes) and Spark Connect (``--remote
sc://HOST:PORT``); nothing here or in :mod:`cfconform.spark_fuzz.job` touches an RDD, the
SparkContext or the driver JVM.  Classic sessions and Connect sessions have their own
column functions, windows and observations: :func:`sql_api` returns the right ones for a
session (a test process may hold one of each).

Classic sessions (``local[N]``, clusters): workers run the driver's Python
(``PYSPARK_PYTHON`` is set to ``sys.executable`` unless already set), see the driver's
``PYTHONPATH`` and working directory (so a ``module:attr`` adapter next to the user's
shell resolves on the executors of a local or single-machine cluster), and retry a failed
task (``local[N]`` becomes ``local[N,4]``; clusters get ``spark.task.maxFailures=4``).
The driver and executor JVMs run with the C1 JIT only (``-XX:TieredStopAtLevel=1``); the
driver JVM also with the serial collector, a heap that starts at 64 MB and grows to at most
:func:`driver_memory`, and a smaller code cache (:data:`DRIVER_JAVA_OPTIONS`), and Spark's
own log is hidden unless ``verbose``.  ``conf`` (``--conf KEY=VALUE``) overrides these
defaults (a ``spark.driver.extraJavaOptions`` of its own replaces the driver's, the quiet log
configuration kept).  Under ``spark-submit`` only ``conf`` is applied: spark-submit's own
``--conf`` values decide the rest.

Spark Connect: the server decides the cluster, its executors' Python and their retries
(they need cfconform installed); the client sets session settings only (``conf`` values
the server refuses to change are a usage error), and the log configuration does not apply.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import sys
import threading
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

from pyspark.sql import SparkSession

from cfconform.reference_model.errors import UNKNOWN_FIELD, ConfigurationError

from .options import DEFAULT_MASTER, LOCAL_TASK_ATTEMPTS, with_task_retries

#: A log4j2 configuration that shows Spark's errors only (``verbose`` keeps Spark's own).
QUIET_LOG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "log4j2-quiet.properties")
#: Session settings of every campaign (classic and Connect alike).
SESSION_SETTINGS = {"spark.sql.shuffle.partitions": "16"}
UI_PORTS = range(4040, 4140)
#: The driver JVM's options: it plumbs rows while Python does the work, so the C1 JIT alone (half the
#: CPU it takes from the Python workers, a smaller code cache) and the serial collector with a heap
#: that starts small keep it under 500 MB RSS through a 10^7-trace campaign's first minute on
#: ``local[2]`` (it reached 525 MB with G1 and a first heap of 1/64 of the machine's memory).
DRIVER_JAVA_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms64m -XX:ReservedCodeCacheSize=64m"
#: The driver's largest heap, in MB: this much, or per core of a local master (whose tasks run in
#: the driver JVM) this much more (8 cores: 1 GB, Spark's own default).
DRIVER_HEAP_MB, DRIVER_HEAP_MB_PER_LOCAL_CORE = 512, 128
_LOCAL_CORES = re.compile(r"^local(?:\[(\*|\d+)(?:,\d+)?\])?$")


def driver_memory(master: str) -> str:
    """``spark.driver.memory`` for ``master``: 512 MB, or 128 MB per core of a local master if more."""
    match = _LOCAL_CORES.match(master.strip())
    if match is None:
        return f"{DRIVER_HEAP_MB}m"
    given = match.group(1)
    cores = 1 if given is None else (os.cpu_count() or 1) if given == "*" else int(given)
    return f"{max(DRIVER_HEAP_MB, DRIVER_HEAP_MB_PER_LOCAL_CORE * cores)}m"


def executor_pythonpath() -> str:
    """The driver's ``PYTHONPATH`` plus its working directory."""
    parts = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if os.getcwd() not in parts:
        parts.append(os.getcwd())
    return os.pathsep.join(parts)


def is_connect(spark: Any) -> bool:
    """Whether ``spark`` is a Spark Connect client session."""
    return type(spark).__module__.startswith("pyspark.sql.connect")


def sql_api(spark: Any) -> SimpleNamespace:
    """``F`` (column functions), ``Window`` and ``Observation`` of ``spark``'s kind (classic or Connect)."""
    if is_connect(spark):
        from pyspark.sql.connect import functions
        from pyspark.sql.connect.observation import Observation
        from pyspark.sql.connect.window import Window
    else:
        from pyspark.sql import Window, functions
        from pyspark.sql.observation import Observation
    return SimpleNamespace(F=functions, Window=Window, Observation=Observation)


def _free_ui_port() -> int | None:
    """The first free port from 4040 (Spark's own choice), so the UI address can be told."""
    for port in UI_PORTS:
        with socket.socket() as s:
            try:
                s.bind(("", port))
            except OSError:
                continue
            return port
    return None


def build_session(master: str | None, app_name: str = "cfconform-fuzz", *, remote: str | None = None,
                  ui: bool = True, conf: dict[str, str] | None = None, verbose: bool = False) -> Any:  # fmt: skip
    """A session for ``master``, or a Spark Connect client of ``remote`` (see the module docstring).

    ``master=None``: the master ``spark-submit`` was given, or ``local[*]`` without ``spark-submit``.
    """
    if remote:
        return connect_session(remote, conf)
    submitted = bool(os.environ.get("PYSPARK_GATEWAY_PORT"))  # launched by spark-submit: its --conf decide
    if master is None and not submitted:
        master = DEFAULT_MASTER
    conf = dict(conf or {})
    # The driver JVM reads these when it starts (spark-submit passes --conf values to it in client
    # mode): our defaults or the caller's own options, Spark's start-up log hidden unless verbose.
    java = conf.get("spark.driver.extraJavaOptions", DRIVER_JAVA_OPTIONS)
    if not verbose and "log4j2.configurationFile" not in java:
        java = f"{java} -Dlog4j2.configurationFile=file:{QUIET_LOG}".strip()
    if not submitted:
        conf["spark.driver.extraJavaOptions"] = java
    settings: dict[str, Any] = {} if submitted else {
        **SESSION_SETTINGS,
        "spark.task.maxFailures": str(LOCAL_TASK_ATTEMPTS),
        "spark.executorEnv.PYTHONPATH": executor_pythonpath(),
        "spark.ui.enabled": "true" if ui else "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.parquet.compression.codec": "zstd",
        "spark.driver.memory": driver_memory(master or DEFAULT_MASTER),
        "spark.executor.extraJavaOptions": "-XX:TieredStopAtLevel=1",
    }  # fmt: skip
    launching = not submitted and SparkSession.getActiveSession() is None
    if launching and ui and "spark.ui.port" not in conf:
        port = _free_ui_port()  # (another process may take it first: Spark then binds the next one)
        if port is not None:
            settings["spark.ui.port"] = str(port)
    if not os.environ.get("PYSPARK_PYTHON"):
        os.environ["PYSPARK_PYTHON"] = sys.executable  # what PySpark ships to executors as the worker Python
    settings.update(conf)
    builder = SparkSession.builder.appName(app_name)
    if master is not None:
        builder = builder.master(with_task_retries(master))
    for key, value in settings.items():
        builder = builder.config(key, value)
    if not launching:
        return builder.getOrCreate()
    with _launcher_warning_dropped():
        return builder.getOrCreate()


#: What Spark's launcher makes every JVM print at start (it always adds the incubating Vector API
#: module; no option turns the warning off): a line on stderr that looks like an error.
LAUNCHER_WARNING = b"WARNING: Using incubator modules: jdk.incubator.vector"


@contextlib.contextmanager
def _launcher_warning_dropped() -> Iterator[None]:
    """Start the driver JVM with a pipe as its stderr, copied to ours as it comes, less the
    :data:`LAUNCHER_WARNING` line (issue 24: an error is one line; no noise before the first)."""
    read, write = os.pipe()
    ours = os.dup(2)
    os.dup2(write, 2)  # (the JVM inherits fd 2; this process writes to it meanwhile, through the pipe too)
    os.close(write)
    threading.Thread(target=_copy_stderr, args=(read, ours), name="cfconform-jvm-stderr", daemon=True).start()
    try:
        yield
    finally:
        os.dup2(ours, 2)  # ours again; the JVM (and the Python workers it starts) keep the pipe


def _copy_stderr(read: int, out: int) -> None:
    """Copy ``read`` to ``out`` as it comes (a live bar's unfinished line too), less the warning line."""
    line = LAUNCHER_WARNING + b"\n"
    pending = b""
    with contextlib.suppress(OSError):
        while chunk := os.read(read, 65536):
            data = (pending + chunk).replace(line, b"")
            # hold back only an end that may still become the warning line
            held = next((k for k in range(min(len(data), len(line) - 1), 0, -1) if line.startswith(data[-k:])), 0)
            data, pending = data[: len(data) - held], data[len(data) - held :]
            while data:
                data = data[os.write(out, data) :]
        if pending:
            os.write(out, pending)


def connect_session(remote: str, conf: dict[str, str] | None = None) -> Any:
    """A Spark Connect client session of ``remote`` with the campaign's session settings and ``conf``."""
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    spark = ConnectSession.builder.remote(remote).getOrCreate()
    # A job dies with the client that started it (a killed driver leaves no job behind to commit
    # blocks beside the rerun that resumes it); reattachable executions outlive it by minutes.
    spark.client.disable_reattachable_execute()
    for key, value in (SESSION_SETTINGS | (conf or {})).items():
        try:
            spark.conf.set(key, value)
        except Exception:
            spark.stop()
            allowed = "a session setting (a Spark Connect server's own settings are fixed when it starts)"
            raise ConfigurationError("--conf", f"{key}={value}", allowed, UNKNOWN_FIELD) from None
    return spark


def active_session(remote: str | None = None) -> Any:
    """The session of the asked kind already running in this process (tests, notebooks), if any."""
    if remote:
        from pyspark.sql.connect.session import SparkSession as ConnectSession

        return ConnectSession.getActiveSession()
    return SparkSession.getActiveSession()


def master_of(spark: Any) -> str:
    """The master the session's work runs on (for Spark Connect: the server's)."""
    return str(spark.conf.get("spark.master", "unknown"))


def parallelism(spark: Any) -> int:
    """The cluster's default parallelism: how many partitions ``spark.range`` makes by default.

    (One small Spark job: Spark's ``range`` splits into ``spark.sql.leafNodeDefaultParallelism``
    partitions, by default the cores of the executors, the figure a SparkContext calls its
    default parallelism.)
    """
    F = sql_api(spark).F
    row = spark.range(0, 1 << 16).select(F.spark_partition_id().alias("p")).agg(F.max("p").alias("p")).first()
    return int(row["p"]) + 1


def java_version(spark: Any) -> str:
    """The Java version of the cluster's JVMs (asked through SQL's ``reflect``), or ``unknown``."""
    F = sql_api(spark).F
    try:
        lit = F.lit
        row = spark.range(1).select(F.reflect(lit("java.lang.System"), lit("getProperty"), lit("java.version")))
        return str(row.first()[0])
    except Exception:  # reflection refused by the cluster's policy: a version is not worth failing for
        return "unknown"


def describe(spark: Any, remote: str | None = None) -> str | None:
    """Where to watch the session: the Spark UI of a classic session, the server of a Connect one."""
    if remote:
        return f"Spark Connect {remote} (Spark {spark.version}, master {master_of(spark)})"
    if spark.conf.get("spark.ui.enabled", "true") != "true":
        return None
    port = spark.conf.get("spark.ui.port", None)
    host = spark.conf.get("spark.driver.host", None)
    return f"Spark UI: http://{host}:{port}" if port and host else None
