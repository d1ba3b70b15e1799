"""Gate figures: wall time of the ci-profile gate against the reference, and time to kill each mutant.

Prints the reference gate's wall time (both profiles), the mutation score, the
median and maximum time to kill, and how much longer shrunk reproducers are
than each mutant's documented smallest scenario.  Run:

    .venv/bin/python benchmarks/gate.py [--seed 1] [--only 'M-QDEPTH-*']
"""

from __future__ import annotations

import argparse
import fnmatch
import time

from cfconform.adapters.mutants import MUTANTS
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.conformance.gate import run_gate
from cfconform.conformance.mutation import kill_all, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="*")
    parser.add_argument("--skip-reference", action="store_true")
    args = parser.parse_args()
    if not args.skip_reference:
        start = time.perf_counter()
        result = run_gate(ReferenceAdapter, hypothesis_profile="ci", seed=args.seed)
        wall = time.perf_counter() - start
        print(
            f"reference gate (ci, both profiles): {wall:.1f} s wall, {result.cases} cases, {result.steps} steps, "
            f"exit {result.exit_code}"
        )
    chosen = [m for m in MUTANTS if fnmatch.fnmatchcase(m.id, args.only)]
    start = time.perf_counter()
    totals = summary(kill_all(chosen, hypothesis_profile="ci", seeds=[args.seed]))
    print(
        f"mutants: {totals['killed']}/{totals['mutants']} killed (score {totals['score']:.2%}) in "
        f"{time.perf_counter() - start:.0f} s"
    )
    print(f"time to kill: median {totals['median_seconds']} s, max {totals['max_seconds']} s")
    print(
        f"time to the minimised reproducer: median {totals['median_total_seconds']} s, "
        f"max {totals['max_total_seconds']} s"
    )
    print(f"reproducer length minus documented scenario length: at most {totals['max_excess_steps']} steps")
    print(f"failures naming the mutated rule: {totals['rule_named']}/{totals['killed']}")
    if totals["survivors"]:
        print("survivors:", ", ".join(totals["survivors"]))


if __name__ == "__main__":
    main()
