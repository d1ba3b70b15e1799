"""Configuration shapes, written once for both generators.

The Hypothesis strategies (:mod:`cfconform.properties.strategies`) and the seeded campaign
generator (:mod:`cfconform.properties.generator`) draw configurations through the same
functions here; only the source of choices differs (a :class:`Draw`).  That keeps
the gate and the Spark campaigns on one vocabulary and one boundary bias.

Shapes are chosen for what the rules need to be observable, not for realism:

* structures are tiny (a few KB above the fixed overhead), so thresholds are
  reached in a few puts;
* the two structures of an mq configuration are often *twins* (the same
  definition under another name), at the same or an adjacent CFLEVEL, with
  queues on both: a reading that differs between levels or between offload
  rules only shows when the same message meets both (CFLEVEL-002/003,
  OFFLOAD-002/004/012 mixed readings);
* each offload rule pair is the default, switched off (OFFLDnSZ 64K), always
  on (OFFLDnTH 0, OFFLDnSZ 0: the comparison at equality on an empty
  structure) or a boundary value (OFFLOAD-001..004, 012);
* queues often copy one template, so a shared and a private queue with the
  same depth and event settings meet the same puts (QDEPTH-006 readings);
* rarely, configurations sit at a topology limit: 510-512 queues on a
  structure, 61-63 application structures with or without CSQSYSAPPL, 32 queue
  managers (TOPOLOGY-003..006; 32 always, not 31 or 32: with 31 nothing is at the
  limit, and M-TOPOLOGY-006-a survived a seed whose few limit configurations all had 31).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from cfconform.reference_model.accounting import pool_totals
from cfconform.reference_model.config import Accounting, Config, QueueDef, StructureDef
from cfconform.reference_model.units import SIZE_100MB

from . import boundaries as b

T = TypeVar("T")
QMGR_NAMES = tuple(f"QM{i:02d}" for i in range(1, 33))
OFFLOAD_PAIR_SHAPES = ("default", "off", "always", "boundary")
ACCOUNTING = Accounting()


class Draw(Protocol):
    """A source of choices: Hypothesis's ``draw`` or a seeded ``random.Random``."""

    def pick(self, values: Sequence[T]) -> T:
        """One of ``values`` (earlier values are simpler: Hypothesis shrinks toward them)."""
        ...

    def chance(self, percent: int) -> bool:
        """True with probability ``percent``/100."""
        ...

    def integer(self, lo: int, hi: int) -> int:
        """An integer in ``lo..hi`` inclusive."""
        ...


def _offload_pairs(d: Draw) -> dict[str, Any]:
    """OFFLDnTH/OFFLDnSZ: each pair on its own, or all three pairs from an empty structure
    (OFFLDnTH 0: the comparison at equality) or at one shared threshold (the usage metric
    readings differ between the pairs only when they compare the same number).

    At a shared threshold the sizes are often in falling order, all rules on: then a message
    can pass rule 3's size alone, rules 2 and 3, or all three, so a reading that differs
    between the rules shows (OFFLOAD-012 mixed readings)."""
    mode = d.pick(("independent", "from empty", "shared threshold", "shared threshold"))
    if mode != "independent":
        threshold = 0 if mode == "from empty" else d.pick(b.SHARED_THRESHOLDS)
        fields = {f"offld{n}th": threshold for n in (1, 2, 3)}
        sizes = [d.pick(b.OFFLOAD_SIZES) for _ in (1, 2, 3)]
        if mode == "shared threshold" and d.chance(50):
            sizes = sorted((min(v, b.OFFLOAD_SIZES[-2]) for v in sizes), reverse=True)
        fields.update({f"offld{n}sz": v for n, v in zip((1, 2, 3), sizes, strict=True)})
        return fields
    fields = {}
    for n in (1, 2, 3):
        shape = d.pick(OFFLOAD_PAIR_SHAPES)
        if shape == "off":
            fields[f"offld{n}th"], fields[f"offld{n}sz"] = d.pick(b.THRESHOLDS), 64 * 1024
        elif shape == "always":
            fields[f"offld{n}th"], fields[f"offld{n}sz"] = 0, 0
        elif shape == "boundary":
            fields[f"offld{n}th"], fields[f"offld{n}sz"] = d.pick(b.THRESHOLDS), d.pick(b.OFFLOAD_SIZES)
    return fields


