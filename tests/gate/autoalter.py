"""An implementation that adjusts its structures' entry:element ratio as z/OS AUTOALTER does.

Seed 002: "The system provides AUTOALTER capabilities to adjust the ratio when necessary, but this is
not very sensitive".  This one is the reference model whose structures, after any step that leaves
one pool over 80% used while the other is under half, take the ratio that fits what is in use
(the same size, the same storage, other totals).  The documents leave the ratio and its timing to
z/OS, so the gate must accept it (CAPACITY-011).
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from cfconform.adapters.reference import ReferenceAdapter
from cfconform.reference_model.accounting import pool_totals
from cfconform.reference_model.outcomes import Outcome


class AutoAlter(ReferenceAdapter):
    #: How many times a ratio was altered (all instances): tests check it is not zero.
    altered = 0

    def __init__(self) -> None:
        super().__init__(name="autoalter")

    def apply(self, op: Any) -> Outcome:
        out = super().apply(op)
        model = self.model
        assert model is not None
        for s in model.structures.values():
            ratio = _adjusted(s, model.acct)
            if ratio is not None:  # later resizes keep it (SETXCF ALTER changes the size, not the ratio)
                s.defn = attrs.evolve(s.defn, ratio=ratio)
                AutoAlter.altered += 1
        return out


def _adjusted(s: Any, acct: Any) -> int | None:
    """The ratio z/OS would alter ``s`` to now, applied to its pools, or ``None``."""
    p = s.pools
    if not p.entries_total or not p.elements_total or not p.entries_used:
        return None
    entries_pct, elements_pct = p.entries_used / p.entries_total, p.elements_used / p.elements_total
    if not ((elements_pct > 0.8 and entries_pct < 0.5) or (entries_pct > 0.8 and elements_pct < 0.5)):
        return None
    ratio = max(1, math.ceil(p.elements_used / p.entries_used))
    entries, elements = pool_totals(s.size_kb, ratio, acct)
    if entries < p.entries_used or elements < p.elements_used:
        return None
    p.entries_total, p.elements_total = entries, elements
    return ratio
