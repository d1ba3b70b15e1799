"""The rule catalogue: every documented rule as data (docs/rule-ids.md is the ID plan).

:data:`RULES` holds every :class:`~cfconform.reference_model.rules.catalogue.Rule`, in
family order (:data:`FAMILIES`) then by number; :data:`RULE_BY_ID` and
:func:`rule` look one up.  ``cfconform rules`` renders the catalogue, and
docs/RULES.md is generated from it.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from . import capacity, cflevel, cqs, offload, qdepth, queue, recovery, sizing, topology
from .catalogue import RULE_ID, STATUSES, Citation, Rule

#: Rule families in catalogue order (the same order as ``cfconform.adapters.protocol.FAMILIES``).
FAMILIES: tuple[str, ...] = (
    "CQS",
    "OFFLOAD",
    "CFLEVEL",
    "CAPACITY",
    "TOPOLOGY",
    "SIZING",
    "QDEPTH",
    "RECOVERY",
    "QUEUE",
)

#: One line per family, for headings in reports.
FAMILY_TITLES: Mapping[str, str] = {
    "CQS": "IMS CQS structure overflow",
    "OFFLOAD": "MQ offload rules and options",
    "CFLEVEL": "What each CFLEVEL allows",
    "CAPACITY": "Full structures, FULLTHRESHOLD and SETXCF alter",
    "TOPOLOGY": "Structures, queues and queue managers of a queue-sharing group",
    "SIZING": "Application structure sizing",
    "QDEPTH": "Queue depth events",
    "RECOVERY": "BACKUP and RECOVER CFSTRUCT, structure failure",
    "QUEUE": "Queue semantics the other rules rely on",
}

_MODULES = (cqs, offload, cflevel, capacity, topology, sizing, qdepth, recovery, queue)


def sort_key(rule_id: str) -> tuple[int, int]:
    """Catalogue order of an ID: family order, then number."""
    family, number = rule_id.split("-", 1)
    return FAMILIES.index(family), int(number)


RULES: tuple[Rule, ...] = tuple(sorted((r for m in _MODULES for r in m.RULES), key=lambda r: sort_key(r.id)))
RULE_BY_ID: Mapping[str, Rule] = {r.id: r for r in RULES}


def rule(rule_id: str) -> Rule:
    """The rule with ID ``rule_id``; a KeyError names close matches when there is none."""
    try:
        return RULE_BY_ID[rule_id]
    except KeyError:
        close = difflib.get_close_matches(str(rule_id).upper(), RULE_BY_ID, n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise KeyError(f"no rule {rule_id!r} in the catalogue{hint}") from None


def rules_of(family: str) -> tuple[Rule, ...]:
    """The rules of one family, in catalogue order."""
    return tuple(r for r in RULES if r.family == family)


__all__ = [
    "FAMILIES",
    "FAMILY_TITLES",
    "RULES",
    "RULE_BY_ID",
    "RULE_ID",
    "STATUSES",
    "Citation",
    "Rule",
    "rule",
    "rules_of",
    "sort_key",
]
