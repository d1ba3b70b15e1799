"""The ci-profile gate against the reference adapter for many seeds, in-process and over the wire.

Prints, per seed and transport, the exit code and wall time; any non-zero exit
is a false verdict (the reference must pass every seed).  Run:

    .venv/bin/python benchmarks/gate_seeds.py [--seeds 20] [--first 1] [--transport inproc,wire]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

from cfconform.adapters.protocol import Adapter
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.adapters.wire.client import WireAdapter
from cfconform.conformance.gate import run_gate

SERVE = [sys.executable, "-m", "cfconform.cli", "serve-reference"]
TRANSPORTS: dict[str, Callable[[], Adapter]] = {
    "inproc": ReferenceAdapter,
    "wire": lambda: WireAdapter(SERVE, timeout=30.0),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="how many seeds")
    parser.add_argument("--first", type=int, default=1, help="the first seed (to split a run)")
    parser.add_argument("--transport", default="inproc,wire")
    parser.add_argument("--hypothesis-profile", default="ci")
    args = parser.parse_args()
    false_verdicts = 0
    for name in args.transport.split(","):
        times = []
        for seed in range(args.first, args.first + args.seeds):
            start = time.perf_counter()
            result = run_gate(TRANSPORTS[name], hypothesis_profile=args.hypothesis_profile, seed=seed)
            times.append(time.perf_counter() - start)
            false_verdicts += result.exit_code != 0
            print(
                f"{name} seed {seed:2d}: exit {result.exit_code} in {times[-1]:.1f} s "
                f"({result.cases} cases, {result.steps} steps)",
                flush=True,
            )
        print(f"{name}: median {statistics.median(times):.1f} s, max {max(times):.1f} s per gate run")
    print(f"false verdicts against the reference: {false_verdicts}")


if __name__ == "__main__":
    main()
