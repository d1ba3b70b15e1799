"""Protocol 1.3: the ambiguity ``qstats_at_stop`` in a config's ``readings``, named only to an
implementation that announced 1.3 or later (docs/PROTOCOL.md, Versioning): records are strict, so
an older implementation checking its copy of the schema would refuse the unknown key."""

from __future__ import annotations

import shlex
import subprocess
import sys

import attrs
import pytest

from cfconform.adapters.protocol import PROTOCOL_VERSION
from cfconform.adapters.wire.client import WireAdapter, config_for_peer
from cfconform.reference_model.config import QueueDef
from cfconform.reference_model.operations import Put, StartQmgr, StopQmgr
from cfconform.reference_model.readings import Readings
from tests.adapters.conftest import SERVE_REFERENCE, fake, small_mq_config


def test_a_config_names_qstats_at_stop_only_to_a_1_3_peer():
    config = attrs.evolve(small_mq_config(), readings=Readings(qstats_at_stop="reset"))
    named = [("qstats_at_stop" in config_for_peer(config, peer)["readings"]) for peer in ((1, 2), (1, 3))]
    assert [False, True] == named


def test_a_1_2_implementation_that_checks_readings_strictly_opens():
    with WireAdapter(fake("fake_strict_readings"), timeout=5) as adapter:
        adapter.open(small_mq_config())
        assert adapter.apply(Put("QM01", "Q1", 10)).ok


@pytest.mark.parametrize(("reading", "enq"), [("kept", 2), ("reset", 1)])
def test_the_reference_served_with_a_1_3_reading_follows_it(reading: str, enq: int):
    queue = QueueDef("Q1", cfstruct="APP1", maxdepth=2, qdepthhi=100, qdphiev=True)
    config = attrs.evolve(small_mq_config(), queues=(queue,))
    with WireAdapter([*SERVE_REFERENCE, "--readings", f"qstats_at_stop={reading}"], timeout=10) as adapter:
        assert PROTOCOL_VERSION == adapter.capabilities().protocol_version
        adapter.open(config)
        adapter.apply_batch([Put("QM01", "Q1", 10), StopQmgr("QM01"), StartQmgr("QM01")])
        events = adapter.apply(Put("QM01", "Q1", 10)).events
        assert ("QM01", enq) == (events[0].qmgr, events[0].enq)


@pytest.mark.parametrize("profile", ["mq", "cqs"])
def test_check_protocol_opens_a_1_2_implementation_without_1_3_readings(profile: str):
    """``cfconform check-protocol`` sends its config as the gate does (config_for_peer): a 1.2
    implementation that refuses unknown readings opens (the fake answers nothing else to the letter)."""
    argv = [sys.executable, "-m", "cfconform.cli", "check-protocol", "--profile", profile, "--adapter"]
    done = subprocess.run([*argv, "wire:" + shlex.join(fake("fake_strict_readings"))], capture_output=True, text=True)
    opened = [line for line in done.stdout.splitlines() if line.startswith(("PASS open:", "FAIL open:"))]
    assert [f"PASS open: open_ok for a small {profile} config"] == [line.split(" (")[0] for line in opened], done.stdout
