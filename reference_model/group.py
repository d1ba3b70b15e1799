"""The state of one QSG or CQS group and the figures every rule family decides on.

:class:`GroupState` holds what a trace has built (structures, queues, queue managers, the virtual
clock, live messages) and the helpers the rule modules (:mod:`.admin`, :mod:`.mq`, :mod:`.cqs`,
:mod:`.offload`, :mod:`.events`) take their decisions with: which usage a decision rests on (the
model's own, or in checker mode the implementation's, :class:`Observed`), whether a put finds room,
when z/OS's IXC585E/IXC586I are due.  The rule modules are functions over this state;
:class:`~.model.Model` composes them (``step``) and never is imported by them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .accounting import fits, usage_pct
from .config import Config
from .errors import ConfigurationError
from .operations import Put
from .outcomes import Outcome
from .state import Message, Qmgr, Queue, Structure
from .validation import round_lgmsgsz

View = Mapping[str, tuple[int, int, int, int]]
Pools4 = tuple[int, int, int, int]


class Observed:
    """What the implementation reported at one step, for the decisions IBM leaves to it.

    The checker passes it to :meth:`Model.step` (DEVELOPERS.md, principle 2): storage
    accounting, element sizes and the timing of z/OS messages are the implementation's,
    so the model takes every usage-dependent decision against ``before`` (the usage the
    implementation reported before this step, per structure, when still current) and
    ``after`` (what this step reported), and where those do not decide a value, follows
    ``outcome``, the implementation's own answer, as long as a documented relation allows it.
    """

    __slots__ = ("after", "before", "cqs_signals", "outcome", "signals")

    def __init__(
        self, outcome: Outcome, before: View, after: View, cqs_signals: bool = True, signals: bool = True
    ) -> None:
        self.outcome = outcome
        self.before = before
        self.after = after
        #: Whether the implementation reports CQS's signals (ALTER, OVERFLOW_ON, ...): they are
        #: optional observables, so one that never reports them is judged on state instead.
        self.cqs_signals = cqs_signals
        #: Whether it reports signals at all (``observes``): z/OS's IXC585E/IXC586I included.
        self.signals = signals

    def says(self, signal: str) -> bool:
        """Whether the implementation reported ``signal`` at this step."""
        return signal in self.outcome.signals


class GroupState:
    """The state of one QSG (``mq``) or one CQS group (``cqs``) and the helpers the rule modules use."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.readings = config.readings
        self.acct = config.accounting
        self.clock = 0
        self.correl = 0
        self.seq = 0
        self.lgmsgsz = round_lgmsgsz(config.lgmsgsz)
        self.overflow_exit = config.overflow_exit
        self.structures: dict[str, Structure] = {s.name: Structure(s, self.acct) for s in config.structures}
        self.queues: dict[str, Queue] = {q.name: Queue(q) for q in config.queues}
        self.qmgrs: dict[str, Qmgr] = {n: Qmgr(n, n not in config.perfmev_disabled) for n in config.qmgrs}
        self.live: dict[int, Message] = {}
        self.view: View | None = None
        #: The implementation's report of the step being taken (checker mode), else None.
        self.hint: Observed | None = None
        #: Whether this step's room was decided by Table 2 (checker mode, SIZING-001).
        self.table2 = False
        self._view_base: dict[str, tuple[int, int, int, int]] = {}

    def qmgr(self, name: str) -> Qmgr:
        try:
            return self.qmgrs[name]
        except KeyError:
            raise ConfigurationError("qmgr", name, f"one of {sorted(self.qmgrs)}", "TOPOLOGY-006") from None

    def queue(self, name: str) -> Queue:
        try:
            return self.queues[name]
        except KeyError:
            raise ConfigurationError("queue", name, f"one of {sorted(self.queues)}", "TOPOLOGY-013") from None

    def structure(self, name: str) -> Structure:
        try:
            return self.structures[name]
        except KeyError:
            raise ConfigurationError("cfstruct", name, f"one of {sorted(self.structures)}", "TOPOLOGY-013") from None

    def pools(self, s: Structure) -> tuple[int, int, int, int]:
        """The usage decisions are taken on: the implementation's view if given, else ours.

        A view holds the implementation's usage before this step; decisions taken
        after part of the step (a threshold checked after the put) add the
        model's own change since the step began.
        """
        view = self.view
        p = s.pools
        if view is not None:
            seen = view.get(s.defn.name)
            base = self._view_base.get(s.defn.name)
            if seen is not None and base is not None:
                now = (p.entries_used, p.entries_total, p.elements_used, p.elements_total)
                return tuple(v + n - b for v, n, b in zip(seen, now, base, strict=True))  # type: ignore[return-value]
        return (p.entries_used, p.entries_total, p.elements_used, p.elements_total)

    def usage(self, s: Structure, metric: str) -> float:
        return usage_pct(metric, self.pools(s), self.acct)

    # -- checker mode: decisions on the implementation's own figures (principle 2) ---------
    def before(self, s: Structure) -> Pools4 | None:
        """Usage a decision taken before this step's change rests on: the implementation's
        last report (None when it has none that is current), or the model's own."""
        if self.hint is None:
            return self.pools(s)
        return self.hint.before.get(s.defn.name)

    def before_put(self, s: Structure) -> Pools4 | None:
        """:meth:`before` for what a put decides on its structure's usage (room, offload), or None
        when this step's report shows other totals: the ratio or size changed since that report
        (z/OS AUTOALTER adjusts the entry:element ratio "when necessary", seed 002), so the usage
        when the put ran is not known (CAPACITY-011)."""
        seen = self.before(s)
        if self.hint is None or seen is None:
            return seen
        after = self.hint.after.get(s.defn.name)
        return None if after is not None and seen[1::2] != after[1::2] else seen

    def after(self, s: Structure) -> Pools4 | None:
        """Usage after this step's change: the implementation's report of this step, or ours."""
        if self.hint is None:
            return self.pools(s)
        return self.hint.after.get(s.defn.name)

    def reached(self, pools: Pools4 | None, threshold: float, metric: str, inclusive: bool) -> bool | None:
        """Whether usage is over (``inclusive``: at or over) ``threshold`` percent under a
        usage-metric reading; None when the figures leave it open.

        The model's own figures decide exactly.  An implementation's figures decide for the
        ``max`` and ``elements`` readings; for ``combined`` (storage in use over storage
        offered, weighted as the implementation weighs entries and elements) usage lies
        between the entry and element percentages, so only thresholds outside that band
        are decided.
        """
        if pools is None or (self.hint is not None and (pools[1] <= 0 or pools[3] <= 0)):
            return None  # (an implementation's structure offering no entries or elements: no usage)
        if self.hint is None or metric != "combined":
            u = usage_pct(metric, pools, self.acct)
            return u >= threshold if inclusive else u > threshold
        eu, et, lu, lt = pools
        if et <= 0 or lt <= 0:
            return None
        lo, hi = sorted((100.0 * eu / et, 100.0 * lu / lt))
        low = lo >= threshold if inclusive else lo > threshold
        high = hi >= threshold if inclusive else hi > threshold
        return low if low == high else None

    def room(
        self,
        s: Structure,
        entries: int,
        elements: int,
        full_reasons: tuple[Any, ...],
        primary: bool = True,
        length: int | None = None,
    ) -> bool:
        """CAPACITY-001: whether a put finds room.  The model decides on its own accounting; in
        checker mode a structure reported with every entry or every element in use is full
        ("A structure is full if either all ENTRYs or all ELEMENTs are in use"), and otherwise
        the cost of a message is the implementation's, so its answer stands."""
        if self.hint is None:
            if self.view is None:  # (fits on the model's own pools, inline)
                p = s.pools
                return p.entries_used + entries <= p.entries_total and p.elements_used + elements <= p.elements_total
            return fits(self.pools(s), entries, elements)
        seen = self.before_put(s) if primary else None  # ``primary``: the put needs room on ``s`` itself
        if seen is not None and (seen[0] >= seen[1] or seen[2] >= seen[3]):
            return False
        if seen is not None and length is not None and self.config.profile == "mq" and _plenty(s, seen, length):
            self.table2 = True  # the step's outcome names SIZING-001
            return True
        if seen is not None and length is not None and _fit_before(s, seen, length):
            return True
        o = self.hint.outcome
        return not (not o.ok and o.reason in full_reasons)

    def _note_cost(self, op: Put, out: Outcome, hint: Observed) -> None:
        """Keep what an accepted put kept whole cost, as the implementation reported it (see
        :func:`_fit_before`); forget the costs when the structure's totals change."""
        q = self.queues.get(op.queue)
        s = self.structures.get(q.defn.cfstruct) if q is not None and q.defn.cfstruct else None
        if s is None or op.queue in s.overflow_queues:  # (an overflowed CQS queue: not whole on s)
            return
        before, after = hint.before.get(s.defn.name), hint.after.get(s.defn.name)
        if before is None or after is None or before[1::2] != after[1::2]:
            s.costs_seen.clear()
            return
        if len(s.costs_seen) >= MAX_COSTS or not (out.ok and hint.outcome.ok):
            return
        entries, elements = after[0] - before[0], after[2] - before[2]
        whole = not out.offloaded and not hint.outcome.offloaded
        if whole and entries >= 0 and elements >= 0 and (entries > 0 or elements > 0):
            s.costs_seen.append((op.length, entries, elements))

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def full_signals(self, s: Structure, seen: Pools4 | None = None, moved: bool = False) -> tuple[str, ...]:
        """CAPACITY-002/003: IXC585E when entries or elements reach FULLTHRESHOLD, IXC586I below.

        When the message appears is z/OS's (reading ``full_signal_timing``): at the step that
        crosses the threshold, or at a later step while the condition still holds, z/OS's
        monitoring being periodic with a period no document states; a message still missing
        :data:`FULL_MONITOR_BOUND` virtual seconds after the condition began is judged missing.
        In checker mode the condition is read from the implementation's usage after the step
        (``seen``: the usage that holds, for a step that reports none and changes none).  At such a
        step a message the implementation says stands, since AUTOALTER may have changed the ratio
        since that report (CAPACITY-011); its next report judges it.

        ``moved``: CQS moved queues off the structure within this step (a CQSPUT's overflow
        processing).  An IXC586I that the move calls for may then come at a later step even under
        ``at-crossing``: whether z/OS's monitoring sees the structure before or after CQS's own
        processing of the put is not documented (twelfth reading, cqs seeds 3 and 4).
        """
        if s.full_off_unsaid and self.hint is not None and self.hint.says(f"IXC586I {s.defn.name}"):
            s.full_off_unsaid = False  # (the IXC586I of a warning ended undocumented, said late)
            return (f"IXC586I {s.defn.name}",)
        threshold = s.defn.fullthreshold
        if threshold <= 0:
            return ()
        if self.hint is None:  # the model's own figures decide, at the step that crosses
            if seen is None and self.view is None:
                p = s.pools
                eu, et, lu, lt = p.entries_used, p.entries_total, p.elements_used, p.elements_total
            else:
                eu, et, lu, lt = self.pools(s) if seen is None else seen
            if _full(eu, et, lu, lt, threshold, s.full_warning) == s.full_warning:
                s.full_due_since = None
                return ()
            signal = _full_signal(s)
            s.full_warning, s.full_due_since = not s.full_warning, None
            return (signal,)
        hint = self.hint
        after = self.after(s) if seen is None else seen
        high = None
        if after is not None and after[1] > 0 and after[3] > 0:  # (a structure offering nothing: open)
            eu, et, lu, lt = after
            high = _full(eu, et, lu, lt, threshold, s.full_warning)
            if seen is not None and high == s.full_warning and hint.says(_full_signal(s)):
                # figures of an earlier report, at a step that reports none: z/OS AUTOALTER may have
                # changed the ratio since ("when necessary", seed 002: CAPACITY-011), so the
                # implementation's message stands (the next report judges it)
                high = None
        due = True if high is None else high != s.full_warning
        if high is not None and not due:
            s.full_due_since, s.full_lagging = None, False
        lag = s.full_lagging or (moved and s.full_warning)
        if hint is not None and (high is None or lag or self.readings.full_signal_timing == "deferred"):
            said = hint.says(_full_signal(s))
            due = self._overdue(s) if due and high is not None and not said else due and said
            if high is None and not said and not s.full_warning:
                # a step that may have lowered the usage and reports none (a COMMIT of gets): whether
                # it stayed at FULLTHRESHOLD is unseen, so the wait for IXC585E restarts when it is
                # next seen (eighth reading, mq seed 3: a deferred IXC585E judged missing an hour
                # after a condition that a COMMIT had ended)
                s.full_due_since = None
        if not due:
            s.full_lagging = lag and high is not None and high != s.full_warning
            return ()
        signal = _full_signal(s)
        # a warning that the structure's failure may or may not have ended (full_off_unsaid): with no
        # new IXC585E said as usage reaches FULLTHRESHOLD again, it never ended (CAPACITY-003)
        kept = s.full_off_unsaid and signal[:7] == "IXC585E" and hint is not None and not hint.says(signal)
        s.full_warning, s.full_due_since, s.full_off_unsaid, s.full_lagging = not s.full_warning, None, False, False
        return () if kept else (signal,)

    def _overdue(self, s: Structure) -> bool:
        """Deferred IXC585E/IXC586I: whether the message has been due long enough to be missing."""
        if s.full_due_since is None:
            s.full_due_since = self.clock
        return self.clock - s.full_due_since >= FULL_MONITOR_BOUND


