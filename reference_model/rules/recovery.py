"""RECOVERY rules: BACKUP/RECOVER CFSTRUCT and structure failure (seed 003; ibm-facts 5). Profile ``mq``."""

from __future__ import annotations

from .catalogue import MQ, SEED_003, Citation, Rule

RULES: tuple[Rule, ...] = (
    Rule(
        id="RECOVERY-001",
        title="BACKUP CFSTRUCT captures persistent messages; it needs CFLEVEL(3) or higher and RECOVER(YES).",
        citation=Citation(
            "ibm-facts: 5.1 BACKUP CFSTRUCT",
            "The command fails if the structure has CFLEVEL < 3 or RECOVER(NO).",
        ),
        status="normative",
        observables=("backup.ok", "backup.reason"),
        profiles=MQ,
    ),
    Rule(
        id="RECOVERY-002",
        title="MQI calls on a failed structure answer 2373 (MQRC_CF_STRUC_FAILED).",
        citation=Citation("ibm-facts: 5.3 CF structure status", "MQI calls on a FAILED structure get 2373."),
        status="normative",
        observables=("put.reason", "get.reason", "backup.reason", "inspect.structures.*.status"),
        profiles=MQ,
    ),
    Rule(
        id="RECOVERY-003",
        title="RECOVER CFSTRUCT restores the committed persistent messages as of the failure, in order.",
        citation=Citation(
            SEED_003,
            "Any activity since the last backup is replayed using the logs of all the queue managers in the "
            "queue-sharing group, and the CF structure is then restored up to the point before the failure.",
        ),
        status="normative",
        observables=(
            "recover.ok",
            "recover.reason",
            "inspect.queues.*.depth",
            "inspect.structures.*.status",
            "get.tag",
        ),
        profiles=MQ,
    ),
    Rule(
        id="RECOVERY-004",
        title="Nonpersistent messages are lost when their structure fails.",
        citation=Citation(
            "ibm-facts: 5.1 BACKUP CFSTRUCT",
            "Non-persistent messages are not backed up and cannot be recovered.",
        ),
        status="normative",
        observables=("inspect.queues.*.depth", "get.tag"),
        profiles=MQ,
    ),
    Rule(
        id="RECOVERY-005",
        title="RECOVER CFSTRUCT TYPE(PURGE) leaves the structure empty.",
        citation=Citation("ibm-facts: 5.2 RECOVER CFSTRUCT", "Any messages in the CF structures are lost"),
        status="normative",
        observables=("recover.ok", "inspect.queues.*.depth", "inspect.structures.*.status"),
        profiles=MQ,
    ),
    Rule(
        id="RECOVERY-006",
        title="RECOVER CFSTRUCT fails on a structure that has not failed (TYPE(PURGE): by reading).",
        citation=Citation(
            "ibm-facts: 5.2 RECOVER CFSTRUCT",
            "if neither the specified application structure nor its associated shared message data sets are "
            "flagged as being in a FAILED state",
        ),
        status="normative",
        observables=("recover.ok", "recover.reason"),
        readings=("recover_purge_nonfailed",),
        profiles=MQ,
    ),
    Rule(
        id="RECOVERY-007",
        title="RECOVER TYPE(NORMAL) needs an earlier backup to start from (NO_BACKUP otherwise).",
        citation=Citation(
            SEED_003,
            "This uses the backup record from Db2 to locate and restore persistent messages from the backup "
            "of the CF structure.",
        ),
        status="inferred",
        observables=("recover.ok", "recover.reason"),
        profiles=MQ,
    ),
    Rule(
        id="RECOVERY-008",
        title="Shared-queue messages, nonpersistent ones included, survive queue manager stops and restarts.",
        citation=Citation(
            'ibm-facts: "Persistence (MQLONG)" (9.1)',
            "Nonpersistent messages on shared queues survive queue-manager restarts",
        ),
        status="normative",
        observables=("inspect.queues.*.depth", "get.tag", "inspect.qmgrs.*.active"),
        profiles=MQ,
    ),
)
