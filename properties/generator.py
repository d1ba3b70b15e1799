"""A fast seeded trace generator for campaigns (Hypothesis is far too slow for millions of traces).

It shares the operation vocabulary and the boundary tables of the Hypothesis
strategies (:mod:`cfconform.properties.boundaries`) and does swarm testing: each trace
enables a random subset of operation kinds.  ``generate(seed, profile, steps)``
is a pure function of its arguments: the same seed gives the same trace on any
machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config

from . import boundaries as b
from . import shapes

T = TypeVar("T")


def _below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)``: the same draw (CPython's ``_randbelow_with_getrandbits``) without
    ``randrange``'s argument checks, which cost as much as the draw itself (generation is about a
    quarter of the checked loop of a campaign)."""
    if n <= 0:
        raise ValueError("empty range for randrange()")
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def _pick(rng: random.Random, values: tuple | list) -> Any:
    """``rng.choice(values)``'s draw, through :func:`_below` (the generator's most frequent call)."""
    return values[_below(rng, len(values))]


#: The lengths a put draws most often: the boundaries, then interior values.
_EDGE_LENGTHS = b.MQ_LENGTHS + b.MQ_INTERIOR_LENGTHS


def _length(rng: random.Random) -> int:
    return _pick(rng, _EDGE_LENGTHS) if rng.random() < 0.7 else _below(rng, 70_000)


