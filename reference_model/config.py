"""Validated configuration records: structures, queues and the QSG around them.

Two profiles share these records: ``mq`` (IBM MQ for z/OS shared queues) and
``cqs`` (IMS Common Queue Server structures).  Every record validates itself on
construction (the checks at the end of this module, over those of
:mod:`cfconform.reference_model.validation`) and raises
:class:`~cfconform.reference_model.errors.ConfigurationError` naming the field, the value,
the allowed range and the rule.
"""

from __future__ import annotations

from collections import Counter
from operator import attrgetter
from typing import Any

import attrs

from .readings import Readings
from .tables import ADMIN_TABLES
from .units import KB, SIZE_100MB
from .validation import (
    MAX_QMGRS_PER_STRUCTURE,
    MAX_QUEUES_PER_STRUCTURE,
    QSG_MAX_LENGTH,
    QSG_NAME,
    check_bool_field,
    check_int,
    check_int_field,
    check_name_field,
    check_structure_count,
    reject,
)

PROFILES = ("mq", "cqs")
MAXDEPTH_MAX = 999_999_999
MQ_MAXMSGL_DEFAULT = 4 * 1024 * KB


@attrs.frozen
class Accounting:
    """How the model charges coupling-facility storage (SIZING-005, OFFLOAD-005).

    IBM leaves element and entry sizes implementation-defined; these defaults are
    calibrated so that the model reproduces Table 2 of seed 001 (see
    ``cfconform.reference_model.sizing``).  ``overhead`` is the ratio of structure storage
    to the storage charged for entries and elements (control structures), and
    ``fixed_kb`` the storage a structure needs before it holds anything.
    """

    element_bytes: int = 256
    entry_bytes: int = 256
    header_bytes: int = 128
    overhead: float = 1.3142
    fixed_kb: int = 6144
    offloaded_elements: int = 2


@attrs.frozen
class StructureDef:
    """A CF application structure (``DEFINE CFSTRUCT``) or a CQS primary structure.

    MQ fields follow ``DEFINE CFSTRUCT``; sizes follow the CFRM policy
    (INITSIZE/SIZE in KB, FULLTHRESHOLD in percent).  CQS fields follow
    CQSSGxxx (OVFLWMAX, OVFLWSTR) and mark resource structures.
    """

    name: str
    size_kb: int = 8192
    initsize_kb: int | None = None
    fullthreshold: int = 80
    ratio: int = 6
    cflevel: int = 3
    recover: bool = False
    offload: str | None = None
    offld1th: int = 70
    offld1sz: int = 32 * KB
    offld2th: int = 80
    offld2sz: int = 4 * KB
    offld3th: int = 90
    offld3sz: int = 0
    ovflwmax: int | None = None
    ovflwstr: str | None = None
    ovflw_size_kb: int = 8192
    resource: bool = False

    def __attrs_post_init__(self) -> None:
        validate_structure(self)

    @property
    def effective_initsize_kb(self) -> int:
        return self.size_kb if self.initsize_kb is None else self.initsize_kb

    @property
    def effective_offload(self) -> str | None:
        """OFFLOAD(SMDS) is the default at CFLEVEL(5) (OFFLOAD-006); no offload target below."""
        if self.cflevel < 5:
            return None
        return self.offload or "SMDS"

    @property
    def offload_target(self) -> str | None:
        """Where this structure offloads message data: ``"SMDS"``, ``"DB2"``, or None (it never offloads).

        The value of a successful put's ``Outcome.location`` when the message is
        offloaded (``"CF"`` when it is not).

        - OFFLOAD(SMDS|DB2) chooses the target and OFFLOAD(SMDS) is the default
          (seed 002, "Selecting where the shared queue messages are stored": "The
          selection of SMDS or Db2 shared message storage is controlled with the
          OFFLOAD(SMDS|DB2) parameter on the CFSTRUCT definition. OFFLOAD(SMDS) is
          the default value."; ibm-facts 2.1 [SEED]): :attr:`effective_offload`.
        - The keyword needs CFLEVEL(5) (seed 002: "This parameter also requires the
          CFSTRUCT to use CFLEVEL(5) or greater"; ibm-facts 2.6), and SMDS came with
          CFLEVEL(5) and the V7.1 offload rules; before V7.1, messages over 63 KB were
          stored in a shared Db2 table (ibm-facts 2.5 [SRC], from the V7.1/V7.5
          Redbook's SMDS chapter).  Seed 003 lists CFLEVEL 4 as holding "messages up
          to 100 MB" and only CFLEVEL 5 as "selectively offloaded to shared message
          data sets (SMDS) or Db2".  So a CFLEVEL(4) structure, which offloads only
          messages too large for an entry (OFFLOAD-004), offloads them to Db2.  That
          step is our inference [INFER]: no IBM text we hold names the target at
          CFLEVEL(4) in so many words.
        - Below CFLEVEL(4) nothing is offloaded: a message over 63 KB is refused
          (CFLEVEL-003).
        """
        if self.cflevel < 4:
            return None
        return self.effective_offload or "DB2"

    @property
    def effective_ovflwmax(self) -> int:
        """OVFLWMAX defaults to 70% (CQS-001)."""
        return 70 if self.ovflwmax is None else self.ovflwmax


