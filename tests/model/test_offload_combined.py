"""OFFLOAD-012 under the ``combined`` reading, on an implementation's own figures: usage is storage in
use over storage offered with the implementation's own entry and element costs, which no document
gives, but which do not change from put to put.  Each offload decision the figures leave open
bounds the ratio of those costs; a later decision no ratio explains is a departure."""

from __future__ import annotations

import pytest

from cfconform.reference_model import combined
from cfconform.reference_model.config import Config, QueueDef, StructureDef
from cfconform.reference_model.model import Model, Observed
from cfconform.reference_model.operations import Put
from cfconform.reference_model.outcomes import Outcome
from cfconform.reference_model.readings import Readings
from cfconform.reference_model.units import KB

# OFFLD1TH(50) OFFLD1SZ(0K): every message is offloaded once usage is over 50%; rules 2 and 3 off
RULES = {"offld1th": 50, "offld1sz": 0, "offld2th": 80, "offld2sz": 64 * KB, "offld3th": 90, "offld3sz": 64 * KB}
CONFIG = Config(
    profile="mq",
    structures=(StructureDef("APP1", size_kb=8192, cflevel=5, **RULES),),
    queues=(QueueDef("Q1", cfstruct="APP1"),),
    readings=Readings(offload_usage_metric="combined", offload_compare="strict"),
)


def _put(model: Model, before: tuple[int, int, int, int], offloaded: bool) -> bool | None:
    """The model's expected offload decision for a put the implementation decided ``offloaded``,
    its usage before the put being ``before`` (entries used/total, elements used/total)."""
    eu, et, lu, lt = before
    after = (eu + 1, et, lu + 2, lt)
    observed = Outcome("put", True, offloaded=offloaded, usage=after, location="SMDS" if offloaded else "CF")
    return model.step(Put("QM01", "Q1", 1000), hint=Observed(observed, {"APP1": before}, {"APP1": after})).offloaded


def _two_open_decisions() -> Model:
    """Offloaded at entries 20% / elements 80% (cost ratio at most 1), kept at 30% / 60% (at least 0.5)."""
    model = Model(CONFIG)
    assert _put(model, (20, 100, 80, 100), True) is True  # the figures leave it open: the implementation's
    assert _put(model, (30, 100, 60, 100), False) is False  # still open for ratios 0..1: the implementation's
    assert model.structures["APP1"].combined_weights == (0.5, 1.0)
    return model


def test_offload_012_combined_decisions_the_figures_leave_open_are_the_implementation_s():
    _two_open_decisions()


@pytest.mark.parametrize("offloaded", [True, False])
def test_offload_012_combined_a_decision_every_allowed_cost_ratio_decides_is_judged(offloaded: bool):
    # entries 40% / elements 90%: 65% to 73% for ratios 0.5..1, over OFFLD1TH(50) for all of them
    assert _put(_two_open_decisions(), (40, 100, 90, 100), offloaded) is True


@pytest.mark.parametrize("offloaded", [True, False])
def test_offload_012_combined_a_decision_the_allowed_ratios_still_leave_open_is_the_implementation_s(offloaded: bool):
    # entries 10% / elements 75%: 42.5% to 53.3% for ratios 0.5..1
    assert _put(_two_open_decisions(), (10, 100, 75, 100), offloaded) is offloaded


def test_offload_012_combined_without_earlier_decisions_only_the_band_decides():
    # entries 40% / elements 90%: between them, so open (any cost ratio 0..infinity)
    for offloaded in (True, False):
        assert _put(Model(CONFIG), (40, 100, 90, 100), offloaded) is offloaded


def test_combined_narrow_keeps_a_decision_at_exactly_the_threshold():
    s = Model(CONFIG).structures["APP1"]
    assert combined.narrow(s, (20, 100, 80, 100), 50, True)  # usage >= 50: ratio <= 1
    assert combined.narrow(s, (20, 100, 80, 100), 50, False)  # usage <= 50 too: ratio exactly 1
    assert s.combined_weights == (1.0, 1.0)
    assert not combined.narrow(s, (30, 100, 60, 100), 50, True)  # 45% at ratio 1: not explained
    assert s.combined_weights == (1.0, 1.0)  # a decision not explained changes nothing
