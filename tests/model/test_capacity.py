"""CAPACITY-001..010: full structures, FULLTHRESHOLD, SETXCF ALTER, CFRM size rules, freeing storage.

The structures here use a tidy accounting (no overhead, no fixed part) so that
pool sizes are round numbers: a structure of S KB with ratio r has
``S x 1024 // (256 + 256 r)`` entries and r times as many elements.
"""

from __future__ import annotations

import pytest

from cfconform.reference_model.accounting import pool_totals
from cfconform.reference_model.config import Accounting, Config, QueueDef, StructureDef
from cfconform.reference_model.errors import ConfigurationError
from cfconform.reference_model.model import Model
from cfconform.reference_model.operations import Backout, Commit, Get, Put, SetxcfAlter
from cfconform.reference_model.outcomes import (
    CMD_INVALID,
    CMD_OUT_OF_RANGE,
    CQS_STRUCTURE_FULL,
    MQRC_STORAGE_MEDIUM_FULL,
)
from cfconform.reference_model.readings import AMBIGUITIES, Readings
from cfconform.reference_model.sizing import factor_of_two_advice, recommend
from cfconform.reference_model.tables import CSQSYSAPPL_INITSIZE_KB, CSQSYSAPPL_SIZE_KB
from cfconform.reference_model.units import KB

TIDY = Accounting(overhead=1.0, fixed_kb=0)
DEFAULTS = Readings()


def one_element(n: int = 1) -> int:
    """A message length that takes exactly ``n`` elements (256n - 128 bytes with the header)."""
    return 256 * n - 128


def mq(size_kb: int, ratio: int, readings: Readings = DEFAULTS, **kw) -> Model:
    sd = StructureDef("APP1", size_kb=size_kb, ratio=ratio, **kw)
    cfg = Config(structures=(sd,), queues=(QueueDef("Q1", cfstruct="APP1"),), accounting=TIDY, readings=readings)
    return Model(cfg)


def cqs(size_kb: int, ratio: int, **kw) -> Model:
    sd = StructureDef("PRI", size_kb=size_kb, ratio=ratio, **kw)
    cfg = Config(profile="cqs", structures=(sd,), queues=(QueueDef("Q1", cfstruct="PRI"),), accounting=TIDY)
    return Model(cfg)


def put_n(model: Model, n: int, length: int, queue: str = "Q1", **kw) -> list:
    return [model.step(Put("QM01", queue, length, tag=i, **kw)) for i in range(n)]


def pools(model: Model, name: str = "APP1") -> tuple[int, int, int, int]:
    s = model.project()["structures"][name]
    return (s["entries_used"], s["entries_total"], s["elements_used"], s["elements_total"])


# -- CAPACITY-001: a full structure rejects the put ------------------------------------------------


def test_capacity_001_pool_sizes_of_the_test_structures():
    # 28 KB at ratio 10: entries run out first; 10 KB at ratio 1: elements of big messages do.
    assert ((10, 100), (20, 20)) == (pool_totals(28, 10, TIDY), pool_totals(10, 1, TIDY))


def test_capacity_001_mq_full_by_entries_answers_2192():
    model = mq(28, 10)
    put_n(model, 10, one_element())
    out = model.step(Put("QM01", "Q1", one_element(), tag=99))
    assert (False, MQRC_STORAGE_MEDIUM_FULL, ("CAPACITY-001",)) == (out.ok, out.reason, out.rules)


def test_capacity_001_mq_full_by_entries_while_elements_remain():
    model = mq(28, 10)
    put_n(model, 10, one_element())
    assert (10, 10, 10, 100) == pools(model)


def test_capacity_001_mq_full_by_elements_answers_2192():
    model = mq(10, 1)
    put_n(model, 4, one_element(5))
    out = model.step(Put("QM01", "Q1", one_element(5), tag=99))
    assert (False, MQRC_STORAGE_MEDIUM_FULL, ("CAPACITY-001",)) == (out.ok, out.reason, out.rules)


