"""CQS-001..022: IMS CQS structure overflow (seed 000, ibm-facts 1).

Every primary structure here has 1000 entries and 1000 elements (500 KB at
ratio 1 under a tidy accounting with no overhead), so one small data object
(one element) is 0.1% usage and usage figures read directly off message counts.
Rules with an ambiguous reading are checked under every admissible reading.
"""

from __future__ import annotations

import pytest

from cfconform.reference_model.accounting import pool_totals
from cfconform.reference_model.config import Accounting, Config, QueueDef, StructureDef
from cfconform.reference_model.errors import ConfigurationError
from cfconform.reference_model.model import Model, step
from cfconform.reference_model.operations import (
    AdvanceClock,
    AlterOutcome,
    DefineStructure,
    Get,
    Inspect,
    Put,
    SetOverflowExit,
)
from cfconform.reference_model.outcomes import CMD_INVALID, CMD_NO_ALTER_PENDING, CQS_REJECTED_OVERFLOW
from cfconform.reference_model.readings import AMBIGUITIES, Readings
from cfconform.reference_model.validation import LGMSGSZ_MAX, round_lgmsgsz

TIDY = Accounting(overhead=1.0, fixed_kb=0)
DEFAULTS = Readings()
SMALL = 100  # bytes: one element with the 128-byte header
TARGETS = AMBIGUITIES["cqs_target"].readings
ANCHORS = AMBIGUITIES["cqs_scan_anchor"].readings
METRICS = AMBIGUITIES["cqs_usage_metric"].readings

# The "ladder": 800 elements (80%), so a failed alter has base usage 80 and the
# cqs_target readings give targets 50 (points), 56 (relative), 60 (drop-points)
# and 64 (drop-relative).  Largest first: QE 100, QD 70, QC 50, QB 45, QA 40, R* 33.
LADDER = {"QA": 40, "QB": 45, "QC": 50, "QD": 70, "QE": 100} | {f"R{i:02}": 33 for i in range(1, 16)}
LADDER_SELECTION = {
    "points": ["QE", "QD", "QC", "QB", "QA"],  # 80 -> 70 -> 63 -> 58 -> 53.5 -> 49.5 <= 50
    "relative": ["QE", "QD", "QC", "QB"],  # ... 58 -> 53.5 <= 56
    "drop-points": ["QE", "QD", "QC"],  # ... 63 -> 58 <= 60
    "drop-relative": ["QE", "QD"],  # 80 -> 70 -> 63 <= 64
    "points-floor": ["QE", "QD", "QC", "QB", "QA"],  # as points: 70 - 20 is above 0
}
# The "simple" structure: 700 elements (70%); A alone brings usage to 40%.
SIMPLE = {"A": 300, "B": 250, "C": 150}


def build(
    queues,
    *,
    ovflwmax=None,
    ovflwstr="OVFL",
    readings=DEFAULTS,
    size_kb=500,
    initsize_kb=None,
    ratio=1,
    lgmsgsz=4096,
    overflow_exit=None,
    resource=False,
    fullthreshold=0,
    ovflw_size_kb=8192,
) -> Model:
    """A cqs-profile model with primary PRI; FULLTHRESHOLD off so signals are CQS's only."""
    sd = StructureDef(
        "PRI",
        size_kb=size_kb,
        initsize_kb=initsize_kb,
        ratio=ratio,
        ovflwmax=ovflwmax,
        ovflwstr=ovflwstr,
        resource=resource,
        fullthreshold=fullthreshold,
        ovflw_size_kb=ovflw_size_kb,
    )
    cfg = Config(
        profile="cqs",
        structures=(sd,),
        queues=tuple(QueueDef(q, cfstruct="PRI") for q in queues),
        readings=readings,
        accounting=TIDY,
        lgmsgsz=lgmsgsz,
        overflow_exit=overflow_exit,
    )
    return Model(cfg)


def fill(model: Model, counts: dict[str, int], length: int = SMALL) -> list:
    """Put ``counts[q]`` data objects on each queue, queue by queue, in the mapping's order."""
    return [model.step(Put("QM01", q, length, tag=i)) for q, n in counts.items() for i in range(n)]


def drain(model: Model, queue: str, n: int | None = None) -> list:
    count = model.project()["queues"][queue]["depth"] if n is None else n
    return [model.step(Get("QM01", queue)) for _ in range(count)]


def fail(model: Model):
    return model.step(AlterOutcome("PRI", False))


def prim(model: Model) -> dict:
    return model.project()["structures"]["PRI"]


def signals(outs) -> list[str]:
    return [s for o in outs for s in o.signals]


def selected(out) -> list[str]:
    """Queues put into overflow mode by a failed alter, in selection order."""
    return [s.split()[2] for s in out.signals if s.startswith("OVERFLOW_QUEUE ")]


def ladder(reading: str = "points", **kw) -> Model:
    model = build(LADDER, readings=Readings(cqs_target=reading), **kw)
    fill(model, LADDER)
    return model


