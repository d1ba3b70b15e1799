"""Per-rule examples for CFLEVEL (CFLEVEL-001..009; seed 003, ibm-facts 2.6 and 3).

Reason codes: 2048 MQRC_PERSISTENT_NOT_ALLOWED, 2366 MQRC_WRONG_CF_LEVEL, 2030
MQRC_MSG_TOO_BIG_FOR_Q.  The two ambiguous reason codes are tested under both readings.
"""

from __future__ import annotations

import pytest

from cfconform.reference_model import Config, ConfigurationError, Model, QueueDef, Readings, StructureDef
from cfconform.reference_model.operations import AlterStructure, Commit, Get, Put
from cfconform.reference_model.outcomes import CMD_NOT_ALLOWED, MQRC_MSG_TOO_BIG_FOR_Q
from cfconform.reference_model.readings import AMBIGUITIES
from cfconform.reference_model.units import KB, SIZE_100MB

PERSISTENT_RC = AMBIGUITIES["persistent_low_cflevel_rc"].readings
LARGE_RC = AMBIGUITIES["large_low_cflevel_rc"].readings
SIZE_63K = 64512


def _model(readings: Readings | None = None, maxmsgl: int = SIZE_100MB, **structure: object) -> Model:
    sd = StructureDef("APP1", **structure)  # type: ignore[arg-type]
    queues = (QueueDef("Q1", cfstruct="APP1", maxmsgl=maxmsgl), QueueDef("L1", qmgr="QM01", maxmsgl=maxmsgl))
    return Model(Config(structures=(sd,), queues=queues, readings=readings or Readings()))


def _put(model: Model, length: int, persistent: bool = False, queue: str = "Q1") -> tuple:
    out = model.step(Put("QM01", queue, length, persistent=persistent))
    return out.ok, out.reason, out.rules


# -- CFLEVEL-001 -------------------------------------------------------------------------


@pytest.mark.parametrize("cflevel", [1, 2, 3, 4, 5])
def test_cflevel_001_levels_1_to_5_accepted(cflevel: int) -> None:
    assert cflevel == StructureDef("APP1", cflevel=cflevel).cflevel


@pytest.mark.parametrize("cflevel", [0, 6, -1])
def test_cflevel_001_other_levels_refused(cflevel: int) -> None:
    with pytest.raises(ConfigurationError) as info:
        StructureDef("APP1", cflevel=cflevel)
    err = info.value
    assert (
        "structures[APP1].cflevel",
        cflevel,
        "an integer 1..5",
        "CFLEVEL-001",
    ) == (err.field, err.value, err.allowed, err.rule_id)


def test_cflevel_001_default_is_3() -> None:
    """The V6-9.3 syntax diagrams give CFLEVEL(3) (ibm-facts 2.6)."""
    assert 3 == StructureDef("APP1").cflevel


# -- CFLEVEL-002 -------------------------------------------------------------------------


@pytest.mark.parametrize("reading", PERSISTENT_RC)
@pytest.mark.parametrize("cflevel", [1, 2])
def test_cflevel_002_persistent_put_refused_below_3(cflevel: int, reading: str) -> None:
    model = _model(Readings(persistent_low_cflevel_rc=reading), cflevel=cflevel)
    expected_rc = {"2048": 2048, "2366": 2366}[reading]
    assert (False, expected_rc, ("CFLEVEL-002",)) == _put(model, 100, persistent=True)


@pytest.mark.parametrize("reading", PERSISTENT_RC)
@pytest.mark.parametrize("cflevel", [1, 2])
def test_cflevel_002_nonpersistent_put_accepted_below_3(cflevel: int, reading: str) -> None:
    model = _model(Readings(persistent_low_cflevel_rc=reading), cflevel=cflevel)
    assert (True, None) == _put(model, 100)[:2]


@pytest.mark.parametrize("reading", PERSISTENT_RC)
def test_cflevel_002_refused_put_stores_nothing(reading: str) -> None:
    model = _model(Readings(persistent_low_cflevel_rc=reading), cflevel=2)
    model.step(Put("QM01", "Q1", 100, persistent=True))
    assert (0, 0) == (model.queues["Q1"].depth, model.structures["APP1"].pools.entries_used)


# -- CFLEVEL-003 -------------------------------------------------------------------------


