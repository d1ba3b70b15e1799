"""The rules a passing step exercises (conformance/checker.py): what the gate's per-rule matrix counts."""

from __future__ import annotations

import pytest

from adapters.reference import ReferenceAdapter
from conformance.runner import run_trace
from reference_model import operations as o
from reference_model.config import Config, QueueDef, StructureDef
from reference_model.outcomes import Outcome

CONFIG = Config(
    qmgrs=("QM01",), structures=(StructureDef("APP1", size_kb=6200),), queues=(QueueDef("Q0", cfstruct="APP1"),)
)


def test_a_put_reporting_usage_does_not_exercise_sizing_005():
    """Usage is the implementation's input (issue 23): the model's accounting (SIZING-005) is never compared."""
    result = run_trace(ReferenceAdapter(), CONFIG, [o.Put("QM01", "Q0", 100)])
    assert ("pass", None) == (result.verdict, result.rules_exercised.get("SIZING-005"))


def test_a_step_without_usage_does_not_exercise_sizing_005():
    result = run_trace(ReferenceAdapter(), CONFIG, [o.SetPerfmev("QM01", False)])
    assert ("pass", None) == (result.verdict, result.rules_exercised.get("SIZING-005"))


class _RefusesLoweringWithOffload(ReferenceAdapter):
    """Refuses ALTER CFSTRUCT below CFLEVEL(5) while an OFFLOAD is in effect, given or defaulted."""

    def apply(self, op):  # type: ignore[no-untyped-def]
        if (
            op.KIND == "alter_structure"
            and dict(op.changes).get("cflevel", 5) < 5
            and "offload" not in dict(op.changes)
        ):
            return Outcome("alter_structure", False, "INVALID")
        return super().apply(op)


@pytest.mark.parametrize("offload", [None, "SMDS"])
def test_offload_007_refusing_cflevel4_while_offload_is_in_effect_is_not_judged(offload):
    """No sentence says whether OFFLOAD(SMDS), given or by default, blocks lowering CFLEVEL below 5:
    an implementation that refuses conforms, as one that accepts does."""
    structure = StructureDef("APP1", size_kb=65536, cflevel=5, recover=True, offload=offload)
    config = Config(structures=(structure,), queues=(QueueDef("Q1", cfstruct="APP1"),))
    ops = [o.AlterStructure("APP1", {"cflevel": 4}), o.Put("QM01", "Q1", 100), o.Inspect()]
    for adapter in (_RefusesLoweringWithOffload(), ReferenceAdapter()):
        assert "pass" == run_trace(adapter, config, ops).verdict


def test_offload_007_a_kept_offload_keyword_does_not_block_a_later_alter_below_5():
    """Second reading, ci seed 1: CFLEVEL(5) OFFLOAD(SMDS) lowered to 1 and then raised to 4, OFFLOAD never
    named: the implementation accepted both; the model refused the second (OFFLOAD only with CFLEVEL(5))."""
    structure = StructureDef("APP1", size_kb=65536, cflevel=5, recover=True, offload="SMDS")
    config = Config(structures=(structure,), queues=(QueueDef("Q1", cfstruct="APP1"),))
    ops = [o.AlterStructure("APP1", {"cflevel": 1}), o.AlterStructure("APP1", {"cflevel": 4}), o.Inspect()]
    assert "pass" == run_trace(_KeepsOffloadBelow5(), config, ops).verdict


class _KeepsOffloadBelow5(ReferenceAdapter):
    """Accepts any ALTER CFSTRUCT that leaves OFFLOAD as it was, at any CFLEVEL (as the second reading)."""

    def apply(self, op):  # type: ignore[no-untyped-def]
        from reference_model.validation import lenient

        with lenient(frozenset({"OFFLOAD-007"})):
            return super().apply(op)
