"""Comparing two campaigns' failures seed by seed (pure: the rules the Spark join applies).

A failing trace is keyed by ``(seed, profile)`` (its generator seed and profile).  With
campaign A (older) and B (newer) joined on that key, each key is:

``new``
    fails in B, did not fail in A although A ran that trace;
``fixed``
    failed in A, does not fail in B although B ran it;
``changed``
    fails in both, differently (another signature, or another step);
``same``
    fails in both the same way;
``not-compared``
    fails in one campaign only and the other never ran that trace (other seeds,
    fewer traces or another profile), or the campaigns' ``--steps`` differ (then equal
    seeds generate different traces).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .blocks import trace_index, trace_profile

STATUSES = ("new", "fixed", "changed", "same", "not-compared")
#: Statuses shown as tables by ``cfconform diff``.
SHOWN = ("new", "fixed", "changed")


def ran(identity: Mapping[str, Any], seed: int, profile: str) -> bool:
    """Whether the campaign with ``identity`` ran the trace ``(seed, profile)``."""
    i = trace_index(identity["seed"], seed)
    return 0 <= i < identity["traces"] and trace_profile(identity["profiles"], i) == profile


def comparable(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """Why two campaigns' seeds cannot be compared (empty: they can)."""
    if a.get("steps") != b.get("steps"):
        return [f"--steps differ ({a.get('steps')} versus {b.get('steps')}): equal seeds are different traces; "
                "nothing is compared"]  # fmt: skip
    return []


def classify(
    a_sig: str | None, a_step: int | None, b_sig: str | None, b_step: int | None, a_ran: bool, b_ran: bool
) -> str:
    """The status of one key (``a_sig``/``b_sig`` None: no failure recorded in that campaign)."""
    if a_sig is not None and b_sig is not None:
        return "same" if (a_sig, a_step) == (b_sig, b_step) else "changed"
    if a_sig is not None:
        return "fixed" if b_ran else "not-compared"
    if b_sig is not None:
        return "new" if a_ran else "not-compared"
    raise ValueError("a key with no failure in either campaign")
