#!/usr/bin/env python3
"""impl.py -- a cfconform wire server (protocol 1.3) for CF shared queues.

Newline-delimited JSON on stdin/stdout: init, open, apply, batch, close.  The semantics
live in model.py.  Usage:

    python3 impl.py [--fault ID]     serve on stdin/stdout (optionally with a fault)
    python3 impl.py --list-faults    print the fault IDs model.py knows, one a line
"""

import copy
import json
import re
import sys

import model

PROTOCOL_VERSION = "1.3"
MAX_LINE_BYTES = 1048576
NAME = "ninth-reading"
FAMILIES = ["CQS", "OFFLOAD", "CFLEVEL", "CAPACITY", "TOPOLOGY", "SIZING", "QDEPTH",
            "RECOVERY", "QUEUE"]

ERROR_DEFINITE = {10: True, 11: True, 12: False, 13: True, 14: True, 15: True, 16: True,
                  17: True, 18: False, 19: True, 20: False}

# Operation records: field -> (type, required, default).  Types as in model._typeok.
OP_FIELDS = {
    "define_structure": {"structure": ("dict", True, None)},
    "alter_structure": {"name": ("str", True, None), "changes": ("dict", True, None)},
    "define_queue": {"queue": ("dict", True, None)},
    "alter_queue": {"name": ("str", True, None), "changes": ("dict", True, None)},
    "put": {"qmgr": ("str", True, None), "queue": ("str", True, None),
            "length": ("int", True, None), "persistent": ("bool", False, False),
            "syncpoint": ("bool", False, False), "tag": ("int", False, 0)},
    "get": {"qmgr": ("str", True, None), "queue": ("str", True, None),
            "syncpoint": ("bool", False, False)},
    "commit": {"qmgr": ("str", True, None)},
    "backout": {"qmgr": ("str", True, None)},
    "set_perfmev": {"qmgr": ("str", True, None), "enabled": ("bool", True, None)},
    "reset_qstats": {"qmgr": ("str", True, None), "queue": ("str", True, None)},
    "start_qmgr": {"qmgr": ("str", True, None)},
    "stop_qmgr": {"qmgr": ("str", True, None)},
    "backup": {"qmgr": ("str", True, None), "cfstruct": ("str", True, None)},
    "fail_structure": {"cfstruct": ("str", True, None)},
    "recover": {"cfstruct": ("str", True, None), "purge": ("bool", False, False)},
    "setxcf_alter": {"cfstruct": ("str", True, None), "size_kb": ("int", True, None)},
    "alter_outcome": {"cfstruct": ("str", True, None), "success": ("bool", True, None),
                      "size_kb": ("int?", False, None)},
    "set_overflow_exit": {"vetoes": ("list[str]?", False, None)},
    "advance_clock": {"seconds": ("int", True, None)},
    "inspect": {},
}


def capabilities():
    return {
        "name": NAME,
        "protocol_version": PROTOCOL_VERSION,
        "profiles": ["mq", "cqs"],
        "families": list(FAMILIES),
        "readings": dict(model.READINGS),
        "reason_codes": "exact",
        "observes": ["usage", "events", "signals", "inspect"],
    }


class RequestError(Exception):
    def __init__(self, code, text, detail=None):
        super().__init__(text)
        self.code = code
        self.text = text
        self.detail = detail


def check_op(op):
    """Validate an operation record (strict: unknown fields are errors); return a copy
    with defaults filled in."""
    if not isinstance(op, dict):
        raise RequestError(11, "an operation must be a JSON object")
    kind = op.get("op")
    if not isinstance(kind, str):
        raise RequestError(11, "an operation needs a string field 'op'")
    if kind not in OP_FIELDS:
        raise RequestError(11, "unknown operation kind %r" % kind,
                           {"field": "op", "value": kind, "allowed": sorted(OP_FIELDS)})
    spec = OP_FIELDS[kind]
    out = {"op": kind}
    for k in op:
        if k != "op" and k not in spec:
            raise RequestError(11, "operation %r has no field %r" % (kind, k),
                               {"field": k, "value": op[k], "allowed": sorted(spec)})
    for k, (t, required, default) in spec.items():
        if k in op:
            v = op[k]
            if not model._typeok(v, t):
                raise RequestError(11, "field %r of %r has the wrong type (%s expected)"
                                   % (k, kind, t), {"field": k, "value": v, "allowed": t})
            out[k] = v
        elif required:
            raise RequestError(11, "operation %r needs field %r" % (kind, k),
                               {"field": k, "allowed": t})
        else:
            out[k] = default
    return out


