"""Meta-tests of the rule catalogue: IDs, citations, statuses, readings, observables, coverage."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import attrs
import pytest

from cfconform.adapters.protocol import FAMILIES as PROTOCOL_FAMILIES
from cfconform.reference_model import operations
from cfconform.reference_model.config import Accounting, Config, QueueDef, StructureDef
from cfconform.reference_model.model import Model
from cfconform.reference_model.outcomes import Outcome
from cfconform.reference_model.readings import AMBIGUITIES
from cfconform.reference_model.rules import FAMILIES, RULE_BY_ID, RULES, rule
from cfconform.reference_model.rules.catalogue import RULE_ID, STATUSES

REPO = Path(__file__).resolve().parents[2]
ID_IN_TEXT = re.compile(r"\b(?:CQS|OFFLOAD|CFLEVEL|CAPACITY|TOPOLOGY|SIZING|QDEPTH|RECOVERY|QUEUE)-\d{3}\b")
SCANNED_PACKAGES = ("reference_model", "adapters", "conformance", "properties")
SEED_SOURCE = re.compile(r"^seed (\d{3}_[0-9a-f]+\.txt)$")
NOTES_PREFIX = "ibm-facts: "
PLAN_LINE = re.compile(r"^- ([A-Z]+-\d{3}) (N|I|D|I/D) ", re.MULTILINE)
PLAN_STATUS = {
    "N": {"normative"},
    "I": {"inferred"},
    "D": {"implementation-defined"},
    "I/D": {"inferred", "implementation-defined"},
}


def shared_dir() -> Path:
    """/work/shared: beside the repository, or wherever CFCONFORM_SHARED points."""
    env = os.environ.get("CFCONFORM_SHARED")
    return Path(env) if env else Path(__file__).resolve().parents[3] / "shared"


def normalise(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def shared() -> Path:
    path = shared_dir()
    if not (path / "seeds").is_dir() or not (path / "notes" / "ibm-facts.md").is_file():
        pytest.skip(f"IBM source texts not found at {path} (set CFCONFORM_SHARED)")
    return path


@pytest.fixture(scope="module")
def notes_text(shared: Path) -> str:
    return normalise((shared / "notes" / "ibm-facts.md").read_text(encoding="utf-8"))


# -- IDs ------------------------------------------------------------------------------------------
def test_rule_ids_are_unique():
    ids = [r.id for r in RULES]
    assert [] == sorted({i for i in ids if ids.count(i) > 1})


def test_rule_ids_match_the_id_pattern():
    assert [] == [r.id for r in RULES if not RULE_ID.match(r.id)]


def test_catalogue_has_at_least_60_rules():
    assert len(RULES) >= 60


def test_catalogue_families_equal_the_protocol_families():
    assert tuple(PROTOCOL_FAMILIES) == tuple(FAMILIES)


def test_every_protocol_family_has_rules():
    assert [] == [f for f in PROTOCOL_FAMILIES if not any(r.family == f for r in RULES)]


def test_rules_are_in_family_then_number_order():
    expected = sorted(RULES, key=lambda r: (FAMILIES.index(r.family), int(r.id.split("-")[1])))
    assert [r.id for r in expected] == [r.id for r in RULES]


def test_rule_by_id_indexes_every_rule():
    assert [r.id for r in RULES] == list(RULE_BY_ID)


def test_rule_lookup_returns_the_rule():
    assert RULE_BY_ID["QDEPTH-004"] == rule("QDEPTH-004")


def test_rule_lookup_of_unknown_id_names_close_matches():
    with pytest.raises(KeyError, match="QDEPTH-004"):
        rule("QDEPTH-04")


def test_catalogue_ids_equal_the_plan_ids():
    plan = set(PLAN_LINE.findall((REPO / "docs" / "rule-ids.md").read_text(encoding="utf-8")))
    assert sorted(i for i, _ in plan) == sorted(RULE_BY_ID)


def test_statuses_agree_with_the_plan():
    plan = dict(PLAN_LINE.findall((REPO / "docs" / "rule-ids.md").read_text(encoding="utf-8")))
    wrong = {r.id: (r.status, plan[r.id]) for r in RULES if r.id in plan and r.status not in PLAN_STATUS[plan[r.id]]}
    assert {} == wrong


# -- fields ---------------------------------------------------------------------------------------
def test_statuses_are_known():
    assert [] == [(r.id, r.status) for r in RULES if r.status not in STATUSES]


def test_titles_are_one_line_under_110_characters():
    assert [] == [r.id for r in RULES if not r.title.strip() or "\n" in r.title or len(r.title) >= 110]


def test_profiles_are_known_and_not_empty():
    assert [] == [r.id for r in RULES if not r.profiles or not set(r.profiles) <= {"mq", "cqs"}]


def test_every_rule_constrains_some_observable():
    assert [] == [r.id for r in RULES if not r.observables]


# -- citations ------------------------------------------------------------------------------------
def test_every_rule_has_a_citation_source_and_quote():
    assert [] == [r.id for r in RULES if not r.citation.source.strip() or not r.citation.quote.strip()]


def test_citation_sources_name_a_seed_file_or_ibm_facts():
    bad = [
        (r.id, r.citation.source)
        for r in RULES
        if not SEED_SOURCE.match(r.citation.source) and not r.citation.source.startswith(NOTES_PREFIX)
    ]
    assert [] == bad


def test_citation_quotes_are_10_to_200_characters():
    assert [] == [(r.id, len(r.citation.quote)) for r in RULES if not 10 <= len(r.citation.quote) <= 200]


def test_citation_quotes_are_verbatim_in_their_source(shared: Path, notes_text: str):
    missing = []
    for r in RULES:
        match = SEED_SOURCE.match(r.citation.source)
        if match:
            seed = shared / "seeds" / match.group(1)
            text = normalise(seed.read_text(encoding="utf-8")) if seed.is_file() else ""
        else:
            text = notes_text
        if normalise(r.citation.quote) not in text:
            missing.append(f"{r.id}: {r.citation.source}: {r.citation.quote!r}")
    assert [] == missing


def test_ibm_facts_source_titles_appear_in_the_notes(notes_text: str):
    missing = [
        (r.id, r.citation.source)
        for r in RULES
        if r.citation.source.startswith(NOTES_PREFIX)
        and normalise(r.citation.source.removeprefix(NOTES_PREFIX)) not in notes_text
    ]
    assert [] == missing


# -- readings -------------------------------------------------------------------------------------
def test_rule_readings_are_known_ambiguities():
    assert [] == [(r.id, a) for r in RULES for a in r.readings if a not in AMBIGUITIES]


def test_every_rule_reading_lists_the_rule_back():
    one_way = [(r.id, a) for r in RULES for a in r.readings if a in AMBIGUITIES and r.id not in AMBIGUITIES[a].rules]
    assert [] == one_way


def test_every_ambiguity_rule_lists_the_ambiguity_back():
    one_way = [
        (a.id, rid)
        for a in AMBIGUITIES.values()
        for rid in a.rules
        if rid not in RULE_BY_ID or a.id not in RULE_BY_ID[rid].readings
    ]
    assert [] == one_way


# -- observables ----------------------------------------------------------------------------------
def _projection_paths() -> set[str]:
    mq = Model(Config(queues=(QueueDef("Q1", cfstruct="APP1"),)))
    cqs = Model(
        Config(
            profile="cqs",
            structures=(StructureDef("APP1", ovflwstr="OVFL1"),),
            queues=(QueueDef("Q1", cfstruct="APP1"),),
        )
    )
    paths: set[str] = set()
    for model in (mq, cqs):
        for key, value in model.project().items():
            if key == "admin":  # one record, not one per name
                paths |= {f"{key}.{field}" for field in value}
            elif isinstance(value, dict):
                paths |= {f"{key}.*.{field}" for record in value.values() for field in record}
            else:
                paths.add(key)
    return paths


def _signal_names() -> set[str]:
    pattern = re.compile(r'f"([A-Z][A-Z0-9_]*) \{')
    # (rglob: the signals are made in the model's modules and subpackages, e.g. reference_model/cqs/)
    return {m for p in (REPO / "reference_model").rglob("*.py") for m in pattern.findall(p.read_text(encoding="utf-8"))}


def _known_observables() -> set[str]:
    kinds = {c.KIND for c in vars(operations).values() if isinstance(c, type) and hasattr(c, "KIND")}
    fields = set(attrs.fields_dict(Outcome)) - {"kind"}
    known = {f"{k}.{f}" for k in kinds for f in fields}
    known |= {f"inspect.{p}" for p in _projection_paths()}
    known |= {f"signals:{s}" for s in _signal_names()}
    known |= {f"config.{f}" for f in attrs.fields_dict(Config)}
    known |= {f"config.structures.*.{f}" for f in attrs.fields_dict(StructureDef)}
    known |= {f"config.queues.*.{f}" for f in attrs.fields_dict(QueueDef)}
    known |= {f"config.accounting.{f}" for f in attrs.fields_dict(Accounting)}
    return known


def test_observables_name_outcome_projection_signal_or_config_fields():
    known = _known_observables()
    assert [] == [(r.id, o) for r in RULES for o in r.observables if o not in known]


# -- coverage -------------------------------------------------------------------------------------
def test_rule_ids_cited_in_the_source_exist_in_the_catalogue():
    unknown = []
    for package in SCANNED_PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                unknown += [
                    f"{path.relative_to(REPO)}:{lineno}: {i}" for i in ID_IN_TEXT.findall(line) if i not in RULE_BY_ID
                ]
    assert [] == unknown


def _test_function_names() -> set[str]:
    names: set[str] = set()
    for path in (REPO / "tests").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        names |= {
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")
        }
    return names


def test_every_rule_has_a_named_test():
    names = _test_function_names()
    missing = []
    for r in RULES:
        family, number = r.id.split("-")
        if not any(f"{family.lower()}_{number}" in name for name in names):
            missing.append(r.id)
    assert [] == missing, (
        f"{len(missing)} rule(s) have no test function whose name contains <family>_<nnn> "
        f"(e.g. test_cqs_007_selection_stops_at_target): {', '.join(missing)}"
    )
