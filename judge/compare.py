"""Compare an expected outcome with an observed one, field by field (pure).

Every comparison is listed in :data:`COMPARISONS` with the rules whose IBM sentences decide it
(DEVELOPERS.md, principle 1); ``tests/meta/test_comparisons.py`` fails on a comparison that is
not.  What is compared follows what the adapter claims to observe and how exactly its reason codes
can be compared (``Capabilities.observes`` and ``reason_codes``).

Storage figures belong to the coupling facility (principle 2): usage is never compared with the
model's own accounting.  The checker takes it as an input for the decisions that depend on it
(see :class:`cfconform.reference_model.model.Observed`), and only the relations IBM states are checked here
and in :mod:`cfconform.judge.relations`: entries and elements in use never exceed what is offered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from cfconform.reference_model.outcomes import (
    CMD_INVALID,
    CMD_NO_ALTER_PENDING,
    CMD_NO_BACKUP,
    CMD_NOT_ACTIVE,
    CMD_NOT_ALLOWED,
    CMD_NOT_FAILED,
    CMD_OUT_OF_RANGE,
    EventMessage,
    Outcome,
)

#: Each comparison the checker makes, and the rules whose sentences decide the value compared
#: (most specific first).  A comparison with no rule here may not be made.
COMPARISONS: dict[str, tuple[str, ...]] = {
    "ok": ("QUEUE-001", "CAPACITY-001", "CFLEVEL-002", "CFLEVEL-003", "CFLEVEL-004", "CFLEVEL-008", "QDEPTH-015",
           "RECOVERY-001", "RECOVERY-002", "RECOVERY-006", "CAPACITY-004", "CAPACITY-005", "CQS-003", "CQS-012",
           "TOPOLOGY-006", "SIZING-001"),
    "reason": ("CAPACITY-001", "CFLEVEL-002", "CFLEVEL-003", "CFLEVEL-004", "CFLEVEL-008", "QDEPTH-015",
               "RECOVERY-002", "QUEUE-001", "CQS-012"),
    "offloaded": ("OFFLOAD-002", "OFFLOAD-004", "OFFLOAD-003", "OFFLOAD-012", "CFLEVEL-006"),
    "location": ("OFFLOAD-006", "CFLEVEL-006"),
    "tag": ("QUEUE-001", "QUEUE-002", "QUEUE-003", "RECOVERY-003", "RECOVERY-004", "RECOVERY-008"),
    "events": ("QDEPTH-001", "QDEPTH-002", "QDEPTH-003", "QDEPTH-009", "QDEPTH-010", "QDEPTH-016"),
    "events.correl": ("QDEPTH-009", "QDEPTH-010"),
    "events.coordinator": ("QDEPTH-009",),
    "signals": ("CAPACITY-002", "CAPACITY-003", "CQS-003", "CQS-005", "CQS-006", "CQS-013", "CQS-014", "CQS-015"),
    "usage.bounds": ("CAPACITY-001",),
    "usage.grows": ("QUEUE-004",),
    "usage.frees": ("CAPACITY-010",),
    "usage.entry": ("CAPACITY-012",),
    "usage.offloaded": ("OFFLOAD-005",),
    "usage.moved": ("CQS-011",),
    "usage.grown": ("CAPACITY-004",),
    "inspect.queue": ("QUEUE-004", "QUEUE-002", "QUEUE-003", "RECOVERY-003", "RECOVERY-004", "RECOVERY-005",
                      "QDEPTH-004", "QDEPTH-005", "QDEPTH-006", "QDEPTH-007", "QDEPTH-008", "CQS-011", "CQS-012"),
    "inspect.qmgr": ("QUEUE-005", "QDEPTH-007", "QDEPTH-008"),
    "inspect.structure": ("RECOVERY-002", "RECOVERY-003", "RECOVERY-005", "CAPACITY-002", "CAPACITY-004",
                          "CAPACITY-005", "CQS-003", "CQS-005", "CQS-006", "CQS-013", "CQS-014", "CQS-015"),
    "inspect.staging": ("CQS-017",),
    "inspect.cfname": ("TOPOLOGY-010",),
    "inspect.admin": ("TOPOLOGY-007", "TOPOLOGY-008"),
    "inspect.clock": ("CQS-013",),
}  # fmt: skip

#: Signal names the suite knows (docs/PROTOCOL.md, Signals); others are informative, never compared.
CAPACITY_SIGNALS = frozenset({"IXC585E", "IXC586I"})
CQS_SIGNALS = frozenset({"ALTER", "OVERFLOW_ON", "OVERFLOW_QUEUE", "OVERFLOW_QUEUE_OFF", "OVERFLOW_OFF"})
KNOWN_SIGNALS = CAPACITY_SIGNALS | CQS_SIGNALS
#: Why a command failed: no document names these, so only that it failed is compared.
COMMAND_REASONS = frozenset(
    {
        CMD_INVALID,
        CMD_NOT_ALLOWED,
        CMD_NOT_FAILED,
        CMD_NO_BACKUP,
        CMD_OUT_OF_RANGE,
        CMD_NOT_ACTIVE,
        CMD_NO_ALTER_PENDING,
    }
)
STRUCTURE_USAGE_KEYS = ("entries_used", "entries_total", "elements_used", "elements_total")


@attrs.frozen
class FieldDiff:
    """The first field where an observed outcome departs from the expected one, and the
    comparison (a key of :data:`COMPARISONS`) that found it."""

    field: str
    expected: Any
    observed: Any
    comparison: str = "ok"

    @property
    def rules(self) -> tuple[str, ...]:
        return COMPARISONS[self.comparison]


def diff(comparison: str, field: str, expected: Any, observed: Any) -> FieldDiff:
    """A divergence found by ``comparison``, which must be listed in :data:`COMPARISONS`."""
    if comparison not in COMPARISONS:
        raise KeyError(f"comparison {comparison!r} names no rule")
    return FieldDiff(field, expected, observed, comparison)


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
        """Whether ``observed`` may stand for ``expected``; records the pairing if new.  ``expected`` 0 is
        a nonshared queue's event: its CorrelId may be set or not (ibm-facts 4: "MQCI_NONE/unset
        (AMBIGUOUS for non-shared; not retrieved)"), so any value stands, and none is paired."""
        if expected == 0:
            return True
        if observed in (0, None, ""):
            return False
        if expected in self.forward or observed in self.backward:
            return self.forward.get(expected) == observed and self.backward.get(observed) == expected
        self.forward[expected] = observed
        self.backward[observed] = expected
        return True


