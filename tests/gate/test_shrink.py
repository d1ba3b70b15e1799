"""Minimisation (conformance/shrink.py) and the search for a shorter failing case (properties/base.py)."""

from __future__ import annotations

import attrs

from adapters.mutants import get_mutant
from adapters.reference import ReferenceAdapter
from conformance import shrink
from conformance.shrink import minimise, minimise_shortest
from properties import base
from reference_model import operations as o
from reference_model.config import Config, QueueDef, StructureDef

CONTRACTION = "M-CAPACITY-006-a"  # SETXCF ALTER contracts a structure below the storage in use


def _contraction_config() -> Config:
    app2 = StructureDef("APP2", size_kb=6160, initsize_kb=6158, ratio=4, fullthreshold=1, cflevel=4)
    return Config(
        profile="mq",
        qmgrs=("QM01",),
        structures=(StructureDef("APP1", size_kb=6145, cflevel=4), app2),
        queues=(QueueDef("Q0", cfstruct="APP2", maxdepth=10),),
    )


def _padded_contraction() -> list[object]:
    """A contraction below the storage in use, the long way round (as the gate first met it)."""
    puts = [o.Put("QM01", "Q0", 0, tag=t) for t in range(8)]
    return [o.Put("QM01", "Q0", 65281), o.SetxcfAlter("APP2", 6159), *puts, o.SetxcfAlter("APP2", 6158)]


def test_minimise_lowers_initsize_and_the_alter_size_to_reach_the_documented_length():
    result = minimise(lambda: get_mutant(CONTRACTION), _contraction_config(), _padded_contraction())
    assert ("fail", ("CAPACITY-005", "CAPACITY-006")) == (result.verdict, result.divergence.rules)
    assert 3 >= len(result.ops)


def test_minimise_shortest_minimises_fully_the_trace_delta_debugging_left_shortest(monkeypatch):
    config = _contraction_config()
    app2 = attrs.evolve(config.structures[1], initsize_kb=6145, ratio=6)
    short_config = attrs.evolve(config, structures=(config.structures[0], app2))
    short_way = [o.SetxcfAlter("APP2", 6147), o.Put("QM01", "Q0", 0), o.SetxcfAlter("APP2", 6146)]
    chosen = []
    monkeypatch.setattr(shrink, "minimise", lambda factory, config, ops: chosen.append((config, ops)))
    failures = [(config, _padded_contraction()), (short_config, short_way)]
    shrink.minimise_shortest(lambda: get_mutant(CONTRACTION), failures)
    assert [(short_config, short_way)] == chosen


def test_minimise_shortest_returns_a_trace_that_passes_on_replay_as_it_is():
    ops = _padded_contraction()
    result = minimise_shortest(ReferenceAdapter, [(_contraction_config(), ops)])
    assert ("pass", len(ops)) == (result.verdict, len(result.ops))


def test_generation_goes_on_after_a_failure_for_more_failures_or_more_cases():
    recorder = base.Recorder()
    recorder.cases = 10
    recorder.record_failure((_contraction_config(), []))
    assert (True, False) == (recorder.keep_looking(), recorder.search_over())
    recorder.cases += base.MORE_CASES
    assert (False, True) == (recorder.keep_looking(), recorder.search_over())


def test_generation_stops_looking_after_enough_failures():
    recorder = base.Recorder()
    for _ in range(base.MORE_FAILURES + 1):
        recorder.record_failure((_contraction_config(), []))
    assert (False, False) == (recorder.keep_looking(), recorder.search_over())


def test_an_alter_qlocal_of_an_untouched_queue_is_folded_into_the_configuration():
    config = _contraction_config()
    ops = [o.AlterQueue("Q0", {"qdepthhi": 50, "qdphiev": True}), o.Put("QM01", "Q0", 0)]
    ((folded_config, folded_ops),) = shrink._folded(config, ops)
    assert ((50, True), [ops[1]]) == (
        (folded_config.queues[0].qdepthhi, folded_config.queues[0].qdphiev),
        folded_ops,
    )


def test_an_alter_qlocal_after_the_queue_was_used_is_not_folded():
    ops = [o.Put("QM01", "Q0", 0), o.AlterQueue("Q0", {"qdepthhi": 50})]
    assert [] == shrink._folded(_contraction_config(), ops)
