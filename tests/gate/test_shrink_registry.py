"""The shrinking subpackage (judge/shrink/): its registry lists one strategy per module in the order
they run, README.md lists the same in the same order, and the variant rounds follow the registry."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from cfconform.judge.shrink import STRATEGIES, registry
from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config, QueueDef, StructureDef

SHRINK = Path(__file__).resolve().parents[2] / "judge" / "shrink"
#: The modules of judge/shrink/ that are not a strategy.
SUPPORT = {"__init__", "driver", "registry", "search", "common", "grid"}
ORDER = [
    "prune", "ddmin", "inspection", "narrow",
    "fold", "retarget", "unsplit", "operations", "depths", "configs", "threshold",
    "retune", "readings", "runs",
]  # fmt: skip


def test_the_registry_lists_the_strategies_in_the_order_they_run():
    assert ORDER == [s.name for s in STRATEGIES]
    assert ["fold", "retarget", "unsplit", "operations", "depths", "configs", "threshold"] == [
        s.name for s in registry.VARIANTS
    ]


def test_each_strategy_is_one_module_and_every_module_is_a_strategy_or_support():
    modules = {p.stem for p in SHRINK.glob("*.py")}
    assert set(ORDER) == modules - SUPPORT
    for strategy in STRATEGIES:
        module = importlib.import_module(f"cfconform.judge.shrink.{strategy.name}")
        assert strategy.run.__module__ == module.__name__
        assert module.__doc__.startswith(f"Strategy ``{strategy.name}``")
        assert strategy.removes and "\n" not in strategy.removes


def test_the_readme_lists_each_strategy_in_order_with_what_it_removes():
    text = (SHRINK / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| `(\w+)` \| (pass|variant) \| (.+) \|$", text, re.MULTILINE)
    expected = [(str(i), s.name, s.kind, s.removes) for i, s in enumerate(STRATEGIES, 1)]
    assert expected == rows


def test_the_variant_rounds_take_each_variants_candidates_in_registry_order():
    config = Config(
        structures=(StructureDef("APP1", size_kb=6400, ratio=6),),
        queues=(QueueDef("Q0", cfstruct="APP1", maxdepth=7), QueueDef("Q1", cfstruct="APP1")),
    )
    ops = [
        o.AlterQueue("Q0", {"qdepthhi": 67}),
        o.Put("QM01", "Q0", 100),
        o.Put("QM02", "Q1", 100),
        o.AdvanceClock(1),
        o.AdvanceClock(2),
    ]
    expected = [c for s in registry.VARIANTS for c in s.run(config, ops)]
    assert expected == registry.variants(config, ops)
    assert {"fold", "retarget", "operations", "depths", "configs"} <= {
        s.name for s in registry.VARIANTS if s.run(config, ops)
    }
