"""Every reply and every outcome in it is checked before it reaches the checker (docs/PROTOCOL.md).

A spoiled outcome is an AdapterError (a ``schema`` fault: exit 3, never a rule
verdict) naming the reply and the field, wherever it is in a batch; and the
hand-written check (``messages.decode_outcome``) accepts exactly what
docs/schemas/outcome.json accepts.
"""

from __future__ import annotations

import json
import math
import os

import jsonschema
import pytest

from cfconform.adapters.protocol import AdapterError
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.adapters.wire import messages, schemas
from cfconform.adapters.wire.client import WireAdapter, WireError
from cfconform.reference_model.codec import outcome_to_record
from cfconform.reference_model.operations import Get, Inspect, Put
from tests.adapters.conftest import fake, small_mq_config
from tests.adapters.test_wire_reference import mixed_mq_ops


def spoiling(bad: str, at: int = 0, **kwargs) -> WireAdapter:
    env = {**os.environ, "FAKE_BAD": bad, "FAKE_BAD_AT": str(at)}
    adapter = WireAdapter(fake("fake_bad_outcome"), timeout=5, init_timeout=10, grace=0.5, env=env, **kwargs)
    adapter.open(small_mq_config())
    return adapter


SPOILS = [
    ("nan_usage", "usage/2", "nan is not of type 'integer'"),
    ("string_ok", "ok", "'true' is not of type 'boolean'"),
    ("unknown_field", "frob", "unknown field 'frob'"),
    ("missing_ok", "", "'ok' is a required property"),
    ("negative_usage", "usage/2", "-2 is less than the minimum of 0"),
    ("bad_location", "location", "'TAPE' is not one of ['CF', 'SMDS', 'DB2', None]"),
    ("nan_value", "value/structures/APP1/size_kb", "nan is not a JSON number"),
]


def _at(base: str, field: str) -> str:
    return f"{base}/{field}" if field else base


@pytest.mark.parametrize(("bad", "field", "problem"), SPOILS)
@pytest.mark.parametrize("validate", ["all", "none"])
def test_a_spoiled_apply_reply_is_an_adapter_fault_naming_the_field(bad, field, problem, validate):
    adapter = spoiling(bad, validate=validate)
    with pytest.raises(AdapterError) as caught:
        adapter.apply(Put("QM01", "Q1", 10))
    err = caught.value
    assert isinstance(err, WireError)
    assert ("apply", "schema", False, 0) == (err.phase, err.fault, err.definite, err.step)
    assert f"schema-invalid apply_ok reply to msg_id 3 at {_at('outcome', field)}: {problem}" in str(err)
    assert adapter.process.poll() is not None  # a fault: the process is stopped


@pytest.mark.parametrize(("bad", "field", "problem"), SPOILS)
def test_a_spoiled_outcome_anywhere_in_a_batch_is_caught_and_named(bad, field, problem):
    """Op 1003 of 2500, sent 1000 a request: the reply to the second batch (msg_id 4), its outcome 3."""
    adapter = spoiling(bad, at=1003)
    ops = [Put("QM01", "Q1", 10), Get("QM01", "Q1")] * 1250
    with pytest.raises(AdapterError) as caught:
        adapter.apply_batch(ops)
    err = caught.value
    assert ("batch", "schema", 1003) == (err.phase, err.fault, err.step)
    assert f"schema-invalid batch_ok reply to msg_id 4 at {_at('outcomes/3', field)}: {problem}" in str(err)
    assert 1003 == len(err.outcomes)
    assert adapter.process.poll() is not None


def test_the_last_outcome_of_the_last_reply_is_checked_too():
    adapter = spoiling("string_ok", at=2499)
    with pytest.raises(WireError, match=r"batch_ok reply to msg_id 5 at outcomes/499/ok: 'true' is not of type"):
        adapter.apply_batch([Put("QM01", "Q1", 10)] * 2500)


