"""MQ offload decisions (OFFLOAD-002/003/004, CFLEVEL-006; seed 002, ibm-facts 2.3-2.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import combined
from .accounting import usage_pct
from .units import SIZE_63_75K, SIZE_63K

if TYPE_CHECKING:
    from .config import StructureDef
    from .group import GroupState
    from .state import Structure

RULE_OFF = 64 * 1024
#: CFLEVEL-006: the lowest CFLEVEL that applies the offload rules.
RULES_LEVEL = 5
_RULES = ("OFFLOAD-001", "OFFLOAD-002", "OFFLOAD-004", "OFFLOAD-012", "CFLEVEL-006")
_RULES_OFF_IN_EFFECT = (*_RULES, "OFFLOAD-003")
_OFFLOADED = ("OFFLOAD-005", "OFFLOAD-006")
_OFFLOADED_AT_0 = ("OFFLOAD-014", *_OFFLOADED)
_FORCED = ("OFFLOAD-004", "CFLEVEL-005", "OFFLOAD-005", "OFFLOAD-006")
_BOUNDARY = ("OFFLOAD-004",)
_UNREAD = object()
#: One offload rule: ``(n, OFFLDnTH, OFFLDnSZ)``.
Rule = tuple[int, int, int]
#: A structure definition's offload rules as :func:`decide` reads them: the definition, its rules
#: that are on (OFFLDnSZ below 64K), the rule IDs a decision names, and those of a decision to
#: offload by a rule with OFFLDnTH above 0 and by one with OFFLDnTH(0) (OFFLOAD-014).
Plan = tuple[Any, tuple[Rule, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]


def _pairs(sd: StructureDef) -> tuple[Rule, ...]:
    """OFFLOAD-001: the three rules of ``sd``, in order."""
    return (1, sd.offld1th, sd.offld1sz), (2, sd.offld2th, sd.offld2sz), (3, sd.offld3th, sd.offld3sz)


def _plan(sd: StructureDef) -> Plan:
    """The offload rules of ``sd``, read once per definition (not at every put); OFFLOAD-003: a rule
    with OFFLDnSZ(64K) is off."""
    pairs = _pairs(sd)
    rules = _RULES_OFF_IN_EFFECT if any(sz == RULE_OFF for _, _, sz in pairs) else _RULES
    return sd, tuple(p for p in pairs if p[2] < RULE_OFF), rules, rules + _OFFLOADED, rules + _OFFLOADED_AT_0


def forced_boundary(reading: str, cflevel: int) -> int:
    """OFFLOAD-004: longest message storable in an entry at ``cflevel`` (4 or above), under the boundary
    reading."""
    return SIZE_63_75K if reading == "63.75K" else SIZE_63K


def _ruled(
    model: GroupState, s: Structure, pairs: tuple[Rule, ...], length: int, strict: bool, metric: str
) -> Rule | None:
    """OFFLOAD-002/012 on the model's own figures: the first rule whose size and threshold both select a
    message of ``length`` bytes put now (``strict``: exceeding them, else reaching them; usage under
    ``metric``), or None."""
    usage = None  # computed once for the three rules
    for rule in pairs:
        _, th, sz = rule
        if not (length > sz if strict else length >= sz):
            continue
        if usage is None:
            p = s.pools  # (GroupState.pools, inline, when no view is given)
            pools = (
                model.pools(s)
                if model.view is not None
                else (p.entries_used, p.entries_total, p.elements_used, p.elements_total)
            )
            usage = usage_pct(metric, pools, model.acct)
        if usage > th if strict else usage >= th:
            return rule
    return None


def decide(model: GroupState, s: Structure, length: int) -> tuple[bool, tuple[str, ...]]:
    """Whether a message of ``length`` bytes put now is offloaded, and the deciding rules.

    CFLEVEL(4) offloads only messages too large for an entry; CFLEVEL(5) also
    applies the three rule pairs, each needing *both* its threshold and its size
    (APAR PI21909), a rule with OFFLDnSZ(64K) being off.
    """
    sd = s.defn
    if sd.cflevel < 4:
        return False, ()
    readings = model.readings
    if length > forced_boundary(readings.forced_offload_boundary, sd.cflevel):
        return True, _FORCED
    if sd.cflevel < RULES_LEVEL:
        return False, _BOUNDARY
    plan = s.offload_plan
    if plan is None or plan[0] is not sd:
        plan = s.offload_plan = _plan(sd)
    strict = readings.offload_compare == "strict"
    metric = readings.offload_usage_metric
    rules = plan[2]
    if model.hint is None:
        rule = _ruled(model, s, plan[1], length, strict, metric)
        if rule is None:
            return False, rules
        return True, plan[4] if rule[1] == 0 else plan[3]
    # checker mode: the decision rests on the implementation's figures
    open_question = False
    before: Any = _UNREAD  # in checker mode, the implementation's usage before and after the put
    after: Any = _UNREAD
    least_open = None  # ``combined``: the lowest threshold its allowed cost ratios leave open
    for _, th, sz in plan[1]:
        # OFFLOAD-002: "offload data for messages exceeding SZn"; OFFLDnSZ(0K) is "(all messages)",
        # which a message of no data does not exceed under the strict reading: at that boundary
        # (ibm-facts 2.3) the model follows its comparison and an implementation's answer stands
        size_open = False
        if not (length > sz if strict else length >= sz):
            if sz or length:
                continue
            size_open = True
        # OFFLDnTH(0): "set to 0% to offload all such messages" (seed 002), as the inclusive reading
        # does at any usage.  The strict reading of "more than 0% full" keeps a message put into an
        # empty structure (0% used) in the CF: ibm-facts 2.3 allows both comparisons and judges only
        # away from the boundary, so on an implementation's figures either answer stands there
        if th == 0 and not strict:
            over: bool | None = True
        else:
            if before is _UNREAD:  # (read once for the three rules: the same figures for each)
                before = model.before_put(s)
            over = model.reached(before, th, metric, inclusive=not strict)
            if th == 0 and over is False:
                over = None  # usage exactly 0%: at the boundary (see above)
            if over is None and metric == "combined" and before is not None and th > 0:
                over = combined.reached(s, before, th, inclusive=not strict)
            if over is None:
                if after is _UNREAD:
                    after = model.after(s)
                if model.reached(after, th, metric, inclusive=not strict) is False:
                    over = False  # a put never frees space: usage before it was no higher than after it
                elif metric == "combined" and before is not None and th > 0 and not size_open:
                    least_open = th if least_open is None else min(least_open, th)
        if size_open and over:
            over = None
        if over:
            return True, plan[4] if th == 0 else plan[3]
        open_question = open_question or over is None
    if open_question and model.hint is not None and model.hint.outcome.offloaded is not None:
        # the usage the rule compares is not known: the implementation's decision stands (principle 2),
        # as long as one entry:element cost ratio explains it with its earlier ones (``combined``)
        offloaded = bool(model.hint.outcome.offloaded)
        if least_open is not None and not combined.narrow(s, before, least_open, offloaded):
            offloaded = not offloaded
        return offloaded, plan[3] if offloaded else rules
    return False, rules
