"""Messages of the cfconform wire protocol: builders, light validators, the error registry.

The protocol (docs/PROTOCOL.md) is modelled on Jepsen Maelstrom's: one JSON
object per line on the implementation's stdin (requests) and stdout (replies),
its stderr free for logs, an ``init`` handshake, ``msg_id``/``in_reply_to``
pairing, and errors that say whether the operation certainly did not happen
(definite) or may have (indefinite).

This module is data and pure functions only (no I/O), shared by the client
(:mod:`cfconform.adapters.wire.client`), the server (:mod:`cfconform.adapters.wire.server`), the
``check-protocol`` command and the documentation generator.
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from cfconform.reference_model.config import PROFILES
from cfconform.reference_model.errors import ConfigurationError
from cfconform.reference_model.operations import OPERATION_BY_KIND, DefineQueue, DefineStructure
from cfconform.reference_model.outcomes import EVENT_KINDS, LOCATIONS, EventMessage, Outcome
from cfconform.reference_model.readings import AMBIGUITIES

from ..protocol import FAMILIES, PROTOCOL_VERSION, REASON_FIDELITY, Capabilities

__all__ = [
    "BATCH_CHUNK", "ERRORS", "ERROR_BY_CODE", "MAX_LINE_BYTES", "MESSAGE_TYPES", "OBSERVABLES",
    "PROTOCOL_VERSION", "REPLY_TYPES", "REQUEST_TYPES", "ErrorCode", "OutcomeViolation", "ProtocolViolation",
    "capabilities_from_record", "decode_line", "decode_op", "decode_outcome", "dumps", "encode",
    "error_reply", "fast_op_record",
]  # fmt: skip

#: Default limit on one message line, in bytes, newline excluded (both directions).
MAX_LINE_BYTES = 1024 * 1024
#: Default number of operations the client sends in one ``batch`` request.
BATCH_CHUNK = 1000
#: Observables an implementation may report (``Capabilities.observes``).
OBSERVABLES = ("usage", "events", "signals", "inspect")

#: Request type -> the reply type that answers it successfully.
REQUEST_TYPES: dict[str, str] = {
    "init": "init_ok", "open": "open_ok", "apply": "apply_ok", "batch": "batch_ok", "close": "close_ok",
}  # fmt: skip
REPLY_TYPES: tuple[str, ...] = (*REQUEST_TYPES.values(), "error")
MESSAGE_TYPES: tuple[str, ...] = (*REQUEST_TYPES, *REPLY_TYPES)


@attrs.frozen
class ErrorCode:
    """One entry of the error registry (the analogue of Maelstrom's errors.edn).

    Attributes:
        code: the number sent in ``error`` replies.
        name: a short stable name.
        definite: True if an error with this code guarantees the request had no
            effect; False if it may have taken effect.
        doc: when an implementation sends it, and what the suite does with it.
    """

    code: int
    name: str
    definite: bool
    doc: str


#: The error registry.  Codes 1000 and above are left to implementations; for
#: those the reply's own ``definite`` field decides.
ERRORS: tuple[ErrorCode, ...] = (
    ErrorCode(10, "not-supported", True,
              "The request is valid but this implementation does not support it: an operation kind of a "
              "family it does not claim, a profile it does not implement, or an optional message."),
    ErrorCode(11, "invalid-request", True,
              "The request is malformed: not JSON, not an object, a missing or mistyped field, an unknown "
              "message type or an unknown operation kind."),
    ErrorCode(12, "crash", False,
              "The implementation failed internally while handling the request; it may or may not have "
              "taken effect."),
    ErrorCode(13, "bad-config", True,
              "`open`: the configuration is invalid for this implementation. Nothing was opened; the "
              "implementation is left unopened. `detail` should name the field."),
    ErrorCode(14, "invalid-operation", True,
              "The operation is well-formed but names something that does not exist (a queue, queue "
              "manager or structure) or has an argument out of range. The reference model raises a "
              "ConfigurationError in these cases; `detail` carries its field/value/allowed/rule_id."),
    ErrorCode(15, "precondition-failed", True,
              "The request came in the wrong order: anything before `init`, a second `init`, or "
              "`apply`/`batch` before a successful `open`."),
    ErrorCode(16, "version-mismatch", True,
              "`init`: the implementation does not speak the protocol version the suite asked for."),
    ErrorCode(17, "request-too-large", True,
              "The request line exceeded the implementation's line limit; it was discarded unread."),
    ErrorCode(18, "reply-too-large", False,
              "The operation was applied but its reply would exceed the suite's line limit."),
    ErrorCode(19, "aborted", True,
              "The implementation refused the request and guarantees it had no effect (for example a "
              "resource it depends on is unavailable)."),
    ErrorCode(20, "timeout", False,
              "The implementation gave up waiting for something internal; the request may have taken "
              "effect."),
)  # fmt: skip
ERROR_BY_CODE: dict[int, ErrorCode] = {e.code: e for e in ERRORS}
ERROR_BY_NAME: dict[str, ErrorCode] = {e.name: e for e in ERRORS}
NOT_SUPPORTED, INVALID_REQUEST, CRASH, BAD_CONFIG, INVALID_OPERATION = 10, 11, 12, 13, 14
PRECONDITION_FAILED, VERSION_MISMATCH, REQUEST_TOO_LARGE, REPLY_TOO_LARGE, ABORTED, TIMEOUT = (
    15, 16, 17, 18, 19, 20,
)  # fmt: skip
#: First code free for implementation-specific errors.
CUSTOM_CODES_FROM = 1000


class ProtocolViolation(Exception):
    """A message that breaks the protocol (raised by the validators in this module)."""


def is_definite(code: int, claimed: bool) -> bool:
    """Definiteness the suite acts on: registered codes must also say so; custom codes are believed."""
    entry = ERROR_BY_CODE.get(code)
    if entry is None:
        return bool(claimed)
    return bool(claimed) and entry.definite


# -- encoding -------------------------------------------------------------------------------
_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def dumps(obj: Any) -> str:
    """Compact JSON text (no spaces, no NaN/Infinity), as every message is sent."""
    return _dumps(obj)


def encode(obj: Mapping[str, Any]) -> bytes:
    """One message as a line of UTF-8 bytes, newline included."""
    return (_dumps(obj) + "\n").encode()


def error_reply(
    in_reply_to: int | None, code: int, text: str, *, definite: bool | None = None, detail: Any = None
) -> dict[str, Any]:
    """An ``error`` message; ``definite`` defaults to the registry's value for ``code``."""
    if definite is None:
        entry = ERROR_BY_CODE.get(code)
        definite = entry.definite if entry else False
    msg: dict[str, Any] = {
        "type": "error",
        "in_reply_to": in_reply_to,
        "code": code,
        "text": text,
        "definite": definite,
    }
    if detail is not None:
        msg["detail"] = detail
    return msg


def decode_line(line: bytes | str) -> dict[str, Any]:
    """Parse one line into a message object; raise :class:`ProtocolViolation` if it is not one.

    Only JSON is parsed: nothing the other side sends is ever evaluated.
    """
    try:
        msg = json.loads(line.decode() if type(line) is bytes else line)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolViolation(f"not a JSON line ({exc}): {_preview(line)}") from None
    except RecursionError:
        raise ProtocolViolation(f"JSON nested too deeply to read: {_preview(line)}") from None
    if not isinstance(msg, dict):
        raise ProtocolViolation(f"not a JSON object: {_preview(line)}")
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise ProtocolViolation(f"message without a string 'type': {_preview(line)}")
    return msg


def _preview(line: bytes | str, limit: int = 120) -> str:
    text = line if isinstance(line, str) else line.decode("utf-8", "replace")
    text = text.rstrip("\n")
    return repr(text if len(text) <= limit else text[:limit] + "...")


# -- operations -----------------------------------------------------------------------------
def _op_encoders() -> dict[type, tuple[str, tuple[str, ...], Any]]:
    """Per plain operation class: its kind, field names and a C-level getter of their values."""
    out = {}
    for cls in OPERATION_BY_KIND.values():
        names = tuple(a.name for a in attrs.fields(cls))
        if cls in (DefineStructure, DefineQueue) or len(names) < 2:
            continue  # nested records, or no/one field: the generic path
        tupled = any(a.name in ("changes", "vetoes") for a in attrs.fields(cls))
        if not tupled:
            out[cls] = (cls.KIND, names, operator.attrgetter(*names))
    return out


_OP_ENCODERS = _op_encoders()


def fast_op_record(op: Any) -> dict[str, Any]:
    """The record :func:`cfconform.reference_model.codec.op_to_record` gives (faster for plain kinds)."""
    spec = _OP_ENCODERS.get(type(op))
    if spec is None:
        from cfconform.reference_model.codec import op_to_record

        return op_to_record(op)
    kind, names, values = spec
    out = {"op": kind}
    out.update(zip(names, values(op), strict=True))
    return out


def decode_op(record: Any) -> Any:
    """An operation from its record (fast path for plain kinds; errors are ConfigurationError)."""
    if not isinstance(record, dict):
        raise ConfigurationError("op", record, "an operation record (a JSON object)", "none: unknown field")
    kind = record.get("op")
    cls = OPERATION_BY_KIND.get(kind) if isinstance(kind, str) else None
    if cls is not None and cls is not DefineStructure and cls is not DefineQueue:
        fields = dict(record)
        del fields["op"]
        try:
            return cls(**fields)
        except (TypeError, ValueError):
            pass  # let the codec name the offending field
    from cfconform.reference_model.codec import op_from_record

    return op_from_record(record)


# -- outcomes -------------------------------------------------------------------------------
_OUTCOME_FIELDS: tuple[str, ...] = tuple(a.name for a in attrs.fields(Outcome))
_EVENT_FIELDS: tuple[str, ...] = tuple(a.name for a in attrs.fields(EventMessage))
_OP_KINDS = frozenset(OPERATION_BY_KIND)


class OutcomeViolation(ProtocolViolation):
    """An outcome record that its JSON Schema (docs/schemas/outcome.json) refuses.

    Attributes:
        field: where, as a JSON path inside the outcome (``"usage/0"``, ``"ok"``;
            ``""`` for the record itself).
        problem: what is wrong, in jsonschema's words where it has some.
        record: the offending outcome record.
    """

    def __init__(self, field: str, problem: str, record: Any) -> None:
        self.field = field
        self.problem = problem
        self.record = record
        super().__init__(self.describe("outcome"))

    def describe(self, where: str) -> str:
        """The message, with the outcome located at ``where`` (``"batch_ok reply to msg_id 7 at outcomes/3"``)."""
        at = f"{where}/{self.field}" if self.field else where
        return f"schema-invalid {at}: {self.problem} (outcome {self.record!r:.200})"


def decode_outcome(record: Any) -> Outcome:
    """An :class:`Outcome` from its record, checked in full (the hot path of the wire client).

    Accepts exactly the records docs/schemas/outcome.json accepts (as jsonschema
    reads it: an integral float such as ``3.0`` is an integer, and becomes one),
    and refuses NaN and Infinity anywhere, ``value`` included (they are not
    JSON).  Raises :class:`OutcomeViolation` naming the field.  The common case
    costs a few type tests per field; the error paths are slower and exact.
    """
    if type(record) is not dict:
        raise OutcomeViolation("", f"{record!r:.80} is not of type 'object'", record)
    try:
        o = Outcome(**record)
    except TypeError:
        _shape(record, _OUTCOME_FIELDS, ("kind",))
        raise  # pragma: no cover - _shape always finds the reason
    kind = o.kind
    if type(kind) is not str or kind not in _OP_KINDS or type(o.ok) is not bool or "ok" not in record:
        if type(kind) is not str or kind not in _OP_KINDS:
            raise OutcomeViolation("kind", f"{kind!r:.80} is not one of the operation kinds", record)
        if "ok" not in record:
            raise OutcomeViolation("", "'ok' is a required property", record)
        raise OutcomeViolation("ok", f"{o.ok!r:.80} is not of type 'boolean'", record)
    value = o.reason
    if value is not None and type(value) is not int and type(value) is not str:
        o.reason = _integer(value, "reason", record, "'integer', 'string', 'null'")
    value = o.rules
    if type(value) is list:  # present (a JSON array); the default is the empty tuple
        try:
            "".join(value)  # a list of strings, at C speed
        except TypeError:
            _strings(value, "rules", record)
        o.rules = tuple(value)
    elif type(value) is not tuple:
        o.rules = _strings(value, "rules", record)
    value = o.offloaded
    if value is not None and type(value) is not bool:
        raise OutcomeViolation("offloaded", f"{value!r:.80} is not of type 'boolean', 'null'", record)
    value = o.tag
    if value is not None and type(value) is not int:
        o.tag = _integer(value, "tag", record, "'integer', 'null'")
    value = o.events
    if type(value) is not tuple:
        o.events = _events(value, record)
    value = o.signals
    if type(value) is not tuple:
        o.signals = _strings(value, "signals", record)
    value = o.usage
    if value is not None:
        if type(value) is not list or len(value) != 4:
            o.usage = _usage(value, record)
        else:
            a, b, c, d = value
            if type(a) is int and type(b) is int and type(c) is int and type(d) is int and (a | b | c | d) >= 0:
                o.usage = (a, b, c, d)
            else:
                o.usage = _usage(value, record)
    value = o.location
    if value is not None and value not in LOCATIONS:
        if type(value) is not str:
            raise OutcomeViolation("location", f"{value!r:.80} is not of type 'string', 'null'", record)
        raise OutcomeViolation("location", f"{value!r:.80} is not one of {[*LOCATIONS, None]}", record)
    if o.value is not None:
        _finite(o.value, "value", record)
    return o


def _shape(record: dict[str, Any], fields: tuple[str, ...], required: tuple[str, ...], where: str = "") -> None:
    """Raise the OutcomeViolation for a record with an unknown field or without a required one."""
    prefix = f"{where}/" if where else ""
    for key in record:
        if key not in fields:
            raise OutcomeViolation(
                f"{prefix}{key}",
                f"unknown field {key!r:.60} (additional properties are not allowed; allowed {list(fields)})",
                record,
            )
    for key in required:
        if key not in record:
            raise OutcomeViolation(where, f"{key!r} is a required property", record)


def _integer(value: Any, field: str, record: Any, types: str = "'integer'") -> int:
    """``value`` as JSON Schema's integer (``3.0`` is one), or raise naming ``field``."""
    if type(value) is float and value.is_integer():
        return int(value)
    raise OutcomeViolation(field, f"{value!r:.80} is not of type {types}", record)


def _strings(value: Any, field: str, record: Any) -> tuple[str, ...]:
    if type(value) is not list:
        raise OutcomeViolation(field, f"{value!r:.80} is not of type 'array'", record)
    try:
        "".join(value)  # C speed; TypeError names no index, so look for it below
    except TypeError:
        for i, item in enumerate(value):
            if type(item) is not str:
                raise OutcomeViolation(f"{field}/{i}", f"{item!r:.80} is not of type 'string'", record) from None
    return tuple(value)


def _usage(value: Any, record: Any) -> tuple[int, ...]:
    if type(value) is not list:
        raise OutcomeViolation("usage", f"{value!r:.80} is not of type 'array', 'null'", record)
    if len(value) != 4:
        size = "short" if len(value) < 4 else "long"
        raise OutcomeViolation("usage", f"{value!r:.80} is too {size} (4 items: entries used/total, "
                               "elements used/total)", record)  # fmt: skip
    out = []
    for i, item in enumerate(value):
        n = item if type(item) is int else _integer(item, f"usage/{i}", record)
        if n < 0:
            raise OutcomeViolation(f"usage/{i}", f"{item!r} is less than the minimum of 0", record)
        out.append(n)
    return tuple(out)


def _events(value: Any, record: Any) -> tuple[EventMessage, ...]:
    if type(value) is not list:
        raise OutcomeViolation("events", f"{value!r:.80} is not of type 'array'", record)
    out = []
    for i, event in enumerate(value):
        where = f"events/{i}"
        if type(event) is not dict:
            raise OutcomeViolation(where, f"{event!r:.80} is not of type 'object'", record)
        _shape(event, _EVENT_FIELDS, _EVENT_FIELDS, where)
        fields = dict(event)
        for name in ("qmgr", "queue"):
            if type(fields[name]) is not str:
                raise OutcomeViolation(f"{where}/{name}", f"{fields[name]!r:.80} is not of type 'string'", record)
        if fields["kind"] not in EVENT_KINDS or type(fields["kind"]) is not str:
            raise OutcomeViolation(f"{where}/kind", f"{fields['kind']!r:.80} is not one of {list(EVENT_KINDS)}", record)
        for name in ("correl", "enq", "deq"):
            if type(fields[name]) is not int:
                fields[name] = _integer(fields[name], f"{where}/{name}", record)
        out.append(EventMessage(**fields))
    return tuple(out)


def _finite(value: Any, field: str, record: Any) -> None:
    """Refuse NaN and Infinity anywhere in ``value`` (Python's json module reads them; JSON has none)."""
    kind = type(value)
    if kind is float:
        if not math.isfinite(value):
            raise OutcomeViolation(field, f"{value!r} is not a JSON number (NaN and Infinity are not JSON)", record)
    elif kind is dict:
        for key, item in value.items():
            _finite(item, f"{field}/{key}", record)
    elif kind is list:
        for i, item in enumerate(value):
            _finite(item, f"{field}/{i}", record)


# -- capabilities ---------------------------------------------------------------------------
def capabilities_from_record(record: Any) -> Capabilities:
    """Check and convert the ``capabilities`` of an ``init_ok``; raise :class:`ProtocolViolation`."""
    if not isinstance(record, dict):
        raise ProtocolViolation(f"capabilities is not an object: {record!r:.120}")
    known = {a.name for a in attrs.fields(Capabilities)}
    extra = sorted(set(record) - known)
    if extra:
        raise ProtocolViolation(f"capabilities has unknown field(s) {extra}; allowed {sorted(known)}")
    name = record.get("name")
    if not isinstance(name, str) or not name:
        raise ProtocolViolation("capabilities.name must be a non-empty string")
    data: dict[str, Any] = {"name": name}
    for key, allowed in (("profiles", PROFILES), ("families", FAMILIES), ("observes", OBSERVABLES)):
        if key in record:
            value = record[key]
            if not isinstance(value, list) or any(v not in allowed for v in value):
                raise ProtocolViolation(f"capabilities.{key}={value!r} must be a list drawn from {list(allowed)}")
            data[key] = tuple(value)
    if "profiles" in data and not data["profiles"]:
        raise ProtocolViolation("capabilities.profiles must name at least one profile")
    if "readings" in record:
        readings = record["readings"]
        if not isinstance(readings, dict):
            raise ProtocolViolation("capabilities.readings must be an object")
        for key, value in readings.items():
            amb = AMBIGUITIES.get(key)
            if amb is None:
                raise ProtocolViolation(f"capabilities.readings.{key}: unknown ambiguity; known {sorted(AMBIGUITIES)}")
            if value != "unknown" and value not in amb.readings:
                raise ProtocolViolation(f"capabilities.readings.{key}={value!r}: allowed {[*amb.readings, 'unknown']}")
        data["readings"] = dict(readings)
    if "reason_codes" in record:
        if record["reason_codes"] not in REASON_FIDELITY:
            raise ProtocolViolation(
                f"capabilities.reason_codes={record['reason_codes']!r}: allowed {list(REASON_FIDELITY)}"
            )
        data["reason_codes"] = record["reason_codes"]
    if "protocol_version" in record:
        data["protocol_version"] = record["protocol_version"]
    return Capabilities(**data)


def outcomes_summary(outcomes: Sequence[Outcome]) -> str:
    """A short description for messages (``3 outcomes: put ok, get 2033, ...``)."""
    parts = [f"{o.kind} {'ok' if o.ok else o.reason}" for o in outcomes[:5]]
    more = ", ..." if len(outcomes) > 5 else ""
    return f"{len(outcomes)} outcome(s): {', '.join(parts)}{more}"
