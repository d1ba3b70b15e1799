#!/usr/bin/env python3
"""Self-test over the wire: starts `python3 impl.py`, talks the protocol, checks the
documents' worked examples and rules, and validates every reply against the JSON
Schemas in docs/schemas/ of the repository.  Exit 1 on any failure.   python3 selftest.py [-v]
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = os.path.join(HERE, "..", "..", "docs", "schemas")
VERBOSE = "-v" in sys.argv

# ------------------------------------------------------------------ mini JSON Schema
_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _type_ok(v, t):
    if isinstance(t, list):
        return any(_type_ok(v, x) for x in t)
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    return isinstance(v, _TYPES[t])


def validate(v, sch, root, path="$"):
    errs = []
    if "$ref" in sch:
        name = sch["$ref"].split("/")[-1]
        return validate(v, root["$defs"][name], root, path)
    if "type" in sch and not _type_ok(v, sch["type"]):
        return [f"{path}: {v!r} is not {sch['type']}"]
    if "const" in sch and v != sch["const"]:
        errs.append(f"{path}: {v!r} != {sch['const']!r}")
    if "enum" in sch and v not in sch["enum"]:
        errs.append(f"{path}: {v!r} not in {sch['enum']}")
    if "anyOf" in sch and not any(not validate(v, s, root, path) for s in sch["anyOf"]):
        errs.append(f"{path}: matches no anyOf branch")
    if "oneOf" in sch and sum(1 for s in sch["oneOf"] if not validate(v, s, root, path)) != 1:
        errs.append(f"{path}: does not match exactly one oneOf branch")
    if isinstance(v, dict):
        for r in sch.get("required", []):
            if r not in v:
                errs.append(f"{path}: missing required {r}")
        props = sch.get("properties", {})
        for k, x in v.items():
            if k in props:
                errs += validate(x, props[k], root, f"{path}.{k}")
            elif sch.get("additionalProperties") is False:
                errs.append(f"{path}: unexpected field {k}")
    if isinstance(v, list):
        if "minItems" in sch and len(v) < sch["minItems"]:
            errs.append(f"{path}: fewer than {sch['minItems']} items")
        if "maxItems" in sch and len(v) > sch["maxItems"]:
            errs.append(f"{path}: more than {sch['maxItems']} items")
        if sch.get("uniqueItems") and len({json.dumps(x, sort_keys=True) for x in v}) != len(v):
            errs.append(f"{path}: items not unique")
        if "items" in sch:
            for i, x in enumerate(v):
                errs += validate(x, sch["items"], root, f"{path}[{i}]")
    if isinstance(v, str):
        if "minLength" in sch and len(v) < sch["minLength"]:
            errs.append(f"{path}: shorter than {sch['minLength']}")
        if "pattern" in sch and not re.search(sch["pattern"], v):
            errs.append(f"{path}: does not match {sch['pattern']}")
    if _type_ok(v, "number") and "minimum" in sch and v < sch["minimum"]:
        errs.append(f"{path}: below {sch['minimum']}")
    return errs


SCH = {}
for _n in ("init_ok", "open_ok", "apply_ok", "batch_ok", "close_ok", "error", "op", "config"):
    with open(os.path.join(SCHEMAS, _n + ".json")) as _fh:
        SCH[_n] = json.load(_fh)

# ------------------------------------------------------------------ wire client
RESULTS = []


def check(name, cond, info=""):
    RESULTS.append((name, bool(cond), info))
    if VERBOSE or not cond:
        print(("PASS " if cond else "FAIL ") + name + (f"  [{info}]" if info and not cond else ""))


class Wire:
    def __init__(self):
        self.p = subprocess.Popen([sys.executable, os.path.join(HERE, "impl.py")],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.mid = 0
        self.schema_errors = []

    def raw(self, line):
        self.p.stdin.write(line.encode() + b"\n")
        self.p.stdin.flush()
        out = self.p.stdout.readline()
        reply = json.loads(out)
        t = reply.get("type")
        if t in SCH:
            errs = validate(reply, SCH[t], SCH[t])
            if errs:
                self.schema_errors.append((t, errs[:3]))
        else:
            self.schema_errors.append((t, ["unknown reply type"]))
        return reply

    def req(self, msg):
        self.mid += 1
        msg = dict(msg, msg_id=self.mid)
        op_errs = []
        if msg["type"] == "apply":
            op_errs = validate(msg["op"], SCH["op"], SCH["op"])
        if msg["type"] == "open":
            errs = validate(msg["config"], SCH["config"], SCH["config"])
            if errs:
                self.schema_errors.append(("config", errs[:3]))
        r = self.raw(json.dumps(msg))
        if op_errs and r.get("code") != 11:   # only deliberately malformed ops may fail the schema
            self.schema_errors.append(("op", op_errs[:3]))
        if r.get("in_reply_to") != self.mid:
            self.schema_errors.append(("in_reply_to", [f"{r.get('in_reply_to')} != {self.mid}"]))
        return r

    def init(self):
        return self.req({"type": "init", "protocol_version": "1.3", "suite": "selftest",
                         "max_line_bytes": 1048576})

    def open(self, cfg):
        return self.req({"type": "open", "config": cfg})

    def op(self, **op):
        r = self.req({"type": "apply", "op": op})
        return r["outcome"] if r["type"] == "apply_ok" else {"error": r["code"], "reply": r}

    def close(self):
        r = self.req({"type": "close"})
        try:
            rc = self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = None
        return r, rc


W = None


def mq(structs=None, queues=None, qmgrs=None, **kw):
    c = {"profile": "mq", "qsg": "QSG1", "qmgrs": qmgrs or ["QM01", "QM02", "QM03"],
         "structures": structs if structs is not None else [S()],
         "queues": queues if queues is not None else [Q()]}
    c.update(kw)
    return c


def S(name="APP1", **kw):
    d = {"name": name, "size_kb": 8192, "cflevel": 3, "recover": False}
    d.update(kw)
    return d


def Q(name="Q1", cfstruct="APP1", **kw):
    d = {"name": name, "cfstruct": cfstruct}
    d.update(kw)
    return d


def opened(cfg):
    r = W.open(cfg)
    assert r["type"] == "open_ok", r
    return r


def put(qm="QM01", q="Q1", length=100, tag=0, **kw):
    return W.op(op="put", qmgr=qm, queue=q, length=length, tag=tag, **kw)


def get(qm="QM01", q="Q1", **kw):
    return W.op(op="get", qmgr=qm, queue=q, **kw)


def inspect():
    return W.op(op="inspect")["value"]


def sig(oc):
    return oc.get("signals", [])


# ------------------------------------------------------------------ checks
def t_protocol():
    r = W.raw("{\"type\":\"apply\",\"msg_id\":0,\"op\":{\"op\":\"inspect\"}}")
    check("protocol: anything before init is error 15", r["type"] == "error" and r["code"] == 15)
    r = W.init()
    check("protocol: init_ok 1.3", r["type"] == "init_ok" and r["protocol_version"] == "1.3")
    caps = r.get("capabilities", {})
    check("protocol: all nine families claimed", len(caps.get("families", [])) == 9)
    check("protocol: every capability reading is declared (no 'unknown')",
          len(caps.get("readings", {})) == 22 and "unknown" not in caps["readings"].values())
    r = W.init()
    check("protocol: second init is error 15", r["type"] == "error" and r["code"] == 15)
    r = W.req({"type": "apply", "op": {"op": "inspect"}})
    check("protocol: apply before open is error 15", r["type"] == "error" and r["code"] == 15)
    r = W.raw("this is not json")
    check("protocol: garbage gets error 11 with in_reply_to null",
          r["type"] == "error" and r["code"] == 11 and r["in_reply_to"] is None)
    W.mid += 1
    r = W.raw(json.dumps({"type": "frobnicate", "msg_id": W.mid}))
    check("protocol: unknown message type is error 11", r["code"] == 11 and r["definite"])
    r = W.open(mq(qsg="TOOLONG"))
    check("protocol: bad config is error 13 with detail", r["type"] == "error" and r["code"] == 13
          and r.get("detail", {}).get("field") == "qsg")
    r = W.req({"type": "apply", "op": {"op": "inspect"}})
    check("protocol: after a failed open the implementation is not open", r.get("code") == 15)
    opened(mq())
    r = W.req({"type": "apply", "op": {"op": "frob"}})
    check("protocol: unknown op kind is error 11", r["type"] == "error" and r["code"] == 11)
    r = W.req({"type": "apply", "op": {"op": "put", "qmgr": "QM01", "queue": "Q1"}})
    check("protocol: put without length is error 11", r.get("code") == 11)
    oc = W.op(op="put", qmgr="QM09", queue="Q1", length=1)
    check("protocol: unknown queue manager is error 14", oc.get("error") == 14)
    oc = W.op(op="alter_outcome", cfstruct="APP1", success=True)
    check("protocol: CQS-only operation in the mq profile is error 14", oc.get("error") == 14)
    r = W.req({"type": "batch", "ops": [
        {"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 10, "tag": 1, "syncpoint": True},
        {"op": "commit", "qmgr": "QM01"},
        {"op": "get", "qmgr": "QM02", "queue": "Q1"},
        {"op": "get", "qmgr": "QM02", "queue": "Q1"}]})
    oks = [o["ok"] for o in r.get("outcomes", [])]
    check("protocol: batch answers four outcomes in order", oks == [True, True, True, False]
          and r["outcomes"][2].get("tag") == 1 and r["outcomes"][3].get("reason") == 2033)
    r = W.req({"type": "batch", "ops": [
        {"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 10, "tag": 2},
        {"op": "put", "qmgr": "QM01", "queue": "NOPE", "length": 10},
        {"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 10, "tag": 3}]})
    check("protocol: batch stops at the failing operation",
          len(r["outcomes"]) == 1 and r.get("error", {}).get("code") == 14)
    check("protocol: operations after the failing one were not applied",
          inspect()["queues"]["Q1"]["depth"] == 1)


def t_queue():
    opened(mq())
    for i in range(3):
        put(tag=i + 1)
    tags = [get("QM02").get("tag") for _ in range(3)]
    check("QUEUE: shared messages are got in order from another queue manager", tags == [1, 2, 3])
    check("QUEUE: get from an empty queue is 2033", get().get("reason") == 2033)
    put(tag=10, syncpoint=True)
    check("QUEUE: an uncommitted put is locked (2033 for others)", get("QM02").get("reason") == 2033)
    W.op(op="commit", qmgr="QM01")
    check("QUEUE: after commit the message is available", get("QM02").get("tag") == 10)
    put(tag=11, syncpoint=True)
    W.op(op="backout", qmgr="QM01")
    check("QUEUE: a backed-out put is gone", get().get("reason") == 2033)
    put(tag=12)
    check("QUEUE: a get under syncpoint takes the message", get("QM02", syncpoint=True).get("tag") == 12)
    W.op(op="backout", qmgr="QM02")
    check("QUEUE: backout of the get restores it", get("QM03").get("tag") == 12)
    put(tag=13, syncpoint=True)
    W.op(op="stop_qmgr", qmgr="QM01")
    check("QUEUE: stopping a queue manager backs out its unit of work", get("QM02").get("reason") == 2033)
    check("QUEUE: a stopped queue manager cannot put", put().get("reason") == "NOT_ACTIVE")
    W.op(op="start_qmgr", qmgr="QM01")
    put(tag=14)
    W.op(op="stop_qmgr", qmgr="QM01")
    check("QUEUE: nonpersistent shared messages survive a queue manager stop",
          get("QM02").get("tag") == 14)
    opened(mq(queues=[Q("LQ1", None, qmgr="QM01")]))
    put(q="LQ1", tag=1)
    put(q="LQ1", tag=2, persistent=True)
    W.op(op="stop_qmgr", qmgr="QM01")
    W.op(op="start_qmgr", qmgr="QM01")
    check("QUEUE: nonshared nonpersistent messages are lost at stop (reading 'lost')",
          get(q="LQ1").get("tag") == 2)
    check("QUEUE: a nonshared queue is not known to another queue manager",
          get("QM02", q="LQ1").get("error") == 14)
    opened(mq(queues=[Q(maxdepth=2, maxmsgl=1000)]))
    check("QUEUE: a message exactly MAXMSGL long is accepted", put(length=1000).get("ok") is True)
    check("QUEUE: a message over MAXMSGL is 2030", put(length=1001).get("reason") == 2030)
    put()
    check("QUEUE: a put to a queue holding MAXDEPTH messages is 2053", put().get("reason") == 2053)
    get()
    check("QUEUE: after a get there is room again", put().get("ok") is True)


def t_cflevel():
    for lvl in (1, 2):
        opened(mq([S(cflevel=lvl)]))
        check(f"CFLEVEL: CFLEVEL({lvl}) nonpersistent put accepted", put().get("ok") is True)
        check(f"CFLEVEL: CFLEVEL({lvl}) persistent put refused (2366, reading)",
              put(persistent=True).get("reason") == 2366)
    opened(mq([S(cflevel=3, recover=True)]))
    check("CFLEVEL: CFLEVEL(3) RECOVER(YES) persistent put accepted", put(persistent=True).get("ok"))
    check("CFLEVEL: CFLEVEL(3) accepts 64512 bytes (63 KB)", put(length=64512).get("ok"))
    check("CFLEVEL: CFLEVEL(3) refuses 64513 bytes with 2366", put(length=64513).get("reason") == 2366)
    opened(mq([S(cflevel=3, recover=False)]))
    check("CFLEVEL: RECOVER(NO) persistent put is 2048", put(persistent=True).get("reason") == 2048)
    opened(mq([S(cflevel=4)], [Q(maxmsgl=104857600)]))
    oc = put(length=104857600)
    check("CFLEVEL: CFLEVEL(4) takes a 100 MB message, kept in Db2", oc.get("location") == "DB2")
    oc = put(length=2000)
    check("CFLEVEL: CFLEVEL(4) keeps small messages in the CF", oc.get("location") == "CF")
    oc = W.op(op="define_structure", structure={"name": "APP2", "cflevel": 4, "offload": "SMDS"})
    check("CFLEVEL: OFFLOAD below CFLEVEL(5) is INVALID", oc.get("reason") == "INVALID")
    oc = W.op(op="define_structure", structure={"name": "APP3", "cflevel": 6})
    check("CFLEVEL: CFLEVEL(6) is INVALID", oc.get("reason") == "INVALID")
    oc = W.op(op="alter_structure", name="APP1", changes={"cflevel": 3})
    check("CFLEVEL: decrease from 4 with messages is NOT_ALLOWED", oc.get("reason") == "NOT_ALLOWED")
    get()
    get()
    oc = W.op(op="alter_structure", name="APP1", changes={"cflevel": 3})
    check("CFLEVEL: decrease from 4 on empty queues is accepted", oc.get("ok") is True)
    oc = W.op(op="alter_structure", name="APP1", changes={"cflevel": 5})
    check("CFLEVEL: increase to 5 is accepted", oc.get("ok") is True)
    check("CFLEVEL: after ALTER to 5 a 70000-byte message goes to SMDS (default)",
          put(length=70000).get("location") == "SMDS")


def t_offload():
    opened(mq([S(cflevel=5)]))
    oc = put(length=70000)
    check("OFFLOAD: over 63 KB always offloaded", oc.get("offloaded") is True)
    check("OFFLOAD: an offloaded message costs one entry plus 512 bytes (0.75 KB)",
          oc.get("usage", [0, 0, 0])[0] == 1 and oc["usage"][2] == 2)
    check("OFFLOAD: 64512 bytes stay in the CF (reading 63K)", put(length=64512).get("offloaded") is False)
    check("OFFLOAD: 40000 bytes stay in the CF when the structure is nearly empty",
          put(length=40000).get("offloaded") is False)
    # 70 KB structure: 20 entries, 120 elements
    opened(mq([S(cflevel=5, size_kb=70)]))
    for i in range(14):
        put(tag=i)
    oc = put(length=100)
    check("OFFLOAD: at exactly 70 % nothing is offloaded (strict, reading)", oc.get("offloaded") is False)
    oc = put(length=100)
    check("OFFLOAD: at 75 % a 100-byte message stays (rules 1 and 2 need bigger ones)",
          oc.get("offloaded") is False)
    oc = put(length=5000)
    check("OFFLOAD: at 80 % a 5000-byte message stays (rule 2 needs more than 80 %)",
          oc.get("offloaded") is False)
    oc = put(length=5000)
    check("OFFLOAD: above 80 % a 5000-byte message is offloaded (rule 2)", oc.get("offloaded") is True)
    oc = put(length=100)
    check("OFFLOAD: at 90 % a 100-byte message stays (rule 3 needs more than 90 %)",
          oc.get("offloaded") is False)
    oc = put(length=100)
    check("OFFLOAD: above 90 % every message is offloaded (rule 3)", oc.get("offloaded") is True)
    opened(mq([S(cflevel=5, offld1th=0, offld1sz=32768)]))
    put()
    check("OFFLOAD: OFFLD1TH(0) OFFLD1SZ(32K): exactly 32768 bytes not offloaded",
          put(length=32768).get("offloaded") is False)
    check("OFFLOAD: OFFLD1TH(0) OFFLD1SZ(32K): 32769 bytes offloaded",
          put(length=32769).get("offloaded") is True)
    opened(mq([S(cflevel=5, offld1sz=65536, offld2sz=65536, offld3sz=65536, offld1th=0,
                 offld2th=0, offld3th=0)]))
    put()
    check("OFFLOAD: rules at 64K are not in effect", put(length=60000).get("offloaded") is False)
    check("OFFLOAD: with all rules off, 70000 bytes are still offloaded",
          put(length=70000).get("offloaded") is True)
    opened(mq([S(cflevel=5, offload="DB2")]))
    check("OFFLOAD: OFFLOAD(DB2) keeps data in Db2", put(length=70000).get("location") == "DB2")
    opened(mq([S(cflevel=5, offld1th=0, offld1sz=1024)]))
    W.op(op="alter_structure", name="APP1", changes={"offld2th": 50})
    put()
    check("OFFLOAD: ALTER leaves unspecified offload keywords unchanged",
          put(length=2000).get("offloaded") is True)
    oc = W.op(op="define_structure", structure={"name": "APP2", "cflevel": 5, "offld1sz": 70000})
    check("OFFLOAD: OFFLD1SZ above 64K is INVALID", oc.get("reason") == "INVALID")
    oc = W.op(op="define_structure", structure={"name": "APP3", "cflevel": 5, "offld2th": 101})
    check("OFFLOAD: OFFLD2TH above 100 is INVALID", oc.get("reason") == "INVALID")


def t_qdepth():
    hi = Q("SQ1", maxdepth=10, qdepthhi=50, qdphiev=True)
    lq = Q("LQ1", None, qmgr="QM01", maxdepth=10, qdepthhi=50, qdphiev=True)
    opened(mq(queues=[hi, lq], perfmev_disabled=["QM01", "QM02", "QM03"]))
    for i in range(5):
        put(q="SQ1")
        put(q="LQ1")
    v = inspect()["queues"]
    check("QDEPTH: seed example - SQ1's QDPHIEV switches to DISABLED with PERFMEV(DISABLED)",
          v["SQ1"]["qdphiev"] is False)
    check("QDEPTH: seed example - SQ1's QDPLOEV and QDPMAXEV switch to ENABLED",
          v["SQ1"]["qdploev"] is True and v["SQ1"]["qdpmaxev"] is True)
    check("QDEPTH: seed example - LQ1's attributes remain unchanged",
          v["LQ1"] == {"depth": 5, "qdphiev": True, "qdploev": False, "qdpmaxev": False})
    opened(mq(queues=[Q(maxdepth=10, qdepthhi=50, qdepthlo=20, qdphiev=True)]))
    evs = [put(tag=i).get("events", []) for i in range(5)]
    check("QDEPTH: no event below the high limit", all(not e for e in evs[:4]))
    ev = evs[4]
    check("QDEPTH: Queue Depth High when depth meets the limit", ev and ev[0]["kind"] == "QDPHI")
    check("QDEPTH: one event message per active PERFMEV-enabled queue manager",
          [e["qmgr"] for e in ev] == ["QM01", "QM02", "QM03"])
    check("QDEPTH: all event messages carry the coordinator's CorrelId",
          len({e["correl"] for e in ev}) == 1)
    check("QDEPTH: each queue manager reports its own usage (null for idle ones)",
          ev[0]["enq"] == 5 and ev[1]["enq"] == 0 and ev[2]["enq"] == 0)
    check("QDEPTH: no second High event while QDPHIEV is disabled", not put().get("events"))
    get()
    get()
    get()
    ev = get().get("events", [])
    check("QDEPTH: Queue Depth Low when depth reaches 20 %", ev and ev[0]["kind"] == "QDPLO")
    check("QDEPTH: statistics restart after each event message", ev and ev[0]["enq"] == 1
          and ev[0]["deq"] == 4)
    v = inspect()["queues"]["Q1"]
    check("QDEPTH: Queue Depth Low enables High and Full, disables Low",
          v["qdphiev"] and v["qdpmaxev"] and not v["qdploev"])
    opened(mq(queues=[Q(maxdepth=2, qdpmaxev=True)]))
    put()
    put()
    oc = put()
    check("QDEPTH: Queue Full event on the first put that fails", oc.get("reason") == 2053
          and oc.get("events", [{}])[0].get("kind") == "QFULL")
    check("QDEPTH: no second Queue Full event", not put().get("events"))
    v = inspect()["queues"]["Q1"]
    check("QDEPTH: Queue Full enables Low, leaves High unchanged (reading)",
          v["qdploev"] and not v["qdphiev"] and not v["qdpmaxev"])
    opened(mq(queues=[Q(maxdepth=10, qdepthhi=50, qdphiev=True)]))
    W.op(op="stop_qmgr", qmgr="QM03")
    W.op(op="set_perfmev", qmgr="QM02", enabled=False)
    for _ in range(4):
        put()
    ev = put().get("events", [])
    check("QDEPTH: stopped and PERFMEV-disabled queue managers issue no event message",
          [e["qmgr"] for e in ev] == ["QM01"])
    opened(mq(queues=[Q(maxdepth=10, qdepthhi=50, qdphiev=True)], perfmev_disabled=["QM01"]))
    for _ in range(4):
        put()
    oc = put()
    check("QDEPTH: coordinator with PERFMEV(DISABLED) issues nothing (reading)", not oc.get("events"))
    check("QDEPTH: ...but the shared queue's switches are toggled", inspect()["queues"]["Q1"]["qdphiev"] is False)
    opened(mq(queues=[Q(maxdepth=10, qdepthhi=50, qdphiev=True)]))
    for _ in range(5):
        put(syncpoint=True)
    W.op(op="backout", qmgr="QM01")
    check("QDEPTH: a rollback does not restore the enable flags", inspect()["queues"]["Q1"]["qdphiev"] is False)
    opened(mq(queues=[Q(maxdepth=10, qdepthhi=50, qdphiev=True)]))
    put("QM02")
    W.op(op="reset_qstats", qmgr="QM02", queue="Q1")
    for _ in range(3):
        put()
    ev = put("QM02").get("events", [])
    check("QDEPTH: RESET QSTATS restarts that queue manager's counts",
          ev and ev[0]["qmgr"] == "QM02" and ev[0]["enq"] == 1 and ev[1]["enq"] == 3)


def t_capacity():
    opened(mq([S(size_kb=350, fullthreshold=5)]))   # 100 entries, 600 elements
    ocs = [put(tag=i) for i in range(5)]
    check("CAPACITY: usage reported as [entries used, total, elements used, total]",
          ocs[0].get("usage") == [1, 100, 3, 600])
    check("CAPACITY: IXC585E when entries reach FULLTHRESHOLD", "IXC585E APP1" in sig(ocs[4])
          and not any(sig(o) for o in ocs[:4]))
    check("CAPACITY: IXC586I when usage falls back below", "IXC586I APP1" in sig(get()))
    v = inspect()["structures"]["APP1"]
    check("CAPACITY: inspect reports usage and full_warning", v["entries_used"] == 4 and
          v["full_warning"] is False and v["entries_total"] == 100)
    opened(mq([S(fullthreshold=0)]))
    check("CAPACITY: FULLTHRESHOLD(0) disables monitoring", not sig(put(length=60000)))
    opened(mq([S(size_kb=256)]))
    put(length=60000)
    check("CAPACITY: a full structure answers 2192", put(length=60000).get("reason") == 2192)
    opened(mq([S(size_kb=8192, initsize_kb=4096)]))
    check("CAPACITY: structure allocated at INITSIZE", inspect()["structures"]["APP1"]["size_kb"] == 4096)
    oc = W.op(op="setxcf_alter", cfstruct="APP1", size_kb=16384)
    check("CAPACITY: SETXCF ALTER above SIZE is OUT_OF_RANGE", oc.get("reason") == "OUT_OF_RANGE")
    oc = W.op(op="setxcf_alter", cfstruct="APP1", size_kb=6144)
    check("CAPACITY: SETXCF ALTER between INITSIZE and SIZE grows the structure",
          oc.get("ok") and inspect()["structures"]["APP1"]["size_kb"] == 6144
          and oc["usage"][1] > 1170)


def t_sizing():
    rows = [6144, 6912, 7976, 8704, 9728, 10496, 11520, 12288, 13056, 14080, 14848, 15616,
            16640, 17408, 18176, 19200, 19968, 20736, 21760, 22528, 23296, 24320, 25088, 25856,
            27136, 27904, 28672, 29696, 30464, 31232, 32256]
    for n, kb in enumerate(rows, 1):
        opened(mq(qmgrs=[f"Q{i:03d}" for i in range(1, n + 1)]))
        a = inspect()["admin"]
        check(f"SIZING: Table 1, {n} queue managers -> {kb} KB and >= {1000 * n} entries",
              a["size_kb"] == kb and a["entries_total"] >= 1000 * n)
    table2 = {100: [6, 6, 7, 7, 8, 10, 14], 1000: [8, 9, 12, 17, 27, 48, 88],
              10000: [25, 38, 64, 115, 218, 423, 821],
              100000: [199, 327, 584, 1097, 2124, 4177, 8156]}
    sizes = [1, 2, 4, 8, 16, 32, 63]
    for n, mbs in table2.items():
        for skb, mb in zip(sizes, mbs):
            opened(mq([S(size_kb=mb * 1024, cflevel=4)]))
            v = inspect()["structures"]["APP1"]
            per = -(-(skb * 1024 + 512) // 256)
            check(f"SIZING: Table 2, {mb} MB holds {n} messages of {skb} KB",
                  v["entries_total"] >= n and v["elements_total"] >= n * per)
    opened(mq([S(size_kb=512 * 1024, cflevel=4)]))
    v = inspect()["structures"]["APP1"]
    check("SIZING: 200 000 messages of 1 KB fit in 512 MB (the seed's example)",
          v["entries_total"] >= 200000 and v["elements_total"] >= 200000 * 6)
    r = W.open(mq(qmgrs=["QM01"], admin_size_kb=6000))
    check("SIZING: CSQ_ADMIN smaller than Table 1 is refused", r.get("code") == 13)
    r = W.open(mq([S(size_kb=8192, initsize_kb=16384)]))
    check("SIZING: INITSIZE above SIZE is refused", r.get("code") == 13)
    opened(mq(qmgrs=["QM01", "QM02"], admin_table="cfcc9"))
    check("SIZING: CFCC level 9 table, 2 queue managers -> 3328 KB", inspect()["admin"]["size_kb"] == 3328)


def t_topology():
    r = W.open(mq(queues=[Q(f"Q{i:03d}") for i in range(1, 513)]))
    check("TOPOLOGY: 512 queues on one structure accepted", r["type"] == "open_ok")
    oc = W.op(op="define_queue", queue={"name": "Q513", "cfstruct": "APP1"})
    check("TOPOLOGY: 513th queue NOT_ALLOWED", oc.get("reason") == "NOT_ALLOWED")
    r = W.open(mq(queues=[Q(f"Q{i:03d}") for i in range(1, 514)]))
    check("TOPOLOGY: config with 513 queues on a structure refused", r.get("code") == 13)
    r = W.open(mq([S(f"APP{i}") for i in range(1, 64)]))
    check("TOPOLOGY: 63 application structures accepted", r["type"] == "open_ok")
    oc = W.op(op="define_structure", structure={"name": "APP64"})
    check("TOPOLOGY: 64th application structure NOT_ALLOWED", oc.get("reason") == "NOT_ALLOWED")
    r = W.open(mq([S(f"APP{i}") for i in range(1, 63)] + [S("CSQSYSAPPL")]))
    check("TOPOLOGY: 62 message structures plus CSQSYSAPPL accepted", r["type"] == "open_ok")
    oc = W.op(op="define_structure", structure={"name": "APP63"})
    check("TOPOLOGY: 63 message structures with CSQSYSAPPL NOT_ALLOWED", oc.get("reason") == "NOT_ALLOWED")
    opened(mq())
    for name, ok in (("ABCDEFGHIJKL", True), ("ABCDEFGHIJKLM", False), ("1APP", False),
                     ("APP_1", False), ("app1", False), ("CSQ_ADMIN", False)):
        oc = W.op(op="define_structure", structure={"name": name})
        check(f"TOPOLOGY: structure name {name!r} {'accepted' if ok else 'INVALID'}",
              oc.get("ok") is ok)
    r = W.open(mq(qsg="QSG12"))
    check("TOPOLOGY: QSG name of 5 characters refused", r.get("code") == 13)
    r = W.open(mq(qsg="QM01"))
    check("TOPOLOGY: QSG name equal to a queue manager name refused", r.get("code") == 13)
    r = W.open(mq(qmgrs=[f"Q{i:03d}" for i in range(1, 33)]))
    check("TOPOLOGY: 32 queue managers accepted", r["type"] == "open_ok")
    r = W.open(mq(qmgrs=[f"Q{i:03d}" for i in range(1, 34)]))
    check("TOPOLOGY: 33 queue managers refused", r.get("code") == 13)
    opened(mq(qsg="NY03", structures=[S("PRODUCT7")], queues=[Q(cfstruct="PRODUCT7")]))
    check("TOPOLOGY: CFRM name NY03PRODUCT7", inspect()["structures"]["PRODUCT7"]["cfname"] == "NY03PRODUCT7")
    opened(mq(qsg="QG"))
    check("TOPOLOGY: short QSG padded with @", inspect()["structures"]["APP1"]["cfname"] == "QG@@APP1")
    oc = W.op(op="define_queue", queue={"name": "QX", "cfstruct": "NOPE"})
    check("TOPOLOGY: queue on an undefined structure INVALID", oc.get("reason") == "INVALID")


def t_recovery():
    opened(mq([S(cflevel=4, recover=True)]))
    check("RECOVERY: RECOVER without failure is NOT_FAILED",
          W.op(op="recover", cfstruct="APP1").get("reason") == "NOT_FAILED")
    check("RECOVERY: RECOVER TYPE(PURGE) without failure rejected (reading)",
          W.op(op="recover", cfstruct="APP1", purge=True).get("reason") == "NOT_FAILED")
    put(tag=1, persistent=True)
    put(tag=2)
    check("RECOVERY: BACKUP CFSTRUCT accepted", W.op(op="backup", qmgr="QM01", cfstruct="APP1").get("ok"))
    put("QM02", tag=3, persistent=True)
    put(tag=4, persistent=True, syncpoint=True)
    W.op(op="fail_structure", cfstruct="APP1")
    check("RECOVERY: put to a failed structure is 2373", put().get("reason") == 2373)
    check("RECOVERY: get from a failed structure is 2373", get().get("reason") == 2373)
    check("RECOVERY: status FAILED", inspect()["structures"]["APP1"]["status"] == "FAILED")
    W.op(op="commit", qmgr="QM01")
    check("RECOVERY: RECOVER TYPE(NORMAL) accepted", W.op(op="recover", cfstruct="APP1").get("ok"))
    check("RECOVERY: status ACTIVE again", inspect()["structures"]["APP1"]["status"] == "ACTIVE")
    tags = [get().get("tag") for _ in range(3)]
    check("RECOVERY: persistent messages restored from backup and all logs, nonpersistent lost",
          tags == [1, 3, None])
    opened(mq([S(cflevel=4, recover=True)]))
    W.op(op="fail_structure", cfstruct="APP1")
    check("RECOVERY: RECOVER with no backup is NO_BACKUP",
          W.op(op="recover", cfstruct="APP1").get("reason") == "NO_BACKUP")
    check("RECOVERY: RECOVER TYPE(PURGE) accepted on a failed structure",
          W.op(op="recover", cfstruct="APP1", purge=True).get("ok"))
    opened(mq([S(cflevel=4, recover=True)]))
    put(tag=1, persistent=True)
    W.op(op="backup", qmgr="QM01", cfstruct="APP1")
    W.op(op="fail_structure", cfstruct="APP1")
    W.op(op="recover", cfstruct="APP1", purge=True)
    check("RECOVERY: after TYPE(PURGE) the queues are empty", get().get("reason") == 2033)
    opened(mq([S(cflevel=4, recover=False), S("APP2", cflevel=2, recover=True)]))
    check("RECOVERY: BACKUP of RECOVER(NO) refused",
          W.op(op="backup", qmgr="QM01", cfstruct="APP1").get("reason") == "NOT_ALLOWED")
    check("RECOVERY: BACKUP at CFLEVEL(2) refused",
          W.op(op="backup", qmgr="QM01", cfstruct="APP2").get("reason") == "NOT_ALLOWED")
    W.op(op="fail_structure", cfstruct="APP1")
    check("RECOVERY: RECOVER of RECOVER(NO) refused",
          W.op(op="recover", cfstruct="APP1").get("reason") == "NOT_ALLOWED")


def cqs(structs=None, queues=None, **kw):
    c = {"profile": "cqs", "qsg": "IMSG", "qmgrs": ["IMS1", "IMS2"],
         "structures": structs or [{"name": "MSGQ", "size_kb": 350, "ovflwmax": 70,
                                    "ovflwstr": "MSGQOVF"}],
         "queues": queues or [{"name": n, "cfstruct": "MSGQ"} for n in ("QA", "QB", "QC", "QD", "QE")],
         "lgmsgsz": 30632}
    c.update(kw)
    return c


def cput(q, length=7000, tag=0):
    return W.op(op="put", qmgr="IMS1", queue=q, length=length, tag=tag)


def cget(q):
    return W.op(op="get", qmgr="IMS1", queue=q)


def fill70():
    last = None
    for q, n in (("QA", 3), ("QB", 3), ("QC", 3), ("QD", 3), ("QE", 2)):
        for _ in range(n):
            last = cput(q)
    return last


def t_cqs():
    opened(cqs())
    last = None
    for q, n in (("QA", 3), ("QB", 3), ("QC", 3), ("QD", 3), ("QE", 1)):
        for _ in range(n):
            last = cput(q)
    check("CQS: below OVFLWMAX no alter", not sig(last))
    last = cput("QE")
    check("CQS: reaching OVFLWMAX starts a structure alter", "ALTER MSGQ" in sig(last))
    check("CQS: the alter is pending (reading async)", inspect()["structures"]["MSGQ"]["alter_pending"])
    check("CQS: no second alter while one is pending", "ALTER MSGQ" not in sig(cput("QE", 100)))
    oc = W.op(op="alter_outcome", cfstruct="MSGQ", success=False)
    s = sig(oc)
    check("CQS: failed alter puts the structure into overflow mode", "OVERFLOW_ON MSGQ" in s)
    check("CQS: queues using the most space selected until usage is 20 points below",
          [x for x in s if x.startswith("OVERFLOW_QUEUE")] ==
          ["OVERFLOW_QUEUE MSGQ QA", "OVERFLOW_QUEUE MSGQ QB"])
    v = inspect()["structures"]["MSGQ"]
    check("CQS: data of approved queues moved off the primary", v["elements_used"] * 100 <= 50 * v["elements_total"])
    check("CQS: inspect lists the overflow queues", v["overflow_queues"] == ["QA", "QB"])
    check("CQS: with an overflow structure puts to overflow queues are accepted", cput("QA", 100).get("ok"))
    oc = W.op(op="alter_outcome", cfstruct="MSGQ", success=False)
    check("CQS: alter_outcome without a pending alter", oc.get("reason") == "NO_ALTER_PENDING")
    for _ in range(4):
        cget("QA")
    for _ in range(3):
        cget("QB")
    oc = W.op(op="advance_clock", seconds=899)
    check("CQS: no scan before 15 minutes", not sig(oc))
    oc = W.op(op="advance_clock", seconds=1)
    check("CQS: the 15-minute scan returns the empty queues and ends overflow mode",
          sig(oc) == ["OVERFLOW_QUEUE_OFF MSGQ QA", "OVERFLOW_QUEUE_OFF MSGQ QB", "OVERFLOW_OFF MSGQ"])
    check("CQS: clock advanced", inspect()["clock"] == 900)
    # exit veto
    opened(cqs(overflow_exit=["QA"]))
    fill70()
    s = sig(W.op(op="alter_outcome", cfstruct="MSGQ", success=False))
    check("CQS: a vetoed queue is skipped and another selected",
          [x for x in s if x.startswith("OVERFLOW_QUEUE")] ==
          ["OVERFLOW_QUEUE MSGQ QB", "OVERFLOW_QUEUE MSGQ QC"])
    # no overflow structure
    opened(cqs([{"name": "MSGQ", "size_kb": 350, "ovflwmax": 70}]))
    fill70()
    W.op(op="alter_outcome", cfstruct="MSGQ", success=False)
    check("CQS: without an overflow structure puts to approved queues are rejected",
          cput("QA", 100).get("reason") == "REJECTED_OVERFLOW")
    check("CQS: ...and puts to other queues accepted", cput("QE", 100).get("ok"))
    cget("QE")
    outs = [cget("QC") for _ in range(3)]
    check("CQS: still in overflow mode above the 50 % target", not any(sig(o) for o in outs))
    oc = cget("QD")
    check("CQS: leaves overflow mode when usage is 20 points below OVFLWMAX",
          "OVERFLOW_OFF MSGQ" in sig(oc))
    check("CQS: approved queues accept puts again", cput("QA", 100).get("ok"))
    # alter succeeds
    opened(cqs([{"name": "MSGQ", "size_kb": 700, "initsize_kb": 350, "ovflwmax": 70,
                 "ovflwstr": "MSGQOVF"}]))
    fill70()
    oc = W.op(op="alter_outcome", cfstruct="MSGQ", success=True, size_kb=700)
    check("CQS: a successful alter grows the structure, no overflow mode",
          not any(x.startswith("OVERFLOW") for x in sig(oc)) and
          inspect()["structures"]["MSGQ"]["size_kb"] == 700)
    # default threshold 70 %
    opened(cqs([{"name": "MSGQ", "size_kb": 350, "ovflwmax": None}]))
    check("CQS: OVFLWMAX defaults to 70 %", "ALTER MSGQ" in sig(fill70()))
    opened(cqs([{"name": "MSGQ", "size_kb": 350, "ovflwmax": 70, "resource": True}]))
    check("CQS: no overflow processing for resource structures", not sig(fill70()))
    # staging queue
    opened(cqs([{"name": "MSGQ", "size_kb": 350, "ovflwmax": 20, "ovflwstr": "MSGQOVF"}],
               [{"name": "QA", "cfstruct": "MSGQ"}], lgmsgsz=4096))
    cput("QA", 20000)
    check("CQS: a 20000-byte message leaves 4 parts on the staging queue",
          inspect()["structures"]["MSGQ"]["staging_depth"] == 4)
    cput("QA", 20000)
    W.op(op="alter_outcome", cfstruct="MSGQ", success=False)
    v = inspect()["structures"]["MSGQ"]
    check("CQS: staging parts stay on the primary structure", v["staging_depth"] == 8 and
          v["entries_used"] == 8)
    check("CQS: a message exactly LGMSGSZ long is one part", (cget("QA"), cput("QA", 4096),
          inspect()["structures"]["MSGQ"]["staging_depth"])[2] == 4)
    opened(cqs(lgmsgsz=4097, queues=[{"name": "QA", "cfstruct": "MSGQ"}]))
    cput("QA", 4100)
    check("CQS: LGMSGSZ rounded up to a multiple of 4", inspect()["structures"]["MSGQ"]["staging_depth"] == 0)
    opened(cqs(lgmsgsz=40000, queues=[{"name": "QA", "cfstruct": "MSGQ"}]))
    cput("QA", 35000)
    check("CQS: LGMSGSZ above 30632 is set to 30632", inspect()["structures"]["MSGQ"]["staging_depth"] == 1)
    opened(cqs([{"name": "MSGQ", "size_kb": 350, "ovflwmax": 70}]))
    oc = W.op(op="alter_structure", name="MSGQ", changes={"ovflwstr": "MSGQOVF"})
    check("CQS: adding OVFLWSTR later needs a cold start", oc.get("reason") == "NOT_ALLOWED")
    oc = W.op(op="backup", qmgr="IMS1", cfstruct="MSGQ")
    check("CQS: MQ-only operation in the cqs profile is error 14", oc.get("error") == 14)
    check("CQS: get from an empty queue is NO_MSG", cget("QA").get("reason") == "NO_MSG")


def main():
    global W
    W = Wire()
    groups = [t_protocol, t_queue, t_cflevel, t_offload, t_qdepth, t_capacity, t_sizing,
              t_topology, t_recovery, t_cqs]
    for g in groups:
        try:
            g()
        except Exception as e:  # a crash in a group is a failure, keep going
            check(f"{g.__name__}: ran without exception", False, f"{type(e).__name__}: {e}")
    r, rc = W.close()
    check("protocol: close_ok then exit 0", r.get("type") == "close_ok" and rc == 0)
    check("protocol: every reply, op and config matches the JSON Schemas", not W.schema_errors,
          str(W.schema_errors[:3]))
    n = len(RESULTS)
    bad = [x for x in RESULTS if not x[1]]
    print(f"selftest: {n - len(bad)}/{n} checks passed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
