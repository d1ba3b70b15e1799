"""Directed cases (properties/directed.py): every probe of a profile, once each, before generation."""

from __future__ import annotations

import inspect
import itertools

import pytest

from cfconform.adapters.mutants import get_mutant
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.properties.directed import FAMILIES, calls, run_directed
from cfconform.properties.machine import machine_for


@pytest.mark.parametrize("profile", sorted(FAMILIES))
def test_every_family_has_a_turn_before_any_family_has_two(profile: str):
    first = list(itertools.islice(calls(profile), len(FAMILIES[profile])))
    assert first == [family[0] for family in FAMILIES[profile].values()]


@pytest.mark.parametrize("profile", sorted(FAMILIES))
def test_every_directed_call_names_a_probe_of_the_machine_with_its_arguments(profile: str):
    machine = machine_for(ReferenceAdapter, profile)
    unbound = []
    for name, kwargs in calls(profile):
        arguments = {k: v for k, v in kwargs.items() if k not in ("structures", "config")}  # not the probe's
        try:
            inspect.signature(getattr(machine, name)).bind(None, **arguments)
        except (AttributeError, TypeError) as err:
            unbound.append(f"{name}({kwargs}): {err}")
    assert unbound == []


@pytest.mark.parametrize("profile", sorted(FAMILIES))
def test_the_reference_passes_every_directed_case(profile: str):
    machine = machine_for(ReferenceAdapter, profile)
    run_directed(machine, profile, len(list(calls(profile))), seed=1)
    assert (machine.recorder.failures, machine.recorder.cases > 0) == ([], True)


def test_a_directed_case_finds_a_fault_behind_one_probe_setting():
    """M-OFFLOAD-013-a (ALTER CFSTRUCT resets what it does not name) is behind the offload probes."""
    machine = machine_for(lambda: get_mutant("M-OFFLOAD-013-a"), "mq")
    machine.recorder.look_on = False
    run_directed(machine, "mq", 200, seed=1)
    assert len(machine.recorder.failures) == 1


def test_a_refused_alter_is_not_generated_again():
    """An implementation may refuse ALTER CFSTRUCT FULLTHRESHOLD (no sentence requires it): one case
    ends "not supported", later ones skip that ALTER and go on."""
    from typing import Any

    from cfconform.reference_model.outcomes import Outcome

    class RefusesFullthreshold(ReferenceAdapter):
        def apply(self, op: Any) -> Outcome:
            if op.KIND == "alter_structure" and "fullthreshold" in dict(op.changes):
                return Outcome("alter_structure", False, "INVALID")
            return super().apply(op)

    machine = machine_for(RefusesFullthreshold, "mq")
    run_directed(machine, "mq", 200, seed=1)
    assert (machine.recorder.refused.get("alter_structure"), machine.recorder.failures) == (1, [])
