"""Relations between an implementation's own storage figures across steps (pure).

The documents leave storage accounting to the coupling facility, so the checker never compares
an implementation's usage with the model's (DEVELOPERS.md, principle 2).  What they do state
holds for any accounting, and is checked here on the figures the implementation reports:

- ``usage.grows`` (QUEUE-004, CAPACITY-010): putting a message never frees structure storage,
  and retrieving one outside syncpoint never uses more;
- ``usage.offloaded`` (OFFLOAD-005): an offloaded message "still requires 0.75 KB of storage in
  the coupling facility", against its whole data kept in the structure, so once a message of a
  few KB is offloaded it costs no more elements than a message at least as long kept whole.
"""

from __future__ import annotations

from typing import Any

from conformance.compare import FieldDiff, diff
from reference_model.operations import Get, Put
from reference_model.outcomes import Outcome

Pools4 = tuple[int, int, int, int]
#: Offloaded messages at least this long are compared with messages kept whole: well above the
#: 0.75 KB an offloaded message still needs, so keeping one whole certainly costs more.
OFFLOAD_COMPARED_FROM = 4 * 1024


class UsageRelations:
    """What one trace has shown of an implementation's storage, per structure."""

    def __init__(self) -> None:
        #: (length, elements added) of puts kept whole, and of offloaded puts, per structure.
        self.kept: dict[str, list[tuple[int, int]]] = {}
        self.offloaded: dict[str, list[tuple[int, int]]] = {}

    def check(
        self,
        op: Any,
        observed: Outcome,
        before: Pools4 | None,
        after: Pools4 | None,
        structure: str | None,
        profile: str = "mq",
    ) -> FieldDiff | None:
        """The first relation this step breaks, if any."""
        if structure is None or before is None or after is None or not observed.ok:
            return None
        if not all(isinstance(v, int) for v in (*before, *after)):
            return None
        if profile != "mq":  # a CQSPUT reaching OVFLWMAX may move queues off the primary structure
            return None
        if isinstance(op, Put):
            return self._put(op, observed, before, after, structure)
        if isinstance(op, Get) and not op.syncpoint and (after[0] > before[0] or after[2] > before[2]):
            return diff("usage.grows", "usage", f"no more in use than before the get {list(before)}", list(after))
        return None

    def _put(self, op: Put, observed: Outcome, before: Pools4, after: Pools4, structure: str) -> FieldDiff | None:
        if after[0] < before[0] or after[2] < before[2]:
            return diff("usage.grows", "usage", f"no less in use than before the put {list(before)}", list(after))
        added = after[2] - before[2]
        if observed.offloaded is True and op.length >= OFFLOAD_COMPARED_FROM:
            dearer = [(n, e) for n, e in self.kept.get(structure, ()) if n >= op.length and e < added]
            if dearer:
                n, e = dearer[0]
                return diff(
                    "usage.offloaded",
                    "usage.elements_added",
                    f"at most {e}, what a {n}-byte message kept in the structure added",
                    added,
                )
            self.offloaded.setdefault(structure, []).append((op.length, added))
        elif observed.offloaded is False:
            cheaper = [(n, e) for n, e in self.offloaded.get(structure, ()) if n <= op.length and e > added]
            if cheaper:
                n, e = cheaper[0]
                return diff(
                    "usage.offloaded",
                    "usage.elements_added",
                    f"at least {e}, what an offloaded {n}-byte message added",
                    added,
                )
            self.kept.setdefault(structure, []).append((op.length, added))
        return None
