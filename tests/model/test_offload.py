"""Per-rule examples for the MQ offload rules (OFFLOAD-001..007, 011..013; seed 002, ibm-facts 2).

Offload decisions are taken at CFLEVEL(5) against a usage set with ``view=`` (entries% ==
elements%, so every ``offload_usage_metric`` reading sees the same usage) unless a test is
about the usage metric itself.  Ambiguous rules are tested under every admissible reading.
"""

from __future__ import annotations

import attrs
import pytest

from cfconform.reference_model import Config, ConfigurationError, Model, QueueDef, Readings, StructureDef
from cfconform.reference_model.accounting import elements_for
from cfconform.reference_model.model import Observed
from cfconform.reference_model.operations import AlterStructure, Put
from cfconform.reference_model.outcomes import CMD_INVALID, Outcome
from cfconform.reference_model.readings import AMBIGUITIES
from cfconform.reference_model.units import KB, SIZE_100MB

COMPARE = AMBIGUITIES["offload_compare"].readings
BOUNDARY = AMBIGUITIES["forced_offload_boundary"].readings
METRIC = AMBIGUITIES["offload_usage_metric"].readings
RULE_OFF = 64 * KB
ALL_RULES_OFF = {"offld1sz": RULE_OFF, "offld2sz": RULE_OFF, "offld3sz": RULE_OFF}
#: IBM's default rule pairs (seed 002): (OFFLDnTH, OFFLDnSZ).
DEFAULT_RULES = {1: (70, 32 * KB), 2: (80, 4 * KB), 3: (90, 0)}


def _model(readings: Readings | None = None, **structure: object) -> Model:
    fields: dict[str, object] = {"cflevel": 5, **structure}
    sd = StructureDef("APP1", **fields)  # type: ignore[arg-type]
    queue = QueueDef("Q1", cfstruct="APP1", maxmsgl=SIZE_100MB)
    return Model(Config(structures=(sd,), queues=(queue,), readings=readings or Readings()))


def _at(pct: int) -> dict[str, tuple[int, int, int, int]]:
    """A view with entries and elements both ``pct`` percent used (every metric reads ``pct``)."""
    return {"APP1": (100 * pct, 10_000, 600 * pct, 60_000)}


def _put(model: Model, length: int, pct: int | None = None, rule: str = "OFFLOAD-002") -> tuple:
    """(ok, offloaded, whether ``rule`` is among the deciding rules) for one put, at ``pct`` usage if given."""
    out = model.step(Put("QM01", "Q1", length), view=None if pct is None else _at(pct))
    return out.ok, out.offloaded, rule in out.rules


# -- OFFLOAD-001 -------------------------------------------------------------------------


def test_offload_001_default_rule_pairs() -> None:
    sd = StructureDef("APP1", cflevel=5)
    actual = {n: (getattr(sd, f"offld{n}th"), getattr(sd, f"offld{n}sz")) for n in (1, 2, 3)}
    assert {1: (70, 32768), 2: (80, 4096), 3: (90, 0)} == actual


@pytest.mark.parametrize("compare", COMPARE)
def test_offload_001_defaults_applied_by_the_model(compare: str) -> None:
    """Seed 002 table: >70% offloads >32 KB, >80% offloads >4 KB, >90% offloads everything."""
    cases = [(71, 32 * KB + 1), (71, 5 * KB), (81, 5 * KB), (81, 100), (91, 100), (60, 60 * KB)]
    model = _model(Readings(offload_compare=compare))
    actual = [_put(model, length, pct)[1] for pct, length in cases]
    assert [True, False, True, False, True, False] == actual


# -- OFFLOAD-002 -------------------------------------------------------------------------

#: (usage delta from OFFLDnTH, size delta from OFFLDnSZ) -> (strict, inclusive)
THRESHOLD_TABLE = {
    (-1, 0): (False, False),
    (-1, 1): (False, False),
    (0, 0): (False, True),
    (0, 1): (False, True),
    (1, 0): (False, True),
    (1, 1): (True, True),
}


