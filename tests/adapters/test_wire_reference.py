"""The reference model through the wire protocol behaves exactly as in-process."""

from __future__ import annotations

import random
import shlex

import pytest

from cfconform.adapters.reference import ReferenceAdapter
from cfconform.adapters.wire.client import WireAdapter, WireError
from cfconform.reference_model import Config, QueueDef, StructureDef
from cfconform.reference_model.operations import (
    AdvanceClock,
    AlterOutcome,
    Backout,
    Commit,
    Get,
    Inspect,
    Put,
    SetPerfmev,
    StartQmgr,
    StopQmgr,
)  # fmt: skip
from cfconform.reference_model.readings import Readings
from tests.adapters.conftest import SERVE_REFERENCE, small_mq_config


def mixed_mq_ops(seed: int, n: int) -> list:
    """Seeded put/get/commit/backout/inspect (and a few qmgr and clock ops) on small_mq_config()."""
    rng = random.Random(seed)
    sizes = (0, 100, 4096, 32769, 60000, 65280, 65281, 70000)
    ops: list = []
    for tag in range(n):
        r = rng.random()
        queue = rng.choice(("Q1", "Q1", "Q2", "L1"))
        qmgr = "QM01" if queue == "L1" else rng.choice(("QM01", "QM02", "QM03"))
        if r < 0.42:
            ops.append(Put(qmgr, queue, rng.choice(sizes), rng.random() < 0.3, rng.random() < 0.3, tag))
        elif r < 0.75:
            ops.append(Get(qmgr, queue, rng.random() < 0.3))
        elif r < 0.84:
            ops.append(Commit(qmgr))
        elif r < 0.91:
            ops.append(Backout(qmgr))
        elif r < 0.95:
            ops.append(Inspect())
        elif r < 0.97:
            ops.append(SetPerfmev(qmgr, rng.random() < 0.5))
        elif r < 0.98:
            ops.append(StopQmgr(qmgr))
        elif r < 0.99:
            ops.append(StartQmgr(qmgr))
        else:
            ops.append(AdvanceClock(60))
    return ops


def reference_outcomes(config: Config, ops: list, readings: Readings | None = None) -> list:
    ref = ReferenceAdapter(readings)
    ref.open(config)
    return ref.apply_batch(ops)


@pytest.fixture(scope="module")
def served():
    adapter = WireAdapter(SERVE_REFERENCE, timeout=10, validate="all")
    yield adapter
    adapter.close()


def test_capabilities_through_the_wire_equal_in_process(served):
    assert ReferenceAdapter().capabilities() == served.capabilities()


@pytest.mark.parametrize("seed", [1, 2])
def test_single_applies_through_the_wire_equal_in_process(served, seed):
    config = small_mq_config()
    ops = mixed_mq_ops(seed, 300)
    served.open(config)
    assert reference_outcomes(config, ops) == [served.apply(op) for op in ops]


@pytest.mark.parametrize("seed", [3, 4])
def test_batches_through_the_wire_equal_in_process(served, seed):
    config = small_mq_config()
    ops = mixed_mq_ops(seed, 400)
    served.open(config)
    served.batch_size = 64  # several chunks
    try:
        assert reference_outcomes(config, ops) == served.apply_batch(ops)
    finally:
        served.batch_size = 1000


def test_open_resets_the_state(served):
    config = small_mq_config()
    served.open(config)
    served.apply(Put("QM01", "Q1", 10, tag=7))
    served.open(config)
    assert reference_outcomes(config, [Get("QM01", "Q1")]) == [served.apply(Get("QM01", "Q1"))]


def test_cqs_profile_through_the_wire_equals_in_process(served):
    config = Config(profile="cqs", qmgrs=("QM01", "QM02"),
                    structures=(StructureDef("PRIM", size_kb=6400, ratio=1, ovflwmax=50, ovflwstr="OVFL"),),
                    queues=(QueueDef("Q1", cfstruct="PRIM"), QueueDef("Q2", cfstruct="PRIM")))  # fmt: skip
    rng = random.Random(9)
    ops: list = []
    for tag in range(300):
        r = rng.random()
        queue = rng.choice(("Q1", "Q2"))
        if r < 0.5:
            ops.append(Put(rng.choice(("QM01", "QM02")), queue, rng.choice((0, 200, 3000, 9000)), tag=tag))
        elif r < 0.8:
            ops.append(Get("QM01", queue))
        elif r < 0.9:
            ops.append(AlterOutcome("PRIM", rng.random() < 0.5))
        elif r < 0.95:
            ops.append(AdvanceClock(300))
        else:
            ops.append(Inspect())
    served.open(config)
    assert reference_outcomes(config, ops) == served.apply_batch(ops)


