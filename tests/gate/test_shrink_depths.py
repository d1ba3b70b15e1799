"""A queue at MAXDEPTH 0 with its event switches set as a longer trace left them
(judge/shrink/configs.full_at_once): Queue Full at the first put (QDEPTH-003..006)."""

from __future__ import annotations

from cfconform.adapters.mutants import get_mutant
from cfconform.judge.shrink import minimise
from cfconform.judge.shrink.configs import full_at_once
from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config, QueueDef, StructureDef

QFULL_KEEPS_LO_OFF = "M-QDEPTH-006-b"  # a Queue Full event does not enable QDPLOEV


def _queue(maxdepth: int) -> QueueDef:
    return QueueDef(
        "Q0", cfstruct="APP1", maxdepth=maxdepth, qdepthhi=50, qdepthlo=20, qdphiev=True, qdploev=True, qdpmaxev=True
    )


def test_full_at_once_gives_maxdepth_zero_with_every_other_combination_of_the_switches():
    switches = {(q.maxdepth, q.qdphiev, q.qdploev, q.qdpmaxev) for q in full_at_once(_queue(1))}
    assert (7, {0}) == (len(switches), {m for m, *_ in switches})


def test_full_at_once_at_maxdepth_zero_changes_at_least_two_switches():
    """A single switch changed is among the plain variants already (smaller_configs)."""
    queue = _queue(0)
    changed = [
        sum(getattr(q, k) != getattr(queue, k) for k in ("qdphiev", "qdploev", "qdpmaxev")) for q in full_at_once(queue)
    ]
    assert [2, 2, 2, 3] == sorted(changed)


def test_minimise_reaches_the_documented_put_and_inspect_from_a_put_get_backout_put():
    """As the gate met it on seed 1: the queue's QDPLOEV switched off by a Queue Depth Low
    event (a get under syncpoint) before the put that found the queue full."""
    structure = StructureDef("APP1", size_kb=6146, ratio=4, cflevel=5)
    config = Config(profile="mq", qmgrs=("QM01",), structures=(structure,), queues=(_queue(1),))
    ops = [
        o.Put("QM01", "Q0", 0, tag=1),
        o.Get("QM01", "Q0", syncpoint=True),
        o.Backout("QM01"),
        o.Put("QM01", "Q0", 0, tag=2),
        o.Inspect(),
    ]
    result = minimise(lambda: get_mutant(QFULL_KEEPS_LO_OFF), config, ops)
    shown = (result.verdict, [op["op"] for op in result.ops], result.config["queues"][0]["maxdepth"])
    assert ("fail", ["put", "inspect"], 0) == shown
