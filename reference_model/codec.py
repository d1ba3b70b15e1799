"""Plain-record (JSON-safe dict) forms of configurations, operations and outcomes.

These records are the one format used on the wire, in transcripts, in Spark rows
and in reports.  Decoding validates: an unknown key or a bad value raises
:class:`~cfconform.reference_model.errors.ConfigurationError` naming it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from .config import Accounting, Config, QueueDef, StructureDef, plain, record_of
from .errors import UNKNOWN_FIELD, ConfigurationError
from .operations import OPERATION_BY_KIND, DefineQueue, DefineStructure
from .outcomes import EventMessage, Outcome
from .readings import Readings, readings_from_dict


def _build(cls: type, record: Mapping[str, Any], where: str) -> Any:
    names = {a.name for a in attrs.fields(cls)}
    for key in record:
        if key not in names:
            raise ConfigurationError(f"{where}.{key}", record[key], f"one of {sorted(names)}", UNKNOWN_FIELD)
    try:
        return cls(**record)
    except TypeError as exc:
        raise ConfigurationError(where, dict(record), f"the fields of {cls.__name__}: {exc}", UNKNOWN_FIELD) from exc


def structure_from_record(record: Mapping[str, Any]) -> StructureDef:
    return _build(StructureDef, record, f"structures[{record.get('name', '?')}]")


def queue_from_record(record: Mapping[str, Any]) -> QueueDef:
    return _build(QueueDef, record, f"queues[{record.get('name', '?')}]")


def config_to_record(config: Config) -> dict[str, Any]:
    return config.to_record()


def config_from_record(record: Mapping[str, Any]) -> Config:
    """Build a validated :class:`Config` from its record form."""
    data = dict(record)
    if "structures" in data:
        data["structures"] = tuple(structure_from_record(s) for s in data["structures"])
    if "queues" in data:
        data["queues"] = tuple(queue_from_record(q) for q in data["queues"])
    if "readings" in data:
        data["readings"] = readings_from_dict(data["readings"] or {})
    if "accounting" in data:
        data["accounting"] = _build(Accounting, data["accounting"], "accounting")
    for key in ("qmgrs", "perfmev_disabled"):
        if key in data:
            data[key] = tuple(data[key])
    if data.get("overflow_exit") is not None:
        data["overflow_exit"] = tuple(data["overflow_exit"])
    return _build(Config, data, "config")


def _definition(build: Any, record: Any) -> Any:
    """A definition record: validated if it is valid, kept raw (for an INVALID outcome) if not."""
    if not isinstance(record, Mapping):
        raise ConfigurationError("definition", record, "an object of definition keywords", UNKNOWN_FIELD)
    try:
        return build(record)
    except ConfigurationError:
        return dict(record)


def op_to_record(op: Any) -> dict[str, Any]:
    """``{"op": KIND, ...fields}``; definitions nest their record, changes become a dict."""
    out: dict[str, Any] = {"op": op.KIND}
    for a in attrs.fields(type(op)):
        value = getattr(op, a.name)
        if a.name in ("structure", "queue") and not isinstance(value, str | dict):
            value = record_of(value)
        elif a.name == "changes":
            value = dict(value)
        out[a.name] = plain(value)
    return out


def op_from_record(record: Mapping[str, Any]) -> Any:
    """Decode an operation record; unknown kinds and fields name themselves."""
    kind = record.get("op")
    cls = OPERATION_BY_KIND.get(kind)  # type: ignore[arg-type]
    if cls is None:
        raise ConfigurationError("op", kind, f"one of {sorted(OPERATION_BY_KIND)}", UNKNOWN_FIELD)
    fields = {k: v for k, v in record.items() if k != "op"}
    if cls is DefineStructure:
        fields["structure"] = _definition(structure_from_record, fields.get("structure"))
    elif cls is DefineQueue:
        fields["queue"] = _definition(queue_from_record, fields.get("queue"))
    return _build(cls, fields, kind)


def outcome_to_record(outcome: Outcome) -> dict[str, Any]:
    """Compact record: fields at their default are left out."""
    out: dict[str, Any] = {"kind": outcome.kind, "ok": outcome.ok}
    if outcome.reason is not None:
        out["reason"] = outcome.reason
    if outcome.rules:
        out["rules"] = list(outcome.rules)
    if outcome.offloaded is not None:
        out["offloaded"] = outcome.offloaded
    if outcome.tag is not None:
        out["tag"] = outcome.tag
    if outcome.events:
        out["events"] = [record_of(e) for e in outcome.events]
    if outcome.signals:
        out["signals"] = list(outcome.signals)
    if outcome.usage is not None:
        out["usage"] = list(outcome.usage)
    if outcome.value is not None:
        out["value"] = outcome.value
    if outcome.location is not None:
        out["location"] = outcome.location
    return out


def outcome_from_record(record: Mapping[str, Any]) -> Outcome:
    """Decode an outcome record (as sent by an implementation or stored in a trace)."""
    data = dict(record)
    data["rules"] = tuple(data.get("rules", ()))
    data["events"] = tuple(_build(EventMessage, e, "events[]") for e in data.get("events", ()))
    data["signals"] = tuple(data.get("signals", ()))
    if data.get("usage") is not None:
        data["usage"] = tuple(data["usage"])
    return _build(Outcome, data, "outcome")


def readings_record(readings: Readings) -> dict[str, str]:
    return readings.as_dict()