def simple(reading: str = "points", **kw) -> Model:
    model = build(SIMPLE, readings=Readings(cqs_target=reading), **kw)
    fill(model, SIMPLE)
    return model


def test_cqs_020_test_structures_have_1000_entries_and_elements():
    assert ((1000, 1000), 1) == (pool_totals(500, 1, TIDY), build(["Q"]).step(Put("QM01", "Q", SMALL)).usage[2])


# -- CQS-001/002: OVFLWMAX -------------------------------------------------------------------------


def test_cqs_001_ovflwmax_defaults_to_70():
    assert 70 == StructureDef("PRI").effective_ovflwmax


def test_cqs_001_no_alter_below_70_percent_by_default():
    model = build(["Q"])
    assert [] == signals(fill(model, {"Q": 699}))


def test_cqs_001_alter_at_70_percent_by_default():
    model = build(["Q"])
    fill(model, {"Q": 699})
    assert ("ALTER PRI",) == model.step(Put("QM01", "Q", SMALL)).signals


@pytest.mark.parametrize(("ovflwmax", "first_alter_at"), [(0, 1), (1, 10), (50, 500), (85, 850), (100, 1000)])
def test_cqs_002_ovflwmax_is_configurable(ovflwmax, first_alter_at):
    model = build(["Q"], ovflwmax=ovflwmax)
    outs = fill(model, {"Q": first_alter_at})
    assert ([], ("ALTER PRI",)) == (signals(outs[:-1]), outs[-1].signals)


@pytest.mark.parametrize("bad", [-1, 101, "70", 70.0, True])
def test_cqs_002_ovflwmax_outside_0_to_100_is_an_error(bad):
    with pytest.raises(ConfigurationError) as err:
        StructureDef("PRI", ovflwmax=bad)
    assert ("structures[PRI].ovflwmax", bad, "CQS-002") == (err.value.field, err.value.value, err.value.rule_id)


# -- CQS-003/004/005: alter first, then overflow ---------------------------------------------------


def test_cqs_003_reaching_threshold_signals_alter_first():
    model = build(["Q"])
    out = fill(model, {"Q": 700})[-1]
    assert (("ALTER PRI",), True) == (out.signals, "CQS-003" in out.rules)


def test_cqs_003_alter_pending_not_overflow_until_z_os_answers():
    model = build(["Q"])
    fill(model, {"Q": 750})
    p = prim(model)
    assert (True, False, []) == (p["alter_pending"], p["overflow_mode"], p["overflow_queues"])


def test_cqs_003_one_alter_while_pending():
    model = build(["Q"])
    assert ["ALTER PRI"] == signals(fill(model, {"Q": 900}))


def test_cqs_003_alter_outcome_without_pending_alter_is_refused():
    model = build(["Q"])
    fill(model, {"Q": 10})
    before = model.project()
    out = fail(model)
    actual = ((out.ok, out.reason, out.rules), model.project())
    assert ((False, CMD_NO_ALTER_PENDING, ("CQS-003",)), before) == actual


def test_cqs_004_successful_alter_grows_primary_without_overflow():
    model = build(["Q"], size_kb=1000, initsize_kb=500)
    fill(model, {"Q": 700})
    out = model.step(AlterOutcome("PRI", True))
    p = prim(model)
    actual = (out.rules, p["size_kb"], p["elements_total"], p["alter_pending"], p["overflow_mode"])
    assert (("CQS-004",), 1000, 2000, False, False) == actual


def test_cqs_004_successful_alter_to_a_given_size():
    model = build(["Q"], size_kb=1000, initsize_kb=500)
    fill(model, {"Q": 700})
    model.step(AlterOutcome("PRI", True, size_kb=800))
    assert (800, 1600) == (prim(model)["size_kb"], prim(model)["elements_total"])


def test_cqs_004_after_growth_threshold_applies_to_new_size():
    model = build(["Q"], size_kb=1000, initsize_kb=500)
    fill(model, {"Q": 700})
    model.step(AlterOutcome("PRI", True))
    outs = fill(model, {"Q": 700})  # 1400 of 2000 elements: 70% again on the last put
    assert ([], ("ALTER PRI",)) == (signals(outs[:-1]), outs[-1].signals)


def test_cqs_004_successful_alter_beyond_size_is_invalid():
    model = build(["Q"], size_kb=1000, initsize_kb=500)
    fill(model, {"Q": 700})
    out = model.step(AlterOutcome("PRI", True, size_kb=1001))
    assert (False, CMD_INVALID, True) == (out.ok, out.reason, prim(model)["alter_pending"])


@pytest.mark.parametrize("reading", TARGETS)
def test_cqs_005_failed_alter_enters_overflow_mode(reading):
    model = simple(reading)
    out = fail(model)
    actual = (out.ok, "CQS-005" in out.rules, out.signals[0], prim(model)["overflow_mode"])
    assert (True, True, "OVERFLOW_ON PRI", True) == actual


@pytest.mark.parametrize("reading", TARGETS)
def test_cqs_005_failed_alter_enters_overflow_even_below_threshold(reading):
    model = simple(reading)
    drain(model, "C", 50)  # 650 elements: 65%, below OVFLWMAX 70
    fail(model)
    assert (True, ["A"]) == (prim(model)["overflow_mode"], prim(model)["overflow_queues"])


