"""Shared helpers for selftest.py and faultcheck.py (standard library only).

- Validator: a small JSON Schema (draft 2020-12 subset) validator covering the
  keywords the cfconform schemas use: type, enum, const, properties, required,
  additionalProperties, items, minItems, maxItems, minLength, minimum, pattern,
  anyOf, oneOf, $ref (local #/$defs/...), uniqueItems.  Annotations
  ($schema, $id, title, description, default, examples) are ignored.
- Client: drives an implementation process over the JSON-lines wire protocol.
"""
import json
import math
import os
import re
import selectors
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
INPUT = os.path.join(os.path.dirname(HERE), "twelfth-input")
SCHEMA_DIR = os.path.join(INPUT, "schemas")
# (kept in the cfconform repository: the texts come from $CFCONFORM_SHARED, the schemas from docs/)
if not os.path.isdir(INPUT):
    _SHARED = os.environ.get("CFCONFORM_SHARED", os.path.join(HERE, "..", "..", "..", "shared"))
    _REPO = os.path.join(HERE, "..", "..")
    SCHEMA_DIR = os.path.join(_REPO, "docs", "schemas")
    INPUT = os.path.join(_SHARED, "seeds")


def source_path(name):
    """A source file named as in faults.json: a seed text, or ibm-facts.md."""
    path = os.path.join(INPUT, name)
    if name == "ibm-facts.md" and not os.path.exists(path):
        path = os.path.join(INPUT, "..", "notes", name)
    return path
IMPL = os.path.join(HERE, "impl.py")

IGNORED = {"$schema", "$id", "title", "description", "default", "examples", "$defs", "$comment"}
HANDLED = {"type", "enum", "const", "properties", "required", "additionalProperties", "items",
           "minItems", "maxItems", "minLength", "minimum", "pattern", "anyOf", "oneOf", "$ref",
           "uniqueItems"}


def _is_type(v, t):
    if t == "object":
        return isinstance(v, dict)
    if t == "array":
        return isinstance(v, list)
    if t == "string":
        return isinstance(v, str)
    if t == "integer":
        if isinstance(v, bool):
            return False
        return isinstance(v, int) or (isinstance(v, float) and v.is_integer())
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == "boolean":
        return isinstance(v, bool)
    if t == "null":
        return v is None
    raise ValueError("unknown type %r" % t)


