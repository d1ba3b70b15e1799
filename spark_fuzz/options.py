"""Command-line arguments of ``cfconform fuzz`` / ``cfconform diff`` (pure: argparse only).

``cfconform fuzz ...`` and ``spark-submit spark_fuzz/job.py ...`` parse the same
arguments with :func:`configure_fuzz`.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shlex
from typing import NoReturn
from urllib.parse import urlsplit

from cfconform.reference_model.errors import UNKNOWN_FIELD, ConfigurationError

from .blocks import PROFILE_CHOICES, CampaignSpec, default_block_size

DEFAULT_MASTER = "local[*]"
DEFAULT_OUT = "cfconform-campaign"
#: Attempts per task in local mode (``local[N]`` never retries a failed task; ``local[N,F]`` does).
LOCAL_TASK_ATTEMPTS = 4
#: The longest wait between progress lines (``--progress-seconds``).
MAX_PROGRESS_SECONDS = 3600.0
_LOCAL = re.compile(r"^local(?:\[(\*|\d+)\])?$")


def with_task_retries(master: str, attempts: int = LOCAL_TASK_ATTEMPTS) -> str:
    """``local``/``local[N]``/``local[*]`` -> ``local[N,attempts]`` so a killed worker is retried.

    Other masters (``local[N,F]``, ``spark://``, ``yarn``, ``k8s://``) are returned as given:
    they retry failed tasks ``spark.task.maxFailures`` times (set to ``attempts`` by the job).
    """
    match = _LOCAL.match(master.strip())
    if match is None:
        return master
    return f"local[{match.group(1) or '1'},{attempts}]"


def _adapter_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--adapter", metavar="SPEC", help="adapter name, module:attr, wire:COMMAND or mutant:ID")
    group.add_argument("--adapter-cmd", metavar="CMD", help=argparse.SUPPRESS)  # old spelling of wire:CMD
    parser.add_argument("--timeout", type=float, default=10.0, metavar="S", help="seconds per wire reply (10)")


def configure_fuzz(parser: argparse.ArgumentParser) -> None:
    """The arguments of a campaign (shared by the CLI and ``spark_fuzz/job.py``).

    ``--master`` defaults to None: ``local[*]``, or under ``spark-submit`` the master given to it.
    """
    _adapter_arguments(parser)
    parser.add_argument("--traces", type=int, required=True, metavar="N", help="traces in the campaign")
    parser.add_argument("--steps", type=int, required=True, metavar="M", help="operations per trace")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="campaign seed: trace i uses generator seed S*1000003+i (default 0)")  # fmt: skip
    parser.add_argument("--profile", choices=PROFILE_CHOICES, default="both",
                        help="model profile; 'both' alternates mq and cqs (default both)")  # fmt: skip
    _session_arguments(parser, "Spark master (default local[*], or spark-submit's --master for job.py); "
                               "local[N] becomes local[N,4] so failed tasks are retried")  # fmt: skip
    parser.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                        help="output directory or Hadoop URI (default ./cfconform-campaign)")  # fmt: skip
    parser.add_argument("--block-size", type=int, metavar="B",
                        help="traces per seed block, the unit written atomically and resumed (default: "
                             "traces/16 rounded up, between 100 and 2000)")  # fmt: skip
    parser.add_argument("--full-traces", action="store_true", help="also write every trace to OUT/traces/")
    parser.add_argument("--partitions", type=int, metavar="P",
                        help="blocks per Spark job, one block per partition (default: the blocks to run / 16, "
                             "between 1 and 4 per core of the cluster); an interruption loses at most the "
                             "jobs in flight")  # fmt: skip
    parser.add_argument(
        "--max-blocks",
        type=int,
        metavar="K",
        help="compute at most K blocks in this run, then stop (rerun the same command to resume)",
    )
    parser.add_argument("--max-signatures", type=int, default=20, metavar="N",
                        help="minimise and export reproducers for at most N signatures (default 20)")  # fmt: skip
    parser.add_argument("--no-triage", action="store_true", help="skip minimisation and reproducers")
    parser.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                        help="a Spark setting (repeatable), e.g. --conf spark.executor.memory=4g")  # fmt: skip
    parser.add_argument("--progress-seconds", type=float, default=2.0, metavar="S",
                        help="seconds between progress lines on stderr (0: none, as -q; default 2)")  # fmt: skip


def _session_arguments(parser: argparse.ArgumentParser, master_help: str) -> None:
    """``--master`` (default None: ``local[*]``, or spark-submit's) and ``--remote`` (Spark Connect)."""
    parser.add_argument("--master", default=None, metavar="URL", help=master_help)
    parser.add_argument("--remote", default=None, metavar="sc://HOST:PORT",
                        help="run on a Spark Connect server instead (default: the SPARK_REMOTE environment "
                             "variable, if set); not with --master")  # fmt: skip


def configure_diff(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_a", metavar="RUN_A", help="the older campaign's output directory (or URI)")
    parser.add_argument("run_b", metavar="RUN_B", help="the newer campaign's output directory (or URI)")
    _session_arguments(parser, "Spark master (default local[*])")
    parser.add_argument("--limit", type=int, default=20, metavar="N", help="example rows shown per table (20)")


def spark_conf(pairs: list[str]) -> dict[str, str]:
    """``["k=v", ...]`` from ``--conf`` as a dict."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigurationError("--conf", pair, "KEY=VALUE", UNKNOWN_FIELD)
        out[key.strip()] = value
    return out


def adapter_spec(adapter: str | None, adapter_cmd: str | None) -> str:
    """The adapter spec from ``--adapter SPEC`` or ``--adapter-cmd CMD`` (``wire:CMD``)."""
    if (adapter is None) == (adapter_cmd is None):
        raise ConfigurationError("adapter", None, "exactly one of --adapter and --adapter-cmd", UNKNOWN_FIELD)
    spec = f"wire:{adapter_cmd}" if adapter_cmd is not None else adapter.strip()  # type: ignore[union-attr]
    if not spec.startswith("wire:"):
        return spec
    try:  # an unbalanced quote is a usage error found before anything starts, not a task's crash
        argv = shlex.split(spec.removeprefix("wire:"))
    except ValueError as err:
        raise ConfigurationError("--adapter", spec, f"a command line ({err})", UNKNOWN_FIELD) from None
    if not argv:
        raise ConfigurationError("--adapter", spec, "wire:COMMAND (the implementation's command)", UNKNOWN_FIELD)
    return f"wire:{shlex.join(argv)}" if adapter_cmd is not None else spec  # (--adapter as given: resumes match)


def spec_from_args(args: argparse.Namespace) -> CampaignSpec:
    """A validated :class:`CampaignSpec` from parsed ``fuzz`` arguments."""
    for name in ("partitions", "max_blocks", "max_signatures"):
        value = getattr(args, name, None)
        if value is not None and value < (1 if name == "partitions" else 0):
            raise ConfigurationError(f"--{name.replace('_', '-')}", value, "a whole number >= 1", UNKNOWN_FIELD)
    every = getattr(args, "progress_seconds", 0.0)
    if not 0 <= every <= MAX_PROGRESS_SECONDS:  # (NaN fails every comparison)
        allowed = f"seconds, 0 (no progress lines) to {MAX_PROGRESS_SECONDS:g}"
        raise ConfigurationError("--progress-seconds", every, allowed, UNKNOWN_FIELD)
    block_size = args.block_size if args.block_size is not None else default_block_size(max(1, args.traces))
    return CampaignSpec(
        adapter=adapter_spec(args.adapter, args.adapter_cmd), traces=args.traces, steps=args.steps, seed=args.seed,
        profiles=args.profile, block_size=block_size, full_traces=args.full_traces, timeout=args.timeout,
    ).validate()  # fmt: skip


#: What a campaign needs (the ``spark`` extra; the core install has none of them): module -> package.
SPARK_MODULES = {"pyspark": "pyspark", "pyarrow": "pyarrow", "pandas": "pandas"}


def missing_spark(command: str) -> str | None:
    """The one line a Spark command prints (exit 2) when the ``spark`` extra is not installed, else None."""
    missing = [package for module, package in SPARK_MODULES.items() if _missing(module)]
    if not missing:
        return None
    return f"cfconform {command}: needs the spark extra (missing {', '.join(missing)}): pip install 'cfconform[spark]'"


def extra_first(parser: argparse.ArgumentParser, command: str) -> None:
    """Without the ``spark`` extra, a usage error of ``command`` (``cfconform fuzz`` with no arguments)
    is reported as the missing extra's one line, exit 2: no argument would make it run."""
    usage_error = parser.error

    def error(message: str) -> NoReturn:
        problem = missing_spark(command)
        if problem is not None:
            parser.exit(2, problem + "\n")
        usage_error(message)

    parser.error = error  # type: ignore[method-assign]


#: What a Spark Connect client needs beyond pyspark (the ``connect`` extra): module -> package.
CONNECT_MODULES = {"grpc": "grpcio", "grpc_status": "grpcio-status", "google.rpc": "googleapis-common-protos",
                   "zstandard": "zstandard"}  # fmt: skip
CONNECT_PORT = 15002


def _missing(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except ModuleNotFoundError:  # (its parent package is missing)
        return True


def remote_address(master: str | None, remote: str | None, environ: dict[str, str] | None = None) -> str | None:
    """The Spark Connect URL of a run (``--remote``, else ``SPARK_REMOTE``), checked; None for a classic session.

    Raises :class:`ConfigurationError` for a URL that is not ``sc://HOST[:PORT][/;key=value...]``,
    for ``--master`` beside a remote, and when the ``connect`` extra is not installed.
    """
    env = os.environ if environ is None else environ
    if (master or "").strip().startswith("sc://"):
        raise ConfigurationError(
            "--master", master, "a Spark master (a Spark Connect URL goes to --remote)", UNKNOWN_FIELD
        )
    option = "--remote" if remote is not None else "SPARK_REMOTE"
    url = remote if remote is not None else env.get("SPARK_REMOTE")
    if url is None:
        return None
    url = url.strip()
    if master is not None:
        raise ConfigurationError(option, url, "a Spark Connect URL or --master, not both", UNKNOWN_FIELD)
    host_port = url.removeprefix("sc://").split("/", 1)[0]
    try:
        parts = urlsplit(f"//{host_port}")
        port = parts.port
    except ValueError:
        port = -1
    if not url.startswith("sc://") or not parts.hostname or port == -1 or port == 0:
        raise ConfigurationError(option, url, "sc://HOST[:PORT] (a Spark Connect server)", UNKNOWN_FIELD)
    missing = [package for module, package in CONNECT_MODULES.items() if _missing(module)]
    if missing:
        allowed = f"the Spark Connect client packages (missing {', '.join(missing)}: pip install 'cfconform[connect]')"
        raise ConfigurationError(option, url, allowed, UNKNOWN_FIELD)
    return url


def connect_endpoint(url: str) -> tuple[str, int]:
    """``sc://host:port/;k=v`` -> ``(host, port)`` (port 15002 when absent)."""
    parts = urlsplit(f"//{url.removeprefix('sc://').split('/', 1)[0]}")
    return parts.hostname or "", parts.port or CONNECT_PORT
