"""The reference model: ``Model(config).step(op) -> Outcome``.

The model is deterministic and free of I/O, clocks and randomness: time is a
virtual clock that only :class:`~reference_model.operations.AdvanceClock`
moves.  ``step`` updates the model's state in place and returns the expected
outcome; :meth:`Model.copy` keeps an earlier state, and :func:`step` is the
functional form ``(model, op) -> (next_model, outcome)``.

Decisions that depend on structure usage (offload rules, OVFLWMAX,
FULLTHRESHOLD, a full structure) can be taken against an implementation's own
reported usage by passing ``view`` (DEVELOPERS.md, principle 4): a mapping from
structure name to ``(entries_used, entries_total, elements_used,
elements_total)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from reference_model import admin, cqs, mq, topology
from reference_model.accounting import fits, usage_pct
from reference_model.config import Config
from reference_model.errors import ConfigurationError
from reference_model.operations import (
    AdvanceClock,
    AlterOutcome,
    AlterQueue,
    AlterStructure,
    Backout,
    Backup,
    Commit,
    DefineQueue,
    DefineStructure,
    FailStructure,
    Get,
    Inspect,
    Put,
    Recover,
    ResetQstats,
    SetOverflowExit,
    SetPerfmev,
    SetxcfAlter,
    StartQmgr,
    StopQmgr,
)  # fmt: skip
from reference_model.outcomes import SIGNAL_RULES, Outcome
from reference_model.state import Message, Qmgr, Queue, Structure
from reference_model.validation import round_lgmsgsz

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

    __slots__ = ("after", "before", "cqs_signals", "outcome")

    def __init__(self, outcome: Outcome, before: View, after: View, cqs_signals: bool = True) -> None:
        self.outcome = outcome
        self.before = before
        self.after = after
        #: Whether the implementation reports CQS's signals (ALTER, OVERFLOW_ON, ...): they are
        #: optional observables, so one that never reports them is judged on state instead.
        self.cqs_signals = cqs_signals

    def says(self, signal: str) -> bool:
        """Whether the implementation reported ``signal`` at this step."""
        return signal in self.outcome.signals


class Model:
    """Executable reference model for one QSG (``mq``) or one CQS group (``cqs``)."""

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
        self._dispatch = _dispatch_table(config.profile)

    # -- public API ---------------------------------------------------------------
    def step(self, op: Any, view: View | None = None, hint: Observed | None = None) -> Outcome:
        """Apply ``op`` and return the expected outcome (see module docstring for ``view``).

        With ``hint`` the model runs in checker mode: see :class:`Observed`.
        """
        try:
            handler = self._dispatch[type(op)]
        except KeyError:
            handler = None
        if handler is None:
            kind = getattr(op, "KIND", type(op).__name__)
            raise ConfigurationError("op", kind, f"an operation of the {self.config.profile} profile", "TOPOLOGY-002")
        self.hint = hint
        self.table2 = False
        if hint is not None:
            try:
                out = handler(self, op)
            finally:
                self.hint = None
        elif view:
            self.view = view
            self._view_base = {n: self.structures[n].pools.as_tuple() for n in view if n in self.structures}
            try:
                out = handler(self, op)
            finally:
                self.view = None
        else:
            out = handler(self, op)
        if hint is not None and self.config.profile == "cqs":
            said = self._overflow_monitoring(hint)
            overflow = {x.defn.ovflwstr for x in self.structures.values() if x.defn.ovflwstr}
            own = [
                sig
                for sig in out.signals
                if not (sig.split(" ")[0] in ("IXC585E", "IXC586I") and sig.split(" ")[-1] in overflow)
            ]
            out.signals = (*own, *said)
        if out.signals:
            out.rules = _with_signal_rules(out.rules, out.signals)
        if out.ok and self.connected_at_limit(op):
            out.rules = (*out.rules, "TOPOLOGY-006")
        if self.table2:  # a put Table 2 says certainly fits: refusing it as full breaks SIZING-001
            out.rules = (*out.rules, "SIZING-001")
        if hint is not None and isinstance(op, Put):
            self._note_cost(op, out, hint)
        return out

    def _overflow_monitoring(self, hint: Observed) -> tuple[str, ...]:
        """z/OS's IXC585E/IXC586I about an overflow structure, as the implementation reports them: the
        configuration gives an overflow structure no FULLTHRESHOLD, so no document decides when they
        appear (CAPACITY-002/003 judge the structures the configuration defines)."""
        overflow = {s.defn.ovflwstr for s in self.structures.values() if s.defn.ovflwstr}
        return tuple(
            sig
            for sig in hint.outcome.signals
            if sig.split(" ", 1)[0] in ("IXC585E", "IXC586I") and sig.split(" ", 1)[-1] in overflow
        )

    def copy(self) -> Model:
        """An independent copy of the model in its current state."""
        other = Model.__new__(Model)
        other.__dict__.update(self.__dict__)
        other.structures = {k: s.clone() for k, s in self.structures.items()}
        other.queues = {k: q.clone() for k, q in self.queues.items()}
        other.qmgrs = {k: m.clone() for k, m in self.qmgrs.items()}
        other.live = {m.seq: m for q in other.queues.values() for m in q.msgs}
        return other

    def project(self) -> dict[str, Any]:
        """The observable state: what an implementation's ``inspect`` must report.  In the mq
        profile, ``admin`` gives the least CSQ_ADMIN may offer and each structure's ``cfname`` its
        CFRM name (both optional for an implementation: TOPOLOGY-007/008/010)."""
        out: dict[str, Any] = {
            "clock": self.clock,
            "structures": {n: _project_structure(self, s) for n, s in sorted(self.structures.items())},
            "queues": {n: _project_queue(self, q) for n, q in sorted(self.queues.items())},
            "qmgrs": {n: {"active": m.active, "perfmev": m.perfmev} for n, m in sorted(self.qmgrs.items())},
        }
        if self.config.profile == "mq":
            out["admin"] = topology.admin_least(self.config)
            for name, s in out["structures"].items():
                cfname = topology.cfname_or_none(self.config.qsg, name)
                if cfname is not None:
                    s["cfname"] = cfname
        return out

    def connected_at_limit(self, op: Any) -> bool:
        """TOPOLOGY-006: a put or get on a shared queue while the most queue managers that may connect
        to a structure at once are defined (all of them connected: the step relies on it)."""
        if len(self.qmgrs) < topology.MAX_QMGRS_PER_STRUCTURE or not isinstance(op, Put | Get):
            return False
        q = self.queues.get(op.queue)
        return q is not None and q.defn.cfstruct is not None

    # -- helpers used by the rule modules -----------------------------------------
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
        if pools is None:
            return None
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
        cost = (after[0] - before[0], after[2] - before[2])
        whole = out.ok and hint.outcome.ok and not out.offloaded and not hint.outcome.offloaded
        if whole and min(cost) >= 0 and max(cost) > 0 and len(s.costs_seen) < MAX_COSTS:
            s.costs_seen.append((op.length, *cost))

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def full_signals(self, s: Structure, seen: Pools4 | None = None) -> tuple[str, ...]:
        """CAPACITY-002/003: IXC585E when entries or elements reach FULLTHRESHOLD, IXC586I below.

        When the message appears is z/OS's (reading ``full_signal_timing``): at the step that
        crosses the threshold, or at a later step while the condition still holds, z/OS's
        monitoring being periodic with a period no document states; a message still missing
        :data:`FULL_MONITOR_BOUND` virtual seconds after the condition began is judged missing.
        In checker mode the condition is read from the implementation's usage after the step
        (``seen``: the usage that holds, for a step that reports none and changes none).
        """
        threshold = s.defn.fullthreshold
        if threshold <= 0:
            return ()
        after = self.after(s) if seen is None else seen
        high = None
        if after is not None:
            eu, et, lu, lt = after
            high = 100 * eu >= threshold * et or 100 * lu >= threshold * lt
        name, hint = s.defn.name, self.hint
        signal = f"IXC586I {name}" if s.full_warning else f"IXC585E {name}"
        due = True if high is None else high != s.full_warning
        if high is not None and not due:
            s.full_due_since = None
        if hint is not None and (high is None or self.readings.full_signal_timing == "deferred"):
            said = hint.says(signal)
            due = self._overdue(s) if due and high is not None and not said else due and said
        if not due:
            return ()
        s.full_warning, s.full_due_since = not s.full_warning, None
        return (signal,)

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


def _with_signal_rules(rules: tuple[str, ...], signals: tuple[str, ...]) -> tuple[str, ...]:
    """An outcome's rules include those behind its signals (CAPACITY-002/003, CQS-003...)."""
    extra = [r for sig in signals for r in SIGNAL_RULES.get(sig.split(" ", 1)[0], ())]
    return tuple(dict.fromkeys((*rules, *extra)))