def _json_eq(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_eq(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_eq(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


class Validator(object):
    def __init__(self, schema):
        self.root = schema
        unknown = self._keywords(schema) - HANDLED - IGNORED
        if unknown:
            raise ValueError("schema uses keywords this validator does not implement: %r" % sorted(unknown))

    def _keywords(self, s, acc=None):
        acc = set() if acc is None else acc
        if isinstance(s, dict):
            for k, v in s.items():
                acc.add(k)
                if k in ("properties", "$defs"):
                    for sub in v.values():
                        self._keywords(sub, acc)
                elif k in ("items", "additionalProperties") and isinstance(v, dict):
                    self._keywords(v, acc)
                elif k in ("anyOf", "oneOf"):
                    for sub in v:
                        self._keywords(sub, acc)
        return acc

    def resolve(self, ref):
        if not ref.startswith("#/"):
            raise ValueError("only local refs supported: %r" % ref)
        node = self.root
        for part in ref[2:].split("/"):
            node = node[part]
        return node

    def errors(self, inst, schema=None, path=""):
        """Return a list of error strings (empty = valid)."""
        s = self.root if schema is None else schema
        errs = []
        if s is True or s == {}:
            return errs
        if s is False:
            return ["%s: not allowed" % (path or "/")]
        if "$ref" in s:
            errs += self.errors(inst, self.resolve(s["$ref"]), path)
        if isinstance(inst, float) and (math.isnan(inst) or math.isinf(inst)):
            errs.append("%s: NaN/Infinity" % path)
        if "type" in s:
            ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
            if not any(_is_type(inst, t) for t in ts):
                errs.append("%s: %r is not of type %s" % (path or "/", inst, ts))
                return errs
        if "const" in s and not _json_eq(inst, s["const"]):
            errs.append("%s: %r != const %r" % (path or "/", inst, s["const"]))
        if "enum" in s and not any(_json_eq(inst, e) for e in s["enum"]):
            errs.append("%s: %r not in enum %r" % (path or "/", inst, s["enum"]))
        if isinstance(inst, str):
            if "minLength" in s and len(inst) < s["minLength"]:
                errs.append("%s: shorter than %d" % (path, s["minLength"]))
            if "pattern" in s and not re.search(s["pattern"], inst):
                errs.append("%s: %r does not match %r" % (path, inst, s["pattern"]))
        if _is_type(inst, "number") and "minimum" in s and inst < s["minimum"]:
            errs.append("%s: %r < minimum %r" % (path, inst, s["minimum"]))
        if isinstance(inst, list):
            if "minItems" in s and len(inst) < s["minItems"]:
                errs.append("%s: fewer than %d items" % (path, s["minItems"]))
            if "maxItems" in s and len(inst) > s["maxItems"]:
                errs.append("%s: more than %d items" % (path, s["maxItems"]))
            if s.get("uniqueItems"):
                for i in range(len(inst)):
                    for j in range(i + 1, len(inst)):
                        if _json_eq(inst[i], inst[j]):
                            errs.append("%s: items %d and %d equal" % (path, i, j))
            if "items" in s:
                for i, x in enumerate(inst):
                    errs += self.errors(x, s["items"], "%s/%d" % (path, i))
        if isinstance(inst, dict):
            props = s.get("properties", {})
            for r in s.get("required", []):
                if r not in inst:
                    errs.append("%s: missing required %r" % (path or "/", r))
            for k, v in inst.items():
                if k in props:
                    errs += self.errors(v, props[k], "%s/%s" % (path, k))
                elif "additionalProperties" in s:
                    ap = s["additionalProperties"]
                    if ap is False:
                        errs.append("%s: unexpected property %r" % (path or "/", k))
                    elif isinstance(ap, dict):
                        errs += self.errors(v, ap, "%s/%s" % (path, k))
        if "anyOf" in s:
            if not any(not self.errors(inst, sub, path) for sub in s["anyOf"]):
                errs.append("%s: matches none of anyOf" % (path or "/"))
        if "oneOf" in s:
            n = sum(1 for sub in s["oneOf"] if not self.errors(inst, sub, path))
            if n != 1:
                errs.append("%s: matches %d of oneOf (need exactly 1)" % (path or "/", n))
        return errs


_SCHEMAS = {}


def validator(name):
    v = _SCHEMAS.get(name)
    if v is None:
        with open(os.path.join(SCHEMA_DIR, name + ".json")) as f:
            v = _SCHEMAS[name] = Validator(json.load(f))
    return v


REPLY_SCHEMA = {"init_ok": "init_ok", "open_ok": "open_ok", "apply_ok": "apply_ok",
                "batch_ok": "batch_ok", "close_ok": "close_ok", "error": "error"}


def check_reply(reply):
    """Schema errors of a reply (by its type)."""
    if not isinstance(reply, dict) or not isinstance(reply.get("type"), str):
        return ["reply is not an object with a string type"]
    name = REPLY_SCHEMA.get(reply["type"])
    if name is None:
        return ["unknown reply type %r" % reply.get("type")]
    return validator(name).errors(reply)


class ProtocolFault(Exception):
    pass


class Client(object):
    """One implementation process, spoken to over the wire."""

    def __init__(self, argv=None, fault=None, timeout=10.0, validate=True):
        argv = list(argv or [sys.executable, IMPL])
        if fault:
            argv += ["--fault", fault]
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.proc.stdout, selectors.EVENT_READ)
        self.buf = b""
        self.timeout = timeout
        self.validate = validate
        self.msg_id = 0
        self.schema_errors = []
        self.last_ops = None

    def readline(self):
        while b"\n" not in self.buf:
            if not self.sel.select(self.timeout):
                raise ProtocolFault("timeout waiting for a reply")
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise ProtocolFault("implementation closed stdout")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def send_raw(self, line):
        if isinstance(line, str):
            line = line.encode("utf-8")
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()
        raw = self.readline()
        try:
            reply = json.loads(raw.decode("utf-8"))
        except ValueError:
            raise ProtocolFault("garbage on stdout: %r" % raw[:200])
        if self.validate:
            errs = check_reply(reply)
            if errs:
                self.schema_errors.append((reply.get("type"), errs[:3]))
        return reply

    def request(self, msg):
        self.msg_id += 1
        msg = dict(msg)
        msg["msg_id"] = self.msg_id
        reply = self.send_raw(json.dumps(msg))
        if reply.get("in_reply_to") != self.msg_id:
            raise ProtocolFault("in_reply_to %r != msg_id %r" % (reply.get("in_reply_to"), self.msg_id))
        # outcome kinds must match the ops
        if reply.get("type") == "apply_ok" and msg.get("type") == "apply":
            if reply["outcome"].get("kind") != msg["op"].get("op"):
                self.schema_errors.append(("apply_ok", ["outcome kind != op kind"]))
        if reply.get("type") == "batch_ok" and msg.get("type") == "batch":
            for o, op in zip(reply["outcomes"], msg["ops"]):
                if o.get("kind") != op.get("op"):
                    self.schema_errors.append(("batch_ok", ["outcome kind != op kind"]))
        return reply

    def init(self, version="1.4"):
        return self.request({"type": "init", "protocol_version": version, "suite": "twelfth-selftest",
                             "max_line_bytes": 1048576})

    def open(self, config):
        return self.request({"type": "open", "config": config})

    def apply(self, op):
        return self.request({"type": "apply", "op": op})

    def batch(self, ops):
        return self.request({"type": "batch", "ops": ops})

    def close(self):
        try:
            r = self.request({"type": "close"})
        except ProtocolFault:
            r = None
        try:
            self.proc.stdin.close()
        except Exception:
            pass
        try:
            rc = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        self.sel.close()
        self.proc.stdout.close()
        return r, rc


def run_scenario(client, scenario):
    """Open the scenario's config and apply its ops one by one; return a
    comparable list: the open reply and, per op, its outcome or error."""
    res = []
    r = client.open(scenario["config"])
    res.append(strip(r))
    for op in scenario["ops"]:
        r = client.apply(op)
        res.append(strip(r))
    return res


def strip(reply):
    """The comparable part of a reply: outcome, or error code + definite."""
    t = reply.get("type")
    if t == "apply_ok":
        o = dict(reply["outcome"])
        o.pop("rules", None)
        if "signals" in o:
            o["signals"] = sorted(o["signals"])
        return o
    if t == "error":
        return {"error": reply.get("code"), "definite": reply.get("definite")}
    if t == "open_ok":
        return {"open": True}
    return {"type": t}


def norm(text):
    return " ".join(text.split())
