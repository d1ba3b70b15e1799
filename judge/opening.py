"""Configurations a sentence forbids: the implementation must refuse to ``open`` them.

The gate draws only configurations the model accepts, so an implementation that accepts a
five-character QSG name or a 513th queue on a structure at ``open`` was never caught.  A
*forbidden configuration* is a configuration record the model refuses on a rule of
:data:`DECIDED_AT_OPEN`: a documented limit or range whose sentence leaves no choice.  It travels
as its record (a :class:`~cfconform.reference_model.config.Config` cannot hold it) through
``open_record`` of the adapters that can send one as it is (the wire client, the reference), and
is judged here: a refusal (error 13 ``bad-config``, or any definite refusal) passes, an
``open_ok`` is a divergence at the ``open`` on that rule.  Refusals on other rules (names, counts and
ranges no sentence bounds: TOPOLOGY-006/013, OFFLOAD-011, CQS-002, ...) are the implementation's
choice and are never constructed or judged (principle 1).

Only a configuration describing a state no documented command can reach is forbidden: one past a
limit or outside a range.  A group with no application structure yet (TOPOLOGY-002: "requires a
minimum of two structures to be defined" may be met by DEFINE later; six of eight independent
readings open it) or a CFLEVEL(4) structure keeping an OFFLOAD (OFFLOAD-007 is DEFINE's and
ALTER's keyword rule; an ALTER down from CFLEVEL(5) leaves one so, and the third reading accepts
it) are states, not broken limits, and are left to the implementation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cfconform.adapters.protocol import Adapter, Capabilities, is_refusal
from cfconform.reference_model.codec import config_from_record
from cfconform.reference_model.config import Config
from cfconform.reference_model.errors import ConfigurationError

from .claims import any_claimed
from .trace import AdapterFault, Divergence, TraceResult

#: Rules whose sentence decides that a configuration breaking them cannot be opened, each with it.
DECIDED_AT_OPEN: Mapping[str, str] = {
    "TOPOLOGY-003": '"A queue sharing group can connect to up to 64 coupling facility structures."',
    "TOPOLOGY-004": '"up to 63 (62 if qsg-nameCSQSYSAPPL is defined) structures for message data"',
    "TOPOLOGY-005": '"A single coupling facility list structure can contain up to 512 shared queues."',
    "TOPOLOGY-009": "CFSTRUCT names: up to 12 characters, A-Z first, then A-Z or 0-9 (DEFINE CFSTRUCT)",
    "TOPOLOGY-015": 'QSG name: "up to four characters", ... different from any queue manager name',
    "CFLEVEL-001": "CFLEVEL is 1, 2, 3, 4 or 5",
    "CAPACITY-009": "FULLTHRESHOLD valid values are 0-100",
    "QDEPTH-014": "QDEPTHHI and QDEPTHLO: an integer 0 <= v <= 100",
}

#: The pseudo-operation a forbidden configuration's divergence is reported at.
OPEN_OP: dict[str, Any] = {"op": "open"}


def forbidden_by(record: Mapping[str, Any]) -> ConfigurationError | None:
    """The error the model refuses ``record`` with on a rule of :data:`DECIDED_AT_OPEN`, else None
    (a valid record, or one refused on a rule no sentence decides at ``open``)."""
    if record.get("profile", "mq") != "mq":  # (the rules below are IBM MQ's)
        return None
    try:
        config_from_record(record)
    except ConfigurationError as err:
        return err if err.rule_id in DECIDED_AT_OPEN else None
    return None


def config_or_forbidden(record: Mapping[str, Any]) -> Config | dict[str, Any]:
    """``record`` as a :class:`Config`, or as itself when a sentence forbids it (a forbidden
    configuration's reproducer); any other bad record raises its :class:`ConfigurationError`."""
    try:
        return config_from_record(record)
    except ConfigurationError:
        if forbidden_by(record) is not None:
            return dict(record)
        raise


def judge_open(adapter: Adapter, record: Mapping[str, Any], ops: Sequence[Any] = (),
               caps: Capabilities | None = None) -> TraceResult:  # fmt: skip
    """Open ``adapter`` with the forbidden configuration ``record``: a refusal passes, ``open_ok`` fails.

    Not judged (``unjudged``): a rule the implementation does not claim, or an adapter that does not
    say ``opens_records`` (an in-process one is handed only the model's own validated :class:`Config`).
    A record no sentence forbids is ``invalid``.  ``ops`` are never applied: the configuration is the case.
    """
    record = dict(record)
    err = forbidden_by(record)
    if err is None:
        return TraceResult(record, ops, 0, {}, {}, invalid=f"open: not a forbidden configuration: {_checked(record)}")
    rule = err.rule_id
    caps = caps or adapter.capabilities()
    if not any_claimed((rule,), caps):
        return TraceResult(record, ops, 0, {}, {}, unjudged=f"open: forbidden by {rule}, not claimed")
    if not getattr(adapter, "opens_records", False):
        why = "open: a forbidden configuration is not judged: this adapter takes only valid configurations"
        return TraceResult(record, ops, 0, {}, {}, unjudged=why)
    try:
        adapter.open_record(record)  # type: ignore[attr-defined]
    except Exception as refusal:
        if is_refusal(refusal) or isinstance(refusal, ConfigurationError):
            return TraceResult(record, ops, 0, {rule: 1}, {})
        fault = AdapterFault(0, f"open failed: {type(refusal).__name__}: {refusal}", False)
        return TraceResult(record, ops, 0, {rule: 1}, {}, fault=fault)
    expected = {"error": 13, "name": "bad-config", "detail": err.to_record()}
    divergence = Divergence(
        step=0, op=dict(OPEN_OP), field=f"open.config.{err.field}", expected=f"refused ({err.allowed})",
        observed="opened", rules=(rule,), expected_outcome=expected, observed_outcome={"type": "open_ok"},
    )  # fmt: skip
    return TraceResult(record, ops, 1, {rule: 1}, {}, divergence=divergence)


def _checked(record: Mapping[str, Any]) -> str:
    try:
        config_from_record(record)
    except ConfigurationError as err:
        return str(err)
    return "the model accepts it"
