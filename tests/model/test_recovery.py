"""Per-rule examples for BACKUP/RECOVER CFSTRUCT (RECOVERY-001..008; seed 003, ibm-facts 5)."""

from __future__ import annotations

import pytest

from cfconform.reference_model import Config, Model, QueueDef, Readings, StructureDef
from cfconform.reference_model.model import Observed
from cfconform.reference_model.operations import (
    Backup,
    Commit,
    FailStructure,
    Get,
    Put,
    Recover,
    StartQmgr,
    StopQmgr,
)  # fmt: skip
from cfconform.reference_model.outcomes import CMD_NO_BACKUP, CMD_NOT_ACTIVE, CMD_NOT_ALLOWED, CMD_NOT_FAILED, Outcome
from cfconform.reference_model.readings import AMBIGUITIES

PURGE_NONFAILED = AMBIGUITIES["recover_purge_nonfailed"].readings


def _model(readings: Readings | None = None, **structure: object) -> Model:
    fields: dict[str, object] = {"cflevel": 3, "recover": True, **structure}
    structures = (StructureDef("APP1", **fields), StructureDef("APP2"))  # type: ignore[arg-type]
    queues = (QueueDef("Q1", cfstruct="APP1"), QueueDef("Q2", cfstruct="APP1"), QueueDef("OTHER", cfstruct="APP2"))
    return Model(Config(structures=structures, queues=queues, readings=readings or Readings()))


def _drain(model: Model, queue: str = "Q1", qmgr: str = "QM01") -> list[int | None]:
    """Tags of every message retrieved until the queue answers 2033 (or another failure)."""
    tags = []
    while True:
        out = model.step(Get(qmgr, queue))
        if not out.ok:
            return tags
        tags.append(out.tag)


def _result(outcome: object, *rules: str) -> tuple:
    """(ok, reason, the expected deciding ``rules`` the outcome does not name)."""
    missing = [r for r in rules if r not in outcome.rules]  # type: ignore[attr-defined]
    return outcome.ok, outcome.reason, missing  # type: ignore[attr-defined]


# -- RECOVERY-001 -------------------------------------------------------------------------


@pytest.mark.parametrize("cflevel", [3, 4, 5])
def test_recovery_001_backup_of_a_recoverable_structure(cflevel: int) -> None:
    model = _model(cflevel=cflevel)
    assert (True, None, []) == _result(model.step(Backup("QM01", "APP1")), "RECOVERY-001")


@pytest.mark.parametrize(("cflevel", "recover"), [(1, False), (2, False), (3, False), (4, False), (5, False)])
def test_recovery_001_backup_needs_recover_yes_and_cflevel3(cflevel: int, recover: bool) -> None:
    model = _model(cflevel=cflevel, recover=recover)
    assert (False, CMD_NOT_ALLOWED, []) == _result(model.step(Backup("QM01", "APP1")), "RECOVERY-001")


def test_recovery_001_backup_from_a_stopped_queue_manager_refused() -> None:
    model = _model()
    model.step(StopQmgr("QM02"))
    assert (False, CMD_NOT_ACTIVE, []) == _result(model.step(Backup("QM02", "APP1")), "QUEUE-005")


def test_recovery_001_backup_captures_persistent_messages_only() -> None:
    """Backup, then the structure fails with no activity since: recovery gives back the persistent ones."""
    model = _model()
    for tag, persistent in ((1, True), (2, False), (3, True)):
        model.step(Put("QM01", "Q1", 100, persistent=persistent, tag=tag))
    model.step(Backup("QM02", "APP1"))
    model.step(FailStructure("APP1"))
    model.step(Recover("APP1"))
    assert [1, 3] == _drain(model)


# -- RECOVERY-002 -------------------------------------------------------------------------


def test_recovery_002_failed_structure_answers_2373() -> None:
    model = _model()
    model.step(Put("QM01", "Q1", 100, persistent=True))
    model.step(FailStructure("APP1"))
    put = model.step(Put("QM01", "Q1", 100))
    get = model.step(Get("QM02", "Q2"))
    assert [(False, 2373, [])] * 2 == [_result(o, "RECOVERY-002") for o in (put, get)]


def test_recovery_002_backup_of_a_failed_structure_is_not_judged() -> None:
    """No document says what BACKUP of a failed structure does: the implementation's answer stands."""
    model = _model()
    model.step(FailStructure("APP1"))
    observed = Outcome("backup", True)
    out = model.step(Backup("QM01", "APP1"), hint=Observed(observed, {}, {}))
    assert (True, (), True) == (out.ok, out.rules, model.structures["APP1"].backup_taken)


def test_recovery_002_other_structures_unaffected() -> None:
    model = _model()
    model.step(FailStructure("APP1"))
    assert [True, 7] == [model.step(Put("QM01", "OTHER", 10, tag=7)).ok, model.step(Get("QM01", "OTHER")).tag]


