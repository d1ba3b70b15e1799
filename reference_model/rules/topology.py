"""TOPOLOGY rules: structures, queues and queue managers of a QSG (seeds 001, 003; ibm-facts 2.6, 6.2, 6.3).

Profile ``mq``.
"""

from __future__ import annotations

from .catalogue import MQ, SEED_001, SEED_003, Citation, Rule

RULES: tuple[Rule, ...] = (
    Rule(
        id="TOPOLOGY-001",
        title="The admin structure CSQ_ADMIN holds no messages and cannot be defined as a CFSTRUCT for queues.",
        citation=Citation(SEED_001, "No user data is held in this structure."),
        status="normative",
        observables=("config.structures.*.name", "define_structure.ok", "define_structure.reason"),
        profiles=MQ,
    ),
    Rule(
        id="TOPOLOGY-002",
        title="A QSG needs at least two structures: CSQ_ADMIN and one application structure.",
        citation=Citation(
            SEED_001,
            "A queue sharing group (QSG) requires a minimum of two structures to be defined.",
        ),
        status="normative",
        observables=("config.structures",),
        profiles=MQ,
    ),
    Rule(
        id="TOPOLOGY-003",
        title="At most 64 structures per QSG, CSQ_ADMIN included: at most 63 application structures.",
        citation=Citation(
            SEED_001,
            "A queue sharing group can connect to up to 64 coupling facility structures.",
        ),
        status="normative",
        observables=("config.structures", "define_structure.ok", "define_structure.reason"),
        profiles=MQ,
    ),
    Rule(
        id="TOPOLOGY-004",
        title="At most 62 application structures when CSQSYSAPPL is defined.",
        citation=Citation(
            SEED_001,
            "You can use up to 63 (62 if qsg-nameCSQSYSAPPL is defined) structures for message data.",
        ),
        status="normative",
        observables=("config.structures", "define_structure.ok", "define_structure.reason"),
        profiles=MQ,
    ),
    Rule(
        id="TOPOLOGY-005",
        title="At most 512 queues per structure.",
        citation=Citation(
            SEED_003,
            "A single coupling facility list structure can contain up to 512 shared queues.",
        ),
        status="normative",
        observables=("config.queues", "define_queue.ok", "define_queue.reason"),
        profiles=MQ,
    ),
    Rule(
        id="TOPOLOGY-006",
        title="At most 32 queue managers connect to one structure at once; queue manager names are unique.",
        citation=Citation(
            SEED_003,
            "Up to 32 queue managers in a queue-sharing group can connect to a coupling facility list "
            "structure at the same time.",
        ),
        status="normative",
        observables=("config.qmgrs", "put.ok", "get.ok"),
        profiles=MQ,
    ),
    Rule(
        id="TOPOLOGY-007",
        title="CSQ_ADMIN needs 1000 list entries per queue manager defined in the QSG.",
        citation=Citation(
            SEED_001,
            "must be large enough to contain 1000 list entries for each queue manager in the queue sharing group",
        ),
        status="normative",
        observables=("config.admin_size_kb", "config.qmgrs", "inspect.admin.entries_total"),
        profiles=MQ,
    ),
    Rule(
        id="TOPOLOGY-008",
        title="CSQ_ADMIN must meet Table 1's minimum size for the queue managers defined (versioned: cfcc14, v6).",
        citation=Citation(
            SEED_001,
            "Table 1 shows the minimum required size for the administrative structure for various numbers of "
            "queue managers defined in the queue sharing group.",
        ),
        status="normative",
        observables=("config.admin_size_kb", "config.admin_table", "config.qmgrs", "inspect.admin.size_kb"),
        profiles=MQ,
    ),
    Rule(
        id="TOPOLOGY-009",
        title="CFSTRUCT names have 1-12 characters, A-Z first, then A-Z or 0-9, and are unique.",
        citation=Citation(
            "ibm-facts: DEFINE/ALTER CFSTRUCT (9.2)",
            "≤ 12 characters; starts with an uppercase letter A–Z; only A–Z and 0–9.",
        ),
        status="normative",
        observables=("config.structures.*.name", "define_structure.ok", "define_structure.reason"),
        profiles=MQ,
    ),
    Rule(
        id="TOPOLOGY-010",
        title="The QSG name has at most 4 characters and prefixes structure names, padded with @ (SQ03MYDATA).",
        citation=Citation(
            SEED_003,
            "For example, CFSTRUCT(MYDATA) defined in queue-sharing group starting with SQ03 would use "
            "coupling facility list structure SQ03MYDATA.",
        ),
        status="normative",
        observables=("config.qsg", "inspect.structures.*.cfname"),
        profiles=MQ,
    ),
    Rule(
        id="TOPOLOGY-011",
        title="CSQSYSAPPL holds the QSG system queues; suggested INITSIZE(20480) SIZE(30720) FULLTHRESHOLD(85).",
        citation=Citation(
            SEED_001,
            "By default, the SYSTEM.QSG.CHANNEL.SYNCQ and SYSTEM.QSG.UR.RESOLUTION.QUEUE queues are defined "
            "on the qsg-nameCSQSYAPPL structure.",
        ),
        status="normative",
        observables=(
            "config.structures.*.initsize_kb",
            "config.structures.*.size_kb",
            "config.structures.*.fullthreshold",
        ),
        profiles=MQ,
    ),
    Rule(
        id="TOPOLOGY-012",
        title="Table 3 sizes CSQSYSAPPL: 2 x 500 bytes per shared channel instance, and 1000 x 2 KB messages.",
        citation=Citation(
            SEED_001,
            "SYSTEM.QSG.CHANNEL.SYNCQ 2 messages of 500 bytes per active instance of a shared channel",
        ),
        status="normative",
        observables=("config.structures.*.initsize_kb", "config.structures.*.size_kb"),
        profiles=MQ,
    ),
    Rule(
        id="TOPOLOGY-013",
        title="A shared queue names a defined CFSTRUCT without the QSG prefix; queue names are unique.",
        citation=Citation(
            SEED_001,
            "Specify the name of the CF structure without the QSG name prefix in this attribute.",
        ),
        status="normative",
        observables=("config.queues.*.cfstruct", "config.queues.*.name", "define_queue.ok", "define_queue.reason"),
        profiles=MQ,
    ),
    Rule(
        id="TOPOLOGY-014",
        title="IBM MQ needs CFCC level 9 or higher; Table 1's sizes are for level 14 (the V6 edition: level 9).",
        citation=Citation(
            SEED_001,
            "The level of coupling facility control code (CFCC) installed on the coupling facility ( IBM MQ requires "
            "Level 9 or higher).",
        ),
        status="normative",
        observables=("config.admin_table",),  # and cfconform size --admin --cfcc-level
        profiles=MQ,
    ),
    Rule(
        id="TOPOLOGY-015",
        title="The QSG name has up to four characters and differs from every queue manager name.",
        citation=Citation(
            "ibm-facts: 6.3 Numeric limits",
            'QSG name: "**up to four characters**", unique in the network, and different from any queue manager name.',
        ),
        status="normative",
        observables=("config.qsg", "config.qmgrs"),
        profiles=MQ,
    ),
)