def _size_and_ratio(d: Draw) -> tuple[int, int]:
    """A tiny structure, usually with room for a few list entries at its ratio (a structure
    where nothing fits is a boundary too, but a rare one: every put on it fails alike)."""
    ratio = d.pick(b.RATIOS)
    sizes = b.SMALL_STRUCTURE_KB
    if d.chance(90):
        sizes = _roomy(sizes, ratio)
    return d.pick(sizes), ratio


@functools.cache
def _roomy(sizes: tuple[int, ...], ratio: int) -> tuple[int, ...]:
    """Those of ``sizes`` with room for at least 3 list entries at ``ratio`` (all of them if none
    has); worked out once per ratio, not once per structure drawn (5% of generating a trace)."""
    return tuple(kb for kb in sizes if pool_totals(kb, ratio, ACCOUNTING)[0] >= 3) or sizes


def mq_structure(d: Draw, name: str, cflevel: int) -> StructureDef:
    """One application structure at ``cflevel`` (offload rules and medium only matter at CFLEVEL(5))."""
    size_kb, ratio = _size_and_ratio(d)
    fields: dict[str, Any] = {
        "name": name, "cflevel": cflevel, "size_kb": size_kb,
        "ratio": ratio, "fullthreshold": d.pick(b.FULLTHRESHOLDS),
        # RECOVER(YES) below CFLEVEL(3) now and then: whether it may be defined is open (ibm-facts 2.6),
        # and only on such a structure do a persistent put (CFLEVEL-002) and BACKUP (RECOVERY-001) say
        # whether the CFLEVEL, not RECOVER(NO), refuses them (an implementation refusing it at open with
        # the keyword named is opened again with RECOVER(NO): judge.soften)
        "recover": d.chance(50) if cflevel >= 3 else d.chance(10),
    }  # fmt: skip
    if d.chance(50):
        fields["initsize_kb"] = max(b.SMALL_STRUCTURE_KB[0], size_kb - d.pick((0, 1, 2, 9, 50)))
    if cflevel == 5:
        fields.update(_offload_pairs(d))
        if d.chance(50):
            fields["offload"] = d.pick(("SMDS", "DB2"))
    return StructureDef(**fields)


def _levels(d: Draw, count: int) -> list[int]:
    """CFLEVELs: CFLEVEL(5) most often (offload), otherwise any; a second structure at the same or adjacent level."""
    first = d.pick((5, 5, 4, 3, 2, 1))
    levels = [first]
    for _ in range(count - 1):
        levels.append(d.pick((first, max(1, first - 1), min(5, first + 1), d.integer(1, 5))))
    return levels


def _twin(d: Draw, first: StructureDef, name: str, cflevel: int) -> StructureDef:
    """``first`` under another name, at ``cflevel`` (keeping what is valid there)."""
    import attrs

    changes: dict[str, Any] = {"name": name, "cflevel": cflevel, "recover": first.recover and cflevel >= 3}
    if cflevel < 5:
        changes["offload"] = None
    return attrs.evolve(first, **changes)


def mq_queue(d: Draw, name: str, template: dict[str, Any] | None, placement: dict[str, Any]) -> QueueDef:
    """A queue with the configuration's template settings, or (``template`` None) its own."""
    fields = dict(template) if template is not None else _queue_settings(d)
    return QueueDef(name=name, **placement, **fields)


def _queue_settings(d: Draw) -> dict[str, Any]:
    return {
        "maxdepth": d.pick(b.MAXDEPTHS), "maxmsgl": d.pick((4 * 1024 * 1024, 64 * 1024, SIZE_100MB)),
        "qdepthhi": d.pick(b.DEPTH_PERCENTS), "qdepthlo": d.pick(b.DEPTH_PERCENTS),
        "qdphiev": d.chance(60), "qdploev": d.chance(60), "qdpmaxev": d.chance(60),
    }  # fmt: skip


