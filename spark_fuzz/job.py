"""The Spark shell of a fuzz campaign: distribute seed blocks, write Parquet, triage, report.

Run it as ``cfconform fuzz ...`` or ``spark-submit spark_fuzz/job.py ...`` (same
arguments, :func:`cfconform.spark_fuzz.options.configure_fuzz`).  Everything that decides a
result is a pure function elsewhere in :mod:`spark_fuzz` (blocks, shard, triage,
diff, progress); this module only moves plain rows around, through the DataFrame API
alone (no RDD, no SparkContext, no driver JVM), so it runs unchanged on ``local[N]``, a
cluster and Spark Connect: a job's blocks are ``spark.range`` positions run through
``mapInArrow`` (:func:`cfconform.spark_fuzz.shard.arrow_partition`), its rows written by the
DataFrame writer, its figures (traces, divergences, faults, steps) observed on the way
(``DataFrame.observe``) for the progress line; the small files go through
:mod:`cfconform.spark_fuzz.arrowfs` (pyarrow's file systems).

Layout of ``--out`` (a local directory or a URI both Spark and pyarrow reach)::

    campaign.json        the arguments that fix the results (a rerun must repeat them)
    parts/block=<n>/     each block's rows, written atomically (see below)
    divergences/ coverage/ blocks/ meta/ [traces/]   consolidated Parquet tables
    reproducers/         one minimised transcript (+ pytest module) per signature
    report.md report.html summary.json

Atomic blocks, resume: each Spark job ("wave") computes a few blocks, one per
partition (``spark.range(0, n, 1, n)``: position ``i`` alone in partition ``i``), and
writes them with ``partitionBy("block")`` in dynamic partition
overwrite mode: tasks write into ``parts/.spark-staging-<job>/`` and the job commit
renames each finished ``block=<n>`` directory into ``parts/``, so a block directory
exists only complete.  A rerun with the same arguments lists ``parts/`` and computes
only the missing blocks; a failed or killed task is retried by Spark and its partial
output is discarded by the committer, so no row is lost or duplicated.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import logging
import os
import platform
import shutil
import socket
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import attrs
from pyspark.sql import DataFrame

from cfconform.reference_model.errors import UNKNOWN_FIELD, ConfigurationError
from cfconform.spark_fuzz import diff as diffing
from cfconform.spark_fuzz import shard, support, triage
from cfconform.spark_fuzz.arrowfs import ArrowFS
from cfconform.spark_fuzz.blocks import (
    SEED_STRIDE,
    Block,
    CampaignSpec,
    block_of_dirname,
    identity_mismatch,
    pending_blocks,
    plan_blocks,
    wave_size,
    waves,
)  # fmt: skip
from cfconform.spark_fuzz.options import connect_endpoint, remote_address
from cfconform.spark_fuzz.progress import INTERVAL, ProgressReporter, SparkProgress, Tally
from cfconform.spark_fuzz.session import java_version, master_of, parallelism, sql_api
from cfconform.spark_fuzz.staging import StagingBusy, clean_staging

#: A session: classic (``pyspark.sql.SparkSession``) or Spark Connect (``pyspark.sql.connect``).
Session = Any

EXIT_OK, EXIT_NONCONFORMING, EXIT_USAGE, EXIT_ADAPTER, EXIT_NOTHING_JUDGED = 0, 1, 2, 3, 4
MANIFEST = "campaign.json"
MANIFEST_FORMAT = "cfconform-campaign"
#: Wave jobs kept in flight: the next job's tasks start while the last tasks of the
#: previous one finish, so cores never wait at a job boundary.
JOBS_IN_FLIGHT = 2
DIVERGENCE_COLUMNS = ("kind", "block", "trace", "seed", "profile", "verdict", "step", "rules", "field", "expected",
                      "observed", "op", "signature", "trace_length")  # fmt: skip
BLOCK_COLUMNS = ("block", "first", "traces", "steps", "divergences", "faults", "seconds")


log = logging.getLogger("cfconform.fuzz")


class CampaignMismatch(Exception):
    """``--out`` holds another campaign (other identifying arguments): refuse to mix them."""


def _say(line: str) -> None:
    print(f"cfconform fuzz: {line}", file=sys.stderr, flush=True)


# -- helpers ------------------------------------------------------------------------------------------
def probe_capabilities(spec: CampaignSpec) -> dict[str, Any]:
    """Load the adapter once on the driver (a bad spec fails here, exit 2) and return its capabilities."""
    from cfconform.adapters.registry import load_adapter

    adapter = load_adapter(spec.adapter, **spec.adapter_kwargs())
    try:
        return adapter.capabilities().to_record()
    finally:
        adapter.close()


def narrow_profiles(spec: CampaignSpec, caps: dict[str, Any], asked_both: bool) -> CampaignSpec:
    """``both`` means the profiles the adapter claims; an unclaimed single profile is an error."""
    claimed = tuple(p for p in spec.profiles if p in caps.get("profiles", ()))
    if asked_both and claimed:
        return attrs.evolve(spec, profiles=claimed)
    if claimed != spec.profiles:
        raise ConfigurationError("--profile", ",".join(spec.profiles),
                                 f"a profile the adapter claims ({', '.join(caps.get('profiles', ())) or 'none'})",
                                 UNKNOWN_FIELD)  # fmt: skip
    return spec


def versions(spark: Session) -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    try:
        ours = version("cfconform")
    except PackageNotFoundError:  # pragma: no cover - not installed
        ours = "unknown"
    return {"cfconform": ours, "pyspark": spark.version, "python": platform.python_version(),
            "java": java_version(spark)}  # fmt: skip


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def check_manifest(fs: ArrowFS, spec: CampaignSpec) -> bool:
    """Create ``campaign.json`` or check that it names this campaign; True if it already existed."""
    path = fs.path(MANIFEST)
    wanted = spec.identity()
    if fs.exists(path):
        try:
            stored = json.loads(fs.read_text(path))
        except ValueError as err:
            raise CampaignMismatch(f"{fs.local_path(path)} is not a campaign manifest ({err})") from err
        if stored.get("format") != MANIFEST_FORMAT:
            raise CampaignMismatch(f"{fs.local_path(path)} is not a campaign manifest")
        problems = identity_mismatch(stored.get("identity", {}), wanted)
        if problems:
            raise CampaignMismatch(
                f"{fs.local_path(fs.root)} holds another campaign ({'; '.join(problems)}); rerun with the same "
                "arguments to resume it, or choose another --out"
            )
        return True
    if fs.list_names(fs.path("parts")):
        raise CampaignMismatch(f"{fs.local_path(fs.root)} has parts/ but no {MANIFEST}: not a campaign directory")
    manifest = {"format": MANIFEST_FORMAT, "version": 1, "campaign_id": spec.campaign_id, "identity": wanted,
                "created": _now()}  # fmt: skip
    fs.write_text(path, json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return False


def done_blocks(fs: ArrowFS) -> set[int]:
    """Indexes of the blocks whose ``parts/block=<n>`` directory exists (hence is complete)."""
    found = (block_of_dirname(name) for name in fs.list_names(fs.path("parts"), dirs_only=True))
    return {n for n in found if n is not None}


def wave_rows(spark: Session, spec: CampaignSpec, wave: list[Block]) -> DataFrame:
    """The rows of a wave's blocks: ``spark.range`` positions, one per partition, through ``mapInArrow``."""
    blocks = tuple(b.as_tuple() for b in wave)
    positions = spark.range(0, len(blocks), 1, len(blocks))
    return positions.mapInArrow(partial(shard.arrow_partition, wave=blocks, spec=spec), shard.part_ddl())


