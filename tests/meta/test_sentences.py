"""The sentence map (reference_model/rules/sentences.py) against the IBM documents, the catalogue and docs/SENTENCES.md.

The tests that read IBM's texts skip, saying why, when ../shared/ is not beside the
repository (or where CFCONFORM_SHARED points); the map's own checks and the
``cfconform rules --coverage`` tests never need them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cfconform.cli.main import main
from cfconform.reference_model.readings import AMBIGUITIES
from cfconform.reference_model.rules import RULE_BY_ID, RULES
from cfconform.reference_model.rules.catalogue import SEED_TITLES
from cfconform.reference_model.rules.sentences import COVERAGES, KINDS, SENTENCES
from cfconform.reference_model.rules.splitter import normalise, sentence_key, split_sentences
from cfconform.reports.sentences_doc import COUNT_COLUMNS, REGENERATE, coverage_counts, render_sentences_markdown

REPO = Path(__file__).resolve().parents[2]
SENTENCES_MD = REPO / "docs" / "SENTENCES.md"
WHY_PREFIXES = ("observable: ", "not observable: ")


def shared_dir() -> Path:
    """``shared/`` beside the repository, or wherever CFCONFORM_SHARED points."""
    env = os.environ.get("CFCONFORM_SHARED")
    return Path(env) if env else REPO.parent / "shared"


@pytest.fixture(scope="module")
def documents() -> dict[str, str]:
    """IBM's texts by seed number (``000_...txt`` is ``000``)."""
    seeds = shared_dir() / "seeds"
    if not seeds.is_dir():
        pytest.skip(f"IBM's texts are not at {seeds} (the sentence map is checked against them; set CFCONFORM_SHARED)")
    return {p.name[:3]: p.read_text(encoding="utf-8") for p in sorted(seeds.glob("[0-9][0-9][0-9]_*.txt"))}


