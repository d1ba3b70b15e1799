"""Protocol 1.4: the ambiguity ``cqs_relief_timing`` in a config's ``readings``, named only to an
implementation that announced 1.4 or later (docs/PROTOCOL.md, Versioning)."""

from __future__ import annotations

import attrs

from cfconform.adapters.protocol import PROTOCOL_VERSION
from cfconform.adapters.wire.client import config_for_peer
from cfconform.reference_model.readings import Readings
from tests.adapters.conftest import small_mq_config


def test_the_suite_speaks_1_4():
    assert "1.4" == PROTOCOL_VERSION


def test_a_config_names_cqs_relief_timing_only_to_a_1_4_peer():
    config = attrs.evolve(small_mq_config(), readings=Readings(cqs_relief_timing="by-scan"))
    named = [("cqs_relief_timing" in config_for_peer(config, peer)["readings"]) for peer in ((1, 3), (1, 4))]
    assert [False, True] == named


def test_a_record_the_model_refuses_reaches_a_1_2_peer_without_readings_it_does_not_know():
    """judge/opening.py sends forbidden configurations as records: a peer announcing an older
    protocol that checks readings strictly must refuse them for their limit, not for a new key."""
    from cfconform.adapters.wire.client import WireAdapter
    from cfconform.reference_model.codec import config_to_record
    from tests.adapters.conftest import fake

    record = config_to_record(attrs.evolve(small_mq_config(), readings=Readings(cqs_relief_timing="by-scan")))
    with WireAdapter(fake("fake_strict_readings"), timeout=5) as adapter:
        adapter.open_record(record)  # (refused, it would raise: the fake opens only what it knows)
