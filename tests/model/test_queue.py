"""Per-rule examples for the queue semantics the MQ rules rely on (QUEUE-001..005)."""

from __future__ import annotations

import pytest

from cfconform.reference_model import Config, Model, QueueDef
from cfconform.reference_model.operations import Backout, Commit, Get, Put, StartQmgr, StopQmgr
from cfconform.reference_model.outcomes import CMD_NOT_ACTIVE

QUEUES = {"shared": QueueDef("Q1", cfstruct="APP1"), "nonshared": QueueDef("Q1", qmgr="QM01")}


def _model(kind: str = "shared") -> Model:
    return Model(Config(queues=(QUEUES[kind],)))


def _put(model: Model, tag: int, qmgr: str = "QM01", **kw: object) -> bool:
    return model.step(Put(qmgr, "Q1", 100, tag=tag, **kw)).ok  # type: ignore[arg-type]


def _get(model: Model, qmgr: str = "QM01", **kw: object) -> tuple[bool, int | str | None, int | None]:
    out = model.step(Get(qmgr, "Q1", **kw))  # type: ignore[arg-type]
    return out.ok, out.reason, out.tag


def _depth(model: Model) -> int:
    return model.project()["queues"]["Q1"]["depth"]


# -- QUEUE-001 ----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(QUEUES))
def test_queue_001_gets_in_put_order_then_2033(kind: str) -> None:
    model = _model(kind)
    for tag in (5, 3, 9, 1):
        _put(model, tag)
    assert [
        (True, None, 5),
        (True, None, 3),
        (True, None, 9),
        (True, None, 1),
        (False, 2033, None),
    ] == [_get(model) for _ in range(5)]


def test_queue_001_fifo_across_queue_managers() -> None:
    model = _model()
    for tag, qmgr in ((1, "QM01"), (2, "QM02"), (3, "QM03"), (4, "QM01")):
        _put(model, tag, qmgr)
    assert [1, 2, 3, 4] == [_get(model, q)[2] for q in ("QM03", "QM02", "QM01", "QM02")]


def test_queue_001_empty_queue_answers_2033() -> None:
    model = _model()
    out = model.step(Get("QM01", "Q1"))
    assert (False, 2033, True) == (out.ok, out.reason, "QUEUE-001" in out.rules)


# -- QUEUE-002 ----------------------------------------------------------------------------


def test_queue_002_put_under_syncpoint_invisible_until_commit() -> None:
    model = _model()
    _put(model, 1, syncpoint=True)
    before = _get(model, "QM02")
    model.step(Commit("QM01"))
    assert ((False, 2033, None), (True, None, 1)) == (before, _get(model, "QM02"))


def test_queue_002_invisible_to_its_own_queue_manager_too() -> None:
    model = _model()
    _put(model, 1, syncpoint=True)
    assert (False, 2033, None) == _get(model, "QM01")


def test_queue_002_backout_discards_uncommitted_puts() -> None:
    model = _model()
    _put(model, 1)
    _put(model, 2, syncpoint=True)
    out = model.step(Backout("QM01"))
    assert (
        True,
        1,
        [(True, None, 1), (False, 2033, None)],
    ) == (out.ok, _depth(model), [_get(model) for _ in range(2)])


def test_queue_002_committed_message_behind_uncommitted_one() -> None:
    """An uncommitted message earlier in put order does not hide a committed one after it."""
    model = _model()
    _put(model, 1, syncpoint=True)
    _put(model, 2, "QM02")
    assert (True, None, 2) == _get(model, "QM03")


def test_queue_002_backout_frees_storage() -> None:
    model = _model()
    _put(model, 1, syncpoint=True)
    model.step(Backout("QM01"))
    assert (0, 0) == model.structures["APP1"].pools.as_tuple()[::2]


# -- QUEUE-003 ----------------------------------------------------------------------------


def test_queue_003_locked_message_skipped_by_other_gets() -> None:
    model = _model()
    for tag in (1, 2):
        _put(model, tag)
    assert [
        (True, None, 1),
        (True, None, 2),
        (False, 2033, None),
    ] == [_get(model, "QM01", syncpoint=True), _get(model, "QM02"), _get(model, "QM03")]


