"""The operation vocabulary shared by the model, the generators and the adapters.

Every operation is a frozen attrs record with a ``KIND`` string: the name it has
in traces, on the wire and in reports.  MQ operations use MQ words (MQPUT as
:class:`Put`, ``BACKUP CFSTRUCT`` as :class:`Backup`); CQS operations reuse
:class:`Put`/:class:`Get` (CQSPUT, CQSREAD+CQSDEL) and add :class:`AlterOutcome`
and :class:`SetOverflowExit`, which stand for events outside CQS (z/OS answering
an alter, the installation's Queue Overflow exit).
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from .config import QueueDef, StructureDef

Changes = tuple[tuple[str, Any], ...]


def _changes(value: Any) -> Changes:
    if isinstance(value, dict):
        return tuple(sorted(value.items()))
    return tuple(tuple(pair) for pair in value)


@attrs.frozen
class DefineStructure:
    """DEFINE CFSTRUCT (MQ) or a CQSSGxxx STRUCTURE statement (CQS).

    ``structure`` is a validated :class:`StructureDef`, or the raw keyword record
    of a definition that may be invalid: the model answers an invalid one with
    an ``INVALID`` outcome naming the rule, so implementations are checked for
    refusing it too.
    """

    KIND: ClassVar[str] = "define_structure"
    structure: StructureDef | dict[str, Any]


@attrs.frozen
class AlterStructure:
    """ALTER CFSTRUCT: keywords not given are left unchanged (OFFLOAD-013)."""

    KIND: ClassVar[str] = "alter_structure"
    name: str
    changes: Changes = attrs.field(converter=_changes)


@attrs.frozen
class DefineQueue:
    """DEFINE QLOCAL(...) QSGDISP(SHARED|QMGR), or a CQS queue coming into use."""

    KIND: ClassVar[str] = "define_queue"
    queue: QueueDef | dict[str, Any]  # a raw record may be invalid, as for DefineStructure


@attrs.frozen
class AlterQueue:
    """ALTER QLOCAL: change depth limits and event switches."""

    KIND: ClassVar[str] = "alter_queue"
    name: str
    changes: Changes = attrs.field(converter=_changes)


@attrs.frozen
class Put:
    """MQPUT (or CQSPUT) of a message of ``length`` bytes; ``tag`` identifies it in later gets."""

    KIND: ClassVar[str] = "put"
    qmgr: str
    queue: str
    length: int
    persistent: bool = False
    syncpoint: bool = False
    tag: int = 0


@attrs.frozen
class Get:
    """MQGET (or CQSREAD + CQSDEL) of the next available message."""

    KIND: ClassVar[str] = "get"
    qmgr: str
    queue: str
    syncpoint: bool = False


@attrs.frozen
class Commit:
    """Commit the queue manager's unit of work."""

    KIND: ClassVar[str] = "commit"
    qmgr: str


@attrs.frozen
class Backout:
    """Back out the queue manager's unit of work."""

    KIND: ClassVar[str] = "backout"
    qmgr: str


@attrs.frozen
class SetPerfmev:
    """ALTER QMGR PERFMEV(ENABLED|DISABLED)."""

    KIND: ClassVar[str] = "set_perfmev"
    qmgr: str
    enabled: bool


@attrs.frozen
class ResetQstats:
    """RESET QSTATS issued on ``qmgr`` for ``queue``: that queue manager's MsgEnqCount and
    MsgDeqCount for the queue start again from zero (QDEPTH-017)."""

    KIND: ClassVar[str] = "reset_qstats"
    qmgr: str
    queue: str


@attrs.frozen
class StartQmgr:
    """Start a queue manager (it becomes active in the group)."""

    KIND: ClassVar[str] = "start_qmgr"
    qmgr: str


@attrs.frozen
class StopQmgr:
    """Stop a queue manager; its unit of work is backed out (QUEUE-005)."""

    KIND: ClassVar[str] = "stop_qmgr"
    qmgr: str


@attrs.frozen
class Backup:
    """BACKUP CFSTRUCT issued on ``qmgr``."""

    KIND: ClassVar[str] = "backup"
    qmgr: str
    cfstruct: str


@attrs.frozen
class FailStructure:
    """The structure (or its coupling facility) fails."""

    KIND: ClassVar[str] = "fail_structure"
    cfstruct: str


@attrs.frozen
class Recover:
    """RECOVER CFSTRUCT TYPE(NORMAL) or, with ``purge``, TYPE(PURGE)."""

    KIND: ClassVar[str] = "recover"
    cfstruct: str
    purge: bool = False


@attrs.frozen
class SetxcfAlter:
    """SETXCF START,ALTER,STRNAME=...,SIZE=size_kb."""

    KIND: ClassVar[str] = "setxcf_alter"
    cfstruct: str
    size_kb: int


@attrs.frozen
class AlterOutcome:
    """z/OS answers the structure alter CQS started: success (to ``size_kb``) or failure."""

    KIND: ClassVar[str] = "alter_outcome"
    cfstruct: str
    success: bool
    size_kb: int | None = None


@attrs.frozen
class SetOverflowExit:
    """Install (``vetoes`` = queues the exit rejects) or remove (``None``) the Queue Overflow exit."""

    KIND: ClassVar[str] = "set_overflow_exit"
    vetoes: tuple[str, ...] | None = attrs.field(default=None, converter=lambda v: None if v is None else tuple(v))


@attrs.frozen
class AdvanceClock:
    """Advance the virtual clock by ``seconds``."""

    KIND: ClassVar[str] = "advance_clock"
    seconds: int


@attrs.frozen
class Inspect:
    """Return the observable state (the projection compared with an implementation's)."""

    KIND: ClassVar[str] = "inspect"


OPERATIONS: tuple[type, ...] = (
    DefineStructure, AlterStructure, DefineQueue, AlterQueue, Put, Get, Commit, Backout,
    SetPerfmev, ResetQstats, StartQmgr, StopQmgr, Backup, FailStructure, Recover, SetxcfAlter,
    AlterOutcome, SetOverflowExit, AdvanceClock, Inspect,
)  # fmt: skip
OPERATION_BY_KIND: dict[str, type] = {cls.KIND: cls for cls in OPERATIONS}
Operation = Any