def test_capacity_001_mq_full_by_elements_while_entries_remain():
    model = mq(10, 1)
    put_n(model, 4, one_element(5))
    assert (4, 20, 20, 20) == pools(model)


def test_capacity_001_mq_message_larger_than_remaining_elements_rejected_smaller_fits():
    model = mq(10, 1)
    put_n(model, 3, one_element(5))  # 15 of 20 elements
    big = model.step(Put("QM01", "Q1", one_element(6)))
    small = model.step(Put("QM01", "Q1", one_element(5)))
    assert ((False, MQRC_STORAGE_MEDIUM_FULL), (True, None)) == ((big.ok, big.reason), (small.ok, small.reason))


@pytest.mark.parametrize(
    ("size_kb", "ratio", "count", "elements"), [(28, 10, 10, 1), (10, 1, 4, 5)], ids=["entries", "elements"]
)
def test_capacity_001_mq_full_put_changes_nothing(size_kb, ratio, count, elements):
    model = mq(size_kb, ratio)
    put_n(model, count, one_element(elements))
    before = model.project()
    model.step(Put("QM01", "Q1", one_element(elements), tag=99))
    assert before == model.project()


def test_capacity_001_mq_full_put_stores_nothing_later_gets_see_only_earlier_messages():
    model = mq(10, 1)
    put_n(model, 4, one_element(5))
    model.step(Put("QM01", "Q1", one_element(5), tag=99))
    tags = [model.step(Get("QM01", "Q1")).tag for _ in range(5)]
    assert [0, 1, 2, 3, None] == tags


def test_capacity_001_cqs_full_by_entries_answers_structure_full():
    model = cqs(28, 10, ovflwmax=100)
    put_n(model, 10, one_element())
    out = model.step(Put("QM01", "Q1", one_element(), tag=99))
    assert (False, CQS_STRUCTURE_FULL, ("CAPACITY-001",)) == (out.ok, out.reason, out.rules)


def test_capacity_001_cqs_full_by_elements_answers_structure_full():
    model = cqs(10, 1, ovflwmax=100)
    put_n(model, 4, one_element(5))
    out = model.step(Put("QM01", "Q1", one_element(5), tag=99))
    assert (False, CQS_STRUCTURE_FULL, ("CAPACITY-001",)) == (out.ok, out.reason, out.rules)


@pytest.mark.parametrize(
    ("size_kb", "ratio", "count", "elements"), [(28, 10, 10, 1), (10, 1, 4, 5)], ids=["entries", "elements"]
)
def test_capacity_001_cqs_full_put_changes_nothing(size_kb, ratio, count, elements):
    model = cqs(size_kb, ratio, ovflwmax=100)
    put_n(model, count, one_element(elements))
    before = model.project()
    model.step(Put("QM01", "Q1", one_element(elements), tag=99))
    assert before == model.project()


# -- CAPACITY-002/003: IXC585E / IXC586I at FULLTHRESHOLD ------------------------------------------


def test_capacity_002_no_ixc585e_below_fullthreshold():
    model = mq(50, 1)  # 100 entries, 100 elements; FULLTHRESHOLD(80)
    outs = put_n(model, 79, one_element())
    assert [] == [s for o in outs for s in o.signals]


def test_capacity_002_ixc585e_when_usage_reaches_fullthreshold():
    model = mq(50, 1)
    put_n(model, 79, one_element())
    assert ("IXC585E APP1",) == model.step(Put("QM01", "Q1", one_element())).signals


def test_capacity_002_ixc585e_issued_once_while_above_threshold():
    model = mq(50, 1)
    outs = put_n(model, 95, one_element())
    assert ["IXC585E APP1"] == [s for o in outs for s in o.signals]


def test_capacity_002_ixc585e_by_entries_alone():
    model = mq(275, 10)  # 100 entries, 1000 elements
    outs = put_n(model, 80, one_element())
    assert (("IXC585E APP1",), (80, 100, 80, 1000)) == (outs[-1].signals, pools(model))


def test_capacity_002_ixc585e_by_elements_alone():
    model = mq(50, 1)  # 100 entries, 100 elements
    outs = put_n(model, 16, one_element(5))
    assert (("IXC585E APP1",), (16, 100, 80, 100)) == (outs[-1].signals, pools(model))