@pytest.mark.parametrize("compare", COMPARE)
@pytest.mark.parametrize("cell", sorted(THRESHOLD_TABLE))
@pytest.mark.parametrize("rule", sorted(DEFAULT_RULES))
def test_offload_002_threshold_and_size_boundaries(rule: int, cell: tuple[int, int], compare: str) -> None:
    """Usage TH-1/TH/TH+1 and size SZ/SZ+1 around each default rule; the readings differ at TH and SZ."""
    th, sz = DEFAULT_RULES[rule]
    du, ds = cell
    expected = THRESHOLD_TABLE[cell][COMPARE.index(compare)]
    # OFFLD3SZ(0K) is "(all messages)" (seed 002), but a 0-byte message does not exceed 0 KB under the
    # strict reading: the model follows its comparison there too (an implementation's answer stands)
    model = _model(Readings(offload_compare=compare))
    assert (True, expected, True) == _put(model, sz + ds, th + du)


@pytest.mark.parametrize("compare", COMPARE)
def test_offload_002_readings_differ_only_at_the_boundary(compare: str) -> None:
    """At exactly OFFLD2TH and OFFLD2SZ strict keeps the message in the CF, inclusive offloads it."""
    model = _model(Readings(offload_compare=compare))
    assert _put(model, 4 * KB, 80)[1] is {"strict": False, "inclusive": True}[compare]


@pytest.mark.parametrize("compare", COMPARE)
def test_offload_002_size_and_threshold_of_the_same_rule_pi21909(compare: str) -> None:
    """APAR PI21909: 8 KB exceeds OFFLD2SZ and 75% exceeds OFFLD1TH, but no single rule matches."""
    model = _model(Readings(offload_compare=compare))
    assert [False, True] == [_put(model, 8 * KB, 75)[1], _put(model, 8 * KB, 85)[1]]


@pytest.mark.parametrize("compare", COMPARE)
def test_offload_002_rules_are_or_ed(compare: str) -> None:
    """At 95% each rule on its own offloads: 40 KB (rule 1), 5 KB (rule 2), 1 byte (rule 3)."""
    model = _model(Readings(offload_compare=compare))
    assert [True, True, True] == [_put(model, n, 95)[1] for n in (40 * KB, 5 * KB, 1)]


@pytest.mark.parametrize("compare", COMPARE)
def test_offload_002_seed_example_offld1th_0(compare: str) -> None:
    """Seed 002: OFFLD1TH(0) OFFLD1SZ(32K) offloads every message over 32 KB."""
    model = _model(Readings(offload_compare=compare), offld1th=0, offld1sz=32 * KB)
    assert [True, False] == [_put(model, 33 * KB, 5)[1], _put(model, 31 * KB, 5)[1]]


def test_offload_014_offld1th_0_offloads_once_the_structure_is_in_use() -> None:
    """Seed 002: OFFLD1TH(0) is set "to offload all such messages": under either comparison the model
    offloads every such message once the structure is in use, naming OFFLOAD-014."""
    for compare in COMPARE:
        model = _model(Readings(offload_compare=compare), offld1th=0, offld1sz=KB)
        model.step(Put("QM01", "Q1", 1))
        assert (True, True, True) == _put(model, 2 * KB, rule="OFFLOAD-014"), compare


@pytest.mark.parametrize(("compare", "offloaded"), [("inclusive", True), ("strict", False)])
def test_offload_014_into_an_empty_structure_the_model_follows_its_comparison(compare: str, offloaded: bool) -> None:
    """0% used reaches 0% but is not "more than" 0%: on its own figures the model keeps the first
    message in the CF under the strict reading (either answer is admissible there: see below)."""
    model = _model(Readings(offload_compare=compare), offld1th=0, offld1sz=KB)
    assert (True, offloaded) == _put(model, 2 * KB)[:2]


def _judged(compare: str, before: tuple[int, int, int, int], offloaded: bool) -> bool | None:
    """The model's expected offload decision (checker mode) for a 2 KB put under OFFLD1TH(0)
    OFFLD1SZ(1K) that the implementation decided ``offloaded``, its usage before being ``before``."""
    model = _model(Readings(offload_compare=compare), offld1th=0, offld1sz=KB)
    after = (before[0] + 1, before[1], before[2] + 9, before[3])
    seen = Outcome("put", True, offloaded=offloaded, usage=after, location="SMDS" if offloaded else "CF")
    return model.step(Put("QM01", "Q1", 2 * KB), hint=Observed(seen, {"APP1": before}, {"APP1": after})).offloaded


