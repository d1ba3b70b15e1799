"""Partial implementations (docs/PROTOCOL.md): unclaimed families are reported "not claimed", never
failed, and their operations may be answered "not supported" (wire error 10)."""

from __future__ import annotations

from cfconform.adapters.mutants import MUTANT_BY_ID
from cfconform.adapters.protocol import Capabilities
from cfconform.conformance.gate import run_gate
from cfconform.judge.claims import any_claimed
from cfconform.judge.runner import run_trace
from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config, QueueDef, StructureDef
from tests.gate import faulty


def test_an_operation_answered_not_supported_ends_its_case_without_failing_the_gate():
    result = run_gate(faulty.RefusesAdministration, hypothesis_profile="dev", seed=3)
    refused = [w for w in result.warnings if "does not support" in w]
    assert (0, 1) == (result.exit_code, len(refused))
    assert "alter_structure x" in refused[0]


def test_a_divergence_on_unclaimed_rules_only_is_reported_not_failed():
    result = run_gate(faulty.NoCapacityClaim, hypothesis_profile="dev", seed=3)
    verdicts = {r.rule: r.verdict for r in result.rules}
    unclaimed = [w for w in result.warnings if "on unclaimed rules only (CAPACITY-001 x" in w]
    assert (0, (), "not-claimed", 1) == (result.exit_code, result.failures, verdicts["CAPACITY-001"], len(unclaimed))


def test_a_fault_on_one_operation_names_that_operation_not_its_position_in_the_call():
    config = Config(qmgrs=("QM01",), structures=(StructureDef("APP1", size_kb=7000),), queues=(QueueDef("Q1", "APP1"),))
    ops = [o.Put("QM01", "Q1", 10, tag=t) for t in range(4)]
    adapter = faulty.FailsThirdOperation()
    assert 2 == run_trace(adapter, config, ops, batch=False).fault.step


def _small_config() -> Config:
    return Config(qmgrs=("QM01",), structures=(StructureDef("APP1", size_kb=7000),), queues=(QueueDef("Q1", "APP1"),))


def test_a_trace_ends_unjudged_at_an_operation_not_supported():
    ops = [o.Put("QM01", "Q1", 10), o.SetxcfAlter("APP1", 7000), o.Put("QM01", "Q1", 10)]
    result = run_trace(faulty.RefusesAdministration(), _small_config(), ops, batch=False)
    assert ("unjudged", 1, None) == (result.verdict, result.steps_checked, result.fault)


def test_a_trace_ends_unjudged_at_a_divergence_on_unclaimed_rules_only():
    mutant = MUTANT_BY_ID["M-CAPACITY-001-a"]  # its documented scenario breaks CAPACITY-001 only
    result = run_trace(faulty.NoCapacityClaim(), mutant.config, mutant.scenario)
    assert ("unjudged", None) == (result.verdict, result.divergence)
    assert "CAPACITY-001" in result.unjudged


def test_a_divergence_counts_if_any_rule_it_names_is_of_a_claimed_family():
    caps = Capabilities("partial", families=("QUEUE",))
    counted = [any_claimed(ids, caps) for ids in (("CAPACITY-001", "QUEUE-001"), ("CAPACITY-001",), ())]
    assert [True, False, True] == counted
