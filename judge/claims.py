"""Which rules an implementation claims: those of its capabilities' families, in the profiles
run (docs/PROTOCOL.md: unclaimed families are reported "not claimed", never failed)."""

from __future__ import annotations

from collections.abc import Iterable

from cfconform.adapters.protocol import Capabilities
from cfconform.reference_model.rules import RULE_BY_ID, Rule


def claims(rule: Rule, caps: Capabilities, profiles: Iterable[str]) -> bool:
    """Whether ``caps`` claims ``rule`` when ``profiles`` are run."""
    return rule.family in caps.families and any(p in rule.profiles for p in profiles)


def any_claimed(rule_ids: Iterable[str], caps: Capabilities, masked: Iterable[str] = ()) -> bool:
    """Whether a divergence blamed on ``rule_ids`` counts: some rule of it is of a claimed family.

    Only families are asked: the profile run is one the implementation claims, and a
    step of one profile may exercise a rule catalogued for the other (TOPOLOGY-003 in a
    CQS test case).  No rule, or an unknown ID, counts: a divergence is never dropped
    for want of a catalogue entry.  Rules in ``masked`` (already failed, or known deviations,
    while the gate explores on) do not count.
    """
    ids = [r for r in rule_ids if r not in set(masked)] if masked else list(rule_ids)
    if masked and not ids:
        return False  # blamed only on masked rules
    return not ids or any(r not in RULE_BY_ID or RULE_BY_ID[r].family in caps.families for r in ids)