# -- CQS-006/007/008: selection --------------------------------------------------------------------


def test_cqs_006_candidates_taken_largest_first():
    model = ladder("points")
    assert ["QE", "QD", "QC", "QB", "QA"] == selected(fail(model))


def test_cqs_006_space_is_measured_in_elements_not_entries():
    # X: 300 entries, 300 elements; Y: 30 entries, 450 elements. Y is the larger queue.
    model = build(["X", "Y"])
    fill(model, {"X": 300})
    fill(model, {"Y": 30}, length=15 * 256 - 128)
    assert ["Y"] == selected(fail(model))


@pytest.mark.parametrize("reading", TARGETS)
def test_cqs_007_selection_stops_once_target_met(reading):
    model = ladder(reading)
    assert LADDER_SELECTION[reading] == selected(fail(model))


def test_cqs_007_readings_give_different_selections_on_the_ladder():
    assert 4 == len({tuple(v) for v in LADDER_SELECTION.values()})  # (points-floor differs below 20% only)


@pytest.mark.parametrize(("reading", "ends"), [("points", False), ("points-floor", True)])
def test_cqs_015_below_20_the_points_target_is_never_reached_or_is_an_empty_structure(reading, ends):
    """OVFLWMAX(10): 20 points below it is no usage at all; an empty primary ends overflow mode under
    points-floor, never under points (ibm-facts 1.3)."""
    model = build({"A": 60, "B": 50}, ovflwmax=10, ovflwstr=None, readings=Readings(cqs_target=reading))
    fill(model, {"A": 60, "B": 50})
    fail(model)
    drain(model, "A")
    drain(model, "B")
    assert (not ends) == prim(model)["overflow_mode"]


@pytest.mark.parametrize(("reading", "more"), [("none", []), ("select", ["OVERFLOW_QUEUE PRI B"])])
def test_cqs_006_reaching_the_threshold_again_in_overflow_mode_selects_more_by_reading(reading, more):
    """With OVFLWSTR: A moves as overflow starts (primary 40%); filling B takes the primary to 70%
    again, and CQS selects B then, or selects nothing more (cqs_reselect)."""
    model = build(SIMPLE, readings=Readings(cqs_reselect=reading))
    fill(model, SIMPLE)
    fail(model)
    outs = fill(model, {"B": 300})
    assert more == [s for s in signals(outs) if s.startswith("OVERFLOW_QUEUE ")]


@pytest.mark.parametrize("reading", TARGETS)
def test_cqs_007_primary_usage_after_move_is_the_projected_usage(reading):
    model = ladder(reading)
    fail(model)
    moved = sum(LADDER[q] for q in LADDER_SELECTION[reading])
    assert 800 - moved == prim(model)["elements_used"]


@pytest.mark.parametrize("reading", TARGETS)
def test_cqs_007_overshoot_is_allowed(reading):
    model = build({"S1": 50, "S2": 50, "BIG": 600}, readings=Readings(cqs_target=reading))
    fill(model, {"S1": 50, "S2": 50, "BIG": 600})
    out = fail(model)
    assert (["BIG"], 100) == (selected(out), prim(model)["elements_used"])  # 10%: far below the target


@pytest.mark.parametrize("reading", TARGETS)
def test_cqs_007_target_may_be_unreachable(reading):
    model = build({"BIG": 600, "S1": 50, "S2": 50}, readings=Readings(cqs_target=reading), overflow_exit=("BIG",))
    fill(model, {"BIG": 600, "S1": 50, "S2": 50})
    out = fail(model)
    p = prim(model)
    actual = (selected(out), p["elements_used"], p["overflow_mode"])
    assert (["S1", "S2"], 600, True) == actual  # 60%: above every target (50 or 56)


def test_cqs_007_queues_without_data_are_not_candidates():
    model = build({"A": 300, "B": 250, "C": 150, "EMPTY": 0})
    fill(model, SIMPLE)
    assert ["A"] == selected(fail(model))


def test_cqs_008_selection_and_move_happen_in_the_failing_step():
    model = simple()
    after, out = step(model, AlterOutcome("PRI", False))
    actual = (
        prim(model)["alter_pending"],
        prim(model)["elements_used"],
        prim(after)["overflow_queues"],
        prim(after)["elements_used"],
        "CQS-008" in out.rules,
    )
    assert (True, 700, ["A"], 400, True) == actual


def test_cqs_008_no_intermediate_state_is_observable():
    model = ladder("points")
    fail(model)
    inspected = model.step(Inspect()).value["structures"]["PRI"]
    assert (sorted(LADDER_SELECTION["points"]), 305) == (inspected["overflow_queues"], 800 - inspected["elements_used"])


# -- CQS-009/010: the Queue Overflow exit ----------------------------------------------------------


