#!/usr/bin/env python3
"""Self-test of impl.py over the wire: drives child processes, checks behaviour against
the sentences of the IBM texts, and validates every reply against the JSON Schemas with
a small built-in validator (draft 2020-12 subset: every keyword the schemas use)."""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA_DIRS = [os.path.join(HERE, "schemas"), "/work/eleventh-input/schemas"]


# ----------------------------------------------------------------------------- validator
def load_schema(name):
    for d in SCHEMA_DIRS:
        p = os.path.join(d, name + ".json")
        if os.path.exists(p):
            with open(p) as f:
                return json.load(f)
    raise IOError("schema %s not found" % name)


TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
IGNORED = {"$schema", "$id", "$defs", "title", "description", "default", "examples"}
KNOWN = IGNORED | {"$ref", "type", "properties", "required", "additionalProperties", "enum",
                   "const", "anyOf", "oneOf", "allOf", "items", "minItems", "maxItems",
                   "uniqueItems", "minimum", "maximum", "minLength", "maxLength", "pattern"}


def json_eq(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) == type(b) and a == b
    return a == b


def validate(inst, schema, root=None, path=""):
    """Return a list of error strings (empty: valid)."""
    root = root if root is not None else schema
    errs = []
    if schema is True or schema == {}:
        return errs
    if schema is False:
        return ["%s: not allowed" % path]
    for k in schema:
        if k not in KNOWN:
            errs.append("%s: unsupported schema keyword %s" % (path, k))
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/"):
            return errs + ["%s: unsupported $ref %s" % (path, ref)]
        target = root
        for part in ref[2:].split("/"):
            target = target[part]
        errs += validate(inst, target, root, path)
    if "type" in schema:
        ts = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(TYPES[t](inst) for t in ts):
            return errs + ["%s: %r is not of type %s" % (path, inst, ts)]
    if "const" in schema and not json_eq(inst, schema["const"]):
        errs.append("%s: %r is not %r" % (path, inst, schema["const"]))
    if "enum" in schema and not any(json_eq(inst, e) for e in schema["enum"]):
        errs.append("%s: %r not in %r" % (path, inst, schema["enum"]))
    if "anyOf" in schema:
        if not any(not validate(inst, s, root, path) for s in schema["anyOf"]):
            errs.append("%s: matches no anyOf branch" % path)
    if "oneOf" in schema:
        n = sum(1 for s in schema["oneOf"] if not validate(inst, s, root, path))
        if n != 1:
            errs.append("%s: matches %d oneOf branches" % (path, n))
    if "allOf" in schema:
        for s in schema["allOf"]:
            errs += validate(inst, s, root, path)
    if isinstance(inst, dict):
        props = schema.get("properties", {})
        for r in schema.get("required", []):
            if r not in inst:
                errs.append("%s: missing %s" % (path, r))
        for k, v in inst.items():
            if k in props:
                errs += validate(v, props[k], root, path + "/" + k)
            elif "additionalProperties" in schema:
                ap = schema["additionalProperties"]
                if ap is False:
                    errs.append("%s: unexpected field %s" % (path, k))
                elif isinstance(ap, dict):
                    errs += validate(v, ap, root, path + "/" + k)
    if isinstance(inst, list):
        if "items" in schema:
            for i, v in enumerate(inst):
                errs += validate(v, schema["items"], root, "%s/%d" % (path, i))
        if "minItems" in schema and len(inst) < schema["minItems"]:
            errs.append("%s: fewer than %d items" % (path, schema["minItems"]))
        if "maxItems" in schema and len(inst) > schema["maxItems"]:
            errs.append("%s: more than %d items" % (path, schema["maxItems"]))
        if schema.get("uniqueItems"):
            seen = [json.dumps(x, sort_keys=True) for x in inst]
            if len(seen) != len(set(seen)):
                errs.append("%s: items not unique" % path)
    if isinstance(inst, str):
        if "minLength" in schema and len(inst) < schema["minLength"]:
            errs.append("%s: shorter than %d" % (path, schema["minLength"]))
        if "maxLength" in schema and len(inst) > schema["maxLength"]:
            errs.append("%s: longer than %d" % (path, schema["maxLength"]))
        if "pattern" in schema and not re.search(schema["pattern"], inst):
            errs.append("%s: %r does not match %s" % (path, inst, schema["pattern"]))
    if TYPES["number"](inst):
        if "minimum" in schema and inst < schema["minimum"]:
            errs.append("%s: %r below %r" % (path, inst, schema["minimum"]))
        if "maximum" in schema and inst > schema["maximum"]:
            errs.append("%s: %r above %r" % (path, inst, schema["maximum"]))
    return errs


