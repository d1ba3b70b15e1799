"""Which rules a divergence breaks: the expected outcome's deciding rules plus those the diff implicates.

A failure must always name rule IDs (DEVELOPERS.md, principle 6), including when
the model's outcome was a plain success decided by no particular rule and the
implementation refused it: then the refusal's reason names the rule.
"""

from __future__ import annotations

from reference_model.outcomes import SIGNAL_RULES, Outcome

from conformance.compare import FieldDiff

REASON_RULES: dict[object, tuple[str, ...]] = {
    2192: ("CAPACITY-001",), "STRUCTURE_FULL": ("CAPACITY-001",),
    2053: ("QDEPTH-015",), 2048: ("CFLEVEL-002", "CFLEVEL-004"), 2366: ("CFLEVEL-002", "CFLEVEL-003"),
    2030: ("CFLEVEL-003", "CFLEVEL-008"), 2373: ("RECOVERY-002",), 2033: ("QUEUE-001", "QUEUE-002"),
    "NO_MSG": ("QUEUE-001",), "REJECTED_OVERFLOW": ("CQS-012",), "NOT_ACTIVE": ("QUEUE-005",),
    "NO_BACKUP": ("RECOVERY-007",), "NOT_FAILED": ("RECOVERY-006",), "NOT_ALLOWED": ("RECOVERY-001",),
    "OUT_OF_RANGE": ("CAPACITY-005", "CAPACITY-006"), "NO_ALTER_PENDING": ("CQS-003",),
}  # fmt: skip


FIELD_RULES = (
    ("offloaded", ("OFFLOAD-002", "OFFLOAD-004")),
    ("tag", ("QUEUE-001",)),
    ("events", ("QDEPTH-009", "QDEPTH-010", "QDEPTH-011")),
    ("usage", ("SIZING-005",)),
    (".qdphiev", ("QDEPTH-004", "QDEPTH-005", "QDEPTH-006")),
    (".qdploev", ("QDEPTH-004", "QDEPTH-005", "QDEPTH-006")),
    (".qdpmaxev", ("QDEPTH-004", "QDEPTH-005", "QDEPTH-006")),
    (".depth", ("QUEUE-004",)),
    (".overflow", ("CQS-011", "CQS-013")),
    (".staging_depth", ("CQS-017",)),
    (".full_warning", ("CAPACITY-002", "CAPACITY-003")),
    (".status", ("RECOVERY-002",)),
    (".size_kb", ("CAPACITY-004",)),
    ("elements", ("SIZING-005",)),
    ("entries", ("SIZING-005",)),
    (".active", ("QUEUE-005",)),
    (".perfmev", ("QDEPTH-007",)),
)


def blame(expected: Outcome, observed: Outcome, diff: FieldDiff | None) -> tuple[str, ...]:
    """Rule IDs for a divergence, most specific first, without duplicates."""
    found: list[str] = []
    if diff is not None:
        if diff.field in ("ok", "reason"):
            found += REASON_RULES.get(observed.reason, ())
        elif diff.field == "signals":
            names = {s.split(" ", 1)[0] for s in (*diff.expected, *diff.observed)}
            for name in sorted(names):
                found += SIGNAL_RULES.get(name, ())
        else:
            for fragment, rules in FIELD_RULES:
                if fragment in diff.field:
                    found += rules
                    break
    found += expected.rules
    if diff is not None and diff.field in ("ok", "reason"):
        found += REASON_RULES.get(expected.reason, ())
    return tuple(dict.fromkeys(found)) or ("QUEUE-004",)
