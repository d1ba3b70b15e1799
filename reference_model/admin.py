"""Definition commands: DEFINE/ALTER CFSTRUCT, DEFINE/ALTER QLOCAL, SETXCF ALTER.

An invalid definition is a documented rejection of the command, so it is an
outcome (``reason="INVALID"``) naming the rule, not an exception; the model's
state is unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from .accounting import pool_totals
from .codec import queue_from_record, structure_from_record
from .config import check_queue_against
from .errors import ConfigurationError
from .offload import RULE_OFF
from .outcomes import CMD_INVALID, CMD_NOT_ALLOWED, CMD_OUT_OF_RANGE, Outcome
from .state import Queue, Structure
from .validation import (
    MAX_QUEUES_PER_STRUCTURE,
    UNDECIDED_BOUNDS,
    check_structure_count,
    lenient,
    reject,
)  # fmt: skip

if TYPE_CHECKING:
    from .config import StructureDef
    from .group import GroupState
    from .operations import (
        AlterQueue,
        AlterStructure,
        DefineQueue,
        DefineStructure,
        SetxcfAlter,
    )  # fmt: skip

MQ_ALTERABLE = frozenset(
    {"cflevel", "recover", "offload", "fullthreshold"} | {f"offld{n}{k}" for n in (1, 2, 3) for k in ("th", "sz")}
)
#: The rule whose range decided that an ALTER CFSTRUCT value is accepted.
RANGE_RULES = {
    "cflevel": "CFLEVEL-001", "fullthreshold": "CAPACITY-009",
    **{f"offld{n}{k}": "OFFLOAD-011" for n in (1, 2, 3) for k in ("th", "sz")},
}  # fmt: skip
QUEUE_ALTERABLE = frozenset({"maxdepth", "maxmsgl", "qdepthhi", "qdepthlo", "qdphiev", "qdploev", "qdpmaxev"})


def invalid(kind: str, err: ConfigurationError) -> Outcome:
    """The outcome of a command the documentation rejects."""
    return Outcome(kind, False, CMD_INVALID, (err.rule_id,), value=err.to_record())


def _as_def(value: Any, build: Any) -> Any:
    """A definition from an operation: validated now if it came as a raw record."""
    return build(value) if isinstance(value, dict) else value


def _undecided_accepted(model: GroupState, undecided: Any, build: Any) -> Any:
    """``build()``; if it fails only on a bound no sentence states and the implementation accepted
    the command (checker mode), build it again without those bounds (principle 1)."""
    try:
        return build()
    except ConfigurationError as err:
        hint = model.hint
        if hint is None or not hint.outcome.ok or err.rule_id not in undecided:
            raise
        with lenient(frozenset(undecided)):
            return build()


def _check_changes(kind: str, changes: tuple[tuple[str, Any], ...], allowed: frozenset[str], rule_id: str) -> None:
    for key, value in changes:
        if key not in allowed:
            raise ConfigurationError(f"{kind}.{key}", value, f"one of {sorted(allowed)}", rule_id)


#: The CQS fields of a structure definition (CQS-002, CQS-011, CQS-016): no MQ text names them.
_CQS_FIELDS = ("ovflwmax", "ovflwstr", "resource")


def _without_cqs_fields(structure: Any) -> Any:
    """A definition, record or built, as an MQ implementation that ignores the CQS fields reads it."""
    if isinstance(structure, Mapping):
        return {k: v for k, v in structure.items() if k not in _CQS_FIELDS}
    return attrs.evolve(structure, ovflwmax=None, ovflwstr=None, resource=False)


def define_structure(model: GroupState, op: DefineStructure) -> Outcome:
    """DEFINE CFSTRUCT: name rules and structure limits (TOPOLOGY-001..004, 009, CQS-016)."""
    try:
        # (CQS-016: "not supported for resource structures" says no overflow happens there, not
        # that a resource structure defined with OVFLWMAX must be refused: the implementation's)
        # (TOPOLOGY-009 is DEFINE CFSTRUCT's naming rule, an MQ one: no document names CQS's structures)
        undecided = UNDECIDED_BOUNDS | ({"CQS-016", "TOPOLOGY-009"} if model.config.profile == "cqs" else set())
        # CQS fields in an MQ definition are the protocol's record, not a keyword any MQ text names:
        # refusing them is the model's choice, and an implementation that accepts the definition
        # ignored them, whatever their values (ninth reading, mq seed 3: RESOURCE with OVFLWSTR)
        ignored = model.config.profile == "mq" and model.hint is not None and model.hint.outcome.ok
        structure = _without_cqs_fields(op.structure) if ignored else op.structure
        sd = _undecided_accepted(model, undecided, lambda: _as_def(structure, structure_from_record))
        if sd.name in model.structures:
            reject("define_structure.name", sd.name, "a name not already defined", "TOPOLOGY-009")
        cqs_fields = sd.ovflwmax is not None or sd.ovflwstr is not None or sd.resource
        if model.config.profile == "mq" and cqs_fields:
            reject("define_structure.ovflwstr", sd.ovflwstr, "no CQS fields in the mq profile", "CQS-016")
        check_structure_count([*model.structures, sd.name], "define_structure")
    except ConfigurationError as err:
        return invalid("define_structure", err)
    model.structures[sd.name] = Structure(sd, model.acct)
    return Outcome("define_structure", rules=("TOPOLOGY-003", "TOPOLOGY-004", "TOPOLOGY-009"))


def alter_structure(model: GroupState, op: AlterStructure) -> Outcome:
    """ALTER CFSTRUCT: unspecified keywords unchanged (OFFLOAD-013); values within their ranges
    (CFLEVEL-001, CAPACITY-009, OFFLOAD-011); CFLEVEL down from 3 or 4 only when empty, and from 5
    too under the ``guarded`` reading (CFLEVEL-009)."""
    s = model.structure(op.name)
    changes = dict(op.changes)
    # CFLEVEL below 5 by an ALTER that does not name OFFLOAD: whether an OFFLOAD in effect, given or
    # by default, blocks it is not documented ("This parameter also requires the CFSTRUCT to use
    # CFLEVEL(5)" speaks of giving the keyword).  Given or defaulted alike, the implementation's
    # answer stands; the model's own accepts and keeps the keyword, which no longer applies.
    below = "offload" not in changes and changes.get("cflevel", s.defn.cflevel) < 5
    dormant = below and (s.defn.cflevel >= 5 or s.defn.offload is not None)  # an OFFLOAD in effect or kept
    try:
        _check_changes("alter_structure", op.changes, MQ_ALTERABLE, "OFFLOAD-013")
        if dormant:
            with lenient(frozenset({"OFFLOAD-007"})):
                new = _undecided_accepted(model, UNDECIDED_BOUNDS, lambda: attrs.evolve(s.defn, **changes))
        else:
            new = _undecided_accepted(model, UNDECIDED_BOUNDS, lambda: attrs.evolve(s.defn, **changes))
    except ConfigurationError as err:
        return invalid("alter_structure", err)
    if dormant and model.hint is not None and not model.hint.outcome.ok:
        return Outcome("alter_structure", False, model.hint.outcome.reason, ("OFFLOAD-007",))
    lowered = new.cflevel < s.defn.cflevel and s.defn.cflevel >= 3
    if lowered and _guarded(model, s.defn.cflevel, new.cflevel) and _in_use(model, s):
        return Outcome("alter_structure", False, CMD_NOT_ALLOWED, ("CFLEVEL-009",))
    # CFLEVEL raised to 5 without naming OFFLOAD: SMDS is DEFINE's default (seed 002), and ibm-facts 2.1
    # reading (a) has a structure "migrated from CFLEVEL 4" keep Db2 (the tenth reading): open until named
    rising = new.cflevel >= 5 > s.defn.cflevel
    raised = rising and "offload" not in changes and new.offload is None
    if rising:
        new = _migrated_sizes(model, new, changes)
    s.defn = new
    if dormant or raised or "offload" in changes:  # (the seventh and eighth let it lapse: Structure.offload_open)
        s.offload_open = dormant or raised
    ranges = tuple(dict.fromkeys(RANGE_RULES[key] for key, _ in op.changes if key in RANGE_RULES))
    # a new FULLTHRESHOLD may put usage on the other side of it: z/OS's message then follows, at once
    # or later by the full_signal_timing reading (CAPACITY-002/003)
    signals: tuple[str, ...] = ()
    if "fullthreshold" in changes:
        signals = _monitoring_off(model, s) if new.fullthreshold <= 0 else model.full_signals(s)
    rules = ("OFFLOAD-013", *ranges, *(("CFLEVEL-009",) if lowered else ()))
    return Outcome("alter_structure", rules=rules, signals=signals)


def _migrated_sizes(model: GroupState, new: StructureDef, changes: Mapping[str, Any]) -> StructureDef:
    """OFFLOAD-013/014 on a raise to CFLEVEL(5): under the ``offload_after_raise`` reading ``off`` every
    OFFLDnSZ the ALTER does not name is 64K, the rule off, as ibm-facts 2.1's reading (a) has for a
    structure migrated from CFLEVEL 4 (the tenth reading); under ``kept`` it stays as it was."""
    if model.readings.offload_after_raise != "off":
        return new
    off = {f"offld{n}sz": RULE_OFF for n in (1, 2, 3) if f"offld{n}sz" not in changes}
    return attrs.evolve(new, **off)


def _monitoring_off(model: GroupState, s: Structure) -> tuple[str, ...]:
    """FULLTHRESHOLD(0) "disables monitoring" while IXC585E stands: whether z/OS then says IXC586I is
    not documented, so the implementation's answer stands (CAPACITY-003), and the warning is over."""
    if not s.full_warning:
        return ()
    s.full_warning, s.full_due_since = False, None
    said = f"IXC586I {s.defn.name}"
    if model.hint is not None and model.hint.says(said):
        return (said,)
    s.full_off_unsaid = model.hint is not None  # (it may still come later: see GroupState.full_signals)
    return ()


