"""Offload-rule variants minimisation tries on a failing trace's structures (OFFLOAD-002, -012,
CFLEVEL-006): a rule met sooner, or by a shorter message, saves the puts that reached it."""

from __future__ import annotations

import attrs

from cfconform.reference_model.config import StructureDef
from cfconform.reference_model.offload import RULE_OFF

#: Thresholds every higher OFFLDnTH is lowered to together, one variant each: a structure with
#: few entries reaches a few percent of them in one put, and a rule compared with another reading
#: still needs its threshold above zero (the usage readings differ only once something is in use).
_SHARED_THRESHOLDS = (5, 10, 20, 30, 40, 50, 60)


def simpler_rules(s: StructureDef) -> list[StructureDef]:
    """``s`` with one offload rule met from an empty structure (OFFLDnTH(0)) or by any length
    (OFFLDnSZ(0)), or with every OFFLDnTH above one of :data:`_SHARED_THRESHOLDS` lowered to it."""
    out = []
    for n in (1, 2, 3):
        if getattr(s, f"offld{n}th") > 0:
            out.append(attrs.evolve(s, **{f"offld{n}th": 0}))
        if 0 < getattr(s, f"offld{n}sz") < RULE_OFF:
            out.append(attrs.evolve(s, **{f"offld{n}sz": 0}))
    for t in _SHARED_THRESHOLDS:
        lowered = {f"offld{n}th": t for n in (1, 2, 3) if getattr(s, f"offld{n}th") > t}
        if lowered:
            out.append(attrs.evolve(s, **lowered))
    return out