def test_recovery_002_structure_status_failed_in_projection() -> None:
    model = _model()
    model.step(FailStructure("APP1"))
    status = {n: s["status"] for n, s in model.project()["structures"].items()}
    assert {"APP1": "FAILED", "APP2": "ACTIVE"} == status


# -- RECOVERY-003 -------------------------------------------------------------------------


def test_recovery_003_recover_restores_committed_persistent_messages_in_order() -> None:
    """Backup, then more activity (replayed from the logs): the state as of the failure."""
    model = _model()
    for tag in (1, 2, 3):
        model.step(Put("QM01", "Q1", 100, persistent=True, tag=tag))
    model.step(Backup("QM01", "APP1"))
    model.step(Get("QM02", "Q1"))  # removes 1 after the backup
    model.step(Put("QM02", "Q1", 100, persistent=True, tag=4))
    model.step(Put("QM03", "Q1", 100, persistent=False, tag=5))
    model.step(Put("QM03", "Q1", 100, persistent=True, tag=6, syncpoint=True))  # never committed
    model.step(Put("QM01", "Q2", 100, persistent=True, tag=7))
    model.step(FailStructure("APP1"))
    out = model.step(Recover("APP1"))
    assert (
        (True, None, []),
        [2, 3, 4],
        [7],
    ) == (_result(out, "RECOVERY-003", "RECOVERY-004"), _drain(model, "Q1"), _drain(model, "Q2"))


def test_recovery_003_message_got_under_syncpoint_is_restored() -> None:
    """A get not committed at the failure did not happen: the message comes back, unlocked."""
    model = _model()
    model.step(Put("QM01", "Q1", 100, persistent=True, tag=1))
    model.step(Backup("QM01", "APP1"))
    model.step(Get("QM02", "Q1", syncpoint=True))
    model.step(FailStructure("APP1"))
    model.step(Recover("APP1"))
    model.step(Commit("QM02"))
    assert (1, [1]) == (model.queues["Q1"].depth, _drain(model))


def test_recovery_003_recovered_usage_matches_the_messages() -> None:
    model = _model()
    model.step(Put("QM01", "Q1", 100, persistent=True))
    before = model.structures["APP1"].pools.as_tuple()
    model.step(Backup("QM01", "APP1"))
    model.step(FailStructure("APP1"))
    out = model.step(Recover("APP1"))
    assert before == out.usage


@pytest.mark.parametrize(("cflevel", "recover"), [(2, False), (3, False), (5, False)])
def test_recovery_003_recover_needs_recover_yes_and_cflevel3(cflevel: int, recover: bool) -> None:
    model = _model(cflevel=cflevel, recover=recover)
    model.step(FailStructure("APP1"))
    assert (False, CMD_NOT_ALLOWED, []) == _result(model.step(Recover("APP1")), "RECOVERY-003")


# -- RECOVERY-004 -------------------------------------------------------------------------


def test_recovery_004_nonpersistent_messages_lost_on_failure() -> None:
    model = _model()
    model.step(Put("QM01", "Q1", 100, persistent=False, tag=1))
    model.step(Put("QM01", "Q1", 100, persistent=True, tag=2))
    model.step(Backup("QM01", "APP1"))
    model.step(FailStructure("APP1"))
    model.step(Recover("APP1"))
    assert [2] == _drain(model)


def test_recovery_004_recover_no_structure_loses_everything() -> None:
    """RECOVER(NO): only nonpersistent messages, none recoverable; the failure empties the queues."""
    model = _model(recover=False)
    model.step(Put("QM01", "Q1", 100, tag=1))
    model.step(FailStructure("APP1"))
    assert (0, 0) == (model.queues["Q1"].depth, model.structures["APP1"].pools.entries_used)


# -- RECOVERY-005 -------------------------------------------------------------------------


def test_recovery_005_purge_leaves_the_structure_empty() -> None:
    model = _model()
    model.step(Put("QM01", "Q1", 100, persistent=True))
    model.step(Backup("QM01", "APP1"))
    model.step(FailStructure("APP1"))
    out = model.step(Recover("APP1", purge=True))
    s = model.project()["structures"]["APP1"]
    assert (
        (True, None, []),
        "ACTIVE",
        0,
        0,
        [],
    ) == (_result(out, "RECOVERY-005"), s["status"], s["entries_used"], s["elements_used"], _drain(model))


def test_recovery_005_purge_needs_no_backup_and_structure_usable_after() -> None:
    model = _model()
    model.step(FailStructure("APP1"))
    model.step(Recover("APP1", purge=True))
    assert [True, 9] == [model.step(Put("QM01", "Q1", 10, tag=9)).ok, model.step(Get("QM01", "Q1")).tag]


# -- RECOVERY-006 -------------------------------------------------------------------------


