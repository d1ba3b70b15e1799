"""CQS rules: IMS CQS structure overflow (seed 000; ibm-facts 1). Profile ``cqs``."""

from __future__ import annotations

from .catalogue import CQS, SEED_000, Citation, Rule

RULES: tuple[Rule, ...] = (
    Rule(
        id="CQS-001",
        title="OVFLWMAX defaults to 70%: CQS reacts at 70% primary usage unless OVFLWMAX is set.",
        citation=Citation(
            SEED_000,
            "The default overflow threshold is 70%, but you can change the default by defining the "
            "OVFLWMAX parameter in the CQSSGxxx member of the PROCLIB data set.",
        ),
        status="normative",
        observables=("put.signals", "signals:ALTER", "inspect.structures.*.alter_pending"),
        profiles=CQS,
    ),
    Rule(
        id="CQS-002",
        title="OVFLWMAX is set in CQSSGxxx; the model accepts integers 0..100 (IBM's range not found).",
        citation=Citation(
            'ibm-facts: "CQSSGxxx member of the IMS PROCLIB data set" (IMS 15.4)',
            "The model should reject only values outside 0..100, or make the bounds configurable.",
        ),
        status="normative",
        observables=("config.structures.*.ovflwmax", "define_structure.ok", "define_structure.reason"),
        profiles=CQS,
    ),
    Rule(
        id="CQS-003",
        title="At OVFLWMAX primary usage CQS first starts a structure alter; an alter outcome needs a pending alter.",
        citation=Citation(
            SEED_000,
            "When the usage of a structure reaches the overflow threshold, CQS attempts to make the "
            "structure larger by initiating a structure alter.",
        ),
        status="normative",
        observables=(
            "put.signals",
            "signals:ALTER",
            "inspect.structures.*.alter_pending",
            "alter_outcome.ok",
            "alter_outcome.reason",
        ),
        readings=("cqs_alter",),
        profiles=CQS,
    ),
    Rule(
        id="CQS-004",
        title="A successful alter grows the primary structure to the new size and starts no overflow mode.",
        citation=Citation(
            'ibm-facts: "IMS/ESA Shared Queues" Redbook ch.10',
            "The CQS-initiated alter grows the primary structure from INITSIZE toward SIZE",
        ),
        status="normative",
        observables=(
            "alter_outcome.ok",
            "alter_outcome.usage",
            "inspect.structures.*.size_kb",
            "inspect.structures.*.overflow_mode",
        ),
        readings=("cqs_alter",),
        profiles=CQS,
    ),
    Rule(
        id="CQS-005",
        title="A failed or z/OS-preempted alter puts the structure in overflow mode, even below the threshold.",
        citation=Citation(
            SEED_000,
            "If CQS does not succeed in altering a structure's size, the structure goes into overflow mode.",
        ),
        status="normative",
        observables=("alter_outcome.signals", "signals:OVERFLOW_ON", "inspect.structures.*.overflow_mode"),
        readings=("cqs_alter",),
        profiles=CQS,
    ),
    Rule(
        id="CQS-006",
        title="Overflow candidates are whole queues, in descending order of the space they use on the primary.",
        citation=Citation(
            SEED_000,
            "In overflow mode, CQS selects queues using the most space on the structure as candidates for "
            "overflow processing.",
        ),
        status="normative",
        observables=("signals:OVERFLOW_QUEUE", "inspect.structures.*.overflow_queues"),
        readings=("cqs_reselect",),
        profiles=CQS,
    ),
    Rule(
        id="CQS-007",
        title="Selection stops once projected primary usage is 20% below the threshold (overshoot allowed).",
        citation=Citation(
            SEED_000,
            "CQS stops selecting queues when enough queues have been selected to cause the primary structure "
            "usage to fall 20% below the overflow threshold.",
        ),
        status="normative",
        observables=("signals:OVERFLOW_QUEUE", "inspect.structures.*.overflow_queues"),
        readings=("cqs_target", "cqs_reselect"),
        profiles=CQS,
    ),
    Rule(
        id="CQS-008",
        title="Structure activity is quiesced while queues are selected: selection is atomic in one step.",
        citation=Citation(
            SEED_000,
            "CQS stops all activity against the structure while the queues are being selected.",
        ),
        status="normative",
        observables=("alter_outcome.signals", "inspect.structures.*.overflow_queues"),
        profiles=CQS,
    ),
    Rule(
        id="CQS-009",
        title="The Queue Overflow exit approves or vetoes each candidate; a vetoed queue is skipped for the next.",
        citation=Citation(
            SEED_000,
            "CQS drives the Queue Overflow User-Supplied exit routine with the candidate queue names, which "
            "the exit then approves or rejects for overflow processing.",
        ),
        status="normative",
        observables=("signals:OVERFLOW_QUEUE", "inspect.structures.*.overflow_queues"),
        profiles=CQS,
    ),
    Rule(
        id="CQS-010",
        title="With no Queue Overflow exit defined, every candidate queue is approved.",
        citation=Citation(
            'ibm-facts: "CQS Queue Overflow user-supplied exit routine" (IMS 15.3, Chinese edition)',
            "If no exit is defined, every selected queue is approved.",
        ),
        status="normative",
        observables=("signals:OVERFLOW_QUEUE", "inspect.structures.*.overflow_queues"),
        profiles=CQS,
    ),
    Rule(
        id="CQS-011",
        title="With OVFLWSTR, approved queues' data objects move to the overflow structure; never in both.",
        citation=Citation(
            SEED_000,
            "If an overflow structure is defined, CQS allocates the overflow structure and moves the data "
            "objects associated with the approved queues to the overflow structure.",
        ),
        status="normative",
        observables=(
            "alter_outcome.usage",
            "inspect.queues.*.overflow",
            "inspect.structures.*.overflow_queues",
            "inspect.structures.*.entries_used",
            "inspect.structures.*.elements_used",
            "config.structures.*.ovflwstr",
        ),
        profiles=CQS,
    ),
    Rule(
        id="CQS-012",
        title="Without OVFLWSTR, a CQSPUT to an approved queue is rejected (abstract reason REJECTED_OVERFLOW).",
        citation=Citation(
            SEED_000,
            "If an overflow structure is not defined, CQS rejects CQSPUT requests for the approved queues.",
        ),
        status="normative",
        observables=("put.ok", "put.reason"),
        profiles=CQS,
    ),
    Rule(
        id="CQS-013",
        title="With OVFLWSTR a queue leaves overflow only at a 15-minute scan finding it empty, never between.",
        citation=Citation(
            SEED_000,
            "a queue remains in overflow mode until CQS detects that there are no more entries in the queue. "
            "(The queues are scanned every 15 minutes.)",
        ),
        status="normative",
        observables=(
            "advance_clock.signals",
            "signals:OVERFLOW_QUEUE_OFF",
            "inspect.queues.*.overflow",
            "inspect.structures.*.overflow_queues",
            "inspect.clock",
        ),
        readings=("cqs_scan_anchor",),
        profiles=CQS,
    ),
    Rule(
        id="CQS-014",
        title="With OVFLWSTR, overflow mode ends when no queue remains in overflow mode.",
        citation=Citation(SEED_000, "When all queues have been removed, CQS exits overflow mode."),
        status="normative",
        observables=("signals:OVERFLOW_OFF", "inspect.structures.*.overflow_mode"),
        readings=("cqs_empty_overflow",),
        profiles=CQS,
    ),
    Rule(
        id="CQS-015",
        title="Without OVFLWSTR, overflow mode ends when primary usage drops 20% below the overflow threshold.",
        citation=Citation(
            SEED_000,
            "If no overflow structure is allocated, CQS exits overflow mode when the primary structure usage "
            "drops 20% below the overflow threshold.",
        ),
        status="normative",
        observables=("get.signals", "signals:OVERFLOW_OFF", "inspect.structures.*.overflow_mode"),
        readings=("cqs_target", "cqs_relief_timing"),
        profiles=CQS,
    ),
    Rule(
        id="CQS-016",
        title="Structure overflow is not supported for resource structures; CQS fields are invalid for mq.",
        citation=Citation(SEED_000, "Structure overflow is not supported for resource structures."),
        status="normative",
        observables=(
            "config.structures.*.resource",
            "config.structures.*.ovflwstr",
            "config.structures.*.ovflwmax",
            "define_structure.ok",
            "define_structure.reason",
            "signals:ALTER",
        ),
        profiles=("mq", "cqs"),
    ),
    Rule(
        id="CQS-017",
        title="Messages longer than LGMSGSZ go in parts: first on the ready queue, the rest on the staging queue.",
        citation=Citation(
            SEED_000,
            "The first part of a message is placed on the transaction or LTERM ready queue. The second and "
            "subsequent parts are placed on a secondary queue called the staging queue.",
        ),
        status="normative",
        observables=("put.usage", "inspect.structures.*.staging_depth", "inspect.queues.*.depth"),
        profiles=CQS,
    ),
    Rule(
        id="CQS-018",
        title="The staging queue is never selected for overflow processing.",
        citation=Citation(SEED_000, "The staging queue is not eligible for overflow processing."),
        status="normative",
        observables=(
            "signals:OVERFLOW_QUEUE",
            "inspect.structures.*.overflow_queues",
            "inspect.structures.*.staging_depth",
        ),
        profiles=CQS,
    ),
    Rule(
        id="CQS-019",
        title="Only first parts of large messages move to the overflow structure; staging parts stay on the primary.",
        citation=Citation(
            SEED_000,
            "Any parts of a message that are on the staging queue remain on the primary structure.",
        ),
        status="normative",
        observables=(
            "alter_outcome.usage",
            "inspect.structures.*.staging_depth",
            "inspect.structures.*.entries_used",
            "inspect.structures.*.elements_used",
        ),
        profiles=CQS,
    ),
    Rule(
        id="CQS-020",
        title="OVFLWMAX is compared with the primary structure's data-element usage.",
        citation=Citation(
            'ibm-facts: IMS 15.3 "Using structure alter for CQS" (Chinese edition)',
            "specifies the percentage of the structure's *elements* that must be in use to trigger CQS "
            "overflow processing",
        ),
        status="normative",
        observables=("put.signals", "signals:ALTER", "inspect.structures.*.alter_pending"),
        readings=("cqs_usage_metric",),
        profiles=CQS,
    ),
    Rule(
        id="CQS-021",
        title="LGMSGSZ is in bytes, rounded up to a multiple of 4; values above 30632 are set to 30632.",
        citation=Citation(
            'ibm-facts: "LGMSGSZ= parameter for procedures" (IMS 15.1)',
            "A larger value is set to 30632.",
        ),
        status="normative",
        observables=("config.lgmsgsz", "put.usage", "inspect.structures.*.staging_depth"),
        profiles=CQS,
    ),
    Rule(
        id="CQS-022",
        title="While a queue is in overflow mode with OVFLWSTR, its new data objects go to the overflow structure.",
        citation=Citation(
            'ibm-facts: "IMS in the Parallel Sysplex Vol. I"',
            "that a queue **cannot be in both** the primary and the overflow structure",
        ),
        status="inferred",
        observables=("put.ok", "put.usage", "inspect.structures.*.entries_used", "inspect.structures.*.elements_used"),
        profiles=CQS,
    ),
)
