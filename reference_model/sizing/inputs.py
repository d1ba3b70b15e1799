"""The inputs of ``cfconform size``: their checks, their bounds and seed 001's defaults.

Every sizing function refuses a value outside its range with a :class:`ConfigurationError` naming
the rule the range comes from (SIZING-001/004/005, CAPACITY-009, TOPOLOGY-006/010/012/014); the
largest message count is 512 shared queues (TOPOLOGY-005) at the largest MAXDEPTH (QDEPTH-018).
The defaults are those of seed 001's CFRM example (SIZING-003, TOPOLOGY-011).
"""

from __future__ import annotations

from ..errors import ConfigurationError
from ..topology import QSG_PREFIX_LENGTH
from ..units import SIZE_100MB
from ..validation import MAX_QUEUES_PER_STRUCTURE, QSG_NAME

#: FULLTHRESHOLD of the seed 001 CFRM examples (SIZING-003, TOPOLOGY-011).
SEED_FULLTHRESHOLD = 85
#: The structure name of the seed 001 CFRM example.
SEED_STRUCTURE_NAME = "QSG1APPLICATION1"
#: The QSG name of that example (QSG1 + APPLICATION1), used to name CSQ_ADMIN and CSQSYSAPPL.
SEED_QSG = "QSG1"
#: MAXDEPTH's largest value as the model takes it (QDEPTH-018): no queue holds more messages.
MAXDEPTH_MAX = 999_999_999
#: The most messages an application structure can be asked to hold: 512 shared queues
#: (seed 001, "Each structure can hold up to 512 shared queues") at MAXDEPTH 999,999,999.
MAX_MESSAGES = MAX_QUEUES_PER_STRUCTURE * MAXDEPTH_MAX


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_int(field: str, value: object, lo: int, hi: int, rule_id: str) -> int:
    if not _is_int(value) or not lo <= value <= hi:
        raise ConfigurationError(field, value, f"an integer {lo}..{hi}", rule_id)
    return value


def _check_count(field: str, value: object, rule_id: str) -> int:
    if not _is_int(value) or value < 0:
        raise ConfigurationError(field, value, "an integer >= 0", rule_id)
    return value


def _check_length(field: str, value: object, rule_id: str) -> int:
    if not _is_int(value) or not 0 <= value <= SIZE_100MB:
        raise ConfigurationError(field, value, f"an integer 0..{SIZE_100MB} (bytes)", rule_id)
    return value


def _check_fullthreshold(value: object) -> int:
    return _check_int("fullthreshold", value, 0, 100, "CAPACITY-009")


def _check_qsg(qsg: object) -> str:
    if not isinstance(qsg, str) or not QSG_NAME.match(qsg):
        raise ConfigurationError("qsg", qsg, "1-4 characters, A-Z first, then A-Z or 0-9", "TOPOLOGY-010")
    return qsg


def _qsg_structure(qsg: str, suffix: str) -> str:
    """``qsg-name`` padded with ``@`` to four characters, then ``suffix`` (TOPOLOGY-010)."""
    return _check_qsg(qsg).ljust(QSG_PREFIX_LENGTH, "@") + suffix
