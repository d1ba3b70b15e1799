"""Serve any in-process :class:`~cfconform.adapters.protocol.Adapter` over the wire protocol.

``serve(factory, stdin, stdout)`` reads requests from ``stdin`` and writes
replies to ``stdout`` until ``close`` or end of input, so the reference model
(``cfconform serve-reference``) or any Python implementation can be tested as
an out-of-process implementation.  It never dies of a bad request: every
problem becomes an ``error`` reply (docs/PROTOCOL.md, "Errors").
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from cfconform.reference_model.codec import config_from_record, outcome_to_record
from cfconform.reference_model.errors import ConfigurationError

from ..protocol import PROTOCOL_VERSION, AdapterError
from . import messages as m
from .messages import decode_op

log = logging.getLogger("cfconform.wire.server")

_MSG_ID = re.compile(rb'"msg_id"\s*:\s*(\d{1,18})')
#: Bytes kept free when filling a batch reply.
_REPLY_SLACK = 4096
#: The size an outcome record without ``value``, ``events`` or ``signals`` is counted at before it is
#: encoded (such a record is far smaller unless its strings are absurdly long; the reply's real size is
#: checked before it is sent).
_PLAIN_BOUND = 512


def _join(parts: list[Any]) -> str:
    """Encoded outcomes, comma-separated: runs of records are encoded by one json call each."""
    out: list[str] = []
    run: list[dict[str, Any]] = []
    for p in parts:
        if type(p) is str:
            if run:
                out.append(m.dumps(run)[1:-1])
                run = []
            out.append(p)
        else:
            run.append(p)
    if run:
        out.append(m.dumps(run)[1:-1])
    return ",".join(out)


def _decode_error(exc: Exception) -> tuple[int, str, Any]:
    """``(code, text, detail)`` for an op record that cannot be decoded."""
    if isinstance(exc, ConfigurationError):
        return m.INVALID_REQUEST, str(exc), exc.to_record()
    return m.INVALID_REQUEST, f"op: {type(exc).__name__}: {exc}", None


def _apply_error(exc: Exception, record: Any) -> tuple[int, str, Any]:
    """``(code, text, detail)`` for an adapter that raised while applying an op."""
    if isinstance(exc, ConfigurationError):
        return m.INVALID_OPERATION, str(exc), exc.to_record()
    if isinstance(exc, AdapterError):
        return (m.ABORTED if exc.definite else m.CRASH), str(exc), None
    log.error("adapter crashed applying %r", record, exc_info=exc)
    return m.CRASH, f"{type(exc).__name__}: {exc}", None


def compatible(version: Any) -> bool:
    """Whether ``version`` ("MAJOR.MINOR") has our major version."""
    return isinstance(version, str) and version.split(".")[0] == PROTOCOL_VERSION.split(".")[0]


def _minor(version: str) -> int:
    """The minor version of a compatible ``version`` (0 if it has none or it is not a number)."""
    _, _, minor = version.partition(".")
    return int(minor) if minor.isdigit() else 0


def _record_1_0(outcome: Any) -> dict[str, Any]:
    """The outcome record for a 1.0 suite, which refuses unknown outcome fields: no ``location`` (added in 1.1)."""
    record = outcome_to_record(outcome)
    record.pop("location", None)
    return record


class _Session:
    """The state of one connection: initialised?, the adapter, whether it is open."""

    def __init__(self, factory: Callable[[], Any], out: BinaryIO, max_line_bytes: int) -> None:
        self.factory = factory
        self.out = out
        self.max_line_bytes = max_line_bytes
        self.reply_limit = max_line_bytes
        self.adapter: Any = None
        self.opened = False
        self.closed = False
        self.to_record: Callable[[Any], dict[str, Any]] = outcome_to_record  # per the suite's minor version

    # -- output ---------------------------------------------------------------------
    def send(self, msg: dict[str, Any]) -> None:
        try:
            text = m.dumps(msg)
        except (TypeError, ValueError) as exc:  # e.g. a detail that is not JSON: keep the reply, drop the rest
            log.warning("cannot encode %s reply: %s", msg.get("type"), exc)
            text = m.dumps(m.error_reply(msg.get("in_reply_to"), m.CRASH, f"reply not encodable as JSON: {exc}"))
        self.write(text)

    def write(self, text: str) -> None:
        self.out.write(text.encode() + b"\n")
        self.out.flush()

    def error(self, in_reply_to: int | None, code: int, text: str, **kw: Any) -> None:
        self.send(m.error_reply(in_reply_to, code, text, **kw))

    # -- dispatch -------------------------------------------------------------------
    def handle_line(self, line: bytes) -> None:
        try:
            msg = m.decode_line(line)
        except m.ProtocolViolation as exc:
            found = _MSG_ID.search(line[:4096])
            self.error(int(found.group(1)) if found else None, m.INVALID_REQUEST, str(exc))
            return
        msg_id = msg.get("msg_id")
        if type(msg_id) is not int or msg_id < 0:
            self.error(None, m.INVALID_REQUEST, f"request without a non-negative integer msg_id: {msg_id!r:.60}")
            return
        handler = _HANDLERS.get(msg["type"])
        if handler is None:
            self.error(
                msg_id,
                m.INVALID_REQUEST,
                f"unknown message type {msg['type']!r:.60}; requests are {sorted(m.REQUEST_TYPES)}",
            )
            return
        if msg["type"] != "init" and self.adapter is None:
            self.error(msg_id, m.PRECONDITION_FAILED, f"{msg['type']} before init")
            return
        try:
            handler(self, msg_id, msg)
        except (BrokenPipeError, KeyboardInterrupt):
            raise
        except Exception as exc:  # never die of a request
            log.exception("internal error handling %s", msg["type"])
            self.error(msg_id, m.CRASH, f"internal error in {msg['type']}: {type(exc).__name__}: {exc}")

    def on_init(self, msg_id: int, msg: dict[str, Any]) -> None:
        if self.adapter is not None:
            self.error(msg_id, m.PRECONDITION_FAILED, "init sent twice")
            return
        version = msg.get("protocol_version")
        if not compatible(version):
            self.error(
                msg_id,
                m.VERSION_MISMATCH,
                f"protocol_version {version!r} not supported; this implementation speaks {PROTOCOL_VERSION}",
            )
            return
        limit = msg.get("max_line_bytes")
        if type(limit) is int and limit >= 1024:
            self.reply_limit = limit
        if _minor(version) < 1:  # a 1.0 suite: outcome records are strict there, so leave 1.1's fields out
            self.to_record = _record_1_0
        adapter = self.factory()
        caps = adapter.capabilities().to_record()
        self.adapter = adapter
        self.send(
            {
                "type": "init_ok",
                "in_reply_to": msg_id,
                "protocol_version": PROTOCOL_VERSION,
                "capabilities": caps,
                "max_line_bytes": self.max_line_bytes,
            }
        )

    def on_open(self, msg_id: int, msg: dict[str, Any]) -> None:
        record = msg.get("config")
        if not isinstance(record, dict):
            self.error(msg_id, m.INVALID_REQUEST, "open needs a 'config' object")
            return
        self.opened = False
        try:
            config = config_from_record(record)
        except ConfigurationError as err:
            self.error(msg_id, m.BAD_CONFIG, str(err), detail=err.to_record())
            return
        except (TypeError, ValueError) as err:
            self.error(msg_id, m.BAD_CONFIG, f"config: {type(err).__name__}: {err}")
            return
        caps = self.adapter.capabilities()
        if config.profile not in caps.profiles:
            self.error(
                msg_id, m.NOT_SUPPORTED, f"profile {config.profile!r} not implemented; profiles {list(caps.profiles)}"
            )
            return
        try:
            self.adapter.open(config)
        except ConfigurationError as err:
            self.error(msg_id, m.BAD_CONFIG, str(err), detail=err.to_record())
            return
        except AdapterError as err:
            self.error(msg_id, m.ABORTED if err.definite else m.CRASH, f"open: {err}")
            return
        self.opened = True
        self.send({"type": "open_ok", "in_reply_to": msg_id})

    def _apply_one(self, record: Any) -> tuple[dict[str, Any] | None, tuple[int, str, Any] | None]:
        """Decode and apply one op: ``(outcome record, None)`` or ``(None, (code, text, detail))``."""
        try:
            op = decode_op(record)
        except Exception as exc:
            return None, _decode_error(exc)
        try:
            return self.to_record(self.adapter.apply(op)), None
        except Exception as exc:
            return None, _apply_error(exc, record)

    def on_apply(self, msg_id: int, msg: dict[str, Any]) -> None:
        if not self.opened:
            self.error(msg_id, m.PRECONDITION_FAILED, "apply before a successful open")
            return
        if "op" not in msg:
            self.error(msg_id, m.INVALID_REQUEST, "apply needs an 'op' record")
            return
        record, err = self._apply_one(msg["op"])
        if err is not None:
            code, reason, detail = err
            self.error(msg_id, code, reason, detail=detail)
            return
        reply = f'{{"type":"apply_ok","in_reply_to":{msg_id},"outcome":{m.dumps(record)}}}'
        if len(reply) + 1 > self.reply_limit:
            self.error(msg_id, m.REPLY_TOO_LARGE, f"outcome of {len(reply)} bytes exceeds the line limit")
            return
        self.write(reply)

    def on_batch(self, msg_id: int, msg: dict[str, Any]) -> None:
        """Apply ops in order; reply with the outcomes of a prefix that fits in one line.

        Outcome records are encoded together (one ``json`` call per run) for
        speed.  A record is counted at :data:`_PLAIN_BOUND` bytes until encoded;
        records that may be larger (a ``value``, many events, ...) are encoded at
        once.  Before each op the reply must still have room for it, otherwise
        only the prefix so far is sent (the suite sends the rest again).
        """
        if not self.opened:
            self.error(msg_id, m.PRECONDITION_FAILED, "batch before a successful open")
            return
        ops = msg.get("ops")
        if not isinstance(ops, list) or not ops:
            self.error(msg_id, m.INVALID_REQUEST, "batch needs a non-empty 'ops' list")
            return
        head = f'{{"type":"batch_ok","in_reply_to":{msg_id},"outcomes":['
        parts: list[Any] = []  # outcome records (dict) and pre-encoded outcomes (str), in order
        size = len(head) + _REPLY_SLACK
        biggest = _PLAIN_BOUND
        limit = self.reply_limit
        error: tuple[int, str, Any] | None = None
        decode, apply, to_record = decode_op, self.adapter.apply, self.to_record
        for op_record in ops:
            if parts and size + biggest > limit:
                break  # reply only this prefix; the suite sends the rest again
            try:
                op = decode(op_record)
            except Exception as exc:
                error = _decode_error(exc)
                break
            try:
                record = to_record(apply(op))
            except Exception as exc:
                error = _apply_error(exc, op_record)
                break
            if "value" in record or "events" in record or "signals" in record:  # type: ignore[operator]
                text = m.dumps(record)
                n = len(text) + 1
                if size + n > limit:
                    error = (m.REPLY_TOO_LARGE, f"outcome of {n} bytes does not fit in the reply line", None)
                    break
                parts.append(text)
                biggest = max(biggest, n)
            else:
                parts.append(record)
                n = _PLAIN_BOUND
            size += n
        body = _join(parts)
        if len(head) + len(body) + 256 > limit:  # only absurdly long strings can get here
            self.error(msg_id, m.REPLY_TOO_LARGE, f"the outcomes of {len(parts)} applied ops exceed the line limit")
            return
        if error is None:
            self.write(f"{head}{body}]}}")
            return
        code, reason, detail = error
        err = m.error_reply(None, code, reason, detail=detail)
        del err["type"], err["in_reply_to"]
        self.write(f'{head}{body}],"error":{m.dumps(err)}}}')

    def on_close(self, msg_id: int, msg: dict[str, Any]) -> None:
        try:
            self.adapter.close()
        finally:
            self.opened = False
            self.closed = True
            self.send({"type": "close_ok", "in_reply_to": msg_id})


_HANDLERS: dict[str, Callable[[_Session, int, dict[str, Any]], None]] = {
    "init": _Session.on_init, "open": _Session.on_open, "apply": _Session.on_apply,
    "batch": _Session.on_batch, "close": _Session.on_close,
}  # fmt: skip


def _lines(stdin: BinaryIO, limit: int, session: _Session):
    """Yield request lines; an over-long line is skipped (after a request-too-large error)."""
    readline = stdin.readline
    while True:
        line = readline(limit + 2)
        if not line:
            return
        if len(line) > limit + 1:
            head = line[:4096]
            while line and not line.endswith(b"\n"):
                line = readline(1 << 20)
            found = _MSG_ID.search(head)
            session.error(
                int(found.group(1)) if found else None,
                m.REQUEST_TOO_LARGE,
                f"request line longer than {limit} bytes discarded",
            )
            continue
        if line.strip():
            yield line


def serve(
    adapter_factory: Callable[[], Any],
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    *,
    max_line_bytes: int = m.MAX_LINE_BYTES,
) -> int:
    """Serve ``adapter_factory()`` over the protocol until ``close`` or end of input.

    ``stdin``/``stdout`` default to the process's binary standard streams (text
    streams are accepted and their ``buffer`` used).  The adapter is created at
    ``init`` and closed at ``close`` or end of input.  Returns 0.
    """
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    stdin = getattr(stdin, "buffer", stdin)
    stdout = getattr(stdout, "buffer", stdout)
    session = _Session(adapter_factory, stdout, max_line_bytes)
    try:
        for line in _lines(stdin, max_line_bytes, session):
            session.handle_line(line)
            if session.closed:
                break
    except BrokenPipeError:
        log.warning("the suite closed our stdout")
    finally:
        if session.adapter is not None and not session.closed:
            try:
                session.adapter.close()
            except Exception:  # pragma: no cover - best effort on the way out
                log.exception("closing the adapter")
    return 0
