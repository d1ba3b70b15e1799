"""CQS-003/006 at a refused CQSPUT: "When the usage of a structure reaches the overflow threshold, CQS
attempts to make the structure larger by initiating a structure alter" (seed 000) does not wait for a
put that succeeds.  A refused put finding usage at OVFLWMAX may start the alter, or in overflow mode a
further selection round; the model follows what the implementation shows, requires neither, and
still judges both (reference_model/cqs/put_get.py, ``_at_refusal``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import attrs

from cfconform.adapters.delegating import DelegatingAdapter
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.adapters.wire.client import WireAdapter
from cfconform.judge.runner import run_trace
from cfconform.reference_model import operations as o
from cfconform.reference_model.codec import config_from_record, op_from_record
from cfconform.reference_model.config import Config, QueueDef, StructureDef
from cfconform.reference_model.outcomes import Outcome

ROOT = Path(__file__).resolve().parents[2]
TWELFTH = [sys.executable, str(ROOT / "examples" / "twelfth-reading" / "impl.py")]
RESELECT = ROOT / "tests" / "gate" / "twelfth_reading_traces" / "cqs-refused-put-selects-again.json"


class Rewriting(DelegatingAdapter):
    """``inner``, with the signals of the last operation of the trace replaced."""

    def __init__(self, inner: Any, last: int, signals: tuple[str, ...]) -> None:
        super().__init__(inner)
        self.last, self.signals, self.seen = last, signals, 0

    def apply(self, op: Any) -> Outcome:
        out = self.inner.apply(op)
        self.seen += 1
        return attrs.evolve(out, signals=self.signals) if self.seen == self.last else out

    def apply_batch(self, ops: Any) -> list[Outcome]:
        return [self.apply(op) for op in ops]


def _reselect_verdict(signals: tuple[str, ...] | None) -> str:
    record = json.loads(RESELECT.read_text(encoding="utf-8"))
    ops = [op_from_record(r) for r in record["ops"]]
    adapter: Any = WireAdapter(TWELFTH)
    if signals is not None:
        adapter = Rewriting(adapter, len(ops), signals)
    try:
        return run_trace(adapter, config_from_record(record["config"]), ops).verdict
    finally:
        adapter.close()


def test_a_selection_round_at_a_refused_put_is_followed():
    assert "pass" == _reselect_verdict(None)


def test_a_selection_round_at_a_refused_put_naming_a_queue_holding_nothing_fails():
    assert "fail" == _reselect_verdict(("OVERFLOW_QUEUE PRIM1 Q1",))  # (Q1 holds no data object)


def test_no_selection_round_at_a_refused_put_passes_too():
    assert "pass" == _reselect_verdict(())


def _full_below_threshold(signals: tuple[str, ...]) -> str:
    """A CQSPUT too large for an empty structure (refused for room at 0% usage, OVFLWMAX 70%)."""
    primary = StructureDef("PRIM1", size_kb=6200, ovflwmax=70)
    config = Config(
        profile="cqs", qmgrs=("IMS1", "IMS2"), structures=(primary,), queues=(QueueDef("Q0", cfstruct="PRIM1"),)
    )
    ops = [o.Put("IMS1", "Q0", 50_000_000, False, False, 1)]
    return run_trace(Rewriting(ReferenceAdapter(), 1, signals), config, ops).verdict


def test_an_alter_at_a_refused_put_below_the_threshold_fails():
    assert "fail" == _full_below_threshold(("ALTER PRIM1",))


def test_a_refused_put_below_the_threshold_with_no_alter_passes():
    assert "pass" == _full_below_threshold(())
