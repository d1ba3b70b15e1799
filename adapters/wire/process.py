"""One implementation process and the protocol's framing: lines, pairing, timeouts, stopping.

:class:`WireConnection` is the low level the wire client (:mod:`.client`) and ``cfconform
check-protocol`` build on.  Child processes never outlive it: stopping asks politely, then
terminates and kills the process group after a grace period and reaps it, and a
``weakref.finalize`` guard does the same for a connection never stopped (:mod:`.strays` ends a
descendant that left the group).
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Sequence
from typing import IO, Any

from . import messages as m
from . import strays

#: Bytes read from the implementation's stdout per system call (a larger buffer costs a fresh
#: memory mapping per read).
READ_CHUNK = 65536
#: Seconds between the polite and the forceful stages of stopping a process.
GRACE_SECONDS = 2.0


class ConnectionFault(Exception):
    """A fatal fault of a :class:`WireConnection` (``fault`` names it); WireAdapter raises it as a WireError."""

    def __init__(self, fault: str, text: str, definite: bool = False) -> None:
        super().__init__(text)
        self.fault = fault
        self.definite = definite


def _reap(proc: subprocess.Popen, grace: float) -> None:
    """Stop ``proc`` and its process group for good; safe to call on a dead process.

    The group outlives its leader when the implementation started children it never waited
    for: whatever is left of it is killed once the leader is gone, so no orphan survives,
    nor a descendant that left the group with ``setsid()`` while the leader ran (:mod:`strays`)."""
    left = strays.descendants(proc.pid) if proc.returncode is None else []
    try:
        if proc.returncode is not None:
            return
        for stream in (proc.stdin,):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=grace)
            return
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if proc.returncode is not None:
                return
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, sig)  # our child leads its own session: its group is ours to stop
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=grace)
                return
        proc.wait()  # pragma: no cover - SIGKILL cannot be refused
    finally:
        _end_group(proc.pid)
        strays.end(left)


def _end_group(pgid: int) -> None:
    """Kill what is left of the process group ``pgid`` (the implementation's children)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _close_streams(proc: subprocess.Popen) -> None:
    """Close the pipes the suite's thread uses (stderr is closed by its reader thread)."""
    for stream in (proc.stdin, proc.stdout):
        with contextlib.suppress(OSError):
            if stream is not None:
                stream.close()


class _StderrTail:
    """Reads a child's stderr on a daemon thread, keeping the last lines (and teeing to a file)."""

    def __init__(self, stream: IO[bytes], lines: int, path: str | None) -> None:
        self.lines: collections.deque[str] = collections.deque(maxlen=lines)
        self.stream = stream
        self.path = path
        self.thread = threading.Thread(target=self._run, name="cfconform-wire-stderr", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        sink = open(self.path, "ab") if self.path else None  # noqa: SIM115 - closed below
        fd = self.stream.fileno()
        pending = b""
        try:
            while True:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                if sink is not None:
                    sink.write(chunk)
                    sink.flush()
                *lines, pending = (pending + chunk).split(b"\n")
                pending = pending[-4096:]
                for raw in lines:
                    self.lines.append(raw[:2000].decode("utf-8", "replace"))
            if pending:
                self.lines.append(pending[:2000].decode("utf-8", "replace"))
        except (OSError, ValueError):
            pass
        finally:
            if sink is not None:
                sink.close()
            with contextlib.suppress(OSError):
                self.stream.close()  # only this thread reads it, so only it closes it

    def tail(self, n: int = 15, wait: float = 0.0) -> str:
        if wait:
            self.thread.join(wait)
        text = "\n".join(list(self.lines)[-n:])
        return text[-3000:]


class WireConnection:
    """One implementation process and the framing, pairing and timeouts of the protocol.

    The low-level layer: :meth:`request` sends any message and returns the
    paired reply (an ``error`` reply included) as a dict, raising
    :class:`WireError` only for faults.  ``cfconform check-protocol`` uses it to
    send deliberately invalid requests; :class:`WireAdapter` builds on it.
    """

    def __init__(
        self,
        cmd: Sequence[str],
        *,
        max_line_bytes: int = m.MAX_LINE_BYTES,
        stderr_lines: int = 200,
        stderr_path: str | None = None,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        grace: float = GRACE_SECONDS,
    ) -> None:
        if not cmd:
            raise ValueError("empty implementation command")
        self.cmd = [str(c) for c in cmd]
        self.max_line_bytes = max_line_bytes
        self.peer_max_line_bytes = m.MAX_LINE_BYTES
        self.grace = grace
        self._next_id = 0
        self._buf = bytearray()
        self.process = subprocess.Popen(
            self.cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            close_fds=True,
            start_new_session=True,
            cwd=cwd,
            env=env,
            shell=False,
        )
        self._finalizer = weakref.finalize(self, _reap, self.process, grace)
        self._noted: list[strays.Stray] = []
        self._stdout_fd = self.process.stdout.fileno()  # type: ignore[union-attr]
        self._stdin_fd = self.process.stdin.fileno()  # type: ignore[union-attr]
        flags = fcntl.fcntl(self._stdin_fd, fcntl.F_GETFL)
        fcntl.fcntl(self._stdin_fd, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._stdout_fd, selectors.EVENT_READ)
        self._wselector = selectors.DefaultSelector()
        self._wselector.register(self._stdin_fd, selectors.EVENT_WRITE)
        self.stderr = _StderrTail(self.process.stderr, stderr_lines, stderr_path)  # type: ignore[arg-type]

    # -- identity and lifecycle -----------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def next_msg_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def kill(self) -> None:
        """Stop the process at once (SIGKILL to its group) and reap it."""
        proc = self.process
        if proc.returncode is None:
            left = strays.descendants(proc.pid)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            strays.end(left)
        self._release()

    def stop(self, grace: float | None = None) -> int | None:
        """Close its stdin, wait up to ``grace`` s for it to exit, then terminate/kill; reap it."""
        _reap(self.process, self.grace if grace is None else grace)
        strays.end(self._noted)
        self._release()
        return self.process.returncode

    def note_descendants(self) -> None:
        """Note the processes below the implementation now, to end with it (see :mod:`strays`):
        called before asking it to exit, since a descendant that left its group can only be
        found while the implementation still runs."""
        if self.alive:
            self._noted = strays.descendants(self.process.pid)

    def wait_exit(self, timeout: float) -> int | None:
        """The exit code if the process exits within ``timeout`` s, else ``None`` (left running)."""
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        _end_group(self.process.pid)  # the leader is gone: so is any child it left behind
        strays.end(self._noted)
        return code

    def _release(self) -> None:
        self._finalizer.detach()
        for sel in (self._selector, self._wselector):
            with contextlib.suppress(Exception):
                sel.close()
        _close_streams(self.process)

    # -- describing faults ----------------------------------------------------------------
    def exit_description(self) -> str:
        code = self.process.poll()
        if code is None:
            code = self.wait_exit(0.5)
        if code is None:
            state = "closed its stdout but is still running"
        elif code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = str(-code)
            state = f"exited on signal {name}"
        else:
            state = f"exited with code {code}"
        tail = self.stderr.tail(wait=0.5)
        where = f"implementation {shlex.join(self.cmd)!r} {state}"
        return f"{where}; stderr tail:\n{tail}" if tail else f"{where} (stderr empty)"

    # -- framing --------------------------------------------------------------------------
    def send_line(self, data: bytes, timeout: float) -> None:
        """Write one encoded line (newline included) within ``timeout`` s."""
        deadline = time.monotonic() + timeout
        view = memoryview(data)
        fd = self._stdin_fd
        while view:
            try:
                n = os.write(fd, view)
                view = view[n:]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, OSError) as exc:
                text = f"cannot write the request ({exc}): {self.exit_description()}"
                raise ConnectionFault("exited", text) from None
            remaining = deadline - time.monotonic()
            if (remaining <= 0 or not self._wselector.select(remaining)) and time.monotonic() >= deadline:
                raise ConnectionFault("timeout", f"the implementation stopped reading its stdin for {timeout:g} s")

    def read_line(self, timeout: float) -> bytes:
        """The next line of stdout (without its newline) within ``timeout`` s."""
        buf = self._buf
        limit = self.max_line_bytes
        start = 0
        deadline = None
        while True:
            i = buf.find(b"\n", start)
            if i >= 0:
                if i > limit:
                    raise ConnectionFault("oversized", f"reply line longer than the {limit}-byte limit ({i} bytes)")
                line = bytes(buf[:i])
                del buf[: i + 1]
                return line
            if len(buf) > limit:
                raise ConnectionFault(
                    "oversized",
                    f"reply line longer than the {limit}-byte limit (more than {len(buf)} bytes without a newline)",
                )
            start = len(buf)
            if deadline is None:
                deadline = time.monotonic() + timeout
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self._selector.select(remaining):
                raise ConnectionFault("timeout", f"no reply within {timeout:g} s")
            chunk = os.read(self._stdout_fd, READ_CHUNK)
            if not chunk:
                raise ConnectionFault("exited", f"no reply: {self.exit_description()}")
            buf += chunk

    def drain_stdout(self, timeout: float = 1.0) -> bytes:
        """Whatever is left on stdout (buffered or unread) up to end of file or ``timeout`` s."""
        out = bytes(self._buf)
        self._buf.clear()
        deadline = time.monotonic() + timeout
        with contextlib.suppress(OSError, ValueError):
            while (remaining := deadline - time.monotonic()) > 0 and self._selector.select(remaining):
                chunk = os.read(self._stdout_fd, 65536)
                if not chunk:
                    break
                out += chunk
        return out

    def receive(self, timeout: float) -> dict[str, Any]:
        line = self.read_line(timeout)
        try:
            return m.decode_line(line)
        except m.ProtocolViolation as exc:
            raise ConnectionFault("garbage", f"garbage on stdout: {exc}") from None

    def request(self, msg: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send ``msg`` (its ``msg_id`` set if missing) and return the reply paired with it."""
        if "msg_id" not in msg:
            msg = {"type": msg["type"], "msg_id": self.next_msg_id(), **msg}
        self.send_line(m.encode(msg), timeout)
        return self.expect_reply(msg["msg_id"], timeout)

    def expect_reply(self, msg_id: int, timeout: float) -> dict[str, Any]:
        reply = self.receive(timeout)
        kind = reply["type"]
        if kind not in m.REPLY_TYPES:
            what = "a request type" if kind in m.REQUEST_TYPES else "an unknown message type"
            raise ConnectionFault("unknown-type", f"reply of {what} {kind!r:.60}; replies are {list(m.REPLY_TYPES)}")
        got = reply.get("in_reply_to")
        if (got != msg_id or type(got) is not int) and not (kind == "error" and got is None):
            raise ConnectionFault("in_reply_to", f"{kind} with in_reply_to {got!r:.40}, expected {msg_id}")
        return reply