@pytest.mark.parametrize("offloaded", [True, False])
def test_offload_014_at_exactly_0_percent_the_strict_reading_may_keep_the_message(offloaded: bool) -> None:
    """ibm-facts 2.3: both comparisons are admissible and judged only away from the boundary; an empty
    structure is exactly at OFFLD1TH(0), where "more than 0% full" keeps what "offload all" offloads."""
    assert offloaded is _judged("strict", (0, 1000, 0, 6000), offloaded)


@pytest.mark.parametrize("offloaded", [True, False])
def test_offload_014_at_exactly_0_percent_either_answer_stands_under_the_combined_reading_too(offloaded: bool):
    model = _model(Readings(offload_compare="strict", offload_usage_metric="combined"), offld1th=0, offld1sz=KB)
    after = (1, 1000, 9, 6000)
    seen = Outcome("put", True, offloaded=offloaded, usage=after, location="SMDS" if offloaded else "CF")
    hint = Observed(seen, {"APP1": (0, 1000, 0, 6000)}, {"APP1": after})
    assert offloaded is model.step(Put("QM01", "Q1", 2 * KB), hint=hint).offloaded


@pytest.mark.parametrize("compare", COMPARE)
def test_offload_014_once_the_structure_is_in_use_offld1th_0_offloads(compare: str) -> None:
    assert _judged(compare, (1, 1000, 9, 6000), False) is True  # kept in the CF: a departure


def test_offload_014_the_inclusive_reading_offloads_into_an_empty_structure() -> None:
    assert _judged("inclusive", (0, 1000, 0, 6000), False) is True  # 0% reaches 0%


def _judged_size(compare: str, length: int, offloaded: bool) -> bool | None:
    """The model's expected decision (checker mode) for a put of ``length`` bytes under OFFLD1TH(1)
    OFFLD1SZ(0K) at 10% usage, the implementation having decided ``offloaded``."""
    model = _model(Readings(offload_compare=compare), offld1th=1, offld1sz=0, offld2sz=RULE_OFF, offld3sz=RULE_OFF)
    before, after = (100, 1000, 600, 6000), (101, 1000, 601, 6000)
    seen = Outcome("put", True, offloaded=offloaded, usage=after, location="SMDS" if offloaded else "CF")
    return model.step(Put("QM01", "Q1", length), hint=Observed(seen, {"APP1": before}, {"APP1": after})).offloaded


@pytest.mark.parametrize("offloaded", [True, False])
def test_offload_002_a_message_of_no_data_under_offldnsz_0k_strict_either_answer_stands(offloaded: bool) -> None:
    """OFFLDnSZ(0K) offloads "messages exceeding 0 KB (all messages)": a 0-byte message is "all
    messages" but does not exceed 0 KB under the strict reading, a boundary ibm-facts 2.3 leaves open."""
    assert offloaded is _judged_size("strict", 0, offloaded)


@pytest.mark.parametrize(("compare", "length"), [("inclusive", 0), ("strict", 1), ("inclusive", 1)])
def test_offload_002_offldnsz_0k_offloads_a_message_away_from_that_boundary(compare: str, length: int) -> None:
    assert _judged_size(compare, length, False) is True  # kept in the CF: a departure


@pytest.mark.parametrize(("compare", "offloaded"), [("inclusive", True), ("strict", False)])
def test_offload_002_the_model_offloads_a_message_of_no_data_as_its_comparison_says(compare: str, offloaded: bool):
    model = _model(Readings(offload_compare=compare), offld1th=0, offld1sz=0, offld2sz=RULE_OFF, offld3sz=RULE_OFF)
    model.step(Put("QM01", "Q1", 1))  # the structure in use
    assert (True, offloaded) == _put(model, 0)[:2]


@pytest.mark.parametrize("threshold", [7, 14, 29, 57, 58])
@pytest.mark.parametrize("compare", COMPARE)
def test_offload_002_exact_usage_at_odd_thresholds(compare: str, threshold: int) -> None:
    """Usage of exactly TH% (TH of 100 entries in use) is 'reached' but not 'more than' TH."""
    model = _model(
        Readings(offload_compare=compare), offld1th=threshold, offld1sz=0, offld2sz=RULE_OFF, offld3sz=RULE_OFF
    )
    view = {"APP1": (threshold, 100, 0, 600)}
    out = model.step(Put("QM01", "Q1", 1), view=view)
    assert out.offloaded is (compare == "inclusive")


