#!/usr/bin/env python3
"""seventh-reading: an independent implementation of CF shared-queue behaviour
(IBM MQ for z/OS shared queues, profile "mq"; IMS CQS structure overflow,
profile "cqs") speaking the cfconform wire protocol 1.3.

Usage:  python3 impl.py [--fault ID]      serve on stdin/stdout
        python3 impl.py --list-faults     print the fault IDs

Standard library only.  All state lives in a Server instance.
"""
import copy
import io
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from model import Model, OpError, ConfigError, FAULT_IDS, CAPABILITIES  # noqa: E402

PROTOCOL_VERSION = "1.3"
MAX_LINE_BYTES = 1048576

ERR_DEFINITE = {10: True, 11: True, 12: False, 13: True, 14: True, 15: True,
                16: True, 17: True, 18: False, 19: True, 20: False}


class Server:
    def __init__(self, fault=None, out=None):
        if fault is not None and fault not in FAULT_IDS:
            raise ValueError("unknown fault %r" % fault)
        self.fault = fault
        self.out = out if out is not None else sys.stdout
        self.inited = False
        self.model = None
        self.peer_max = MAX_LINE_BYTES
        self.closed = False

    # ------------------------------------------------------------------ io
    def _send(self, obj):
        self.out.write(json.dumps(obj, separators=(",", ":")) + "\n")
        try:
            self.out.flush()
        except Exception:
            pass

    def _error(self, in_reply_to, code, text, detail=None):
        e = {"type": "error", "in_reply_to": in_reply_to, "code": code,
             "text": text, "definite": ERR_DEFINITE.get(code, True)}
        if detail is not None:
            e["detail"] = detail
        self._send(e)

    # ------------------------------------------------------------- dispatch
    def handle_line(self, line):
        if isinstance(line, str):
            line = line.encode("utf-8")
        if line.endswith(b"\n"):
            line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
        if len(line) > MAX_LINE_BYTES:
            self._error(None, 17, "request line of %d bytes exceeds %d" % (len(line), MAX_LINE_BYTES))
            return
        try:
            req = json.loads(line.decode("utf-8"))
        except Exception as exc:
            self._error(None, 11, "request is not JSON: %s" % exc)
            return
        if not isinstance(req, dict):
            self._error(None, 11, "request is not a JSON object")
            return
        mid = req.get("msg_id")
        if isinstance(mid, bool) or not isinstance(mid, int) or mid < 0:
            self._error(None, 11, "request has no readable msg_id")
            return
        typ = req.get("type")
        if not isinstance(typ, str):
            self._error(mid, 11, "request has no string type")
            return
        try:
            if typ == "init":
                self._init(mid, req)
            elif typ not in ("open", "apply", "batch", "close"):
                self._error(mid, 11, "unknown message type %r" % typ)
            elif not self.inited:
                self._error(mid, 15, "%s before init" % typ)
            elif typ == "open":
                self._open(mid, req)
            elif typ == "apply":
                self._apply(mid, req)
            elif typ == "batch":
                self._batch(mid, req)
            elif typ == "close":
                self.closed = True
                self.model = None
                self._send({"type": "close_ok", "in_reply_to": mid})
        except Exception as exc:  # pragma: no cover - internal failure
            self._error(mid, 12, "internal failure: %r" % (exc,))

    def _init(self, mid, req):
        if self.inited:
            self._error(mid, 15, "second init")
            return
        pv = req.get("protocol_version")
        if not isinstance(pv, str) or pv.split(".")[0] != "1":
            self._error(mid, 16, "this implementation speaks protocol 1.x, not %r" % (pv,))
            return
        mlb = req.get("max_line_bytes")
        if isinstance(mlb, int) and not isinstance(mlb, bool) and mlb >= 1024:
            self.peer_max = mlb
        self.inited = True
        self._send({"type": "init_ok", "in_reply_to": mid, "protocol_version": PROTOCOL_VERSION,
                    "capabilities": CAPABILITIES, "max_line_bytes": MAX_LINE_BYTES})

    def _open(self, mid, req):
        cfg = req.get("config")
        if not isinstance(cfg, dict):
            self.model = None
            self._error(mid, 11, "open without a config object")
            return
        self.model = None
        try:
            m = Model(cfg, self.fault)
        except ConfigError as ce:
            self._error(mid, ce.code, ce.text, ce.detail)
            return
        self.model = m
        self._send({"type": "open_ok", "in_reply_to": mid})

    def _apply(self, mid, req):
        if self.model is None:
            self._error(mid, 15, "apply before a successful open")
            return
        op = req.get("op")
        try:
            outcome = self.model.apply(op)
        except OpError as oe:
            self._error(mid, oe.code, oe.text, oe.detail)
            return
        reply = {"type": "apply_ok", "in_reply_to": mid, "outcome": outcome}
        s = json.dumps(reply, separators=(",", ":"))
        if len(s.encode("utf-8")) > self.peer_max:
            self._error(mid, 18, "reply of %d bytes exceeds the suite's limit" % len(s))
            return
        self.out.write(s + "\n")
        try:
            self.out.flush()
        except Exception:
            pass

    def _batch(self, mid, req):
        if self.model is None:
            self._error(mid, 15, "batch before a successful open")
            return
        ops = req.get("ops")
        if not isinstance(ops, list) or not ops:
            self._error(mid, 11, "batch needs a non-empty list ops")
            return
        limit = self.peer_max - 512
        outcomes = []
        size = 64
        err = None
        for i, op in enumerate(ops):
            snap = None
            mutating = not (isinstance(op, dict) and op.get("op") == "inspect")
            if mutating and size > limit - 65536:
                snap = copy.deepcopy(self.model)
            try:
                oc = self.model.apply(op)
            except OpError as oe:
                err = {"code": oe.code, "text": oe.text, "definite": ERR_DEFINITE.get(oe.code, True)}
                if oe.detail is not None:
                    err["detail"] = oe.detail
                break
            n = len(json.dumps(oc, separators=(",", ":")).encode("utf-8")) + 1
            if size + n > limit:
                if snap is not None:
                    self.model = snap
                elif mutating:
                    pass  # small outcome, cannot happen in practice
                if not outcomes:
                    self._error(mid, 18, "the first outcome alone exceeds the suite's line limit")
                    return
                break
            size += n
            outcomes.append(oc)
        reply = {"type": "batch_ok", "in_reply_to": mid, "outcomes": outcomes}
        if err is not None:
            reply["error"] = err
        self._send(reply)


def main(argv):
    fault = None
    args = list(argv[1:])
    if "--list-faults" in args:
        for fid in sorted(FAULT_IDS):
            print(fid)
        return 0
    if "--fault" in args:
        i = args.index("--fault")
        if i + 1 >= len(args):
            print("--fault needs an ID", file=sys.stderr)
            return 2
        fault = args[i + 1]
        if fault not in FAULT_IDS:
            print("unknown fault %r" % fault, file=sys.stderr)
            return 2
    out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n", line_buffering=True)
    srv = Server(fault, out)
    inp = sys.stdin.buffer
    while True:
        line = inp.readline()
        if not line:
            break
        if not line.strip():
            continue
        srv.handle_line(line)
        if srv.closed:
            break
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
