"""Triage: regenerate a signature's shortest trace from its seed, minimise it, transcribe it (pure)."""

import json

import pytest

from cfconform.adapters.registry import load_adapter
from cfconform.conformance.reproducer import replay, validate_transcript
from cfconform.spark_fuzz.blocks import Block, CampaignSpec
from cfconform.spark_fuzz.shard import run_block
from cfconform.spark_fuzz.triage import Example, order_signatures, regenerate, replay_command, triage_example

MUTANT = "mutant:M-CFLEVEL-002-b"


def _example(spec: CampaignSpec) -> Example:
    rows = [r for r in run_block(Block(0, 0, 80), spec) if r["kind"] == "divergence"]
    best = min(rows, key=lambda r: (r["trace_length"], r["trace"]))
    return Example.from_record(best | {"count": len(rows)})


def test_regenerate_rebuilds_the_failing_prefix():
    spec = CampaignSpec(MUTANT, 80, 12, seed=2, profiles="mq")
    example = _example(spec)
    config, ops = regenerate(spec, example)
    assert example.trace_length == len(ops)
    assert "mq" == config.profile


def test_regenerate_refuses_a_seed_of_another_campaign():
    spec = CampaignSpec(MUTANT, 80, 12, seed=2, profiles="mq")
    example = Example("s", 1, "divergence", (), "f", "put", trace=3, seed=3, profile="mq", step=0, trace_length=1)
    with pytest.raises(ValueError, match="not seed 3"):
        regenerate(spec, example)


def test_triage_minimises_and_writes_a_transcript_that_replays():
    spec = CampaignSpec(MUTANT, 80, 12, seed=2, profiles="mq")
    example = _example(spec)
    record = triage_example(spec, example, lambda: load_adapter(MUTANT))
    assert (True, example.signature) == (record["reproduced"], record["minimised_signature"])
    assert record["minimised_length"] <= record["original_length"]
    transcript = validate_transcript(json.loads(json.dumps(record["transcript"])))
    assert (MUTANT, "mq", "divergence") == (transcript["adapter"], transcript["profile"],
                                            transcript["expected"]["kind"])  # fmt: skip
    assert record["stem"].startswith(example.rules[0])
    mutant = load_adapter(MUTANT)
    assert example.signature == replay(transcript, mutant).divergence.signature()
    assert "pass" == replay(transcript, load_adapter("reference")).verdict


def test_a_failure_that_does_not_reproduce_gets_no_transcript():
    spec = CampaignSpec(MUTANT, 80, 12, seed=2, profiles="mq")
    example = _example(spec)
    record = triage_example(spec, example, lambda: load_adapter("reference"))
    assert (False, None, None) == (record["reproduced"], record["transcript"], record["minimised_length"])


def test_signatures_are_ordered_by_count_then_name():
    def ex(sig, n):
        return Example(sig, n, "divergence", (), "f", "put", 0, 0, "mq", 0, 1)

    assert ["b", "a", "c"] == [e.signature for e in order_signatures([ex("a", 2), ex("c", 2), ex("b", 5)])]


def test_replay_command_uses_adapter_cmd_for_wire_specs():
    assert "cfconform replay r.json --adapter mutant:M-X" == replay_command("r.json", "mutant:M-X")
    assert "cfconform replay 'a b.json' --adapter-cmd 'node x.js'" == replay_command("a b.json", "wire:node x.js")
