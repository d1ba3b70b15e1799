"""Which queue certainly uses more space, and what certainly fits the overflow structure (CQS-006, CQS-011).

In checker mode the bytes a message costs are the implementation's, so the selection is judged only
where the documents decide it under any accounting: a queue whose data objects are certainly larger
(:func:`_larger`), the first pick any selection must take (:func:`_first_pick`), and data objects that
surely fit an empty overflow structure (:func:`_surely_fits`, by Table 2's fixed part and margin).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..group import TABLE2_FIXED_KB, TABLE2_MARGIN
from .storage import _first_parts

if TYPE_CHECKING:
    from ..group import GroupState
    from ..state import Queue, Structure


#: A data object at least this long costs some storage under any accounting (more than an entry's
#: adjunct area can hold, at least one element of any size a product would choose).
SURELY_COSTS = 2048


#: The bytes an entry and each of its elements may take at the most that :func:`_surely_fits` allows
#: for: z/OS list structures use 256-byte elements, and an entry is smaller than that.
SURELY_ELEMENT_BYTES = 256


def _surely_fits(s: Structure, lengths: list[int]) -> bool:
    """Whether a queue's data objects certainly fit an empty overflow structure (or there is none):
    four times what Table 2 says they cost within the storage it has for messages, and four times
    the list entries they need, each entry coming with ``ratio`` elements (a structure of many
    elements per entry has few entries: the seventh reading's, at ratio 90, holds two)."""
    if s.defn.ovflwstr is None:
        return True
    if s.overflow_pools is not None and s.overflow_pools.entries_used:
        return False
    room = (s.defn.ovflw_size_kb - TABLE2_FIXED_KB) * 1024
    per_entry = (1 + s.defn.ratio) * SURELY_ELEMENT_BYTES
    bytes_ok = room >= TABLE2_MARGIN * sum(n + 1024 for n in lengths)
    return bytes_ok and room >= TABLE2_MARGIN * len(lengths) * per_entry


def _surely_fits_all(model: GroupState, s: Structure, names: list[str]) -> bool:
    """Whether the data objects of the queues ``names`` certainly fit the overflow structure together."""
    return _surely_fits(s, [n for name in names for n in _first_parts(model, model.queues[name])])


def _first_pick(candidates: dict[str, list[int]]) -> str | None:
    """The queue any selection must take first (CQS-006: "selects queues using the most space"): the
    only candidate, or one certainly larger than every other.  Overflow mode starts at or above the
    threshold, above the target, so selection takes at least one queue when there is a candidate."""
    names = [n for n, lengths in candidates.items() if lengths]
    for n in names:
        if all(o == n or _larger(candidates[n], candidates[o]) for o in names):
            return n
    return None


def _larger(b: list[int], a: list[int]) -> bool:
    """Whether data objects of lengths ``b`` use more space than those of ``a`` (longest first) under
    any accounting that charges a longer object no less and an object of SURELY_COSTS bytes
    something, even if ``b``'s longest object was not counted yet (an alter completed inside the
    CQSPUT that added it may select before the put's object is on the queue): without it, ``b``
    still has an object at least as long as each of ``a``'s, and another of SURELY_COSTS bytes."""
    rest = b[1:]
    if not a or len(rest) <= len(a) or any(y < x for y, x in zip(rest, a, strict=False)):
        return False
    return any(y >= SURELY_COSTS for y in rest[len(a) :])


def _fits_overflow(model: GroupState, s: Structure, q: Queue) -> bool:
    """Whether ``q``'s data objects certainly fit the overflow structure (or there is none)."""
    return s.defn.ovflwstr is None or _surely_fits(s, _first_parts(model, q))


def _surely_larger(model: GroupState, big: Queue, small: Queue) -> bool:
    """Whether ``big`` uses more structure space than ``small``: see :func:`_larger`."""
    return _larger(_first_parts(model, big), _first_parts(model, small))
