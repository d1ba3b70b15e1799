"""Strategy ``fold`` (a variant): a command made part of the configuration instead of a step of the
trace (one step fewer: the generator's probes define a structure and a queue, or set their limits,
thresholds and switches, with a command before using them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from cfconform.reference_model import operations as o
from cfconform.reference_model.codec import queue_from_record, structure_from_record
from cfconform.reference_model.config import Config, QueueDef, StructureDef
from cfconform.reference_model.errors import ConfigurationError


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


def candidates(config: Config, ops: list[Any]) -> list[tuple[Config, list[Any], bool]]:
    """Each folded trace, tried with windows of operations left out."""
    return [(c, rest, True) for c, rest in folded(config, ops)]
