"""The ``cfconform`` command line.

Each subcommand is a module in :mod:`cfconform.cli.commands` exposing ``NAME``,
``HELP``, ``configure(parser)`` and ``run(args) -> int``; they are found by
scanning that package, so adding a command never edits this file.

Exit codes (:data:`EXIT_CODES`, shown by ``--help`` and documented in README.md): 0 conforms /
success, 1 does not conform, 2 usage or configuration error, 3 implementation or protocol error
(or a run that could not complete), 4 nothing judged.  A tool failure never exits 1.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import logging
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import NoReturn

from cfconform.reference_model.errors import ConfigurationError

EXIT_OK, EXIT_NONCONFORMING, EXIT_USAGE, EXIT_ADAPTER = 0, 1, 2, 3
#: The exit-code contract, as ``--help`` shows it and README.md's table states it (a test keeps them equal).
EXIT_CODES = (
    (0, "conforms (with at least one rule judged), or the command succeeded"),
    (1, "does not conform (fuzz: divergences found; replay: the failure still stands)"),
    (2, "usage or configuration error, found before any work starts (e.g. an unwritable --out, no Java)"),
    (3, "implementation or protocol error, or a run that could not complete"),
    (
        4,
        "nothing was judged: no rule or mutant selected (--rules matching nothing), none claimed or reached "
        "(replay: the recorded failure not reached)",
    ),
)
EPILOG = "exit codes, the same for every command:\n" + "\n".join(f"  {code}  {text}" for code, text in EXIT_CODES)
EPILOG += (
    "\n\nrun, mutants, fuzz and diff report progress on stderr within 2 s of starting and at least every 2 s\n"
    "after (a bar on a terminal, lines in a log); -q silences it, -v adds a line per case, mutant or job."
)


def _commands() -> list:
    from . import commands as pkg

    mods = [importlib.import_module(f"{pkg.__name__}.{m.name}") for m in pkgutil.iter_modules(pkg.__path__)]
    return sorted((m for m in mods if hasattr(m, "NAME")), key=lambda m: m.NAME)


class _Formatter(argparse.HelpFormatter):
    """argparse's help, with the epilog's lines (the exit-code table) kept as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "".join(indent + line for line in text.splitlines(keepends=True))


class _OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (the option, the value, what is allowed) and exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(
        prog="cfconform", description=__doc__.splitlines()[0], epilog=EPILOG, formatter_class=_Formatter
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="a line per case, mutant or Spark job on stderr, and Spark's log"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress or status lines on stderr")
    parser.add_argument("--debug", action="store_true", help="show the traceback of an unexpected error")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_OneLineParser)
    for mod in _commands():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.HELP, epilog=EPILOG, formatter_class=_Formatter)
        mod.configure(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        return int(args._run(args))
    except ConfigurationError as err:
        print(f"cfconform {args.command}: configuration error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("cfconform: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader of stdout went away (| head): as a shell reports SIGPIPE
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as err:
        if args.debug:
            raise
        # never exit 1 ("does not conform") for a tool failure; one line, the traceback with --debug
        usage = isinstance(err, OSError) and getattr(err, "filename", None) is not None
        kind = "cannot use a path" if usage else "the run could not complete"
        print(f"cfconform {args.command}: {kind}: {type(err).__name__}: {err} (--debug shows where)", file=sys.stderr)
        return EXIT_USAGE if usage else EXIT_ADAPTER


def _version() -> str:
    try:
        return importlib.metadata.version("cfconform")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


if __name__ == "__main__":
    raise SystemExit(main())