@pytest.mark.parametrize("reading", LARGE_RC)
@pytest.mark.parametrize("cflevel", [1, 2, 3])
def test_cflevel_003_over_63k_refused_below_4(cflevel: int, reading: str) -> None:
    """64513 bytes (63 KB + 1) with MAXMSGL 100 MB: 2366, or 2030 by reading."""
    model = _model(Readings(large_low_cflevel_rc=reading), cflevel=cflevel)
    assert (False, int(reading), ("CFLEVEL-003",)) == _put(model, SIZE_63K + 1)


@pytest.mark.parametrize("reading", LARGE_RC)
@pytest.mark.parametrize("cflevel", [1, 2, 3])
def test_cflevel_003_63k_accepted_below_4(cflevel: int, reading: str) -> None:
    """64512 bytes (63 KB) is the largest message at CFLEVEL(1)-(3)."""
    model = _model(Readings(large_low_cflevel_rc=reading), cflevel=cflevel)
    out = model.step(Put("QM01", "Q1", SIZE_63K))
    assert (True, False) == (out.ok, out.offloaded)


@pytest.mark.parametrize("reading", LARGE_RC)
def test_cflevel_003_small_maxmsgl_gives_2030_first(reading: str) -> None:
    """With MAXMSGL 63 KB the queue's own limit answers 2030 under both readings (ibm-facts 3.2)."""
    model = _model(Readings(large_low_cflevel_rc=reading), maxmsgl=SIZE_63K, cflevel=3)
    assert (False, 2030, ("CFLEVEL-008",)) == _put(model, SIZE_63K + 1)


@pytest.mark.parametrize("reading", LARGE_RC)
@pytest.mark.parametrize("cflevel", [4, 5])
def test_cflevel_003_over_63k_accepted_at_4_and_5(cflevel: int, reading: str) -> None:
    model = _model(Readings(large_low_cflevel_rc=reading), cflevel=cflevel)
    out = model.step(Put("QM01", "Q1", SIZE_63K + 1))
    assert out.ok is True


# -- CFLEVEL-004 -------------------------------------------------------------------------


@pytest.mark.parametrize("cflevel", [3, 4, 5])
def test_cflevel_004_persistent_put_to_recover_no_gives_2048(cflevel: int) -> None:
    model = _model(cflevel=cflevel, recover=False)
    assert (False, 2048, ("CFLEVEL-004",)) == _put(model, 100, persistent=True)


@pytest.mark.parametrize("cflevel", [3, 4, 5])
def test_cflevel_004_persistent_put_to_recover_yes_accepted(cflevel: int) -> None:
    model = _model(cflevel=cflevel, recover=True)
    assert (True, None) == _put(model, 100, persistent=True)[:2]


def test_cflevel_004_nonshared_queue_takes_persistent_messages() -> None:
    """RECOVER(NO) concerns the structure: a nonshared queue is not on one."""
    model = _model(cflevel=3, recover=False)
    assert (True, None) == _put(model, 100, persistent=True, queue="L1")[:2]


# -- CFLEVEL-005 -------------------------------------------------------------------------


@pytest.mark.parametrize("cflevel", [4, 5])
def test_cflevel_005_100mb_message_accepted(cflevel: int) -> None:
    model = _model(cflevel=cflevel)
    out = model.step(Put("QM01", "Q1", SIZE_100MB))
    assert (True, True, 104857600) == (out.ok, out.offloaded, SIZE_100MB)


def test_cflevel_010_the_model_takes_maxmsgl_up_to_100mb() -> None:
    """Inferred: the queue's MAXMSGL range is not found; the model takes the queue manager's."""
    assert 104857600 == QueueDef("Q1", cfstruct="APP1", maxmsgl=104857600).maxmsgl
    with pytest.raises(ConfigurationError) as info:
        QueueDef("Q1", cfstruct="APP1", maxmsgl=104857601)
    assert ("queues[Q1].maxmsgl", "CFLEVEL-010") == (info.value.field, info.value.rule_id)