@attrs.frozen
class QueueDef:
    """A queue: an MQ shared (or nonshared) local queue, or a CQS ready queue."""

    name: str
    cfstruct: str | None = None
    qmgr: str | None = None
    maxdepth: int = 999_999_999  # MAXDEPTH's IBM default (DEFINE QLOCAL); the model's upper bound (QDEPTH-018)
    maxmsgl: int = MQ_MAXMSGL_DEFAULT
    qdepthhi: int = 80
    qdepthlo: int = 20
    qdphiev: bool = False
    qdploev: bool = False
    qdpmaxev: bool = False

    def __attrs_post_init__(self) -> None:
        validate_queue(self)

    @property
    def shared(self) -> bool:
        return self.cfstruct is not None


# -- validation on construction (DEVELOPERS.md, principle 7) ------------------------------------
def validate_structure(s: StructureDef) -> None:
    """Check one structure definition (MQ and CQS fields)."""
    f = f"structures[{s.name}]"
    check_name_field(f, "name", s.name)
    check_int_field(f, "size_kb", s.size_kb, 1, None, "CAPACITY-008")
    if s.initsize_kb is not None:
        check_int_field(f, "initsize_kb", s.initsize_kb, 1, s.size_kb, "CAPACITY-008")
    check_int_field(f, "fullthreshold", s.fullthreshold, 0, 100, "CAPACITY-009")
    check_int_field(f, "ratio", s.ratio, 1, 255, "SIZING-005")
    check_int_field(f, "cflevel", s.cflevel, 1, 5, "CFLEVEL-001")
    check_bool_field(f, "recover", s.recover, "CFLEVEL-007")
    # RECOVER(YES) below CFLEVEL(3): whether DEFINE refuses it is not documented (ibm-facts 2.6, AMBIGUOUS)
    if s.offload is not None:
        if s.offload not in ("SMDS", "DB2"):
            reject(f"{f}.offload", s.offload, "SMDS or DB2", "OFFLOAD-006")
        if s.cflevel < 5:
            reject(f"{f}.offload", s.offload, "OFFLOAD only with CFLEVEL(5)", "OFFLOAD-007")
    for name, value, most in (
        ("offld1th", s.offld1th, 100), ("offld1sz", s.offld1sz, 64 * 1024),
        ("offld2th", s.offld2th, 100), ("offld2sz", s.offld2sz, 64 * 1024),
        ("offld3th", s.offld3th, 100), ("offld3sz", s.offld3sz, 64 * 1024),
    ):  # fmt: skip
        check_int_field(f, name, value, 0, most, "OFFLOAD-011")
    _validate_cqs_fields(f, s)


