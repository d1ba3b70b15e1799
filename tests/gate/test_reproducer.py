"""conformance/reproducer.py: the transcript format, its validation, replay and the generated pytest module."""

from __future__ import annotations

import json

import attrs
import pytest

from cfconform.adapters.reference import ReferenceAdapter
from cfconform.conformance.gate import run_gate
from cfconform.conformance.reproducer import (
    describe,
    load_transcript,
    render_pytest,
    replay,
    transcript_stem,
    validate_transcript,
    write_transcript,
)
from cfconform.judge.results import FailureRecord
from cfconform.reference_model.errors import ConfigurationError
from tests.gate.faulty import DropEvents

SPEC = "tests.gate.faulty:DropEvents"


@pytest.fixture(scope="module")
def failure() -> FailureRecord:
    """The first failure: the gate explores on after it (issue 23), so every failing rule it reaches has
    its own reproducer, all of them events divergences for an adapter that drops every event."""
    result = run_gate(DropEvents, profiles=["mq"], hypothesis_profile="dev", seed=1)
    assert result.failures
    assert {"events"} == {f.field for f in result.failures}
    return result.failures[0]


@pytest.fixture
def transcript(failure) -> dict:
    return json.loads(json.dumps(write_transcript(failure, SPEC)))


def test_transcript_holds_the_failing_trace_and_the_expected_divergence(failure, transcript):
    assert ("cfconform-transcript", 1, SPEC, "mq") == (
        transcript["format"],
        transcript["version"],
        transcript["adapter"],
        transcript["profile"],
    )
    assert list(failure.ops) == transcript["ops"]
    assert failure.config == transcript["config"]
    expected = transcript["expected"]
    assert (list(failure.rules), failure.step, "events") == (expected["rules"], expected["step"], expected["field"])
    assert expected["observed"] == []
    assert failure.readings == transcript["readings"]


def test_transcript_stem_is_first_rule_and_a_short_content_hash(transcript):
    stem = transcript_stem(transcript)
    rule, digest = stem.rsplit("-", 1)
    assert (transcript["expected"]["rules"][0], 8) == (rule, len(digest))
    assert stem == transcript_stem(json.loads(json.dumps(transcript)))
    other = {**transcript, "ops": transcript["ops"] + [{"op": "inspect"}]}
    assert stem != transcript_stem(other)
    fault = {**transcript, "expected": {**transcript["expected"], "rules": []}}
    assert transcript_stem(fault).startswith("FAULT-")


def test_replay_diverges_against_the_faulty_adapter_and_passes_against_reference(transcript):
    broken = replay(transcript, DropEvents())
    assert "fail" == broken.verdict
    assert (transcript["expected"]["step"], "events") == (broken.divergence.step, broken.divergence.field)
    kind = transcript["ops"][broken.divergence.step]["op"]  # a put or a get: DropEvents drops every event
    assert describe(broken).startswith(f"step {broken.divergence.step} ({kind} ")
    assert "pass" == replay(transcript, ReferenceAdapter()).verdict


def test_load_transcript_round_trips(tmp_path, transcript):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(transcript))
    assert transcript == load_transcript(path)


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda t: t.pop("ops"), "transcript.ops"),
        (lambda t: t.update(format="other"), "transcript.format"),
        (lambda t: t.update(version=2), "transcript.version"),
        (lambda t: t.update(config=[]), "transcript.config"),
        (lambda t: t["expected"].pop("field"), "transcript.expected.field"),
        (lambda t: t["expected"].update(step="three"), "transcript.expected.step"),
        (lambda t: t["ops"].insert(1, 7), "transcript.ops[1]"),
        (lambda t: t["ops"][0].update(colour="red"), "colour"),
        (lambda t: t["config"].update(bogus=1), "config.bogus"),
    ],
)
def test_validation_errors_name_the_field(transcript, mutate, field):
    mutate(transcript)
    with pytest.raises(ConfigurationError) as err:
        validate_transcript(transcript)
    assert field in err.value.field


def test_load_transcript_rejects_a_file_that_is_not_json(tmp_path):
    path = tmp_path / "t.json"
    path.write_text("{not json")
    with pytest.raises(ConfigurationError, match="transcript"):
        load_transcript(path)


def test_render_pytest_embeds_the_transcript_and_defaults_to_the_recorded_adapter(transcript):
    source = render_pytest(transcript, SPEC)
    compile(source, "test_x.py", "exec")
    namespace: dict = {}
    exec(compile(source, "test_x.py", "exec"), namespace)
    assert transcript == namespace["TRANSCRIPT"]
    test = next(v for k, v in namespace.items() if k.startswith("test_reproducer_"))
    with pytest.raises(AssertionError, match="events expected"):
        test()  # the adapter it was recorded against still has the bug
    namespace["ADAPTER"] = "reference"
    test()


def test_render_pytest_survives_awkward_strings(transcript):
    transcript["expected"]["observed"] = 'ends with a backslash \\ and """ quotes'
    namespace: dict = {}
    exec(compile(render_pytest(transcript, SPEC), "test_y.py", "exec"), namespace)
    assert transcript == namespace["TRANSCRIPT"]


def test_fault_failures_make_transcripts_too(failure):
    fault = attrs.evolve(failure, rules=(), field="adapter", expected=None, observed="RuntimeError: x", kind="fault")
    transcript = write_transcript(fault, SPEC)
    assert "fault" == transcript["expected"]["kind"]
    validate_transcript(json.loads(json.dumps(transcript)))
