"""Per-rule examples for queue depth events (QDEPTH-001..016; seed 004, ibm-facts 4).

Reading-independent tests use MAXDEPTH values that are multiples of 100 (ibm-facts 4.2) and
are still run under every ``qdepth_percent`` reading to show that the readings agree there;
MAXDEPTH 7 with QDEPTHHI/QDEPTHLO 50 separates them.  Switches are reported as
``(QDPHIEV, QDPLOEV, QDPMAXEV)`` from the model's projection.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from cfconform.reference_model import Config, ConfigurationError, EventMessage, Model, QueueDef, Readings, StructureDef
from cfconform.reference_model.model import Observed
from cfconform.reference_model.operations import (
    AlterQueue,
    Backout,
    Commit,
    Get,
    Put,
    ResetQstats,
    SetPerfmev,
    StartQmgr,
    StopQmgr,
)  # fmt: skip
from cfconform.reference_model.outcomes import CMD_INVALID, Outcome
from cfconform.reference_model.readings import AMBIGUITIES

PERCENT = AMBIGUITIES["qdepth_percent"].readings
QFULL_HI = AMBIGUITIES["qfull_hi_flag"].readings
BROADCAST = AMBIGUITIES["event_broadcast"].readings
QMGRS = ("QM01", "QM02", "QM03")
T, F = True, False


def _model(
    readings: Readings | None = None,
    perfmev_disabled: tuple[str, ...] = (),
    qmgrs: tuple[str, ...] = QMGRS,
    shared: bool = True,
    **queue: object,
) -> Model:
    fields: dict[str, object] = {"maxdepth": 100, "qdepthhi": 80, "qdepthlo": 20, **queue}
    where: dict[str, object] = {"cfstruct": "APP1"} if shared else {"qmgr": qmgrs[0]}
    q = QueueDef("SQ1", **where, **fields)  # type: ignore[arg-type]
    config = Config(
        qmgrs=qmgrs,
        structures=(StructureDef("APP1", size_kb=65536),),
        queues=(q,),
        readings=readings or Readings(),
        perfmev_disabled=perfmev_disabled,
    )
    return Model(config)


def _switches(model: Model, queue: str = "SQ1") -> tuple[bool, bool, bool]:
    q = model.project()["queues"][queue]
    return q["qdphiev"], q["qdploev"], q["qdpmaxev"]


def _puts(model: Model, n: int, qmgr: str = "QM01", queue: str = "SQ1", **kw: object) -> list[Outcome]:
    return [model.step(Put(qmgr, queue, 10, **kw)) for _ in range(n)]  # type: ignore[arg-type]


def _gets(model: Model, n: int, qmgr: str = "QM01", queue: str = "SQ1", **kw: object) -> list[Outcome]:
    return [model.step(Get(qmgr, queue, **kw)) for _ in range(n)]  # type: ignore[arg-type]


def _firing(outcomes: Iterable[Outcome]) -> list[tuple[int, str]]:
    """(1-based position, kind) of every operation that produced event messages."""
    return [(i, o.events[0].kind) for i, o in enumerate(outcomes, 1) if o.events]


# -- QDEPTH-001 ---------------------------------------------------------------------------


@pytest.mark.parametrize("percent", PERCENT)
def test_qdepth_001_high_event_when_put_reaches_the_limit(percent: str) -> None:
    """MAXDEPTH 100, QDEPTHHI 80: the 80th put (depth 80) raises Queue Depth High, under every reading."""
    model = _model(Readings(qdepth_percent=percent), qdphiev=T)
    outcomes = _puts(model, 100)
    assert (
        [(80, "QDPHI")],
        True,
        False,
    ) == (_firing(outcomes), "QDEPTH-001" in outcomes[79].rules, "QDEPTH-001" in outcomes[78].rules)


@pytest.mark.parametrize("percent", PERCENT)
def test_qdepth_001_limit_scales_with_maxdepth(percent: str) -> None:
    """MAXDEPTH 300, QDEPTHHI 70: depth 210."""
    model = _model(Readings(qdepth_percent=percent), maxdepth=300, qdepthhi=70, qdphiev=T)
    assert [(210, "QDPHI")] == _firing(_puts(model, 300))


def test_qdepth_001_no_high_event_while_qdphiev_disabled() -> None:
    model = _model(qdphiev=F)
    assert ([], (F, F, F)) == (_firing(_puts(model, 100)), _switches(model))


def test_qdepth_001_high_event_on_a_nonshared_queue_with_perfmev_enabled() -> None:
    model = _model(shared=False, qdphiev=T)
    outcomes = _puts(model, 80)
    assert (
        [(80, "QDPHI")],
        (EventMessage("QM01", "QDPHI", "SQ1", 0, 80, 0),),
    ) == (_firing(outcomes), outcomes[-1].events)


# -- QDEPTH-002 ---------------------------------------------------------------------------


@pytest.mark.parametrize("percent", PERCENT)
def test_qdepth_002_low_event_when_get_reaches_the_limit(percent: str) -> None:
    """From depth 100, QDEPTHLO 20: the 80th get (depth 20) raises Queue Depth Low; puts never do."""
    model = _model(Readings(qdepth_percent=percent), qdploev=T)
    puts = _puts(model, 100)
    gets = _gets(model, 100)
    assert ([], [(80, "QDPLO")], True) == (_firing(puts), _firing(gets), "QDEPTH-002" in gets[79].rules)


def test_qdepth_002_no_low_event_while_qdploev_disabled() -> None:
    model = _model(qdploev=F)
    _puts(model, 100)
    assert [] == _firing(_gets(model, 100))


# -- QDEPTH-003 ---------------------------------------------------------------------------


def test_qdepth_003_queue_full_on_the_first_rejected_put() -> None:
    model = _model(qdpmaxev=T)
    ok = _puts(model, 100)
    first, second = _puts(model, 2)
    assert ([], False, 2053, True, ["QFULL"] * 3) == (
        _firing(ok),
        first.ok,
        first.reason,
        {"QDEPTH-015", "QDEPTH-003"} <= set(first.rules),
        [e.kind for e in first.events],
    )
    assert (False, 2053, True, False, ()) == (
        second.ok,
        second.reason,
        "QDEPTH-015" in second.rules,
        "QDEPTH-003" in second.rules,
        second.events,
    )


def test_qdepth_003_no_queue_full_event_while_qdpmaxev_disabled() -> None:
    model = _model(qdpmaxev=F)
    _puts(model, 100)
    out = model.step(Put("QM01", "SQ1", 10))
    assert (2053, True, False, ()) == (out.reason, "QDEPTH-015" in out.rules, "QDEPTH-003" in out.rules, out.events)


# -- QDEPTH-004/005/006: the toggling table (ibm-facts 4.3) --------------------------------


@pytest.mark.parametrize("lo_max", [(F, F), (F, T), (T, F), (T, T)])
def test_qdepth_004_high_event_toggles_switches(lo_max: tuple[bool, bool]) -> None:
    """Queue Depth High: QDPHIEV -> DISABLED, QDPLOEV -> ENABLED, QDPMAXEV -> ENABLED."""
    model = _model(qdphiev=T, qdploev=lo_max[0], qdpmaxev=lo_max[1])
    _puts(model, 80)
    assert (F, T, T) == _switches(model)


@pytest.mark.parametrize("hi_max", [(F, F), (F, T), (T, F), (T, T)])
def test_qdepth_005_low_event_toggles_switches(hi_max: tuple[bool, bool]) -> None:
    """Queue Depth Low: QDPHIEV -> ENABLED, QDPLOEV -> DISABLED, QDPMAXEV -> ENABLED."""
    model = _model(qdphiev=hi_max[0], qdploev=T, qdpmaxev=hi_max[1])
    _puts(model, 21)
    out = model.step(Get("QM01", "SQ1"))
    assert (["QDPLO"], (T, F, T)) == ([e.kind for e in out.events][:1], _switches(model))


@pytest.mark.parametrize("reading", QFULL_HI)
@pytest.mark.parametrize("hi_lo", [(F, F), (F, T), (T, F), (T, T)])
def test_qdepth_006_full_event_toggles_switches(hi_lo: tuple[bool, bool], reading: str) -> None:
    """Queue Full: QDPLOEV -> ENABLED, QDPMAXEV -> DISABLED, QDPHIEV unchanged (or disabled by reading).

    QDPHIEV ENABLED at Queue Full is reachable only by ALTER QLOCAL, done here after filling.
    """
    model = _model(Readings(qfull_hi_flag=reading))
    _puts(model, 100)
    model.step(AlterQueue("SQ1", {"qdphiev": hi_lo[0], "qdploev": hi_lo[1], "qdpmaxev": T}))
    out = model.step(Put("QM01", "SQ1", 10))
    hi_after = hi_lo[0] if reading == "unchanged" else F
    assert (["QFULL"], (hi_after, T, F)) == ([e.kind for e in out.events][:1], _switches(model))


@pytest.mark.parametrize("reading", QFULL_HI)
def test_qdepth_006_readings_differ_only_when_qdphiev_enabled(reading: str) -> None:
    model = _model(Readings(qfull_hi_flag=reading))
    _puts(model, 100)
    model.step(AlterQueue("SQ1", {"qdphiev": T, "qdpmaxev": T}))
    model.step(Put("QM01", "SQ1", 10))
    assert _switches(model)[0] is {"unchanged": True, "disabled": False}[reading]


#: The shape of Example 2, Table 13 (ibm-facts 4.3): MAXDEPTH 1000, QDEPTHHI 80, QDEPTHLO 20,
#: only QDPHIEV enabled at T0.  Each row: the event, the depth after it, the switches after it.
TABLE13 = [
    ("QDPHI", 800, (F, T, T)),  # T4: High only -> Low + Full
    ("QDPLO", 200, (T, F, T)),  # T6: -> High + Full
    ("QDPHI", 800, (F, T, T)),  # T8: -> Low + Full
    ("QFULL", 1000, (F, T, F)),  # T9: -> Low only
    ("QDPLO", 200, (T, F, T)),  # T12: -> High + Full
]


@pytest.mark.parametrize("percent", PERCENT)
@pytest.mark.parametrize("reading", QFULL_HI)
def test_qdepth_004_table13_sequence(reading: str, percent: str) -> None:
    model = _model(Readings(qfull_hi_flag=reading, qdepth_percent=percent), maxdepth=1000, qdphiev=T)
    assert (T, F, F) == _switches(model)
    seen = []
    for op, n in ((Put, 800), (Get, 600), (Put, 600), (Put, 201), (Get, 800)):
        for _ in range(n):
            out = model.step(op("QM01", "SQ1", 10) if op is Put else op("QM01", "SQ1"))
            if out.events:
                seen.append((out.events[0].kind, model.queues["SQ1"].depth, _switches(model)))
    assert TABLE13 == seen


# -- QDEPTH-007/008: shared versus nonshared with PERFMEV DISABLED (seed 004) --------------


@pytest.mark.parametrize("reading", BROADCAST)
def test_qdepth_007_shared_queue_toggles_with_perfmev_disabled(reading: str) -> None:
    """Every queue manager PERFMEV(DISABLED): the switches still toggle; no event message is issued."""
    model = _model(Readings(event_broadcast=reading), perfmev_disabled=QMGRS, qdphiev=T)
    outcomes = _puts(model, 80)
    assert ([], True, (F, T, T)) == (_firing(outcomes), "QDEPTH-001" in outcomes[-1].rules, _switches(model))


def test_qdepth_008_nonshared_queue_does_not_toggle_with_perfmev_disabled() -> None:
    model = _model(perfmev_disabled=("QM01",), shared=False, qdphiev=T)
    outcomes = _puts(model, 100)
    assert ([], (T, F, F)) == (_firing(outcomes), _switches(model))


@pytest.mark.parametrize("reading", BROADCAST)
def test_qdepth_008_seed004_sq1_lq1_example(reading: str) -> None:
    """Seed 004 literally: QM1 PERFMEV(DISABLED); SQ1 shared, LQ1 nonshared; both QDPHIEV(ENABLED)
    QDPLOEV(DISABLED) QDPMAXEV(DISABLED); put until the depth meets QDEPTHHI on both."""
    switches = {"qdphiev": T, "qdploev": F, "qdpmaxev": F}
    sq1 = QueueDef("SQ1", cfstruct="APP1", maxdepth=100, **switches)
    lq1 = QueueDef("LQ1", qmgr="QM1", maxdepth=100, **switches)
    config = Config(
        qmgrs=("QM1",), perfmev_disabled=("QM1",), queues=(sq1, lq1), readings=Readings(event_broadcast=reading)
    )
    model = Model(config)
    events = [e for q in ("SQ1", "LQ1") for o in _puts(model, 80, "QM1", q) for e in o.events]
    assert ((F, T, T), (T, F, F), []) == (_switches(model, "SQ1"), _switches(model, "LQ1"), events)
    model.step(SetPerfmev("QM1", True))
    assert (T, F, F) == _switches(model, "LQ1")  # unchanged until an event criterion is met again
    out = model.step(Put("QM1", "LQ1", 10))
    assert (
        (EventMessage("QM1", "QDPHI", "LQ1", 0, 81, 0),),
        (F, T, T),
        (F, T, T),
    ) == (out.events, _switches(model, "LQ1"), _switches(model, "SQ1"))


# -- QDEPTH-009/010: coordinating queue manager and CorrelId --------------------------------


@pytest.mark.parametrize("reading", BROADCAST)
def test_qdepth_009_coordinator_issues_first_with_a_new_correlid(reading: str) -> None:
    model = _model(Readings(event_broadcast=reading), qdphiev=T)
    high = _puts(model, 80, "QM02")[-1]
    low = _gets(model, 60, "QM03")[-1]
    assert (
        "QM02",
        "QM03",
        True,
    ) == (high.events[0].qmgr, low.events[0].qmgr, high.events[0].correl != low.events[0].correl)


@pytest.mark.parametrize("reading", BROADCAST)
def test_qdepth_010_others_issue_one_message_with_the_same_correlid(reading: str) -> None:
    model = _model(Readings(event_broadcast=reading), qdphiev=T)
    events = _puts(model, 80, "QM02")[-1].events
    assert (["QM02", "QM01", "QM03"], 1) == ([e.qmgr for e in events], len({e.correl for e in events}))


@pytest.mark.parametrize("reading", BROADCAST)
def test_qdepth_010_coordinator_perfmev_disabled(reading: str) -> None:
    """The detecting queue manager has PERFMEV(DISABLED): the readings differ (ibm-facts 4.5)."""
    model = _model(Readings(event_broadcast=reading), perfmev_disabled=("QM02",), qdphiev=T)
    events = _puts(model, 80, "QM02")[-1].events
    expected = {"always": ["QM01", "QM03"], "if-coordinator-enabled": []}[reading]
    assert (
        expected,
        True,
        (F, T, T),
    ) == ([e.qmgr for e in events], len({e.correl for e in events}) <= 1, _switches(model))


@pytest.mark.parametrize("reading", BROADCAST)
def test_qdepth_010_other_with_perfmev_disabled_issues_nothing(reading: str) -> None:
    model = _model(Readings(event_broadcast=reading), perfmev_disabled=("QM03",), qdphiev=T)
    assert ["QM01", "QM02"] == [e.qmgr for e in _puts(model, 80, "QM01")[-1].events]


# -- QDEPTH-011 ---------------------------------------------------------------------------


@pytest.mark.parametrize("reading", BROADCAST)
def test_qdepth_011_statistics_since_last_event_and_zero_when_idle(reading: str) -> None:
    model = _model(Readings(event_broadcast=reading), qdphiev=T)
    _puts(model, 50, "QM01")
    high = _puts(model, 30, "QM02")[-1].events
    low = _gets(model, 60, "QM03")[-1].events
    assert [
        ("QM02", "QDPHI", 30, 0),
        ("QM01", "QDPHI", 50, 0),
        ("QM03", "QDPHI", 0, 0),
    ] == [(e.qmgr, e.kind, e.enq, e.deq) for e in high]
    assert [
        ("QM03", "QDPLO", 0, 60),
        ("QM01", "QDPLO", 0, 0),
        ("QM02", "QDPLO", 0, 0),
    ] == [(e.qmgr, e.kind, e.enq, e.deq) for e in low]


@pytest.mark.parametrize(("reading", "enq"), [("kept", 80), ("reset", 50)])
def test_qdepth_011_a_stop_keeps_or_resets_the_statistics_by_reading(reading: str, enq: int) -> None:
    """Whether a stop or restart resets a queue manager's counts is not documented (qstats_at_stop)."""
    model = _model(Readings(qstats_at_stop=reading), qdphiev=T)
    _puts(model, 30, "QM01")
    model.step(StopQmgr("QM01"))
    model.step(StartQmgr("QM01"))
    high = _puts(model, 50, "QM01")[-1].events
    assert ("QM01", enq) == (high[0].qmgr, high[0].enq)


