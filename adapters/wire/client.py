"""The suite's side of the wire protocol: an Adapter that drives an implementation process.

:class:`WireAdapter` spawns the implementation (``subprocess.Popen`` of an
argument list, never a shell), speaks docs/PROTOCOL.md with it over its
stdin/stdout, keeps the tail of its stderr for error messages, and turns every
fault into an :class:`~cfconform.adapters.protocol.AdapterError` that names the protocol
step (``init``, ``open``, ``apply``, ``batch``, ``close``) and what happened:

=====================  ==============================================  =========
fault                  example message                                 definite
=====================  ==============================================  =========
process exited         ``apply (msg_id 7): implementation exited ...``  no
timeout                ``batch (msg_id 9): no reply within 2.0 s ...``  no
garbage                ``... not a JSON line ...``                      no
oversized line         ``... reply line longer than 1048576 bytes``     no
wrong ``in_reply_to``  ``... in_reply_to 3, expected 4``                no
wrong version          ``init ...: protocol_version '2.0' ...``         yes
schema-invalid reply   ``... batch_ok reply to msg_id 9 at ...``        no
unknown message type   ``... unknown message type 'frob'``              no
error reply            ``open (msg_id 2): error 13 bad-config: ...``    per code
=====================  ==============================================  =========

Every fault but an ``error`` reply is fatal: the process is killed and the
adapter is *broken*; the next :meth:`WireAdapter.open` starts a fresh process.
Child processes never outlive the adapter: :meth:`close` asks politely, then
terminates and kills the process group after a grace period and reaps it, and a
``weakref.finalize`` guard (run at interpreter exit too) does the same for an
adapter that was never closed.
"""

from __future__ import annotations

import gc
import logging
import shlex
import subprocess
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn

from cfconform.reference_model.config import Config
from cfconform.reference_model.outcomes import Outcome

from ..protocol import PROTOCOL_VERSION, Capabilities
from . import messages as m
from . import schemas
from .peer import WireError, WireNotSupported, config_for_peer, record_for_peer, too_new, version_tuple
from .process import GRACE_SECONDS, ConnectionFault, WireConnection

__all__ = [
    "VALIDATE_MODES", "ConnectionFault", "WireAdapter", "WireConnection", "WireError", "WireNotSupported",
    "config_for_peer", "suite_name", "too_new", "version_tuple",
]  # fmt: skip

log = logging.getLogger("cfconform.wire.client")

#: Values of ``WireAdapter(validate=...)``; "sample" is the old name of "all" (replies are no longer sampled).
VALIDATE_MODES = ("all", "none", "sample")


def suite_name() -> str:
    try:
        from importlib.metadata import version

        return f"cfconform {version('cfconform')}"
    except Exception:  # pragma: no cover - not installed
        return "cfconform"


