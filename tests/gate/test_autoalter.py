"""CAPACITY-011: the gate accepts an implementation whose structures change their entry:element ratio
between steps, as z/OS AUTOALTER does "when necessary" (seed 002); CAPACITY-012 still holds for it."""

from __future__ import annotations

import pytest

from cfconform.conformance.gate import run_gate
from tests.gate.autoalter import AutoAlter


@pytest.mark.parametrize("seed", [1, 4, 6])
def test_capacity_011_an_implementation_that_autoalters_its_ratio_conforms(seed: int):
    AutoAlter.altered = 0
    result = run_gate(AutoAlter, hypothesis_profile="dev", seed=seed, profiles=("mq",))
    failures = [(f.rules, f.step, f.field, f.expected, f.observed) for f in result.failures]
    assert (0, []) == (result.exit_code, failures)
    assert AutoAlter.altered > 0  # the ratio did change during the run: the test is not vacuous
