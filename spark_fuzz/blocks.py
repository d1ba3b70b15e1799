"""A campaign's identity and its seed blocks (pure: no Spark, no I/O).

Trace ``i`` of a campaign with seed ``S`` is ``generate(S * SEED_STRIDE + i, profile_i, steps)``
where ``profile_i`` alternates over the campaign's profiles (``both`` = ``mq``, ``cqs``,
``mq``, ...).  Traces are cut into *blocks* of ``block_size`` consecutive indexes; a block
is the unit Spark schedules, writes atomically and skips on resume.  Everything here is a
function of the campaign's arguments, so the same arguments give the same traces on a
laptop and on a cluster.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from cfconform.reference_model.errors import UNKNOWN_FIELD, ConfigurationError

#: Seed of trace ``i``: ``seed * SEED_STRIDE + i`` (a prime stride, so campaigns of up to a
#: million traces with neighbouring seeds never share a trace).
SEED_STRIDE = 1_000_003
PROFILE_CHOICES = ("mq", "cqs", "both")
#: The arguments that define a campaign's results; a resumed run must repeat them exactly.
MIN_DEFAULT_BLOCK, MAX_DEFAULT_BLOCK = 100, 2000
#: Bounds of a campaign (issue 24: bounded work).  A trace longer than MAX_STEPS operations only
#: repeats what shorter ones reach (the model's states are bounded by the generated shapes);
#: MAX_BLOCKS keeps the driver's plan of blocks (one small record each) within a few MB.
MAX_TRACES = 10**10
MAX_STEPS = 10_000
MAX_BLOCK_SIZE = 10**6
MAX_BLOCKS = 200_000
MAX_TIMEOUT = 3600.0
IDENTITY_FIELDS = ("adapter", "traces", "steps", "seed", "profiles", "block_size", "full_traces", "skip")


def _profiles(value: Iterable[str] | str) -> tuple[str, ...]:
    if isinstance(value, str):
        return ("mq", "cqs") if value == "both" else (value,)
    return tuple(value)


@attrs.frozen
class CampaignSpec:
    """What a campaign runs: picklable (strings and numbers only), shipped to every Spark task.

    Attributes:
        adapter: the adapter spec (``reference``, ``module:attr``, ``wire:CMD``, ``mutant:ID``).
        traces: how many traces.
        steps: operations per trace.
        seed: the campaign seed ``S``.
        profiles: the model profiles traces alternate over.
        block_size: traces per block.
        full_traces: also record every trace (``traces/``), not only divergences.
        timeout: seconds per wire reply (``wire:`` adapters only).
    """

    adapter: str
    traces: int
    steps: int
    seed: int = 0
    profiles: tuple[str, ...] = attrs.field(default=("mq", "cqs"), converter=_profiles)
    block_size: int = 1000
    full_traces: bool = False
    timeout: float = 10.0
    #: Makers of operations the campaign never generates (:mod:`cfconform.spark_fuzz.support`).
    skip: tuple[str, ...] = attrs.field(default=(), converter=tuple)

    def validate(self) -> CampaignSpec:
        """Raise :class:`ConfigurationError` naming the first bad argument; return self."""
        for name, most in (("traces", MAX_TRACES), ("steps", MAX_STEPS), ("block_size", MAX_BLOCK_SIZE)):
            value = getattr(self, name)
            if not isinstance(value, int) or not 1 <= value <= most:
                option = f"--{name.replace('_', '-')}"
                raise ConfigurationError(option, value, f"a whole number 1..{most:_}", UNKNOWN_FIELD)
        if self.traces // self.block_size > MAX_BLOCKS:
            allowed = f"at least --traces / {MAX_BLOCKS:_} (at most {MAX_BLOCKS:_} blocks)"
            raise ConfigurationError("--block-size", self.block_size, allowed, UNKNOWN_FIELD)
        if not (isinstance(self.timeout, int | float) and 0 < self.timeout <= MAX_TIMEOUT):
            allowed = f"seconds, above 0 and at most {MAX_TIMEOUT:g}"
            raise ConfigurationError("--timeout", self.timeout, allowed, UNKNOWN_FIELD)
        if not isinstance(self.seed, int) or self.seed < 0:
            raise ConfigurationError("--seed", self.seed, "a whole number >= 0", UNKNOWN_FIELD)
        if not self.profiles or any(p not in ("mq", "cqs") for p in self.profiles):
            raise ConfigurationError("--profile", ",".join(self.profiles), "mq, cqs or both", UNKNOWN_FIELD)
        if not self.adapter.strip():
            raise ConfigurationError("--adapter", self.adapter, "an adapter spec", UNKNOWN_FIELD)
        return self

    def adapter_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``load_adapter`` (only wire adapters take a timeout)."""
        return {"timeout": self.timeout} if self.adapter.startswith("wire:") else {}

    def identity(self) -> dict[str, Any]:
        """The arguments that fix the campaign's results (JSON-safe)."""
        out = {
            "adapter": self.adapter, "traces": self.traces, "steps": self.steps, "seed": self.seed,
            "profiles": list(self.profiles), "block_size": self.block_size, "full_traces": self.full_traces,
        }  # fmt: skip
        if self.skip:  # (absent when empty: campaigns that skip nothing keep their IDs)
            out["skip"] = list(self.skip)
        return out

    @property
    def campaign_id(self) -> str:
        """A short digest of :meth:`identity`: equal arguments, equal ID, on any machine."""
        return campaign_id(self.identity())

    def to_record(self) -> dict[str, Any]:
        return self.identity() | {"timeout": self.timeout}


