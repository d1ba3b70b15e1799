"""The rules a passing step exercises (conformance/checker.py): what the gate's per-rule matrix counts."""

from __future__ import annotations

from adapters.reference import ReferenceAdapter
from conformance.runner import run_trace
from reference_model import operations as o
from reference_model.config import Config, QueueDef, StructureDef

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
