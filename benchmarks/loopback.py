"""A wire-protocol implementation written in Python, driven in-process: the same JSON requests and
replies as over its standard streams, without the pipes (for benchmarks that run it thousands of
times; ``WireAdapter`` is the real transport and is what ``cfconform run --adapter wire:...`` uses).

The implementation's module must define ``Server(fault, out)`` with ``handle_line(bytes)`` writing
one reply line to ``out`` (as ``examples/second-reading/impl.py`` does).  Replies are decoded and
checked by the suite's own wire code, so a protocol breach is an adapter fault, as over pipes.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cfconform.adapters.protocol import PROTOCOL_VERSION, Capabilities
from cfconform.adapters.wire import messages as m
from cfconform.adapters.wire.client import WireError, WireNotSupported, config_for_peer, too_new, version_tuple
from cfconform.reference_model.config import Config
from cfconform.reference_model.outcomes import Outcome


def _load(path: Path) -> Any:
    if str(path.parent) not in sys.path:  # (a kit importing its own modules, as a script would)
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(f"_loopback_{path.parent.name}", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


_MODULES: dict[Path, Any] = {}


class _Replies:
    """What the kit's Server writes, text or bytes as each kit does, one reply at a time."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, data: str | bytes) -> int:
        self.parts.append(data.decode() if isinstance(data, bytes) else data)
        return len(data)

    def flush(self) -> None:
        pass

    def take(self) -> str:
        text, self.parts = "".join(self.parts), []
        return text


class LoopbackAdapter:
    """An :class:`~cfconform.adapters.protocol.Adapter` over an in-process wire server."""

    def __init__(self, impl: Path, fault: str | None = None) -> None:
        path = impl.resolve()
        if path not in _MODULES:
            _MODULES[path] = _load(path)
        self._out = _Replies()
        self._server = _MODULES[path].Server(fault, self._out)
        self._msg_id = 0
        reply = self._exchange({"type": "init", "protocol_version": PROTOCOL_VERSION, "suite": "cfconform loopback"})
        self._caps = m.capabilities_from_record(reply["capabilities"])
        self._peer = version_tuple(reply.get("protocol_version"))

    def _exchange(self, request: dict[str, Any]) -> dict[str, Any]:
        self._msg_id += 1
        request["msg_id"] = self._msg_id
        self._server.handle_line(json.dumps(request, separators=(",", ":")).encode())
        return json.loads(self._out.take())

    def _raise(self, phase: str, err: dict[str, Any], step: int, outcomes: list[Outcome]) -> None:
        code = err.get("code")
        definite = m.is_definite(code, err.get("definite") is True)
        kind = WireNotSupported if code == m.NOT_SUPPORTED and definite and phase != "open" else WireError
        raise kind(
            f"loopback {phase}: error {code}: {err.get('text')}", phase=phase, fault="error-reply",
            definite=definite, step=step, code=code, detail=err.get("detail"), outcomes=outcomes,
        )  # fmt: skip

    def capabilities(self) -> Capabilities:
        return self._caps

    def open(self, config: Config) -> None:
        self.open_record(config_for_peer(config, self._peer))

    #: The kit decides on a configuration record itself (judge/opening.py).
    opens_records = True

    def open_record(self, record: dict[str, Any]) -> None:
        reply = self._exchange({"type": "open", "config": dict(record)})
        if reply["type"] == "error":
            self._raise("open", reply, 0, [])

    def apply(self, op: Any) -> Outcome:
        return self.apply_batch([op])[0]

    def apply_batch(self, ops: Sequence[Any]) -> list[Outcome]:
        first = next((i for i, op in enumerate(ops) if too_new(op.KIND, self._peer) is not None), None)
        if first is not None:  # as the wire client: the ops before it run, it is not sent
            refused = too_new(ops[first].KIND, self._peer)
            assert refused is not None
            refused.step, refused.phase, refused.outcomes = first, "batch", self.apply_batch(ops[:first])
            raise refused
        outcomes: list[Outcome] = []
        while len(outcomes) < len(ops):
            chunk = [m.fast_op_record(op) for op in ops[len(outcomes) :]]
            reply = self._exchange({"type": "batch", "ops": chunk})
            if reply["type"] == "error":
                self._raise("batch", reply, len(outcomes), outcomes)
            outcomes += [m.decode_outcome(r) for r in reply["outcomes"]]
            if "error" in reply:
                self._raise("batch", reply["error"], len(outcomes), outcomes)
        return outcomes

    def close(self) -> None:
        """Nothing to release: the server lives in this process."""
