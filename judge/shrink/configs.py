"""Strategy ``configs`` (a variant): a smaller configuration: the queues and structures nothing names,
smaller structures (SIZE, INITSIZE), other RATIOs, lower thresholds (FULLTHRESHOLD, OVFLWMAX, the
MQ offload rules), smaller MAXDEPTHs, depth thresholds a short trace reaches, event switches set
from the start, and a queue full at once.  Each is tried with windows of operations left out: a
smaller structure reaches its thresholds in fewer puts, so the puts that reached them on the larger
one overshoot."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

import attrs

from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config, QueueDef, StructureDef
from cfconform.reference_model.errors import ConfigurationError
from cfconform.reference_model.offload import RULE_OFF

from .common import EVENT_SWITCHES, SIZE_LADDER, fitted, referenced
from .prune import pruned

_RATIOS = (1, 2, 4, 6, 12, 60, 90)


def smaller_configs(config: Config, ops: Sequence[Any]) -> list[Config]:
    """Simpler variants to try: fewer queues, smaller structures, other ratios, lower thresholds,
    smaller MAXDEPTHs, depth thresholds a short trace reaches."""
    used = referenced(ops)
    out: list[Config | None] = [*pruned(config, ops, used)]
    last: list[Config | None] = []  # tried after all the others (each costs windows of replays)
    fixed = config.accounting.fixed_kb
    used = used | {q.cfstruct for q in config.queues if q.name in used and q.cfstruct}
    for i, s in enumerate(config.structures):
        if s.name not in used:
            continue  # e.g. the filler structures before a 64th: their sizes decide nothing

        def swap(new: Any, i: int = i) -> Config | None:
            try:
                return attrs.evolve(config, structures=(*config.structures[:i], new, *config.structures[i + 1 :]))
            except ConfigurationError:  # e.g. INITSIZE above the smaller SIZE
                return None

        if config.profile == "mq":  # the offload rules are MQ's; a rule met sooner shortens the trace most
            out += [swap(simpler) for simpler in simpler_rules(s)]
        grows = s.effective_initsize_kb < s.size_kb and any(
            isinstance(op, o.AlterOutcome | o.SetxcfAlter) and op.cfstruct == s.name for op in ops
        )
        for usable in (u for u in SIZE_LADDER if fixed + u < s.size_kb):
            initsize = None if s.initsize_kb is None else min(s.initsize_kb, fixed + usable)
            out.append(swap(attrs.evolve(s, size_kb=fixed + usable, initsize_kb=initsize)))
            if grows and usable > 1:  # a structure the trace alters keeps room between INITSIZE and SIZE
                last.append(swap(attrs.evolve(s, size_kb=fixed + usable, initsize_kb=fixed + usable // 2)))
        # a lower INITSIZE alone keeps SETXCF ALTER sizes between INITSIZE and SIZE valid
        for usable in (u for u in SIZE_LADDER if fixed + u < s.effective_initsize_kb):
            out.append(swap(attrs.evolve(s, initsize_kb=fixed + usable)))
        out += [swap(attrs.evolve(s, ratio=r)) for r in _RATIOS if r != s.ratio]
        # A lower threshold is reached in fewer puts (kept only if the reproducer gets shorter).
        if s.fullthreshold > 1:
            out.append(swap(attrs.evolve(s, fullthreshold=1)))
        if config.profile == "cqs" and not s.resource:
            # the lowest threshold is reached first; the highest leaves the most room between
            # the threshold and the selection goal 20% below it (CQS-004, CQS-007)
            out += [swap(attrs.evolve(s, ovflwmax=v)) for v in (1, 100) if v != s.effective_ovflwmax]
    kept = [c for c in out if c is not None]
    for i, q in enumerate(config.queues):
        if q.name not in used:
            continue  # e.g. the filler queues before a 513th
        variants = [attrs.evolve(q, maxdepth=d) for d in (1, 2, 3, 5, q.maxdepth // 2) if 0 < d < q.maxdepth]
        # QDEPTHHI and QDEPTHLO nearer the depths a short trace reaches
        variants += [attrs.evolve(q, qdepthhi=p) for p in (1, 50) if p < q.qdepthhi]
        variants += [attrs.evolve(q, qdepthlo=p) for p in (50, 99) if q.qdepthlo < p <= q.qdepthhi]
        # the limits themselves: depth 0 reaches QDEPTHLO 0, MAXDEPTH reaches QDEPTHHI 100
        variants += [attrs.evolve(q, qdepthlo=0)] if q.qdepthlo > 0 else []
        variants += [attrs.evolve(q, qdepthhi=100)] if q.qdepthhi < 100 else []
        # an event switch set differently from the start saves the operations that toggled it
        variants += [attrs.evolve(q, **{flag: not getattr(q, flag)}) for flag in EVENT_SWITCHES]
        # MAXDEPTH 0: every put is Queue Full at once (QDEPTH-003..006), with the event switches
        # as the operations before the full queue had left them (a Queue Full event's toggles)
        variants += [attrs.evolve(q, maxdepth=0)] if q.maxdepth > 0 else []
        variants += full_at_once(q)
        for smaller_q in variants:
            kept.append(attrs.evolve(config, queues=(*config.queues[:i], smaller_q, *config.queues[i + 1 :])))
    return kept + [c for c in last if c is not None]


#: Thresholds every higher OFFLDnTH is lowered to together, one variant each: a structure with
#: few entries reaches a few percent of them in one put, and a rule compared with another reading
#: still needs its threshold above zero (the usage readings differ only once something is in use).
_SHARED_THRESHOLDS = (5, 10, 20, 30, 40, 50, 60)


def simpler_rules(s: StructureDef) -> list[StructureDef]:
    """``s`` with one offload rule met from an empty structure (OFFLDnTH(0)) or by any length
    (OFFLDnSZ(0)), or with every OFFLDnTH above one of :data:`_SHARED_THRESHOLDS` lowered to it."""
    out = []
    for n in (1, 2, 3):
        if getattr(s, f"offld{n}th") > 0:
            out.append(attrs.evolve(s, **{f"offld{n}th": 0}))
        if 0 < getattr(s, f"offld{n}sz") < RULE_OFF:
            out.append(attrs.evolve(s, **{f"offld{n}sz": 0}))
    for t in _SHARED_THRESHOLDS:
        lowered = {f"offld{n}th": t for n in (1, 2, 3) if getattr(s, f"offld{n}th") > t}
        if lowered:
            out.append(attrs.evolve(s, **lowered))
    return out


def full_at_once(queue: QueueDef) -> list[QueueDef]:
    """The queue at MAXDEPTH 0 with its depth event switches in each other combination: a trace
    that puts and gets only to set the switches a Queue Full event then toggles (QDEPTH-003..006)
    keeps just the put that finds the queue full, when both changes are made together."""
    now = tuple(getattr(queue, k) for k in EVENT_SWITCHES)
    return [
        attrs.evolve(queue, maxdepth=0, **dict(zip(EVENT_SWITCHES, combo, strict=True)))
        for combo in product((False, True), repeat=len(EVENT_SWITCHES))
        if combo != now and sum(a != b for a, b in zip(combo, now, strict=True)) > (queue.maxdepth == 0)
    ]


def candidates(config: Config, ops: list[Any]) -> list[tuple[Config, list[Any], bool]]:
    """Each smaller configuration, its alter outcomes fitted to it, tried with windows."""
    return [(c, fitted(config, c, ops), True) for c in smaller_configs(config, ops)]
