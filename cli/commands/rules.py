"""``cfconform rules``: list the rule catalogue as a table, JSON or the docs/RULES.md page;
with ``--coverage`` the sentence map's counts, with ``--sentences`` the docs/SENTENCES.md page.

Examples::

    cfconform rules
    cfconform rules --family QDEPTH --family RECOVERY --status inferred
    cfconform rules --format markdown > docs/RULES.md
    cfconform rules --coverage [--format json]
    cfconform rules --sentences --seeds ../shared/seeds > docs/SENTENCES.md
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from cfconform.judge.results import matches
from cfconform.reference_model.rules import FAMILIES, RULES, STATUSES
from cfconform.reports.rules_doc import render_rules_json, render_rules_markdown, render_rules_table
from cfconform.reports.sentences_doc import (
    coverage_counts,
    render_coverage_json,
    render_coverage_markdown,
    render_coverage_table,
    render_sentences_json,
    render_sentences_markdown,
)

from .run import format_name

NAME = "rules"
HELP = "list the rule catalogue (IDs, status, citations, ambiguities)"

EXIT_OK, EXIT_USAGE, EXIT_NOTHING = 0, 2, 4
FORMATS = {
    "text": render_rules_table,
    "table": render_rules_table,
    "json": render_rules_json,
    "markdown": render_rules_markdown,
}  # fmt: skip ("table": the old name of "text")
COVERAGE_FORMATS = {
    "text": render_coverage_table,
    "table": render_coverage_table,
    "json": render_coverage_json,
    "markdown": render_coverage_markdown,
}
#: A seed file: its three-digit number, an underscore, anything, ``.txt``.
SEED_FILE = re.compile(r"^(\d{3})_.*\.txt$")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format", type=format_name, choices=("text", "json", "markdown"), default="text",
        help="output format (text, json, markdown)",
    )  # fmt: skip
    parser.add_argument(
        "--family",
        action="append",
        default=[],
        metavar="FAMILY",
        help=f"only this family (repeatable): {', '.join(FAMILIES)}",
    )
    parser.add_argument("--status", metavar="STATUS", help=f"only this status: {', '.join(STATUSES)}")
    parser.add_argument(
        "--rules", metavar="PATTERN[,PATTERN]", help="only these rule IDs (shell patterns, as cfconform run --rules)"
    )
    view = parser.add_mutually_exclusive_group()
    view.add_argument(
        "--coverage",
        action="store_true",
        help="per IBM document: normative, covered, partial, missing, ambiguous, informative and out-of-scope "
        "sentences (from the shipped sentence map; text or json)",
    )
    view.add_argument(
        "--sentences",
        action="store_true",
        help="every sentence of the IBM documents in --seeds with its class: the docs/SENTENCES.md page "
        "(or json with --format json)",
    )
    parser.add_argument(
        "--seeds", metavar="DIR", help="with --sentences: the folder of IBM's texts (NNN_*.txt), e.g. ../shared/seeds"
    )


def _usage(message: str) -> int:
    print(f"cfconform rules: {message}", file=sys.stderr)
    return EXIT_USAGE


def _documents(folder: str) -> dict[str, str]:
    """The seed texts in ``folder`` by seed number (``000_...txt`` is document ``000``)."""
    return {
        m.group(1): p.read_text(encoding="utf-8")
        for p in sorted(Path(folder).iterdir())
        if (m := SEED_FILE.match(p.name)) and p.is_file()
    }


def _print(text: str) -> int:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return EXIT_OK


def _sentence_views(args: argparse.Namespace) -> int:
    if args.family or args.status is not None or args.rules is not None:
        return _usage("--family, --status and --rules select rules; --coverage and --sentences take none of them")
    if args.coverage:
        if args.seeds is not None:
            return _usage("--seeds goes with --sentences; --coverage reads only the shipped map")
        return _print(COVERAGE_FORMATS[args.format](coverage_counts()))
    if args.seeds is None:
        return _usage("--sentences needs --seeds DIR, the folder of IBM's texts (e.g. ../shared/seeds)")
    if not Path(args.seeds).is_dir():
        return _usage(f"--seeds {args.seeds}: not a folder")
    documents = _documents(args.seeds)
    if not documents:
        return _usage(f"--seeds {args.seeds}: no IBM texts (NNN_*.txt) in it")
    render = render_sentences_json if args.format == "json" else render_sentences_markdown
    return _print(render(documents))


def run(args: argparse.Namespace) -> int:
    if args.coverage or args.sentences:
        return _sentence_views(args)
    if args.seeds is not None:
        return _usage("--seeds goes with --sentences")
    families = [f.upper() for f in args.family]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        print(f"cfconform rules: unknown family {', '.join(unknown)}; allowed: {', '.join(FAMILIES)}", file=sys.stderr)
        return EXIT_USAGE
    if args.status is not None and args.status not in STATUSES:
        print(f"cfconform rules: unknown status {args.status}; allowed: {', '.join(STATUSES)}", file=sys.stderr)
        return EXIT_USAGE
    patterns = args.rules.split(",") if args.rules is not None else None
    selected = [
        r for r in RULES
        if (not families or r.family in families) and (args.status is None or r.status == args.status)
        and matches(r.id, patterns)
    ]  # fmt: skip
    if patterns is not None and not any(matches(r.id, patterns) for r in RULES):
        print(f"cfconform rules: --rules {args.rules}: matches no rule ID; nothing selected", file=sys.stderr)
        return EXIT_NOTHING
    text = FORMATS[args.format](selected)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return EXIT_OK
