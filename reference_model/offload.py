"""MQ offload decisions (OFFLOAD-002/003/004, CFLEVEL-006; seed 002, ibm-facts 2.3-2.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .units import SIZE_63_75K, SIZE_63K

if TYPE_CHECKING:
    from .group import GroupState
    from .state import Structure

RULE_OFF = 64 * 1024
_RULES = ("OFFLOAD-001", "OFFLOAD-002", "OFFLOAD-004", "OFFLOAD-012", "CFLEVEL-006")
_RULES_OFF_IN_EFFECT = (*_RULES, "OFFLOAD-003")
_OFFLOADED = ("OFFLOAD-005", "OFFLOAD-006")


def forced_boundary(reading: str) -> int:
    """OFFLOAD-004: longest message storable in an entry, under the boundary reading."""
    return SIZE_63_75K if reading == "63.75K" else SIZE_63K


def decide(model: GroupState, s: Structure, length: int) -> tuple[bool, tuple[str, ...]]:
    """Whether a message of ``length`` bytes put now is offloaded, and the deciding rules.

    CFLEVEL(4) offloads only messages too large for an entry; CFLEVEL(5) also
    applies the three rule pairs, each needing *both* its threshold and its size
    (APAR PI21909), a rule with OFFLDnSZ(64K) being off.
    """
    sd = s.defn
    if sd.cflevel < 4:
        return False, ()
    if length > forced_boundary(model.readings.forced_offload_boundary):
        return True, ("OFFLOAD-004", "CFLEVEL-005", "OFFLOAD-005", "OFFLOAD-006")
    if sd.cflevel < 5:
        return False, ("OFFLOAD-004",)
    strict = model.readings.offload_compare == "strict"
    metric = model.readings.offload_usage_metric
    rules = _RULES_OFF_IN_EFFECT if RULE_OFF in (sd.offld1sz, sd.offld2sz, sd.offld3sz) else _RULES
    open_question = False
    for th, sz in ((sd.offld1th, sd.offld1sz), (sd.offld2th, sd.offld2sz), (sd.offld3th, sd.offld3sz)):
        if sz >= RULE_OFF or not _exceeds(length, sz, strict):
            continue
        # OFFLDnTH(0): "set to 0% to offload all such messages" (seed 002), whatever the comparison
        over = True if th == 0 else model.reached(model.before_put(s), th, metric, inclusive=not strict)
        if over is None and model.reached(model.after(s), th, metric, inclusive=not strict) is False:
            over = False  # a put never frees space: usage before it was no higher than after it
        if over:
            return True, rules + (("OFFLOAD-014",) if th == 0 else ()) + _OFFLOADED
        open_question = open_question or over is None
    if open_question and model.hint is not None and model.hint.outcome.offloaded is not None:
        # the usage the rule compares is not known: the implementation's decision stands (principle 2)
        offloaded = bool(model.hint.outcome.offloaded)
        return offloaded, rules + (_OFFLOADED if offloaded else ())
    return False, rules


def _exceeds(length: int, size: int, strict: bool) -> bool:
    """OFFLOAD-002: "offload data for messages exceeding SZn"; OFFLDnSZ(0K) is "(all messages)"."""
    if size == 0:
        return True
    return length > size if strict else length >= size