@pytest.mark.parametrize("reading", TARGETS)
def test_cqs_009_vetoed_queue_skipped_next_candidate_taken(reading):
    model = simple(reading)
    model.step(SetOverflowExit(("A",)))
    out = fail(model)
    assert (["B"], True) == (selected(out), "CQS-009" in out.rules)


def test_cqs_009_veto_from_config():
    model = build(SIMPLE, overflow_exit=("A",))
    fill(model, SIMPLE)
    assert ["B"] == selected(fail(model))


def test_cqs_009_vetoed_queue_keeps_its_data_on_primary():
    model = simple()
    model.step(SetOverflowExit(("A",)))
    fail(model)
    p = model.project()
    assert (False, 450) == (p["queues"]["A"]["overflow"], p["structures"]["PRI"]["elements_used"])


def test_cqs_009_exit_approving_everything_matches_no_exit():
    with_exit = ladder("points", overflow_exit=())
    without = ladder("points")
    assert selected(fail(without)) == selected(fail(with_exit))


@pytest.mark.parametrize("reading", TARGETS)
def test_cqs_010_no_exit_every_candidate_approved(reading):
    model = ladder(reading)
    out = fail(model)
    assert (LADDER_SELECTION[reading], True, False) == (selected(out), "CQS-010" in out.rules, "CQS-009" in out.rules)


def test_cqs_010_removing_the_exit_approves_every_candidate():
    model = simple(overflow_exit=("A",))
    model.step(SetOverflowExit(None))
    assert ["A"] == selected(fail(model))


# -- CQS-011/012: moving or fencing off the approved queues ---------------------------------------


def test_cqs_011_approved_queue_data_moves_to_overflow_structure():
    model = simple()
    out = fail(model)
    p = model.project()
    actual = ("CQS-011" in out.rules, p["structures"]["PRI"]["elements_used"], p["queues"]["A"])
    assert (True, 400, {"depth": 300, "overflow": True}) == actual


def test_cqs_011_queue_never_in_both_structures():
    model = ladder("relative")
    fail(model)
    on_primary = sum(n for q, n in LADDER.items() if q not in LADDER_SELECTION["relative"])
    assert on_primary == prim(model)["elements_used"]


def test_cqs_011_queue_too_large_for_overflow_structure_is_passed_over():
    # The overflow structure holds 200 elements: A (300) and B (250) cannot move whole, C (150) can.
    model = simple(ovflw_size_kb=100)
    out = fail(model)
    p = model.project()
    actual = (selected(out), p["structures"]["PRI"]["elements_used"], p["queues"]["A"]["overflow"])
    assert (["C"], 550, False) == actual


def test_cqs_011_moved_data_still_readable_in_order_and_freed_from_overflow():
    model = simple()
    fail(model)
    got = drain(model, "A", 2)
    assert ([0, 1], 400) == ([o.tag for o in got], prim(model)["elements_used"])


def test_cqs_012_without_ovflwstr_put_to_approved_queue_is_rejected():
    model = simple(ovflwstr=None)
    fail(model)
    out = model.step(Put("QM01", "A", SMALL))
    assert (False, CQS_REJECTED_OVERFLOW, ("CQS-012",)) == (out.ok, out.reason, out.rules)


def test_cqs_012_failed_alter_without_ovflwstr_names_the_rule():
    model = simple(ovflwstr=None)
    out = fail(model)
    assert (True, False, ["A"]) == ("CQS-012" in out.rules, "CQS-011" in out.rules, selected(out))


def test_cqs_012_rejected_put_changes_nothing():
    model = simple(ovflwstr=None)
    fail(model)
    before = model.project()
    model.step(Put("QM01", "A", SMALL))
    assert before == model.project()


def test_cqs_012_without_ovflwstr_nothing_moves_other_queues_accept_puts():
    model = simple(ovflwstr=None)
    fail(model)
    out = model.step(Put("QM01", "B", SMALL))
    p = prim(model)
    assert (True, 701, ["A"]) == (out.ok, p["elements_used"], p["overflow_queues"])


def test_cqs_012_approved_queue_can_still_be_read():
    model = simple(ovflwstr=None)
    fail(model)
    assert [(True, 0), (True, 1)] == [(o.ok, o.tag) for o in drain(model, "A", 2)]


# -- CQS-013/014: the 15-minute scan --------------------------------------------------------------

FIRST_SCAN = {"clock": 900, "overflow-start": 1000}  # overflow starts at t=100
SECOND_SCAN = {"clock": 1800, "overflow-start": 1900}


def scanning(anchor: str, queues=SIMPLE, **kw) -> Model:
    model = build(queues, readings=Readings(cqs_scan_anchor=anchor), **kw)
    model.step(AdvanceClock(100))
    fill(model, queues)
    fail(model)
    return model


def advance_to(model: Model, t: int):
    return model.step(AdvanceClock(t - model.clock))


@pytest.mark.parametrize("anchor", ANCHORS)
def test_cqs_013_empty_queue_not_removed_before_the_scan(anchor):
    model = scanning(anchor)
    drain(model, "A")
    out = advance_to(model, FIRST_SCAN[anchor] - 1)
    assert ((), ["A"]) == (out.signals, prim(model)["overflow_queues"])


