"""Bad input raises the one documented error type, ``ConfigurationError``.

Every error names the field, the value, the allowed range and the deciding rule, both as
attributes and in its message (DEVELOPERS.md, principle 7).  Cases are grouped by the rule
ID they expect (the test name carries it); each case also asserts that rule ID.  Within a
group, "bool where int expected" (``True`` is an ``int`` in Python) is refused like any
other out-of-range value.  Unknown keys in records and unknown readings are decided by no
rule (``UNKNOWN_FIELD``) or by the ambiguity's first rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cfconform.reference_model import Config, ConfigurationError, Model, QueueDef, StructureDef
from cfconform.reference_model.codec import config_from_record, op_from_record
from cfconform.reference_model.errors import UNKNOWN_FIELD
from cfconform.reference_model.operations import (
    AdvanceClock,
    AlterQueue,
    Backup,
    Commit,
    FailStructure,
    Get,
    Put,
    Recover,
    SetPerfmev,
    SetxcfAlter,
    StopQmgr,
)
from cfconform.reference_model.readings import AMBIGUITIES, readings_from_dict
from cfconform.reference_model.units import SIZE_100MB

S = "structures[APP1]"
Q = "queues[Q1]"
Thunk = Callable[[], Any]


def _model() -> Model:
    queues = (QueueDef("Q1", cfstruct="APP1"), QueueDef("L1", qmgr="QM01"))
    return Model(Config(queues=queues))


def _step(op: Any) -> Thunk:
    return lambda: _model().step(op)


def _sd(**kw: Any) -> Thunk:
    return lambda: StructureDef("APP1", **kw)


def _qd(**kw: Any) -> Thunk:
    return lambda: QueueDef("Q1", **{"cfstruct": "APP1", **kw})


def _check(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    """The error and everything it must name."""
    with pytest.raises(ConfigurationError) as info:
        thunk()
    err = info.value
    assert (field, value, rule_id) == (err.field, err.value, err.rule_id)
    assert isinstance(err.allowed, str) and err.allowed
    text = str(err)
    cited = (rule_id,) if rule_id != UNKNOWN_FIELD else ()  # a usage error names no rule in its message
    assert [] == [part for part in (field, repr(value), err.allowed, *cited) if part not in text]
    assert rule_id == err.to_record()["rule_id"]


def _cases(*rows: tuple[str, Thunk, str, Any, str]) -> Any:
    return pytest.mark.parametrize(
        ("thunk", "field", "value", "rule_id"), [pytest.param(*row[1:], id=row[0]) for row in rows]
    )


# -- thresholds outside 0..100 and OFFLDnSZ outside 0K..64K ----------------------------------------


@_cases(
    *[(f"offld{n}th={v}", _sd(**{f"offld{n}th": v}), f"{S}.offld{n}th", v, "OFFLOAD-011")
      for n in (1, 2, 3) for v in (-1, 101, True)],
    *[(f"offld{n}sz={v}", _sd(**{f"offld{n}sz": v}), f"{S}.offld{n}sz", v, "OFFLOAD-011")
      for n in (1, 2, 3) for v in (-1, 64 * 1024 + 1, False)],
    ("offld1sz='32K'", _sd(offld1sz="32K"), f"{S}.offld1sz", "32K", "OFFLOAD-011"),
)  # fmt: skip
def test_offload_011_bad_offload_rule(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


@_cases(
    *[(f"{f}={v}", _qd(**{f: v}), f"{Q}.{f}", v, "QDEPTH-014")
      for f in ("qdepthhi", "qdepthlo") for v in (-1, 101, True)],
    ("maxdepth=-1", _qd(maxdepth=-1), f"{Q}.maxdepth", -1, "QDEPTH-018"),
    ("maxdepth=1e9", _qd(maxdepth=10**9), f"{Q}.maxdepth", 10**9, "QDEPTH-018"),
    ("maxdepth=True", _qd(maxdepth=True), f"{Q}.maxdepth", True, "QDEPTH-018"),
    ("qdphiev=1", _qd(qdphiev=1), f"{Q}.qdphiev", 1, "QDEPTH-014"),
    ("qdpmaxev='ENABLED'", _qd(qdpmaxev="ENABLED"), f"{Q}.qdpmaxev", "ENABLED", "QDEPTH-014"),
)  # fmt: skip
def test_qdepth_014_bad_depth_attributes(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


@_cases(
    ("-1", _sd(fullthreshold=-1), f"{S}.fullthreshold", -1, "CAPACITY-009"),
    ("101", _sd(fullthreshold=101), f"{S}.fullthreshold", 101, "CAPACITY-009"),
    ("True", _sd(fullthreshold=True), f"{S}.fullthreshold", True, "CAPACITY-009"),
)
def test_capacity_009_bad_fullthreshold(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


@_cases(
    ("-1", _sd(ovflwmax=-1), f"{S}.ovflwmax", -1, "CQS-002"),
    ("101", _sd(ovflwmax=101), f"{S}.ovflwmax", 101, "CQS-002"),
    ("True", _sd(ovflwmax=True), f"{S}.ovflwmax", True, "CQS-002"),
)
def test_cqs_002_bad_ovflwmax(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


# -- CFLEVEL, OFFLOAD and RECOVER ------------------------------------------------------------------


@_cases(
    ("0", _sd(cflevel=0), f"{S}.cflevel", 0, "CFLEVEL-001"),
    ("6", _sd(cflevel=6), f"{S}.cflevel", 6, "CFLEVEL-001"),
    ("True", _sd(cflevel=True), f"{S}.cflevel", True, "CFLEVEL-001"),
    ("'5'", _sd(cflevel="5"), f"{S}.cflevel", "5", "CFLEVEL-001"),
)
def test_cflevel_001_bad_cflevel(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


@_cases(
    *[(f"cflevel={c}-{o}", _sd(cflevel=c, offload=o), f"{S}.offload", o, "OFFLOAD-007")
      for c in (1, 3, 4) for o in ("SMDS", "DB2")],
)  # fmt: skip
def test_offload_007_offload_below_cflevel5(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


@_cases(
    ("DISK", _sd(cflevel=5, offload="DISK"), f"{S}.offload", "DISK", "OFFLOAD-006"),
    ("smds", _sd(cflevel=5, offload="smds"), f"{S}.offload", "smds", "OFFLOAD-006"),
)
def test_offload_006_bad_offload_target(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


@_cases(
    ("recover='YES'", _sd(recover="YES"), f"{S}.recover", "YES", "CFLEVEL-007"),
    ("recover=1", _sd(recover=1), f"{S}.recover", 1, "CFLEVEL-007"),
)
def test_cflevel_007_bad_recover(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


# -- names -----------------------------------------------------------------------------------------


@_cases(
    ("lowercase", lambda: StructureDef("app1"), "structures[app1].name", "app1", "TOPOLOGY-009"),
    ("13-chars", lambda: StructureDef("ABCDEFGHIJKLM"), "structures[ABCDEFGHIJKLM].name", "ABCDEFGHIJKLM",
     "TOPOLOGY-009"),
    ("digit-first", lambda: StructureDef("1APP"), "structures[1APP].name", "1APP", "TOPOLOGY-009"),
    ("empty", lambda: StructureDef(""), "structures[].name", "", "TOPOLOGY-009"),
    ("not-a-string", lambda: StructureDef(7), "structures[7].name", 7, "TOPOLOGY-009"),  # type: ignore[arg-type]
    ("queue-cfstruct", _qd(cfstruct="app1"), f"{Q}.cfstruct", "app1", "TOPOLOGY-009"),
    ("duplicate", lambda: Config(structures=(StructureDef("APP1"), StructureDef("APP1"))), S, "APP1",
     "TOPOLOGY-009"),
)  # fmt: skip
def test_topology_009_bad_structure_names(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


@_cases(
    ("structure", lambda: StructureDef("CSQ_ADMIN"), "structures[CSQ_ADMIN].name", "CSQ_ADMIN", "TOPOLOGY-001"),
    ("queue", _qd(cfstruct="CSQ_ADMIN"), f"{Q}.cfstruct", "CSQ_ADMIN", "TOPOLOGY-001"),
)
def test_topology_001_csq_admin_refused(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


@_cases(
    ("5-chars", lambda: Config(qsg="QSG12"), "qsg", "QSG12", "TOPOLOGY-015"),
    ("a queue manager's", lambda: Config(qsg="QM01"), "qsg", "QM01", "TOPOLOGY-015"),
    ("lowercase", lambda: Config(qsg="qsg1"), "qsg", "qsg1", "TOPOLOGY-010"),
    ("digit-first", lambda: Config(qsg="1QSG"), "qsg", "1QSG", "TOPOLOGY-010"),
    ("empty", lambda: Config(qsg=""), "qsg", "", "TOPOLOGY-010"),
    ("underscore", lambda: Config(qsg="Q_1"), "qsg", "Q_1", "TOPOLOGY-010"),
    ("not-a-string", lambda: Config(qsg=1234), "qsg", 1234, "TOPOLOGY-010"),  # type: ignore[arg-type]
)
def test_topology_010_bad_qsg_and_qmgr_names(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


# -- limits ----------------------------------------------------------------------------------------


@_cases(
    ("513th-queue", lambda: Config(queues=tuple(QueueDef(f"Q{i}", cfstruct="APP1") for i in range(513))),
     "queues[Q512].cfstruct", "APP1", "TOPOLOGY-005"),
)  # fmt: skip
def test_topology_005_513th_queue(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


def test_topology_003_65th_structure() -> None:
    """64 application structures + CSQ_ADMIN = a 65th structure."""
    _check(lambda: Config(structures=tuple(StructureDef(f"S{i}") for i in range(64))), "structures", 64, "TOPOLOGY-003")


def test_topology_004_65th_structure_with_csqsysappl() -> None:
    """63 structures for message data + CSQSYSAPPL + CSQ_ADMIN = a 65th structure."""
    structures = (*(StructureDef(f"S{i}") for i in range(63)), StructureDef("CSQSYSAPPL"))
    _check(lambda: Config(structures=structures), "structures", 64, "TOPOLOGY-004")


def test_topology_002_no_application_structure() -> None:
    _check(lambda: Config(structures=()), "structures", 0, "TOPOLOGY-002")


@_cases(
    ("0-qmgrs", lambda: Config(qmgrs=()), "qmgrs", 0, "TOPOLOGY-006"),
    ("duplicate", lambda: Config(qmgrs=("QM01", "QM01")), "qmgrs", "QM01", "TOPOLOGY-006"),
    ("put-qmgr", _step(Put("QM99", "Q1", 10)), "qmgr", "QM99", "TOPOLOGY-006"),
    ("get-qmgr", _step(Get("QM99", "Q1")), "qmgr", "QM99", "TOPOLOGY-006"),
    ("commit-qmgr", _step(Commit("QM99")), "qmgr", "QM99", "TOPOLOGY-006"),
    ("stop-qmgr", _step(StopQmgr("QM99")), "qmgr", "QM99", "TOPOLOGY-006"),
    ("perfmev-qmgr", _step(SetPerfmev("QM99", True)), "qmgr", "QM99", "TOPOLOGY-006"),
)
def test_topology_006_bad_queue_managers(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


@_cases(
    ("ovflwmax", _sd(resource=True, ovflwmax=70), f"{S}.ovflwmax", 70, "CQS-016"),
    ("ovflwstr", _sd(resource=True, ovflwstr="OVF1"), f"{S}.ovflwstr", "OVF1", "CQS-016"),
    ("resource=1", _sd(resource=1), f"{S}.resource", 1, "CQS-016"),
    ("mq-profile", lambda: Config(structures=(StructureDef("APP1", ovflwstr="OVF1"),)), f"{S}.ovflwstr", "OVF1",
     "CQS-016"),
)  # fmt: skip
def test_cqs_016_overflow_on_a_resource_structure(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


# -- sizes -----------------------------------------------------------------------------------------


@_cases(
    ("size_kb=-1", _sd(size_kb=-1), f"{S}.size_kb", -1, "CAPACITY-008"),
    ("size_kb=0", _sd(size_kb=0), f"{S}.size_kb", 0, "CAPACITY-008"),
    ("size_kb=True", _sd(size_kb=True), f"{S}.size_kb", True, "CAPACITY-008"),
    ("initsize_kb=-1", _sd(initsize_kb=-1), f"{S}.initsize_kb", -1, "CAPACITY-008"),
    ("initsize>size", _sd(size_kb=8192, initsize_kb=8193), f"{S}.initsize_kb", 8193, "CAPACITY-008"),
    ("ovflw_size_kb=-1", _sd(ovflw_size_kb=-1), f"{S}.ovflw_size_kb", -1, "CAPACITY-008"),
)
def test_capacity_008_bad_structure_sizes(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


@_cases(
    ("0", _sd(ratio=0), f"{S}.ratio", 0, "SIZING-005"),
    ("-1", _sd(ratio=-1), f"{S}.ratio", -1, "SIZING-005"),
    ("True", _sd(ratio=True), f"{S}.ratio", True, "SIZING-005"),
)
def test_sizing_005_bad_entry_element_ratio(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


@_cases(
    ("maxmsgl=-1", _qd(maxmsgl=-1), f"{Q}.maxmsgl", -1, "CFLEVEL-010"),
    ("maxmsgl>100MB", _qd(maxmsgl=SIZE_100MB + 1), f"{Q}.maxmsgl", SIZE_100MB + 1, "CFLEVEL-010"),
    ("maxmsgl=True", _qd(maxmsgl=True), f"{Q}.maxmsgl", True, "CFLEVEL-010"),
    ("put-length=-1", _step(Put("QM01", "Q1", -1)), "put.length", -1, "CFLEVEL-005"),
    ("put-length=True", _step(Put("QM01", "Q1", True)), "put.length", True, "CFLEVEL-005"),
    ("put-length=1.5", _step(Put("QM01", "Q1", 1.5)), "put.length", 1.5, "CFLEVEL-005"),  # type: ignore[arg-type]
)
def test_cflevel_005_bad_message_lengths(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


@_cases(
    ("-1", lambda: Config(admin_size_kb=-1), "admin_size_kb", -1, "TOPOLOGY-008"),
    ("True", lambda: Config(admin_size_kb=True), "admin_size_kb", True, "TOPOLOGY-008"),
    ("unknown-table", lambda: Config(admin_table="cfcc99"), "admin_table", "cfcc99", "TOPOLOGY-008"),
)
def test_topology_008_bad_admin_structure(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


@_cases(
    ("-1", lambda: Config(lgmsgsz=-1), "lgmsgsz", -1, "CQS-021"),
    ("0", lambda: Config(lgmsgsz=0), "lgmsgsz", 0, "CQS-021"),
    ("True", lambda: Config(lgmsgsz=True), "lgmsgsz", True, "CQS-021"),
)
def test_cqs_021_bad_lgmsgsz(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


# -- unknown and duplicate names in configurations and operations ---------------------------------


@_cases(
    ("duplicate-queue", lambda: Config(queues=(QueueDef("Q1", cfstruct="APP1"), QueueDef("Q1", qmgr="QM01"))),
     f"{Q}.name", "Q1", "TOPOLOGY-013"),
    ("config-queue-cfstruct", lambda: Config(queues=(QueueDef("Q1", cfstruct="APP2"),)), f"{Q}.cfstruct", "APP2",
     "TOPOLOGY-013"),
    ("put-queue", _step(Put("QM01", "NOSUCH", 10)), "queue", "NOSUCH", "TOPOLOGY-013"),
    ("get-queue", _step(Get("QM01", "NOSUCH")), "queue", "NOSUCH", "TOPOLOGY-013"),
    ("alter-queue", _step(AlterQueue("NOSUCH", {"maxdepth": 1})), "queue", "NOSUCH", "TOPOLOGY-013"),
    ("backup-cfstruct", _step(Backup("QM01", "NOSUCH")), "cfstruct", "NOSUCH", "TOPOLOGY-013"),
    ("fail-cfstruct", _step(FailStructure("NOSUCH")), "cfstruct", "NOSUCH", "TOPOLOGY-013"),
    ("recover-cfstruct", _step(Recover("NOSUCH")), "cfstruct", "NOSUCH", "TOPOLOGY-013"),
    ("setxcf-cfstruct", _step(SetxcfAlter("NOSUCH", 9000)), "cfstruct", "NOSUCH", "TOPOLOGY-013"),
)  # fmt: skip
def test_topology_013_unknown_queues_and_structures(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


@_cases(
    ("put-by-other-qmgr", _step(Put("QM02", "L1", 10)), "qmgr", "QM02", "QDEPTH-008"),
    ("get-by-other-qmgr", _step(Get("QM03", "L1")), "qmgr", "QM03", "QDEPTH-008"),
    ("unknown-owner", lambda: Config(queues=(QueueDef("L1", qmgr="QM99"),)), "queues[L1].qmgr", "QM99",
     "QDEPTH-008"),
    ("no-owner", lambda: Config(queues=(QueueDef("L1"),)), "queues[L1].qmgr", None, "QDEPTH-008"),
)  # fmt: skip
def test_qdepth_008_bad_owner_of_a_nonshared_queue(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


def test_qdepth_009_perfmev_disabled_names_an_unknown_qmgr() -> None:
    _check(lambda: Config(perfmev_disabled=("QM99",)), "perfmev_disabled", "QM99", "QDEPTH-009")


# -- the virtual clock -----------------------------------------------------------------------------


@_cases(
    ("-1", _step(AdvanceClock(-1)), "advance_clock.seconds", -1, "CQS-013"),
    ("float", _step(AdvanceClock(1.5)), "advance_clock.seconds", 1.5, "CQS-013"),  # type: ignore[arg-type]
    ("string", _step(AdvanceClock("60")), "advance_clock.seconds", "60", "CQS-013"),  # type: ignore[arg-type]
)
def test_cqs_013_bad_advance_clock(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


def test_cqs_013_bool_advance_clock_refused() -> None:
    _check(_step(AdvanceClock(True)), "advance_clock.seconds", True, "CQS-013")


# -- readings (no rule decides an unknown key; a bad value names the ambiguity's first rule) ------


@pytest.mark.parametrize("ambiguity", sorted(AMBIGUITIES))
def test_unknown_reading_value_names_the_ambiguity_rule(ambiguity: str) -> None:
    _check(
        lambda: readings_from_dict({ambiguity: "bogus"}),
        f"readings.{ambiguity}",
        "bogus",
        AMBIGUITIES[ambiguity].rules[0],
    )


@_cases(
    ("unknown-key", lambda: readings_from_dict({"offload_comparison": "strict"}), "readings.offload_comparison",
     "strict", UNKNOWN_FIELD),
    ("in-config-record", lambda: config_from_record({"readings": {"qdepth_percent": "round"}}),
     "readings.qdepth_percent", "round", "QDEPTH-013"),
    ("in-config-record-unknown-key", lambda: config_from_record({"readings": {"qdepth": "real"}}),
     "readings.qdepth", "real", UNKNOWN_FIELD),
)  # fmt: skip
def test_unknown_readings_in_records(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


# -- unknown keys in records -----------------------------------------------------------------------


@_cases(
    ("config", lambda: config_from_record({"qsg": "QSG1", "bogus": 1}), "config.bogus", 1, UNKNOWN_FIELD),
    ("structure", lambda: config_from_record({"structures": [{"name": "APP1", "offld1": 70}]}),
     "structures[APP1].offld1", 70, UNKNOWN_FIELD),
    ("queue", lambda: config_from_record({"queues": [{"name": "Q1", "cfstruct": "APP1", "depth": 5}]}),
     "queues[Q1].depth", 5, UNKNOWN_FIELD),
    ("accounting", lambda: config_from_record({"accounting": {"element": 256}}), "accounting.element", 256,
     UNKNOWN_FIELD),
    ("op-field", lambda: op_from_record({"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 1, "size": 2}),
     "put.size", 2, UNKNOWN_FIELD),
    ("op-kind", lambda: op_from_record({"op": "mqput"}), "op", "mqput", UNKNOWN_FIELD),
)  # fmt: skip
def test_unknown_keys_in_records(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


def test_missing_op_field_in_a_record_is_named() -> None:
    with pytest.raises(ConfigurationError) as info:
        op_from_record({"op": "put", "qmgr": "QM01"})
    err = info.value
    assert ("put", UNKNOWN_FIELD, True, True) == (
        err.field,
        err.rule_id,
        "length" in err.allowed,
        "queue" in err.allowed,
    )


@_cases(
    ("config-bad-value", lambda: config_from_record({"structures": [{"name": "APP1", "offld1th": 101}]}),
     f"{S}.offld1th", 101, "OFFLOAD-011"),
)  # fmt: skip
def test_offload_011_bad_values_in_records_name_their_rule(thunk: Thunk, field: str, value: Any, rule_id: str) -> None:
    _check(thunk, field, value, rule_id)


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        pytest.param({"op": "define_structure", "structure": {"name": "A", "x": 1}},
                     {"field": "structures[A].x", "value": 1, "rule_id": UNKNOWN_FIELD}, id="structure-unknown-key"),
        pytest.param({"op": "define_queue", "queue": {"name": "Q", "x": 1}},
                     {"field": "queues[Q].x", "value": 1, "rule_id": UNKNOWN_FIELD}, id="queue-unknown-key"),
        pytest.param({"op": "define_structure", "structure": {"name": "A", "cflevel": 9}},
                     {"field": "structures[A].cflevel", "value": 9, "rule_id": "CFLEVEL-001"}, id="structure-cflevel"),
        pytest.param({"op": "define_structure", "structure": {"name": "A", "cflevel": 4, "offload": "SMDS"}},
                     {"field": "structures[A].offload", "value": "SMDS", "rule_id": "OFFLOAD-007"},
                     id="structure-offload"),
        pytest.param({"op": "define_queue", "queue": {"name": "Q", "cfstruct": "APP1", "qdepthhi": 101}},
                     {"field": "queues[Q].qdepthhi", "value": 101, "rule_id": "QDEPTH-014"}, id="queue-qdepthhi"),
    ],
)  # fmt: skip
def test_cflevel_001_invalid_definition_in_an_op_record_is_an_invalid_outcome(
    record: dict[str, Any], expected: dict[str, Any]
) -> None:
    """A DEFINE with bad keywords is a documented rejection: an INVALID outcome naming the same four things."""
    out = _model().step(op_from_record(record))
    value = dict(out.value)
    allowed = value.pop("allowed")
    assert (False, "INVALID", (expected["rule_id"],), expected, True) == (
        out.ok,
        out.reason,
        out.rules,
        value,
        isinstance(allowed, str) and bool(allowed),
    )
