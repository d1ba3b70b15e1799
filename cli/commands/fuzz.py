"""``cfconform fuzz``: a seeded fuzz campaign on Spark (or locally), resumable, with triage.

Examples::

    cfconform fuzz --adapter reference --traces 100000 --steps 20
    cfconform fuzz --adapter mutant:M-CFLEVEL-002-b --traces 100000 --steps 20 --profile mq --out /tmp/c1
    cfconform fuzz --adapter-cmd "node examples/node-adapter/adapter.js" --traces 1000000 --steps 30 \\
        --master spark://head:7077 --out hdfs://namenode:8020/campaigns/node-1
    cfconform fuzz --adapter reference --traces 1000000 --steps 20 --remote sc://spark-connect:15002 \\
        --out s3a://bucket/campaigns/ref-1

Spark runs in this process (``local[*]`` by default), on a cluster (``--master``), or on a
Spark Connect server (``--remote sc://HOST:PORT``, or the ``SPARK_REMOTE`` environment
variable; needs ``pip install 'cfconform[connect]'``); the same arguments work with
``spark-submit spark_fuzz/job.py``.  Writes Parquet tables
(``divergences/``, ``coverage/``, ``blocks/``, ``meta/``, with ``--full-traces`` also
``traces/``), one minimised reproducer per failure signature (``reproducers/``, replay
with ``cfconform replay``) and ``report.md``/``report.html`` to ``--out``.  Rerunning
the same command resumes an interrupted campaign; other arguments with the same
``--out`` are refused (exit 2).  Exit codes: 0 nothing found, 1 divergences,
2 usage or configuration error (found before Spark starts: bounds, ``--out``, Java), 3 adapter
faults, 4 nothing judged (no rule of a family the implementation claims decided a step).
Progress on stderr from the first 2 s to the end, at least every 2 s (``-q``: none; ``-v``: a
line per Spark job and Spark's own log).
"""

from __future__ import annotations

import argparse

NAME = "fuzz"
HELP = "run a seeded fuzz campaign on Spark: Parquet results, minimised reproducers, report"


def configure(parser: argparse.ArgumentParser) -> None:
    from cfconform.spark_fuzz.options import configure_fuzz, extra_first

    configure_fuzz(parser)
    extra_first(parser, NAME)  # a core install: even `cfconform fuzz` alone names the extra


def run(args: argparse.Namespace) -> int:
    from ..spark_command import run_spark_command

    return run_spark_command(NAME, "fuzz_main", args)  # a core install: one line naming the extra, exit 2
