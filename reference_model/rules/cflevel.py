"""CFLEVEL rules: what each CF structure level allows (seed 003; ibm-facts 2.6, 3). Profile ``mq``."""

from __future__ import annotations

from .catalogue import MQ, SEED_003, Citation, Rule

RULES: tuple[Rule, ...] = (
    Rule(
        id="CFLEVEL-001",
        title="CFLEVEL is an integer 1..5.",
        citation=Citation(
            SEED_003,
            "CF structures have a CFLEVEL attribute that determines their functional capability:",
        ),
        status="normative",
        observables=("config.structures.*.cflevel", "define_structure.reason", "alter_structure.reason"),
        profiles=MQ,
    ),
    Rule(
        id="CFLEVEL-002",
        title="CFLEVEL(1)/(2) hold nonpersistent messages only: a persistent put fails (2048, or 2366 by reading).",
        citation=Citation(SEED_003, "1, 2 - can be used for nonpersistent messages less than 63 KB"),
        status="normative",
        observables=("put.ok", "put.reason"),
        readings=("persistent_low_cflevel_rc",),
        profiles=MQ,
    ),
    Rule(
        id="CFLEVEL-003",
        title="CFLEVEL(1)-(3) hold messages up to 63 KB: a longer put fails (2366, or 2030 by reading).",
        citation=Citation(
            SEED_003,
            "3 - can be used for persistent and nonpersistent messages less than 63 KB",
        ),
        status="normative",
        observables=("put.ok", "put.reason"),
        readings=("large_low_cflevel_rc",),
        profiles=MQ,
    ),
    Rule(
        id="CFLEVEL-004",
        title="From CFLEVEL(3) persistent messages are allowed, but a persistent put to RECOVER(NO) fails with 2048.",
        citation=Citation(
            'ibm-facts: "DefPersistence (MQLONG)" (9.1)',
            "or where the CFSTRUCT object is defined as RECOVER(NO)",
        ),
        status="normative",
        observables=("put.ok", "put.reason"),
        profiles=MQ,
    ),
    Rule(
        id="CFLEVEL-005",
        title="CFLEVEL(4)/(5) hold messages up to 100 MB; MAXMSGL is at most 104857600.",
        citation=Citation(
            SEED_003,
            "4 - can be used for persistent and nonpersistent messages up to 100 MB",
        ),
        status="normative",
        observables=("put.ok", "put.reason", "config.queues.*.maxmsgl"),
        profiles=MQ,
    ),
    Rule(
        id="CFLEVEL-006",
        title="CFLEVEL(5) adds selective offload to SMDS or Db2; CFLEVEL(4) offloads only too-large messages, to Db2.",
        citation=Citation(
            SEED_003,
            "5 - can be used for persistent and nonpersistent messages up to 100 MB and selectively offloaded "
            "to shared message data sets (SMDS) or Db2.",
        ),
        status="normative",
        observables=("put.offloaded", "put.location"),
        profiles=MQ,
    ),
    Rule(
        id="CFLEVEL-007",
        title="RECOVER(YES) needs CFLEVEL(3) or higher.",
        citation=Citation(
            "ibm-facts: MQ V6 DEFINE CFSTRUCT",
            "3: needed for persistent messages (RECOVER(YES)) and for INDXTYPE(GROUPID).",
        ),
        status="normative",
        observables=(
            "config.structures.*.recover",
            "config.structures.*.cflevel",
            "define_structure.reason",
            "alter_structure.reason",
        ),
        profiles=MQ,
    ),
    Rule(
        id="CFLEVEL-008",
        title="A put longer than the queue's MAXMSGL fails with 2030 (MQRC_MSG_TOO_BIG_FOR_Q).",
        citation=Citation(
            "ibm-facts: 3.2 Messages over 63 KB when CFLEVEL < 4",
            "applies when length > min(queue MaxMsgLength, queue-manager MaxMsgLength).",
        ),
        status="normative",
        observables=("put.ok", "put.reason", "config.queues.*.maxmsgl"),
        profiles=MQ,
    ),
    Rule(
        id="CFLEVEL-009",
        title="CFLEVEL may be lowered from 3 or 4 (from 5: a reading) only while every queue on it is empty.",
        citation=Citation(
            "ibm-facts: MQ V6 DEFINE CFSTRUCT",
            "Decrease from 3 or from 4 only if every queue referencing the structure is empty",
        ),
        status="normative",
        observables=("alter_structure.ok", "alter_structure.reason"),
        profiles=MQ,
        readings=("cflevel5_decrease",),
    ),
    Rule(
        id="CFLEVEL-010",
        title="A queue's MAXMSGL is a number of bytes; the model takes 0..104857600 (the queue's range not found).",
        citation=Citation(
            "ibm-facts: 3.5 Queue full and message-size limits",
            "Queue-manager MaxMsgLength ranges from 32 KB (32 768) to",
        ),
        status="inferred",
        observables=("config.queues.*.maxmsgl", "define_queue.reason", "alter_queue.ok", "alter_queue.reason"),
        profiles=MQ,
    ),
)