@pytest.mark.parametrize("cflevel", [4, 5])
def test_cflevel_005_put_over_100mb_fails_with_2030(cflevel: int) -> None:
    """Longer than any MAXMSGL can be (100 MB): a documented rejection, not an error (CFLEVEL-008)."""
    out = _model(cflevel=cflevel).step(Put("QM01", "Q1", SIZE_100MB + 1))
    assert (False, MQRC_MSG_TOO_BIG_FOR_Q) == (out.ok, out.reason)


# -- CFLEVEL-006 -------------------------------------------------------------------------


@pytest.mark.parametrize(("cflevel", "expected"), [(3, False), (4, False), (5, True)])
def test_cflevel_006_offload_rules_apply_only_at_5(cflevel: int, expected: bool) -> None:
    """1 KB into a 95%-full structure: rule 3 offloads it at CFLEVEL(5) only."""
    model = _model(cflevel=cflevel)
    view = {"APP1": (9500, 10_000, 57_000, 60_000)}
    out = model.step(Put("QM01", "Q1", KB), view=view)
    assert (True, expected) == (out.ok, out.offloaded)


@pytest.mark.parametrize(("cflevel", "expected"), [(4, True), (5, True)])
def test_cflevel_006_forced_offload_at_4_and_5(cflevel: int, expected: bool) -> None:
    model = _model(cflevel=cflevel)
    assert model.step(Put("QM01", "Q1", 65281)).offloaded is expected


# -- CFLEVEL-007 -------------------------------------------------------------------------


@pytest.mark.parametrize("cflevel", [1, 2])
def test_cflevel_007_recover_yes_below_3_is_not_refused_by_the_model(cflevel: int) -> None:
    """Whether DEFINE refuses RECOVER(YES) below CFLEVEL(3) is not documented (ibm-facts 2.6)."""
    assert StructureDef("APP1", cflevel=cflevel, recover=True).recover is True


@pytest.mark.parametrize("cflevel", [3, 4, 5])
def test_cflevel_007_recover_yes_from_3_accepted(cflevel: int) -> None:
    assert StructureDef("APP1", cflevel=cflevel, recover=True).recover is True


def test_cflevel_007_alter_to_2_with_recover_yes_leaves_persistent_puts_refused() -> None:
    """Lowering to CFLEVEL(2) is not refused for RECOVER(YES); a persistent put then fails (CFLEVEL-002),
    and the refusal names CFLEVEL-007 (RECOVER(YES) needs CFLEVEL(3))."""
    model = _model(cflevel=3, recover=True)
    model.step(AlterStructure("APP1", {"cflevel": 2}))
    out = model.step(Put("QM01", "Q1", 1, persistent=True))
    assert (False, ("CFLEVEL-002", "CFLEVEL-007")) == (out.ok, out.rules)


# -- CFLEVEL-008 -------------------------------------------------------------------------


@pytest.mark.parametrize("queue", ["Q1", "L1"])
def test_cflevel_008_longer_than_maxmsgl_gives_2030(queue: str) -> None:
    model = _model(maxmsgl=4 * KB, cflevel=5)
    assert [
        (True, None),
        (False, 2030, ("CFLEVEL-008",)),
    ] == [_put(model, 4 * KB, queue=queue)[:2], _put(model, 4 * KB + 1, queue=queue)]


def test_cflevel_008_maxmsgl_checked_before_offload() -> None:
    """A 100 MB message to a queue with the default 4 MB MAXMSGL fails; it is not offloaded."""
    sd = StructureDef("APP1", cflevel=5)
    model = Model(Config(structures=(sd,), queues=(QueueDef("Q1", cfstruct="APP1"),)))
    out = model.step(Put("QM01", "Q1", SIZE_100MB))
    assert (False, 2030, None) == (out.ok, out.reason, out.offloaded)


# -- CFLEVEL-009 -------------------------------------------------------------------------


@pytest.mark.parametrize(("old", "new"), [(3, 2), (4, 3), (5, 4), (5, 3), (4, 1)])
def test_cflevel_009_decrease_refused_while_a_queue_holds_messages(old: int, new: int) -> None:
    model = _model(cflevel=old)
    model.step(Put("QM01", "Q1", 10))
    out = model.step(AlterStructure("APP1", {"cflevel": new}))
    assert (
        False,
        CMD_NOT_ALLOWED,
        ("CFLEVEL-009",),
        old,
    ) == (out.ok, out.reason, out.rules, model.structures["APP1"].defn.cflevel)


