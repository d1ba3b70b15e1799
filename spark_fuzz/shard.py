"""One seed block through one adapter: plain rows out (pure Python; no Spark, no JVM).

:func:`run_block` is what every Spark task runs (through :func:`arrow_partition`, which
builds the adapter once per partition and hands each block's rows to Spark as one Arrow
record batch, the ``mapInArrow`` form): for each trace index of the block it calls
``generate(seed, profile, steps)`` and ``run_trace``, the same generator, runner and
checker a plain Python loop or a Hypothesis machine uses, and turns the results into
rows of :data:`PART_COLUMNS` (tuples of plain values, never objects).

Row kinds (column ``kind``):

``divergence`` / ``fault``
    one per failing trace: seed, profile, step, rules, field, expected and observed
    (JSON strings), operation kind, signature and ``trace_length`` (the steps needed to
    reach the failure, i.e. the failing prefix).
``coverage``
    per block and rule: how many checked steps the rule decided.
``block``
    one per block: traces, checked steps, divergences, faults, seconds (the only
    value that is not a function of the arguments).
``trace``
    with ``full_traces``: every trace's ``TraceResult`` record as JSON.
"""

from __future__ import annotations

import contextlib
import gc
import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from cfconform.adapters.protocol import Adapter, Capabilities
from cfconform.judge.runner import run_trace
from cfconform.judge.trace import TraceResult
from cfconform.properties.generator import generate

from .blocks import Block, CampaignSpec, trace_profile, trace_seed

#: Columns of the ``parts/`` dataset, in order, with Spark SQL types (``block`` is the
#: partition column: it becomes the ``block=<n>`` directory name).
PART_SCHEMA: tuple[tuple[str, str], ...] = (
    ("kind", "STRING"), ("trace", "BIGINT"), ("seed", "BIGINT"), ("profile", "STRING"), ("verdict", "STRING"),
    ("step", "INT"), ("rules", "ARRAY<STRING>"), ("field", "STRING"), ("expected", "STRING"),
    ("observed", "STRING"), ("op", "STRING"), ("signature", "STRING"), ("trace_length", "INT"),
    ("rule", "STRING"), ("count", "BIGINT"), ("first", "BIGINT"), ("traces", "BIGINT"), ("steps", "BIGINT"),
    ("divergences", "BIGINT"), ("faults", "BIGINT"), ("seconds", "DOUBLE"), ("trace_json", "STRING"),
    ("block", "INT"),
)  # fmt: skip
PART_COLUMNS: tuple[str, ...] = tuple(name for name, _ in PART_SCHEMA)
FAILURE_KINDS = ("divergence", "fault")


def part_ddl() -> str:
    """The parts schema as a Spark DDL string."""
    return ", ".join(f"`{name}` {kind}" for name, kind in PART_SCHEMA)


def as_row(fields: dict[str, Any]) -> tuple[Any, ...]:
    """A row dict as a tuple in :data:`PART_COLUMNS` order (absent columns are null)."""
    unknown = set(fields) - set(PART_COLUMNS)
    if unknown:
        raise KeyError(f"not part columns: {sorted(unknown)}")
    return tuple(fields.get(c) for c in PART_COLUMNS)


def as_dict(row: Iterable[Any]) -> dict[str, Any]:
    """Inverse of :func:`as_row`, dropping nulls."""
    return {c: v for c, v in zip(PART_COLUMNS, row, strict=True) if v is not None}


def json_text(value: Any) -> str:
    """A value as compact, key-sorted JSON (tuples become lists; anything else its ``str``)."""
    return json.dumps(value, sort_keys=True, default=str, separators=(",", ":"))


def fault_signature(op_kind: str) -> str:
    """The signature adapter faults are grouped under (``minimise`` treats all faults alike)."""
    return f"fault|adapter|{op_kind}"


