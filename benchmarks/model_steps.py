"""Model steps per second on a standard mixed operation stream, beside a trivial dict loop.

Prints both figures measured in the same run and their ratio (issue: the model
should cost no more than about 3.5 times the trivial loop).  Both are CPU time, best of
``--repeat`` runs taken in turn, so other work on a shared machine inflates neither.  Run:

    .venv/bin/python benchmarks/model_steps.py [--steps N]
"""

from __future__ import annotations

import argparse
import random
import time

from cfconform.reference_model import Config, Model, QueueDef, StructureDef
from cfconform.reference_model.operations import AdvanceClock, Commit, Get, Put

QMGRS = ("QM01", "QM02", "QM03")


def standard_config() -> Config:
    structure = StructureDef("APP1", size_kb=16384, cflevel=5, recover=True)
    queues = tuple(
        QueueDef(f"Q{i}", cfstruct="APP1", maxdepth=200, qdphiev=True, qdploev=True, qdpmaxev=True) for i in range(4)
    )
    return Config(structures=(structure,), queues=queues)


def standard_stream(steps: int, seed: int = 1) -> list:
    """A seeded mix: 45% puts of boundary-biased sizes, 40% gets, 10% commits, 5% clock."""
    rng = random.Random(seed)
    sizes = (0, 100, 1024, 4096, 4097, 32768, 32769, 60000, 64512, 65280, 65281)
    ops: list = []
    for tag in range(steps):
        r = rng.random()
        qmgr, queue = rng.choice(QMGRS), f"Q{rng.randrange(4)}"
        if r < 0.45:
            ops.append(Put(qmgr, queue, rng.choice(sizes), rng.random() < 0.3, rng.random() < 0.2, tag))
        elif r < 0.85:
            ops.append(Get(qmgr, queue, rng.random() < 0.2))
        elif r < 0.95:
            ops.append(Commit(qmgr))
        else:
            ops.append(AdvanceClock(60))
    return ops


def run_model(ops: list) -> float:
    model = Model(standard_config())
    step = model.step
    start = time.process_time()
    for op in ops:
        step(op)
    return len(ops) / (time.process_time() - start)


def run_trivial(ops: list) -> float:
    """The floor: the least a simulator producing an outcome per step can do.

    It dispatches on the operation type, keeps queues in a dict and returns an
    outcome dict per step, but checks no rule at all.
    """
    queues: dict[str, list] = {}

    def put(op: Put) -> dict:
        queues.setdefault(op.queue, []).append(op.tag)
        return {"kind": "put", "ok": True}

    def get(op: Get) -> dict:
        q = queues.get(op.queue)
        if q:
            return {"kind": "get", "ok": True, "tag": q.pop(0)}
        return {"kind": "get", "ok": False}

    def other(op: object) -> dict:
        return {"kind": "other", "ok": True}

    handlers = {Put: put, Get: get, Commit: other, AdvanceClock: other}
    start = time.process_time()
    for op in ops:
        handlers[type(op)](op)
    return len(ops) / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ops = standard_stream(args.steps)
    runs = [(run_model(ops), run_trivial(ops)) for _ in range(args.repeat)]  # (in turn: load drifts alike)
    model = max(m for m, _ in runs)
    trivial = max(t for _, t in runs)
    print(f"model steps/s:        {model:12,.0f}")
    print(f"trivial loop steps/s: {trivial:12,.0f}")
    print(f"cost ratio (trivial/model): {trivial / model:.2f}x  (goal <= 3.5x, model >= 250,000 steps/s)")


if __name__ == "__main__":
    main()
