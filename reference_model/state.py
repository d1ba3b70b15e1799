"""Mutable state records the model steps over.

The model mutates these in place for speed (benchmarks/model_steps.py); anything
that needs the old state takes :meth:`cfconform.reference_model.model.Model.copy` first.
They never leave the model: observers see :meth:`Model.project` and outcomes.
"""

from __future__ import annotations

from typing import Any

from .accounting import pool_totals
from .config import Accounting, QueueDef, StructureDef


class Message:
    """One message (MQ) or data object (CQS) on a queue."""

    __slots__ = (
        "cost",
        "elements",
        "length",
        "locked",
        "offloaded",
        "on_overflow",
        "persistent",
        "seq",
        "staged",
        "tag",
        "uncommitted",
    )

    def __init__(
        self, seq: int, tag: int, length: int, persistent: bool, offloaded: bool, elements: int, uncommitted: bool
    ) -> None:
        self.seq = seq
        self.tag = tag
        self.length = length
        self.persistent = persistent
        self.offloaded = offloaded
        self.elements = elements
        self.uncommitted = uncommitted
        self.locked = False
        self.on_overflow = False
        self.staged: tuple[int, ...] = ()
        #: (entries, elements) the implementation reported this data object added (checker mode).
        self.cost: tuple[int, int] | None = None

    def clone(self) -> Message:
        m = Message(self.seq, self.tag, self.length, self.persistent, self.offloaded, self.elements, self.uncommitted)
        m.locked = self.locked
        m.on_overflow = self.on_overflow
        m.staged = self.staged
        m.cost = self.cost
        return m


class Pools:
    """Entries and elements in use and offered by one structure."""

    __slots__ = ("elements_total", "elements_used", "entries_total", "entries_used")

    def __init__(self, size_kb: int, ratio: int, acct: Accounting) -> None:
        self.entries_used = 0
        self.elements_used = 0
        self.entries_total, self.elements_total = pool_totals(size_kb, ratio, acct)

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.entries_used, self.entries_total, self.elements_used, self.elements_total)

    def clone(self) -> Pools:
        p = Pools.__new__(Pools)
        p.entries_used, p.entries_total = self.entries_used, self.entries_total
        p.elements_used, p.elements_total = self.elements_used, self.elements_total
        return p


