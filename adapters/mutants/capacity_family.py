"""Mutants of the capacity and topology rules (CAPACITY-*, TOPOLOGY-*).

Capacity reproducers use structures of one or two entries (6145 and 6146 KB)
so that one put fills them or crosses FULLTHRESHOLD; topology reproducers
start from a configuration already at a limit and make one definition.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cfconform.reference_model import cqs, mq
from cfconform.reference_model.accounting import pool_totals
from cfconform.reference_model.config import Config
from cfconform.reference_model.model import FULL_MONITOR_BOUND, Model
from cfconform.reference_model.operations import (
    AdvanceClock,
    AlterOutcome,
    AlterStructure,
    Backout,
    Commit,
    DefineStructure,
    Get,
    Inspect,
    Put,
    SetxcfAlter,
)
from cfconform.reference_model.outcomes import (
    CMD_OUT_OF_RANGE,
    MQRC_Q_FULL,
    MQRC_STORAGE_MEDIUM_FULL,
    Outcome,
)
from cfconform.reference_model.state import Queue, Structure

from .kit import (
    Mutant,
    apply_structure_changes,
    define_structure_unchecked,
    evolve,
    lenient,
    mutant,
    post,
    pre,
    rebind,
    rebound,
    setup,
    wrap,
)
from .mq_common import get, mq_config, put, reject_alter, rules, sd


def _full_signals(
    *,
    rising: Callable[[int, int, int], bool] | None = None,
    falling: Callable[[int, int, int], bool] | None = None,
    off_at_zero: bool = True,
    repeat: bool = False,
    pools: str = "both",
) -> Callable[[Model], None]:
    """Replace ``model.full_signals`` with a variant.

    ``rising(used, total, threshold)`` says whether one pool is at the threshold
    (default ``>=``); ``falling`` whether a pool keeps the warning on (default: as rising);
    ``pools`` which pools are watched (``both``, ``entries`` or ``elements``).
    """
    rise = rising or (lambda used, total, th: 100 * used >= th * total)

    def install(model: Model) -> None:
        def full_signals(s: Structure, seen: object = None) -> tuple[str, ...]:
            th = s.defn.fullthreshold
            if th <= 0 and off_at_zero:
                return ()
            p = s.pools
            test = falling if (s.full_warning and falling) else rise
            high = (pools != "elements" and test(p.entries_used, p.entries_total, th)) or (
                pools != "entries" and test(p.elements_used, p.elements_total, th)
            )
            if high and (repeat or not s.full_warning):
                s.full_warning = True
                return (f"IXC585E {s.defn.name}",)
            if not high and s.full_warning:
                s.full_warning = False
                return (f"IXC586I {s.defn.name}",)
            return ()

        model.full_signals = full_signals  # type: ignore[method-assign]

    return setup(install)


def _room_with(check: Callable[[tuple[int, int, int, int], int, int], bool]) -> Callable[[Model], None]:
    """CAPACITY-001 faults: whether a put finds room, decided by ``check(pools, entries, elements)``."""

    def install(model: Model) -> None:
        def room(
            s: Structure, entries: int, elements: int, full_reasons: Any, primary: bool = True, length: Any = None
        ) -> bool:
            return check(model.pools(s), entries, elements)

        model.room = room  # type: ignore[method-assign]

    return setup(install)


def _drop_signal(prefix: str) -> Callable[[Model, Any, Outcome], Outcome]:
    def fn(model: Model, op: Any, out: Outcome) -> Outcome:
        return evolve(out, signals=tuple(x for x in out.signals if not x.startswith(prefix)))

    return fn


def _resize(model: Model, s: Structure, size_kb: int) -> Outcome:
    s.size_kb = size_kb
    s.pools.entries_total, s.pools.elements_total = pool_totals(size_kb, s.defn.ratio, model.acct)
    return Outcome("setxcf_alter", rules=("CAPACITY-004",), signals=model.full_signals(s), usage=s.pools.as_tuple())


def _only_contraction(model: Model, op: SetxcfAlter) -> Outcome | None:
    if op.size_kb > model.structures[op.cfstruct].size_kb:
        return Outcome("setxcf_alter", False, CMD_OUT_OF_RANGE, ("CAPACITY-005",))
    return None


def _keep_pools_in_use(original: Any) -> Any:
    """CAPACITY-004 fault: a structure in use is not really altered (only an empty one is)."""

    def handler(model: Model, op: SetxcfAlter) -> Outcome:
        s = model.structures[op.cfstruct]
        before = (s.size_kb, s.pools.entries_total, s.pools.elements_total)
        out = original(model, op)
        if out.ok and s.pools.entries_used:
            s.size_kb, s.pools.entries_total, s.pools.elements_total = before
            out = evolve(out, usage=s.pools.as_tuple())
        return out

    return handler


def _initsize_exclusive(model: Model, op: SetxcfAlter) -> Outcome | None:
    s = model.structures[op.cfstruct]
    if op.size_kb == s.defn.effective_initsize_kb and op.size_kb < s.defn.size_kb:
        return Outcome("setxcf_alter", False, CMD_OUT_OF_RANGE, ("CAPACITY-006",))
    return None


def _above_size(model: Model, op: SetxcfAlter) -> Outcome | None:
    s = model.structures[op.cfstruct]
    return _resize(model, s, op.size_kb) if op.size_kb > s.defn.size_kb else None


def _cqs_above_size(model: Model, op: AlterOutcome) -> Outcome | None:
    s = model.structures[op.cfstruct]
    if not (op.success and s.alter_pending and op.size_kb is not None and op.size_kb > s.defn.size_kb):
        return None
    s.alter_pending = False
    s.size_kb = op.size_kb
    s.pools.entries_total, s.pools.elements_total = pool_totals(op.size_kb, s.defn.ratio, model.acct)
    return Outcome("alter_outcome", rules=("CQS-004",), signals=model.full_signals(s), usage=s.pools.as_tuple())


def _contract_below_use(model: Model, op: SetxcfAlter) -> Outcome | None:
    s = model.structures[op.cfstruct]
    d = s.defn
    if d.effective_initsize_kb <= op.size_kb < d.size_kb:
        return _resize(model, s, op.size_kb)
    return None


def _below_initsize_when_empty(model: Model, op: SetxcfAlter) -> Outcome | None:
    """Mixed reading: below INITSIZE is accepted on an empty structure, rejected otherwise."""
    s = model.structures[op.cfstruct]
    if not 1 <= op.size_kb < s.defn.effective_initsize_kb:
        return None
    if s.pools.entries_used:
        return Outcome("setxcf_alter", False, CMD_OUT_OF_RANGE, ("CAPACITY-006",))
    return _resize(model, s, op.size_kb)


def _size_zero(model: Model, op: SetxcfAlter) -> Outcome | None:
    s = model.structures[op.cfstruct]
    if op.size_kb >= 1 or s.pools.entries_used:
        return None
    s.size_kb, s.pools.entries_total, s.pools.elements_total = 0, 0, 0
    return Outcome("setxcf_alter", rules=("CAPACITY-004",), usage=s.pools.as_tuple())


def _leak_rejected(model: Model, op: Put, out: Outcome) -> Outcome:
    if out.reason != MQRC_STORAGE_MEDIUM_FULL:
        return out
    s = model.structures[model.queues[op.queue].defn.cfstruct]  # type: ignore[index]
    s.pools.entries_used += 1
    return evolve(out, usage=s.pools.as_tuple())


def _keep_storage(model: Model, q: Queue, index: int, s: Structure | None) -> None:
    msg = q.msgs.pop(index)
    model.live.pop(msg.seq, None)


def _keep_entry(model: Model, q: Queue, index: int, s: Structure | None) -> None:
    """M-CAPACITY-012-b: the get frees the message's elements but keeps its entry."""
    msg = q.msgs.pop(index)
    model.live.pop(msg.seq, None)
    if s is not None:
        s.pools.elements_used -= msg.elements