# -- OFFLOAD-003 -------------------------------------------------------------------------


@pytest.mark.parametrize("compare", COMPARE)
def test_offload_003_all_rules_off_at_64k(compare: str) -> None:
    """With every OFFLDnSZ at 64K a 99%-full structure keeps a storable message in the CF."""
    model = _model(Readings(offload_compare=compare), **ALL_RULES_OFF)
    assert [False] * 5 == [_put(model, n, 99)[1] for n in (0, 1, 5 * KB, 40 * KB, 63 * KB)]


@pytest.mark.parametrize("compare", COMPARE)
@pytest.mark.parametrize("rule", [1, 2, 3])
def test_offload_003_64k_turns_one_rule_off(rule: int, compare: str) -> None:
    """Under the 63.75K boundary a 65280-byte message is storable: SZ 63K offloads it, SZ 64K does not."""
    readings = Readings(offload_compare=compare, forced_offload_boundary="63.75K")
    actual = []
    for sz in (63 * KB, RULE_OFF):
        model = _model(readings, **{**ALL_RULES_OFF, f"offld{rule}th": 10, f"offld{rule}sz": sz})
        actual.append(_put(model, 65280, 99)[1])
    assert [True, False] == actual


@pytest.mark.parametrize("compare", COMPARE)
def test_offload_003_other_rule_still_in_effect(compare: str) -> None:
    """Seed 002: with rule 3 off, messages are offloaded only if another rule is in effect."""
    model = _model(Readings(offload_compare=compare), offld3sz=RULE_OFF)
    assert [False, True] == [_put(model, 1, 99)[1], _put(model, 5 * KB, 99)[1]]


# -- OFFLOAD-004 -------------------------------------------------------------------------

#: length -> (offloaded under 63.75K, offloaded under 63K)
FORCED_TABLE = {64512: (False, False), 64513: (False, True), 65280: (False, True), 65281: (True, True)}


@pytest.mark.parametrize("cflevel", [4, 5])
@pytest.mark.parametrize("boundary", BOUNDARY)
@pytest.mark.parametrize("length", sorted(FORCED_TABLE))
def test_offload_004_forced_offload_boundary(length: int, boundary: str, cflevel: int) -> None:
    """64512/64513/65280/65281 bytes into an empty structure, rules out of reach."""
    model = _model(Readings(forced_offload_boundary=boundary), cflevel=cflevel)
    forced = FORCED_TABLE[length][BOUNDARY.index(boundary)]
    assert (True, forced, True) == _put(model, length, rule="OFFLOAD-004")


@pytest.mark.parametrize("boundary", BOUNDARY)
@pytest.mark.parametrize("cflevel", [4, 5])
def test_offload_004_forced_even_with_rules_off(cflevel: int, boundary: str) -> None:
    """A 100 MB message is always offloaded, whatever the rules and the usage."""
    model = _model(Readings(forced_offload_boundary=boundary), cflevel=cflevel, **ALL_RULES_OFF)
    assert (True, True, True) == _put(model, SIZE_100MB, rule="OFFLOAD-004")


@pytest.mark.parametrize("compare", COMPARE)
def test_offload_004_cflevel4_forced_only(compare: str) -> None:
    """At CFLEVEL(4) the rules do not apply: a 95%-full structure keeps a 40 KB message."""
    model = _model(Readings(offload_compare=compare), cflevel=4)
    kept = _put(model, 40 * KB, 95, rule="OFFLOAD-004")
    forced = _put(model, 65281, 0, rule="OFFLOAD-004")
    assert [(True, False, True), (True, True, True)] == [kept, forced]


def test_cflevel_006_cflevel4_offloads_to_db2() -> None:
    """At CFLEVEL(4) a message too large for an entry goes to Db2: SMDS comes with CFLEVEL(5)."""
    out = _model(cflevel=4).step(Put("QM01", "Q1", SIZE_100MB, False, False, 1))
    assert (True, True, "DB2") == (out.ok, out.offloaded, out.location)


