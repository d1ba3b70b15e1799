"""Selecting queues for overflow (CQS-006, CQS-007, CQS-009, CQS-010, CQS-018).

The model's own selection (:func:`select`: approved candidates, largest first, until projected usage
meets the target), the judging of the selection an implementation reports (:func:`_select_reported`,
:func:`_selection_sound`, on its own figures when it showed each message's cost), a selection kept
open while an implementation shows none (:func:`_select_open`), and a further selection round in
overflow mode (:func:`_reselect`, reading ``cqs_reselect``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..accounting import fits, usage_pct
from .sizes import _first_pick, _fits_overflow, _surely_fits, _surely_fits_all, _surely_larger
from .storage import _first_parts, _in_parts, _move, _overflow_room, _space
from .usage import _metric, target

if TYPE_CHECKING:
    from ..group import GroupState
    from ..state import Structure


def _reselect(model: GroupState, s: Structure) -> list[str]:
    """Another selection round over the queues not yet in overflow mode (CQS-006/007/009/010): the
    implementation's, when each queue it names is an unvetoed candidate holding data, the first pick
    among them (or, without OVFLWSTR, none: see below), and (without OVFLWSTR) no candidate certainly
    larger than one chosen is passed over; else the model's own.  Approved queues move with OVFLWSTR (CQS-011)."""
    name, vetoes = s.defn.name, frozenset(model.overflow_exit or ())
    mine = {
        q.defn.name: q
        for q in model.queues.values()
        if q.defn.cfstruct == name and q.msgs and q.defn.name not in s.overflow_queues
    }
    chosen = None
    if model.hint is not None:
        prefix = f"OVERFLOW_QUEUE {name} "
        reported = [sig[len(prefix) :] for sig in model.hint.outcome.signals if sig.startswith(prefix)]
        candidates = {n: _first_parts(model, q) for n, q in mine.items() if n not in vetoes}
        sound = set(reported) <= set(candidates) and len(set(reported)) == len(reported)
        if sound and s.defn.ovflwstr is None:
            passed = [q for n, q in mine.items() if n not in reported and n not in vetoes]
            sound = not any(_surely_larger(model, b, mine[a]) for a in reported for b in passed)
        first = _first_pick(candidates)
        # without OVFLWSTR the data of queues selected earlier stays: whether "enough queues have
        # been selected" counts them as gone is not stated, so a round may select none at all
        done = s.defn.ovflwstr is None and not reported
        sound = sound and (done or first is None or first in reported or not _surely_fits(s, candidates[first]))
        chosen = reported if sound else None
    if chosen is None:
        hint, model.hint = model.hint, None
        try:
            chosen = select(model, s, exclude=frozenset(s.overflow_queues))
        finally:
            model.hint = hint
    s.overflow_queues |= set(chosen)
    if s.defn.ovflwstr is not None:
        _move(model, s, chosen)
    return chosen


def _candidates(model: GroupState, s: Structure) -> list[tuple[str, int, int]]:
    """CQS-006/018: the queues of ``s`` using space on the primary, ``(name, entries, elements)``,
    largest first.  The staging queue is not a queue of ours at all, so it is never a candidate;
    queues using no space are not candidates: moving them would not lower usage."""
    sized = [(q.defn.name, *_space(q)) for q in model.queues.values() if q.defn.cfstruct == s.defn.name]
    return sorted((c for c in sized if c[1]), key=lambda c: (-c[2], -c[1], c[0]))


def _vetoes(model: GroupState) -> frozenset[str]:
    """CQS-009/010: the queues the Queue Overflow exit rejects (none without an exit)."""
    return frozenset(model.overflow_exit or ())


