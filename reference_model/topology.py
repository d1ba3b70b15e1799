"""QSG topology helpers: structure names, CSQ_ADMIN sizing and the CSQSYSAPPL suggestion.

Pure functions over IBM's published numbers (seed 001, seed 003, ibm-facts 2.6 and 6.2):

- TOPOLOGY-007: CSQ_ADMIN needs 1000 list entries per queue manager defined in the QSG.
- TOPOLOGY-008: Table 1 gives the minimum CSQ_ADMIN size (versioned: ``cfcc14``, ``v6``).
- TOPOLOGY-010: the CF structure name is the QSG name padded with ``@`` to four
  characters, followed by the CFSTRUCT name (SQ03 + MYDATA = SQ03MYDATA).
- TOPOLOGY-011/012: CSQSYSAPPL's suggested CFRM statements and its Table 3 queues.

Bad arguments raise :class:`~cfconform.reference_model.errors.ConfigurationError` naming the
field, the value, the allowed range and the rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from .errors import ConfigurationError
from .tables import (
    ADMIN_TABLES,
    CSQSYSAPPL_FULLTHRESHOLD,
    CSQSYSAPPL_INITSIZE_KB,
    CSQSYSAPPL_QUEUES,
    CSQSYSAPPL_SIZE_KB,
    admin_min_kb,
)
from .validation import (
    MAX_QMGRS_PER_STRUCTURE,
    QSG_NAME,
    SYSAPPL_NAME,
    check_cfstruct_name,
    check_int,
    plain_cfstruct_name,
)

#: TOPOLOGY-007: list entries CSQ_ADMIN needs per queue manager defined in the QSG.
ADMIN_ENTRIES_PER_QMGR = 1000
#: TOPOLOGY-010: the QSG part of a CF structure name is always four characters.
QSG_PREFIX_LENGTH = 4
#: TOPOLOGY-012 (Table 3): SYSTEM.QSG.CHANNEL.SYNCQ holds 2 messages of 500 bytes per
#: active shared channel instance; SYSTEM.QSG.UR.RESOLUTION.QUEUE 1000 messages of 2 KB.
SYNCQ = "SYSTEM.QSG.CHANNEL.SYNCQ"
UR_RESOLUTION_QUEUE = "SYSTEM.QSG.UR.RESOLUTION.QUEUE"
SYNCQ_MESSAGES_PER_CHANNEL = 2
SYNCQ_MESSAGE_BYTES = 500
UR_RESOLUTION_MESSAGES = 1000
UR_RESOLUTION_MESSAGE_BYTES = 2 * 1024


def _check_qmgrs(qmgrs: Any) -> None:
    check_int("qmgrs", qmgrs, 1, MAX_QMGRS_PER_STRUCTURE, "TOPOLOGY-006")


def admin_entries_needed(qmgrs: int) -> int:
    """TOPOLOGY-007: list entries CSQ_ADMIN needs for ``qmgrs`` queue managers (1000 each)."""
    _check_qmgrs(qmgrs)
    return ADMIN_ENTRIES_PER_QMGR * qmgrs


def structure_name(qsg: str, cfstruct: str) -> str:
    """TOPOLOGY-010: the CFRM structure name of CFSTRUCT ``cfstruct`` in QSG ``qsg``.

    The QSG name is padded with ``@`` to four characters: ``("SQ03", "MYDATA")``
    gives ``SQ03MYDATA`` and ``("QS", "APP")`` gives ``QS@@APP``.
    """
    if not isinstance(qsg, str) or not QSG_NAME.match(qsg):
        raise ConfigurationError("qsg", qsg, "1-4 characters, A-Z first, then A-Z or 0-9", "TOPOLOGY-010")
    if type(cfstruct) is not str or not plain_cfstruct_name(cfstruct):  # (a plain name: no check to spell)
        check_cfstruct_name("cfstruct", cfstruct)
    return qsg.ljust(QSG_PREFIX_LENGTH, "@") + cfstruct


def cfname_or_none(qsg: Any, cfstruct: str) -> str | None:
    """:func:`structure_name`, or None when the QSG or structure name breaks the naming rules."""
    try:
        return structure_name(qsg, cfstruct)
    except ConfigurationError:
        return None


def admin_least(config: Any) -> dict[str, int]:
    """The least a CSQ_ADMIN structure may offer for ``config``'s queue managers: 1000 list entries
    each (TOPOLOGY-007) and Table 1's minimum size, where the edition publishes one (TOPOLOGY-008)."""
    qmgrs = max(1, min(len(config.qmgrs), MAX_QMGRS_PER_STRUCTURE))
    out = {"entries_total": admin_entries_needed(qmgrs)}
    minimum = admin_min_kb(qmgrs, config.admin_table) if config.admin_table in ADMIN_TABLES else None
    if minimum is not None:
        out["size_kb"] = minimum
    return out


