"""QDEPTH rules: queue depth events on shared and nonshared queues (seed 004; ibm-facts 4). Profile ``mq``."""

from __future__ import annotations

from .catalogue import MQ, SEED_004, Citation, Rule

SWITCHES = ("inspect.queues.*.qdphiev", "inspect.queues.*.qdploev", "inspect.queues.*.qdpmaxev")
EVENTS = ("put.events", "get.events")

RULES: tuple[Rule, ...] = (
    Rule(
        id="QDEPTH-001",
        title="Queue Depth High: a put leaving depth >= QDEPTHHI% of MAXDEPTH raises it when QDPHIEV is enabled.",
        citation=Citation(SEED_004, "so that the depth meets or exceeds the QDEPTHHI threshold"),
        status="normative",
        observables=("put.events", "inspect.queues.*.qdphiev"),
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-002",
        title="Queue Depth Low: a get leaving depth <= QDEPTHLO% of MAXDEPTH raises it when QDPLOEV is enabled.",
        citation=Citation(
            "ibm-facts: 4.1 Triggers",
            "has caused the queue depth to be decremented to, or less than",
        ),
        status="normative",
        observables=("get.events", "inspect.queues.*.qdploev"),
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-003",
        title="Queue Full: raised by the first put rejected with 2053 when QDPMAXEV is enabled.",
        citation=Citation(
            "ibm-facts: 4.1 Triggers",
            "the first message that cannot be put on the queue because the queue is full",
        ),
        status="normative",
        observables=("put.events", "inspect.queues.*.qdpmaxev"),
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-004",
        title="A Queue Depth High event sets QDPHIEV DISABLED, QDPLOEV ENABLED and QDPMAXEV ENABLED.",
        citation=Citation(
            SEED_004,
            "a Queue Depth High event enables a Queue Depth Low and a Queue Full event.",
        ),
        status="normative",
        observables=SWITCHES,
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-005",
        title="A Queue Depth Low event sets QDPHIEV ENABLED, QDPLOEV DISABLED and QDPMAXEV ENABLED.",
        citation=Citation(
            'ibm-facts: "Enabling queue depth events"',
            "QDL automatically enables both QDH and QF",
        ),
        status="normative",
        observables=SWITCHES,
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-006",
        title="A Queue Full event sets QDPLOEV ENABLED and QDPMAXEV DISABLED; QDPHIEV by reading (unchanged).",
        citation=Citation(
            'ibm-facts: "Enabling queue depth events"',
            "is automatically enabled by a Queue Depth High event or a Queue Full event",
        ),
        status="normative",
        observables=SWITCHES,
        readings=("qfull_hi_flag",),
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-007",
        title="On shared queues the switches toggle even when the detecting queue manager has PERFMEV DISABLED.",
        citation=Citation(
            SEED_004,
            "A key difference is that events are switched on for shared queues even if PERFMEV is DISABLED "
            "on the queue manager.",
        ),
        status="normative",
        observables=SWITCHES,
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-008",
        title="On nonshared queues nothing toggles and no event message is issued while PERFMEV is DISABLED.",
        citation=Citation(
            SEED_004,
            "In contrast the attributes for LQ1 remain unchanged until PERFMEV on the queue manager is ENABLED.",
        ),
        status="normative",
        observables=(*EVENTS, *SWITCHES),
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-009",
        title="The detecting (coordinating) queue manager, if PERFMEV ENABLED, issues one message with a new CorrelId.",
        citation=Citation(
            SEED_004,
            "The message descriptor (MQMD) of this message contains a unique correlation identifier "
            "(CorrelId) created by the coordinating queue manager.",
        ),
        status="normative",
        observables=EVENTS,
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-010",
        title="Every other active queue manager with PERFMEV ENABLED issues one event message with the same CorrelId.",
        citation=Citation(
            SEED_004,
            "Broadcasts to all other active queue managers in the same queue-sharing group to request the "
            "production of an event message for the shared queue.",
        ),
        status="normative",
        observables=EVENTS,
        readings=("event_broadcast",),
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-011",
        title="An event message carries its queue manager's MsgEnqCount/MsgDeqCount since its last one (0 if idle).",
        citation=Citation(
            SEED_004,
            "If a queue manager performs no activity on the shared queue, various values in the event "
            "message are null or zero.",
        ),
        status="normative",
        observables=EVENTS,
        readings=("qstats_at_stop",),
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-012",
        title="Events are generated and toggled outside syncpoint: a backout does not restore the switches.",
        citation=Citation(
            'ibm-facts: "Performance events" (9.0)',
            "A rollback does not restore the enable flags.",
        ),
        status="normative",
        observables=(*EVENTS, *SWITCHES),
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-013",
        title="How QDEPTHHI/QDEPTHLO percentages become message counts is implementation-defined.",
        citation=Citation(
            "ibm-facts: 4.2 Limits (QDEPTHHI / QDEPTHLO)",
            "a real comparison: 100·depth ≥ HI·MaxQDepth and 100·depth ≤ LO·MaxQDepth",
        ),
        status="implementation-defined",
        observables=EVENTS,
        readings=("qdepth_percent",),
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-014",
        title="QDEPTHHI and QDEPTHLO are integer percentages 0..100.",
        citation=Citation(
            'ibm-facts: "QDepthLowLimit (MQLONG)"',
            "an integer 0 ≤ v ≤ 100. QDepthLowLimit defaults to 20.",
        ),
        status="normative",
        observables=(
            "config.queues.*.qdepthhi",
            "config.queues.*.qdepthlo",
            "define_queue.reason",
            "alter_queue.ok",
            "alter_queue.reason",
        ),
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-015",
        title="A put to a queue already at MAXDEPTH fails with 2053 (MQRC_Q_FULL).",
        citation=Citation(
            "ibm-facts: 3.5 Queue full and message-size limits",
            "i.e. depth == MaxQDepth *before* the put.",
        ),
        status="normative",
        observables=("put.ok", "put.reason", "inspect.queues.*.depth"),
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-016",
        title="Inactive queue managers issue no event messages.",
        citation=Citation(
            SEED_004,
            "n event messages are produced, where n is a number from 1 to the number of active queue managers "
            "in the queue-sharing group.",
        ),
        status="normative",
        observables=(*EVENTS, "inspect.qmgrs.*.active"),
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-017",
        title="RESET QSTATS restarts the issuing queue manager's counts: its next event message counts from there.",
        citation=Citation(
            SEED_004,
            "Issues an event message that captures all shared queue performance data it has gathered since the "
            "last time an event message was created, or since the queue statistics were last reset.",
        ),
        status="normative",
        observables=(*EVENTS, "reset_qstats.ok"),
        profiles=MQ,
    ),
    Rule(
        id="QDEPTH-018",
        title="MAXDEPTH is a whole number of messages; the model takes 0..999999999 (IBM's range not found).",
        citation=Citation(
            "ibm-facts: 4.2 Limits (QDEPTHHI / QDEPTHLO)",
            "Also undefined: MaxQDepth = 0",
        ),
        status="inferred",
        observables=("config.queues.*.maxdepth", "define_queue.reason", "alter_queue.ok", "alter_queue.reason"),
        profiles=MQ,
    ),
)