# -- OFFLOAD-005 -------------------------------------------------------------------------


def test_offload_005_offloaded_message_costs_0_75_kb() -> None:
    """An entry plus two elements: 256 + 2 x 256 = 768 bytes = 0.75 KB, at least 512 bytes of data."""
    acct = Config().accounting
    cost = acct.entry_bytes + acct.offloaded_elements * acct.element_bytes
    assert (768, True) == (cost, acct.offloaded_elements * acct.element_bytes >= 512)


@pytest.mark.parametrize(("length", "pct"), [(65281, None), (SIZE_100MB, None), (1000, 95)])
def test_offload_005_offloaded_put_uses_one_entry_two_elements(length: int, pct: int | None) -> None:
    """Forced (65281 B, 100 MB) or by rule 3 (1000 B at 95%): the same CF cost."""
    model = _model()
    s = model.structures["APP1"]
    out = model.step(Put("QM01", "Q1", length), view=None if pct is None else _at(pct))
    expected = (1, s.pools.entries_total, 2, s.pools.elements_total)
    assert (True, expected) == (out.offloaded, out.usage)


def test_offload_005_in_cf_message_costs_its_elements() -> None:
    """Contrast: a 1 KB message kept in the CF uses ceil((1024 + 128) / 256) = 5 elements."""
    model = _model()
    out = model.step(Put("QM01", "Q1", 1024))
    assert (False, 5, 5) == (out.offloaded, out.usage[2], elements_for(1024, model.acct))  # type: ignore[index]


# -- OFFLOAD-006 -------------------------------------------------------------------------


@pytest.mark.parametrize(("offload", "expected"), [(None, "SMDS"), ("SMDS", "SMDS"), ("DB2", "DB2")])
def test_offload_006_smds_is_the_default(offload: str | None, expected: str) -> None:
    assert expected == StructureDef("APP1", cflevel=5, offload=offload).effective_offload


@pytest.mark.parametrize("cflevel", [1, 2, 3, 4])
def test_offload_006_no_offload_target_below_cflevel5(cflevel: int) -> None:
    assert StructureDef("APP1", cflevel=cflevel).effective_offload is None


@pytest.mark.parametrize("offload", ["SMDS", "DB2"])
def test_offload_006_both_targets_obey_the_same_rules(offload: str) -> None:
    model = _model(offload=offload)
    actual = [_put(model, 65281)[1], _put(model, 5 * KB, 85)[1], _put(model, 5 * KB, 75)[1]]
    assert [True, True, False] == actual


@pytest.mark.parametrize("offload", ["smds", "DISK", ""])
def test_offload_006_unknown_target_refused(offload: str) -> None:
    with pytest.raises(ConfigurationError) as info:
        StructureDef("APP1", cflevel=5, offload=offload)
    assert (
        "structures[APP1].offload",
        offload,
        "OFFLOAD-006",
    ) == (info.value.field, info.value.value, info.value.rule_id)


# -- OFFLOAD-007 -------------------------------------------------------------------------


@pytest.mark.parametrize("offload", ["SMDS", "DB2"])
@pytest.mark.parametrize("cflevel", [1, 2, 3, 4])
def test_offload_007_offload_below_cflevel5_is_a_configuration_error(cflevel: int, offload: str) -> None:
    with pytest.raises(ConfigurationError) as info:
        StructureDef("APP1", cflevel=cflevel, offload=offload)
    err = info.value
    assert ("structures[APP1].offload", offload, "OFFLOAD-007") == (err.field, err.value, err.rule_id)
    assert "offload" in str(err) and "OFFLOAD-007" in str(err)


@pytest.mark.parametrize("offload", ["SMDS", "DB2"])
def test_offload_007_offload_at_cflevel5_accepted(offload: str) -> None:
    assert offload == StructureDef("APP1", cflevel=5, offload=offload).offload


@pytest.mark.parametrize("offload", [None, "SMDS", "DB2"])
def test_offload_007_lowering_below_cflevel5_is_the_same_with_offload_given_or_defaulted(offload) -> None:
    """Whether an OFFLOAD in effect blocks CFLEVEL(4) is not documented: the model's own answer is
    the same whether the keyword was given or defaulted (it accepts, and the keyword stops applying)."""
    model = _model(offload=offload)
    out = model.step(AlterStructure("APP1", {"cflevel": 4}))
    assert (True, 4, None) == (
        out.ok,
        model.structures["APP1"].defn.cflevel,
        model.structures["APP1"].defn.effective_offload,
    )