def _offloaded_without_entry(model: Model, op: Put, out: Outcome) -> Outcome:
    """M-CAPACITY-012-a: an offloaded message is charged its elements but no entry."""
    q = model.queues[op.queue]
    if not (out.ok and out.offloaded) or q.defn.cfstruct is None:
        return out
    pools = model.structures[q.defn.cfstruct].pools
    pools.entries_used -= 1
    return evolve(out, usage=pools.as_tuple())


def _full_reason(reason: int) -> Callable[[Model, Any, Outcome], Outcome]:
    def fn(model: Model, op: Put, out: Outcome) -> Outcome:
        return evolve(out, reason=reason) if out.reason == MQRC_STORAGE_MEDIUM_FULL else out

    return fn


def _cqs_cfg(**kw: Any) -> Config:
    from .cqs_family import cfg

    return cfg(**kw)


TINY = sd(size=6145)  # 1 entry, 1 element

TWO = sd(size=6146, ratio=2)  # 2 entries, 4 elements

FULL50 = sd(size=6146, ratio=2, fullthreshold=50)

GROWABLE = sd(initsize_kb=6147, size=6160)  # starts with 4 entries; SIZE gives 24


MUTANTS: tuple[Mutant, ...] = (
    # CAPACITY-001: a full structure rejects a put; nothing else changes
    mutant(
        "M-CAPACITY-001-a",
        "Only a free list entry is checked, not free elements: an oversized put is accepted.",
        mq_config(TINY),
        [put(1000)],
        _room_with(lambda pools, entries, elements: pools[0] + entries <= pools[1]),
    ),
    mutant(
        "M-CAPACITY-001-b",
        "Only free elements are checked: a put is accepted with every entry in use.",
        mq_config(sd(size=6145, ratio=2, **rules())),
        [put(), put()],
        _room_with(lambda pools, entries, elements: pools[2] + elements <= pools[3]),
    ),
    mutant(
        "M-CAPACITY-001-c",
        "A put to a full structure fails with 2053 (Q_FULL) instead of 2192.",
        mq_config(TINY),
        [put(1000)],
        post(Put, _full_reason(MQRC_Q_FULL)),
    ),
    mutant(
        "M-CAPACITY-001-d",
        "A put rejected for lack of space still takes a list entry.",
        mq_config(TINY),
        [put(1000)],
        post(Put, _leak_rejected),
    ),
    mutant(
        "M-CAPACITY-001-e",
        "CQS: a put that does not fit the primary structure is accepted.",
        _cqs_cfg(size=6145),
        [Put("QM01", "Q1", 1000)],
        rebound(Put, fits=lambda pools, entries, elements: True),
    ),
    # CAPACITY-002: IXC585E when entries or elements reach FULLTHRESHOLD
    mutant(
        "M-CAPACITY-002-a",
        "IXC585E only when usage exceeds FULLTHRESHOLD, not when it reaches it.",
        mq_config(FULL50),
        [put(), AdvanceClock(FULL_MONITOR_BOUND)],
        _full_signals(rising=lambda u, t, th: 100 * u > th * t),
    ),
    mutant(
        "M-CAPACITY-002-b",
        "FULLTHRESHOLD is compared with element usage only.",
        mq_config(FULL50),
        [put(300), put(), get()],
        _full_signals(pools="elements"),
    ),
    mutant(
        "M-CAPACITY-002-c",
        "FULLTHRESHOLD(0) does not switch the warning off.",
        mq_config(sd(size=6146, ratio=2, fullthreshold=0)),
        [put()],
        _full_signals(off_at_zero=False),
    ),
    mutant(
        "M-CAPACITY-002-d",
        "IXC585E is repeated on every request while usage stays at the threshold.",
        mq_config(FULL50),
        [put(), put()],
        _full_signals(repeat=True),
    ),
    mutant(
        "M-CAPACITY-002-e",
        "FULLTHRESHOLD is compared with list-entry usage only.",
        mq_config(sd(size=6147, fullthreshold=50)),
        [put(), put(300), get()],
        _full_signals(pools="entries"),
    ),
    # CAPACITY-003: IXC586I when usage falls back below FULLTHRESHOLD
    mutant(
        "M-CAPACITY-003-a",
        "IXC586I is never issued.",
        mq_config(FULL50),
        [put(), get(), AdvanceClock(FULL_MONITOR_BOUND)],
        post(Get, _drop_signal("IXC586I")),
    ),
    mutant(
        "M-CAPACITY-003-b",
        "IXC586I is issued when usage falls back to the threshold, not below it.",
        mq_config(FULL50),
        [put(), put(), get()],
        _full_signals(falling=lambda u, t, th: 100 * u > th * t),
    ),
    mutant(
        "M-CAPACITY-003-c",
        "No IXC586I when a backout releases the storage.",
        mq_config(FULL50),
        [put(syncpoint=True), Backout("QM01"), Inspect(), AdvanceClock(FULL_MONITOR_BOUND)],
        post(Backout, _drop_signal("IXC586I")),
    ),
    # CAPACITY-004: SETXCF ALTER within INITSIZE..SIZE is valid
    mutant(
        "M-CAPACITY-004-a",
        "SETXCF ALTER can only contract a structure.",
        mq_config(GROWABLE),
        [SetxcfAlter("APP1", 6150)],
        pre(SetxcfAlter, _only_contraction),
    ),
    mutant(
        "M-CAPACITY-004-b",
        "SETXCF ALTER of a structure in use is accepted but the structure keeps its size.",
        mq_config(GROWABLE),
        [put(), SetxcfAlter("APP1", 6150), Inspect()],
        wrap(SetxcfAlter, _keep_pools_in_use),
    ),
    mutant(
        "M-CAPACITY-004-c",
        "SETXCF ALTER to exactly INITSIZE is rejected.",
        mq_config(GROWABLE),
        [SetxcfAlter("APP1", 6147)],
        pre(SetxcfAlter, _initsize_exclusive),
    ),
    # CAPACITY-005: above SIZE is invalid
    mutant(
        "M-CAPACITY-005-a",
        "SETXCF ALTER above SIZE is accepted.",
        mq_config(GROWABLE),
        [SetxcfAlter("APP1", 6161)],
        pre(SetxcfAlter, _above_size),
    ),
    mutant(
        "M-CAPACITY-005-b",
        "CQS accepts an alter outcome growing the primary beyond SIZE.",
        _cqs_cfg(initsize=6147, size=6151),
        [Put("QM01", "Q1", 600), AlterOutcome("PRIM", True, 6152)],
        pre(AlterOutcome, _cqs_above_size),
    ),
    # CAPACITY-006: contraction below storage in use refused; below INITSIZE / at SIZE by reading
    mutant(
        "M-CAPACITY-006-a",
        "SETXCF ALTER contracts a structure below the storage in use.",
        mq_config(GROWABLE),
        [SetxcfAlter("APP1", 6151), put(1200), SetxcfAlter("APP1", 6147)],
        pre(SetxcfAlter, _contract_below_use),
    ),
    mutant(
        "M-CAPACITY-006-b",
        "Mixed reading: below INITSIZE accepted on an empty structure, rejected otherwise.",
        mq_config(sd(initsize_kb=6152, size=6160)),
        [SetxcfAlter("APP1", 6150), put(), SetxcfAlter("APP1", 6151)],
        pre(SetxcfAlter, _below_initsize_when_empty),
        mixes=("alter_below_initsize",),
    ),
    # CAPACITY-008: sizes are positive
    mutant(
        "M-CAPACITY-008-a",
        "SETXCF ALTER to size 0 is accepted.",
        mq_config(GROWABLE),
        [SetxcfAlter("APP1", 0)],
        pre(SetxcfAlter, _size_zero),
    ),
    mutant(
        "M-CAPACITY-008-b",
        "DEFINE CFSTRUCT with INITSIZE above SIZE is accepted.",
        mq_config(sd()),
        [DefineStructure({"name": "APP2", "initsize_kb": 9000, "size_kb": 8192})],
        lenient(DefineStructure, "CAPACITY-008", define_structure_unchecked),
    ),
    # CAPACITY-009: FULLTHRESHOLD 0..100
    mutant(
        "M-CAPACITY-009-a",
        "FULLTHRESHOLD above 100 is accepted.",
        mq_config(sd()),
        [AlterStructure("APP1", {"fullthreshold": 101})],
        lenient(AlterStructure, "CAPACITY-009", apply_structure_changes),
    ),
    mutant(
        "M-CAPACITY-009-b",
        "FULLTHRESHOLD(100) is rejected.",
        mq_config(sd()),
        [AlterStructure("APP1", {"fullthreshold": 100})],
        reject_alter(lambda c: c.get("fullthreshold") == 100, "CAPACITY-009"),
    ),
    # CAPACITY-010: a retrieved message frees its storage
    mutant(
        "M-CAPACITY-010-a",
        "A get outside syncpoint does not free the message's storage.",
        mq_config(sd()),
        [put(), get()],
        rebound(Get, _remove=_keep_storage),
    ),
    mutant(
        "M-CAPACITY-010-b",
        "A get under syncpoint does not free the storage when committed.",
        mq_config(sd()),
        [put(), get(syncpoint=True), Commit("QM01"), Inspect()],
        rebound(Commit, _settle=rebind(mq._settle, _remove=_keep_storage)),
    ),
    mutant(
        "M-CAPACITY-010-c",
        "CQS: CQSREAD+CQSDEL does not free the data object's storage.",
        _cqs_cfg(ovflwstr=None),  # all data on the primary (no overflow structure to take any)
        [Put("QM01", "Q1", 0), Get("QM01", "Q1")],
        rebound(Get, _charge=lambda s, msg, sign: None if sign < 0 else cqs._charge(s, msg, sign)),
    ),
    # CAPACITY-012: every message on a shared queue is an entry
    mutant(
        "M-CAPACITY-012-a",
        "An offloaded message is kept as elements only: it takes no entry.",
        mq_config(sd(size=8192, ratio=4, offload="SMDS", **rules((0, 0)))),
        [put(), put()],
        post(Put, _offloaded_without_entry),
    ),
    mutant(
        "M-CAPACITY-012-b",
        "A get outside syncpoint frees the message's elements but not its entry.",
        mq_config(sd(size=8192, ratio=4)),
        [put(1000), get()],
        rebound(Get, _remove=_keep_entry),
    ),
)