def default_block_size(traces: int) -> int:
    """The block size when none is given: at least 16 blocks, at most 2,000 traces a block.

    Bigger blocks spread Spark's fixed cost per task (about 0.1 s of JVM CPU: scheduling,
    a Parquet file, its commit) over more traces; at least 16 blocks keep small campaigns
    parallel.  A function of ``traces`` only, so a rerun of the same command resumes.
    """
    usual = min(MAX_DEFAULT_BLOCK, max(MIN_DEFAULT_BLOCK, -(-traces // 16)))
    return max(usual, -(-traces // MAX_BLOCKS))  # (past 400 million traces: no more than MAX_BLOCKS blocks)


def campaign_id(identity: Mapping[str, Any]) -> str:
    text = json.dumps(dict(identity), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def trace_seed(seed: int, index: int) -> int:
    """The generator seed of trace ``index`` of a campaign with seed ``seed``."""
    return seed * SEED_STRIDE + index


def trace_profile(profiles: Sequence[str], index: int) -> str:
    """The profile of trace ``index``: the campaign's profiles in turn."""
    return profiles[index % len(profiles)]


def trace_index(seed: int, generator_seed: int) -> int:
    """Inverse of :func:`trace_seed` (may be out of range for another campaign's seeds)."""
    return generator_seed - seed * SEED_STRIDE


@attrs.frozen(order=True)
class Block:
    """Traces ``first`` .. ``first + count - 1`` of a campaign, numbered ``index``."""

    index: int
    first: int
    count: int

    def indexes(self) -> range:
        return range(self.first, self.first + self.count)

    def as_tuple(self) -> tuple[int, int, int]:
        return (self.index, self.first, self.count)


def plan_blocks(traces: int, block_size: int) -> list[Block]:
    """All blocks of a campaign of ``traces`` traces, in order; the last one may be short."""
    return [Block(n, first, min(block_size, traces - first)) for n, first in enumerate(range(0, traces, block_size))]


def pending_blocks(blocks: Iterable[Block], done: Iterable[int], limit: int | None = None) -> list[Block]:
    """Blocks not yet written (``done``: indexes of finished blocks), at most ``limit`` of them."""
    finished = set(done)
    todo = [b for b in blocks if b.index not in finished]
    return todo if limit is None else todo[: max(0, limit)]


#: Blocks per Spark job: at most this many per core (a job's fixed cost, about 0.7 s of CPU on
#: ``local[2]``, spread over enough blocks; one block per core cost 10% more CPU per trace, see
#: ``benchmarks/campaign_scaling.py``), and few enough for ``MIN_WAVES`` jobs per run, so the
#: progress line (which moves once per job) moves often; never fewer than one per core.
MAX_BLOCKS_PER_CORE = 4
MIN_WAVES = 16


def wave_size(cores: int, blocks: int) -> int:
    """Blocks per Spark job for a run of ``blocks`` blocks on ``cores`` cores (at least 2)."""
    cores = max(1, cores)
    return max(2, cores, min(MAX_BLOCKS_PER_CORE * cores, -(-blocks // MIN_WAVES)))


def waves(blocks: Sequence[Block], size: int, first: int | None = None) -> Iterator[list[Block]]:
    """Consecutive groups of at most ``size`` blocks: one Spark job each.

    ``first`` (at most ``size``) blocks make the first job: one block per core ends soon, so the
    progress line has a rate and an ETA after one block's time, not a whole job's.
    """
    size = max(1, size)
    start = min(size, max(1, first), len(blocks)) if first is not None else 0
    if start:
        yield list(blocks[:start])
    for begin in range(start, len(blocks), size):
        yield list(blocks[begin : begin + size])


def identity_mismatch(stored: Mapping[str, Any], wanted: Mapping[str, Any]) -> list[str]:
    """``["steps: 20 (existing) != 30 (this run)", ...]``; empty when a rerun may resume."""
    out = []
    for key in IDENTITY_FIELDS:
        if stored.get(key) != wanted.get(key):
            out.append(f"{key}: {stored.get(key)!r} (existing) != {wanted.get(key)!r} (this run)")
    return out


def block_of_dirname(name: str) -> int | None:
    """``block=12`` -> 12 (a finished block's directory under ``parts/``); anything else -> None."""
    key, sep, value = name.rstrip("/").rpartition("/")[2].partition("=")
    if sep and key == "block" and value.isdigit():
        return int(value)
    return None