@attrs.frozen
class CsqsysapplSuggestion:
    """TOPOLOGY-011/012: the seed's suggested CSQSYSAPPL CFRM statements and Table 3."""

    name: str
    initsize_kb: int
    size_kb: int
    fullthreshold: int
    queues: Mapping[str, str]


def csqsysappl_suggested() -> CsqsysapplSuggestion:
    """The suggested ``STRUCTURE NAME(qsg-nameCSQSYSAPPL) INITSIZE(20480) SIZE(30720)
    FULLTHRESHOLD(85)`` and the default queues of Table 3 (seed 001)."""
    return CsqsysapplSuggestion(
        SYSAPPL_NAME, CSQSYSAPPL_INITSIZE_KB, CSQSYSAPPL_SIZE_KB, CSQSYSAPPL_FULLTHRESHOLD,
        dict(CSQSYSAPPL_QUEUES),
    )  # fmt: skip


def csqsysappl_messages(shared_channels: int) -> dict[str, tuple[int, int]]:
    """TOPOLOGY-012 (Table 3): ``{queue: (messages, bytes per message)}`` for
    ``shared_channels`` active shared channel instances."""
    check_int("shared_channels", shared_channels, 0, None, "TOPOLOGY-012")
    return {
        SYNCQ: (SYNCQ_MESSAGES_PER_CHANNEL * shared_channels, SYNCQ_MESSAGE_BYTES),
        UR_RESOLUTION_QUEUE: (UR_RESOLUTION_MESSAGES, UR_RESOLUTION_MESSAGE_BYTES),
    }


@attrs.frozen
class AdminCheck:
    """The verdict of :func:`admin_check`.

    Attributes:
        qmgrs, size_kb, table: the arguments.
        entries_needed: list entries CSQ_ADMIN needs (TOPOLOGY-007).
        minimum_kb: Table 1's minimum for ``qmgrs`` (the next published row at or
            above it), or ``None`` when the edition publishes no such row.
        ok: ``size_kb >= minimum_kb``; ``None`` when the table has no row to judge by.
    """

    qmgrs: int
    size_kb: int
    table: str
    entries_needed: int
    minimum_kb: int | None
    ok: bool | None


def admin_check(qmgrs: int, size_kb: int, table: str = "cfcc14") -> AdminCheck:
    """TOPOLOGY-007/008: is a CSQ_ADMIN of ``size_kb`` KB large enough for ``qmgrs`` queue managers?"""
    _check_qmgrs(qmgrs)
    check_int("admin_size_kb", size_kb, 1, None, "TOPOLOGY-008")
    if table not in ADMIN_TABLES:
        raise ConfigurationError("admin_table", table, f"one of {sorted(ADMIN_TABLES)}", "TOPOLOGY-008")
    minimum = admin_min_kb(qmgrs, table)
    ok = None if minimum is None else size_kb >= minimum
    return AdminCheck(qmgrs, size_kb, table, admin_entries_needed(qmgrs), minimum, ok)
