#!/usr/bin/env python3
"""selftest: checks over the wire against a child impl.py; every reply (and every request we
send) is validated against the JSON Schemas in /work/tenth-input/schemas."""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from wire import Child  # noqa: E402
from make_faults import (S, L3, Q, MQ, CS, CQ, CQS, put, get, op, puts, cqs_fill, INSPECT,  # noqa: E402
                         OFF)

SCHEMAS = os.environ.get("CFCONFORM_SCHEMAS", "/work/tenth-input/schemas")


# ------------------------------------------------------------------ a small JSON Schema validator
class Validator(object):
    TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}

    def __init__(self, root):
        self.root = root

    def errors(self, inst, schema=None, path=""):
        if schema is None:
            schema = self.root
        out = []
        if schema is True or schema == {}:
            return out
        if "$ref" in schema:
            ref = schema["$ref"]
            assert ref.startswith("#/")
            node = self.root
            for part in ref[2:].split("/"):
                node = node[part]
            out += self.errors(inst, node, path)
        if "type" in schema:
            types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if not any(self.is_type(inst, t) for t in types):
                out.append("%s: %r is not of type %s" % (path or "/", inst, types))
                return out
        if "enum" in schema and inst not in schema["enum"]:
            out.append("%s: %r not in enum" % (path or "/", inst))
        if "const" in schema and inst != schema["const"]:
            out.append("%s: %r != const %r" % (path or "/", inst, schema["const"]))
        if isinstance(inst, bool):
            pass
        elif isinstance(inst, (int, float)):
            if "minimum" in schema and inst < schema["minimum"]:
                out.append("%s: %r < minimum" % (path or "/", inst))
            if isinstance(inst, float) and (inst != inst or inst in (float("inf"), float("-inf"))):
                out.append("%s: NaN/Infinity" % path)
        if isinstance(inst, str):
            if "minLength" in schema and len(inst) < schema["minLength"]:
                out.append("%s: too short" % path)
            if "pattern" in schema and not re.search(schema["pattern"], inst):
                out.append("%s: %r does not match %s" % (path, inst, schema["pattern"]))
        if isinstance(inst, dict):
            props = schema.get("properties", {})
            for r in schema.get("required", []):
                if r not in inst:
                    out.append("%s: missing %s" % (path or "/", r))
            for k, v in inst.items():
                if k in props:
                    out += self.errors(v, props[k], path + "/" + k)
                elif "additionalProperties" in schema:
                    ap = schema["additionalProperties"]
                    if ap is False:
                        out.append("%s: unexpected %s" % (path or "/", k))
                    elif isinstance(ap, dict):
                        out += self.errors(v, ap, path + "/" + k)
        if isinstance(inst, list):
            if "minItems" in schema and len(inst) < schema["minItems"]:
                out.append("%s: too few items" % path)
            if "maxItems" in schema and len(inst) > schema["maxItems"]:
                out.append("%s: too many items" % path)
            if schema.get("uniqueItems"):
                seen = [json.dumps(x, sort_keys=True) for x in inst]
                if len(seen) != len(set(seen)):
                    out.append("%s: items not unique" % path)
            if "items" in schema:
                for i, x in enumerate(inst):
                    out += self.errors(x, schema["items"], "%s/%d" % (path, i))
        if "anyOf" in schema:
            if not any(not self.errors(inst, s, path) for s in schema["anyOf"]):
                out.append("%s: matches no anyOf branch" % (path or "/"))
        if "oneOf" in schema:
            n = sum(1 for s in schema["oneOf"] if not self.errors(inst, s, path))
            if n != 1:
                out.append("%s: matches %d oneOf branches" % (path or "/", n))
        return out

    @staticmethod
    def is_type(inst, t):
        if t == "integer":
            return isinstance(inst, int) and not isinstance(inst, bool)
        if t == "number":
            return isinstance(inst, (int, float)) and not isinstance(inst, bool)
        return isinstance(inst, Validator.TYPES[t]) and not (t != "boolean" and isinstance(inst, bool))


def load(name):
    with open(os.path.join(SCHEMAS, name + ".json"), encoding="utf-8") as fh:
        return Validator(json.load(fh))


V = dict((n, load(n)) for n in ("init", "init_ok", "open", "open_ok", "apply", "apply_ok", "batch",
                                 "batch_ok", "close", "close_ok", "error", "config", "op", "outcome",
                                 "capabilities"))


# ------------------------------------------------------------------ the checks
RESULTS = []
VALIDATED = [0]


def check(name, cond, info=""):
    RESULTS.append((name, bool(cond), info))
    return cond


class T(Child):
    """A child whose every request and reply is schema-checked."""

    def raw(self, line):
        try:
            req = json.loads(line)
            if isinstance(req, dict) and req.get("type") in V and not self.deliberate:
                e = V[req["type"]].errors(req)
                if e:
                    check("request schema (our own input) %s" % req["type"], False, e[:3])
        except Exception:
            pass
        r = Child.raw(self, line)
        t = r.get("type")
        if t not in V:
            check("reply type known", False, r)
        else:
            e = V[t].errors(r)
            if e:
                check("reply schema %s" % t, False, e[:3])
            self.schema_ok += 1
            VALIDATED[0] += 1
        return r

    def __init__(self, *a, **k):
        self.schema_ok = 0
        self.deliberate = False
        Child.__init__(self, *a, **k)


def oc(reply):
    return reply.get("outcome", {})


def started(cfg, version="1.3"):
    c = T()
    c.init(version)
    r = c.open(cfg)
    if r.get("type") != "open_ok":
        check("open for a test", False, r)
    return c


def run(cfg, ops):
    c = started(cfg)
    outs = [oc(c.apply(o)) for o in ops]
    c.close()
    return outs


