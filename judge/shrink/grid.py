"""The configuration grid minimisation tries (used by the strategies ``readings`` and ``runs``): each queue
structure made a few KB usable, at another RATIO and threshold, smallest first, and a ladder of
message lengths.  Small structures reach the usage levels a failure needs in few puts."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import attrs

from cfconform.reference_model.config import Config
from cfconform.reference_model.errors import ConfigurationError

_USABLE_KB = (1, 2, 3, 4, 6, 8, 12, 16)
_RATIOS = (1, 2, 4, 6)
_THRESHOLDS = tuple(range(30, 101, 5))
#: Message lengths to try for the longest put, shortest first.
LENGTHS = (0, 256, 512, 1000, 1024, 2048, 4096)


def grid_structures(config: Config, threshold: str = "ovflwmax") -> Iterator[Config]:
    """Each queue structure's usable size, RATIO and ``threshold`` (OVFLWMAX, or FULLTHRESHOLD)
    from the grid, smallest first."""
    fixed = config.accounting.fixed_kb
    for i, s in enumerate(config.structures):
        if s.resource:
            continue
        for usable, ratio, percent in itertools.product(_USABLE_KB, _RATIOS, _THRESHOLDS):
            initsize = None if s.initsize_kb is None else fixed + usable
            changes = {"size_kb": fixed + usable, "initsize_kb": initsize, "ratio": ratio, threshold: percent}
            new = attrs.evolve(s, **changes)
            try:
                yield attrs.evolve(config, structures=(*config.structures[:i], new, *config.structures[i + 1 :]))
            except ConfigurationError:
                continue