def _validate_cqs_fields(f: str, s: StructureDef) -> None:
    check_bool_field(f, "resource", s.resource, "CQS-016")
    if s.resource and (s.ovflwmax is not None or s.ovflwstr is not None):
        field, value = (f"{f}.ovflwstr", s.ovflwstr) if s.ovflwstr is not None else (f"{f}.ovflwmax", s.ovflwmax)
        reject(field, value, "no overflow on a resource structure", "CQS-016")
    if s.ovflwmax is not None:
        check_int_field(f, "ovflwmax", s.ovflwmax, 0, 100, "CQS-002")
    if s.ovflwstr is not None:
        check_name_field(f, "ovflwstr", s.ovflwstr)
        if s.ovflwstr == s.name:
            reject(f"{f}.ovflwstr", s.ovflwstr, "a name other than the primary's", "CQS-011")
    check_int_field(f, "ovflw_size_kb", s.ovflw_size_kb, 1, None, "CAPACITY-008")


def validate_queue(q: QueueDef) -> None:
    """Check one queue definition."""
    f = f"queues[{q.name}]"
    if not isinstance(q.name, str) or not q.name:  # no document states the name rules
        reject(f"{f}.name", q.name, "a non-empty name", "TOPOLOGY-013")
    if q.cfstruct is not None:
        check_name_field(f, "cfstruct", q.cfstruct)
    check_int_field(f, "maxdepth", q.maxdepth, 0, 999_999_999, "QDEPTH-018")
    check_int_field(f, "maxmsgl", q.maxmsgl, 0, SIZE_100MB, "CFLEVEL-010")
    check_int_field(f, "qdepthhi", q.qdepthhi, 0, 100, "QDEPTH-014")
    check_int_field(f, "qdepthlo", q.qdepthlo, 0, 100, "QDEPTH-014")
    check_bool_field(f, "qdphiev", q.qdphiev, "QDEPTH-014")
    check_bool_field(f, "qdploev", q.qdploev, "QDEPTH-014")
    check_bool_field(f, "qdpmaxev", q.qdpmaxev, "QDEPTH-014")


def validate_config(c: Config) -> None:
    """Check the whole configuration, including limits across records."""
    if c.profile not in PROFILES:
        reject("profile", c.profile, f"one of {list(PROFILES)}", "TOPOLOGY-002")
    if isinstance(c.qsg, str) and len(c.qsg) > QSG_MAX_LENGTH:
        reject("qsg", c.qsg, f"up to {QSG_MAX_LENGTH} characters", "TOPOLOGY-015")
    if not isinstance(c.qsg, str) or not QSG_NAME.match(c.qsg):
        reject("qsg", c.qsg, "1-4 characters, A-Z first, then A-Z or 0-9", "TOPOLOGY-010")
    _validate_qmgrs(c)
    if c.profile == "mq" and c.qsg in c.qmgrs:
        reject("qsg", c.qsg, "a name different from every queue manager's", "TOPOLOGY-015")
    _validate_structures(c)
    _validate_queues(c)
    check_int("lgmsgsz", c.lgmsgsz, 1, None, "CQS-021")
    if c.admin_table not in ADMIN_TABLES:
        reject("admin_table", c.admin_table, f"one of {sorted(ADMIN_TABLES)}", "TOPOLOGY-008")
    _validate_admin(c)


def _validate_qmgrs(c: Config) -> None:
    # 32 is the limit of queue managers connected to one structure at once (seed 003), not of a QSG's
    # members (ibm-facts 6.3, AMBIGUOUS); queue manager name rules are not in the documents
    if not c.qmgrs:
        reject("qmgrs", 0, "at least 1 queue manager", "TOPOLOGY-006")
    for name in c.qmgrs:
        if not isinstance(name, str) or not name:
            reject(f"qmgrs[{name}]", name, "a non-empty name", "TOPOLOGY-006")
    dup = [n for n, k in Counter(c.qmgrs).items() if k > 1]
    if dup:
        reject("qmgrs", dup[0], "unique queue manager names", "TOPOLOGY-006")
    if c.profile == "mq" and len(c.qmgrs) > MAX_QMGRS_PER_STRUCTURE:
        # every configured queue manager starts active; whether a 33rd may be, when only 32 connect
        # at the same time, is not stated, so such a group is not judged (the fifth reading keeps it
        # stopped, the fourth and sixth refuse the group)
        allowed = f"at most {MAX_QMGRS_PER_STRUCTURE} queue managers in the mq profile (all start active)"
        reject("qmgrs", len(c.qmgrs), allowed, "TOPOLOGY-006")
    for name in c.perfmev_disabled:
        if name not in c.qmgrs:
            reject("perfmev_disabled", name, f"one of {list(c.qmgrs)}", "QDEPTH-009")


