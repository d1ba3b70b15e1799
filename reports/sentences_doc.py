"""Renderers of the sentence map: the docs/SENTENCES.md page, its JSON form and the coverage counts.

Pure functions (reports/README.md): the caller reads the IBM documents and passes their
text; :func:`coverage_counts` needs only the map, so ``cfconform rules --coverage`` works
without the documents.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tabulate import tabulate

from cfconform.reference_model.readings import AMBIGUITIES
from cfconform.reference_model.rules.catalogue import SEED_TITLES
from cfconform.reference_model.rules.sentences import SENTENCES, Entry
from cfconform.reference_model.rules.splitter import sentence_key, split_sentences

REGENERATE = "cfconform rules --sentences --seeds ../shared/seeds > docs/SENTENCES.md"
#: The columns of the coverage counts, in order ("normative" = covered + partial + missing).
COUNT_COLUMNS = (
    "normative",
    "covered",
    "partial",
    "missing",
    "ambiguous",
    "informative",
    "out-of-scope",
    "sentences",
)
UNCLASSIFIED = "unclassified"


def _bucket(entry: Entry) -> str:
    return entry.coverage if entry.kind == "normative" else entry.kind


def coverage_counts(sentence_map: Mapping[str, Mapping[str, Entry]] = SENTENCES) -> dict[str, dict[str, int]]:
    """Per document (seed number) and ``"total"``: the counts of :data:`COUNT_COLUMNS`.

    Counted over the map's entries: a sentence repeated word for word in one document
    has one entry and is counted once.
    """
    counts: dict[str, dict[str, int]] = {}
    for doc in sorted(sentence_map):
        row = dict.fromkeys(COUNT_COLUMNS, 0)
        for entry in sentence_map[doc].values():
            row[_bucket(entry)] += 1
            row["sentences"] += 1
        row["normative"] = row["covered"] + row["partial"] + row["missing"]
        counts[doc] = row
    counts["total"] = {c: sum(counts[d][c] for d in sorted(sentence_map)) for c in COUNT_COLUMNS}
    return counts


def _document_name(doc: str) -> str:
    return "total" if doc == "total" else f"{doc} {SEED_TITLES.get(doc, 'IBM documentation')}"


def render_coverage_table(counts: Mapping[str, Mapping[str, int]]) -> str:
    """The coverage counts as a plain-text table, one row per document and a total."""
    rows = [[_document_name(d), *(counts[d][c] for c in COUNT_COLUMNS)] for d in counts]
    return tabulate(rows, headers=["document", *COUNT_COLUMNS], tablefmt="simple")


def render_coverage_json(counts: Mapping[str, Mapping[str, int]]) -> str:
    """The coverage counts as JSON: ``{document: {column: count}}``, keys sorted."""
    out = {d: {"title": _document_name(d).split(" ", 1)[-1], **counts[d]} for d in counts}
    return json.dumps(out, indent=2, sort_keys=True, ensure_ascii=False)


def render_coverage_markdown(counts: Mapping[str, Mapping[str, int]]) -> str:
    """The coverage counts as a Markdown table."""
    header = ["document", *COUNT_COLUMNS]
    lines = [_row(header), _row(["---"] * len(header))]
    lines += [_row([_document_name(d), *(str(counts[d][c]) for c in COUNT_COLUMNS)]) for d in counts]
    return "\n".join(lines)


def sentence_records(
    documents: Mapping[str, str], sentence_map: Mapping[str, Mapping[str, Entry]] = SENTENCES
) -> list[dict[str, Any]]:
    """One record per sentence of each document (document order), with its entry spelt out;
    a sentence the map lacks has kind ``unclassified``."""
    records = []
    for doc in sorted(documents):
        entries = sentence_map.get(doc, {})
        for number, sentence in enumerate(split_sentences(documents[doc]), 1):
            key = sentence_key(sentence)
            entry = entries.get(key, Entry(UNCLASSIFIED))
            records.append(
                {
                    "document": doc,
                    "number": number,
                    "key": key,
                    "sentence": sentence,
                    "kind": entry.kind,
                    "coverage": entry.coverage,
                    "rules": list(entry.rules),
                    "readings": [
                        {"id": a, "rules": list(AMBIGUITIES[a].rules) if a in AMBIGUITIES else []}
                        for a in entry.readings
                    ],
                    "why": entry.why,
                }
            )
    return records


def render_sentences_json(
    documents: Mapping[str, str], sentence_map: Mapping[str, Mapping[str, Entry]] = SENTENCES
) -> str:
    """:func:`sentence_records` as JSON, keys sorted, indented by 2."""
    return json.dumps(sentence_records(documents, sentence_map), indent=2, sort_keys=True, ensure_ascii=False)


def _cell(text: str) -> str:
    """Escape a table cell for GitHub-flavoured Markdown."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace("\n", " ")


