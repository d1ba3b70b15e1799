"""Generation that depends on the seed alone: Hypothesis's pool of source-code constants held empty.

Hypothesis (6.131 and later) sometimes draws an integer or a string it found in the
source of a "local" module loaded in the process (any module outside the standard
library and site-packages, tests excepted).  For the gate that pool made the traces a
seed generates depend on things that are not the seed: how cfconform was installed
(editable or not), every constant anywhere in its own source or the implementation's,
and which modules a process had imported before the run (a pool worker's earlier
jobs, an xdist worker's earlier tests).  The same seed then collected different
failing cases at two commits that changed no strategy (M-QDEPTH-006-b, seed 1: cases of
129 and 351 steps at one, of 57, 65 and 66 at the next).  While the gate generates, the pool is
held empty; the strategies aim at each documented boundary themselves
(:mod:`cfconform.properties.boundaries`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def seed_alone() -> Iterator[None]:
    """Hold Hypothesis's local-constant pool empty for the duration (a no-op on a Hypothesis without one)."""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - a Hypothesis laid out otherwise
        yield
        return
    getter = getattr(providers, "_get_local_constants", None)
    cache = getattr(getattr(providers, "CONSTANTS_CACHE", None), "cache", None)
    if getter is None or cache is None or not hasattr(providers, "Constants"):
        yield
        return
    empty: Any = providers.Constants()
    providers._get_local_constants = lambda: empty
    cache.clear()  # it holds the constants each kind of draw may take, local ones included
    try:
        yield
    finally:
        providers._get_local_constants = getter
        cache.clear()
