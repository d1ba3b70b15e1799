"""The gate's result record: one JSON-safe dict per run, from which every report is rendered.

Schema (``GATE_SCHEMA_VERSION``): see :class:`GateResult`.  ``results.jsonl``
holds one such record per line.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

GATE_SCHEMA_VERSION = 1
#: ``static``: a rule observable only through configuration or calculators, checked by the model's own tests.
VERDICTS = ("pass", "fail", "known-deviation", "not-claimed", "not-reached", "static")


@attrs.frozen
class Deviation:
    """An expected failure of one rule: it passes the gate with a warning until ``expires``."""

    rule: str
    reason: str
    expires: dt.date | None = None


@attrs.frozen
class RuleVerdict:
    """One row of the per-rule matrix."""

    rule: str
    family: str
    title: str
    verdict: str
    steps: int
    boundaries: dict[str, int]


@attrs.frozen
class FailureRecord:
    """Everything needed to act on a failure: rules, first diverging step and field, reproducer."""

    profile: str
    rules: tuple[str, ...]
    step: int | None
    field: str
    expected: Any
    observed: Any
    config: dict[str, Any]
    ops: tuple[dict[str, Any], ...]
    expected_outcome: dict[str, Any] | None
    observed_outcome: dict[str, Any] | None
    readings: dict[str, list[str]]
    usage_series: dict[str, list[float]]
    thresholds: dict[str, dict[str, float]]
    kind: str = "divergence"
    reproducer: str | None = None


@attrs.frozen
class GateResult:
    """A whole gate run."""

    schema: int
    adapter: str
    capabilities: dict[str, Any]
    profiles: tuple[str, ...]
    hypothesis_profile: str
    seed: int | None
    started: str
    seconds: float
    cases: int
    steps: int
    rules: tuple[RuleVerdict, ...]
    failures: tuple[FailureRecord, ...]
    warnings: tuple[str, ...]
    readings: dict[str, list[str]]
    exit_code: int

    def to_record(self) -> dict[str, Any]:
        return attrs.asdict(self, recurse=True, value_serializer=_plain)

    @property
    def conforms(self) -> bool:
        return self.exit_code == 0


def _plain(_inst: Any, _field: Any, value: Any) -> Any:
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def matches(rule_id: str, patterns: Iterable[str] | None) -> bool:
    """``--rules`` patterns: shell-style, comma-separated (``OFFLOAD-*,QDEPTH-00?``)."""
    if not patterns:
        return True
    return any(fnmatch.fnmatchcase(rule_id, p.strip()) for p in patterns if p.strip())


def from_record(record: Mapping[str, Any]) -> GateResult:
    """Rebuild a :class:`GateResult` from its record (e.g. a line of results.jsonl)."""
    data = dict(record)
    data["rules"] = tuple(RuleVerdict(**r) for r in data["rules"])
    data["failures"] = tuple(
        FailureRecord(**{**f, "rules": tuple(f["rules"]), "ops": tuple(f["ops"])}) for f in data["failures"]
    )
    for key in ("profiles", "warnings"):
        data[key] = tuple(data[key])
    return GateResult(**data)
