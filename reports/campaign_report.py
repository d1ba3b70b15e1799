"""Renderers of a Spark fuzz campaign: report.md, report.html, the CLI summary and ``cfconform diff``.

Pure (reports/README.md): the campaign's summary record (``OUT/summary.json``, built by
:func:`cfconform.spark_fuzz.job.run_campaign`) or a diff record (:func:`cfconform.spark_fuzz.job.diff_campaigns`)
in, text out; no file I/O, no clock, no Spark.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from tabulate import tabulate

from cfconform.reference_model.rules import RULES

Record = Mapping[str, Any]
HEADLINES = {0: "NO DIVERGENCE FOUND", 1: "DIVERGENCES FOUND", 2: "CONFIGURATION ERROR", 3: "ADAPTER FAULTS FOUND",
             4: "NOTHING JUDGED (no claimed rule decided a step)"}  # fmt: skip
DIFF_TITLES = {
    "new": "New failures (fail in B, passed in A)",
    "fixed": "Fixed failures (failed in A, pass in B)",
    "changed": "Changed failures (fail in both, differently)",
}


# -- shared -------------------------------------------------------------------------------------------
def headline(summary: Record) -> str:
    if not summary.get("complete", True):
        return f"INCOMPLETE ({summary['blocks_done']}/{summary['blocks_total']} blocks; rerun to resume)"
    code = summary["exit_code"]
    return f"{HEADLINES.get(code, 'UNKNOWN')} (exit {code})"


def coverage_rows(summary: Record) -> list[tuple[str, str, int]]:
    """``(rule, title, steps decided)`` for every catalogue rule of the campaign's profiles, then any other."""
    counts = {c["rule"]: int(c["count"]) for c in summary.get("coverage", ())}
    profiles = set(summary["identity"]["profiles"])
    rows = [(r.id, r.title, counts.pop(r.id, 0)) for r in RULES if profiles & set(r.profiles)]
    rows += [(rule, "", n) for rule, n in sorted(counts.items())]
    return rows


def _example(sig: Record) -> str:
    return f"trace {sig['trace']} (seed {sig['seed']}, {sig['profile']})"


def _minimised(sig: Record) -> str:
    t = sig.get("triage")
    if t is None:
        return "not triaged"
    if not t["reproduced"]:
        return "did not reproduce"
    shown = t.get("minimised_signature")
    shown_as = f" (shown as {shown})" if shown and shown != sig["signature"] else ""
    return f"{t['original_length']} -> {t['minimised_length']} steps{shown_as}"


def _facts(summary: Record) -> list[tuple[str, str]]:
    ident, run = summary["identity"], summary.get("run", {})
    tot = summary.get("totals", {})
    caps = summary.get("capabilities", {})
    facts = [
        ("campaign", summary["campaign_id"]),
        ("adapter", f"{summary['adapter']} ({caps.get('name', '?')})"),
        ("traces", f"{ident['traces']:,} x {ident['steps']} steps, seed {ident['seed']}, "
                   f"profiles {', '.join(ident['profiles'])}"),
        ("blocks", f"{summary['blocks_total']} of {ident['block_size']} traces"),
    ]  # fmt: skip
    if tot:
        facts += [
            ("checked steps", f"{int(tot['steps']):,}"),
            ("failures", f"{int(tot['divergences']):,} divergences, {int(tot['faults']):,} adapter faults, "
                         f"{len(summary.get('signatures', ()))} signatures"),
        ]  # fmt: skip
    if run:
        facts.append(("this run", _throughput_text(run)))
    facts += [("started", summary.get("started", "")), ("finished", summary.get("finished", "")),
              ("output", summary.get("out", ""))]  # fmt: skip
    versions = summary.get("versions") or {}
    if versions:
        facts.append(("versions", ", ".join(f"{k} {v}" for k, v in sorted(versions.items()))))
    return facts


def _throughput_text(run: Record) -> str:
    if not run.get("blocks"):
        return "nothing computed (every block was already done)" + (" (resumed)" if run.get("resumed") else "")
    text = f"{run['blocks']} blocks, {int(run['traces']):,} traces in {run['compute_seconds']:.1f} s"
    if "traces_per_second" in run:
        text += f": {run['traces_per_second']:,.0f} traces/s, {run['steps_per_second']:,.0f} steps/s"
    return text + (" (resumed)" if run.get("resumed") else "")


