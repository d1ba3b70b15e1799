"""CAPACITY rules: full structures, FULLTHRESHOLD and SETXCF alter (seeds 001, 003; ibm-facts 1.8, 1.10, 3.3, 6.1).

Profiles ``mq`` and ``cqs``.
"""

from __future__ import annotations

from .catalogue import BOTH, MQ, SEED_001, SEED_002, SEED_003, Citation, Rule

RULES: tuple[Rule, ...] = (
    Rule(
        id="CAPACITY-001",
        title="A full structure (all entries or all elements used) rejects a put (MQ 2192, CQS STRUCTURE_FULL).",
        citation=Citation(
            SEED_001,
            "If no action is taken and a queue structure fills up, an MQRC_STORAGE_MEDIUM_FULL return code "
            "is returned to the application.",
        ),
        status="normative",
        observables=("put.ok", "put.reason", "put.usage", "inspect.queues.*.depth"),
        profiles=BOTH,
    ),
    Rule(
        id="CAPACITY-002",
        title="IXC585E is issued when entries or elements in use reach FULLTHRESHOLD (0 switches it off).",
        citation=Citation(
            SEED_001,
            "FULLTHRESHOLD sets the percentage value of the threshold at which z/OS® issues message IXC585E "
            "to indicate that the structure is getting full.",
        ),
        status="normative",
        observables=("put.signals", "signals:IXC585E", "inspect.structures.*.full_warning"),
        readings=("full_signal_timing",),
        profiles=BOTH,
    ),
    Rule(
        id="CAPACITY-003",
        title="IXC586I is issued when usage falls back below FULLTHRESHOLD.",
        citation=Citation(
            'ibm-facts: "CQS structure full monitoring" (IMS 15.5)',
            "IXC586I when usage goes back below it.",
        ),
        status="normative",
        observables=("get.signals", "commit.signals", "signals:IXC586I", "inspect.structures.*.full_warning"),
        readings=("full_signal_timing",),
        profiles=BOTH,
    ),
    Rule(
        id="CAPACITY-004",
        title="SETXCF START,ALTER to a size within INITSIZE..SIZE is accepted.",
        citation=Citation(
            'ibm-facts: IMS 13.1 "Using structure alter for CQS"',
            "must be within the range of values between INITSIZE and SIZE",
        ),
        status="normative",
        observables=(
            "setxcf_alter.ok",
            "inspect.structures.*.size_kb",
            "inspect.structures.*.entries_total",
            "inspect.structures.*.elements_total",
        ),
        profiles=BOTH,
    ),
    Rule(
        id="CAPACITY-005",
        title="SETXCF START,ALTER to a size above SIZE is refused.",
        citation=Citation(
            SEED_001,
            "where newsize is a value that is less than the value of SIZE specified on the CFRM policy for "
            "the structure",
        ),
        status="normative",
        observables=("setxcf_alter.ok", "setxcf_alter.reason", "alter_outcome.ok", "inspect.structures.*.size_kb"),
        profiles=BOTH,
    ),
    Rule(
        id="CAPACITY-006",
        title="SETXCF ALTER below INITSIZE or to exactly SIZE is implementation-defined; shrinking below use fails.",
        citation=Citation(
            "ibm-facts: 1.10 SETXCF START,ALTER size constraints",
            "Treat new < INITSIZE and new == SIZE as implementation-defined.",
        ),
        status="implementation-defined",
        observables=("setxcf_alter.ok", "setxcf_alter.reason", "inspect.structures.*.size_kb"),
        readings=("alter_below_initsize", "alter_at_size", "alter_not_larger"),
        profiles=BOTH,
    ),
    Rule(
        id="CAPACITY-007",
        title="Best practice keeps INITSIZE and SIZE within a factor of 2 (advice: a warning, never an error).",
        citation=Citation(
            SEED_001,
            "A best practice is to ensure that INITSIZE and SIZE are within a factor of 2.",
        ),
        status="normative",
        observables=("config.structures.*.initsize_kb", "config.structures.*.size_kb"),
        profiles=BOTH,
    ),
    Rule(
        id="CAPACITY-008",
        title="INITSIZE and SIZE are positive sizes in KB, with INITSIZE <= SIZE.",
        citation=Citation(
            SEED_001,
            "INITSIZE is the size in KB that the structure is allocated with when the first queue manager "
            "connects to it.",
        ),
        status="normative",
        observables=(
            "config.structures.*.initsize_kb",
            "config.structures.*.size_kb",
            "config.structures.*.ovflw_size_kb",
            "setxcf_alter.reason",
            "define_structure.reason",
        ),
        profiles=BOTH,
    ),
    Rule(
        id="CAPACITY-009",
        title="FULLTHRESHOLD is an integer percentage 0..100, default 80.",
        citation=Citation(
            "ibm-facts: the z/OSMF CFRM help text",
            "FULLTHRESHOLD valid values are 0–100 (decimal), default 80, where 0 means no monitoring or auto-alter.",
        ),
        status="normative",
        observables=("config.structures.*.fullthreshold", "define_structure.reason"),
        profiles=BOTH,
    ),
    Rule(
        id="CAPACITY-010",
        title="Retrieving a message (at commit under syncpoint) frees the CF storage it used.",
        citation=Citation(
            SEED_003,
            "Messages put on a shared queue are referenced in a coupling facility structure until they are "
            "retrieved by an MQGET.",
        ),
        status="normative",
        observables=(
            "get.usage",
            "commit.signals",
            "inspect.structures.*.entries_used",
            "inspect.structures.*.elements_used",
        ),
        profiles=BOTH,
    ),
    Rule(
        id="CAPACITY-011",
        title="AUTOALTER may change the entry:element ratio at any time; a report before it decides no later put.",
        citation=Citation(
            SEED_002,
            "The system provides AUTOALTER capabilities to adjust the ratio when necessary, but this is not very "
            "sensitive, so the amount of space actually available may be somewhat less.",
        ),
        status="implementation-defined",
        observables=(
            "put.usage",
            "inspect.structures.*.entries_total",
            "inspect.structures.*.elements_total",
        ),
        profiles=MQ,
    ),
    Rule(
        id="CAPACITY-012",
        title="Every shared message is an entry: a put adds an entry in use, a get outside syncpoint frees one.",
        citation=Citation(
            SEED_003,
            "Each message on a shared queue is represented by an entry in a z/OS® coupling facility list structure.",
        ),
        status="normative",
        observables=("put.usage", "get.usage", "inspect.structures.*.entries_used"),
        profiles=MQ,
    ),
)