def usage_bounds(field: str, observed: Any) -> FieldDiff | None:
    """CAPACITY-001: "A structure is full if either all ENTRYs or all ELEMENTs are in use", so neither
    pool's use exceeds what it offers, and neither is negative."""
    if observed is None:
        return None
    if len(observed) != 4:
        return diff("usage.bounds", field, "[entries_used, entries_total, elements_used, elements_total]", observed)
    eu, et, lu, lt = observed
    if not (0 <= eu <= et and 0 <= lu <= lt):
        return diff("usage.bounds", field, "0 <= used <= total for entries and elements", list(observed))
    return None


def _event_key(e: EventMessage) -> tuple:
    return (e.qmgr, e.kind, e.queue, e.enq, e.deq)


def events_diff(
    expected: tuple[EventMessage, ...],
    observed: tuple[EventMessage, ...],
    correl: CorrelMap,
    detector: str | None = None,
) -> FieldDiff | None:
    """Same messages (any order), and CorrelIds shared within a set and new for each set.  When the
    queue manager that detected the event (``detector``) issues one, it is issued first: "the queue
    manager that detected the performance event initially becomes the coordinating queue manager",
    which "Issues an event message" and then "Broadcasts to all other active queue managers"
    (seed 004, QDEPTH-009); the order of the others' is not stated."""
    exp = sorted(expected, key=_event_key)
    obs = sorted(observed, key=_event_key)
    if [_event_key(e) for e in exp] != [_event_key(e) for e in obs]:
        return diff("events", "events", [_event_key(e) for e in exp], [_event_key(e) for e in obs])
    for e, o in zip(exp, obs, strict=True):
        if not correl.match(e.correl, o.correl):
            return diff("events.correl", f"events[{e.qmgr}].correl", e.correl, o.correl)
    if detector is not None and expected and expected[0].qmgr == detector and observed[0].qmgr != detector:
        return diff("events.coordinator", "events[0].qmgr", detector, observed[0].qmgr)
    return None


def known_signals(signals: tuple[str, ...], names: frozenset[str] = KNOWN_SIGNALS) -> list[str]:
    """The signals the suite compares, sorted (docs/PROTOCOL.md lists them)."""
    return sorted(s for s in signals if s.split(" ", 1)[0] in names)


#: Inspect sections in the order they are compared: queue state before anything derived from it.
_SECTIONS = (("queues", "inspect.queue"), ("qmgrs", "inspect.qmgr"), ("structures", "inspect.structure"),
             ("clock", "inspect.clock"))  # fmt: skip


#: Sections whose values are only compared for equality (no usage bounds, optional or at-least
#: keys: those are the structures'), so equal sections need no walk.
_PLAIN_SECTIONS = frozenset({"queues", "qmgrs", "clock"})


