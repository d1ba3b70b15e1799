"""The narrow interface an implementation under test sits behind.

An adapter is anything with these five methods (a :class:`typing.Protocol`; no
base class to inherit).  The reference model, the mutants, the wire-protocol
client and third-party plugins all implement it; the checker in
:mod:`conformance` never sees anything else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import attrs

from cfconform.reference_model.config import Config
from cfconform.reference_model.outcomes import Outcome
from cfconform.reference_model.readings import AMBIGUITIES

#: Version of the adapter contract and of the wire protocol (docs/PROTOCOL.md).  Peers work together
#: when their major versions are equal (1.1 added the outcome field ``location``).
PROTOCOL_VERSION = "1.4"
#: How exactly an implementation's reason codes can be compared with the model's.
REASON_FIDELITY = ("exact", "class", "ignore")
FAMILIES = ("CQS", "OFFLOAD", "CFLEVEL", "CAPACITY", "TOPOLOGY", "SIZING", "QDEPTH", "RECOVERY", "QUEUE")


def _readings(value: Mapping[str, str] | None) -> dict[str, str]:
    """Every ambiguity gets a reading; missing ones are "unknown" (to be inferred)."""
    out = {k: "unknown" for k in AMBIGUITIES}
    out.update(value or {})
    return out


@attrs.frozen
class Capabilities:
    """What an adapter claims.

    Attributes:
        name: a short name for reports.
        protocol_version: the contract version it speaks (``PROTOCOL_VERSION``).
        profiles: the model profiles it implements (``mq``, ``cqs``).
        families: the rule families it claims; unclaimed families are reported
            "not claimed", never failed.
        readings: per ambiguity ID, the reading it follows or ``"unknown"``.
        reason_codes: ``exact`` (reasons must equal), ``class`` (only ok versus
            failed must agree) or ``ignore``.
        observes: optional observables it reports: ``usage`` (structure pools in
            put/get outcomes), ``events``, ``signals``, ``inspect``.
    """

    name: str
    protocol_version: str = PROTOCOL_VERSION
    profiles: tuple[str, ...] = ("mq", "cqs")
    families: tuple[str, ...] = FAMILIES
    readings: dict[str, str] = attrs.field(factory=dict, converter=_readings)
    reason_codes: str = attrs.field(default="exact", validator=attrs.validators.in_(REASON_FIDELITY))
    observes: tuple[str, ...] = ("usage", "events", "signals", "inspect")

    def to_record(self) -> dict[str, Any]:
        return {
            "name": self.name, "protocol_version": self.protocol_version, "profiles": list(self.profiles),
            "families": list(self.families), "readings": dict(self.readings),
            "reason_codes": self.reason_codes, "observes": list(self.observes),
        }  # fmt: skip


class AdapterError(Exception):
    """The implementation could not answer: it crashed, hung, lied about the protocol, ...

    ``definite`` follows Maelstrom's distinction: True means the operation
    certainly did not happen; False (indefinite) means it may have.
    """

    def __init__(self, message: str, *, definite: bool = False, step: int | None = None) -> None:
        self.definite = definite
        self.step = step
        super().__init__(message)


class NotSupported(AdapterError):
    """The implementation does not implement this operation (wire error 10, definite): an
    operation of a family it does not claim.  The gate ends the test case there without a
    verdict and reports the operation kinds refused (docs/PROTOCOL.md)."""

    def __init__(self, message: str, *, definite: bool = True, step: int | None = None) -> None:
        super().__init__(message, definite=True, step=step)


#: Wire error codes by which an implementation definitely refuses what no document requires it to
#: accept: ``bad-config`` (an ``open``) and ``invalid-operation`` (a definition, name or value).
REFUSAL_CODES = (13, 14)


def is_refusal(err: BaseException) -> bool:
    """Whether ``err`` is the implementation declining, not failing: an operation it does not
    support (:class:`NotSupported`), or a configuration or value it definitely refuses.  Such a
    refusal is reported "not supported" and the test case dropped, never a verdict (principle 7)."""
    if isinstance(err, NotSupported):
        return True
    return isinstance(err, AdapterError) and err.definite and getattr(err, "code", None) in REFUSAL_CODES


@runtime_checkable
class Adapter(Protocol):
    """An implementation under test."""

    def capabilities(self) -> Capabilities:
        """What the implementation claims (called before ``open``)."""
        ...

    def open(self, config: Config) -> None:
        """Start, or reset to an empty state, with ``config``."""
        ...

    def apply(self, op: Any) -> Outcome:
        """Apply one operation; raise :class:`AdapterError` if no answer can be had."""
        ...

    def apply_batch(self, ops: Sequence[Any]) -> list[Outcome]:
        """Apply several operations in order (one round trip for remote adapters)."""
        ...

    def close(self) -> None:
        """Release everything (child processes included); safe to call twice."""
        ...
