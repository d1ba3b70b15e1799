"""Which rules a divergence breaks: the rules that decided the diverging field.

For a reason or success mismatch these are the rules behind the two reason
codes; for any other field, the field's candidate rules that were in play in
the expected outcome (or, if the model named none of them, the field's main
rule).  A failure therefore names the rules it is about, not every rule the
step touched (DEVELOPERS.md, principle 6); the full list stays in the expected
outcome record.
"""

from __future__ import annotations

from collections import Counter

from cfconform.reference_model.outcomes import SIGNAL_RULES, Outcome

from .compare import COMMAND_REASONS, FieldDiff

REASON_RULES: dict[object, tuple[str, ...]] = {
    2192: ("CAPACITY-001",), "STRUCTURE_FULL": ("CAPACITY-001",),
    2053: ("QDEPTH-015",), 2048: ("CFLEVEL-002", "CFLEVEL-004"), 2366: ("CFLEVEL-002", "CFLEVEL-003"),
    2030: ("CFLEVEL-003", "CFLEVEL-008"), 2373: ("RECOVERY-002",), 2033: ("QUEUE-001", "QUEUE-002"),
    "NO_MSG": ("QUEUE-001",), "REJECTED_OVERFLOW": ("CQS-012",), "NOT_ACTIVE": ("QUEUE-005",),
    "NO_BACKUP": ("RECOVERY-007",), "NOT_FAILED": ("RECOVERY-006",), "NOT_ALLOWED": ("RECOVERY-001",),
    "OUT_OF_RANGE": ("CAPACITY-005", "CAPACITY-006"), "NO_ALTER_PENDING": ("CQS-003",),
}  # fmt: skip

_QDEPTH_SWITCHES = ("QDEPTH-004", "QDEPTH-005", "QDEPTH-006", "QDEPTH-007", "QDEPTH-008", "QDEPTH-012")
#: Storage in use: the accounting, and the rules that decide which messages stay stored.
_USAGE = ("SIZING-005", "OFFLOAD-005", "CAPACITY-010", "CQS-011", "CQS-017", "CQS-019", "CQS-021", "CQS-022",
          "CAPACITY-004", "CAPACITY-001", "RECOVERY-003", "RECOVERY-004", "RECOVERY-005", "QUEUE-002",
          "QUEUE-003")  # fmt: skip

#: What RECOVER CFSTRUCT leaves for the gets after it (most specific first).
_RECOVERED = ("RECOVERY-005", "RECOVERY-004", "RECOVERY-003")
#: The rule that raises each kind of queue depth event.
EVENT_KIND_RULES = {"QDPHI": ("QDEPTH-001",), "QDPLO": ("QDEPTH-002",), "QFULL": ("QDEPTH-003",)}
_EVENTS = ("QDEPTH-001", "QDEPTH-002", "QDEPTH-003", "QDEPTH-009", "QDEPTH-010", "QDEPTH-011", "QDEPTH-017",
           "QDEPTH-008", "QDEPTH-016", "QDEPTH-013")  # fmt: skip

#: (fragment of the field path, candidate rules, most specific first).
FIELD_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("offloaded", ("OFFLOAD-014", "OFFLOAD-002", "OFFLOAD-004", "OFFLOAD-003", "OFFLOAD-012", "CFLEVEL-006")),
    ("location", ("OFFLOAD-006", "CFLEVEL-006")),
    ("tag", ("RECOVERY-005", "RECOVERY-004", "RECOVERY-003", "QUEUE-001", "QUEUE-002", "QUEUE-003", "RECOVERY-008")),
    ("events", _EVENTS),
    (".qdphiev", _QDEPTH_SWITCHES), (".qdploev", _QDEPTH_SWITCHES), (".qdpmaxev", _QDEPTH_SWITCHES),
    (".overflow_queues", ("CQS-006", "CQS-007", "CQS-009", "CQS-010", "CQS-013", "CQS-018")),
    (".overflow_mode", ("CQS-005", "CQS-004", "CQS-014", "CQS-015")),
    (".overflow", ("CQS-011", "CQS-012", "CQS-013", "CQS-014", "CQS-015")),
    (".alter_pending", ("CQS-003", "CQS-004", "CQS-020")),
    (".staging_depth", ("CQS-017", "CQS-019", "CQS-021")),
    (".full_warning", ("CAPACITY-002", "CAPACITY-003")),
    (".status", ("RECOVERY-002", "RECOVERY-003", "RECOVERY-005")),
    (".size_kb", ("CAPACITY-004", "CAPACITY-005", "CAPACITY-006", "CQS-004")),
    (".depth", ("QUEUE-004", "QUEUE-002", "QUEUE-003", "RECOVERY-003", "RECOVERY-004", "RECOVERY-005",
                "CQS-017")),
    (".cfname", ("TOPOLOGY-010",)), (".admin", ("TOPOLOGY-007", "TOPOLOGY-008")),
    (".active", ("QUEUE-005",)), (".perfmev", ("QDEPTH-007", "QDEPTH-008")), (".clock", ("CQS-013",)),
    ("usage", _USAGE), ("elements", _USAGE), ("entries", _USAGE),
)  # fmt: skip