def projection_diff(expected: Mapping, observed: Any, path: str = "value") -> FieldDiff | None:
    """Compare an ``inspect`` projection, queues first; structure pools are only bounded."""
    if not isinstance(observed, Mapping):
        return diff("inspect.queue", path, "an object", observed)
    for section, comparison in _SECTIONS:
        if section not in expected:
            continue
        if section in _PLAIN_SECTIONS and expected[section] == observed.get(section):
            continue  # (equal throughout: _section_diff would find nothing, and a section may hold 512 queues)
        found = _section_diff(expected[section], observed.get(section), f"{path}.{section}", comparison)
        if found:
            return found
    return _admin_diff(expected.get("admin"), observed.get("admin"), f"{path}.admin")


def _admin_diff(least: Any, observed: Any, path: str) -> FieldDiff | None:
    """TOPOLOGY-007/008, when the implementation reports CSQ_ADMIN (optional): it offers at least
    1000 list entries per queue manager and Table 1's minimum size."""
    if not isinstance(least, Mapping) or observed is None:
        return None
    if not isinstance(observed, Mapping):
        return diff("inspect.admin", path, "an object", observed)
    for key, bound in least.items():
        value = observed.get(key)
        if value is not None and (type(value) is not int or value < bound):
            return diff("inspect.admin", f"{path}.{key}", f">= {bound}", value)
    return None


#: Types of the leaf values a projection holds (never mappings): no ABC check for them.
_LEAVES = frozenset({int, bool, str, float, list, type(None)})


def _is_mapping(value: Any) -> bool:
    """``isinstance(value, Mapping)``, quick for the values a projection holds."""
    kind = type(value)
    return kind is dict or (kind not in _LEAVES and isinstance(value, Mapping))


def _section_diff(expected: Any, observed: Any, path: str, comparison: str) -> FieldDiff | None:
    if not _is_mapping(expected):
        return None if expected == observed else diff(comparison, path, expected, observed)
    if not _is_mapping(observed):
        return diff(comparison, path, "an object", observed)
    for key, exp in expected.items():
        obs = observed.get(key)
        if key in STRUCTURE_USAGE_KEYS:
            if key == "entries_used":
                found = usage_bounds(path, [observed.get(k) for k in STRUCTURE_USAGE_KEYS] if obs is not None else None)
                if found:
                    return found
            continue
        if key == "cfname":  # TOPOLOGY-010, when the implementation reports it (optional)
            if obs is not None and obs != exp:
                return diff("inspect.cfname", f"{path}.{key}", exp, obs)
            continue
        if key == "staging_depth":
            # CQS-017: each message longer than the long message record has later parts on the staging
            # queue; how many parts is the implementation's (the part size is not documented)
            # (parts of at most LGMSGSZ bytes: no fewer than the model's count)
            if not isinstance(obs, int) or obs < exp:
                return diff("inspect.staging", f"{path}.{key}", f">= {exp}", obs)
            continue
        if not _is_mapping(exp):  # (a leaf: compared here, the path spelt only for a divergence)
            if exp != obs:
                return diff(comparison, f"{path}.{key}", exp, obs)
            continue
        found = _section_diff(exp, obs, f"{path}.{key}", comparison)
        if found:
            return found
    return None


def compare(
    expected: Outcome,
    observed: Outcome,
    observes: tuple[str, ...],
    reason_codes: str,
    correl: CorrelMap,
    signal_names: frozenset[str] = KNOWN_SIGNALS,
    detector: str | None = None,
) -> FieldDiff | None:
    """The first differing field, or ``None`` when ``observed`` conforms to ``expected``.

    ``signal_names``: the signals compared (CQS's are left out for an implementation that never
    reports them: they are optional observables, its state is judged instead)."""
    if expected.ok != observed.ok:
        return diff("ok", "ok", expected.ok, observed.ok)
    if reason_codes == "exact" and expected.reason != observed.reason and expected.reason not in COMMAND_REASONS:
        return diff("reason", "reason", expected.reason, observed.reason)
    if expected.offloaded is not None and expected.offloaded != observed.offloaded:
        return diff("offloaded", "offloaded", expected.offloaded, observed.offloaded)
    if expected.location is not None and observed.location is not None and expected.location != observed.location:
        return diff("location", "location", expected.location, observed.location)
    if expected.tag != observed.tag:
        return diff("tag", "tag", expected.tag, observed.tag)
    if (expected.events or observed.events) and "events" in observes:  # (none either side: nothing to sort)
        found = events_diff(expected.events, observed.events, correl, detector)
        if found:
            return found
    if (expected.signals or observed.signals) and "signals" in observes:
        exp, obs = known_signals(expected.signals, signal_names), known_signals(observed.signals, signal_names)
        if exp != obs:
            return diff("signals", "signals", exp, obs)
    if "usage" in observes and observed.usage is not None:
        found = usage_bounds("usage", observed.usage)
        if found:
            return found
    if "inspect" in observes and expected.kind == "inspect" and expected.value is not None:
        return projection_diff(expected.value, observed.value)
    return None