class RandomDraw:
    """A :class:`cfconform.properties.shapes.Draw` over a seeded ``random.Random``."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def pick(self, values: Sequence[T]) -> T:
        return _pick(self._rng, values)  # type: ignore[arg-type]

    def chance(self, percent: int) -> bool:
        return _below(self._rng, 100) < percent

    def integer(self, lo: int, hi: int) -> int:
        return lo + _below(self._rng, hi - lo + 1)  # (rng.randint(lo, hi))


def mq_config(rng: random.Random) -> Config:
    """An mq configuration (:func:`cfconform.properties.shapes.mq_config`, the gate's shapes)."""
    return shapes.mq_config(RandomDraw(rng))


def cqs_config(rng: random.Random) -> Config:
    """A cqs configuration (:func:`cfconform.properties.shapes.cqs_config`, the gate's shapes)."""
    return shapes.cqs_config(RandomDraw(rng))


def _mq_makers(rng: random.Random, c: Config) -> dict[str, Callable[[int], Any]]:
    queues = [(q.name, q.qmgr) for q in c.queues]
    structs = [s.name for s in c.structures]

    def qm() -> str:
        return _pick(rng, c.qmgrs)

    def put(i: int) -> Any:
        name, owner = _pick(rng, queues)
        return o.Put(owner or qm(), name, _length(rng), rng.random() < 0.3, rng.random() < 0.3, i)

    def get(i: int) -> Any:
        name, owner = _pick(rng, queues)
        return o.Get(owner or qm(), name, rng.random() < 0.3)

    return {
        "put": put, "get": get,
        "commit": lambda i: o.Commit(qm()), "backout": lambda i: o.Backout(qm()),
        "set_perfmev": lambda i: o.SetPerfmev(qm(), rng.random() < 0.5),
        "reset_qstats": lambda i: _reset_qstats(rng, queues, qm),
        "start_stop": lambda i: (o.StartQmgr if rng.random() < 0.6 else o.StopQmgr)(qm()),
        "backup": lambda i: o.Backup(qm(), _pick(rng, structs)),
        "fail": lambda i: o.FailStructure(_pick(rng, structs)),
        "recover": lambda i: o.Recover(_pick(rng, structs), rng.random() < 0.3),
        "alter_queue": lambda i: o.AlterQueue(_pick(rng, queues)[0], {
            "qdphiev": rng.random() < 0.5, "qdploev": rng.random() < 0.5, "qdpmaxev": rng.random() < 0.5}),
        "setxcf_alter": lambda i: _setxcf(rng, c),
        "inspect": lambda i: o.Inspect(),
    }  # fmt: skip


def _reset_qstats(rng: random.Random, queues: list[tuple[str, str | None]], qm: Callable[[], str]) -> Any:
    name, owner = _pick(rng, queues)
    return o.ResetQstats(owner or qm(), name)


def _setxcf(rng: random.Random, c: Config) -> Any:
    s = _pick(rng, c.structures)
    base = _pick(rng, (s.effective_initsize_kb, s.size_kb))
    return o.SetxcfAlter(s.name, base + _pick(rng, (-1, 0, 1)))


def _cqs_makers(rng: random.Random, c: Config) -> dict[str, Callable[[int], Any]]:
    names = [q.name for q in c.queues]
    lg = c.lgmsgsz

    def put(i: int) -> Any:
        length = _pick(rng, (lg - 1, lg, lg + 1, 2 * lg + 1)) if rng.random() < 0.4 else _below(rng, 40_000)
        return o.Put(_pick(rng, c.qmgrs), _pick(rng, names), length, tag=i)

    return {
        "put": put, "get": lambda i: o.Get(_pick(rng, c.qmgrs), _pick(rng, names)),
        "alter_outcome": lambda i: o.AlterOutcome("PRIM1", rng.random() < 0.4, None),
        "set_overflow_exit": lambda i: o.SetOverflowExit(
            None if rng.random() < 0.5 else tuple(n for n in names if rng.random() < 0.3)),
        "advance_clock": lambda i: o.AdvanceClock(_pick(rng, b.CLOCK_STEPS)),
        "setxcf_alter": lambda i: _setxcf(rng, c), "inspect": lambda i: o.Inspect(),
    }  # fmt: skip


#: The rule families each kind of operation (a maker of :func:`generate`) is for; puts, gets and
#: ``inspect`` serve every family.  A campaign leaves out the kinds of families an implementation
#: does not claim (and the kinds it answers "not supported": :mod:`cfconform.spark_fuzz.support`).
MAKER_FAMILIES: dict[str, frozenset[str]] = {
    "commit": frozenset({"QUEUE", "QDEPTH", "CAPACITY"}), "backout": frozenset({"QUEUE", "QDEPTH", "CAPACITY"}),
    "set_perfmev": frozenset({"QDEPTH"}), "alter_queue": frozenset({"QDEPTH"}), "reset_qstats": frozenset({"QDEPTH"}),
    "start_stop": frozenset({"QUEUE", "RECOVERY", "QDEPTH"}),
    "backup": frozenset({"RECOVERY"}), "fail": frozenset({"RECOVERY"}), "recover": frozenset({"RECOVERY"}),
    "setxcf_alter": frozenset({"CAPACITY"}),
    "alter_outcome": frozenset({"CQS"}), "set_overflow_exit": frozenset({"CQS"}), "advance_clock": frozenset({"CQS"}),
}  # fmt: skip
#: The operation kinds (``KIND``) each maker produces.
MAKER_KINDS: dict[str, tuple[str, ...]] = {"start_stop": ("start_qmgr", "stop_qmgr"), "fail": ("fail_structure",)}
#: Makers every trace keeps (swarm testing never drops them).
ALWAYS = ("put", "get")


def maker_keys(profile: str) -> tuple[str, ...]:
    """The kinds of operation :func:`generate` draws from for ``profile``."""
    rng = random.Random(0)
    config = mq_config(rng) if profile == "mq" else cqs_config(rng)
    return tuple(_mq_makers(rng, config) if profile == "mq" else _cqs_makers(rng, config))


def probe(profile: str, key: str) -> tuple[Config, Any]:
    """A configuration and one operation of maker ``key``: does the implementation support the kind?"""
    rng = random.Random(f"cfconform:probe:{profile}:{key}")
    config = mq_config(rng) if profile == "mq" else cqs_config(rng)
    makers = _mq_makers(rng, config) if profile == "mq" else _cqs_makers(rng, config)
    return config, makers[key](0)


#: Relative weights: puts and gets dominate, as in real workloads.
WEIGHTS = {"put": 8, "get": 6, "commit": 2, "backout": 1, "alter_outcome": 3, "advance_clock": 2}


def generate(seed: int, profile: str, steps: int, skip: tuple[str, ...] = ()) -> tuple[Config, list[Any]]:
    """A configuration and ``steps`` operations, a pure function of ``(seed, profile, steps, skip)``;
    ``skip``: makers never used (an implementation's unclaimed or unsupported kinds)."""
    rng = random.Random(f"cfconform:{profile}:{seed}")
    config = mq_config(rng) if profile == "mq" else cqs_config(rng)
    makers = _mq_makers(rng, config) if profile == "mq" else _cqs_makers(rng, config)
    kinds = [k for k in makers if k in ALWAYS or rng.random() < 0.6]  # swarm: drop some kinds
    kinds = [k for k in kinds if k not in skip or k in ALWAYS]
    weights = [WEIGHTS.get(k, 1) for k in kinds]
    chosen = rng.choices(kinds, weights, k=steps)
    return config, [makers[k](i) for i, k in enumerate(chosen)]