def _text(text: str) -> str:
    """Escape running Markdown text (``*`` in CFRM comments and products)."""
    return text.replace("\\", "\\\\").replace("*", "\\*")


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _class(record: Mapping[str, Any]) -> str:
    kind = record["kind"]
    return f"normative ({record['coverage']})" if kind == "normative" else kind


def _readings(record: Mapping[str, Any]) -> str:
    return ", ".join(f"`{r['id']}` ({', '.join(r['rules'])})" for r in record["readings"])


def _sentence_table(records: list[dict[str, Any]]) -> list[str]:
    lines = [_row(["#", "sentence", "class", "rules", "readings", "why", "key"]), _row(["---"] * 7)]
    for r in records:
        cells = [
            str(r["number"]),
            _cell(r["sentence"]),
            _class(r),
            ", ".join(r["rules"]),
            _readings(r),
            _cell(r["why"]),
            f"`{r['key']}`",
        ]
        lines.append(_row(cells))
    return lines


def _gaps(records: list[dict[str, Any]]) -> list[str]:
    """The missing and partial sentences, each with its why: the work left."""
    lines = ["## Missing and partial sentences", ""]
    gaps = [r for r in records if r["kind"] in ("missing", UNCLASSIFIED) or r["coverage"] == "partial"]
    if not gaps:
        return [*lines, "None.", ""]
    for r in gaps:
        rules = f" ({', '.join(r['rules'])})" if r["rules"] else ""
        lines.append(f"- {r['document']} #{r['number']}, {_class(r)}{rules}: “{_text(r['sentence'])}”  ")
        lines.append(f"  {_text(r['why'] or 'not classified yet')}")
    return [*lines, ""]


def render_sentences_markdown(
    documents: Mapping[str, str], sentence_map: Mapping[str, Mapping[str, Entry]] = SENTENCES
) -> str:
    """The docs/SENTENCES.md page: the counts, then every sentence of each document, then the gaps."""
    records = sentence_records(documents, sentence_map)
    lines = [
        "# Sentence map of the IBM documents",
        "",
        f"<!-- Generated file: do not edit. Regenerate with `{REGENERATE}`. -->",
        "",
        f"This file is generated by `{REGENERATE}` (run from the repository, with IBM's texts in "
        "`../shared/seeds/`) from the five IBM documents and the map in `reference_model/rules/sentences.py`, "
        "which ships with the package (the documents do not). `cfconform rules --coverage` prints the counts "
        "from the map alone; tests/meta/test_sentences.py checks the map against the documents and this file.",
        "",
        "Every sentence of each document is classified. A heading, a table row, a list item and a line of a CFRM "
        "statement each count as a sentence (`reference_model/rules/splitter.py`). The classes:",
        "",
        "- **normative (covered)**: the rules named enforce it; **normative (partial)**: they enforce part of it, "
        "and the why says what is not covered;",
        "- **ambiguous**: it admits the readings named (`reference_model/readings.py`, with the rules that follow "
        "them); the suite accepts each reading;",
        "- **informative**: it states no behaviour (a heading, navigation, background, advice): the why says which;",
        "- **out-of-scope**: it is about something outside CF shared queues (an operator procedure, z/OS, hardware);",
        "- **missing**: a normative sentence no rule enforces yet; the why starts `observable:` (what a rule "
        "would check) or `not observable:` (why the protocol, docs/PROTOCOL.md, cannot show it).",
        "",
        "Counts are of distinct sentences: a sentence repeated word for word in one document "
        "(`FULLTHRESHOLD(85)`) is one entry. `normative` = covered + partial + missing.",
        "",
        render_coverage_markdown(coverage_counts(sentence_map)),
        "",
    ]
    for doc in sorted(documents):
        lines += [f"## {_document_name(doc)}", ""]
        lines += _sentence_table([r for r in records if r["document"] == doc])
        lines.append("")
    lines += _gaps(records)
    return "\n".join(lines).rstrip("\n") + "\n"
