"""A small wire client for impl.py (used by selftest.py and faultcheck.py)."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


class Child(object):
    def __init__(self, fault=None, impl=None):
        cmd = [sys.executable, impl or os.path.join(HERE, "impl.py")]
        if fault:
            cmd += ["--fault", fault]
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.mid = 0

    def raw(self, line):
        self.p.stdin.write(line if isinstance(line, bytes) else line.encode("utf-8"))
        self.p.stdin.flush()
        out = self.p.stdout.readline()
        if not out:
            raise RuntimeError("child closed stdout: " + self.p.stderr.read().decode()[-2000:])
        return json.loads(out.decode("utf-8"))

    def req(self, type_, **kw):
        self.mid += 1
        msg = dict(kw, type=type_, msg_id=self.mid)
        return self.raw(json.dumps(msg) + "\n")

    def init(self, version="1.3"):
        return self.req("init", protocol_version=version, suite="selftest", max_line_bytes=1048576)

    def open(self, config):
        return self.req("open", config=config)

    def apply(self, op):
        return self.req("apply", op=op)

    def batch(self, ops):
        return self.req("batch", ops=ops)

    def close(self):
        try:
            r = self.req("close")
        except Exception:
            r = None
        try:
            self.p.stdin.close()
        except Exception:
            pass
        try:
            self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        return r


def strip(reply):
    """A reply without its envelope ids (for comparing two builds)."""
    r = dict(reply)
    r.pop("in_reply_to", None)
    if r.get("type") == "error":
        r.pop("text", None)
    return r


def run_scenario(scn, fault=None):
    """Runs a scenario {config, ops} and returns the list of stripped replies."""
    c = Child(fault)
    try:
        c.init()
        out = [strip(c.open(scn["config"]))]
        if out[0].get("type") == "open_ok":
            for op in scn["ops"]:
                out.append(strip(c.apply(op)))
        return out
    finally:
        c.close()
