"""The gate against an implementation written independently from the documents (issue 23): by default
the second reading, or any kit given by ``--kit`` (fourth and fifth readings too).

``examples/second-reading/`` is an implementation of its own, written from the five IBM texts and
ibm-facts.md alone, taking the other side of the documented ambiguities, with a storage accounting
of its own, and a fault kit (``faults.json``): each fault breaks one sentence and comes with its
smallest scenario.  This prints:

- the gate's verdict on the faithful build, per seed (any failure is a false verdict);
- whether the oracle alone tells each fault's scenario apart (faithful passes, faulty fails);
- the kill rate under the gate, the time to kill (median and maximum), and the length of the
  gate's reproducer against the scenario's.

Run from the repository root::

    .venv/bin/python benchmarks/independent.py --seeds 10 --hypothesis-profile ci

The time to kill is wall time from the start of the fault's profile run to its first failing case.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.loopback import LoopbackAdapter  # noqa: E402
from cfconform.adapters.protocol import Adapter  # noqa: E402
from cfconform.adapters.wire.client import WireAdapter  # noqa: E402
from cfconform.conformance.gate import run_gate  # noqa: E402
from cfconform.conformance.reuse import reusing  # noqa: E402
from cfconform.judge.opening import config_or_forbidden  # noqa: E402
from cfconform.judge.runner import run_trace  # noqa: E402
from cfconform.properties.run import run_machine  # noqa: E402
from cfconform.reference_model.codec import op_from_record  # noqa: E402
from cfconform.reference_model.config import Config  # noqa: E402
from cfconform.reference_model.errors import ConfigurationError  # noqa: E402
from cfconform.reference_model.operations import Inspect  # noqa: E402

KIT = ROOT / "examples" / "second-reading"


#: ``pipes``: the implementation as a process over its standard streams (``WireAdapter``);
#: ``loopback``: the same JSON exchange in this process (:mod:`benchmarks.loopback`), much faster
#: (only for a Python implementation with ``Server(fault, out)``, as the second reading has).
TRANSPORT = {"value": "loopback"}


def command(fault: str | None) -> list[str]:
    """The kit's implementation as a process: ``impl.py`` under this Python, ``impl.js`` under node."""
    script = KIT / "impl.py"
    argv = [sys.executable, str(script)] if script.exists() else ["node", str(KIT / "impl.js")]
    return [*argv, *(["--fault", fault] if fault else [])]


def factory(fault: str | None) -> Callable[[], Adapter]:
    if TRANSPORT["value"] == "loopback":
        return lambda: LoopbackAdapter(KIT / "impl.py", fault)
    argv = command(fault)
    return lambda: WireAdapter(argv)


def faithful(seeds: list[int], profile: str) -> list[dict[str, Any]]:
    rows = []
    for seed in seeds:
        start = time.perf_counter()
        result = run_gate(factory(None), hypothesis_profile=profile, seed=seed)
        rows.append({
            "seed": seed, "exit": result.exit_code, "cases": result.cases, "steps": result.steps,
            "seconds": round(time.perf_counter() - start, 1),
            "failures": [f"{f.profile}: {'+'.join(f.rules) or f.field} step {f.step}" for f in result.failures],
            "hollow": [w for w in result.warnings if "hollow" in w or "never" in w],
        })  # fmt: skip
        print(f"faithful seed {seed}: exit {rows[-1]['exit']}, {rows[-1]['failures'] or 'no failure'}", flush=True)
    return rows


def scenario_verdicts(fault: dict[str, Any]) -> tuple[str, str]:
    """The oracle alone on the fault's smallest scenario between two ``inspect``s (as a gate case of
    the cqs profile starts, and every case ends): (faithful verdict, faulty verdict); "invalid" for
    a scenario the suite's own configuration checks refuse (a value outside a documented range)."""
    try:
        config = config_or_forbidden(fault["scenario"]["config"])
        ops = [Inspect(), *(op_from_record(r) for r in fault["scenario"]["ops"]), Inspect()]
    except ConfigurationError:
        return "invalid", "invalid"
    if not isinstance(config, Config):  # a configuration a sentence forbids: its open is the case
        ops = []
    out = []
    for which in (None, fault["id"]):
        with reusing(factory(which)) as make:
            out.append(run_trace(make(), config, ops).verdict)
    return out[0], out[1]