@pytest.mark.parametrize("reading", PURGE_NONFAILED)
def test_recovery_006_normal_recover_of_a_structure_not_failed_refused(reading: str) -> None:
    model = _model(Readings(recover_purge_nonfailed=reading))
    model.step(Put("QM01", "Q1", 100, persistent=True, tag=1))
    model.step(Backup("QM01", "APP1"))
    assert (
        (False, CMD_NOT_FAILED, []),
        [1],
    ) == (_result(model.step(Recover("APP1")), "RECOVERY-006"), _drain(model))


@pytest.mark.parametrize("reading", PURGE_NONFAILED)
def test_recovery_006_purge_of_a_structure_not_failed(reading: str) -> None:
    """Current text rejects; V5.3 text accepts and empties the structure (ibm-facts 5.2)."""
    model = _model(Readings(recover_purge_nonfailed=reading))
    model.step(Put("QM01", "Q1", 100, persistent=True, tag=1))
    out = model.step(Recover("APP1", purge=True))
    expected = {
        "rejected": ((False, CMD_NOT_FAILED, []), [1]),
        "accepted": ((True, None, []), []),
    }[reading]
    rules = {"rejected": ("RECOVERY-006",), "accepted": ("RECOVERY-005", "RECOVERY-006")}[reading]
    assert expected == (_result(out, *rules), _drain(model))


# -- RECOVERY-007 -------------------------------------------------------------------------


def test_recovery_007_normal_recover_needs_a_backup() -> None:
    model = _model()
    model.step(Put("QM01", "Q1", 100, persistent=True))
    model.step(FailStructure("APP1"))
    out = model.step(Recover("APP1"))
    still = model.step(Put("QM01", "Q1", 10))
    assert (
        (False, CMD_NO_BACKUP, []),
        (False, 2373, []),
    ) == (_result(out, "RECOVERY-007"), _result(still, "RECOVERY-002"))


def test_recovery_007_backup_on_another_queue_manager_counts() -> None:
    """The backup record is in Db2, shared by the group: any queue manager's backup will do."""
    model = _model()
    model.step(Put("QM01", "Q1", 100, persistent=True, tag=1))
    model.step(Backup("QM03", "APP1"))
    model.step(FailStructure("APP1"))
    assert (True, [1]) == (model.step(Recover("APP1")).ok, _drain(model, qmgr="QM02"))


# -- RECOVERY-008 -------------------------------------------------------------------------


@pytest.mark.parametrize("persistent", [False, True])
def test_recovery_008_messages_survive_queue_manager_stop_and_start(persistent: bool) -> None:
    model = _model()
    for tag in (1, 2):
        model.step(Put("QM01", "Q1", 100, persistent=persistent, tag=tag))
    model.step(StopQmgr("QM01"))
    first = model.step(Get("QM02", "Q1")).tag
    model.step(StartQmgr("QM01"))
    assert (1, [2]) == (first, _drain(model, qmgr="QM01"))


def test_recovery_008_messages_survive_all_queue_managers_stopping() -> None:
    model = _model()
    model.step(Put("QM01", "Q1", 100, tag=1))
    for name in ("QM01", "QM02", "QM03"):
        model.step(StopQmgr(name))
    for name in ("QM01", "QM02", "QM03"):
        model.step(StartQmgr(name))
    assert [1] == _drain(model, qmgr="QM03")


def _purged_after_backup(backup_again: bool = False) -> Model:
    """BACKUP, failure, RECOVER TYPE(PURGE), (BACKUP again,) then a second failure."""
    model = _model()
    model.step(Backup("QM01", "APP1"))
    model.step(FailStructure("APP1"))
    assert model.step(Recover("APP1", purge=True)).ok
    if backup_again:
        model.step(Backup("QM01", "APP1"))
    model.step(FailStructure("APP1"))
    return model


@pytest.mark.parametrize(("observed", "expected"), [
    (Outcome("recover", False, CMD_NO_BACKUP), (False, CMD_NO_BACKUP)),
    (Outcome("recover", True), (True, None)),
])  # fmt: skip
def test_recovery_007_a_backup_older_than_a_purge_counts_as_the_implementation_says(observed, expected) -> None:
    """No document says whether a backup taken before RECOVER TYPE(PURGE) still counts for a later
    TYPE(NORMAL): the implementation's answer stands, and is kept for the next RECOVER."""
    model = _purged_after_backup()
    out = model.step(Recover("APP1"), hint=Observed(observed, {}, {}))
    assert expected == (out.ok, out.reason)
    assert model.structures["APP1"].backup_taken is observed.ok


def test_recovery_007_a_backup_after_the_purge_counts() -> None:
    model = _purged_after_backup(backup_again=True)
    out = model.step(Recover("APP1"), hint=Observed(Outcome("recover", False, CMD_NO_BACKUP), {}, {}))
    assert (True, None) == (out.ok, out.reason)  # NO_BACKUP here is a departure


def test_recovery_007_on_its_own_figures_the_model_counts_a_backup_older_than_a_purge() -> None:
    assert _purged_after_backup().step(Recover("APP1")).ok