@pytest.mark.parametrize("new", [4, 3, 1])
def test_cflevel_009_unguarded_reading_lowers_cflevel_5_with_messages(new: int) -> None:
    model = _model(Readings(cflevel5_decrease="unguarded"), cflevel=5)
    model.step(Put("QM01", "Q1", 10))
    out = model.step(AlterStructure("APP1", {"cflevel": new}))
    expected_rules = ("OFFLOAD-013", "CFLEVEL-001", "CFLEVEL-009")
    assert (True, expected_rules, new) == (out.ok, out.rules, model.structures["APP1"].defn.cflevel)


@pytest.mark.parametrize(("old", "new"), [(4, 3), (3, 2)])
def test_cflevel_009_unguarded_reading_still_guards_a_decrease_from_3_or_4(old: int, new: int) -> None:
    model = _model(Readings(cflevel5_decrease="unguarded"), cflevel=old)
    model.step(Put("QM01", "Q1", 10))
    out = model.step(AlterStructure("APP1", {"cflevel": new}))
    assert (False, CMD_NOT_ALLOWED, old) == (out.ok, out.reason, model.structures["APP1"].defn.cflevel)


@pytest.mark.parametrize(("old", "new"), [(3, 2), (4, 3), (5, 4), (5, 3), (4, 1)])
def test_cflevel_009_decrease_accepted_once_empty(old: int, new: int) -> None:
    model = _model(cflevel=old)
    model.step(Put("QM01", "Q1", 10))
    model.step(Get("QM01", "Q1"))
    out = model.step(AlterStructure("APP1", {"cflevel": new}))
    assert (True, new) == (out.ok, model.structures["APP1"].defn.cflevel)


@pytest.mark.parametrize("activity", ["uncommitted put", "uncommitted get"])
def test_cflevel_009_uncommitted_activity_counts_as_in_use(activity: str) -> None:
    model = _model(cflevel=4)
    if activity == "uncommitted put":
        model.step(Put("QM01", "Q1", 10, syncpoint=True))
    else:
        model.step(Put("QM01", "Q1", 10))
        model.step(Get("QM01", "Q1", syncpoint=True))
    out = model.step(AlterStructure("APP1", {"cflevel": 3}))
    assert (False, True) == (out.ok, "CFLEVEL-009" in out.rules)


def test_cflevel_009_committed_get_empties_the_queue() -> None:
    model = _model(cflevel=4)
    model.step(Put("QM01", "Q1", 10))
    model.step(Get("QM01", "Q1", syncpoint=True))
    model.step(Commit("QM01"))
    assert model.step(AlterStructure("APP1", {"cflevel": 3})).ok is True


@pytest.mark.parametrize(("old", "new"), [(3, 4), (3, 5), (4, 5)])
def test_cflevel_009_increase_accepted_with_messages(old: int, new: int) -> None:
    model = _model(cflevel=old)
    model.step(Put("QM01", "Q1", 10))
    assert model.step(AlterStructure("APP1", {"cflevel": new})).ok is True


def test_cflevel_009_messages_on_another_structure_do_not_count() -> None:
    structures = (StructureDef("APP1", cflevel=4), StructureDef("APP2", cflevel=4))
    queues = (QueueDef("Q1", cfstruct="APP1"), QueueDef("Q2", cfstruct="APP2"))
    model = Model(Config(structures=structures, queues=queues))
    model.step(Put("QM01", "Q2", 10))
    assert model.step(AlterStructure("APP1", {"cflevel": 3})).ok is True


@pytest.mark.parametrize(
    ("changes", "rules"),
    [
        ({"cflevel": 5}, ("OFFLOAD-013", "CFLEVEL-001")),
        ({"fullthreshold": 100}, ("OFFLOAD-013", "CAPACITY-009")),
        ({"offld1th": 0, "offld2sz": 64 * 1024}, ("OFFLOAD-013", "OFFLOAD-011")),
        ({"recover": True}, ("OFFLOAD-013",)),
    ],
)
def test_cflevel_001_an_accepted_alter_names_the_range_rule_of_each_keyword(changes, rules) -> None:
    out = _model(cflevel=4).step(AlterStructure("APP1", changes))
    assert (True, rules) == (out.ok, out.rules)
