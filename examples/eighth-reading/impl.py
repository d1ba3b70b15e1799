#!/usr/bin/env python3
"""cfconform wire server (protocol 1.3) for the eighth-reading implementation.

Usage:  python3 impl.py [--fault ID]      serve on stdin/stdout
        python3 impl.py --list-faults     print the fault ids, one a line

Newline-delimited JSON requests on stdin, one reply line per request on
stdout, logs on stderr.  The semantics live in model.py.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import model  # noqa: E402
import schemacheck  # noqa: E402

PROTOCOL_VERSION = "1.3"
MAX_LINE_BYTES = 1048576
NAME = "eighth-reading"
FAMILIES = ["CQS", "OFFLOAD", "CFLEVEL", "CAPACITY", "TOPOLOGY", "SIZING", "QDEPTH",
            "RECOVERY", "QUEUE"]
ERRORS = {  # code -> (name, definite)
    10: ("not-supported", True), 11: ("invalid-request", True), 12: ("crash", False),
    13: ("bad-config", True), 14: ("invalid-operation", True), 15: ("precondition-failed", True),
    16: ("version-mismatch", True), 17: ("request-too-large", True),
    18: ("reply-too-large", False), 19: ("aborted", True), 20: ("timeout", False),
}
OP_KINDS = ["define_structure", "alter_structure", "define_queue", "alter_queue", "put", "get",
            "commit", "backout", "set_perfmev", "reset_qstats", "start_qmgr", "stop_qmgr",
            "backup", "fail_structure", "recover", "setxcf_alter", "alter_outcome",
            "set_overflow_exit", "advance_clock", "inspect"]
# below this many bytes of room left in a batch reply, keep a copy of the
# state before each operation so that an operation whose outcome does not fit
# can be undone (the reply is then a prefix, as the protocol allows)
SNAPSHOT_MARGIN = 65536


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


def encode(obj):
    return json.dumps(obj, separators=(",", ":"), allow_nan=False).encode("utf-8")


class RequestError(Exception):
    def __init__(self, code, text, detail=None):
        super().__init__(text)
        self.code = code
        self.text = text
        self.detail = detail


def error_body(code, text, detail=None):
    body = {"code": code, "text": text, "definite": ERRORS.get(code, ("", True))[1]}
    if detail is not None:
        body["detail"] = detail
    return body


class Server:
    def __init__(self, fault=None, out=None):
        if fault is not None and fault not in model.FAULT_IDS:
            raise ValueError("unknown fault id %r" % fault)
        self.fault = fault
        self.out = out if out is not None else sys.stdout.buffer
        self.initialised = False
        self.model = None
        self.peer_limit = MAX_LINE_BYTES
        self.closed = False

    # ----------------------------------------------------------- output
    def _write(self, obj):
        self.out.write(encode(obj) + b"\n")
        try:
            self.out.flush()
        except Exception:
            pass

    def _error(self, in_reply_to, code, text, detail=None):
        msg = {"type": "error", "in_reply_to": in_reply_to}
        msg.update(error_body(code, text, detail))
        self._write(msg)

    # ----------------------------------------------------------- input
    def handle_line(self, line):
        if isinstance(line, str):
            line = line.encode("utf-8")
        if line.endswith(b"\n"):
            line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
        if len(line) > MAX_LINE_BYTES:
            self._error(None, 17, "request of %d bytes exceeds the line limit of %d bytes"
                        % (len(line), MAX_LINE_BYTES))
            return
        if not line.strip():
            return                                   # a blank line is no request
        try:
            req = json.loads(line.decode("utf-8"),
                             parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
        except (ValueError, UnicodeDecodeError) as e:
            self._error(None, 11, "request is not JSON: %s" % e)
            return
        if not isinstance(req, dict):
            self._error(None, 11, "request is not a JSON object")
            return
        mid = req.get("msg_id")
        if not isinstance(mid, int) or isinstance(mid, bool) or mid < 0:
            self._error(None, 11, "request has no readable msg_id")
            return
        typ = req.get("type")
        if not isinstance(typ, str):
            self._error(mid, 11, "request has no string 'type'")
            return
        try:
            self._dispatch(typ, mid, req)
        except RequestError as e:
            self._error(mid, e.code, e.text, e.detail)
        except Exception as e:  # an internal failure: indefinite
            import traceback
            traceback.print_exc(file=sys.stderr)
            self._error(mid, 12, "internal failure: %r" % (e,))

    def _dispatch(self, typ, mid, req):
        requests = ("init", "open", "apply", "batch", "close")
        if typ not in requests:
            raise RequestError(11, "unknown message type %r" % typ)
        if typ == "init":
            if self.initialised:
                raise RequestError(15, "init was already received")
            return self._init(mid, req)
        if not self.initialised:
            raise RequestError(15, "%s before init" % typ)
        getattr(self, "_" + typ)(mid, req)

    def _init(self, mid, req):
        errs = schemacheck.validate(req, "init")
        if errs:
            raise RequestError(11, "malformed init: %s %s" % errs[0])
        ver = req["protocol_version"]
        major = ver.split(".", 1)[0]
        if major != PROTOCOL_VERSION.split(".")[0]:
            raise RequestError(16, "protocol version %r not supported (this is %s)"
                               % (ver, PROTOCOL_VERSION))
        if "max_line_bytes" in req:
            self.peer_limit = req["max_line_bytes"]
        self.initialised = True
        self._write({"type": "init_ok", "in_reply_to": mid, "protocol_version": PROTOCOL_VERSION,
                     "capabilities": capabilities(), "max_line_bytes": MAX_LINE_BYTES})

    def _open(self, mid, req):
        self.model = None
        cfg = req.get("config")
        if not isinstance(cfg, dict):
            raise RequestError(11, "open needs a config object")
        errs = schemacheck.validate(cfg, "config")
        if errs:
            path, text = errs[0]
            raise RequestError(13, "config%s: %s" % (path, text),
                               {"field": path.strip("/").replace("/", ".") or "config",
                                "value": None, "allowed": text, "rule_id": "CONFIG"})
        if cfg.get("profile", "mq") not in ("mq", "cqs"):
            raise RequestError(10, "profile %r is not implemented" % cfg.get("profile"))
        try:
            self.model = model.Model(cfg, self.fault)
        except model.ConfigError as e:
            raise RequestError(13, str(e), {"field": e.field, "value": e.value,
                                            "allowed": e.allowed, "rule_id": "CONFIG"})
        self._write({"type": "open_ok", "in_reply_to": mid})

    def _check_op(self, op):
        if not isinstance(op, dict):
            raise RequestError(11, "an operation must be a JSON object")
        kind = op.get("op")
        if not isinstance(kind, str):
            raise RequestError(11, "an operation needs a string 'op'")
        if kind not in OP_KINDS:
            raise RequestError(11, "unknown operation kind %r" % kind)
        errs = schemacheck.validate_def(op, "op", "op_" + kind)
        if errs:
            path, text = errs[0]
            raise RequestError(11, "malformed %s operation at %s: %s" % (kind, path, text))

    def _run(self, op):
        self._check_op(op)
        try:
            return self.model.apply(op)
        except model.OpError as e:
            raise RequestError(e.code, e.text, e.detail)

    def _apply(self, mid, req):
        if self.model is None:
            raise RequestError(15, "apply before a successful open")
        if "op" not in req:
            raise RequestError(11, "apply needs an 'op'")
        outcome = self._run(req["op"])
        reply = {"type": "apply_ok", "in_reply_to": mid, "outcome": outcome}
        if len(encode(reply)) > self.peer_limit:
            raise RequestError(18, "the outcome does not fit the suite's line limit")
        self._write(reply)

    def _batch(self, mid, req):
        if self.model is None:
            raise RequestError(15, "batch before a successful open")
        ops = req.get("ops")
        if not isinstance(ops, list) or not ops:
            raise RequestError(11, "batch needs a non-empty list 'ops'")
        outcomes = []
        base = len(encode({"type": "batch_ok", "in_reply_to": mid, "outcomes": [],
                           "error": error_body(18, "x" * 200)}))
        size = base
        error = None
        for op in ops:
            saved = None
            pure = isinstance(op, dict) and op.get("op") == "inspect"   # no side effects
            if pure:
                saved = self.model
            elif self.peer_limit - size < SNAPSHOT_MARGIN:
                saved = self.model.snapshot()
            try:
                out = self._run(op)
            except RequestError as e:
                error = error_body(e.code, e.text, e.detail)
                if len(encode(error)) + size > self.peer_limit:
                    error = error_body(e.code, e.text[:200])
                break
            n = len(encode(out)) + 1
            if size + n > self.peer_limit:
                if saved is not None:
                    self.model = saved
                    if not outcomes:
                        raise RequestError(18, "the first outcome does not fit the line limit")
                    break
                raise RequestError(18, "the reply does not fit the suite's line limit")
            outcomes.append(out)
            size += n
        reply = {"type": "batch_ok", "in_reply_to": mid, "outcomes": outcomes}
        if error is not None:
            reply["error"] = error
        self._write(reply)

    def _close(self, mid, req):
        self._write({"type": "close_ok", "in_reply_to": mid})
        self.model = None
        self.closed = True


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    fault = None
    if "--list-faults" in argv:
        for fid in model.FAULT_IDS:
            print(fid)
        return 0
    if "--fault" in argv:
        i = argv.index("--fault")
        if i + 1 >= len(argv):
            print("--fault needs an id", file=sys.stderr)
            return 2
        fault = argv[i + 1]
        if fault not in model.FAULT_IDS:
            print("unknown fault id %r (see --list-faults)" % fault, file=sys.stderr)
            return 2
    server = Server(fault, sys.stdout.buffer)
    stdin = sys.stdin.buffer
    while not server.closed:
        line = stdin.readline(MAX_LINE_BYTES + 2)
        if not line:
            break
        if len(line) > MAX_LINE_BYTES + 1 and not line.endswith(b"\n"):
            # over the limit: discard the rest of the line unread
            while line and not line.endswith(b"\n"):
                line = stdin.readline(65536)
            server.handle_line(b"x" * (MAX_LINE_BYTES + 1))
            continue
        server.handle_line(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
