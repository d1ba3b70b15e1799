"""``--rules`` restricts generation to the probes that reach the selected rules' families (properties/reach.py)."""

from __future__ import annotations

from hypothesis.stateful import RULE_MARKER

from cfconform.adapters.reference import ReferenceAdapter
from cfconform.properties.directed import calls
from cfconform.properties.machine import CQSMachine, MQMachine, machine_for
from cfconform.properties.reach import REACH, reaches


def _rules(machine: type) -> set[str]:
    return {name for name in dir(machine) if getattr(getattr(machine, name), RULE_MARKER, None) is not None}


def test_every_probe_in_the_reach_table_is_a_method_of_a_machine():
    assert [name for name in REACH if not (hasattr(MQMachine, name) or hasattr(CQSMachine, name))] == []


def test_a_family_selection_leaves_out_the_probes_that_cannot_reach_it():
    kept = _rules(machine_for(ReferenceAdapter, "mq", {"QDEPTH"}))
    assert ("depth_probe" in kept, "failure_cycle" in kept, "offload_probe" in kept) == (True, False, False)


def test_plain_traffic_is_never_left_out():
    assert {"put", "get", "drain"} <= _rules(machine_for(ReferenceAdapter, "mq", {"RECOVERY"}))


def test_without_a_selection_every_probe_is_a_rule():
    assert _rules(machine_for(ReferenceAdapter, "mq")) == _rules(MQMachine)


def test_directed_calls_keep_to_the_selected_families():
    names = {name for name, _ in calls("mq", {"OFFLOAD"})}
    assert names and all(reaches(name, {"OFFLOAD"}) for name in names) and "depth_probe" not in names
