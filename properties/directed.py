"""Directed cases: every boundary-targeting probe of a profile, run once each before generation.

Hypothesis draws long cases of many rules at random, so a fault behind one probe with one setting
(one offload pattern, one CFLEVEL, one exit change) waits for the draw that reaches it: minutes in
the ci profile.  Here each case is one fresh configuration, drawn from the gate's own shapes
(:mod:`cfconform.properties.shapes`) on a seed of its own, and one probe rule of the profile's machine with
one setting from the tables below, then the closing ``inspect``.  The families take turns, so the
first cases reach every family's documented boundaries.

The cases run through the machine's own plumbing (:class:`cfconform.properties.base.MachineBase`): the same
checker judges each step, a refusal is "not supported", and a failing case is recorded for the
gate's minimiser like a generated one.  The probes steer by the implementation's own reports
where the documents leave the figures to it (:mod:`cfconform.properties.mq_offload`,
:mod:`cfconform.properties.cqs_machine`).
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import attrs
from hypothesis.errors import UnsatisfiedAssumption
from hypothesis.stateful import RULE_MARKER

from cfconform.reference_model.config import Config
from cfconform.reference_model.group import FULL_MONITOR_BOUND
from cfconform.reference_model.units import KB

from . import boundaries as b
from . import forbidden, shapes
from .base import SETXCF_WHERE, AdapterFailure, ConformanceFailure, MachineBase, SearchOver
from .generator import RandomDraw
from .mq_offload import OFFLOAD_PATTERNS
from .mq_probes import NO_STRUCTURE, OTHER_KEYWORDS, STRUCTURE_NAMES
from .mq_traffic import DISPUTED_LENGTHS
from .reach import reaches

#: Structure sizes (KB) and FULLTHRESHOLDs the capacity cases give every structure of their
#: configuration: small sizes, so that a fill reaches a threshold or full in a few puts whatever the
#: implementation's accounting (it may refuse a size: the case is then not judged); round
#: percentages, so that usage can land exactly on one (IXC585E: "reaches").
SMALL_SIZES_KB = (64, 16, 256, 1024)
ROUND_THRESHOLDS = (50, 10, 20, 85)

#: The pseudo-probe of :mod:`.forbidden`: open a configuration breaking one documented limit.
FORBIDDEN = "forbidden_open"

#: One probe call: the machine rule's name and its arguments (``structures``: fields every structure
#: of the case's configuration takes, ``config``: fields of the configuration; not arguments).
Call = tuple[str, dict[str, Any]]


def _grid(rule: str, **choices: tuple[Any, ...]) -> list[Call]:
    keys = list(choices)
    return [(rule, dict(zip(keys, values, strict=True))) for values in itertools.product(*choices.values())]


#: Per family of the mq profile, its probes (each family's list is run in this order).
MQ_FAMILIES: dict[str, list[Call]] = {
    "offload rules": _grid("offload_rules_probe", m=(0,), pattern=tuple(OFFLOAD_PATTERNS), threshold=(1, 0, 50)),
    "levels": _grid("level_probe", m=(0,), level=(2, 3, 4, 5, 1), recover=(True, False), rules=("always", "smds")),
    "definitions": [
        *_grid("structure_name_probe", name=STRUCTURE_NAMES),
        # QSG names of one to four characters: CFRM names pad them with @ (TOPOLOGY-010)
        *_grid("structure_name_probe", name=("A1",), config=({"qsg": "QS"}, {"qsg": "Q"}, {"qsg": "SQ03"})),
        *_grid("queue_without_structure_probe", cfstruct=NO_STRUCTURE),
    ],
    "alter keeps": _grid("alter_keeps_probe", m=(0,), other=OTHER_KEYWORDS),
    "limits": [
        *_grid("structure_limit_probe", sysappl=(True, False), extra=(1,)),
        *_grid("queue_limit_probe", extra=(1,)),
    ],
    "cflevel": _grid("every_cflevel", m=(0,), length=(0, *DISPUTED_LENGTHS, 65_000), persistent=(True, False)),
    "setxcf": _grid("_setxcf_to", index=(0, 1), which=SETXCF_WHERE),
    "large messages": _grid("large_messages", m=(0,), boundary=b.LARGE_MESSAGE_BOUNDARIES),
    "offload thresholds": _grid(
        "offload_probe", m=(0,), q=(0, 1), at=("empty", "OFFLD1TH", "OFFLD2TH", "OFFLD3TH"), n=(1, 2, 3), delta=("all",)
    ),
    "depth": _grid(
        "depth_probe",
        m=(0,),
        q=(0, 1),
        maxdepth=(10, 7, 3),
        percents=([50, 17], [80, 0, 100]),
        low=(20, 33),
        until=("QDEPTHHI", "MAXDEPTH"),
        past=(1,),
    ),
    "statistics": _grid("reset_probe", m=(0, 1), q=(0, 1), who=("issuer", "other")),
    "failure": _grid(
        "failure_cycle",
        m=(0,),
        q=(0, 1),
        early=("none", "recover", "purge"),
        before=(2, 0),
        backup=("same", "other"),
        after=(1,),
        uncommitted=(True, False),
        purge=(False, True),
        unrecoverable=(2, 0),
        volatile=(1,),
    ),
    "replay": _grid(
        "failure_cycle",
        m=(0, 1),
        q=(0, 1),
        early=("none",),
        before=(0,),
        backup=("same",),
        after=(1, 2),
        uncommitted=(False,),
        purge=(False,),
        unrecoverable=(2,),
        writer_stops=(True,),
    ),
    # left at FULLTHRESHOLD ("reaches": an exact percentage holds there) or one put past full, then an hour
    "capacity": [
        call
        for length in (0, 60_000, 4 * KB)
        for boundary, past in (("FULLTHRESHOLD", 0), ("full", 1))
        for call in _grid(
            "fill",
            m=(0,),
            q=(0,),
            length=(length,),
            boundary=(boundary,),
            past=(past,),
            persistent=(False,),
            unit=("none",),
            wait=(FULL_MONITOR_BOUND,),
            structures=tuple({"size_kb": kb, "fullthreshold": t} for t in ROUND_THRESHOLDS for kb in SMALL_SIZES_KB),
        )
    ],
    "alter ranges": [
        *_grid("alter_range_edges", s=(0, 1, -1), keyword=("cflevel", "offld1th", "offld1sz", "fullthreshold")),
        *_grid("cflevel_steps_down", level=(4, 3)),
        *_grid("define_range_edges", keyword=("cflevel", "fullthreshold", "offld1th", "offld1sz")),
    ],
    "resize": _grid("resize_cycle", q=(0, 1), grow=("size", "size-1"), length=(1000,), back=("initsize", "in use-1")),
    "unit of work": _grid(
        "unit_of_work",
        m=(0, 1),
        q=(0, 1),
        length=(1000,),
        put=(True, False),
        meanwhile=("lower cflevel", "empty, lower cflevel", "get elsewhere"),
        commit=(True, False),
    ),
    "outage": _grid("qmgr_outage", m=(0, 1), q=(0, 1), persistent=(True, False), syncpoint=(True, False)),
    "everywhere": _grid(
        "put_everywhere", m=(0,), length=(0, 4 * KB, 32 * KB + 1), persistent=(False, True), disputed=(False,)
    ),
    # a documented limit broken at open: the implementation must refuse the configuration
    "forbidden configurations": _grid(FORBIDDEN, case=tuple(forbidden.CASES)),
}
#: Per family of the cqs profile.
CQS_FAMILIES: dict[str, list[Call]] = {
    "overflow": _grid(
        "overflow_cycle",
        m=(0,),
        q=(0, 1),
        share=(10, 5),
        exit_change=("keep", "remove", "veto one", "veto others"),
        pattern=("round", "same"),
        then=("scan one", "scan all", "nothing"),
    ),
    "threshold": _grid("exact_threshold_probe", m=(0,), q=(0, 1, 2)),
    "usage metric": _grid("usage_metric_probe", m=(0,), q=(0, 1), share=(10, 20)),
    "large messages": _grid("fill", m=(0,), q=(0, 1), length=(-3, -4, 1000), pattern=("same", "spread")),
}
FAMILIES = {"mq": MQ_FAMILIES, "cqs": CQS_FAMILIES}
#: Directed cases per Hypothesis settings profile (cases, not seconds: the same on any machine).
CASES = {"dev": 40, "ci": 900, "nightly": 2700}
#: Configurations drawn at most for one directed case, looking for one its probe can use.
REDRAWS = 4


def calls(profile: str, families: Iterable[str] | None = None) -> Iterator[Call]:
    """The profile's probe calls, the families taking turns (each family's first call comes first);
    with ``families``, only the probes that reach one of them (``--rules``)."""
    lists = [[c for c in calls if _reaches(c, families)] for calls in FAMILIES[profile].values()]
    for row in itertools.zip_longest(*lists):
        yield from (call for call in row if call is not None)


def _reaches(call: Call, families: Iterable[str] | None) -> bool:
    """Whether the call can reach a rule of ``families`` (a forbidden configuration: its rule's)."""
    name, kwargs = call
    if name == FORBIDDEN:
        return families is None or forbidden.CASES[kwargs["case"]][0].split("-")[0] in set(families)
    return reaches(name, families)


def run_directed(
    machine: type[MachineBase], profile: str, cases: int, seed: int | None, families: Iterable[str] | None = None
) -> None:
    """Run up to ``cases`` directed cases; what they find goes to ``machine.recorder`` as for a
    generated case.  Stops once the recorder would stop generating (enough failures, or the first
    one when only the verdict is wanted)."""
    rec = machine.recorder
    everything = list(calls(profile, families))
    if not everything:
        return
    for i, (name, kwargs) in enumerate(itertools.islice(itertools.cycle(everything), cases)):
        if rec.failures and not rec.keep_looking():
            return
        case = machine()
        case.directed = True
        try:
            kwargs = dict(kwargs)
            config = _shaped(_config(profile, seed, i, name), kwargs.pop("structures", None))
            if name == FORBIDDEN:
                case.open_forbidden(forbidden.record(config, kwargs["case"]))
                continue
            case.open(attrs.evolve(config, **kwargs.pop("config", {})))
            probe = getattr(case, name)
            if not case.halted and _ready(case, probe):
                probe(**kwargs)
        except (ConformanceFailure, AdapterFailure, UnsatisfiedAssumption):
            pass  # recorded (or, a refused configuration, counted) by the machine
        except SearchOver:
            return
        finally:
            _close(case)


def _ready(case: Any, probe: Any) -> bool:
    """Whether the probe's preconditions (if it is a rule) hold."""
    marker = getattr(probe, RULE_MARKER, None)
    return all(p(case) for p in (marker.preconditions if marker else ()))


def _config(profile: str, seed: int | None, i: int, probe: str) -> Any:
    """Case ``i``'s configuration: the first of a few draws that the probe can use (see
    :data:`NEEDS`), else the last."""
    need = NEEDS.get(probe, lambda config: True)
    for attempt in range(REDRAWS):
        draw = RandomDraw(random.Random(f"cfconform:directed:{profile}:{seed}:{i}:{attempt}"))
        config = shapes.mq_config(draw) if profile == "mq" else shapes.cqs_config(draw)
        if need(config):
            break
    return config


def _shaped(config: Config, fields: dict[str, Any] | None) -> Config:
    """``config`` with ``fields`` set on every structure (mq; INITSIZE then follows SIZE)."""
    if not fields or config.profile != "mq":
        return config
    structures = tuple(attrs.evolve(s, initsize_kb=None, **fields) for s in config.structures)
    return attrs.evolve(config, structures=structures)


def _shared(config: Any) -> bool:
    return any(q.cfstruct is not None and q.qmgr is None and q.maxdepth > 1 for q in config.queues)


#: What a probe needs of its configuration to show anything (others use any configuration).
NEEDS: dict[str, Callable[[Any], bool]] = {
    "qmgr_outage": lambda config: len(config.qmgrs) > 1 and _shared(config),
    "unit_of_work": lambda config: len(config.qmgrs) > 1 and _shared(config),
    "failure_cycle": lambda config: any(
        q.cfstruct == s.name and q.qmgr is None and s.recover and s.cflevel >= 3
        for q in config.queues
        for s in config.structures
    ),
    "depth_probe": _shared,
    "fill": _shared,
    "cflevel_steps_down": lambda config: len(config.structures) < 60,  # room to DEFINE one more
}


def _close(case: MachineBase) -> None:
    with contextlib.suppress(ConformanceFailure, AdapterFailure, UnsatisfiedAssumption):
        case.teardown()  # the closing inspect's verdict is recorded by the machine
