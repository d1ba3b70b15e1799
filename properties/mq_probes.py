"""The mq profile's definition and level probes: one documented boundary per call, then traffic that
shows whether the implementation kept to it.

Each names the sentences it aims at; the checker judges every step as usual (a definition the
documents do not require to succeed may be refused: the case then ends, not judged).
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import rule

from cfconform.reference_model import operations as o
from cfconform.reference_model.units import KB, SIZE_63K
from cfconform.reference_model.validation import MAX_QUEUES_PER_STRUCTURE as QUEUES_PER_STRUCTURE
from cfconform.reference_model.validation import MAX_STRUCTURES_PER_QSG

from .base import INDEX
from .mq_offload import MQOffload

#: DEFINE CFSTRUCT names at the naming rule's edges (TOPOLOGY-001/002: at most 12 characters, an
#: uppercase letter first, then letters and digits; CSQ_ADMIN reserved; CSQSYSAPPL allowed).
STRUCTURE_NAMES = ("ABCDEFGHIJKL", "ABCDEFGHIJKLM", "A1", "1APP", "APP_1", "app1", "CSQ_ADMIN", "CSQSYSAPPL")
#: DEFINE QLOCAL CFSTRUCT values that name no structure that can hold messages (TOPOLOGY-002, 009).
NO_STRUCTURE = ("NOPE", "CSQ_ADMIN")
#: Keywords an ALTER CFSTRUCT names alone after the offload rules are set (OFFLOAD-013: the rest stay).
OTHER_KEYWORDS = (("offld2th", 85), ("offld3sz", 0), ("cflevel", 5), ("recover", True), ("offload", "SMDS"))
#: Message lengths each level probe puts: small, and just over 63 KB (CFLEVEL-002..005).
LEVEL_LENGTHS = (100, SIZE_63K + 1)


class MQProbes(MQOffload):
    """Probes of definitions, CFLEVELs and ALTER CFSTRUCT, each a rule of its own."""

    @rule(name=st.sampled_from(STRUCTURE_NAMES))
    def structure_name_probe(self, name: str) -> None:
        """DEFINE CFSTRUCT with a name at an edge of the naming rule, then (if it was accepted) a
        queue on it and a message (TOPOLOGY-001/002)."""
        self._do(o.DefineStructure({"name": name, "size_kb": 6400}))
        self._use(name, 100, False)

    @rule(cfstruct=st.sampled_from(NO_STRUCTURE))
    def queue_without_structure_probe(self, cfstruct: str) -> None:
        """DEFINE QLOCAL on a structure that is not defined, or on CSQ_ADMIN (which holds no messages)."""
        self._do(o.DefineQueue({"name": f"N{len(self.model.queues)}", "cfstruct": cfstruct, "maxdepth": 5}))

    @rule(
        m=INDEX,
        level=st.integers(1, 5),
        recover=st.booleans(),
        rules=st.sampled_from(("default", "always", "smds", "db2")),
    )
    def level_probe(self, m: int, level: int, recover: bool, rules: str) -> None:
        """A structure at one CFLEVEL with RECOVER(YES|NO), and offload rules that offload every
        message or an OFFLOAD destination (valid only from CFLEVEL(5)); a queue on it; a small and a
        large message, persistent and not (CFLEVEL-002..006, OFFLOAD-007); BACKUP CFSTRUCT (CFLEVEL 3,
        RECOVER(YES): RECOVERY-001) and RECOVER CFSTRUCT of the structure that has not failed
        (RECOVERY-003)."""
        name = f"LVL{level}{'R' if recover else 'N'}{rules[0].upper()}"
        extra = {
            "default": {},
            "always": {"offld1th": 0, "offld1sz": 0},
            "smds": {"offload": "SMDS"},
            "db2": {"offload": "DB2"},
        }[rules]
        self._do(o.DefineStructure({"name": name, "size_kb": 6400, "cflevel": level, "recover": recover, **extra}))
        for length in LEVEL_LENGTHS:
            for persistent in (False, True):
                self._use(name, length, persistent)
        if name in self.model.structures:
            self._do(o.Backup(self._qmgr(m), name))
            self._do(o.Recover(name, False))

    @rule(m=INDEX, other=st.sampled_from(OTHER_KEYWORDS))
    def alter_keeps_probe(self, m: int, other: tuple[str, object]) -> None:
        """Set offload rule 1 to OFFLD1TH(0) OFFLD1SZ(1K) on an emptied CFLEVEL(5) structure, ALTER
        one other keyword alone, then put 1 KB + 1: rule 1 still offloads it ("keywords not named
        keep their values", OFFLOAD-013, OFFLOAD-002)."""
        queue = self._queue_at_cflevel(5)
        if queue is None:
            return
        name = self.model.queues[queue].defn.cfstruct
        self._empty_structure(m, name)  # type: ignore[arg-type]
        self._do(o.AlterStructure(name, {"offld1th": 0, "offld1sz": 1 * KB}))
        self._do(o.AlterStructure(name, {other[0]: other[1]}))
        self._use(name, 1 * KB + 1, False)  # type: ignore[arg-type]

    @rule(extra=st.sampled_from((1, 2)))
    def queue_limit_probe(self, extra: int) -> None:
        """Define shared queues on the structure with most queues until it holds 512, then
        ``extra`` more: the 512th is accepted, the 513th refused (TOPOLOGY-005)."""
        structure = self._busiest_structure()
        held = sum(1 for q in self.model.queues.values() if q.defn.cfstruct == structure)
        for i in range(max(0, QUEUES_PER_STRUCTURE - held) + extra):
            self._do(o.DefineQueue({"name": f"L{i}", "cfstruct": structure, "maxdepth": 5}))
            if self.halted:
                return

    @rule(sysappl=st.booleans(), extra=st.sampled_from((1, 2)))
    def structure_limit_probe(self, sysappl: bool, extra: int) -> None:
        """Define application structures (CSQSYSAPPL first, if ``sysappl``) until there are 63, then
        ``extra`` more (TOPOLOGY-003/004: 63 beside CSQ_ADMIN, CSQSYSAPPL among them)."""
        if sysappl and "CSQSYSAPPL" not in self.model.structures:
            self._do(o.DefineStructure({"name": "CSQSYSAPPL", "size_kb": 6400}))
        for i in range(max(0, MAX_STRUCTURES_PER_QSG - 1 - len(self.model.structures)) + extra):
            self._do(o.DefineStructure({"name": f"LIM{i}", "size_kb": 6400}))
            if self.halted:
                return

    def _use(self, structure: str, length: int, persistent: bool) -> None:
        """Put one message to a queue on ``structure`` (defining the queue if there is none)."""
        if structure not in self.model.structures:
            return
        queue = next((n for n, q in self.model.queues.items() if q.defn.cfstruct == structure), None)
        if queue is None:
            queue = f"Q{structure}"
            self._do(o.DefineQueue({"name": queue, "cfstruct": structure}))
            if queue not in self.model.queues:
                return
        owner = self.model.queues[queue].defn.qmgr or self._qmgr(0)
        self._do(o.Put(owner, queue, length, persistent, False, len(self.ops)))
