"""Ending a minimised trace early in an inspection that shows a state fault (judge/shrink/inspection.py)."""

from __future__ import annotations

from cfconform.adapters.mutants import get_mutant
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.judge.shrink import minimise
from cfconform.judge.shrink.inspection import shown_earlier
from cfconform.judge.shrink.search import runner
from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config, QueueDef, StructureDef

QFULL_ENABLES_HI = "M-QDEPTH-006-c"  # a Queue Full event enables QDPHIEV


def _queue_full_config() -> Config:
    q1 = QueueDef("Q1", cfstruct="APP2", maxdepth=1, qdepthhi=81, qdepthlo=81, qdphiev=True, qdpmaxev=True)
    return Config(
        profile="mq",
        qmgrs=("QM01", "QM02"),
        structures=(StructureDef("APP2", size_kb=6150, recover=True),),
        queues=(q1,),
    )


def _queue_full_the_long_way() -> list[object]:
    """Queue Full, then the queue emptied without a Queue Depth Low event, then a put that the
    wrongly enabled switch turns into a Queue Depth High event (as the gate met it on seed 7)."""
    return [
        o.Put("QM01", "Q1", 0, tag=1),
        o.Put("QM01", "Q1", 0, syncpoint=True, tag=2),
        o.FailStructure("APP2"),
        o.Recover("APP2", purge=True),
        o.Put("QM01", "Q1", 0, tag=3),
    ]


def test_a_switch_set_wrongly_by_queue_full_is_shown_by_an_inspection_right_after_it():
    run = runner(lambda: get_mutant(QFULL_ENABLES_HI))
    shown = shown_earlier(run, _queue_full_config(), _queue_full_the_long_way(), [100])
    assert [*_queue_full_the_long_way()[:2], o.Inspect()] == shown


def test_no_inspection_is_added_where_the_state_matched_until_the_failing_step():
    run = runner(lambda: get_mutant(QFULL_ENABLES_HI))
    first_put_then_full = _queue_full_the_long_way()[:2]
    assert None is shown_earlier(run, _queue_full_config(), [*first_put_then_full, o.Inspect()], [100])


def test_no_inspection_is_added_to_a_trace_the_reference_passes():
    assert None is shown_earlier(runner(ReferenceAdapter), _queue_full_config(), _queue_full_the_long_way(), [100])


def test_minimise_reports_the_queue_full_switch_fault_in_the_documented_two_steps():
    result = minimise(lambda: get_mutant(QFULL_ENABLES_HI), _queue_full_config(), _queue_full_the_long_way())
    assert ("fail", "inspect", 2) == (result.verdict, result.divergence.op["op"], len(result.ops))
