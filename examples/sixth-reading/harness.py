"""In-process driver for impl.Server (used by faultcheck.py, selftest.py, gen_faults.py)."""
import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import impl  # noqa: E402


class Driver:
    def __init__(self, fault=None):
        self.buf = io.StringIO()
        self.srv = impl.Server(fault, self.buf)
        self.mid = 0
        self.request({"type": "init", "protocol_version": "1.3", "suite": "harness",
                      "max_line_bytes": 1048576})

    def request(self, msg):
        self.mid += 1
        msg = dict(msg)
        msg.setdefault("msg_id", self.mid)
        self.buf.seek(0)
        self.buf.truncate()
        self.srv.handle_line((json.dumps(msg) + "\n").encode())
        text = self.buf.getvalue()
        assert text.endswith("\n") and text.count("\n") == 1, text
        return json.loads(text)

    def open(self, config):
        return self.request({"type": "open", "config": config})

    def apply(self, op):
        r = self.request({"type": "apply", "op": op})
        if r["type"] == "apply_ok":
            return r["outcome"]
        return {"error": r["code"]}


def observe(config, ops, fault=None):
    """Everything observable: the open reply, then each op's outcome (rules dropped)."""
    d = Driver(fault)
    r = d.open(config)
    seen = [{"open": r["type"], "code": r.get("code")}]
    if r["type"] != "open_ok":
        return seen
    for op in ops:
        oc = d.apply(op)
        oc = {k: v for k, v in oc.items() if k != "rules"}
        seen.append(oc)
    return seen


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i, x, y
    if len(a) != len(b):
        return min(len(a), len(b)), None, None
    return None