def _project_structure(model: Model, s: Structure) -> dict[str, Any]:
    eu, et, lu, lt = s.pools.as_tuple()
    out: dict[str, Any] = {
        "status": "FAILED" if s.failed else "ACTIVE",
        "size_kb": s.size_kb,
        "entries_used": eu, "entries_total": et, "elements_used": lu, "elements_total": lt,
        "full_warning": s.full_warning,
    }  # fmt: skip
    if not s.size_known:
        del out["size_kb"]
    due = _overdue_signal(model, s)
    if due is not None:
        out["full_warning"] = due
    if s.failed and model.hint is not None:
        del out["full_warning"]  # z/OS's monitoring of a failed structure is not documented
    if model.config.profile == "cqs":
        out["alter_pending"] = s.alter_pending
        out["overflow_mode"] = s.overflow_mode
        out["overflow_queues"] = sorted(s.overflow_queues)
        out["staging_depth"] = s.staging_depth
    return out


def _overdue_signal(model: Model, s: Structure) -> str | None:
    """CAPACITY-002/003 under the ``deferred`` reading: z/OS may issue IXC585E/IXC586I after the
    step that crosses FULLTHRESHOLD, but by the time the structure is inspected its monitoring has
    caught up within :data:`FULL_MONITOR_BOUND` virtual seconds of the condition: a message due for
    longer is missing; one due for less may or may not show yet."""
    if model.hint is None or model.readings.full_signal_timing != "deferred" or s.defn.fullthreshold <= 0:
        return None
    if s.failed:
        return None
    seen = model.after(s)
    if seen is None:
        return None
    eu, et, lu, lt = seen
    high = 100 * eu >= s.defn.fullthreshold * et or 100 * lu >= s.defn.fullthreshold * lt
    if high == s.full_warning:
        s.full_due_since = None
        return None
    if not model._overdue(s):
        observed = model.hint.outcome.value if isinstance(model.hint.outcome.value, dict) else {}
        shown = observed.get("structures", {}).get(s.defn.name, {}).get("full_warning")
        return shown if isinstance(shown, bool) else None
    return f"{'IXC585E' if high else 'IXC586I'} issued by now"


