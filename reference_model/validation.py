"""The checks and limits of configuration values (DEVELOPERS.md, principle 7).

Each check names the field, the value, the allowed range and the rule ID.  The records of
:mod:`cfconform.reference_model.config` validate themselves with these checks on construction, and so do
the commands that define or alter objects (:mod:`cfconform.reference_model.admin`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from .errors import ConfigurationError

CFSTRUCT_NAME = re.compile(r"^[A-Z][A-Z0-9]{0,11}$")
QSG_NAME = re.compile(r"^[A-Z][A-Z0-9]{0,3}$")
#: "up to four characters" (TOPOLOGY-015)
QSG_MAX_LENGTH = 4
ADMIN_NAME = "CSQ_ADMIN"
SYSAPPL_NAME = "CSQSYSAPPL"
MAX_STRUCTURES_PER_QSG = 64
MAX_QUEUES_PER_STRUCTURE = 512
MAX_QMGRS_PER_STRUCTURE = 32
LGMSGSZ_MAX = 30632


#: Rules whose bounds no IBM sentence states (ibm-facts: NOT FOUND, AMBIGUOUS): a value outside them
#: is the implementation's to accept or refuse, so in checker mode the model can be told to accept.
UNDECIDED_BOUNDS = frozenset({"OFFLOAD-011", "CQS-002", "QDEPTH-018", "CFLEVEL-010"})
_LENIENT: ContextVar[frozenset[str]] = ContextVar("lenient_rules", default=frozenset())


@contextmanager
def lenient(rules: frozenset[str] = UNDECIDED_BOUNDS) -> Iterator[None]:
    """Within this block, values outside the bounds of ``rules`` are accepted."""
    token = _LENIENT.set(rules)
    try:
        yield
    finally:
        _LENIENT.reset(token)


def reject(field: str, value: Any, allowed: str, rule_id: str) -> None:
    """Raise :class:`ConfigurationError` for ``rule_id``, unless the rule is :func:`lenient` here."""
    if rule_id not in _LENIENT.get():
        raise ConfigurationError(field, value, allowed, rule_id)


def check_int(field: str, value: Any, lo: int, hi: int | None, rule_id: str) -> None:
    """Raise unless ``value`` is an int in ``lo..hi`` (``hi=None``: no upper bound)."""
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= lo
    if ok and hi is not None:
        ok = value <= hi
    if not ok:
        allowed = f"an integer {lo}..{hi}" if hi is not None else f"an integer >= {lo}"
        reject(field, value, allowed, rule_id)


def check_bool(field: str, value: Any, rule_id: str) -> None:
    if not isinstance(value, bool):
        reject(field, value, "true or false", rule_id)


def check_cfstruct_name(field: str, name: Any) -> None:
    """TOPOLOGY-001 and TOPOLOGY-009: CSQ_ADMIN holds no messages; names are A-Z then A-Z0-9, <= 12."""
    if name == ADMIN_NAME:
        reject(field, name, "any name but CSQ_ADMIN (the admin structure holds no messages)", "TOPOLOGY-001")
    if not isinstance(name, str) or not CFSTRUCT_NAME.match(name):
        reject(field, name, "1-12 characters, A-Z first, then A-Z or 0-9", "TOPOLOGY-009")


def check_int_field(record: str, name: str, value: Any, lo: int, hi: int | None, rule_id: str) -> None:
    """:func:`check_int` of ``record``'s field ``name``, its full name spelt only when it fails: a
    valid value is let through at once (the generator builds several records a trace)."""
    if type(value) is int and value >= lo and (hi is None or value <= hi):
        return
    check_int(f"{record}.{name}", value, lo, hi, rule_id)


def check_bool_field(record: str, name: str, value: Any, rule_id: str) -> None:
    """:func:`check_bool` of ``record``'s field ``name`` (see :func:`check_int_field`)."""
    if value is not True and value is not False:
        check_bool(f"{record}.{name}", value, rule_id)


@functools.lru_cache(maxsize=4096)
def plain_cfstruct_name(name: str) -> bool:
    """Whether ``name`` passes :func:`check_cfstruct_name` (remembered: a handful of names recur, in
    every configuration and every ``inspect``)."""
    return name != ADMIN_NAME and bool(CFSTRUCT_NAME.match(name))


def check_name_field(record: str, name: str, value: Any) -> None:
    """:func:`check_cfstruct_name` of ``record``'s field ``name`` (see :func:`check_int_field`)."""
    if type(value) is not str or not plain_cfstruct_name(value):
        check_cfstruct_name(f"{record}.{name}", value)


def check_structure_count(names: list[str], field: str = "structures") -> None:
    """TOPOLOGY-002/003/004: at least one application structure; at most 63 beside CSQ_ADMIN.

    Seed 001: 64 structures per QSG, one of them CSQ_ADMIN; "up to 63 (62 if
    CSQSYSAPPL is defined) structures for message data", so CSQSYSAPPL counts
    among the 63 application structures.
    """
    if not names:
        reject(field, 0, "at least 1 application structure beside CSQ_ADMIN", "TOPOLOGY-002")
    limit = MAX_STRUCTURES_PER_QSG - 1
    if len(names) > limit:
        if SYSAPPL_NAME in names:
            reject(
                field,
                len(names),
                f"at most {limit} application structures: CSQSYSAPPL and {limit - 1} for message data",
                "TOPOLOGY-004",
            )
        reject(field, len(names), f"at most {limit} application structures", "TOPOLOGY-003")


def round_lgmsgsz(value: int) -> int:
    """CQS-021: LGMSGSZ is rounded up to a multiple of 4 and capped at 30632 bytes."""
    return min(LGMSGSZ_MAX, (value + 3) // 4 * 4)