@pytest.mark.parametrize("anchor", ANCHORS)
def test_cqs_013_empty_queue_removed_at_the_first_scan(anchor):
    model = scanning(anchor)
    drain(model, "A")
    advance_to(model, FIRST_SCAN[anchor] - 1)
    out = advance_to(model, FIRST_SCAN[anchor])
    actual = (out.signals[0], "CQS-013" in out.rules, model.project()["queues"]["A"]["overflow"])
    assert ("OVERFLOW_QUEUE_OFF PRI A", True, False) == actual


@pytest.mark.parametrize("anchor", ANCHORS)
def test_cqs_013_queue_emptied_after_a_scan_waits_for_the_next(anchor):
    model = scanning(anchor)
    advance_to(model, FIRST_SCAN[anchor])  # A is not empty at the first scan
    drain(model, "A")
    early = advance_to(model, SECOND_SCAN[anchor] - 1)
    still = prim(model)["overflow_queues"]
    late = advance_to(model, SECOND_SCAN[anchor])
    assert ((), ["A"], "OVERFLOW_QUEUE_OFF PRI A") == (early.signals, still, late.signals[0])


@pytest.mark.parametrize("anchor", ANCHORS)
def test_cqs_013_nonempty_queue_stays_in_overflow_at_scan(anchor):
    model = scanning(anchor)
    drain(model, "A", 299)
    advance_to(model, SECOND_SCAN[anchor])
    assert (["A"], True) == (prim(model)["overflow_queues"], prim(model)["overflow_mode"])


@pytest.mark.parametrize("anchor", ANCHORS)
def test_cqs_013_one_long_advance_covers_the_scans(anchor):
    model = scanning(anchor)
    drain(model, "A")
    out = model.step(AdvanceClock(5000))
    assert (["OVERFLOW_QUEUE_OFF PRI A", "OVERFLOW_OFF PRI"], []) == (list(out.signals), prim(model)["overflow_queues"])


def test_cqs_013_scans_are_every_15_minutes():
    assert ("clock", 900, 1000) == (
        AMBIGUITIES["cqs_scan_anchor"].default,
        FIRST_SCAN["clock"],
        FIRST_SCAN["overflow-start"],
    )


def test_cqs_013_negative_clock_advance_is_an_error():
    with pytest.raises(ConfigurationError) as err:
        build(["Q"]).step(AdvanceClock(-1))
    assert "CQS-013" == err.value.rule_id


# BIG is vetoed, so A and B both go into overflow under every cqs_target reading.
TWO = {"BIG": 500, "A": 100, "B": 100}


@pytest.mark.parametrize("anchor", ANCHORS)
def test_cqs_014_overflow_mode_continues_while_a_queue_remains(anchor):
    model = scanning(anchor, TWO, overflow_exit=("BIG",))
    drain(model, "A")
    out = advance_to(model, FIRST_SCAN[anchor])
    p = prim(model)
    assert (["OVERFLOW_QUEUE_OFF PRI A"], ["B"], True) == (list(out.signals), p["overflow_queues"], p["overflow_mode"])


@pytest.mark.parametrize("anchor", ANCHORS)
def test_cqs_014_overflow_mode_ends_when_no_queue_remains(anchor):
    model = scanning(anchor, TWO, overflow_exit=("BIG",))
    drain(model, "A")
    drain(model, "B")
    out = advance_to(model, FIRST_SCAN[anchor])
    actual = (out.signals[-1], "CQS-014" in out.rules, prim(model)["overflow_mode"])
    assert ("OVERFLOW_OFF PRI", True, False) == actual


@pytest.mark.parametrize("reading", TARGETS)
def test_cqs_014_both_queues_selected_in_the_two_queue_setup(reading):
    model = build(TWO, readings=Readings(cqs_target=reading), overflow_exit=("BIG",))
    fill(model, TWO)
    assert ["A", "B"] == selected(fail(model))


def test_cqs_014_after_overflow_ends_threshold_triggers_an_alter_again():
    model = scanning("clock", TWO, overflow_exit=("BIG",))
    drain(model, "A")
    drain(model, "B")
    advance_to(model, 900)
    assert ["ALTER PRI"] == signals(fill(model, {"A": 200}))


@pytest.mark.parametrize(
    ("reading", "at_failure", "at_scan"),
    [("ends", False, False), ("stays", True, True), ("next-scan", True, False)],
)
def test_cqs_014_overflow_with_every_candidate_vetoed_ends_by_reading(reading, at_failure, at_scan):
    """cqs_empty_overflow: no queue ever selected (every candidate vetoed) ends overflow mode at once,
    never, or at the next 15-minute scan."""
    model = build(SIMPLE, readings=Readings(cqs_empty_overflow=reading), overflow_exit=tuple(SIMPLE))
    fill(model, SIMPLE)
    fail(model)
    mode = prim(model)["overflow_mode"]
    advance_to(model, 900)
    assert (at_failure, at_scan) == (mode, prim(model)["overflow_mode"])


