"""Plain result records for one checked trace (the one schema every report renders from)."""

from __future__ import annotations

from typing import Any

import attrs

from cfconform.reference_model.codec import outcome_to_record


@attrs.frozen
class Divergence:
    """The first step where the implementation departs from every admissible reading."""

    step: int
    op: dict[str, Any]
    field: str
    expected: Any
    observed: Any
    rules: tuple[str, ...]
    expected_outcome: dict[str, Any]
    observed_outcome: dict[str, Any]

    def signature(self) -> str:
        """What groups equal divergences: rules, first field, operation kind."""
        field = self.field.split("[", 1)[0]
        return f"{'+'.join(self.rules[:2])}|{field}|{self.op.get('op')}"


@attrs.frozen
class AdapterFault:
    """The implementation could not be judged: it crashed, hung or broke the protocol."""

    step: int | None
    message: str
    definite: bool
    #: The implementation answered that it does not support the operation (NotSupported).
    refused: bool = False


@attrs.frozen
class TraceResult:
    """Outcome of checking one trace against one adapter."""

    config: dict[str, Any]
    ops: tuple[dict[str, Any], ...]
    steps_checked: int
    rules_exercised: dict[str, int]
    readings: dict[str, list[str]]
    divergence: Divergence | None = None
    fault: AdapterFault | None = None
    invalid: str | None = None
    #: Why the trace ended early without a verdict: an operation the implementation does not
    #: support, or a divergence on rules it does not claim (docs/PROTOCOL.md, capabilities).
    unjudged: str | None = None

    @property
    def verdict(self) -> str:
        """``pass``, ``fail``, ``error`` (adapter fault), ``invalid`` (the trace itself is bad input)
        or ``unjudged`` (ended early: see :attr:`unjudged`)."""
        if self.invalid is not None:
            return "invalid"
        if self.fault is not None:
            return "error"
        if self.divergence is not None:
            return "fail"
        return "unjudged" if self.unjudged is not None else "pass"

    def to_record(self) -> dict[str, Any]:
        return attrs.asdict(self, recurse=True) | {"verdict": self.verdict}


def divergence_from(verdict: Any, op_record: dict[str, Any]) -> Divergence:
    """Build a :class:`Divergence` from a failing :class:`~cfconform.judge.checker.StepVerdict`."""
    diff = verdict.diff
    return Divergence(
        step=verdict.index, op=op_record, field=diff.field, expected=diff.expected, observed=diff.observed,
        rules=verdict.rules, expected_outcome=outcome_to_record(verdict.expected),
        observed_outcome=outcome_to_record(verdict.observed),
    )  # fmt: skip