def test_qdepth_011_full_event_statistics_count_the_rejected_put_out() -> None:
    model = _model(qdpmaxev=T)
    _puts(model, 100, "QM01")
    events = model.step(Put("QM02", "SQ1", 10)).events
    assert [("QM02", 0, 0), ("QM01", 100, 0), ("QM03", 0, 0)] == [(e.qmgr, e.enq, e.deq) for e in events]


# -- QDEPTH-012 ---------------------------------------------------------------------------


def test_qdepth_012_backout_does_not_restore_switches_after_high() -> None:
    model = _model(qdphiev=T)
    fired = _firing(_puts(model, 80, syncpoint=True))
    model.step(Backout("QM01"))
    assert ([(80, "QDPHI")], 0, (F, T, T)) == (fired, model.queues["SQ1"].depth, _switches(model))


def test_qdepth_012_backout_does_not_restore_switches_after_low() -> None:
    model = _model(qdploev=T)
    _puts(model, 21)
    out = model.step(Get("QM01", "SQ1", syncpoint=True))
    model.step(Backout("QM01"))
    assert ("QDPLO", 21, (T, F, T)) == (out.events[0].kind, model.queues["SQ1"].depth, _switches(model))


def test_qdepth_012_commit_and_backout_produce_the_same_events() -> None:
    results = []
    for settle in (Commit, Backout):
        model = _model(qdphiev=T)
        outcomes = _puts(model, 80, syncpoint=True)
        model.step(settle("QM01"))
        results.append((_firing(outcomes), _switches(model)))
    assert results[0] == results[1] == ([(80, "QDPHI")], (F, T, T))