def test_cqs_014_scan_does_not_end_overflow_without_ovflwstr():
    model = scanning("clock", TWO, overflow_exit=("BIG",), ovflwstr=None)
    drain(model, "A")  # 600 elements: 60%, above the target; A is empty
    out = advance_to(model, 5000)
    p = prim(model)
    assert ((), ["A", "B"], True) == (out.signals, p["overflow_queues"], p["overflow_mode"])


# -- CQS-015: leaving overflow without an overflow structure ---------------------------------------

SIMPLE_TARGET = {"points": 50, "relative": 56, "drop-points": 50, "drop-relative": 56, "points-floor": 50}  # base 70


@pytest.mark.parametrize("reading", TARGETS)
def test_cqs_015_overflow_stays_until_usage_at_target(reading):
    model = simple(reading, ovflwstr=None)
    fail(model)
    outs = drain(model, "B", (70 - SIMPLE_TARGET[reading]) * 10 - 1)
    assert ([], True) == (signals(outs), prim(model)["overflow_mode"])


def test_cqs_020_the_get_that_ends_overflow_names_the_usage_metric_rule():
    model = simple("points", ovflwstr=None)
    fail(model)
    out = drain(model, "B", (70 - SIMPLE_TARGET["points"]) * 10)[-1]
    assert ("CQS-015", "CQS-020") == out.rules[-2:]


@pytest.mark.parametrize("reading", TARGETS)
def test_cqs_015_overflow_ends_when_usage_drops_to_target(reading):
    model = simple(reading, ovflwstr=None)
    fail(model)
    out = drain(model, "B", (70 - SIMPLE_TARGET[reading]) * 10)[-1]
    actual = (out.signals, "CQS-015" in out.rules, prim(model)["overflow_mode"], prim(model)["overflow_queues"])
    assert (("OVERFLOW_OFF PRI",), True, False, []) == actual


@pytest.mark.parametrize("reading", TARGETS)
def test_cqs_015_puts_to_approved_queue_accepted_after_overflow_ends(reading):
    model = simple(reading, ovflwstr=None)
    fail(model)
    drain(model, "B", (70 - SIMPLE_TARGET[reading]) * 10)
    assert model.step(Put("QM01", "A", SMALL)).ok is True


@pytest.mark.parametrize("reading", TARGETS)
def test_cqs_015_failed_alter_already_at_target_ends_overflow_at_once(reading):
    # 45% when z/OS answers: at or below OVFLWMAX-based targets (50, 56), above the
    # usage-based ones (25, 36), which select A and stay in overflow mode.
    model = simple(reading, ovflwstr=None)
    drain(model, "B", 250)
    out = fail(model)
    expected = {
        "points": ([], True, False),
        "relative": ([], True, False),
        "drop-points": (["A"], False, True),
        "drop-relative": (["A"], False, True),
        "points-floor": ([], True, False),
    }[reading]
    assert expected == (selected(out), "CQS-015" in out.rules, prim(model)["overflow_mode"])


# -- CQS-016: resource structures and the mq profile -----------------------------------------------


@pytest.mark.parametrize(
    ("kw", "field", "value"),
    [
        ({"ovflwmax": 70}, "structures[RES].ovflwmax", 70),
        ({"ovflwstr": "OVFL"}, "structures[RES].ovflwstr", "OVFL"),
        ({"ovflwmax": 70, "ovflwstr": "OVFL"}, "structures[RES].ovflwstr", "OVFL"),
    ],
)
def test_cqs_016_overflow_on_resource_structure_is_a_configuration_error(kw, field, value):
    with pytest.raises(ConfigurationError) as err:
        StructureDef("RES", resource=True, **kw)
    assert (field, value, "CQS-016") == (err.value.field, err.value.value, err.value.rule_id)


def test_cqs_016_resource_flag_must_be_boolean():
    with pytest.raises(ConfigurationError) as err:
        StructureDef("RES", resource=1)
    assert ("structures[RES].resource", "CQS-016") == (err.value.field, err.value.rule_id)


def test_cqs_016_resource_structure_never_starts_overflow_processing():
    model = build(["Q"], ovflwstr=None, resource=True)
    assert [] == signals(fill(model, {"Q": 1000}))


def test_cqs_016_cqs_fields_invalid_in_mq_profile():
    with pytest.raises(ConfigurationError) as err:
        Config(structures=(StructureDef("APP1", ovflwstr="OVFL"),))
    assert ("structures[APP1].ovflwstr", "CQS-016") == (err.value.field, err.value.rule_id)


def test_cqs_016_define_structure_with_cqs_fields_rejected_in_mq_profile():
    model = Model(Config())
    out = model.step(DefineStructure(StructureDef("APP2", ovflwmax=70)))
    assert (False, CMD_INVALID, ("CQS-016",)) == (out.ok, out.reason, out.rules)


# -- CQS-017/018/019: large messages and the staging queue -----------------------------------------


