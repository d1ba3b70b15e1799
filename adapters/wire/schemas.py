"""JSON Schemas (draft 2020-12) for every wire message and for the records they carry.

The schemas are built from the attrs records of :mod:`reference_model` (so a
field added there appears here) and written to ``docs/schemas/*.json`` by

    .venv/bin/python -m cfconform.adapters.wire.schemas docs/schemas

(``tests/adapters/test_docs.py`` fails when the committed files are stale).

:func:`validate` checks an instance with :mod:`jsonschema` when it is
installed (a dev dependency); without it, it falls back to the structural
checks of :mod:`cfconform.adapters.wire.messages`, so the wire client works either way.
The client checks every reply: control replies with :func:`validate`, and
every outcome of ``apply_ok`` and ``batch_ok`` (the hot path) with the
hand-written :func:`cfconform.adapters.wire.messages.decode_outcome`, which accepts
exactly what the ``outcome`` schema accepts (tests/adapters/test_outcome_validation.py
compares the two) and also refuses NaN and Infinity anywhere in an outcome.
"""

from __future__ import annotations

import copy
import functools
import inspect
import json
import sys
from pathlib import Path
from typing import Any

import attrs

from cfconform.reference_model.config import PROFILES, Accounting, Config, QueueDef, StructureDef
from cfconform.reference_model.operations import OPERATIONS
from cfconform.reference_model.outcomes import EVENT_KINDS, LOCATIONS, EventMessage, Outcome
from cfconform.reference_model.readings import AMBIGUITIES

from ..protocol import FAMILIES, PROTOCOL_VERSION, REASON_FIDELITY
from .messages import ERRORS, OBSERVABLES, ProtocolViolation

try:  # optional at run time
    import jsonschema as _jsonschema
except ImportError:  # pragma: no cover - exercised only without the dev dependency
    _jsonschema = None

HAVE_JSONSCHEMA = _jsonschema is not None
DRAFT = "https://json-schema.org/draft/2020-12/schema"
ID_PREFIX = f"urn:cfconform:wire:{PROTOCOL_VERSION}:"
MAJOR = PROTOCOL_VERSION.split(".")[0]

_NULL = {"type": "null"}
_STR = {"type": "string"}
_INT = {"type": "integer"}
_BOOL = {"type": "boolean"}
_STRS = {"type": "array", "items": _STR}
_VERSION = {"type": "string", "pattern": r"^[0-9]+\.[0-9]+$", "description": "MAJOR.MINOR"}
_MSG_ID = {"type": "integer", "minimum": 0, "description": "Request id, unique per connection."}
_REPLY_TO = {"type": "integer", "minimum": 0, "description": "The msg_id of the request answered."}

_TYPES: dict[str, dict[str, Any]] = {
    "str": _STR,
    "int": _INT,
    "bool": _BOOL,
    "float": {"type": "number"},
    "tuple[str, ...]": _STRS,
    "Changes": {"type": "object", "description": "Keyword -> new value (keywords not given are unchanged)."},
    "StructureDef": {"$ref": "#/$defs/structure"},
    "QueueDef": {"$ref": "#/$defs/queue"},
    "tuple[StructureDef, ...]": {"type": "array", "items": {"$ref": "#/$defs/structure"}},
    "tuple[QueueDef, ...]": {"type": "array", "items": {"$ref": "#/$defs/queue"}},
    "Readings": {"$ref": "#/$defs/readings"},
    "Accounting": {"$ref": "#/$defs/accounting"},
    "StructureDef | dict[str, Any]": {
        "type": "object",
        "description": "A structure record (fields as in config.structures). It may be invalid on purpose: "
        "the implementation must then answer with an INVALID outcome, not an error.",
    },
    "QueueDef | dict[str, Any]": {
        "type": "object",
        "description": "A queue record (fields as in config.queues). It may be invalid on purpose: "
        "the implementation must then answer with an INVALID outcome, not an error.",
    },
}
#: Annotations met that have no entry in _TYPES (they get the permissive schema {}); a test keeps it empty.
UNMAPPED: set[str] = set()