def _in_play(candidates: tuple[str, ...], expected: Outcome) -> tuple[str, ...]:
    return _only_in_play(candidates, expected) or candidates[:1]


def _only_in_play(candidates: tuple[str, ...], expected: Outcome) -> tuple[str, ...]:
    return tuple(r for r in candidates if r in expected.rules)


def _counts_only(diff: FieldDiff) -> bool:
    """Whether the event messages differ only in their MsgEnqCount/MsgDeqCount (the keys' tail)."""
    heads = [[tuple(key[:3]) for key in side] for side in (diff.expected, diff.observed)]
    return bool(heads[0]) and heads[0] == heads[1]


def _event_rules(diff: FieldDiff, expected: Outcome) -> tuple[str, ...]:
    """The event rules the model used at this step; if it used none (no event was due and the
    implementation raised one), the rule of each kind of message it raised (QDEPTH-001/002/003)."""
    in_play = _only_in_play(_EVENTS, expected)
    if in_play and _counts_only(diff):  # the same messages with other counts: the counting rules
        return (*_only_in_play(("QDEPTH-017",), expected), "QDEPTH-011", *in_play)
    if in_play:
        return in_play
    kinds = sorted(Counter(key[1] for key in diff.observed) - Counter(key[1] for key in diff.expected))
    return tuple(r for kind in kinds for r in EVENT_KIND_RULES.get(kind, ())) or _EVENTS[:1]


def blame(expected: Outcome, observed: Outcome, diff: FieldDiff | None) -> tuple[str, ...]:
    """Rule IDs for a divergence, most specific first, without duplicates."""
    if diff is not None and diff.comparison.startswith(("usage.", "inspect.staging", "events.coordinator")):
        return diff.rules  # a relation of the implementation's own figures, or who coordinates: its rules
    found: tuple[str, ...] = ()
    field = diff.field if diff is not None else "ok"
    if field in ("ok", "reason"):
        found = REASON_RULES.get(observed.reason, ()) + REASON_RULES.get(expected.reason, ())
        if not found or expected.reason in COMMAND_REASONS or observed.reason in COMMAND_REASONS:
            found = expected.rules + found  # a command's rules, not another command's reason's
        recovered = _only_in_play(_RECOVERED, expected)
        if recovered and expected.kind == "get":  # what a get after RECOVER finds is the recovery's
            found = (*recovered, *found)
        if expected.ok and "SIZING-001" in expected.rules:  # refused though Table 2 leaves room
            found = (*found, "SIZING-001")
        if expected.ok and "TOPOLOGY-006" in expected.rules:  # refused with all 32 queue managers defined
            # first unless the implementation's reason names a rule of its own
            found = (*found, "TOPOLOGY-006") if observed.reason in REASON_RULES else ("TOPOLOGY-006", *found)
    elif field == "signals":
        names = sorted({s.split(" ", 1)[0] for s in set(diff.expected) ^ set(diff.observed)})  # type: ignore[union-attr]
        found = tuple(r for name in names for r in SIGNAL_RULES.get(name, ()))
        found = found or _in_play(("CQS-014", "CQS-015", "CQS-020"), expected)
    elif field == "events":
        found = _event_rules(diff, expected)  # type: ignore[arg-type]
    else:
        for fragment, candidates in FIELD_RULES:
            if fragment in field:
                found = _in_play(candidates, expected)
                break
    return tuple(dict.fromkeys(found)) or expected.rules[:1] or ("QUEUE-004",)
