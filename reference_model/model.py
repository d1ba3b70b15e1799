"""The reference model: ``Model(config).step(op) -> Outcome``.

The model is deterministic and free of I/O, clocks and randomness: time is a
virtual clock that only :class:`~cfconform.reference_model.operations.AdvanceClock`
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

from collections.abc import Callable
from typing import Any

from . import admin, cqs, mq, topology
from .config import Config
from .errors import ConfigurationError
from .group import (
    FULL_MONITOR_BOUND,
    MAX_COSTS,
    TABLE2_FIXED_KB,
    TABLE2_MARGIN,
    GroupState,
    Observed,
    Pools4,
    View,
)
from .operations import (
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
from .outcomes import SIGNAL_RULES, Outcome
from .state import Queue, Structure

__all__ = [
    "FULL_MONITOR_BOUND", "MAX_COSTS", "TABLE2_FIXED_KB", "TABLE2_MARGIN",
    "Model", "Observed", "Pools4", "View", "step",
]  # fmt: skip
#: The z/OS structure-full messages (a prefix test before the exact one: most steps have none).
_IXC = ("IXC585E", "IXC586I")
_MAX_QMGRS = topology.MAX_QMGRS_PER_STRUCTURE


class Model(GroupState):
    """Executable reference model for one QSG (``mq``) or one CQS group (``cqs``): the rule modules
    composed over a :class:`~cfconform.reference_model.group.GroupState`."""

    def __init__(self, config: Config) -> None:
        super().__init__(config)
        self._dispatch = dict(_DISPATCH[config.profile])  # (a model's own: mutants patch theirs)
        self._cqs = config.profile == "cqs"

    # -- public API ---------------------------------------------------------------
    def step(self, op: Any, view: View | None = None, hint: Observed | None = None) -> Outcome:
        """Apply ``op`` and return the expected outcome (see module docstring for ``view``).

        With ``hint`` the model runs in checker mode: see :class:`Observed`.
        """
        try:
            handler = self._dispatch[type(op)]
        except KeyError:
            kind = getattr(op, "KIND", type(op).__name__)
            raise ConfigurationError(
                "op", kind, f"an operation of the {self.config.profile} profile", "TOPOLOGY-002"
            ) from None
        if hint is None and not view:  # (the model's own figures: most steps of a campaign)
            out = handler(self, op)
            if out.signals:
                out.rules = _with_signal_rules(out.rules, out.signals)
            if out.ok and len(self.qmgrs) >= _MAX_QMGRS and self.connected_at_limit(op):
                out.rules = (*out.rules, "TOPOLOGY-006")
            return out
        self.table2 = False
        if hint is not None:
            self.hint = hint
            try:
                out = handler(self, op)
            finally:
                self.hint = None
            if self._cqs:
                self._judge_overflow_monitoring(out, hint)
        else:
            self.view = view
            self._view_base = {n: self.structures[n].pools.as_tuple() for n in view if n in self.structures}
            try:
                out = handler(self, op)
            finally:
                self.view = None
        if out.signals:
            out.rules = _with_signal_rules(out.rules, out.signals)
        if out.ok and len(self.qmgrs) >= _MAX_QMGRS and self.connected_at_limit(op):
            out.rules = (*out.rules, "TOPOLOGY-006")
        if self.table2:  # a put Table 2 says certainly fits: refusing it as full breaks SIZING-001
            out.rules = (*out.rules, "SIZING-001")
            self.table2 = False
        if hint is not None and isinstance(op, Put):
            self._note_cost(op, out, hint)
        return out

    def _judge_overflow_monitoring(self, out: Outcome, hint: Observed) -> None:
        """CQS checker mode: the model's own IXC585E/IXC586I about an overflow structure give way to the
        implementation's (:meth:`_overflow_monitoring`).  The overflow structures' names are gathered
        only when a step has such a message to sort, not at every step."""
        said = self._overflow_monitoring(hint) if hint.outcome.signals else ()  # (most steps report none)
        if not said and not (out.signals and any(sig.startswith(_IXC) for sig in out.signals)):
            if type(out.signals) is not tuple:
                out.signals = tuple(out.signals)
            return
        overflow = self._overflow_names()
        own = [
            sig
            for sig in out.signals
            if not (sig.split(" ")[0] in ("IXC585E", "IXC586I") and sig.split(" ")[-1] in overflow)
        ]
        out.signals = (*own, *said)

    def _overflow_names(self) -> set[str]:
        """The overflow structures the configuration's primaries name (OVFLWSTR)."""
        return {s.defn.ovflwstr for s in self.structures.values() if s.defn.ovflwstr}

    def _overflow_monitoring(self, hint: Observed) -> tuple[str, ...]:
        """z/OS's IXC585E/IXC586I about an overflow structure, as the implementation reports them: the
        configuration gives an overflow structure no FULLTHRESHOLD, so no document decides when they
        appear (CAPACITY-002/003 judge the structures the configuration defines)."""
        candidates = [sig for sig in hint.outcome.signals if sig.startswith(_IXC)]
        if not candidates:
            return ()
        overflow = self._overflow_names()
        return tuple(
            sig
            for sig in candidates
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
            "queues": _project_queues(self),
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
    due = _kept_through_failure(model, s)
    if due is None:
        due = _overdue_signal(model, s)
    if due is None:
        due = _unsignalled(model, s)
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


def _shown_warning(model: Model, s: Structure) -> bool | None:
    """The ``full_warning`` the implementation's ``inspect`` shows for ``s`` at this step, if any."""
    value = model.hint.outcome.value if model.hint is not None else None
    shown = value.get("structures", {}).get(s.defn.name, {}).get("full_warning") if isinstance(value, dict) else None
    return shown if isinstance(shown, bool) else None


def _kept_through_failure(model: Model, s: Structure) -> bool | None:
    """CAPACITY-003: IXC585E stood when the structure failed, and no IXC586I has been said since
    (``full_off_unsaid``).  Whether z/OS's monitoring ends the warning with the structure, or keeps
    it until it next sees the recovered structure's usage, is not documented: an implementation
    showing the warning still on stands, and the warning goes on from here under the usual rules
    (eighth reading, mq seed 2: FAIL, then RECOVER TYPE(PURGE), the warning still shown)."""
    hint = model.hint
    if hint is None or not s.full_off_unsaid or s.failed or _shown_warning(model, s) is not True:
        return None
    # (its IXC586I, if the usage is below FULLTHRESHOLD, is due from now: GroupState.full_signals)
    s.full_warning, s.full_off_unsaid, s.full_due_since = True, False, model.clock
    return True


def _unsignalled(model: Model, s: Structure) -> bool | None:
    """CAPACITY-002/003 for an implementation that shows no signals: IXC585E/IXC586I may have come
    at a step whose usage it did not report (a backout at STOP QMGR, say), so an ``inspect`` showing
    usage on the other side of FULLTHRESHOLD, and the warning state that goes with it, stands
    (seventh reading, signals withheld, mq seed 6)."""
    hint = model.hint
    if hint is None or hint.signals or s.failed or s.defn.fullthreshold <= 0:
        return None
    seen, shown = model.after(s), _shown_warning(model, s)
    if seen is None or shown is None:
        return None
    eu, et, lu, lt = seen
    if et <= 0 or lt <= 0:  # a structure offering nothing has no usage to reach a threshold: open
        return None
    high = 100 * eu >= s.defn.fullthreshold * et or 100 * lu >= s.defn.fullthreshold * lt
    if high == s.full_warning or shown != high:
        return None
    s.full_warning, s.full_due_since = high, None
    return high


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
    if et <= 0 or lt <= 0:  # a structure offering nothing has no usage to reach a threshold: open
        return None
    high = 100 * eu >= s.defn.fullthreshold * et or 100 * lu >= s.defn.fullthreshold * lt
    if high == s.full_warning:
        s.full_due_since = None
        return None
    if not model._overdue(s):
        return _shown_warning(model, s)
    return f"{'IXC585E' if high else 'IXC586I'} issued by now"


def _project_queues(model: Model) -> dict[str, dict[str, Any]]:
    """Each queue's observable state, by name (a configuration may hold 512 queues: one pass)."""
    queues = sorted(model.queues.items())
    if not model._cqs:
        return {n: {"depth": q.depth, "qdphiev": q.hi, "qdploev": q.lo, "qdpmaxev": q.max} for n, q in queues}
    return {n: _project_cqs_queue(model, q) for n, q in queues}


def _project_cqs_queue(model: Model, q: Queue) -> dict[str, Any]:
    s = model.structures[q.defn.cfstruct]  # type: ignore[index]
    return {"depth": q.depth, "overflow": q.defn.name in s.overflow_queues}


def _inspect(model: Model, op: Inspect) -> Outcome:
    return Outcome("inspect", value=model.project())


def _advance(model: Model, op: AdvanceClock) -> Outcome:
    if type(op.seconds) is not int or op.seconds < 0:
        raise ConfigurationError("advance_clock.seconds", op.seconds, "an integer >= 0", "CQS-013")
    start, model.clock = model.clock, model.clock + op.seconds
    out = cqs.scan_between(model, start, model.clock) if model.config.profile == "cqs" else Outcome("advance_clock")
    # z/OS's structure-full monitoring runs while time passes (CAPACITY-002/003, full_signal_timing)
    signals: tuple[str, ...] = ()
    for s in model.structures.values():
        if not s.failed and s.defn.fullthreshold > 0:
            signals += model.full_signals(s, model.before(s))
        elif s.failed and s.full_off_unsaid and model.hint is not None and model.hint.says(f"IXC586I {s.defn.name}"):
            s.full_off_unsaid = False  # (the IXC586I of a warning its failure ended, said late: CAPACITY-003)
            signals += (f"IXC586I {s.defn.name}",)
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


_DISPATCH = {profile: _dispatch_table(profile) for profile in ("mq", "cqs")}


def step(model: Model, op: Any, view: View | None = None) -> tuple[Model, Outcome]:
    """Functional form: return ``(next_model, outcome)`` and leave ``model`` untouched."""
    nxt = model.copy()
    return nxt, nxt.step(op, view)
