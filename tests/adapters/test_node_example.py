"""The Node.js example implementation passes check-protocol and behaves like the model on its families."""

from __future__ import annotations

import random
import shutil

import pytest

from cfconform.adapters.protocol import NotSupported
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.adapters.wire.client import WireAdapter
from cfconform.cli.main import main
from cfconform.conformance.gate import run_gate
from cfconform.judge.runner import run_trace
from cfconform.reference_model import Config, QueueDef, StructureDef
from cfconform.reference_model.codec import outcome_to_record
from cfconform.reference_model.operations import Backup, Inspect, Put
from cfconform.reference_model.readings import readings_from_dict
from tests.adapters.conftest import NODE_ADAPTER, small_mq_config
from tests.adapters.test_wire_reference import mixed_mq_ops

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def node_cmd() -> list[str]:
    return [NODE, str(NODE_ADAPTER)]  # type: ignore[list-item]


def observable(outcome) -> dict:
    """What the example reports: everything but the informative rule IDs and, as it speaks protocol 1.0,
    the ``location`` 1.1 added and the optional ``inspect`` keys (``admin``, structures' ``cfname``)."""
    record = {k: v for k, v in outcome_to_record(outcome).items() if k not in ("rules", "location")}
    value = record.get("value")
    if record["kind"] == "inspect" and isinstance(value, dict):
        value = {k: v for k, v in value.items() if k != "admin"}
        value["structures"] = {
            n: {k: v for k, v in s.items() if k != "cfname"} for n, s in value.get("structures", {}).items()
        }
        record["value"] = value
    return record


def test_node_example_passes_check_protocol(capsys):
    assert 0 == main(["check-protocol", "--cmd", f"{NODE} {NODE_ADAPTER}", "--timeout", "10"])
    assert "summary: all" in capsys.readouterr().out


def test_node_example_claims_only_what_it_implements():
    with WireAdapter(node_cmd(), timeout=10) as adapter:
        caps = adapter.capabilities()
        assert (("mq",), {"QUEUE", "QDEPTH", "OFFLOAD", "CFLEVEL"}) == (caps.profiles, set(caps.families))


def events_config(seed: int) -> Config:
    rng = random.Random(seed)
    structures = (
        StructureDef("APP1", size_kb=rng.choice((7000, 8192)), cflevel=rng.choice((3, 4, 5)), recover=True,
                     fullthreshold=rng.choice((0, 50, 80))),
        StructureDef("APP2", size_kb=6400, cflevel=3, ratio=rng.choice((1, 6))),
    )  # fmt: skip
    queues = (
        QueueDef("Q1", cfstruct="APP1", maxdepth=rng.choice((5, 40)), qdphiev=True, qdploev=True, qdpmaxev=True),
        QueueDef("Q2", cfstruct="APP2", maxdepth=30, qdpmaxev=True, maxmsgl=rng.choice((4096, 4 * 1024 * 1024))),
        QueueDef("L1", qmgr="QM01", maxdepth=10, qdphiev=True, qdploev=True),
    )
    return Config(qmgrs=("QM01", "QM02", "QM03"), structures=structures, queues=queues)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_node_example_matches_the_model_on_queue_operations(seed):
    config = events_config(seed)
    ops = mixed_mq_ops(seed, 600)
    with WireAdapter(node_cmd(), timeout=10) as adapter:
        declared = {k: v for k, v in adapter.capabilities().readings.items() if v != "unknown"}
        ref = ReferenceAdapter(readings_from_dict(declared))  # the readings it declares
        ref.open(config)
        adapter.open(config)
        assert [observable(o) for o in ref.apply_batch(ops)] == [observable(o) for o in adapter.apply_batch(ops)]


def test_node_example_answers_unimplemented_operations_with_not_supported():
    with WireAdapter(node_cmd(), timeout=10) as adapter:
        adapter.open(small_mq_config())
        with pytest.raises(NotSupported) as caught:
            adapter.apply(Backup("QM01", "APP1"))
        assert (10, True) == (caught.value.code, caught.value.definite)
        assert "inspect" == adapter.apply(Inspect()).kind


def test_the_gate_finds_the_node_example_conforming_on_what_it_claims():
    """Its refusals (error 10) end test cases without a verdict, and are reported."""
    result = run_gate(lambda: WireAdapter(node_cmd(), timeout=10), hypothesis_profile="dev", seed=3)
    assert (0, True) == (result.exit_code, any("does not support" in w for w in result.warnings))


def test_a_batch_refused_part_way_is_judged_up_to_the_refused_operation():
    ops = [Put("QM01", "Q1", 10, tag=0), Backup("QM01", "APP1"), Put("QM01", "Q1", 10, tag=1)]
    with WireAdapter(node_cmd(), timeout=10) as adapter:
        result = run_trace(adapter, small_mq_config(), ops)
    assert ("unjudged", 1) == (result.verdict, result.steps_checked)
