"""``cfconform run``: the conformance gate against one implementation, with reports and reproducers.

Examples::

    cfconform run --adapter reference
    cfconform run --adapter "wire:node examples/node-adapter/adapter.js" --profile mq --seed 7
    cfconform run --adapter mypkg.impl:MyAdapter --rules 'OFFLOAD-*' --deviations deviations.toml

Writes to ``--out`` (``--report-dir``; default ``cfconform-report/``): ``results.jsonl`` (one
GateResult record appended per run), ``report.md``, ``report.html``, ``junit.xml``
and, per failure, ``reproducers/<rule>-<hash>.json`` with a standalone
``reproducers/test_<rule>_<hash>.py``.  Exit codes: 0 conforms (with at least one rule
judged), 1 does not, 2 usage or configuration error (an unwritable ``--report-dir`` is found
before the implementation starts), 3 implementation or protocol error, 4 nothing judged (no rule
selected, claimed or reached).  Progress goes to stderr (``-q``: none).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import random
import shlex
import sys
from pathlib import Path
from typing import Any

import attrs

from cfconform.adapters.protocol import AdapterError
from cfconform.conformance.paths import unwritable
from cfconform.judge.results import GateResult

NAME = "run"
HELP = "run the conformance gate against an implementation; write reports and reproducers"
EXIT_USAGE, EXIT_ADAPTER = 2, 3
#: Warnings shown in full in the summary; hollow-pass warnings are counted, a few shown.
HOLLOW_SHOWN = 5
#: The longest wait for one wire reply (as ``cfconform fuzz``'s bound: an hour).
MAX_TIMEOUT = 3600.0


def timeout_seconds(text: str) -> float:
    """``--timeout``: seconds, above 0 and at most an hour (a usage error otherwise, not a hang or a crash)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= MAX_TIMEOUT:  # (NaN fails every comparison)
        raise argparse.ArgumentTypeError(f"seconds, above 0 and at most {MAX_TIMEOUT:g}, not {text!r}")
    return value