#: Virtual seconds z/OS's structure-full monitoring may take to issue IXC585E/IXC586I under the
#: ``deferred`` reading (CAPACITY-002/003).  No document states the period (ibm-facts 1.8: the
#: monitoring is periodic); an hour is far beyond any polling interval a product would choose, so
#: only a message that never comes is judged.
FULL_MONITOR_BOUND = 3600


#: Table 2 (SIZING-001): about 6 MB of any structure is not for messages (100 messages of 1 KB need
#: 6 MB), and a message costs at most about 1.3 times its length (100,000 of 63 KB need 8,156 MB).
TABLE2_FIXED_KB = 6144
TABLE2_MARGIN = 4


#: Accepted puts whose cost a structure keeps (the first ones: enough to judge later puts by).
MAX_COSTS = 32


def _full(eu: int, et: int, lu: int, lt: int, threshold: int, warning: bool) -> bool:
    """CAPACITY-002/003: whether the full warning holds (IXC585E) with ``eu`` of ``et`` entries and ``lu``
    of ``lt`` elements in use: either pool at FULLTHRESHOLD percent (``warning``: whether it held before)."""
    return 100 * eu >= threshold * et or 100 * lu >= threshold * lt


def _full_signal(s: Structure) -> str:
    """The z/OS message a change of ``s``'s full warning state gives: IXC585E as usage reaches
    FULLTHRESHOLD, IXC586I as it falls below (spelt only when a step may give it)."""
    return f"IXC586I {s.defn.name}" if s.full_warning else f"IXC585E {s.defn.name}"


def _fit_before(s: Structure, seen: Pools4, length: int) -> bool:
    """CAPACITY-001 on the implementation's own figures: a message certainly fits when one at least
    as long, kept whole, was accepted at a cost the structure still has free (the same message
    costs the same, a longer one no less: any accounting by entries and elements)."""
    free_entries, free_elements = seen[1] - seen[0], seen[3] - seen[2]
    return any(n >= length and e <= free_entries and el <= free_elements for n, e, el in s.costs_seen)


def _plenty(s: Structure, seen: Pools4, length: int) -> bool:
    """Whether the structure certainly holds one more message of ``length`` bytes: what is free of its
    message storage (by the fuller pool the implementation reports) is at least four times what
    Table 2 says such a message costs.  A 2192 then is not a full structure (CAPACITY-001)."""
    if not s.size_known or s.size_kb <= TABLE2_FIXED_KB:
        return False
    eu, et, lu, lt = seen
    if et <= 0 or lt <= 0:
        return False
    free = (s.size_kb - TABLE2_FIXED_KB) * 1024 * (1 - max(eu / et, lu / lt))
    return free >= TABLE2_MARGIN * (length + 1024)
