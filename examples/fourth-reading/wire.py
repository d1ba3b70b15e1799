"""Shared test plumbing for selftest.py and faultcheck.py: a wire client that
runs impl.py as a child process, and a small JSON-Schema (draft 2020-12 subset)
validator that checks every reply against docs/schemas/*.json.  Stdlib only."""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
IMPL = os.path.join(HERE, "impl.py")
SCHEMA_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "docs", "schemas"))

_SCHEMAS = {}


def schema(name):
    if name not in _SCHEMAS:
        path = os.path.join(SCHEMA_DIR, name + ".json")
        with open(path) as f:
            _SCHEMAS[name] = json.load(f)
    return _SCHEMAS[name]


def _type_ok(v, t):
    if t == "object":
        return isinstance(v, dict)
    if t == "array":
        return isinstance(v, list)
    if t == "string":
        return isinstance(v, str)
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == "boolean":
        return isinstance(v, bool)
    if t == "null":
        return v is None
    return False


def validate(v, sch, root=None, path="$"):
    """Return a list of problems ('' for none)."""
    root = root if root is not None else sch
    errs = []
    if sch is True or sch == {}:
        return errs
    if "$ref" in sch:
        ref = sch["$ref"]
        assert ref.startswith("#/")
        node = root
        for part in ref[2:].split("/"):
            node = node[part]
        errs += validate(v, node, root, path)
    if "type" in sch:
        ts = sch["type"] if isinstance(sch["type"], list) else [sch["type"]]
        if not any(_type_ok(v, t) for t in ts):
            return errs + ["%s: %r is not of type %s" % (path, v, ts)]
    if "const" in sch and v != sch["const"]:
        errs.append("%s: %r != const %r" % (path, v, sch["const"]))
    if "enum" in sch and v not in sch["enum"]:
        errs.append("%s: %r not in enum %r" % (path, v, sch["enum"]))
    if "anyOf" in sch:
        if not any(not validate(v, s, root, path) for s in sch["anyOf"]):
            errs.append("%s: matches none of anyOf" % path)
    if "oneOf" in sch:
        n = sum(1 for s in sch["oneOf"] if not validate(v, s, root, path))
        if n != 1:
            errs.append("%s: matches %d of oneOf" % (path, n))
    if isinstance(v, dict):
        props = sch.get("properties", {})
        for r in sch.get("required", []):
            if r not in v:
                errs.append("%s: missing required %r" % (path, r))
        for k, x in v.items():
            if k in props:
                errs += validate(x, props[k], root, path + "." + k)
            elif sch.get("additionalProperties") is False:
                errs.append("%s: unexpected property %r" % (path, k))
    if isinstance(v, list):
        if "minItems" in sch and len(v) < sch["minItems"]:
            errs.append("%s: fewer than %d items" % (path, sch["minItems"]))
        if "maxItems" in sch and len(v) > sch["maxItems"]:
            errs.append("%s: more than %d items" % (path, sch["maxItems"]))
        if sch.get("uniqueItems") and len(set(json.dumps(x, sort_keys=True) for x in v)) != len(v):
            errs.append("%s: items not unique" % path)
        if "items" in sch:
            for i, x in enumerate(v):
                errs += validate(x, sch["items"], root, "%s[%d]" % (path, i))
    if isinstance(v, str):
        if "minLength" in sch and len(v) < sch["minLength"]:
            errs.append("%s: shorter than %d" % (path, sch["minLength"]))
        if "pattern" in sch and not re.search(sch["pattern"], v):
            errs.append("%s: %r does not match %s" % (path, v, sch["pattern"]))
    if _type_ok(v, "number") and "minimum" in sch and v < sch["minimum"]:
        errs.append("%s: %r < minimum %r" % (path, v, sch["minimum"]))
    return errs


REPLY_SCHEMA = {"init_ok": "init_ok", "open_ok": "open_ok", "apply_ok": "apply_ok",
                "batch_ok": "batch_ok", "close_ok": "close_ok", "error": "error"}


class Client:
    """Talks to one impl.py process; every reply is schema-checked."""

    def __init__(self, fault=None, init=True):
        cmd = [sys.executable, IMPL] + (["--fault", fault] if fault else [])
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, bufsize=0)
        self.mid = 0
        self.schema_problems = []
        self.last_reply = None
        if init:
            self.init_reply = self.request({"type": "init", "protocol_version": "1.2",
                                            "suite": "fourth-reading selftest",
                                            "max_line_bytes": 1048576})

    def send_raw(self, line):
        self.p.stdin.write(line if isinstance(line, bytes) else line.encode())
        self.p.stdin.flush()
        out = self.p.stdout.readline()
        if not out:
            raise RuntimeError("implementation closed stdout; stderr: %s"
                               % self.p.stderr.read().decode()[-2000:])
        reply = json.loads(out)
        self.check_schema(reply)
        self.last_reply = reply
        return reply

    def check_schema(self, reply):
        t = reply.get("type")
        if t not in REPLY_SCHEMA:
            self.schema_problems.append("reply of unknown type %r" % t)
            return
        probs = validate(reply, schema(REPLY_SCHEMA[t]))
        if probs:
            self.schema_problems.append("%s: %s" % (t, probs[:3]))

    def request(self, msg):
        self.mid += 1
        msg = dict(msg)
        msg.setdefault("msg_id", self.mid)
        rep = self.send_raw(json.dumps(msg) + "\n")
        if rep.get("in_reply_to") != msg["msg_id"] and rep.get("type") != "error":
            self.schema_problems.append("in_reply_to %r for msg_id %r"
                                        % (rep.get("in_reply_to"), msg["msg_id"]))
        return rep

    def open(self, config):
        return self.request({"type": "open", "config": config})

    def apply(self, op):
        rep = self.request({"type": "apply", "op": op})
        if rep["type"] == "apply_ok":
            return rep["outcome"]
        return {"error": rep["code"], "definite": rep["definite"], "text": rep.get("text")}

    def batch(self, ops):
        rep = self.request({"type": "batch", "ops": ops})
        return rep

    def run(self, ops):
        """Apply ops one by one; returns outcomes (error dicts for errors)."""
        return [self.apply(o) for o in ops]

    def inspect(self):
        return self.apply({"op": "inspect"})["value"]

    def close(self):
        try:
            rep = self.request({"type": "close"})
        except Exception:
            rep = None
        try:
            self.p.stdin.close()
        except Exception:
            pass
        rc = self.p.wait(timeout=10)
        extra = self.p.stdout.read()
        return rep, rc, extra


def run_scenario(scn, fault=None):
    """Run a fault-kit scenario: open(config) then each op; return a comparable trace."""
    c = Client(fault)
    trace = []
    rep = c.open(scn.get("config", {}))
    trace.append(("open", rep.get("type"), rep.get("code")))
    if rep.get("type") == "open_ok":
        for op in scn.get("ops", []):
            trace.append(c.apply(op))
    c.close()
    if c.schema_problems:
        trace.append(("schema", c.schema_problems))
    return trace
