"""docs/RULES.md and ``cfconform rules`` render the catalogue."""

from __future__ import annotations

import json
from pathlib import Path

from cfconform.cli.main import main
from cfconform.reference_model.readings import AMBIGUITIES
from cfconform.reference_model.rules import RULES
from cfconform.reports.rules_doc import REGENERATE, render_rules_json, render_rules_markdown, render_rules_table

RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "RULES.md"


def test_rules_md_is_the_rendered_catalogue():
    actual = RULES_MD.read_text(encoding="utf-8") if RULES_MD.is_file() else ""
    assert render_rules_markdown(RULES) == actual, f"docs/RULES.md is stale; regenerate it with: {REGENERATE}"


def test_markdown_says_how_it_is_generated():
    assert REGENERATE in render_rules_markdown(RULES).splitlines()[2]


def test_markdown_lists_every_ambiguity():
    text = render_rules_markdown(RULES)
    assert [] == [a for a in AMBIGUITIES if f"| {a} " not in text]


def test_table_lists_every_rule_id():
    text = render_rules_table(RULES)
    assert [] == [r.id for r in RULES if r.id not in text]


def test_json_spells_out_readings_and_citation():
    record = next(r for r in json.loads(render_rules_json(RULES)) if r["id"] == "QDEPTH-006")
    expected = (["qfull_hi_flag"], "unchanged", {"quote", "source"})
    assert expected == (
        [a["id"] for a in record["readings"]],
        record["readings"][0]["default"],
        set(record["citation"]),
    )


def test_rules_command_prints_every_rule_id(capsys):
    code = main(["rules"])
    out = capsys.readouterr().out
    assert (0, []) == (code, [r.id for r in RULES if r.id not in out])


def test_rules_command_json_has_one_entry_per_rule(capsys):
    code = main(["rules", "--format", "json"])
    entries = json.loads(capsys.readouterr().out)
    assert (0, [r.id for r in RULES]) == (code, [e["id"] for e in entries])


def test_rules_command_markdown_equals_the_renderer(capsys):
    main(["rules", "--format", "markdown"])
    assert render_rules_markdown(RULES) == capsys.readouterr().out


def test_rules_command_family_filter_keeps_only_that_family(capsys):
    main(["rules", "--format", "json", "--family", "RECOVERY", "--family", "qdepth"])
    families = {e["family"] for e in json.loads(capsys.readouterr().out)}
    assert {"QDEPTH", "RECOVERY"} == families


def test_rules_command_status_filter_keeps_only_that_status(capsys):
    main(["rules", "--format", "json", "--status", "implementation-defined"])
    statuses = {e["status"] for e in json.loads(capsys.readouterr().out)}
    assert {"implementation-defined"} == statuses


def test_rules_command_unknown_family_exits_2_naming_the_families(capsys):
    code = main(["rules", "--family", "NOPE"])
    err = capsys.readouterr().err
    assert (2, True, True) == (code, "NOPE" in err, "CQS, OFFLOAD, CFLEVEL" in err)


def test_rules_command_unknown_status_exits_2(capsys):
    code = main(["rules", "--status", "maybe"])
    assert (2, True) == (code, "normative" in capsys.readouterr().err)
