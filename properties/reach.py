"""Which rule families each probe of the state machines can reach: ``--rules`` restricts
generation to the probes that reach a selected rule's family (issue 23).

Plain traffic (puts, gets, drains, ending a unit of work, inspect) reaches every family and is
never left out; so is anything not listed here.
"""

from __future__ import annotations

from collections.abc import Iterable

_TOPOLOGY = frozenset({"TOPOLOGY", "CQS"})  # definitions; CQS-016: CQS fields are invalid for mq
REACH: dict[str, frozenset[str]] = {
    # mq
    "depth_probe": frozenset({"QDEPTH"}),
    "reset_probe": frozenset({"QDEPTH"}),
    "failure_cycle": frozenset({"RECOVERY"}),
    "every_cflevel": frozenset({"CFLEVEL", "OFFLOAD"}),
    "put_everywhere": frozenset({"CFLEVEL", "OFFLOAD"}),
    "large_messages": frozenset({"CFLEVEL", "OFFLOAD"}),
    "alter_structure": frozenset({"OFFLOAD", "CFLEVEL", "CAPACITY", "RECOVERY"}),
    "alter_range_edges": frozenset({"OFFLOAD", "CFLEVEL", "CAPACITY"}),
    "cflevel_steps_down": frozenset({"CFLEVEL"}),
    "define_range_edges": frozenset({"OFFLOAD", "CFLEVEL", "CAPACITY"}),
    "alter_queue": frozenset({"QDEPTH", "CFLEVEL"}),
    "setxcf_alter": frozenset({"CAPACITY"}),
    "_setxcf_to": frozenset({"CAPACITY"}),
    "resize_cycle": frozenset({"CAPACITY"}),
    "unit_of_work": frozenset({"QUEUE", "CAPACITY", "QDEPTH", "CFLEVEL"}),
    "qmgr_outage": frozenset({"QUEUE", "RECOVERY"}),
    "define": _TOPOLOGY,
    "define_past_limit": _TOPOLOGY,
    "structure_name_probe": _TOPOLOGY,
    "queue_without_structure_probe": _TOPOLOGY,
    "queue_limit_probe": _TOPOLOGY,
    "structure_limit_probe": _TOPOLOGY,
    "offload_probe": frozenset({"OFFLOAD"}),
    "offload_rules_probe": frozenset({"OFFLOAD"}),
    "alter_keeps_probe": frozenset({"OFFLOAD"}),
    "level_probe": frozenset({"CFLEVEL", "OFFLOAD", "RECOVERY"}),
    # cqs
    "overflow_cycle": frozenset({"CQS"}),
    "usage_metric_probe": frozenset({"CQS"}),
    "exact_threshold_probe": frozenset({"CQS"}),
    "alter_outcome": frozenset({"CQS", "CAPACITY"}),
    "advance_clock": frozenset({"CQS", "CAPACITY"}),
    "overflow_scan": frozenset({"CQS"}),
}


def reaches(probe: str, families: Iterable[str] | None) -> bool:
    """Whether ``probe`` can reach a rule of ``families`` (None: every family)."""
    if families is None or probe not in REACH:
        return True
    return bool(REACH[probe] & frozenset(families))
