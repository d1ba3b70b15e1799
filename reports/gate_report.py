"""Renderers of a gate result: Markdown and JUnit XML, and the pieces the HTML page shares.

Pure functions (reports/README.md) from a :class:`~cfconform.judge.results.GateResult`
*record* (``GateResult.to_record()``, or a line of results.jsonl) to text: no
file I/O, no clock.  ``cfconform run`` writes report.md, junit.xml and
report.html with them and :func:`cfconform.reports.gate_html.render_html`.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from typing import Any

from tabulate import tabulate

from cfconform.judge.results import VERDICTS
from cfconform.reference_model.rules import FAMILIES, FAMILY_TITLES, RULE_BY_ID

Record = Mapping[str, Any]
HEADLINES = {
    0: "CONFORMS", 1: "DOES NOT CONFORM", 2: "CONFIGURATION ERROR", 3: "ADAPTER ERROR", 4: "NOTHING JUDGED"
}  # fmt: skip
SKIPPED = {
    "not-claimed": "family or profile not claimed by the adapter",
    "not-reached": "claimed but never exercised",
    "static": "checked by configuration, or implementation-defined: not judged by traces",
}


# -- shared helpers ------------------------------------------------------------------------
def value_text(value: Any) -> str:
    """A value as compact, key-sorted JSON (how expected/observed are shown everywhere)."""
    return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)


def headline(record: Record) -> str:
    return f"{HEADLINES.get(record['exit_code'], 'UNKNOWN')} (exit {record['exit_code']})"


def verdict_counts(record: Record) -> dict[str, int]:
    """Rules per verdict, in :data:`VERDICTS` order."""
    return {v: sum(1 for r in record["rules"] if r["verdict"] == v) for v in VERDICTS}


def counts_text(record: Record) -> str:
    return ", ".join(f"{n} {v}" for v, n in verdict_counts(record).items())


def split_warnings(record: Record) -> tuple[dict[str, list[str]], list[str]]:
    """Warnings by rule ID (``"RULE: ..."``), and the others (run errors, ...)."""
    ids = {r["rule"] for r in record["rules"]}
    by_rule: dict[str, list[str]] = {}
    other = []
    for w in record["warnings"]:
        head, sep, rest = w.partition(": ")
        if sep and head in ids:
            by_rule.setdefault(head, []).append(rest)
        else:
            other.append(w)
    return by_rule, other


def gate_failing(note: str) -> bool:
    """A rule warning that fails the gate although the rule passed (unexpected pass, expired deviation)."""
    return "unexpected pass" in note or "known deviation expired" in note


def op_text(op: Mapping[str, Any]) -> str:
    """An operation record as ``kind key=value ...``."""
    return " ".join([str(op.get("op", "?"))] + [f"{k}={v}" for k, v in op.items() if k != "op"])


def step_mark(f: Record) -> str:
    """What happened at the failing step: ``diverges`` or ``adapter fault``."""
    return "adapter fault" if f["kind"] == "fault" else "diverges"


def at_open(f: Record) -> bool:
    """Whether the failure is a configuration a sentence forbids, opened (judge/opening.py)."""
    return f["kind"] != "fault" and str(f["field"]).startswith("open.")


def where(f: Record) -> str:
    """``step N``, or ``open`` for a forbidden configuration the implementation opened."""
    return "open" if at_open(f) else f"step {f['step']}"


def failure_title(f: Record) -> str:
    if f["kind"] == "fault":
        return f"adapter fault ({f['profile']} profile, step {f['step']})"
    return f"{f['rules'][0] if f['rules'] else '?'} ({f['profile']} profile, {where(f)}, field {f['field']})"


def failure_summary(f: Record) -> str:
    """One line: where and how the implementation departed."""
    if f["kind"] == "fault":
        return f"{f['profile']}: adapter fault at step {f['step']}: {f['observed']}"
    return (
        f"{f['profile']}: {where(f)}: {f['field']} expected {value_text(f['expected'])}, "
        f"observed {value_text(f['observed'])} [{', '.join(f['rules'])}]"
    )


def cited(rule_id: str) -> str:
    """The sentence a rule enforces and the IBM document it comes from, for users:
    ``RULE-ID: “quote” (document)``; the bare ID for a rule not in the catalogue."""
    rule = RULE_BY_ID.get(rule_id)
    if rule is None:
        return rule_id
    return f"{rule_id}: “{' '.join(rule.citation.quote.split())}” ({rule.citation.document})"


def failure_detail(f: Record) -> str:
    """Plain-text detail of a failure (JUnit bodies, pytest messages): the narrowest rule's sentence first."""
    lines = [failure_summary(f)]
    if f["kind"] != "fault" and f["rules"]:
        lines.append(f"sentence: {cited(f['rules'][0])}")
    if f.get("reproducer"):
        lines.append(f"reproducer: {f['reproducer']}")
    lines.append(f"shrunk trace ({len(f['ops'])} operations):")
    mark = f" <- {step_mark(f)}"
    lines += [f"  {i}{mark if i == f['step'] else ''}: {op_text(op)}" for i, op in enumerate(f["ops"])]
    return "\n".join(lines)


