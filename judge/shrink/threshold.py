"""Strategy ``threshold`` (a variant, IMS CQS): a primary structure's size together with its OVFLWMAX:
on a smaller structure the trace's puts reach other usages, and a threshold moved with the size keeps
the check that diverged.  Many candidates, one replay each, tried last."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config
from cfconform.reference_model.errors import ConfigurationError

from .common import fitted

#: Usable sizes (KB above the fixed overhead) tried with another OVFLWMAX, and those OVFLWMAXs.
_SMALL_SIZES = (1, 2, 3, 4, 6, 8)
_OVFLWMAXS = (30, 40, 50, 60, 70, 80, 90)


def smaller_with_threshold(config: Config, ops: Sequence[Any]) -> list[Config]:
    """Each primary structure the trace uses made small together with another OVFLWMAX (CQS-002).

    On a smaller structure the trace's puts reach other usages; a threshold moved with
    the size keeps the check that diverged (the OVFLWMAX check, CQS-003/020, or the
    target 20% below it, CQS-007/015) between the usages before and after a step.
    """
    if config.profile != "cqs":
        return []
    used = {op.cfstruct for op in ops if isinstance(op, o.AlterOutcome)}
    used |= {q.cfstruct for q in config.queues if q.name in {getattr(op, "queue", None) for op in ops}}
    fixed = config.accounting.fixed_kb
    out: list[Config] = []
    for i, s in enumerate(config.structures):
        if s.name not in used or s.resource:
            continue
        for usable in (u for u in _SMALL_SIZES if fixed + u < s.size_kb):
            initsize = None if s.initsize_kb is None else min(s.initsize_kb, fixed + usable)
            for ovflwmax in (v for v in _OVFLWMAXS if v != s.effective_ovflwmax):
                new = attrs.evolve(s, size_kb=fixed + usable, initsize_kb=initsize, ovflwmax=ovflwmax)
                try:
                    out.append(
                        attrs.evolve(config, structures=(*config.structures[:i], new, *config.structures[i + 1 :]))
                    )
                except ConfigurationError:
                    continue
    return out


def candidates(config: Config, ops: list[Any]) -> list[tuple[Config, list[Any], bool]]:
    """Each smaller primary with another OVFLWMAX, its alter outcomes fitted to it, one replay each."""
    return [(c, fitted(config, c, ops), False) for c in smaller_with_threshold(config, ops)]
