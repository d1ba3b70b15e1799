"""docs/PROTOCOL.md and docs/schemas/ match the code; the schemas are valid and accept what the suite sends."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from cfconform.adapters.protocol import PROTOCOL_VERSION
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.adapters.wire import docgen, messages, schemas
from cfconform.reference_model.codec import op_to_record, outcome_to_record
from cfconform.reference_model.operations import OPERATIONS
from tests.adapters.conftest import REPO, small_mq_config
from tests.adapters.test_wire_reference import mixed_mq_ops


def test_committed_docs_and_schema_files_are_up_to_date():
    assert [] == docgen.stale(), "run: .venv/bin/python -m cfconform.adapters.wire.docgen"


def test_protocol_md_states_the_version_at_the_top():
    head = (REPO / "docs" / "PROTOCOL.md").read_text(encoding="utf-8").splitlines()[:5]
    assert any(f"Protocol version: {PROTOCOL_VERSION}" in line for line in head)


def test_every_schema_is_a_valid_draft_2020_12_schema():
    for schema in schemas.schemas().values():
        jsonschema.Draft202012Validator.check_schema(schema)


def test_every_record_field_has_a_schema_type():
    schemas.schemas()
    assert set() == schemas.UNMAPPED


def test_there_is_a_schema_per_message_type_and_record():
    assert set(messages.MESSAGE_TYPES) | set(schemas.RECORDS) == set(schemas.schemas())


def test_json_examples_in_protocol_md_match_their_schemas():
    text = (REPO / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, re.S)
    examples = [json.loads(line) for block in blocks for line in block.splitlines() if line.strip()]
    assert len(examples) >= 12
    for example in examples:
        assert [] == schemas.errors(example["type"], example), example


def test_every_op_record_the_suite_sends_matches_the_op_schema():
    for op in mixed_mq_ops(1, 300):
        assert [] == schemas.errors("op", op_to_record(op))


def test_op_schema_rejects_unknown_kinds_and_fields():
    assert schemas.errors("op", {"op": "frob"})
    assert schemas.errors("op", {"op": "get", "qmgr": "QM01", "queue": "Q1", "colour": "red"})


def test_every_op_kind_has_a_schema():
    defs = schemas.schemas()["op"]["$defs"]
    assert {f"op_{cls.KIND}" for cls in OPERATIONS} <= set(defs)


def test_reference_outcomes_and_config_match_their_schemas():
    config = small_mq_config()
    assert [] == schemas.errors("config", config.to_record())
    ref = ReferenceAdapter()
    ref.open(config)
    for outcome in ref.apply_batch(mixed_mq_ops(2, 300)):
        assert [] == schemas.errors("outcome", outcome_to_record(outcome))
    assert [] == schemas.errors("capabilities", ref.capabilities().to_record())


@pytest.mark.parametrize(
    "bad",
    [{"kind": "put"}, {"kind": "put", "ok": 1}, {"kind": "frob", "ok": True}, {"kind": "get", "ok": True, "x": 1},
     {"kind": "put", "ok": True, "usage": [1, 2, 3]}],
)  # fmt: skip
def test_outcome_schema_rejects_malformed_outcomes(bad):
    assert schemas.errors("outcome", bad)


def test_error_registry_codes_are_unique_and_documented():
    codes = [e.code for e in messages.ERRORS]
    assert sorted(set(codes)) == codes
    text = (REPO / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    for e in messages.ERRORS:
        assert f"| {e.code} | `{e.name}` |" in text


def test_fallback_validation_without_jsonschema_catches_bad_outcomes(monkeypatch):
    monkeypatch.setattr(schemas, "_jsonschema", None)
    assert schemas.errors("outcome", {"kind": "put", "ok": "yes"})
    assert [] == schemas.errors("outcome", {"kind": "put", "ok": True})
    assert schemas.errors("apply_ok", {"type": "apply_ok", "in_reply_to": 1, "outcome": {"ok": True}})
