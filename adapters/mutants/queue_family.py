"""Mutants of the queue semantics the rules rely on (QUEUE-001..005), profiles ``mq`` and ``cqs``.

Reproducers tag their messages 1, 2, ... so that gets show the order, and use
Inspect where only the reported depth is wrong.
"""

from __future__ import annotations

from typing import Any

from cfconform.reference_model import mq
from cfconform.reference_model.model import Model
from cfconform.reference_model.operations import (
    Backout,
    Commit,
    Get,
    Inspect,
    Put,
    StopQmgr,
)
from cfconform.reference_model.outcomes import (
    MQRC_NO_MSG_AVAILABLE,
    Outcome,
)

from .kit import Mutant, evolve, mutant, post, pre, rebound, wrap
from .mq_common import get, mq_config, put, qd, sd, structure_of, with_defn


def _empty_get_ok(model: Model, op: Get, out: Outcome) -> Outcome:
    return Outcome("get", True) if out.reason == MQRC_NO_MSG_AVAILABLE else out


def _cqs_lifo(original: Any) -> Any:
    def handler(model: Model, op: Get) -> Outcome:
        msgs = model.queues[op.queue].msgs
        msgs.reverse()
        try:
            return original(model, op)
        finally:
            msgs.reverse()

    return handler


def _see_uncommitted(original: Any) -> Any:
    def handler(model: Model, op: Get) -> Outcome:
        hidden = [m for m in model.queues[op.queue].msgs if m.uncommitted]
        for m in hidden:
            m.uncommitted = False
        out = original(model, op)
        for m in hidden:
            m.uncommitted = True
        return out

    return handler


def _backout_commits(original: Any) -> Any:
    def handler(model: Model, op: Backout) -> Outcome:
        qm = model.qmgrs[op.qmgr]
        if not qm.active:
            return original(model, op)
        return Outcome("backout", rules=("QUEUE-002", "QUEUE-003"), signals=mq._settle(model, qm, True))

    return handler


def _commit_hides_puts(original: Any) -> Any:
    def handler(model: Model, op: Commit) -> Outcome:
        puts = [model.live.get(seq) for action, _, seq in model.qmgrs[op.qmgr].uow if action == "put"]
        out = original(model, op)
        for m in puts:
            if m is not None:
                m.uncommitted = True
        return out

    return handler


def _backout_to_end(original: Any) -> Any:
    def handler(model: Model, op: Backout) -> Outcome:
        qm = model.qmgrs[op.qmgr]
        got = [(name, model.live.get(seq)) for action, name, seq in qm.uow if action == "get"]
        out = original(model, op)
        for name, m in got:
            msgs = model.queues[name].msgs
            if m is not None and m in msgs:
                msgs.remove(m)
                msgs.append(m)
        return out

    return handler


def _get_without_lock(original: Any) -> Any:
    def handler(model: Model, op: Get) -> Outcome:
        out = original(model, op)
        if op.syncpoint and out.ok:
            for m in model.queues[op.queue].msgs:
                m.locked = False
        return out

    return handler


def _backout_drops_gets(model: Model, op: Backout) -> Outcome | None:
    qm = model.qmgrs[op.qmgr]
    if not qm.active:
        return None
    keep = []
    for action, name, seq in qm.uow:
        m = model.live.get(seq)
        if action == "get" and m is not None:
            q = model.queues[name]
            mq._remove(model, q, q.msgs.index(m), structure_of(model, name))
        else:
            keep.append((action, name, seq))
    qm.uow = keep
    return None


def _usage_without_locked(model: Model, op: Get, out: Outcome) -> Outcome:
    s = structure_of(model, op.queue)
    if not out.ok or s is None or out.usage is None:
        return out
    locked = [m for q in model.queues.values() if q.defn.cfstruct == s.defn.name for m in q.msgs if m.locked]
    eu, et, lu, lt = out.usage
    return evolve(out, usage=(eu - len(locked), et, lu - sum(m.elements for m in locked), lt))


def _depth_view(adjust: Any) -> Any:
    def fn(model: Model, op: Inspect, out: Outcome) -> Outcome:
        value = dict(out.value)
        value["queues"] = {
            name: {**fields, "depth": fields["depth"] + adjust(model.queues[name])}
            for name, fields in out.value["queues"].items()
        }
        return evolve(out, value=value)

    return fn


def _maxdepth_committed_only(model: Model, op: Put) -> Outcome | None:
    q = model.queues[op.queue]
    pending = sum(1 for m in q.msgs if m.uncommitted)
    if not pending or q.depth < q.defn.maxdepth:
        return None
    return with_defn(q, {"maxdepth": q.defn.maxdepth + pending}, lambda: mq.put(model, op))


def _stopped_can(op_type: type) -> Any:
    def make(original: Any) -> Any:
        def handler(model: Model, op: Any) -> Outcome:
            qm = model.qmgrs[op.qmgr]
            if qm.active:
                return original(model, op)
            qm.active = True
            try:
                return original(model, op)
            finally:
                qm.active = False

        return handler

    return wrap(op_type, make)