def _project_queue(model: Model, q: Queue) -> dict[str, Any]:
    out: dict[str, Any] = {"depth": q.depth}
    if model.config.profile == "mq":
        out.update(qdphiev=q.hi, qdploev=q.lo, qdpmaxev=q.max)
    else:
        s = model.structures[q.defn.cfstruct]  # type: ignore[index]
        out["overflow"] = q.defn.name in s.overflow_queues
    return out


def _inspect(model: Model, op: Inspect) -> Outcome:
    return Outcome("inspect", value=model.project())


def _advance(model: Model, op: AdvanceClock) -> Outcome:
    if type(op.seconds) is not int or op.seconds < 0:
        raise ConfigurationError("advance_clock.seconds", op.seconds, "an integer >= 0", "CQS-013")
    start, model.clock = model.clock, model.clock + op.seconds
    out = cqs.scan_between(model, start, model.clock) if model.config.profile == "cqs" else Outcome("advance_clock")
    # z/OS's structure-full monitoring runs while time passes (CAPACITY-002/003, full_signal_timing)
    monitored = [s for s in model.structures.values() if not s.failed and s.defn.fullthreshold > 0]
    signals = tuple(sig for s in monitored for sig in model.full_signals(s, model.before(s)))
    if signals:
        out.signals = (*out.signals, *signals)
    return out


Handler = Callable[[Model, Any], Outcome]


def _dispatch_table(profile: str) -> dict[type, Handler]:
    common: dict[type, Handler] = {
        DefineStructure: admin.define_structure, AlterStructure: admin.alter_structure,
        DefineQueue: admin.define_queue, AlterQueue: admin.alter_queue,
        SetxcfAlter: admin.setxcf_alter, AdvanceClock: _advance, Inspect: _inspect,
    }  # fmt: skip
    if profile == "cqs":
        common.update(
            {Put: cqs.put, Get: cqs.get, AlterOutcome: cqs.alter_outcome, SetOverflowExit: cqs.set_overflow_exit}
        )
        return common
    common.update({
        Put: mq.put, Get: mq.get, Commit: mq.commit, Backout: mq.backout,
        SetPerfmev: mq.set_perfmev, ResetQstats: mq.reset_qstats, StartQmgr: mq.start_qmgr, StopQmgr: mq.stop_qmgr,
        Backup: mq.backup, FailStructure: mq.fail_structure, Recover: mq.recover,
    })  # fmt: skip
    return common


def step(model: Model, op: Any, view: View | None = None) -> tuple[Model, Outcome]:
    """Functional form: return ``(next_model, outcome)`` and leave ``model`` untouched."""
    nxt = model.copy()
    return nxt, nxt.step(op, view)
