"""``cfconform rules``: list the rule catalogue as a table, JSON or the docs/RULES.md page.

Examples::

    cfconform rules
    cfconform rules --family QDEPTH --family RECOVERY --status inferred
    cfconform rules --format markdown > docs/RULES.md
"""

from __future__ import annotations

import argparse
import sys

from reference_model.rules import FAMILIES, RULES, STATUSES
from reports.rules_doc import render_rules_json, render_rules_markdown, render_rules_table

NAME = "rules"
HELP = "list the rule catalogue (IDs, status, citations, ambiguities)"

EXIT_OK, EXIT_USAGE = 0, 2
FORMATS = {
    "text": render_rules_table,
    "table": render_rules_table,
    "json": render_rules_json,
    "markdown": render_rules_markdown,
}  # fmt: skip ("table": the old name of "text")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format", choices=sorted(FORMATS), default="text", help="output format (text, json, markdown)"
    )
    parser.add_argument(
        "--family",
        action="append",
        default=[],
        metavar="FAMILY",
        help=f"only this family (repeatable): {', '.join(FAMILIES)}",
    )
    parser.add_argument("--status", metavar="STATUS", help=f"only this status: {', '.join(STATUSES)}")


def run(args: argparse.Namespace) -> int:
    families = [f.upper() for f in args.family]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        print(f"cfconform rules: unknown family {', '.join(unknown)}; allowed: {', '.join(FAMILIES)}", file=sys.stderr)
        return EXIT_USAGE
    if args.status is not None and args.status not in STATUSES:
        print(f"cfconform rules: unknown status {args.status}; allowed: {', '.join(STATUSES)}", file=sys.stderr)
        return EXIT_USAGE
    selected = [
        r for r in RULES if (not families or r.family in families) and (args.status is None or r.status == args.status)
    ]
    text = FORMATS[args.format](selected)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return EXIT_OK
