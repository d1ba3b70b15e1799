"""Admissible readings of the places where IBM's text is ambiguous.

Each :class:`Ambiguity` lists the readings a fair suite must accept (the
AMBIGUOUS lines of ``shared/notes/ibm-facts.md``, checklist section 7).  A
:class:`Readings` record picks one reading per ambiguity; the model is a pure
function of the configuration *and* the readings, so an implementation that
follows one reading consistently conforms, and one that mixes readings does not.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping

import attrs


@attrs.frozen
class Ambiguity:
    """One ambiguous point: its question, readings, default and governing rules."""

    id: str
    question: str
    readings: tuple[str, ...]
    default: str
    rules: tuple[str, ...]
    source: str


AMBIGUITIES: Mapping[str, Ambiguity] = {
    a.id: a
    for a in (
        Ambiguity(
            "cqs_target",
            'What "20% below the overflow threshold" means for selection and for leaving overflow.',
            ("points", "relative", "drop-points", "drop-relative", "points-floor"),
            "points",
            ("CQS-007", "CQS-015"),
            "ibm-facts 1.3: (a) OVFLWMAX-20, (b) 0.8 x OVFLWMAX, (c) a drop of 20 from current usage; "
            "(a) below 20%, where 20 points below is no usage at all, may be read as an empty structure "
            "(points-floor: max(0, OVFLWMAX-20))",
        ),
        Ambiguity(
            "cqs_usage_metric",
            "Which usage CQS compares with OVFLWMAX.",
            ("elements", "max"),
            "elements",
            ("CQS-020",),
            "ibm-facts 1.1: OVFLWMAX counts data elements; FULLTHRESHOLD counts entries or elements",
        ),
        Ambiguity(
            "cqs_reselect",
            "In overflow mode, when a CQSPUT takes usage to OVFLWMAX again, does CQS select more queues?",
            ("none", "select"),
            "none",
            ("CQS-006", "CQS-007"),
            "seed 000: 'In overflow mode, CQS selects queues using the most space on the structure' (once, as "
            "overflow mode starts, or whenever usage reaches the threshold while it lasts: not stated)",
        ),
        Ambiguity(
            "cqs_scan_anchor",
            "Where the 15-minute overflow scan is anchored.",
            ("clock", "overflow-start"),
            "clock",
            ("CQS-013",),
            "seed 000: 'The queues are scanned every 15 minutes' (phase not stated)",
        ),
        Ambiguity(
            "offload_compare",
            "Are 'more than THn% full' and 'exceeding SZn' strict comparisons?",
            ("strict", "inclusive"),
            "strict",
            ("OFFLOAD-002",),
            "ibm-facts 2.3: IBM wording gives >, PI21909 customer text says 'reached'",
        ),
        Ambiguity(
            "offload_usage_metric",
            "Which structure usage the offload rules compare with OFFLDnTH.",
            ("max", "elements", "combined"),
            "max",
            ("OFFLOAD-012",),
            "ibm-facts 2.3: max(entries%, elements%), elements%, or combined storage %",
        ),
        Ambiguity(
            "forced_offload_boundary",
            "Above which length is a message too large to store in the structure?",
            ("63.75K", "63K"),
            "63K",
            ("OFFLOAD-004",),
            "seed 002 says 63.75 KB is too large to store; seeds 001/003 say data larger than 63 KB is always "
            "offloaded (ibm-facts 2.4); the default, 63K, breaks neither sentence",
        ),
        Ambiguity(
            "persistent_low_cflevel_rc",
            "Reason code for a persistent put to a CFLEVEL(1)/(2) structure.",
            ("2048", "2366"),
            "2048",
            ("CFLEVEL-002",),
            "ibm-facts 3.1: MQRC_PERSISTENT_NOT_ALLOWED or MQRC_WRONG_CF_LEVEL",
        ),
        Ambiguity(
            "large_low_cflevel_rc",
            "Reason code for a put over 63 KB to a CFLEVEL below 4 when MAXMSGL allows it.",
            ("2366", "2030"),
            "2366",
            ("CFLEVEL-003",),
            "ibm-facts 3.2: MQRC_WRONG_CF_LEVEL (primary) or MQRC_MSG_TOO_BIG_FOR_Q",
        ),
        Ambiguity(
            "qdepth_percent",
            "How QDEPTHHI/QDEPTHLO percentages become message counts.",
            ("real", "floor", "ceil"),
            "real",
            ("QDEPTH-013",),
            "ibm-facts 4.2: real comparison, or floor/ceil of pct x MAXDEPTH / 100",
        ),
        Ambiguity(
            "qfull_hi_flag",
            "Does a Queue Full event change QDPHIEV?",
            ("unchanged", "disabled"),
            "unchanged",
            ("QDEPTH-006",),
            "ibm-facts 4.3: the example never reaches this state",
        ),
        Ambiguity(
            "event_broadcast",
            "Do other queue managers issue event messages when the coordinator has PERFMEV DISABLED?",
            ("always", "if-coordinator-enabled"),
            "if-coordinator-enabled",
            ("QDEPTH-010",),
            "seed 004: 'If enabled for performance events, the coordinating queue manager ... Broadcasts' "
            "(the default reads it literally); ibm-facts 4.5: one message per active PERFMEV-ENABLED queue manager",
        ),
        Ambiguity(
            "recover_purge_nonfailed",
            "Is RECOVER CFSTRUCT TYPE(PURGE) accepted on a structure that has not failed?",
            ("rejected", "accepted"),
            "rejected",
            ("RECOVERY-006",),
            "ibm-facts 5.2: current text rejects; V5.3 text only rejects TYPE(NORMAL)",
        ),
        Ambiguity(
            "alter_below_initsize",
            "Is SETXCF ALTER to a size below INITSIZE accepted?",
            ("rejected", "accepted"),
            "rejected",
            ("CAPACITY-006",),
            "ibm-facts 1.10: IMS says INITSIZE..SIZE, Db2 allows below INITSIZE",
        ),
        Ambiguity(
            "cflevel5_decrease",
            "Does lowering CFLEVEL from 5 also need every queue on the structure empty?",
            ("guarded", "unguarded"),
            "guarded",
            ("CFLEVEL-009",),
            "ibm-facts 2: 'Decrease from 3 or from 4 only if ... empty'; from 5 'probably ... not verified'",
        ),
        Ambiguity(
            "alter_at_size",
            "Is SETXCF ALTER to exactly SIZE accepted?",
            ("accepted", "rejected"),
            "accepted",
            ("CAPACITY-006",),
            "ibm-facts 1.10: IMS and Db2 allow SIZE; MQ seed says 'less than SIZE'",
        ),
        Ambiguity(
            "alter_not_larger",
            "Is SETXCF ALTER to a size no larger than the current size (and within INITSIZE..SIZE) accepted?",
            ("accepted", "rejected"),
            "accepted",
            ("CAPACITY-006",),
            "seed 001: newsize 'greater than the current coupling facility size'; IMS: 'between INITSIZE and SIZE'",
        ),
        Ambiguity(
            "full_signal_timing",
            "Does IXC585E/IXC586I appear at the step that crosses FULLTHRESHOLD, or may z/OS report it later?",
            ("at-crossing", "deferred"),
            "at-crossing",
            ("CAPACITY-002", "CAPACITY-003"),
            "ibm-facts 1.8: issued when usage 'reaches FULLTHRESHOLD'; structure full monitoring is periodic",
        ),
        Ambiguity(
            "cqs_alter",
            "Does the structure alter CQS starts complete inside the CQSPUT that reached the threshold?",
            ("async", "sync"),
            "async",
            ("CQS-003", "CQS-004", "CQS-005"),
            "seed 000: 'CQS attempts to make the structure larger by initiating a structure alter. If the alter fails'",
        ),
        Ambiguity(
            "cqs_empty_overflow",
            "With OVFLWSTR, does overflow mode that selected no queue (every candidate vetoed) end, as "
            "'all queues have been removed', or stay?",
            ("ends", "stays", "next-scan"),
            "ends",
            ("CQS-014",),
            "seed 000: 'When all queues have been removed, CQS exits overflow mode' (none ever added): at "
            "once, never, or when the next 15-minute scan finds no queue in overflow mode",
        ),
        Ambiguity(
            "cqs_relief_timing",
            "Without OVFLWSTR, does overflow mode end at the CQSDEL that takes usage 20% below the "
            "threshold, or may it last until a scan up to 15 minutes later?",
            ("at-delete", "by-scan"),
            "at-delete",
            ("CQS-015",),
            "seed 000: 'CQS exits overflow mode when the primary structure usage drops 20% below the overflow "
            "threshold'; ibm-facts 1.5: 'the exit from overflow is eventually consistent. Allow a lag of up to "
            "one scan period'",
        ),
        Ambiguity(
            "offload_after_raise",
            "After ALTER CFSTRUCT raises CFLEVEL from below 5 to 5, are the OFFLDnSZ it does not name as they "
            "were (kept), or 64K, the rule off, as for a structure migrated from CFLEVEL 4?",
            ("kept", "off"),
            "kept",
            ("OFFLOAD-013", "OFFLOAD-014", "OFFLOAD-002"),
            "ibm-facts 2.1: 'keywords not specified are left unchanged'; AMBIGUOUS '/64K' default: '(a) 64K (rule "
            "off) is the default when the structure is ... migrated from CFLEVEL 4, to keep the old behaviour; "
            "(b) 64K is the default for any CFLEVEL < 5'",
        ),
        Ambiguity(
            "qstats_at_stop",
            "Does stopping a queue manager reset its statistics (MsgEnqCount, MsgDeqCount) for each queue?",
            ("kept", "reset"),
            "kept",
            ("QDEPTH-011",),
            "seed 004: an event message covers 'all the operations performed ... since the last time an event "
            "message was created, or since the statistics were last reset'; no document says whether a stop "
            "or restart resets them",
        ),
        Ambiguity(
            "nonshared_at_stop",
            "Do nonpersistent messages on a stopping queue manager's nonshared queues survive the stop?",
            ("kept", "lost"),
            "kept",
            ("QUEUE-005",),
            "ibm-facts 5.2: only shared queues' nonpersistent messages are said to survive restarts",
        ),
    )
}


def _readings_field(ambiguity_id: str) -> attrs.Attribute:
    amb = AMBIGUITIES[ambiguity_id]
    return attrs.field(default=amb.default, validator=attrs.validators.in_(amb.readings))


@attrs.frozen
class Readings:
    """One admissible reading per ambiguity (field name == ambiguity ID)."""

    cqs_target: str = _readings_field("cqs_target")
    cqs_usage_metric: str = _readings_field("cqs_usage_metric")
    cqs_scan_anchor: str = _readings_field("cqs_scan_anchor")
    cqs_reselect: str = _readings_field("cqs_reselect")
    offload_compare: str = _readings_field("offload_compare")
    offload_usage_metric: str = _readings_field("offload_usage_metric")
    forced_offload_boundary: str = _readings_field("forced_offload_boundary")
    persistent_low_cflevel_rc: str = _readings_field("persistent_low_cflevel_rc")
    large_low_cflevel_rc: str = _readings_field("large_low_cflevel_rc")
    qdepth_percent: str = _readings_field("qdepth_percent")
    qfull_hi_flag: str = _readings_field("qfull_hi_flag")
    event_broadcast: str = _readings_field("event_broadcast")
    recover_purge_nonfailed: str = _readings_field("recover_purge_nonfailed")
    alter_below_initsize: str = _readings_field("alter_below_initsize")
    alter_at_size: str = _readings_field("alter_at_size")
    cflevel5_decrease: str = _readings_field("cflevel5_decrease")
    alter_not_larger: str = _readings_field("alter_not_larger")
    full_signal_timing: str = _readings_field("full_signal_timing")
    cqs_alter: str = _readings_field("cqs_alter")
    nonshared_at_stop: str = _readings_field("nonshared_at_stop")
    qstats_at_stop: str = _readings_field("qstats_at_stop")
    cqs_empty_overflow: str = _readings_field("cqs_empty_overflow")
    cqs_relief_timing: str = _readings_field("cqs_relief_timing")
    offload_after_raise: str = _readings_field("offload_after_raise")

    def as_dict(self) -> dict[str, str]:
        return attrs.asdict(self)

    def differs_from_default(self) -> dict[str, str]:
        """The readings that are not the default, for compact reports."""
        return {k: v for k, v in self.as_dict().items() if v != AMBIGUITIES[k].default}


def readings_from_dict(values: Mapping[str, str]) -> Readings:
    """Build :class:`Readings`, naming the bad key or value on error."""
    from .errors import UNKNOWN_FIELD, ConfigurationError

    for key, value in values.items():
        if key not in AMBIGUITIES:
            raise ConfigurationError(f"readings.{key}", value, f"one of {sorted(AMBIGUITIES)}", UNKNOWN_FIELD)
        amb = AMBIGUITIES[key]
        if value not in amb.readings:
            raise ConfigurationError(f"readings.{key}", value, f"one of {list(amb.readings)}", amb.rules[0])
    return Readings(**values)


def all_readings(fixed: Mapping[str, str] | None = None) -> Iterator[Readings]:
    """Every combination of readings, holding ``fixed`` ones constant."""
    fixed = dict(fixed or {})
    keys = [k for k in AMBIGUITIES if k not in fixed]
    for combo in itertools.product(*(AMBIGUITIES[k].readings for k in keys)):
        yield Readings(**fixed, **dict(zip(keys, combo, strict=True)))