def write_wave(spark: Session, spec: CampaignSpec, wave: list[Block], parts: str, tally: Tally | None = None) -> None:
    """One Spark job: the wave's blocks, one per partition, written as ``parts/block=<n>/``.

    The job's figures (the sums of its ``block`` rows) are observed as the rows are written
    and added to ``tally`` when the job has finished.
    """
    api = sql_api(spark)
    F = api.F
    observation = api.Observation(f"cfconform-wave-{wave[0].index}-{uuid.uuid4().hex[:8]}")
    is_block = F.col("kind") == F.lit("block")
    figures = [F.sum(F.when(is_block, F.col(name))).alias(name) for name in Tally.FIELDS]
    frame = wave_rows(spark, spec, wave).observe(observation, *figures)
    (frame.write.mode("overwrite").option("partitionOverwriteMode", "dynamic").option("compression", "zstd")
     .partitionBy("block").parquet(parts))  # fmt: skip
    figures = observation.get
    if tally is not None:
        tally.add(figures)
    log.info("job of blocks %d-%d done: %s", wave[0].index, wave[-1].index,
             ", ".join(f"{figures.get(name) or 0:,} {name}" for name in Tally.FIELDS))  # fmt: skip


def run_waves(spark: Session, spec: CampaignSpec, pending: list[Block], parts: str, per_job: int,
              tally: Tally | None = None, in_flight: int = JOBS_IN_FLIGHT,
              first_job: int | None = None) -> None:  # fmt: skip
    """All pending blocks, ``per_job`` per job (``first_job`` in the first), ``in_flight`` jobs at a time
    (in block order)."""
    groups = list(waves(pending, per_job, first_job))
    if first_job is not None and len(groups) > 1:  # alone, so no bigger job takes the cores first
        write_wave(spark, spec, groups.pop(0), parts, tally)
    if in_flight <= 1 or len(groups) <= 1:
        for wave in groups:
            write_wave(spark, spec, wave, parts, tally)
        return
    with ThreadPoolExecutor(max_workers=in_flight, thread_name_prefix="cfconform-wave") as pool:
        futures = []
        try:
            for wave in groups:
                futures.append(pool.submit(write_wave, spark, spec, wave, parts, tally))
                while sum(not f.done() for f in futures) >= in_flight:
                    _wait_first(futures)
                _raise_failed(futures)
            for f in futures:
                f.result()
        except (KeyboardInterrupt, SystemExit):  # (before the pool waits for its jobs: stop them)
            pool.shutdown(wait=False, cancel_futures=True)
            interrupt(spark)
            raise


