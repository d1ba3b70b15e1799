"""``cfconform diff RUN_A RUN_B``: new, fixed and changed failures between two fuzz campaigns.

Example::

    cfconform diff cfconform-campaign-v1 cfconform-campaign-v2

Joins the two campaigns' ``divergences/`` tables on ``(seed, profile)`` with Spark
(``local[*]``, ``--master URL``, or a Spark Connect server: ``--remote sc://HOST:PORT``) and
prints, as tables: failures new in B, fixed in B and changed (the same trace fails
differently).  A trace only one campaign ran is "not-compared".  Exit 0; 2 when a RUN is no
campaign (a local one is checked before the JVM starts), a table is unreadable, or Java is
missing.  Progress on stderr from the first 2 s to the end (``-q``: none).
"""

from __future__ import annotations

import argparse

NAME = "diff"
HELP = "compare two fuzz campaigns: new, fixed and changed failures (Spark join on seed and profile)"


def configure(parser: argparse.ArgumentParser) -> None:
    from cfconform.spark_fuzz.options import configure_diff, extra_first

    configure_diff(parser)
    extra_first(parser, NAME)  # a core install: even `cfconform diff` alone names the extra


def run(args: argparse.Namespace) -> int:
    from ..spark_command import run_spark_command

    return run_spark_command(NAME, "diff_main", args)  # a core install: one line naming the extra, exit 2
