"""The wire client's errors and what a peer's protocol version allows (docs/PROTOCOL.md, Versioning).

:class:`WireError` is the :class:`~cfconform.adapters.protocol.AdapterError` every wire fault becomes;
:func:`config_for_peer` and :func:`too_new` keep what is sent within the version the implementation
announced.
"""

from __future__ import annotations

from typing import Any

from cfconform.reference_model.codec import config_to_record
from cfconform.reference_model.config import Config
from cfconform.reference_model.outcomes import Outcome

from ..protocol import AdapterError, NotSupported
from . import messages as m


class WireError(AdapterError):
    """An :class:`AdapterError` raised by the wire client.

    Attributes:
        step: protocol step (``"init"``, ``"open"``, ``"apply"``, ``"batch"``, ``"close"``) is in
            :attr:`phase`; :attr:`step` (inherited) is the index of the failing operation within
            the ``apply_batch`` call, when known.
        fault: what happened: ``exited``, ``timeout``, ``garbage``, ``oversized``, ``in_reply_to``,
            ``version``, ``schema``, ``unknown-type``, ``unexpected-type``, ``write``,
            ``error-reply``, ``too-large``, ``broken``.
        code: the error code of an ``error`` reply (else ``None``); :attr:`error_name` its name.
        detail: the error reply's ``detail``, if any.
        outcomes: for a batch that failed part way, the outcomes of the operations before the
            failing one (the whole ``apply_batch`` call so far).
    """

    def __init__(
        self,
        message: str,
        *,
        phase: str,
        fault: str,
        definite: bool = False,
        step: int | None = None,
        code: int | None = None,
        detail: Any = None,
        outcomes: list[Outcome] | None = None,
    ) -> None:
        super().__init__(message, definite=definite, step=step)
        self.phase = phase
        self.fault = fault
        self.code = code
        self.error_name = m.ERROR_BY_CODE[code].name if code in m.ERROR_BY_CODE else None
        self.detail = detail
        self.outcomes = outcomes or []


class WireNotSupported(WireError, NotSupported):
    """A definite error 10 (``not-supported``) reply to an operation: see :class:`NotSupported`."""


#: Operation kinds added after protocol 1.0, by the version that added them: sent only to a peer
#: that announced at least that version (docs/PROTOCOL.md, Versioning); to an older one they are
#: "not supported" without being sent, as its error 10 would say.
OP_SINCE: dict[str, tuple[int, int]] = {"reset_qstats": (1, 2)}
#: Ambiguities added after protocol 1.0, by the version that added them: a config's ``readings``
#: names them only to a peer that announced at least that version (records are strict, so an older
#: implementation checking its copy of the schema would refuse the unknown key).
READING_SINCE: dict[str, tuple[int, int]] = {
    "qstats_at_stop": (1, 3),
    "cqs_reselect": (1, 3),
    "cqs_relief_timing": (1, 4),
    "offload_after_raise": (1, 4),
}
#: Readings added to an older ambiguity, likewise (a config leaves the ambiguity out for an older peer).
VALUE_SINCE: dict[tuple[str, str], tuple[int, int]] = {
    ("cqs_target", "points-floor"): (1, 3),
    ("cqs_empty_overflow", "next-scan"): (1, 3),
}


def config_for_peer(config: Config, peer: tuple[int, int]) -> dict[str, Any]:
    """``config``'s record as a peer that announced protocol ``peer`` knows it (READING_SINCE)."""
    return record_for_peer(config_to_record(config), peer)


def record_for_peer(record: dict[str, Any], peer: tuple[int, int]) -> dict[str, Any]:
    """A configuration record (one the model may refuse: judge/opening.py) as a peer that announced
    protocol ``peer`` knows it: the readings it does not know left out (READING_SINCE, VALUE_SINCE)."""
    readings = record.get("readings")
    if isinstance(readings, dict):
        record["readings"] = {
            k: v
            for k, v in readings.items()
            if peer >= READING_SINCE.get(k, (1, 0)) and peer >= VALUE_SINCE.get((k, v), (1, 0))
        }
    return record


def version_tuple(version: Any) -> tuple[int, int]:
    """``(major, minor)`` of an announced protocol version (1.0 if it cannot be read)."""
    try:
        major, minor = str(version).split(".")[:2]
        return int(major), int(minor)
    except ValueError:
        return 1, 0


def too_new(kind: str, peer: tuple[int, int]) -> WireNotSupported | None:
    """Error 10 for an operation kind newer than the protocol version ``peer`` announced (OP_SINCE)."""
    since = OP_SINCE.get(kind)
    if since is None or peer >= since:
        return None
    return WireNotSupported(
        f"wire: {kind} needs protocol {since[0]}.{since[1]}; the implementation announced {peer[0]}.{peer[1]} "
        "(not sent)",
        phase="apply",
        fault="version",
        definite=True,
        code=m.NOT_SUPPORTED,
    )
