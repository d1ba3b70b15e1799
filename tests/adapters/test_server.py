"""cfconform.adapters.wire.server.serve answers every request, bad ones with error replies, and never crashes."""

from __future__ import annotations

import io
import json

import pytest

from cfconform.adapters.reference import ReferenceAdapter
from cfconform.adapters.wire import schemas
from cfconform.adapters.wire.server import serve
from tests.adapters.conftest import small_mq_config

INIT = {"type": "init", "msg_id": 1, "protocol_version": "1.0", "suite": "test"}
OPEN = {"type": "open", "msg_id": 2, "config": small_mq_config().to_record()}
PUT = {"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 10, "persistent": False, "syncpoint": False, "tag": 5}


def exchange(*requests: dict | bytes | str, max_line_bytes: int = 1 << 20) -> list[dict]:
    """Serve the requests (dicts are encoded; bytes/str sent as lines) and return the parsed replies."""
    lines = []
    for r in requests:
        if isinstance(r, dict):
            lines.append(json.dumps(r).encode() + b"\n")
        else:
            lines.append((r.encode() if isinstance(r, str) else r) + b"\n")
    out = io.BytesIO()
    assert 0 == serve(ReferenceAdapter, io.BytesIO(b"".join(lines)), out, max_line_bytes=max_line_bytes)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    for reply in replies:
        assert [] == schemas.errors(reply["type"], reply)
    return replies


def error_of(reply: dict) -> tuple:
    return (reply["type"], reply["in_reply_to"], reply["code"], reply["definite"])


def test_a_normal_session():
    replies = exchange(INIT, OPEN, {"type": "apply", "msg_id": 3, "op": PUT},
                       {"type": "batch", "msg_id": 4, "ops": [{"op": "get", "qmgr": "QM02", "queue": "Q1"}]},
                       {"type": "close", "msg_id": 5})  # fmt: skip
    assert ["init_ok", "open_ok", "apply_ok", "batch_ok", "close_ok"] == [r["type"] for r in replies]
    assert [1, 2, 3, 4, 5] == [r["in_reply_to"] for r in replies]
    assert 5 == replies[3]["outcomes"][0]["tag"]


def test_requests_after_close_are_not_read():
    replies = exchange(INIT, {"type": "close", "msg_id": 2}, {"type": "frob", "msg_id": 3})
    assert ["init_ok", "close_ok"] == [r["type"] for r in replies]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("this is not json", ("error", None, 11, True)),
        ("[1, 2]", ("error", None, 11, True)),
        ('{"type": "apply", "msg_id": 7, "op": ', ("error", 7, 11, True)),  # truncated, msg_id still found
        ('{"type": "apply"}', ("error", None, 11, True)),
        ('{"type": "frob", "msg_id": 9}', ("error", 9, 11, True)),
        ('{"msg_id": 9}', ("error", 9, 11, True)),
    ],
)
def test_malformed_requests_get_invalid_request_errors(line, expected):
    replies = exchange(INIT, line, {"type": "close", "msg_id": 20})
    assert expected == error_of(replies[1])
    assert "close_ok" == replies[2]["type"]


def test_anything_before_init_is_a_precondition_error():
    replies = exchange(OPEN, INIT)
    assert ("error", 2, 15, True) == error_of(replies[0])
    assert "init_ok" == replies[1]["type"]


def test_second_init_is_a_precondition_error():
    assert ("error", 1, 15, True) == error_of(exchange(INIT, INIT)[1])


def test_apply_and_batch_before_open_are_precondition_errors():
    replies = exchange(INIT, {"type": "apply", "msg_id": 2, "op": PUT}, {"type": "batch", "msg_id": 3, "ops": [PUT]})
    assert [("error", 2, 15, True), ("error", 3, 15, True)] == [error_of(r) for r in replies[1:]]


def test_incompatible_version_is_refused():
    assert ("error", 1, 16, True) == error_of(exchange({**INIT, "protocol_version": "2.0"})[0])


def test_bad_config_is_a_definite_error_naming_the_field():
    config = {**small_mq_config().to_record(), "qsg": "TOOLONG"}
    reply = exchange(INIT, {"type": "open", "msg_id": 2, "config": config})[1]
    assert ("error", 2, 13, True) == error_of(reply)
    assert "qsg" == reply["detail"]["field"]


