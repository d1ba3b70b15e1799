"""What the model expects an operation to produce, and the reason codes it uses.

An :class:`Outcome` is a value, never an exception: a rejected put is an outcome
with ``ok=False``, a reason and the rule IDs that decided it (DEVELOPERS.md,
principle 2).
"""

from __future__ import annotations

from typing import Any

import attrs

# MQ reason codes (MQRC_*) used by the rules.
MQRC_NONE = 0
MQRC_NO_MSG_AVAILABLE = 2033
MQRC_MSG_TOO_BIG_FOR_Q = 2030
MQRC_PERSISTENT_NOT_ALLOWED = 2048
MQRC_Q_FULL = 2053
MQRC_STORAGE_MEDIUM_FULL = 2192
MQRC_Q_DEPTH_HIGH = 2224
MQRC_Q_DEPTH_LOW = 2225
MQRC_WRONG_CF_LEVEL = 2366
MQRC_CF_STRUC_FAILED = 2373

# Abstract outcomes where IBM gives no number (ibm-facts 1.7) or for commands.
CQS_REJECTED_OVERFLOW = "REJECTED_OVERFLOW"
CQS_STRUCTURE_FULL = "STRUCTURE_FULL"
CQS_NO_MSG = "NO_MSG"
CMD_INVALID = "INVALID"
CMD_NOT_ALLOWED = "NOT_ALLOWED"
CMD_NOT_FAILED = "NOT_FAILED"
CMD_NO_BACKUP = "NO_BACKUP"
CMD_OUT_OF_RANGE = "OUT_OF_RANGE"
CMD_NOT_ACTIVE = "NOT_ACTIVE"
CMD_NO_ALTER_PENDING = "NO_ALTER_PENDING"

#: The rules behind each signal name (``Outcome.signals`` entries are ``"NAME SUBJECT..."``).
SIGNAL_RULES: dict[str, tuple[str, ...]] = {
    "ALTER": ("CQS-003",), "OVERFLOW_ON": ("CQS-005",), "OVERFLOW_QUEUE": ("CQS-006", "CQS-007"),
    "OVERFLOW_QUEUE_OFF": ("CQS-013",), "OVERFLOW_OFF": (),
    "IXC585E": ("CAPACITY-002",), "IXC586I": ("CAPACITY-003",),
}  # fmt: skip

EVENT_KINDS = ("QDPHI", "QDPLO", "QFULL")
#: Where a put's message data is kept (``Outcome.location``, wire protocol 1.1).
LOCATIONS = ("CF", "SMDS", "DB2")
EVENT_REASON = {"QDPHI": MQRC_Q_DEPTH_HIGH, "QDPLO": MQRC_Q_DEPTH_LOW, "QFULL": MQRC_Q_FULL}


@attrs.frozen
class EventMessage:
    """One queue depth event message (QDEPTH-009..011).

    ``correl`` numbers the set of messages one event produced: messages of one
    set share it, and each set has a new one.  ``enq``/``deq`` are the issuing
    queue manager's MsgEnqCount/MsgDeqCount since its previous event message.
    """

    qmgr: str
    kind: str
    queue: str
    correl: int
    enq: int
    deq: int


@attrs.define
class Outcome:
    """The expected (or observed) result of one operation.

    A value: never mutate one.  It is a slotted (not frozen) attrs class only
    because frozen initialisation costs 2.4 us against 0.9 us, and the model
    creates one per step (benchmarks/model_steps.py).

    Attributes:
        kind: the operation's KIND.
        ok: whether the operation succeeded.
        reason: an MQRC number, or one of the abstract reason strings above.
        rules: the rule IDs that decided this outcome.
        offloaded: for a successful MQ put, whether its data went to SMDS/Db2.
        tag: for a successful get, the tag of the message retrieved.
        events: queue depth event messages produced by the operation.
        signals: other observable effects, as ``"NAME SUBJECT"`` strings
            (``IXC585E APP1``, ``ALTER APP1``, ``OVERFLOW_ON APP1``, ...).
        usage: the target structure's ``(entries_used, entries_total,
            elements_used, elements_total)`` after the operation, when one was
            touched.
        value: the state projection, for :class:`Inspect`.
        location: for a successful MQ put to a shared queue, where its data is
            kept: ``"CF"`` (in the structure's entry), ``"SMDS"`` or ``"DB2"``
            (offloaded; see ``StructureDef.offload_target``).  Added in wire
            protocol 1.1; ``None`` when not reported.
    """

    kind: str
    ok: bool = True
    reason: int | str | None = None
    rules: tuple[str, ...] = ()
    offloaded: bool | None = None
    tag: int | None = None
    events: tuple[EventMessage, ...] = ()
    signals: tuple[str, ...] = ()
    usage: tuple[int, int, int, int] | None = None
    value: Any = None
    location: str | None = None
