"""Boundary probes: where each step sat relative to the documented boundaries (below / at / above).

A probe reads the model's state *before* the step.  The gate aggregates probes
per rule, so a report can say a threshold was never crossed (a hollow pass).
"""

from __future__ import annotations

from typing import Any

from cfconform.reference_model.model import Model
from cfconform.reference_model.operations import AdvanceClock, DefineQueue, Get, Put
from cfconform.reference_model.units import SIZE_63_75K, SIZE_63K

Probe = tuple[str, str]


def position(value: float, boundary: float, width: float = 0.0) -> str:
    """``at`` within ``width`` of the boundary (exactly on it when width is 0)."""
    if abs(value - boundary) <= width:
        return "at"
    return "below" if value < boundary else "above"


def probes(model: Model, op: Any) -> list[Probe]:
    """The boundary positions ``op`` exercises in ``model``'s current state."""
    if isinstance(op, Put):
        return _put_probes(model, op)
    if isinstance(op, Get):
        q = model.queues.get(op.queue)
        if q is None or model.config.profile != "mq":
            return []
        return [("QDEPTH-002", position(100 * (q.depth - 1), q.defn.qdepthlo * q.defn.maxdepth))]
    if isinstance(op, AdvanceClock) and model.config.profile == "cqs":
        nxt = (model.clock // 900 + 1) * 900
        return [("CQS-013", position(model.clock + op.seconds, nxt))]
    cfstruct = (
        op.queue.get("cfstruct")
        if isinstance(op, DefineQueue) and isinstance(op.queue, dict)
        else (op.queue.cfstruct if isinstance(op, DefineQueue) else None)
    )
    if cfstruct in model.structures:
        count = sum(1 for q in model.queues.values() if q.defn.cfstruct == cfstruct)
        return [("TOPOLOGY-005", position(count + 1, 512))]
    return []


def _put_probes(model: Model, op: Put) -> list[Probe]:
    q = model.queues.get(op.queue)
    if q is None:
        return []
    d = q.defn
    if model.config.profile == "cqs":
        s = model.structures[d.cfstruct]  # type: ignore[index]
        usage = model.usage(s, model.readings.cqs_usage_metric)
        return [
            ("CQS-003", position(usage, s.defn.effective_ovflwmax, 1.0)),
            ("CQS-017", position(op.length, model.lgmsgsz)),
        ]
    found = [
        ("QDEPTH-001", position(100 * (q.depth + 1), d.qdepthhi * d.maxdepth)),
        ("QDEPTH-015", position(q.depth, d.maxdepth)),
    ]
    if d.cfstruct is None:
        return found
    s = model.structures[d.cfstruct]
    sd = s.defn
    usage = model.usage(s, "max")
    found.append(("CAPACITY-002", position(usage, sd.fullthreshold, 1.0)))
    if sd.cflevel < 4:
        found.append(("CFLEVEL-003", position(op.length, SIZE_63K)))
    else:
        found += [("OFFLOAD-004", position(op.length, SIZE_63K)), ("OFFLOAD-004", position(op.length, SIZE_63_75K))]
    if sd.cflevel == 5:
        for th, sz in ((sd.offld1th, sd.offld1sz), (sd.offld2th, sd.offld2sz), (sd.offld3th, sd.offld3sz)):
            found += [("OFFLOAD-002", position(usage, th, 1.0)), ("OFFLOAD-002", position(op.length, sz))]
    return found
