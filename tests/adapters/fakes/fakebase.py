"""A minimal, correct wire-protocol implementation for the fault-injection fakes.

Standalone on purpose (standard library only, like a third party's adapter):
each ``fake_*.py`` beside it changes one behaviour and calls :func:`run`.  Its
outcomes are dummies (every op succeeds); only the protocol matters here.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

CAPABILITIES = {"name": "fake", "protocol_version": "1.0", "profiles": ["mq", "cqs"], "families": ["QUEUE"],
                "reason_codes": "class", "observes": []}  # fmt: skip

Reply = dict[str, Any] | None
Handler = Callable[[dict[str, Any]], Reply]


def outcome(op: dict[str, Any]) -> dict[str, Any]:
    return {"kind": op.get("op"), "ok": True}


def init(msg: dict[str, Any]) -> Reply:
    return {"type": "init_ok", "in_reply_to": msg["msg_id"], "protocol_version": "1.0",
            "capabilities": CAPABILITIES}  # fmt: skip


def open_(msg: dict[str, Any]) -> Reply:
    return {"type": "open_ok", "in_reply_to": msg["msg_id"]}


def apply(msg: dict[str, Any]) -> Reply:
    return {"type": "apply_ok", "in_reply_to": msg["msg_id"], "outcome": outcome(msg["op"])}


def batch(msg: dict[str, Any]) -> Reply:
    return {"type": "batch_ok", "in_reply_to": msg["msg_id"], "outcomes": [outcome(op) for op in msg["ops"]]}


def close(msg: dict[str, Any]) -> Reply:
    send({"type": "close_ok", "in_reply_to": msg["msg_id"]})
    sys.exit(0)


HANDLERS: dict[str, Handler] = {"init": init, "open": open_, "apply": apply, "batch": batch, "close": close}


def send(msg: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def log(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def run(**overrides: Handler) -> None:
    """Serve stdin until EOF with the default handlers, some replaced (``open=...`` for open)."""
    handlers = {**HANDLERS, **{k.rstrip("_"): v for k, v in overrides.items()}}
    for line in sys.stdin:
        msg = json.loads(line)
        handler = handlers.get(msg["type"])
        if handler is None:
            send({"type": "error", "in_reply_to": msg["msg_id"], "code": 11, "text": "unknown type",
                  "definite": True})  # fmt: skip
            continue
        reply = handler(msg)
        if reply is not None:
            send(reply)


if __name__ == "__main__":
    run()
