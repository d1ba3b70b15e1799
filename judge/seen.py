"""What the implementation's own reports tell the checker's model (principle 2): selections, alters,
sizes and contractions shown by ``inspect``; which structure a CQS usage report is of; the usage
each step reports; and the rules an ``inspect``'s optional keys judged."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cfconform.reference_model.cqs import adopt_alter, adopt_relief, adopt_selection
from cfconform.reference_model.model import Model, Observed
from cfconform.reference_model.operations import AlterOutcome, Get, Inspect, Put
from cfconform.reference_model.outcomes import Outcome

from .compare import STRUCTURE_USAGE_KEYS, FieldDiff, diff

_PUT_GET = (Put, Get)


def adopt_selections(model: Model, observed: Outcome) -> None:
    """CQS selections (and alters, cqs.adopt_alter) the implementation has not shown yet are taken
    from its ``inspect``."""
    seen = observed.value.get("structures") if isinstance(observed.value, Mapping) else None
    for name, s in model.structures.items():
        if s.relief_unseen and isinstance((seen or {}).get(name), Mapping):
            adopt_relief(s, seen[name].get("overflow_mode"))  # type: ignore[index]
        if s.alter_unseen and isinstance((seen or {}).get(name), Mapping):
            shown = seen[name]  # type: ignore[index]
            adopt_alter(model, s, shown.get("alter_pending"), shown.get("overflow_mode"))
        if s.selection_open is not None and isinstance((seen or {}).get(name), Mapping):
            shown = seen[name]  # type: ignore[index]
            adopt_selection(model, s, shown.get("overflow_queues"), shown.get("overflow_mode"))


def adopt_sizes(model: Model, observed: Outcome) -> None:
    """A structure size the implementation chose (a CQS alter completed inside a put) is taken from
    its ``inspect`` once it is in INITSIZE..SIZE."""
    seen = observed.value.get("structures") if isinstance(observed.value, Mapping) else None
    for name, s in model.structures.items():
        size = (seen or {}).get(name, {}).get("size_kb") if not s.size_known else None
        if isinstance(size, int) and 1 <= size <= s.defn.size_kb:
            s.size_kb, s.size_known = size, True


def adopt_contractions(model: Model, observed: Outcome) -> None:
    """CAPACITY-004: after an accepted SETXCF ALTER contraction the size may be anything from its
    target to the size before it (it may stop short: storage in use); the ``inspect`` shows which.
    Outside that range the nearer end is expected, so the comparison that follows names it."""
    seen = observed.value.get("structures") if isinstance(observed.value, Mapping) else None
    for name, s in model.structures.items():
        size = (seen or {}).get(name, {}).get("size_kb") if s.size_range is not None else None
        if isinstance(size, int) and s.size_range is not None:
            low, high = s.size_range
            s.size_kb, s.size_known, s.size_range = min(max(size, low), high), True, None


def optional_judged(op: Any, observed: Outcome) -> tuple[str, ...]:
    """The rules an ``inspect`` judged through the optional keys the implementation reported
    (docs/PROTOCOL.md, Inspect): CSQ_ADMIN (TOPOLOGY-007/008), structures' cfname (TOPOLOGY-010)."""
    if not isinstance(op, Inspect):
        return ()
    value = observed.value if isinstance(observed.value, Mapping) else {}
    rules: tuple[str, ...] = ()
    if isinstance(value.get("admin"), Mapping):
        rules += ("TOPOLOGY-007", "TOPOLOGY-008") if "size_kb" in value["admin"] else ("TOPOLOGY-007",)
    structures = value.get("structures")
    if isinstance(structures, Mapping) and any(isinstance(s, Mapping) and "cfname" in s for s in structures.values()):
        rules += ("TOPOLOGY-010",)
    return rules


def moved_off(model: Model, op: Any, expected: Outcome, hint: Observed, structure: str | None) -> FieldDiff | None:
    """CQS-011: an alter failure that moves approved queues' data objects to the overflow structure
    lowers the primary structure's usage."""
    if not isinstance(op, AlterOutcome):
        return None
    s = model.structures.get(structure) if structure is not None else None
    if s is None or s.defn.ovflwstr is None:
        return None
    before, after = hint.before.get(structure), hint.after.get(structure)  # type: ignore[arg-type]
    # (queues the implementation showed moved: without its signals the selection is its own, unseen)
    moved = any(sig.startswith(f"OVERFLOW_QUEUE {structure} ") for sig in hint.outcome.signals)
    if not moved or before is None or after is None or after[0] < before[0] or after[2] < before[2]:
        return None
    return diff("usage.moved", "usage", f"less in use on the primary than before {list(before)}", list(after))


def off_primary(model: Model, op: Any) -> bool:
    """A CQS get from a structure with an overflow structure may take a data object from there (the
    implementation's selection may differ from the model's): the primary's usage need not fall."""
    if model.config.profile != "cqs" or not isinstance(op, Get):
        return False
    q = model.queues.get(op.queue)
    s = model.structures.get(q.defn.cfstruct) if q is not None and q.defn.cfstruct else None
    return s is None or s.defn.ovflwstr is not None