# -- QDEPTH-013 ---------------------------------------------------------------------------

#: MAXDEPTH 7, limit 50% = 3.5 messages: depth at which each event first fires.
HIGH_AT = {"real": 4, "floor": 3, "ceil": 4}
LOW_AT = {"real": 3, "floor": 3, "ceil": 4}


@pytest.mark.parametrize("percent", PERCENT)
def test_qdepth_013_high_limit_conversion_readings(percent: str) -> None:
    model = _model(Readings(qdepth_percent=percent), maxdepth=7, qdepthhi=50, qdphiev=T)
    assert [(HIGH_AT[percent], "QDPHI")] == _firing(_puts(model, 7))


@pytest.mark.parametrize("percent", PERCENT)
def test_qdepth_013_low_limit_conversion_readings(percent: str) -> None:
    model = _model(Readings(qdepth_percent=percent), maxdepth=7, qdepthlo=50, qdploev=T)
    _puts(model, 7)
    fired = _firing(_gets(model, 7))
    assert [(7 - LOW_AT[percent], "QDPLO")] == fired


@pytest.mark.parametrize("percent", PERCENT)
def test_qdepth_013_readings_agree_on_multiples_of_100(percent: str) -> None:
    model = _model(Readings(qdepth_percent=percent), maxdepth=700, qdepthhi=50, qdphiev=T)
    assert [(350, "QDPHI")] == _firing(_puts(model, 700))


