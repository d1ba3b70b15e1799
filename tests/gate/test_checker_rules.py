"""The rules a passing step exercises (judge/checker.py): what the gate's per-rule matrix counts."""

from __future__ import annotations

import pytest

from cfconform.adapters.reference import ReferenceAdapter
from cfconform.judge.runner import run_trace
from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config, QueueDef, StructureDef
from cfconform.reference_model.outcomes import Outcome

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
        from cfconform.reference_model.validation import lenient

        with lenient(frozenset({"OFFLOAD-007"})):
            return super().apply(op)


class _RefusesKeywordsBelowTheirLevel(ReferenceAdapter):
    """Refuses DEFINE or ALTER CFSTRUCT that leave RECOVER(YES) below CFLEVEL(3) or name OFFLDn* below 5
    (the third reading does: ibm-facts 2.6 leaves both open)."""

    def apply(self, op):  # type: ignore[no-untyped-def]
        record = (
            dict(op.changes)
            if op.KIND == "alter_structure"
            else op.structure
            if op.KIND == "define_structure"
            else None
        )
        if record is not None:
            level = record.get("cflevel", 3)
            if ((record.get("recover") or op.KIND == "alter_structure") and level < 3) or (
                level < 5 and any(k.startswith("offld") for k in record)
            ):
                return Outcome(op.KIND, False, "INVALID")
        return super().apply(op)


@pytest.mark.parametrize(
    "op",
    [
        o.DefineStructure({"name": "LVL2RA", "size_kb": 6400, "cflevel": 2, "recover": True}),
        o.DefineStructure({"name": "LVL4", "size_kb": 6400, "cflevel": 4, "offld1th": 0, "offld1sz": 0}),
        o.AlterStructure("APP1", {"cflevel": 2}),
    ],
    ids=["cflevel_007_define", "offload_007_define", "cflevel_007_alter"],
)
def test_cflevel_007_refusing_a_keyword_below_the_level_it_needs_is_not_judged(op):
    """Second and third reading: "RECOVER(YES) with CFLEVEL < 3 rejected at DEFINE time?" and "OFFLDn* below
    CFLEVEL 5 also rejected?" are AMBIGUOUS (ibm-facts 2.6): refusing conforms, as accepting does."""
    structure = StructureDef("APP1", size_kb=65536, cflevel=3, recover=True)
    config = Config(structures=(structure,), queues=(QueueDef("Q1", cfstruct="APP1"),))
    ops = [op, o.Put("QM01", "Q1", 100)]
    verdicts = [run_trace(a, config, ops).verdict for a in (_RefusesKeywordsBelowTheirLevel(), ReferenceAdapter())]
    assert ["unjudged", "pass"] == verdicts  # the refusal ends the case "not supported", never a failure


class _IgnoresCqsFields(ReferenceAdapter):
    """Third reading: an MQ DEFINE CFSTRUCT record's CQS fields (OVFLWMAX, OVFLWSTR, resource) are ignored."""

    def apply(self, op):  # type: ignore[no-untyped-def]
        if op.KIND == "define_structure" and isinstance(op.structure, dict):
            cqs = ("ovflwmax", "ovflwstr", "ovflw_size_kb", "resource")
            op = o.DefineStructure({k: v for k, v in op.structure.items() if k not in cqs})
        return super().apply(op)


def test_cqs_016_an_mq_implementation_may_ignore_cqs_fields_in_a_definition():
    """Third reading, dev seed 2: no MQ text names OVFLWMAX or a resource structure; refusing them is
    the model's own choice, so accepting the definition conforms."""
    config = Config(structures=(StructureDef("APP1", size_kb=65536),), queues=(QueueDef("Q1", cfstruct="APP1"),))
    ops = [o.DefineStructure({"name": "NEW6", "size_kb": 6400, "resource": True}), o.Inspect()]
    assert "pass" == run_trace(_IgnoresCqsFields(), config, ops).verdict


class _RecoverNeedsAQmgr(ReferenceAdapter):
    """Third reading: RECOVER CFSTRUCT is refused when no queue manager is active to issue it."""

    def apply(self, op):  # type: ignore[no-untyped-def]
        if op.KIND == "recover" and not any(m.active for m in self.model.qmgrs.values()):  # type: ignore[union-attr]
            return Outcome("recover", False, "NOT_ACTIVE")
        return super().apply(op)


