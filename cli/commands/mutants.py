"""``cfconform mutants``: run the gate against every mutant and print the kill table and the mutation score."""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import json
import sys
from pathlib import Path
from typing import Any

from tabulate import tabulate

from cfconform.conformance.paths import unwritable

from .run import format_name

NAME = "mutants"
HEADERS = ("mutant", "seed", "rule", "killed", "seconds", "with repro s", "repro steps", "documented", "rule named")
HELP = "run the gate against every mutant; print the kill table and the mutation score"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hypothesis-profile", default="ci", choices=("dev", "ci", "nightly"))
    seeds = parser.add_mutually_exclusive_group()
    seeds.add_argument("--seed", type=int, default=None, help="Hypothesis seed (default: random)")
    seeds.add_argument(
        "--seeds",
        type=_seed_range,
        default=None,
        help="several seeds, FIRST-LAST or comma-separated; a mutant counts as killed only if every seed kills it",
    )
    parser.add_argument(
        "--no-reproducer",
        dest="reproduce",
        action="store_false",
        help="stop each run at its first failing case (the verdict) without minimising a reproducer",
    )
    parser.add_argument(
        "--only", default=None, help="shell patterns over mutant IDs, comma-separated, e.g. 'M-QDEPTH-*,M-CQS-01?-a'"
    )
    parser.add_argument(
        "--rules", metavar="PATTERN[,PATTERN]", help="only the mutants of these rule IDs (shell patterns, as run's)"
    )
    parser.add_argument("--format", type=format_name, choices=("text", "json"), default="text", help="text or json")
    parser.add_argument(
        "--rows",
        type=Path,
        default=None,
        metavar="FILE",
        help="also append each row to FILE (JSON lines) as soon as it is known, so a long run keeps what it found",
    )


def _seed_range(text: str) -> list[int]:
    """``1-20`` or ``1,5,9`` as a list of seeds."""
    try:
        if "-" in text:
            first, last = (int(v) for v in text.split("-", 1))
            if first > last:
                raise ValueError
            return list(range(first, last + 1))
        return [int(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"seeds must be FIRST-LAST or comma-separated integers, not {text!r}"
        ) from None


def run(args: argparse.Namespace) -> int:
    from cfconform.adapters.mutants import MUTANTS
    from cfconform.conformance.mutation import kill_all, summary
    from cfconform.conformance.progress import Progress
    from cfconform.judge.results import matches

    patterns = args.only.split(",") if args.only else ["*"]
    rules = args.rules.split(",") if args.rules is not None else None
    chosen = [m for m in MUTANTS if any(fnmatch.fnmatchcase(m.id, p) for p in patterns) and matches(m.rule, rules)]
    if not chosen:  # nothing to judge (the exit-code contract: 4)
        given = " ".join(f"{o} {v!r}" for o, v in (("--only", args.only), ("--rules", args.rules)) if v is not None)
        print(f"cfconform mutants: {given} matches no mutant; nothing judged", file=sys.stderr)
        return 4
    if args.rows is not None and (problem := unwritable(args.rows.parent)):  # before the first mutant runs
        print(f"cfconform mutants: --rows {args.rows}: {problem}", file=sys.stderr)
        return 2
    seeds = args.seeds or [args.seed]
    progress = Progress("cfconform mutants", len(chosen) * len(seeds), "mutant", quiet=getattr(args, "quiet", False))
    with contextlib.ExitStack() as stack:
        rows_file = stack.enter_context(args.rows.open("a", encoding="utf-8")) if args.rows is not None else None
        stack.enter_context(progress)

        def on_kill(k: Any) -> None:
            progress.advance(failed=not k.killed)
            if rows_file is not None:
                rows_file.write(json.dumps(k.to_record()) + "\n")
                rows_file.flush()

        kills = kill_all(
            chosen, hypothesis_profile=args.hypothesis_profile, seeds=seeds, reproduce=args.reproduce, on_kill=on_kill
        )
    totals = summary(kills)
    if args.format == "json":
        print(json.dumps({"kills": [k.to_record() for k in kills], "summary": totals}, indent=2))
    else:
        rows = [
            (
                k.mutant,
                "-" if k.seed is None else k.seed,
                k.rule,
                "yes" if k.killed else "NO",
                f"{k.seconds:.2f}",
                f"{k.total_seconds:.2f}" if k.total_seconds is not None else "-",
                k.reproducer_steps if k.reproducer_steps is not None else "-",
                k.documented_steps,
                "yes" if k.rule_named else "no",
            )
            for k in kills
        ]
        print(tabulate(rows, headers=HEADERS))
        if len(seeds) > 1:
            print(f"\nkilled per seed: {', '.join(f'{s}: {n}' for s, n in totals['per_seed'].items())}")
            for mutant, escaped in totals["survived_seeds"].items():
                print(f"{mutant} survived seeds {', '.join(str(s) for s in escaped)}")
        print(
            f"\nmutation score {totals['killed']}/{totals['mutants']} = {totals['score']:.2%}"
            f"{' (killed under every seed)' if len(seeds) > 1 else ''}; "
            f"time to kill median {totals['median_seconds']} s, max {totals['max_seconds']} s; "
            + (
                f"with the reproducer median {totals['median_total_seconds']} s, max {totals['max_total_seconds']} s; "
                f"reproducer excess over documented at most {totals['max_excess_steps']} steps"
                if args.reproduce
                else "no reproducers minimised (--no-reproducer)"
            )
        )
    return 0 if totals["killed"] == totals["mutants"] else 1