def test_unknown_config_field_is_a_bad_config():
    reply = exchange(INIT, {"type": "open", "msg_id": 2, "config": {"colour": "red"}})[1]
    assert ("error", 2, 13, True) == error_of(reply)


def test_unknown_op_kind_and_bad_fields_are_invalid_requests():
    replies = exchange(INIT, OPEN, {"type": "apply", "msg_id": 3, "op": {"op": "frob"}},
                       {"type": "apply", "msg_id": 4, "op": {**PUT, "colour": "red"}},
                       {"type": "apply", "msg_id": 5, "op": "put"},
                       {"type": "apply", "msg_id": 6})  # fmt: skip
    assert [("error", n, 11, True) for n in (3, 4, 5, 6)] == [error_of(r) for r in replies[2:]]


def test_op_naming_an_unknown_queue_is_an_invalid_operation():
    reply = exchange(INIT, OPEN, {"type": "apply", "msg_id": 3, "op": {**PUT, "queue": "NOPE"}})[2]
    assert ("error", 3, 14, True) == error_of(reply)
    assert {"field", "value", "allowed", "rule_id"} == set(reply["detail"])


def test_batch_stops_at_the_failing_op():
    ops = [PUT, {**PUT, "queue": "NOPE"}, PUT]
    reply = exchange(INIT, OPEN, {"type": "batch", "msg_id": 3, "ops": ops})[2]
    assert 1 == len(reply["outcomes"])
    assert {"code": 14, "definite": True} == {k: reply["error"][k] for k in ("code", "definite")}


def test_empty_batch_is_an_invalid_request():
    assert ("error", 3, 11, True) == error_of(exchange(INIT, OPEN, {"type": "batch", "msg_id": 3, "ops": []})[2])


def test_over_long_request_line_is_discarded_with_request_too_large():
    big = {"type": "apply", "msg_id": 3, "op": {**PUT, "queue": "Q" * 5000}}
    replies = exchange(INIT, OPEN, big, {"type": "apply", "msg_id": 4, "op": PUT}, max_line_bytes=4096)
    assert ("error", 3, 17, True) == error_of(replies[2])
    assert "apply_ok" == replies[3]["type"]


def test_batch_reply_is_a_prefix_when_the_suite_limit_is_small():
    replies = exchange({**INIT, "max_line_bytes": 4096}, OPEN, {"type": "batch", "msg_id": 3, "ops": [PUT] * 50})
    reply = replies[2]
    assert "error" not in reply
    assert 1 <= len(reply["outcomes"]) < 50
    assert len(json.dumps(reply, separators=(",", ":"))) <= 4096


def test_adapter_crash_is_an_indefinite_error_and_serving_goes_on():
    class Crashing(ReferenceAdapter):
        def apply(self, op):
            if op.KIND == "get":
                raise RuntimeError("boom")
            return super().apply(op)

    out = io.BytesIO()
    requests = [INIT, OPEN, {"type": "apply", "msg_id": 3, "op": {"op": "get", "qmgr": "QM01", "queue": "Q1"}},
                {"type": "apply", "msg_id": 4, "op": PUT}]  # fmt: skip
    serve(Crashing, io.BytesIO(b"".join(json.dumps(r).encode() + b"\n" for r in requests)), out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert ("error", 3, 12, False) == error_of(replies[2])
    assert "boom" in replies[2]["text"]
    assert "apply_ok" == replies[3]["type"]


def test_end_of_input_without_close_returns_cleanly():
    assert ["init_ok", "open_ok"] == [r["type"] for r in exchange(INIT, OPEN)]


def test_outcome_that_is_not_json_becomes_a_crash_error():
    from cfconform.reference_model.outcomes import Outcome

    class Odd(ReferenceAdapter):
        def apply(self, op):
            return Outcome(op.KIND, value={1, 2}) if op.KIND == "inspect" else super().apply(op)

    out = io.BytesIO()
    requests = [
        INIT,
        OPEN,
        {"type": "apply", "msg_id": 3, "op": {"op": "inspect"}},
        {"type": "batch", "msg_id": 4, "ops": [{"op": "inspect"}]},
        {"type": "apply", "msg_id": 5, "op": PUT},
    ]
    serve(Odd, io.BytesIO(b"".join(json.dumps(r).encode() + b"\n" for r in requests)), out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [("error", 3, 12, False), ("error", 4, 12, False)] == [error_of(r) for r in replies[2:4]]
    assert "apply_ok" == replies[4]["type"]