def refused13(cfg, field_part):
    c = T()
    c.deliberate = True
    c.init()
    r = c.open(cfg)
    c.close()
    return (r.get("type") == "error" and r.get("code") == 13 and r.get("definite") is True and
            field_part in str((r.get("detail") or {}).get("field", ""))), r


def main():
    total_schema = 0
    # -------------------------------------------------------------- protocol
    c = T()
    c.deliberate = True
    r = c.apply({"op": "inspect"})
    check("P01 apply before init is error 15", r.get("type") == "error" and r.get("code") == 15, r)
    r = c.init()
    caps = r.get("capabilities", {})
    check("P02 init_ok announces 1.3", r.get("type") == "init_ok" and r.get("protocol_version") == "1.3", r)
    check("P03 capabilities valid", not V["capabilities"].errors(caps), caps)
    check("P04 both profiles", caps.get("profiles") == ["mq", "cqs"])
    rd = caps.get("readings", {})
    allr = V["capabilities"].root["properties"]["readings"]["properties"]
    check("P05 every ambiguity declared, none unknown",
          set(rd) == set(allr) and "unknown" not in rd.values(), rd)
    check("P06 observes all four", set(caps.get("observes", [])) == {"usage", "events", "signals", "inspect"})
    r = c.init()
    check("P07 second init is error 15", r.get("code") == 15)
    r = c.apply({"op": "inspect"})
    check("P08 apply before open is error 15", r.get("code") == 15 and r.get("definite") is True)
    r = c.batch([{"op": "inspect"}])
    check("P09 batch before open is error 15", r.get("code") == 15)
    r = c.raw(b"this is not json\n")
    check("P10 garbage is error 11 with in_reply_to null", r.get("code") == 11 and r.get("in_reply_to") is None)
    r = c.raw(b'{"type":"apply"}\n')
    check("P11 missing msg_id is error 11 null", r.get("code") == 11 and r.get("in_reply_to") is None)
    r = c.raw(b'[1,2]\n')
    check("P12 non-object is error 11", r.get("code") == 11)
    r = c.req("frobnicate")
    check("P13 unknown message type is error 11", r.get("code") == 11 and r.get("in_reply_to") == c.mid)
    r = c.open({"profile": "zos"})
    check("P14 unknown profile refused", r.get("type") == "error" and r.get("code") in (10, 13))
    r = c.open(dict(MQ(), frob=1))
    check("P15 unknown config field is error 13", r.get("code") == 13 and r["detail"]["field"] == "frob")
    r = c.apply({"op": "inspect"})
    check("P16 a failed open leaves nothing open", r.get("code") == 15)
    c.deliberate = False
    r = c.open(MQ())
    check("P17 open_ok", r.get("type") == "open_ok")
    c.deliberate = True
    r = c.apply({"op": "frob"})
    check("P18 unknown op kind is definite error 11", r.get("code") == 11 and r.get("definite") is True)
    r = c.apply({"op": "put", "qmgr": "QM09", "queue": "Q1", "length": 1})
    check("P19 unknown qmgr is error 14 with detail", r.get("code") == 14 and r["detail"]["field"] == "qmgr")
    r = c.apply({"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 1, "colour": "red"})
    check("P20 unknown op field is error 11", r.get("code") == 11)
    r = c.apply({"op": "alter_outcome", "cfstruct": "APP1", "success": True})
    check("P21 cqs op in mq profile is error 14", r.get("code") == 14)
    c.deliberate = False
    r = c.batch([put(tag=1), put(tag=2), {"op": "get", "qmgr": "QM01", "queue": "NOPE"}, put(tag=3)])
    check("P22 batch error at op k keeps the prefix",
          r.get("type") == "batch_ok" and len(r["outcomes"]) == 2 and r["error"]["code"] == 14, r)
    r = c.apply(INSPECT)
    check("P23 ops after the batch error were not applied", oc(r)["value"]["queues"]["Q1"]["depth"] == 2)
    c.deliberate = True
    r = c.req("batch", ops=[])
    c.deliberate = False
    check("P24 empty batch is error 11", r.get("code") == 11)
    r = c.raw(b'{"type":"apply","msg_id":999,"op":{"op":"inspect"},"x":"' + b"a" * 1048600 + b'"}\n')
    check("P25 over-long line is error 17", r.get("code") == 17)
    r = c.apply(INSPECT)
    check("P26 survives the over-long line", r.get("type") == "apply_ok")
    r = c.apply({"op": "advance_clock", "seconds": -1})
    check("P27 negative clock advance is error 14", r.get("code") == 14)
    r = c.open(MQ(queues=[]))
    r2 = c.apply(INSPECT)
    check("P28 re-open resets the state", r.get("type") == "open_ok" and oc(r2)["value"]["queues"] == {})
    p = c.p
    r = c.close()
    try:
        rc = p.wait(timeout=5)
    except Exception:
        rc = None
    check("P29 close_ok then exit 0", r and r.get("type") == "close_ok" and rc == 0)
    total_schema += c.schema_ok
    c = T()
    c.init()
    c.p.stdin.close()
    check("P30 exits 0 at end of input", c.p.wait(timeout=5) == 0)
    c = T()
    r = c.init("2.0")
    check("P31 major version 2 is error 16", r.get("code") == 16)
    c.close()
    # version 1.0 suite: no location
    c = T()
    c.init("1.0")
    c.open(MQ())
    r = c.apply(put())
    check("P32 no location sent to a 1.0 suite", "location" not in oc(r) and oc(r)["ok"])
    c.close()
    # prefix reply under a small suite line limit
    c = T()
    c.req("init", protocol_version="1.3", suite="t", max_line_bytes=1024)
    c.open(MQ())
    r = c.batch([INSPECT] * 20)
    n = len(r.get("outcomes", []))
    check("P33 prefix batch reply within the suite's limit",
          r.get("type") == "batch_ok" and 1 <= n < 20 and "error" not in r, n)
    c.close()

    # -------------------------------------------------------------- configuration refusals (13)
    for name, cfg, field in [
        ("C01 QSG of five characters", MQ(qsg="QSG12"), "qsg"),
        ("C02 QSG empty", MQ(qsg=""), "qsg"),
        ("C03 QSG equal to a queue manager", MQ(qsg="QM01"), "qsg"),
        ("C04 33 queue managers", MQ(qmgrs=["Q%03d" % i for i in range(33)], admin_size_kb=50000), "qmgrs"),
        ("C05 duplicate queue managers", MQ(qmgrs=["QM01", "QM01"]), "qmgrs"),
        ("C06 64 application structures", MQ(structures=[S(name="A%d" % i) for i in range(64)],
                                              queues=[]), "structures"),
        ("C07 64 structures with CSQSYSAPPL", MQ(structures=[S(name="CSQSYSAPPL")] +
                                                  [S(name="A%d" % i) for i in range(63)], queues=[]),
         "structures"),
        ("C08 513 queues on one structure", MQ(queues=[Q("Q%d" % i) for i in range(513)]), "queues"),
        ("C09 structure name of 13 characters", MQ(structures=[S(name="ABCDEFGHIJKLM")], queues=[]),
         "name"),
        ("C10 structure name with lowercase", MQ(structures=[S(name="app1")], queues=[]), "name"),
        ("C11 CFLEVEL 0", MQ(structures=[L3(cflevel=0)]), "cflevel"),
        ("C12 CFLEVEL 6", MQ(structures=[S(cflevel=6)]), "cflevel"),
        ("C13 RECOVER(YES) at CFLEVEL 2", MQ(structures=[L3(cflevel=2, recover=True)]), "recover"),
        ("C14 OFFLOAD at CFLEVEL 4", MQ(structures=[L3(cflevel=4, offload="DB2")]), "offload"),
        ("C15 OFFLD1TH 101", MQ(structures=[S(offld1th=101)]), "offld1th"),
        ("C16 OFFLD2SZ not whole K", MQ(structures=[S(offld2sz=5000)]), "offld2sz"),
        ("C17 OFFLD3SZ over 64K", MQ(structures=[S(offld3sz=66560)]), "offld3sz"),
        ("C18 offload rules at CFLEVEL 3", MQ(structures=[L3(offld1th=10)]), "offld1th"),
        ("C19 FULLTHRESHOLD 101", MQ(structures=[S(fullthreshold=101)]), "fullthreshold"),
        ("C20 INITSIZE above SIZE", MQ(structures=[S(initsize_kb=9000)]), "initsize_kb"),
        ("C21 CSQ_ADMIN below Table 1", MQ(qmgrs=["QM01", "QM02"], admin_size_kb=6000), "admin_size_kb"),
        ("C22 admin table unknown", MQ(admin_table="v7"), "admin_table"),
        ("C23 MAXDEPTH 0", MQ(queues=[Q(maxdepth=0)]), "maxdepth"),
        ("C24 QDEPTHHI 101", MQ(queues=[Q(qdepthhi=101)]), "qdepthhi"),
        ("C25 queue on an unknown structure", MQ(queues=[Q(cfstruct="NOPE")]), "cfstruct"),
        ("C26 nonshared queue without owner", MQ(queues=[Q(cfstruct=None)]), "qmgr"),
        ("C27 CQS keyword in mq", MQ(structures=[S(ovflwmax=70)]), "ovflwmax"),
        ("C28 OVFLWMAX 49", CQS(structures=[CS(ovflwmax=49)]), "ovflwmax"),
        ("C29 resource structure with overflow", CQS(structures=[CS(), CS(name="R1", resource=True,
                                                                         ovflwstr="R1OVF")]), "ovflwstr"),
        ("C30 LGMSGSZ of six digits", CQS(lgmsgsz=100000), "lgmsgsz"),
        ("C31 overflow exit in mq", MQ(overflow_exit=["Q1"]), "overflow_exit"),
        ("C32 CQS queue name of nine characters", CQS(queues=[CQ("QUEUENAME")]), "name"),
        ("C33 32 queue managers without a CSQ_ADMIN size", MQ(qmgrs=["Q%03d" % i for i in range(32)]),
         "admin_size_kb"),
        ("C34 unknown reading value", dict(MQ(), readings={"qdepth_percent": "round"}), "readings"),
    ]:
        ok, r = refused13(cfg, field)
        check(name + " refused with 13", ok, r)
    for name, cfg in [
        ("A01 32 queue managers with a CSQ_ADMIN size", MQ(qmgrs=["Q%03d" % i for i in range(32)],
                                                           admin_size_kb=50000)),
        ("A02 62 structures with CSQSYSAPPL", MQ(structures=[S(name="CSQSYSAPPL")] +
                                                 [S(name="A%d" % i) for i in range(61)], queues=[])),
        ("A03 512 queues on one structure", MQ(queues=[Q("Q%d" % i) for i in range(512)])),
        ("A04 LGMSGSZ over 30632 is set to 30632", CQS(lgmsgsz=40000)),
        ("A05 OVFLWMAX 50", CQS(structures=[CS(ovflwmax=50)])),
        ("A06 FULLTHRESHOLD 0", MQ(structures=[S(fullthreshold=0)])),
        ("A07 OFFLD sizes 64K (rules off)", MQ(structures=[S(offld1sz=OFF, offld2sz=OFF, offld3sz=OFF)])),
        ("A08 QSG of one character", MQ(qsg="Q")),
    ]:
        c = T()
        c.init()
        r = c.open(cfg)
        c.close()
        check(name + " accepted", r.get("type") == "open_ok", r)

    # -------------------------------------------------------------- MQ queue behaviour
    o = run(MQ(), [put(tag=1), put(tag=2), get(qm="QM02"), get(qm="QM03"), get()])
    check("Q01 FIFO across queue managers", o[2].get("tag") == 1 and o[3].get("tag") == 2)
    check("Q02 empty queue gives 2033", o[4].get("reason") == 2033)
    o = run(MQ(), [put(tag=1, syncpoint=True), get(qm="QM02"), op("commit", qmgr="QM01"), get(qm="QM02")])
    check("Q03 uncommitted put invisible", o[1].get("reason") == 2033)
    check("Q04 visible after commit", o[3].get("tag") == 1)
    o = run(MQ(), [put(tag=1), put(tag=2), get(syncpoint=True), op("backout", qmgr="QM01"), get()])
    check("Q05 backed-out get returns in place", o[4].get("tag") == 1)
    o = run(MQ(queues=[Q(maxdepth=2)]), puts(3))
    check("Q06 queue full 2053", o[2].get("reason") == 2053 and o[1]["ok"])
    o = run(MQ(queues=[Q(maxdepth=1)]), [put(syncpoint=True), put()])
    check("Q07 uncommitted puts count towards MAXDEPTH", o[1].get("reason") == 2053)
    o = run(MQ(queues=[Q(maxmsgl=1000)]), [put(length=1001), put(length=1000)])
    check("Q08 2030 over MAXMSGL", o[0].get("reason") == 2030 and o[1]["ok"])
    o = run(MQ(), [put(tag=1, syncpoint=True), op("stop_qmgr", qmgr="QM01"), get(qm="QM02"),
                   put(qm="QM01"), op("start_qmgr", qmgr="QM01"), put(qm="QM01")])
    check("Q09 stop backs out the unit of work", o[2].get("reason") == 2033)
    check("Q10 a stopped queue manager answers NOT_ACTIVE", o[3].get("reason") == "NOT_ACTIVE")
    check("Q11 restarted queue manager works", o[5]["ok"])
    o = run(MQ(queues=[Q("LQ1", cfstruct=None, qmgr="QM01")]),
            [put("LQ1", tag=1), put("LQ1", tag=2, persistent=True), op("stop_qmgr", qmgr="QM01"),
             op("start_qmgr", qmgr="QM01"), get("LQ1"), get("LQ1")])
    check("Q12 nonshared: nonpersistent lost, persistent kept at stop",
          o[4].get("tag") == 2 and o[5].get("reason") == 2033)
    c = started(MQ(queues=[Q("LQ1", cfstruct=None, qmgr="QM01")]))
    r = c.apply(put("LQ1", qm="QM02"))
    check("Q13 nonshared queue is not known to other queue managers", r.get("code") == 14)
    c.close()
    o = run(MQ(), [op("define_queue", queue=Q("Q2")), put("Q2"), op("define_queue", queue=Q("Q2")),
                   op("define_queue", queue=Q("Q3", cfstruct="NOPE")),
                   op("define_queue", queue=Q("Q4", maxdepth=-1)),
                   op("define_queue", queue={"name": "Q5", "cfstruct": "APP1", "colour": 1})])
    check("Q14 define_queue works", o[0]["ok"] and o[1]["ok"])
    check("Q15 duplicate define refused INVALID", o[2].get("reason") == "INVALID")
    check("Q16 unknown structure refused INVALID", o[3].get("reason") == "INVALID")
    check("Q17 out of range refused OUT_OF_RANGE", o[4].get("reason") == "OUT_OF_RANGE")
    check("Q18 unknown keyword refused INVALID", o[5].get("reason") == "INVALID")
    o = run(MQ(), [op("alter_queue", name="Q1", changes={"maxdepth": 1}), put(), put(),
                   op("alter_queue", name="Q1", changes={"cfstruct": "APP2"}),
                   op("alter_queue", name="Q1", changes={"qdepthlo": -1})])
    check("Q19 alter_queue MAXDEPTH takes effect", o[0]["ok"] and o[2].get("reason") == 2053)
    check("Q20 alter_queue CFSTRUCT refused", o[3].get("reason") == "INVALID")
    check("Q21 alter_queue range", o[4].get("reason") == "OUT_OF_RANGE")

    # -------------------------------------------------------------- CFLEVEL
    o = run(MQ(structures=[L3(recover=False)]), [put(persistent=True)])
    check("L01 persistent to RECOVER(NO) is 2048", o[0].get("reason") == 2048)
    o = run(MQ(structures=[L3(cflevel=2, recover=False)]), [put(persistent=True), put()])
    check("L02 persistent to CFLEVEL(2) is 2366 (reading)", o[0].get("reason") == 2366 and o[1]["ok"])
    o = run(MQ(structures=[L3()]), [put(length=64512), put(length=64513)])
    check("L03 63 KB fits CFLEVEL(3), one byte more is 2366",
          o[0]["ok"] and o[0].get("location") == "CF" and o[1].get("reason") == 2366)
    o = run(MQ(structures=[L3()], queues=[Q(maxmsgl=65000)]), [put(length=70000)])
    check("L04 MAXMSGL checked before CFLEVEL", o[0].get("reason") == 2030)
    o = run(MQ(structures=[L3(cflevel=4)]), [put(length=70000), put(length=65280)])
    check("L05 CFLEVEL(4) large message to Db2", o[0].get("location") == "DB2" and o[0]["offloaded"])
    check("L06 CFLEVEL(4) 63.75 KB stays in CF", o[1].get("location") == "CF")
    o = run(MQ(structures=[L3(cflevel=4)]),
            [put(), op("alter_structure", name="APP1", changes={"cflevel": 3}), get(),
             op("alter_structure", name="APP1", changes={"cflevel": 3}),
             op("alter_structure", name="APP1", changes={"cflevel": 5}), put(length=70000),
             put(length=40000)])
    check("L07 decrease refused while a message is there", o[1].get("reason") == "NOT_ALLOWED")
    check("L08 decrease accepted when empty", o[3]["ok"])
    check("L09 migration to CFLEVEL(5) takes OFFLOAD(DB2)", o[4]["ok"] and o[5].get("location") == "DB2")
    check("L10 migration leaves the size rules off (64K)", o[6].get("location") == "CF")
    o = run(MQ(), [op("alter_structure", name="APP1", changes={"offload": "DB2"}), put(length=70000),
                   op("alter_structure", name="APP1", changes={"size_kb": 9000}),
                   op("alter_structure", name="APP1", changes={"cflevel": 7}),
                   op("alter_structure", name="APP1", changes={"offld1sz": 70000})])
    check("L11 alter OFFLOAD to DB2", o[1].get("location") == "DB2")
    check("L12 alter of a CFRM keyword refused", o[2].get("reason") == "INVALID")
    check("L13 alter CFLEVEL out of range", o[3].get("reason") == "OUT_OF_RANGE")
    check("L14 alter OFFLD1SZ out of range", o[4].get("reason") == "OUT_OF_RANGE")
    o = run(MQ(structures=[L3(recover=True)]), [op("alter_structure", name="APP1", changes={"cflevel": 2}),
                                                op("alter_structure", name="APP1",
                                                   changes={"cflevel": 2, "recover": False})])
    check("L15 CFLEVEL(2) with RECOVER(YES) refused", o[0].get("reason") == "INVALID" and o[1]["ok"])
    o = run(MQ(), [op("define_structure", structure=L3(name="APP2", cflevel=2, recover=True)),
                   op("define_structure", structure=S(name="APP2")),
                   op("define_structure", structure=S(name="APP2")),
                   op("define_structure", structure=L3(name="APP3", cflevel=4, offload="SMDS"))])
    check("L16 define RECOVER(YES) at CFLEVEL(2) refused", o[0].get("reason") == "INVALID")
    check("L17 define works, duplicate refused", o[1]["ok"] and o[2].get("reason") == "INVALID")
    check("L18 define OFFLOAD at CFLEVEL(4) refused", o[3].get("reason") == "INVALID")
    o = run(MQ(structures=[S(name="A%d" % i) for i in range(63)], queues=[]),
            [op("define_structure", structure=S(name="B1"))])
    check("L19 define beyond 63 structures refused", o[0].get("reason") == "INVALID")

    # -------------------------------------------------------------- OFFLOAD
    o = run(MQ(), [put(length=40000), put(length=65280), put(length=65281)])
    check("O01 default rules: 40000 bytes in CF on an empty structure", o[0].get("location") == "CF")
    check("O02 63.75 KB in CF (reading 63.75K)", o[1].get("location") == "CF")
    check("O03 over 63.75 KB forced to SMDS", o[2].get("location") == "SMDS" and o[2]["offloaded"])
    check("O04 an offloaded message costs one entry and one element",
          o[2]["usage"][0] - o[1]["usage"][0] == 1 and o[2]["usage"][2] - o[1]["usage"][2] == 1)
    r1 = dict(offld1th=0, offld1sz=1024, offld2sz=OFF, offld3sz=OFF)
    o = run(MQ(structures=[S(**r1)]), [put(length=2000), put(length=1024), put(length=1025)])
    check("O05 'more than 0% full' is false on an empty structure", o[0].get("location") == "CF")
    check("O06 'exceeding 1K' is strict", o[1].get("location") == "CF")
    check("O07 rule 1 offloads above its size once above its threshold", o[2].get("location") == "SMDS")
    cfg = MQ(structures=[S(size_kb=1024, offld1sz=OFF, offld2sz=OFF, offld3th=70, offld3sz=0)])
    o = run(cfg, puts(21, length=30000) + [put(length=10, tag=50)] + [put(length=30000, tag=51),
                                                                     put(length=10, tag=52)])
    check("O08 combined usage 69% keeps data in CF", o[21].get("location") == "CF")
    check("O09 combined usage over 70% offloads everything", o[23].get("location") == "SMDS")
    o = run(MQ(structures=[S(offload="DB2")]), [put(length=70000)])
    check("O10 OFFLOAD(DB2) location", o[0].get("location") == "DB2")
    o = run(MQ(structures=[L3()]), [put(length=100)])
    check("O11 put reports usage", o[0].get("usage") == [1, 2268, 1, 13608] and o[0].get("offloaded") is False)

    # -------------------------------------------------------------- CAPACITY / SIZING
    o = run(MQ(structures=[S(size_kb=1024, ratio=255)]), puts(8, length=0))
    check("S01 entries run out first: 2192", o[6]["ok"] and o[7].get("reason") == 2192)
    o = run(MQ(), [put(), get(syncpoint=True), op("commit", qmgr="QM01")])
    check("S02 uncommitted get keeps its entry", o[1]["usage"][0] == 1)
    c = started(MQ())
    c.apply(put(syncpoint=True))
    c.apply(op("backout", qmgr="QM01"))
    v = oc(c.apply(INSPECT))["value"]
    c.close()
    check("S03 backout frees the entry", v["structures"]["APP1"]["entries_used"] == 0)
    check("S04 inspect cfname padded", v["structures"]["APP1"]["cfname"] == "QSG1APP1")
    check("S05 CSQ_ADMIN from Table 1", v["admin"]["size_kb"] == 7976 and v["admin"]["entries_total"] >= 3000)
    c = started(MQ(qsg="QS"))
    v = oc(c.apply(INSPECT))["value"]
    c.close()
    check("S06 short QSG padded with @", v["structures"]["APP1"]["cfname"] == "QS@@APP1")
    o = run(MQ(structures=[S(initsize_kb=4096)]),
            [put(), op("setxcf_alter", cfstruct="APP1", size_kb=8192),
             op("setxcf_alter", cfstruct="APP1", size_kb=4096),
             op("setxcf_alter", cfstruct="APP1", size_kb=3000),
             op("setxcf_alter", cfstruct="APP1", size_kb=9000),
             op("setxcf_alter", cfstruct="APP1", size_kb=6000), INSPECT])
    check("S07 allocated at INITSIZE", o[0]["usage"][1] == 1134)
    check("S08 SETXCF to SIZE refused (reading)", o[1].get("reason") == "OUT_OF_RANGE")
    check("S09 SETXCF to current size refused (reading)", o[2].get("reason") == "OUT_OF_RANGE")
    check("S10 SETXCF below INITSIZE refused", o[3].get("reason") == "OUT_OF_RANGE")
    check("S11 SETXCF above SIZE refused", o[4].get("reason") == "OUT_OF_RANGE")
    check("S12 SETXCF within range accepted", o[5]["ok"] and o[6]["value"]["structures"]["APP1"]["size_kb"] == 6000)
    o = run(MQ(structures=[S(size_kb=1024, fullthreshold=1)]),
            [put(length=20000), op("advance_clock", seconds=0), op("advance_clock", seconds=1), INSPECT,
             get(), op("advance_clock", seconds=1)])
    check("S13 IXC585E deferred to the monitor pass", "signals" not in o[0] and "signals" not in o[1] and
          o[2].get("signals") == ["IXC585E APP1"])
    check("S14 full_warning in inspect", o[3]["value"]["structures"]["APP1"]["full_warning"] is True)
    check("S15 IXC586I when back below", o[5].get("signals") == ["IXC586I APP1"])
    o = run(MQ(structures=[S(fullthreshold=0)]), [put(), op("advance_clock", seconds=5)])
    check("S16 FULLTHRESHOLD(0) never signals", "signals" not in o[1])

    # -------------------------------------------------------------- QDEPTH
    QD = dict(maxdepth=10, qdepthhi=80, qdepthlo=20)
    c = started(MQ(queues=[Q(qdphiev=True, qdploev=False, **QD)], perfmev_disabled=["QM03"]))
    o = [oc(c.apply(p)) for p in puts(7, qm="QM02")]
    check("E01 no event below the high limit", all("events" not in x for x in o))
    r = oc(c.apply(put(qm="QM02", tag=8)))
    ev = r.get("events", [])
    check("E02 QDPHI at depth 8 of 10", [e["kind"] for e in ev] == ["QDPHI", "QDPHI"], ev)
    check("E03 coordinator first, then enabled qmgrs, shared CorrelId",
          [e["qmgr"] for e in ev] == ["QM02", "QM01"] and len({e["correl"] for e in ev}) == 1)
    check("E04 statistics per queue manager", ev and ev[0]["enq"] == 8 and ev[1]["enq"] == 0)
    v = oc(c.apply(INSPECT))["value"]["queues"]["Q1"]
    check("E05 QDPHI toggles the switches", v == {"depth": 8, "qdphiev": False, "qdploev": True, "qdpmaxev": True})
    o = [oc(c.apply(get(qm="QM01"))) for _ in range(6)]
    check("E06 QDPLO at depth 2", [bool(x.get("events")) for x in o] == [False] * 5 + [True])
    check("E07 QDPLO statistics reset since last event", o[5]["events"][0]["qmgr"] == "QM01" and
          o[5]["events"][0]["deq"] == 6 and o[5]["events"][0]["enq"] == 0 and
          o[5]["events"][1]["enq"] == 0)
    c.close()
    o = run(MQ(queues=[Q(qdphiev=True, **QD)], perfmev_disabled=["QM01"]), puts(8))
    ev = o[7].get("events", [])
    check("E08 coordinator PERFMEV(DISABLED): others still report (reading always)",
          [e["qmgr"] for e in ev] == ["QM02", "QM03"])
    c = started(MQ(queues=[Q(qdphiev=True, **QD)], perfmev_disabled=["QM01"]))
    for p in puts(8):
        c.apply(p)
    v = oc(c.apply(INSPECT))["value"]["queues"]["Q1"]
    c.close()
    check("E09 shared switches toggle even with PERFMEV(DISABLED)", v["qdphiev"] is False)
    c = started(MQ(queues=[Q("LQ1", cfstruct=None, qmgr="QM01", qdphiev=True, **QD)],
                   perfmev_disabled=["QM01"]))
    o = [oc(c.apply(p)) for p in puts(8, q="LQ1")]
    v = oc(c.apply(INSPECT))["value"]["queues"]["LQ1"]
    c.apply(op("set_perfmev", qmgr="QM01", enabled=True))
    r = oc(c.apply(put("LQ1", tag=9)))
    c.close()
    check("E10 nonshared: no toggle, no event while DISABLED", v["qdphiev"] is True and "events" not in o[7])
    check("E11 nonshared: event once ENABLED", [e["qmgr"] for e in r.get("events", [])] == ["QM01"])
    o = run(MQ(queues=[Q(maxdepth=2, qdpmaxev=True, qdphiev=True, qdepthhi=100)]),
            puts(2) + [put(tag=3), INSPECT])
    check("E12 QDPHI at MAXDEPTH, no QFULL on success", [e["kind"] for e in o[1].get("events", [])][:1] == ["QDPHI"])
    check("E13 QFULL on the refused put", o[2].get("reason") == 2053 and
          [e["kind"] for e in o[2].get("events", [])][:1] == ["QFULL"])
    check("E14 QFULL switches: lo on, max off, hi off (reading disabled)",
          o[3]["value"]["queues"]["Q1"] == {"depth": 2, "qdphiev": False, "qdploev": True, "qdpmaxev": False})
    o = run(MQ(queues=[Q(qdphiev=True, maxdepth=7, qdepthhi=50)]), puts(3))
    check("E15 percent floor: 50% of 7 is 3", bool(o[2].get("events")) and not o[1].get("events"))
    o = run(MQ(queues=[Q(qdphiev=True, **QD)]),
            [put(qm="QM02"), op("stop_qmgr", qmgr="QM02"), op("start_qmgr", qmgr="QM02")] + puts(7, start=2))
    ev = o[-1].get("events", [])
    check("E16 statistics reset at stop (reading reset)", [e["enq"] for e in ev] == [7, 0, 0])
    o = run(MQ(queues=[Q(qdphiev=True, **QD)]),
            [put(qm="QM02"), op("reset_qstats", qmgr="QM01", queue="Q1"), op("stop_qmgr", qmgr="QM03")] +
            puts(7, start=2))
    ev = o[-1].get("events", [])
    check("E17 RESET QSTATS only for its queue manager; stopped qmgr silent",
          [(e["qmgr"], e["enq"]) for e in ev] == [("QM01", 7), ("QM02", 1)])
    o = run(MQ(queues=[Q(qdphiev=True, **QD)]), [put(syncpoint=True, tag=i) for i in range(8)] +
            [op("backout", qmgr="QM01"), INSPECT])
    check("E18 events are outside syncpoint: flags stay toggled after backout",
          bool(o[7].get("events")) and o[9]["value"]["queues"]["Q1"]["qdphiev"] is False)

    # -------------------------------------------------------------- RECOVERY
    o = run(MQ(), [put(tag=1, persistent=True), put(tag=2), put(tag=3, persistent=True, syncpoint=True),
                   op("backup", qmgr="QM02", cfstruct="APP1"), put(tag=4, persistent=True),
                   op("fail_structure", cfstruct="APP1"), put(), get(), INSPECT,
                   op("recover", cfstruct="APP1"), INSPECT, get(), get(), get()])
    check("R01 backup accepted", o[3]["ok"])
    check("R02 MQI on a failed structure is 2373", o[6].get("reason") == 2373 and o[7].get("reason") == 2373)
    check("R03 FAILED in inspect", o[8]["value"]["structures"]["APP1"]["status"] == "FAILED")
    check("R04 recover accepted", o[9]["ok"] and o[10]["value"]["structures"]["APP1"]["status"] == "ACTIVE")
    check("R05 committed persistent messages restored in order",
          o[11].get("tag") == 1 and o[12].get("tag") == 4 and o[13].get("reason") == 2033)
    o = run(MQ(), [op("recover", cfstruct="APP1"), op("recover", cfstruct="APP1", purge=True),
                   op("fail_structure", cfstruct="APP1"), op("recover", cfstruct="APP1"),
                   op("recover", cfstruct="APP1", purge=True), put(), get()])
    check("R06 RECOVER of an active structure: NOT_FAILED", o[0].get("reason") == "NOT_FAILED")
    check("R07 PURGE of an active structure refused (reading)", o[1].get("reason") == "NOT_FAILED")
    check("R08 RECOVER without a backup: NO_BACKUP", o[3].get("reason") == "NO_BACKUP")
    check("R09 PURGE recovers to empty", o[4]["ok"] and o[5]["ok"] and o[6]["ok"])
    o = run(MQ(structures=[L3(recover=False)]), [op("backup", qmgr="QM01", cfstruct="APP1"),
                                                 op("fail_structure", cfstruct="APP1"),
                                                 op("recover", cfstruct="APP1", purge=True)])
    check("R10 BACKUP/RECOVER need RECOVER(YES)", o[0].get("reason") == "NOT_ALLOWED" and
          o[2].get("reason") == "NOT_ALLOWED")
    o = run(MQ(), [put(persistent=True, tag=1), op("backup", qmgr="QM01", cfstruct="APP1"),
                   get(syncpoint=True), op("fail_structure", cfstruct="APP1"),
                   op("recover", cfstruct="APP1"), op("commit", qmgr="QM01"), get(qm="QM02")])
    check("R11 an in-flight get is backed out by the failure", o[6].get("tag") == 1)
    c = started(MQ())
    r = c.apply(op("backup", qmgr="QM01", cfstruct="NOPE"))
    check("R12 unknown structure is error 14", r.get("code") == 14)
    c.close()

    # -------------------------------------------------------------- CQS
    base = CQS(structures=[CS(ovflwstr="MSGQOVF")], queues=[CQ("QA"), CQ("QB")])
    c = started(base)
    o = [oc(c.apply(p)) for p in cqs_fill([("QA", 12), ("QB", 8)])]
    check("K01 ALTER started when elements reach 70%", o[-1].get("signals") == ["ALTER MSGQ"] and
          all("signals" not in x for x in o[:-1]))
    v = oc(c.apply(INSPECT))["value"]["structures"]["MSGQ"]
    check("K02 alter pending in inspect", v["alter_pending"] is True and v["overflow_mode"] is False)
    r = oc(c.apply(put("QA", 30000, tag=99)))
    check("K03 no second alter while one is pending", "signals" not in r)
    r = oc(c.apply(op("alter_outcome", cfstruct="MSGQ", success=False)))
    check("K04 failed alter: overflow mode, biggest queue selected",
          r.get("signals") == ["OVERFLOW_ON MSGQ", "OVERFLOW_QUEUE MSGQ QA"])
    v = oc(c.apply(INSPECT))["value"]
    check("K05 QA moved to the overflow structure", v["structures"]["MSGQ"]["elements_used"] == 480 and
          v["queues"]["QA"] == {"depth": 13, "overflow": True})
    r = oc(c.apply(put("QA", 100, tag=100)))
    check("K06 puts to an overflow queue go to the overflow structure", r["ok"] and r["usage"][2] == 480)
    for _ in range(14):
        c.apply(get("QA"))
    r = oc(c.apply(op("advance_clock", seconds=899)))
    check("K07 no scan before 15 minutes", "signals" not in r)
    r = oc(c.apply(op("advance_clock", seconds=1)))
    check("K08 the scan returns the empty queue and ends overflow mode",
          r.get("signals") == ["OVERFLOW_QUEUE_OFF MSGQ QA", "OVERFLOW_OFF MSGQ"])
    r = oc(c.apply(op("alter_outcome", cfstruct="MSGQ", success=True)))
    check("K09 alter_outcome without an alter pending", r.get("reason") == "NO_ALTER_PENDING")
    c.close()
    c = started(CQS(structures=[CS(initsize_kb=1024, size_kb=2048)], queues=[CQ("QA")]))
    for p in cqs_fill([("QA", 20)]):
        c.apply(p)
    r = oc(c.apply(op("alter_outcome", cfstruct="MSGQ", success=True, size_kb=1536)))
    v = oc(c.apply(INSPECT))["value"]["structures"]["MSGQ"]
    check("K10 successful alter enlarges the structure", r["ok"] and v["size_kb"] == 1536 and
          v["overflow_mode"] is False and v["alter_pending"] is False)
    c.close()
    c = started(CQS(queues=[CQ("QA"), CQ("QB")]))
    for p in cqs_fill([("QA", 12), ("QB", 8)]):
        c.apply(p)
    c.apply(op("alter_outcome", cfstruct="MSGQ", success=False))
    r = oc(c.apply(put("QA", 100)))
    r2 = oc(c.apply(put("QB", 100)))
    check("K11 no overflow structure: approved queue rejected", r.get("reason") == "REJECTED_OVERFLOW" and r2["ok"])
    for _ in range(4):
        c.apply(get("QA"))
    r = oc(c.apply(op("advance_clock", seconds=900)))
    check("K12 still above 56% at the scan: stays in overflow", "signals" not in r)
    for _ in range(2):
        c.apply(get("QB"))
    r = oc(c.apply(op("advance_clock", seconds=900)))
    check("K13 at or below 0.8 x OVFLWMAX: overflow ends at the scan", r.get("signals") == ["OVERFLOW_OFF MSGQ"])
    c.close()
    c = started(CQS(structures=[CS(ovflwstr="MSGQOVF")], queues=[CQ("QA"), CQ("QB")], overflow_exit=["QA"]))
    for p in cqs_fill([("QA", 12), ("QB", 8)]):
        c.apply(p)
    r = oc(c.apply(op("alter_outcome", cfstruct="MSGQ", success=False)))
    check("K14 exit veto: next candidate selected", r.get("signals") == ["OVERFLOW_ON MSGQ", "OVERFLOW_QUEUE MSGQ QB"])
    c.close()
    c = started(CQS(structures=[CS(ovflwstr="MSGQOVF")], queues=[CQ("QA"), CQ("QB")]))
    c.apply(op("set_overflow_exit", vetoes=["QA", "QB"]))
    for p in cqs_fill([("QA", 12), ("QB", 8)]):
        c.apply(p)
    r = oc(c.apply(op("alter_outcome", cfstruct="MSGQ", success=False)))
    v = oc(c.apply(INSPECT))["value"]["structures"]["MSGQ"]
    r2 = oc(c.apply(op("advance_clock", seconds=900)))
    check("K15 every candidate vetoed: overflow mode until the next scan (reading next-scan)",
          r.get("signals") == ["OVERFLOW_ON MSGQ"] and v["overflow_mode"] is True and
          r2.get("signals") == ["OVERFLOW_OFF MSGQ"])
    c.close()
    c = started(CQS(structures=[CS(ovflwstr="MSGQOVF")], lgmsgsz=4096))
    o = [oc(c.apply(p)) for p in cqs_fill([("QA", 18)])]
    v = oc(c.apply(INSPECT))["value"]["structures"]["MSGQ"]
    check("K16 large messages: 7 staging parts each", v["staging_depth"] == 126)
    c.apply(op("alter_outcome", cfstruct="MSGQ", success=False))
    v = oc(c.apply(INSPECT))["value"]["structures"]["MSGQ"]
    check("K17 staging parts stay on the primary", v["staging_depth"] == 126 and v["elements_used"] == 1044)
    c.close()
    c = started(CQS(structures=[CS(ovflwstr="MSGQOVF")], queues=[CQ("QA"), CQ("QB")]))
    for p in cqs_fill([("QA", 10), ("QB", 10)]):
        c.apply(p)
    c.apply(op("alter_outcome", cfstruct="MSGQ", success=False))
    o = [oc(c.apply(p)) for p in cqs_fill([("QB", 10)])]
    check("K18 reaching OVFLWMAX again selects more (reading select)",
          o[-1].get("signals") == ["OVERFLOW_QUEUE MSGQ QB"])
    c.close()
    c = started(CQS())
    r = c.apply(op("commit", qmgr="QM01"))
    check("K19 MQ op in the cqs profile is error 14", r.get("code") == 14)
    r = oc(c.apply(get("QA")))
    check("K20 CQS empty read: NO_MSG", r.get("reason") == "NO_MSG")
    r = oc(c.apply(op("define_queue", queue=CQ("QZ"))))
    r2 = oc(c.apply(op("define_structure", structure=CS(name="MSGQ2", ovflwmax=80))))
    check("K21 CQS definitions", r["ok"] and r2["ok"])
    c.close()

    check("Z01 every reply matched its schema", not any(n.startswith("reply schema") for n, _, _ in RESULTS))
    for name, ok, info in RESULTS:
        if not ok:
            print("FAIL %s: %s" % (name, json.dumps(info, default=str)[:600]))
    passed = sum(1 for _, ok, _ in RESULTS if ok)
    print("summary: %d checks, %d passed, %d failed; %d replies validated against the schemas"
          % (len(RESULTS), passed, len(RESULTS) - passed, VALIDATED[0]))
    return 0 if passed == len(RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