def positive_int(text: str) -> int:
    """A whole number of at least 1 (``--max-line-bytes``)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a whole number of at least 1, not {text!r}")
    return value


def format_name(text: str) -> str:
    """``--format``: ``table`` is the old name of ``text`` (still accepted, no longer shown)."""
    return "text" if text == "table" else text


def add_adapter_arguments(parser: argparse.ArgumentParser) -> None:
    """``--adapter`` / ``--adapter-cmd`` / ``--timeout`` (shared with ``cfconform replay``)."""
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument(
        "--adapter", metavar="SPEC", help="adapter name, module:attr, wire:COMMAND (a process) or mutant:ID"
    )
    group.add_argument("--adapter-cmd", metavar="CMD", help=argparse.SUPPRESS)  # old spelling of wire:CMD
    parser.add_argument(
        "--timeout", type=timeout_seconds, default=10.0, metavar="S", help="seconds per wire reply (10; at most 3600)"
    )


def configure(parser: argparse.ArgumentParser) -> None:
    add_adapter_arguments(parser)
    parser.add_argument("--profile", choices=("mq", "cqs"), action="append", help="profile (repeatable; default all)")
    parser.add_argument("--hypothesis-profile", choices=("dev", "ci", "nightly"), default="ci")
    parser.add_argument("--seed", type=int, help="Hypothesis seed (default: a random one, printed)")
    parser.add_argument("--rules", metavar="PATTERN[,PATTERN]", help="only these rule IDs (shell patterns)")
    parser.add_argument(
        "--out", dest="report_dir", default="cfconform-report", metavar="DIR",
        help="reports and reproducers (default cfconform-report)",
    )  # fmt: skip
    parser.add_argument(  # the old spelling of --out, kept
        "--report-dir", dest="report_dir_alias", default=argparse.SUPPRESS, metavar="DIR", help=argparse.SUPPRESS
    )
    parser.add_argument("--junit", metavar="FILE", help="JUnit XML file (default DIR/junit.xml)")
    parser.add_argument("--deviations", metavar="FILE", help="known deviations (TOML; see conformance/deviations.py)")


def write_reports(result: GateResult, report_dir: Path, spec: str, junit: Path | None = None) -> GateResult:
    """Write reproducers, results.jsonl and the reports; returns the result with reproducer paths set."""
    from cfconform.conformance.reproducer import render_pytest, transcript_stem, write_transcript
    from cfconform.reports.gate_html import render_html
    from cfconform.reports.gate_report import render_junit, render_markdown

    repro_dir = report_dir / "reproducers"
    failures = []
    for failure in result.failures:
        transcript = write_transcript(failure, spec)
        stem = transcript_stem(transcript)
        repro_dir.mkdir(parents=True, exist_ok=True)
        path = repro_dir / f"{stem}.json"
        path.write_text(json.dumps(transcript, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        test_path = repro_dir / f"test_{stem.replace('-', '_')}.py"
        test_path.write_text(render_pytest(transcript, spec), encoding="utf-8")
        failures.append(attrs.evolve(failure, reproducer=str(path.relative_to(report_dir))))
    result = attrs.evolve(result, failures=tuple(failures))
    record = result.to_record()
    report_dir.mkdir(parents=True, exist_ok=True)
    with (report_dir / "results.jsonl").open("a", encoding="utf-8") as out:
        out.write(json.dumps(record, sort_keys=True, default=str) + "\n")
    (report_dir / "report.md").write_text(render_markdown(record), encoding="utf-8")
    (report_dir / "report.html").write_text(render_html(record), encoding="utf-8")
    junit = junit or report_dir / "junit.xml"
    junit.parent.mkdir(parents=True, exist_ok=True)
    junit.write_text(render_junit(record), encoding="utf-8")
    return result


def summary_lines(record: dict[str, Any], spec: str, report_dir: Path, junit: Path | None) -> list[str]:
    """The human summary printed by ``cfconform run``."""
    from cfconform.reports.gate_report import cited, counts_text, failure_summary, headline, split_warnings

    lines = [
        f"cfconform run: {spec} ({record['adapter']}), profiles {','.join(record['profiles']) or 'none'}, "
        f"hypothesis {record['hypothesis_profile']}, seed {record['seed']}",
        f"  {record['cases']} cases, {record['steps']} steps in {record['seconds']:.1f} s",
        f"verdicts: {counts_text(record)}",
    ]
    failing = [r["rule"] for r in record["rules"] if r["verdict"] == "fail"]
    if failing:
        lines.append(f"failing rules: {', '.join(failing)}")
    for f in record["failures"]:
        lines.append(("FAULT " if f["kind"] == "fault" else "FAIL ") + failure_summary(f))
        if f["kind"] != "fault" and f["rules"]:
            lines.append(f"  sentence: {cited(f['rules'][0])}")
        if f.get("reproducer"):
            path = report_dir / f["reproducer"]
            lines.append(f"  transcript: {path}")
            lines.append(f"  replay: cfconform replay {shlex.quote(str(path))} --adapter {shlex.quote(spec)}")
            test = path.with_name(f"test_{path.stem.replace('-', '_')}.py")
            lines.append(f"  pytest: {shlex.quote(sys.executable)} -m pytest {shlex.quote(str(test))}")
    notes, other = split_warnings(record)
    hollow = [f"{rule}: {n}" for rule, ns in notes.items() for n in ns if "never" in n]
    important = other + [f"{rule}: {n}" for rule, ns in notes.items() for n in ns if "never" not in n]
    for w in important:
        lines.append(f"warning: {w}")
    if hollow:
        lines.append(f"warning: {len(hollow)} hollow passes (claimed rules never exercised or never at a threshold):")
        lines += [f"  {w}" for w in hollow[:HOLLOW_SHOWN]]
        if len(hollow) > HOLLOW_SHOWN:
            lines.append(f"  ... {len(hollow) - HOLLOW_SHOWN} more in {report_dir / 'report.md'}")
    lines.append(f"reports: {report_dir}/{{report.md,report.html,results.jsonl}}, {junit or report_dir / 'junit.xml'}")
    lines.append(f"result: {headline(record)}")
    return lines


def run(args: argparse.Namespace) -> int:
    from cfconform.conformance.deviations import load_deviations
    from cfconform.conformance.gate import EXIT_NOTHING_JUDGED, run_gate
    from cfconform.conformance.progress import Progress
    from cfconform.conformance.reproducer import adapter_factory
    from cfconform.judge.results import matches
    from cfconform.properties.directed import CASES as DIRECTED_CASES
    from cfconform.properties.profiles import PROFILES
    from cfconform.reference_model.rules import RULES

    if args.hypothesis_profile not in PROFILES:
        print(f"cfconform run: unknown Hypothesis profile {args.hypothesis_profile!r}", file=sys.stderr)
        return EXIT_USAGE
    deviations = load_deviations(args.deviations) if args.deviations else ()
    out_option = "--out"
    if getattr(args, "report_dir_alias", None) is not None:  # an error names the spelling the user gave
        args.report_dir, out_option = args.report_dir_alias, "--report-dir"
    report_dir = Path(args.report_dir)
    junit = Path(args.junit) if args.junit else None
    for option, path in ((out_option, report_dir), ("--junit", junit.parent if junit else None)):
        problem = unwritable(path) if path is not None else None
        if problem:  # before the implementation starts: the results must not be lost at the end
            print(f"cfconform run: {option} {path}: {problem}", file=sys.stderr)
            return EXIT_USAGE
    factory, spec = adapter_factory(args.adapter, args.adapter_cmd, timeout=args.timeout)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rules = [p.strip() for p in args.rules.split(",") if p.strip()] if args.rules else None
    if rules is not None and not any(matches(r.id, rules) for r in RULES):
        print(f"cfconform run: --rules {args.rules}: matches no rule ID (cfconform rules lists them); "
              "nothing to judge", file=sys.stderr)  # fmt: skip
        return EXIT_NOTHING_JUDGED
    started = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    expected_cases = len(args.profile or ("mq", "cqs")) * (
        DIRECTED_CASES.get(args.hypothesis_profile, 0) + PROFILES[args.hypothesis_profile].max_examples
    )
    progress = Progress("cfconform run", expected_cases, quiet=getattr(args, "quiet", False))
    try:
        with progress:
            result = run_gate(
                factory,
                profiles=args.profile,
                hypothesis_profile=args.hypothesis_profile,
                seed=seed,
                rules=rules,
                deviations=deviations,
                today=dt.date.today(),
                started=started,
                watch=progress.watch,
            )
            if result.profiles:  # (still reporting progress: reports of a long run take seconds)
                progress.watch("writing the reports", None)
                result = write_reports(result, report_dir, spec, junit)
    except AdapterError as err:
        print(f"cfconform run: adapter error before any trace ran: {err}", file=sys.stderr)
        return EXIT_ADAPTER
    if not result.profiles and rules is not None:  # the selected rules apply to no profile it claims
        print(f"cfconform run: --rules {args.rules}: no selected rule applies to a profile the adapter "
              "claims; nothing judged", file=sys.stderr)  # fmt: skip
        return EXIT_NOTHING_JUDGED
    if not result.profiles:
        claimed = ",".join(result.capabilities.get("profiles", []))
        print(
            f"cfconform run: the adapter claims profiles {claimed or 'none'}, not {','.join(args.profile or [])}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    print("\n".join(summary_lines(result.to_record(), spec, report_dir, junit)))
    return result.exit_code