def select(model: GroupState, s: Structure, exclude: frozenset[str] = frozenset()) -> list[str]:
    """CQS-006/007/009/010/018: approved queues, largest first, until projected usage meets the target.

    With an overflow structure, a queue whose data objects would not all fit
    there is passed over, since a queue is never in both structures (CQS-011).
    """
    if model.hint is not None:
        return _select_reported(model, s)
    metric = model.readings.cqs_usage_metric
    eu, et, lu, lt = model.pools(s)
    goal = target(model, s)
    vetoes = _vetoes(model) | exclude
    room = _overflow_room(model, s)
    approved: list[str] = []
    for name, entries, elements in _candidates(model, s):
        if usage_pct(metric, (eu, et, lu, lt), model.acct) <= goal:
            break
        if name in vetoes:
            continue
        if room is not None:
            if not fits(room, entries, elements):
                continue
            room = (room[0] + entries, room[1], room[2] + elements, room[3])
        approved.append(name)
        eu, lu = eu - entries, lu - elements
    return approved


def _select_reported(model: GroupState, s: Structure) -> list[str]:
    """Checker mode: how much space each queue uses is the implementation's, so the queues it
    reports selected stand if they keep what the documents state (CQS-006/009, ibm-facts 1.3): each
    is a queue of this structure holding data, none was vetoed by the exit, and, without an overflow
    structure, none was chosen while an unvetoed queue that certainly uses more space was passed
    over.  Otherwise the model's own selection is expected, and the divergence names the rules."""
    name = s.defn.name
    if not model.hint.cqs_signals:  # type: ignore[union-attr]
        return _select_open(model, s)
    prefix = f"OVERFLOW_QUEUE {name} "
    reported = [sig[len(prefix) :] for sig in model.hint.outcome.signals if sig.startswith(prefix)]  # type: ignore[union-attr]
    mine = {q.defn.name: q for q in model.queues.values() if q.defn.cfstruct == name and q.msgs}
    vetoes = frozenset(model.overflow_exit or ())
    sound = all(n in mine and n not in vetoes for n in reported) and len(set(reported)) == len(reported)
    if sound:  # (with OVFLWSTR a queue may be passed over because its data would not fit there)
        passed = [q for n, q in mine.items() if n not in reported and n not in vetoes and _fits_overflow(model, s, q)]
        sound = not any(_surely_larger(model, b, mine[a]) for a in reported for b in passed)
    candidates = {n: _first_parts(model, q) for n, q in mine.items() if n not in vetoes}
    first = _first_pick(candidates) if s.pick_due else None
    sound = sound and (first is None or first in reported or not _surely_fits(s, candidates[first]))
    s.selection_costs = _costs(model, s, list(candidates))
    if sound and not _selection_sound(model, s, set(reported)):
        sound = False
    if sound:
        return reported
    by_costs = _select_by_costs(model, s)
    s.selection_by_costs = by_costs is not None
    if by_costs is not None:
        return by_costs
    hint, model.hint = model.hint, None
    try:
        return select(model, s)
    finally:
        model.hint = hint


def _select_open(model: GroupState, s: Structure) -> list[str]:
    """An implementation that reports no CQS signals shows its selection only later, in puts it
    rejects and in ``inspect``: the model selects on its own accounting and keeps the selection open,
    so that what the implementation shows is adopted when it keeps the documented relations
    (:func:`adopt_put`, :func:`adopt_selection`)."""
    hint, model.hint = model.hint, None
    try:
        chosen = select(model, s)
    finally:
        model.hint = hint
    vetoes = frozenset(model.overflow_exit or ())
    s.selection_open = _open_candidates(model, s, lambda q: bool(q.msgs) and q.defn.name not in vetoes)
    s.selection_costs = _costs(model, s, list(s.selection_open))
    s.selection_shown = set()
    by_costs = _select_by_costs(model, s)
    s.selection_by_costs = by_costs is not None
    if by_costs is not None:
        return by_costs
    first = _first_pick(s.selection_open) if s.pick_due else None
    return chosen if first is None or first in chosen else [*chosen, first]


def _open_candidates(model: GroupState, s: Structure, keep: Any) -> dict[str, list[int]]:
    """The queues of ``s`` that ``keep`` admits to a selection the implementation has not shown yet,
    each with the lengths of its data objects on the primary (longest first)."""
    return {
        q.defn.name: _first_parts(model, q) for q in model.queues.values() if q.defn.cfstruct == s.defn.name and keep(q)
    }