def _type_schema(annotation: Any) -> dict[str, Any]:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    text = text.replace("typing.", "")
    if text.endswith(" | None"):
        return {"anyOf": [copy.deepcopy(_type_schema(text[: -len(" | None")])), _NULL]}
    try:
        return copy.deepcopy(_TYPES[text])
    except KeyError:
        UNMAPPED.add(text)
        return {}


def _jsonable_default(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable_default(v) for v in value]
    if attrs.has(type(value)):
        from cfconform.reference_model.codec import record_of

        return {k: _jsonable_default(v) for k, v in record_of(value).items()}
    return value


def _record_schema(cls: type, *, skip: tuple[str, ...] = (), required_all: bool = False) -> dict[str, Any]:
    props: dict[str, Any] = {}
    required: list[str] = []
    for a in attrs.fields(cls):
        if a.name in skip:
            continue
        prop = _type_schema(a.type)
        if a.default is attrs.NOTHING or required_all:
            required.append(a.name)
        elif not isinstance(a.default, attrs.Factory):  # type: ignore[arg-type]
            prop["default"] = _jsonable_default(a.default)
        props[a.name] = prop
    out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        out["required"] = required
    doc = inspect.getdoc(cls)
    if doc:
        out["description"] = doc.split("\n\n")[0].replace("\n", " ")
    return out


def _readings_schema() -> dict[str, Any]:
    props = {
        k: {"enum": list(a.readings), "default": a.default, "description": a.question} for k, a in AMBIGUITIES.items()
    }
    return {
        "type": "object",
        "properties": props,
        "additionalProperties": False,
        "description": "One admissible reading per ambiguity (docs: readings).",
    }


def _record_defs() -> dict[str, Any]:
    config = _record_schema(Config)
    config["properties"]["profile"] = {"enum": list(PROFILES), "default": "mq"}
    return {
        "config": config,
        "structure": _record_schema(StructureDef),
        "queue": _record_schema(QueueDef),
        "accounting": _record_schema(Accounting),
        "readings": _readings_schema(),
    }


def _op_schema(cls: type) -> dict[str, Any]:
    schema = _record_schema(cls)
    schema["properties"] = {"op": {"const": cls.KIND}, **schema["properties"]}
    schema["required"] = ["op", *schema.get("required", [])]
    return schema


def _outcome_schema() -> dict[str, Any]:
    event = _record_schema(EventMessage, required_all=True)
    event["properties"]["kind"] = {"enum": list(EVENT_KINDS)}
    return {
        "type": "object",
        "description": inspect.getdoc(Outcome).split("\n\n")[0].replace("\n", " "),  # type: ignore[union-attr]
        "properties": {
            "kind": {"enum": [cls.KIND for cls in OPERATIONS], "description": "The operation's kind (its `op`)."},
            "ok": {"type": "boolean"},
            "reason": {
                "type": ["integer", "string", "null"],
                "description": "An MQRC number, or an abstract reason string.",
            },
            "rules": {**_STRS, "description": "Rule IDs that decided the outcome (informative)."},
            "offloaded": {"type": ["boolean", "null"]},
            "tag": {"type": ["integer", "null"], "description": "Tag of the message a get retrieved."},
            "events": {"type": "array", "items": event},
            "signals": _STRS,
            "usage": {
                "anyOf": [
                    {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 4, "maxItems": 4},
                    _NULL,
                ],
                "description": "[entries_used, entries_total, elements_used, elements_total].",
            },
            "value": {"description": "For inspect: the observable state."},
            "location": {
                "type": ["string", "null"],
                "enum": [*LOCATIONS, None],
                "description": "Protocol 1.1: where a put's message data is kept (CF, or offloaded to SMDS or DB2).",
            },
        },
        "required": ["kind", "ok"],
        "additionalProperties": False,
    }