SCHEMAS = {}


def schema(name):
    if name not in SCHEMAS:
        SCHEMAS[name] = load_schema(name)
    return SCHEMAS[name]


# ----------------------------------------------------------------------------- client
class Client(object):
    """Drives one impl.py child over the wire; validates every reply."""

    def __init__(self, fault=None, validate_replies=True):
        cmd = [sys.executable, os.path.join(HERE, "impl.py")]
        if fault:
            cmd += ["--fault", fault]
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, universal_newlines=True,
                                  start_new_session=True)
        self.msg_id = 0
        self.validate = validate_replies
        self.schema_errors = []
        self.replies = 0
        self.caps = None

    def raw(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = self.p.stdout.readline()
        if not out:
            raise RuntimeError("implementation died: " + self.p.stderr.read()[-2000:])
        rep = json.loads(out)
        self.replies += 1
        if self.validate:
            t = rep.get("type")
            if t not in ("init_ok", "open_ok", "apply_ok", "batch_ok", "close_ok", "error"):
                self.schema_errors.append("reply of unknown type %r" % t)
            else:
                for e in validate(rep, schema(t)):
                    self.schema_errors.append("%s: %s" % (t, e))
        return rep

    def request(self, msg):
        self.msg_id += 1
        msg = dict(msg)
        msg["msg_id"] = self.msg_id
        rep = self.raw(json.dumps(msg))
        if rep.get("in_reply_to") != self.msg_id:
            self.schema_errors.append("in_reply_to %r for msg_id %d" % (rep.get("in_reply_to"), self.msg_id))
        return rep

    def init(self, version="1.4"):
        rep = self.request({"type": "init", "protocol_version": version, "suite": "selftest",
                            "max_line_bytes": 1048576})
        if rep.get("type") == "init_ok":
            self.caps = rep["capabilities"]
        return rep

    def open(self, config):
        return self.request({"type": "open", "config": config})

    def apply(self, op):
        rep = self.request({"type": "apply", "op": op})
        if rep.get("type") == "apply_ok":
            if rep["outcome"].get("kind") != op.get("op"):
                self.schema_errors.append("outcome kind %r for op %r" % (rep["outcome"].get("kind"), op.get("op")))
            return rep["outcome"]
        return rep

    def batch(self, ops):
        return self.request({"type": "batch", "ops": ops})

    def close(self):
        try:
            rep = self.request({"type": "close"})
        except Exception:
            rep = None
        try:
            self.p.stdin.close()
        except Exception:
            pass
        try:
            rc = self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = None
        for f in (self.p.stdout, self.p.stderr):
            try:
                f.close()
            except Exception:
                pass
        return rep, rc


def run_scenario(config, ops, fault=None):
    """Open config, apply each op with `apply`; return the list of replies (outcomes or
    error messages, without in_reply_to)."""
    c = Client(fault)
    c.init()
    res = [c.open(config)]
    for op in ops:
        r = c.apply(op)
        if isinstance(r, dict) and r.get("type") == "error":
            r = {"error": r["code"]}
        res.append(r)
    c.close()
    for r in res:
        if isinstance(r, dict):
            r.pop("in_reply_to", None)
            r.pop("text", None)
            r.pop("detail", None)
    return res, c.schema_errors


# ----------------------------------------------------------------------------- helpers
def mqcfg(**kw):
    c = {"profile": "mq", "qsg": "QSG1", "qmgrs": ["QM01", "QM02"],
         "structures": [{"name": "APP1", "size_kb": 8192, "cflevel": 5, "recover": True}],
         "queues": [{"name": "Q1", "cfstruct": "APP1"}]}
    c.update(kw)
    return c


def put(q="Q1", n=100, qm="QM01", **kw):
    d = {"op": "put", "qmgr": qm, "queue": q, "length": n}
    d.update(kw)
    return d


def get(q="Q1", qm="QM01", **kw):
    d = {"op": "get", "qmgr": qm, "queue": q}
    d.update(kw)
    return d


INSPECT = {"op": "inspect"}

RESULTS = {"pass": 0, "fail": 0}
FAILS = []


def check(name, cond, info=""):
    if cond:
        RESULTS["pass"] += 1
    else:
        RESULTS["fail"] += 1
        FAILS.append("%s %s" % (name, info))
        print("FAIL", name, info)


# ----------------------------------------------------------------------------- tests
def t_protocol():
    c = Client()
    r = c.request({"type": "open", "config": mqcfg()})
    check("before-init is 15", r.get("code") == 15 and r.get("definite") is True, r)
    r = c.init()
    check("init_ok", r.get("type") == "init_ok" and r.get("protocol_version") == "1.4", r)
    caps = r.get("capabilities", {})
    check("capabilities schema", not validate(caps, schema("capabilities")))
    check("both profiles", sorted(caps.get("profiles", [])) == ["cqs", "mq"])
    check("all families", len(caps.get("families", [])) == 9)
    rd = caps.get("readings", {})
    cfgread = schema("config")["$defs"]["readings"]["properties"]
    check("every ambiguity named", set(rd) == set(cfgread), sorted(set(cfgread) ^ set(rd)))
    unknown = [k for k, v in rd.items() if v == "unknown"]
    check("about a third unknown", 6 <= len(unknown) <= 10, unknown)
    check("observes all", sorted(caps.get("observes", [])) == ["events", "inspect", "signals", "usage"])
    r = c.init()
    check("second init is 15", r.get("code") == 15)
    r = c.apply(put())
    check("apply before open is 15", r.get("code") == 15)
    r = c.open(mqcfg())
    check("open_ok", r.get("type") == "open_ok", r)
    r = c.apply({"op": "cfconform_no_such_op"})
    check("unknown op kind 11", r.get("type") == "error" and r.get("code") == 11 and r.get("definite") is True)
    r = c.request({"type": "frobnicate"})
    check("unknown type 11", r.get("code") == 11)
    r = c.raw("this is not json")
    check("garbage 11 null", r.get("code") == 11 and r.get("in_reply_to") is None)
    r = c.apply(put(qm="QM09"))
    check("unknown qmgr 14", r.get("code") == 14 and r.get("detail", {}).get("field") == "qmgr", r)
    r = c.apply(put(q="NOPE"))
    check("unknown queue 14", r.get("code") == 14)
    r = c.apply({"op": "put", "qmgr": "QM01", "queue": "Q1"})
    check("missing field 11", r.get("code") == 11)
    r = c.apply({"op": "alter_outcome", "cfstruct": "APP1", "success": True})
    check("cqs op in mq profile is 14", r.get("code") == 14)
    r = c.batch([put(tag=1), {"op": "commit", "qmgr": "QM01"}, get(), put(q="NOPE"), get()])
    check("batch error at k", r.get("type") == "batch_ok" and len(r["outcomes"]) == 3 and
          r.get("error", {}).get("code") == 14, r)
    check("batch outcome tag", r["outcomes"][2].get("tag") == 1)
    r = c.batch([])
    check("empty batch refused", r.get("type") == "error" and r.get("code") == 11)
    big = "x" * (1048577)
    r = c.raw(big)
    check("too-large line 17", r.get("code") == 17)
    r = c.apply(INSPECT)
    check("still alive", r.get("ok") is True)
    r = c.open({"profile": "zzz"})
    check("unknown profile refused", r.get("type") == "error" and r.get("code") in (10, 11, 13))
    r = c.apply(INSPECT)
    check("failed open leaves unopened", r.get("code") == 15)
    rep, rc = c.close()
    check("close_ok", rep and rep.get("type") == "close_ok")
    check("exit 0", rc == 0, rc)
    check("protocol schema", not c.schema_errors, c.schema_errors[:3])
    c = Client()
    r = c.init("2.0")
    check("version mismatch 16", r.get("code") == 16)
    c.close()


def t_refusals():
    base = mqcfg()
    bad = {
        "qsg5": mqcfg(qsg="QSG12"),
        "qsg=qmgr": mqcfg(qsg="QM01", qmgrs=["QM01", "QM02"]),
        "64 structs": mqcfg(structures=[{"name": "S%d" % i} for i in range(64)], queues=[]),
        "64 with sysappl": mqcfg(structures=[{"name": "S%d" % i} for i in range(63)] + [{"name": "CSQSYSAPPL"}], queues=[]),
        "513 queues": mqcfg(queues=[{"name": "Q%d" % i, "cfstruct": "APP1"} for i in range(513)]),
        "name13": mqcfg(structures=[{"name": "ABCDEFGHIJKLM"}], queues=[]),
        "digit": mqcfg(structures=[{"name": "1APP"}], queues=[]),
        "cflevel0": mqcfg(structures=[{"name": "APP1", "cflevel": 0}]),
        "cflevel6": mqcfg(structures=[{"name": "APP1", "cflevel": 6}]),
        "ft101": mqcfg(structures=[{"name": "APP1", "fullthreshold": 101}]),
        "qdepthhi101": mqcfg(queues=[{"name": "Q1", "cfstruct": "APP1", "qdepthhi": 101}]),
        "maxdepth1e9": mqcfg(queues=[{"name": "Q1", "cfstruct": "APP1", "maxdepth": 1000000000}]),
    }
    good = {
        "base": base,
        "no app structure": mqcfg(structures=[], queues=[]),
        "offload kept at 4": mqcfg(structures=[{"name": "APP1", "cflevel": 4, "offload": "SMDS"}]),
        "63 with sysappl": mqcfg(structures=[{"name": "S%d" % i} for i in range(62)] + [{"name": "CSQSYSAPPL"}], queues=[]),
        "512 queues": mqcfg(queues=[{"name": "Q%d" % i, "cfstruct": "APP1"} for i in range(512)]),
        "name12": mqcfg(structures=[{"name": "ABCDEFGHIJKL"}], queues=[]),
        "qsg4": mqcfg(qsg="ABCD"),
        "maxdepth max": mqcfg(queues=[{"name": "Q1", "cfstruct": "APP1", "maxdepth": 999999999, "qdepthhi": 100}]),
    }
    c = Client()
    c.init()
    for k, cfg in bad.items():
        check("config schema " + k, not validate(cfg, schema("config")))
        r = c.open(cfg)
        check("refuse " + k, r.get("type") == "error" and r.get("code") == 13 and r.get("definite") is True, r)
    for k, cfg in good.items():
        r = c.open(cfg)
        check("accept " + k, r.get("type") == "open_ok", r)
    c.close()
    check("refusal schema", not c.schema_errors, c.schema_errors[:3])


def t_queue():
    c = Client()
    c.init()
    c.open(mqcfg(queues=[{"name": "Q1", "cfstruct": "APP1", "maxdepth": 3}]))
    o = c.apply(get())
    check("empty get 2033", o.get("ok") is False and o.get("reason") == 2033, o)
    for i in range(3):
        o = c.apply(put(tag=i + 1))
        check("put ok %d" % i, o.get("ok") is True and o.get("location") == "CF" and o.get("offloaded") is False, o)
    o = c.apply(put(tag=9))
    check("Q_FULL 2053 at MAXDEPTH", o.get("reason") == 2053, o)
    tags = [c.apply(get(qm="QM02")).get("tag") for _ in range(3)]
    check("FIFO across queue managers", tags == [1, 2, 3], tags)
    o = c.apply(put(tag=5, syncpoint=True))
    o = c.apply(get(qm="QM02"))
    check("uncommitted put invisible", o.get("reason") == 2033, o)
    c.apply({"op": "commit", "qmgr": "QM01"})
    o = c.apply(get(qm="QM02", syncpoint=True))
    check("committed visible", o.get("tag") == 5, o)
    c.apply({"op": "backout", "qmgr": "QM02"})
    v = c.apply(INSPECT)["value"]
    check("backout restores get", v["queues"]["Q1"]["depth"] == 1, v["queues"])
    c.apply(put(tag=6, syncpoint=True))
    c.apply({"op": "stop_qmgr", "qmgr": "QM01"})
    v = c.apply(INSPECT)["value"]
    check("stop backs out", v["queues"]["Q1"]["depth"] == 1 and v["qmgrs"]["QM01"]["active"] is False, v)
    c.apply({"op": "start_qmgr", "qmgr": "QM01"})
    o = c.apply(put(n=5000000))
    check("MAXMSGL 2030", o.get("reason") == 2030, o)
    c.close()
    check("queue schema", not c.schema_errors, c.schema_errors[:3])


def t_offload_cflevel():
    c = Client()
    c.init()
    c.open(mqcfg(structures=[{"name": "APP1", "cflevel": 5, "recover": True},
                             {"name": "DB", "cflevel": 5, "offload": "DB2"},
                             {"name": "L4", "cflevel": 4, "recover": True},
                             {"name": "L3", "cflevel": 3, "recover": True},
                             {"name": "L2", "cflevel": 2},
                             {"name": "NR", "cflevel": 5, "recover": False},
                             {"name": "SM", "size_kb": 64, "cflevel": 5}],
                 queues=[{"name": n, "cfstruct": n} for n in ("APP1", "DB", "L4", "L3", "L2", "NR", "SM")]))
    o = c.apply(put("APP1", 65280))
    check("63.75 KB stays in CF", o.get("location") == "CF", o)
    u0 = o["usage"]
    o = c.apply(put("APP1", 65281))
    check("over 63.75 KB forced to SMDS", o.get("location") == "SMDS" and o.get("offloaded") is True, o)
    u1 = o["usage"]
    # 0.75 KB: our entry (256 B) + 4 elements of 128 B
    check("offloaded costs 0.75 KB", (u1[0] - u0[0]) * 256 + (u1[2] - u0[2]) * 128 == 768, (u0, u1))
    o = c.apply(put("APP1", 40000))
    check("32K rule off below 70%", o.get("location") == "CF", o)
    o = c.apply(put("DB", 70000))
    check("OFFLOAD(DB2)", o.get("location") == "DB2", o)
    o = c.apply(put("L4", 70000, persistent=True))
    check("CFLEVEL 4 large ok (DB2)", o.get("ok") is True and o.get("location") == "DB2", o)
    o = c.apply(put("L3", 64513))
    check("CFLEVEL 3 over 63 KB 2366", o.get("reason") == 2366, o)
    o = c.apply(put("L3", 64512, persistent=True))
    check("CFLEVEL 3 63 KB persistent ok", o.get("ok") is True, o)
    o = c.apply(put("L2", 100, persistent=True))
    check("CFLEVEL 2 persistent 2366 (reading)", o.get("reason") == 2366, o)
    o = c.apply(put("L2", 100))
    check("CFLEVEL 2 nonpersistent ok", o.get("ok") is True, o)
    o = c.apply(put("NR", 100, persistent=True))
    check("RECOVER(NO) persistent 2048", o.get("reason") == 2048, o)
    # small structure: fill above 70% of elements
    us = None
    for i in range(11):
        o = c.apply(put("SM", 3000))
        us = o.get("usage")
    check("SM filled over 70%", us and 100 * us[2] > 70 * us[3] and 100 * us[2] <= 80 * us[3], us)
    o = c.apply(put("SM", 32769))
    check("rule 1 offloads >32K over 70%", o.get("location") == "SMDS", o)
    o = c.apply(put("SM", 32768))
    check("rule 1 not for exactly 32K", o.get("location") == "CF" or o.get("reason") == 2192, o)
    o = c.apply({"op": "define_structure", "structure": {"name": "X4", "cflevel": 4, "offload": "SMDS"}})
    check("OFFLOAD below CFLEVEL 5 invalid", o.get("ok") is False and o.get("reason") == "INVALID", o)
    o = c.apply({"op": "alter_structure", "name": "L3", "changes": {"cflevel": 2}})
    check("CFLEVEL decrease guarded", o.get("ok") is False, o)
    c.close()
    check("offload schema", not c.schema_errors, c.schema_errors[:3])


def t_capacity():
    c = Client()
    c.init()
    c.open(mqcfg(structures=[{"name": "APP1", "size_kb": 64, "cflevel": 3, "fullthreshold": 50}],
                 queues=[{"name": "Q1", "cfstruct": "APP1"}]))
    last = None
    n = 0
    while True:
        o = c.apply(put(n=3000))
        n += 1
        if not o.get("ok"):
            last = o
            break
        if n > 100:
            break
    check("structure full 2192", last and last.get("reason") == 2192, last)
    v = c.apply(INSPECT)["value"]["structures"]["APP1"]
    check("no IXC585E before time passes (deferred)", v["full_warning"] is False, v)
    o = c.apply({"op": "advance_clock", "seconds": 1})
    check("IXC585E later", "IXC585E APP1" in o.get("signals", []), o)
    for i in range(n):
        c.apply(get())
    o = c.apply({"op": "advance_clock", "seconds": 1})
    check("IXC586I later", "IXC586I APP1" in o.get("signals", []), o)
    c.close()
    check("capacity schema", not c.schema_errors, c.schema_errors[:3])


def t_sizing_topology():
    c = Client()
    c.init()
    c.open(mqcfg(qsg="AB", qmgrs=["QM01", "QM02", "QM03"],
                 structures=[{"name": "APP1", "size_kb": 16384, "initsize_kb": 8192}]))
    v = c.apply(INSPECT)["value"]
    s = v["structures"]["APP1"]
    check("allocated at INITSIZE", s["size_kb"] == 8192, s)
    check("cfname padded", s.get("cfname") == "AB@@APP1", s)
    check("admin table", v["admin"]["size_kb"] >= 7976 and v["admin"]["entries_total"] >= 3000, v["admin"])
    o = c.apply({"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 16384})
    check("alter to SIZE refused (reading)", o.get("ok") is False, o)
    o = c.apply({"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 20000})
    check("alter above SIZE refused", o.get("ok") is False, o)
    o = c.apply({"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 12288})
    check("alter within accepted", o.get("ok") is True, o)
    s2 = c.apply(INSPECT)["value"]["structures"]["APP1"]
    check("alter grows totals", s2["size_kb"] == 12288 and s2["entries_total"] > s["entries_total"], s2)
    o = c.apply({"op": "define_queue", "queue": {"name": "QX", "cfstruct": "NOPE"}})
    check("define queue bad structure INVALID", o.get("reason") == "INVALID", o)
    o = c.apply({"op": "define_structure", "structure": {"name": "APPLICATION12"}})
    check("define 13-char INVALID", o.get("reason") == "INVALID", o)
    o = c.apply({"op": "define_structure", "structure": {"name": "NEW1", "cflevel": 5}})
    check("define ok", o.get("ok") is True, o)
    c.close()
    check("sizing schema", not c.schema_errors, c.schema_errors[:3])


def t_qdepth():
    c = Client()
    c.init()
    c.open(mqcfg(qmgrs=["QM01", "QM02", "QM03"],
                 queues=[{"name": "Q1", "cfstruct": "APP1", "maxdepth": 10, "qdepthhi": 80,
                          "qdepthlo": 20, "qdphiev": True},
                         {"name": "L1", "qmgr": "QM01", "maxdepth": 10, "qdphiev": True}],
                 perfmev_disabled=["QM03"]))
    evs = []
    for i in range(8):
        o = c.apply(put(qm="QM01" if i % 2 else "QM02"))
        evs.append(o.get("events", []))
    check("no QDPHI before 80%", not any(evs[:7]), evs)
    e = evs[7]
    check("QDPHI at depth 8 from enabled active qmgrs", [x["qmgr"] for x in e] == ["QM01", "QM02"] and
          all(x["kind"] == "QDPHI" for x in e), e)
    check("same correl", len(set(x["correl"] for x in e)) == 1)
    check("stats per qmgr", [(x["enq"], x["deq"]) for x in e] == [(4, 0), (4, 0)], e)
    q = c.apply(INSPECT)["value"]["queues"]["Q1"]
    check("QDPHI toggles", q == {"depth": 8, "qdphiev": False, "qdploev": True, "qdpmaxev": True}, q)
    c.apply(put())
    c.apply(put())
    o = c.apply(put(qm="QM02"))
    check("QFULL event", o.get("reason") == 2053 and [x["kind"] for x in o.get("events", [])] == ["QFULL", "QFULL"] and
          o["events"][0]["qmgr"] == "QM02", o)
    q = c.apply(INSPECT)["value"]["queues"]["Q1"]
    check("QFULL toggles", q["qdpmaxev"] is False and q["qdploev"] is True and q["qdphiev"] is False, q)
    outs = [c.apply(get(qm="QM02")) for _ in range(8)]
    lo = [o.get("events", []) for o in outs]
    check("QDPLO at depth 2", not any(lo[:7]) and lo[7] and lo[7][0]["kind"] == "QDPLO", lo)
    q = c.apply(INSPECT)["value"]["queues"]["Q1"]
    check("QDPLO re-arms QDPHI", q["qdphiev"] is True and q["qdploev"] is False and q["qdpmaxev"] is True, q)
    # coordinator with PERFMEV disabled: flags toggle, no message from it
    c.apply({"op": "set_perfmev", "qmgr": "QM01", "enabled": False})
    for i in range(6):
        o = c.apply(put(qm="QM01"))
    q = c.apply(INSPECT)["value"]["queues"]["Q1"]
    check("shared toggles with PERFMEV disabled", q["qdphiev"] is False and not any(x["qmgr"] == "QM01" for x in o.get("events", [])), (q, o))
    # nonshared with PERFMEV disabled: nothing changes
    for i in range(8):
        o = c.apply(put("L1", qm="QM01"))
    q = c.apply(INSPECT)["value"]["queues"]["L1"]
    check("nonshared unchanged while PERFMEV disabled", q["qdphiev"] is True and not o.get("events"), (q, o))
    c.apply({"op": "set_perfmev", "qmgr": "QM01", "enabled": True})
    o = c.apply(put("L1", qm="QM01"))
    check("nonshared event once enabled", [x["kind"] for x in o.get("events", [])] == ["QDPHI"], o)
    c.close()
    check("qdepth schema", not c.schema_errors, c.schema_errors[:3])


def t_recovery():
    c = Client()
    c.init()
    c.open(mqcfg(structures=[{"name": "APP1", "cflevel": 5, "recover": True},
                             {"name": "NR", "cflevel": 5, "recover": False}],
                 queues=[{"name": "Q1", "cfstruct": "APP1"}, {"name": "Q2", "cfstruct": "NR"}]))
    o = c.apply({"op": "recover", "cfstruct": "APP1"})
    check("recover non-failed NOT_FAILED", o.get("reason") == "NOT_FAILED", o)
    o = c.apply({"op": "backup", "qmgr": "QM01", "cfstruct": "NR"})
    check("backup RECOVER(NO) refused", o.get("ok") is False, o)
    c.apply(put(tag=1, persistent=True))
    c.apply(put(tag=2))
    o = c.apply({"op": "backup", "qmgr": "QM01", "cfstruct": "APP1"})
    check("backup ok", o.get("ok") is True, o)
    c.apply(put(tag=3, persistent=True, qm="QM02"))
    c.apply(put(tag=4, persistent=True, syncpoint=True))
    c.apply({"op": "stop_qmgr", "qmgr": "QM02"})
    c.apply({"op": "fail_structure", "cfstruct": "APP1"})
    o = c.apply(put())
    check("put on failed 2373", o.get("reason") == 2373, o)
    o = c.apply({"op": "recover", "cfstruct": "APP1"})
    check("recover ok", o.get("ok") is True, o)
    tags = []
    while True:
        o = c.apply(get())
        if not o.get("ok"):
            break
        tags.append(o["tag"])
    check("persistent committed recovered, all logs", tags == [1, 3], tags)
    c.apply({"op": "fail_structure", "cfstruct": "NR"})
    o = c.apply({"op": "recover", "cfstruct": "NR"})
    check("recover RECOVER(NO) refused", o.get("ok") is False, o)
    c.open(mqcfg())
    c.apply({"op": "fail_structure", "cfstruct": "APP1"})
    o = c.apply({"op": "recover", "cfstruct": "APP1"})
    check("no backup", o.get("reason") == "NO_BACKUP", o)
    o = c.apply({"op": "recover", "cfstruct": "APP1", "purge": True})
    check("purge ok", o.get("ok") is True, o)
    c.close()
    check("recovery schema", not c.schema_errors, c.schema_errors[:3])


def cqscfg(**kw):
    c = {"profile": "cqs", "qsg": "IMS1", "qmgrs": ["CQS1", "CQS2"],
         "structures": [{"name": "MSGQ", "size_kb": 64, "ovflwmax": 70}],
         "queues": [{"name": "TA", "cfstruct": "MSGQ"}, {"name": "TB", "cfstruct": "MSGQ"},
                    {"name": "TC", "cfstruct": "MSGQ"}]}
    c.update(kw)
    return c


def fill_cqs(c, plan):
    out = []
    for q, n, size in plan:
        for i in range(n):
            out.append(c.apply({"op": "put", "qmgr": "CQS1", "queue": q, "length": size}))
    return out


def t_cqs():
    c = Client()
    c.init()
    r = c.open(cqscfg())
    check("cqs open", r.get("type") == "open_ok", r)
    outs = fill_cqs(c, [("TA", 6, 3000), ("TB", 3, 3000), ("TC", 2, 3000)])
    alters = [o for o in outs if "ALTER MSGQ" in o.get("signals", [])]
    check("ALTER at threshold", len(alters) == 1, [o.get("signals") for o in outs])
    idx = [i for i, o in enumerate(outs) if o.get("signals")][0]
    u = outs[idx]["usage"]
    check("threshold reached, not before", 100 * u[2] >= 70 * u[3] and
          100 * outs[idx - 1]["usage"][2] < 70 * outs[idx - 1]["usage"][3], (u, outs[idx - 1]["usage"]))
    v = c.apply(INSPECT)["value"]["structures"]["MSGQ"]
    check("alter pending (async)", v["alter_pending"] is True and v["overflow_mode"] is False, v)
    o = c.apply({"op": "alter_outcome", "cfstruct": "MSGQ", "success": False})
    sig = o.get("signals", [])
    check("overflow on, biggest queue first", sig[:2] == ["OVERFLOW_ON MSGQ", "OVERFLOW_QUEUE MSGQ TA"], sig)
    o = c.apply({"op": "put", "qmgr": "CQS1", "queue": "TA", "length": 100})
    check("CQSPUT rejected without OVFLWSTR", o.get("reason") == "REJECTED_OVERFLOW", o)
    o = c.apply({"op": "put", "qmgr": "CQS1", "queue": "TC", "length": 100})
    check("unselected queue accepted", o.get("ok") is True, o)
    for i in range(6):
        c.apply({"op": "get", "qmgr": "CQS2", "queue": "TA"})
    v = c.apply(INSPECT)["value"]["structures"]["MSGQ"]
    check("relief waits for scan", v["overflow_mode"] is True, v)
    o = c.apply({"op": "advance_clock", "seconds": 899})
    check("no scan before 15 min", "OVERFLOW_OFF MSGQ" not in o.get("signals", []), o)
    o = c.apply({"op": "advance_clock", "seconds": 1})
    check("scan ends overflow", "OVERFLOW_OFF MSGQ" in o.get("signals", []), o)
    o = c.apply({"op": "alter_outcome", "cfstruct": "MSGQ", "success": True})
    check("no alter pending", o.get("reason") == "NO_ALTER_PENDING", o)
    # with an overflow structure and the exit vetoing TA
    c.open(cqscfg(structures=[{"name": "MSGQ", "size_kb": 64, "ovflwmax": 70, "ovflwstr": "OVFQ"}],
                  overflow_exit=["TA"]))
    fill_cqs(c, [("TA", 6, 3000), ("TB", 3, 3000), ("TC", 2, 3000)])
    o = c.apply({"op": "alter_outcome", "cfstruct": "MSGQ", "success": False})
    sig = o.get("signals", [])
    check("vetoed queue skipped", "OVERFLOW_QUEUE MSGQ TA" not in sig and "OVERFLOW_QUEUE MSGQ TB" in sig, sig)
    o = c.apply({"op": "put", "qmgr": "CQS1", "queue": "TB", "length": 100})
    check("put to overflow structure", o.get("ok") is True, o)
    for i in range(4):
        c.apply({"op": "get", "qmgr": "CQS1", "queue": "TB"})
    o = c.apply({"op": "advance_clock", "seconds": 900})
    s = o.get("signals", [])
    check("scan removes empty queue", "OVERFLOW_QUEUE_OFF MSGQ TB" in s, s)
    # large messages: staging parts stay on the primary
    c.open(cqscfg(lgmsgsz=1000, structures=[{"name": "MSGQ", "size_kb": 256}]))
    c.apply({"op": "put", "qmgr": "CQS1", "queue": "TA", "length": 3500})
    v = c.apply(INSPECT)["value"]
    check("staging parts", v["structures"]["MSGQ"]["staging_depth"] == 3 and v["queues"]["TA"]["depth"] == 1, v)
    o = c.apply({"op": "backup", "qmgr": "CQS1", "cfstruct": "MSGQ"})
    check("mq op in cqs is 14", o.get("code") == 14, o)
    c.close()
    check("cqs schema", not c.schema_errors, c.schema_errors[:3])


def main():
    for t in (t_protocol, t_refusals, t_queue, t_offload_cflevel, t_capacity, t_sizing_topology,
              t_qdepth, t_recovery, t_cqs):
        try:
            t()
        except Exception as e:
            import traceback
            traceback.print_exc()
            check(t.__name__ + " crashed", False, repr(e))
    print("selftest: %d passed, %d failed" % (RESULTS["pass"], RESULTS["fail"]))
    return 1 if RESULTS["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
