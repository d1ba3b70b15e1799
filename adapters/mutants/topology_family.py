"""Mutants of the topology rules (TOPOLOGY-*), profile ``mq``: one row each (:func:`.kit.family`).

Reproducers start from a configuration already at a limit (63 structures, 512 queues, 32 queue managers) and make
one definition, or define one record that the model refuses.
"""

from __future__ import annotations

from typing import Any

from cfconform.reference_model.config import Config, QueueDef, StructureDef
from cfconform.reference_model.operations import DefineQueue, DefineStructure
from cfconform.reference_model.outcomes import CMD_INVALID

from .kit import family, lenient, refuse
from .mq_common import mq_config, one, put, qd


def _structures(n: int, *extra: str) -> Config:
    """An MQ group of ``n`` structures, ``S01``.. then ``extra``, and no queue."""
    names = [f"S{i:02d}" for i in range(1, n + 1 - len(extra))] + list(extra)
    return mq_config(*map(StructureDef, names), queues=())


def _sysappl_counted_twice(model: Any, op: DefineStructure) -> bool:
    name = op.structure["name"] if isinstance(op.structure, dict) else op.structure.name
    names = [*model.structures, name]
    return "CSQSYSAPPL" in names and len(names) > 62


_Q512 = tuple(QueueDef(f"Q{i}", cfstruct="APP1") for i in range(512))
_APP1 = StructureDef("APP1")

# fmt: off
MUTANTS = family(
    "TOPOLOGY",
    ("001-a", "DEFINE CFSTRUCT(CSQ_ADMIN) is accepted as an application structure.", one(),
     [DefineStructure({"name": "CSQ_ADMIN"})], lenient(DefineStructure, "TOPOLOGY-001")),
    ("001-b", "A queue may name CSQ_ADMIN as its CFSTRUCT.", one(),
     [DefineQueue({"name": "Q2", "cfstruct": "CSQ_ADMIN"})], lenient(DefineQueue, "TOPOLOGY-001")),
    ("003-a", "64 application structures are accepted (CSQ_ADMIN not counted).", _structures(63),
     [DefineStructure(StructureDef("S64"))], lenient(DefineStructure, "TOPOLOGY-003")),
    ("003-b", "Only 62 application structures are accepted.", _structures(62), [DefineStructure(StructureDef("S63"))],
     refuse(DefineStructure, lambda m, op: op.structure.name not in m.structures and len(m.structures) + 1 >= 63,
            CMD_INVALID, "TOPOLOGY-003")),
    ("004-a", "CSQSYSAPPL is not counted: 63 message structures are accepted beside it.",
     _structures(63, "CSQSYSAPPL"), [DefineStructure(StructureDef("S63"))], lenient(DefineStructure, "TOPOLOGY-004")),
    ("004-b", "CSQSYSAPPL is counted twice: only 61 message structures are accepted beside it.",
     _structures(62, "CSQSYSAPPL"), [DefineStructure(StructureDef("S62"))],
     refuse(DefineStructure, _sysappl_counted_twice, CMD_INVALID, "TOPOLOGY-004")),
    ("005-a", "A 513th queue is accepted on a structure.", mq_config(_APP1, queues=_Q512), [DefineQueue(qd("Q512"))],
     lenient(DefineQueue, "TOPOLOGY-005")),
    ("005-b", "The 512-queue limit is applied to the whole group, not per structure.",
     mq_config(_APP1, StructureDef("APP2"), queues=_Q512), [DefineQueue(qd("Q512", "APP2", maxdepth=5))],
     refuse(DefineQueue, lambda m, op: op.queue.cfstruct is not None
            and sum(1 for q in m.queues.values() if q.defn.cfstruct is not None) >= 512, CMD_INVALID, "TOPOLOGY-005")),
    ("006-a", "Only 31 queue managers can connect: the 32nd is never active.",
     mq_config(_APP1, queues=[qd()], qmgrs=tuple(f"QM{i:02d}" for i in range(1, 33))), [put(qmgr="QM32")],
     lambda m: [setattr(m.qmgrs[name], "active", False) for name in m.config.qmgrs[31:]] and None),
    ("009-a", "DEFINE CFSTRUCT of an existing name replaces the structure.", one(),
     [DefineStructure(StructureDef("APP1"))], lenient(DefineStructure, "TOPOLOGY-009")),
    ("009-b", "CFSTRUCT names longer than 12 characters are accepted.", one(),
     [DefineStructure({"name": "APPLICATION13"})],
     lenient(DefineStructure, "TOPOLOGY-009", when=lambda m, op: isinstance(op.structure, dict))),
    ("013-a", "A queue naming an undefined CFSTRUCT is accepted.", one(), [DefineQueue(qd("Q2", "APP9"))],
     lenient(DefineQueue, "TOPOLOGY-013", when=lambda m, op: op.queue.name not in m.queues)),
    ("013-b", "DEFINE QLOCAL of an existing queue name replaces the queue.", one(), [DefineQueue(qd("Q1"))],
     lenient(DefineQueue, "TOPOLOGY-013", when=lambda m, op: op.queue.name in m.queues)),
)
# fmt: on
