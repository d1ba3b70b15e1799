"""Directed cases (properties/directed.py): every probe of a profile, once each, before generation."""

from __future__ import annotations

import inspect
import itertools

import pytest

from cfconform.adapters.mutants import get_mutant
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.properties import forbidden
from cfconform.properties.directed import FAMILIES, FORBIDDEN, calls, run_directed
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
        if name == FORBIDDEN:  # a configuration, not a probe: each names a case of properties/forbidden.py
            if kwargs["case"] not in forbidden.CASES:
                unbound.append(f"{name}({kwargs}): no such case")
            continue
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


def test_the_capacity_cases_hold_a_structure_at_fullthreshold_for_an_hour(monkeypatch):
    """IXC585E when usage "reaches" FULLTHRESHOLD (CAPACITY-002): a fill stops on it when it lands there,
    and an hour passes, so a build that signals only above it is caught under the ``deferred`` reading
    too (the eighth reading's fault CAP_IXC585_STRICT; its faithful build passes the same cases)."""
    import sys
    from pathlib import Path

    from cfconform.adapters.wire.client import WireAdapter
    from cfconform.conformance.reuse import reusing
    from cfconform.properties import directed

    at_threshold = [c for c in directed.MQ_FAMILIES["capacity"] if c[1]["boundary"] == "FULLTHRESHOLD"][:16]
    assert {(0, directed.FULL_MONITOR_BOUND)} == {(c[1]["past"], c[1]["wait"]) for c in at_threshold}
    monkeypatch.setitem(directed.FAMILIES, "mq", {"capacity": at_threshold})
    kit = [sys.executable, str(Path(__file__).resolve().parents[2] / "examples" / "eighth-reading" / "impl.py")]
    found = []
    for extra in ([], ["--fault", "CAP_IXC585_STRICT"]):
        with reusing(lambda extra=extra: WireAdapter([*kit, *extra])) as make:
            machine = machine_for(make, "mq")
            run_directed(machine, "mq", len(at_threshold), seed=1)
            found.append(len(machine.recorder.failures))
    assert found[0] == 0 and found[1] > 0
