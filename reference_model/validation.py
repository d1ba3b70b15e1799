"""Validation of configuration records (DEVELOPERS.md, principle 7).

Each check names the field, the value, the allowed range and the rule ID.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from reference_model.errors import ConfigurationError
from reference_model.tables import ADMIN_TABLES
from reference_model.units import SIZE_100MB

if TYPE_CHECKING:
    from reference_model.config import Config, QueueDef, StructureDef

CFSTRUCT_NAME = re.compile(r"^[A-Z][A-Z0-9]{0,11}$")
QSG_NAME = re.compile(r"^[A-Z][A-Z0-9]{0,3}$")
ADMIN_NAME = "CSQ_ADMIN"
SYSAPPL_NAME = "CSQSYSAPPL"
MAX_STRUCTURES_PER_QSG = 64
MAX_QUEUES_PER_STRUCTURE = 512
MAX_QMGRS_PER_STRUCTURE = 32
LGMSGSZ_MAX = 30632


#: Rules whose bounds no IBM sentence states (ibm-facts: NOT FOUND, AMBIGUOUS): a value outside them
#: is the implementation's to accept or refuse, so in checker mode the model can be told to accept.
UNDECIDED_BOUNDS = frozenset({"OFFLOAD-011", "CQS-002"})
_LENIENT: ContextVar[frozenset[str]] = ContextVar("lenient_rules", default=frozenset())


@contextmanager
def lenient(rules: frozenset[str] = UNDECIDED_BOUNDS) -> Iterator[None]:
    """Within this block, values outside the bounds of ``rules`` are accepted."""
    token = _LENIENT.set(rules)
    try:
        yield
    finally:
        _LENIENT.reset(token)


def _raise(field: str, value: Any, allowed: str, rule_id: str) -> None:
    if rule_id not in _LENIENT.get():
        raise ConfigurationError(field, value, allowed, rule_id)


def check_int(field: str, value: Any, lo: int, hi: int | None, rule_id: str) -> None:
    """Raise unless ``value`` is an int in ``lo..hi`` (``hi=None``: no upper bound)."""
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= lo
    if ok and hi is not None:
        ok = value <= hi
    if not ok:
        allowed = f"an integer {lo}..{hi}" if hi is not None else f"an integer >= {lo}"
        _raise(field, value, allowed, rule_id)


def check_bool(field: str, value: Any, rule_id: str) -> None:
    if not isinstance(value, bool):
        _raise(field, value, "true or false", rule_id)


def check_cfstruct_name(field: str, name: Any) -> None:
    """TOPOLOGY-001 and TOPOLOGY-009: CSQ_ADMIN holds no messages; names are A-Z then A-Z0-9, <= 12."""
    if name == ADMIN_NAME:
        _raise(field, name, "any name but CSQ_ADMIN (the admin structure holds no messages)", "TOPOLOGY-001")
    if not isinstance(name, str) or not CFSTRUCT_NAME.match(name):
        _raise(field, name, "1-12 characters, A-Z first, then A-Z or 0-9", "TOPOLOGY-009")


def validate_structure(s: StructureDef) -> None:
    """Check one structure definition (MQ and CQS fields)."""
    f = f"structures[{s.name}]"
    check_cfstruct_name(f"{f}.name", s.name)
    check_int(f"{f}.size_kb", s.size_kb, 1, None, "CAPACITY-008")
    if s.initsize_kb is not None:
        check_int(f"{f}.initsize_kb", s.initsize_kb, 1, s.size_kb, "CAPACITY-008")
    check_int(f"{f}.fullthreshold", s.fullthreshold, 0, 100, "CAPACITY-009")
    check_int(f"{f}.ratio", s.ratio, 1, 255, "SIZING-005")
    check_int(f"{f}.cflevel", s.cflevel, 1, 5, "CFLEVEL-001")
    check_bool(f"{f}.recover", s.recover, "CFLEVEL-007")
    # RECOVER(YES) below CFLEVEL(3): whether DEFINE refuses it is not documented (ibm-facts 2.6, AMBIGUOUS)
    if s.offload is not None:
        if s.offload not in ("SMDS", "DB2"):
            _raise(f"{f}.offload", s.offload, "SMDS or DB2", "OFFLOAD-006")
        if s.cflevel < 5:
            _raise(f"{f}.offload", s.offload, "OFFLOAD only with CFLEVEL(5)", "OFFLOAD-007")
    for n in (1, 2, 3):
        check_int(f"{f}.offld{n}th", getattr(s, f"offld{n}th"), 0, 100, "OFFLOAD-011")
        check_int(f"{f}.offld{n}sz", getattr(s, f"offld{n}sz"), 0, 64 * 1024, "OFFLOAD-011")
    _validate_cqs_fields(f, s)


def _validate_cqs_fields(f: str, s: StructureDef) -> None:
    check_bool(f"{f}.resource", s.resource, "CQS-016")
    if s.resource and (s.ovflwmax is not None or s.ovflwstr is not None):
        field, value = (f"{f}.ovflwstr", s.ovflwstr) if s.ovflwstr is not None else (f"{f}.ovflwmax", s.ovflwmax)
        _raise(field, value, "no overflow on a resource structure", "CQS-016")
    if s.ovflwmax is not None:
        check_int(f"{f}.ovflwmax", s.ovflwmax, 0, 100, "CQS-002")
    if s.ovflwstr is not None:
        check_cfstruct_name(f"{f}.ovflwstr", s.ovflwstr)
        if s.ovflwstr == s.name:
            _raise(f"{f}.ovflwstr", s.ovflwstr, "a name other than the primary's", "CQS-011")
    check_int(f"{f}.ovflw_size_kb", s.ovflw_size_kb, 1, None, "CAPACITY-008")


def validate_queue(q: QueueDef) -> None:
    """Check one queue definition."""
    f = f"queues[{q.name}]"
    if not isinstance(q.name, str) or not q.name:  # no document states the name rules
        _raise(f"{f}.name", q.name, "a non-empty name", "TOPOLOGY-013")
    if q.cfstruct is not None:
        check_cfstruct_name(f"{f}.cfstruct", q.cfstruct)
    check_int(f"{f}.maxdepth", q.maxdepth, 0, 999_999_999, "QDEPTH-014")
    check_int(f"{f}.maxmsgl", q.maxmsgl, 0, SIZE_100MB, "CFLEVEL-005")
    check_int(f"{f}.qdepthhi", q.qdepthhi, 0, 100, "QDEPTH-014")
    check_int(f"{f}.qdepthlo", q.qdepthlo, 0, 100, "QDEPTH-014")
    for flag in ("qdphiev", "qdploev", "qdpmaxev"):
        check_bool(f"{f}.{flag}", getattr(q, flag), "QDEPTH-014")


def validate_config(c: Config) -> None:
    """Check the whole configuration, including limits across records."""
    from reference_model.config import PROFILES

    if c.profile not in PROFILES:
        _raise("profile", c.profile, f"one of {list(PROFILES)}", "TOPOLOGY-002")
    if not isinstance(c.qsg, str) or not QSG_NAME.match(c.qsg):
        _raise("qsg", c.qsg, "1-4 characters, A-Z first, then A-Z or 0-9", "TOPOLOGY-010")
    _validate_qmgrs(c)
    _validate_structures(c)
    _validate_queues(c)
    check_int("lgmsgsz", c.lgmsgsz, 1, None, "CQS-021")
    if c.admin_table not in ADMIN_TABLES:
        _raise("admin_table", c.admin_table, f"one of {sorted(ADMIN_TABLES)}", "TOPOLOGY-008")
    _validate_admin(c)


def _validate_qmgrs(c: Config) -> None:
    # 32 is the limit of queue managers connected to one structure at once (seed 003), not of a QSG's
    # members (ibm-facts 6.3, AMBIGUOUS); queue manager name rules are not in the documents
    if not c.qmgrs:
        _raise("qmgrs", 0, "at least 1 queue manager", "TOPOLOGY-006")
    for name in c.qmgrs:
        if not isinstance(name, str) or not name:
            _raise(f"qmgrs[{name}]", name, "a non-empty name", "TOPOLOGY-006")
    dup = [n for n, k in Counter(c.qmgrs).items() if k > 1]
    if dup:
        _raise("qmgrs", dup[0], "unique queue manager names", "TOPOLOGY-006")
    for name in c.perfmev_disabled:
        if name not in c.qmgrs:
            _raise("perfmev_disabled", name, f"one of {list(c.qmgrs)}", "QDEPTH-009")


def check_structure_count(names: list[str], field: str = "structures") -> None:
    """TOPOLOGY-002/003/004: at least one application structure; at most 63 beside CSQ_ADMIN.

    Seed 001: 64 structures per QSG, one of them CSQ_ADMIN; "up to 63 (62 if
    CSQSYSAPPL is defined) structures for message data", so CSQSYSAPPL counts
    among the 63 application structures.
    """
    if not names:
        _raise(field, 0, "at least 1 application structure beside CSQ_ADMIN", "TOPOLOGY-002")
    limit = MAX_STRUCTURES_PER_QSG - 1
    if len(names) > limit:
        if SYSAPPL_NAME in names:
            _raise(
                field,
                len(names),
                f"at most {limit} application structures: CSQSYSAPPL and {limit - 1} for message data",
                "TOPOLOGY-004",
            )
        _raise(field, len(names), f"at most {limit} application structures", "TOPOLOGY-003")


def _validate_structures(c: Config) -> None:
    names = [s.name for s in c.structures]
    check_structure_count(names)
    dup = [n for n, k in Counter(names).items() if k > 1]
    if dup:
        _raise(f"structures[{dup[0]}]", dup[0], "unique structure names", "TOPOLOGY-009")
    for s in c.structures:
        if c.profile == "mq" and (s.ovflwmax is not None or s.ovflwstr is not None or s.resource):
            _raise(f"structures[{s.name}].ovflwstr", s.ovflwstr, "no CQS overflow fields in the mq profile", "CQS-016")
        if s.ovflwstr is not None and s.ovflwstr in names:
            _raise(
                f"structures[{s.name}].ovflwstr", s.ovflwstr, "a name not used by another primary structure", "CQS-011"
            )


def _validate_queues(c: Config) -> None:
    structures = {s.name for s in c.structures}
    per_structure: Counter[str] = Counter()
    seen: set[str] = set()
    for q in c.queues:
        check_queue_against(c, q, structures, seen)
        seen.add(q.name)
        if q.cfstruct is not None:
            per_structure[q.cfstruct] += 1
            if per_structure[q.cfstruct] > MAX_QUEUES_PER_STRUCTURE:
                _raise(
                    f"queues[{q.name}].cfstruct",
                    q.cfstruct,
                    f"at most {MAX_QUEUES_PER_STRUCTURE} queues per structure",
                    "TOPOLOGY-005",
                )


def check_queue_against(c: Config, q: QueueDef, structures: set[str], existing: set[str]) -> None:
    """Checks of a queue definition that depend on the rest of the configuration."""
    f = f"queues[{q.name}]"
    if q.name in existing:
        _raise(f"{f}.name", q.name, "a name not already defined", "TOPOLOGY-013")
    if q.cfstruct is None:
        if c.profile == "cqs":
            _raise(f"{f}.cfstruct", None, "a defined structure (CQS queues live on one)", "TOPOLOGY-013")
        if q.qmgr not in c.qmgrs:
            _raise(f"{f}.qmgr", q.qmgr, f"an owning queue manager, one of {list(c.qmgrs)}", "QDEPTH-008")
    elif q.cfstruct not in structures:
        _raise(f"{f}.cfstruct", q.cfstruct, f"a defined structure, one of {sorted(structures)}", "TOPOLOGY-013")


def _validate_admin(c: Config) -> None:
    """CSQ_ADMIN's size, when given, is a positive number of KB.

    Table 1 gives minimum sizes "established for a CFCC level 14" (TOPOLOGY-008): a smaller CSQ_ADMIN
    is a configuration an implementation may refuse (the gate drops the case), not one the documents
    forbid, so the model does not refuse it; ``cfconform size`` gives the table's figure.
    """
    if c.admin_size_kb is not None:
        check_int("admin_size_kb", c.admin_size_kb, 1, None, "TOPOLOGY-008")


def round_lgmsgsz(value: int) -> int:
    """CQS-021: LGMSGSZ is rounded up to a multiple of 4 and capped at 30632 bytes."""
    return min(LGMSGSZ_MAX, (value + 3) // 4 * 4)