def test_queue_003_backout_makes_the_message_available_again_in_place() -> None:
    model = _model()
    for tag in (1, 2, 3):
        _put(model, tag)
    _get(model, "QM01", syncpoint=True)
    _get(model, "QM01", syncpoint=True)
    model.step(Backout("QM01"))
    assert [1, 2, 3] == [_get(model, "QM02")[2] for _ in range(3)]


def test_queue_003_commit_removes_the_message() -> None:
    model = _model()
    for tag in (1, 2):
        _put(model, tag)
    _get(model, "QM01", syncpoint=True)
    model.step(Commit("QM01"))
    assert (
        [(True, None, 2), (False, 2033, None)],
        0,
    ) == ([_get(model, "QM02") for _ in range(2)], model.structures["APP1"].pools.entries_used)


def test_queue_003_backout_affects_only_its_own_unit_of_work() -> None:
    model = _model()
    for tag in (1, 2):
        _put(model, tag)
    _get(model, "QM01", syncpoint=True)
    _get(model, "QM02", syncpoint=True)
    model.step(Backout("QM01"))
    model.step(Commit("QM02"))
    assert [(True, None, 1), (False, 2033, None)] == [_get(model, "QM03") for _ in range(2)]


# -- QUEUE-004 ----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(QUEUES))
def test_queue_004_depth_counts_uncommitted_puts_not_locked_gets(kind: str) -> None:
    model = _model(kind)
    trace = []
    _put(model, 1)
    trace.append(_depth(model))  # 1
    _put(model, 2, syncpoint=True)
    trace.append(_depth(model))  # 2: the uncommitted put counts
    _get(model, syncpoint=True)
    trace.append(_depth(model))  # 1: the locked message does not
    model.step(Backout("QM01"))
    trace.append(_depth(model))  # 1: put discarded, get restored
    _get(model)
    trace.append(_depth(model))  # 0
    assert [1, 2, 1, 1, 0] == trace


def test_queue_004_failed_put_does_not_change_depth() -> None:
    model = Model(Config(queues=(QueueDef("Q1", cfstruct="APP1", maxdepth=1),)))
    _put(model, 1)
    _put(model, 2)
    assert 1 == _depth(model)


# -- QUEUE-005 ----------------------------------------------------------------------------


def test_queue_005_stop_backs_out_the_unit_of_work() -> None:
    model = _model()
    for tag in (1, 2):
        _put(model, tag)
    _get(model, "QM01", syncpoint=True)
    _put(model, 3, "QM01", syncpoint=True)
    out = model.step(StopQmgr("QM01"))
    assert (
        True,
        True,
        2,
        [1, 2, None],
    ) == (out.ok, "QUEUE-005" in out.rules, _depth(model), [_get(model, "QM02")[2] for _ in range(3)])


@pytest.mark.parametrize("kind", sorted(QUEUES))
def test_queue_005_stopped_queue_manager_cannot_put_or_get(kind: str) -> None:
    model = _model(kind)
    _put(model, 1)
    model.step(StopQmgr("QM01"))
    put = model.step(Put("QM01", "Q1", 10))
    get = model.step(Get("QM01", "Q1"))
    assert [(False, CMD_NOT_ACTIVE, True)] * 2 == [(o.ok, o.reason, "QUEUE-005" in o.rules) for o in (put, get)]


def test_queue_005_stopped_queue_manager_cannot_commit_or_back_out() -> None:
    model = _model()
    model.step(StopQmgr("QM01"))
    outs = [model.step(Commit("QM01")), model.step(Backout("QM01"))]
    assert [(False, CMD_NOT_ACTIVE)] * 2 == [(o.ok, o.reason) for o in outs]


def test_queue_005_restarted_queue_manager_works_again() -> None:
    model = _model()
    model.step(StopQmgr("QM01"))
    model.step(StartQmgr("QM01"))
    assert (True, (True, None, 1)) == (_put(model, 1), _get(model))


def test_queue_005_commit_after_restart_does_not_resurrect_backed_out_work() -> None:
    model = _model()
    _put(model, 1, syncpoint=True)
    model.step(StopQmgr("QM01"))
    model.step(StartQmgr("QM01"))
    model.step(Commit("QM01"))
    assert (0, (False, 2033, None)) == (_depth(model), _get(model, "QM02"))