# -- QDEPTH-014 ---------------------------------------------------------------------------


@pytest.mark.parametrize(("field", "value", "rule"), [
    ("qdepthhi", -1, "QDEPTH-014"), ("qdepthhi", 101, "QDEPTH-014"), ("qdepthlo", -1, "QDEPTH-014"),
    ("qdepthlo", 101, "QDEPTH-014"), ("maxdepth", -1, "QDEPTH-018"), ("maxdepth", 1_000_000_000, "QDEPTH-018"),
])  # fmt: skip
def test_qdepth_014_and_018_out_of_range_refused(field: str, value: int, rule: str) -> None:
    with pytest.raises(ConfigurationError) as info:
        QueueDef("Q1", cfstruct="APP1", **{field: value})  # type: ignore[arg-type]
    assert (f"queues[Q1].{field}", value, rule) == (info.value.field, info.value.value, info.value.rule_id)


@pytest.mark.parametrize(("field", "value"), [
    ("qdepthhi", 0), ("qdepthhi", 100), ("qdepthlo", 0), ("qdepthlo", 100),
    ("maxdepth", 0), ("maxdepth", 999_999_999),
])  # fmt: skip
def test_qdepth_014_range_bounds_accepted(field: str, value: int) -> None:
    assert value == getattr(QueueDef("Q1", cfstruct="APP1", **{field: value}), field)  # type: ignore[arg-type]


