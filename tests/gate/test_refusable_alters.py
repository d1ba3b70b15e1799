"""Which ALTER CFSTRUCT refusals a sentence decides (judge/refusals.py ``documented``): a keyword
given a value IBM's texts show valid must be accepted where the model accepts it; any other value is
the implementation's to refuse (principle 1)."""

from __future__ import annotations

import pytest

from cfconform.judge.refusals import documented


@pytest.mark.parametrize("value", ["SMDS", "DB2"])
def test_offload_013_an_offload_of_a_documented_value_is_judged(value):
    assert documented("offload", value)


@pytest.mark.parametrize("value", [None, "DISK", ""])
def test_an_offload_of_no_documented_value_may_be_refused(value):
    assert not documented("offload", value)  # (OFFLOAD(SMDS|DB2); a null one is no MQSC keyword value)


def test_offload_sizes_outside_ibms_own_values_may_be_refused():
    assert documented("offld1sz", 32 * 1024) and not documented("offld1sz", 12345)
