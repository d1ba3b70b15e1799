"""Configuration shapes shared by the gate and the campaign generator (properties/shapes.py)."""

from __future__ import annotations

import random

import attrs
from hypothesis import given, settings

from cfconform.properties import shapes
from cfconform.properties.generator import RandomDraw
from cfconform.properties.strategies import cqs_configs, mq_configs
from cfconform.reference_model.config import StructureDef
from cfconform.reference_model.model import Model

SEEDS = range(1500)


def _mq(seed: int):
    return shapes.mq_config(RandomDraw(random.Random(seed)))


def test_seeded_shapes_are_valid_configurations_the_model_opens():
    for seed in range(200):
        Model(_mq(seed))
        Model(shapes.cqs_config(RandomDraw(random.Random(seed))))


@settings(max_examples=50, database=None)
@given(mq_configs(), cqs_configs())
def test_hypothesis_shapes_are_valid_configurations_the_model_opens(mq, cqs):
    assert ("mq", "cqs") == (Model(mq).config.profile, Model(cqs).config.profile)


def test_shapes_reach_each_topology_limit():
    configs = [_mq(seed) for seed in SEEDS]
    most_queues = max(max(sum(q.cfstruct == s.name for q in c.queues) for s in c.structures) for c in configs)
    most_structures = max(len(c.structures) for c in configs)
    most_qmgrs = max(len(c.qmgrs) for c in configs)
    assert (512, 63, 32) == (most_queues, most_structures, most_qmgrs)


def test_shapes_give_twin_structures_at_adjacent_cflevels():
    def twins(a: StructureDef, b: StructureDef) -> bool:
        return attrs.evolve(b, name=a.name, cflevel=a.cflevel, recover=a.recover, offload=a.offload) == a

    pairs = {
        (c.structures[0].cflevel, c.structures[1].cflevel)
        for c in map(_mq, SEEDS)
        if len(c.structures) == 2 and twins(*c.structures)
    }
    assert {(4, 5), (5, 4), (2, 3), (3, 2)} <= pairs