def test_recovery_005_recover_with_no_active_queue_manager_is_not_judged():
    """Third reading, dev seed 3: every queue manager stopped, then RECOVER CFSTRUCT TYPE(PURGE): no
    document says a command runs with no queue manager to issue it."""
    structure = StructureDef("APP2", size_kb=6145, cflevel=4, recover=True)
    config = Config(qmgrs=("QM01",), structures=(structure,), queues=(QueueDef("Q1", cfstruct="APP2"),))
    ops = [o.StopQmgr("QM01"), o.FailStructure("APP2"), o.Recover("APP2", True), o.Inspect()]
    assert "pass" == run_trace(_RecoverNeedsAQmgr(), config, ops).verdict


class _RefusesMaxdepth(ReferenceAdapter):
    """Tenth reading: DEFINE or ALTER QLOCAL refuses MAXDEPTH below ``floor`` (the tenth takes 1..999999999),
    or above ``ceiling`` (an emulator's cap)."""

    def __init__(self, floor: int = 1, ceiling: int = 999_999_999) -> None:
        super().__init__()
        self.floor, self.ceiling = floor, ceiling

    def apply(self, op):  # type: ignore[no-untyped-def]
        depth = dict(op.changes).get("maxdepth") if op.KIND == "alter_queue" else None
        if op.KIND == "define_queue" and isinstance(op.queue, dict):
            depth = op.queue.get("maxdepth")
        if isinstance(depth, int) and not self.floor <= depth <= self.ceiling:
            return Outcome(op.KIND, False, "MQRC_OUT_OF_RANGE")
        return super().apply(op)


_MAXDEPTH_OPS = {
    "alter": lambda depth: o.AlterQueue("Q1", {"maxdepth": depth}),
    "define": lambda depth: o.DefineQueue({"name": "Q2", "cfstruct": "APP1", "maxdepth": depth}),
}


@pytest.mark.parametrize("kind", sorted(_MAXDEPTH_OPS))
def test_qdepth_014_refusing_maxdepth_0_is_not_judged(kind: str):
    """ibm-facts 4.2: "Also undefined: MaxQDepth = 0", and no sentence here states MAXDEPTH's range:
    refusing MAXDEPTH(0) ends the case "not supported" (tenth reading, mq seeds 1-3)."""
    config = Config(structures=(StructureDef("APP1", size_kb=65536),), queues=(QueueDef("Q1", cfstruct="APP1"),))
    ops = [_MAXDEPTH_OPS[kind](0), o.Put("QM01", "Q1", 100)]
    assert ["unjudged", "pass"] == [run_trace(a, config, ops).verdict for a in (_RefusesMaxdepth(), ReferenceAdapter())]


@pytest.mark.parametrize("kind", sorted(_MAXDEPTH_OPS))
def test_qdepth_014_refusing_a_maxdepth_the_documents_show_fails(kind: str):
    """IBM's Example 2 queue is full at 1000 messages (ibm-facts 4.4): refusing MAXDEPTH(1000) is judged."""
    config = Config(structures=(StructureDef("APP1", size_kb=65536),), queues=(QueueDef("Q1", cfstruct="APP1"),))
    ops = [_MAXDEPTH_OPS[kind](1000), o.Put("QM01", "Q1", 100)]
    assert "fail" == run_trace(_RefusesMaxdepth(floor=10_000), config, ops).verdict


@pytest.mark.parametrize("kind", sorted(_MAXDEPTH_OPS))
def test_qdepth_018_refusing_a_maxdepth_above_any_the_documents_show_is_not_judged(kind: str):
    """No sentence states MAXDEPTH's range (QDEPTH-018): an emulator capping it at 1000 may refuse
    MAXDEPTH(5000) or IBM's 999999999; the case ends "not supported"."""
    config = Config(structures=(StructureDef("APP1", size_kb=65536),), queues=(QueueDef("Q1", cfstruct="APP1"),))
    verdicts = [
        run_trace(
            _RefusesMaxdepth(ceiling=1000), config, [_MAXDEPTH_OPS[kind](depth), o.Put("QM01", "Q1", 100)]
        ).verdict
        for depth in (5000, 999_999_999)
    ]
    assert ["unjudged", "unjudged"] == verdicts