def _capabilities_schema() -> dict[str, Any]:
    readings = {k: {"enum": [*a.readings, "unknown"]} for k, a in AMBIGUITIES.items()}
    return {
        "type": "object",
        "description": "What the implementation claims (cfconform.adapters.protocol.Capabilities).",
        "properties": {
            "name": {"type": "string", "minLength": 1},
            "protocol_version": _STR,
            "profiles": {"type": "array", "items": {"enum": list(PROFILES)}, "minItems": 1, "uniqueItems": True},
            "families": {"type": "array", "items": {"enum": list(FAMILIES)}, "uniqueItems": True},
            "readings": {"type": "object", "properties": readings, "additionalProperties": False},
            "reason_codes": {"enum": list(REASON_FIDELITY)},
            "observes": {"type": "array", "items": {"enum": list(OBSERVABLES)}, "uniqueItems": True},
        },
        "required": ["name"],
        "additionalProperties": False,
    }


def _error_body() -> dict[str, Any]:
    return {
        "code": {
            "type": "integer",
            "description": "From the error registry; >= 1000 implementation-specific.",
            "examples": [e.code for e in ERRORS],
        },
        "text": {"type": "string"},
        "definite": {
            "type": "boolean",
            "description": "True: the request certainly had no effect; false: it may have.",
        },
        "detail": {"description": "Optional structured detail, e.g. {field, value, allowed, rule_id}."},
    }


def _defs() -> dict[str, Any]:
    defs = _record_defs()
    ops = {f"op_{cls.KIND}": _op_schema(cls) for cls in OPERATIONS}
    defs.update(ops)
    defs["op"] = {
        "oneOf": [{"$ref": f"#/$defs/{k}"} for k in ops],
        "description": 'An operation record: {"op": KIND, ...fields}.',
    }
    defs["outcome"] = _outcome_schema()
    defs["capabilities"] = _capabilities_schema()
    return defs


def _message(type_: str, props: dict[str, Any], required: list[str], description: str) -> dict[str, Any]:
    key = "msg_id" if type_ in ("init", "open", "apply", "batch", "close") else "in_reply_to"
    return {
        "type": "object",
        "description": description,
        "properties": {"type": {"const": type_}, key: _MSG_ID if key == "msg_id" else _REPLY_TO, **props},
        "required": ["type", key, *required],
    }


def _messages() -> dict[str, dict[str, Any]]:
    limit = {"type": "integer", "minimum": 1024, "description": "The sender's line limit in bytes."}
    batch_error = {"type": "object", "properties": _error_body(), "required": ["code", "text", "definite"]}
    error = _message(
        "error",
        _error_body(),
        ["code", "text", "definite"],
        "A request failed. in_reply_to is null when the request's msg_id could not be read.",
    )
    error["properties"]["in_reply_to"] = {"anyOf": [_REPLY_TO, _NULL]}
    return {
        "init": _message(
            "init",
            {"protocol_version": _STR, "suite": _STR, "max_line_bytes": limit},
            ["protocol_version"],
            "The first request: the suite's protocol version.",
        ),
        "init_ok": _message(
            "init_ok",
            {
                "protocol_version": {
                    "type": "string",
                    "pattern": rf"^{MAJOR}\.[0-9]+$",
                    "description": f"MAJOR.MINOR; the major version must be the suite's ({MAJOR}).",
                },
                "capabilities": {"$ref": "#/$defs/capabilities"},
                "max_line_bytes": limit,
            },
            ["protocol_version", "capabilities"],
            "Handshake reply: version and claims.",
        ),
        "open": _message(
            "open",
            {"config": {"$ref": "#/$defs/config"}},
            ["config"],
            "Start, or reset to an empty state, with this configuration.",
        ),
        "open_ok": _message("open_ok", {}, [], "The implementation is open and empty."),
        "apply": _message("apply", {"op": {"$ref": "#/$defs/op"}}, ["op"], "Apply one operation."),
        "apply_ok": _message(
            "apply_ok", {"outcome": {"$ref": "#/$defs/outcome"}}, ["outcome"], "The operation's outcome."
        ),
        "batch": _message(
            "batch",
            {"ops": {"type": "array", "items": {"$ref": "#/$defs/op"}, "minItems": 1}},
            ["ops"],
            "Apply several operations in order.",
        ),
        "batch_ok": _message(
            "batch_ok",
            {"outcomes": {"type": "array", "items": {"$ref": "#/$defs/outcome"}}, "error": batch_error},
            ["outcomes"],
            "Outcomes of the first k ops, in order. With `error`: op k failed with it and "
            "ops after k were not applied. Without `error` and k < len(ops): only a prefix "
            "was applied (k >= 1); the suite sends the rest again.",
        ),
        "close": _message("close", {}, [], "Release everything; the process exits after close_ok."),
        "close_ok": _message("close_ok", {}, [], "Closed; the process exits next."),
        "error": error,
    }


