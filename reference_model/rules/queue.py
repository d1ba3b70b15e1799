"""QUEUE rules: the queue semantics the other families rely on (seed 003; ibm-facts 3.5).

Profiles ``mq`` and ``cqs`` (units of work and queue managers exist only in ``mq``).
"""

from __future__ import annotations

from .catalogue import SEED_003, Citation, Rule

RULES: tuple[Rule, ...] = (
    Rule(
        id="QUEUE-001",
        title="Gets return committed messages in put (FIFO) order; an empty queue answers 2033 (CQS: NO_MSG).",
        citation=Citation(SEED_003, "Search for the next retrievable message"),
        status="normative",
        observables=("get.ok", "get.reason", "get.tag"),
        profiles=("mq", "cqs"),
    ),
    Rule(
        id="QUEUE-002",
        title="Messages put under syncpoint are invisible to gets until commit; a backout discards them.",
        citation=Citation(
            SEED_003,
            "Notify interested queue managers about the arrival of committed messages",
        ),
        status="normative",
        observables=("get.ok", "get.reason", "get.tag", "inspect.queues.*.depth"),
        profiles=("mq",),
    ),
    Rule(
        id="QUEUE-003",
        title="Messages got under syncpoint stay locked until commit (removed) or backout (available again, in place).",
        citation=Citation(SEED_003, "Lock uncommitted messages on shared queues"),
        status="normative",
        observables=("get.ok", "get.tag", "inspect.queues.*.depth"),
        profiles=("mq",),
    ),
    Rule(
        id="QUEUE-004",
        title="Depth counts messages on the queue, uncommitted puts included, messages got under syncpoint excluded.",
        citation=Citation(
            "ibm-facts: 3.5 Queue full and message-size limits",
            "units of work can make the physical count exceed MaxQDepth",
        ),
        status="normative",
        observables=("inspect.queues.*.depth",),
        profiles=("mq", "cqs"),
    ),
    Rule(
        id="QUEUE-005",
        title="A stopping queue manager's unit of work is backed out; a stopped queue manager cannot put or get.",
        citation=Citation(
            SEED_003,
            "MQPUT and MQGET operations on persistent messages are recorded on the log of the queue manager "
            "performing that operation.",
        ),
        status="normative",
        observables=(
            "put.ok",
            "put.reason",
            "get.ok",
            "get.reason",
            "commit.ok",
            "backout.ok",
            "backup.ok",
            "inspect.queues.*.depth",
            "inspect.qmgrs.*.active",
        ),
        readings=("nonshared_at_stop",),
        profiles=("mq",),
    ),
)
