"""Hypothesis strategies for configurations and operation arguments.

Plural names, Hypothesis house style.  Values lean toward the documented
boundaries in :mod:`properties.boundaries`; swarm-style rule selection is
Hypothesis's own (each test case disables a random subset of rules).
"""

from __future__ import annotations

from hypothesis import strategies as st

from properties import boundaries as b
from reference_model.config import Config, QueueDef, StructureDef
from reference_model.units import SIZE_100MB

QMGR_NAMES = ("QM01", "QM02", "QM03")


def lengths(max_value: int = SIZE_100MB) -> st.SearchStrategy[int]:
    """Message lengths: mostly documented boundaries, sometimes anything."""
    edges = [v for v in b.MQ_LENGTHS if v <= max_value]
    return st.one_of(st.sampled_from(edges), st.integers(0, min(max_value, 70_000)))


def thresholds() -> st.SearchStrategy[int]:
    return st.one_of(st.sampled_from(b.THRESHOLDS), st.integers(0, 100))


def offload_sizes() -> st.SearchStrategy[int]:
    return st.sampled_from(b.OFFLOAD_SIZES)


@st.composite
def mq_structures(draw: st.DrawFn, name: str) -> StructureDef:
    cflevel = draw(st.integers(1, 5))
    fields: dict = {
        "name": name, "cflevel": cflevel,
        "size_kb": draw(st.sampled_from(b.SMALL_STRUCTURE_KB)),
        "ratio": draw(st.sampled_from(b.RATIOS)),
        "fullthreshold": draw(st.sampled_from((0, 50, 80, 85, 100))),
        "recover": cflevel >= 3 and draw(st.booleans()),
    }  # fmt: skip
    if draw(st.booleans()):
        fields["initsize_kb"] = fields["size_kb"] - draw(st.sampled_from((0, 1, 2, 50)))
    if cflevel == 5:
        for n in (1, 2, 3):
            if draw(st.booleans()):
                fields[f"offld{n}th"] = draw(thresholds())
                fields[f"offld{n}sz"] = draw(offload_sizes())
        if draw(st.booleans()):
            fields["offload"] = draw(st.sampled_from(("SMDS", "DB2")))
    return StructureDef(**fields)


@st.composite
def mq_queues(draw: st.DrawFn, name: str, structures: list[str], qmgrs: tuple[str, ...]) -> QueueDef:
    shared = draw(st.integers(0, 4)) > 0
    return QueueDef(
        name=name,
        cfstruct=draw(st.sampled_from(structures)) if shared else None,
        qmgr=None if shared else draw(st.sampled_from(qmgrs)),
        maxdepth=draw(st.sampled_from(b.MAXDEPTHS)),
        maxmsgl=draw(st.sampled_from((64 * 1024, 4 * 1024 * 1024, SIZE_100MB))),
        qdepthhi=draw(st.sampled_from(b.DEPTH_PERCENTS)),
        qdepthlo=draw(st.sampled_from(b.DEPTH_PERCENTS)),
        qdphiev=draw(st.booleans()), qdploev=draw(st.booleans()), qdpmaxev=draw(st.booleans()),
    )  # fmt: skip


@st.composite
def mq_configs(draw: st.DrawFn) -> Config:
    """An mq-profile configuration with small structures and short queues (thresholds within reach)."""
    qmgrs = QMGR_NAMES[: draw(st.integers(1, 3))]
    names = [f"APP{i}" for i in range(1, draw(st.integers(1, 2)) + 1)]
    structures = tuple(draw(mq_structures(n)) for n in names)
    queues = tuple(draw(mq_queues(f"Q{i}", names, qmgrs)) for i in range(draw(st.integers(1, 3))))
    fillers = draw(st.sampled_from(b.QUEUE_FILLERS)) if draw(st.integers(0, 9)) == 0 else 0
    fillers = min(fillers, 512 - sum(1 for q in queues if q.cfstruct == names[0]))
    queues += tuple(QueueDef(f"F{i}", cfstruct=names[0]) for i in range(fillers))
    if draw(st.integers(0, 9)) == 0:  # near the 63-structure limit (TOPOLOGY-003/004)
        extra = draw(st.sampled_from((60, 61, 62))) - len(structures)
        fill = ("CSQSYSAPPL",) if draw(st.booleans()) else ()
        structures += tuple(StructureDef(n, size_kb=6200) for n in (*fill, *(f"S{i}" for i in range(extra))))
    disabled = tuple(q for q in qmgrs if draw(st.booleans()))
    return Config(profile="mq", qmgrs=qmgrs, structures=structures, queues=queues, perfmev_disabled=disabled)


@st.composite
def cqs_configs(draw: st.DrawFn) -> Config:
    """A cqs-profile configuration: one small primary, with or without an overflow structure."""
    resource = draw(st.integers(0, 9)) == 0  # a resource structure: no overflow at all (CQS-016)
    ovflwstr = "OVFL1" if draw(st.booleans()) and not resource else None
    size_kb = draw(st.sampled_from(b.SMALL_STRUCTURE_KB))
    structure = StructureDef(
        "PRIM1", size_kb=size_kb,
        initsize_kb=draw(st.sampled_from([v for v in b.SMALL_STRUCTURE_KB if v <= size_kb])),
        ratio=draw(st.sampled_from(b.RATIOS)),
        fullthreshold=draw(st.sampled_from((0, 80, 85))),
        ovflwmax=None if resource else draw(st.sampled_from(b.OVFLWMAX)), resource=resource,
        ovflwstr=ovflwstr, ovflw_size_kb=draw(st.sampled_from((6146, 6151, 6200, 6400, 8192))),
    )  # fmt: skip
    queues = tuple(QueueDef(f"Q{i}", cfstruct="PRIM1") for i in range(draw(st.integers(1, 4))))
    vetoes = draw(st.one_of(st.none(), st.lists(st.sampled_from([q.name for q in queues]), unique=True)))
    return Config(
        profile="cqs", qmgrs=("IMS1", "IMS2"), structures=(structure,), queues=queues,
        lgmsgsz=draw(st.sampled_from(b.LGMSGSZ)),
        overflow_exit=None if vetoes is None else tuple(vetoes),
    )  # fmt: skip


def configs(profile: str) -> st.SearchStrategy[Config]:
    return mq_configs() if profile == "mq" else cqs_configs()