def _validate_structures(c: Config) -> None:
    names = [s.name for s in c.structures]
    check_structure_count(names)
    dup = [n for n, k in Counter(names).items() if k > 1]
    if dup:
        reject(f"structures[{dup[0]}]", dup[0], "unique structure names", "TOPOLOGY-009")
    for s in c.structures:
        if c.profile == "mq" and (s.ovflwmax is not None or s.ovflwstr is not None or s.resource):
            reject(f"structures[{s.name}].ovflwstr", s.ovflwstr, "no CQS overflow fields in the mq profile", "CQS-016")
        if s.ovflwstr is not None and s.ovflwstr in names:
            reject(
                f"structures[{s.name}].ovflwstr", s.ovflwstr, "a name not used by another primary structure", "CQS-011"
            )


def _validate_queues(c: Config) -> None:
    structures = {s.name for s in c.structures}
    if _queues_plainly_valid(c, structures):  # (a configuration may hold 512 queues: checked in bulk first)
        return
    per_structure: Counter[str] = Counter()
    seen: set[str] = set()
    for q in c.queues:
        check_queue_against(c, q, structures, seen)
        seen.add(q.name)
        if q.cfstruct is not None:
            per_structure[q.cfstruct] += 1
            if per_structure[q.cfstruct] > MAX_QUEUES_PER_STRUCTURE:
                reject(
                    f"queues[{q.name}].cfstruct",
                    q.cfstruct,
                    f"at most {MAX_QUEUES_PER_STRUCTURE} queues per structure",
                    "TOPOLOGY-005",
                )


def _queues_plainly_valid(c: Config, structures: set[str]) -> bool:
    """Whether the queue-by-queue checks of :func:`_validate_queues` find nothing to reject: names
    unique (TOPOLOGY-013), each queue on a defined structure or, in the mq profile, owned by a defined
    queue manager (QDEPTH-008), at most 512 on a structure (TOPOLOGY-005).  Checked over the whole
    tuple at once (set and counter operations, no per-queue code); anything amiss, and the checks run
    queue by queue and name it."""
    queues = c.queues
    try:
        if len(set(map(_NAME, queues))) != len(queues):
            return False
        per_structure = Counter(map(_CFSTRUCT, queues))
    except TypeError:  # (an unhashable name: the checks queue by queue say which)
        return False
    if None in per_structure:
        if c.profile == "cqs" or any(q.qmgr not in c.qmgrs for q in queues if q.cfstruct is None):
            return False
        del per_structure[None]
    return structures.issuperset(per_structure) and max(per_structure.values(), default=0) <= MAX_QUEUES_PER_STRUCTURE


_NAME = attrgetter("name")
_CFSTRUCT = attrgetter("cfstruct")


def check_queue_against(c: Config, q: QueueDef, structures: set[str], existing: set[str]) -> None:
    """Checks of a queue definition that depend on the rest of the configuration (the field names
    are spelt only for a failure: a configuration may hold 512 queues).  A check added here must be
    added to :func:`_queues_plainly_valid` too, which passes a whole configuration without it."""
    if q.name in existing:
        reject(f"queues[{q.name}].name", q.name, "a name not already defined", "TOPOLOGY-013")
    if q.cfstruct is None:
        if c.profile == "cqs":
            reject(f"queues[{q.name}].cfstruct", None, "a defined structure (CQS queues live on one)", "TOPOLOGY-013")
        if q.qmgr not in c.qmgrs:
            reject(f"queues[{q.name}].qmgr", q.qmgr, f"an owning queue manager, one of {list(c.qmgrs)}", "QDEPTH-008")
    elif q.cfstruct not in structures:
        allowed = f"a defined structure, one of {sorted(structures)}"
        reject(f"queues[{q.name}].cfstruct", q.cfstruct, allowed, "TOPOLOGY-013")


