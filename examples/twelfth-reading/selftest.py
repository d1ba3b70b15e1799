#!/usr/bin/env python3
"""Self-test of impl.py: drives child processes over the wire protocol,
validates every reply against the JSON Schemas in ../twelfth-input/schemas
(with the small validator in cfwire.py) and checks behaviour against the
sentences of the five IBM texts and ibm-facts.md.

Prints "P passed, F failed".
"""
import json
import subprocess
import sys
import time

import cfwire
from gen_faults import S, Q, mq, cqs, put, get, cput, cget, INSPECT, clock, fill70, exact70, s1_puts

RESULTS = []
CLIENTS = []


def check(name, cond, info=""):
    RESULTS.append((name, bool(cond), info))
    if not cond and "-v" not in sys.argv:
        print("FAIL %s %s" % (name, info))
    elif "-v" in sys.argv:
        print("%s %s %s" % ("PASS" if cond else "FAIL", name, info))


def client(**kw):
    c = cfwire.Client(**kw)
    CLIENTS.append(c)
    return c


MAIN = None


def run(config, ops):
    """Open config on the shared client, apply ops one by one; return outcomes (or error dicts)."""
    r = MAIN.open(config)
    if r.get("type") != "open_ok":
        return [{"open_error": r}]
    res = []
    for op in ops:
        rep = MAIN.apply(op)
        res.append(rep["outcome"] if rep["type"] == "apply_ok" else {"error": rep.get("code"), "reply": rep})
    return res


def last_inspect(res):
    return res[-1]["value"]


def opened(config):
    r = MAIN.open(config)
    return r.get("type") == "open_ok", r


def sigs(o):
    return sorted(o.get("signals", []))