def kill(fault: dict[str, Any], seed: int, profile: str, reproduce: bool) -> dict[str, Any]:
    gate_profile = "cqs" if fault["family"] == "CQS" else "mq"
    start = time.perf_counter()
    with reusing(factory(fault["id"])) as make:
        run = run_machine(make, gate_profile, hypothesis_profile=profile, seed=seed, reproduce=reproduce)
    failure = run.failure
    killed = failure is not None and failure.verdict == "fail"
    return {
        "id": fault["id"], "family": fault["family"], "killed": killed,
        "verdict": failure.verdict if failure else "pass",
        "rules": list(failure.divergence.rules) if killed and failure.divergence else [],
        "to_kill": round(run.seconds_to_failure, 2) if killed and run.seconds_to_failure is not None else None,
        "reproducer": len(failure.ops) if killed and reproduce else None,
        "scenario": len(fault["scenario"]["ops"]),
        "seconds": round(time.perf_counter() - start, 1),
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=10, help="faithful-build gate seeds 1..N (0: skip)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the fault runs")
    ap.add_argument("--hypothesis-profile", default="ci", choices=("dev", "ci", "nightly"))
    ap.add_argument("--faults", default="", help="comma-separated fault IDs (default: the whole kit)")
    ap.add_argument("--no-reproducer", action="store_true", help="verdicts and time to kill only")
    ap.add_argument("--out", default="", help="write every row as JSON lines to this file")
    ap.add_argument(
        "--transport",
        default="",
        choices=("", "loopback", "pipes"),
        help="default: loopback for the second reading, pipes for any other kit",
    )
    ap.add_argument(
        "--kit",
        default="examples/second-reading",
        help="an implementation folder with impl.py or impl.js and faults.json",
    )
    args = ap.parse_args(argv)
    global KIT
    KIT = (ROOT / args.kit).resolve()
    TRANSPORT["value"] = args.transport or ("loopback" if KIT.name == "second-reading" else "pipes")
    kit = json.loads((KIT / "faults.json").read_text(encoding="utf-8"))
    if args.faults:
        wanted = set(args.faults.split(","))
        kit = [f for f in kit if f["id"] in wanted]
    rows: list[dict[str, Any]] = []
    if args.seeds:
        rows += [{"kind": "faithful", **r} for r in faithful(list(range(1, args.seeds + 1)), args.hypothesis_profile)]
    for fault in kit:
        good, bad = scenario_verdicts(fault)
        row = {"kind": "fault", **kill(fault, args.seed, args.hypothesis_profile, not args.no_reproducer)}
        row.update(scenario_faithful=good, scenario_faulty=bad)
        rows.append(row)
        print(
            f"{row['id']:<28} {row['family']:<9} killed={row['killed']!s:<5} to_kill={row['to_kill']} "
            f"reproducer={row['reproducer']} scenario={row['scenario']} oracle={good}/{bad} {row['rules']}",
            flush=True,
        )
    _summary(rows)
    if args.out:
        Path(args.out).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return 0


def _summary(rows: list[dict[str, Any]]) -> None:
    seeds = [r for r in rows if r["kind"] == "faithful"]
    faults = [r for r in rows if r["kind"] == "fault"]
    print(f"\n== {KIT.name} (examples/{KIT.name}), cmd:", shlex.join(command(None)))
    if seeds:
        ok = sum(1 for r in seeds if r["exit"] == 0)
        print(f"faithful build: {ok}/{len(seeds)} seeds conform (exit 0); false verdicts: "
              f"{sum(len(r['failures']) for r in seeds)}")  # fmt: skip
    if faults:
        killed = [r for r in faults if r["killed"]]
        times = [r["to_kill"] for r in killed if r["to_kill"] is not None]
        print(f"faults killed: {len(killed)}/{len(faults)} ({100 * len(killed) / len(faults):.1f}%)")
        if times:
            print(f"time to kill: median {statistics.median(times):.2f} s, max {max(times):.2f} s")
        excess = [r["reproducer"] - r["scenario"] for r in killed if r["reproducer"] is not None]
        if excess:
            table = {e: excess.count(e) for e in sorted(set(excess))}
            print(f"reproducer length minus scenario length: {table}")
        oracle = sum(1 for r in faults if r["scenario_faithful"] == "pass" and r["scenario_faulty"] == "fail")
        print(f"oracle alone on the smallest scenarios: {oracle}/{len(faults)} told apart")
        survivors = [r["id"] for r in faults if not r["killed"]]
        if survivors:
            print("survivors:", ", ".join(survivors))


if __name__ == "__main__":
    raise SystemExit(main())
