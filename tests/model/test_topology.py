"""Per-rule examples for QSG topology (TOPOLOGY-001..013; seeds 001 and 003, ibm-facts 2.6, 6.2, 6.3)."""

from __future__ import annotations

import pytest

from cfconform.reference_model import Config, ConfigurationError, Model, QueueDef, StructureDef
from cfconform.reference_model.operations import DefineQueue, DefineStructure, Get, Put
from cfconform.reference_model.outcomes import CMD_INVALID
from cfconform.reference_model.tables import ADMIN_MIN_KB_CFCC14, ADMIN_MIN_KB_V6, admin_min_kb
from cfconform.reference_model.topology import (
    admin_check,
    admin_entries_needed,
    csqsysappl_messages,
    csqsysappl_suggested,
    structure_name,
)  # fmt: skip

SYNCQ = "SYSTEM.QSG.CHANNEL.SYNCQ"
URQ = "SYSTEM.QSG.UR.RESOLUTION.QUEUE"


def _structures(n: int, sysappl: bool = False) -> tuple[StructureDef, ...]:
    """``n`` structures for message data, plus CSQSYSAPPL when ``sysappl``."""
    data = tuple(StructureDef(f"APP{i}") for i in range(n))
    return (*data, StructureDef("CSQSYSAPPL")) if sysappl else data


def _error(thunk: object) -> tuple:
    with pytest.raises(ConfigurationError) as info:
        thunk()  # type: ignore[operator]
    err = info.value
    return err.field, err.value, err.rule_id


def _invalid(outcome: object) -> tuple:
    return outcome.ok, outcome.reason, outcome.rules  # type: ignore[attr-defined]


# -- TOPOLOGY-001 ------------------------------------------------------------------------


def test_topology_001_csq_admin_cannot_be_a_cfstruct() -> None:
    assert ("structures[CSQ_ADMIN].name", "CSQ_ADMIN", "TOPOLOGY-001") == _error(lambda: StructureDef("CSQ_ADMIN"))


def test_topology_001_no_queue_on_csq_admin() -> None:
    assert (
        "queues[Q1].cfstruct",
        "CSQ_ADMIN",
        "TOPOLOGY-001",
    ) == _error(lambda: QueueDef("Q1", cfstruct="CSQ_ADMIN"))


def test_topology_001_csq_admin_refused_in_a_define_record() -> None:
    from cfconform.reference_model.codec import op_from_record

    model = Model(Config())
    out = model.step(op_from_record({"op": "define_structure", "structure": {"name": "CSQ_ADMIN"}}))
    assert (False, CMD_INVALID, ("TOPOLOGY-001",), ["APP1"]) == (
        out.ok,
        out.reason,
        out.rules,
        sorted(model.structures),
    )


# -- TOPOLOGY-002 ------------------------------------------------------------------------


def test_topology_002_no_application_structure_refused() -> None:
    assert ("structures", 0, "TOPOLOGY-002") == _error(lambda: Config(structures=()))


def test_topology_002_one_application_structure_is_enough() -> None:
    assert ["APP1"] == [s.name for s in Config(structures=(StructureDef("APP1"),)).structures]


# -- TOPOLOGY-003 ------------------------------------------------------------------------


def test_topology_003_63_application_structures_accepted() -> None:
    assert 63 == len(Config(structures=_structures(63)).structures)


def test_topology_003_64th_application_structure_refused_in_config() -> None:
    assert ("structures", 64, "TOPOLOGY-003") == _error(lambda: Config(structures=_structures(64)))


def test_topology_003_define_63rd_accepted_64th_refused() -> None:
    model = Model(Config(structures=_structures(62)))
    first = model.step(DefineStructure(StructureDef("APP62")))
    second = model.step(DefineStructure(StructureDef("APP63")))
    assert (
        True,
        (False, CMD_INVALID, ("TOPOLOGY-003",)),
        63,
    ) == (first.ok, _invalid(second), len(model.structures))


# -- TOPOLOGY-004 ------------------------------------------------------------------------
# Seed 001: "up to 63 (62 if CSQSYSAPPL is defined) structures for message data": CSQSYSAPPL
# takes one of the 63 application structures.


def test_topology_004_62_with_csqsysappl_accepted() -> None:
    config = Config(structures=_structures(62, sysappl=True))
    assert (63, "CSQSYSAPPL") == (len(config.structures), config.structures[-1].name)