# =========================================================== protocol
def t_protocol():
    c = client()
    r = c.apply({"op": "inspect"})
    check("proto: apply before init -> 15", r["type"] == "error" and r["code"] == 15 and r["definite"])
    r = c.init()
    check("proto: init_ok", r["type"] == "init_ok" and r["protocol_version"] == "1.4")
    caps = r["capabilities"]
    check("proto: capabilities schema", not cfwire.validator("capabilities").errors(caps))
    check("proto: both profiles, all families",
          set(caps["profiles"]) == {"mq", "cqs"} and len(caps["families"]) == 9)
    rs = cfwire.validator("capabilities").root["properties"]["readings"]["properties"]
    check("proto: every reading declared", set(caps["readings"]) == set(rs), sorted(set(rs) - set(caps["readings"])))
    r = c.init()
    check("proto: second init -> 15", r["type"] == "error" and r["code"] == 15)
    r = c.apply({"op": "inspect"})
    check("proto: apply before open -> 15", r["type"] == "error" and r["code"] == 15)
    r = c.batch([{"op": "inspect"}])
    check("proto: batch before open -> 15", r["type"] == "error" and r["code"] == 15)
    r = c.open({"profile": "zzz"})
    check("proto: unknown profile -> 10", r["type"] == "error" and r["code"] == 10)
    r = c.open({"profile": "mq", "frob": 1})
    check("proto: unknown config field -> 13", r["type"] == "error" and r["code"] == 13 and r["definite"])
    r = c.apply({"op": "inspect"})
    check("proto: failed open leaves not open", r["type"] == "error" and r["code"] == 15)
    r = c.open(mq())
    check("proto: open_ok", r["type"] == "open_ok")
    r = c.apply({"op": "cfconform_no_such_op"})
    check("proto: unknown op kind -> definite 11", r["type"] == "error" and r["code"] == 11 and r["definite"]
          and r["in_reply_to"] == c.msg_id)
    r = c.apply({"op": "inspect"})
    check("proto: survives invalid op", r["type"] == "apply_ok")
    r = c.request({"type": "frobnicate"})
    check("proto: unknown message type -> 11", r["type"] == "error" and r["code"] == 11)
    r = c.send_raw("this is not json")
    check("proto: not JSON -> 11 with in_reply_to null", r["type"] == "error" and r["code"] == 11
          and r["in_reply_to"] is None)
    r = c.send_raw(json.dumps({"type": "apply", "op": {"op": "inspect"}}))
    check("proto: no msg_id -> 11 null", r["type"] == "error" and r["in_reply_to"] is None)
    r = c.apply({"op": "put", "qmgr": "QM01", "queue": "Q1"})
    check("proto: missing field -> 11", r["type"] == "error" and r["code"] == 11)
    r = c.apply({"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 1, "bogus": 1})
    check("proto: unknown op field -> 11", r["type"] == "error" and r["code"] == 11)
    r = c.apply({"op": "put", "qmgr": "QM09", "queue": "Q1", "length": 1})
    check("proto: unknown qmgr -> 14 TOPOLOGY-006", r["type"] == "error" and r["code"] == 14 and r["definite"]
          and r["detail"]["rule_id"] == "TOPOLOGY-006")
    r = c.apply({"op": "put", "qmgr": "QM01", "queue": "NOPE", "length": 1})
    check("proto: unknown queue -> 14", r["type"] == "error" and r["code"] == 14)
    r = c.apply({"op": "alter_outcome", "cfstruct": "APP1", "success": True})
    check("proto: cqs op in mq profile -> 14", r["type"] == "error" and r["code"] == 14)
    r = c.apply({"op": "put", "qmgr": "QM01", "queue": "Q1", "length": -1})
    check("proto: argument out of range -> 14", r["type"] == "error" and r["code"] == 14)
    # batch with an error at op 2: ops 0,1 applied, op 3 not
    r = c.batch([put(tag=1), put(tag=2), put(q="NOPE"), put(tag=3), INSPECT])
    check("proto: batch error at k", r["type"] == "batch_ok" and len(r["outcomes"]) == 2 and r["error"]["code"] == 14)
    r = c.apply(INSPECT)
    check("proto: ops after the batch error not applied", r["outcome"]["value"]["queues"]["Q1"]["depth"] == 2)
    r = c.batch([get(), get(), get()])
    check("proto: batch outcomes in order", [o.get("tag") for o in r["outcomes"]] == [1, 2, None]
          and r["outcomes"][2]["reason"] == 2033)
    r = c.batch([])
    check("proto: empty batch -> 11", r["type"] == "error" and r["code"] == 11)
    r = c.send_raw(json.dumps({"type": "apply", "msg_id": 999, "op": {"op": "inspect"}, "pad": "x" * 1100000}))
    check("proto: over-long line -> 17", r["type"] == "error" and r["code"] == 17)
    r = c.apply(INSPECT)
    check("proto: survives over-long line", r["type"] == "apply_ok")
    t0 = time.time()
    rep, rc = c.close()
    check("proto: close_ok and exit 0", rep and rep["type"] == "close_ok" and rc == 0, "rc=%r" % rc)
    check("proto: schema of every reply (connection 1)", not c.schema_errors, c.schema_errors[:2])

    # prefix replies under a small suite line limit
    c = client()
    c.request({"type": "init", "protocol_version": "1.4", "suite": "t", "max_line_bytes": 1024})
    c.open(mq())
    r = c.batch([put(tag=i) for i in range(40)])
    n = len(r.get("outcomes", []))
    check("proto: prefix batch_ok under the suite's limit", r["type"] == "batch_ok" and 1 <= n < 40
          and "error" not in r, "n=%d" % n)
    r2 = c.apply(INSPECT)
    check("proto: prefix means only the prefix was applied", r2["outcome"]["value"]["queues"]["Q1"]["depth"] == n)
    rep, rc = c.close()
    check("proto: schema (connection 2)", not c.schema_errors, c.schema_errors[:2])

    # version handling
    c = client()
    r = c.init("2.0")
    check("proto: major version mismatch -> 16", r["type"] == "error" and r["code"] == 16)
    r = c.init("1.0")
    check("proto: 1.0 suite accepted", r["type"] == "init_ok")
    c.open(mq([S(cflevel=5)]))
    r = c.apply(put(length=70000))
    check("proto: no location to a 1.0 suite", r["outcome"]["ok"] and "location" not in r["outcome"])
    c.close()

    # EOF exits 0
    p = subprocess.Popen([sys.executable, cfwire.IMPL], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    out, _ = p.communicate(b'{"type":"init","msg_id":1,"protocol_version":"1.4"}\n', timeout=10)
    check("proto: exit 0 at end of input", p.returncode == 0 and out.count(b"\n") == 1)
    # --list-faults
    out = subprocess.run([sys.executable, cfwire.IMPL, "--list-faults"], capture_output=True, text=True).stdout.split()
    check("proto: --list-faults lists >= 60 faults", len(out) >= 60, len(out))


# ============================================================== QUEUE
def t_queue():
    res = run(mq(), [put(tag=1), put(tag=2, qmgr="QM02"), get(qmgr="QM02"), get(), get()])
    check("queue: FIFO across queue managers", [o.get("tag") for o in res[2:4]] == [1, 2])
    check("queue: empty get -> 2033", res[4]["reason"] == 2033)
    res = run(mq(), [put(tag=1, syncpoint=True), get(qmgr="QM02"), {"op": "commit", "qmgr": "QM01"},
                     get(qmgr="QM02")])
    check("queue: uncommitted put locked (Lock uncommitted messages)", res[1]["reason"] == 2033)
    check("queue: visible after commit", res[3]["ok"] and res[3]["tag"] == 1)
    res = run(mq(), [put(tag=1, syncpoint=True), {"op": "backout", "qmgr": "QM01"}, get(), INSPECT])
    check("queue: backout removes put", res[2]["reason"] == 2033 and last_inspect(res)["queues"]["Q1"]["depth"] == 0)
    res = run(mq(), [put(tag=1), put(tag=2), get(syncpoint=True), get(qmgr="QM02"), {"op": "backout", "qmgr": "QM01"},
                     get(qmgr="QM02")])
    check("queue: locked got message skipped, restored by backout",
          res[3]["tag"] == 2 and res[5]["tag"] == 1)
    res = run(mq(), [put(tag=1), get(syncpoint=True), {"op": "stop_qmgr", "qmgr": "QM01"}, get(qmgr="QM02")])
    check("queue: stop_qmgr backs out its unit of work", res[3]["ok"] and res[3]["tag"] == 1)
    res = run(mq(), [put(tag=1), {"op": "stop_qmgr", "qmgr": "QM01"}, put(), get(), {"op": "start_qmgr", "qmgr": "QM01"},
                     get()])
    check("queue: nonpersistent shared messages survive a queue manager stop", res[5]["ok"] and res[5]["tag"] == 1)
    check("queue: ops on a stopped queue manager -> NOT_ACTIVE", res[2]["reason"] == "NOT_ACTIVE"
          and res[3]["reason"] == "NOT_ACTIVE")
    res = run(mq(queues=[Q("LQ1", None, qmgr="QM01")]),
              [put("LQ1", tag=1), put("LQ1", tag=2, persistent=True), {"op": "stop_qmgr", "qmgr": "QM01"},
               {"op": "start_qmgr", "qmgr": "QM01"}, get("LQ1"), get("LQ1")])
    check("queue: nonshared nonpersistent lost at stop, persistent kept (nonshared_at_stop=lost)",
          res[4]["tag"] == 2 and res[5]["reason"] == 2033)
    r = MAIN.apply(put("LQ1", qmgr="QM02"))
    check("queue: nonshared queue not visible to another queue manager -> 14", r["type"] == "error" and r["code"] == 14)
    res = run(mq(queues=[Q(maxmsgl=1000)]), [put(length=1000), put(length=1001)])
    check("queue: 2030 only when length > MAXMSGL", res[0]["ok"] and res[1]["reason"] == 2030)
    res = run(mq(), [{"op": "start_qmgr", "qmgr": "QM01"}, {"op": "stop_qmgr", "qmgr": "QM02"},
                     {"op": "stop_qmgr", "qmgr": "QM02"}, INSPECT])
    check("queue: start of an active QM refused, stop of stopped refused",
          res[0]["reason"] == "NOT_ALLOWED" and res[1]["ok"] and res[2]["reason"] == "NOT_ACTIVE"
          and last_inspect(res)["qmgrs"]["QM02"]["active"] is False)


# ============================================================ CFLEVEL
def t_cflevel():
    res = run(mq([S(cflevel=2, recover=True)]), [put(persistent=True), put()])
    check("cflevel: persistent on CFLEVEL(2) -> 2048", res[0]["reason"] == 2048 and res[1]["ok"])
    res = run(mq([S(cflevel=3, recover=False)]), [put(persistent=True)])
    check("cflevel: persistent on RECOVER(NO) -> 2048", res[0]["reason"] == 2048)
    res = run(mq([S(cflevel=3, recover=True)]), [put(persistent=True)])
    check("cflevel: persistent on CFLEVEL(3) RECOVER(YES) ok", res[0]["ok"])
    res = run(mq([S(cflevel=3)]), [put(length=64512), put(length=64513)])
    check("cflevel: CFLEVEL(3) 63 KB ok, above -> 2366", res[0]["ok"] and res[1]["reason"] == 2366)
    res = run(mq([S(cflevel=1)]), [put(length=64513)])
    check("cflevel: CFLEVEL(1) above 63 KB -> 2366", res[0]["reason"] == 2366)
    res = run(mq([S(cflevel=3)], [Q(maxmsgl=64000)]), [put(length=70000)])
    check("cflevel: MAXMSGL smaller than 63 KB -> 2030 first", res[0]["reason"] == 2030)
    res = run(mq([S(cflevel=4)]), [put(length=70000), put(length=104857600, tag=2)])
    check("cflevel: CFLEVEL(4) large message kept in Db2", res[0]["ok"] and res[0]["location"] == "DB2"
          and res[0]["offloaded"] is True)
    check("cflevel: 100 MB above MAXMSGL default -> 2030", res[1]["reason"] == 2030)
    res = run(mq([S(cflevel=4)], [Q(maxmsgl=104857600)]), [put(length=104857600)])
    check("cflevel: CFLEVEL(4) up to 100 MB", res[0]["ok"])
    res = run(mq([S(cflevel=5)]), [put(length=70000)])
    check("cflevel: CFLEVEL(5) large message to SMDS (default)", res[0]["location"] == "SMDS")
    res = run(mq(), [{"op": "define_structure", "structure": S("APP2", cflevel=4, offload="SMDS")},
                     {"op": "define_structure", "structure": S("APP3", cflevel=6)},
                     {"op": "define_structure", "structure": S("APP4", cflevel=0)},
                     {"op": "define_structure", "structure": S("APP5", cflevel=2, recover=True)},
                     {"op": "define_structure", "structure": S("APP6", cflevel=5, offload="DB2")},
                     {"op": "define_structure", "structure": S("APP6")}])
    check("cflevel: DEFINE OFFLOAD below CFLEVEL(5) INVALID", res[0]["reason"] == "INVALID")
    check("cflevel: DEFINE CFLEVEL 6 / 0 INVALID", res[1]["reason"] == "INVALID" and res[2]["reason"] == "INVALID")
    check("cflevel: DEFINE RECOVER(YES) CFLEVEL(2) INVALID", res[3]["reason"] == "INVALID")
    check("cflevel: DEFINE CFLEVEL(5) OFFLOAD(DB2) ok; duplicate INVALID", res[4]["ok"] and res[5]["reason"] == "INVALID")
    alt = lambda **ch: {"op": "alter_structure", "name": "APP1", "changes": ch}
    res = run(mq([S(cflevel=4)]), [put(), alt(cflevel=3), get(), alt(cflevel=3), INSPECT])
    check("cflevel: decrease from 4 refused while the queue holds messages", res[1]["reason"] == "NOT_ALLOWED")
    check("cflevel: decrease allowed once empty", res[3]["ok"])
    res = run(mq([S(cflevel=4)]), [put(), get(syncpoint=True), alt(cflevel=3), {"op": "commit", "qmgr": "QM01"},
                                   alt(cflevel=3)])
    check("cflevel: decrease refused with uncommitted activity", res[2]["reason"] == "NOT_ALLOWED" and res[4]["ok"])
    res = run(mq([S(cflevel=5)]), [put(), alt(cflevel=4)])
    check("cflevel: decrease from 5 guarded (cflevel5_decrease=guarded)", res[1]["reason"] == "NOT_ALLOWED")
    res = run(mq([S(cflevel=4)]), [alt(offload="SMDS"), alt(cflevel=5), put(length=70000)])
    check("cflevel: ALTER OFFLOAD at CFLEVEL(4) INVALID", res[0]["reason"] == "INVALID")
    check("cflevel: raise to 5 -> OFFLOAD(SMDS) default", res[1]["ok"] and res[2]["location"] == "SMDS")
    res = run(mq([S(cflevel=3, recover=True)]), [alt(cflevel=2)])
    check("cflevel: RECOVER(YES) structure cannot go below 3", res[0]["reason"] == "INVALID")
    ok, _ = opened(mq([S(cflevel=4, offload="SMDS")]))
    check("cflevel: config with OFFLOAD kept at CFLEVEL 4 accepted (a state)", ok)
    res = run(mq([S(cflevel=4, offload="SMDS")]), [put(length=70000)])
    check("cflevel: OFFLOAD kept at CFLEVEL 4 unused -> Db2", res[0]["location"] == "DB2")


# ============================================================ OFFLOAD
def t_offload():
    L5 = [S(size_kb=1024, cflevel=5)]
    res = run(mq(L5), exact70() + [put(length=40000)])
    check("offload: exactly 70% is not 'more than 70% full'", res[-1]["offloaded"] is False, res[-1])
    res = run(mq(L5), fill70() + [put(length=40000), put(length=32768), put(length=32769)])
    check("offload: more than 70% full, > 32 KB -> offloaded", res[7]["offloaded"] is True and res[7]["location"] == "SMDS")
    check("offload: exactly 32 KB does not exceed 32 KB", res[8]["offloaded"] is False)
    check("offload: 32 KB + 1 offloaded", res[9]["offloaded"] is True)
    u0, u1 = res[6]["usage"], res[7]["usage"]
    check("offload: offloaded message costs an entry + 512 bytes (0.75 KB)",
          u1[0] - u0[0] == 1 and (u1[2] - u0[2]) * 256 == 512)
    res = run(mq([S(size_kb=1024, cflevel=5, offld1sz=65536)]), fill70() + [put(length=40000)])
    check("offload: OFFLD1SZ(64K) rule not in effect", res[-1]["offloaded"] is False)
    res = run(mq([S(cflevel=5)]), [put(length=64512), put(length=64513)])
    check("offload: > 63 KB always offloaded, 63 KB kept (low usage)", res[0]["offloaded"] is False
          and res[1]["offloaded"] is True)
    res = run(mq([S(cflevel=5, offld1sz=65536, offld2sz=65536, offld3sz=65536)]), [put(length=70000)])
    check("offload: all rules off, > 63 KB still offloaded", res[0]["offloaded"] is True)
    res = run(mq([S(cflevel=5)]), [put(length=40000), put(length=5000)])
    check("offload: size alone does not offload (APAR PI21909)", not res[0]["offloaded"] and not res[1]["offloaded"])
    # rule 2: > 80% full and > 4 KB; rule 3: > 90% and > 0
    L4 = [S(size_kb=1024, cflevel=4)]
    up = {"op": "alter_structure", "name": "APP1", "changes": {"cflevel": 5}}
    res = run(mq(L4), fill70(8) + [up, put(length=5000), put(length=4096)])     # 8x254=2032 = 80.6%
    check("offload: rule 2 (more than 80%, exceeding 4 KB)", res[9]["offloaded"] is True and res[10]["offloaded"] is False)
    res = run(mq(L4), fill70(9) + [up, put(length=1), put(length=0)])           # 9x254=2286 = 90.7%
    check("offload: rule 3 (more than 90%, exceeding 0 KB)", res[-2]["offloaded"] is True and res[-1]["offloaded"] is False)
    res = run(mq(L4), fill70(8) + [up, put(length=1)])
    check("offload: rule 3 not before 90%", res[-1]["offloaded"] is False)
    res = run(mq(L5), fill70(7) + [put(length=10000)])
    check("offload: threshold of rule 1 not combined with size of rule 2", res[-1]["offloaded"] is False)
    res = run(mq([S(size_kb=1024, cflevel=5, offload="DB2")]), fill70() + [put(length=40000)])
    check("offload: OFFLOAD(DB2) -> location DB2", res[-1]["location"] == "DB2")
    res = run(mq([S(size_kb=1024, cflevel=5, offld1sz=65536, offld2sz=65536)]),
              [{"op": "alter_structure", "name": "APP1", "changes": {"offld3th": 95}}] + fill70() +
              [put(length=40000)])
    check("offload: ALTER leaves unnamed keywords unchanged", res[0]["ok"] and res[-1]["offloaded"] is False)
    res = run(mq([S(size_kb=1024, cflevel=5)]),
              [{"op": "alter_structure", "name": "APP1", "changes": {"offld1th": 0}}, put(length=40000)])
    check("offload: OFFLD1TH(0) offloads > 32 KB at once", res[1]["offloaded"] is True)
    res = run(mq([S(cflevel=5)]), [{"op": "alter_structure", "name": "APP1", "changes": {"offld1sz": 70000}},
                                   {"op": "alter_structure", "name": "APP1", "changes": {"offld1th": 101}}])
    check("offload: OFFLDnSZ > 64K / TH > 100 INVALID", res[0]["reason"] == "INVALID" and res[1]["reason"] == "INVALID")
    # capacity example: 1,000,000 offloaded messages need about 0.75 GB
    import impl
    per = impl.ENTRY_BYTES + impl.OFFLOADED_ELEMENTS * impl.ELEMENT_BYTES
    check("offload: 0.75 KB per offloaded message; 1M of them = 768 MB = 18.75% of 4 GB",
          per == 768 and (2 ** 20) * per == 768 * 2 ** 20 and (2 ** 20) * per / (4 * 2 ** 30) == 0.1875)


# =========================================================== CAPACITY
def t_capacity():
    res = run(mq([S(size_kb=1024, fullthreshold=80)]), fill70() + [put(length=60416)])
    check("capacity: IXC585E when usage reaches FULLTHRESHOLD", sigs(res[-1]) == ["IXC585E APP1"]
          and 100 * res[-1]["usage"][2] == 80 * res[-1]["usage"][3])
    R255 = [S(size_kb=1024, ratio=255)]
    res = run(mq(R255), [put(length=0, tag=i) for i in range(9)] + [get(), get()])
    check("capacity: entries reaching FULLTHRESHOLD -> IXC585E", sigs(res[8]) == ["IXC585E APP1"]
          and sigs(res[7]) == [])
    check("capacity: IXC586I when back below", sigs(res[9]) == ["IXC586I APP1"] and sigs(res[10]) == [])
    res = run(mq(R255), [put(length=0, tag=i) for i in range(12)] + [INSPECT])
    check("capacity: full (all entries in use) -> 2192 MQRC_STORAGE_MEDIUM_FULL",
          res[10]["ok"] and res[11]["reason"] == 2192 and last_inspect(res)["structures"]["APP1"]["full_warning"])
    res = run(mq([S(size_kb=1024, ratio=1)]), [put(length=64512, tag=i) for i in range(6)])
    check("capacity: full when elements run out", res[4]["ok"] and res[5]["reason"] == 2192, [r.get("reason") for r in res])
    res = run(mq([S(size_kb=1024, ratio=255, fullthreshold=0)]), [put(length=0, tag=i) for i in range(11)])
    check("capacity: FULLTHRESHOLD(0) disables monitoring", all(not o.get("signals") for o in res))
    ok, r = opened(mq([S(fullthreshold=101)]))
    check("capacity: FULLTHRESHOLD 101 refused", not ok and r["code"] == 13)
    res = run(cqs([S(size_kb=1024, ratio=255)]), [cput("Q1", 0) for _ in range(9)])
    check("capacity: IXC585E in the cqs profile too", sigs(res[8]) == ["IXC585E APP1"])


# ============================================================= SIZING
def t_sizing():
    sx = lambda kb: {"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": kb}
    res = run(mq([S(size_kb=8192, initsize_kb=4096)]), [INSPECT, sx(9000), sx(6000), sx(8192), sx(2048), INSPECT])
    v0 = res[0]["value"]["structures"]["APP1"]
    check("sizing: allocated at INITSIZE", v0["size_kb"] == 4096)
    check("sizing: SETXCF ALTER above SIZE -> OUT_OF_RANGE", res[1]["reason"] == "OUT_OF_RANGE")
    check("sizing: SETXCF ALTER between current and SIZE", res[2]["ok"] and res[2]["usage"][1] > v0["entries_total"])
    check("sizing: ALTER to exactly SIZE accepted (alter_at_size)", res[3]["ok"])
    check("sizing: ALTER below INITSIZE accepted (alter_below_initsize)", res[4]["ok"]
          and last_inspect(res)["structures"]["APP1"]["size_kb"] == 2048)
    res = run(mq([S(size_kb=8192, cflevel=4)]), [put(length=64512, tag=i) for i in range(20)] + [sx(1024)])
    check("sizing: ALTER cannot shrink below the storage in use", res[-1]["reason"] == "OUT_OF_RANGE")
    res = run(mq(qmgrs=("QM01",)), [INSPECT])
    a = last_inspect(res)["admin"]
    check("sizing: CSQ_ADMIN 1 QM = 6144 KB (Table 1)", a["size_kb"] == 6144 and a["entries_total"] >= 1000)
    res = run(mq(qmgrs=("QM01", "QM02", "QM03")), [INSPECT])
    check("sizing: CSQ_ADMIN 3 QMs = 7976 KB", last_inspect(res)["admin"]["size_kb"] == 7976)
    qms = ["Q%03d" % i for i in range(31)]
    res = run(mq(qmgrs=qms, qsg="QSG1"), [INSPECT])
    a = last_inspect(res)["admin"]
    check("sizing: CSQ_ADMIN 31 QMs = 32256 KB, >= 1000 entries each", a["size_kb"] == 32256
          and a["entries_total"] >= 31000)
    ok, r = opened(mq(admin_size_kb=6144))
    check("sizing: CSQ_ADMIN below Table 1 minimum refused", not ok and r["code"] == 13)
    res = run(mq(admin_size_kb=20000), [INSPECT])
    check("sizing: a larger CSQ_ADMIN accepted", last_inspect(res)["admin"]["size_kb"] == 20000)
    res = run(mq(qmgrs=("QM01",), admin_table="cfcc9"), [INSPECT])
    check("sizing: V6 (CFCC 9) edition of Table 1", last_inspect(res)["admin"]["size_kb"] == 2560)
    # Table 2 consistency: structures of the table's size hold the table's messages
    for n, size, mb in ((100, 64512, 14), (1000, 1024, 8), (1000, 64512, 88), (10000, 1024, 25), (10000, 4096, 64)):
        MAIN.open(mq([S(size_kb=mb * 1024, cflevel=4)]))
        ops = [put(length=size, tag=i) for i in range(n)]
        okc = 0
        for i in range(0, n, 1000):
            r = MAIN.batch(ops[i:i + 1000])
            okc += sum(1 for o in r["outcomes"] if o["ok"])
        check("sizing: Table 2: %d messages of %d bytes fit in %d MB" % (n, size, mb), okc == n, okc)
    # 200 000 x 1 KB: more than 256 MB, at most 512 MB (our totals)
    import impl
    e256, _ = impl.struct_totals(256 * 1024, 6)
    e512, l512 = impl.struct_totals(512 * 1024, 6)
    check("sizing: 200 000 x 1 KB needs 256..512 MB", e256 < 200000 <= e512 and l512 >= 200000 * impl.cf_elements(1024))


# =========================================================== TOPOLOGY
def t_topology():
    refuse = [
        ("QSG of five characters", mq(qsg="QSG12")),
        ("QSG equal to a QM name", mq(qsg="QM01")),
        ("64 application structures", mq(structures=[S("APP%d" % i) for i in range(64)], queues=[])),
        ("64 with CSQSYSAPPL", mq(structures=[S("APP%d" % i) for i in range(63)] + [S("CSQSYSAPPL")], queues=[])),
        ("513 queues on one structure", mq(queues=[Q("Q%03d" % i) for i in range(513)])),
        ("structure name of 13", mq([S("APPLICATION12")], [])),
        ("structure name starting with a digit", mq([S("1APP")], [])),
        ("CFLEVEL 0", mq([S(cflevel=0)])), ("CFLEVEL 6", mq([S(cflevel=6)])),
        ("FULLTHRESHOLD 101", mq([S(fullthreshold=101)])),
        ("QDEPTHHI 101", mq(queues=[Q(qdepthhi=101)])),
        ("MAXDEPTH 1 000 000 000", mq(queues=[Q(maxdepth=1000000000)])),
        ("33 queue managers", mq(qmgrs=["QM%02d" % i for i in range(33)])),
        ("CSQ_ADMIN as a structure", mq([S("CSQ_ADMIN")], [])),
    ]
    for name, cfg in refuse:
        ok, r = opened(cfg)
        check("topology: refuse %s" % name, not ok and r["code"] == 13 and r["definite"], r.get("text"))
    accept = [
        ("63 application structures", mq(structures=[S("APP%d" % i) for i in range(63)], queues=[])),
        ("62 + CSQSYSAPPL", mq(structures=[S("APP%d" % i) for i in range(62)] + [S("CSQSYSAPPL")], queues=[])),
        ("512 queues", mq(queues=[Q("Q%03d" % i) for i in range(512)])),
        ("12-character name", mq([S("APPLICATION1")], [])),
        ("no application structure yet", mq([], [])),
        ("32 queue managers", mq(qmgrs=["QM%02d" % i for i in range(32)])),
        ("QSG of 4", mq(qsg="ABCD")),
    ]
    for name, cfg in accept:
        ok, r = opened(cfg)
        check("topology: accept %s" % name, ok, r.get("text"))
    res = run(mq(qsg="QS"), [INSPECT])
    check("topology: CFRM name pads the QSG with @", last_inspect(res)["structures"]["APP1"]["cfname"] == "QS@@APP1")
    res = run(mq(qsg="SQ03", structures=[S("MYDATA")], queues=[]), [INSPECT])
    check("topology: CFSTRUCT(MYDATA) in SQ03 -> SQ03MYDATA", last_inspect(res)["structures"]["MYDATA"]["cfname"] == "SQ03MYDATA")
    res = run(mq(queues=[Q("Q%03d" % i) for i in range(512)]), [{"op": "define_queue", "queue": Q("QX")},
                                                              {"op": "define_queue", "queue": Q("QY", None, qmgr="QM01")}])
    check("topology: DEFINE of the 513th queue INVALID, nonshared still ok", res[0]["reason"] == "INVALID" and res[1]["ok"])
    res = run(mq(structures=[S("APP%d" % i) for i in range(63)], queues=[]),
              [{"op": "define_structure", "structure": S("APPX")}])
    check("topology: DEFINE of a 64th structure INVALID", res[0]["reason"] == "INVALID")
    res = run(mq([], []), [{"op": "define_structure", "structure": S("APP1")},
                           {"op": "define_queue", "queue": Q("Q1")}, put(tag=5), get(qmgr="QM02")])
    check("topology: define structure + queue then use", all(o["ok"] for o in res) and res[3]["tag"] == 5)


# ============================================================= QDEPTH
def t_qdepth():
    QHI = [Q(maxdepth=10, qdphiev=True)]
    res = run(mq(queues=QHI, qmgrs=("QM01", "QM02", "QM03")), [put(tag=i) for i in range(8)] + [INSPECT])
    evs = res[7].get("events", [])
    check("qdepth: no event below the high limit", all(not o.get("events") for o in res[:7]))
    check("qdepth: Queue Depth High at depth >= limit, from every active QM",
          [e["qmgr"] for e in evs] == ["QM01", "QM02", "QM03"] and all(e["kind"] == "QDPHI" for e in evs), evs)
    check("qdepth: one CorrelId from the coordinator", len({e["correl"] for e in evs}) == 1)
    check("qdepth: each QM's own statistics (null event for no activity)",
          [(e["enq"], e["deq"]) for e in evs] == [(8, 0), (0, 0), (0, 0)])
    q = last_inspect(res)["queues"]["Q1"]
    check("qdepth: High disables QDPHIEV, enables QDPLOEV and QDPMAXEV",
          q == {"depth": 8, "qdphiev": False, "qdploev": True, "qdpmaxev": True})
    res = run(mq(queues=QHI), [put(tag=i) for i in range(8)] + [get() for _ in range(6)] + [INSPECT])
    lo = res[13].get("events", [])
    check("qdepth: Queue Depth Low at depth <= limit after High", [e["kind"] for e in lo] == ["QDPLO", "QDPLO"]
          and all(not o.get("events") for o in res[8:13]))
    check("qdepth: statistics reset at each event message", (lo[0]["enq"], lo[0]["deq"]) == (0, 6))
    check("qdepth: Low enables QDPHIEV and QDPMAXEV, disables QDPLOEV",
          last_inspect(res)["queues"]["Q1"] == {"depth": 2, "qdphiev": True, "qdploev": False, "qdpmaxev": True})
    res = run(mq(queues=[Q(maxdepth=2, qdpmaxev=True)]), [put(tag=1), put(tag=2), put(tag=3), put(tag=4), INSPECT])
    check("qdepth: put on a full queue -> 2053 with Queue Full", res[2]["reason"] == 2053
          and [e["kind"] for e in res[2]["events"]] == ["QFULL", "QFULL"])
    check("qdepth: Queue Full disables QDPMAXEV (no second event), enables QDPLOEV, QDPHIEV unchanged",
          res[3]["reason"] == 2053 and not res[3].get("events")
          and last_inspect(res)["queues"]["Q1"] == {"depth": 2, "qdphiev": False, "qdploev": True, "qdpmaxev": False})
    res = run(mq(queues=QHI, perfmev_disabled=["QM01"]), [put(tag=i) for i in range(8)] + [INSPECT])
    check("qdepth: shared switches toggled although the detecting QM is DISABLED",
          last_inspect(res)["queues"]["Q1"]["qdphiev"] is False)
    check("qdepth: DISABLED QM issues no message, others do (event_broadcast=always)",
          [e["qmgr"] for e in res[7].get("events", [])] == ["QM02"])
    res = run(mq(queues=QHI, perfmev_disabled=["QM02"]), [put(tag=i) for i in range(8)])
    check("qdepth: DISABLED other QM issues nothing", [e["qmgr"] for e in res[7]["events"]] == ["QM01"])
    res = run(mq(queues=QHI), [{"op": "stop_qmgr", "qmgr": "QM02"}] + [put(tag=i) for i in range(8)])
    check("qdepth: only active queue managers issue", [e["qmgr"] for e in res[8]["events"]] == ["QM01"])
    LQ = [Q("LQ1", None, qmgr="QM01", maxdepth=10, qdphiev=True)]
    res = run(mq(queues=LQ, perfmev_disabled=["QM01"]),
              [put("LQ1", tag=i) for i in range(8)] + [INSPECT, {"op": "set_perfmev", "qmgr": "QM01", "enabled": True},
                                                     put("LQ1", tag=9), INSPECT])
    check("qdepth: nonshared switches unchanged while PERFMEV DISABLED", not res[7].get("events")
          and last_inspect(res[:9])["queues"]["LQ1"]["qdphiev"] is True)
    check("qdepth: nonshared event once PERFMEV ENABLED (owner only)",
          [e["qmgr"] for e in res[10].get("events", [])] == ["QM01"]
          and last_inspect(res)["queues"]["LQ1"]["qdphiev"] is False)
    res = run(mq(queues=QHI), [put(tag=i) for i in range(3)] + [{"op": "reset_qstats", "qmgr": "QM01", "queue": "Q1"}] +
              [put(tag=i) for i in range(5)])
    check("qdepth: RESET QSTATS restarts the counts", res[8]["events"][0]["enq"] == 5)
    res = run(mq(queues=QHI), [put(tag=i) for i in range(4)] + [put(qmgr="QM02", tag=i) for i in range(4)])
    evs = res[7]["events"]
    check("qdepth: detecting QM first, then the others", [e["qmgr"] for e in evs] == ["QM02", "QM01"]
          and [e["enq"] for e in evs] == [4, 4])
    res = run(mq(queues=[Q(maxdepth=7, qdphiev=True)]), [put(tag=i) for i in range(5)])
    check("qdepth: limit = floor(80% x 7) = 5 (qdepth_percent=floor)", bool(res[4].get("events"))
          and not res[3].get("events"))
    res = run(mq(queues=QHI), [put(tag=i, syncpoint=True) for i in range(8)] + [{"op": "backout", "qmgr": "QM01"}, INSPECT])
    check("qdepth: events outside syncpoint; backout keeps the switches", bool(res[7].get("events"))
          and last_inspect(res)["queues"]["Q1"]["qdphiev"] is False and last_inspect(res)["queues"]["Q1"]["depth"] == 0)
    res = run(mq(queues=QHI), [put(tag=i) for i in range(8)] + [{"op": "stop_qmgr", "qmgr": "QM02"},
                                                                {"op": "alter_queue", "name": "Q1", "changes": {"qdphiev": True}},
                                                                put(tag=9)])
    check("qdepth: ALTER QLOCAL re-enables QDPHIEV; stopped QM silent", res[9]["ok"]
          and [e["qmgr"] for e in res[10]["events"]] == ["QM01"] and res[10]["events"][0]["enq"] == 1)
    res = run(mq(), [{"op": "alter_queue", "name": "Q1", "changes": {"qdepthhi": 101}},
                     {"op": "alter_queue", "name": "Q1", "changes": {"frob": 1}}])
    check("qdepth: ALTER QLOCAL QDEPTHHI(101) INVALID", res[0]["reason"] == "INVALID" and res[1]["reason"] == "INVALID")


# =========================================================== RECOVERY
def t_recovery():
    RS = [S(cflevel=3, recover=True)]
    BK = lambda qm="QM01": {"op": "backup", "qmgr": qm, "cfstruct": "APP1"}
    FAIL = {"op": "fail_structure", "cfstruct": "APP1"}
    REC = lambda purge=False: {"op": "recover", "cfstruct": "APP1", "purge": purge}
    res = run(mq(RS), [put(persistent=True, tag=1), put(tag=2), BK(), put(qmgr="QM02", persistent=True, tag=3),
                       put(persistent=True, tag=4), get(), put(persistent=True, tag=5, syncpoint=True),
                       put(persistent=True, tag=6), get(syncpoint=True), FAIL, INSPECT, put(), get(), REC(), INSPECT,
                       get(), get(), get(), get()])
    check("recovery: backup ok", res[2]["ok"])
    ins = res[10]["value"]
    check("recovery: failed structure status FAILED", ins["structures"]["APP1"]["status"] == "FAILED")
    check("recovery: MQI on a failed structure -> 2373", res[11]["reason"] == 2373 and res[12]["reason"] == 2373)
    check("recovery: RECOVER ok", res[13]["ok"] and last_inspect(res[:15])["structures"]["APP1"]["status"] == "ACTIVE")
    tags = [o.get("tag") for o in res[15:19]]
    check("recovery: committed persistent messages restored, logs of all QMs replayed, nonpersistent and "
          "uncommitted lost", tags == [3, 4, 6, None], tags)
    res = run(mq(RS), [BK(), REC()])
    check("recovery: RECOVER TYPE(NORMAL) on an active structure -> NOT_FAILED", res[1]["reason"] == "NOT_FAILED")
    res = run(mq(RS), [put(persistent=True), REC(True), INSPECT])
    check("recovery: PURGE on an active structure accepted, empties it (recover_purge_nonfailed=accepted)",
          res[1]["ok"] and last_inspect(res)["queues"]["Q1"]["depth"] == 0)
    res = run(mq(RS), [put(persistent=True), BK(), FAIL, REC(True), INSPECT, put(tag=7), get()])
    check("recovery: PURGE after failure -> empty and usable", res[3]["ok"] and
          res[4]["value"]["queues"]["Q1"]["depth"] == 0 and res[6]["tag"] == 7)
    res = run(mq(RS), [put(persistent=True), FAIL, REC()])
    check("recovery: no backup -> NO_BACKUP", res[2]["reason"] == "NO_BACKUP")
    res = run(mq([S(cflevel=3, recover=False)]), [BK(), FAIL, REC()])
    check("recovery: BACKUP/RECOVER need RECOVER(YES)", res[0]["reason"] == "NOT_ALLOWED" and res[2]["reason"] == "NOT_ALLOWED")
    res = run(mq([S(cflevel=2, recover=True)]), [BK()])
    check("recovery: BACKUP needs CFLEVEL(3)", res[0]["reason"] == "NOT_ALLOWED")
    res = run(mq(RS), [{"op": "stop_qmgr", "qmgr": "QM01"}, BK()])
    check("recovery: BACKUP on a stopped QM -> NOT_ACTIVE", res[1]["reason"] == "NOT_ACTIVE")
    res = run(mq(RS, queues=[Q(), Q("LQ", None, qmgr="QM01")]), [put("LQ", tag=1), FAIL, get("LQ")])
    check("recovery: nonshared queues unaffected by a structure failure", res[2]["tag"] == 1)
    res = run(mq([S(cflevel=5, recover=True)]), [BK(), put(length=70000, persistent=True, tag=9), FAIL, REC(), get()])
    check("recovery: offloaded persistent message recovered", res[4]["tag"] == 9)


# ================================================================ CQS
def t_cqs():
    OVS = [S(size_kb=1024, ovflwstr="OVF1")]
    NOVS = [S(size_kb=1024)]
    # alter succeeds when INITSIZE < SIZE
    res = run(cqs([S(size_kb=2048, initsize_kb=768, ovflwstr="OVF1")]), [cput("Q1") for _ in range(10)] + [INSPECT])
    check("cqs: threshold reached -> CQS alters the structure (sync)", sigs(res[9]) == ["ALTER APP1"]
          and last_inspect(res)["structures"]["APP1"]["size_kb"] == 2048
          and not last_inspect(res)["structures"]["APP1"]["overflow_mode"]
          and all(not o.get("signals") for o in res[:9]))
    # alter fails -> overflow; selection
    res = run(cqs(OVS), s1_puts() + [INSPECT])
    v = last_inspect(res)["structures"]["APP1"]
    check("cqs: alter fails -> overflow mode, most-space queue selected",
          sigs(res[14]) == ["ALTER APP1", "OVERFLOW_ON APP1", "OVERFLOW_QUEUE APP1 Q1"]
          and all(not o.get("signals") for o in res[:14]))
    check("cqs: selection stops once usage is 20% below the threshold (<= 56%)",
          v["overflow_queues"] == ["Q1"] and v["elements_used"] * 100 <= 56 * v["elements_total"])
    check("cqs: approved queue's data moved to the overflow structure", v["elements_used"] == 854)
    res = run(cqs(OVS, overflow_exit=["Q1"]), s1_puts() + [INSPECT])
    check("cqs: exit veto -> next candidate", last_inspect(res)["structures"]["APP1"]["overflow_queues"] == ["Q2"])
    res = run(cqs(OVS, overflow_exit=["Q1", "Q2", "Q3"]), s1_puts() + [INSPECT])
    check("cqs: every candidate vetoed -> overflow ends (cqs_empty_overflow=ends)",
          sigs(res[14]) == ["ALTER APP1", "OVERFLOW_OFF APP1", "OVERFLOW_ON APP1"]
          and not last_inspect(res)["structures"]["APP1"]["overflow_mode"])
    res = run(cqs(OVS), [{"op": "set_overflow_exit", "vetoes": ["Q1"]}] + s1_puts() + [INSPECT])
    check("cqs: set_overflow_exit installs an exit", last_inspect(res)["structures"]["APP1"]["overflow_queues"] == ["Q2"])
    res = run(cqs(OVS, overflow_exit=["Q1"]), [{"op": "set_overflow_exit"}] + s1_puts() + [INSPECT])
    check("cqs: set_overflow_exit null removes it", last_inspect(res)["structures"]["APP1"]["overflow_queues"] == ["Q1"])
    # with overflow structure: puts to the overflow queue go to the overflow structure
    res = run(cqs(OVS), s1_puts() + [cput("Q1"), cget("Q1"), INSPECT])
    check("cqs: CQSPUT to an overflow queue accepted, primary unchanged", res[15]["ok"]
          and res[15]["usage"][2] == 854 and res[16]["tag"] == 0)
    # scan
    ops = s1_puts() + [cget("Q1") for _ in range(8)] + [INSPECT, clock(899), clock(1), INSPECT]
    res = run(cqs(OVS), ops)
    check("cqs: empty queue stays in overflow until the scan", res[23]["value"]["structures"]["APP1"]["overflow_queues"] == ["Q1"])
    check("cqs: no scan before 15 minutes", not res[24].get("signals"))
    check("cqs: scan at 15 minutes returns the empty queue and ends overflow",
          sigs(res[25]) == ["OVERFLOW_OFF APP1", "OVERFLOW_QUEUE_OFF APP1 Q1"]
          and not last_inspect(res)["structures"]["APP1"]["overflow_mode"]
          and last_inspect(res)["queues"]["Q1"]["overflow"] is False)
    res = run(cqs(OVS), s1_puts() + [clock(900), cget("Q1"), clock(1800), INSPECT])
    check("cqs: non-empty queue stays in overflow at the scan", not res[15].get("signals") and not res[17].get("signals")
          and last_inspect(res)["queues"]["Q1"]["overflow"] is True)
    res = run(cqs(OVS), [clock(300)] + s1_puts() + [cget("Q1") for _ in range(8)] + [clock(600)])
    check("cqs: scan anchored on the clock (cqs_scan_anchor=clock)",
          sigs(res[-1]) == ["OVERFLOW_OFF APP1", "OVERFLOW_QUEUE_OFF APP1 Q1"])
    # no overflow structure
    res = run(cqs(NOVS), s1_puts() + [cput("Q1"), cput("Q2"), cget("Q1"), INSPECT])
    check("cqs: no OVFLWSTR -> CQSPUT to approved queue rejected", res[15]["reason"] == "REJECTED_OVERFLOW")
    check("cqs: other queues still accept puts, gets allowed", res[16]["ok"] and res[17]["ok"])
    res = run(cqs(NOVS), s1_puts() + [cget("Q2"), cget("Q2"), cget("Q2"), cget("Q2"), INSPECT])
    # 1830 - 4x122 = 1342 <= 1411 (56% of 2520); 3 gets -> 1464 > 1411
    check("cqs: no OVFLWSTR -> overflow ends at the CQSDEL 20% below (relative, at-delete)",
          not res[17].get("signals") and sigs(res[18]) == ["OVERFLOW_OFF APP1"]
          and last_inspect(res)["queues"]["Q1"]["overflow"] is False)
    res = run(cqs(OVS), s1_puts() + [cput("Q2", 30632, 40 + i) for i in range(8)] + [INSPECT])
    check("cqs: reaching OVFLWMAX again in overflow mode selects again (cqs_reselect=select)",
          all(not o.get("signals") for o in res[15:22]) and sigs(res[22]) == ["OVERFLOW_QUEUE APP1 Q2"]
          and last_inspect(res)["structures"]["APP1"]["overflow_queues"] == ["Q1", "Q2"], sigs(res[22]))
    res = run(cqs(NOVS), s1_puts() + [cput("Q3"), INSPECT])
    check("cqs: no OVFLWSTR: reselect counts selected queues' space as relieved", res[15]["ok"]
          and not res[15].get("signals") and last_inspect(res)["structures"]["APP1"]["overflow_queues"] == ["Q1"])
    # large messages and staging
    res = run(cqs(OVS), [cput("Q1", 61264), cput("Q1", 30632), cput("Q1", 30633), INSPECT])
    v = last_inspect(res)["structures"]["APP1"]
    check("cqs: messages longer than LGMSGSZ split; parts 2.. on the staging queue",
          v["staging_depth"] == 2 and res[0]["usage"][0] == 2 and res[1]["usage"][0] == 3)
    res = run(cqs(OVS), [cput("Q1", 61264, i) for i in range(7)] + [cput("Q2"), INSPECT])
    v = last_inspect(res)["structures"]["APP1"]
    check("cqs: only first parts move; staging parts stay on the primary",
          v["overflow_queues"] == ["Q1"] and v["staging_depth"] == 7 and v["elements_used"] == 7 * 122 + 122)
    res = run(cqs(OVS), [cput("Q1", 61264, i) for i in range(3)] + [cput("Q2", 30632, 10 + i) for i in range(5)] +
              [cput("Q3", 30632, 20 + i) for i in range(4)] + [INSPECT])
    check("cqs: staging queue not counted as a queue's space", last_inspect(res)["structures"]["APP1"]["overflow_queues"] == ["Q2"])
    res = run(cqs(OVS), [cput("Q1", 61264), cget("Q1"), INSPECT])
    check("cqs: CQSDEL removes the staging parts too", last_inspect(res)["structures"]["APP1"]["staging_depth"] == 0
          and res[1]["usage"][2] == 0)
    # resource structures, OVFLWMAX
    res = run(cqs([S(size_kb=1024, resource=True)]), s1_puts() + [INSPECT])
    check("cqs: no overflow for resource structures", all(not o.get("signals") for o in res[:15])
          and not last_inspect(res)["structures"]["APP1"]["overflow_mode"])
    ok, r = opened(cqs([S(size_kb=1024, resource=True, ovflwstr="OVF1")]))
    check("cqs: OVFLWSTR on a resource structure refused", not ok and r["code"] == 13)
    res = run(cqs([S(size_kb=1024, ovflwstr="OVF1", ovflwmax=50)]), [cput("Q1") for _ in range(11)])
    check("cqs: OVFLWMAX(50) honoured", "OVERFLOW_ON APP1" in sigs(res[10]) and not res[9].get("signals"))
    res = run(cqs(OVS), [cput("Q1") for _ in range(14)] + [cput("Q2", 13824)])
    check("cqs: exactly at the threshold starts overflow processing ('reaches')", "ALTER APP1" in sigs(res[14]))
    res = run(cqs(OVS), [cput("Q1") for _ in range(14)] + [cput("Q2", 13823 - 256)])
    check("cqs: just below the threshold nothing", not res[14].get("signals"))
    ok, r = opened(cqs([S(size_kb=1024, ovflwmax=101)]))
    check("cqs: OVFLWMAX 101 refused", not ok and r["code"] == 13)
    res = run(cqs(OVS), [{"op": "alter_outcome", "cfstruct": "APP1", "success": False}])
    check("cqs: alter_outcome with nothing pending (cqs_alter=sync)", res[0]["reason"] == "NO_ALTER_PENDING")
    for op in ({"op": "backup", "qmgr": "CQS1", "cfstruct": "APP1"}, {"op": "commit", "qmgr": "CQS1"},
               {"op": "alter_structure", "name": "APP1", "changes": {}}):
        r = MAIN.apply(op)
        check("cqs: mq-only op %s -> 14" % op["op"], r["type"] == "error" and r["code"] == 14)
    res = run(cqs(OVS), [cget("Q1")])
    check("cqs: empty CQSREAD -> NO_MSG", res[0]["reason"] == "NO_MSG")
    res = run(cqs(OVS), s1_puts() + [{"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 2048}])
    check("cqs: SETXCF above SIZE refused", res[15]["reason"] == "OUT_OF_RANGE")
    res = run(cqs([S(size_kb=2048, initsize_kb=1024)]), s1_puts() + [INSPECT])
    check("cqs: CQS alter from INITSIZE to SIZE", "ALTER APP1" in sigs(res[14])
          and last_inspect(res)["structures"]["APP1"]["size_kb"] == 2048)
    res = run(cqs(NOVS), [cput("Q1") for _ in range(11)] + [{"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 1024}])
    check("cqs: operator SETXCF ALTER (to SIZE) accepted", res[-1]["ok"])
    res = run(cqs([S(size_kb=1024, initsize_kb=512)]), [cput("Q1") for _ in range(5)] + [INSPECT])
    check("cqs: CQS alter grows a small INITSIZE", res[-1]["value"]["structures"]["APP1"]["size_kb"] in (512, 1024))
    res = run(cqs(NOVS), s1_puts() + [{"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 1024}])
    check("cqs: SETXCF to the same size leaves overflow mode on", res[-1]["ok"] and not res[-1].get("signals"))


def main():
    global MAIN
    t0 = time.time()
    MAIN = client()
    MAIN.init()
    for t in (t_protocol, t_queue, t_cflevel, t_offload, t_capacity, t_sizing, t_topology, t_qdepth, t_recovery, t_cqs):
        try:
            t()
        except Exception as e:  # a crash of a test group is a failure, not an abort
            import traceback
            traceback.print_exc()
            check("%s completed" % t.__name__, False, repr(e))
    rep, rc = MAIN.close()
    check("main connection: close_ok + exit 0", rep and rep["type"] == "close_ok" and rc == 0)
    serr = [e for c in CLIENTS for e in c.schema_errors]
    check("every reply validated against the JSON Schemas", not serr, serr[:3])
    p = sum(1 for r in RESULTS if r[1])
    f = len(RESULTS) - p
    print("(%.1f s)" % (time.time() - t0))
    print("%d passed, %d failed" % (p, f))
    return 0 if f == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