class Structure:
    """A CF application structure (MQ) or a CQS primary structure."""

    __slots__ = (
        "alter_pending",
        "alter_unseen",
        "approvals",
        "backup_taken",
        "combined_weights",
        "costs_seen",
        "defn",
        "failed",
        "failure_snapshot",
        "full_due_since",
        "full_lagging",
        "full_off_unsaid",
        "full_warning",
        "offload_open",
        "offload_plan",
        "overflow_base",
        "overflow_mode",
        "overflow_pools",
        "overflow_queues",
        "overflow_seen",
        "overflow_start",
        "pick_due",
        "pools",
        "relief_since",
        "relief_unseen",
        "round_unseen",
        "selection_by_costs",
        "selection_costs",
        "selection_open",
        "selection_scanned",
        "selection_shown",
        "size_kb",
        "size_known",
        "size_range",
        "staging_depth",
    )

    def __init__(self, defn: StructureDef, acct: Accounting) -> None:
        self.defn = defn
        self.size_kb = defn.effective_initsize_kb
        #: False after a change of size the implementation chose (a CQS alter completed inside a put).
        self.size_known = True
        #: While the size is unknown: the sizes it may be (None: any from 1 to SIZE).
        self.size_range: tuple[int, int] | None = None
        #: CQS: the candidates (name -> lengths, longest first) of a selection the implementation has
        #: not shown yet (it reports no CQS signals); None once shown.
        self.selection_open: dict[str, list[int]] | None = None
        self.selection_costs: dict[str, tuple[int, int]] | None = None
        #: Whether the open selection was made on the implementation's costs (else on the model's
        #: own accounting, and a queue left out of it is the implementation's to leave out).
        self.selection_by_costs = False
        self.selection_shown: set[str] = set()  # queues the implementation showed selected so far
        #: A scan has taken the emptied candidates out: what the selection was can no longer be
        #: judged, only that what remains selected is among the candidates left.
        self.selection_scanned = False
        #: CQS: the implementation's usage when overflow mode started (checker mode).
        self.overflow_seen: tuple[int, int, int, int] | None = None
        #: CQS: whether the selection must take a queue (usage as overflow mode started was above the
        #: target, or may have been: see cqs._pick_due).
        self.pick_due = True
        #: (length, entries, elements) each accepted whole put added, as the implementation reported
        #: it, while the structure's totals stay as they were (checker mode; see Model.room).
        self.costs_seen: list[tuple[int, int, int]] = []
        self.pools = Pools(self.size_kb, defn.ratio, acct)
        #: The offload rules of ``defn`` as the MQ put reads them (reference_model.offload._plan).
        self.offload_plan: Any = None
        #: OFFLOAD-006: CFLEVEL fell below 5 by an ALTER not naming OFFLOAD: whether the OFFLOAD
        #: attribute is kept (ALTER leaves it unchanged) or lapses (it has no meaning there) is not
        #: documented, so where the data goes is not judged until an ALTER names OFFLOAD again.
        self.offload_open = False
        #: Checker mode, ``combined`` usage reading (OFFLOAD-012): the ratios of the implementation's
        #: entry cost to its element cost its offload decisions so far allow (reference_model.combined).
        self.combined_weights: tuple[float, float] = (0.0, float("inf"))
        self.failed = False
        #: Whether a BACKUP CFSTRUCT counts for RECOVER TYPE(NORMAL); None: one taken before a
        #: TYPE(PURGE), which no document decides (reference_model.mq._purged).
        self.backup_taken: bool | None = False
        self.failure_snapshot: dict[str, list[Message]] = {}
        self.full_warning = False
        #: Checker mode, ``deferred`` reading: the virtual time since which the implementation's usage has
        #: called for IXC585E/IXC586I without the message (None: nothing pending).
        self.full_due_since: int | None = None
        #: Checker mode: an IXC585E warning ended where no document says whether z/OS issues IXC586I
        #: (the structure failed, or monitoring was switched off): it may still come, later.
        self.full_off_unsaid = False
        #: Checker mode: an IXC586I due after CQS moved queues off the structure within a CQSPUT, not
        #: said there: it may come at a later step, as under the ``deferred`` reading (CAPACITY-003).
        self.full_lagging = False
        self.alter_pending = False
        #: CQS, checker mode: a CQSPUT may have reached OVFLWMAX and started an alter the
        #: implementation did not show (it reports neither the usage nor CQS's signals).
        self.alter_unseen = False
        #: CQS: the queues some Queue Overflow exit installed during this overflow mode approved
        #: (None while the exit has not changed since it began: the current exit's approvals hold).
        self.approvals: set[str] | None = None
        #: CQS, checker mode, no OVFLWSTR: a CQSDEL may have brought usage 20% below the threshold
        #: and ended overflow mode unseen (the implementation reports neither usage nor CQS signals).
        self.relief_unseen = False
        #: CQS, checker mode, no OVFLWSTR: the virtual time usage fell 20% below the threshold with
        #: overflow mode not (yet) ended: it may end then or up to one scan later (ibm-facts 1.5).
        self.relief_since: int | None = None
        #: CQS, checker mode, ``cqs_reselect=select``, no CQS signals shown: a CQSPUT in this overflow
        #: mode may have reached OVFLWMAX again and run a selection round the implementation did not show.
        self.round_unseen = False
        self.overflow_mode = False
        self.overflow_queues: set[str] = set()
        self.overflow_pools: Pools | None = None
        self.overflow_start = 0
        self.overflow_base = 0.0
        self.staging_depth = 0

    def clone(self) -> Structure:
        s = Structure.__new__(Structure)
        for name in Structure.__slots__:
            setattr(s, name, getattr(self, name))
        s.pools = self.pools.clone()
        s.overflow_pools = self.overflow_pools.clone() if self.overflow_pools else None
        s.overflow_queues = set(self.overflow_queues)
        s.selection_open = dict(self.selection_open) if self.selection_open is not None else None
        s.selection_shown = set(self.selection_shown)
        s.approvals = set(self.approvals) if self.approvals is not None else None
        s.costs_seen = list(self.costs_seen)
        s.failure_snapshot = {q: [m.clone() for m in ms] for q, ms in self.failure_snapshot.items()}
        return s


_NONE: frozenset[str] = frozenset()


class Queue:
    """A queue, its messages in put order, its event switches and statistics."""

    __slots__ = (
        "defn",
        "depth",
        "from_reset",
        "hi",
        "lo",
        "max",
        "msgs",
        "recovery",
        "recovery_left",
        "reset",
        "stats",
    )

    def __init__(self, defn: QueueDef) -> None:
        self.defn = defn
        self.msgs: list[Message] = []
        self.depth = 0
        self.hi = defn.qdphiev
        self.lo = defn.qdploev
        self.max = defn.qdpmaxev
        self.stats: dict[str, list[int]] = {}
        #: Queue managers whose statistics RESET QSTATS restarted since their last event message, and
        #: whether the last event's messages counted from such a reset (QDEPTH-017 decided them).
        self.reset: frozenset[str] = _NONE
        self.from_reset = False
        #: After RECOVER CFSTRUCT: the recovery rules that decide what the next gets find, for
        #: ``recovery_left`` more gets (what was restored, and one more).
        self.recovery: tuple[str, ...] = ()
        self.recovery_left = 0

    def clone(self) -> Queue:
        q = Queue.__new__(Queue)
        q.defn, q.depth, q.hi, q.lo, q.max = self.defn, self.depth, self.hi, self.lo, self.max
        q.recovery, q.recovery_left = self.recovery, self.recovery_left
        q.reset, q.from_reset = self.reset, self.from_reset
        q.msgs = [m.clone() for m in self.msgs]
        q.stats = {k: list(v) for k, v in self.stats.items()}
        return q


class Qmgr:
    """A queue manager (MQ) or CQS client: activity, PERFMEV and its unit of work."""

    __slots__ = ("active", "name", "perfmev", "uow")

    def __init__(self, name: str, perfmev: bool) -> None:
        self.name = name
        self.active = True
        self.perfmev = perfmev
        self.uow: list[tuple[str, str, int]] = []

    def clone(self) -> Qmgr:
        q = Qmgr(self.name, self.perfmev)
        q.active = self.active
        q.uow = list(self.uow)
        return q