def _select_by_costs(model: GroupState, s: Structure) -> list[str] | None:
    """CQS-006/007 on the implementation's own figures: largest first (elements), until projected
    usage is at or below the target.  Queues of equal size are taken in name order here; the
    implementation's own order among them is adopted when it shows it (ties are not documented)."""
    costs, seen = s.selection_costs, s.overflow_seen
    if costs is None or seen is None or s.defn.ovflwstr is not None:
        return None
    if _in_parts(model, costs):
        return None
    metric, goal = _metric(model), target(model, s)
    eu, et, lu, lt = seen
    chosen: list[str] = []
    for name in sorted(costs, key=lambda n: (-costs[n][1], -costs[n][0], n)):
        if usage_pct(metric, (eu, et, lu, lt), model.acct) <= goal:
            break
        chosen.append(name)
        eu, lu = eu - costs[name][0], lu - costs[name][1]
    return chosen


def _costs(model: GroupState, s: Structure, names: list[str]) -> dict[str, tuple[int, int]] | None:
    """What each queue uses of the primary structure in the implementation's own units, when every
    message's cost was seen (the usage it reported before and after the put; for a message in parts,
    its later parts included)."""
    out = {}
    for name in names:
        entries = elements = 0
        for m in model.queues[name].msgs:
            if m.on_overflow:
                continue
            if m.cost is None:
                return None
            entries, elements = entries + m.cost[0], elements + m.cost[1]
        out[name] = (entries, elements)
    return out


def _selection_sound(model: GroupState, s: Structure, chosen: set[str], complete: bool = True) -> bool:
    """CQS-006/007 on the implementation's own figures, when it showed each message's cost: queues
    are taken largest first (by elements) and selection stops once projected usage is at or below
    the target (so without the smallest one it was not), and, without an overflow structure, it
    does not stop short of the target while a candidate is left."""
    costs, seen = s.selection_costs, s.overflow_seen
    if costs is None or seen is None:
        return True
    if not chosen:  # overflow starts above the target: an empty selection leaves a candidate unselected
        if not (complete and s.pick_due and costs):
            return True  # (with OVFLWSTR, unless none would surely fit the overflow structure)
        return s.defn.ovflwstr is not None and not any(_surely_fits_all(model, s, [n]) for n in costs)
    metric, goal = _metric(model), target(model, s)

    def projected(names: set[str]) -> float:
        eu, et, lu, lt = seen
        e, el = sum(costs[n][0] for n in names), sum(costs[n][1] for n in names)
        return usage_pct(metric, (eu - e, et, lu - el, lt), model.acct)

    passed = [n for n in costs if n not in chosen]
    # a message in parts leaves its later parts on the primary: its cost overstates what moving its
    # queue frees, so only the under-selection check (which that overstatement cannot fool) applies
    exact = not _in_parts(model, costs)
    # with an overflow structure a larger queue is passed over when its data would not fit there
    # beside the chosen ones: only a passed queue that surely fits shows a smaller one taken before it
    larger = [b for b in passed if s.defn.ovflwstr is None or _surely_fits_all(model, s, [*chosen, b])]
    if exact and any(costs[b][1] > costs[a][1] and costs[b][0] >= costs[a][0] for a in chosen for b in larger):
        return False
    smallest = min(chosen, key=lambda n: costs[n][1])
    if exact and len(chosen) > 1 and projected(chosen - {smallest}) <= goal:
        return False
    # (with part of the selection known, only what more queues could not mend is judged; with an
    # overflow structure, a queue is passed over when its data would not fit there, so stopping short
    # is judged only while a passed queue would surely fit beside the chosen ones: _surely_fits)
    if not (complete and passed and projected(chosen) > goal):
        return True
    return s.defn.ovflwstr is not None and not any(_surely_fits_all(model, s, [*chosen, b]) for b in passed)
