"""Configurations a sentence forbids must be refused at open (judge/opening.py, properties/forbidden.py)."""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from cfconform.adapters.delegating import DelegatingAdapter
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.adapters.wire.client import WireAdapter
from cfconform.conformance.gate import run_gate
from cfconform.judge.opening import DECIDED_AT_OPEN, config_or_forbidden, forbidden_by, judge_open
from cfconform.judge.runner import run_trace
from cfconform.properties import forbidden, shapes
from cfconform.properties.generator import RandomDraw
from cfconform.reference_model.codec import config_from_record
from cfconform.reference_model.config import Config

ROOT = Path(__file__).resolve().parents[2]
KITS = {
    name: [sys.executable, str(ROOT / "examples" / f"{name}-reading" / "impl.py")]
    for name in ("second", "third", "fourth", "sixth", "seventh", "eighth", "ninth")
} | {"fifth": ["node", str(ROOT / "examples" / "fifth-reading" / "impl.js")]}


def _configs(n: int = 12) -> list[Config]:
    return [shapes.mq_config(RandomDraw(random.Random(f"forbidden:{i}"))) for i in range(n)]


def _records() -> list[tuple[str, dict[str, Any]]]:
    """Every case, on the first drawn configuration that can break its limit alone."""
    out = []
    for case in forbidden.CASES:
        record = next(r for c in _configs() if (r := forbidden.record(c, case)) is not None)
        out.append((case, record))
    return out


class Accepting(DelegatingAdapter):
    """Opens whatever it is given (a configuration record it cannot build is opened as the default)."""

    opens_records = True

    def open_record(self, record: dict[str, Any]) -> None:
        self.inner.open(Config())


@pytest.mark.parametrize("case", list(forbidden.CASES))
def test_each_case_breaks_only_the_limit_it_names(case: str):
    rule = forbidden.CASES[case][0]
    made = [forbidden.record(c, case) for c in _configs()]
    assert rule in DECIDED_AT_OPEN
    assert sum(r is not None for r in made) >= 10
    assert {rule} == {forbidden_by(r).rule_id for r in made if r is not None}


def test_a_valid_or_undecided_configuration_is_not_forbidden():
    valid = Config().to_record()
    no_structure = {**valid, "structures": [], "queues": []}  # TOPOLOGY-002: a state DEFINE may still mend
    assert (None, None) == (forbidden_by(valid), forbidden_by(no_structure))
    assert isinstance(config_or_forbidden(valid), Config)
    with pytest.raises(Exception, match="TOPOLOGY-002"):
        config_or_forbidden(no_structure)


@pytest.mark.parametrize(("case", "record"), _records(), ids=[c for c, _ in _records()])
def test_the_reference_refuses_each_forbidden_configuration(case: str, record: dict[str, Any]):
    result = judge_open(ReferenceAdapter(), record)
    rule = forbidden.CASES[case][0]
    assert ("pass", {rule: 1}) == (result.verdict, result.rules_exercised)


def test_opening_a_forbidden_configuration_fails_on_its_rule_at_open():
    case, record = _records()[0]
    result = run_trace(Accepting(ReferenceAdapter()), record, [])
    d = result.divergence
    assert ("fail", (forbidden.CASES[case][0],), "open", "opened") == (result.verdict, d.rules, d.op["op"], d.observed)
    assert d.field == "open.config.qsg"


def test_an_adapter_that_takes_only_valid_configurations_is_not_judged():
    class Plain:  # an in-process adapter without open_record
        def __init__(self) -> None:
            self.inner = ReferenceAdapter()

        def capabilities(self):
            return self.inner.capabilities()

    result = judge_open(Plain(), _records()[0][1])  # type: ignore[arg-type]
    assert ("unjudged", {}) == (result.verdict, result.rules_exercised)


def test_the_gate_fails_an_implementation_that_opens_them_and_names_the_rule():
    result = run_gate(lambda: Accepting(ReferenceAdapter()), profiles=("mq",), hypothesis_profile="dev", seed=1)
    failing = {r.rule for r in result.rules if r.verdict == "fail"}
    assert (1, {"TOPOLOGY-015"}) == (result.exit_code, failing)
    assert "open" == result.failures[0].field.split(".")[0]


def test_the_gate_judges_them_as_passes_for_the_reference():
    result = run_gate(ReferenceAdapter, profiles=("mq",), hypothesis_profile="dev", seed=1, rules=["TOPOLOGY-*"])
    verdicts = {r.rule: r.verdict for r in result.rules}
    topology = [rule for rule in DECIDED_AT_OPEN if rule.startswith("TOPOLOGY-")]
    assert (0, {"pass"}) == (result.exit_code, {verdicts[rule] for rule in topology})


@pytest.mark.parametrize("kit", sorted(KITS))
def test_no_independent_reading_opens_a_forbidden_configuration(kit: str):
    if KITS[kit][0] == "node" and shutil.which("node") is None:
        pytest.skip("node is not installed (the fifth reading is a Node.js program)")
    adapter = WireAdapter(KITS[kit])
    try:
        verdicts = {case: judge_open(adapter, record).verdict for case, record in _records()}
    finally:
        adapter.close()
    assert {"pass"} == set(verdicts.values()), verdicts


@pytest.mark.parametrize(
    ("kit", "fault", "rule"),
    [("ninth", "TOP_QSG_LEN", "TOPOLOGY-015"), ("ninth", "TOP_QSG_EQ_QMGR", "TOPOLOGY-015"),
     ("ninth", "TOP_512_OPEN", "TOPOLOGY-005"), ("eighth", "TOP_QSG_LEN", "TOPOLOGY-015"),
     ("eighth", "TOP_QSG_EQ_QMGR", "TOPOLOGY-015")],
)  # fmt: skip
def test_a_kit_fault_accepting_a_broken_limit_at_open_is_caught(kit: str, fault: str, rule: str):
    adapter = WireAdapter([*KITS[kit], "--fault", fault])
    try:
        failed = {forbidden.CASES[c][0] for c, r in _records() if judge_open(adapter, r).verdict == "fail"}
    finally:
        adapter.close()
    assert {rule} == failed


def test_a_forbidden_configuration_reproducer_stays_a_record_and_replays():
    record = _records()[0][1]
    with pytest.raises(Exception, match="TOPOLOGY-015"):
        config_from_record(record)
    assert record == config_or_forbidden(record)
    assert "fail" == run_trace(Accepting(ReferenceAdapter()), config_or_forbidden(record), []).verdict
