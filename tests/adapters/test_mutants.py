"""The mutant catalogue: coverage of the rules, and each mutant's reproducer exposes a real fault minimally.

"Exposes" means no admissible reading (``cfconform.reference_model.readings``) makes the
reference model answer as the mutant does; outcomes are compared as
``outcome_to_record`` without ``rules`` (the model's explanation, which no
implementation reports and the gate never compares).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cfconform.adapters.mutants import (
    CHECKER_GAPS,
    MUTANT_BY_ID,
    MUTANTS,
    RETIRED,
    SKIPPED,
    get_mutant,
    mutants_for_rule,
)
from cfconform.adapters.mutants.check import (
    explaining_readings,
    observable,
    records_of,
    reference_records,
)
from cfconform.adapters.mutants.kit import MUTANT_ID
from cfconform.adapters.mutants.render import render_markdown
from cfconform.adapters.protocol import Adapter
from cfconform.reference_model.readings import AMBIGUITIES, Readings, all_readings

REPO = Path(__file__).resolve().parents[2]
RULE_LINE = re.compile(
    r"^- (?P<id>(?:CQS|OFFLOAD|CFLEVEL|CAPACITY|TOPOLOGY|SIZING|QDEPTH|RECOVERY|QUEUE)-\d{3}) ", re.MULTILINE
)
#: The rules the brief allows to go without a mutant (advice, sizing, configuration-time only; CFLEVEL-007:
#: no document says the configuration is refused, issue 23).
ALLOWED_SKIPS = {
    "CFLEVEL-007",
    "TOPOLOGY-014",  # the CFCC level: a sizing input, no operation outcome
    "CAPACITY-011",  # implementation-defined freedom (AUTOALTER): the gate's fairness to it is tested instead
    "CQS-022",  # inferred: no sentence decides where an overflowed queue's new data objects go
    *(f"SIZING-00{n}" for n in range(1, 6)), "OFFLOAD-008", "OFFLOAD-009", "OFFLOAD-010", "CAPACITY-007",
    "TOPOLOGY-002", "TOPOLOGY-007", "TOPOLOGY-008", "TOPOLOGY-010", "TOPOLOGY-011", "TOPOLOGY-012",
    "TOPOLOGY-015",  # judged at open on a record: the kits' faults kill it (test_forbidden_configurations.py)
    "QDEPTH-018",  # inferred: no sentence states MAXDEPTH's range
    "CFLEVEL-010",  # inferred: no sentence states a queue's MAXMSGL range
}  # fmt: skip
PLAIN = [m for m in MUTANTS if not m.mixes]
MIXED = [m for m in MUTANTS if m.mixes]


def _rule_ids() -> list[str]:
    try:
        from cfconform.reference_model.rules import RULES
    except ImportError:
        return RULE_LINE.findall((REPO / "docs" / "rule-ids.md").read_text(encoding="utf-8"))
    return [r.id for r in RULES]


def _attached_ambiguities(rule_id: str) -> set[str]:
    """The ambiguities whose readings apply to ``rule_id`` (the rule's own list and AMBIGUITIES[..].rules)."""
    found = {a.id for a in AMBIGUITIES.values() if rule_id in a.rules}
    try:
        from cfconform.reference_model.rules import RULE_BY_ID
    except ImportError:
        return found
    rule = RULE_BY_ID.get(rule_id)
    return found | set(getattr(rule, "readings", ()))


def checker_flags(mutant, scenario=None) -> list[int]:
    """Indices of the steps the conformance checker fails (a verdict, not a "not supported" refusal)
    when ``scenario`` (default: the mutant's own) runs on the mutant."""
    from cfconform.judge.checker import Checker

    ops = mutant.scenario if scenario is None else tuple(scenario)
    adapter = mutant.factory()
    adapter.open(mutant.config)
    try:
        checker = Checker(mutant.config, adapter.capabilities())
        verdicts = [checker.check(op, adapter.apply(op)) for op in ops]
    finally:
        adapter.close()
    return sorted({v.index for v in verdicts if not v.ok and not v.refused})


def _flagged(mutant, scenario) -> bool:
    """The checker flags ``scenario`` on the mutant; an invalid scenario (the model or the mutant
    refuses it with an exception) flags nothing."""
    if records_of(mutant.factory(), mutant.config, scenario) is None:
        return False
    if reference_records(mutant.config, scenario) is None:
        return False
    try:
        return bool(checker_flags(mutant, scenario))
    except (ValueError, KeyError, TypeError):
        return False


def droppable(mutant) -> list[int]:
    """Operations that can be dropped while the checker still flags the mutant.  The checker is the
    judge (storage figures are the implementation's input, issue 23), so reproducers are minimal for it."""
    ops = mutant.scenario
    return [i for i in range(len(ops)) if _flagged(mutant, ops[:i] + ops[i + 1 :])]


def _reproduced_by_some(mutant, ambiguities: set[str]) -> Readings | None:
    """A combination of readings of ``ambiguities`` (the others at their defaults) matching the mutant."""
    observed = records_of(mutant.factory(), mutant.config, mutant.scenario)
    assert observed is not None, f"{mutant.id}: the reproducer is invalid for the mutant"
    fixed = {k: a.default for k, a in AMBIGUITIES.items() if k not in ambiguities}
    for readings in all_readings(fixed):
        if reference_records(mutant.config, mutant.scenario, readings) == observed:
            return readings
    return None


# -- the catalogue ------------------------------------------------------------------------------
def test_catalogue_has_at_least_60_mutants():
    assert len(MUTANTS) >= 60


def test_mutant_ids_are_unique_and_name_their_rule():
    assert len(MUTANTS) == len({m.id for m in MUTANTS}) == len(MUTANT_BY_ID)
    assert [] == [m.id for m in MUTANTS if not m.id.startswith(f"M-{m.rule}-")]


def test_every_rule_with_an_observable_effect_has_a_mutant():
    rules = _rule_ids()
    observable_rules = [r for r in rules if r not in SKIPPED]
    assert [] == [r for r in observable_rules if not mutants_for_rule(r)]


def test_mutants_and_skips_name_known_rules_and_never_overlap():
    rules = set(_rule_ids())
    assert set() == {m.rule for m in MUTANTS} - rules
    assert set() == set(SKIPPED) - rules
    assert set() == set(SKIPPED) & {m.rule for m in MUTANTS}
    assert set() == set(SKIPPED) - ALLOWED_SKIPS


def test_retired_mutants_keep_their_ids_and_say_why():
    """A retired mutant is only its ID and why (``RETIRED``): no running mutant reuses the ID, which names a
    catalogued rule as a mutant's does, and the reason is a sentence."""
    from cfconform.reference_model.rules import RULE_BY_ID

    assert set() == set(RETIRED) & {m.id for m in MUTANTS}
    assert [] == [mid for mid in RETIRED if (match := MUTANT_ID.match(mid)) is None or match["rule"] not in RULE_BY_ID]
    assert [] == [mid for mid, why in RETIRED.items() if len(why) < 20]
    with pytest.raises(KeyError, match="retired"):
        get_mutant(next(iter(RETIRED)))


def test_each_mutant_names_the_sentence_it_breaks():
    """A mutant is a row of its family's table: its rule comes from its ID, its sentence from the rule catalogue."""
    from cfconform.reference_model.rules import RULE_BY_ID

    assert [] == [m.id for m in MUTANTS if m.sentence != RULE_BY_ID[m.rule].citation.quote]
    assert [] == [m.id for m in MUTANTS if len(m.sentence) < 20]


def test_checker_gaps_name_catalogued_mutants():
    assert set() == set(CHECKER_GAPS) - set(MUTANT_BY_ID)


def _gap_marked(mutants):
    """Mutants the checker cannot flag yet (``CHECKER_GAPS``): a strict expected failure, so that a fixed
    checker makes the test fail until the gap is removed from the list."""
    return [
        pytest.param(m, marks=pytest.mark.xfail(reason=CHECKER_GAPS[m.id], strict=True)) if m.id in CHECKER_GAPS else m
        for m in mutants
    ]


def test_mixed_mutants_name_real_ambiguities():
    assert len(MIXED) >= 3
    assert [] == [m.id for m in MIXED if not set(m.mixes) <= set(AMBIGUITIES)]


def test_get_mutant_returns_a_fresh_adapter_claiming_no_reading():
    a, b = get_mutant("M-OFFLOAD-002-a"), get_mutant("M-OFFLOAD-002-a")
    assert a is not b
    assert isinstance(a, Adapter)
    caps = a.capabilities()
    assert "M-OFFLOAD-002-a" == caps.name
    assert {"unknown"} == set(caps.readings.values())


@pytest.mark.parametrize("mutant_id", ["M-OFFLOAD-002-a", "M-CQS-001-a"])
def test_mutant_claims_only_the_profile_its_fault_is_built_for(mutant_id):
    expected = (MUTANT_BY_ID[mutant_id].config.profile,)
    assert expected == get_mutant(mutant_id).capabilities().profiles


def test_get_mutant_names_the_known_ids_on_a_bad_id():
    with pytest.raises(KeyError, match="M-CQS-001-a"):
        get_mutant("M-NOPE-001-a")


def test_mutants_for_rule_lists_that_rules_mutants_only():
    found = mutants_for_rule("OFFLOAD-003")
    assert ["M-OFFLOAD-003-a", "M-OFFLOAD-003-b"] == [m.id for m in found]
    assert () == mutants_for_rule("SIZING-001")


def test_docs_mutants_md_is_current():
    """Regenerate with: .venv/bin/python -m cfconform.adapters.mutants.render > docs/MUTANTS.md"""
    assert render_markdown() == (REPO / "docs" / "MUTANTS.md").read_text(encoding="utf-8")


def test_running_mutants_leaves_the_reference_model_unchanged():
    before = [reference_records(m.config, m.scenario) for m in MUTANTS]
    for m in MUTANTS:
        records_of(m.factory(), m.config, m.scenario)
    assert before == [reference_records(m.config, m.scenario) for m in MUTANTS]


# -- each mutant ---------------------------------------------------------------------------------
@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.id)
def test_mutant_diverges_from_the_reference_model(mutant):
    adapter = mutant.factory()
    adapter.open(mutant.config)
    observed = [observable(o) for o in adapter.apply_batch(list(mutant.scenario))]
    adapter.close()
    expected = reference_records(mutant.config, mutant.scenario)
    assert expected is not None
    assert len(expected) == len(observed)
    assert expected != observed