def test_capacity_002_fullthreshold_0_is_off():
    model = mq(50, 1, fullthreshold=0)
    outs = put_n(model, 100, one_element())
    assert ([], False) == ([s for o in outs for s in o.signals], model.project()["structures"]["APP1"]["full_warning"])


def test_capacity_002_projection_reports_full_warning():
    model = mq(50, 1)
    put_n(model, 80, one_element())
    assert model.project()["structures"]["APP1"]["full_warning"] is True


def test_capacity_002_cqs_ixc585e_at_fullthreshold():
    model = cqs(50, 1, ovflwmax=90)
    outs = put_n(model, 80, one_element())
    assert ("IXC585E PRI",) == outs[-1].signals


def test_capacity_003_ixc586i_when_usage_falls_below_fullthreshold():
    model = mq(50, 1)
    put_n(model, 80, one_element())
    out = model.step(Get("QM01", "Q1"))
    assert (("IXC586I APP1",), False) == (out.signals, model.project()["structures"]["APP1"]["full_warning"])


def test_capacity_003_no_ixc586i_while_still_at_threshold():
    model = mq(50, 1)
    put_n(model, 81, one_element())
    assert () == model.step(Get("QM01", "Q1")).signals


def test_capacity_003_ixc586i_on_commit_of_syncpoint_get():
    model = mq(50, 1)
    put_n(model, 80, one_element())
    got = model.step(Get("QM01", "Q1", syncpoint=True))
    done = model.step(Commit("QM01"))
    assert ((), ("IXC586I APP1",)) == (got.signals, done.signals)


def test_capacity_003_ixc585e_again_after_relief():
    model = mq(50, 1)
    put_n(model, 80, one_element())
    model.step(Get("QM01", "Q1"))
    assert ("IXC585E APP1",) == model.step(Put("QM01", "Q1", one_element())).signals


# -- CAPACITY-004..006: SETXCF START,ALTER ---------------------------------------------------------


def altering(readings: Readings = DEFAULTS) -> Model:
    return mq(2000, 1, readings=readings, initsize_kb=1000)


@pytest.mark.parametrize("new", [1001, 1500, 1999])
def test_capacity_004_alter_within_initsize_and_size_is_valid(new):
    model = altering()
    out = model.step(SetxcfAlter("APP1", new))
    actual = (out.ok, out.rules, model.project()["structures"]["APP1"]["size_kb"])
    assert (True, ("CAPACITY-004",), new) == actual


@pytest.mark.parametrize(("reading", "ok"), [("accepted", True), ("rejected", False)])
def test_capacity_006_alter_to_the_current_size_by_reading(reading, ok):
    """Seed 001: newsize "greater than the current coupling facility size"; IMS allows INITSIZE..SIZE."""
    out = altering(Readings(alter_not_larger=reading)).step(SetxcfAlter("APP1", 1000))
    assert (ok, ("CAPACITY-006",)) == (out.ok, out.rules)


def test_capacity_004_alter_resizes_the_pools():
    model = altering()
    model.step(SetxcfAlter("APP1", 1500))
    assert (0, 3000, 0, 3000) == pools(model)


def test_capacity_004_structure_starts_at_initsize():
    assert 1000 == altering().project()["structures"]["APP1"]["size_kb"]


@pytest.mark.parametrize("at_size", AMBIGUITIES["alter_at_size"].readings)
@pytest.mark.parametrize("below", AMBIGUITIES["alter_below_initsize"].readings)
def test_capacity_005_alter_above_size_is_invalid(below, at_size):
    model = altering(Readings(alter_below_initsize=below, alter_at_size=at_size))
    before = model.project()
    out = model.step(SetxcfAlter("APP1", 2001))
    assert ((False, CMD_OUT_OF_RANGE, ("CAPACITY-005",)), before) == ((out.ok, out.reason, out.rules), model.project())


