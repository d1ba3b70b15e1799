"""The SparkSession of a campaign (Spark-only).

Workers run the driver's Python (``PYSPARK_PYTHON`` is set to ``sys.executable``
unless already set), see the driver's ``PYTHONPATH`` and working directory (so a
``module:attr`` adapter next to the user's shell resolves on the executors of a
local or single-machine cluster), and retry a failed task (``local[N]`` becomes
``local[N,4]``; clusters get ``spark.task.maxFailures=4``).  The driver and executor
JVMs run with the C1 JIT only (``-XX:TieredStopAtLevel=1``).  ``conf`` (``--conf KEY=VALUE``)
overrides these defaults, and so does ``spark-submit --conf``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from pyspark.sql import SparkSession

from spark_fuzz.options import DEFAULT_MASTER, LOCAL_TASK_ATTEMPTS, with_task_retries


def executor_pythonpath() -> str:
    """The driver's ``PYTHONPATH`` plus its working directory."""
    parts = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if os.getcwd() not in parts:
        parts.append(os.getcwd())
    return os.pathsep.join(parts)


#: A log4j2 configuration that shows Spark's errors only (``verbose`` keeps Spark's own).
QUIET_LOG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "log4j2-quiet.properties")


def build_session(master: str | None, app_name: str = "cfconform-fuzz", *, ui: bool = True,
                  conf: dict[str, str] | None = None, verbose: bool = False) -> SparkSession:  # fmt: skip
    """A SparkSession for ``master`` (see the module docstring); ``conf`` overrides the defaults.

    ``master=None``: the master ``spark-submit`` was given, or ``local[*]`` without ``spark-submit``.
    """
    settings: dict[str, Any] = {
        "spark.task.maxFailures": str(LOCAL_TASK_ATTEMPTS),
        "spark.executorEnv.PYTHONPATH": executor_pythonpath(),
        "spark.sql.shuffle.partitions": "16",
        "spark.ui.enabled": "true" if ui else "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.parquet.compression.codec": "zstd",
        # The JVMs only plumb rows (Python does the work): the C1 JIT alone halves the CPU they take
        # from the Python workers and starts faster (benchmarks/campaign_throughput.py).
        "spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1"
        + ("" if verbose else f" -Dlog4j2.configurationFile=file:{QUIET_LOG}"),
        "spark.executor.extraJavaOptions": "-XX:TieredStopAtLevel=1",
    }
    launching = not os.environ.get("PYSPARK_GATEWAY_PORT") and SparkSession.getActiveSession() is None
    if launching and not verbose and not os.environ.get("PYSPARK_SUBMIT_ARGS"):
        # the driver JVM reads its log configuration when it starts: Spark's start-up lines hidden
        quiet = f"-Dlog4j2.configurationFile=file:{QUIET_LOG}"
        os.environ["PYSPARK_SUBMIT_ARGS"] = f'--driver-java-options "{quiet}" pyspark-shell'
    if not os.environ.get("PYSPARK_PYTHON"):
        os.environ["PYSPARK_PYTHON"] = sys.executable  # what PySpark ships to executors as the worker Python
    if os.environ.get("PYSPARK_GATEWAY_PORT"):  # under spark-submit: its --conf values win over our defaults
        from pyspark import SparkConf, SparkContext

        SparkContext._ensure_initialized()
        given = SparkConf()
        settings = {k: v for k, v in settings.items() if not given.contains(k)}
    settings.update(conf or {})
    builder = SparkSession.builder.appName(app_name)
    if master is None and not os.environ.get("PYSPARK_GATEWAY_PORT"):  # not launched by spark-submit
        master = DEFAULT_MASTER
    if master is not None:
        builder = builder.master(with_task_retries(master))
    for key, value in settings.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    if verbose:
        spark.sparkContext.setLogLevel("WARN")
    return spark


def active_session() -> SparkSession | None:
    """The session already running in this process (tests, notebooks), if any."""
    return SparkSession.getActiveSession()