def interrupt(spark: Session) -> None:
    """Cancel the session's running jobs (a Connect server would otherwise finish a departed client's)."""
    with contextlib.suppress(Exception):
        spark.interruptAll()


def _wait_first(futures: list[Any]) -> None:
    from concurrent.futures import FIRST_COMPLETED, wait

    wait([f for f in futures if not f.done()], return_when=FIRST_COMPLETED)


def _raise_failed(futures: list[Any]) -> None:
    for f in futures:
        if f.done() and f.exception() is not None:
            raise f.exception()  # type: ignore[misc]


# -- consolidation and summary ------------------------------------------------------------------------
def concurrently(*calls: Callable[[], Any]) -> list[Any]:
    """Run small independent Spark actions from threads: their job latencies overlap."""
    with ThreadPoolExecutor(max_workers=len(calls), thread_name_prefix="cfconform-action") as pool:
        return [f.result() for f in [pool.submit(call) for call in calls]]


def consolidate(spark: Session, fs: ArrowFS, spec: CampaignSpec, blocks: int, cores: int) -> dict[str, DataFrame]:
    """Split ``parts/`` into the campaign's tables (idempotent: a rerun rewrites them)."""
    F = sql_api(spark).F
    parts = spark.read.parquet(fs.path("parts"))
    cid = F.lit(spec.campaign_id).alias("campaign_id")
    files = max(1, min(2 * cores, blocks // 32 + 1))
    tables = {
        "divergences": parts.where(F.col("kind").isin(*shard.FAILURE_KINDS))
        .select(cid, *DIVERGENCE_COLUMNS)
        .coalesce(files),
        "coverage": parts.where(F.col("kind") == "coverage").select("block", "rule", "count").coalesce(files),
        "blocks": parts.where(F.col("kind") == "block").select(*BLOCK_COLUMNS).coalesce(1),
    }
    if spec.full_traces:
        tables["traces"] = parts.where(F.col("kind") == "trace").select(
            cid, "block", "trace", "seed", "profile", "verdict", "signature", "trace_json"
        )
    writes = (partial(frame.write.mode("overwrite").option("compression", "zstd").parquet, fs.path(name))
              for name, frame in tables.items())  # fmt: skip
    concurrently(*writes)
    return {name: spark.read.parquet(fs.path(name)) for name in tables}


def failure_examples(spark: Session, divergences: DataFrame) -> list[triage.Example]:
    """One example per signature: the shortest failing trace (then the lowest index), with the count."""
    F = sql_api(spark).F
    best = F.min(F.struct("trace_length", "trace", "seed", "profile", "step", "kind", "rules", "field", "op"))
    rows = divergences.groupBy("signature").agg(F.count(F.lit(1)).alias("count"), best.alias("best")).collect()
    examples = []
    for row in rows:
        b = row["best"].asDict()
        examples.append(triage.Example(signature=row["signature"], count=int(row["count"]), kind=b["kind"],
                                       rules=tuple(b["rules"] or ()), field=b["field"], op=b["op"], trace=b["trace"],
                                       seed=b["seed"], profile=b["profile"], step=b["step"],
                                       trace_length=b["trace_length"]))  # fmt: skip
    return triage.order_signatures(examples)


def totals(spark: Session, tables: dict[str, DataFrame]) -> dict[str, Any]:
    F = sql_api(spark).F
    row = tables["blocks"].agg(
        F.count(F.lit(1)).alias("blocks"), F.sum("traces").alias("traces"), F.sum("steps").alias("steps"),
        F.sum("divergences").alias("divergences"), F.sum("faults").alias("faults"),
        F.sum("seconds").alias("block_seconds"),
    ).first()  # fmt: skip
    out = row.asDict() if row is not None else {}
    return {k: (v or 0) for k, v in out.items()} | {"block_seconds": round(float(out.get("block_seconds") or 0), 3)}


def coverage_counts(spark: Session, tables: dict[str, DataFrame]) -> list[dict[str, Any]]:
    F = sql_api(spark).F
    rows = tables["coverage"].groupBy("rule").agg(F.sum("count").alias("count")).collect()
    return sorted(({"rule": r["rule"], "count": int(r["count"])} for r in rows), key=lambda r: r["rule"])


def write_meta(spark: Session, fs: ArrowFS, summary: dict[str, Any]) -> None:
    run, tot = summary["run"], summary["totals"]
    record = {
        "campaign_id": summary["campaign_id"], "identity": json.dumps(summary["identity"], sort_keys=True),
        "arguments": json.dumps(summary["arguments"], sort_keys=True, default=str),
        "capabilities": json.dumps(summary["capabilities"], sort_keys=True),
        "versions": json.dumps(summary["versions"], sort_keys=True), "started": summary["started"],
        "finished": summary["finished"], "traces": int(tot["traces"]), "steps": int(tot["steps"]),
        "divergences": int(tot["divergences"]), "faults": int(tot["faults"]), "blocks": int(tot["blocks"]),
        "blocks_this_run": int(run["blocks"]), "traces_this_run": int(run["traces"]),
        "compute_seconds": float(run["compute_seconds"]), "elapsed_seconds": float(run["elapsed_seconds"]),
        "traces_per_second": float(run["traces_per_second"]), "steps_per_second": float(run["steps_per_second"]),
    }  # fmt: skip
    # (the schema spelled out, as classic sessions inferred it from the record: columns sorted by name)
    names = sorted(record)
    kinds = {str: "STRING", int: "BIGINT", float: "DOUBLE"}
    schema = ", ".join(f"`{name}` {kinds[type(record[name])]}" for name in names)
    frame = spark.createDataFrame([tuple(record[name] for name in names)], schema=schema)
    frame.coalesce(1).write.mode("overwrite").option("compression", "zstd").parquet(fs.path("meta"))


def export_reproducers(fs: ArrowFS, spec: CampaignSpec, examples: list[triage.Example], limit: int,
                       emit: Callable[[str], None]) -> dict[str, dict[str, Any]]:  # fmt: skip
    """Minimise up to ``limit`` signatures and write their transcripts; triage records by signature."""
    from cfconform.adapters.registry import load_adapter
    from cfconform.conformance.reproducer import render_pytest

    kwargs = spec.adapter_kwargs()
    factory = partial(load_adapter, spec.adapter, **kwargs)
    out: dict[str, dict[str, Any]] = {}
    for example in examples[:limit]:
        start = time.perf_counter()
        record = triage.triage_example(spec, example, factory)
        transcript = record.pop("transcript")
        if transcript is not None:
            path = fs.path("reproducers", f"{record['stem']}.json")
            fs.write_text(path, json.dumps(transcript, indent=1, sort_keys=True) + "\n")
            test = fs.path("reproducers", f"test_{record['stem'].replace('-', '_')}.py")
            fs.write_text(test, render_pytest(transcript, spec.adapter))
            record["reproducer"] = fs.local_path(path)
            record["pytest"] = fs.local_path(test)
            record["replay"] = triage.replay_command(fs.local_path(path), spec.adapter)
        record["seconds"] = round(time.perf_counter() - start, 3)
        shown = record.get("minimised_signature")
        shown_as = f" (shown as {shown})" if shown not in (None, example.signature) else ""
        emit(f"triage {example.signature}: {record['original_length']} -> {record['minimised_length']} steps"
             + shown_as + ("" if record["reproduced"] else " (did not reproduce)"))  # fmt: skip
        out[example.signature] = record
    return out


def exit_code_of(tot: dict[str, Any], coverage: list[dict[str, Any]] | None = None,
                 families: list[str] | None = None) -> int:  # fmt: skip
    """3 adapter faults, 1 divergences, 4 when no rule of a claimed family decided a step (nothing
    judged is not a pass: the exit-code contract), else 0."""
    if tot.get("faults"):
        return EXIT_ADAPTER
    if tot.get("divergences"):
        return EXIT_NONCONFORMING
    claimed = set(families) if families is not None else None
    judged = any(c["count"] and (claimed is None or c["rule"].split("-")[0] in claimed) for c in coverage or ())
    return EXIT_OK if coverage is None or judged else EXIT_NOTHING_JUDGED


# -- the campaign -------------------------------------------------------------------------------------
def run_campaign(spark: Session, spec: CampaignSpec, out: str, *, caps: dict[str, Any] | None = None,
                 partitions: int | None = None, max_blocks: int | None = None, max_signatures: int = 20,
                 triage_failures: bool = True, progress_seconds: float = 5.0,
                 arguments: dict[str, Any] | None = None, emit: Callable[[str], None] = _say,
                 in_flight: int = JOBS_IN_FLIGHT, progress: SparkProgress | None = None) -> dict[str, Any]:  # fmt: skip
    """Run (or resume) a campaign into ``out``; returns the summary record (also ``OUT/summary.json``).

    Raises :class:`CampaignMismatch` if ``out`` holds a campaign with other arguments.
    The summary's ``complete`` is False when ``max_blocks`` stopped the run early (then
    nothing is consolidated; rerun to resume).  ``progress`` (``cfconform fuzz``) is told each
    phase and follows the blocks; without it, a line every ``progress_seconds`` while blocks run.
    """
    phase = progress.enter if progress is not None else (lambda text: None)
    started, begin = _now(), time.perf_counter()
    spec = spec.validate()
    caps = caps if caps is not None else probe_capabilities(spec)
    fs = ArrowFS(out)
    resumed = check_manifest(fs, spec)
    blocks = plan_blocks(spec.traces, spec.block_size)
    clean_staging(fs)  # (first: a killed Connect client's job may still commit blocks; staging.py)
    done = done_blocks(fs)
    pending = pending_blocks(blocks, done, max_blocks)
    traces_before = sum(b.count for b in blocks if b.index in done)
    if not pending and len(done) == len(blocks):
        finished = finished_summary(fs, spec)
        if finished is not None:
            emit(f"campaign {spec.campaign_id} is already complete in {fs.local_path(fs.root)}: nothing to run "
                 "(delete summary.json there to consolidate and triage again)")  # fmt: skip
            return finished | {"run": {"blocks": 0, "already_done": len(done), "traces": 0, "steps": 0,
                                       "resumed": True, "compute_seconds": 0.0,
                                       "elapsed_seconds": round(time.perf_counter() - begin, 3)}}  # fmt: skip
    phase("planning the blocks")
    cores = parallelism(spark)
    per_job = partitions or wave_size(cores, len(pending))
    if pending:
        emit(f"campaign {spec.campaign_id}: {len(pending)} of {len(blocks)} blocks to run "
             f"({len(done)} already done) into {fs.local_path(fs.root)}")  # fmt: skip
    tally = Tally()
    every = progress_seconds if pending and progress is None else 0
    reporter = ProgressReporter(spec.traces, traces_before, tally.read, every=every, emit=emit)
    if progress is not None:
        progress.follow(tally.read, traces_before)
    compute_start = time.perf_counter()
    with reporter:
        first = None if partitions else cores  # (a rate and an ETA after one block's time)
        run_waves(spark, spec, pending, fs.path("parts"), per_job, tally, in_flight, first_job=first)
    compute_seconds = time.perf_counter() - compute_start
    now_done = done | {b.index for b in pending}
    run = {"blocks": len(pending), "already_done": len(done), "traces": tally["traces"], "steps": tally["steps"],
           "resumed": resumed, "compute_seconds": round(compute_seconds, 3)}  # fmt: skip
    summary: dict[str, Any] = {
        "format": "cfconform-campaign-summary", "campaign_id": spec.campaign_id, "out": fs.local_path(fs.root),
        "adapter": spec.adapter, "capabilities": caps, "identity": spec.identity(),
        "arguments": dict(arguments or {}), "started": started, "versions": versions(spark),
        "complete": len(now_done) == len(blocks), "blocks_total": len(blocks), "blocks_done": len(now_done),
    }  # fmt: skip
    if not summary["complete"]:
        emit(f"stopped after {len(pending)} blocks: {len(now_done)}/{len(blocks)} done; rerun the same command "
             "to resume")  # fmt: skip
        summary |= {"run": run, "finished": _now(), "exit_code": EXIT_OK}
        return summary
    phase("consolidating the tables")
    tables = consolidate(spark, fs, spec, len(blocks), cores)
    tot, coverage, examples = concurrently(
        partial(totals, spark, tables), partial(coverage_counts, spark, tables),
        partial(failure_examples, spark, tables["divergences"]),
    )  # fmt: skip
    if triage_failures and examples:
        phase(f"minimising {min(len(examples), max_signatures)} failure signatures")
    triaged = export_reproducers(fs, spec, examples, max_signatures, emit) if triage_failures else {}
    elapsed = time.perf_counter() - begin
    run |= {
        "elapsed_seconds": round(elapsed, 3),
        "traces_per_second": round(run["traces"] / compute_seconds, 1) if pending and compute_seconds else 0.0,
        "steps_per_second": round(run["steps"] / compute_seconds, 1) if pending and compute_seconds else 0.0,
    }  # fmt: skip
    summary |= {
        "run": run, "totals": tot, "coverage": coverage,
        "signatures": [e.to_record() | {"triage": triaged.get(e.signature)} for e in examples],
        "finished": _now(), "exit_code": exit_code_of(tot, coverage, caps.get("families")),
    }  # fmt: skip
    phase("writing the reports")
    write_meta(spark, fs, summary)
    write_reports(fs, summary)
    return summary


def finished_summary(fs: ArrowFS, spec: CampaignSpec) -> dict[str, Any] | None:
    """The summary of this campaign if consolidation, triage and reports finished (written last)."""
    path = fs.path("summary.json")
    if not fs.exists(path):
        return None
    try:
        summary = json.loads(fs.read_text(path))
    except ValueError:
        return None
    return summary if summary.get("campaign_id") == spec.campaign_id and summary.get("complete") else None


def write_reports(fs: ArrowFS, summary: dict[str, Any]) -> None:
    from cfconform.reports.campaign_report import render_html, render_markdown

    fs.write_text(fs.path("report.md"), render_markdown(summary))
    fs.write_text(fs.path("report.html"), render_html(summary))
    fs.write_text(fs.path("summary.json"), json.dumps(summary, indent=1, sort_keys=True, default=str) + "\n")


# -- diff ---------------------------------------------------------------------------------------------
def _identity_of(fs: ArrowFS) -> dict[str, Any]:
    path = fs.path(MANIFEST)
    if not fs.exists(path) or not fs.exists(fs.path("divergences")):
        raise ConfigurationError(
            "campaign",
            fs.local_path(fs.root),
            f"a finished campaign directory ({MANIFEST} and divergences/)",
            UNKNOWN_FIELD,
        )
    return json.loads(fs.read_text(path))["identity"]


def _local_writable(option: str, out: str) -> None:
    """A local output directory (a path, or ``file:``) must be writable before Spark starts; a remote
    URI must be one pyarrow's file systems open (the driver writes the small files through them)."""
    if "://" in out and not out.startswith("file:"):
        ArrowFS(out)
        return
    from cfconform.conformance.paths import unwritable

    local = out.removeprefix("file://").removeprefix("file:")
    problem = unwritable(Path(local))
    if problem:
        raise ConfigurationError(option, out, f"a writable directory ({problem})", UNKNOWN_FIELD)


def require_java(master: str | None) -> None:
    """A classic session needs Java (17 or later; Spark Connect clients do not): a missing one is a
    usage error found before anything starts, not a JVM traceback."""
    java_home = os.environ.get("JAVA_HOME")
    found = shutil.which("java") or (java_home and os.path.isfile(os.path.join(java_home, "bin", "java")))
    if not found:
        allowed = "Java 17 or later on PATH or in JAVA_HOME (Spark needs it)"
        raise ConfigurationError("java", None, allowed, UNKNOWN_FIELD)


def _local_campaign(option: str, run: str) -> None:
    """A local campaign directory (a path, or ``file:``) must hold a finished campaign; others
    (``hdfs://``, ``s3a://``, ...) are checked once Spark is up (:func:`_identity_of`)."""
    if "://" in run and not run.startswith("file:"):
        return
    local = run.removeprefix("file://").removeprefix("file:")
    if not (os.path.isfile(os.path.join(local, MANIFEST)) and os.path.isdir(os.path.join(local, "divergences"))):
        allowed = f"a finished campaign directory ({MANIFEST} and divergences/)"
        raise ConfigurationError(option, run, allowed, UNKNOWN_FIELD)


def _ran(F: Any, identity: dict[str, Any], comparable: bool) -> Any:
    """Spark column twin of :func:`cfconform.spark_fuzz.diff.ran` (``F``: the session's column functions)."""
    if not comparable:
        return F.lit(False)
    i = F.col("seed") - F.lit(identity["seed"] * SEED_STRIDE)
    profiles = F.array(*[F.lit(p) for p in identity["profiles"]])
    at = F.element_at(profiles, (i % F.lit(len(identity["profiles"])) + F.lit(1)).cast("int"))
    return (i >= 0) & (i < F.lit(identity["traces"])) & (F.col("profile") == at)


def diff_campaigns(spark: Session, run_a: str, run_b: str, *, limit: int = 20) -> dict[str, Any]:
    """New, fixed and changed failures of B against A (rules in :mod:`cfconform.spark_fuzz.diff`) as a plain record."""
    api = sql_api(spark)
    F, Window = api.F, api.Window
    fa, fb = ArrowFS(run_a), ArrowFS(run_b)
    ida, idb = _identity_of(fa), _identity_of(fb)
    warnings = diffing.comparable(ida, idb)
    keep = ("seed", "profile", "signature", "step", "trace")

    def side(fs: ArrowFS, tag: str) -> DataFrame:
        frame = spark.read.parquet(fs.path("divergences")).select(*keep)
        return frame.select("seed", "profile", *[F.col(c).alias(f"{tag}_{c}") for c in keep[2:]])

    joined = side(fa, "a").join(side(fb, "b"), ["seed", "profile"], "full_outer")
    a_sig, b_sig = F.col("a_signature"), F.col("b_signature")
    a_ran, b_ran = _ran(F, ida, not warnings), _ran(F, idb, not warnings)
    status = (
        F.when(a_sig.isNotNull() & b_sig.isNotNull(),
               F.when((a_sig == b_sig) & F.col("a_step").eqNullSafe(F.col("b_step")), "same").otherwise("changed"))
        .when(a_sig.isNotNull(), F.when(b_ran, "fixed").otherwise("not-compared"))
        .otherwise(F.when(a_ran, "new").otherwise("not-compared"))
    )  # fmt: skip
    classified = joined.withColumn("status", status)
    shown = classified.where(F.col("status").isin(*diffing.SHOWN))
    first = Window.partitionBy("status").orderBy("seed", "profile")
    grouped, picked = concurrently(
        lambda: classified.groupBy("status", "a_signature", "b_signature").count().collect(),
        lambda: shown.withColumn("n", F.row_number().over(first)).where(F.col("n") <= limit).drop("n").collect(),
    )
    counts: dict[str, int] = {}
    for r in grouped:
        counts[r["status"]] = counts.get(r["status"], 0) + int(r["count"])
    grouped = [r for r in grouped if r["status"] in diffing.SHOWN]
    examples: dict[str, list[dict[str, Any]]] = {s: [] for s in diffing.SHOWN}
    for r in sorted(picked, key=lambda r: (r["seed"], r["profile"])):
        examples[r["status"]].append(r.asDict())
    by_signature = sorted(({"status": r["status"], "a_signature": r["a_signature"], "b_signature": r["b_signature"],
                            "count": int(r["count"])} for r in grouped),
                          key=lambda r: (diffing.SHOWN.index(r["status"]), -r["count"], str(r["a_signature"]),
                                         str(r["b_signature"])))  # fmt: skip
    return {
        "a": {"out": fa.local_path(fa.root), "identity": ida}, "b": {"out": fb.local_path(fb.root), "identity": idb},
        "counts": {s: counts.get(s, 0) for s in diffing.STATUSES}, "by_signature": by_signature,
        "examples": examples, "warnings": warnings, "limit": limit,
    }  # fmt: skip


# -- entry points (cfconform fuzz / diff, spark-submit) -------------------------------------------------
def require_server(remote: str, option: str = "--remote") -> None:
    """A Spark Connect URL must answer before anything starts (a usage error, not a gRPC retry loop)."""
    host, port = connect_endpoint(remote)
    try:
        socket.create_connection((host, port), timeout=5).close()
    except OSError as err:
        reason = err.strerror or type(err).__name__
        allowed = f"a Spark Connect server that answers at {host}:{port} ({reason})"
        raise ConfigurationError(option, remote, allowed, UNKNOWN_FIELD) from None


def spark_target(args: argparse.Namespace) -> str | None:
    """Check where Spark runs before anything starts; the Spark Connect URL, or None for a classic session."""
    remote = remote_address(args.master, getattr(args, "remote", None))
    if remote is not None:
        require_server(remote, "--remote" if getattr(args, "remote", None) is not None else "SPARK_REMOTE")
    else:
        require_java(args.master)
    return remote


@contextlib.contextmanager
def session(
    master: str | None,
    app_name: str,
    conf: dict[str, str] | None = None,
    verbose: bool = False,
    remote: str | None = None,
    emit: Callable[[str], None] | None = None,
) -> Iterator[Session]:
    """The running session of the asked kind if there is one (tests, notebooks), else a new one stopped
    afterwards (for Spark Connect: this client's session; the server keeps running).  ``emit`` prints
    where to watch it (default: stderr)."""
    from cfconform.spark_fuzz.session import active_session, build_session, describe

    active = active_session(remote)
    if active is not None:
        yield active
        return
    spark = build_session(master, app_name, remote=remote, conf=conf, verbose=verbose)
    where = describe(spark, remote)
    if where:  # once, where Spark's own start-up lines are hidden
        if emit is not None:
            emit(where)
        else:
            print(f"{app_name.split()[0].replace('-', ' ')}: {where}", file=sys.stderr, flush=True)
    try:
        yield spark
    except (KeyboardInterrupt, SystemExit):
        interrupt(spark)  # (a Connect server runs on when its client goes: stop this session's jobs with it)
        raise
    finally:
        spark.stop()


@contextlib.contextmanager
def terminated_as_exit() -> Iterator[None]:
    """SIGTERM raises ``SystemExit(143)`` meanwhile: sessions stop, and Connect jobs are interrupted, on the way out."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def _exit(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    before = signal.signal(signal.SIGTERM, _exit)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _progress(args: argparse.Namespace, label: str, total: int | None = None) -> SparkProgress:
    """The command's progress: silenced by ``-q`` (or ``--progress-seconds 0``)."""
    every = getattr(args, "progress_seconds", INTERVAL)
    quiet = bool(getattr(args, "quiet", False)) or every == 0
    return SparkProgress(label, total, quiet=quiet, interval=every or INTERVAL)


def fuzz_main(args: argparse.Namespace) -> int:
    """``cfconform fuzz``: run or resume a campaign; exit 0 none found, 1 divergences, 2 usage, 3 faults."""
    from cfconform.spark_fuzz.options import spark_conf, spec_from_args

    if os.getcwd() not in sys.path:  # a module:attr adapter next to the user's shell (executors: session.py)
        sys.path.append(os.getcwd())
    spec = spec_from_args(args)
    conf = spark_conf(args.conf)
    _local_writable("--out", args.out)
    remote = spark_target(args)
    progress = _progress(args, "cfconform fuzz", spec.traces)
    say = lambda line: progress.say(f"cfconform fuzz: {line}")  # noqa: E731
    with progress:
        progress.enter("probing the implementation")
        caps = probe_capabilities(spec)
        spec = narrow_profiles(spec, caps, asked_both=args.profile == "both")
        spec = attrs.evolve(spec, skip=support.skipped(shard.adapter_loader(spec), caps, spec.profiles))
        if spec.skip:
            say(f"not generated for this implementation (unclaimed or not supported): {', '.join(spec.skip)}")
        arguments = {k: v for k, v in vars(args).items() if not k.startswith("_") and not callable(v)}
        arguments["remote"] = remote
        verbose = bool(getattr(args, "verbose", False))
        where = f"Spark Connect {remote}" if remote else f"Spark ({args.master or 'local[*]'})"
        say(f"starting {where} for campaign {spec.campaign_id}: {spec.traces} traces")
        progress.enter(f"starting {where}")
        with terminated_as_exit(), session(args.master, f"cfconform-fuzz {spec.campaign_id}", conf, verbose,
                                                remote, say) as spark:  # fmt: skip
            arguments["master"] = master_of(spark)
            try:
                summary = run_campaign(
                    spark, spec, args.out, caps=caps, partitions=args.partitions, max_blocks=args.max_blocks,
                    max_signatures=args.max_signatures, triage_failures=not args.no_triage,
                    arguments=arguments, emit=say, progress=progress,
                )  # fmt: skip
            except CampaignMismatch as err:
                print(f"cfconform fuzz: refusing to run: {err}", file=sys.stderr)
                return EXIT_USAGE
            except StagingBusy as err:
                print(f"cfconform fuzz: cannot resume yet: {err}", file=sys.stderr)
                return EXIT_USAGE
            progress.enter("stopping Spark")
    from cfconform.reports.campaign_report import render_summary_text

    print(render_summary_text(summary), end="")
    return int(summary["exit_code"])


def diff_main(args: argparse.Namespace) -> int:
    """``cfconform diff RUN_A RUN_B``: print new, fixed and changed failures; exit 0."""
    from cfconform.reports.campaign_report import render_diff_text

    for option, run in (("RUN_A", args.run_a), ("RUN_B", args.run_b)):
        _local_campaign(option, run)  # before the JVM starts: a missing directory is a usage error
    remote = spark_target(args)
    verbose = bool(getattr(args, "verbose", False))
    progress = _progress(args, "cfconform diff")
    with progress:
        where = f"Spark Connect {remote}" if remote else f"Spark ({args.master or 'local[*]'})"
        progress.enter(f"starting {where}")
        say = lambda line: progress.say(f"cfconform diff: {line}")  # noqa: E731
        with session(args.master, "cfconform-diff", verbose=verbose, remote=remote, emit=say) as spark:
            progress.enter("joining the campaigns' divergences")
            try:
                record = diff_campaigns(spark, args.run_a, args.run_b, limit=args.limit)
            except ConfigurationError:
                raise
            except Exception as err:  # a campaign's tables unreadable (a corrupt Parquet file): its input, exit 2
                first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
                raise ConfigurationError("RUN_A/RUN_B", f"{args.run_a} {args.run_b}", f"readable campaigns ({first})",
                                         UNKNOWN_FIELD) from None  # fmt: skip
            progress.enter("stopping Spark")
    print(render_diff_text(record), end="")
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """``spark-submit spark_fuzz/job.py ARGS`` (the arguments of ``cfconform fuzz``)."""
    from cfconform.spark_fuzz.options import configure_fuzz

    parser = argparse.ArgumentParser(prog="spark_fuzz/job.py", description="a cfconform fuzz campaign on Spark")
    configure_fuzz(parser)
    args = parser.parse_args(argv)
    try:
        return fuzz_main(args)
    except ConfigurationError as err:
        print(f"cfconform fuzz: configuration error: {err}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    raise SystemExit(main())
