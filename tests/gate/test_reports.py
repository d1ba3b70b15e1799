"""The gate report renderers (reports/gate_report.py): golden files, JUnit structure, HTML plots, escaping.

The goldens in tests/golden/ are rendered from the hand-made record tests/golden/gate_record.json.
After an intended change to a renderer, regenerate them and check the diff by eye:

    CFCONFORM_UPDATE_GOLDEN=1 .venv/bin/pytest tests/gate/test_reports.py
"""

from __future__ import annotations

import copy
import html
import json
import os
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from cfconform.judge.results import from_record
from cfconform.reference_model.rules import rule
from cfconform.reports.gate_html import render_html
from cfconform.reports.gate_report import render_junit, render_markdown
from cfconform.reports.plot import render_usage_svg

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
REGENERATE = "CFCONFORM_UPDATE_GOLDEN=1 .venv/bin/pytest tests/gate/test_reports.py"
RENDERERS = {"gate_report.md": render_markdown, "gate_report.html": render_html, "gate_junit.xml": render_junit}


@pytest.fixture
def record() -> dict[str, Any]:
    return json.loads((GOLDEN / "gate_record.json").read_text(encoding="utf-8"))


def test_golden_record_is_a_valid_gate_result(record):
    assert record == json.loads(json.dumps(from_record(record).to_record()))