def test_qdepth_014_alter_out_of_range_refused() -> None:
    model = _model()
    out = model.step(AlterQueue("SQ1", {"qdepthhi": 101}))
    assert (
        False,
        CMD_INVALID,
        ("QDEPTH-014",),
        80,
    ) == (out.ok, out.reason, out.rules, model.queues["SQ1"].defn.qdepthhi)


# -- QDEPTH-015 ---------------------------------------------------------------------------


def test_qdepth_015_put_at_maxdepth_gives_2053_and_stores_nothing() -> None:
    model = _model()
    _puts(model, 100)
    usage = model.structures["APP1"].pools.as_tuple()
    out = model.step(Put("QM01", "SQ1", 10))
    assert (False, 2053, True, 100, usage) == (
        out.ok,
        out.reason,
        "QDEPTH-015" in out.rules,
        model.queues["SQ1"].depth,
        model.structures["APP1"].pools.as_tuple(),
    )


def test_qdepth_015_maxdepth_zero_refuses_every_put() -> None:
    model = _model(maxdepth=0)
    assert [(False, 2053), (False, 2053)] == [(o.ok, o.reason) for o in _puts(model, 2)]


def test_qdepth_015_uncommitted_puts_count_toward_maxdepth() -> None:
    model = _model(maxdepth=2)
    _puts(model, 2, syncpoint=True)
    refused = model.step(Put("QM02", "SQ1", 10))
    model.step(Backout("QM01"))
    accepted = model.step(Put("QM02", "SQ1", 10))
    assert ((False, 2053), True) == ((refused.ok, refused.reason), accepted.ok)