# -- OFFLOAD-011 -------------------------------------------------------------------------


@pytest.mark.parametrize("value", [-1, 101])
@pytest.mark.parametrize("rule", [1, 2, 3])
def test_offload_011_threshold_out_of_range(rule: int, value: int) -> None:
    with pytest.raises(ConfigurationError) as info:
        StructureDef("APP1", cflevel=5, **{f"offld{rule}th": value})  # type: ignore[arg-type]
    err = info.value
    assert (
        f"structures[APP1].offld{rule}th",
        value,
        "an integer 0..100",
        "OFFLOAD-011",
    ) == (err.field, err.value, err.allowed, err.rule_id)


@pytest.mark.parametrize("value", [-1, 64 * KB + 1, 128 * KB])
@pytest.mark.parametrize("rule", [1, 2, 3])
def test_offload_011_size_out_of_range(rule: int, value: int) -> None:
    with pytest.raises(ConfigurationError) as info:
        StructureDef("APP1", cflevel=5, **{f"offld{rule}sz": value})  # type: ignore[arg-type]
    err = info.value
    assert (
        f"structures[APP1].offld{rule}sz",
        value,
        "an integer 0..65536",
        "OFFLOAD-011",
    ) == (err.field, err.value, err.allowed, err.rule_id)


@pytest.mark.parametrize(("th", "sz"), [(0, 0), (100, 64 * KB), (0, 64 * KB), (100, 0)])
@pytest.mark.parametrize("rule", [1, 2, 3])
def test_offload_011_range_bounds_accepted(rule: int, th: int, sz: int) -> None:
    sd = StructureDef("APP1", cflevel=5, **{f"offld{rule}th": th, f"offld{rule}sz": sz})  # type: ignore[arg-type]
    assert (th, sz) == (getattr(sd, f"offld{rule}th"), getattr(sd, f"offld{rule}sz"))


def test_offload_011_alter_out_of_range_refused() -> None:
    model = _model()
    before = model.structures["APP1"].defn
    out = model.step(AlterStructure("APP1", {"offld2th": 101}))
    assert (
        False,
        CMD_INVALID,
        ("OFFLOAD-011",),
        before,
    ) == (out.ok, out.reason, out.rules, model.structures["APP1"].defn)


# -- OFFLOAD-012 -------------------------------------------------------------------------

#: view (entries 95%, elements 50%): max 95, elements 50, combined (95 + 300) / 700 = 56.4.
SKEWED_VIEW = {"APP1": (95, 100, 300, 600)}
#: OFFLD1TH -> offloaded under (max, elements, combined)
SKEWED_TABLE = {96: (False, False, False), 90: (True, False, False), 53: (True, False, True), 45: (True, True, True)}


@pytest.mark.parametrize("metric", METRIC)
@pytest.mark.parametrize("threshold", sorted(SKEWED_TABLE))
def test_offload_012_usage_metric_readings_differ_on_a_skewed_view(threshold: int, metric: str) -> None:
    model = _model(
        Readings(offload_usage_metric=metric), offld1th=threshold, offld1sz=0, offld2sz=RULE_OFF, offld3sz=RULE_OFF
    )
    out = model.step(Put("QM01", "Q1", 1), view=SKEWED_VIEW)
    assert out.offloaded is SKEWED_TABLE[threshold][METRIC.index(metric)]


#: After 80 empty messages in a 6400 KB structure with ratio 6 (111 entries, 666 elements):
#: entries 72.1%, elements 12.0%, combined 160 / 777 = 20.6%.
FILLED_TABLE = {75: (False, False, False), 50: (True, False, False), 15: (True, False, True), 10: (True, True, True)}


