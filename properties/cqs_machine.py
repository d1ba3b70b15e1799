"""The cqs-profile state machine: CQSPUT/CQSREAD, the alter, overflow mode and the 15-minute scan."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import initialize, precondition, rule

from cfconform.reference_model import operations as o
from cfconform.reference_model.accounting import pool_totals
from cfconform.reference_model.config import Config

from . import admin_fields as af
from . import boundaries as b
from .base import INDEX, MAX_FILL, ProfiledMachine
from .strategies import configs

CQS_ADMIN = ("inspect", "set_overflow_exit", "define_structure", "setxcf_alter", "unsolicited_alter_outcome")
#: Negative values are boundaries relative to LGMSGSZ (lg-1, lg, lg+1, 2lg+1); small values move usage in
#: small steps (the 60/70/80% bands of CQS-001), large ones in big ones.
CQS_LENGTHS = st.one_of(
    st.sampled_from((-1, -2, -3, -4)), st.sampled_from((0, 1, 100, 256, 600, 1000, 1152, 4000)), st.integers(0, 40_000)
)
#: How an alter outcome's size relates to the structure: unchanged, grown (within SIZE) or beyond SIZE (CAPACITY-005).
ALTER_GROWTH = st.sampled_from((0, 1, 100, 1000, "beyond"))
SCAN_SECONDS = 900
#: Puts at most for each half of the usage-metric probe: a structure of the generated sizes has at
#: most a few hundred list entries at the ratios where entry usage can lead.
PROBE_FILL = 200
#: How an overflow cycle changes the Queue Overflow exit first (CQS-009/010).
EXIT_CHANGES = ("keep", "remove", "veto one", "veto others")
#: Percent of the primary's elements one message of an overflow cycle uses.
SHARES = (5, 10, 2, 20)
SCAN_ANCHORS = ("clock", "overflow start")
#: Clock targets relative to the next scan: a third early (a 10-minute scan), around it, a whole interval late.
SCAN_DELTAS = (-300, -1, 0, 1, SCAN_SECONDS)


class CQSMachine(ProfiledMachine):
    """The cqs profile."""

    def _settled(self) -> bool:
        """No alter pending and no structure in overflow mode: a probe can start from here."""
        return not any(s.alter_pending or s.overflow_mode for s in self.model.structures.values())

    @initialize(config=configs("cqs"))
    def open(self, config: Config) -> None:
        self._open(config)
        # the implementation's usage of each structure from the start: what each CQSPUT adds is then
        # seen, and CQS selection is judged on the implementation's own figures (cfconform.judge.relations)
        self._do(o.Inspect())

    def _put(self, m: int, q: int, length: int) -> None:
        if length < 0:  # a boundary relative to LGMSGSZ: lg-1, lg, lg+1, 2lg+1
            lg = self.model.lgmsgsz
            length = (lg - 1, lg, lg + 1, 2 * lg + 1)[-length - 1]
        self._do(o.Put(self._qmgr(m), self._queue(q), length, tag=len(self.ops)))

    @rule(m=INDEX, q=INDEX, length=CQS_LENGTHS)
    def put(self, m: int, q: int, length: int) -> None:
        self._put(m, q, length)

    @rule(m=INDEX, q=INDEX, length=CQS_LENGTHS)
    def put_more(self, m: int, q: int, length: int) -> None:
        self._put(m, q, length)

    @rule(m=INDEX, q=INDEX)
    def get(self, m: int, q: int) -> None:
        self._do(o.Get(self._qmgr(m), self._queue(q)))

    @rule(m=INDEX, q=INDEX, length=CQS_LENGTHS, pattern=st.sampled_from(("same", "spread", "alternate", "round")))
    def fill(self, m: int, q: int, length: int, pattern: str) -> None:
        """Boundary targeting: put until CQS starts an alter (OVFLWMAX reached) or a put is refused.

        ``spread``: the puts go round the queues with growing lengths, so the queues end up
        using different amounts of space (the selection order of CQS-006/007); ``round``: the
        same message round the queues, so several must be selected (CQS-007).  ``alternate``:
        ``length``-byte and empty data objects in turn, so entry and element usage drift apart
        and reads change them unevenly (the usage metric readings of CQS-020).
        """
        for i in range(MAX_FILL):
            if not self._settled():
                return
            if pattern == "spread":
                self._put(m, q + i, max(length, 0) * (1 + i % 3))
            elif pattern == "round":
                self._put(m, q + i, length)
            else:
                self._put(m, q, 0 if pattern == "alternate" and i % 2 else length)
            if not self._last_ok():
                return

    @rule(m=INDEX, q=INDEX)
    def drain(self, m: int, q: int) -> None:
        """Read every data object of a queue, down to empty (what the overflow scan looks for)."""
        for _ in range(MAX_FILL):
            self._do(o.Get(self._qmgr(m), self._queue(q)))
            if not self._last_ok():
                return

    @rule(
        m=INDEX,
        q=INDEX,
        share=st.sampled_from(SHARES),
        exit_change=st.sampled_from(EXIT_CHANGES),
        pattern=st.sampled_from(("round", "round", "same", "spread")),
        then=st.sampled_from(("scan one", "nothing", "scan all")),
    )
    def overflow_cycle(self, m: int, q: int, share: int, exit_change: str, pattern: str, then: str) -> None:
        """Boundary targeting for overflow mode: change the Queue Overflow exit (remove it,
        veto queue ``q``, or veto every queue but ``q``), fill the primary until CQS starts an
        alter, and have the alter fail, so CQS selects queues under the exit in force (CQS-005..010).

        ``round`` puts the same message round every queue, so no one queue holds enough to
        bring usage 20% below the threshold and several are selected: the ones the scan then
        takes out one at a time (CQS-014).  After removing an exit, the fill goes to a queue it
        used to veto (a stale veto shows only on such a queue).  ``then``: empty the first queue
        in overflow (or all of them) and advance the clock to the next scan (CQS-013/014).
        Each message uses ``share`` percent of the primary's elements (within LGMSGSZ), so the
        threshold is reached in a few puts rather than overshot by one message too large to fit."""
        names = list(self.model.queues)
        length = self._length_for(share)
        if exit_change != "keep":
            vetoed = self.model.overflow_exit or ()
            chosen = self._queue(q)
            vetoes = {
                "remove": None,
                "veto one": (chosen,),
                "veto others": tuple(n for n in names if n != chosen),
            }[exit_change]
            if exit_change == "remove" and vetoed:
                q = names.index(vetoed[q % len(vetoed)])
            self._do(o.SetOverflowExit(vetoes))
        if pattern == "round":  # every queue holds data even if the first put starts the alter (OVFLWMAX 0, 1)
            for i in range(len(names)):
                self._put(m, q + i, length)
                if not self._last_ok():
                    break
        if self._settled():
            self.fill(m, q, length, pattern)
        pending = [s for s in self.model.structures.values() if s.alter_pending]
        if pending:
            self._do(o.AlterOutcome(pending[0].defn.name, False, None))
        if then != "nothing" and any(s.overflow_mode for s in self.model.structures.values()):
            self._scan(m, then.split()[1], "overflow start", 0)

    @precondition(lambda self: self._settled())
    @rule(m=INDEX, q=INDEX, share=st.sampled_from(SHARES))
    def usage_metric_probe(self, m: int, q: int, share: int) -> None:
        """Boundary targeting for the usage metric (CQS-020): empty data objects on queue ``q``
        until entry usage passes OVFLWMAX (where a structure whose messages use few elements per
        entry has entry usage well ahead of element usage), then messages of ``share`` percent of
        the elements on the next queue until CQS starts the alter; the alter fails, and the next
        queue is drained, which lowers element usage far more than entry usage.  Reading one
        usage for the threshold and the other for leaving overflow mode shows in one cycle."""
        s = self.model.structures[self.config.structures[0].name]  # type: ignore[union-attr]
        if s.defn.resource:
            return
        length = self._length_for(share)
        for i in range(2 * PROBE_FILL):
            if s.alter_pending:
                break
            empty = i < PROBE_FILL and self.model.usage(s, "max") <= s.defn.effective_ovflwmax
            self._put(m, q if empty else q + 1, 0 if empty else length)
            if not self._last_ok():
                return
        if s.alter_pending:
            self._do(o.AlterOutcome(s.defn.name, False, None))
        overflowed = s.overflow_mode
        drained = self._queue(q + 1)
        for _ in range(PROBE_FILL):  # the messages out, the empty data objects left
            if not self.model.queues[drained].msgs:
                break
            self._do(o.Get(self._qmgr(m), drained))
            if not self._last_ok():
                return
        if overflowed and s.defn.ovflwstr is None:
            # a scan interval passes: under cqs_relief_timing=by-scan overflow mode may end up to one
            # scan after the CQSDEL (ibm-facts 1.5), so a build that has not ended it by then shows
            # it; the model, at-delete, may have ended it already and cannot tell which reading holds
            self._do(o.AdvanceClock(SCAN_SECONDS))

    @precondition(lambda self: self._settled())
    @rule(m=INDEX, q=INDEX)
    def exact_threshold_probe(self, m: int, q: int) -> None:
        """Boundary targeting for the OVFLWMAX comparison (CQS-003: the alter starts when usage
        *reaches* the threshold): put messages of whole data elements until element usage is
        OVFLWMAX exactly, first changing the primary's size (SETXCF ALTER) to one whose element
        count makes that a whole number of elements.  Messages of other sizes, or another size,
        step over the exact value in most configurations."""
        s = self.model.structures[self.config.structures[0].name]  # type: ignore[union-attr]
        size = None if s.defn.resource else self._exact_size(s)
        if size is None:
            return
        if size != s.size_kb:
            self._do(o.SetxcfAlter(s.defn.name, size))
        target = s.defn.effective_ovflwmax * s.pools.elements_total // 100
        acct = self.model.acct
        most = max(1, (self.model.lgmsgsz + acct.header_bytes) // acct.element_bytes)  # one part
        for _ in range(PROBE_FILL):
            need = target - self.model.pools(s)[2]
            if need <= 0 or s.alter_pending:
                return
            self._put(m, q, min(need, most) * acct.element_bytes - acct.header_bytes)
            if not self._last_ok():
                return

    def _exact_size(self, s: Any) -> int | None:
        """The structure's size, or one from INITSIZE to below SIZE (where SETXCF ALTER is valid
        under every reading), whose element count makes OVFLWMAX a whole number of elements above
        those in use; None if there is none."""
        threshold, d = s.defn.effective_ovflwmax, s.defn
        for kb in (s.size_kb, *range(d.effective_initsize_kb, d.size_kb)):
            total = pool_totals(kb, d.ratio, self.model.acct)[1]
            if (threshold * total) % 100 == 0 and threshold * total // 100 > s.pools.elements_used:
                return kb
        return None

    def _length_for(self, share: int) -> int:
        """A data object length using about ``share`` percent of the primary's elements, within LGMSGSZ."""
        s = self.model.structures[self.config.structures[0].name]  # type: ignore[union-attr]
        acct = self.model.acct
        elements = max(1, s.pools.elements_total * share // 100)
        return max(0, min(self.model.lgmsgsz, elements * acct.element_bytes - acct.header_bytes))

    @precondition(lambda self: any(s.alter_pending for s in self.model.structures.values()))
    @rule(success=st.booleans(), grow=ALTER_GROWTH)
    def alter_outcome(self, success: bool, grow: int | str) -> None:
        s = next(s for s in self.model.structures.values() if s.alter_pending)
        size = s.defn.size_kb + 1 if grow == "beyond" else min(s.defn.size_kb, s.size_kb + int(grow))
        self._do(o.AlterOutcome(s.defn.name, success, size if success else None))

    @rule(seconds=st.sampled_from(b.CLOCK_STEPS))
    def advance_clock(self, seconds: int) -> None:
        self._do(o.AdvanceClock(seconds))

    @precondition(lambda self: any(s.overflow_mode for s in self.model.structures.values()))
    @rule(
        m=INDEX,
        which=st.sampled_from(("one", "all", "none")),
        anchor=st.sampled_from(SCAN_ANCHORS),
        delta=st.sampled_from(SCAN_DELTAS),
    )
    def overflow_scan(self, m: int, which: str, anchor: str, delta: int) -> None:
        """Boundary targeting for the 15-minute scan: empty one, all or none of the queues in
        overflow, then advance the clock to just before, at or after the next scan (either
        reading of where scans are anchored) or a third of an interval early (CQS-013/014)."""
        self._scan(m, which, anchor, delta)

    def _scan(self, m: int, which: str, anchor: str, delta: int) -> None:
        s = next(s for s in self.model.structures.values() if s.overflow_mode)
        queues = sorted(s.overflow_queues)
        for name in queues[:1] if which == "one" else queues if which == "all" else []:
            for _ in range(MAX_FILL):
                if not self.model.queues[name].msgs:
                    break
                self._do(o.Get(self._qmgr(m), name))
        now = self.model.clock
        start = 0 if anchor == "clock" else s.overflow_start
        scan = start + ((max(now, start) - start) // SCAN_SECONDS + 1) * SCAN_SECONDS
        self._do(o.AdvanceClock(max(1, scan + delta - now)))

    @rule(data=st.data())
    def admin(self, data: st.DataObject) -> None:
        """The less frequent operations, one rule between them so puts and gets dominate."""
        kind = data.draw(st.sampled_from(CQS_ADMIN), label="admin")
        getattr(self, f"_{kind}")(data)

    def _unsolicited_alter_outcome(self, data: st.DataObject) -> None:
        """z/OS answering an alter CQS never started must be refused (CQS-003)."""
        s = self.model.structures[self._structure(data.draw(INDEX))]
        self._do(o.AlterOutcome(s.defn.name, data.draw(st.booleans()), None))

    def _set_overflow_exit(self, data: st.DataObject) -> None:
        vetoes = data.draw(st.one_of(st.none(), st.lists(INDEX, max_size=3)))
        names = None if vetoes is None else tuple(sorted({self._queue(v) for v in vetoes}))
        self._do(o.SetOverflowExit(names))

    def _define_structure(self, data: st.DataObject) -> None:
        """CQSSGxxx structure definitions, some invalid (CQS-002, CQS-016)."""
        fields = data.draw(af.DEFINE_CQS_STRUCTURE_FIELDS)
        self._do(o.DefineStructure({"name": f"PRIM{len(self.model.structures) + 1}", **fields}))