def test_topology_004_63_with_csqsysappl_refused_in_config() -> None:
    assert ("structures", 64, "TOPOLOGY-004") == _error(lambda: Config(structures=_structures(63, sysappl=True)))


def test_topology_004_define_csqsysappl_beside_63_refused() -> None:
    model = Model(Config(structures=_structures(63)))
    out = model.step(DefineStructure(StructureDef("CSQSYSAPPL")))
    assert ((False, CMD_INVALID, ("TOPOLOGY-004",)), False) == (_invalid(out), "CSQSYSAPPL" in model.structures)


def test_topology_004_define_62nd_beside_csqsysappl_accepted_63rd_refused() -> None:
    model = Model(Config(structures=_structures(61, sysappl=True)))
    first = model.step(DefineStructure(StructureDef("APP61")))
    second = model.step(DefineStructure(StructureDef("APP62")))
    assert (True, (False, CMD_INVALID, ("TOPOLOGY-004",))) == (first.ok, _invalid(second))


# -- TOPOLOGY-005 ------------------------------------------------------------------------


def _queues(n: int, cfstruct: str = "APP1") -> tuple[QueueDef, ...]:
    return tuple(QueueDef(f"Q{i}", cfstruct=cfstruct) for i in range(n))


def test_topology_005_512_queues_on_a_structure_accepted() -> None:
    assert 512 == len(Config(queues=_queues(512)).queues)


def test_topology_005_513th_queue_refused_in_config() -> None:
    assert ("queues[Q512].cfstruct", "APP1", "TOPOLOGY-005") == _error(lambda: Config(queues=_queues(513)))


def test_topology_005_define_513th_queue_refused() -> None:
    model = Model(Config(queues=_queues(511)))
    first = model.step(DefineQueue(QueueDef("Q511", cfstruct="APP1")))
    second = model.step(DefineQueue(QueueDef("Q512", cfstruct="APP1")))
    assert (
        True,
        (False, CMD_INVALID, ("TOPOLOGY-005",)),
        512,
    ) == (first.ok, _invalid(second), len(model.queues))


def test_topology_005_limit_is_per_structure() -> None:
    structures = (StructureDef("APP1"), StructureDef("APP2"))
    config = Config(structures=structures, queues=(*_queues(512), QueueDef("OTHER", cfstruct="APP2")))
    model = Model(config)
    out = model.step(DefineQueue(QueueDef("MORE", cfstruct="APP2")))
    assert (513, True) == (len(config.queues), out.ok)


def test_topology_005_nonshared_queues_do_not_count() -> None:
    model = Model(Config(queues=_queues(512)))
    assert model.step(DefineQueue(QueueDef("LOCAL", qmgr="QM01"))).ok is True


# -- TOPOLOGY-006 ------------------------------------------------------------------------


def _qmgrs(n: int) -> tuple[str, ...]:
    return tuple(f"QM{i:02d}" for i in range(1, n + 1))


def test_topology_006_32_queue_managers_accepted() -> None:
    assert 32 == len(Config(qmgrs=_qmgrs(32)).qmgrs)


def test_topology_006_33_queue_managers_are_not_judged() -> None:
    """32 limits the queue managers connected to one structure at once; every configured one starts
    active, and whether a 33rd may be is not stated (ibm-facts 6.3): such a group is refused, unjudged."""
    assert ("qmgrs", 33, "TOPOLOGY-006") == _error(lambda: Config(qmgrs=_qmgrs(33)))


def test_topology_006_33_cqs_subsystems_accepted() -> None:
    """The 32 of seed 003 is an IBM MQ sentence: a CQS group is not bounded by it."""
    assert 33 == len(Config(profile="cqs", qmgrs=_qmgrs(33)).qmgrs)


def test_topology_006_queue_manager_names_unique() -> None:
    assert ("qmgrs", "QM01", "TOPOLOGY-006") == _error(lambda: Config(qmgrs=("QM01", "QM02", "QM01")))


def test_topology_006_all_32_share_one_queue() -> None:
    model = Model(Config(qmgrs=_qmgrs(32), queues=(QueueDef("Q1", cfstruct="APP1"),)))
    for i, name in enumerate(model.qmgrs):
        model.step(Put(name, "Q1", 10, tag=i))
    tags = [model.step(Get(name, "Q1")).tag for name in reversed(list(model.qmgrs))]
    assert list(range(32)) == tags


