"""``cfconform serve-reference``: the reference model as a wire-protocol implementation."""

from __future__ import annotations

import argparse
import gc
import sys

from .run import positive_int

NAME = "serve-reference"
HELP = "serve the reference model over the wire protocol on stdin/stdout (docs/PROTOCOL.md)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--readings",
        nargs="*",
        default=[],
        metavar="AMBIGUITY=READING",
        help="readings the served model follows (default: the model's defaults)",
    )
    parser.add_argument("--name", default="reference", help="the name claimed in the capabilities")
    parser.add_argument(
        "--max-line-bytes", type=positive_int, default=None, help="longest request line accepted (default 1 MiB)"
    )


def parse_readings(pairs: list[str]) -> dict[str, str]:
    """``["k=v", ...]`` as a dict; a malformed pair raises ConfigurationError."""
    from cfconform.reference_model.errors import UNKNOWN_FIELD, ConfigurationError

    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ConfigurationError("--readings", pair, "AMBIGUITY=READING", UNKNOWN_FIELD)
        out[key.strip()] = value.strip()
    return out


def run(args: argparse.Namespace) -> int:
    from cfconform.adapters.reference import ReferenceAdapter
    from cfconform.adapters.wire.messages import MAX_LINE_BYTES
    from cfconform.adapters.wire.server import serve
    from cfconform.reference_model.readings import readings_from_dict

    readings = readings_from_dict(parse_readings(args.readings))
    # A dedicated process: keep startup objects out of the collector's way and collect young
    # objects less often (steps allocate many short-lived records; the model keeps few cycles).
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing but protocol messages may reach the real stdout
    return serve(
        lambda: ReferenceAdapter(readings, name=args.name),
        sys.stdin.buffer,
        out,
        max_line_bytes=args.max_line_bytes or MAX_LINE_BYTES,
    )
