"""``cfconform check-protocol``: a wire-compliance self-test of an implementation.

Run it before an implementation's behaviour is judged: it checks that the
process speaks docs/PROTOCOL.md (handshake, framing, pairing, schemas, error
replies, lifecycle), not that it behaves like the model.  One line per check,
``PASS``/``FAIL`` with a precise message; exit 0 if all pass, 3 otherwise.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
import time
from collections.abc import Callable
from typing import Any

from .run import positive_int, timeout_seconds

NAME = "check-protocol"
HELP = "check that an implementation process speaks the wire protocol (docs/PROTOCOL.md)"

EXIT_OK, EXIT_ADAPTER = 0, 3


def configure(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument(
        "--adapter", metavar="wire:COMMAND", help='the implementation\'s command, e.g. "wire:node adapter.js"'
    )
    group.add_argument("--cmd", help=argparse.SUPPRESS)  # the old spelling, kept
    parser.add_argument(
        "--timeout", type=timeout_seconds, default=10.0, help="seconds allowed per reply (default 10; at most 3600)"
    )
    parser.add_argument(
        "--profile",
        choices=("mq", "cqs"),
        default=None,
        help="profile to open (default: the first one the implementation claims)",
    )
    parser.add_argument("--max-line-bytes", type=positive_int, default=None, help="reply line limit (default 1 MiB)")


def small_config(profile: str) -> Any:
    """The small valid configuration opened by the self-test."""
    from cfconform.reference_model.config import Config, QueueDef, StructureDef

    structure = StructureDef("APP1", cflevel=5, recover=True) if profile == "mq" else StructureDef("APP1")
    return Config(
        profile=profile,
        qsg="QSG1",
        qmgrs=("QM01", "QM02"),
        structures=(structure,),
        queues=(QueueDef("Q1", cfstruct="APP1", maxdepth=100),),
    )


class Checker:
    """Runs the checks in order against one process; a fatal fault fails the rest as not run."""

    def __init__(
        self,
        cmd: list[str],
        timeout: float,
        profile: str | None,
        max_line_bytes: int,
        emit: Callable[[str], None] = print,
    ) -> None:
        self.cmd = cmd
        self.timeout = timeout
        self.profile = profile
        self.max_line_bytes = max_line_bytes
        self.emit = emit
        self.results: list[tuple[str, bool, str]] = []
        self.conn: Any = None
        self.caps: dict[str, Any] = {}
        self.peer_version: Any = None
        self.dead: str | None = None
        self.blocked: str | None = None

    # -- reporting ------------------------------------------------------------------------
    def record(self, name: str, ok: bool, text: str) -> bool:
        self.results.append((name, ok, text))
        self.emit(f"{'PASS' if ok else 'FAIL'} {name}: {text}")
        return ok

    def check(self, name: str, body: Callable[[], str], *, needs: str | None = None) -> bool:
        """Run one check: ``body`` returns the PASS text or raises _Failed/ConnectionFault.

        ``needs`` names an earlier check this one depends on: if it failed, this one is not run.
        """
        from cfconform.adapters.wire.process import ConnectionFault

        if self.dead is not None:
            return self.record(name, False, f"not run: {self.dead}")
        if needs is not None and not any(n == needs and ok for n, ok, _ in self.results):
            return self.record(name, False, f"not run: check {needs!r} failed")
        try:
            return self.record(name, True, body())
        except _Failed as failed:
            return self.record(name, False, str(failed))
        except ConnectionFault as fault:
            self.dead = f"the connection failed earlier ({fault.fault})"
            text = f"{fault.fault}: {fault}"
            if self.conn is not None:
                self.conn.kill()
            return self.record(name, False, text)

    # -- helpers --------------------------------------------------------------------------
    def request(
        self, msg: dict[str, Any], expect: str, check: Callable[[dict[str, Any]], None] | None = None
    ) -> dict[str, Any]:
        from cfconform.adapters.wire import schemas

        msg_id = self.conn.next_msg_id()
        reply = self.conn.request({"msg_id": msg_id, **msg}, self.timeout)
        if reply.get("in_reply_to") != msg_id:
            raise _Failed(f"{reply['type']} has in_reply_to {reply.get('in_reply_to')!r}, expected {msg_id}")
        if reply["type"] != expect:
            raise _Failed(f"expected {expect}, got {_brief(reply)}")
        if check is not None:
            check(reply)
        problems = schemas.errors(expect, reply)
        if problems:
            raise _Failed("schema-invalid reply: " + "; ".join(problems))
        return reply

    def apply(self, op: Any, *, allow_not_supported: bool = False) -> str:
        from cfconform.reference_model.codec import op_to_record

        record = op_to_record(op)
        msg_id = self.conn.next_msg_id()
        reply = self.conn.request({"type": "apply", "msg_id": msg_id, "op": record}, self.timeout)
        if allow_not_supported and reply["type"] == "error" and reply.get("code") == 10:
            _check_error(reply, msg_id)
            return f"not supported (definite error 10, allowed): {reply.get('text')!r:.80}"
        if reply["type"] != "apply_ok":
            raise _Failed(f"apply {op.KIND} (msg_id {msg_id}): expected apply_ok, got {_brief(reply)}")
        _check_schema("apply_ok", reply)
        outcome = reply["outcome"]
        if outcome["kind"] != op.KIND:
            raise _Failed(f"outcome kind {outcome['kind']!r} for a {op.KIND!r} op")
        return f"apply_ok in_reply_to {msg_id}, outcome {_outcome_text(outcome)}"

    # -- the checks -----------------------------------------------------------------------
    def run(self) -> bool:
        from cfconform.adapters.wire.process import WireConnection
        from cfconform.reference_model.operations import Get, Inspect, Put

        try:
            self.conn = WireConnection(self.cmd, max_line_bytes=self.max_line_bytes)
        except OSError as exc:
            self.record("start", False, f"cannot start {shlex.join(self.cmd)!r}: {exc}")
            self.dead = "the process did not start"
        else:
            self.record("start", True, f"started {shlex.join(self.cmd)!r} (pid {self.conn.process.pid})")
        bad_op = {"type": "apply", "op": {"op": "cfconform_no_such_op", "qmgr": "QM01"}}
        checks: list[tuple[str, Callable[[], str], str | None]] = [
            ("handshake", self._handshake, None),
            ("capabilities", self._capabilities, "handshake"),
            ("open", self._open, "capabilities"),
            ("apply put", lambda: self.apply(Put("QM01", "Q1", 100, tag=1)), "open"),
            ("apply get", lambda: self.apply(Get("QM02", "Q1")), "open"),
            ("apply inspect", lambda: self.apply(Inspect(), allow_not_supported=True), "open"),
            ("batch", self._batch, "open"),
            ("invalid op kind", lambda: self._invalid(bad_op), "open"),
            ("survives invalid op", lambda: self.apply(Get("QM01", "Q1")), "open"),
            ("unknown message type", lambda: self._invalid({"type": "cfconform_no_such_type"}), "handshake"),
            ("survives unknown type", lambda: self.apply(Get("QM01", "Q1")), "open"),
            ("close", self._close, "handshake"),
        ]
        try:
            for name, body, needs in checks:
                self.check(name, body, needs=needs)
        finally:
            if self.conn is not None:
                self.conn.kill()
        return all(ok for _, ok, _ in self.results)

    def _handshake(self) -> str:
        from cfconform.adapters.protocol import PROTOCOL_VERSION
        from cfconform.adapters.wire.client import suite_name

        start = time.monotonic()
        msg = {
            "type": "init",
            "protocol_version": PROTOCOL_VERSION,
            "suite": suite_name(),
            "max_line_bytes": self.max_line_bytes,
        }
        reply = self.request(msg, "init_ok", check=lambda r: _check_version(r.get("protocol_version")))
        version = reply["protocol_version"]
        self.peer_version = version
        self.caps = reply["capabilities"]
        return f"init_ok protocol_version {version} in {time.monotonic() - start:.2f} s"

    def _capabilities(self) -> str:
        from cfconform.adapters.wire import messages as m

        _check_schema("capabilities", self.caps)
        try:
            caps = m.capabilities_from_record(self.caps)
        except m.ProtocolViolation as exc:
            raise _Failed(str(exc)) from None
        if self.profile is None:
            self.profile = caps.profiles[0]
        elif self.profile not in caps.profiles:
            raise _Failed(f"profile {self.profile!r} not claimed (profiles {list(caps.profiles)})")
        return (
            f"name {caps.name!r}, profiles {list(caps.profiles)}, families {list(caps.families)}, "
            f"reason_codes {caps.reason_codes}, observes {list(caps.observes)}; testing profile {self.profile}"
        )

    def _open(self) -> str:
        from cfconform.adapters.wire.peer import config_for_peer, version_tuple

        # as the gate sends it: readings newer than the announced protocol version are left out
        config = config_for_peer(small_config(self.profile or "mq"), version_tuple(self.peer_version))
        self.request({"type": "open", "config": config}, "open_ok")
        return f"open_ok for a small {self.profile} config (1 structure APP1, queue Q1, QM01+QM02)"

    def _batch(self) -> str:
        from cfconform.reference_model.codec import op_to_record
        from cfconform.reference_model.operations import Get, Put

        ops = [Put("QM01", "Q1", 10, tag=2), Put("QM02", "Q1", 20, tag=3), Get("QM01", "Q1"), Get("QM02", "Q1")]
        reply = self.request({"type": "batch", "ops": [op_to_record(op) for op in ops]}, "batch_ok")
        outcomes = reply["outcomes"]
        if "error" in reply:
            raise _Failed(f"batch_ok stopped at op {len(outcomes)} with error {reply['error']!r:.160}")
        if len(outcomes) != len(ops):
            raise _Failed(f"{len(outcomes)} outcomes for {len(ops)} ops")
        kinds = [o["kind"] for o in outcomes]
        if kinds != [op.KIND for op in ops]:
            raise _Failed(f"outcome kinds {kinds}, expected {[op.KIND for op in ops]}")
        return f"batch_ok with {len(outcomes)} outcomes: " + ", ".join(_outcome_text(o) for o in outcomes)

    def _invalid(self, msg: dict[str, Any]) -> str:
        msg_id = self.conn.next_msg_id()
        reply = self.conn.request({"msg_id": msg_id, **msg}, self.timeout)
        if reply["type"] != "error":
            raise _Failed(f"expected an error reply, got {_brief(reply)}")
        _check_error(reply, msg_id)
        if reply.get("definite") is not True:
            raise _Failed(f"error {reply.get('code')} is not definite (the request had no effect)")
        if reply.get("code") not in (10, 11):
            raise _Failed(f"error code {reply.get('code')}, expected 11 (invalid-request) or 10 (not-supported)")
        return f"definite error {reply['code']} in_reply_to {msg_id}: {reply.get('text')!r:.100}"

    def _close(self) -> str:
        self.conn.note_descendants()  # those that left its group are ended with it (issue 24)
        msg_id = self.conn.next_msg_id()
        reply = self.conn.request({"type": "close", "msg_id": msg_id}, self.timeout)
        if reply["type"] != "close_ok":
            raise _Failed(f"expected close_ok, got {_brief(reply)}")
        _check_schema("close_ok", reply)
        code = self.conn.wait_exit(self.timeout)
        if code is None:
            raise _Failed(f"close_ok, but the process was still running {self.timeout:g} s later")
        extra = self.conn.drain_stdout()
        if extra.strip():
            raise _Failed(f"output on stdout after close_ok: {extra[:120]!r}")
        if code != 0:
            raise _Failed(f"close_ok, then the process exited with code {code}")
        return "close_ok, process exited with code 0"


class _Failed(Exception):
    """A check failed without breaking the connection."""


def _check_schema(name: str, instance: Any) -> None:
    from cfconform.adapters.wire import schemas

    problems = schemas.errors(name, instance)
    if problems:
        raise _Failed("schema-invalid: " + "; ".join(problems))


def _check_error(reply: dict[str, Any], msg_id: int) -> None:
    from cfconform.adapters.wire import messages as m

    _check_schema("error", reply)
    if reply.get("in_reply_to") != msg_id:
        raise _Failed(f"error in_reply_to {reply.get('in_reply_to')!r}, expected {msg_id}")
    entry = m.ERROR_BY_CODE.get(reply["code"])
    if entry is not None and entry.definite != reply["definite"]:
        raise _Failed(f"error {reply['code']} ({entry.name}) must have definite={str(entry.definite).lower()}")


def _check_version(version: Any) -> None:
    """Any MAJOR.MINOR with the suite's major version passes (docs/PROTOCOL.md, Versioning)."""
    from cfconform.adapters.protocol import PROTOCOL_VERSION

    major = PROTOCOL_VERSION.split(".")[0]
    if not isinstance(version, str) or re.fullmatch(rf"{major}\.[0-9]+", version) is None:
        raise _Failed(
            f"init_ok protocol_version {version!r:.40}, expected {major}.x (the suite speaks {PROTOCOL_VERSION})"
        )