def _dumps(obj):
    return json.dumps(obj, separators=(",", ":"), sort_keys=False, allow_nan=False)


MSG_ID = re.compile(rb'"msg_id"\s*:\s*(\d+)')


class Server:
    """One connection.  handle_line(bytes) writes exactly one reply line to ``out``."""

    def __init__(self, fault, out):
        if fault is not None and fault not in model.FAULT_IDS:
            raise ValueError("unknown fault %r" % fault)
        self.fault = fault
        self.out = out
        self.initialised = False
        self.suite_minor = 0
        self.suite_limit = MAX_LINE_BYTES
        self.model = None
        self.closed = False

    # -------------------------------------------------------------- output
    def _send(self, obj):
        self.out.write(_dumps(obj) + "\n")
        try:
            self.out.flush()
        except Exception:
            pass

    def _error(self, in_reply_to, code, text, detail=None):
        reply = {"type": "error", "in_reply_to": in_reply_to, "code": code, "text": text,
                 "definite": ERROR_DEFINITE.get(code, True)}
        if detail is not None:
            reply["detail"] = detail
        self._send(reply)

    # -------------------------------------------------------------- input
    def handle_line(self, line):
        if isinstance(line, str):
            line = line.encode("utf-8")
        if line.endswith(b"\n"):
            line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
        if len(line) > MAX_LINE_BYTES:
            m = MSG_ID.search(line[:4096])
            self._error(int(m.group(1)) if m else None, 17,
                        "request of %d bytes exceeds max_line_bytes %d; discarded"
                        % (len(line), MAX_LINE_BYTES))
            return
        try:
            msg = json.loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            self._error(None, 11, "request is not JSON: %s" % e)
            return
        if not isinstance(msg, dict):
            self._error(None, 11, "request is not a JSON object")
            return
        msg_id = msg.get("msg_id")
        if not (isinstance(msg_id, int) and not isinstance(msg_id, bool) and msg_id >= 0):
            self._error(None, 11, "request has no readable msg_id")
            return
        mtype = msg.get("type")
        try:
            if not isinstance(mtype, str):
                raise RequestError(11, "request has no string 'type'")
            if mtype not in ("init", "open", "apply", "batch", "close"):
                raise RequestError(11, "unknown message type %r" % mtype)
            if mtype == "init":
                self._init(msg_id, msg)
                return
            if not self.initialised:
                raise RequestError(15, "%r before init" % mtype)
            getattr(self, "_" + mtype)(msg_id, msg)
        except RequestError as e:
            self._error(msg_id, e.code, e.text, e.detail)
        except Exception as e:  # pragma: no cover - internal failure
            self._error(msg_id, 12, "internal error: %s: %s" % (type(e).__name__, e))

    # -------------------------------------------------------------- messages
    def _init(self, msg_id, msg):
        if self.initialised:
            raise RequestError(15, "a second init")
        version = msg.get("protocol_version")
        if not isinstance(version, str):
            raise RequestError(11, "init needs a string protocol_version")
        m = re.match(r"^(\d+)\.(\d+)$", version)
        if not m or m.group(1) != "1":
            raise RequestError(16, "protocol version %r is not 1.x (this is %s)"
                               % (version, PROTOCOL_VERSION))
        limit = msg.get("max_line_bytes", MAX_LINE_BYTES)
        if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 1024:
            self.suite_limit = limit
        self.suite_minor = int(m.group(2))
        self.initialised = True
        self._send({"type": "init_ok", "in_reply_to": msg_id,
                    "protocol_version": PROTOCOL_VERSION, "capabilities": capabilities(),
                    "max_line_bytes": MAX_LINE_BYTES})

    def _open(self, msg_id, msg):
        self.model = None
        config = msg.get("config")
        if not isinstance(config, dict):
            raise RequestError(11, "open needs a config object")
        try:
            self.model = model.Model(config, self.fault, location=self.suite_minor >= 1)
        except model.ConfigError as e:
            raise RequestError(e.code, e.text, e.detail)
        self._send({"type": "open_ok", "in_reply_to": msg_id})

    def _run(self, op):
        """Apply one checked op; returns the outcome, raises RequestError."""
        try:
            return self.model.apply(op)
        except model.OpError as e:
            raise RequestError(e.code, e.text, e.detail)

    def _apply(self, msg_id, msg):
        if self.model is None:
            raise RequestError(15, "apply before a successful open")
        if "op" not in msg:
            raise RequestError(11, "apply needs an op")
        op = check_op(msg["op"])
        outcome = self._run(op)
        reply = {"type": "apply_ok", "in_reply_to": msg_id, "outcome": outcome}
        text = _dumps(reply)
        if len(text.encode("utf-8")) > self.suite_limit:
            raise RequestError(18, "the outcome (%d bytes) exceeds the suite's line limit"
                               % len(text))
        self.out.write(text + "\n")
        try:
            self.out.flush()
        except Exception:
            pass

    def _batch(self, msg_id, msg):
        if self.model is None:
            raise RequestError(15, "batch before a successful open")
        ops = msg.get("ops")
        if not isinstance(ops, list) or not ops:
            raise RequestError(11, "batch needs a non-empty list 'ops'")
        head = len(_dumps({"type": "batch_ok", "in_reply_to": msg_id, "outcomes": []}))
        reserve = 262144
        size = head
        outcomes = []
        error = None
        for i, raw in enumerate(ops):
            try:
                op = check_op(raw)
            except RequestError as e:
                error = e
                break
            snapshot = copy.deepcopy(self.model) if size + reserve > self.suite_limit else None
            try:
                outcome = self._run(op)
            except RequestError as e:
                error = e
                break
            except Exception as e:
                error = RequestError(12, "internal error: %s: %s" % (type(e).__name__, e))
                break
            piece = len(_dumps(outcome).encode("utf-8")) + (1 if outcomes else 0)
            if size + piece + 200 > self.suite_limit:
                if snapshot is not None:
                    self.model = snapshot          # not applied: reply with the prefix
                    if outcomes:
                        break
                error = RequestError(18, "the outcome of operation %d does not fit the "
                                     "suite's line limit" % i)
                break
            outcomes.append(outcome)
            size += piece
        reply = {"type": "batch_ok", "in_reply_to": msg_id, "outcomes": outcomes}
        if error is not None:
            err = {"code": error.code, "text": error.text,
                   "definite": ERROR_DEFINITE.get(error.code, True)}
            if error.detail is not None:
                err["detail"] = error.detail
            reply["error"] = err
        self._send(reply)

    def _close(self, msg_id, msg):
        self.model = None
        self.closed = True
        self._send({"type": "close_ok", "in_reply_to": msg_id})


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    fault = None
    if "--list-faults" in argv:
        for f in model.FAULT_IDS:
            print(f)
        return 0
    if "--fault" in argv:
        i = argv.index("--fault")
        if i + 1 >= len(argv):
            sys.stderr.write("--fault needs an ID\n")
            return 2
        fault = argv[i + 1]
        if fault not in model.FAULT_IDS:
            sys.stderr.write("unknown fault %r (see --list-faults)\n" % fault)
            return 2
    server = Server(fault, sys.stdout)
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline()
        if not line:
            break
        server.handle_line(line)
        if server.closed:
            break
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