@pytest.mark.parametrize("mutant", MIXED, ids=lambda m: m.id)
def test_no_single_reading_of_the_mixed_ambiguities_reproduces_a_mixed_mutant(mutant):
    assert _reproduced_by_some(mutant, set(mutant.mixes)) is None


@pytest.mark.parametrize("mutant", PLAIN, ids=lambda m: m.id)
def test_no_admissible_reading_of_the_rule_reproduces_a_plain_mutant(mutant):
    assert _reproduced_by_some(mutant, _attached_ambiguities(mutant.rule)) is None


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.id)
def test_no_reading_of_any_ambiguity_explains_the_mutant(mutant):
    observed = records_of(mutant.factory(), mutant.config, mutant.scenario)
    assert observed is not None
    assert explaining_readings(mutant.config, mutant.scenario, observed) is None


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.id)
def test_reproducer_is_minimal(mutant):
    """Dropping any one operation leaves a scenario the checker does not flag (or an invalid one)."""
    assert [] == droppable(mutant)


@pytest.mark.parametrize("mutant", _gap_marked(MUTANTS), ids=lambda m: m.id)
def test_the_conformance_checker_flags_the_mutant_at_the_last_step(mutant):
    """A verdict at the last step: a refusal ("not supported") ends a case but kills nothing."""
    assert [len(mutant.scenario) - 1] == checker_flags(mutant)
