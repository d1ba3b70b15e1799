"""``cfconform size``: structure size, CFRM statements and the OFFLD3TH for a reserve.

Examples (seed 001 and seed 002)::

    cfconform size --messages 200000 --avg-size 1K
    cfconform size --messages 200000 --avg-size 1K --structure-size 4G --reserve 1048576
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys

from reference_model import sizing
from reference_model.errors import ConfigurationError
from reference_model.units import GB, KB, MB, SIZE_100MB

NAME = "size"
HELP = "structure size, CFRM statements and OFFLD3TH for a reserve of offloaded messages"

EXIT_OK, EXIT_USAGE = 0, 2
#: A CFRM structure name: the QSG name padded to four characters and the CFSTRUCT name of at most
#: twelve (TOPOLOGY-001/010): sixteen at most, an uppercase letter first, then letters, digits or @.
_CFRM_NAME = re.compile(r"^[A-Z][A-Z0-9@]{0,15}$")
_CFRM_NAME_RULE = "1-16 characters: an uppercase letter, then A-Z, 0-9 or @ (QSG name, @ padding, CFSTRUCT)"
#: The largest --structure-size taken: 1024G, far above any structure the documents size (the
#: largest, Table 2's 100,000 messages of 63 KB, needs about 8 GB).
MAX_STRUCTURE = 1024 * GB
_SIZE = re.compile(r"^(\d+(?:\.\d+)?)\s*([KMG]?)B?$", re.IGNORECASE)
_UNITS = {"": 1, "K": KB, "M": MB, "G": GB}


def parse_size(field: str, text: str, rule_id: str) -> int:
    """Bytes from ``1K``, ``63K``, ``0.75K``, ``512M``, ``4G`` (binary units) or a byte count."""
    match = _SIZE.match(str(text).strip().replace("_", ""))
    if match is None:
        raise ConfigurationError(field, text, "bytes, or a number with K, M or G (1K = 1024)", rule_id)
    number, unit = match.groups()
    value = float(number) * _UNITS[unit.upper()]
    if value != int(value):
        raise ConfigurationError(field, text, "a whole number of bytes", rule_id)
    return int(value)


def parse_count(field: str, text: str, rule_id: str) -> int:
    """A message count: digits, optionally grouped with ``,`` or ``_``."""
    cleaned = str(text).strip().replace(",", "").replace("_", "")
    if not cleaned.isdigit():
        raise ConfigurationError(field, text, "a whole number >= 0", rule_id)
    return int(cleaned)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--messages", required=True, metavar="N", help="messages held in the structure at once")
    parser.add_argument(
        "--avg-size",
        required=True,
        metavar="SIZE",
        help="average message size: bytes or 1K, 63K, 512M ...",
    )
    parser.add_argument(
        "--structure-size",
        metavar="SIZE",
        help="structure size for the OFFLD3TH calculation (e.g. 4G)",
    )
    parser.add_argument("--reserve", metavar="N", help="offloaded messages to keep room for (with --structure-size)")
    parser.add_argument(
        "--usable-pct",
        default="100",
        metavar="PCT",
        help="share of the structure to aim to use (default 100; seed 002 suggests 90)",
    )
    parser.add_argument(
        "--name",
        default=sizing.SEED_STRUCTURE_NAME,
        help=f"CFRM structure name (default {sizing.SEED_STRUCTURE_NAME})",
    )
    parser.add_argument(
        "--fullthreshold",
        type=int,
        default=sizing.SEED_FULLTHRESHOLD,
        metavar="PCT",
        help=f"FULLTHRESHOLD (default {sizing.SEED_FULLTHRESHOLD})",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")


def _usage_error(message: str) -> int:
    print(f"cfconform size: {message}", file=sys.stderr)
    return EXIT_USAGE


def _usable_pct(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= 100:
        raise ConfigurationError("--usable-pct", text, "a number in (0, 100]", "OFFLOAD-010")
    return int(value) if value == int(value) else value


def run(args: argparse.Namespace) -> int:
    messages = parse_count("--messages", args.messages, "SIZING-001")
    avg = parse_size("--avg-size", args.avg_size, "SIZING-001")
    if avg > SIZE_100MB:
        raise ConfigurationError("--avg-size", args.avg_size, "at most 100M", "CFLEVEL-005")
    if (args.structure_size is None) != (args.reserve is None):
        return _usage_error("--structure-size and --reserve go together: give both or neither")
    usable = _usable_pct(args.usable_pct)
    if not _CFRM_NAME.match(args.name):
        raise ConfigurationError("--name", args.name, _CFRM_NAME_RULE, "TOPOLOGY-010")
    if not 0 <= args.fullthreshold <= 100:
        raise ConfigurationError("--fullthreshold", args.fullthreshold, "a percentage 0..100", "CAPACITY-009")
    structure = parse_size("--structure-size", args.structure_size, "SIZING-004") if args.structure_size else None
    if structure is not None and not 1 * MB <= structure <= MAX_STRUCTURE:
        raise ConfigurationError("--structure-size", args.structure_size, "1M..1024G", "SIZING-004")
    # without a reserve, the usable share sizes the structure itself (with one, it sets OFFLD3TH)
    rec = sizing.recommend(
        messages, avg, name=args.name, fullthreshold=args.fullthreshold, usable_pct=100 if structure else usable
    )
    reserve = None
    if structure is not None:
        reserve = sizing.offload_reserve(parse_count("--reserve", args.reserve, "SIZING-004"), structure, usable)
    if args.format == "json":
        record = rec.to_record()
        record["offload_reserve"] = None if reserve is None else reserve.to_record()
        print(json.dumps(record, indent=2, sort_keys=True))
        return EXIT_OK
    print(
        f"required size: {rec.required_mb:.1f} MB for {messages} messages of {avg} bytes "
        f"(model accounting) [SIZING-001]"
    )
    print(f"recommended:   INITSIZE {rec.initsize_kb} KB, SIZE {rec.size_kb} KB [SIZING-003]")
    print()
    print(rec.cfrm)
    if rec.advice:
        print(f"\nwarning: {rec.advice}")
    if reserve is not None:
        print()
        print(
            f"reserve: {reserve.messages} offloaded messages x 0.75 KB = "
            f"{reserve.reserve_mb:.2f} MB = {reserve.reserve_pct:.2f}% of structure [SIZING-004]"
        )
        print(f"OFFLD3TH({reserve.offld3th}) OFFLD3SZ(0K)   (usable {reserve.usable_pct}%)")
        if not reserve.feasible:
            print("warning: the reserve does not fit in the usable share of the structure")
    return EXIT_OK