def _guarded(model: GroupState, old: int, new: int) -> bool:
    """CFLEVEL-009: whether lowering CFLEVEL from ``old`` (3 or more) to ``new`` needs the structure's
    queues empty: from 3 or 4, and from 5 under the ``cflevel5_decrease`` reading."""
    return old < 5 or model.readings.cflevel5_decrease == "guarded"


def _in_use(model: GroupState, s: Structure) -> bool:
    return any(q.msgs for q in model.queues.values() if q.defn.cfstruct == s.defn.name)


def define_queue(model: GroupState, op: DefineQueue) -> Outcome:
    """DEFINE QLOCAL: a known structure with fewer than 512 queues (TOPOLOGY-005, TOPOLOGY-013)."""
    try:
        qd = _undecided_accepted(model, UNDECIDED_BOUNDS, lambda: _as_def(op.queue, queue_from_record))
        check_queue_against(model.config, qd, set(model.structures), set(model.queues))
        on_structure = sum(1 for q in model.queues.values() if q.defn.cfstruct == qd.cfstruct)
        if qd.cfstruct is not None and on_structure >= MAX_QUEUES_PER_STRUCTURE:
            allowed = f"a structure with fewer than {MAX_QUEUES_PER_STRUCTURE} queues"
            reject("define_queue.cfstruct", qd.cfstruct, allowed, "TOPOLOGY-005")
    except ConfigurationError as err:
        return invalid("define_queue", err)
    model.queues[qd.name] = Queue(qd)
    return Outcome("define_queue", rules=("TOPOLOGY-005", "TOPOLOGY-013"))