def _validate_admin(c: Config) -> None:
    """CSQ_ADMIN's size, when given, is a positive number of KB.

    Table 1 gives minimum sizes "established for a CFCC level 14" (TOPOLOGY-008): a smaller CSQ_ADMIN
    is a configuration an implementation may refuse (the gate drops the case), not one the documents
    forbid, so the model does not refuse it; ``cfconform size`` gives the table's figure.
    """
    if c.admin_size_kb is not None:
        check_int("admin_size_kb", c.admin_size_kb, 1, None, "TOPOLOGY-008")


@attrs.frozen
class Config:
    """Everything fixed at the start of a trace.

    Attributes:
        profile: ``mq`` or ``cqs``.
        qsg: the queue-sharing group name (at most 4 characters, TOPOLOGY-010).
        qmgrs: the queue managers (or CQS clients) defined to the group.
        structures, queues: the objects defined at the start (more can be defined
            by operations).
        readings: the admissible reading the model follows for each ambiguity.
        accounting: the model's storage accounting (implementation-defined).
        lgmsgsz: CQS long message record size in bytes (CQS-021).
        overflow_exit: ``None`` for no Queue Overflow exit (all candidates
            approved, CQS-010), otherwise the queue names the exit vetoes.
        perfmev_disabled: queue managers that start with PERFMEV(DISABLED).
        admin_size_kb: size of the CSQ_ADMIN structure; ``None`` means the Table 1
            minimum for the number of queue managers.
        admin_table: which edition of Table 1 applies (``cfcc14`` or ``v6``).
    """

    profile: str = "mq"
    qsg: str = "QSG1"
    qmgrs: tuple[str, ...] = ("QM01", "QM02", "QM03")
    structures: tuple[StructureDef, ...] = (StructureDef("APP1"),)
    queues: tuple[QueueDef, ...] = ()
    readings: Readings = attrs.field(factory=Readings)
    accounting: Accounting = attrs.field(factory=Accounting)
    lgmsgsz: int = 4096
    overflow_exit: tuple[str, ...] | None = None
    perfmev_disabled: tuple[str, ...] = ()
    admin_size_kb: int | None = None
    admin_table: str = "cfcc14"

    def __attrs_post_init__(self) -> None:
        validate_config(self)

    def to_record(self) -> dict[str, Any]:
        """A JSON-safe dictionary (the wire and replay format)."""
        out = record_of(self)
        out["structures"] = [record_of(s) for s in self.structures]
        out["queues"] = [record_of(q) for q in self.queues]
        out["readings"] = self.readings.as_dict()
        out["accounting"] = record_of(self.accounting)
        return out

    def with_readings(self, readings: Readings) -> Config:
        """This configuration under other readings, not validated again: nothing validation checks
        depends on the readings (a :class:`Readings` checks itself).  The checker and the reference
        adapter take one per trace, and validating a configuration of 512 queues again costs more
        than the trace's steps (``attrs.evolve`` would)."""
        if readings is self.readings:
            return self
        other = object.__new__(Config)
        for name in _CONFIG_FIELDS:
            object.__setattr__(other, name, getattr(self, name))
        object.__setattr__(other, "readings", readings)
        return other


_CONFIG_FIELDS = tuple(a.name for a in attrs.fields(Config))


def plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


def record_of(obj: Any) -> dict[str, Any]:
    """An attrs record as a dict of plain values (tuples become lists)."""
    return {a.name: plain(getattr(obj, a.name)) for a in attrs.fields(type(obj))}
