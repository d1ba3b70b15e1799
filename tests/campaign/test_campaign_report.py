"""The campaign report and diff renderers (pure)."""

from cfconform.reference_model.rules import RULES
from cfconform.reports.campaign_report import (
    coverage_rows,
    render_diff_text,
    render_html,
    render_markdown,
    render_summary_text,
)

SUMMARY = {
    "format": "cfconform-campaign-summary", "campaign_id": "abc123", "out": "/tmp/c", "adapter": "mutant:M-X",
    "capabilities": {"name": "M-X", "profiles": ["mq"]},
    "identity": {"adapter": "mutant:M-X", "traces": 1000, "steps": 20, "seed": 0, "profiles": ["mq"],
                 "block_size": 100, "full_traces": False},
    "arguments": {}, "started": "2026-01-01T00:00:00+00:00", "finished": "2026-01-01T00:01:00+00:00",
    "versions": {"cfconform": "0.1.0", "pyspark": "4.0"}, "complete": True, "blocks_total": 10, "blocks_done": 10,
    "run": {"blocks": 10, "traces": 1000, "resumed": False, "compute_seconds": 2.0, "steps": 19000,
            "elapsed_seconds": 3.0, "traces_per_second": 500.0, "steps_per_second": 9500.0},
    "totals": {"blocks": 10, "traces": 1000, "steps": 19000, "divergences": 7, "faults": 0, "block_seconds": 3.5},
    "coverage": [{"rule": "QUEUE-001", "count": 123}, {"rule": "ZZZ-999", "count": 1}],
    "signatures": [
        {"signature": "CFLEVEL-003+CFLEVEL-008|reason|put", "count": 7, "kind": "divergence",
         "rules": ["CFLEVEL-003", "CFLEVEL-008"], "field": "reason", "op": "put", "trace": 4, "seed": 4,
         "profile": "mq", "step": 0, "trace_length": 1,
         "triage": {"reproduced": True, "original_length": 1, "minimised_length": 1,
                    "reproducer": "/tmp/c/reproducers/CFLEVEL-003-1.json",
                    "replay": "cfconform replay /tmp/c/reproducers/CFLEVEL-003-1.json --adapter mutant:M-X"}},
        {"signature": "<b>|x|get", "count": 1, "kind": "divergence", "rules": ["QUEUE-001"], "field": "x",
         "op": "get", "trace": 8, "seed": 8, "profile": "mq", "step": 2, "trace_length": 3, "triage": None},
    ],
    "exit_code": 1,
}  # fmt: skip


def test_markdown_lists_signatures_reproducers_replay_commands_coverage_and_throughput():
    text = render_markdown(SUMMARY)
    assert text.startswith("# cfconform campaign abc123\n\n**DIVERGENCES FOUND (exit 1)**")
    assert "`CFLEVEL-003+CFLEVEL-008\\|reason\\|put`" in text
    assert "cfconform replay /tmp/c/reproducers/CFLEVEL-003-1.json --adapter mutant:M-X" in text
    assert "no reproducer (not triaged)" in text
    assert "## Rule coverage" in text and "| QUEUE-001 " in text and "| ZZZ-999 " in text
    assert "9,500.0" in text
    assert text.endswith("\n") and not text.endswith("\n\n")


def test_reports_are_deterministic():
    assert render_markdown(SUMMARY) == render_markdown(dict(SUMMARY))
    assert render_html(SUMMARY) == render_html(dict(SUMMARY))


def test_html_escapes_everything():
    page = render_html(SUMMARY)
    assert "&lt;b&gt;|x|get" in page and "<b>|x|get" not in page
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page


def test_coverage_lists_unexercised_rules_of_the_profile_with_zero():
    rows = coverage_rows(SUMMARY)
    counts = {rule: n for rule, _, n in rows}
    assert 123 == counts["QUEUE-001"] and 1 == counts["ZZZ-999"]
    assert 0 in counts.values()
    cqs_only = [r.id for r in RULES if r.profiles == ("cqs",)]
    assert cqs_only and not set(cqs_only) & set(counts)


def test_incomplete_campaign_headline():
    partial = {k: v for k, v in SUMMARY.items() if k not in ("totals", "signatures", "coverage")}
    partial |= {"complete": False, "blocks_done": 3}
    assert "INCOMPLETE (3/10 blocks; rerun to resume)" in render_summary_text(partial)
    assert "## Rule coverage" not in render_markdown(partial)


def test_diff_text_has_a_table_per_status():
    ident = SUMMARY["identity"]
    record = {
        "a": {"out": "A", "identity": ident}, "b": {"out": "B", "identity": ident | {"adapter": "reference"}},
        "counts": {"new": 0, "fixed": 2, "changed": 1, "same": 0, "not-compared": 0},
        "by_signature": [{"status": "fixed", "a_signature": "S1", "b_signature": None, "count": 2},
                         {"status": "changed", "a_signature": "S1", "b_signature": "S2", "count": 1}],
        "examples": {"new": [], "fixed": [{"seed": 1, "profile": "mq", "a_step": 0, "a_signature": "S1",
                                           "b_step": None, "b_signature": None}], "changed": []},
        "warnings": [], "limit": 20,
    }  # fmt: skip
    text = render_diff_text(record)
    assert "Fixed failures (failed in A, pass in B): 2" in text
    assert "Changed failures (fail in both, differently): 1" in text
    assert "New failures (fail in B, passed in A): 0" in text
    assert "S2" in text


def test_a_reproducer_shown_under_another_signature_says_which():
    shown = "CQS-014|signals|get"
    signature = {
        **SUMMARY["signatures"][0],
        "triage": {**SUMMARY["signatures"][0]["triage"], "minimised_signature": shown},
    }
    text = render_markdown({**SUMMARY, "signatures": [signature]})
    assert "1 -> 1 steps (shown as CQS-014\\|signals\\|get)" in text
