#!/usr/bin/env python3
"""Self-test over the wire: starts `python3 impl.py` as a child process, speaks the protocol on its
stdin/stdout, validates every reply against docs/schemas (a small stdlib JSON Schema
subset validator), and checks behaviour read from the IBM texts.  Exit 0 when every check passes."""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = os.path.join(HERE, "..", "..", "docs", "schemas")
_schema_cache = {}


def schema(name):
    if name not in _schema_cache:
        with open(os.path.join(SCHEMAS, name + ".json")) as fh:
            _schema_cache[name] = json.load(fh)
    return _schema_cache[name]


def _type_ok(v, t):
    return {"object": isinstance(v, dict), "array": isinstance(v, list), "string": isinstance(v, str),
            "boolean": isinstance(v, bool), "null": v is None,
            "integer": isinstance(v, int) and not isinstance(v, bool),
            "number": isinstance(v, (int, float)) and not isinstance(v, bool)}[t]


def validate(v, s, root, path="$"):
    """Return a list of error strings (empty when valid)."""
    errs = []
    if "$ref" in s:
        ref = s["$ref"]
        assert ref.startswith("#/$defs/")
        return validate(v, root["$defs"][ref[len("#/$defs/"):]], root, path)
    if "type" in s:
        ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(_type_ok(v, t) for t in ts):
            return ["%s: %r is not of type %s" % (path, v, ts)]
    if "const" in s and v != s["const"]:
        errs.append("%s: %r != const %r" % (path, v, s["const"]))
    if "enum" in s and v not in s["enum"]:
        errs.append("%s: %r not in %r" % (path, v, s["enum"]))
    if "anyOf" in s and not any(not validate(v, sub, root, path) for sub in s["anyOf"]):
        errs.append("%s: matches none of anyOf" % path)
    if "oneOf" in s and sum(1 for sub in s["oneOf"] if not validate(v, sub, root, path)) != 1:
        errs.append("%s: does not match exactly one of oneOf" % path)
    if isinstance(v, (int, float)) and not isinstance(v, bool) and "minimum" in s and v < s["minimum"]:
        errs.append("%s: %r < minimum" % (path, v))
    if isinstance(v, str):
        if "minLength" in s and len(v) < s["minLength"]:
            errs.append("%s: too short" % path)
        if "pattern" in s and not re.search(s["pattern"], v):
            errs.append("%s: pattern mismatch" % path)
    if isinstance(v, list):
        if "minItems" in s and len(v) < s["minItems"]:
            errs.append("%s: too few items" % path)
        if "maxItems" in s and len(v) > s["maxItems"]:
            errs.append("%s: too many items" % path)
        if s.get("uniqueItems") and len(set(json.dumps(x, sort_keys=True) for x in v)) != len(v):
            errs.append("%s: items not unique" % path)
        if "items" in s:
            for i, x in enumerate(v):
                errs += validate(x, s["items"], root, "%s/%d" % (path, i))
    if isinstance(v, dict):
        props = s.get("properties", {})
        for r in s.get("required", []):
            if r not in v:
                errs.append("%s: missing %s" % (path, r))
        for k, x in v.items():
            if k in props:
                errs += validate(x, props[k], root, "%s/%s" % (path, k))
            elif s.get("additionalProperties") is False:
                errs.append("%s: unexpected field %s" % (path, k))
    return errs


