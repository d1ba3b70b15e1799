"""``cfconform adapters``: list the installed adapters (built-ins and plugins)."""

from __future__ import annotations

import argparse
import contextlib
import json

NAME = "adapters"
HELP = "list installed adapters (name, source, profiles) and the other spec forms"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text", help="text or json")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # old spelling of --format json


def _profiles(name: str) -> str:
    """The profiles an adapter claims (it is instantiated and closed again), or why not."""
    from cfconform.adapters.registry import load_adapter

    try:
        adapter = load_adapter(name)
    except Exception as exc:  # a broken plugin is listed, not fatal
        return f"? (cannot load: {exc})"
    try:
        return ",".join(adapter.capabilities().profiles)
    except Exception as exc:
        return f"? (capabilities failed: {exc})"
    finally:
        with contextlib.suppress(Exception):
            adapter.close()


def run(args: argparse.Namespace) -> int:
    from cfconform.adapters.registry import installed, mutant_ids

    rows = [
        {"name": info.name, "source": info.source, "profiles": _profiles(info.name), "target": info.target}
        for info in sorted(installed().values(), key=lambda i: i.name)
    ]
    mutants = mutant_ids()
    if args.json or args.format == "json":
        print(json.dumps({"adapters": rows, "mutants": mutants}, indent=2))
        return 0
    width = max([len(r["name"]) for r in rows] + [4])
    src = max([len(r["source"]) for r in rows] + [6])
    print(f"{'NAME':<{width}}  {'SOURCE':<{src}}  {'PROFILES':<9}  TARGET")
    for r in rows:
        print(f"{r['name']:<{width}}  {r['source']:<{src}}  {r['profiles']:<9}  {r['target']}")
    print()
    print("Other specs: 'module:attr' (an Adapter class or factory), 'wire:COMMAND' (a process speaking")
    print(
        "docs/PROTOCOL.md), "
        + (
            f"'mutant:ID' ({len(mutants)} mutants, e.g. mutant:{mutants[0]})"
            if mutants
            else "'mutant:ID' (the mutant catalogue, cfconform.adapters.mutants)"
        )
    )
    return 0
