"""Minimisation variants for offload rules (judge/shrink/configs.py)."""

from __future__ import annotations

import attrs

from cfconform.adapters.mutants import get_mutant
from cfconform.judge.shrink import configs, minimise
from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config, QueueDef, StructureDef


def _config(structure: StructureDef, qmgrs: tuple[str, ...] = ("QM01",)) -> Config:
    return Config(profile="mq", qmgrs=qmgrs, structures=(structure,), queues=(QueueDef("Q1", cfstruct=structure.name),))


def test_simpler_rules_meet_each_rule_from_empty_or_at_any_length_and_lower_the_thresholds_together():
    s = StructureDef(
        "APP1",
        size_kb=6151,
        cflevel=5,
        offld1th=70,
        offld1sz=4096,
        offld2th=0,
        offld2sz=1024,
        offld3th=30,
        offld3sz=65536,
    )
    tried = [
        {
            n: getattr(v, n)
            for n in ("offld1th", "offld1sz", "offld2th", "offld2sz", "offld3th", "offld3sz")
            if getattr(v, n) != getattr(s, n)
        }
        for v in configs.simpler_rules(s)
    ]
    expected = [
        {"offld1th": 0},
        {"offld1sz": 0},
        {"offld2sz": 0},
        {"offld3th": 0},
        {"offld1th": 5, "offld3th": 5},
        {"offld1th": 10, "offld3th": 10},
        {"offld1th": 20, "offld3th": 20},
        {"offld1th": 30},
        {"offld1th": 40},
        {"offld1th": 50},
        {"offld1th": 60},
    ]
    assert expected == tried


def _at_63_75k(mutant_id: str):
    """The mutant following the 63.75K forced-offload reading, as the gate met it then."""

    def build():
        adapter = get_mutant(mutant_id)
        adapter.readings = attrs.evolve(adapter.readings, forced_offload_boundary="63.75K")
        return adapter

    return build


def test_minimise_meets_the_rule_at_any_length_to_reach_the_documented_two_steps():
    """M-CFLEVEL-006-a (rules applied at CFLEVEL(4)) as the seed-11 gate met it: OFFLD1SZ(32K)
    needed messages at the 63.75 KB boundary, whose forced offload let the gets and puts between
    them decide the reading (5 steps before OFFLDnSZ(0) and one-byte messages were tried)."""
    s = StructureDef("APP1", size_kb=6272, ratio=90, cflevel=4, recover=True, offld1th=0, offld1sz=32768)
    ops = [
        o.Put("QM01", "Q1", 0, persistent=True, tag=4),
        o.Put("QM01", "Q1", 65280, tag=13),
        o.Get("QM01", "Q1"),
        o.Get("QM01", "Q1"),
        o.Put("QM01", "Q1", 65280, persistent=True, syncpoint=True, tag=87),
    ]
    result = minimise(_at_63_75k("M-CFLEVEL-006-a"), _config(s), ops)
    assert ("fail", "offloaded", 2) == (result.verdict, result.divergence.field, len(result.ops))


# The seed-11 trace of M-OFFLOAD-012-c (thresholds lowered together, 7 -> 3 steps) is gone with that mutant,
# retired by issue 23: its mixed usage measures both lie within the documented combined-storage reading.


def test_minimise_reaches_the_documented_two_steps_from_fifteen_32k_puts_at_cflevel4():
    """M-CFLEVEL-006-a as the seed-2 gate met it: fifteen 32 KB puts reach OFFLD2TH(80) on 856 KB
    usable (8 steps left once the replay budget ran out).  OFFLD1TH(0), now tried before the size
    ladder, and a structure from the grid with the run of puts cut, each show it at the second put."""
    s = StructureDef("APP1", size_kb=7000, fullthreshold=100, ratio=6, cflevel=4, recover=True)
    queues = tuple(QueueDef(n, cfstruct="APP1", qdepthhi=21, qdepthlo=51, qdpmaxev=True) for n in ("Q0", "Q1"))
    config = Config(profile="mq", qmgrs=("QM01", "QM02", "QM03"), structures=(s,), queues=queues)
    ops = [o.Put("QM01", "Q0", 32768, tag=7), *(o.Put("QM03", "Q1", 32767, tag=n) for n in range(8, 22))]
    result = minimise(lambda: get_mutant("M-CFLEVEL-006-a"), config, ops)
    assert ("fail", "offloaded", 2) == (result.verdict, result.divergence.field, len(result.ops))
