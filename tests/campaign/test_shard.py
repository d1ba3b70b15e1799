"""The pure task body: one seed block through one adapter (no Spark)."""

import gc
from collections.abc import Sequence
from typing import Any

import pytest

from cfconform.adapters.protocol import Capabilities
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.judge.runner import run_trace
from cfconform.properties.generator import generate
from cfconform.reference_model.config import Config
from cfconform.spark_fuzz.blocks import Block, CampaignSpec, trace_profile, trace_seed
from cfconform.spark_fuzz.shard import (
    PART_COLUMNS,
    AdapterSlot,
    as_dict,
    as_row,
    long_lived_frozen,
    part_ddl,
    run_block,
    run_partition,
)

MUTANT = "mutant:M-CFLEVEL-002-b"
LOADS: list[str] = []


class Counting(ReferenceAdapter):
    """The reference model, counting how often it is built (spec ``tests.campaign.test_shard:Counting``)."""

    def __init__(self) -> None:
        super().__init__()
        LOADS.append("load")


class CrashesOnEveryThirdOpen(ReferenceAdapter):
    opens = 0

    def open(self, config: Config) -> None:
        type(self).opens += 1
        if type(self).opens % 3 == 0:
            raise RuntimeError("boom")
        super().open(config)


class BrokenAfterFault(ReferenceAdapter):
    """Once it has failed it stays broken: a campaign must replace it, not reuse it."""

    def __init__(self) -> None:
        super().__init__()
        self.broken = False

    def apply_batch(self, ops: Sequence[Any]) -> list:
        if self.broken or any(getattr(op, "KIND", "") == "inspect" for op in ops):
            self.broken = True
            raise RuntimeError("dead")
        return super().apply_batch(ops)

    def capabilities(self) -> Capabilities:
        return Capabilities(name="broken-after-fault")


def _without_seconds(rows):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def test_run_block_is_a_function_of_block_and_spec():
    spec = CampaignSpec(MUTANT, 100, 10, profiles="mq")
    block = Block(3, 40, 30)
    assert _without_seconds(run_block(block, spec)) == _without_seconds(run_block(block, spec))


def test_a_block_sets_what_outlives_it_aside_from_the_collector_only_while_it_runs():
    seen: list[int] = []

    class Watching(ReferenceAdapter):
        def open(self, config: Config) -> None:
            seen.append(gc.get_freeze_count())
            super().open(config)

    spec = CampaignSpec("reference", 3, 5)
    run_block(Block(0, 0, 3), spec, AdapterSlot(Watching))
    assert len(seen) == 3 and all(n > 0 for n in seen)
    assert gc.get_freeze_count() == 0
    gc.freeze()  # (code that froze objects itself keeps them frozen)
    try:
        with long_lived_frozen():
            pass
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_run_block_agrees_with_a_plain_loop_over_generate_and_run_trace():
    spec = CampaignSpec(MUTANT, 100, 10, seed=5, profiles="mq")
    rows = run_block(Block(0, 0, 60), spec)
    adapter = spec_adapter(spec)
    expected = []
    for i in range(60):
        config, ops = generate(trace_seed(5, i), trace_profile(spec.profiles, i), 10)
        result = run_trace(adapter, config, ops)
        if result.divergence is not None:
            expected.append((trace_seed(5, i), result.divergence.step, result.divergence.signature()))
    found = [(r["seed"], r["step"], r["signature"]) for r in rows if r["kind"] == "divergence"]
    assert expected == found
    assert expected, "the mutant should diverge somewhere in 60 traces"
    stats = rows[-1]
    assert ("block", 60, len(expected)) == (stats["kind"], stats["traces"], stats["divergences"])


def spec_adapter(spec):
    from cfconform.adapters.registry import load_adapter

    return load_adapter(spec.adapter)


def test_divergence_rows_carry_json_values_and_the_failing_prefix_length():
    rows = run_block(Block(0, 0, 60), CampaignSpec(MUTANT, 60, 10, profiles="mq"))
    div = next(r for r in rows if r["kind"] == "divergence")
    assert div["trace_length"] == div["step"] + 1
    assert div["signature"].split("|")[2] == div["op"]
    assert isinstance(div["expected"], str) and isinstance(div["observed"], str)
    assert div["rules"] and div["signature"].startswith(div["rules"][0])