def test_topology_006_unknown_queue_manager_is_bad_input() -> None:
    model = Model(Config(queues=(QueueDef("Q1", cfstruct="APP1"),)))
    assert ("qmgr", "QM99", "TOPOLOGY-006") == _error(lambda: model.step(Put("QM99", "Q1", 10)))


# -- TOPOLOGY-007 ------------------------------------------------------------------------


@pytest.mark.parametrize(("qmgrs", "entries"), [(1, 1000), (3, 3000), (31, 31000), (32, 32000)])
def test_topology_007_admin_needs_1000_entries_per_qmgr(qmgrs: int, entries: int) -> None:
    assert (entries, entries) == (admin_entries_needed(qmgrs), admin_check(qmgrs, 100_000).entries_needed)


@pytest.mark.parametrize("qmgrs", [0, 33, -1])
def test_topology_007_admin_entries_qmgr_count_out_of_range(qmgrs: int) -> None:
    assert ("qmgrs", qmgrs, "TOPOLOGY-006") == _error(lambda: admin_entries_needed(qmgrs))


# -- TOPOLOGY-008 ------------------------------------------------------------------------

TABLE1 = {
    1: 6144,
    2: 6912,
    3: 7976,
    4: 8704,
    5: 9728,
    6: 10496,
    7: 11520,
    8: 12288,
    9: 13056,
    10: 14080,
    11: 14848,
    12: 15616,
    13: 16640,
    14: 17408,
    15: 18176,
    16: 19200,
    17: 19968,
    18: 20736,
    19: 21760,
    20: 22528,
    21: 23296,
    22: 24320,
    23: 25088,
    24: 25856,
    25: 27136,
    26: 27904,
    27: 28672,
    28: 29696,
    29: 30464,
    30: 31232,
    31: 32256,
}


def test_topology_008_table1_transcribed() -> None:
    assert TABLE1 == dict(ADMIN_MIN_KB_CFCC14)


@pytest.mark.parametrize("qmgrs", sorted(TABLE1))
def test_topology_008_admin_check_at_table1_minimum(qmgrs: int) -> None:
    minimum = TABLE1[qmgrs]
    at, below = admin_check(qmgrs, minimum), admin_check(qmgrs, minimum - 1)
    assert (minimum, True, False) == (at.minimum_kb, at.ok, below.ok)


@pytest.mark.parametrize("qmgrs", [1, 3, 16, 31])
def test_topology_008_config_admin_size_below_table1_is_the_implementations_to_refuse(qmgrs: int) -> None:
    """Table 1 gives minimum sizes for CFCC level 14: a smaller CSQ_ADMIN is not forbidden by the model."""
    minimum = TABLE1[qmgrs]
    assert minimum - 1 == Config(qmgrs=_qmgrs(qmgrs), admin_size_kb=minimum - 1).admin_size_kb


def test_topology_008_v6_table_and_next_row_above() -> None:
    """V6 (CFCC 9) publishes 1, 2, 4, 8, 16, 31 queue managers; 3 takes the 4-row (4608 KB)."""
    assert (
        {1: 2560, 2: 3328, 4: 4608, 8: 7680, 16: 13568, 31: 24832},
        4608,
        False,
    ) == (dict(ADMIN_MIN_KB_V6), admin_min_kb(3, "v6"), admin_check(3, 4607, "v6").ok)


@pytest.mark.parametrize("table", ["cfcc14", "v6"])
def test_topology_008_32_qmgrs_has_no_published_row(table: str) -> None:
    check = admin_check(32, 50_000, table)
    assert (None, None, 32000) == (check.minimum_kb, check.ok, check.entries_needed)


def test_topology_008_unknown_table_refused() -> None:
    assert ("admin_table", "cfcc20", "TOPOLOGY-008") == _error(lambda: admin_check(3, 8000, "cfcc20"))
    assert ("admin_table", "cfcc20", "TOPOLOGY-008") == _error(lambda: Config(admin_table="cfcc20"))


# -- TOPOLOGY-009 ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["A", "APPLICATION1", "Z00000000009", "PRODUCT7", "MYDATA"])
def test_topology_009_valid_cfstruct_names(name: str) -> None:
    assert name == StructureDef(name).name


@pytest.mark.parametrize("name", ["app1", "APPLICATION12", "1APP", "APP_1", "APP-1", "", "App1", "APP 1"])
def test_topology_009_invalid_cfstruct_names(name: str) -> None:
    assert (f"structures[{name}].name", name, "TOPOLOGY-009") == _error(lambda: StructureDef(name))