@pytest.mark.parametrize(
    ("length", "staged"), [(4095, 0), (4096, 0), (4097, 1), (8192, 1), (8193, 2), (12288, 2), (40960, 9)]
)
def test_cqs_017_message_longer_than_lgmsgsz_put_in_parts(length, staged):
    model = build(["Q"])
    out = model.step(Put("QM01", "Q", length))
    actual = (prim(model)["staging_depth"], prim(model)["entries_used"], "CQS-017" in out.rules)
    assert (staged, 1 + staged, staged > 0) == actual


def test_cqs_017_parts_charged_element_by_element():
    model = build(["Q"])
    model.step(Put("QM01", "Q", 4097))  # first part 4096 B = 17 elements, second part 1 B = 1
    assert (2, 18) == (prim(model)["entries_used"], prim(model)["elements_used"])


def test_cqs_017_queue_depth_counts_the_message_once():
    model = build(["Q"])
    model.step(Put("QM01", "Q", 40960))
    assert 1 == model.project()["queues"]["Q"]["depth"]


def test_cqs_017_get_removes_every_part():
    model = build(["Q"])
    model.step(Put("QM01", "Q", 40960, tag=7))
    out = model.step(Get("QM01", "Q"))
    p = prim(model)
    assert (7, 0, 0, 0) == (out.tag, p["staging_depth"], p["entries_used"], p["elements_used"])


# L: 4 messages of 10 parts of 17 elements (68 first-part elements, 612 staged); S: 20 small.
LARGE = {"L": 4, "S": 20}


def large(reading: str = "points", **kw) -> Model:
    model = build(LARGE, readings=Readings(cqs_target=reading), **kw)
    fill(model, {"L": 4}, length=40960)
    fill(model, {"S": 20})
    return model


def test_cqs_018_large_setup_reaches_the_threshold():
    model = large()
    assert (700, 36, True) == (prim(model)["elements_used"], prim(model)["staging_depth"], prim(model)["alter_pending"])


@pytest.mark.parametrize("reading", TARGETS)
def test_cqs_018_staging_queue_never_selected(reading):
    model = large(reading)
    out = fail(model)
    assert (["L", "S"], 36) == (selected(out), prim(model)["staging_depth"])


@pytest.mark.parametrize("reading", TARGETS)
def test_cqs_018_target_unreachable_when_staging_holds_the_space(reading):
    model = large(reading)
    fail(model)
    assert (612, True) == (prim(model)["elements_used"], prim(model)["overflow_mode"])


def test_cqs_019_only_first_parts_move_to_overflow():
    model = large()
    fail(model)
    p = prim(model)
    assert (36, 612) == (p["entries_used"], p["elements_used"])  # 36 staged parts of 17 elements


def test_cqs_019_reading_a_moved_large_message_frees_its_staged_parts_on_primary():
    model = large()
    fail(model)
    out = model.step(Get("QM01", "L"))
    p = prim(model)
    assert (0, 27, 459) == (out.tag, p["staging_depth"], p["elements_used"])


def test_cqs_019_new_large_message_on_overflowed_queue_stages_on_primary():
    model = large()
    fail(model)
    model.step(Put("QM01", "L", 40960))
    p = prim(model)
    assert (45, 765) == (p["staging_depth"], p["elements_used"])


# -- CQS-020: what OVFLWMAX is compared with --------------------------------------------------------


def test_cqs_020_ratio_3_structure_has_more_elements_than_entries():
    assert (500, 1500) == pool_totals(500, 3, TIDY)


@pytest.mark.parametrize("metric", METRICS)
def test_cqs_020_entry_usage_alone_triggers_only_under_max(metric):
    model = build(["Q"], ratio=3, readings=Readings(cqs_usage_metric=metric))
    outs = fill(model, {"Q": 350})  # entries 70%, elements 23.3%
    expected = {"elements": [], "max": ["ALTER PRI"]}[metric]
    assert expected == signals(outs)


@pytest.mark.parametrize("metric", METRICS)
def test_cqs_020_element_usage_triggers_under_every_reading(metric):
    model = build(["Q"], ratio=3, readings=Readings(cqs_usage_metric=metric))
    outs = fill(model, {"Q": 175}, length=6 * 256 - 128)  # 6 elements each: 1050 of 1500 = 70%
    assert ([], ("ALTER PRI",)) == (signals(outs[:-1]), outs[-1].signals)


def test_cqs_020_default_metric_is_elements():
    assert "elements" == Readings().cqs_usage_metric


# -- CQS-021: LGMSGSZ ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "effective"),
    [
        (1, 4),
        (4, 4),
        (5, 8),
        (4093, 4096),
        (4096, 4096),
        (30629, 30632),
        (30632, 30632),
        (30633, 30632),
        (99999, 30632),
    ],
)
def test_cqs_021_lgmsgsz_rounded_up_to_multiple_of_4_at_most_30632(given, effective):
    assert effective == round_lgmsgsz(given)


def test_cqs_021_lgmsgsz_cap_is_30632():
    assert 30632 == LGMSGSZ_MAX


