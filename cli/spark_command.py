"""The Spark commands' shared start (``fuzz``, ``diff``): Spark is imported only when one runs."""

from __future__ import annotations

import argparse
import sys


def run_spark_command(command: str, entry: str, args: argparse.Namespace) -> int:
    """Run ``spark_fuzz.job.<entry>(args)`` for ``cfconform <command>``.  Without the ``spark`` extra
    (a core install) print the missing extra's one line and return 2 before importing Spark."""
    from cfconform.spark_fuzz.options import missing_spark

    problem = missing_spark(command)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    from cfconform.spark_fuzz import job

    return int(getattr(job, entry)(args))
