"""Compare an expected outcome with an observed one, field by field (pure).

What is compared follows what the adapter claims to observe and how exactly its
reason codes can be compared (``Capabilities.observes`` and ``reason_codes``).
Storage figures, which IBM leaves implementation-defined, are compared with a
tolerance (DEVELOPERS.md, principle 4); everything else must be equal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from reference_model.outcomes import EventMessage, Outcome

#: Largest accepted gap between model and implementation element usage, in percentage points.
USAGE_TOLERANCE_POINTS = 5.0


@attrs.frozen
class FieldDiff:
    """The first field where an observed outcome departs from the expected one."""

    field: str
    expected: Any
    observed: Any


class CorrelMap:
    """Keeps model CorrelId numbers and implementation CorrelIds in one-to-one correspondence (QDEPTH-009/010)."""

    def __init__(self) -> None:
        self.forward: dict[Any, Any] = {}
        self.backward: dict[Any, Any] = {}

    def copy(self) -> CorrelMap:
        other = CorrelMap()
        other.forward, other.backward = dict(self.forward), dict(self.backward)
        return other

    def match(self, expected: int, observed: Any) -> bool:
        """Whether ``observed`` may stand for ``expected``; records the pairing if new."""
        if expected == 0:
            return observed in (0, None, "")
        if observed in (0, None, ""):
            return False
        if expected in self.forward or observed in self.backward:
            return self.forward.get(expected) == observed and self.backward.get(observed) == expected
        self.forward[expected] = observed
        self.backward[observed] = expected
        return True


def _pct(used: int, total: int) -> float:
    return 100.0 * used / total if total > 0 else 100.0


def usage_diff(field: str, expected: tuple | list, observed: tuple | list | None) -> FieldDiff | None:
    """Entries in use must be equal; entry and element usage (percent) within the tolerance (SIZING-005)."""
    if observed is None or len(observed) != 4:
        return FieldDiff(field, list(expected), observed)
    eu, et, lu, lt = expected
    oeu, oet, olu, olt = observed
    if eu != oeu:
        return FieldDiff(f"{field}.entries_used", eu, oeu)
    if abs(_pct(eu, et) - _pct(oeu, oet)) > USAGE_TOLERANCE_POINTS:
        return FieldDiff(f"{field}.entries_pct", round(_pct(eu, et), 2), round(_pct(oeu, oet), 2))
    if abs(_pct(lu, lt) - _pct(olu, olt)) > USAGE_TOLERANCE_POINTS:
        return FieldDiff(f"{field}.elements_pct", round(_pct(lu, lt), 2), round(_pct(olu, olt), 2))
    return None


def _event_key(e: EventMessage) -> tuple:
    return (e.qmgr, e.kind, e.queue, e.enq, e.deq)


def events_diff(
    expected: tuple[EventMessage, ...], observed: tuple[EventMessage, ...], correl: CorrelMap
) -> FieldDiff | None:
    """Same messages (any order), and CorrelIds shared within a set and new for each set."""
    exp = sorted(expected, key=_event_key)
    obs = sorted(observed, key=_event_key)
    if [_event_key(e) for e in exp] != [_event_key(e) for e in obs]:
        return FieldDiff("events", [_event_key(e) for e in exp], [_event_key(e) for e in obs])
    for e, o in zip(exp, obs, strict=True):
        if not correl.match(e.correl, o.correl):
            return FieldDiff(f"events[{e.qmgr}].correl", e.correl, o.correl)
    return None


STRUCTURE_USAGE_KEYS = ("entries_used", "entries_total", "elements_used", "elements_total")


def projection_diff(expected: Mapping, observed: Any, path: str = "value") -> FieldDiff | None:
    """Compare an ``inspect`` projection; structure pools use :func:`usage_diff`."""
    if not isinstance(observed, Mapping):
        return FieldDiff(path, "an object", observed)
    for key, exp in expected.items():
        obs = observed.get(key)
        here = f"{path}.{key}"
        if key == "entries_used" and all(k in expected for k in STRUCTURE_USAGE_KEYS):
            pools = [expected[k] for k in STRUCTURE_USAGE_KEYS]
            seen = [observed.get(k) for k in STRUCTURE_USAGE_KEYS]
            diff = usage_diff(path, pools, None if None in seen else seen)
            if diff:
                return diff
        elif key in STRUCTURE_USAGE_KEYS[1:]:
            continue
        elif isinstance(exp, Mapping):
            diff = projection_diff(exp, obs, here)
            if diff:
                return diff
        elif exp != obs:
            return FieldDiff(here, exp, obs)
    return None


def compare(
    expected: Outcome, observed: Outcome, observes: tuple[str, ...], reason_codes: str, correl: CorrelMap
) -> FieldDiff | None:
    """The first differing field, or ``None`` when ``observed`` conforms to ``expected``."""
    if expected.ok != observed.ok:
        return FieldDiff("ok", expected.ok, observed.ok)
    if reason_codes == "exact" and expected.reason != observed.reason:
        return FieldDiff("reason", expected.reason, observed.reason)
    if expected.offloaded is not None and expected.offloaded != observed.offloaded:
        return FieldDiff("offloaded", expected.offloaded, observed.offloaded)
    if expected.tag != observed.tag:
        return FieldDiff("tag", expected.tag, observed.tag)
    if "events" in observes:
        diff = events_diff(expected.events, observed.events, correl)
        if diff:
            return diff
    if "signals" in observes and sorted(expected.signals) != sorted(observed.signals):
        return FieldDiff("signals", sorted(expected.signals), sorted(observed.signals))
    if "usage" in observes and expected.usage is not None:
        diff = usage_diff("usage", expected.usage, observed.usage)
        if diff:
            return diff
    if "inspect" in observes and expected.kind == "inspect" and expected.value is not None:
        return projection_diff(expected.value, observed.value)
    return None
