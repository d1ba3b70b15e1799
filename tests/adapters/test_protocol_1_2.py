"""Protocol 1.2: the operation kind ``reset_qstats`` (RESET QSTATS, QDEPTH-017), sent only to an
implementation that announced 1.2 or later; to an older one it is "not supported" without being
sent (docs/PROTOCOL.md, Versioning)."""

from __future__ import annotations

import pytest

from cfconform.adapters.protocol import PROTOCOL_VERSION, NotSupported
from cfconform.adapters.wire.client import WireAdapter
from cfconform.reference_model.operations import Put, ResetQstats
from tests.adapters.conftest import SERVE_REFERENCE, fake, small_mq_config


def test_the_suite_speaks_1_2_or_later():
    assert (1, 2) <= tuple(int(n) for n in PROTOCOL_VERSION.split("."))


def test_reset_qstats_to_a_1_1_implementation_is_not_supported_and_not_sent():
    with WireAdapter(fake("fake_location"), timeout=5) as adapter:  # announces 1.1
        adapter.open(small_mq_config())
        with pytest.raises(NotSupported) as caught:
            adapter.apply(ResetQstats("QM01", "Q1"))
        assert (0, "1.2" in str(caught.value)) == (caught.value.step, True)
        assert "SMDS" == adapter.apply(Put("QM01", "Q1", 10)).location  # the connection is still in step


def test_a_batch_to_a_1_1_implementation_runs_up_to_the_newer_operation():
    with WireAdapter(fake("fake_location"), timeout=5) as adapter:
        adapter.open(small_mq_config())
        with pytest.raises(NotSupported) as caught:
            adapter.apply_batch([Put("QM01", "Q1", 10), Put("QM01", "Q1", 10), ResetQstats("QM01", "Q1")])
        assert (2, 2) == (caught.value.step, len(caught.value.outcomes))  # type: ignore[attr-defined]


def test_reset_qstats_reaches_a_1_2_implementation():
    with WireAdapter(SERVE_REFERENCE, timeout=10) as adapter:
        assert PROTOCOL_VERSION == adapter.capabilities().protocol_version
        adapter.open(small_mq_config())
        assert adapter.apply(ResetQstats("QM01", "Q1")).ok
