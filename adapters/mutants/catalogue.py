"""The mutant catalogue: every family's mutants in rule order, and the rules left without one.

Each family module (``cqs_family``, ``offload_family``, ...) holds the mutants of
its rules; this module only gathers them and says which rules have no mutant
and why (``SKIPPED``), so that ``docs/MUTANTS.md`` and the tests can check that
every rule with an observable effect has at least one.
"""

from __future__ import annotations

from collections.abc import Mapping

from adapters.mutants import (
    capacity_family,
    cflevel_family,
    cqs_family,
    offload_family,
    qdepth_family,
    queue_family,
    recovery_family,
    topology_family,
)
from adapters.mutants.kit import Mutant

_ADVICE = "advice or a worked example for choosing OFFLD3TH: no behaviour an implementation could get wrong"
_SIZING = (
    "a sizing-calculator rule (the model's own accounting against IBM's tables, `cfconform size`), "
    "not a behaviour of an implementation; element accounting is implementation-defined and compared "
    "with a tolerance"
)
_CONFIG = "configuration-time advice or naming: checked when the configuration is built, never by an operation"

#: Rules with no mutant, and why (no observable effect an implementation could get wrong).
SKIPPED: Mapping[str, str] = {
    "OFFLOAD-008": _ADVICE,
    "OFFLOAD-009": _ADVICE,
    "OFFLOAD-010": _ADVICE,
    "CAPACITY-007": "best-practice advice (INITSIZE and SIZE within a factor of 2): a warning, never an outcome",
    "TOPOLOGY-002": (
        "checked when the configuration is built (at least one application structure); no operation "
        "removes a structure, so no outcome can depend on it"
    ),
    "TOPOLOGY-007": f"CSQ_ADMIN sizing, {_CONFIG}",
    "TOPOLOGY-008": f"CSQ_ADMIN minimum sizes (Table 1), {_CONFIG}",
    "TOPOLOGY-010": f"the QSG name and structure-name prefix, {_CONFIG}",
    "TOPOLOGY-011": f"CSQSYSAPPL's default queues and suggested sizes, {_CONFIG}",
    "TOPOLOGY-012": f"CSQSYSAPPL sizing (Table 3), {_CONFIG}",
    **{f"SIZING-00{n}": _SIZING for n in range(1, 6)},
}

_FAMILIES = (
    cqs_family,
    offload_family,
    cflevel_family,
    capacity_family,
    topology_family,
    qdepth_family,
    recovery_family,
    queue_family,
)


def _rule_order(rule: str) -> tuple[int, int]:
    from reference_model.rules import RULES

    order = {r.id: i for i, r in enumerate(RULES)}
    return order.get(rule, len(order)), int(rule.rsplit("-", 1)[1])


def _gather() -> tuple[Mutant, ...]:
    found = [m for family in _FAMILIES for m in family.MUTANTS]
    return tuple(sorted(found, key=lambda m: (_rule_order(m.rule), m.id)))


MUTANTS: tuple[Mutant, ...] = _gather()
