"""Relations between an implementation's own storage figures across steps (pure).

The documents leave storage accounting to the coupling facility, so the checker never compares
an implementation's usage with the model's (DEVELOPERS.md, principle 2).  What they do state
holds for any accounting, and is checked here on the figures the implementation reports:

- ``usage.grows`` (QUEUE-004): putting a message never frees structure storage;
- ``usage.frees`` (CAPACITY-010): retrieving one outside syncpoint frees some ("referenced inside
  a coupling facility ... until they are retrieved by an MQGET");
- ``usage.entry`` (CAPACITY-012): "Each message on a shared queue is represented by an entry", so an
  MQ put adds at least one entry in use and a get outside syncpoint frees at least one;
- ``usage.offloaded`` (OFFLOAD-005): an offloaded message "still requires 0.75 KB of storage in
  the coupling facility", against its whole data kept in the structure, so once a message of a
  few KB is offloaded it costs no more elements than a message at least as long kept whole;
- ``usage.grown`` (CAPACITY-004): SETXCF ALTER "alters the size of the structure to newsize", so a
  structure its ``inspect`` shows at a surely larger size offers more storage than it did before
  the alter: more entries or more elements in all (however the two are split).  "Surely larger"
  is at least a quarter and 64 KB more: a coupling facility allocates in storage increments and
  control storage of its own, so a few KB more may buy no element (no sentence says otherwise).
"""

from __future__ import annotations

from typing import Any

from cfconform.reference_model.operations import Get, Put
from cfconform.reference_model.outcomes import Outcome

from .compare import FieldDiff, diff

Pools4 = tuple[int, int, int, int]
#: Offloaded messages at least this long are compared with messages kept whole: well above the
#: 0.75 KB an offloaded message still needs, so keeping one whole certainly costs more.
OFFLOAD_COMPARED_FROM = 4 * 1024
#: An alter that grows a structure by less than this (both parts) is not judged by ``usage.grown``.
SURELY_GROWS_KB = 64
SURELY_GROWS_FACTOR = 1.25


class UsageRelations:
    """What one trace has shown of an implementation's storage, per structure."""

    def __init__(self) -> None:
        #: (length, elements added) of puts kept whole, and of offloaded puts, per structure.
        self.kept: dict[str, list[tuple[int, int]]] = {}
        self.offloaded: dict[str, list[tuple[int, int]]] = {}
        #: Usage before a commit that released gets, per structure (see :meth:`settled`).
        self.pending_free: dict[str, Pools4] = {}
        #: Structures altered to a larger size: (the new size, the totals offered before it).
        self.growing: dict[str, tuple[int, Pools4]] = {}

    def altered(self, structure: str, old_kb: int, new_kb: int, before: Pools4 | None) -> None:
        """SETXCF ALTER of ``structure`` from ``old_kb`` to a surely larger ``new_kb`` was accepted (CAPACITY-004)."""
        surely = new_kb - old_kb >= SURELY_GROWS_KB and new_kb >= old_kb * SURELY_GROWS_FACTOR
        if surely and before is not None:
            self.growing[structure] = (new_kb, before)

    def inspected(self, structures: Any) -> FieldDiff | None:
        """``usage.grown``: at an ``inspect`` showing a structure at the size it was altered to, it
        offers more entries or more elements than before the alter."""
        for name, (size, before) in list(self.growing.items()):
            shown = structures.get(name) if isinstance(structures, dict) else None
            if not isinstance(shown, dict) or shown.get("size_kb") != size:
                continue
            totals = (shown.get("entries_total"), shown.get("elements_total"))
            if not all(isinstance(v, int) for v in totals):
                continue
            del self.growing[name]
            if totals[0] <= before[1] and totals[1] <= before[3]:
                expected = f"more entries or elements than the {before[1]} and {before[3]} before SETXCF ALTER"
                return diff("usage.grown", "usage", expected, list(totals))
        return None

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
        for v in (*before, *after):
            if not isinstance(v, int):
                return None
        if isinstance(op, Get) and not op.syncpoint and not _less(after, before):
            # CAPACITY-010: "referenced ... until they are retrieved by an MQGET": the get frees storage
            return diff("usage.frees", "usage", f"less in use than before the get {list(before)}", list(after))
        if isinstance(op, Get) and not op.syncpoint and profile == "mq" and after[0] >= before[0]:
            return diff(
                "usage.entry", "usage", f"an entry fewer in use than before the get {list(before)}", list(after)
            )
        if isinstance(op, Put) and profile == "mq":  # a CQSPUT reaching OVFLWMAX may move queues off
            return self._put(op, observed, before, after, structure)
        return None

    def settled(self, structure: str, before: Pools4 | None) -> None:
        """A commit released gets made under syncpoint on ``structure`` (usage ``before`` it): the next
        usage reported for it, with no put in between, must be lower (CAPACITY-010)."""
        if before is not None:
            self.pending_free[structure] = before

    def later(self, op: Any, after: dict[str, Pools4]) -> FieldDiff | None:
        """Check and clear what earlier steps made due (see :meth:`settled`)."""
        if isinstance(op, Put):
            self.pending_free.clear()
            return None
        for name, pools in after.items():
            due = self.pending_free.pop(name, None)
            if due is not None and not _less(pools, due):
                return diff("usage.frees", "usage", f"less in use than before the commit {list(due)}", list(pools))
        return None

    def _put(self, op: Put, observed: Outcome, before: Pools4, after: Pools4, structure: str) -> FieldDiff | None:
        if after[0] < before[0] or after[2] < before[2]:
            return diff("usage.grows", "usage", f"no less in use than before the put {list(before)}", list(after))
        if after[0] <= before[0]:  # CAPACITY-012: the message is an entry of its own
            return diff("usage.entry", "usage", f"an entry more in use than before the put {list(before)}", list(after))
        added = after[2] - before[2]
        if observed.offloaded is True and op.length >= OFFLOAD_COMPARED_FROM:
            dearer = [(n, e) for n, e in self.kept.get(structure, ()) if n >= op.length and e < added]
            if dearer:
                return _costlier(added, f"at most {dearer[0][1]}, what a {dearer[0][0]}-byte message kept whole added")
            self.offloaded.setdefault(structure, []).append((op.length, added))
        elif observed.offloaded is False:
            cheaper = [(n, e) for n, e in self.offloaded.get(structure, ()) if n <= op.length and e > added]
            if cheaper:
                return _costlier(
                    added, f"at least {cheaper[0][1]}, what an offloaded {cheaper[0][0]}-byte message added"
                )
            self.kept.setdefault(structure, []).append((op.length, added))
        return None


def _less(after: Pools4, before: Pools4) -> bool:
    """Fewer entries or fewer elements in use, and neither more."""
    return after[0] <= before[0] and after[2] <= before[2] and (after[0] < before[0] or after[2] < before[2])


def _costlier(added: int, expected: str) -> FieldDiff:
    """OFFLOAD-005: an offloaded message and one kept whole compared by the elements they added."""
    return diff("usage.offloaded", "usage.elements_added", expected, added)