@pytest.mark.parametrize("metric", METRIC)
@pytest.mark.parametrize("threshold", sorted(FILLED_TABLE))
def test_offload_012_usage_metric_readings_differ_when_filled(threshold: int, metric: str) -> None:
    """Fill with the rules off, then ALTER rule 1 on: the 81st put is decided on the model's own usage."""
    model = _model(Readings(offload_usage_metric=metric), size_kb=6400, ratio=6, **ALL_RULES_OFF)
    for _ in range(80):
        model.step(Put("QM01", "Q1", 0))
    assert (80, 111, 80, 666) == model.structures["APP1"].pools.as_tuple()
    model.step(AlterStructure("APP1", {"offld1th": threshold, "offld1sz": 0}))
    out = model.step(Put("QM01", "Q1", 1))
    assert out.offloaded is FILLED_TABLE[threshold][METRIC.index(metric)]


@pytest.mark.parametrize("metric", METRIC)
def test_offload_012_readings_agree_when_entries_equal_elements(metric: str) -> None:
    model = _model(Readings(offload_usage_metric=metric))
    assert [False, True] == [_put(model, 5 * KB, 79)[1], _put(model, 5 * KB, 81)[1]]


# -- OFFLOAD-013 -------------------------------------------------------------------------


def test_offload_013_alter_changes_only_the_keywords_given() -> None:
    model = _model(offload="DB2", offld2th=85, recover=True, fullthreshold=70)
    before = model.structures["APP1"].defn
    out = model.step(AlterStructure("APP1", {"offld1th": 50}))
    assert (True, True) == (out.ok, "OFFLOAD-013" in out.rules)
    assert attrs.evolve(before, offld1th=50) == model.structures["APP1"].defn


def test_offload_013_altered_rule_applies_and_others_keep_their_values() -> None:
    """After ALTER OFFLD1TH(50): 33 KB at 60% is offloaded; rule 2 is still 80%/4K."""
    model = _model()
    model.step(AlterStructure("APP1", {"offld1th": 50}))
    assert [
        True,
        False,
        True,
    ] == [_put(model, 33 * KB, 60)[1], _put(model, 5 * KB, 60)[1], _put(model, 5 * KB, 81)[1]]


def test_offload_013_alter_with_no_keywords_changes_nothing() -> None:
    model = _model(offld3th=80)
    before = model.structures["APP1"].defn
    out = model.step(AlterStructure("APP1", {}))
    assert (True, before) == (out.ok, model.structures["APP1"].defn)


@pytest.mark.parametrize("key", ["name", "size_kb", "ratio", "ovflwmax"])
def test_offload_013_unknown_alter_keyword_refused(key: str) -> None:
    model = _model()
    before = model.structures["APP1"].defn
    out = model.step(AlterStructure("APP1", {key: 1}))
    assert (
        False,
        CMD_INVALID,
        ("OFFLOAD-013",),
        before,
    ) == (out.ok, out.reason, out.rules, model.structures["APP1"].defn)


# -- OFFLOAD-013/014 after a raise to CFLEVEL(5): reading offload_after_raise ------------------


@pytest.mark.parametrize(("reading", "offloaded"), [("kept", True), ("off", False)])
def test_offload_after_raise_to_cflevel_5_sizes_kept_or_off(reading: str, offloaded: bool) -> None:
    """ALTER leaves what it does not name unchanged (ibm-facts 2.1), or a structure migrated to
    CFLEVEL(5) takes 64K, the rule off (reading (a), the tenth reading): the 2 KB message that
    OFFLD1TH(0) OFFLD1SZ(1K) offloads before is offloaded after a 5 -> 1 -> 5 only under ``kept``."""
    model = _model(Readings(offload_after_raise=reading), offld1th=0, offld1sz=KB)
    for level in (1, 5):
        assert model.step(AlterStructure("APP1", (("cflevel", level),))).ok
    model.step(Put("QM01", "Q1", 1))  # (the structure in use: 0% is past under either comparison)
    assert (True, offloaded) == _put(model, 2 * KB)[:2]


def test_offload_after_raise_off_keeps_a_size_the_alter_names() -> None:
    """Under ``off`` only the sizes the raising ALTER does not name are 64K: one it names applies."""
    model = _model(Readings(offload_after_raise="off"), cflevel=4)
    assert model.step(AlterStructure("APP1", (("cflevel", 5), ("offld1th", 0), ("offld1sz", KB)))).ok
    model.step(Put("QM01", "Q1", 1))
    assert (True, True) == _put(model, 2 * KB)[:2]