def test_topology_009_duplicate_cfstruct_in_config_refused() -> None:
    structures = (StructureDef("APP1"), StructureDef("APP1", cflevel=5))
    assert ("structures[APP1]", "APP1", "TOPOLOGY-009") == _error(lambda: Config(structures=structures))


def test_topology_009_define_existing_cfstruct_refused() -> None:
    model = Model(Config())
    out = model.step(DefineStructure(StructureDef("APP1", cflevel=5)))
    assert ((False, CMD_INVALID, ("TOPOLOGY-009",)), 3) == (_invalid(out), model.structures["APP1"].defn.cflevel)


# -- TOPOLOGY-010 ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("qsg", "cfstruct", "expected"),
    [("SQ03", "MYDATA", "SQ03MYDATA"), ("NY03", "PRODUCT7", "NY03PRODUCT7"), ("QS", "APP", "QS@@APP"),
     ("Q", "A", "Q@@@A"), ("QSG1", "APPLICATION1", "QSG1APPLICATION1"), ("QSG", "CSQSYSAPPL", "QSG@CSQSYSAPPL")],
)  # fmt: skip
def test_topology_010_structure_name_padded_with_at(qsg: str, cfstruct: str, expected: str) -> None:
    assert expected == structure_name(qsg, cfstruct)


@pytest.mark.parametrize("qsg", ["qsg1", "1QSG", "", "Q_1"])
def test_topology_010_invalid_qsg_names(qsg: str) -> None:
    assert (
        ("qsg", qsg, "TOPOLOGY-010"),
        ("qsg", qsg, "TOPOLOGY-010"),
    ) == (_error(lambda: Config(qsg=qsg)), _error(lambda: structure_name(qsg, "APP1")))


# -- TOPOLOGY-015 ------------------------------------------------------------------------
@pytest.mark.parametrize("qsg", ["QSG12", "ABCDEFGH"])
def test_topology_015_a_qsg_name_of_more_than_four_characters_is_refused(qsg: str) -> None:
    assert ("qsg", qsg, "TOPOLOGY-015") == _error(lambda: Config(qsg=qsg))


def test_topology_015_a_qsg_named_like_one_of_its_queue_managers_is_refused() -> None:
    assert ("qsg", "QM02", "TOPOLOGY-015") == _error(lambda: Config(qsg="QM02", qmgrs=("QM01", "QM02")))
    assert "QM03" == Config(qsg="QM03", qmgrs=("QM01", "QM02")).qsg


@pytest.mark.parametrize("qsg", ["Q", "QS", "QSG", "QSG1", "A9Z0"])
def test_topology_010_valid_qsg_names(qsg: str) -> None:
    assert qsg == Config(qsg=qsg).qsg


def test_topology_010_structure_name_refuses_a_bad_cfstruct() -> None:
    assert ("cfstruct", "mydata", "TOPOLOGY-009") == _error(lambda: structure_name("QSG1", "mydata"))


# -- TOPOLOGY-011 ------------------------------------------------------------------------


def test_topology_011_csqsysappl_suggested_definition() -> None:
    s = csqsysappl_suggested()
    assert (
        "CSQSYSAPPL",
        20480,
        30720,
        85,
        [SYNCQ, URQ],
    ) == (s.name, s.initsize_kb, s.size_kb, s.fullthreshold, sorted(s.queues))


def test_topology_011_suggestion_is_a_valid_structure_within_factor_2() -> None:
    s = csqsysappl_suggested()
    sd = StructureDef(s.name, size_kb=s.size_kb, initsize_kb=s.initsize_kb, fullthreshold=s.fullthreshold)
    assert (20480, True) == (sd.effective_initsize_kb, sd.size_kb <= 2 * sd.effective_initsize_kb)


# -- TOPOLOGY-012 ------------------------------------------------------------------------


@pytest.mark.parametrize("channels", [0, 1, 50])
def test_topology_012_table3_message_counts(channels: int) -> None:
    assert {SYNCQ: (2 * channels, 500), URQ: (1000, 2048)} == csqsysappl_messages(channels)


