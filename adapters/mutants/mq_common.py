"""Configurations, operations and fault pieces shared by the mutant families (the MQ-profile ones, mostly)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cfconform.reference_model import mq, offload
from cfconform.reference_model.config import Config, QueueDef, StructureDef
from cfconform.reference_model.model import Model
from cfconform.reference_model.operations import AlterStructure, Get, Inspect, Put
from cfconform.reference_model.outcomes import CMD_INVALID, Outcome
from cfconform.reference_model.state import Structure
from cfconform.reference_model.units import KB

from .kit import Install, Patched, force_evolve, pre, rebind, rebound, refuse


def sd(name: str = "APP1", *, size: int = 6151, ratio: int = 1, cflevel: int = 5, **fields: Any) -> StructureDef:
    """A small application structure (6151 KB, ratio 1: 10 entries and 10 elements), no FULLTHRESHOLD."""
    return StructureDef(name, size_kb=size, ratio=ratio, cflevel=cflevel, **{"fullthreshold": 0, **fields})


def rules(*pairs: tuple[int, int] | None) -> dict[str, int]:
    """OFFLDnTH/OFFLDnSZ fields: one ``(th, sz)`` or ``None`` (switched off: OFFLDnSZ(64K)) per rule."""
    on = {f"offld{n}{k}": v for n, p in enumerate(pairs, 1) if p for k, v in zip(("th", "sz"), p, strict=True)}
    return {f"offld{n}sz": 64 * KB for n in (1, 2, 3)} | on


def mq_config(*structures: StructureDef, queues: Any = None, qmgrs: tuple[str, ...] = ("QM01",), **kw: Any) -> Config:
    """An MQ group; by default queue ``Q1`` on the first structure (``Qn`` on the n-th)."""
    structures = structures or (sd(),)
    if queues is None:
        queues = [QueueDef(f"Q{i}", cfstruct=s.name) for i, s in enumerate(structures, 1)]
    return Config(profile="mq", qmgrs=qmgrs, structures=tuple(structures), queues=tuple(queues), **kw)


def one(queues: Any = None, **fields: Any) -> Config:
    """An MQ group of one structure ``sd(**fields)`` (and queue ``Q1`` on it, unless ``queues``)."""
    return mq_config(sd(**fields), queues=queues)


def qd(name: str = "Q1", cfstruct: str | None = "APP1", **fields: Any) -> QueueDef:
    return QueueDef(name, cfstruct=cfstruct, **fields)


def put(length: int = 0, queue: str = "Q1", qmgr: str = "QM01", **kw: Any) -> Put:
    return Put(qmgr, queue, length, **kw)


def get(queue: str = "Q1", qmgr: str = "QM01", **kw: Any) -> Get:
    return Get(qmgr, queue, **kw)


#: The observable state, as a step of a reproducer.
INSPECT = Inspect()


def alter(**changes: Any) -> AlterStructure:
    """ALTER CFSTRUCT(APP1) with ``changes``."""
    return AlterStructure("APP1", changes)


def structure_of(model: Model, queue: str) -> Structure | None:
    name = model.queues[queue].defn.cfstruct
    return None if name is None else model.structures[name]


def redefined(**fields: Callable[[Any], Any]) -> Install:
    """Every structure's definition read with ``fields[name](value)`` for those fields (unchecked)."""

    def install(model: Model) -> None:
        for s in model.structures.values():
            s.defn = force_evolve(s.defn, {k: f(getattr(s.defn, k)) for k, f in fields.items()})

    return install


def deciding(**names: Any) -> Install:
    """MQPUT's offload decision (:func:`cfconform.reference_model.offload.decide`) with some of its rule functions
    swapped: ``forced_boundary(reading, cflevel)``, ``RULES_LEVEL``, ``_ruled(model, s, rules, length, strict,
    metric)`` (the rules on the model's own figures) or ``_pairs(sd)`` (the rules, read by ``_plan``)."""
    if "_pairs" in names:
        names["_plan"] = rebind(offload._plan, _pairs=names.pop("_pairs"))
    return rebound(Put, offload=Patched(offload, decide=rebind(offload.decide, **names)))


def reject_alter(test: Any, rule: str) -> Install:
    """ALTER CFSTRUCT refused as INVALID under ``rule`` where ``test(changes)`` holds."""
    return refuse(AlterStructure, lambda m, op: test(dict(op.changes)), CMD_INVALID, rule)


def full_at(maxdepth: Callable[[Any], int]) -> Install:
    """MQPUT to a full queue ``q`` carried out as if its MAXDEPTH were ``maxdepth(q)`` (unchecked)."""

    def fn(model: Model, op: Put) -> Outcome | None:
        q = model.queues[op.queue]
        if q.depth < q.defn.maxdepth:
            return None
        saved, q.defn = q.defn, force_evolve(q.defn, {"maxdepth": maxdepth(q)})
        try:
            return mq.put(model, op)
        finally:
            q.defn = saved

    return pre(Put, fn)