@pytest.mark.parametrize("reading", AMBIGUITIES["alter_below_initsize"].readings)
def test_capacity_006_alter_below_initsize_by_reading(reading):
    model = altering(Readings(alter_below_initsize=reading))
    out = model.step(SetxcfAlter("APP1", 999))
    expected = {
        "rejected": (False, CMD_OUT_OF_RANGE, ("CAPACITY-006",), 1000),
        "accepted": (True, None, ("CAPACITY-006",), 999),
    }[reading]
    assert expected == (out.ok, out.reason, out.rules, model.project()["structures"]["APP1"]["size_kb"])


@pytest.mark.parametrize("reading", AMBIGUITIES["alter_at_size"].readings)
def test_capacity_006_alter_to_exactly_size_by_reading(reading):
    model = altering(Readings(alter_at_size=reading))
    out = model.step(SetxcfAlter("APP1", 2000))
    expected = {
        "rejected": (False, CMD_OUT_OF_RANGE, ("CAPACITY-006",), 1000),
        "accepted": (True, None, ("CAPACITY-006",), 2000),
    }[reading]
    assert expected == (out.ok, out.reason, out.rules, model.project()["structures"]["APP1"]["size_kb"])


def test_capacity_006_contraction_below_storage_in_use_is_refused():
    model = altering()
    model.step(SetxcfAlter("APP1", 1500))  # 3000 elements
    put_n(model, 41, one_element(50))  # 2050 elements: more than 1000 KB offers (2000)
    before = model.project()
    out = model.step(SetxcfAlter("APP1", 1000))
    assert ((False, CMD_OUT_OF_RANGE, ("CAPACITY-006",)), before) == ((out.ok, out.reason, out.rules), model.project())


def test_capacity_006_contraction_above_storage_in_use_is_allowed():
    model = altering()
    model.step(SetxcfAlter("APP1", 1500))
    put_n(model, 39, one_element(50))  # 1950 elements fit in 2000
    out = model.step(SetxcfAlter("APP1", 1000))
    assert (True, (39, 2000, 1950, 2000)) == (out.ok, pools(model))


def test_capacity_006_contraction_that_reaches_fullthreshold_issues_ixc585e():
    model = altering()
    model.step(SetxcfAlter("APP1", 1500))
    put_n(model, 39, one_element(50))  # 1950 of 3000 elements: 65%
    assert ("IXC585E APP1",) == model.step(SetxcfAlter("APP1", 1000)).signals


@pytest.mark.parametrize("bad", [0, -5, "1500"])
def test_capacity_008_setxcf_alter_needs_a_positive_integer_size(bad):
    model = altering()
    out = model.step(SetxcfAlter("APP1", bad))
    assert (False, CMD_INVALID, ("CAPACITY-008",)) == (out.ok, out.reason, out.rules)


# -- CAPACITY-007: INITSIZE and SIZE within a factor of 2 ------------------------------------------


@pytest.mark.parametrize(
    ("initsize", "size"),
    [(262144, 524288), (1000, 1000), (CSQSYSAPPL_INITSIZE_KB, CSQSYSAPPL_SIZE_KB), (1000, 2000)],
)
def test_capacity_007_within_factor_two_gives_no_advice(initsize, size):
    assert factor_of_two_advice(initsize, size) is None


@pytest.mark.parametrize(("initsize", "size"), [(262144, 524289), (1000, 4000), (1, 3)])
def test_capacity_007_more_than_factor_two_gives_a_warning_naming_the_rule(initsize, size):
    advice = factor_of_two_advice(initsize, size)
    assert (True, True, True) == (
        "CAPACITY-007" in advice,
        f"SIZE({size})" in advice,
        f"INITSIZE({initsize})" in advice,
    )


def test_capacity_007_is_advice_not_an_error():
    # A structure with SIZE = 4 x INITSIZE is a valid definition.
    sd = StructureDef("APP1", size_kb=4000, initsize_kb=1000)
    assert (4000, 1000) == (sd.size_kb, sd.initsize_kb)