def test_topology_012_suggested_csqsysappl_holds_table3_load() -> None:
    """1000 x 2 KB plus 2 x 500 B for 100 shared channels fit below FULLTHRESHOLD(85) at INITSIZE."""
    s = csqsysappl_suggested()
    sd = StructureDef(s.name, size_kb=s.size_kb, initsize_kb=s.initsize_kb, fullthreshold=s.fullthreshold)
    queues = (QueueDef(SYNCQ, cfstruct=s.name), QueueDef(URQ, cfstruct=s.name))
    model = Model(Config(structures=(sd,), queues=queues))
    outcomes = [
        model.step(Put("QM01", queue, size))
        for queue, (count, size) in csqsysappl_messages(100).items()
        for _ in range(count)
    ]
    assert (1200, []) == ([o.ok for o in outcomes].count(True), [sig for o in outcomes for sig in o.signals])


def test_topology_012_negative_channel_count_refused() -> None:
    assert ("shared_channels", -1, "TOPOLOGY-012") == _error(lambda: csqsysappl_messages(-1))


# -- TOPOLOGY-013 ------------------------------------------------------------------------


def test_topology_013_queue_names_a_defined_cfstruct() -> None:
    assert (
        "queues[Q1].cfstruct",
        "APP2",
        "TOPOLOGY-013",
    ) == _error(lambda: Config(queues=(QueueDef("Q1", cfstruct="APP2"),)))


def test_topology_013_cfstruct_without_the_qsg_prefix() -> None:
    """CFSTRUCT(APP1) in QSG QSG1, not QSG1APP1 (seed 001, 'Mapping shared queues to structures')."""
    ok = Config(qsg="QSG1", queues=(QueueDef("MYQUEUE", cfstruct="APP1"),))
    bad = (QueueDef("MYQUEUE", cfstruct="QSG1APP1"),)
    assert (
        "APP1",
        ("queues[MYQUEUE].cfstruct", "QSG1APP1", "TOPOLOGY-013"),
    ) == (ok.queues[0].cfstruct, _error(lambda: Config(qsg="QSG1", queues=bad)))


def test_topology_013_queue_names_unique() -> None:
    queues = (QueueDef("Q1", cfstruct="APP1"), QueueDef("Q1", qmgr="QM01"))
    assert ("queues[Q1].name", "Q1", "TOPOLOGY-013") == _error(lambda: Config(queues=queues))


def test_topology_013_define_queue_on_unknown_cfstruct_refused() -> None:
    model = Model(Config())
    out = model.step(DefineQueue(QueueDef("Q1", cfstruct="APP2")))
    assert ((False, CMD_INVALID, ("TOPOLOGY-013",)), False) == (_invalid(out), "Q1" in model.queues)


def test_topology_013_define_queue_on_a_defined_structure() -> None:
    model = Model(Config())
    model.step(DefineStructure(StructureDef("APP2")))
    out = model.step(DefineQueue(QueueDef("Q1", cfstruct="APP2")))
    assert (True, True) == (out.ok, model.step(Put("QM01", "Q1", 10)).ok)


def test_topology_013_unknown_queue_is_bad_input() -> None:
    model = Model(Config())
    assert ("queue", "NOSUCH", "TOPOLOGY-013") == _error(lambda: model.step(Put("QM01", "NOSUCH", 10)))


# -- TOPOLOGY-014: CFCC level 9 or higher ----------------------------------------------------


@pytest.mark.parametrize(("level", "table"), [(9, "v6"), (13, "v6"), (14, "cfcc14"), (25, "cfcc14")])
def test_topology_014_the_cfcc_level_picks_the_table_1_edition(level: int, table: str) -> None:
    from cfconform.reference_model.sizing import admin_table_for

    assert table == admin_table_for(level)


def test_topology_014_a_cfcc_level_below_9_is_refused() -> None:
    from cfconform.reference_model.sizing import admin_table_for

    assert ("cfcc_level", 8, "TOPOLOGY-014") == _error(lambda: admin_table_for(8))


def test_topology_014_size_refuses_cfcc_level_8_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from cfconform.cli.main import main

    code = main(["size", "--admin", "--qmgrs", "4", "--cfcc-level", "8"])
    err = capsys.readouterr().err
    assert (code, err.count("\n"), "--cfcc-level" in err, "TOPOLOGY-014" in err) == (2, 1, True, True)


def test_topology_014_size_at_cfcc_level_9_uses_the_v6_edition(capsys: pytest.CaptureFixture[str]) -> None:
    from cfconform.cli.main import main

    assert 0 == main(["size", "--admin", "--qmgrs", "4", "--cfcc-level", "9", "--format", "json"])
    import json

    assert ("v6", 4608) == (lambda r: (r["admin_table"], r["initsize_kb"]))(json.loads(capsys.readouterr().out))
