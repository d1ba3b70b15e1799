"""The one error type the reference model raises for bad input.

Documented rejections (a full structure, a persistent put on a RECOVER(NO)
structure, ...) are *outcomes*, never exceptions.  Exceptions are reserved for
input that no documented system would accept: an invalid configuration or an
operation that names something that does not exist.  Every such error names the
field, the value, the allowed range and the rule that decides it, so a user can
fix the input without reading our code.
"""

from __future__ import annotations

from typing import Any

#: Rule ID given for a field no rule defines (a misspelt key, say).
UNKNOWN_FIELD = "none: unknown field"


class ConfigurationError(ValueError):
    """An invalid configuration or operation argument.

    Attributes:
        field: dotted path of the offending field, e.g. ``structures[APP1].offld1th``.
        value: the value that was given.
        allowed: a human-readable description of the allowed range.
        rule_id: the catalogue rule that decides the range (``FAMILY-NNN``).
    """

    def __init__(self, field: str, value: Any, allowed: str, rule_id: str) -> None:
        self.field = field
        self.value = value
        self.allowed = allowed
        self.rule_id = rule_id
        cited = f" [{rule_id}]" if rule_id != UNKNOWN_FIELD else ""  # a usage error cites no rule
        msg = f"{field}={value!r} is invalid: allowed {allowed}{cited}"
        super().__init__(msg)

    def __reduce__(self) -> tuple[Any, ...]:
        """Picklable (process pools, Spark tasks) despite the four-argument constructor."""
        return (type(self), (self.field, self.value, self.allowed, self.rule_id))

    def to_record(self) -> dict[str, Any]:
        """A JSON-safe description, used in outcomes and reports."""
        return {
            "field": self.field,
            "value": self.value if isinstance(self.value, (int, float, str, bool)) else repr(self.value),
            "allowed": self.allowed,
            "rule_id": self.rule_id,
        }
