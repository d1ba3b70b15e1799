"""Spark campaign throughput beside the same generator + checker in one plain Python process.

Prints, measured in the same run:

- the bare model's steps/s, two ways: on the standard stream of ``benchmarks/model_steps.py``
  (one configuration, no per-trace cost) and on this campaign's own traces (a model per trace,
  generated beforehand, nothing checked); beside them the plain loop ``generate`` +
  ``run_trace`` over the same seeds in this process (the model twice, as the implementation
  and in the checker, plus generation and checking); each measured before and after the
  campaigns and averaged, as the machine's load drifts; goal (issue 26): the plain loop at
  least a third of the bare model's steps/s (both in CPU time: other work inflates neither);
- checked steps/s of a campaign on ``--master`` (default ``local[2]``) during its compute
  phase (the Spark jobs that run the blocks) and end to end (with consolidation),
  beside the plain loop; goal: campaign >= 1.8x the plain loop on 2 cores;
- cost per trace (compute seconds / traces) at each ``--traces`` size; goal: the largest
  within 20% of the smallest;
- CPU per trace of the plain loop and of each campaign (the driver, its JVM and the Python
  workers), which other work on a shared machine does not inflate, and from them the most the
  campaign could do over the loop on free cores;
- driver memory before and after each campaign: RSS of this Python process and of the
  driver JVM, and the driver JVM's heap in use just after a full GC (RSS only shows how far
  the heap has expanded; the heap in use after GC is what the driver retains); nothing per
  trace is collected to the driver, so neither may grow with the number of traces.

Run (about 3 minutes for 10^4 and 10^5 traces on 2 cores)::

    .venv/bin/python benchmarks/campaign_throughput.py [--traces 10000,100000] [--steps 20]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from typing import Any

from cfconform.adapters.registry import load_adapter
from cfconform.judge.runner import run_trace
from cfconform.properties.generator import generate
from cfconform.reference_model.errors import ConfigurationError
from cfconform.reference_model.model import Model
from cfconform.spark_fuzz.blocks import CampaignSpec, default_block_size, trace_profile, trace_seed
from cfconform.spark_fuzz.shard import long_lived_frozen


def rss_mb(pid: int | str = "self") -> float:
    """Resident set size of a process in MB (Linux /proc)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def jvm_heap_after_gc_mb(spark: Any) -> float:
    """Heap the driver JVM still uses after a full garbage collection, in MB (what it retains)."""
    jvm = spark.sparkContext._jvm
    for _ in range(3):  # System.gc() is a request; repeat until the figure settles
        jvm.java.lang.System.gc()
    usage = jvm.java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage()
    return usage.getUsed() / 2**20


def plain_loop(spec: CampaignSpec, traces: int) -> tuple[float, float, float, float]:
    """``(steps/s, traces/s, CPU seconds per trace, steps per CPU second)`` of generate + run_trace
    over the campaign's first ``traces`` seeds."""
    adapter = load_adapter(spec.adapter)
    caps = adapter.capabilities()
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(traces):
        config, ops = generate(trace_seed(spec.seed, i), trace_profile(spec.profiles, i), spec.steps)
        steps += run_trace(adapter, config, ops, caps=caps).steps_checked
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    adapter.close()
    return steps / seconds, traces / seconds, cpu / traces, steps / cpu


def bare_model(spec: CampaignSpec, traces: int) -> float:
    """Steps/s of the model alone over the campaign's first ``traces`` traces: a :class:`Model` per
    trace, stepped through its operations (generated beforehand), nothing checked or recorded; CPU
    time, as ``benchmarks/model_steps.py``."""
    work = [generate(trace_seed(spec.seed, i), trace_profile(spec.profiles, i), spec.steps) for i in range(traces)]
    steps = 0
    start = time.process_time()
    for config, ops in work:
        step = Model(config).step
        try:
            for op in ops:
                step(op)
            steps += len(ops)
        except ConfigurationError:  # (an invalid trace ends there, as run_trace ends it)
            steps += next(i for i, other in enumerate(ops) if other is op)
    return steps / (time.process_time() - start)