@pytest.mark.parametrize(
    ("lgmsgsz", "length", "staged"), [(4093, 4096, 0), (4093, 4097, 1), (99999, 30632, 0), (99999, 30633, 1)]
)
def test_cqs_021_model_splits_at_the_rounded_lgmsgsz(lgmsgsz, length, staged):
    model = build(["Q"], lgmsgsz=lgmsgsz, size_kb=5000)
    model.step(Put("QM01", "Q", length))
    assert staged == prim(model)["staging_depth"]


@pytest.mark.parametrize("bad", [0, -4, "4096"])
def test_cqs_021_lgmsgsz_must_be_a_positive_integer(bad):
    with pytest.raises(ConfigurationError) as err:
        build(["Q"], lgmsgsz=bad)
    assert ("lgmsgsz", "CQS-021") == (err.value.field, err.value.rule_id)


# -- CQS-022: new data of an overflowed queue -------------------------------------------------------


def test_cqs_022_new_data_of_overflowed_queue_goes_to_overflow_structure():
    model = simple()
    fail(model)
    out = model.step(Put("QM01", "A", SMALL))
    assert (True, True, 400) == (out.ok, "CQS-022" in out.rules, prim(model)["elements_used"])


def test_cqs_022_other_queues_still_use_the_primary():
    model = simple()
    fail(model)
    out = model.step(Put("QM01", "B", SMALL))
    assert (False, 401) == ("CQS-022" in out.rules, prim(model)["elements_used"])


def test_cqs_022_new_overflow_data_read_in_fifo_order_after_moved_data():
    model = simple()
    fail(model)
    model.step(Put("QM01", "A", SMALL, tag=999))
    tags = [o.tag for o in drain(model, "A")]
    assert ([*range(300), 999], 400) == (tags, prim(model)["elements_used"])


def test_cqs_014_scan_outcome_names_the_end_of_overflow_on_any_structure():
    # Two primaries in overflow; the scan ends it on the first only.  The outcome must still cite CQS-014.
    sds = tuple(StructureDef(n, size_kb=500, ratio=1, ovflwstr=f"OV{n}", fullthreshold=0) for n in ("PA", "PB"))
    qds = (QueueDef("A", cfstruct="PA"), QueueDef("B", cfstruct="PB"))
    model = Model(Config(profile="cqs", structures=sds, queues=qds, accounting=TIDY))
    fill(model, {"A": 700, "B": 700})
    model.step(AlterOutcome("PA", False))
    model.step(AlterOutcome("PB", False))
    drain(model, "A")
    out = model.step(AdvanceClock(900))
    actual = (list(out.signals), "CQS-014" in out.rules, model.project()["structures"]["PB"]["overflow_mode"])
    assert (["OVERFLOW_QUEUE_OFF PA A", "OVERFLOW_OFF PA"], True, True) == actual


@pytest.mark.parametrize(
    ("said", "warned", "accepted"),
    [
        (("IXC585E PRI", "IXC586I PRI"), False, ("IXC585E PRI", "IXC586I PRI")),
        (("IXC585E PRI",), False, ()),  # one message alone is judged as any other
        (("IXC585E PRI", "IXC586I PRI"), True, ()),  # the primary still at FULLTHRESHOLD: no pair
    ],
)
def test_capacity_002_003_a_cqsput_that_moves_queues_may_pass_fullthreshold(said, warned, accepted):
    """Within a CQSPUT whose queues move to the overflow structure, the primary may reach FULLTHRESHOLD
    before they leave it: IXC585E then IXC586I in the one step is accepted, nothing else is."""
    from cfconform.reference_model.cqs import _passing_full
    from cfconform.reference_model.model import Observed
    from cfconform.reference_model.outcomes import Outcome

    model = build({"QA": 10}, fullthreshold=85)
    s = model.structures["PRI"]
    s.full_warning = warned
    model.hint = Observed(Outcome("put", True, signals=said), {}, {})
    assert accepted == _passing_full(model, s, ("OVERFLOW_QUEUE PRI QA",))


def test_capacity_003_the_ixc586i_of_such_a_pair_follows_an_ixc585e_taken_from_the_report():
    """Where the primary's usage after the put is not known (the report is the overflow structure's),
    the IXC585E is taken from the implementation's report; the IXC586I of the pair then stands too."""
    from cfconform.reference_model.cqs import _passing_full
    from cfconform.reference_model.model import Observed
    from cfconform.reference_model.outcomes import Outcome

    model = build({"QA": 10}, fullthreshold=85)
    s = model.structures["PRI"]
    s.full_warning = True  # (as full_signals leaves it after taking the IXC585E)
    model.hint = Observed(Outcome("put", True, signals=("IXC585E PRI", "IXC586I PRI")), {}, {})
    assert (("IXC586I PRI",), False) == (_passing_full(model, s, ("IXC585E PRI",)), s.full_warning)
    model.hint = Observed(Outcome("put", True, signals=("IXC585E PRI", "IXC586I PRI")), {}, {"PRI": (9, 10, 1, 60)})
    s.full_warning = True  # the primary's entries still at FULLTHRESHOLD after the put: no IXC586I
    assert () == _passing_full(model, s, ("IXC585E PRI",))
