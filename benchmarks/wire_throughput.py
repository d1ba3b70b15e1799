"""Steps per second of the reference model through the wire protocol, beside in-process, in one run.

The wire figure is ``WireAdapter(serve-reference).apply_batch`` (batches of
1000 operations, two processes); the in-process figure is
``ReferenceAdapter.apply_batch`` on the same standard mixed stream
(benchmarks/model_steps.py).  Both keep every outcome, as the checker does.
Goal: >= 50,000 steps/s through the wire and >= 20% of in-process.  Run:

    .venv/bin/python benchmarks/wire_throughput.py [--steps N] [--repeat R] [--batch B]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from model_steps import standard_config, standard_stream

from cfconform.adapters.reference import ReferenceAdapter
from cfconform.adapters.wire.client import WireAdapter

SERVE_REFERENCE = [sys.executable, "-m", "cfconform.cli", "serve-reference"]


def run_in_process(ops: list) -> tuple[float, list]:
    adapter = ReferenceAdapter()
    adapter.open(standard_config())
    start = time.perf_counter()
    outcomes = adapter.apply_batch(ops)
    return len(ops) / (time.perf_counter() - start), outcomes


def run_wire(adapter: WireAdapter, ops: list) -> tuple[float, list]:
    adapter.open(standard_config())
    start = time.perf_counter()
    outcomes = adapter.apply_batch(ops)
    return len(ops) / (time.perf_counter() - start), outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--batch", type=int, default=1000, help="operations per batch request")
    args = parser.parse_args()
    ops = standard_stream(args.steps)
    in_process, expected = 0.0, []
    wire, got = 0.0, []
    with WireAdapter(SERVE_REFERENCE, batch_size=args.batch, timeout=60) as adapter:
        for _ in range(args.repeat):  # interleaved, so both see the same machine load
            rate, expected = run_in_process(ops)
            in_process = max(in_process, rate)
            rate, got = run_wire(adapter, ops)
            wire = max(wire, rate)
    same = "identical" if got == expected else "DIFFERENT (bug!)"
    print(f"in-process steps/s:          {in_process:12,.0f}")
    print(f"wire (batch {args.batch}) steps/s: {wire:12,.0f}   outcomes {same}")
    print(f"wire / in-process:           {wire / in_process:12.1%}  (goal >= 20% and >= 50,000 steps/s)")


if __name__ == "__main__":
    main()
