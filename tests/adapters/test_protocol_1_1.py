"""Protocol 1.1: the outcome field ``location`` (where a put's message data went), and 1.0 peers still work."""

from __future__ import annotations

import io
import json

import pytest

from cfconform.adapters.protocol import PROTOCOL_VERSION
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.adapters.wire import schemas
from cfconform.adapters.wire.client import WireAdapter
from cfconform.adapters.wire.server import serve
from cfconform.cli.commands.check_protocol import _check_version, _Failed
from cfconform.reference_model import Config, QueueDef, StructureDef
from cfconform.reference_model.codec import outcome_from_record, outcome_to_record
from cfconform.reference_model.operations import Put
from cfconform.reference_model.outcomes import Outcome
from tests.adapters.conftest import SERVE_REFERENCE, fake, small_mq_config

BIG = 70_000  # above the forced-offload boundary under both readings (64,512 and 65,280 bytes)


@pytest.mark.parametrize("location", ["CF", "SMDS", "DB2"])
def test_codec_round_trip_of_location(location):
    outcome = Outcome("put", True, rules=("OFFLOAD-004",), offloaded=location != "CF", usage=(1, 2, 3, 4),
                      location=location)  # fmt: skip
    record = outcome_to_record(outcome)
    assert location == record["location"]
    assert outcome == outcome_from_record(record)
    assert [] == schemas.errors("outcome", record)


def test_codec_leaves_location_out_when_none():
    record = outcome_to_record(Outcome("get", True, tag=1))
    assert "location" not in record
    assert outcome_from_record(record).location is None


def put_location(cflevel: int, offload: str | None, length: int) -> str | None:
    config = Config(
        qmgrs=("QM01",),
        structures=(StructureDef("APP1", cflevel=cflevel, recover=True, offload=offload),),
        queues=(QueueDef("Q1", cfstruct="APP1"), QueueDef("L1", qmgr="QM01")),
    )
    ref = ReferenceAdapter()
    ref.open(config)
    outcome = ref.apply(Put("QM01", "Q1", length))
    assert outcome.ok
    return outcome.location


@pytest.mark.parametrize(
    ("cflevel", "offload", "length", "expected"),
    [
        (5, "SMDS", BIG, "SMDS"),
        (5, "DB2", BIG, "DB2"),
        (5, None, BIG, "SMDS"),  # OFFLOAD(SMDS) is the default at CFLEVEL(5)
        (5, "SMDS", 100, "CF"),
        (5, "DB2", 100, "CF"),
        (4, None, BIG, "DB2"),  # CFLEVEL(4) offloads messages too large for an entry, to Db2 (CFLEVEL-006)
        (4, None, 100, "CF"),
        (3, None, 100, "CF"),
    ],
)
def test_reference_put_reports_where_the_data_went(cflevel, offload, length, expected):
    assert expected == put_location(cflevel, offload, length)


def test_a_put_to_a_nonshared_queue_has_no_location():
    ref = ReferenceAdapter()
    ref.open(small_mq_config())
    assert ref.apply(Put("QM01", "L1", 100)).location is None


# -- the wire ------------------------------------------------------------------------------------
def served(version: str, *ops: dict) -> list[dict]:
    """Outcome records serve-reference gives a suite announcing ``version``, one apply per op."""
    requests = [{"type": "init", "msg_id": 1, "protocol_version": version, "suite": "test"},
                {"type": "open", "msg_id": 2, "config": small_mq_config().to_record()}]  # fmt: skip
    requests += [{"type": "apply", "msg_id": 3 + i, "op": op} for i, op in enumerate(ops)]
    requests.append({"type": "batch", "msg_id": 3 + len(ops), "ops": list(ops)})
    out = io.BytesIO()
    serve(ReferenceAdapter, io.BytesIO(b"".join(json.dumps(r).encode() + b"\n" for r in requests)), out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert PROTOCOL_VERSION == replies[0]["protocol_version"]
    return [r["outcome"] for r in replies if r["type"] == "apply_ok"] + replies[-1]["outcomes"]


PUT_BIG = {"op": "put", "qmgr": "QM01", "queue": "Q1", "length": BIG}
PUT_SMALL = {"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 10}


def test_serve_reference_reports_location_to_a_1_1_suite():
    assert ["SMDS", "CF", "SMDS", "CF"] == [o.get("location") for o in served("1.1", PUT_BIG, PUT_SMALL)]


def test_serve_reference_leaves_location_out_for_a_1_0_suite():
    """A 1.0 suite refuses unknown outcome fields: 1.1's field is not sent to it."""
    outcomes = served("1.0", PUT_BIG, PUT_SMALL)
    assert [True, False, True, False] == [o["offloaded"] for o in outcomes]
    assert not any("location" in o for o in outcomes)


def test_the_client_reads_location_through_the_wire():
    with WireAdapter(fake("fake_location"), timeout=5) as adapter:
        assert "1.1" == adapter.capabilities().protocol_version
        adapter.open(small_mq_config())
        assert "SMDS" == adapter.apply(Put("QM01", "Q1", 10)).location
        assert ["SMDS", "SMDS"] == [o.location for o in adapter.apply_batch([Put("QM01", "Q1", 10)] * 2)]


def test_a_1_0_implementation_without_location_is_still_accepted():
    with WireAdapter(fake("fakebase"), timeout=5) as adapter:
        assert "1.0" == adapter.capabilities().protocol_version
        adapter.open(small_mq_config())
        outcome = adapter.apply(Put("QM01", "Q1", 10))
        assert (True, None) == (outcome.ok, outcome.location)
        assert [None] * 3 == [o.location for o in adapter.apply_batch([Put("QM01", "Q1", 10)] * 3)]


def test_serve_reference_over_the_wire_matches_in_process_with_location():
    ref = ReferenceAdapter()
    ref.open(small_mq_config())
    ops = [Put("QM01", "Q1", BIG), Put("QM01", "Q1", 10)]
    expected = ref.apply_batch(ops)
    with WireAdapter(SERVE_REFERENCE, timeout=10) as adapter:
        adapter.open(small_mq_config())
        assert expected == adapter.apply_batch(ops)
    assert ["SMDS", "CF"] == [o.location for o in expected]


@pytest.mark.parametrize(("version", "ok"), [("1.0", True), ("1.1", True), ("1.7", True), ("2.0", False), ("1", False)])
def test_init_ok_accepts_any_minor_version_of_the_same_major(version, ok):
    reply = {"type": "init_ok", "in_reply_to": 1, "protocol_version": version, "capabilities": {"name": "x"}}
    assert ok == (schemas.errors("init_ok", reply) == [])
    if ok:
        _check_version(version)
    else:
        with pytest.raises(_Failed, match=f"init_ok protocol_version '{version}'"):
            _check_version(version)