RECORDS = ("config", "op", "outcome", "capabilities")


@functools.cache
def schemas() -> dict[str, dict[str, Any]]:
    """Every schema, self-contained (own ``$defs``), by name: message types and records."""
    defs = _defs()
    out: dict[str, dict[str, Any]] = {}
    for name, body in _messages().items():
        out[name] = {"$schema": DRAFT, "$id": f"{ID_PREFIX}{name}", "title": f"{name} message", **body}
    for name in RECORDS:
        body = copy.deepcopy(defs[name])
        out[name] = {"$schema": DRAFT, "$id": f"{ID_PREFIX}{name}", "title": f"{name} record", **body}
    for schema in out.values():
        used = _referenced(schema, defs)
        if used:
            schema["$defs"] = {k: defs[k] for k in sorted(used)}
    return out


def _referenced(schema: Any, defs: dict[str, Any]) -> set[str]:
    """Names of the $defs a schema needs, transitively."""
    found: set[str] = set()
    todo = [schema]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                name = ref[len("#/$defs/") :]
                if name not in found:
                    found.add(name)
                    todo.append(defs[name])
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return found


@functools.cache
def _validator(name: str) -> Any:
    schema = schemas()[name]
    cls = _jsonschema.Draft202012Validator  # type: ignore[union-attr]
    cls.check_schema(schema)
    return cls(schema)


def errors(name: str, instance: Any, limit: int = 3) -> list[str]:
    """Schema violations of ``instance`` against schema ``name`` (empty when valid)."""
    if _jsonschema is None:
        return _fallback_errors(name, instance)
    found = sorted(_validator(name).iter_errors(instance), key=lambda e: list(e.absolute_path))
    out = []
    for err in found[:limit]:
        best = _jsonschema.exceptions.best_match([err])  # type: ignore[union-attr]
        where = "/".join(str(p) for p in best.absolute_path) or "(top)"
        out.append(f"{name} at {where}: {best.message[:300]}")
    return out


def validate(name: str, instance: Any) -> None:
    """Raise :class:`ProtocolViolation` if ``instance`` does not match schema ``name``."""
    problems = errors(name, instance)
    if problems:
        raise ProtocolViolation("schema-invalid " + "; ".join(problems))


def _fallback_errors(name: str, instance: Any) -> list[str]:
    """Structural checks used when jsonschema is not installed."""
    from . import messages

    try:
        if name == "outcome":
            messages.decode_outcome(instance)
        elif name == "capabilities":
            messages.capabilities_from_record(instance)
        elif name in ("config", "op"):
            from cfconform.reference_model.codec import config_from_record

            if name == "config":
                config_from_record(instance)
            else:
                messages.decode_op(instance)
        elif not isinstance(instance, dict) or instance.get("type") != name:
            return [f"{name}: expected an object with type {name!r}"]
        elif name == "apply_ok":
            messages.decode_outcome(instance.get("outcome"))
        elif name == "batch_ok":
            outs = instance.get("outcomes")
            if not isinstance(outs, list):
                return ["batch_ok: outcomes must be a list"]
            for o in outs:
                messages.decode_outcome(o)
        elif name == "init_ok":
            messages.capabilities_from_record(instance.get("capabilities"))
    except (ProtocolViolation, ValueError, TypeError) as exc:
        return [f"{name}: {exc}"]
    return []


def write(directory: str | Path) -> list[Path]:
    """Write every schema to ``directory/<name>.json``; return the paths written."""
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, schema in sorted(schemas().items()):
        path = root / f"{name}.json"
        path.write_text(render(schema), encoding="utf-8")
        paths.append(path)
    return paths


def render(schema: dict[str, Any]) -> str:
    """The committed text of one schema file."""
    return json.dumps(schema, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    directory = args[0] if args else "docs/schemas"
    for path in write(directory):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
