"""Campaign cost per trace as the campaign grows (10^4, 10^5, 10^6 traces by default), and what it leaves behind.

For each size, one campaign in one session (``--master``, default ``local[2]``, or
``--remote sc://HOST:PORT``), with the defaults of ``cfconform fuzz`` (block size, blocks per
job), prints:

- wall seconds of the compute phase (the Spark jobs that run the blocks) and end to end
  (with consolidation; triage is off: the reference finds nothing to triage);
- cost per trace: compute seconds x cores / traces (core-microseconds per trace; flat
  when the campaign scales), the worker's own time per trace (the blocks' ``seconds``
  summed), and, for a local session, the CPU this process and its children (the driver JVM,
  the Python workers) used per trace over the whole campaign, which other processes on the
  machine do not inflate;
- blocks, Spark jobs (waves), files and bytes under ``parts/`` and in the consolidated
  tables (what a larger campaign multiplies);
- the driver's memory: this process's peak RSS and, for a local session, the driver JVM's
  RSS (children of this process); nothing per trace is collected, so neither may grow with
  the traces;
- the load average before and after (other processes on the machine inflate wall times).

Run::

    .venv/bin/python benchmarks/campaign_scaling.py [--traces 10000,100000,1000000] [--steps 20]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path

from cfconform.spark_fuzz.blocks import CampaignSpec, default_block_size, plan_blocks


def rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def java_children() -> list[int]:
    """PIDs of the JVMs started by this process (a local session's driver), from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            comm = (entry / "comm").read_text().strip()
        except OSError:
            continue
        if int(stat[1]) == os.getpid() and comm == "java":
            found.append(int(entry.name))
    return found


def tree_cpu_seconds(root: int) -> float:
    """CPU seconds (user + system, reaped children included) of ``root`` and all its descendants so far:
    the campaign's own CPU, whatever else runs on the machine."""
    stats: dict[int, list[str]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stats[int(entry.name)] = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
    children: dict[int, list[int]] = {}
    for pid, stat in stats.items():
        children.setdefault(int(stat[1]), []).append(pid)
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            total += sum(int(v) for v in stats[pid][11:15])
        todo += children.get(pid, [])
    return total / os.sysconf("SC_CLK_TCK")


def tree(path: Path) -> tuple[int, int]:
    """Files (Parquet parts, not Spark's markers or checksums) and their bytes under ``path``."""
    files = [p for p in path.rglob("*") if p.is_file() and not p.name.startswith((".", "_"))]
    return len(files), sum(p.stat().st_size for p in files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", default="10000,100000,1000000", help="campaign sizes, comma-separated")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--adapter", default="reference")
    parser.add_argument("--profile", default="both", choices=("mq", "cqs", "both"), help="(a mutant: its profile)")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--remote", help="a Spark Connect server (sc://HOST:PORT) instead of --master")
    parser.add_argument("--out", help="campaign directory root (default: a temporary directory, removed)")
    args = parser.parse_args()
    sizes = [int(n.replace("_", "")) for n in args.traces.split(",")]

    from cfconform.spark_fuzz.blocks import wave_size
    from cfconform.spark_fuzz.job import run_campaign
    from cfconform.spark_fuzz.session import build_session, master_of, parallelism

    root = Path(args.out or tempfile.mkdtemp(prefix="cfconform-scaling-"))
    spark = build_session(args.master, "cfconform-scaling", remote=args.remote, ui=False)
    cores = parallelism(spark)
    warm = CampaignSpec(args.adapter, 2000, args.steps, seed=99, profiles=args.profile, block_size=500)
    run_campaign(spark, warm, str(root / "warmup"), progress_seconds=0, emit=lambda line: None, triage_failures=False)
    jvms = java_children()
    print(f"master {master_of(spark)}; {cores} cores; {os.cpu_count()} CPUs here; steps {args.steps}; "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    #: (heading, width, format) of each printed column
    columns = [("traces", 9, ","), ("blocks", 6, ""), ("jobs", 5, ""), ("compute s", 9, ".1f"), ("e2e s", 7, ".1f"),
               ("core-us/trace", 13, ".0f"), ("worker us/trace", 15, ".0f"), ("CPU us/trace", 12, ".0f"),
               ("parts files", 11, ""), ("parts MB", 8, ".1f"), ("table files", 11, ""), ("py RSS MB", 9, ".0f"),
               ("JVM RSS MB", 10, ".0f"), ("load", 5, ".1f")]  # fmt: skip
    print(" ".join(f"{name:>{width}}" for name, width, _ in columns), flush=True)
    rows = []
    for n in sizes:
        spec = CampaignSpec(args.adapter, n, args.steps, seed=1, profiles=args.profile,
                            block_size=default_block_size(n))  # fmt: skip
        blocks = len(plan_blocks(n, spec.block_size))
        jobs = -(-blocks // wave_size(cores, blocks))
        cpu0 = tree_cpu_seconds(os.getpid())
        start = time.perf_counter()
        summary = run_campaign(spark, spec, str(root / f"c{n}"), progress_seconds=60, triage_failures=False)
        total = time.perf_counter() - start
        cpu = tree_cpu_seconds(os.getpid()) - cpu0
        run = summary["run"]
        parts = tree(root / f"c{n}" / "parts")
        tables = sum(tree(root / f"c{n}" / t)[0] for t in ("divergences", "coverage", "blocks", "meta"))
        failures = tree(root / f"c{n}" / "divergences")
        peak_py = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        jvm = sum(rss_mb(pid) for pid in jvms)
        per_trace = [1e6 * run["compute_seconds"] * cores / n, 1e6 * summary["totals"]["block_seconds"] / n,
                     1e6 * cpu / n]  # fmt: skip
        rows.append((n, blocks, jobs, run["compute_seconds"], total, *per_trace, parts[0], parts[1] / 2**20, tables,
                     peak_py, jvm, os.getloadavg()[0]))  # fmt: skip
        print(" ".join(f"{v:>{width}{fmt}}" for (_, width, fmt), v in zip(columns, rows[-1], strict=True)), flush=True)
        tot = summary["totals"]
        print(f"{'':>9} {tot['divergences']:,} divergences, {tot['faults']:,} faults, "
              f"{len(summary['signatures'])} signatures; divergences/ {failures[0]} files, "
              f"{failures[1] / 2**20:.2f} MB", flush=True)  # fmt: skip
    spark.stop()
    first, last = rows[0], rows[-1]
    print(f"cost per trace at {last[0]:,} / at {first[0]:,}: {last[5] / first[5]:.2f} (flat: 0.80 .. 1.20); "
          f"worker time per trace: {last[6] / first[6]:.2f}; CPU per trace: {last[7] / first[7]:.2f}")  # fmt: skip
    if not args.out:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