def _md(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


# -- Markdown -----------------------------------------------------------------------------------------
def render_markdown(summary: Record) -> str:
    """report.md: headline, facts, signatures with reproducers and replay commands, coverage, throughput."""
    lines = [f"# cfconform campaign {summary['campaign_id']}", "", f"**{headline(summary)}**", ""]
    lines += [f"- {k}: {_md(v)}" for k, v in _facts(summary)]
    sigs = summary.get("signatures", [])
    lines += ["", "## Failure signatures", ""]
    if not sigs:
        lines.append("No divergence and no adapter fault.")
    else:
        rows = [
            (n, f"`{_md(s['signature'])}`", s["kind"], s["count"], _md(", ".join(s["rules"]) or "-"), _md(s["field"]),
             s["op"], _md(_example(s)), s["trace_length"], _md(_minimised(s)))
            for n, s in enumerate(sigs, 1)
        ]  # fmt: skip
        head = ("#", "signature", "kind", "count", "rules", "field", "op", "shortest example", "steps", "minimised")
        lines.append(tabulate(rows, head, tablefmt="github", disable_numparse=True))
        lines += ["", "### Reproducers", ""]
        for n, s in enumerate(sigs, 1):
            t = s.get("triage") or {}
            if t.get("reproducer"):
                lines += [f"{n}. `{s['signature']}`: `{t['reproducer']}`", "", "   ```sh",
                          f"   {t['replay']}", "   ```", ""]  # fmt: skip
            else:
                lines += [f"{n}. `{s['signature']}`: no reproducer ({_minimised(s)})", ""]
    if "totals" in summary:
        lines += [
            "" if lines[-1] else None,
            "## Rule coverage",
            "",
            "Checked steps each rule decided (0: never exercised).",
            "",
        ]
        rows = [(rule, _md(title), n) for rule, title, n in coverage_rows(summary)]
        lines.append(tabulate(rows, ("rule", "title", "steps"), tablefmt="github", disable_numparse=True))
        lines += ["", "## Throughput", ""]
        lines.append(tabulate(_throughput_rows(summary), ("measure", "value"), tablefmt="github",
                              disable_numparse=True))  # fmt: skip
    return "\n".join(line for line in lines if line is not None).rstrip("\n") + "\n"


def _throughput_rows(summary: Record) -> list[tuple[str, str]]:
    run, tot = summary.get("run", {}), summary.get("totals", {})
    rows = [
        ("blocks computed this run", f"{run.get('blocks', 0)} of {summary['blocks_total']}"),
        ("traces this run", f"{int(run.get('traces', 0)):,}"),
        ("compute seconds (wall)", f"{run.get('compute_seconds', 0):.2f}"),
        ("traces/s", f"{run.get('traces_per_second', 0):,.1f}"),
        ("checked steps/s", f"{run.get('steps_per_second', 0):,.1f}"),
        ("block seconds (sum over the campaign)", f"{tot.get('block_seconds', 0):,.2f}"),
        ("elapsed seconds incl. consolidation and triage", f"{run.get('elapsed_seconds', 0):.2f}"),
    ]  # fmt: skip
    return rows


# -- HTML ---------------------------------------------------------------------------------------------
CSS = """body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:1100px;color:#222;padding:0 1em}
h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}th{background:#f3f3f3}
td.n{text-align:right}code,pre{font:12px ui-monospace,monospace}pre{background:#f6f6f6;padding:.5em;overflow:auto}
.headline{font-size:1.2em;font-weight:bold;padding:.4em .8em;display:inline-block;border-radius:4px}
.exit0{background:#d4edda}.exit1,.exit2{background:#f8d7da}.exit3{background:#ffe0b3}tr.zero td{color:#8a5300}"""


def _h(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]], classes: Sequence[str] = ()) -> str:
    out = ["<table><tr>" + "".join(f"<th>{_h(c)}</th>" for c in head) + "</tr>"]
    for i, row in enumerate(rows):
        cls = f' class="{classes[i]}"' if i < len(classes) and classes[i] else ""
        cells = "".join(f'<td class="n">{_h(c)}</td>' if isinstance(c, int) else f"<td>{_h(c)}</td>" for c in row)
        out.append(f"<tr{cls}>{cells}</tr>")
    return "".join(out) + "</table>"


