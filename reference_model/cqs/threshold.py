"""Whether a CQSPUT reached OVFLWMAX, and what it shows of it (CQS-001, CQS-002, CQS-003, CQS-016, CQS-020).

The OVFLWMAX check after a put (:func:`_threshold_reached`), in checker mode on the implementation's
figures, with what its figures show: queues moved to the overflow structure within the put, a
selection it reports, the cost of the message put; whether the put may start an alter at all
(:func:`_may_alter`), and whether, in overflow mode, it selects again (reading ``cqs_reselect``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .usage import _metric

if TYPE_CHECKING:
    from ..group import GroupState
    from ..state import Structure


def _may_alter(s: Structure) -> bool:
    """CQS-003/016: whether a CQSPUT reaching OVFLWMAX starts an alter: on a queue structure (not a
    resource one) with no alter pending, not in overflow mode."""
    return not s.defn.resource and not s.alter_pending and not s.overflow_mode


def _reselect_due(model: GroupState, s: Structure, parts: int) -> bool:
    """Whether this CQSPUT, in overflow mode, takes usage to OVFLWMAX again and CQS selects more
    queues (reading ``cqs_reselect``).  A selection the implementation shows only later (no CQS
    signals) is not judged here."""
    if s.defn.resource or s.alter_pending or s.selection_open is not None:
        return False
    if model.hint is not None and not model.hint.cqs_signals:
        return False
    if not (_threshold_reached(model, s, parts) and model.readings.cqs_reselect == "select"):
        return False
    # "When the usage of a structure reaches the overflow threshold": whether a put that finds usage
    # at the threshold already (no new crossing) selects again is not stated, so there the
    # implementation's choice stands (its selection, if it makes one, is judged as any other)
    if model.hint is not None and not _selects(model, s.defn.name):
        before = model.before(s)
        return model.reached(before, s.defn.effective_ovflwmax, _metric(model), True) is False
    return True


def _round_unseen(model: GroupState, s: Structure, parts: int) -> bool:
    """Whether this CQSPUT may have run a further selection round (``cqs_reselect=select``) that an
    implementation showing no CQS signals did not show: its usage, if reported, reached OVFLWMAX."""
    hint = model.hint
    if hint is None or hint.cqs_signals or s.defn.resource or model.readings.cqs_reselect != "select":
        return False
    return model.after(s) is None or _threshold_reached(model, s, parts)


def _seen_cost(model: GroupState, s: Structure, parts: int) -> tuple[int, int] | None:
    """The entries and elements a CQSPUT of ``parts`` data objects added, as the implementation
    reported them (checker mode); unknown when queues moved to the overflow structure within it
    (its report then nets their departure against the message: CQS-011)."""
    before, after = model.before(s), model.after(s)
    if model.hint is None or before is None or after is None or before[1::2] != after[1::2]:
        return None
    if _selects(model, s.defn.name) or _moved_within(model, s, parts):
        return None
    return (after[0] - before[0], after[2] - before[2])


def _threshold_reached(model: GroupState, s: Structure, parts: int = 1) -> bool:
    """CQS-001/002/020: usage after the put at or over OVFLWMAX.  Where the implementation's figures
    leave it open (see :meth:`GroupState.reached`), its own report of starting the alter stands.
    ``parts``: the data objects the put adds (CQS-017), each a list entry of the primary."""
    name = s.defn.name
    after, before = model.after(s), model.before(s)
    if model.hint is not None and after is not None and before is not None:
        if _moved_within(model, s, parts):
            return True  # overflow processing ran in it
        # a CQSPUT whose alter completed inside it reports usage after the alter: the threshold was
        # met by what it put into the structure as it was before
        after = (after[0], before[1], after[2], before[3])
    elif model.hint is not None and after is not None and s.defn.ovflwstr is not None and _selects(model, name):
        # usage before the put unknown (the last report was the overflow structure's): figures taken
        # after queues moved within it cannot deny the threshold its own selection shows reached
        return True
    reached = model.reached(after, s.defn.effective_ovflwmax, _metric(model), True)
    if reached is None:
        hint = model.hint
        if hint is None:
            return False
        # (in overflow mode, a further selection round shows the threshold reached: cqs_reselect)
        again = s.overflow_mode and any(sig.startswith(f"OVERFLOW_QUEUE {name} ") for sig in hint.outcome.signals)
        return hint.says(f"ALTER {name}") or hint.says(f"OVERFLOW_ON {name}") or again
    return reached


def _selects(model: GroupState, name: str) -> bool:
    """Whether the implementation's outcome shows queues of structure ``name`` selected (CQS-006)."""
    hint = model.hint
    return hint is not None and any(sig.startswith(f"OVERFLOW_QUEUE {name} ") for sig in hint.outcome.signals)


def _moved_within(model: GroupState, s: Structure, parts: int) -> bool:
    """Whether the implementation's figures show queues moved to the overflow structure within a
    CQSPUT after which the primary holds at least ``parts`` more entries if nothing moved: it
    gained fewer (CQS-011)."""
    after, before = model.after(s), model.before(s)
    if model.hint is None or after is None or before is None:
        return False
    return after[0] < before[0] + parts or after[2] < before[2]