def failure_row(block: int, index: int, seed: int, profile: str, result: TraceResult) -> dict[str, Any] | None:
    """The ``divergence`` or ``fault`` row of one trace, or None if it passed."""
    base = {"block": block, "trace": index, "seed": seed, "profile": profile, "verdict": result.verdict,
            "trace_length": result.steps_checked}  # fmt: skip
    d = result.divergence
    if d is not None:
        return base | {
            "kind": "divergence", "step": d.step, "rules": list(d.rules), "field": d.field,
            "expected": json_text(d.expected), "observed": json_text(d.observed), "op": str(d.op.get("op")),
            "signature": d.signature(), "trace_length": d.step + 1,
        }  # fmt: skip
    f = result.fault
    if f is not None:
        if f.step is None:
            op = "open"
        elif f.step < len(result.ops):
            op = str(result.ops[f.step].get("op"))
        else:
            op = "batch"
        return base | {
            "kind": "fault", "step": f.step, "rules": [], "field": "adapter", "expected": json_text(None),
            "observed": json_text(f.message), "op": op, "signature": fault_signature(op),
            "trace_length": (f.step + 1) if f.step is not None else 0,
        }  # fmt: skip
    return None


class AdapterSlot:
    """One adapter, loaded on first use and replaced after a fault (shared by a partition's blocks)."""

    def __init__(self, load: Callable[[], Adapter]) -> None:
        self._load = load
        self.adapter: Adapter | None = None
        self.caps: Capabilities | None = None

    def get(self) -> tuple[Adapter, Capabilities]:
        if self.adapter is None:
            self.adapter = self._load()
            self.caps = self.caps or self.adapter.capabilities()
        return self.adapter, self.caps  # type: ignore[return-value]

    def renew(self) -> None:
        """Drop the current adapter (after a fault): the next :meth:`get` loads a fresh one."""
        self.close()

    def close(self) -> None:
        if self.adapter is not None:
            adapter, self.adapter = self.adapter, None
            adapter.close()


def run_block(block: Block, spec: CampaignSpec, slot: AdapterSlot | None = None) -> list[dict[str, Any]]:
    """Every row of ``block`` (a pure function of ``block`` and ``spec``, ``seconds`` aside).

    The slot's adapter is reused for every trace (``run_trace`` reopens it); after an
    adapter fault it is replaced by a fresh one, so one crash cannot poison the rest of
    the block.  Without ``slot`` an adapter is loaded (and closed) here.
    """
    own = slot is None
    slot = slot or AdapterSlot(adapter_loader(spec))
    rows: list[dict[str, Any]] = []
    coverage: Counter[str] = Counter()
    steps = divergences = faults = 0
    start = time.perf_counter()
    try:
        with long_lived_frozen():
            for index in block.indexes():
                seed, profile = trace_seed(spec.seed, index), trace_profile(spec.profiles, index)
                config, ops = generate(seed, profile, spec.steps, spec.skip)
                adapter, caps = slot.get()
                result = run_trace(adapter, config, ops, caps=caps)
                steps += result.steps_checked
                coverage.update(result.rules_exercised)
                row = failure_row(block.index, index, seed, profile, result)
                if row is not None:
                    rows.append(row)
                    if row["kind"] == "fault":
                        faults += 1
                        slot.renew()
                    else:
                        divergences += 1
                if spec.full_traces:
                    rows.append({"kind": "trace", "block": block.index, "trace": index, "seed": seed,
                                 "profile": profile, "verdict": result.verdict,
                                 "signature": row["signature"] if row else None,
                                 "trace_json": json_text(result.to_record())})  # fmt: skip
    finally:
        if own:
            slot.close()
    rows += [
        {"kind": "coverage", "block": block.index, "rule": rule, "count": n} for rule, n in sorted(coverage.items())
    ]
    rows.append({"kind": "block", "block": block.index, "first": block.first, "traces": block.count, "steps": steps,
                 "divergences": divergences, "faults": faults,
                 "seconds": round(time.perf_counter() - start, 6)})  # fmt: skip
    return rows