def _cqs_cfg() -> Any:
    from .cqs_family import cfg

    return cfg(size=6151)


TWO_QMGRS = ("QM01", "QM02")


MUTANTS: tuple[Mutant, ...] = (
    # QUEUE-001: FIFO; empty queue answers 2033 / NO_MSG
    mutant(
        "M-QUEUE-001-a",
        "Gets return the newest message first (LIFO).",
        mq_config(sd()),
        [put(tag=1), put(tag=2), get()],
        rebound(Get, enumerate=lambda msgs: reversed(list(enumerate(msgs)))),
    ),
    mutant(
        "M-QUEUE-001-b",
        "A get from an empty queue answers ok with no message.",
        mq_config(sd()),
        [get()],
        post(Get, _empty_get_ok),
    ),
    mutant(
        "M-QUEUE-001-c",
        "CQS: CQSREAD returns the newest data object first.",
        _cqs_cfg(),
        [Put("QM01", "Q1", 0, tag=1), Put("QM01", "Q1", 0, tag=2), Get("QM01", "Q1")],
        wrap(Get, _cqs_lifo),
    ),
    # QUEUE-002: uncommitted puts invisible; backout discards them
    mutant(
        "M-QUEUE-002-a",
        "Messages put under syncpoint are visible before commit.",
        mq_config(sd()),
        [put(syncpoint=True), get()],
        wrap(Get, _see_uncommitted),
    ),
    mutant(
        "M-QUEUE-002-b",
        "Backout commits the unit of work.",
        mq_config(sd()),
        [put(syncpoint=True), Backout("QM01"), get()],
        wrap(Backout, _backout_commits),
    ),
    mutant(
        "M-QUEUE-002-c",
        "Commit leaves the unit of work's puts invisible.",
        mq_config(sd()),
        [put(syncpoint=True), Commit("QM01"), get()],
        wrap(Commit, _commit_hides_puts),
    ),
    # QUEUE-003: gets under syncpoint locked until commit; backout puts them back in place
    mutant(
        "M-QUEUE-003-a",
        "Backout puts messages got under syncpoint back at the end of the queue.",
        mq_config(sd()),
        [put(tag=1), put(tag=2), get(syncpoint=True), Backout("QM01"), get()],
        wrap(Backout, _backout_to_end),
    ),
    mutant(
        "M-QUEUE-003-b",
        "A message got under syncpoint is not locked: other gets see it.",
        mq_config(sd()),
        [put(), get(syncpoint=True), get()],
        wrap(Get, _get_without_lock),
    ),
    mutant(
        "M-QUEUE-003-c",
        "Backout deletes the messages got under syncpoint.",
        mq_config(sd()),
        [put(), get(syncpoint=True), Backout("QM01"), get()],
        pre(Backout, _backout_drops_gets),
    ),
    mutant(
        "M-QUEUE-003-d",
        "A get under syncpoint frees the message's storage before commit.",
        mq_config(sd()),
        [put(), get(syncpoint=True)],
        post(Get, _usage_without_locked),
    ),
    # QUEUE-004: depth counts uncommitted puts, not messages got under syncpoint
    mutant(
        "M-QUEUE-004-a",
        "Depth leaves out uncommitted puts.",
        mq_config(sd()),
        [put(syncpoint=True), Inspect()],
        post(Inspect, _depth_view(lambda q: -sum(1 for m in q.msgs if m.uncommitted))),
    ),
    mutant(
        "M-QUEUE-004-b",
        "Depth includes messages got under syncpoint.",
        mq_config(sd()),
        [put(), get(syncpoint=True), Inspect()],
        post(Inspect, _depth_view(lambda q: sum(1 for m in q.msgs if m.locked))),
    ),
    mutant(
        "M-QUEUE-004-c",
        "MAXDEPTH is checked against committed messages only.",
        mq_config(sd(), queues=[qd(maxdepth=1)]),
        [put(syncpoint=True), put()],
        pre(Put, _maxdepth_committed_only),
    ),
    # QUEUE-005: a stopping queue manager's unit of work is backed out; a stopped one cannot put or get
    mutant(
        "M-QUEUE-005-a",
        "A stopped queue manager can still put.",
        mq_config(sd()),
        [StopQmgr("QM01"), put()],
        _stopped_can(Put),
    ),
    mutant(
        "M-QUEUE-005-b",
        "Stopping a queue manager commits its unit of work.",
        mq_config(sd(), qmgrs=TWO_QMGRS),
        [put(syncpoint=True), StopQmgr("QM01"), get(qmgr="QM02")],
        rebound(StopQmgr, _settle=lambda model, qm, commit: mq._settle(model, qm, True)),
    ),
    mutant(
        "M-QUEUE-005-c",
        "A stopped queue manager can still get.",
        mq_config(sd()),
        [put(), StopQmgr("QM01"), get()],
        _stopped_can(Get),
    ),
)
