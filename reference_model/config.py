"""Validated configuration records: structures, queues and the QSG around them.

Two profiles share these records: ``mq`` (IBM MQ for z/OS shared queues) and
``cqs`` (IMS Common Queue Server structures).  Every record validates itself on
construction (see :mod:`reference_model.validation`) and raises
:class:`~reference_model.errors.ConfigurationError` naming the field, the value,
the allowed range and the rule.
"""

from __future__ import annotations

from typing import Any

import attrs

from reference_model.readings import Readings
from reference_model.units import KB

PROFILES = ("mq", "cqs")
MAXDEPTH_MAX = 999_999_999
MQ_MAXMSGL_DEFAULT = 4 * 1024 * KB


@attrs.frozen
class Accounting:
    """How the model charges coupling-facility storage (SIZING-005, OFFLOAD-005).

    IBM leaves element and entry sizes implementation-defined; these defaults are
    calibrated so that the model reproduces Table 2 of seed 001 (see
    ``reference_model.sizing``).  ``overhead`` is the ratio of structure storage
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
        from reference_model.validation import validate_structure

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
    maxdepth: int = 999_999_999  # MAXDEPTH's IBM default (DEFINE QLOCAL); QDEPTH-014's upper bound
    maxmsgl: int = MQ_MAXMSGL_DEFAULT
    qdepthhi: int = 80
    qdepthlo: int = 20
    qdphiev: bool = False
    qdploev: bool = False
    qdpmaxev: bool = False

    def __attrs_post_init__(self) -> None:
        from reference_model.validation import validate_queue

        validate_queue(self)

    @property
    def shared(self) -> bool:
        return self.cfstruct is not None


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
        from reference_model.validation import validate_config

        validate_config(self)

    def to_record(self) -> dict[str, Any]:
        """A JSON-safe dictionary (the wire and replay format)."""
        from reference_model.codec import config_to_record

        return config_to_record(self)
