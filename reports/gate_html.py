"""The HTML gate report: one self-contained page (inline CSS, inline SVG plots, no scripts).

Pure (reports/README.md): a GateResult record in, text out; every text is escaped.
The text renderers it shares with are :mod:`cfconform.reports.gate_report`'s (Markdown, JUnit).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from cfconform.reference_model.rules import FAMILY_TITLES

from .gate_report import (
    Record,
    at_open,
    boundary_counts,
    by_family,
    cited,
    failure_title,
    headline,
    op_text,
    split_warnings,
    step_mark,
    summary_rows,
    value_text,
    where,
)
from .plot import render_usage_svg

CSS = """body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}h3{font-size:1.05em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;
vertical-align:top}th{background:#f3f3f3}td.n{text-align:right}code,pre{font:12px ui-monospace,monospace}
pre{background:#f6f6f6;padding:.5em;overflow:auto}.headline{font-size:1.2em;font-weight:bold;padding:.4em .8em;
display:inline-block;border-radius:4px}.exit0{background:#d4edda}.exit1,.exit2{background:#f8d7da}.exit3{background:#ffe0b3}
.v-pass{background:#d4edda}.v-fail{background:#f5a3a3;font-weight:bold}.v-known-deviation{background:#ffe9a8}
.v-not-claimed{background:#eee;color:#777}.v-not-reached{background:#fdf6d8}.v-static{background:#e4ecf7}
tr.diverges td{background:#fde2e2}.warn{color:#8a5300}.failure{border:1px solid #e0b4b4;border-radius:4px;
padding:0 1em 1em;margin:1em 0}"""


def _h(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _rows(rows: Sequence[Sequence[Any]], head: Sequence[str] = ()) -> str:
    top = "<tr>" + "".join(f"<th>{_h(c)}</th>" for c in head) + "</tr>" if head else ""
    return (
        "<table>"
        + top
        + "".join("<tr>" + "".join(f"<td>{_h(c)}</td>" for c in r) + "</tr>" for r in rows)
        + ("</table>")
    )


def _html_failure(n: int, f: Record) -> str:
    out = [f'<div class="failure"><h3>{n}. {_h(failure_title(f))}</h3><ul>']
    if f["kind"] == "fault":
        out.append(f"<li>Adapter fault: <code>{_h(f['observed'])}</code></li>")
    else:
        out += [
            f"<li>Rules: {_h(', '.join(f['rules']))}</li>",
            *([f"<li>Sentence: {_h(cited(f['rules'][0]))}</li>"] if f["rules"] else []),
            f"<li>First diverging step {_h(where(f).removeprefix('step '))}, field <code>{_h(f['field'])}</code></li>",
            f"<li>Expected: <code>{_h(value_text(f['expected']))}</code></li>",
            f"<li>Observed: <code>{_h(value_text(f['observed']))}</code></li>",
        ]
    if f.get("reproducer"):
        out.append(f"<li>Reproducer: <code>{_h(f['reproducer'])}</code></li>")
    if at_open(f):
        rules = _h(", ".join(f["rules"]))
        out.append(f"</ul><p>No operation: a configuration breaking {rules} must be refused at open.</p>")
        out.append("</div>")
        return "\n".join(out)
    out.append(f"</ul><p>Shrunk operations ({len(f['ops'])}):</p><table><tr><th>step</th><th>operation</th></tr>")
    for i, op in enumerate(f["ops"]):
        cls = ' class="diverges"' if i == f["step"] else ""
        out.append(f"<tr{cls}><td>{i}</td><td><code>{_h(op_text(op))}</code></td></tr>")
    out.append("</table>")
    out.append(
        render_usage_svg(
            f["usage_series"],
            f["thresholds"],
            f["step"],
            title=f"structure usage over the failing trace ({failure_title(f)})",
            mark=step_mark(f),
        )
    )
    if f["readings"]:
        out.append("<p>Readings the implementation followed:</p>")
        out.append(_rows([[k, ", ".join(v)] for k, v in sorted(f["readings"].items())], ("ambiguity", "readings")))
    out.append("</div>")
    return "\n".join(out)


def _sentence(rule_id: str) -> str:
    """The rule's quote and document (:func:`cfconform.reports.gate_report.cited` without the ID)."""
    return cited(rule_id).removeprefix(f"{rule_id}: ")


def render_html(record: Record) -> str:
    """report.html: one self-contained page (inline CSS and SVG; no scripts, no external assets)."""
    notes, _ = split_warnings(record)
    summary = summary_rows(record)
    title = f"cfconform gate: {record['adapter']}"
    out = [
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_h(title)}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>{_h(title)}</h1>",
        f'<p class="headline exit{_h(record["exit_code"])}">{_h(headline(record))}</p>',
        _rows(summary),
    ]
    if record["warnings"]:
        out.append(f"<h2>Warnings ({len(record['warnings'])})</h2><ul>")
        out += [f'<li class="warn">{_h(w)}</li>' for w in record["warnings"]]
        out.append("</ul>")
    if record["failures"]:
        out.append(f"<h2>Failures ({len(record['failures'])})</h2>")
        out += [_html_failure(n, f) for n, f in enumerate(record["failures"], 1)]
    out.append("<h2>Rule matrix</h2>")
    for fam, rows in by_family(record):
        out.append(
            f"<h3>{_h(fam)}: {_h(FAMILY_TITLES.get(fam, fam))}</h3><table><tr><th>rule</th><th>verdict</th>"
            "<th>steps</th><th>below</th><th>at</th><th>above</th><th>title</th><th>sentence</th><th>warnings</th></tr>"
        )
        for r in rows:
            cells = "".join(f'<td class="n">{_h(c)}</td>' for c in [r["steps"], *boundary_counts(r)])
            out.append(
                f'<tr><td>{_h(r["rule"])}</td><td class="v-{_h(r["verdict"])}">{_h(r["verdict"])}</td>'
                f'{cells}<td>{_h(r["title"])}</td><td class="quote">{_h(_sentence(r["rule"]))}</td>'
                f'<td class="warn">{_h("; ".join(notes.get(r["rule"], [])))}'
                "</td></tr>"
            )
        out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