def test_a_clean_batch_passes_every_check():
    adapter = spoiling("string_ok", at=10**9)
    assert 2500 == len(adapter.apply_batch([Put("QM01", "Q1", 10)] * 2500))
    adapter.close()


def test_sample_is_the_old_name_of_all():
    assert "all" == WireAdapter(["true"], validate="sample").validate
    with pytest.raises(ValueError, match="one of 'all', 'none'"):
        WireAdapter(["true"], validate="some")


# -- the hand-written check accepts exactly what the schema accepts ----------------------------------
def reference_records() -> list[dict]:
    ref = ReferenceAdapter()
    ref.open(small_mq_config())
    out = [outcome_to_record(o) for o in ref.apply_batch([*mixed_mq_ops(7, 400), Inspect()])]
    return [json.loads(json.dumps(r)) for r in out]


_EVENT = {"qmgr": "QM01", "kind": "QDPHI", "queue": "Q1", "correl": 1, "enq": 2, "deq": 0}
_WRONG = [None, True, False, 0, 7, -1, 3.0, 2.5, math.nan, math.inf, "", "x", "CF", [], [1], ["a"], {}, {"a": 1}]


def spoiled_records() -> list[dict]:
    base = {"kind": "put", "ok": True, "rules": ["R-1"], "usage": [1, 2, 3, 4], "events": [_EVENT]}
    out: list[dict] = [{}, {"ok": True}, {"kind": "put"}, {"kind": "frob", "ok": True}, {**base, "frob": 1}]
    for field in ("kind", "ok", "reason", "rules", "offloaded", "tag", "events", "signals", "usage", "location"):
        out += [{**base, field: value} for value in _WRONG]
    for i in range(4):
        out += [{**base, "usage": [*base["usage"][:i], value, *base["usage"][i + 1 :]]} for value in _WRONG]
    out += [{**base, "usage": u} for u in ([1, 2, 3], [1, 2, 3, 4, 5], [0, 0, 0, 0], [1.0, 2, 3, 4])]
    for key in _EVENT:
        out += [{**base, "events": [{**_EVENT, key: value}]} for value in _WRONG]
        out.append({**base, "events": [{k: v for k, v in _EVENT.items() if k != key}]})
    out.append({**base, "events": [{**_EVENT, "extra": 1}]})
    out += [{**base, "rules": ["a", value]} for value in _WRONG]
    out += [{**base, "signals": ["IXC585E APP1", value]} for value in _WRONG]
    out += [{**base, "value": value} for value in _WRONG if not (isinstance(value, float) and not math.isfinite(value))]
    return out


def test_decode_outcome_accepts_exactly_what_the_outcome_schema_accepts():
    validator = jsonschema.Draft202012Validator(schemas.schemas()["outcome"])
    records = reference_records() + spoiled_records()
    assert any(r.get("location") for r in records) and len(records) > 500
    disagree = []
    for record in records:
        schema_ok = validator.is_valid(record)
        try:
            messages.decode_outcome(record)
            ours = True
        except messages.OutcomeViolation:
            ours = False
        if schema_ok != ours:
            disagree.append((record, schema_ok))
    assert [] == disagree


def test_decode_outcome_makes_integral_floats_integers_as_the_schema_reads_them():
    o = messages.decode_outcome({"kind": "get", "ok": True, "tag": 3.0, "usage": [1.0, 2, 3, 4], "reason": 2033.0})
    assert (3, (1, 2, 3, 4), 2033) == (o.tag, o.usage, o.reason)
    assert all(type(v) is int for v in (o.tag, *o.usage, o.reason))


def test_decode_outcome_refuses_nan_and_infinity_even_where_the_schema_allows_any_value():
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(messages.OutcomeViolation) as caught:
            messages.decode_outcome({"kind": "inspect", "ok": True, "value": {"queues": {"Q1": {"depth": [0, bad]}}}})
        assert "value/queues/Q1/depth/1" == caught.value.field
