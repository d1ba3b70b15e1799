"""While the gate generates, no draw takes a constant from a local module's source (cfconform.properties.seeded).

Hypothesis otherwise draws such constants now and then, so the cases a seed generated
depended on which modules the process had loaded (and on how cfconform was installed).
"""

from __future__ import annotations

import importlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfconform.properties.seeded import seed_alone

#: A range no constant of cfconform's or Hypothesis's own falls in, and the one constant
#: the probe module holds in it: a uniform draw meets it once in a billion.
LOW, HIGH = 3_000_000_000, 4_000_000_000
MARKER = 3_141_592_653


def _draws() -> list[int]:
    seen: list[int] = []

    @settings(max_examples=400, database=None, deadline=None)
    @given(st.integers(LOW, HIGH))
    def draw(x: int) -> None:
        seen.append(x)

    draw()
    return seen


def test_no_draw_takes_a_local_constant_while_the_gate_generates(tmp_path, monkeypatch):
    providers = pytest.importorskip("hypothesis.internal.conjecture.providers")
    if not hasattr(providers, "_get_local_constants"):
        pytest.skip("this Hypothesis draws no constants from local modules")
    (tmp_path / "cf_constant_probe.py").write_text(f"MARKER = {MARKER}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("cf_constant_probe")
    with seed_alone():
        held = _draws()
    free = _draws()  # the control: the probe's constant does reach Hypothesis otherwise
    assert (False, True) == (MARKER in held, MARKER in free)
