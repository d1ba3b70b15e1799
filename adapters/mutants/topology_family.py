"""Mutants of the topology rules (TOPOLOGY-*), profile ``mq``.

Reproducers start from a configuration already at a limit (63 structures, 512
queues, 32 queue managers) and make one definition, or define one record that
the model refuses.
"""

from __future__ import annotations

from typing import Any

from cfconform.reference_model.config import Config, QueueDef, StructureDef
from cfconform.reference_model.model import Model
from cfconform.reference_model.operations import (
    DefineQueue,
    DefineStructure,
)
from cfconform.reference_model.outcomes import (
    CMD_INVALID,
    Outcome,
)

from .kit import (
    Mutant,
    as_structure_def,
    define_queue_unchecked,
    define_structure_unchecked,
    lenient,
    mutant,
    pre,
    setup,
)
from .mq_common import mq_config, put, qd, sd


def _limit_63_incl_admin(model: Model, op: DefineStructure) -> Outcome | None:
    if op.structure.name not in model.structures and len(model.structures) + 1 >= 63:
        return Outcome("define_structure", False, CMD_INVALID, ("TOPOLOGY-003",))
    return None


def _sysappl_counted_twice(model: Model, op: DefineStructure) -> Outcome | None:
    names = [*model.structures, as_structure_def(op.structure).name]
    if "CSQSYSAPPL" in names and len(names) > 62:
        return Outcome("define_structure", False, CMD_INVALID, ("TOPOLOGY-004",))
    return None


def _queue_limit_per_group(model: Model, op: DefineQueue) -> Outcome | None:
    shared = sum(1 for q in model.queues.values() if q.defn.cfstruct is not None)
    if op.queue.cfstruct is not None and shared >= 512:
        return Outcome("define_queue", False, CMD_INVALID, ("TOPOLOGY-005",))
    return None


def _only_31_connect(model: Model) -> None:
    for name in model.config.qmgrs[31:]:
        model.qmgrs[name].active = False


def _structures(n: int, *extra: str) -> tuple[StructureDef, ...]:
    return tuple(StructureDef(f"S{i:02d}") for i in range(1, n + 1 - len(extra))) + tuple(
        StructureDef(x) for x in extra
    )


def _topology(structures: tuple[StructureDef, ...], queues: tuple[QueueDef, ...] = (), **kw: Any) -> Config:
    return Config(qmgrs=kw.pop("qmgrs", ("QM01",)), structures=structures, queues=queues, **kw)


MUTANTS: tuple[Mutant, ...] = (
    # TOPOLOGY-001: CSQ_ADMIN holds no messages
    mutant(
        "M-TOPOLOGY-001-a",
        "DEFINE CFSTRUCT(CSQ_ADMIN) is accepted as an application structure.",
        mq_config(sd()),
        [DefineStructure({"name": "CSQ_ADMIN"})],
        lenient(DefineStructure, "TOPOLOGY-001", define_structure_unchecked),
    ),
    mutant(
        "M-TOPOLOGY-001-b",
        "A queue may name CSQ_ADMIN as its CFSTRUCT.",
        mq_config(sd()),
        [DefineQueue({"name": "Q2", "cfstruct": "CSQ_ADMIN"})],
        lenient(DefineQueue, "TOPOLOGY-001", define_queue_unchecked),
    ),
    # TOPOLOGY-003: at most 63 application structures
    mutant(
        "M-TOPOLOGY-003-a",
        "64 application structures are accepted (CSQ_ADMIN not counted).",
        _topology(_structures(63)),
        [DefineStructure(StructureDef("S64"))],
        lenient(DefineStructure, "TOPOLOGY-003", define_structure_unchecked),
    ),
    mutant(
        "M-TOPOLOGY-003-b",
        "Only 62 application structures are accepted.",
        _topology(_structures(62)),
        [DefineStructure(StructureDef("S63"))],
        pre(DefineStructure, _limit_63_incl_admin),
    ),
    # TOPOLOGY-004: at most 62 with CSQSYSAPPL
    mutant(
        "M-TOPOLOGY-004-a",
        "CSQSYSAPPL is not counted: 63 message structures are accepted beside it.",
        _topology(_structures(63, "CSQSYSAPPL")),
        [DefineStructure(StructureDef("S63"))],
        lenient(DefineStructure, "TOPOLOGY-004", define_structure_unchecked),
    ),
    mutant(
        "M-TOPOLOGY-004-b",
        "CSQSYSAPPL is counted twice: only 61 message structures are accepted beside it.",
        _topology(_structures(62, "CSQSYSAPPL")),
        [DefineStructure(StructureDef("S62"))],
        pre(DefineStructure, _sysappl_counted_twice),
    ),
    # TOPOLOGY-005: at most 512 queues per structure
    mutant(
        "M-TOPOLOGY-005-a",
        "A 513th queue is accepted on a structure.",
        _topology((StructureDef("APP1"),), tuple(QueueDef(f"Q{i}", cfstruct="APP1") for i in range(512))),
        [DefineQueue(qd("Q512"))],
        lenient(DefineQueue, "TOPOLOGY-005", define_queue_unchecked),
    ),
    mutant(
        "M-TOPOLOGY-005-b",
        "The 512-queue limit is applied to the whole group, not per structure.",
        _topology(
            (StructureDef("APP1"), StructureDef("APP2")), tuple(QueueDef(f"Q{i}", cfstruct="APP1") for i in range(512))
        ),
        [DefineQueue(qd("Q512", "APP2"))],
        pre(DefineQueue, _queue_limit_per_group),
    ),
    # TOPOLOGY-006: up to 32 queue managers connected
    mutant(
        "M-TOPOLOGY-006-a",
        "Only 31 queue managers can connect: the 32nd is never active.",
        _topology((StructureDef("APP1"),), (qd(),), qmgrs=tuple(f"QM{i:02d}" for i in range(1, 33))),
        [put(qmgr="QM32")],
        setup(_only_31_connect),
    ),
    # TOPOLOGY-009: CFSTRUCT names unique
    mutant(
        "M-TOPOLOGY-009-a",
        "DEFINE CFSTRUCT of an existing name replaces the structure.",
        mq_config(sd()),
        [DefineStructure(StructureDef("APP1"))],
        lenient(DefineStructure, "TOPOLOGY-009", define_structure_unchecked),
    ),
    mutant(
        "M-TOPOLOGY-009-b",
        "CFSTRUCT names longer than 12 characters are accepted.",
        mq_config(sd()),
        [DefineStructure({"name": "APPLICATION13"})],
        lenient(
            DefineStructure,
            "TOPOLOGY-009",
            define_structure_unchecked,
            when=lambda m, op: isinstance(op.structure, dict),
        ),
    ),
    # TOPOLOGY-013: a shared queue names a defined CFSTRUCT; queue names unique
    mutant(
        "M-TOPOLOGY-013-a",
        "A queue naming an undefined CFSTRUCT is accepted.",
        mq_config(sd()),
        [DefineQueue(qd("Q2", "APP9"))],
        lenient(DefineQueue, "TOPOLOGY-013", define_queue_unchecked, when=lambda m, op: op.queue.name not in m.queues),
    ),
    mutant(
        "M-TOPOLOGY-013-b",
        "DEFINE QLOCAL of an existing queue name replaces the queue.",
        mq_config(sd()),
        [DefineQueue(qd("Q1"))],
        lenient(DefineQueue, "TOPOLOGY-013", define_queue_unchecked, when=lambda m, op: op.queue.name in m.queues),
    ),
)