@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_renderer_matches_golden_file(record, name):
    text = RENDERERS[name](record)
    path = GOLDEN / name
    if os.environ.get("CFCONFORM_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"{name} differs from its golden file; if intended: {REGENERATE}"


@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_renderers_are_pure_and_do_not_modify_the_record(record, name):
    before = copy.deepcopy(record)
    assert RENDERERS[name](record) == RENDERERS[name](record)
    assert before == record


def test_junit_has_one_testcase_per_rule_plus_one_error_per_fault_or_run_error(record):
    suite = ET.fromstring(render_junit(record)).find("testsuite")
    rule_cases = [c for c in suite.iter("testcase") if c.get("classname") != "cfconform.gate"]
    extra = [c.get("name") for c in suite.iter("testcase") if c.get("classname") == "cfconform.gate"]
    assert [r["rule"] for r in record["rules"]] == [c.get("name") for c in rule_cases]
    assert ["adapter[cqs]", "run[cqs]"] == extra
    assert str(len(rule_cases) + len(extra)) == suite.get("tests")


def test_junit_maps_each_verdict(record):
    cases = {c.get("name"): c for c in ET.fromstring(render_junit(record)).iter("testcase")}
    failure = cases["OFFLOAD-002"].find("failure")
    assert "offloaded expected true, observed false" in failure.get("message")
    assert "3 <- diverges: put" in failure.text
    assert "not-reached: claimed but never exercised" == cases["CQS-001"].find("skipped").get("message")
    assert cases["CFLEVEL-001"].find("skipped").get("message").startswith("not-claimed")
    assert cases["SIZING-001"].find("skipped").get("message").startswith("static")
    assert cases["QDEPTH-001"].find("failure") is None
    assert "known deviation" in cases["QDEPTH-001"].find("system-out").text
    assert "unexpected pass" in cases["QUEUE-001"].find("failure").get("message")
    assert [] == list(cases["OFFLOAD-001"])
    assert 'RuntimeError: queue <Q1> & "friends" crashed' in cases["adapter[cqs]"].find("error").get("message")


def test_markdown_names_every_failure_with_rules_step_field_and_shrunk_ops(record):
    text = render_markdown(record)
    assert "### 1. OFFLOAD-002 (mq profile, step 3, field offloaded)" in text
    assert "- Expected: `true`" in text and "- Observed: `false`" in text
    assert "| 3 ◀ diverges | put" in text
    assert "| offload_usage_metric | max, elements |" in text
    assert "### QDEPTH: Queue depth events" in text
    assert "&lt;impl&gt;" in text.splitlines()[0]


class _Checker(HTMLParser):
    """Collects start tags and checks that every non-void element is closed in order."""

    VOID = frozenset({"meta", "br", "hr", "img", "input", "link"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.tags: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.tags.append(tag)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: Any) -> None:
        self.tags.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(tag)


def test_html_is_self_contained_well_nested_and_has_one_svg_per_failure(record):
    html = render_html(record)
    checker = _Checker()
    checker.feed(html)
    assert [] == checker.errors and [] == checker.stack
    assert len(record["failures"]) == html.count("<svg")
    assert "script" not in checker.tags and "link" not in checker.tags
    assert not re.search(r"""(src|href)=["']?https?:""", html)


def test_html_escapes_every_text(record):
    html = render_html(record)
    assert "<impl>" not in html and "<Q1>" not in html and "<ISSUE-12>" not in html
    assert "demo &lt;impl&gt; &amp; co" in html


def test_html_colours_verdicts(record):
    html = render_html(record)
    for verdict in ("pass", "fail", "known-deviation", "not-claimed", "not-reached", "static"):
        assert f'class="v-{verdict}"' in html
        assert f".v-{verdict}{{" in html


def test_usage_plot_has_a_polyline_per_structure_a_dashed_line_per_threshold_and_the_step_marked():
    svg = render_usage_svg(
        {"APP1": [10, 50, 75], "APP2": [0, 0, 5]},
        {"APP1": {"OFFLD1TH": 70, "FULLTHRESHOLD": 80}, "APP2": {"FULLTHRESHOLD": 85}},
        step=2,
    )
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert 2 == len(root.findall(f"{ns}polyline"))
    assert 3 == len([e for e in root.findall(f"{ns}line") if e.get("stroke-dasharray") == "5 3"])
    texts = ["".join(t.itertext()) for t in root.findall(f"{ns}text")]
    assert "step 2 diverges" in texts
    assert {"APP1 OFFLD1TH 70%", "APP1 FULLTHRESHOLD 80%", "APP2 FULLTHRESHOLD 85%"} <= set(texts)


def test_usage_plot_clamps_values_to_the_0_to_100_axis():
    svg = render_usage_svg({"S": [-5.0, 150.0]}, {}, step=None)
    points = ET.fromstring(svg).find("{http://www.w3.org/2000/svg}polyline").get("points")
    ys = [float(p.split(",")[1]) for p in points.split()]
    assert min(ys) >= 0 and max(ys) <= 260


def test_every_rule_row_of_the_html_matrix_cites_its_quote_and_ibm_document(record):
    rows = {m.group(1): m.group(0) for m in re.finditer(r"<tr><td>([A-Z]+-\d{3})</td>.*?</tr>", render_html(record))}
    assert sorted(rows) == sorted(r["rule"] for r in record["rules"])
    for rule_id, row in rows.items():
        citation = rule(rule_id).citation
        text = html.unescape(row)
        assert f"“{citation.quote}”" in text and f"({citation.document})" in text, rule_id


@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_no_renderer_names_an_internal_source_file(record, name):
    text = RENDERERS[name](record)
    assert not re.search(r"\d{3}_[0-9a-f]{16}|\.txt\b|seeds/", text), name


def test_cases_not_judged_are_one_warning_per_profile_summed_over_its_runs():
    """A profile runs again after each failure: its refused operations are one warning, summed."""
    from cfconform.conformance.gate import _not_judged
    from cfconform.properties.run import MachineRun

    def run(profile: str, refused: dict[str, int]) -> MachineRun:
        return MachineRun(profile, 1, 10, 100, 1.0, {}, {}, None, refused=refused)

    runs = [run("cqs", {"open": 110, "define_structure": 21}), run("cqs", {"open": 79, "define_structure": 29}),
            run("mq", {})]  # fmt: skip
    assert [
        "cqs: 239 test cases ended at an operation the implementation does not support (define_structure x50, "
        "open x189); what only those operations reach was not checked"
    ] == _not_judged("cqs", runs)
    assert [] == _not_judged("mq", runs)