@pytest.fixture(scope="module")
def notes() -> str:
    path = shared_dir() / "notes" / "ibm-facts.md"
    if not path.is_file():
        pytest.skip(f"IBM's facts notes are not at {path} (rules citing them are checked against it)")
    return normalise(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def split(documents: dict[str, str]) -> dict[str, list[str]]:
    return {doc: split_sentences(text) for doc, text in documents.items()}


# -- the map against the documents -----------------------------------------------------------------
def test_the_map_covers_exactly_the_five_documents(documents):
    assert sorted(SEED_TITLES) == sorted(documents) == sorted(SENTENCES)


def test_every_sentence_is_classified(split):
    unclassified = [
        f'{doc}: "{sentence_key(s)}": ...,  # {s}'
        for doc, sentences in split.items()
        for s in sentences
        if sentence_key(s) not in SENTENCES.get(doc, {})
    ]
    assert not unclassified, "classify these sentences in reference_model/rules/sentences.py:\n" + "\n".join(
        unclassified
    )


def test_no_map_entry_is_stale(split):
    keys = {doc: {sentence_key(s) for s in sentences} for doc, sentences in split.items()}
    stale = [f"{doc}: {key}" for doc, entries in SENTENCES.items() for key in entries if key not in keys.get(doc, ())]
    assert not stale, "these map entries match no sentence of their document:\n" + "\n".join(stale)


def test_seed_quotes_are_verbatim_in_their_document(documents):
    texts = {doc: normalise(text) for doc, text in documents.items()}
    wrong = [
        f"{r.id}: {r.citation.quote!r}"
        for r in RULES
        if r.citation.source.startswith("seed ")
        and normalise(r.citation.quote) not in texts.get(r.citation.source[5:8], "")
    ]
    assert [] == wrong, "quote each seed verbatim (white space and typographic quotes aside)"


def test_notes_quotes_are_in_ibm_facts(notes):
    wrong = [
        f"{r.id}: {r.citation.quote!r}"
        for r in RULES
        if not r.citation.source.startswith("seed ") and normalise(r.citation.quote) not in notes
    ]
    assert [] == wrong


def test_the_sentence_a_rule_quotes_names_that_rule(split):
    """A rule's quote is one or more sentences, or part of one: at least one of them names the rule."""
    unnamed = []
    for r in RULES:
        if not r.citation.source.startswith("seed "):
            continue
        doc, quote = r.citation.source[5:8], normalise(r.citation.quote)
        quoted = [s for s in split.get(doc, []) if quote in s or s in quote]
        if not any(r.id in SENTENCES[doc].get(sentence_key(s), ()).rules for s in quoted):
            unnamed.append(f"{r.id} ({doc}): {quote!r}")
    assert [] == unnamed


def test_sentences_md_is_current(documents):
    actual = SENTENCES_MD.read_text(encoding="utf-8") if SENTENCES_MD.is_file() else ""
    assert render_sentences_markdown(documents) == actual, (
        f"docs/SENTENCES.md is stale; regenerate it with: {REGENERATE}"
    )


def test_sentences_md_says_how_it_is_generated(documents):
    assert REGENERATE in render_sentences_markdown(documents).splitlines()[2]


# -- the map on its own ----------------------------------------------------------------------------
def _entries():
    return [(doc, key, entry) for doc, entries in SENTENCES.items() for key, entry in entries.items()]


def test_every_entry_has_a_known_kind_and_the_fields_it_needs():
    bad = []
    for doc, key, e in _entries():
        if e.kind not in KINDS:
            bad.append(f"{doc} {key}: kind {e.kind!r}")
        elif e.kind == "normative" and (not e.rules or e.coverage not in COVERAGES):
            bad.append(f"{doc} {key}: normative needs rules and a coverage")
        elif e.kind == "normative" and e.coverage == "partial" and not e.why.startswith(WHY_PREFIXES):
            bad.append(f"{doc} {key}: partial needs a why starting 'observable:' or 'not observable:'")
        elif e.kind == "ambiguous" and not (e.readings and e.rules):
            bad.append(f"{doc} {key}: ambiguous needs readings and rules")
        elif e.kind in ("informative", "out-of-scope") and not e.why:
            bad.append(f"{doc} {key}: {e.kind} needs a why")
        elif e.kind == "missing" and (e.rules or not e.why.startswith(WHY_PREFIXES)):
            bad.append(f"{doc} {key}: missing has no rules and a why starting 'observable:' or 'not observable:'")
    assert [] == bad


def test_entries_name_only_rules_in_the_catalogue():
    assert [] == [f"{doc} {key}: {r}" for doc, key, e in _entries() for r in e.rules if r not in RULE_BY_ID]


def test_ambiguous_entries_name_known_readings_with_a_rule_that_follows_each():
    bad = []
    for doc, key, e in _entries():
        for a in e.readings:
            if a not in AMBIGUITIES:
                bad.append(f"{doc} {key}: unknown reading {a}")
            elif not set(AMBIGUITIES[a].rules) & set(e.rules):
                bad.append(f"{doc} {key}: none of {a}'s rules {AMBIGUITIES[a].rules} is named")
    assert [] == bad


def test_every_rule_is_named_by_a_sentence_or_cites_the_notes():
    named = {r for _, _, e in _entries() for r in e.rules}
    unnamed = [r.id for r in RULES if r.id not in named and r.citation.source.startswith("seed ")]
    assert [] == unnamed, "a rule citing a seed should be named by the sentence it enforces"


def test_no_observable_sentence_is_unmodelled():
    """A normative sentence an implementation can show through the protocol needs a rule."""
    unmodelled = [
        f"{doc} {key}: {e.why}" for doc, key, e in _entries() if e.kind == "missing" and e.why.startswith("observable:")
    ]
    assert not unmodelled, (
        f"{len(unmodelled)} observable sentences have no rule (docs/SENTENCES.md, 'Missing and partial sentences'):\n"
        + "\n".join(unmodelled)
    )


# -- the splitter ----------------------------------------------------------------------------------
def test_headings_table_rows_and_list_items_are_sentences_of_their_own():
    text = (
        "A heading\n\nFirst sentence. Second one (with 63.75 KB).\n  • An item. Its second sentence\n"
        "  1. A step\nTable 1. A caption\n1 6144 KB\n(An aside.) After it."
    )
    assert [
        "A heading",
        "First sentence.",
        "Second one (with 63.75 KB).",
        "An item.",
        "Its second sentence",
        "A step",
        "Table 1. A caption",
        "1 6144 KB",
        "(An aside.)",
        "After it.",
    ] == split_sentences(text)


def test_a_sentence_key_is_its_opening_and_a_hash_of_its_normalised_text():
    key = sentence_key("The staging queue is not eligible for overflow processing.")
    assert (key, key) == (
        sentence_key("The  staging queue is not eligible\nfor overflow processing."),
        "the-staging-queue-is-not-eligible-" + key.rsplit("-", 1)[1],
    )


# -- the counts and the command --------------------------------------------------------------------
def test_coverage_counts_add_up():
    counts = coverage_counts()
    rows = [counts[d] for d in SENTENCES]
    assert (
        [r["covered"] + r["partial"] + r["missing"] for r in rows],
        [sum(r[c] for c in COUNT_COLUMNS if c not in ("normative", "sentences")) for r in rows],
        {c: sum(r[c] for r in rows) for c in COUNT_COLUMNS},
    ) == ([r["normative"] for r in rows], [r["sentences"] for r in rows], counts["total"])


def test_rules_coverage_prints_each_document_and_a_total(capsys):
    code = main(["rules", "--coverage"])
    out = capsys.readouterr().out
    assert (0, [], True) == (code, [d for d in SENTENCES if f"{d} " not in out], "total" in out)


def test_rules_coverage_json_is_the_counts(capsys):
    code = main(["rules", "--coverage", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert (0, coverage_counts()) == (code, {d: {c: v[c] for c in COUNT_COLUMNS} for d, v in data.items()})


def test_rules_coverage_needs_no_documents(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CFCONFORM_SHARED", str(tmp_path / "nowhere"))
    assert 0 == main(["rules", "--coverage"])


@pytest.mark.parametrize(
    "argv",
    [
        ["rules", "--sentences"],
        ["rules", "--sentences", "--seeds", "/nonexistent/seeds"],
        ["rules", "--coverage", "--family", "CQS"],
        ["rules", "--coverage", "--sentences"],
        ["rules", "--seeds", "x"],
    ],
)
def test_rules_sentence_views_refuse_misuse_with_exit_2(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own refusals (--coverage with --sentences)
        code = exc.code
    err = capsys.readouterr().err
    assert (2, 1) == (code, len(err.strip().splitlines()))


def test_rules_sentences_prints_the_page(documents, capsys):
    code = main(["rules", "--sentences", "--seeds", str(shared_dir() / "seeds")])
    assert (0, render_sentences_markdown(documents)) == (code, capsys.readouterr().out)