def test_qdepth_015_a_get_makes_room() -> None:
    model = _model(maxdepth=2)
    _puts(model, 2)
    model.step(Get("QM01", "SQ1"))
    assert model.step(Put("QM01", "SQ1", 10)).ok is True


# -- QDEPTH-016 ---------------------------------------------------------------------------


@pytest.mark.parametrize("reading", BROADCAST)
def test_qdepth_016_stopped_queue_manager_issues_nothing(reading: str) -> None:
    model = _model(Readings(event_broadcast=reading), qdphiev=T, qdploev=T)
    model.step(StopQmgr("QM03"))
    high = _puts(model, 80, "QM01")[-1].events
    model.step(StartQmgr("QM03"))
    low = _gets(model, 60, "QM02")[-1].events
    assert (["QM01", "QM02"], ["QM02", "QM01", "QM03"]) == ([e.qmgr for e in high], [e.qmgr for e in low])


@pytest.mark.parametrize("reading", BROADCAST)
def test_qdepth_016_only_active_perfmev_enabled_qmgrs_issue(reading: str) -> None:
    """QM02 stopped, QM03 PERFMEV(DISABLED): only the coordinator QM01 issues a message."""
    model = _model(Readings(event_broadcast=reading), perfmev_disabled=("QM03",), qdphiev=T)
    model.step(StopQmgr("QM02"))
    events = _puts(model, 80, "QM01")[-1].events
    assert [("QM01", "QDPHI")] == [(e.qmgr, e.kind) for e in events]


# -- QDEPTH-017 ---------------------------------------------------------------------------


def test_qdepth_017_reset_qstats_restarts_only_the_issuing_queue_managers_counts() -> None:
    model = _model(qdphiev=T)
    _puts(model, 30, "QM01")
    _puts(model, 20, "QM02")
    reset = model.step(ResetQstats("QM01", "SQ1"))
    _puts(model, 5, "QM01")
    high = _puts(model, 25, "QM02")[-1].events
    assert (True, [("QM02", 45, 0), ("QM01", 5, 0), ("QM03", 0, 0)]) == (
        reset.ok,
        [(e.qmgr, e.enq, e.deq) for e in high],
    )


def test_qdepth_017_reset_qstats_on_a_stopped_queue_manager_fails() -> None:
    model = _model()
    model.step(StopQmgr("QM02"))
    out = model.step(ResetQstats("QM02", "SQ1"))
    assert (False, ("QUEUE-005",)) == (out.ok, out.rules)


def test_qdepth_018_maxdepth_past_the_models_range_accepted_when_the_implementation_accepts_it() -> None:
    """QDEPTH-018 is inferred (no sentence states MAXDEPTH's range): in checker mode an implementation
    that takes MAXDEPTH(1000000000) is followed, as for the other undecided bounds."""
    model = _model()
    op = AlterQueue("SQ1", {"maxdepth": 1_000_000_000})
    assert not model.copy().step(op).ok  # (the model's own range)
    hint = Observed(Outcome("alter_queue", True), {}, {})
    assert (True, 1_000_000_000) == (model.step(op, None, hint).ok, model.queues["SQ1"].defn.maxdepth)
