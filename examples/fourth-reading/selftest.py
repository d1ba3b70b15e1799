#!/usr/bin/env python3
"""selftest.py: scenarios taken from IBM's worked examples and rules, driven
over the wire against impl.py.  Prints PASS/FAIL per check; exit 1 on a failure.

    python3 selftest.py            run every check
    python3 selftest.py -k WORD    only the groups whose name contains WORD
    python3 selftest.py --faults   also run faultcheck.py (every fault differs)
"""
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wire import Client  # noqa: E402

RESULTS = []


def check(name, cond, detail=""):
    RESULTS.append((name, bool(cond)))
    print("%s %s%s" % ("PASS" if cond else "FAIL", name, "" if cond else "  -- %s" % (detail,)))


# ---------------------------------------------------------------- builders
def st(name="APP1", **kw):
    d = {"name": name, "size_kb": 8192, "initsize_kb": None, "fullthreshold": 80, "ratio": 6,
         "cflevel": 3, "recover": False, "offload": None, "offld1th": 70, "offld1sz": 32768,
         "offld2th": 80, "offld2sz": 4096, "offld3th": 90, "offld3sz": 0, "ovflwmax": None,
         "ovflwstr": None, "ovflw_size_kb": 8192, "resource": False}
    d.update(kw)
    return d


def qu(name="Q1", cfstruct="APP1", **kw):
    d = {"name": name, "cfstruct": cfstruct}
    d.update(kw)
    return d


