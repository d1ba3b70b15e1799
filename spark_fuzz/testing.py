"""Adapters for exercising campaign resilience (used by tests/spark and by hand).

:class:`KillOnce` wraps an adapter; the Python process running it dies
(``os._exit``) when it opens its ``KILL_AT``-th trace, once per marker directory:
the first process to get there creates ``<dir>/killed`` atomically and exits; every
later process (Spark's retry included) finds the marker and behaves like the wrapped
adapter.  The marker directory is the environment variable ``CFCONFORM_KILL_ONCE_DIR``
of the process running the adapter (for Spark workers:
``spark.executorEnv.CFCONFORM_KILL_ONCE_DIR``); without it nothing is ever killed.

Specs: ``cfconform.spark_fuzz.testing:KillOnceAdapter`` (the reference model inside) and
``cfconform.spark_fuzz.testing:kill_once_mutant`` (mutant ``M-CFLEVEL-008-a`` inside, which the
generator exposes in about one ``mq`` trace in six).  A campaign with either must
give the same rows as one against the wrapped adapter, provided Spark retries failed
tasks (``local[N,F]``, or a cluster).
"""

from __future__ import annotations

import os

from cfconform.adapters.delegating import DelegatingAdapter
from cfconform.reference_model.config import Config

KILL_DIR_ENV = "CFCONFORM_KILL_ONCE_DIR"
KILL_AT_ENV = "CFCONFORM_KILL_AT"
#: Default: the process dies when opening its 25th trace (mid-block, after rows were produced).
KILL_AT = 25
KILL_EXIT_CODE = 17
MUTANT = "mutant:M-CFLEVEL-008-a"
_opened = 0


def _claim(directory: str) -> bool:
    """Create the marker; True for the one caller that created it."""
    try:
        fd = os.open(os.path.join(directory, "killed"), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    return True


class KillOnce(DelegatingAdapter):
    """``inner``, except that this process dies once (see the module docstring)."""

    def open(self, config: Config) -> None:
        global _opened
        _opened += 1
        directory = os.environ.get(KILL_DIR_ENV)
        if directory and _opened >= int(os.environ.get(KILL_AT_ENV, KILL_AT)) and _claim(directory):
            os._exit(KILL_EXIT_CODE)
        self.inner.open(config)


def KillOnceAdapter() -> KillOnce:
    """The reference model, killing its process once."""
    from cfconform.adapters.reference import ReferenceAdapter

    return KillOnce(ReferenceAdapter())


def kill_once_mutant() -> KillOnce:
    """Mutant ``M-CFLEVEL-008-a``, killing its process once."""
    from cfconform.adapters.registry import load_adapter

    return KillOnce(load_adapter(MUTANT))