def render_html(summary: Record) -> str:
    """report.html: one self-contained page (inline CSS, no scripts), every text escaped."""
    code = summary.get("exit_code", 0) if summary.get("complete", True) else 2
    out = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>cfconform campaign {_h(summary['campaign_id'])}</title><style>{CSS}</style></head><body>",
        f"<h1>cfconform campaign {_h(summary['campaign_id'])}</h1>",
        f'<p class="headline exit{_h(code)}">{_h(headline(summary))}</p>',
        _table(("", ""), _facts(summary)), "<h2>Failure signatures</h2>",
    ]  # fmt: skip
    sigs = summary.get("signatures", [])
    if not sigs:
        out.append("<p>No divergence and no adapter fault.</p>")
    else:
        rows = [(n, s["signature"], s["kind"], int(s["count"]), ", ".join(s["rules"]) or "-", s["field"], s["op"],
                 _example(s), int(s["trace_length"]), _minimised(s)) for n, s in enumerate(sigs, 1)]  # fmt: skip
        out.append(_table(("#", "signature", "kind", "count", "rules", "field", "op", "shortest example", "steps",
                           "minimised"), rows))  # fmt: skip
        out.append("<h3>Reproducers</h3><ol>")
        for s in sigs:
            t = s.get("triage") or {}
            if t.get("reproducer"):
                out.append(f"<li><code>{_h(s['signature'])}</code>: <code>{_h(t['reproducer'])}</code>"
                           f"<pre>{_h(t['replay'])}</pre></li>")  # fmt: skip
            else:
                out.append(f"<li><code>{_h(s['signature'])}</code>: no reproducer ({_h(_minimised(s))})</li>")
        out.append("</ol>")
    if "totals" in summary:
        cov = coverage_rows(summary)
        out.append("<h2>Rule coverage</h2><p>Checked steps each rule decided (0: never exercised).</p>")
        out.append(_table(("rule", "title", "steps"), [(r, t, n) for r, t, n in cov],
                          ["zero" if n == 0 else "" for _, _, n in cov]))  # fmt: skip
        out.append("<h2>Throughput</h2>" + _table(("measure", "value"), _throughput_rows(summary)))
    out.append("</body></html>")
    return "\n".join(out) + "\n"


# -- the CLI summary ----------------------------------------------------------------------------------
def render_summary_text(summary: Record) -> str:
    """What ``cfconform fuzz`` prints on stdout when it finishes."""
    lines = [f"cfconform fuzz: {headline(summary)}"]
    lines += [f"  {k}: {v}" for k, v in _facts(summary)]
    for n, s in enumerate(summary.get("signatures", []), 1):
        lines.append(f"{n}. {s['signature']}  x{s['count']}  shortest: {_example(s)}, {s['trace_length']} steps; "
                     f"{_minimised(s)}")  # fmt: skip
        t = s.get("triage") or {}
        if t.get("reproducer"):
            lines.append(f"   reproducer: {t['reproducer']}")
            lines.append(f"   replay: {t['replay']}")
    if summary.get("complete", True) and "totals" in summary:
        out = summary.get("out", ".")
        lines.append(f"reports: {out}/report.md, {out}/report.html; tables: {out}/{{divergences,coverage,blocks,meta}}")
    return "\n".join(lines) + "\n"


# -- cfconform diff -----------------------------------------------------------------------------------
def render_diff_text(record: Record) -> str:
    """``cfconform diff``: counts, then per status a table by signature and a table of example traces."""
    a, b = record["a"], record["b"]
    lines = [f"A: {a['out']} ({a['identity']['adapter']}, {a['identity']['traces']:,} traces, seed "
             f"{a['identity']['seed']})",
             f"B: {b['out']} ({b['identity']['adapter']}, {b['identity']['traces']:,} traces, seed "
             f"{b['identity']['seed']})"]  # fmt: skip
    lines += [f"warning: {w}" for w in record.get("warnings", ())]
    counts = record["counts"]
    lines += ["", tabulate([(s, counts.get(s, 0)) for s in counts], ("status", "failing traces"),
                           disable_numparse=True)]  # fmt: skip
    for status, title in DIFF_TITLES.items():
        lines += ["", f"{title}: {counts.get(status, 0)}"]
        groups = [g for g in record["by_signature"] if g["status"] == status]
        if not groups:
            continue
        lines.append(tabulate([(g["a_signature"] or "-", g["b_signature"] or "-", g["count"]) for g in groups],
                              ("signature in A", "signature in B", "traces"), disable_numparse=True))  # fmt: skip
        examples = record["examples"].get(status, [])
        if examples:
            lines.append(f"examples (first {len(examples)} by seed):")
            rows = [(e["seed"], e["profile"], _opt(e.get("a_step")), e.get("a_signature") or "-", _opt(e.get("b_step")),
                     e.get("b_signature") or "-") for e in examples]  # fmt: skip
            lines.append(tabulate(rows, ("seed", "profile", "A step", "A signature", "B step", "B signature"),
                                  disable_numparse=True))  # fmt: skip
    return "\n".join(lines) + "\n"


def _opt(value: Any) -> str:
    return "-" if value is None else str(value)