def mq_config(d: Draw) -> Config:
    """An mq-profile configuration: small structures and short queues, thresholds within reach."""
    qmgrs = QMGR_NAMES[: d.pick((1, 2, 1, 2, 3))] if not d.chance(5) else QMGR_NAMES
    count = d.pick((1, 2, 2))
    levels = _levels(d, count)
    first = mq_structure(d, "APP1", levels[0])
    structures = [first]
    for i, level in enumerate(levels[1:], start=2):
        twin = d.chance(50)
        structures.append(_twin(d, first, f"APP{i}", level) if twin else mq_structure(d, f"APP{i}", level))
    names = [s.name for s in structures]
    template = _queue_settings(d)
    uniform = d.chance(50)  # every queue alike: what differs between them is only shared or private
    queues = []
    for i in range(d.pick((1, 2, 3, 2))):
        if d.chance(80):
            where = names[i % len(names)] if d.chance(50) else d.pick(names)
            placement: dict[str, Any] = {"cfstruct": where, "qmgr": None}
        else:
            # often the last queue manager: the 32nd is the TOPOLOGY-006 boundary
            placement = {"cfstruct": None, "qmgr": qmgrs[-1] if d.chance(50) else d.pick(qmgrs)}
        queues.append(mq_queue(d, f"Q{i}", template if uniform or d.chance(50) else None, placement))
    if d.chance(25):  # a private twin of the first queue (QDEPTH readings that differ for shared queues)
        queues.append(mq_queue(d, "PRIVATE", template, {"cfstruct": None, "qmgr": qmgrs[0]}))
    queues += _filler_queues(d, names[0], sum(1 for q in queues if q.cfstruct == names[0]))
    structures += _filler_structures(d, len(structures))
    disabled = tuple(q for q in qmgrs[:3] if d.chance(15))
    return Config(
        profile="mq", qmgrs=qmgrs, structures=tuple(structures), queues=tuple(queues), perfmev_disabled=disabled
    )


def _filler_queues(d: Draw, structure: str, already: int) -> list[QueueDef]:
    """Sometimes, queues up to the 511th-512th on ``structure`` (TOPOLOGY-005: the 512th and 513th can be defined)."""
    if not d.chance(15):
        return []
    total = d.pick(b.QUEUE_TOTALS)
    return [_filler_queue(i, structure) for i in range(max(0, total - already))]


@functools.cache
def _filler_queue(i: int, structure: str) -> QueueDef:
    """Filler queue ``F<i>`` on ``structure``: one validated record, shared by every configuration
    that has it (records are immutable; validating 500 of them again for each trace cost more than
    the trace)."""
    return QueueDef(f"F{i}", cfstruct=structure)


@functools.cache
def _filler_structure(name: str) -> StructureDef:
    """Filler structure ``name``, validated once (see :func:`_filler_queue`)."""
    return StructureDef(name, size_kb=6200)


def _filler_structures(d: Draw, already: int) -> list[StructureDef]:
    """Sometimes, structures up to 62-63 in all, with or without CSQSYSAPPL (TOPOLOGY-003/004)."""
    if not d.chance(15):
        return []
    total = d.pick(b.STRUCTURE_TOTALS)
    fill = ["CSQSYSAPPL"] if d.chance(50) else []
    names = fill + [f"S{i}" for i in range(total - already - len(fill))]
    return [_filler_structure(n) for n in names]


def cqs_config(d: Draw) -> Config:
    """A cqs-profile configuration: one small primary, with or without an overflow structure."""
    resource = d.chance(10)  # a resource structure: no overflow at all (CQS-016)
    size_kb, ratio = _size_and_ratio(d)
    structure = StructureDef(
        "PRIM1", size_kb=size_kb,
        initsize_kb=size_kb if d.chance(50) else d.pick([v for v in b.SMALL_STRUCTURE_KB if v <= size_kb]),
        ratio=ratio, fullthreshold=d.pick((0, 80, 85)),
        ovflwmax=None if resource else d.pick(b.OVFLWMAX), resource=resource,
        ovflwstr="OVFL1" if d.chance(50) and not resource else None,
        ovflw_size_kb=d.pick((6146, 6151, 6200, 6400, 8192)),
    )  # fmt: skip
    queues = tuple(QueueDef(f"Q{i}", cfstruct="PRIM1") for i in range(d.pick((2, 1, 3, 4, 6))))
    vetoes = None if d.chance(50) else tuple(q.name for q in queues if d.chance(30))
    return Config(
        profile="cqs", qmgrs=("IMS1", "IMS2"), structures=(structure,), queues=queues,
        lgmsgsz=d.pick(b.LGMSGSZ), overflow_exit=vetoes,
    )  # fmt: skip