def alter_queue(model: GroupState, op: AlterQueue) -> Outcome:
    """ALTER QLOCAL: depth limits and event switches (QDEPTH-014); MAXDEPTH's range is no sentence's
    (QDEPTH-018: the implementation may take more)."""
    q = model.queue(op.name)
    try:
        _check_changes("alter_queue", op.changes, QUEUE_ALTERABLE, "QDEPTH-014")
        new = _undecided_accepted(model, UNDECIDED_BOUNDS, lambda: attrs.evolve(q.defn, **dict(op.changes)))
    except ConfigurationError as err:
        return invalid("alter_queue", err)
    q.defn = new
    changes = dict(op.changes)
    q.hi = changes.get("qdphiev", q.hi)
    q.lo = changes.get("qdploev", q.lo)
    q.max = changes.get("qdpmaxev", q.max)
    return Outcome("alter_queue", rules=("QDEPTH-014",))


def setxcf_alter(model: GroupState, op: SetxcfAlter) -> Outcome:
    """SETXCF START,ALTER (CAPACITY-004..006): above SIZE invalid; growing within INITSIZE..SIZE valid;
    exactly SIZE, below INITSIZE and no larger than now by reading (seed 001 says "less than the value
    of SIZE ... but greater than the current coupling facility size"); shrinking below what is in
    use fails, on the model's accounting or, in checker mode, the implementation's, and an accepted
    contraction may stop short of its target (the size is then the implementation's)."""
    s = model.structure(op.cfstruct)
    d, r = s.defn, model.readings
    new = op.size_kb
    if type(new) is not int or new < 1:
        return invalid(
            "setxcf_alter", ConfigurationError("setxcf_alter.size_kb", new, "an integer >= 1", "CAPACITY-008")
        )
    if _above_size(d, new):
        return Outcome("setxcf_alter", False, CMD_OUT_OF_RANGE, ("CAPACITY-005",))
    if (s.alter_pending or s.alter_unseen) and model.hint is not None and not model.hint.outcome.ok:
        # an operator's alter while CQS's own is (or may be, unseen) in progress: no document says
        # whether z/OS takes it (the ninth reading refuses it; CQS signals withheld, cqs seed 1)
        return Outcome("setxcf_alter", False, model.hint.outcome.reason, ("CAPACITY-004",))
    if s.failed and model.hint is not None:  # altering a failed structure: no document says
        if not model.hint.outcome.ok:
            return Outcome("setxcf_alter", False, model.hint.outcome.reason)
        s.size_kb, s.size_known = new, True
        # z/OS's monitoring of a failed structure is not documented either: its messages stand
        said = tuple(sig for sig in model.hint.outcome.signals if sig.split(" ", 1)[0] in ("IXC585E", "IXC586I"))
        for sig in said:  # (and they set the warning state later steps are judged from)
            if sig.split(" ", 1)[1] == s.defn.name:
                s.full_warning = sig.startswith("IXC585E")
        return Outcome("setxcf_alter", signals=said)
    rules = ("CAPACITY-004",)
    refused = False
    low, high = s.size_range or (s.size_kb, s.size_kb)
    if not s.size_known and model.hint is not None and s.size_range is None:  # the size is the implementation's
        refused = not model.hint.outcome.ok
        rules = ("CAPACITY-006",)
    for applies, reading in (
        (new < d.effective_initsize_kb, r.alter_below_initsize),
        (new == d.size_kb, r.alter_at_size),
        (new <= low, r.alter_not_larger),
    ):
        if applies:
            rules = ("CAPACITY-006",)
            refused = refused or reading == "rejected"
    if low < new <= high and r.alter_not_larger == "rejected" and model.hint is not None:
        # after a contraction that may have stopped short: whether this is larger is the implementation's
        rules = ("CAPACITY-006",)
        refused = refused or not model.hint.outcome.ok
    if refused:
        return Outcome("setxcf_alter", False, CMD_OUT_OF_RANGE, ("CAPACITY-006",))
    entries, elements = pool_totals(new, d.ratio, model.acct)
    # (after a contraction that may have stopped short, one below its target shrinks all the same)
    if new < s.size_kb and (s.size_known or s.size_range is not None) and _below_use(model, s, entries, elements):
        return Outcome("setxcf_alter", False, CMD_OUT_OF_RANGE, ("CAPACITY-006",))
    _resize(model, s, new, high, entries, elements)
    signals = model.full_signals(s)
    if model.config.profile == "cqs":
        from .cqs import relieved

        ended = relieved(model, s)
        signals += ended
        rules += ("CQS-015",) if ended else ()
    return Outcome("setxcf_alter", rules=rules, signals=signals, usage=s.pools.as_tuple())


def _resize(model: GroupState, s: Structure, new: int, high: int, entries: int, elements: int) -> None:
    """CAPACITY-004: an accepted SETXCF ALTER takes the structure to ``new`` KB (``entries`` and ``elements``).
    A contraction may stop short of ``new`` (storage in use): no sentence says it reaches it, so in checker
    mode the size is the implementation's, taken from its next inspect (up to ``high``)."""
    contracted = new < high and model.hint is not None
    s.size_range = (new, high) if contracted else None
    s.size_kb, s.size_known = new, not contracted
    s.pools.entries_total, s.pools.elements_total = entries, elements


def _above_size(d: StructureDef, new: int) -> bool:
    """CAPACITY-005: SETXCF ALTER cannot take a structure above its SIZE."""
    return new > d.size_kb


def _below_use(model: GroupState, s: Structure, entries: int, elements: int) -> bool:
    """Whether a smaller size would not hold what is in use: the storage is the implementation's."""
    if model.hint is not None:
        return not model.hint.outcome.ok
    return entries < s.pools.entries_used or elements < s.pools.elements_used
