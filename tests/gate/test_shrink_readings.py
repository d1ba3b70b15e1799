"""Showing a mixed-reading failure at the step that chose the reading (judge/shrink/readings.py)."""

from __future__ import annotations

from cfconform.adapters.mutants import get_mutant
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.judge.shrink import minimise
from cfconform.judge.shrink.readings import disambiguated, reading_steps
from cfconform.judge.shrink.search import runner
from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config, QueueDef, StructureDef

EARLY_END = "M-CQS-015-b"  # without OVFLWSTR, overflow ends below OVFLWMAX rather than 20% below it


def _small_primary() -> Config:
    """Four data elements: one get moves usage by 25 points, so after overflow began at 75% a
    drop of 20 points from the usage at entry (``cqs_target`` drop-points) ends it at 50%."""
    prim1 = StructureDef("PRIM1", size_kb=6146, initsize_kb=6146, fullthreshold=80, ratio=2, ovflwmax=60)
    queues = (QueueDef("Q0", cfstruct="PRIM1", maxdepth=0),)
    return Config(
        profile="cqs", qmgrs=("IMS1", "IMS2"), structures=(prim1,), queues=queues, lgmsgsz=1024, overflow_exit=()
    )


def _overflow_ended_then_entered_again() -> list[object]:
    """As the gate met it on seed 7: overflow mode ended at the first get (admissible only under
    a drop-* reading), then an alter failure selects queues as only the threshold readings would."""
    return [
        o.Put("IMS1", "Q0", 0, tag=1),
        o.Put("IMS1", "Q0", 384, tag=2),
        o.AlterOutcome("PRIM1", False),
        o.Get("IMS1", "Q0"),
        o.Put("IMS1", "Q0", 0, tag=3),
        o.Get("IMS1", "Q0"),
        o.AlterOutcome("PRIM1", False),
    ]


def test_the_get_that_ended_overflow_early_narrowed_the_cqs_target_readings():
    steps = reading_steps(lambda: get_mutant(EARLY_END), _small_primary(), _overflow_ended_then_entered_again())
    assert [(3, {"cqs_target"})] == steps


def test_an_implementation_following_the_default_readings_narrows_none():
    assert [] == reading_steps(ReferenceAdapter, _small_primary(), _overflow_ended_then_entered_again())


def test_a_primary_where_the_readings_agree_shows_the_early_end_at_that_get():
    run = runner(lambda: get_mutant(EARLY_END))
    ops = _overflow_ended_then_entered_again()
    config, prefix = disambiguated(lambda: get_mutant(EARLY_END), run, _small_primary(), ops, [3000])
    result = run(config, prefix)
    assert ("CQS-014|signals|get", 4) == (result.divergence.signature(), len(prefix))


def test_minimise_reaches_the_documented_four_steps_from_a_mixed_reading_failure():
    ops = _overflow_ended_then_entered_again()
    result = minimise(lambda: get_mutant(EARLY_END), _small_primary(), ops)
    assert ("fail", 4) == (result.verdict, len(result.ops))
