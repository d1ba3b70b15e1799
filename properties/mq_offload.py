"""The mq profile's offload probes: bring a structure to an offload threshold, or set its three
offload rules to a pattern, and put the message sizes each rule's readings disagree on
(OFFLOAD-002/003/004/012)."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import rule

from cfconform.reference_model import operations as o

from . import boundaries as b
from .base import INDEX
from .mq_admin import MQAdmin
from .mq_traffic import DISPUTED_LENGTHS, reached

#: Empty messages at most to bring a structure to an offload threshold: one list entry each, so a
#: structure with a few hundred entries needs that many (spread over its queues, below MAXDEPTH).
PROBE_FILL = 160
#: The offload rules probe's patterns: (a shared threshold, else OFFLDnTH 0; OFFLD1SZ..OFFLD3SZ).
OFFLOAD_PATTERNS = {
    "shared": (True, (4 * 1024, 1024, 0)),
    "rising": (False, (1024, 2 * 1024, 3 * 1024)),
    "off": (False, (64 * 1024,) * 3),
    "always": (False, (0, 0, 0)),
}
#: The name (with the level after it) of a structure defined when no queue is at a CFLEVEL.
LEVELLED = "APPLEVEL"


class MQOffload(MQAdmin):
    """The offload probes, each a rule of its own."""

    @rule(
        m=INDEX,
        q=INDEX,
        at=st.sampled_from(("its own", "its own", "empty", "OFFLD1TH", "OFFLD2TH", "OFFLD3TH")),
        n=st.sampled_from((1, 2, 3)),
        delta=st.sampled_from((-1, 0, 1, 1, "all")),
    )
    def offload_probe(self, m: int, q: int, at: str, n: int, delta: int | str) -> None:
        """Boundary targeting for the offload rules: bring the queue's structure to a threshold
        (empty it: usage 0, which an OFFLDnTH of 0 equals; or put empty messages until usage
        passes OFFLDnTH, where the usage metrics can disagree), then put a message one byte
        under, at or over OFFLDnSZ (or all three: ``delta`` "all") of rule ``n``, then of the other
        two rules (a mixed reading shows only when two rules meet the same usage)
        (OFFLOAD-002/003/012).  The empty messages go to
        whichever of the structure's queues has most room, so MAXDEPTH does not end the fill."""
        self._threshold_probe(m, q, at, n, delta)

    @rule(m=INDEX, pattern=st.sampled_from(tuple(OFFLOAD_PATTERNS)), threshold=st.sampled_from(b.SHARED_THRESHOLDS))
    def offload_rules_probe(self, m: int, pattern: str, threshold: int) -> None:
        """Set all three offload rules of the emptied CFLEVEL(5) structure with queues that has
        most elements per entry to one pattern, and probe it; a structure generated with such
        rules met the probes in one test case in hundreds.

        * ``shared``: one threshold, sizes falling (4 KB, 1 KB, 0); empty messages until usage
          passes it (entry usage leads where a message uses fewer elements than the ratio), then
          one byte over each size in rule order.  The first message is offloaded only under the
          larger of entry and element usage, the next two only if rule 2 or 3 reads that usage
          too (OFFLOAD-012 mixed readings).
        * ``rising``: thresholds 0, sizes rising (1, 2, 3 KB); each size exactly, on the empty
          structure.  Only an inclusive comparison offloads, and the first message meets rule 1
          alone (OFFLOAD-002, a comparison read one way for rule 1 and another for the others).
        * ``off``: thresholds 0, every OFFLDnSZ 64K (each rule off); two 1-byte messages, the
          second above usage 0: nothing may be offloaded (OFFLOAD-003).  Then each length the
          forced-offload readings disagree on, on every structure: with no rule to offload it,
          only the boundary decides (OFFLOAD-004, read one way at CFLEVEL(4), another at 5).
        * ``always``: thresholds 0, sizes 0 (every rule on); two 1-byte messages: the second,
          above usage 0 and above size 0, is offloaded under every reading.

        The rules are set by one ALTER; an ALTER naming FULLTHRESHOLD alone (at its value) then
        must leave them as they are (OFFLOAD-013: what ``always`` shows at once)."""
        if self._queue_at_cflevel(5) is None:  # defines one when there is none
            return
        used = {q.defn.cfstruct for q in self.model.queues.values()}
        levels = [s for s in self.model.structures.values() if s.defn.cflevel == 5 and s.defn.name in used]
        if not levels:  # (its CFLEVEL(5) structure was altered to another level earlier in the case)
            return
        name = max(levels, key=lambda s: s.defn.ratio).defn.name
        self._empty_structure(m, name)
        shared, sizes = OFFLOAD_PATTERNS[pattern]
        rules = {f"offld{n}th": threshold if shared else 0 for n in (1, 2, 3)}
        rules.update({f"offld{n}sz": size for n, size in zip((1, 2, 3), sizes, strict=True)})
        self._do(o.AlterStructure(name, rules))
        if pattern in ("off", "always"):
            self._two_small(m, name)
        if pattern == "off":
            self._queue_at_cflevel(4)  # the readings show at CFLEVEL(4) as well as at 5, read alike
            self._everywhere(m, DISPUTED_LENGTHS, False)
        elif pattern != "always":
            self._threshold_probe(m, self._roomiest(name), "OFFLD1TH" if shared else "empty", 1, 1 if shared else 0)
        # an ALTER that names another keyword only: the rules just set must stay (OFFLOAD-013); last,
        # as an implementation may refuse the keyword (the case then ends, not judged)
        self._do(o.AlterStructure(name, {"fullthreshold": self.model.structures[name].defn.fullthreshold}))
        if pattern in ("off", "always"):
            self._empty_structure(m, name)
            self._two_small(m, name)

    def _two_small(self, m: int, name: str) -> None:
        """Two 1-byte messages: the first at the usage of the emptied structure, the second above it."""
        for _ in range(2):
            self._put(m, self._roomiest(name), 1, False, False)

    def _queue_at_cflevel(self, level: int) -> str | None:
        """A queue on a structure at CFLEVEL ``level``, defined now (with its structure) if there is
        none; None if the definitions are refused (a topology limit)."""
        for queue in self.model.queues.values():
            if queue.defn.cfstruct is not None and self.model.structures[queue.defn.cfstruct].defn.cflevel == level:
                return queue.defn.name
        name = f"{LEVELLED}{level}"
        if name not in self.model.structures:
            self._do(o.DefineStructure({"name": name, "cflevel": level}))
        if name in self.model.structures and f"Q{name}" not in self.model.queues:
            self._do(o.DefineQueue({"name": f"Q{name}", "cfstruct": name}))
        at_level = name in self.model.structures and self.model.structures[name].defn.cflevel == level
        return f"Q{name}" if at_level and f"Q{name}" in self.model.queues else None

    def _threshold_probe(self, m: int, q: int, at: str, n: int, delta: int | str) -> None:
        """Bring queue ``q``'s structure to ``at``, then put each rule's size boundary (see :meth:`offload_probe`)."""
        queue = self.model.queues[self._queue(q)]
        if queue.defn.cfstruct is None:
            return
        if at == "its own":  # the structure's own first threshold: empty if it is 0
            at = "empty" if self.model.structures[queue.defn.cfstruct].defn.offld1th == 0 else "OFFLD1TH"
        q = self._roomiest(queue.defn.cfstruct)  # so the puts are not stopped by MAXDEPTH first
        queue = self.model.queues[self._queue(q)]
        if at == "empty":
            self._empty_structure(m, queue.defn.cfstruct)
        else:
            for _ in range(PROBE_FILL):
                if reached(self.model, queue, at, self.usage(queue.defn.cfstruct)):
                    break
                self._put(m, self._roomiest(queue.defn.cfstruct), 0, False, False)
                if not self._last_ok():
                    return
            q = self._roomiest(queue.defn.cfstruct)
        for k in (n, n % 3 + 1, (n + 1) % 3 + 1):  # one message per rule, each at the same usage
            for d in (-1, 0, 1) if delta == "all" else (delta,):
                if at == "empty":
                    self._empty_structure(m, queue.defn.cfstruct)
                self._put(m, q, (k, d), False, False)
