"""Mutants of the capacity rules (CAPACITY-*): one row each (:func:`.kit.family`).

Reproducers use structures of one or two entries (6145 and 6146 KB) so that one put fills them or crosses
FULLTHRESHOLD.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MethodType
from typing import Any

from cfconform.reference_model import admin, cqs, group, mq
from cfconform.reference_model import outcomes as rc
from cfconform.reference_model.model import FULL_MONITOR_BOUND, Model
from cfconform.reference_model.operations import (
    AdvanceClock,
    AlterOutcome,
    AlterStructure,
    Backout,
    Commit,
    DefineStructure,
    Get,
    Put,
    SetxcfAlter,
)
from cfconform.reference_model.outcomes import Outcome
from cfconform.reference_model.state import Structure

from .cqs_family import cfg as cqs_cfg
from .kit import evolve, family, lenient, post, pre, reading, reason_for, rebind, rebound, refuse
from .mq_common import INSPECT, get, mq_config, one, put, rules, sd


def _warning(full: Callable[..., bool]) -> Callable[[Model], None]:
    """CAPACITY-002/003 faults: whether the full warning holds, ``full(eu, et, lu, lt, threshold, warning)``
    (the model's :func:`cfconform.reference_model.group._full`)."""
    return lambda m: setattr(m, "full_signals", MethodType(rebind(group.GroupState.full_signals, _full=full), m))


def _signalling(fn: Callable[[Structure, tuple[str, ...]], tuple[str, ...]]) -> Callable[[Model], None]:
    """The full signals of a step as ``fn(s, signals)`` changes the model's."""

    def install(model: Model) -> None:
        own = model.full_signals
        model.full_signals = lambda s, seen=None: fn(s, own(s, seen))  # type: ignore[method-assign]

    return install


def _on_at_zero(s: Structure, out: tuple[str, ...]) -> tuple[str, ...]:
    """FULLTHRESHOLD(0): any usage reaches it."""
    if s.defn.fullthreshold > 0 or s.full_warning:
        return out
    s.full_warning = True
    return (f"IXC585E {s.defn.name}",)


def _room_with(check: Callable[[tuple[int, int, int, int], int, int], bool]) -> Callable[[Model], None]:
    """CAPACITY-001 faults: whether a put finds room, decided by ``check(pools, entries, elements)``."""
    return lambda m: setattr(m, "room", lambda s, entries, elements, *_, **__: check(m.pools(s), entries, elements))


def _drop_signal(op_type: type, prefix: str) -> Any:
    return post(op_type, lambda m, op, o: evolve(o, signals=tuple(x for x in o.signals if not x.startswith(prefix))))


def _size_zero(model: Model, op: SetxcfAlter) -> Outcome | None:
    s = model.structures[op.cfstruct]
    if op.size_kb >= 1 or s.pools.entries_used:
        return None
    s.size_kb, s.pools.entries_total, s.pools.elements_total = 0, 0, 0
    return Outcome("setxcf_alter", rules=("CAPACITY-004",), usage=s.pools.as_tuple())


def _entries_charged(delta: int, when: Callable[[Outcome], bool]) -> Callable[[Model], None]:
    """A put whose outcome ``when(out)`` holds leaves ``delta`` more list entries of its structure in use."""

    def fn(model: Model, op: Put, out: Outcome) -> Outcome:
        name = model.queues[op.queue].defn.cfstruct
        if name is None or not when(out):
            return out
        pools = model.structures[name].pools
        pools.entries_used += delta
        return evolve(out, usage=pools.as_tuple())

    return post(Put, fn)


def _keeping(free: Any) -> Any:
    """A removed message frees what ``free(s, msg)`` frees (``mq._free``)."""
    return rebind(mq._remove, _free=free)


TINY = sd(size=6145)  # 1 entry, 1 element
FULL50 = sd(size=6146, ratio=2, fullthreshold=50)  # 2 entries, 4 elements
GROWABLE = sd(initsize_kb=6147, size=6160)  # starts with 4 entries; SIZE gives 24
_EXCEEDS = lambda eu, et, lu, lt, th, w: 100 * eu > th * et or 100 * lu > th * lt  # noqa: E731

# fmt: off
MUTANTS = family(
    "CAPACITY",
    ("001-a", "Only a free list entry is checked, not free elements: an oversized put is accepted.",
     mq_config(TINY), [put(1000)], _room_with(lambda pools, entries, elements: pools[0] + entries <= pools[1])),
    ("001-b", "Only free elements are checked: a put is accepted with every entry in use.",
     one(size=6145, ratio=2, **rules()), [put(), put()],
     _room_with(lambda pools, entries, elements: pools[2] + elements <= pools[3])),
    ("001-c", "A put to a full structure fails with 2053 (Q_FULL) instead of 2192.", mq_config(TINY), [put(1000)],
     reason_for(Put, rc.MQRC_STORAGE_MEDIUM_FULL, rc.MQRC_Q_FULL)),
    ("001-e", "CQS: a put that does not fit the primary structure is accepted.", cqs_cfg(size=6145),
     [put(1000)], rebound(Put, fits=lambda pools, entries, elements: True)),
    ("002-a", "IXC585E only when usage exceeds FULLTHRESHOLD, not when it reaches it.", mq_config(FULL50),
     [put(), AdvanceClock(FULL_MONITOR_BOUND)], _warning(_EXCEEDS)),
    ("002-b", "FULLTHRESHOLD is compared with element usage only.", mq_config(FULL50), [put(300), put(), get()],
     _warning(lambda eu, et, lu, lt, th, w: 100 * lu >= th * lt)),
    ("002-c", "FULLTHRESHOLD(0) does not switch the warning off.", one(size=6146, ratio=2, fullthreshold=0), [put()],
     _signalling(_on_at_zero)),
    ("002-d", "IXC585E is repeated on every request while usage stays at the threshold.", mq_config(FULL50),
     [put(), put()], _signalling(lambda s, out: out or ((f"IXC585E {s.defn.name}",) if s.full_warning else ()))),
    ("002-e", "FULLTHRESHOLD is compared with list-entry usage only.", one(size=6147, fullthreshold=50),
     [put(), put(300), get()], _warning(lambda eu, et, lu, lt, th, w: 100 * eu >= th * et)),
    ("003-a", "IXC586I is never issued.", mq_config(FULL50), [put(), get(), AdvanceClock(FULL_MONITOR_BOUND)],
     _drop_signal(Get, "IXC586I")),
    ("003-b", "IXC586I is issued when usage falls back to the threshold, not below it.", mq_config(FULL50),
     [put(), put(), get()], _warning(lambda *a: (_EXCEEDS if a[-1] else group._full)(*a))),
    ("003-c", "No IXC586I when a backout releases the storage.", mq_config(FULL50),
     [put(syncpoint=True), Backout("QM01"), INSPECT, AdvanceClock(FULL_MONITOR_BOUND)],
     _drop_signal(Backout, "IXC586I")),
    ("004-a", "SETXCF ALTER can only contract a structure.", mq_config(GROWABLE), [SetxcfAlter("APP1", 6150)],
     refuse(SetxcfAlter, lambda m, op: op.size_kb > m.structures[op.cfstruct].size_kb, rc.CMD_OUT_OF_RANGE,
            "CAPACITY-005")),
    ("004-b", "SETXCF ALTER of a structure in use is accepted but the structure keeps its size.",
     mq_config(GROWABLE), [put(), SetxcfAlter("APP1", 6150), INSPECT],
     rebound(SetxcfAlter, _resize=lambda m, s, *a: None if s.pools.entries_used else admin._resize(m, s, *a))),
    ("005-a", "SETXCF ALTER above SIZE is accepted.", mq_config(GROWABLE), [SetxcfAlter("APP1", 6161)],
     rebound(SetxcfAlter, _above_size=lambda d, new: False)),
    ("005-b", "CQS accepts an alter outcome growing the primary beyond SIZE.", cqs_cfg(initsize=6147, size=6151),
     [put(600), AlterOutcome("PRIM", True, 6152)],
     rebound(AlterOutcome, _altered=rebind(cqs._altered, _alterable_to=lambda s, new: new >= s.size_kb))),
    ("006-a", "SETXCF ALTER contracts a structure below the storage in use.", mq_config(GROWABLE),
     [SetxcfAlter("APP1", 6151), put(1200), SetxcfAlter("APP1", 6147)],
     rebound(SetxcfAlter, _below_use=lambda *_: False)),
    ("006-b", "Mixed reading: below INITSIZE accepted on an empty structure, rejected otherwise.",
     one(initsize_kb=6152, size=6160), [SetxcfAlter("APP1", 6150), put(), SetxcfAlter("APP1", 6151)],
     reading(SetxcfAlter, alter_below_initsize=lambda m, op: "rejected" if m.structures[op.cfstruct].pools.entries_used
             else "accepted"),
     ("alter_below_initsize",)),
    ("008-a", "SETXCF ALTER to size 0 is accepted.", mq_config(GROWABLE), [SetxcfAlter("APP1", 0)],
     pre(SetxcfAlter, _size_zero)),
    ("008-b", "DEFINE CFSTRUCT with INITSIZE above SIZE is accepted.", one(),
     [DefineStructure({"name": "APP2", "initsize_kb": 9000, "size_kb": 8192})],
     lenient(DefineStructure, "CAPACITY-008")),
    ("009-a", "FULLTHRESHOLD above 100 is accepted.", one(), [AlterStructure("APP1", {"fullthreshold": 101})],
     lenient(AlterStructure, "CAPACITY-009")),
    ("010-a", "A get outside syncpoint does not free the message's storage.", one(), [put(), get()],
     rebound(Get, _remove=_keeping(lambda s, msg: None))),
    ("010-b", "A get under syncpoint does not free the storage when committed.", one(),
     [put(), get(syncpoint=True), Commit("QM01"), INSPECT],
     rebound(Commit, _settle=rebind(mq._settle, _remove=_keeping(lambda s, msg: None)))),
    # all data on the primary (no overflow structure to take any)
    ("010-c", "CQS: CQSREAD+CQSDEL does not free the data object's storage.", cqs_cfg(ovflwstr=None),
     [put(), get()], rebound(Get, _charge=lambda s, msg, sign: None if sign < 0 else cqs._charge(s, msg, sign))),
    ("012-a", "An offloaded message is kept as elements only: it takes no entry.",
     one(size=8192, ratio=4, offload="SMDS", **rules((0, 0))), [put(1), put(1)],
     _entries_charged(-1, lambda o: o.ok and o.offloaded)),
    ("012-b", "A get outside syncpoint frees the message's elements but not its entry.", one(size=8192, ratio=4),
     [put(1000), get()], rebound(Get, _remove=_keeping(
         lambda s, msg: setattr(s.pools, "elements_used", s.pools.elements_used - msg.elements)))),
)
# fmt: on