def of_overflow(
    model: Model, op: Any, totals: Mapping[str, Any], pools: tuple[int, ...] | None, view: Mapping[str, Any]
) -> bool:
    """Whether a CQSPUT or CQSREAD's usage may be the overflow structure's: outcomes report "the
    structure the op touched", which for a queue in overflow mode (or perhaps selected) is the
    overflow structure.  A report offering totals other than the primary's last known ones is the
    overflow's; for a queue known to be in overflow mode, so is one of equal totals that shows the
    primary other than it was (its data objects are not there), as the third reading's reports do.
    An implementation may also report the primary, unchanged (the second reading does)."""
    if model.config.profile != "cqs" or not isinstance(op, _PUT_GET) or pools is None:
        return False
    q = model.queues.get(op.queue)
    s = model.structures.get(q.defn.cfstruct) if q is not None and q.defn.cfstruct else None
    if s is None or s.defn.ovflwstr is None:
        return False
    known = totals.get(s.defn.name)
    if op.queue in s.overflow_queues:  # its data objects are on the overflow structure
        if known is None or tuple(known) != tuple(pools[1::2]):
            return True
        # the two structures offer the same totals: a report of the primary shows it as it was
        seen = view.get(s.defn.name)
        if seen is not None and staged_freed(model, op, seen, pools):
            return False
        return seen is None or tuple(seen) != tuple(pools)
    maybe = op.queue in (s.selection_open or {}) or bool(s.overflow_mode)
    if not maybe or known is None:
        return False
    if tuple(known) != tuple(pools[1::2]):
        return True
    # the two structures offer the same totals: a CQSPUT's report showing less in use than the
    # primary's last is the overflow structure's, or the primary's after queues moved; which one is
    # left open (the usage is taken as unknown: eighth reading, usage only, cqs seed 1)
    seen = view.get(s.defn.name) if op.queue in (s.selection_open or {}) else None
    return isinstance(op, Put) and seen is not None and (pools[0] < seen[0] or pools[2] < seen[2])


def staged_freed(model: Model, op: Any, seen: Any, pools: tuple[int, ...]) -> bool:
    """A CQSREAD of a message whose later parts stay on the primary (CQS-019) frees one primary
    list entry per part; a report whose entries fell by that many (two or more) is the primary's,
    as the overflow structure gives up one data object per read (the second reading's reports)."""
    if not isinstance(op, Get):
        return False
    msgs = model.queues[op.queue].msgs
    staged = len(msgs[0].staged) if msgs else 0
    return staged >= 2 and pools[0] == seen[0] - staged and pools[2] < seen[2]


def recovered_depth(model: Model, diff: FieldDiff | None) -> tuple[str, ...]:
    """The recovery rules first when ``inspect`` shows a queue's depth other than RECOVER CFSTRUCT
    left it (nothing has been got from it since): what it holds is the recovery's (RECOVERY-003/004/005)."""
    parts = diff.field.split(".") if diff is not None else []
    if len(parts) != 4 or parts[:2] != ["value", "queues"] or parts[3] != "depth":
        return ()
    q = model.queues.get(parts[2])
    return q.recovery if q is not None and q.recovery_left > 0 else ()


def released(model: Model, qmgr: str) -> set[str]:
    """Structures where ``qmgr``'s unit of work holds gets a commit will release."""
    qm = model.qmgrs.get(qmgr)
    out = set()
    for action, qname, _ in qm.uow if qm is not None else ():
        q = model.queues.get(qname)
        if action == "get" and q is not None and q.defn.cfstruct is not None:
            out.add(q.defn.cfstruct)
    return out


def structure_of(model: Model, op: Any) -> str | None:
    if isinstance(op, _PUT_GET):
        q = model.queues.get(op.queue)
        return q.defn.cfstruct if q else None
    return getattr(op, "cfstruct", None) or getattr(op, "name", None)


def usage_pools(value: Any) -> tuple[int, int, int, int] | None:
    if value is None or len(value) != 4:
        return None
    a, b, c, d = value
    if type(a) is not int or type(b) is not int or type(c) is not int or type(d) is not int:
        return None
    return (a, b, c, d)


def reported(op: Any, observed: Outcome, structure: str | None) -> dict[str, tuple[int, int, int, int]]:
    """The usage the implementation reported at this step, per structure."""
    if isinstance(op, Inspect) and isinstance(observed.value, Mapping):
        out = {}
        for name, s in (observed.value.get("structures") or {}).items():
            pools = usage_pools([s.get(k) for k in STRUCTURE_USAGE_KEYS]) if isinstance(s, Mapping) else None
            if pools is not None:
                out[name] = pools
        return out
    pools = usage_pools(observed.usage)
    return {structure: pools} if structure is not None and pools is not None else {}
