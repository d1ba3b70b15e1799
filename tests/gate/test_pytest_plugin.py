"""The pytest plugin (conformance/pytest_plugin.py, conformance/pytest_gate.py): one item per rule, under plain
pytest and pytest-xdist.

Each test runs pytest in a subprocess (pytester) in a temporary directory holding a small faulty
implementation module.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from cfconform.reference_model.rules import RULE_BY_ID, RULES

pytest_plugins = ["pytester"]

FAST = ["--cf-hypothesis-profile=dev", "--cf-seed=1", "-p", "no:cacheprovider"]
MQ_RULES = sum(1 for r in RULES if "mq" in r.profiles)
IMPLEMENTATION = """
import attrs
from cfconform.adapters.reference import ReferenceAdapter


class DropEvents(ReferenceAdapter):
    def apply(self, op):
        out = super().apply(op)
        return attrs.evolve(out, events=()) if out.events else out


class Crashes(ReferenceAdapter):
    def apply(self, op):
        raise RuntimeError("implementation crashed")
"""


@pytest.fixture
def tester(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(impl=IMPLEMENTATION)
    return pytester


def test_without_an_adapter_the_plugin_collects_nothing(tester):
    tester.makepyfile(test_plain="def test_ok():\n    pass\n")
    result = tester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    result.stdout.no_fnmatch_line("*cfconform::*")
    result.stdout.no_fnmatch_line("cfconform: adapter*")


def test_without_an_adapter_the_plugin_registers_only_its_options(tester):
    """Inert until --cf-adapter (issue 25): of cfconform only the plugin module is imported, no marker."""
    tester.makepyfile(
        test_modules=(
            "import sys\n\n\ndef test_only_the_plugin_is_imported():\n"
            "    ours = sorted(m for m in sys.modules if m.startswith('cfconform'))\n"
            "    assert ['cfconform', 'cfconform.conformance', 'cfconform.conformance.pytest_plugin'] == ours\n"
        )
    )
    result = tester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    markers = tester.runpytest_subprocess("--markers", "-p", "no:cacheprovider")
    markers.stdout.no_fnmatch_line("*mark.cfconform*")
    options = tester.runpytest_subprocess("--help", "-p", "no:cacheprovider")
    options.stdout.fnmatch_lines(["*--cf-adapter=SPEC*"])


def test_the_plugin_offers_the_profiles_of_the_model():
    from cfconform.conformance.pytest_plugin import PROFILE_NAMES
    from cfconform.reference_model.config import PROFILES

    assert PROFILES == PROFILE_NAMES


def test_one_item_per_rule_and_one_per_profile(tester):
    result = tester.runpytest_subprocess("--cf-adapter=reference", "--cf-profile=mq", "--collect-only", "-q", *FAST)
    ids = [line for line in result.outlines if line.startswith("cfconform::")]
    assert ["cfconform::gate[mq]"] + [f"cfconform::{r.id}" for r in RULES if "mq" in r.profiles] == ids


def test_reference_passes(tester):
    result = tester.runpytest_subprocess("--cf-adapter=reference", "--cf-profile=mq", "-rs", *FAST)
    outcomes = result.parseoutcomes()
    assert 0 == result.ret, result.stdout.str()
    assert "failed" not in outcomes
    assert MQ_RULES + 1 == outcomes["passed"] + outcomes.get("skipped", 0)
    result.stdout.fnmatch_lines(["*cfconform: adapter reference, profiles mq, hypothesis dev, seed 1*"])
    result.stdout.fnmatch_lines(["*static: static rule*"])


def test_faulty_implementation_fails_naming_the_rule_and_divergence(tester):
    result = tester.runpytest_subprocess("--cf-adapter=impl:DropEvents", "--cf-profile=mq", *FAST)
    assert 1 == result.ret
    result.stdout.fnmatch_lines(["FAILED cfconform::QDEPTH-0* - QDEPTH-0* does not conform (mq profile, step *"])
    result.stdout.fnmatch_lines(["*events expected*observed []*"])


def test_faulty_implementation_fails_the_same_rules_under_xdist(tester):
    serial = tester.runpytest_subprocess("--cf-adapter=impl:DropEvents", "--cf-profile=mq", *FAST)
    parallel = tester.runpytest_subprocess("--cf-adapter=impl:DropEvents", "--cf-profile=mq", "-n", "2", *FAST)
    failed = [sorted(line for line in r.outlines if line.startswith("FAILED")) for r in (serial, parallel)]
    assert failed[0] and failed[0] == failed[1]
    counts = [{k: r.parseoutcomes().get(k) for k in ("passed", "failed", "skipped")} for r in (serial, parallel)]
    assert counts[0] == counts[1]


def test_xdist_workers_use_the_controllers_seed_when_none_is_given(tester):
    result = tester.runpytest_subprocess(
        "--cf-adapter=reference", "--cf-profile=mq", "--cf-hypothesis-profile=dev", "-n", "2", "--junitxml=out.xml"
    )
    assert 0 == result.ret, result.stdout.str()
    (header,) = [line for line in result.outlines if line.startswith("cfconform: adapter")]
    seed = header.rsplit(" ", 1)[1]
    cases = ET.parse(tester.path / "out.xml").getroot().iter("testcase")
    seeds = {p.get("value") for case in cases for p in case.iter("property") if p.get("name") == "seed"}
    assert {seed} == seeds


def test_known_deviations_pass_with_a_warning(tester):
    first = tester.runpytest_subprocess("--cf-adapter=impl:DropEvents", "--cf-profile=mq", *FAST)
    failed = [line.split(" ")[1].split("::")[1] for line in first.outlines if line.startswith("FAILED")]
    rules = sorted(r for r in failed if r in RULE_BY_ID)
    tester.makefile(".toml", dev="".join(f'[[deviation]]\nrule = "{r}"\nreason = "ISSUE-7"\n' for r in rules))
    result = tester.runpytest_subprocess(
        "--cf-adapter=impl:DropEvents", "--cf-profile=mq", "--cf-deviations=dev.toml", *FAST
    )
    assert 0 == result.ret, result.stdout.str()
    result.stdout.fnmatch_lines([f"*ConformanceWarning: {rules[0]}: known deviation: ISSUE-7*"])


def test_crashing_implementation_fails_the_profile_item(tester):
    result = tester.runpytest_subprocess("--cf-adapter=impl:Crashes", "--cf-profile=mq", *FAST)
    assert 1 == result.ret
    result.stdout.fnmatch_lines(["FAILED cfconform::gate[mq] - mq: the adapter could not be judged"])
    result.stdout.fnmatch_lines(["*adapter fault at step 0: RuntimeError: implementation crashed*"])


def test_rules_option_selects_items(tester):
    result = tester.runpytest_subprocess(
        "--cf-adapter=reference", "--cf-rules=QUEUE-00[12]", "--collect-only", "-q", *FAST
    )
    ids = [line for line in result.outlines if line.startswith("cfconform::")]
    assert ["cfconform::gate[mq]", "cfconform::gate[cqs]", "cfconform::QUEUE-001", "cfconform::QUEUE-002"] == ids


def test_unknown_adapter_is_a_usage_error(tester):
    result = tester.runpytest_subprocess("--cf-adapter=no-such-adapter")
    assert pytest.ExitCode.USAGE_ERROR == result.ret
    result.stderr.fnmatch_lines(["*no-such-adapter*"])