def _brief(reply: dict[str, Any]) -> str:
    if reply.get("type") == "error":
        return f"error {reply.get('code')} ({reply.get('text')!r:.100})"
    return f"{reply.get('type')!r}"


def _outcome_text(outcome: dict[str, Any]) -> str:
    status = "ok" if outcome.get("ok") else f"failed {outcome.get('reason')}"
    tag = f" tag {outcome['tag']}" if outcome.get("tag") is not None else ""
    return f"{outcome.get('kind')} {status}{tag}"


def run(args: argparse.Namespace) -> int:
    from cfconform.adapters.wire.messages import MAX_LINE_BYTES

    command = args.cmd if args.cmd is not None else args.adapter.removeprefix("wire:")
    if args.cmd is None and not args.adapter.startswith("wire:"):
        print(f"cfconform check-protocol: --adapter {args.adapter}: a wire:COMMAND spec", file=sys.stderr)
        return 2
    try:
        cmd = shlex.split(command)
    except ValueError as err:  # an unbalanced quote: one line, exit 2
        print(f"cfconform check-protocol: --adapter {command!r}: {err}", file=sys.stderr)
        return 2
    if not cmd:
        print(f"cfconform check-protocol: --adapter {args.adapter or ''!r}: wire:COMMAND, not empty", file=sys.stderr)
        return 2
    checker = Checker(cmd, args.timeout, args.profile, args.max_line_bytes or MAX_LINE_BYTES)
    ok = checker.run()
    failed = [name for name, passed, _ in checker.results if not passed]
    if ok:
        print(f"summary: all {len(checker.results)} checks passed")
        return EXIT_OK
    print(f"summary: {len(failed)} of {len(checker.results)} checks failed ({', '.join(failed)})")
    return EXIT_ADAPTER
