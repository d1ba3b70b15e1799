"""Plain result records for one checked trace (the one schema every report renders from)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

import attrs

from cfconform.reference_model.codec import config_to_record, op_to_record, outcome_to_record


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


#: The fields of :class:`TraceResult` given as objects and recorded only when read.
_LAZY = ("_config", "_ops")


@attrs.frozen(eq=False)
class TraceResult:
    """Outcome of checking one trace against one adapter.

    ``config`` and ``ops`` may be given as records or as the :class:`Config` and operations
    themselves: their records are then made when first read.  Only failures and full-trace
    campaigns read them, and making them cost more than checking a short trace.
    """

    _config: Any = attrs.field(alias="config", repr=False)
    _ops: Sequence[Any] = attrs.field(alias="ops", converter=tuple, repr=False)
    steps_checked: int
    rules_exercised: dict[str, int]
    readings: dict[str, list[str]]
    divergence: Divergence | None = None
    fault: AdapterFault | None = None
    invalid: str | None = None
    #: Why the trace ended early without a verdict: an operation the implementation does not
    #: support, or a divergence on rules it does not claim (docs/PROTOCOL.md, capabilities).
    unjudged: str | None = None

    @cached_property
    def config(self) -> dict[str, Any]:
        """The configuration's record."""
        return self._config if isinstance(self._config, dict) else config_to_record(self._config)

    @cached_property
    def ops(self) -> tuple[dict[str, Any], ...]:
        """The operations' records."""
        return tuple(op if isinstance(op, dict) else op_to_record(op) for op in self._ops)

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
        rest = attrs.asdict(self, recurse=True, filter=lambda a, _: a.name not in _LAZY)
        return {"config": _plain_copy(self.config), "ops": _plain_copy(self.ops), **rest, "verdict": self.verdict}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TraceResult):
            return NotImplemented
        return (self.config, self.ops) == (other.config, other.ops) and _eager(self) == _eager(other)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in _eager(self).items())
        return f"TraceResult(config={self.config!r}, ops={self.ops!r}, {fields})"


def _eager(result: TraceResult) -> dict[str, Any]:
    """The fields of ``result`` other than its records."""
    return {a.name: getattr(result, a.name) for a in attrs.fields(TraceResult) if a.name not in _LAZY}


def _plain_copy(value: Any) -> Any:
    """A deep copy of a record, lists as lists and tuples as tuples (what ``attrs.asdict`` makes of one)."""
    if isinstance(value, dict):
        return {_plain_copy(k): _plain_copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_plain_copy(v) for v in value)
    return value


def divergence_from(verdict: Any, op_record: dict[str, Any]) -> Divergence:
    """Build a :class:`Divergence` from a failing :class:`~cfconform.judge.checker.StepVerdict`."""
    diff = verdict.diff
    return Divergence(
        step=verdict.index, op=op_record, field=diff.field, expected=diff.expected, observed=diff.observed,
        rules=verdict.rules, expected_outcome=outcome_to_record(verdict.expected),
        observed_outcome=outcome_to_record(verdict.observed),
    )  # fmt: skip