def cfg(profile="mq", structures=None, queues=None, qmgrs=None, **kw):
    d = {"profile": profile, "qsg": "QSG1", "qmgrs": qmgrs or ["QM01", "QM02", "QM03"],
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


def sigs(o):
    return sorted(o.get("signals", []))


def batch_outcomes(c, ops):
    rep = c.batch(ops)
    assert rep["type"] == "batch_ok" and "error" not in rep and len(rep["outcomes"]) == len(ops), rep
    return rep["outcomes"]


# ================================================================ protocol
def g_protocol():
    c = Client(init=False)
    r = c.request({"type": "apply", "op": {"op": "inspect"}})
    check("protocol: request before init -> error 15", r["type"] == "error" and r["code"] == 15)
    r = c.request({"type": "init", "protocol_version": "1.2", "suite": "t", "max_line_bytes": 1048576})
    check("protocol: init_ok announces 1.2", r["type"] == "init_ok" and r["protocol_version"] == "1.2")
    caps = r["capabilities"]
    check("protocol: no readings declared, reason_codes exact",
          "readings" not in caps and caps["reason_codes"] == "exact")
    check("protocol: both profiles, all nine families, all observables",
          caps["profiles"] == ["mq", "cqs"] and len(caps["families"]) == 9 and len(caps["observes"]) == 4)
    r = c.request({"type": "init", "protocol_version": "1.2"})
    check("protocol: second init -> error 15", r["type"] == "error" and r["code"] == 15)
    r = c.request({"type": "apply", "op": {"op": "inspect"}})
    check("protocol: apply before open -> error 15", r["type"] == "error" and r["code"] == 15)
    r = c.send_raw(b"this is not json\n")
    check("protocol: not JSON -> error 11 in_reply_to null",
          r["type"] == "error" and r["code"] == 11 and r["in_reply_to"] is None)
    r = c.send_raw(b'{"type":"apply"}\n')
    check("protocol: no msg_id -> error 11 in_reply_to null",
          r["type"] == "error" and r["code"] == 11 and r["in_reply_to"] is None)
    r = c.request({"type": "frobnicate"})
    check("protocol: unknown message type -> definite error 11",
          r["type"] == "error" and r["code"] == 11 and r["definite"] is True)
    r = c.open(cfg(profile="ims"))
    check("protocol: unimplemented profile -> error 10", r["type"] == "error" and r["code"] == 10)
    r = c.open(cfg(bogus=1))
    check("protocol: unknown config field -> error 13", r["type"] == "error" and r["code"] == 13)
    r = c.request({"type": "apply", "op": {"op": "inspect"}})
    check("protocol: failed open leaves it unopened (15)", r["type"] == "error" and r["code"] == 15)
    r = c.open(cfg(structures=[st(cflevel=9)]))
    check("protocol: invalid structure in config -> 13 naming the field",
          r["type"] == "error" and r["code"] == 13 and "cflevel" in json.dumps(r.get("detail")))
    r = c.open(cfg())
    check("protocol: open_ok", r["type"] == "open_ok")
    o = c.apply({"op": "frob"})
    check("protocol: unknown op kind -> error 11", o.get("error") == 11)
    o = c.apply({"op": "put", "qmgr": "QM01", "queue": "Q1"})
    check("protocol: missing field -> error 11", o.get("error") == 11)
    o = c.apply({"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 1, "colour": "red"})
    check("protocol: unknown op field -> error 11", o.get("error") == 11)
    o = c.apply({"op": "put", "qmgr": "QM01", "queue": "Q1", "length": "1"})
    check("protocol: mistyped field -> error 11", o.get("error") == 11)
    o = c.apply(put(q="NOPE"))
    check("protocol: unknown queue -> definite error 14", o.get("error") == 14 and o["definite"])
    o = c.apply(put(qm="QM09"))
    check("protocol: unknown qmgr -> error 14", o.get("error") == 14)
    o = c.apply({"op": "set_overflow_exit", "vetoes": None})
    check("protocol: CQS-only op in the mq profile -> error 14", o.get("error") == 14)
    o = c.apply(put(length=-1))
    check("protocol: negative length -> error 14", o.get("error") == 14)
    # batch stopping at an error
    rep = c.batch([put(tag=1), put(tag=2), put(q="NOPE"), put(tag=3)])
    check("protocol: batch error at op k keeps the prefix",
          rep["type"] == "batch_ok" and len(rep["outcomes"]) == 2 and rep["error"]["code"] == 14)
    v = c.inspect()
    check("protocol: ops after the failing one were not applied", v["queues"]["Q1"]["depth"] == 2,
          v["queues"]["Q1"])
    rep = c.batch([])
    check("protocol: empty batch -> error 11", rep["type"] == "error" and rep["code"] == 11)
    r = c.open(cfg())
    v = c.inspect()
    check("protocol: open resets everything", r["type"] == "open_ok" and v["queues"]["Q1"]["depth"] == 0)
    check("protocol: inspect keys are sorted",
          list(v) == sorted(v) and list(v["structures"]["APP1"]) == sorted(v["structures"]["APP1"]))
    big = json.dumps({"type": "apply", "msg_id": 999, "op": {"op": "inspect"}, "pad": "x" * 1100000})
    r = c.send_raw(big + "\n")
    check("protocol: over-long line -> error 17", r["type"] == "error" and r["code"] == 17)
    o = c.apply({"op": "inspect"})
    check("protocol: survives the long line", o.get("kind") == "inspect")
    rep, rc, extra = c.close()
    check("protocol: close_ok then exit 0 with nothing more on stdout",
          rep and rep["type"] == "close_ok" and rc == 0 and extra == b"")
    check("protocol: every reply matched its JSON Schema", not c.schema_problems, c.schema_problems)
    c2 = Client(init=False)
    r = c2.request({"type": "init", "protocol_version": "2.0"})
    check("protocol: other major version -> error 16", r["type"] == "error" and r["code"] == 16)
    c2.p.stdin.close()
    check("protocol: exits 0 at end of stdin", c2.p.wait(timeout=10) == 0)


# ================================================================ QUEUE
def g_queue():
    c = Client()
    c.open(cfg(queues=[qu("Q1"), qu("LQ1", cfstruct=None, qmgr="QM01")]))
    outs = c.run([put("QM01", tag=1), put("QM02", tag=2), put("QM03", tag=3)])
    gets = c.run([get("QM02"), get("QM03"), get("QM01"), get("QM01")])
    check("queue: shared queue is FIFO across queue managers",
          [g.get("tag") for g in gets[:3]] == [1, 2, 3], gets)
    check("queue: get from an empty queue -> 2033", gets[3] == {"kind": "get", "ok": False, "reason": 2033})
    # syncpoint put: invisible until commit, even to the putter
    c.run([put("QM01", tag=10, syncpoint=True)])
    o = c.apply(get("QM01"))
    check("queue: uncommitted put is not retrievable", o.get("reason") == 2033, o)
    check("queue: CURDEPTH counts the uncommitted put", c.inspect()["queues"]["Q1"]["depth"] == 1)
    c.apply({"op": "commit", "qmgr": "QM01"})
    o = c.apply(get("QM02"))
    check("queue: committed put is retrievable by another qmgr", o.get("tag") == 10, o)
    c.run([put("QM01", tag=11, syncpoint=True), {"op": "backout", "qmgr": "QM01"}])
    o = c.apply(get("QM02"))
    check("queue: backed-out put is gone", o.get("reason") == 2033 and c.inspect()["queues"]["Q1"]["depth"] == 0)
    # syncpoint get: locked, restored in place by backout
    c.run([put(tag=21), put(tag=22), put(tag=23)])
    o = c.apply(get("QM01", syncpoint=True))
    o2 = c.apply(get("QM02"))
    check("queue: a message got under syncpoint is locked from others",
          o.get("tag") == 21 and o2.get("tag") == 22, (o, o2))
    check("queue: CURDEPTH excludes the uncommitted get", c.inspect()["queues"]["Q1"]["depth"] == 1)
    c.apply({"op": "backout", "qmgr": "QM01"})
    o = c.apply(get("QM03"))
    check("queue: backout of a get returns the message to its place", o.get("tag") == 21, o)
    c.run([get("QM03", syncpoint=True), {"op": "commit", "qmgr": "QM03"}])
    check("queue: commit of a get removes the message", c.inspect()["queues"]["Q1"]["depth"] == 0)
    # stop_qmgr backs out; shared nonpersistent messages survive; private ones do not
    c.run([put("QM02", tag=31), put("QM02", tag=32, syncpoint=True),
           put("QM01", q="LQ1", tag=33), put("QM01", q="LQ1", tag=34, persistent=True),
           {"op": "stop_qmgr", "qmgr": "QM02"}, {"op": "stop_qmgr", "qmgr": "QM01"}])
    v = c.inspect()
    check("queue: stop_qmgr backs out its unit of work; shared nonpersistent survives",
          v["queues"]["Q1"]["depth"] == 1 and not v["qmgrs"]["QM02"]["active"], v["queues"])
    check("queue: nonpersistent messages on a stopped qmgr's private queue are lost",
          v["queues"]["LQ1"]["depth"] == 1, v["queues"]["LQ1"])
    o = c.apply(put("QM02"))
    check("queue: an inactive queue manager cannot put (NOT_ACTIVE)", o.get("reason") == "NOT_ACTIVE", o)
    c.run([{"op": "start_qmgr", "qmgr": "QM01"}])
    o = c.apply(get("QM01", q="LQ1"))
    check("queue: persistent private message survives the restart", o.get("tag") == 34, o)
    o = c.apply(get("QM02", q="LQ1"))
    check("queue: another qmgr cannot reach a nonshared queue (error 14)", o.get("error") == 14, o)
    o = c.apply(get("QM03", q="Q1"))
    check("queue: shared message put by a stopped qmgr is still there", o.get("tag") == 31, o)
    c.close()
    check("queue: replies schema-valid", not c.schema_problems, c.schema_problems)


# ================================================================ CAPACITY
def g_capacity():
    c = Client()
    c.open(cfg(structures=[st(size_kb=256, ratio=2)], queues=[qu(maxdepth=1000)]))
    outs = batch_outcomes(c, [put(length=512, tag=i) for i in range(256)])
    o = c.apply(put(length=512))
    check("capacity: structure holds 256 one-element messages (256 entries/256 elements)",
          all(x["ok"] for x in outs) and outs[-1]["usage"] == [256, 256, 256, 256], outs[-1])
    check("capacity: a put to a full structure -> 2192 MQRC_STORAGE_MEDIUM_FULL",
          o == {"kind": "put", "ok": False, "reason": 2192}, o)
    c.open(cfg(structures=[st(size_kb=256, ratio=30)], queues=[qu(maxdepth=1000)]))
    outs = batch_outcomes(c, [put(length=10) for i in range(25)])
    check("capacity: full when all ENTRYs are in use although elements remain",
          all(x["ok"] for x in outs[:24]) and outs[24].get("reason") == 2192
          and outs[23]["usage"][2] < outs[23]["usage"][3], outs[23:])
    c.open(cfg(queues=[qu(maxdepth=3)]))
    outs = c.run([put(), put(), put(), put()])
    check("capacity: MAXDEPTH 3 holds exactly 3, the 4th -> 2053",
          [o["ok"] for o in outs] == [True, True, True, False] and outs[3]["reason"] == 2053)
    outs = c.run([get(syncpoint=True), put(), put()])
    check("capacity: a syncpoint get makes room (CURDEPTH excludes it)",
          outs[1]["ok"] and outs[2].get("reason") == 2053, outs)
    c.close()
    check("capacity: replies schema-valid", not c.schema_problems, c.schema_problems)


# ================================================================ CFLEVEL
def g_cflevel():
    c = Client()
    structs = [st("L1", cflevel=1), st("L2", cflevel=2), st("L3", cflevel=3, recover=True),
               st("L3N", cflevel=3), st("L4", cflevel=4, recover=True),
               st("L5", cflevel=5, recover=True)]
    queues = [qu("Q" + s["name"], s["name"], maxmsgl=104857600) for s in structs] + \
             [qu("SMALL", "L3", maxmsgl=60000)]
    r = c.open(cfg(structures=structs, queues=queues))
    check("cflevel: config opens", r["type"] == "open_ok", r)
    for lvl in ("L1", "L2"):
        o = c.apply(put(q="Q" + lvl, persistent=True))
        check("cflevel: CFLEVEL(%s) refuses persistent messages (2048)" % lvl[1], o.get("reason") == 2048, o)
        o = c.apply(put(q="Q" + lvl, length=64512))
        check("cflevel: CFLEVEL(%s) stores a nonpersistent 63 KB message in the CF" % lvl[1],
              o["ok"] and o.get("location") == "CF", o)
        o = c.apply(put(q="Q" + lvl, length=64513))
        check("cflevel: CFLEVEL(%s), message over 63 KB -> 2366" % lvl[1], o.get("reason") == 2366, o)
    o = c.apply(put(q="QL3", persistent=True))
    check("cflevel: CFLEVEL(3) RECOVER(YES) accepts persistent", o["ok"], o)
    o = c.apply(put(q="QL3N", persistent=True))
    check("cflevel: RECOVER(NO) refuses persistent (2048)", o.get("reason") == 2048, o)
    o = c.apply(put(q="QL3", length=64513, persistent=True))
    check("cflevel: CFLEVEL(3) message over 63 KB -> 2366", o.get("reason") == 2366, o)
    o = c.apply(put(q="SMALL", length=64513))
    check("cflevel: MAXMSGL below the length -> 2030 first", o.get("reason") == 2030, o)
    o = c.apply(put(q="QL4", length=100000, persistent=True))
    check("cflevel: CFLEVEL(4) takes 100 000 bytes, data in Db2",
          o["ok"] and o.get("location") == "DB2" and o.get("offloaded") is True, o)
    o = c.apply(put(q="QL4", length=104857600))
    check("cflevel: CFLEVEL(4) takes a 100 MB message", o["ok"], o)
    o = c.apply(put(q="QL4", length=104857601))
    check("cflevel: over 100 MB -> 2030", o.get("reason") == 2030, o)
    o = c.apply(put(q="QL5", length=100000))
    check("cflevel: CFLEVEL(5) offloads to SMDS by default", o.get("location") == "SMDS", o)
    # definitions
    o = c.apply({"op": "define_structure", "structure": st("BAD2", cflevel=2, recover=True)})
    check("cflevel: RECOVER(YES) with CFLEVEL(2) is an invalid definition", o.get("reason") == "INVALID", o)
    o = c.apply({"op": "define_structure", "structure": st("BAD6", cflevel=6)})
    check("cflevel: CFLEVEL(6) is invalid", o.get("reason") == "INVALID", o)
    o = c.apply({"op": "alter_structure", "name": "L4", "changes": {"cflevel": 3}})
    check("cflevel: lowering CFLEVEL from 4 with messages on a queue -> NOT_ALLOWED",
          o.get("reason") == "NOT_ALLOWED", o)
    c.run([get(q="QL4"), get(q="QL4")])
    o = c.apply({"op": "alter_structure", "name": "L4", "changes": {"cflevel": 3}})
    check("cflevel: lowering CFLEVEL from 4 once its queues are empty is allowed", o["ok"], o)
    o = c.apply(put(q="QL4", length=100000))
    check("cflevel: after the decrease, over 63 KB -> 2366", o.get("reason") == 2366, o)
    o = c.apply({"op": "alter_structure", "name": "L2", "changes": {"cflevel": 4}})
    o2 = c.apply(put(q="QL2", length=100000))
    check("cflevel: raising CFLEVEL 2 -> 4 allows large messages", o["ok"] and o2["ok"], (o, o2))
    o = c.apply({"op": "alter_structure", "name": "L5", "changes": {"cflevel": 4}})
    check("cflevel: lowering CFLEVEL from 5 with messages -> NOT_ALLOWED (guarded)",
          o.get("reason") == "NOT_ALLOWED", o)
    o = c.apply({"op": "alter_structure", "name": "L3N", "changes": {"cflevel": 2, "recover": True}})
    check("cflevel: ALTER to RECOVER(YES) CFLEVEL(2) is invalid", o.get("reason") == "INVALID", o)
    c.close()
    check("cflevel: replies schema-valid", not c.schema_problems, c.schema_problems)


# ================================================================ OFFLOAD
FILL70 = [put(length=30000, tag=900 + i) for i in range(3)] + [put(length=1536)]   # 180/256 el


def g_offload():
    c = Client()
    s5 = st(size_kb=256, ratio=2, cflevel=5)
    c.open(cfg(structures=[s5], queues=[qu(maxdepth=1000)]))
    o = c.apply(put(length=64512))
    check("offload: 64 512 bytes (63 KB) stay in the CF at low usage", o.get("location") == "CF", o)
    o = c.apply(put(length=64513))
    check("offload: over 63 KB is always offloaded (SMDS default)",
          o.get("location") == "SMDS" and o.get("offloaded") is True, o)
    c.apply(get())
    before = c.apply(get())["usage"]
    o = c.apply(put(length=100000))
    d_ent, d_el = o["usage"][0] - before[0], o["usage"][2] - before[2]
    check("offload: an offloaded message costs 0.75 KB in the CF (1 entry + 512 bytes)",
          d_ent * 256 + d_el * 512 == 768, (d_ent, d_el))
    c.open(cfg(structures=[s5], queues=[qu(maxdepth=1000)]))
    outs = c.run(FILL70)
    check("offload: fill to 70.3% stays in the CF", all(o.get("location") == "CF" for o in outs), outs)
    o1 = c.apply(put(length=32768))
    o2 = c.apply(put(length=32769))
    check("offload: rule 1 (>70%, exceeding 32K): 32768 stays, 32769 offloaded",
          o1.get("location") == "CF" and o2.get("location") == "SMDS", (o1, o2))
    c.open(cfg(structures=[s5], queues=[qu(maxdepth=1000)]))
    c.run([put(length=30000)] * 3 + [put(length=15000)])      # 207/256 = 80.9%
    o1 = c.apply(put(length=4097))
    o2 = c.apply(put(length=4096))
    check("offload: rule 2 (>80%, exceeding 4K): 4097 offloaded, 4096 stays",
          o1.get("location") == "SMDS" and o2.get("location") == "CF", (o1, o2))
    c.open(cfg(structures=[s5], queues=[qu(maxdepth=1000)]))
    c.run([put(length=30000)] * 4)                            # 236/256 = 92.2%
    o = c.apply(put(length=1))
    check("offload: rule 3 (>90%, exceeding 0K): even a 1-byte message is offloaded",
          o.get("location") == "SMDS", o)
    # strict "more than": exactly 70% does not trigger rule 1
    c.open(cfg(structures=[st(size_kb=400, ratio=2, cflevel=5)], queues=[qu(maxdepth=1000)]))
    outs = c.run([put(length=30000)] * 4 + [put(length=22528)])
    o = c.apply(put(length=40000))
    check("offload: at exactly 70% (280/400 elements) 'more than 70% full' is not met",
          outs[-1]["usage"][2] == 280 and o.get("location") == "CF", (outs[-1], o))
    # 64K rule off
    c.open(cfg(structures=[st(size_kb=256, ratio=2, cflevel=5, offld1sz=65536)], queues=[qu(maxdepth=1000)]))
    c.run(FILL70)
    o = c.apply(put(length=33000))
    check("offload: OFFLD1SZ(64K) means rule 1 is not in effect", o.get("location") == "CF", o)
    # OFFLD1TH(0): offload all >32K once anything is in the structure (seed example)
    c.open(cfg(structures=[st(size_kb=256, ratio=2, cflevel=5, offld1th=0)], queues=[qu(maxdepth=1000)]))
    o0 = c.apply(put(length=40000))
    o1 = c.apply(put(length=40000))
    check("offload: OFFLD1TH(0) OFFLD1SZ(32K) offloads >32K as soon as the structure is >0% full",
          o0.get("location") == "CF" and o1.get("location") == "SMDS", (o0, o1))
    # OFFLOAD(DB2)
    c.open(cfg(structures=[st(cflevel=5, offload="DB2")]))
    o = c.apply(put(length=70000))
    check("offload: OFFLOAD(DB2) keeps offloaded data in Db2", o.get("location") == "DB2", o)
    # definitions
    o = c.apply({"op": "define_structure", "structure": st("C4", cflevel=4, offload="SMDS")})
    check("offload: OFFLOAD at CFLEVEL(4) is invalid", o.get("reason") == "INVALID", o)
    o = c.apply({"op": "define_structure", "structure": {"name": "C5", "cflevel": 5}})
    c.apply({"op": "define_queue", "queue": qu("QC5", "C5")})
    o2 = c.apply(put(q="QC5", length=70000))
    check("offload: DEFINE CFSTRUCT CFLEVEL(5) defaults to OFFLOAD(SMDS)",
          o["ok"] and o2.get("location") == "SMDS", (o, o2))
    o = c.apply({"op": "define_structure", "structure": st("C6", cflevel=5, offld2th=101)})
    check("offload: OFFLD2TH(101) is invalid", o.get("reason") == "INVALID", o)
    o = c.apply({"op": "define_structure", "structure": st("C7", cflevel=5, offld2sz=65537)})
    check("offload: OFFLD2SZ over 64K is invalid", o.get("reason") == "INVALID", o)
    # ALTER CFSTRUCT leaves unspecified keywords unchanged
    c.open(cfg(structures=[st(size_kb=256, ratio=2, cflevel=5, offld1th=0)], queues=[qu(maxdepth=1000)]))
    o = c.apply({"op": "alter_structure", "name": "APP1", "changes": {"offld2th": 50}})
    c.apply(put(length=100))
    o2 = c.apply(put(length=40000))
    check("offload: ALTER CFSTRUCT keeps keywords it does not name", o["ok"] and o2.get("location") == "SMDS",
          (o, o2))
    o = c.apply({"op": "alter_structure", "name": "APP1", "changes": {"offload": "DB2"}})
    o2 = c.apply(put(length=70000))
    check("offload: ALTER CFSTRUCT OFFLOAD(DB2) takes effect", o["ok"] and o2.get("location") == "DB2", o2)
    o = c.apply({"op": "alter_structure", "name": "APP1", "changes": {"size_kb": 1}})
    check("offload: ALTER CFSTRUCT has no SIZE keyword (INVALID)", o.get("reason") == "INVALID", o)
    c.close()
    check("offload: replies schema-valid", not c.schema_problems, c.schema_problems)


# ================================================================ QDEPTH
def g_qdepth():
    c = Client()
    # seed 004's worked example
    c.open(cfg(qmgrs=["QM1"], perfmev_disabled=["QM1"], structures=[st()],
               queues=[qu("SQ1", maxdepth=10, qdphiev=True),
                       qu("LQ1", cfstruct=None, qmgr="QM1", maxdepth=10, qdphiev=True)]))
    outs = c.run([put("QM1", "SQ1")] * 8 + [put("QM1", "LQ1")] * 8)
    v = c.inspect()["queues"]
    check("qdepth (seed 004): SQ1 QDPHIEV -> DISABLED, QDPLOEV and QDPMAXEV -> ENABLED",
          v["SQ1"] == {"depth": 8, "qdphiev": False, "qdploev": True, "qdpmaxev": True}, v["SQ1"])
    check("qdepth (seed 004): LQ1 attributes unchanged while PERFMEV is DISABLED",
          v["LQ1"] == {"depth": 8, "qdphiev": True, "qdploev": False, "qdpmaxev": False}, v["LQ1"])
    check("qdepth (seed 004): a PERFMEV(DISABLED) queue manager produces no event message",
          not any(o.get("events") for o in outs), outs)
    c.apply({"op": "set_perfmev", "qmgr": "QM1", "enabled": True})
    o = c.apply(put("QM1", "LQ1"))
    check("qdepth: once PERFMEV is ENABLED the nonshared queue raises Queue Depth High",
          [e["kind"] for e in o.get("events", [])] == ["QDPHI"]
          and c.inspect()["queues"]["LQ1"]["qdphiev"] is False, o)
    # the coordinating queue manager and the broadcast
    c.open(cfg(queues=[qu("Q1", maxdepth=10, qdepthhi=80, qdepthlo=20, qdphiev=True)]))
    outs = c.run([put("QM01")] * 3 + [put("QM02")] * 4 + [put("QM01")])
    ev = outs[-1].get("events", [])
    check("qdepth: depth reaching QDEPTHHI (8 of 10) raises Queue Depth High",
          not any(o.get("events") for o in outs[:-1]) and len(ev) == 3, outs)
    check("qdepth: detecting qmgr first, then the others in definition order",
          [e["qmgr"] for e in ev] == ["QM01", "QM02", "QM03"], ev)
    check("qdepth: all event messages carry the coordinator's CorrelId",
          len({e["correl"] for e in ev}) == 1, ev)
    check("qdepth: each message has its own qmgr's statistics",
          [(e["enq"], e["deq"]) for e in ev] == [(4, 0), (4, 0), (0, 0)], ev)
    outs = c.run([put("QM01"), put("QM01"), put("QM02")])
    ev = outs[-1].get("events", [])
    check("qdepth: the first put refused by a full queue (2053) raises Queue Full",
          outs[-1].get("reason") == 2053 and [e["kind"] for e in ev] == ["QFULL"] * 3
          and ev[0]["qmgr"] == "QM02", outs)
    check("qdepth: statistics restart after each event message",
          [(e["qmgr"], e["enq"]) for e in ev] == [("QM02", 0), ("QM01", 2), ("QM03", 0)], ev)
    v = c.inspect()["queues"]["Q1"]
    check("qdepth: Queue Full enables Low, disables Full, leaves High unchanged",
          (v["qdphiev"], v["qdploev"], v["qdpmaxev"]) == (False, True, False), v)
    c.run([{"op": "set_perfmev", "qmgr": "QM02", "enabled": False},
           {"op": "stop_qmgr", "qmgr": "QM01"}])
    outs = c.run([get("QM03")] * 8)
    ev = outs[-1].get("events", [])
    check("qdepth: depth falling to QDEPTHLO (2 of 10) raises Queue Depth Low",
          not any(o.get("events") for o in outs[:-1]) and [e["kind"] for e in ev] == ["QDPLO"], outs)
    check("qdepth: only active, PERFMEV-enabled queue managers issue messages",
          [e["qmgr"] for e in ev] == ["QM03"] and ev[0]["deq"] == 8, ev)
    v = c.inspect()["queues"]["Q1"]
    check("qdepth: Queue Depth Low enables High and Full, disables Low",
          (v["qdphiev"], v["qdploev"], v["qdpmaxev"]) == (True, False, True), v)
    # a disabled coordinator toggles but produces nothing, even for enabled peers
    o = c.apply({"op": "start_qmgr", "qmgr": "QM01"})
    outs = c.run([put("QM02")] * 6)
    v = c.inspect()["queues"]["Q1"]
    check("qdepth: shared flags switch even when the detecting qmgr has PERFMEV DISABLED",
          v["qdphiev"] is False and v["depth"] == 8, v)
    check("qdepth: a PERFMEV-disabled coordinator issues and broadcasts nothing",
          not any(o.get("events") for o in outs), outs)
    # RESET QSTATS, and events are outside syncpoint
    c.open(cfg(queues=[qu("Q1", maxdepth=10, qdphiev=True)]))
    c.run([put("QM01")] * 3 + [put("QM02")] * 2 + [{"op": "reset_qstats", "qmgr": "QM01", "queue": "Q1"}])
    outs = c.run([put("QM01", syncpoint=True)] * 3)
    ev = outs[-1].get("events", [])
    check("qdepth: RESET QSTATS restarts that qmgr's MsgEnqCount only",
          [(e["qmgr"], e["enq"]) for e in ev] == [("QM01", 3), ("QM02", 2), ("QM03", 0)], ev)
    c.apply({"op": "backout", "qmgr": "QM01"})
    v = c.inspect()["queues"]["Q1"]
    check("qdepth: backout does not restore the event switches",
          v["depth"] == 5 and v["qdphiev"] is False and v["qdploev"] is True, v)
    o = c.apply({"op": "alter_queue", "name": "Q1", "changes": {"qdepthhi": 101}})
    check("qdepth: QDEPTHHI above 100 is invalid", o.get("reason") == "INVALID", o)
    c.close()
    check("qdepth: replies schema-valid", not c.schema_problems, c.schema_problems)


# ================================================================ RECOVERY
def g_recovery():
    c = Client()
    c.open(cfg(structures=[st("REC", recover=True), st("NOREC"), st("NEVER", recover=True)],
               queues=[qu("Q1", "REC"), qu("Q2", "NOREC"), qu("Q3", "NEVER")]))
    o = c.apply({"op": "backup", "qmgr": "QM01", "cfstruct": "NOREC"})
    check("recovery: BACKUP of a RECOVER(NO) structure fails", o.get("reason") == "NOT_ALLOWED", o)
    c.run([put(q="Q1", tag=1, persistent=True), put(q="Q1", tag=2), put(q="Q1", tag=3, persistent=True)])
    o = c.apply({"op": "backup", "qmgr": "QM01", "cfstruct": "REC"})
    check("recovery: BACKUP CFSTRUCT succeeds", o["ok"], o)
    c.run([put(q="Q1", tag=4, persistent=True), put("QM02", q="Q1", tag=5, persistent=True, syncpoint=True),
           get(q="Q1"), get(q="Q1"), get("QM03", q="Q1", syncpoint=True)])
    o = c.apply({"op": "recover", "cfstruct": "REC"})
    check("recovery: RECOVER of a structure that has not failed -> NOT_FAILED", o.get("reason") == "NOT_FAILED", o)
    o = c.apply({"op": "recover", "cfstruct": "REC", "purge": True})
    check("recovery: TYPE(PURGE) of a structure that has not failed -> NOT_FAILED",
          o.get("reason") == "NOT_FAILED", o)
    c.apply({"op": "fail_structure", "cfstruct": "REC"})
    o1, o2 = c.apply(put(q="Q1")), c.apply(get(q="Q1"))
    check("recovery: puts and gets on a FAILED structure -> 2373",
          o1.get("reason") == 2373 and o2.get("reason") == 2373, (o1, o2))
    check("recovery: inspect shows FAILED", c.inspect()["structures"]["REC"]["status"] == "FAILED")
    o = c.apply({"op": "recover", "cfstruct": "REC"})
    v = c.inspect()
    tags = [c.apply(get(q="Q1")).get("tag") for _ in range(4)]
    check("recovery: RECOVER restores committed persistent messages up to the failure "
          "(backup + log replay); nonpersistent and uncommitted are gone",
          o["ok"] and v["structures"]["REC"]["status"] == "ACTIVE" and tags == [3, 4, None, None], (o, tags))
    c.apply({"op": "commit", "qmgr": "QM02"})
    check("recovery: commit after the failure brings nothing back", c.apply(get(q="Q1")).get("reason") == 2033)
    c.run([put(q="Q1", persistent=True), {"op": "fail_structure", "cfstruct": "REC"}])
    o = c.apply({"op": "recover", "cfstruct": "REC", "purge": True})
    check("recovery: TYPE(PURGE) recovers to an empty structure",
          o["ok"] and c.inspect()["queues"]["Q1"]["depth"] == 0, o)
    c.run([put(q="Q3", persistent=True), {"op": "fail_structure", "cfstruct": "NEVER"}])
    o = c.apply({"op": "recover", "cfstruct": "NEVER"})
    check("recovery: RECOVER without any backup -> NO_BACKUP", o.get("reason") == "NO_BACKUP", o)
    c.run([put(q="Q2"), {"op": "fail_structure", "cfstruct": "NOREC"}])
    o = c.apply({"op": "recover", "cfstruct": "NOREC"})
    check("recovery: RECOVER of a RECOVER(NO) structure fails", o.get("reason") == "NOT_ALLOWED", o)
    o = c.apply({"op": "backup", "qmgr": "QM01", "cfstruct": "NOPE"})
    check("recovery: BACKUP of an unknown structure -> error 14", o.get("error") == 14, o)
    c.close()
    check("recovery: replies schema-valid", not c.schema_problems, c.schema_problems)


# ================================================================ TOPOLOGY
def g_topology():
    c = Client()
    qs = [qu("Q%03d" % i) for i in range(511)]
    r = c.open(cfg(queues=qs))
    o1 = c.apply({"op": "define_queue", "queue": qu("Q511")})
    o2 = c.apply({"op": "define_queue", "queue": qu("Q512")})
    check("topology: a structure holds up to 512 shared queues; the 513th -> NOT_ALLOWED",
          r["type"] == "open_ok" and o1["ok"] and o2.get("reason") == "NOT_ALLOWED", (o1, o2))
    o = c.apply({"op": "define_queue", "queue": qu("QX", "NOPE")})
    check("topology: a queue on an unknown CFSTRUCT -> error 14", o.get("error") == 14, o)
    o = c.apply({"op": "define_queue", "queue": qu("Q001")})
    check("topology: a duplicate queue -> INVALID", o.get("reason") == "INVALID", o)
    r = c.open(cfg(queues=qs + [qu("Q511"), qu("Q512")]))
    check("topology: 513 queues on one structure in a config -> 13", r.get("code") == 13, r)
    r = c.open(cfg(structures=[st("S%d" % i) for i in range(63)], queues=[]))
    o = c.apply({"op": "define_structure", "structure": st("S63")})
    check("topology: 63 application structures (64 with CSQ_ADMIN); the 64th -> NOT_ALLOWED",
          r["type"] == "open_ok" and o.get("reason") == "NOT_ALLOWED", (r, o))
    r = c.open(cfg(structures=[st("CSQSYSAPPL")] + [st("S%d" % i) for i in range(62)], queues=[]))
    o = c.apply({"op": "define_structure", "structure": st("S62")})
    check("topology: CSQSYSAPPL + 62 message structures; one more -> NOT_ALLOWED",
          r["type"] == "open_ok" and o.get("reason") == "NOT_ALLOWED", (r, o))
    r = c.open(cfg(qmgrs=["Q%02d" % i for i in range(32)], queues=[]))
    check("topology: 32 queue managers connect", r["type"] == "open_ok", r)
    r = c.open(cfg(qmgrs=["Q%02d" % i for i in range(33)], queues=[]))
    check("topology: 33 queue managers -> 13", r.get("code") == 13, r)
    c.open(cfg())
    for nm, ok in (("ABCDEFGHIJKL", True), ("ABCDEFGHIJKLM", False), ("app2", False),
                   ("CSQ_ADMIN", False), ("9ABC", False), ("APPL2", True)):
        o = c.apply({"op": "define_structure", "structure": st(nm)})
        check("topology: structure name %r %s" % (nm, "accepted" if ok else "-> INVALID"),
              o["ok"] == ok and (ok or o.get("reason") == "INVALID"), o)
    o = c.apply({"op": "define_structure", "structure": st("APP1")})
    check("topology: a duplicate structure name -> INVALID", o.get("reason") == "INVALID", o)
    c.open(cfg(qsg="SQ03", structures=[st("MYDATA")], queues=[]))
    check("topology (seed 003): CFSTRUCT(MYDATA) in SQ03 is SQ03MYDATA",
          c.inspect()["structures"]["MYDATA"]["cfname"] == "SQ03MYDATA")
    c.open(cfg(qsg="QS", queues=[]))
    check("topology: a short QSG name is padded with @", c.inspect()["structures"]["APP1"]["cfname"] == "QS@@APP1")
    r = c.open(cfg(qsg="QSG12"))
    check("topology: a 5-character QSG name -> 13", r.get("code") == 13, r)
    r = c.open(cfg(qsg="QM01"))
    check("topology: a QSG named like a queue manager -> 13", r.get("code") == 13, r)
    # CSQ_ADMIN, Table 1
    table = [6144, 6912, 7976, 8704, 9728, 10496, 11520, 12288, 13056, 14080, 14848, 15616, 16640,
             17408, 18176, 19200, 19968, 20736, 21760, 22528, 23296, 24320, 25088, 25856, 27136,
             27904, 28672, 29696, 30464, 31232, 32256]
    good = True
    for n, kb in enumerate(table, 1):
        qms = ["M%02d" % i for i in range(n)]
        r1 = c.open(cfg(qmgrs=qms, queues=[], admin_size_kb=kb))
        a = c.inspect()["admin"] if r1["type"] == "open_ok" else None
        r2 = c.open(cfg(qmgrs=qms, queues=[], admin_size_kb=kb - 1))
        if not (a and a["size_kb"] == kb and a["entries_total"] >= 1000 * n and r2.get("code") == 13):
            good = False
            print("   admin n=%d: %r %r %r" % (n, r1, a, r2))
    check("topology: CSQ_ADMIN at Table 1's size opens, 1 KB less -> 13, >= 1000 entries per qmgr", good)
    c.open(cfg(qmgrs=["QM01", "QM02", "QM03"], queues=[]))
    check("topology: CSQ_ADMIN defaults to Table 1's minimum", c.inspect()["admin"]["size_kb"] == 7976)
    c.close()
    check("topology: replies schema-valid", not c.schema_problems, c.schema_problems)


# ================================================================ SIZING
TABLE2 = {100: [6, 6, 7, 7, 8, 10, 14], 1000: [8, 9, 12, 17, 27, 48, 88],
          10000: [25, 38, 64, 115, 218, 423, 821], 100000: [199, 327, 584, 1097, 2124, 4177, 8156]}
TABLE2_KB = [1, 2, 4, 8, 16, 32, 63]


def capacity(struct_totals, nbytes):
    ent, et, el, lt = struct_totals
    per = max(1, -(-nbytes // 512))
    return min(et, lt // per)


def g_sizing():
    c = Client()
    structs = []
    for n, row in TABLE2.items():
        for kb, mb in zip(TABLE2_KB, row):
            structs.append(st("T%dX%d" % (n, kb), size_kb=mb * 1024))
    structs += [st("E512", size_kb=524288), st("E256", size_kb=262144)]
    c.open(cfg(structures=structs, queues=[]))
    v = c.inspect()["structures"]
    bad = []
    for n, row in TABLE2.items():
        for kb, mb in zip(TABLE2_KB, row):
            d = v["T%dX%d" % (n, kb)]
            tot = (0, d["entries_total"], 0, d["elements_total"])
            if capacity(tot, kb * 1024) < n:
                bad.append((n, kb, mb, capacity(tot, kb * 1024)))
    check("sizing (Table 2): every cell's size holds its number of messages", not bad, bad)
    cap512 = capacity((0, v["E512"]["entries_total"], 0, v["E512"]["elements_total"]), 1024)
    cap256 = capacity((0, v["E256"]["entries_total"], 0, v["E256"]["elements_total"]), 1024)
    check("sizing (seed 001): 200 000 x 1 KB needs between 256 and 512 MB",
          cap512 >= 200000 > cap256, (cap256, cap512))
    # CSQSYSAPPL suggested definition vs Table 3 (say 50 shared channels)
    c.open(cfg(structures=[st("CSQSYSAPPL", size_kb=30720, initsize_kb=20480)], queues=[]))
    d = c.inspect()["structures"]["CSQSYSAPPL"]
    need_ent, need_el = 1000 + 100, 1000 * 4 + 100 * 1
    check("sizing: CSQSYSAPPL INITSIZE(20480) holds Table 3's usage",
          d["size_kb"] == 20480 and d["entries_total"] >= need_ent and d["elements_total"] >= need_el, d)
    # INITSIZE / SIZE and SETXCF ALTER
    c.open(cfg(structures=[st(size_kb=524288, initsize_kb=262144)], queues=[]))
    d0 = c.inspect()["structures"]["APP1"]
    check("sizing: the structure is allocated at INITSIZE", d0["size_kb"] == 262144, d0)
    o = c.apply({"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 400000})
    d1 = c.inspect()["structures"]["APP1"]
    check("sizing: SETXCF ALTER between current size and SIZE is accepted and grows the structure",
          o["ok"] and d1["size_kb"] == 400000 and d1["entries_total"] > d0["entries_total"], (o, d1))
    o = c.apply({"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 524288})
    check("sizing: newsize must be less than SIZE (== SIZE -> OUT_OF_RANGE)", o.get("reason") == "OUT_OF_RANGE", o)
    o = c.apply({"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 300000})
    check("sizing: newsize must be greater than the current size", o.get("reason") == "OUT_OF_RANGE", o)
    o = c.apply({"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 600000})
    check("sizing: newsize over SIZE -> OUT_OF_RANGE", o.get("reason") == "OUT_OF_RANGE", o)
    r = c.open(cfg(structures=[st(size_kb=1000, initsize_kb=2000)]))
    check("sizing: INITSIZE above SIZE -> 13", r.get("code") == 13, r)
    # z/OS structure full monitoring (IXC585E / IXC586I)
    c.open(cfg(structures=[st(size_kb=400, ratio=2, fullthreshold=80)], queues=[qu(maxdepth=10000)]))
    outs = batch_outcomes(c, [put(length=512)] * 320)
    check("sizing: 320 of 400 entries/elements in use is exactly 80%", outs[-1]["usage"] == [320, 400, 320, 400])
    check("sizing: IXC585E is not issued inside the put (monitoring is periodic)",
          not any(o.get("signals") for o in outs))
    o = c.apply({"op": "advance_clock", "seconds": 60})
    check("sizing: IXC585E at the next monitoring pass when usage reached FULLTHRESHOLD",
          o.get("signals") == ["IXC585E APP1"] and c.inspect()["structures"]["APP1"]["full_warning"], o)
    o = c.apply({"op": "advance_clock", "seconds": 60})
    check("sizing: IXC585E is not repeated", not o.get("signals"), o)
    c.apply(get())
    o = c.apply({"op": "advance_clock", "seconds": 59})
    o2 = c.apply({"op": "advance_clock", "seconds": 1})
    check("sizing: IXC586I at the next pass after usage went back below",
          not o.get("signals") and o2.get("signals") == ["IXC586I APP1"], (o, o2))
    c.open(cfg(structures=[st(size_kb=256, ratio=30, fullthreshold=80)], queues=[qu(maxdepth=10000)]))
    c.run([put(length=10)] * 20)        # 20 of 24 entries, 20 of 372 elements
    o = c.apply({"op": "advance_clock", "seconds": 60})
    check("sizing: IXC585E when ENTRIES (not only elements) reach the threshold",
          o.get("signals") == ["IXC585E APP1"], o)
    c.open(cfg(structures=[st(size_kb=256, ratio=2, fullthreshold=0)], queues=[qu(maxdepth=10000)]))
    batch_outcomes(c, [put(length=512)] * 256)
    o = c.apply({"op": "advance_clock", "seconds": 600})
    check("sizing: FULLTHRESHOLD(0) disables monitoring", not o.get("signals"), o)
    c.close()
    check("sizing: replies schema-valid", not c.schema_problems, c.schema_problems)


# ================================================================ CQS
def cqs(structures=None, queues=None, **kw):
    return cfg(profile="cqs", structures=structures or [st(size_kb=256, ratio=2)],
               queues=queues if queues is not None else [qu("QA"), qu("QB")], **kw)


def cput(q, n=1, length=4096, qm="QM01"):
    return [put(qm, q, length) for _ in range(n)]


def g_cqs():
    c = Client()
    # default OVFLWMAX 70%, no overflow structure, no exit
    c.open(cqs())
    outs = c.run(cput("QA", 12) + cput("QB", 10))           # 176/256 = 68.75%
    check("cqs: below the 70% default nothing happens", not any(o.get("signals") for o in outs))
    o = c.apply(cput("QB")[0])                               # 184/256 = 71.9%
    check("cqs: reaching the default 70% starts an alter, which fails at SIZE: overflow mode",
          sigs(o) == ["ALTER APP1", "OVERFLOW_ON APP1", "OVERFLOW_QUEUE APP1 QA"], o)
    v = c.inspect()["structures"]["APP1"]
    check("cqs: the queue using most space is selected; one is enough for 50%",
          v["overflow_mode"] and v["overflow_queues"] == ["QA"] and v["alter_pending"] is False, v)
    o = c.apply(cput("QA")[0])
    check("cqs: without OVFLWSTR, CQSPUT to an approved queue is rejected",
          o == {"kind": "put", "ok": False, "reason": "REJECTED_OVERFLOW"}, o)
    o = c.apply(cput("QB")[0])
    check("cqs: other queues keep working", o["ok"], o)
    outs = c.run([get("QM02", "QA")] * 8)                    # 192 -> 128 elements (50%)
    check("cqs: without OVFLWSTR overflow ends when usage drops 20 points below (50%)",
          not any(o.get("signals") for o in outs[:7]) and outs[7].get("signals") == ["OVERFLOW_OFF APP1"], outs)
    o = c.apply(cput("QA")[0])
    check("cqs: after overflow mode ends the queue takes puts again", o["ok"], o)
    # exact threshold, OVFLWMAX=50
    c.open(cqs(structures=[st(size_kb=256, ratio=2, ovflwmax=50)]))
    outs = c.run(cput("QA", 16))
    check("cqs: the put that reaches OVFLWMAX exactly (128/256) triggers",
          not any(o.get("signals") for o in outs[:15]) and "ALTER APP1" in outs[15].get("signals", []), outs[14:])
    # synchronous alter success
    c.open(cqs(structures=[st(size_kb=512, initsize_kb=256, ratio=2)]))
    outs = c.run(cput("QA", 23))
    v = c.inspect()["structures"]["APP1"]
    check("cqs: an alter that can grow (INITSIZE < SIZE) succeeds inside the put: no overflow",
          outs[-1].get("signals") == ["ALTER APP1"] and v["size_kb"] == 512 and not v["overflow_mode"], (outs[-1], v))
    outs = c.run(cput("QB", 22))                              # 360/512 = 70.3%
    check("cqs: at SIZE the next alter fails and overflow mode starts",
          sigs(outs[-1])[:2] == ["ALTER APP1", "OVERFLOW_ON APP1"], outs[-1])
    # selection order, 20-point target, exit veto, overflow structure
    c.open(cqs(structures=[st(size_kb=256, ratio=2, ovflwmax=50, ovflwstr="OVF1")],
               queues=[qu("QA"), qu("QB"), qu("QC"), qu("QD")]))
    outs = c.run(cput("QA", 3) + cput("QB", 4) + cput("QC", 6) + cput("QD", 3))
    check("cqs: queues are selected by most space until usage is 20 points under (30%)",
          sigs(outs[-1]) == ["ALTER APP1", "OVERFLOW_ON APP1", "OVERFLOW_QUEUE APP1 QB",
                             "OVERFLOW_QUEUE APP1 QC"], outs[-1])
    v = c.inspect()
    check("cqs: with OVFLWSTR the selected queues' data moves to the overflow structure",
          v["structures"]["APP1"]["elements_used"] == 48 and v["queues"]["QC"]["overflow"], v["structures"])
    o = c.apply(cput("QC")[0])
    check("cqs: CQSPUT to an overflow queue goes to the overflow structure",
          o["ok"] and o["usage"][2] == 88, o)
    outs = c.run([get("QM01", "QB")] * 4)
    check("cqs: an emptied overflow queue stays in overflow mode until the scan",
          c.inspect()["structures"]["APP1"]["overflow_queues"] == ["QB", "QC"])
    o = c.apply({"op": "advance_clock", "seconds": 899})
    o2 = c.apply({"op": "advance_clock", "seconds": 1})
    check("cqs: the 15-minute scan (at clock 900) returns the empty queue to normal",
          not o.get("signals") and o2.get("signals") == ["OVERFLOW_QUEUE_OFF APP1 QB"], (o, o2))
    c.run([get("QM01", "QC")] * 7)
    o = c.apply({"op": "advance_clock", "seconds": 900})
    v = c.inspect()["structures"]["APP1"]
    check("cqs: when all queues have been removed CQS exits overflow mode",
          sigs(o) == ["OVERFLOW_OFF APP1", "OVERFLOW_QUEUE_OFF APP1 QC"] and not v["overflow_mode"], (o, v))
    c.open(cqs(structures=[st(size_kb=256, ratio=2, ovflwmax=50, ovflwstr="OVF1")],
               queues=[qu("QA"), qu("QB"), qu("QC"), qu("QD")], overflow_exit=["QC"]))
    outs = c.run(cput("QA", 3) + cput("QB", 4) + cput("QC", 6) + cput("QD", 3))
    check("cqs: the Queue Overflow exit vetoes QC; CQS picks the next candidates",
          sigs(outs[-1]) == ["ALTER APP1", "OVERFLOW_ON APP1", "OVERFLOW_QUEUE APP1 QA",
                             "OVERFLOW_QUEUE APP1 QB"], outs[-1])
    c.open(cqs(structures=[st(size_kb=256, ratio=2, ovflwmax=50, ovflwstr="OVF1")],
               queues=[qu("QA"), qu("QB")]))
    c.apply({"op": "set_overflow_exit", "vetoes": ["QA", "QB"]})
    c.apply({"op": "advance_clock", "seconds": 100})
    outs = c.run(cput("QA", 16))
    v = c.inspect()["structures"]["APP1"]
    check("cqs: every candidate vetoed -> overflow mode with no queue", v["overflow_mode"] and
          v["overflow_queues"] == [], v)
    o = c.apply({"op": "advance_clock", "seconds": 800})
    check("cqs: the scan is anchored on the clock (900), not on the overflow start",
          o.get("signals") == ["OVERFLOW_OFF APP1"], o)
    # staging queue
    c.open(cqs(structures=[st(size_kb=256, ratio=2, ovflwmax=50, ovflwstr="OVF1")],
               queues=[qu("QA"), qu("QB")], lgmsgsz=4096))
    o = c.apply(put("QM01", "QA", 10000))
    v = c.inspect()["structures"]["APP1"]
    check("cqs: a message over LGMSGSZ is split: 2nd and later parts on the staging queue",
          o["usage"][0] == 3 and v["staging_depth"] == 2, (o, v))
    c.run(cput("QB", 14))                                     # 20 + 112 = 132 >= 128
    v = c.inspect()
    check("cqs: moving a queue leaves its staging parts on the primary structure",
          v["structures"]["APP1"]["staging_depth"] == 2 and v["queues"]["QB"]["overflow"]
          and not v["queues"]["QA"]["overflow"] and v["structures"]["APP1"]["elements_used"] == 20, v)
    c.open(cqs(structures=[st(size_kb=256, ratio=2, ovflwmax=50, ovflwstr="OVF1")],
               queues=[qu("QA"), qu("QB")], lgmsgsz=4096))
    c.run([put("QM01", "QA", 12000)] * 3 + cput("QB", 7))   # QA ready 24 el + staging 48 el; QB 56
    v = c.inspect()["structures"]["APP1"]
    check("cqs: the staging queue is not eligible: QB (most ready-queue space) is selected",
          v["overflow_queues"] == ["QB"] and v["staging_depth"] == 6, v)
    # resource structures
    c.open(cqs(structures=[st(size_kb=256, ratio=2, resource=True)]))
    outs = c.run(cput("QA", 30))
    check("cqs: structure overflow is not supported for resource structures",
          not any(o.get("signals") for o in outs) and all(o["ok"] for o in outs))
    o = c.apply({"op": "define_structure", "structure": st("RES2", resource=True, ovflwstr="OVF9")})
    check("cqs: a resource structure with OVFLWSTR is invalid", o.get("reason") == "INVALID", o)
    o = c.apply({"op": "alter_structure", "name": "APP1", "changes": {"ovflwmax": 101}})
    check("cqs: OVFLWMAX above 100 is invalid", o.get("reason") == "INVALID", o)
    # structure full, alter_outcome, profile ops
    c.open(cqs(structures=[st(size_kb=256, ratio=2, ovflwmax=100)]))
    outs = batch_outcomes(c, cput("QA", 31))              # 248/256 elements
    o = c.apply(put("QM01", "QA", 8192))                  # 16 more do not fit
    check("cqs: a CQSPUT that does not fit -> STRUCTURE_FULL",
          outs[-1]["ok"] and o == {"kind": "put", "ok": False, "reason": "STRUCTURE_FULL"}, o)
    o = c.apply({"op": "alter_outcome", "cfstruct": "APP1", "success": True, "size_kb": 512})
    check("cqs: alters complete synchronously, so alter_outcome -> NO_ALTER_PENDING",
          o == {"kind": "alter_outcome", "ok": False, "reason": "NO_ALTER_PENDING"}, o)
    o = c.apply({"op": "commit", "qmgr": "QM01"})
    check("cqs: an mq-only operation in the cqs profile -> error 14", o.get("error") == 14, o)
    o = c.apply(get("QM01", "QB"))
    check("cqs: CQSREAD of an empty queue -> NO_MSG", o.get("reason") == "NO_MSG", o)
    c.open(cqs(structures=[st(size_kb=256, ratio=2)]))
    o = c.apply({"op": "alter_structure", "name": "APP1", "changes": {"ovflwstr": "OVF2"}})
    check("cqs: adding an overflow structure later needs a cold start (NOT_ALLOWED)",
          o.get("reason") == "NOT_ALLOWED", o)
    c.close()
    check("cqs: replies schema-valid", not c.schema_problems, c.schema_problems)


# ================================================================ robustness
def random_ops(rng, profile, n):
    qms = ["QM01", "QM02", "QM03"]
    qs = ["QA", "QB", "QC", "LQ"] if profile == "mq" else ["QA", "QB", "QC"]
    structs = ["APP1", "APP2"]
    ops = []
    for _ in range(n):
        r = rng.random()
        qm, q, s = rng.choice(qms), rng.choice(qs), rng.choice(structs)
        if q == "LQ":
            qm = "QM01"
        if r < 0.40:
            ops.append(put(qm, q, rng.choice([0, 100, 4096, 10000, 33000, 64512, 64513, 100000]),
                           persistent=rng.random() < 0.3, syncpoint=rng.random() < 0.3,
                           tag=rng.randrange(1000)))
        elif r < 0.70:
            ops.append(get(qm, q, syncpoint=rng.random() < 0.3))
        elif profile == "cqs":
            ops.append(rng.choice([{"op": "advance_clock", "seconds": rng.choice([1, 60, 450, 900])},
                                   {"op": "set_overflow_exit", "vetoes": rng.choice([None, ["QA"], []])},
                                   {"op": "setxcf_alter", "cfstruct": s, "size_kb": rng.choice([300, 700, 9000])},
                                   {"op": "alter_outcome", "cfstruct": s, "success": True},
                                   {"op": "inspect"}]))
        else:
            ops.append(rng.choice([{"op": "commit", "qmgr": qm}, {"op": "backout", "qmgr": qm},
                                   {"op": "stop_qmgr", "qmgr": qm}, {"op": "start_qmgr", "qmgr": qm},
                                   {"op": "set_perfmev", "qmgr": qm, "enabled": rng.random() < 0.7},
                                   {"op": "reset_qstats", "qmgr": qm, "queue": q},
                                   {"op": "backup", "qmgr": qm, "cfstruct": s},
                                   {"op": "fail_structure", "cfstruct": s},
                                   {"op": "recover", "cfstruct": s, "purge": rng.random() < 0.3},
                                   {"op": "setxcf_alter", "cfstruct": s, "size_kb": rng.choice([300, 700, 9000])},
                                   {"op": "alter_structure", "name": s,
                                    "changes": rng.choice([{"cflevel": 5}, {"cflevel": 3}, {"offld1th": 10}])},
                                   {"op": "advance_clock", "seconds": 60}, {"op": "inspect"}]))
    return ops


def g_robustness():
    import random
    rng = random.Random(20240601)
    for profile in ("mq", "cqs"):
        c = Client()
        if profile == "mq":
            conf = cfg(structures=[st("APP1", size_kb=512, initsize_kb=256, ratio=2, cflevel=5, recover=True),
                                   st("APP2", size_kb=256, ratio=4, cflevel=3, recover=True)],
                       queues=[qu("QA", maxdepth=20, qdphiev=True, qdploev=True, qdpmaxev=True),
                               qu("QB", "APP2", maxdepth=50, qdphiev=True), qu("QC", "APP1"),
                               qu("LQ", None, qmgr="QM01", maxdepth=10, qdphiev=True)])
        else:
            conf = cqs(structures=[st("APP1", size_kb=512, initsize_kb=256, ratio=2, ovflwstr="OVF1",
                                      ovflw_size_kb=512),
                                   st("APP2", size_kb=256, ratio=2, ovflwmax=60)],
                       queues=[qu("QA"), qu("QB", "APP2"), qu("QC")], lgmsgsz=8000)
        crashes, bad_inv, nops = [], [], 0
        for round_ in range(6):
            c.open(conf)
            ops = random_ops(rng, profile, 500)
            for i in range(0, len(ops), 100):
                rep = c.batch(ops[i:i + 100])
                outs = rep.get("outcomes", [])
                nops += len(outs)
                if rep.get("type") != "batch_ok" or "error" in rep:
                    crashes.append(rep.get("error") or rep)
                    break
                v = c.inspect()
                for name, d in v["structures"].items():
                    if not (0 <= d["entries_used"] <= d["entries_total"]
                            and 0 <= d["elements_used"] <= d["elements_total"]):
                        bad_inv.append((name, d))
                for name, d in v["queues"].items():
                    if d["depth"] < 0:
                        bad_inv.append((name, d))
        check("robustness (%s): %d random operations without an error reply" % (profile, nops),
              not crashes, crashes[:2])
        check("robustness (%s): usage within totals, depths non-negative" % profile, not bad_inv, bad_inv[:2])
        c.close()
        check("robustness (%s): every reply schema-valid" % profile, not c.schema_problems, c.schema_problems[:2])


GROUPS = [("protocol", g_protocol), ("queue", g_queue), ("capacity", g_capacity),
          ("cflevel", g_cflevel), ("offload", g_offload), ("qdepth", g_qdepth),
          ("recovery", g_recovery), ("topology", g_topology), ("sizing", g_sizing), ("cqs", g_cqs),
          ("robustness", g_robustness)]


def main(argv):
    only = None
    if "-k" in argv:
        only = argv[argv.index("-k") + 1]
    for name, fn in GROUPS:
        if only and only not in name:
            continue
        try:
            fn()
        except Exception as e:  # a crash is a failure of the group
            import traceback
            traceback.print_exc()
            check("%s: group ran to completion" % name, False, repr(e))
    rc = 0
    npass = sum(1 for _, ok in RESULTS if ok)
    print("selftest: %d/%d checks passed" % (npass, len(RESULTS)))
    if npass != len(RESULTS):
        rc = 1
    if "--faults" in argv:
        here = os.path.dirname(os.path.abspath(__file__))
        r = subprocess.call([sys.executable, os.path.join(here, "faultcheck.py")])
        rc = rc or r
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