def test_capacity_007_recommendation_follows_the_advice():
    rec = recommend(200_000, 1 * KB)
    assert (None, None) == (rec.advice, factor_of_two_advice(rec.initsize_kb, rec.size_kb))


# -- CAPACITY-008/009: CFRM size and threshold validation ------------------------------------------


@pytest.mark.parametrize(
    ("kw", "field", "value"),
    [
        ({"size_kb": 0}, "structures[APP1].size_kb", 0),
        ({"size_kb": -1}, "structures[APP1].size_kb", -1),
        ({"size_kb": "8192"}, "structures[APP1].size_kb", "8192"),
        ({"initsize_kb": 0}, "structures[APP1].initsize_kb", 0),
        ({"size_kb": 1000, "initsize_kb": 1001}, "structures[APP1].initsize_kb", 1001),
        ({"ovflw_size_kb": 0}, "structures[APP1].ovflw_size_kb", 0),
    ],
)
def test_capacity_008_bad_sizes_name_field_value_and_rule(kw, field, value):
    with pytest.raises(ConfigurationError) as err:
        StructureDef("APP1", **kw)
    assert (field, value, "CAPACITY-008") == (err.value.field, err.value.value, err.value.rule_id)


def test_capacity_008_initsize_equal_to_size_is_valid():
    assert 1000 == StructureDef("APP1", size_kb=1000, initsize_kb=1000).effective_initsize_kb


def test_capacity_008_initsize_defaults_to_size():
    assert 8192 == StructureDef("APP1").effective_initsize_kb


@pytest.mark.parametrize("bad", [-1, 101, 80.5, True])
def test_capacity_009_fullthreshold_outside_0_to_100_is_an_error(bad):
    with pytest.raises(ConfigurationError) as err:
        StructureDef("APP1", fullthreshold=bad)
    assert ("structures[APP1].fullthreshold", "CAPACITY-009") == (err.value.field, err.value.rule_id)


@pytest.mark.parametrize("good", [0, 1, 85, 100])
def test_capacity_009_fullthreshold_0_to_100_is_valid(good):
    assert good == StructureDef("APP1", fullthreshold=good).fullthreshold


def test_capacity_009_fullthreshold_defaults_to_80():
    assert 80 == StructureDef("APP1").fullthreshold


# -- CAPACITY-010: retrieving a message frees its storage ------------------------------------------


def test_capacity_010_get_frees_storage():
    model = mq(50, 1)
    put_n(model, 3, one_element(4))
    model.step(Get("QM01", "Q1"))
    assert (2, 8) == (pools(model)[0], pools(model)[2])


def test_capacity_010_uncommitted_get_keeps_storage():
    model = mq(50, 1)
    put_n(model, 3, one_element(4))
    model.step(Get("QM01", "Q1", syncpoint=True))
    assert (3, 12) == (pools(model)[0], pools(model)[2])


def test_capacity_010_commit_of_syncpoint_get_frees_storage():
    model = mq(50, 1)
    put_n(model, 3, one_element(4))
    model.step(Get("QM01", "Q1", syncpoint=True))
    model.step(Commit("QM01"))
    assert (2, 8) == (pools(model)[0], pools(model)[2])


def test_capacity_010_backout_of_syncpoint_get_keeps_storage_and_message():
    model = mq(50, 1)
    put_n(model, 3, one_element(4))
    model.step(Get("QM01", "Q1", syncpoint=True))
    model.step(Backout("QM01"))
    assert ((3, 12), 0) == ((pools(model)[0], pools(model)[2]), model.step(Get("QM01", "Q1")).tag)


def test_capacity_010_full_structure_accepts_a_put_after_a_get():
    model = mq(10, 1)
    put_n(model, 4, one_element(5))
    model.step(Get("QM01", "Q1"))
    assert model.step(Put("QM01", "Q1", one_element(5))).ok is True


def test_capacity_010_cqs_get_frees_storage():
    model = cqs(50, 1, ovflwmax=100)
    put_n(model, 3, one_element(4))
    model.step(Get("QM01", "Q1"))
    assert (2, 8) == (pools(model, "PRI")[0], pools(model, "PRI")[2])
