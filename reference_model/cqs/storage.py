"""Where a CQS message's parts live and what they cost (CQS-011, CQS-012, CQS-017, CQS-019, CQS-021, CQS-022).

A message longer than LGMSGSZ is stored in parts: its first part on its queue (the primary, or the
overflow structure once its queue is in overflow mode), its later parts on the staging queue of the
primary.  Charging and releasing them, the space a queue's first parts use, and moving approved queues
to the overflow structure are here, beside the one question every put asks first: is its queue in
overflow mode.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..accounting import elements_for
from ..state import Message, Pools, Queue, Structure

if TYPE_CHECKING:
    from ..config import Accounting
    from ..group import GroupState


def message_parts(length: int, lgmsgsz: int, acct: Accounting) -> tuple[int, tuple[int, ...]]:
    """CQS-017: elements of the first part and of each later (staging) part of a ``length``-byte
    message, ``lgmsgsz`` being LGMSGSZ as rounded (CQS-021)."""
    if length <= lgmsgsz:
        return elements_for(length, acct), ()
    full, last = divmod(length - lgmsgsz, lgmsgsz)
    staged = (elements_for(lgmsgsz, acct),) * full + ((elements_for(last, acct),) if last else ())
    return elements_for(lgmsgsz, acct), staged


def _in_overflow(s: Structure, name: str) -> bool:
    """CQS-012/022: whether a CQSPUT to queue ``name`` finds it in overflow mode (rejected without an
    overflow structure, its first part put there with one)."""
    return name in s.overflow_queues


def _charge(s: Structure, msg: Message, sign: int) -> None:
    """Add (+1) or release (-1) a data object's storage: first part where it lives, later parts on the primary."""
    home = s.overflow_pools if msg.on_overflow else s.pools
    home.entries_used += sign  # type: ignore[union-attr]
    home.elements_used += sign * msg.elements  # type: ignore[union-attr]
    if msg.staged:
        s.pools.entries_used += sign * len(msg.staged)
        s.pools.elements_used += sign * sum(msg.staged)
        s.staging_depth += sign * len(msg.staged)


def _space(q: Queue) -> tuple[int, int]:
    """Entries and elements a queue's first parts use on the primary structure."""
    on_primary = [m for m in q.msgs if not m.on_overflow]
    return len(on_primary), sum(m.elements for m in on_primary)


def _in_parts(model: GroupState, names: Any) -> bool:
    """Whether a queue among ``names`` holds a message in parts: its cost then includes later parts
    that stay on the primary, so it overstates what selecting the queue frees."""
    return any(m.staged for n in names for m in model.queues[n].msgs)


def _first_parts(model: GroupState, q: Queue) -> list[int]:
    """The lengths of ``q``'s data objects on the primary, longest first: a message longer than
    LGMSGSZ keeps only its first part on the queue, the rest on the staging queue (CQS-017/019),
    so that is all of it that counts as the space the queue uses."""
    return sorted((min(m.length, model.lgmsgsz) for m in q.msgs if not m.on_overflow), reverse=True)


def _overflow_room(model: GroupState, s: Structure) -> tuple[int, int, int, int] | None:
    if s.defn.ovflwstr is None:
        return None
    if s.overflow_pools is None:
        s.overflow_pools = Pools(s.defn.ovflw_size_kb, s.defn.ratio, model.acct)
    return s.overflow_pools.as_tuple()


def _move(model: GroupState, s: Structure, names: list[str]) -> None:
    """CQS-011/019: first parts of approved queues move to the overflow structure (they fit: see select)."""
    _overflow_room(model, s)
    ovfl = s.overflow_pools
    for name in names:
        for msg in model.queues[name].msgs:
            if msg.on_overflow:
                continue
            s.pools.entries_used -= 1
            s.pools.elements_used -= msg.elements
            ovfl.entries_used += 1  # type: ignore[union-attr]
            ovfl.elements_used += msg.elements  # type: ignore[union-attr]
            msg.on_overflow = True
