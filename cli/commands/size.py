"""``cfconform size``: CFRM statements for a structure, and the OFFLD3TH for a reserve.

Three structures (seed 001), one per invocation::

    cfconform size --messages 200000 --avg-size 1K          # an application structure (Table 2)
    cfconform size --admin --qmgrs 4                         # qsg-nameCSQ_ADMIN (Table 1)
    cfconform size --csqsysappl --channels 200               # qsg-nameCSQSYSAPPL (Table 3)
    cfconform size --messages 200000 --avg-size 1K --structure-size 4G --reserve 1048576   # seed 002

INITSIZE is the need rounded up to a whole MB (application, CSQSYSAPPL) or Table 1's
figure (CSQ_ADMIN); SIZE is 1.5 x INITSIZE rounded up to a whole MB
(:data:`cfconform.reference_model.sizing.SIZE_FACTOR`).  Every answer names the IBM table
figure it is nearest to and the difference.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys

from cfconform.reference_model import sizing
from cfconform.reference_model.errors import ConfigurationError
from cfconform.reference_model.tables import ADMIN_TABLES
from cfconform.reference_model.topology import UR_RESOLUTION_MESSAGES
from cfconform.reference_model.units import GB, KB, MB, SIZE_100MB
from cfconform.reference_model.validation import MAX_QMGRS_PER_STRUCTURE, QSG_NAME

NAME = "size"
HELP = "CFRM statements for an application, CSQ_ADMIN or CSQSYSAPPL structure; OFFLD3TH for a reserve"

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
#: Options that belong to one kind of structure only (argparse dest -> the option).
_APPLICATION_ONLY = {
    "messages": "--messages",
    "avg_size": "--avg-size",
    "structure_size": "--structure-size",
    "reserve": "--reserve",
    "usable_pct": "--usable-pct",
    "name": "--name",
}
_ADMIN_ONLY = {"qmgrs": "--qmgrs", "admin_table": "--admin-table", "cfcc_level": "--cfcc-level"}
_CSQSYSAPPL_ONLY = {"channels": "--channels", "group_urs": "--group-urs"}
_SYSTEM_ONLY = {"qsg": "--qsg"}


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


def parse_count(field: str, text: str, rule_id: str, lo: int = 0, hi: int | None = None) -> int:
    """A count: digits, optionally grouped with ``,`` or ``_``, in ``lo..hi``."""
    cleaned = str(text).strip().replace(",", "").replace("_", "")
    allowed = f"a whole number >= {lo}" if hi is None else f"a whole number {lo}..{hi:,}"
    if not cleaned.isdigit() or int(cleaned) < lo or (hi is not None and int(cleaned) > hi):
        raise ConfigurationError(field, text, allowed, rule_id)
    return int(cleaned)


def configure(parser: argparse.ArgumentParser) -> None:
    which = parser.add_argument_group("which structure (default: an application structure)")
    which.add_argument("--admin", action="store_true", help="size qsg-nameCSQ_ADMIN from Table 1 (needs --qmgrs)")
    which.add_argument(
        "--csqsysappl", action="store_true", help="size qsg-nameCSQSYSAPPL from Table 3 (--channels, --group-urs)"
    )
    app = parser.add_argument_group("application structure (Table 2)")
    app.add_argument("--messages", metavar="N", help="messages held in the structure at once")
    app.add_argument("--avg-size", metavar="SIZE", help="average message size: bytes or 1K, 63K, 512M ...")
    app.add_argument("--structure-size", metavar="SIZE", help="structure size for the OFFLD3TH calculation (e.g. 4G)")
    app.add_argument("--reserve", metavar="N", help="offloaded messages to keep room for (with --structure-size)")
    app.add_argument(
        "--usable-pct", metavar="PCT", help="share of the structure to aim to use (default 100; seed 002 suggests 90)"
    )
    app.add_argument("--name", help=f"CFRM structure name (default {sizing.SEED_STRUCTURE_NAME})")
    admin = parser.add_argument_group("CSQ_ADMIN (Table 1)")
    admin.add_argument("--qmgrs", metavar="N", help=f"queue managers defined in the QSG, 1..{MAX_QMGRS_PER_STRUCTURE}")
    admin.add_argument(
        "--cfcc-level",
        metavar="N",
        help="CFCC level of the coupling facility, 9 or higher (IBM MQ requires 9); picks the Table 1 edition",
    )
    admin.add_argument(
        "--admin-table",
        metavar="EDITION",
        help=f"Table 1 edition: {' or '.join(ADMIN_TABLES)} (default cfcc14, CFCC level 14)",
    )
    sysappl = parser.add_argument_group("CSQSYSAPPL (Table 3)")
    sysappl.add_argument("--channels", metavar="N", help="active shared channel instances (default 0)")
    sysappl.add_argument(
        "--group-urs", metavar="N", help=f"group units of recovery to hold (default {UR_RESOLUTION_MESSAGES}, Table 3)"
    )
    parser.add_argument(
        "--qsg", metavar="NAME", help=f"QSG name for CSQ_ADMIN and CSQSYSAPPL (default {sizing.SEED_QSG})"
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


def _usable_pct(text: str | None) -> float:
    if text is None:
        return 100
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= 100:
        raise ConfigurationError("--usable-pct", text, "a number in (0, 100]", "OFFLOAD-010")
    return int(value) if value == int(value) else value


def _misplaced(args: argparse.Namespace, options: dict[str, str], kind: str) -> str | None:
    """The first of ``options`` given on the command line, as a one-line error, or None."""
    for dest, option in options.items():
        if getattr(args, dest) is not None:
            return f"{option} does not go with {kind}"
    return None


def _check_shape(args: argparse.Namespace) -> str | None:
    """The combination of options, checked before any value is: a one-line error, or None."""
    if args.admin and args.csqsysappl:
        return "--admin and --csqsysappl size different structures: give one of them"
    if args.admin:
        error = _misplaced(args, _APPLICATION_ONLY | _CSQSYSAPPL_ONLY, "--admin")
        if error is None and args.qmgrs is None:
            error = f"--admin needs --qmgrs N (queue managers in the QSG, 1..{MAX_QMGRS_PER_STRUCTURE})"
        return error
    if args.csqsysappl:
        return _misplaced(args, _APPLICATION_ONLY | _ADMIN_ONLY, "--csqsysappl")
    error = _misplaced(args, _ADMIN_ONLY, "an application structure (give --admin)")
    error = error or _misplaced(args, _CSQSYSAPPL_ONLY, "an application structure (give --csqsysappl)")
    error = error or _misplaced(args, _SYSTEM_ONLY, "an application structure (use --name)")
    if error is None and (args.messages is None or args.avg_size is None):
        error = "an application structure needs --messages N and --avg-size SIZE (or give --admin or --csqsysappl)"
    if error is None and (args.structure_size is None) != (args.reserve is None):
        error = "--structure-size and --reserve go together: give both or neither"
    return error


def _fullthreshold(value: int) -> int:
    if not 0 <= value <= 100:
        raise ConfigurationError("--fullthreshold", value, "a percentage 0..100", "CAPACITY-009")
    return value


def _qsg(text: str | None) -> str:
    qsg = sizing.SEED_QSG if text is None else text
    if not QSG_NAME.match(qsg):
        raise ConfigurationError("--qsg", text, "1-4 characters, A-Z first, then A-Z or 0-9", "TOPOLOGY-010")
    return qsg


def run(args: argparse.Namespace) -> int:
    error = _check_shape(args)
    if error is not None:
        return _usage_error(error)
    fullthreshold = _fullthreshold(args.fullthreshold)
    if args.admin:
        return _run_admin(args, fullthreshold)
    if args.csqsysappl:
        return _run_csqsysappl(args, fullthreshold)
    return _run_application(args, fullthreshold)


def _run_admin(args: argparse.Namespace, fullthreshold: int) -> int:
    qmgrs = parse_count("--qmgrs", args.qmgrs, "TOPOLOGY-006", 1, MAX_QMGRS_PER_STRUCTURE)
    table = "cfcc14" if args.admin_table is None else args.admin_table
    if table not in ADMIN_TABLES:
        raise ConfigurationError("--admin-table", table, f"{' or '.join(ADMIN_TABLES)}", "TOPOLOGY-008")
    if args.cfcc_level is not None:
        level = parse_count(
            "--cfcc-level", args.cfcc_level, "TOPOLOGY-014", sizing.MIN_CFCC_LEVEL, sizing.MAX_CFCC_LEVEL
        )
        for_level = sizing.admin_table_for(level)
        if args.admin_table is not None and args.admin_table != for_level:
            raise ConfigurationError(
                "--admin-table", table, f"{for_level} (the edition for CFCC level {level})", "TOPOLOGY-014"
            )
        table = for_level
    rec = sizing.admin_recommend(qmgrs, table, qsg=_qsg(args.qsg), fullthreshold=fullthreshold)
    if args.format == "json":
        print(json.dumps(rec.to_record(), indent=2, sort_keys=True))
        return EXIT_OK
    plural = "" if qmgrs == 1 else "s"
    print(f"required size: {rec.initsize_kb} KB for {qmgrs} queue manager{plural} ({rec.basis}) [TOPOLOGY-008]")
    _print_common(rec)
    return EXIT_OK


def _run_csqsysappl(args: argparse.Namespace, fullthreshold: int) -> int:
    channels = (
        0 if args.channels is None else parse_count("--channels", args.channels, "TOPOLOGY-012", 0, sizing.MAX_CHANNELS)
    )
    urs = UR_RESOLUTION_MESSAGES
    if args.group_urs is not None:
        urs = parse_count("--group-urs", args.group_urs, "TOPOLOGY-012", 0, sizing.MAXDEPTH_MAX)
    rec = sizing.csqsysappl_recommend(channels, urs, qsg=_qsg(args.qsg), fullthreshold=fullthreshold)
    if args.format == "json":
        print(json.dumps(rec.to_record(), indent=2, sort_keys=True))
        return EXIT_OK
    print(
        f"required size: {rec.required_mb:.1f} MB for {channels:,} active shared channel instances "
        f"(2 x 500 bytes each) and {urs:,} group units of recovery (2 KB each) [TOPOLOGY-012]"
    )
    _print_common(rec)
    return EXIT_OK


def _run_application(args: argparse.Namespace, fullthreshold: int) -> int:
    messages = parse_count("--messages", args.messages, "SIZING-001", 0, sizing.MAX_MESSAGES)
    avg = parse_size("--avg-size", args.avg_size, "SIZING-001")
    if avg > SIZE_100MB:
        raise ConfigurationError("--avg-size", args.avg_size, "at most 100M", "CFLEVEL-005")
    usable = _usable_pct(args.usable_pct)
    name = sizing.SEED_STRUCTURE_NAME if args.name is None else args.name
    if not _CFRM_NAME.match(name):
        raise ConfigurationError("--name", args.name, _CFRM_NAME_RULE, "TOPOLOGY-010")
    structure = parse_size("--structure-size", args.structure_size, "SIZING-004") if args.structure_size else None
    if structure is not None and not 1 * MB <= structure <= MAX_STRUCTURE:
        raise ConfigurationError("--structure-size", args.structure_size, "1M..1024G", "SIZING-004")
    reserved = None if args.reserve is None else parse_count("--reserve", args.reserve, "SIZING-004")
    # without a reserve, the usable share sizes the structure itself (with one, it sets OFFLD3TH)
    rec = sizing.recommend(
        messages, avg, name=name, fullthreshold=fullthreshold, usable_pct=100 if structure else usable
    )
    reserve = None if structure is None else sizing.offload_reserve(reserved, structure, usable)
    if args.format == "json":
        record = rec.to_record()
        record["offload_reserve"] = None if reserve is None else reserve.to_record()
        print(json.dumps(record, indent=2, sort_keys=True))
        return EXIT_OK
    low, high = rec.figure1_range_mb
    print(
        f"required size: {rec.required_mb:.1f} MB for {messages:,} messages of {avg} bytes "
        f"(Figure 1 range {low} through {high} MB; model accounting calibrated on Table 2) [SIZING-001, SIZING-002]"
    )
    _print_common(rec)
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


def _print_common(rec: sizing.Recommendation) -> None:
    print(
        f"recommended:   INITSIZE {rec.initsize_kb} KB ({rec.basis}), "
        f"SIZE {rec.size_kb} KB ({rec.size_basis}) [SIZING-003, CAPACITY-007]"
    )
    print(rec.nearest.text)
    for note in rec.notes:
        print(f"note: {note}")
    print()
    print(rec.cfrm)
    if rec.advice:
        print(f"\nwarning: {rec.advice}")
