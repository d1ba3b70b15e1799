"""The variants minimisation tries on a failing trace (judge/shrink.py keeps the ones that
still fail the same way and are smaller): smaller configurations, simpler operations, and
operations made part of the configuration."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Any

import attrs

from cfconform.reference_model import operations as o
from cfconform.reference_model.codec import queue_from_record, structure_from_record
from cfconform.reference_model.config import Config, QueueDef, StructureDef
from cfconform.reference_model.errors import ConfigurationError

from . import shrink_cqs, shrink_depths, shrink_offload

#: Usable sizes (KB above the fixed overhead) tried for each structure, smallest first.
_SIZE_LADDER = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 128, 256)
_RATIOS = (1, 2, 4, 6, 12, 60, 90)


def referenced(ops: Iterable[Any]) -> set[str]:
    """The queue and structure names the operations name."""
    names: set[str] = set()
    for op in ops:
        names.update(
            v
            for k, v in attrs.asdict(op, recurse=False).items()
            if k in ("queue", "cfstruct", "name") and isinstance(v, str)
        )
    return names


def pruned(config: Config, ops: Sequence[Any], named: set[str] | None = None) -> list[Config]:
    """The configuration without the queues no operation names (filler queues, say), then also
    without the structures neither an operation nor a remaining queue names (filler structures).
    ``named``: :func:`referenced` of ``ops``, when the caller has it already."""
    used = set(referenced(ops) if named is None else named)
    queues = tuple(q for q in config.queues if q.name in used)
    used |= {q.cfstruct for q in queues if q.cfstruct}
    structures = tuple(s for s in config.structures if s.name in used) or config.structures[:1]
    out = []
    for changes in ({"queues": queues, "structures": structures}, {"queues": queues}):
        try:
            smaller = attrs.evolve(config, **changes)
        except ConfigurationError:
            continue
        if smaller != config and smaller not in out:
            out.append(smaller)
    return out


def smaller_configs(config: Config, ops: Sequence[Any]) -> list[Config]:
    """Simpler variants to try: fewer queues, smaller structures, other ratios, lower thresholds,
    smaller MAXDEPTHs, depth thresholds a short trace reaches."""
    used = referenced(ops)
    out: list[Config | None] = [*pruned(config, ops, used)]
    last: list[Config | None] = []  # tried after all the others (each costs windows of replays)
    fixed = config.accounting.fixed_kb
    used = used | {q.cfstruct for q in config.queues if q.name in used and q.cfstruct}
    for i, s in enumerate(config.structures):
        if s.name not in used:
            continue  # e.g. the filler structures before a 64th: their sizes decide nothing

        def swap(new: Any, i: int = i) -> Config | None:
            try:
                return attrs.evolve(config, structures=(*config.structures[:i], new, *config.structures[i + 1 :]))
            except ConfigurationError:  # e.g. INITSIZE above the smaller SIZE
                return None

        if config.profile == "mq":  # the offload rules are MQ's; a rule met sooner shortens the trace most
            out += [swap(simpler) for simpler in shrink_offload.simpler_rules(s)]
        grows = s.effective_initsize_kb < s.size_kb and any(
            isinstance(op, o.AlterOutcome | o.SetxcfAlter) and op.cfstruct == s.name for op in ops
        )
        for usable in (u for u in _SIZE_LADDER if fixed + u < s.size_kb):
            initsize = None if s.initsize_kb is None else min(s.initsize_kb, fixed + usable)
            out.append(swap(attrs.evolve(s, size_kb=fixed + usable, initsize_kb=initsize)))
            if grows and usable > 1:  # a structure the trace alters keeps room between INITSIZE and SIZE
                last.append(swap(attrs.evolve(s, size_kb=fixed + usable, initsize_kb=fixed + usable // 2)))
        # a lower INITSIZE alone keeps SETXCF ALTER sizes between INITSIZE and SIZE valid
        for usable in (u for u in _SIZE_LADDER if fixed + u < s.effective_initsize_kb):
            out.append(swap(attrs.evolve(s, initsize_kb=fixed + usable)))
        out += [swap(attrs.evolve(s, ratio=r)) for r in _RATIOS if r != s.ratio]
        # A lower threshold is reached in fewer puts (kept only if the reproducer gets shorter).
        if s.fullthreshold > 1:
            out.append(swap(attrs.evolve(s, fullthreshold=1)))
        if config.profile == "cqs" and not s.resource:
            # the lowest threshold is reached first; the highest leaves the most room between
            # the threshold and the selection goal 20% below it (CQS-004, CQS-007)
            out += [swap(attrs.evolve(s, ovflwmax=v)) for v in (1, 100) if v != s.effective_ovflwmax]
    kept = [c for c in out if c is not None]
    for i, q in enumerate(config.queues):
        if q.name not in used:
            continue  # e.g. the filler queues before a 513th
        variants = [attrs.evolve(q, maxdepth=d) for d in (1, 2, 3, 5, q.maxdepth // 2) if 0 < d < q.maxdepth]
        # QDEPTHHI and QDEPTHLO nearer the depths a short trace reaches
        variants += [attrs.evolve(q, qdepthhi=p) for p in (1, 50) if p < q.qdepthhi]
        variants += [attrs.evolve(q, qdepthlo=p) for p in (50, 99) if q.qdepthlo < p <= q.qdepthhi]
        # the limits themselves: depth 0 reaches QDEPTHLO 0, MAXDEPTH reaches QDEPTHHI 100
        variants += [attrs.evolve(q, qdepthlo=0)] if q.qdepthlo > 0 else []
        variants += [attrs.evolve(q, qdepthhi=100)] if q.qdepthhi < 100 else []
        # an event switch set differently from the start saves the operations that toggled it
        variants += [attrs.evolve(q, **{flag: not getattr(q, flag)}) for flag in shrink_depths.EVENT_SWITCHES]
        # MAXDEPTH 0: every put is Queue Full at once (QDEPTH-003..006), with the event switches
        # as the operations before the full queue had left them (a Queue Full event's toggles)
        variants += [attrs.evolve(q, maxdepth=0)] if q.maxdepth > 0 else []
        variants += shrink_depths.full_at_once(q)
        for smaller_q in variants:
            kept.append(attrs.evolve(config, queues=(*config.queues[:i], smaller_q, *config.queues[i + 1 :])))
    return kept + [c for c in last if c is not None]


def qmgrs_named(ops: Sequence[Any]) -> int:
    """How many queue managers put or get: fewer is simpler (and lets their puts merge)."""
    return len({op.qmgr for op in ops if isinstance(op, o.Put | o.Get)})


def one_caller(ops: Sequence[Any]) -> list[list[Any]]:
    """Every put and get issued by the queue manager of the first one (no unit of work open:
    a commit or backout names the queue manager whose work it ends)."""
    if qmgrs_named(ops) < 2 or any(isinstance(op, o.Commit | o.Backout) for op in ops):
        return []
    first = next(op.qmgr for op in ops if isinstance(op, o.Put | o.Get))
    return [[attrs.evolve(op, qmgr=first) if isinstance(op, o.Put | o.Get) else op for op in ops]]


def outside_syncpoint(ops: Sequence[Any]) -> list[list[Any]]:
    """Every put and get outside syncpoint, and no COMMIT or BACKOUT: a unit of work that only
    made a message count before it was committed costs a step for the commit (and a get that
    follows it may then go too)."""
    if not any(isinstance(op, o.Put | o.Get) and op.syncpoint for op in ops):
        return []
    return [
        [
            attrs.evolve(op, syncpoint=False) if isinstance(op, o.Put | o.Get) else op
            for op in ops
            if not isinstance(op, o.Commit | o.Backout)
        ]
    ]


def empty_messages(ops: Sequence[Any], sized: list[int]) -> list[list[Any]]:
    """Every put at ``sized`` positions with an empty message, or with a one-byte message (an
    offload rule of OFFLDnSZ(0) may need a length above it, OFFLOAD-002), then each on its own
    with an empty message: a reproducer whose lengths do not matter shows it."""
    out = [[attrs.evolve(op, length=0) if i in sized else op for i, op in enumerate(ops)]] if sized else []
    longer = [i for i in sized if ops[i].length > 1]
    out += [[attrs.evolve(op, length=1) if i in longer else op for i, op in enumerate(ops)]] if longer else []
    if len(sized) > 1:
        out += [[*ops[:i], attrs.evolve(ops[i], length=0), *ops[i + 1 :]] for i in sized]
    return out


def simpler_operations(config: Config, ops: Sequence[Any]) -> list[list[Any]]:
    """The operations with one SETXCF ALTER size lowered (smallest first): a contraction further
    below the storage in use needs fewer puts to fill that storage (CAPACITY-006); an alter
    outcome to SIZE rather than a given size (the structure can then shrink under it, CQS-004);
    every put and get by one caller, or outside syncpoint; empty messages; or with two puts to the same queue by the
    same caller made one put of both lengths, or of as many data elements (the space they take
    is reached in one step; OVFLWMAX counts elements, CQS-020)."""
    fixed = config.accounting.fixed_kb
    out: list[list[Any]] = one_caller(ops) + outside_syncpoint(ops)
    for i, op in enumerate(ops):
        if isinstance(op, o.SetxcfAlter) and op.size_kb > fixed + 1:
            for usable in (u for u in _SIZE_LADDER if fixed + u < op.size_kb):
                out.append([*ops[:i], attrs.evolve(op, size_kb=fixed + usable), *ops[i + 1 :]])
        if isinstance(op, o.AlterOutcome) and op.size_kb is not None:
            out.append([*ops[:i], attrs.evolve(op, size_kb=None), *ops[i + 1 :]])
    # two clock advances in a row made one (the scans they pass are the same: CQS-013)
    out += [
        [*ops[:i], o.AdvanceClock(first.seconds + second.seconds), *ops[i + 2 :]]
        for i, (first, second) in enumerate(pairwise(ops))
        if isinstance(first, o.AdvanceClock) and isinstance(second, o.AdvanceClock)
    ]
    puts = [i for i, op in enumerate(ops) if isinstance(op, o.Put)]
    out += empty_messages(ops, [i for i in puts if ops[i].length > 0])
    acct = config.accounting
    # both lengths; and as many data elements as the two took (one header, up to an element's rounding)
    extras = (0, acct.header_bytes, acct.header_bytes + acct.element_bytes - 1)
    for i, j in pairwise(puts):
        first, second = ops[i], ops[j]
        if (first.qmgr, first.queue, first.syncpoint) == (second.qmgr, second.queue, second.syncpoint):
            for extra in extras:
                merged = attrs.evolve(first, length=first.length + second.length + extra)
                out.append([*ops[:i], merged, *ops[i + 1 : j], *ops[j + 1 :]])
    return out


def folded(config: Config, ops: Sequence[Any]) -> list[tuple[Config, list[Any]]]:
    """An ALTER QLOCAL or ALTER CFSTRUCT, a DEFINE QLOCAL or DEFINE CFSTRUCT of a new object, an
    ALTER QMGR PERFMEV, a SETXCF ALTER (as INITSIZE), or a leading Queue Overflow exit change, made
    part of the configuration
    instead (one step fewer: the generator's probes define a structure and a queue, or set their
    limits, thresholds and switches, with a command before using them).  An object altered after
    it was used starts with the new settings instead; the variant is kept only if the trace
    still fails the same way."""
    out: list[tuple[Config, list[Any]]] = []
    names = {q.name for q in config.queues}
    structure_names = {s.name for s in config.structures}
    for i, op in enumerate(ops):
        rest = [*ops[:i], *ops[i + 1 :]]
        try:
            if isinstance(op, o.AlterQueue):
                queues = tuple(attrs.evolve(q, **dict(op.changes)) if q.name == op.name else q for q in config.queues)
                out.append((attrs.evolve(config, queues=queues), rest))
            elif isinstance(op, o.DefineQueue):
                qd = op.queue if isinstance(op.queue, QueueDef) else queue_from_record(op.queue)
                if qd.name not in names:
                    out.append((attrs.evolve(config, queues=(*config.queues, qd)), rest))
            elif isinstance(op, o.DefineStructure):
                sd = op.structure if isinstance(op.structure, StructureDef) else structure_from_record(op.structure)
                if sd.name not in structure_names:
                    out.append((attrs.evolve(config, structures=(*config.structures, sd)), rest))
            elif isinstance(op, o.AlterStructure):
                structures = tuple(
                    attrs.evolve(s, **dict(op.changes)) if s.name == op.name else s for s in config.structures
                )
                out.append((attrs.evolve(config, structures=structures), rest))
            elif isinstance(op, o.SetxcfAlter):  # the structure allocated at the altered size instead
                structures = tuple(
                    attrs.evolve(s, initsize_kb=op.size_kb) if s.name == op.cfstruct else s for s in config.structures
                )
                out.append((attrs.evolve(config, structures=structures), rest))
            elif i == 0 and isinstance(op, o.SetOverflowExit):
                out.append((attrs.evolve(config, overflow_exit=op.vetoes), rest))
            elif isinstance(op, o.SetPerfmev):
                others = tuple(n for n in config.perfmev_disabled if n != op.qmgr)
                disabled = others if op.enabled else (*others, op.qmgr)
                out.append((attrs.evolve(config, perfmev_disabled=disabled), rest))
        except (ConfigurationError, TypeError, ValueError, KeyError):  # a change the definition cannot take
            continue
    return out


def retargeted(config: Config, ops: Sequence[Any]) -> list[tuple[Config, list[Any]]]:
    """The puts and gets of one queue moved to the first queue of the same structure the trace
    uses, and the emptied queue dropped from the configuration: one queue reaches the structure's
    thresholds as well as several, and its puts can then merge."""
    by_name = {q.name: q for q in config.queues}
    named_otherwise = referenced(op for op in ops if not isinstance(op, o.Put | o.Get))
    used = [n for n in dict.fromkeys(op.queue for op in ops if isinstance(op, o.Put | o.Get)) if n in by_name]
    out: list[tuple[Config, list[Any]]] = []
    for k, source in enumerate(used):
        target = next((t for t in used[:k] if by_name[t].cfstruct == by_name[source].cfstruct), None)
        if target is None or source in named_otherwise or by_name[source].cfstruct is None:
            continue
        moved = [attrs.evolve(op, queue=target) if getattr(op, "queue", None) == source else op for op in ops]
        try:
            out.append((attrs.evolve(config, queues=tuple(q for q in config.queues if q.name != source)), moved))
        except ConfigurationError:
            continue
    return out


def fitted(old: Config, new: Config, ops: list[Any]) -> list[Any]:
    """``ops`` with each alter outcome's size moved with its structure from ``old`` to ``new``: as far
    above the new INITSIZE as it was above the old one, and at most the new SIZE (a smaller
    structure keeps the alter CQS started: CQS-004)."""
    before = {s.name: s for s in old.structures}
    after = {s.name: s for s in new.structures}
    out = []
    for op in ops:
        if isinstance(op, o.AlterOutcome) and op.size_kb is not None and op.cfstruct in after:
            was, now = before[op.cfstruct], after[op.cfstruct]
            size = min(now.size_kb, now.effective_initsize_kb + max(0, op.size_kb - was.effective_initsize_kb))
            op = attrs.evolve(op, size_kb=size)
        out.append(op)
    return out


def variants(config: Config, ops: list[Any]) -> list[tuple[Config, list[Any], bool]]:
    """Candidate (configuration, operations, try windows) triples, in a stable order: first those
    that cost one replay each (folded, retargeted, unsplit and simpler operations), then smaller
    configurations (each tried with windows of operations left out), then CQS structures made
    smaller with another OVFLWMAX (one replay each: there are many)."""
    out = [(c, folded, True) for c, folded in folded(config, ops)]
    out += [(c, moved, False) for c, moved in retargeted(config, ops)]
    out += [(c, whole, False) for c, whole in shrink_cqs.unsplit(config, ops)]
    out += [(config, variant, False) for variant in simpler_operations(config, ops)]
    # a threshold nearer the depth the queue had: tried without the puts that reached the old one
    out += [
        (config, [*ops[:i], lower, *ops[i + 1 :]], True)
        for i, op in enumerate(ops)
        if isinstance(op, o.AlterQueue)
        for lower in shrink_depths.nearer_depths(config, op)
    ]
    out += [(c, fitted(config, c, ops), True) for c in smaller_configs(config, ops)]
    return out + [(c, fitted(config, c, ops), False) for c in shrink_cqs.smaller_with_threshold(config, ops)]
