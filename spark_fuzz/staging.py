"""What an interrupted campaign left in ``parts/``: Spark's staging directories.

A killed ``cfconform fuzz`` leaves ``parts/.spark-staging-<job>`` (or ``_temporary``) behind.
Under a classic session the job died with the driver, so the directory is still and is
simply removed.  Under Spark Connect the job belongs to the server: killing the client does
not stop it, so on resume its tasks may still be writing there and will commit (or fail)
later.  Resuming then waits until that writer has gone (its staging directory removed and
not recreated for a moment) before the done blocks are counted, so the two jobs never
commit the same block at once.  A writer that outlives ``patience`` seconds is an error
naming the directory, never a silent mix of two jobs' files.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from cfconform.spark_fuzz.arrowfs import ArrowFS

log = logging.getLogger("cfconform.fuzz")

PATIENCE = 600.0
"""Seconds to wait for an earlier job still writing into ``parts/`` (a wave rarely takes a minute)."""
SETTLE = 2.0
"""Seconds a removed staging directory must stay away before its writer counts as gone."""


class StagingBusy(Exception):
    """An earlier job (a Spark Connect server's, its client killed) is still writing into ``parts/``."""


def staging_names(fs: ArrowFS) -> list[str]:
    """Names under ``parts/`` that a Spark write stages in (never read as results)."""
    return [n for n in fs.list_names(fs.path("parts")) if n.startswith(".spark-staging-") or n == "_temporary"]


def clean_staging(fs: ArrowFS, patience: float = PATIENCE, settle: float = SETTLE,
                  sleep: Callable[[float], None] = time.sleep,
                  clock: Callable[[], float] = time.monotonic) -> int:  # fmt: skip
    """Remove the staging directories, waiting out a job still writing them; returns how many rounds it took.

    Raises :class:`StagingBusy` if staging directories keep coming back for ``patience`` seconds.
    """
    deadline = clock() + patience
    rounds = 0
    while True:
        names = staging_names(fs)
        if not names:
            return rounds
        rounds += 1
        busy = _remove(fs, names)
        if busy:
            log.info("an earlier job is still writing %s; waiting for it", ", ".join(busy))
        if clock() >= deadline:
            where = fs.local_path(fs.path("parts"))
            raise StagingBusy(
                f"an earlier job kept writing into {where} ({', '.join(names)}) for {patience:.0f} s: stop it "
                "(a Spark Connect server keeps running a killed client's job) or wait, then rerun to resume"
            )  # fmt: skip
        sleep(settle)


def _remove(fs: ArrowFS, names: list[str]) -> list[str]:
    """Delete each staging directory; the names that could not be removed (files still arriving)."""
    busy = []
    for name in names:
        try:
            fs.delete(fs.path("parts", name))
        except OSError:
            busy.append(name)
    return busy