@contextlib.contextmanager
def long_lived_frozen() -> Iterator[None]:
    """Set the objects alive now (modules, the adapter; in a Spark worker, pyspark's and pyarrow's)
    aside from the cyclic garbage collector until the block ends: its full collections then scan
    the block's own objects, not every module's again.  With Spark loaded those rescans took a fifth
    of a block's time (benchmarks/campaign_throughput.py).  Nothing is kept beyond the block; inside
    code that has frozen objects itself, nothing is changed."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def adapter_loader(spec: CampaignSpec) -> Callable[[], Adapter]:
    """``load_adapter(spec.adapter, ...)`` as a no-argument factory."""
    from cfconform.adapters.registry import load_adapter

    kwargs = spec.adapter_kwargs()
    return lambda: load_adapter(spec.adapter, **kwargs)


def block_stats(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The ``block`` row among a block's rows."""
    return next(r for r in rows if r["kind"] == "block")


def partition_blocks(blocks: Iterable[Any], spec: CampaignSpec) -> Iterator[list[dict[str, Any]]]:
    """One adapter for a partition's blocks; each block's rows in turn.

    ``blocks`` are :class:`Block` or ``(index, first, count)`` tuples.
    """
    slot = AdapterSlot(adapter_loader(spec))
    try:
        for item in blocks:
            yield run_block(item if isinstance(item, Block) else Block(*item), spec, slot)
    finally:
        slot.close()


def run_partition(
    blocks: Iterable[Any], spec: CampaignSpec, on_block: Callable[[dict[str, Any]], None] | None = None
) -> Iterator[tuple[Any, ...]]:
    """Every block's rows as tuples (:func:`partition_blocks`); ``on_block`` gets each block's ``block`` row."""
    for rows in partition_blocks(blocks, spec):
        if on_block is not None:
            on_block(block_stats(rows))
        for row in rows:
            yield as_row(row)


# -- the Arrow form (what the Spark task exchanges with the JVM) ---------------------------------------
#: Spark SQL type -> pyarrow type factory name (:func:`arrow_schema`).
_ARROW_TYPES = {"STRING": "string", "BIGINT": "int64", "INT": "int32", "DOUBLE": "float64"}


def arrow_schema() -> Any:
    """The parts schema as a pyarrow schema (the columns :func:`arrow_partition` yields)."""
    import pyarrow as pa

    def kind(sql: str) -> Any:
        if sql == "ARRAY<STRING>":
            return pa.list_(pa.string())
        return getattr(pa, _ARROW_TYPES[sql])()

    return pa.schema([(name, kind(sql)) for name, sql in PART_SCHEMA])


def rows_batch(rows: Iterable[dict[str, Any]], schema: Any = None) -> Any:
    """A block's rows as one Arrow record batch of the parts schema (absent columns are null)."""
    import pyarrow as pa

    schema = schema if schema is not None else arrow_schema()
    rows = list(rows)
    return pa.RecordBatch.from_arrays(
        [pa.array([r.get(name) for r in rows], type=schema.field(name).type) for name in PART_COLUMNS], schema=schema
    )


def arrow_partition(batches: Iterable[Any], wave: Sequence[tuple[int, int, int]], spec: CampaignSpec) -> Iterator[Any]:
    """What a Spark task runs (``mapInArrow``): positions in ``wave`` in, one record batch per block out.

    ``batches`` are Arrow record batches whose first column holds positions (``spark.range``
    over the wave); ``wave`` is the job's blocks as ``(index, first, count)`` tuples.  One
    adapter serves all the blocks of the partition.
    """
    schema = arrow_schema()
    positions = (int(p) for batch in batches for p in batch.column(0).to_pylist())
    for rows in partition_blocks((wave[p] for p in positions), spec):
        yield rows_batch(rows, schema)
