"""CAPACITY-003 after a structure failure: whether the failure ends an IXC585E warning is not
documented, so a warning shown still on after FAIL and RECOVER TYPE(PURGE) stands (eighth reading,
mq seed 2); from there the usual rules judge it, and an IXC586I that never comes is missing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import attrs

from cfconform.adapters.delegating import DelegatingAdapter
from cfconform.adapters.wire.client import WireAdapter
from cfconform.judge.runner import run_trace
from cfconform.reference_model.codec import config_from_record, op_from_record

ROOT = Path(__file__).resolve().parents[2]
EIGHTH = [sys.executable, str(ROOT / "examples" / "eighth-reading" / "impl.py")]
TRACES = Path(__file__).parent / "eighth_reading_traces"
TRACE = TRACES / "capacity-003-warning-kept-through-failure-and-recover-purge.json"


class _NeverEndsTheWarning(DelegatingAdapter):
    """The eighth reading, except that it never says IXC586I and shows APP1's warning on for good."""

    def apply(self, op):  # type: ignore[no-untyped-def]
        return self._without_ixc586i(op, self.inner.apply(op))

    def apply_batch(self, ops):  # type: ignore[no-untyped-def]
        return [self._without_ixc586i(op, out) for op, out in zip(ops, self.inner.apply_batch(ops), strict=True)]

    def _without_ixc586i(self, op, out):  # type: ignore[no-untyped-def]
        self.warned = getattr(self, "warned", False) or "IXC585E APP1" in out.signals
        out = attrs.evolve(out, signals=tuple(s for s in out.signals if not s.startswith("IXC586I")))
        if op.KIND == "inspect" and self.warned and isinstance(out.value, dict):
            out.value["structures"]["APP1"]["full_warning"] = True
        return out


def _verdict(adapter) -> tuple[str, tuple[str, ...]]:  # type: ignore[no-untyped-def]
    record = json.loads(TRACE.read_text(encoding="utf-8"))
    try:
        result = run_trace(adapter, config_from_record(record["config"]), [op_from_record(o) for o in record["ops"]])
    finally:
        adapter.close()
    return result.verdict, result.divergence.rules if result.divergence else ()


def test_capacity_003_a_warning_kept_through_failure_and_recover_stands():
    assert ("pass", ()) == _verdict(WireAdapter(EIGHTH))


def test_capacity_003_a_warning_kept_through_failure_still_needs_its_ixc586i():
    verdict, rules = _verdict(_NeverEndsTheWarning(WireAdapter(EIGHTH)))
    assert "fail" == verdict and "CAPACITY-003" in rules
