"""OFFLOAD rules: MQ offload rules and options (seeds 002, 001, 003; ibm-facts 2). Profile ``mq``."""

from __future__ import annotations

from .catalogue import MQ, SEED_002, Citation, Rule

RULE_FIELDS = tuple(f"config.structures.*.offld{n}{k}" for n in (1, 2, 3) for k in ("th", "sz"))

RULES: tuple[Rule, ...] = (
    Rule(
        id="OFFLOAD-001",
        title="Rule pairs default to OFFLD1TH(70)/OFFLD1SZ(32K), OFFLD2TH(80)/OFFLD2SZ(4K), OFFLD3TH(90)/OFFLD3SZ(0K).",
        citation=Citation(
            SEED_002,
            "Rule pair 1 OFFLD1TH(70) and OFFLD1SZ(32K) If the coupling facility structure is more than 70% "
            "full offload data for messages exceeding 32 KB",
        ),
        status="normative",
        observables=(*RULE_FIELDS, "put.offloaded"),
        profiles=MQ,
    ),
    Rule(
        id="OFFLOAD-002",
        title="A rule offloads when usage > OFFLDnTH and size > OFFLDnSZ of the same rule; the rules are OR-ed.",
        citation=Citation(
            SEED_002,
            "If the coupling facility structure is more than 80% full offload data for messages exceeding 4 KB",
        ),
        status="normative",
        observables=("put.offloaded",),
        readings=("offload_compare", "offload_after_raise"),
        profiles=MQ,
    ),
    Rule(
        id="OFFLOAD-003",
        title="OFFLDnSZ(64K) switches its rule off.",
        citation=Citation(
            SEED_002,
            "If an offload rule has the OFFLD x SZ value of 64K this indicates that the rule is not in effect.",
        ),
        status="normative",
        observables=("put.offloaded",),
        profiles=MQ,
    ),
    Rule(
        id="OFFLOAD-004",
        title="A message too large for an entry (> 63.75 KB, or > 63 KB) is always offloaded at CFLEVEL(4) and up.",
        citation=Citation(
            SEED_002,
            "or if the message is greater than 63.75 KB and so, too large to store in the structure.",
        ),
        status="normative",
        observables=("put.offloaded", "put.usage"),
        readings=("forced_offload_boundary",),
        profiles=MQ,
    ),
    Rule(
        id="OFFLOAD-005",
        title="Each offloaded message still needs about 0.75 KB of CF storage: an entry plus at least 512 bytes.",
        citation=Citation(
            SEED_002,
            "Each message which is offloaded still requires 0.75 KB of storage in the coupling facility.",
        ),
        status="normative",
        observables=("put.usage", "inspect.structures.*.entries_used", "inspect.structures.*.elements_used"),
        profiles=MQ,
    ),
    Rule(
        id="OFFLOAD-006",
        title="OFFLOAD(SMDS|DB2) selects where offloaded message data is stored; OFFLOAD(SMDS) is the default.",
        citation=Citation(
            SEED_002,
            "The selection of SMDS or Db2 shared message storage is controlled with the OFFLOAD(SMDS|DB2) "
            "parameter on the CFSTRUCT definition. OFFLOAD(SMDS) is the default value.",
        ),
        status="normative",
        observables=("config.structures.*.offload", "define_structure.reason"),
        profiles=MQ,
    ),
    Rule(
        id="OFFLOAD-007",
        title="The OFFLOAD keyword is valid only at CFLEVEL(5).",
        citation=Citation(SEED_002, "The OFFLOAD parameter is only valid from CFLEVEL(5)."),
        status="normative",
        observables=(
            "config.structures.*.offload",
            "config.structures.*.cflevel",
            "define_structure.reason",
            "alter_structure.reason",
        ),
        profiles=MQ,
    ),
    Rule(
        id="OFFLOAD-008",
        title="Worked example: 1,000,000 x 0.75 KB = 768 MB = 18.75% of 4 GB, so OFFLD3TH around 80 (not 90).",
        citation=Citation(
            SEED_002,
            "then 1,000,000 * 0.75 KB are needed, which is 768 MB, 18.75% of 4 GB.",
        ),
        status="normative",
        observables=("config.structures.*.offld3th", "config.structures.*.offld3sz"),
        profiles=MQ,
    ),
    Rule(
        id="OFFLOAD-009",
        title="Worked example: a 10 GB structure with a 1M-message backlog needs OFFLD3TH at 92% or lower.",
        citation=Citation(
            SEED_002,
            "if the structure is about 10G bytes, the usage threshold for offloading all messages must be set "
            "to 92% or lower.",
        ),
        status="normative",
        observables=("config.structures.*.offld3th",),
        profiles=MQ,
    ),
    Rule(
        id="OFFLOAD-010",
        title="Aim to use at most 90% of the structure, so that example's OFFLD3TH is better set around 80%.",
        citation=Citation(
            SEED_002,
            "It may be better therefore to aim to use not more than 90% of the maximum structure space",
        ),
        status="normative",
        observables=("config.structures.*.offld3th",),
        profiles=MQ,
    ),
    Rule(
        id="OFFLOAD-011",
        title="OFFLDnTH is an integer 0..100 and OFFLDnSZ a size 0K..64K (IBM's ranges not found).",
        citation=Citation(
            "ibm-facts: 2.2 Ranges",
            "OFFLDnTH is plausibly an integer 0..100. OFFLDnSZ is plausibly an integer 0..64 with a K suffix.",
        ),
        status="inferred",
        observables=(*RULE_FIELDS, "define_structure.reason", "alter_structure.reason"),
        profiles=MQ,
    ),
    Rule(
        id="OFFLOAD-012",
        title="The offload rules compare OFFLDnTH with the structure's current usage (which usage: by reading).",
        citation=Citation(
            SEED_002,
            "You can also select which messages are offloaded, based on the size of the message and the "
            "current usage of the coupling facility structure (CF).",
        ),
        status="normative",
        observables=("put.offloaded", "put.usage"),
        readings=("offload_usage_metric",),
        profiles=MQ,
    ),
    Rule(
        id="OFFLOAD-014",
        title="OFFLDnTH(0) offloads every message its size selects once the structure is in use (0%: either).",
        citation=Citation(
            SEED_002,
            "then the threshold for the first rule could be set to 0% to offload all such messages.",
        ),
        status="normative",
        observables=("put.offloaded", "put.location"),
        readings=("offload_after_raise",),
        profiles=MQ,
    ),
    Rule(
        id="OFFLOAD-013",
        title="ALTER CFSTRUCT leaves the keywords it does not specify unchanged.",
        citation=Citation(
            "ibm-facts: 2.1 Syntax and defaults",
            "ALTER CFSTRUCT has the same offload keywords and no defaults; keywords not specified are left unchanged.",
        ),
        status="normative",
        observables=("alter_structure.ok", "alter_structure.reason", "put.offloaded"),
        readings=("offload_after_raise",),
        profiles=MQ,
    ),
)