def test_small_line_limit_makes_the_server_reply_with_prefixes():
    config = small_mq_config()
    ops = mixed_mq_ops(5, 300)
    with WireAdapter(SERVE_REFERENCE, timeout=10, max_line_bytes=8192) as adapter:
        adapter.open(config)
        assert reference_outcomes(config, ops) == adapter.apply_batch(ops)


def test_readings_option_is_served():
    cmd = [*SERVE_REFERENCE, "--readings", "qdepth_percent=floor", "offload_compare=inclusive"]
    config = small_mq_config()
    ops = mixed_mq_ops(6, 200)
    readings = Readings(qdepth_percent="floor", offload_compare="inclusive")
    with WireAdapter(cmd, timeout=10) as adapter:
        assert "floor" == adapter.capabilities().readings["qdepth_percent"]
        adapter.open(config)
        assert reference_outcomes(config, ops, readings) == adapter.apply_batch(ops)


def test_unknown_queue_is_a_definite_invalid_operation_error_and_the_process_survives(served):
    served.open(small_mq_config())
    with pytest.raises(WireError) as caught:
        served.apply(Put("QM01", "NOPE", 10))
    err = caught.value
    assert (14, "invalid-operation", True, "apply") == (err.code, err.error_name, err.definite, err.phase)
    assert "queue" == err.detail["field"]
    assert served.apply(Put("QM01", "Q1", 10)).ok


def test_batch_error_keeps_the_outcomes_before_the_failing_op(served):
    config = small_mq_config()
    ops = [Put("QM01", "Q1", 10, tag=1), Put("QM01", "Q1", 20, tag=2), Get("QM02", "Q1"),
           Get("QM09", "Q1"), Get("QM02", "Q1")]  # fmt: skip
    served.open(config)
    with pytest.raises(WireError) as caught:
        served.apply_batch(ops)
    err = caught.value
    assert (3, 14, True) == (err.step, err.code, err.definite)
    assert reference_outcomes(config, ops[:3]) == err.outcomes
    assert 2 == served.apply(Get("QM02", "Q1")).tag  # the op after the failing one was not applied


def test_close_ends_the_process_with_code_0_and_is_idempotent():
    adapter = WireAdapter(SERVE_REFERENCE, timeout=10)
    adapter.open(small_mq_config())
    process = adapter.process
    adapter.close()
    adapter.close()
    assert 0 == process.poll()


def test_open_after_close_starts_a_new_process():
    adapter = WireAdapter(SERVE_REFERENCE, timeout=10)
    try:
        adapter.open(small_mq_config())
        first = adapter.process
        adapter.close()
        adapter.open(small_mq_config())
        assert first is not adapter.process
        assert adapter.apply(Put("QM01", "Q1", 10)).ok
    finally:
        adapter.close()


def test_a_command_string_is_split_without_a_shell():
    adapter = WireAdapter(" ".join(SERVE_REFERENCE) + " --name 'my reference'", timeout=10)
    try:
        assert "my reference" == adapter.capabilities().name
    finally:
        adapter.close()


def test_op_over_the_implementations_line_limit_is_refused_unsent_and_the_connection_stays_in_step():
    from cfconform.reference_model.operations import AlterQueue

    config = small_mq_config()
    huge = AlterQueue("Q1", {"x" * 5000: 1})
    ops = [Put("QM01", "Q1", 10, tag=n) for n in range(10)] + [huge, Get("QM01", "Q1")]
    with WireAdapter([*SERVE_REFERENCE, "--max-line-bytes", "4096"], timeout=10, batch_size=5) as adapter:
        adapter.open(config)
        with pytest.raises(WireError) as caught:
            adapter.apply_batch(ops)
        err = caught.value
        assert ("too-large", True, 10) == (err.fault, err.definite, err.step)
        assert reference_outcomes(config, ops[:10]) == err.outcomes
        assert 0 == adapter.apply(Get("QM01", "Q1")).tag
        with pytest.raises(WireError, match="not sent"):
            adapter.apply(huge)


@pytest.mark.parametrize("profile", ["mq", "cqs"])
def test_check_protocol_passes_on_serve_reference(capsys, profile):
    from cfconform.cli.main import main

    assert 0 == main(["check-protocol", "--cmd", shlex.join(SERVE_REFERENCE), "--timeout", "10", "--profile", profile])
    lines = capsys.readouterr().out.splitlines()
    assert [] == [line for line in lines if line.startswith("FAIL")]
    assert 13 == sum(line.startswith("PASS") for line in lines)


def test_wire_package_exports_lazily():
    import cfconform.adapters.wire

    assert WireAdapter is cfconform.adapters.wire.WireAdapter
    assert "1.4" == cfconform.adapters.wire.PROTOCOL_VERSION