class WireAdapter:
    """An :class:`~cfconform.adapters.protocol.Adapter` for an implementation process speaking the wire protocol.

    Args:
        cmd: the implementation's command, an argument list (a string is split
            with :func:`shlex.split`; no shell is ever involved).
        timeout: seconds allowed for each ``open``/``apply``/``batch``/``close`` reply.
        init_timeout: seconds allowed for the process to start and answer ``init``.
        max_line_bytes: the longest reply line accepted (and announced in ``init``).
        batch_size: operations per ``batch`` request (large batches are chunked).
        validate: ``"all"`` (default): every reply is checked before anything reaches the
            caller: control replies (``init_ok``, ``open_ok``, ``error``) against the JSON
            Schemas, ``apply_ok``/``batch_ok`` envelopes and *every* outcome in them by
            :func:`cfconform.adapters.wire.messages.decode_outcome`, a hand-written check equivalent to
            ``docs/schemas/outcome.json`` (and refusing NaN/Infinity).  ``"none"``: control
            replies get structural checks only; outcomes are still checked in full (the check
            is how they are decoded).  ``"sample"`` is accepted as the old name of ``"all"``.
            A violation is a ``schema`` fault naming the reply and the field.
        stderr_path: append the implementation's stderr to this file (its tail is always
            kept in memory for error messages).
        pause_gc: pause Python's cyclic garbage collector during ``apply_batch`` (it
            would otherwise rescan the growing list of outcomes; twice the throughput).
        cwd, env: for the process.
    """

    def __init__(
        self,
        cmd: Sequence[str] | str,
        *,
        timeout: float = 10.0,
        init_timeout: float = 20.0,
        max_line_bytes: int = m.MAX_LINE_BYTES,
        batch_size: int = m.BATCH_CHUNK,
        validate: str = "all",
        stderr_path: str | None = None,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        grace: float = GRACE_SECONDS,
        pause_gc: bool = True,
    ) -> None:
        if isinstance(cmd, str):
            cmd = shlex.split(cmd)
        if validate not in VALIDATE_MODES:
            raise ValueError(f"validate={validate!r}: one of 'all', 'none' ('sample' is the old name of 'all')")
        self.cmd = list(cmd)
        self.timeout = timeout
        self.init_timeout = init_timeout
        self.max_line_bytes = max_line_bytes
        self.batch_size = max(1, batch_size)
        self.validate = "all" if validate == "sample" else validate
        self.stderr_path = stderr_path
        self.cwd = cwd
        self.env = env
        self.grace = grace
        self.pause_gc = pause_gc
        self.conn: WireConnection | None = None
        self.process: subprocess.Popen | None = None
        self.broken: str | None = None
        self._caps: Capabilities | None = None
        self._peer_version: tuple[int, int] = (1, 0)  # the protocol version init_ok announced
        self._opened = False

    def __repr__(self) -> str:
        return f"WireAdapter({shlex.join(self.cmd)!r})"

    def __enter__(self) -> WireAdapter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- connection management ------------------------------------------------------------
    def _start(self) -> WireConnection:
        phase = "init"
        try:
            conn = WireConnection(
                self.cmd,
                max_line_bytes=self.max_line_bytes,
                stderr_path=self.stderr_path,
                cwd=self.cwd,
                env=self.env,
                grace=self.grace,
            )
        except OSError as exc:
            raise WireError(
                f"wire init: cannot start implementation {shlex.join(self.cmd)!r}: {exc}",
                phase=phase,
                fault="exited",
                definite=True,
            ) from exc
        self.conn, self.process, self.broken, self._opened = conn, conn.process, None, False
        msg_id = conn.next_msg_id()
        msg = {
            "type": "init",
            "msg_id": msg_id,
            "protocol_version": PROTOCOL_VERSION,
            "suite": suite_name(),
            "max_line_bytes": self.max_line_bytes,
        }
        reply = self._round_trip(phase, msg, self.init_timeout)
        if reply["type"] == "error":
            err = self._error(phase, msg_id, reply)
            self._fail(
                phase,
                msg_id,
                ConnectionFault("error-reply", str(err).split(": ", 1)[1], definite=True),
                code=err.code,
                detail=err.detail,
            )
        try:
            version = reply.get("protocol_version")
            if reply["type"] == "init_ok" and not _compatible(version):
                raise ConnectionFault(
                    "version",
                    f"init_ok protocol_version {version!r:.40} is not compatible with the suite's {PROTOCOL_VERSION}",
                    definite=True,
                )
            self._check("init_ok", reply)
            caps = m.capabilities_from_record(reply.get("capabilities"))
            if not _compatible(caps.protocol_version):
                raise ConnectionFault(
                    "version",
                    f"capabilities.protocol_version {caps.protocol_version!r:.40} is not "
                    f"compatible with the suite's {PROTOCOL_VERSION}",
                    definite=True,
                )
            peer = reply.get("max_line_bytes")
            if type(peer) is int and peer >= 1024:
                conn.peer_max_line_bytes = peer
        except m.ProtocolViolation as exc:
            self._fail(phase, msg_id, ConnectionFault("schema", str(exc)))
        except ConnectionFault as fault:
            self._fail(phase, msg_id, fault)
        self._caps = caps
        self._peer_version = version_tuple(version)
        return conn

    def _live(self, phase: str) -> WireConnection:
        if self.broken is not None:
            raise WireError(
                f"wire {phase}: the adapter is broken by an earlier fault ({self.broken}); open() starts a new process",
                phase=phase,
                fault="broken",
            )
        if self.conn is None:
            return self._start()
        return self.conn

    def _fail(self, phase: str, msg_id: int | None, fault: ConnectionFault, **kw: Any) -> NoReturn:
        """Kill the process, mark the adapter broken and raise the fault as a WireError."""
        where = f"{phase} (msg_id {msg_id})" if msg_id is not None else phase
        text = f"wire {where}: {fault}"
        if self.conn is not None:
            self.conn.kill()
        self.conn, self._opened = None, False
        self.broken = text.splitlines()[0][:300]
        raise WireError(text, phase=phase, fault=fault.fault, definite=fault.definite, **kw) from None

    def _round_trip(self, phase: str, msg: dict[str, Any], timeout: float, **kw: Any) -> dict[str, Any]:
        conn = self.conn
        assert conn is not None
        try:
            return conn.request(msg, timeout)
        except ConnectionFault as fault:
            self._fail(phase, msg["msg_id"], fault, **kw)

    def _check(self, name: str, reply: dict[str, Any]) -> None:
        """Check a control reply (``apply_ok`` and ``batch_ok`` are checked where their outcomes are decoded)."""
        if reply["type"] != name:
            raise ConnectionFault("unexpected-type", f"got {reply['type']!r}, expected {name!r}")
        if self.validate != "none":
            schemas.validate(name, reply)

    def _error(self, phase: str, msg_id: int, reply: dict[str, Any], **kw: Any) -> WireError:
        """A WireError for an ``error`` reply (or a ProtocolViolation-made fault if it is malformed)."""
        problems = schemas.errors("error", reply) if self.validate != "none" else []
        code, text = reply.get("code"), reply.get("text")
        if problems or type(code) is not int or not isinstance(text, str):
            fault = ConnectionFault("schema", "schema-invalid error reply: " + "; ".join(problems))
            self._fail(phase, msg_id, fault, **kw)
        definite = m.is_definite(code, reply.get("definite") is True)  # type: ignore[arg-type]
        entry = m.ERROR_BY_CODE.get(code)  # type: ignore[arg-type]
        name = f" {entry.name}" if entry else ""
        refused = code == m.NOT_SUPPORTED and definite and phase in ("apply", "batch")
        return (WireNotSupported if refused else WireError)(
            f"wire {phase} (msg_id {msg_id}): error {code}{name}: {text}",
            phase=phase,
            fault="error-reply",
            definite=definite,
            code=code,
            detail=reply.get("detail"),
            **kw,
        )

    # -- the Adapter protocol -------------------------------------------------------------
    def capabilities(self) -> Capabilities:
        """Start the process if needed and return what its ``init_ok`` claimed."""
        if self._caps is None:
            self._live("init")
        assert self._caps is not None
        return self._caps

    def open(self, config: Config) -> None:
        """Send ``open``; a broken or exited adapter first starts a new process."""
        self._open(lambda: config_for_peer(config, self._peer_version))

    #: The process decides on a configuration record itself (:meth:`open_record`).
    opens_records = True

    def open_record(self, record: Mapping[str, Any]) -> None:
        """Send ``open`` with ``record`` as it is (a configuration the model refuses: judge/opening.py),
        but for the readings the peer's protocol version does not know."""
        self._open(lambda: record_for_peer(dict(record), self._peer_version))

    def _open(self, record: Callable[[], dict[str, Any]]) -> None:
        """``open`` with the configuration record ``record()`` makes once the peer's version is known."""
        if self.broken is not None or (self.conn is not None and not self.conn.alive):
            if self.conn is not None:
                self.conn.kill()
            self.conn, self.broken = None, None
        conn = self._live("open")
        phase = "open"
        msg_id = conn.next_msg_id()
        self._opened = False
        reply = self._round_trip(
            phase,
            {"type": "open", "msg_id": msg_id, "config": record()},
            self.timeout,
        )
        if reply["type"] == "error":
            raise self._error(phase, msg_id, reply)
        try:
            self._check("open_ok", reply)
        except (m.ProtocolViolation, ConnectionFault) as exc:
            self._fail(phase, msg_id, exc if isinstance(exc, ConnectionFault) else ConnectionFault("schema", str(exc)))
        self._opened = True

    def _too_new(self, kind: str) -> WireNotSupported | None:
        return too_new(kind, self._peer_version)

    def apply(self, op: Any) -> Outcome:
        conn = self._live("apply")
        refused = self._too_new(op.KIND)
        if refused is not None:
            refused.step = 0
            raise refused
        phase = "apply"
        msg_id = conn.next_msg_id()
        record = m.fast_op_record(op)
        line = f'{{"type":"apply","msg_id":{msg_id},"op":{m.dumps(record)}}}\n'.encode()
        if len(line) - 1 > conn.peer_max_line_bytes:
            raise WireError(
                f"wire apply: the {op.KIND} request ({len(line)} bytes) exceeds the implementation's "
                f"{conn.peer_max_line_bytes}-byte line limit; not sent",
                phase=phase,
                fault="too-large",
                definite=True,
                step=0,
            )
        try:
            conn.send_line(line, self.timeout)
            reply = conn.expect_reply(msg_id, self.timeout)
        except ConnectionFault as fault:
            self._fail(phase, msg_id, fault, step=0)
        if reply["type"] == "error":
            raise self._error(phase, msg_id, reply, step=0)
        try:
            if reply["type"] != "apply_ok":
                raise ConnectionFault("unexpected-type", f"got {reply['type']!r}, expected 'apply_ok'")
            if "outcome" not in reply:
                raise m.ProtocolViolation(
                    f"schema-invalid apply_ok reply to msg_id {msg_id}: 'outcome' is a required property"
                )
            outcome = m.decode_outcome(reply["outcome"])
            _same_kind(op, outcome, 0)
        except m.OutcomeViolation as exc:
            text = exc.describe(f"apply_ok reply to msg_id {msg_id} at outcome")
            self._fail(phase, msg_id, ConnectionFault("schema", text), step=0)
        except m.ProtocolViolation as exc:
            self._fail(phase, msg_id, ConnectionFault("schema", str(exc)), step=0)
        except ConnectionFault as fault:
            self._fail(phase, msg_id, fault, step=0)
        return outcome

    def apply_batch(self, ops: Sequence[Any]) -> list[Outcome]:
        """Apply ``ops`` in order in as few round trips as the size limits allow.

        Chunks of up to ``batch_size`` operations are sent one at a time; as soon
        as a reply has been parsed and found complete, the next chunk is sent,
        and the reply's outcomes are decoded (and the chunk after next encoded)
        while the implementation works.  If the implementation stops early with
        an error for an operation, the raised :class:`WireError` has ``step`` =
        its index in ``ops`` and ``outcomes`` = the outcomes before it.
        """
        if not ops:
            return []
        self._live("batch")
        first = next((i for i, op in enumerate(ops) if self._too_new(op.KIND) is not None), None)
        if first is not None:  # the ops before it run; it is refused as its error 10 would be
            outcomes = self.apply_batch(ops[:first])
            refused = self._too_new(ops[first].KIND)
            assert refused is not None
            refused.step, refused.phase, refused.outcomes = first, "batch", outcomes
            raise refused
        if not (self.pause_gc and gc.isenabled()):
            return self._apply_batch(ops)
        gc.disable()  # decoding allocates many acyclic objects the caller keeps: collecting them is waste
        try:
            return self._apply_batch(ops)
        finally:
            gc.enable()

    def _apply_batch(self, ops: Sequence[Any]) -> list[Outcome]:
        conn = self._live("batch")
        phase = "batch"
        outcomes: list[Outcome] = []
        total = len(ops)
        pos = 0
        text, count = self._encode_chunk(ops, 0, conn.peer_max_line_bytes)
        pending: tuple[list[Any], int, int] | None = None  # (outcome records, index of the first, reply's msg_id)
        while pos < total:
            msg_id = conn.next_msg_id()
            line = f'{{"type":"batch","msg_id":{msg_id},"ops":{text}}}\n'.encode()
            try:
                conn.send_line(line, self.timeout)
            except ConnectionFault as fault:
                self._fail(phase, msg_id, fault, step=pos, outcomes=outcomes)
            after = pos + count
            if pending is not None:  # overlap: decode the previous reply while this chunk runs
                self._decode_into(outcomes, pending, ops, phase, msg_id)
                pending = None
            upcoming: tuple[str, int] | WireError | None = None
            if after < total:
                try:
                    upcoming = self._encode_chunk(ops, after, conn.peer_max_line_bytes)
                except WireError as exc:  # raised once this chunk's reply is in (the connection stays in step)
                    upcoming = exc
            try:
                reply = conn.expect_reply(msg_id, self.timeout)
            except ConnectionFault as fault:
                self._fail(phase, msg_id, fault, step=pos, outcomes=outcomes)
            if reply["type"] == "error":
                raise self._error(phase, msg_id, reply, step=pos, outcomes=outcomes)
            try:
                raw, error = self._batch_envelope(reply, count)
            except m.ProtocolViolation as exc:
                self._fail(phase, msg_id, ConnectionFault("schema", str(exc)), step=pos, outcomes=outcomes)
            except ConnectionFault as fault:
                self._fail(phase, msg_id, fault, step=pos, outcomes=outcomes)
            if error is None and len(raw) == count:
                pending = (raw, pos, msg_id)
                pos = after
                if isinstance(upcoming, WireError):
                    self._decode_into(outcomes, pending, ops, phase, msg_id)
                    upcoming.outcomes = outcomes
                    raise upcoming
                if upcoming is not None:
                    text, count = upcoming
                continue
            self._decode_into(outcomes, (raw, pos, msg_id), ops, phase, msg_id)  # raw may be empty
            pos += len(raw)
            if error is not None:
                raise self._error(
                    phase, msg_id, {"type": "error", "in_reply_to": msg_id, **error}, step=pos, outcomes=outcomes
                )
            try:  # only a prefix was applied: send the rest
                text, count = self._encode_chunk(ops, pos, conn.peer_max_line_bytes)
            except WireError as exc:
                exc.outcomes = outcomes
                raise
        if pending is not None:
            self._decode_into(outcomes, pending, ops, phase, None)
        return outcomes

    def _encode_chunk(self, ops: Sequence[Any], start: int, peer_limit: int) -> tuple[str, int]:
        """The JSON list of ``ops[start:...]`` (as many as one request may carry) and its length."""
        budget = peer_limit - 128
        count = min(len(ops) - start, self.batch_size)
        record = m.fast_op_record
        while True:
            text = m.dumps([record(op) for op in ops[start : start + count]])
            if len(text) <= budget:
                return text, count
            if count == 1:
                raise WireError(
                    f"wire batch: op {start} ({ops[start].KIND}, {len(text)} bytes) exceeds the "
                    f"implementation's {peer_limit}-byte line limit; not sent",
                    phase="batch",
                    fault="too-large",
                    definite=True,
                    step=start,
                )
            count = max(1, min(count // 2, count * budget // len(text)))

    def _batch_envelope(self, reply: dict[str, Any], sent: int) -> tuple[list[Any], dict[str, Any] | None]:
        """Check a batch reply's envelope (not its outcomes): ``(outcome records, error or None)``."""
        if reply["type"] != "batch_ok":
            raise ConnectionFault("unexpected-type", f"got {reply['type']!r}, expected 'batch_ok'")
        raw = reply.get("outcomes")
        error = reply.get("error")
        if type(raw) is not list:
            raise m.ProtocolViolation("batch_ok without an 'outcomes' list")
        if len(raw) > sent:
            raise m.ProtocolViolation(f"batch_ok has {len(raw)} outcomes for {sent} ops")
        if "error" in reply and (type(error) is not dict or len(raw) >= sent):
            raise m.ProtocolViolation(
                f"schema-invalid batch_ok reply to msg_id {reply['in_reply_to']} at error: {error!r:.80}: 'error' "
                "must be an object and leave at least one op unanswered"
            )
        if error is None and not raw:
            raise m.ProtocolViolation("batch_ok with no outcomes and no error")
        return raw, error  # the outcomes are checked as they are decoded; the error by _error

    def _decode_into(
        self,
        outcomes: list[Outcome],
        pending: tuple[list[Any], int, int],
        ops: Sequence[Any],
        phase: str,
        msg_id: int | None,
    ) -> None:
        """Decode one reply's outcome records onto ``outcomes``, checking every one in full.

        ``pending`` is (the records, the index in ``ops`` of the first, the msg_id the reply
        answered); ``msg_id`` is the request in flight (a later one while replies overlap).
        """
        raw, pos, reply_to = pending
        try:
            decode = m.decode_outcome
            for j, rec in enumerate(raw):
                o = decode(rec)
                if o.kind != ops[pos + j].KIND:
                    _same_kind(ops[pos + j], o, pos + j)
                outcomes.append(o)
        except m.OutcomeViolation as exc:
            text = exc.describe(f"batch_ok reply to msg_id {reply_to} at outcomes/{len(outcomes) - pos}")
            self._fail(phase, msg_id, ConnectionFault("schema", text), step=len(outcomes), outcomes=outcomes)
        except m.ProtocolViolation as exc:
            self._fail(phase, msg_id, ConnectionFault("schema", str(exc)), step=len(outcomes), outcomes=outcomes)

    def close(self) -> None:
        """Send ``close``, wait for the process to exit; terminate/kill and reap it otherwise."""
        conn, self.conn, self._opened = self.conn, None, False
        if conn is None:
            return
        conn.note_descendants()
        if conn.alive and self.broken is None:
            msg_id = conn.next_msg_id()
            try:
                reply = conn.request({"type": "close", "msg_id": msg_id}, min(self.timeout, 5.0))
                if reply["type"] != "close_ok":
                    log.warning("wire close (msg_id %s): got %s, expected close_ok", msg_id, reply["type"])
            except ConnectionFault as fault:
                log.warning("wire close (msg_id %s): %s", msg_id, fault)
        code = conn.stop(self.grace)
        if code not in (0, None):
            log.info("implementation %s exited with code %s", shlex.join(self.cmd), code)


def _compatible(version: Any) -> bool:
    return isinstance(version, str) and version.split(".")[0] == PROTOCOL_VERSION.split(".")[0]


def _same_kind(op: Any, outcome: Outcome, index: int) -> None:
    if outcome.kind != op.KIND:
        raise m.ProtocolViolation(
            f"outcome {index} has kind {outcome.kind!r} for a {op.KIND!r} operation (replies out of step?)"
        )