def model_stream() -> float:
    """Steps/s of the model on ``benchmarks/model_steps.py``'s standard stream (its best of three)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from model_steps import run_model, standard_stream

    ops = standard_stream(300_000)
    return max(run_model(ops) for _ in range(3))


def baselines(spec: CampaignSpec, traces: int) -> tuple[float, float, float, float, float, float]:
    """``(model stream steps/s, model on these traces steps/s, plain loop steps/s, plain loop traces/s,
    plain loop CPU seconds per trace, plain loop steps per CPU second)``,
    each measured as a campaign block runs (:func:`spark_fuzz.shard.long_lived_frozen`): the objects
    alive beforehand, Spark's modules among them, are not rescanned by the garbage collector."""
    with long_lived_frozen():
        return (model_stream(), bare_model(spec, traces), *plain_loop(spec, traces))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", default="10000,100000", help="campaign sizes, comma-separated")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--adapter", default="reference")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--block-size", type=int, help="traces per block (default: as cfconform fuzz)")
    parser.add_argument("--partitions", type=int, help="blocks per Spark job (default: the job's default)")
    parser.add_argument("--baseline-traces", type=int, default=5000, help="traces of each plain-loop measurement")
    parser.add_argument("--out", help="campaign directory root (default: a temporary directory, removed)")
    parser.add_argument(
        "--jvm-options", default="", help="spark.driver.extraJavaOptions (e.g. -XX:TieredStopAtLevel=1)"
    )
    args = parser.parse_args()
    sizes = [int(n.replace("_", "")) for n in args.traces.split(",")]

    from cfconform.spark_fuzz.job import run_campaign
    from cfconform.spark_fuzz.session import build_session

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from campaign_scaling import tree_cpu_seconds

    root = args.out or tempfile.mkdtemp(prefix="cfconform-bench-")
    spec_of = lambda n: CampaignSpec(args.adapter, n, args.steps, block_size=args.block_size or default_block_size(n))  # noqa: E731
    base_before = baselines(spec_of(args.baseline_traces), args.baseline_traces)
    begin = time.perf_counter()
    conf = {"spark.driver.extraJavaOptions": args.jvm_options} if args.jvm_options else {}
    spark = build_session(args.master, "cfconform-benchmark", ui=False, conf=conf)
    jvm_pid = spark.sparkContext._gateway.proc.pid
    startup = time.perf_counter() - begin
    warm = CampaignSpec(args.adapter, 2000, args.steps, seed=99, block_size=1000)
    run_campaign(spark, warm, f"{root}/warmup", progress_seconds=0, emit=lambda line: None, triage_failures=False)
    print(f"session start {startup:.1f} s; parallelism {spark.sparkContext.defaultParallelism}; master "
          f"{spark.sparkContext.master}; cores on this machine {os.cpu_count()}")  # fmt: skip
    rows = []
    for n in sizes:
        heap0 = jvm_heap_after_gc_mb(spark)
        py0, jvm0, cpu0 = rss_mb(), rss_mb(jvm_pid), cpu_seconds(jvm_pid)
        tree0 = tree_cpu_seconds(os.getpid())
        start = time.perf_counter()
        summary = run_campaign(spark, spec_of(n), f"{root}/c{n}", partitions=args.partitions, progress_seconds=30,
                               triage_failures=False)  # fmt: skip
        total = time.perf_counter() - start
        run = summary["run"]
        jvm_cpu = cpu_seconds(jvm_pid) - cpu0
        tree_cpu = tree_cpu_seconds(os.getpid()) - tree0
        py1, jvm1 = rss_mb(), rss_mb(jvm_pid)
        heap = (heap0, jvm_heap_after_gc_mb(spark))
        rows.append((n, run, total, summary["totals"]["block_seconds"], jvm_cpu, py0, py1, jvm0, jvm1, heap, tree_cpu))
    cores = spark.sparkContext.defaultParallelism
    spark.stop()
    base_after = baselines(spec_of(args.baseline_traces), args.baseline_traces)
    stream, traced, base_steps, base_traces, base_cpu, base_cpu_steps = (
        (a + b) / 2 for a, b in zip(base_before, base_after, strict=True)
    )
    print(f"bare model (CPU time): {stream:,.0f} steps/s on model_steps.py's stream (before "
          f"{base_before[0]:,.0f}, after {base_after[0]:,.0f}); {traced:,.0f} steps/s on these traces, a model "
          f"per trace (before {base_before[1]:,.0f}, after {base_after[1]:,.0f})")  # fmt: skip
    print(f"plain Python loop: {base_steps:,.0f} steps/s, {base_traces:,.0f} traces/s "
          f"(before {base_before[2]:,.0f}, after {base_after[2]:,.0f} steps/s); {base_cpu_steps:,.0f} steps "
          f"per CPU second (before {base_before[5]:,.0f}, after {base_after[5]:,.0f})")  # fmt: skip
    print(f"plain loop / bare model (CPU time): {base_cpu_steps / stream:.3f} of the stream's steps/s (goal "
          f">= 0.333), {base_cpu_steps / traced:.3f} of the model's on these traces")  # fmt: skip
    print(f"{'traces':>9} {'compute s':>9} {'steps/s':>10} {'ratio':>6} {'e2e s':>7} {'e2e ratio':>9} "
          f"{'us/trace':>8} {'blk-s/s':>7} {'JVM cpu s':>9} {'py RSS MB':>15} {'JVM RSS MB':>15} "
          f"{'JVM heap after GC MB':>20}")  # fmt: skip
    for n, run, total, block_seconds, jvm_cpu, py0, py1, jvm0, jvm1, heap, _ in rows:
        steps_s = run["steps"] / run["compute_seconds"]
        e2e = run["steps"] / total
        print(
            f"{n:>9,} {run['compute_seconds']:>9.1f} {steps_s:>10,.0f} {steps_s / base_steps:>5.2f}x {total:>7.1f} "
            f"{e2e / base_steps:>8.2f}x {1e6 * run['compute_seconds'] / n:>8.0f} "
            f"{block_seconds / run['compute_seconds']:>7.2f} {jvm_cpu:>9.1f} {py0:>7.0f}->{py1:<7.0f} "
            f"{jvm0:>7.0f}->{jvm1:<7.0f} {heap[0]:>9.1f}->{heap[1]:<9.1f}"
        )
    first, last = rows[0], rows[-1]
    cost = (last[1]["compute_seconds"] / last[0]) / (first[1]["compute_seconds"] / first[0])
    print(f"cost per trace at {last[0]:,} / at {first[0]:,}: {cost:.2f} (goal within 20%: 0.80 .. 1.20)")
    print(
        "ratio = campaign steps/s over the plain loop's (goal >= 1.8x on 2 cores); blk-s/s = busy worker "
        "seconds per wall second (cores kept busy); JVM cpu s = CPU the driver JVM used during the campaign"
    )
    # CPU time is what other work on a shared machine does not inflate: on free cores, the campaign
    # does at most cores x (the loop's CPU per trace) / (its own, all processes) times the loop
    per_trace = ", ".join(f"{1e6 * row[10] / row[0]:,.0f} us at {row[0]:,}" for row in rows)
    bound = cores * base_cpu / (last[10] / last[0])
    print(f"CPU per trace: plain loop {1e6 * base_cpu:,.0f} us; campaign (driver, JVM and Python workers) "
          f"{per_trace}; on {cores} free cores the campaign could do at most {bound:.2f}x the loop")  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.1f} at the end ({os.cpu_count()} CPUs): other work inflates wall times")
    if not args.out:
        shutil.rmtree(root, ignore_errors=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
