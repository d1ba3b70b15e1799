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
