#!/usr/bin/env python3
"""sixth-reading: an independent model of IBM coupling-facility shared queues.

Profiles: ``mq`` (IBM MQ for z/OS shared queues) and ``cqs`` (IMS CQS structure
overflow).  Speaks the cfconform wire protocol 1.3 on stdin/stdout.

    python3 impl.py [--fault NAME]      serve the protocol
    python3 impl.py --list-faults       print the fault names

Everything here was decided from the five IBM texts and ibm-facts.md; the
README.md in this folder lists each reading and the sentence behind it.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cfcommon import *  # noqa: E402,F401,F403
from cfcommon import _is_int  # noqa: E402,F401
from cfmodel import Model  # noqa: E402


# ------------------------------------------------------------------ server
class Server:
    def __init__(self, fault=None, out=None):
        if fault is not None and fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r}")
        self.fault = fault
        self.out = out if out is not None else sys.stdout
        self.inited = False
        self.model = None
        self.closed = False
        self.peer_max = 1024 * 1024

    def capabilities(self):
        return {"name": "sixth-reading", "protocol_version": PROTOCOL_VERSION,
                "profiles": ["mq", "cqs"], "families": list(FAMILIES),
                "readings": dict(READINGS), "reason_codes": "exact",
                "observes": ["usage", "events", "signals", "inspect"]}

    def send(self, obj):
        self.out.write(json.dumps(obj, separators=(",", ":")) + "\n")
        try:
            self.out.flush()
        except Exception:
            pass

    def error(self, reply_to, code, text, definite=True, detail=None):
        e = {"type": "error", "in_reply_to": reply_to, "code": code, "text": text,
             "definite": definite}
        if detail is not None:
            e["detail"] = detail
        self.send(e)

    def handle_line(self, line):
        if isinstance(line, str):
            line = line.encode("utf-8")
        line = line.rstrip(b"\n").rstrip(b"\r")
        if len(line) > MY_MAX_LINE:
            self.error(None, 17, f"request of {len(line)} bytes exceeds {MY_MAX_LINE}")
            return
        try:
            msg = json.loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            self.error(None, 11, f"not JSON: {e}")
            return
        if not isinstance(msg, dict):
            self.error(None, 11, "request is not a JSON object")
            return
        mid = msg.get("msg_id")
        if not _is_int(mid) or mid < 0:
            self.error(None, 11, "request has no readable msg_id")
            return
        typ = msg.get("type")
        try:
            self.dispatch(typ, mid, msg)
        except OpError as e:
            self.error(mid, e.code, str(e), e.code not in (12, 18, 20), e.detail)
        except Exception as e:  # pragma: no cover - internal failure
            self.error(mid, 12, f"internal error: {type(e).__name__}: {e}", False)

    def dispatch(self, typ, mid, msg):
        if not isinstance(typ, str):
            raise OpError(11, "request has no string 'type'")
        if typ not in ("init", "open", "apply", "batch", "close"):
            raise OpError(11, f"unknown message type {typ!r}")
        if typ == "init":
            if self.inited:
                raise OpError(15, "init received twice")
            pv = msg.get("protocol_version")
            if not isinstance(pv, str) or pv.split(".")[0] != "1":
                raise OpError(16, f"protocol version {pv!r} not supported (1.x)")
            ml = msg.get("max_line_bytes")
            if _is_int(ml) and ml >= 1024:
                self.peer_max = ml
            self.inited = True
            self.send({"type": "init_ok", "in_reply_to": mid, "protocol_version": PROTOCOL_VERSION,
                       "capabilities": self.capabilities(), "max_line_bytes": MY_MAX_LINE})
            return
        if not self.inited:
            raise OpError(15, f"{typ} before init")
        if typ == "close":
            self.closed = True
            self.model = None
            self.send({"type": "close_ok", "in_reply_to": mid})
            return
        if typ == "open":
            self.model = None
            try:
                cfg = validate_config(msg.get("config"), self.fault)
            except ConfigError as e:
                raise OpError(13, str(e), e.detail)
            self.model = Model(cfg, self.fault)
            self.send({"type": "open_ok", "in_reply_to": mid})
            return
        if self.model is None:
            raise OpError(15, f"{typ} before a successful open")
        if typ == "apply":
            if "op" not in msg:
                raise OpError(11, "apply without op")
            outcome = self.apply(msg["op"])
            reply = {"type": "apply_ok", "in_reply_to": mid, "outcome": outcome}
            if len(json.dumps(reply, separators=(",", ":"))) > self.peer_max:
                raise OpError(18, "reply would exceed the suite's line limit")
            self.send(reply)
            return
        ops = msg.get("ops")
        if not isinstance(ops, list) or not ops:
            raise OpError(11, "batch needs a non-empty list 'ops'")
        outcomes = []
        size = 200
        budget = self.peer_max // 2
        for op in ops:
            if outcomes and size > budget:
                break                              # prefix: the suite sends the rest again
            try:
                oc = self.apply(op)
            except OpError as e:
                err = {"code": e.code, "text": str(e), "definite": e.code not in (12, 18, 20)}
                if e.detail is not None:
                    err["detail"] = e.detail
                self.send({"type": "batch_ok", "in_reply_to": mid, "outcomes": outcomes,
                           "error": err})
                return
            except Exception as e:  # pragma: no cover
                self.send({"type": "batch_ok", "in_reply_to": mid, "outcomes": outcomes,
                           "error": {"code": 12, "text": f"internal error: {e}",
                                     "definite": False}})
                return
            outcomes.append(oc)
            size += len(json.dumps(oc, separators=(",", ":"))) + 1
        self.send({"type": "batch_ok", "in_reply_to": mid, "outcomes": outcomes})

    def apply(self, op):
        kind = check_op_shape(op)
        m = self.model
        if m.profile == "cqs" and kind in MQ_ONLY:
            raise OpError(14, f"operation {kind} is not part of the cqs profile")
        if m.profile == "mq" and kind in CQS_ONLY:
            raise OpError(14, f"operation {kind} is not part of the mq profile")
        handler = {
            "define_structure": m.op_define_structure, "alter_structure": m.op_alter_structure,
            "define_queue": m.op_define_queue, "alter_queue": m.op_alter_queue,
            "put": m.op_put, "get": m.op_get,
            "commit": lambda o: m.op_commit(o, True), "backout": lambda o: m.op_commit(o, False),
            "set_perfmev": m.op_set_perfmev, "reset_qstats": m.op_reset_qstats,
            "start_qmgr": m.op_start_qmgr, "stop_qmgr": m.op_stop_qmgr,
            "backup": m.op_backup, "fail_structure": m.op_fail_structure,
            "recover": m.op_recover, "setxcf_alter": m.op_setxcf_alter,
            "alter_outcome": m.op_alter_outcome, "set_overflow_exit": m.op_set_overflow_exit,
            "advance_clock": m.op_advance_clock, "inspect": m.op_inspect,
        }[kind]
        return handler(op)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--list-faults" in argv:
        for name in FAULTS:
            print(name)
        return 0
    fault = None
    if "--fault" in argv:
        i = argv.index("--fault")
        if i + 1 >= len(argv):
            print("--fault needs a name", file=sys.stderr)
            return 2
        fault = argv[i + 1]
        if fault not in FAULTS:
            print(f"unknown fault {fault!r}; see --list-faults", file=sys.stderr)
            return 2
    srv = Server(fault, sys.stdout)
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline()
        if not line:
            break
        if not line.strip():
            continue
        srv.handle_line(line)
        if srv.closed:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