class Wire:
    def __init__(self, args=()):
        self.p = subprocess.Popen([sys.executable, os.path.join(HERE, "impl.py")] + list(args),
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.mid = 0
        self.schema_errors = []

    def raw(self, line):
        self.p.stdin.write(line if isinstance(line, bytes) else line.encode())
        self.p.stdin.flush()
        reply = json.loads(self.p.stdout.readline())
        self._validate(reply)
        return reply

    def _validate(self, reply):
        name = reply.get("type")
        if name not in ("init_ok", "open_ok", "apply_ok", "batch_ok", "close_ok", "error"):
            self.schema_errors.append("unknown reply type %r" % name)
            return
        sc = schema(name)
        e = validate(reply, sc, sc)
        if e:
            self.schema_errors.append("%s: %s" % (name, e[:3]))

    def send(self, obj):
        self.mid += 1
        obj = dict(obj, msg_id=self.mid)
        r = self.raw(json.dumps(obj) + "\n")
        assert r.get("in_reply_to") == self.mid or r.get("type") == "error", r
        return r

    def open(self, config):
        return self.send({"type": "open", "config": config})

    def op(self, op):
        r = self.send({"type": "apply", "op": op})
        return r.get("outcome", r)

    def batch(self, ops):
        return self.send({"type": "batch", "ops": ops})

    def close(self):
        r = self.send({"type": "close"})
        try:
            rc = self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = None
        return r, rc


RESULTS = []


def chk(name, cond, info=""):
    RESULTS.append((name, bool(cond), info))


def st(name="APP1", **kw):
    d = {"name": name, "size_kb": 8192, "cflevel": 5, "recover": True}
    d.update(kw)
    return d


def qu(name="Q1", cfstruct="APP1", **kw):
    d = {"name": name, "cfstruct": cfstruct, "maxdepth": 10}
    d.update(kw)
    return d


def mq(structures=None, queues=None, qmgrs=None, **kw):
    d = {"profile": "mq", "qsg": "QSG1", "qmgrs": qmgrs or ["QM01", "QM02"],
         "structures": structures if structures is not None else [st()],
         "queues": queues if queues is not None else [qu()]}
    d.update(kw)
    return d


def put(qm="QM01", q="Q1", length=100, **kw):
    d = {"op": "put", "qmgr": qm, "queue": q, "length": length}
    d.update(kw)
    return d


def get(qm="QM01", q="Q1", **kw):
    d = {"op": "get", "qmgr": qm, "queue": q}
    d.update(kw)
    return d


INSPECT = {"op": "inspect"}


def main():
    w = Wire()
    # ---------------------------------------------------------- protocol
    r = w.send({"type": "open", "config": mq()})
    chk("open before init is error 15", r["type"] == "error" and r["code"] == 15)
    r = w.send({"type": "init", "protocol_version": "2.0"})
    chk("major version mismatch is error 16", r["type"] == "error" and r["code"] == 16)
    r = w.send({"type": "init", "protocol_version": "1.3", "suite": "selftest", "max_line_bytes": 1048576})
    chk("init_ok", r["type"] == "init_ok" and r["protocol_version"] == "1.3")
    caps = r.get("capabilities", {})
    sc = schema("capabilities")
    chk("capabilities match their schema", not validate(caps, sc, sc))
    chk("all 22 readings declared", len(caps.get("readings", {})) == 22 and "unknown" not in caps["readings"].values())
    r = w.send({"type": "init", "protocol_version": "1.3"})
    chk("second init is error 15", r["type"] == "error" and r["code"] == 15)
    r = w.raw("this is not json\n")
    chk("garbage gets error 11 with null in_reply_to", r["type"] == "error" and r["code"] == 11 and r["in_reply_to"] is None)
    r = w.raw('{"type":"apply"}\n')
    chk("no msg_id gets error 11 null", r["code"] == 11 and r["in_reply_to"] is None)
    r = w.send({"type": "frobnicate"})
    chk("unknown message type is error 11", r["type"] == "error" and r["code"] == 11 and r["definite"] is True)
    r = w.send({"type": "apply", "op": put()})
    chk("apply before open is error 15", r["type"] == "error" and r["code"] == 15)
    r = w.open({"profile": "mq", "bogus": 1})
    chk("unknown config field is error 13", r["type"] == "error" and r["code"] == 13)
    r = w.open(mq(qsg="TOOLONG"))
    chk("QSG name over 4 characters is error 13", r["type"] == "error" and r["code"] == 13)
    r = w.open(mq(admin_size_kb=6000))
    chk("CSQ_ADMIN below Table 1 is error 13", r["type"] == "error" and r["code"] == 13)
    r = w.open(mq())
    chk("open_ok", r["type"] == "open_ok")
    o = w.op({"op": "cfconform_nope"})
    chk("unknown op kind is error 11", o.get("type") == "error" and o["code"] == 11)
    o = w.op(put(qm="QM09"))
    chk("unknown qmgr is error 14", o.get("type") == "error" and o["code"] == 14 and o["detail"]["field"] == "qmgr")
    o = w.op(put(q="NOPE"))
    chk("unknown queue is error 14", o.get("type") == "error" and o["code"] == 14)
    o = w.op({"op": "put", "qmgr": "QM01", "queue": "Q1"})
    chk("missing length is error 11", o.get("type") == "error" and o["code"] == 11)
    o = w.op({"op": "alter_outcome", "cfstruct": "APP1", "success": False})
    chk("cqs op in mq profile is error 14", o.get("type") == "error" and o["code"] == 14)
    r = w.batch([put(tag=1), put(tag=2, syncpoint=True), {"op": "commit", "qmgr": "QM01"}, get("QM02"), get("QM02")])
    chk("batch returns all outcomes", r["type"] == "batch_ok" and len(r["outcomes"]) == 5)
    chk("batch FIFO across queue managers", [o.get("tag") for o in r["outcomes"][3:]] == [1, 2])
    r = w.batch([put(tag=3), put(q="NOPE"), put(tag=4)])
    chk("batch stops at the failing op", r["type"] == "batch_ok" and len(r["outcomes"]) == 1 and r["error"]["code"] == 14)
    o = w.op(get())
    chk("op after failed batch op not applied", o["ok"] and o["tag"] == 3)
    o = w.op(get())
    chk("get from empty queue is 2033", o["ok"] is False and o["reason"] == 2033)
    r = w.batch([])
    chk("empty batch is error 11", r["type"] == "error" and r["code"] == 11)

    # ----------------------------------------------------------- offload
    w.open(mq(structures=[st()], queues=[qu(maxmsgl=104857600)]))
    o = w.op(put(length=40000))
    chk("32K rule: not offloaded below 70% usage", o["ok"] and o["offloaded"] is False and o["location"] == "CF")
    o = w.op(put(length=5000))
    chk("4K rule: not offloaded below 80% usage", o["offloaded"] is False)
    o = w.op(put(length=64512))
    chk("exactly 63 KB stays in the CF", o["offloaded"] is False)
    o = w.op(put(length=64513))
    chk("over 63 KB forced offload to SMDS (default)", o["offloaded"] is True and o["location"] == "SMDS")
    chk("offloaded message costs 1 entry + 2 elements", o["usage"][0] == 4)
    o = w.op(put(length=104857600))
    chk("100 MB message accepted at CFLEVEL(5)", o["ok"] and o["offloaded"])
    o = w.op(put(length=104857601))
    chk("over 100 MB is 2030", o["ok"] is False and o["reason"] == 2030)
    w.open(mq(structures=[st(offld1th=0)]))
    o = w.op(put(length=40000))
    chk("OFFLD1TH(0): empty structure is not 'more than 0% full'", o["offloaded"] is False)
    o = w.op(put(length=40000))
    chk("OFFLD1TH(0): offloads once usage is above 0", o["offloaded"] is True)
    o = w.op(put(length=32768))
    chk("size exactly OFFLD1SZ is not 'exceeding'", o["offloaded"] is False)
    w.open(mq(structures=[st(offload="DB2")]))
    o = w.op(put(length=70000))
    chk("OFFLOAD(DB2) location", o["location"] == "DB2")
    w.open(mq(structures=[st(cflevel=4, recover=True)]))
    o = w.op(put(length=70000))
    chk("CFLEVEL(4) big message goes to Db2", o["ok"] and o["location"] == "DB2")
    w.open(mq(structures=[st(offld1th=0, offld1sz=65536, offld2sz=65536, offld3sz=65536)]))
    w.op(put(length=100))
    o = w.op(put(length=60000))
    chk("64K rules not in effect", o["offloaded"] is False)
    w.open(mq(structures=[st(offld3th=0, offld3sz=0)]))
    w.op(put(length=10))
    o = w.op(put(length=1))
    chk("rule 3 OFFLD3SZ(0K): all messages offloaded above threshold", o["offloaded"] is True)
    w.open(mq(structures=[st(offld1th=0)]))
    o = w.op({"op": "alter_structure", "name": "APP1", "changes": {"offld2th": 85}})
    chk("ALTER CFSTRUCT ok", o["ok"])
    w.op(put(length=100))
    o = w.op(put(length=40000))
    chk("ALTER leaves unnamed offload keywords unchanged", o["offloaded"] is True)
    o = w.op({"op": "alter_structure", "name": "APP1", "changes": {"offld1th": 101}})
    chk("OFFLD1TH(101) invalid", o["ok"] is False and o["reason"] == "INVALID")
    o = w.op({"op": "alter_structure", "name": "APP1", "changes": {"offld1sz": 1000}})
    chk("OFFLD1SZ not a K multiple invalid", o["reason"] == "INVALID")

    # ----------------------------------------------------------- CFLEVEL
    w.open(mq(structures=[st("A2", cflevel=2, recover=False), st("A3", cflevel=3, recover=True),
                          st("A3N", cflevel=3, recover=False)],
              queues=[qu("Q2", "A2"), qu("Q3", "A3"), qu("Q3N", "A3N")]))
    chk("persistent at CFLEVEL(2) is 2048", w.op(put(q="Q2", persistent=True))["reason"] == 2048)
    chk("persistent at CFLEVEL(3) RECOVER(YES) ok", w.op(put(q="Q3", persistent=True))["ok"])
    chk("persistent on RECOVER(NO) is 2048", w.op(put(q="Q3N", persistent=True))["reason"] == 2048)
    chk("over 63 KB at CFLEVEL(3) is 2366", w.op(put(q="Q3", length=64513))["reason"] == 2366)
    chk("nonpersistent at CFLEVEL(2) ok", w.op(put(q="Q2"))["ok"])
    o = w.op({"op": "define_structure", "structure": st("A4", cflevel=4, offload="SMDS")})
    chk("OFFLOAD below CFLEVEL(5) invalid", o["ok"] is False and o["reason"] == "INVALID")
    o = w.op({"op": "define_structure", "structure": st("A5", cflevel=2, recover=True)})
    chk("RECOVER(YES) below CFLEVEL(3) invalid", o["reason"] == "INVALID")
    o = w.op({"op": "alter_structure", "name": "A3", "changes": {"cflevel": 2, "recover": False}})
    chk("CFLEVEL decrease with messages not allowed", o["reason"] == "NOT_ALLOWED")
    w.op(get(q="Q3"))
    o = w.op({"op": "alter_structure", "name": "A3", "changes": {"cflevel": 2, "recover": False}})
    chk("CFLEVEL decrease on empty queues allowed", o["ok"])
    o = w.op({"op": "alter_structure", "name": "A3", "changes": {"cflevel": 5, "recover": True}})
    chk("CFLEVEL increase allowed", o["ok"])

    # ---------------------------------------------------------- CAPACITY
    w.open(mq(structures=[st(size_kb=6146, ratio=2, fullthreshold=50)], queues=[qu(maxdepth=100)]))
    o1 = w.op(put(length=0))
    chk("IXC585E when usage reaches FULLTHRESHOLD", "IXC585E APP1" in o1.get("signals", []))
    w.op(put(length=0))
    o = w.op(put(length=0))
    chk("all entries in use is 2192", o["ok"] is False and o["reason"] == 2192)
    w.op(get())
    o = w.op(get())
    chk("IXC586I when usage falls below FULLTHRESHOLD", "IXC586I APP1" in o.get("signals", []))
    w.open(mq(structures=[st(fullthreshold=0)]))
    chk("FULLTHRESHOLD(0): no monitoring", "signals" not in w.op(put()))
    w.open(mq(queues=[qu(maxdepth=2)]))
    w.op(put())
    chk("put below MAXDEPTH ok", w.op(put())["ok"])
    chk("put at MAXDEPTH is 2053", w.op(put())["reason"] == 2053)

    # ---------------------------------------------------------- TOPOLOGY / SIZING
    w.open(mq(qsg="QS", structures=[st(size_kb=16384, initsize_kb=8192)], qmgrs=["QM01", "QM02", "QM03"]))
    v = w.op(INSPECT)["value"]
    chk("cfname padded with @", v["structures"]["APP1"]["cfname"] == "QS@@APP1")
    chk("allocated at INITSIZE", v["structures"]["APP1"]["size_kb"] == 8192)
    chk("CSQ_ADMIN Table 1 for 3 queue managers", v["admin"]["size_kb"] == 7976)
    chk("CSQ_ADMIN has 1000 entries per queue manager", v["admin"]["entries_total"] >= 3000)
    chk("inspect keys", sorted(v) == ["admin", "clock", "qmgrs", "queues", "structures"])
    o = w.op({"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 16384})
    chk("SETXCF ALTER to SIZE accepted", o["ok"])
    chk("SETXCF ALTER above SIZE rejected", w.op({"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 16385})["reason"] == "OUT_OF_RANGE")
    chk("SETXCF ALTER below INITSIZE accepted", w.op({"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 7000})["ok"])
    o = w.op({"op": "define_structure", "structure": st("ABCDEFGHIJKLM")})
    chk("13-character structure name invalid", o["reason"] == "INVALID")
    o = w.op({"op": "define_structure", "structure": st("ABCDEFGHIJKL")})
    chk("12-character structure name valid", o["ok"])
    o = w.op({"op": "define_structure", "structure": st("1BAD")})
    chk("structure name must start with a letter", o["reason"] == "INVALID")
    r = w.open(mq(qmgrs=["QM%02d" % i for i in range(1, 33)]))
    chk("32 queue managers accepted", r["type"] == "open_ok")
    r = w.open(mq(qmgrs=["QM%02d" % i for i in range(1, 34)]))
    chk("33 queue managers refused", r["type"] == "error" and r["code"] == 13)
    w.open(mq(queues=[qu("Q%03d" % i) for i in range(512)]))
    o = w.op({"op": "define_queue", "queue": qu("Q512")})
    chk("513th queue on a structure not allowed", o["ok"] is False and o["reason"] == "NOT_ALLOWED")
    w.open(mq(structures=[st("S%02d" % i) for i in range(63)], queues=[]))
    chk("64th application structure not allowed", w.op({"op": "define_structure", "structure": st("S63")})["reason"] == "NOT_ALLOWED")

    # ---------------------------------------------------------- RECOVERY
    w.open(mq(structures=[st(cflevel=3)], queues=[qu(maxdepth=100)]))
    w.batch([put(tag=1, persistent=True), put(tag=2)])
    chk("recover without failure is NOT_FAILED", w.op({"op": "recover", "cfstruct": "APP1"})["reason"] == "NOT_FAILED")
    chk("backup ok", w.op({"op": "backup", "qmgr": "QM01", "cfstruct": "APP1"})["ok"])
    w.batch([put("QM02", tag=3, persistent=True), get("QM02")])   # QM02 takes tag 1 after the backup
    w.op(put(tag=4, persistent=True, syncpoint=True))            # uncommitted at the failure
    chk("fail ok", w.op({"op": "fail_structure", "cfstruct": "APP1"})["ok"])
    chk("put on failed structure is 2373", w.op(put("QM02"))["reason"] == 2373)
    chk("get on failed structure is 2373", w.op(get("QM02"))["reason"] == 2373)
    chk("recover ok", w.op({"op": "recover", "cfstruct": "APP1"})["ok"])
    r = w.batch([get(), get(), get()])
    tags = [o.get("tag") for o in r["outcomes"]]
    chk("recovery = committed persistent messages, all logs replayed", tags == [3, None, None], tags)
    w.open(mq(structures=[st(cflevel=3)]))
    w.op({"op": "fail_structure", "cfstruct": "APP1"})
    chk("recover with no backup is NO_BACKUP", w.op({"op": "recover", "cfstruct": "APP1"})["reason"] == "NO_BACKUP")
    chk("recover purge on failed ok", w.op({"op": "recover", "cfstruct": "APP1", "purge": True})["ok"])
    chk("purge on active rejected", w.op({"op": "recover", "cfstruct": "APP1", "purge": True})["reason"] == "NOT_FAILED")
    w.open(mq(structures=[st(cflevel=3, recover=False)]))
    chk("backup of RECOVER(NO) not allowed", w.op({"op": "backup", "qmgr": "QM01", "cfstruct": "APP1"})["reason"] == "NOT_ALLOWED")

    # ---------------------------------------------------------- QDEPTH
    w.open(mq(qmgrs=["QM01", "QM02", "QM03"], queues=[qu(maxdepth=10, qdphiev=True)], perfmev_disabled=["QM03"]))
    r = w.batch([put("QM02", tag=i) for i in range(8)])
    ev = r["outcomes"][7].get("events", [])
    chk("no event before the high limit", all("events" not in o for o in r["outcomes"][:7]))
    chk("QDPHI at depth = 80% of MAXDEPTH", [e["qmgr"] for e in ev] == ["QM02", "QM01"], ev)
    chk("same CorrelId on every event message", len({e["correl"] for e in ev}) == 1)
    chk("coordinator's statistics", ev and ev[0]["enq"] == 8 and ev[1]["enq"] == 0)
    q = w.op(INSPECT)["value"]["queues"]["Q1"]
    chk("QDPHI toggles QDPLOEV and QDPMAXEV on, QDPHIEV off", (q["qdphiev"], q["qdploev"], q["qdpmaxev"]) == (False, True, True))
    r = w.batch([get("QM01") for _ in range(6)])
    ev = r["outcomes"][5].get("events", [])
    chk("QDPLO at depth = 20% of MAXDEPTH", [e["kind"] for e in ev] == ["QDPLO", "QDPLO"] and ev[0]["qmgr"] == "QM01", ev)
    chk("statistics reset at each event message", ev and ev[0]["deq"] == 6 and ev[1]["enq"] == 0)
    w.open(mq(queues=[qu(maxdepth=10, qdphiev=True)], perfmev_disabled=["QM01"]))
    r = w.batch([put("QM01", tag=i) for i in range(8)] + [INSPECT])
    chk("coordinator PERFMEV disabled: no event messages", "events" not in r["outcomes"][7])
    chk("shared queue switches toggled even with PERFMEV disabled", r["outcomes"][8]["value"]["queues"]["Q1"]["qdphiev"] is False)
    w.open(mq(queues=[qu("LQ1", None, qmgr="QM01", maxdepth=10, qdphiev=True)], perfmev_disabled=["QM01"]))
    r = w.batch([put("QM01", "LQ1", tag=i) for i in range(8)] + [INSPECT])
    chk("nonshared queue unchanged while PERFMEV disabled", r["outcomes"][8]["value"]["queues"]["LQ1"]["qdphiev"] is True)
    w.op({"op": "set_perfmev", "qmgr": "QM01", "enabled": True})
    o = w.op(put("QM01", "LQ1"))
    chk("nonshared event once PERFMEV enabled", [e["correl"] for e in o.get("events", [])] == [0])
    w.open(mq(queues=[qu(maxdepth=1, qdpmaxev=True)]))
    w.op(put())
    o = w.op(put("QM02"))
    chk("Queue Full event on the refused put", o["reason"] == 2053 and [e["kind"] for e in o["events"]] == ["QFULL", "QFULL"] and o["events"][0]["qmgr"] == "QM02")
    w.open(mq(queues=[qu(maxdepth=10, qdphiev=True)]))
    w.batch([put("QM02"), {"op": "reset_qstats", "qmgr": "QM01", "queue": "Q1"}, {"op": "reset_qstats", "qmgr": "QM02", "queue": "Q1"}])
    r = w.batch([put("QM01") for _ in range(7)])
    chk("RESET QSTATS restarts the counts", [e["enq"] for e in r["outcomes"][6]["events"]] == [7, 0])

    # ---------------------------------------------------------- QUEUE
    w.open(mq())
    w.op(put(tag=1, syncpoint=True))
    chk("uncommitted put invisible", w.op(get("QM02"))["reason"] == 2033)
    w.op({"op": "backout", "qmgr": "QM01"})
    w.op(put(tag=2))
    w.op(get("QM02", syncpoint=True))
    w.op({"op": "backout", "qmgr": "QM02"})
    chk("backed-out get returns the message", w.op(get())["tag"] == 2)
    w.op(put(tag=3, syncpoint=True))
    w.op({"op": "stop_qmgr", "qmgr": "QM01"})
    chk("stop backs out the unit of work", w.op(get("QM02"))["reason"] == 2033)
    chk("stopped queue manager cannot put", w.op(put())["reason"] == "NOT_ACTIVE")
    w.op(put("QM02", tag=4))
    w.op({"op": "start_qmgr", "qmgr": "QM01"})
    chk("shared nonpersistent message survives queue manager stop", w.op(get())["tag"] == 4)
    w.open(mq(queues=[qu(maxmsgl=1000)]))
    chk("length = MAXMSGL ok", w.op(put(length=1000))["ok"])
    chk("length > MAXMSGL is 2030", w.op(put(length=1001))["reason"] == 2030)

    # ---------------------------------------------------------- CQS
    cq = {"name": "APP1", "size_kb": 6214, "cflevel": 3, "ovflwmax": 50}
    ccfg = {"profile": "cqs", "qsg": "QSG1", "qmgrs": ["QM01", "QM02"], "structures": [cq],
            "queues": [qu("Q%d" % i) for i in range(1, 6)], "lgmsgsz": 30632}
    M = 4546   # 24 elements each; 240 in the structure
    w.open(ccfg)
    chk("cqs mq-only op is error 14", w.op({"op": "commit", "qmgr": "QM01"}).get("code") == 14)
    r = w.batch([put("QM01", "Q%d" % i, M, tag=i) for i in range(1, 6)])
    chk("ALTER when usage reaches OVFLWMAX", r["outcomes"][4].get("signals") == ["ALTER APP1"] and "signals" not in r["outcomes"][3])
    v = w.op(INSPECT)["value"]["structures"]["APP1"]
    chk("alter pending, not in overflow yet", v["alter_pending"] is True and v["overflow_mode"] is False)
    o = w.op({"op": "alter_outcome", "cfstruct": "APP1", "success": False})
    chk("failed alter: overflow mode, queues selected to 20 points below", o.get("signals") ==
        ["OVERFLOW_ON APP1", "OVERFLOW_QUEUE APP1 Q1", "OVERFLOW_QUEUE APP1 Q2"], o.get("signals"))
    chk("no overflow structure: puts to selected queues rejected", w.op(put("QM01", "Q1", 10))["reason"] == "REJECTED_OVERFLOW")
    chk("other queues still accept puts", w.op(put("QM01", "Q5", 10))["ok"])
    chk("second alter_outcome has no pending alter", w.op({"op": "alter_outcome", "cfstruct": "APP1", "success": True})["reason"] == "NO_ALTER_PENDING")
    w.op(get("QM01", "Q5"))
    w.op(get("QM01", "Q5"))
    o = w.op(get("QM01", "Q4"))
    w.op(get("QM01", "Q3"))
    v = w.op(INSPECT)["value"]["structures"]["APP1"]
    chk("no overflow structure: overflow ends 20 points below", v["overflow_mode"] is False and "OVERFLOW_OFF APP1" in o.get("signals", []))
    w.open(dict(ccfg, structures=[dict(cq, ovflwstr="OVFL1")], overflow_exit=["Q1"]))
    w.batch([put("QM01", "Q%d" % i, M, tag=i) for i in range(1, 6)])
    o = w.op({"op": "alter_outcome", "cfstruct": "APP1", "success": False})
    chk("vetoed queue replaced by the next candidate", o.get("signals") == ["OVERFLOW_ON APP1", "OVERFLOW_QUEUE APP1 Q2", "OVERFLOW_QUEUE APP1 Q3"], o.get("signals"))
    chk("data moved to the overflow structure", o["usage"][2] == 72)
    chk("puts to overflow queue accepted with OVFLWSTR", w.op(put("QM01", "Q2", 10, tag=9))["ok"])
    w.batch([get("QM01", "Q2"), get("QM01", "Q2"), get("QM01", "Q3")])
    o = w.op({"op": "advance_clock", "seconds": 899})
    chk("no scan before 15 minutes", "signals" not in o)
    o = w.op({"op": "advance_clock", "seconds": 1})
    chk("scan at 15 minutes removes empty queues and ends overflow", o.get("signals") ==
        ["OVERFLOW_QUEUE_OFF APP1 Q2", "OVERFLOW_QUEUE_OFF APP1 Q3", "OVERFLOW_OFF APP1"], o.get("signals"))
    w.open(dict(ccfg, structures=[dict(cq, ovflwstr="OVFL1")], queues=[qu("Q1"), qu("Q2")], lgmsgsz=4096))
    w.op(put("QM01", "Q1", 12000))
    v = w.op(INSPECT)["value"]["structures"]["APP1"]
    chk("large message: 2 parts on the staging queue", v["staging_depth"] == 2)
    w.batch([put("QM01", "Q2", 4000), put("QM01", "Q1", 4000), put("QM01", "Q1", 4000)])
    w.op({"op": "alter_outcome", "cfstruct": "APP1", "success": False})
    v = w.op(INSPECT)["value"]["structures"]["APP1"]
    chk("staging parts stay on the primary structure", v["staging_depth"] == 2 and v["overflow_queues"] == ["Q1"])
    w.open(dict(ccfg, structures=[dict(cq, resource=True)]))
    r = w.batch([put("QM01", "Q%d" % i, M, tag=i) for i in range(1, 6)])
    chk("no overflow processing for resource structures", all("signals" not in o for o in r["outcomes"]))
    w.open(dict(ccfg, structures=[dict(cq, initsize_kb=6214, size_kb=6400)]))
    w.batch([put("QM01", "Q%d" % i, M, tag=i) for i in range(1, 6)])
    o = w.op({"op": "alter_outcome", "cfstruct": "APP1", "success": True})
    v = w.op(INSPECT)["value"]["structures"]["APP1"]
    chk("successful alter: structure larger, no overflow", o["ok"] and v["size_kb"] == 6400 and v["overflow_mode"] is False)
    w.open(dict(ccfg, structures=[dict(cq, ovflwmax=None)], queues=[qu("Q1")]))
    r = w.batch([put("QM01", "Q1", M) for _ in range(7)])
    chk("default OVFLWMAX 70%", r["outcomes"][6].get("signals") == ["ALTER APP1"] and "signals" not in r["outcomes"][5])
    w.open(dict(ccfg, queues=[qu("Q1")]))
    chk("CQS get from empty queue is NO_MSG", w.op(get("QM01", "Q1"))["reason"] == "NO_MSG")

    # ----------------------------------------------------------- close
    r, rc = w.close()
    chk("close_ok and exit 0", r["type"] == "close_ok" and rc == 0)
    chk("every reply matches its schema", not w.schema_errors, w.schema_errors[:3])

    # a fault build over the wire
    w2 = Wire(["--fault", "QD-HI-STRICT"])
    w2.send({"type": "init", "protocol_version": "1.3"})
    w2.open(mq(queues=[qu(maxdepth=10, qdphiev=True)]))
    r = w2.batch([put() for _ in range(8)])
    chk("--fault build departs from the faithful one", "events" not in r["outcomes"][7])
    w2.close()
    lf = subprocess.run([sys.executable, os.path.join(HERE, "impl.py"), "--list-faults"], capture_output=True, text=True)
    chk("--list-faults lists the faults", len(lf.stdout.split()) >= 40)

    bad = [r for r in RESULTS if not r[1]]
    for name, ok, info in RESULTS:
        print("%s %s%s" % ("PASS" if ok else "FAIL", name, ("  " + str(info)) if (info and not ok) else ""))
    print("%d checks, %d failed" % (len(RESULTS), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
