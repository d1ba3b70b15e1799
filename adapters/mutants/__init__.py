"""Deliberately faulty adapters the conformance gate must catch (the mutant catalogue).

Each :class:`Mutant` wraps the reference model with one fault and documents the smallest scenario that exposes it;
``docs/MUTANTS.md`` is generated from this catalogue (:func:`cfconform.adapters.mutants.render.render_markdown`).

    >>> adapter = get_mutant("M-OFFLOAD-002-a")
    >>> [m.id for m in mutants_for_rule("OFFLOAD-003")]
    ['M-OFFLOAD-003-a', 'M-OFFLOAD-003-b']
"""

from __future__ import annotations

from collections.abc import Mapping

from ..protocol import Adapter
from .catalogue import CHECKER_GAPS, MUTANTS, RETIRED, SKIPPED
from .kit import Mutant, MutantAdapter

MUTANT_BY_ID: Mapping[str, Mutant] = {m.id: m for m in MUTANTS}


def get_mutant(mutant_id: str) -> Adapter:
    """A fresh adapter with the fault of mutant ``mutant_id`` (KeyError names the known IDs)."""
    if mutant_id in RETIRED:
        raise KeyError(f"mutant {mutant_id!r} is retired: {RETIRED[mutant_id]}")
    try:
        return MUTANT_BY_ID[mutant_id].factory()
    except KeyError:
        raise KeyError(f"no mutant {mutant_id!r}; known: {', '.join(MUTANT_BY_ID)}") from None


def mutants_for_rule(rule_id: str) -> tuple[Mutant, ...]:
    """The mutants that break ``rule_id``, in ID order."""
    return tuple(m for m in MUTANTS if m.rule == rule_id)


__all__ = [
    "CHECKER_GAPS", "MUTANTS", "MUTANT_BY_ID", "RETIRED", "SKIPPED", "Mutant", "MutantAdapter", "get_mutant",
    "mutants_for_rule",
]  # fmt: skip
