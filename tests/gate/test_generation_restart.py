"""Generation restarts when Hypothesis finds it inconsistent (cfconform.properties.run._generate): the machine
stops generating operations the implementation refused, knowledge that grows during a run, so a case
Hypothesis replays may take another path.  The gate must go on with the examples left, never crash
(it did, against the third reading: FlakyStrategyDefinition out of run_gate)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import settings as Settings
from hypothesis.errors import FlakyStrategyDefinition

from cfconform.properties import run


def test_inconsistent_generation_restarts_with_the_examples_left(monkeypatch: pytest.MonkeyPatch):
    machine = SimpleNamespace(recorder=SimpleNamespace(cases=0, failures=[]))
    budgets = []

    def fake_run(factory, settings):  # type: ignore[no-untyped-def]
        budgets.append(settings.max_examples)
        machine.recorder.cases += 30
        if len(budgets) == 1:
            raise FlakyStrategyDefinition("Inconsistent data generation!")

    monkeypatch.setattr(run, "run_state_machine_as_test", fake_run)
    run._generate(machine, lambda: None, Settings(max_examples=100), seed=1)
    assert [100, 70] == budgets


def test_inconsistent_generation_after_a_failure_is_left_to_the_caller(monkeypatch: pytest.MonkeyPatch):
    machine = SimpleNamespace(recorder=SimpleNamespace(cases=0, failures=["a failing trace"]))

    def fake_run(factory, settings):  # type: ignore[no-untyped-def]
        raise FlakyStrategyDefinition("Inconsistent data generation!")

    monkeypatch.setattr(run, "run_state_machine_as_test", fake_run)
    with pytest.raises(FlakyStrategyDefinition):
        run._generate(machine, lambda: None, Settings(max_examples=100), seed=1)
