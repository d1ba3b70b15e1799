"""CAPACITY-004: an accepted SETXCF ALTER that contracts a structure may stop short of its target
(z/OS cannot free storage in use; no sentence says the target is reached), so the size an
``inspect`` then shows may be anything from the target to the size before it, and nothing else."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from cfconform.adapters.reference import ReferenceAdapter
from cfconform.judge.runner import run_trace
from cfconform.reference_model.config import Config, QueueDef, StructureDef
from cfconform.reference_model.operations import Inspect, SetxcfAlter
from cfconform.reference_model.outcomes import Outcome

CONFIG = Config(
    profile="mq",
    structures=(StructureDef("APP1", size_kb=8192, initsize_kb=6400),),
    queues=(QueueDef("Q1", cfstruct="APP1"),),
)
OPS = [SetxcfAlter("APP1", 8000), SetxcfAlter("APP1", 7000), Inspect()]


class _ShowsSize(ReferenceAdapter):
    """The reference, except that its ``inspect`` shows APP1 at ``shown`` KB."""

    def __init__(self, shown: int) -> None:
        super().__init__(name="shows-size")
        self.shown = shown

    def apply(self, op: Any) -> Outcome:
        out = super().apply(op)
        if isinstance(op, Inspect):
            structures = {**out.value["structures"]}
            structures["APP1"] = {**structures["APP1"], "size_kb": self.shown}
            out = attrs.evolve(out, value={**out.value, "structures": structures})
        return out

    def apply_batch(self, ops: Any) -> list[Outcome]:
        return [self.apply(op) for op in ops]


@pytest.mark.parametrize("shown", [7000, 7500, 8000])
def test_capacity_004_a_contraction_may_stop_anywhere_from_its_target_to_the_size_before(shown: int):
    result = run_trace(_ShowsSize(shown), CONFIG, OPS)
    assert (result.verdict, result.divergence) == ("pass", None)


@pytest.mark.parametrize(("shown", "nearer_end"), [(6900, 7000), (8100, 8000)])
def test_capacity_004_a_contraction_shown_outside_that_range_fails_naming_the_nearer_end(shown: int, nearer_end: int):
    result = run_trace(_ShowsSize(shown), CONFIG, OPS)
    assert result.verdict == "fail"
    assert (result.divergence.step, result.divergence.expected, result.divergence.observed) == (2, nearer_end, shown)
    assert "CAPACITY-004" in result.divergence.rules