def _profile_problems(record: Record) -> list[tuple[str, str, str]]:
    """``(name, type, message)`` for adapter faults and profile-level run errors (flaky runs)."""
    out = [
        (f"adapter[{f['profile']}]", "adapter-fault", failure_detail(f))
        for f in record["failures"]
        if f["kind"] == "fault"
    ]
    for w in split_warnings(record)[1]:
        head, sep, rest = w.partition(": ")
        if sep and head in record["profiles"]:
            out.append((f"run[{head}]", "run-error", rest))
    return out


def by_family(record: Record) -> list[tuple[str, list[Record]]]:
    return [(fam, rows) for fam in FAMILIES if (rows := [r for r in record["rules"] if r["family"] == fam])]


def boundary_counts(r: Record) -> list[str]:
    return [str(r["boundaries"].get(k, 0)) for k in ("below", "at", "above")]


# -- Markdown ----------------------------------------------------------------------------
def _md(text: Any) -> str:
    """Markdown text outside code spans: angle brackets escaped so no HTML gets through."""
    return str(text).replace("<", "&lt;").replace(">", "&gt;")


def _cell(text: Any) -> str:
    return _md(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    return tabulate(
        [[_cell(c) for c in row] for row in rows], headers=list(headers), tablefmt="github", disable_numparse=True
    )


def _code(text: str) -> str:
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def _md_failure(n: int, f: Record) -> list[str]:
    lines = [f"### {n}. {_md(failure_title(f))}", ""]
    if f["kind"] == "fault":
        lines += [f"- Adapter fault: {_code(str(f['observed']))}"]
    else:
        lines += [
            f"- Rules: {', '.join(f['rules'])}",
            f"- First diverging step: {where(f).removeprefix('step ')}, field {_code(f['field'])}",
            f"- Expected: {_code(value_text(f['expected']))}",
            f"- Observed: {_code(value_text(f['observed']))}",
        ]
    if f.get("reproducer"):
        lines.append(f"- Reproducer: {_code(f['reproducer'])}")
    rows = [
        [
            f"{i} ◀ {step_mark(f)}" if i == f["step"] else str(i),
            op.get("op", "?"),
            " ".join(f"{k}={v}" for k, v in op.items() if k != "op"),
        ]
        for i, op in enumerate(f["ops"])
    ]
    if at_open(f):
        lines += ["", f"No operation: a configuration breaking {', '.join(f['rules'])} must be refused at open.", ""]
    else:
        lines += ["", f"Shrunk operations ({len(f['ops'])}):", "", _table(("step", "operation", "arguments"), rows), ""]
    if f["readings"]:
        lines += [
            "Readings the implementation followed:",
            "",
            _table(("ambiguity", "readings"), [[k, ", ".join(v)] for k, v in sorted(f["readings"].items())]),
            "",
        ]
    return lines


def summary_rows(record: Record) -> list[list[object]]:
    """The run's summary as (label, value) rows, shared by the Markdown and HTML reports."""
    return [
        ["adapter", record["adapter"]],
        ["profiles", ", ".join(record["profiles"]) or "none"],
        ["Hypothesis profile", record["hypothesis_profile"]],
        ["seed", record["seed"]],
        ["started", record["started"] or "-"],
        ["seconds", record["seconds"]],
        ["cases / steps", f"{record['cases']} / {record['steps']}"],
        ["verdicts", counts_text(record)],
    ]


def render_markdown(record: Record) -> str:
    """report.md: summary, warnings, failures (with shrunk traces) and the per-rule matrix by family."""
    notes, _ = split_warnings(record)
    summary = summary_rows(record)
    lines = [
        f"# cfconform gate: {_md(record['adapter'])}",
        "",
        f"**{headline(record)}**",
        "",
        _table(("", ""), summary),
        "",
    ]
    if record["warnings"]:
        lines += [f"## Warnings ({len(record['warnings'])})", ""] + [f"- {_cell(w)}" for w in record["warnings"]]
        lines.append("")
    if record["failures"]:
        lines += [f"## Failures ({len(record['failures'])})", ""]
        for n, f in enumerate(record["failures"], 1):
            lines += _md_failure(n, f)
    lines += ["## Rule matrix", ""]
    for fam, rows in by_family(record):
        lines += [f"### {fam}: {FAMILY_TITLES.get(fam, fam)}", ""]
        table = [
            [r["rule"], r["verdict"], r["steps"], *boundary_counts(r), "; ".join(notes.get(r["rule"], []))]
            for r in rows
        ]
        lines += [_table(("rule", "verdict", "steps", "below", "at", "above", "warnings"), table), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


# -- JUnit -------------------------------------------------------------------------------
def render_junit(record: Record) -> str:
    """junit.xml: one testcase per rule (failures, skips, deviations as passes with a warning).

    Adapter faults and profile-level run errors get one extra ``<error>`` testcase each
    (classname ``cfconform.gate``), so a crash is never reported as all-green.
    """
    notes, other = split_warnings(record)
    failing = {rule for f in record["failures"] for rule in f["rules"]}
    suite = ET.Element("testsuite", name=f"cfconform[{record['adapter']}]")
    props = ET.SubElement(suite, "properties")
    for key in ("adapter", "hypothesis_profile", "seed", "cases", "steps", "exit_code"):
        ET.SubElement(props, "property", name=key, value=str(record[key]))
    ET.SubElement(props, "property", name="profiles", value=",".join(record["profiles"]))
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for r in record["rules"]:
        case = ET.SubElement(suite, "testcase", classname=f"cfconform.{r['family']}", name=r["rule"], time="0")
        counts["tests"] += 1
        rule_notes = notes.get(r["rule"], [])
        bad_notes = [n for n in rule_notes if gate_failing(n)]
        if r["verdict"] == "fail" or bad_notes:
            counts["failures"] += 1
            found = [f for f in record["failures"] if r["rule"] in f["rules"]]
            if r["verdict"] == "fail" and found:
                el = ET.SubElement(case, "failure", message=failure_summary(found[0]), type="divergence")
                el.text = failure_detail(found[0])
            else:
                ET.SubElement(case, "failure", message="; ".join(bad_notes or ["failed"]), type="deviation")
        elif r["verdict"] in SKIPPED:
            counts["skipped"] += 1
            ET.SubElement(case, "skipped", message=f"{r['verdict']}: {SKIPPED[r['verdict']]}")
        elif r["verdict"] == "known-deviation" and r["rule"] in failing:
            ET.SubElement(case, "system-out").text = "WARNING: " + "; ".join(rule_notes or ["known deviation"])
        elif rule_notes:
            ET.SubElement(case, "system-out").text = "WARNING: " + "; ".join(rule_notes)
    for name, kind, message in _profile_problems(record):
        case = ET.SubElement(suite, "testcase", classname="cfconform.gate", name=name, time="0")
        ET.SubElement(case, "error", message=message.splitlines()[0], type=kind).text = message
        counts["tests"] += 1
        counts["errors"] += 1
    if other:
        ET.SubElement(suite, "system-out").text = "\n".join(other)
    for key, value in counts.items():
        suite.set(key, str(value))
    suite.set("time", str(record["seconds"]))
    if record["started"]:
        suite.set("timestamp", record["started"])
    root = ET.Element(
        "testsuites", name="cfconform", **{k: str(v) for k, v in counts.items()}, time=str(record["seconds"])
    )
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
