"""Mutants of the queue semantics the rules rely on (QUEUE-001..005), profiles ``mq`` and ``cqs``: one row each.

Reproducers tag their messages 1, 2, ... so that gets show the order, and use Inspect where only the reported depth
is wrong.
"""

from __future__ import annotations

from typing import Any

from cfconform.reference_model import mq
from cfconform.reference_model.model import Model
from cfconform.reference_model.operations import Backout, Commit, Get, Inspect, Put, StopQmgr
from cfconform.reference_model.outcomes import MQRC_NO_MSG_AVAILABLE, Outcome

from .cqs_family import cfg as cqs_cfg
from .kit import around, during, evolve, family, post, rebind, rebound
from .mq_common import INSPECT, full_at, get, mq_config, one, put, qd, sd


def _reverse(model: Model, op: Get, *_: Any) -> None:
    model.queues[op.queue].msgs.reverse()


def _unhide(model: Model, op: Get) -> list[Any]:
    hidden = [m for m in model.queues[op.queue].msgs if m.uncommitted]
    for m in hidden:
        m.uncommitted = False
    return hidden


def _rehide(model: Model, op: Any, hidden: list[Any]) -> None:
    for m in hidden:
        if m is not None:
            m.uncommitted = True


def _uow(model: Model, op: Any, action: str) -> list[Any]:
    return [(name, model.live.get(seq)) for a, name, seq in model.qmgrs[op.qmgr].uow if a == action]


def _to_end(model: Model, op: Backout, got: list[Any]) -> None:
    for name, m in got:
        msgs = model.queues[name].msgs
        if m is not None and m in msgs:
            msgs.remove(m)
            msgs.append(m)


def _unlock(model: Model, op: Get, out: Outcome) -> Outcome:
    if op.syncpoint and out.ok:
        for m in model.queues[op.queue].msgs:
            m.locked = False
    return out


def _depth_view(adjust: Any) -> Any:
    def fn(model: Model, op: Inspect, out: Outcome) -> Outcome:
        queues = {n: {**f, "depth": f["depth"] + adjust(model.queues[n])} for n, f in out.value["queues"].items()}
        return evolve(out, value={**dict(out.value), "queues": queues})

    return post(Inspect, fn)


_qmgr = lambda model, op: model.qmgrs[op.qmgr]  # noqa: E731
_COMMIT_ALL = lambda model, qm, commit: mq._settle(model, qm, True)  # noqa: E731

# fmt: off
MUTANTS = family(
    "QUEUE",
    ("001-a", "Gets return the newest message first (LIFO).", one(), [put(tag=1), put(tag=2), get()],
     rebound(Get, enumerate=lambda msgs: reversed(list(enumerate(msgs))))),
    ("001-b", "A get from an empty queue answers ok with no message.", one(), [get()],
     post(Get, lambda m, op, o: Outcome("get", True) if o.reason == MQRC_NO_MSG_AVAILABLE else o)),
    ("001-c", "CQS: CQSREAD returns the newest data object first.", cqs_cfg(size=6151),
     [Put("QM01", "Q1", 0, tag=1), Put("QM01", "Q1", 0, tag=2), Get("QM01", "Q1")], around(Get, _reverse, _reverse)),
    ("002-a", "Messages put under syncpoint are visible before commit.", one(), [put(syncpoint=True), get()],
     around(Get, _unhide, _rehide)),
    ("002-b", "Backout commits the unit of work.", one(), [put(syncpoint=True), Backout("QM01"), get()],
     rebound(Backout, _settle=_COMMIT_ALL)),
    ("002-c", "Commit leaves the unit of work's puts invisible.", one(), [put(syncpoint=True), Commit("QM01"), get()],
     around(Commit, lambda m, op: [x for _, x in _uow(m, op, "put")], _rehide)),
    ("003-a", "Backout puts messages got under syncpoint back at the end of the queue.", one(),
     [put(tag=1), put(tag=2), get(syncpoint=True), Backout("QM01"), get()],
     around(Backout, lambda m, op: _uow(m, op, "get"), _to_end)),
    ("003-b", "A message got under syncpoint is not locked: other gets see it.", one(),
     [put(), get(syncpoint=True), get()], post(Get, _unlock)),
    ("003-c", "Backout deletes the messages got under syncpoint.", one(),
     [put(), get(syncpoint=True), Backout("QM01"), get()],
     rebound(Backout, _settle=rebind(mq._settle, _kept=lambda action, commit: action == "put" and commit))),
    ("004-a", "Depth leaves out uncommitted puts.", one(), [put(syncpoint=True), INSPECT],
     _depth_view(lambda q: -sum(1 for m in q.msgs if m.uncommitted))),
    ("004-b", "Depth includes messages got under syncpoint.", one(), [put(), get(syncpoint=True), INSPECT],
     _depth_view(lambda q: sum(1 for m in q.msgs if m.locked))),
    ("004-c", "MAXDEPTH is checked against committed messages only.", one(queues=[qd(maxdepth=1)]),
     [put(syncpoint=True), put()], full_at(lambda q: q.defn.maxdepth + sum(m.uncommitted for m in q.msgs))),
    ("005-a", "A stopped queue manager can still put.", one(), [StopQmgr("QM01"), put()],
     during(Put, _qmgr, active=True)),
    ("005-b", "Stopping a queue manager commits its unit of work.", mq_config(sd(), qmgrs=("QM01", "QM02")),
     [put(syncpoint=True), StopQmgr("QM01"), get(qmgr="QM02")], rebound(StopQmgr, _settle=_COMMIT_ALL)),
    ("005-c", "A stopped queue manager can still get.", one(), [put(), StopQmgr("QM01"), get()],
     during(Get, _qmgr, active=True)),
)
# fmt: on