def test_coverage_rows_sum_the_rules_decided():
    spec = CampaignSpec("reference", 20, 10)
    rows = run_block(Block(0, 0, 20), spec)
    coverage = {r["rule"]: r["count"] for r in rows if r["kind"] == "coverage"}
    adapter = ReferenceAdapter()
    expected: dict[str, int] = {}
    for i in range(20):
        config, ops = generate(trace_seed(0, i), trace_profile(spec.profiles, i), 10)
        for rule, n in run_trace(adapter, config, ops).rules_exercised.items():
            expected[rule] = expected.get(rule, 0) + n
    assert expected == coverage


def test_faults_become_rows_and_the_adapter_is_replaced():
    CrashesOnEveryThirdOpen.opens = 0
    slot = AdapterSlot(CrashesOnEveryThirdOpen)
    rows = run_block(Block(0, 0, 9), CampaignSpec("reference", 9, 5), slot)
    faults = [r for r in rows if r["kind"] == "fault"]
    assert [2, 5, 8] == [r["trace"] for r in faults]
    assert {"fault|adapter|open"} == {r["signature"] for r in faults}
    assert (3, None, "error") == (rows[-1]["faults"], faults[0]["step"], faults[0]["verdict"])


def test_a_broken_adapter_is_not_reused_after_a_fault():
    slot = AdapterSlot(BrokenAfterFault)
    rows = run_block(Block(0, 0, 40), CampaignSpec("reference", 40, 20, profiles="mq"), slot)
    faults = [r for r in rows if r["kind"] == "fault"]
    with_inspect = []
    for i in range(40):
        _, ops = generate(trace_seed(0, i), "mq", 20)
        if any(op.KIND == "inspect" for op in ops):
            with_inspect.append(i)
    assert with_inspect == [r["trace"] for r in faults]


def test_full_traces_add_one_trace_row_per_trace():
    rows = run_block(Block(0, 0, 5), CampaignSpec("reference", 5, 4, full_traces=True))
    traces = [r for r in rows if r["kind"] == "trace"]
    assert [0, 1, 2, 3, 4] == [r["trace"] for r in traces]
    assert all('"verdict":"pass"' in r["trace_json"] for r in traces)


def test_rows_round_trip_through_the_part_schema():
    row = {"kind": "coverage", "block": 3, "rule": "QUEUE-001", "count": 7}
    assert row == as_dict(as_row(row))
    assert len(PART_COLUMNS) == len(as_row(row))
    assert "block" == PART_COLUMNS[-1]
    assert "`rules` ARRAY<STRING>" in part_ddl()


def test_run_partition_builds_one_adapter_for_all_its_blocks():
    LOADS.clear()
    spec = CampaignSpec("tests.campaign.test_shard:Counting", 30, 5)
    seen = []
    rows = list(run_partition([(0, 0, 10), (1, 10, 10), Block(2, 20, 10)], spec, seen.append))
    assert 1 == len(LOADS)
    assert [0, 1, 2] == [s["block"] for s in seen]
    assert all(isinstance(r, tuple) and len(r) == len(PART_COLUMNS) for r in rows)


@pytest.mark.parametrize(("seed", "index"), [(0, 18865), (0, 19568), (0, 21005), (0, 21476), (1, 38062)])
def test_the_reference_passes_campaign_traces_that_once_diverged(seed: int, index: int):
    """Traces of campaigns (20 steps) that drew false verdicts on the reference: a CQS put to an
    overflowed queue judged by the primary's costs, SETXCF ALTER of a failed structure's IXC585E, and
    that IXC585E not remembered, so RECOVER of the structure was expected to issue it again."""
    config, ops = generate(trace_seed(seed, index), trace_profile(("mq", "cqs"), index), 20)
    assert run_trace(ReferenceAdapter(), config, ops).verdict in ("pass", "unjudged")
