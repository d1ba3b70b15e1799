#!/usr/bin/env python3
"""Quick self-tests for third-reading: scenarios replayed from the IBM documents'
own examples, driven over the wire protocol.  Run:

    python3 examples/third-reading/selftest.py
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import impl  # noqa: E402  (only for the accounting constants)

FAILS = []
PASSES = 0


class Client:
    def __init__(self):
        self.p = subprocess.Popen([sys.executable, os.path.join(HERE, "impl.py")],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.mid = 0
        r = self.req({"type": "init", "protocol_version": "1.2", "suite": "selftest",
                      "max_line_bytes": 1048576})
        assert r["type"] == "init_ok", r

    def req(self, msg):
        self.mid += 1
        msg["msg_id"] = self.mid
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()
        r = json.loads(self.p.stdout.readline())
        assert r.get("in_reply_to") == self.mid, r
        return r

    def open(self, cfg):
        r = self.req({"type": "open", "config": cfg})
        return r

    def op(self, **op):
        r = self.req({"type": "apply", "op": op})
        if r["type"] != "apply_ok":
            raise AssertionError("error reply: %r" % r)
        return r["outcome"]

    def batch(self, ops):
        r = self.req({"type": "batch", "ops": ops})
        assert r["type"] == "batch_ok", r
        return r["outcomes"]

    def inspect(self):
        return self.op(op="inspect")["value"]

    def close(self):
        self.req({"type": "close"})
        self.p.wait(5)


def check(cond, what):
    global PASSES
    if cond:
        PASSES += 1
    else:
        FAILS.append(what)
        print("FAIL:", what)


def mq_cfg(structures, queues, qmgrs=("QM01", "QM02", "QM03"), **kw):
    cfg = {"profile": "mq", "qsg": "QSG1", "qmgrs": list(qmgrs),
           "structures": structures, "queues": queues}
    cfg.update(kw)
    return cfg


def combined_pct(u):
    used = u[0] * impl.ENTRY_COST + u[2] * impl.ELEMENT_COST
    total = u[1] * impl.ENTRY_COST + u[3] * impl.ELEMENT_COST
    return 100.0 * used / total


RULES_OFF = {"offld1sz": 65536, "offld2sz": 65536, "offld3sz": 65536}


# ---------------------------------------------------------------------------
def test_offload_seed002(c):
    # Seed 002: "the threshold for the first rule could be set to 0% to offload all
    # such messages. This gives parameters OFFLD1TH(0) and OFFLD1SZ(32K)."
    s = {"name": "APP1", "size_kb": 65536, "cflevel": 5, "recover": True, "offload": "SMDS",
         "offld1th": 0, "offld1sz": 32768, "offld2sz": 65536, "offld3sz": 65536}
    c.open(mq_cfg([s], [{"name": "Q1", "cfstruct": "APP1"}]))
    o = c.op(op="put", qmgr="QM01", queue="Q1", length=40000, tag=1)
    check(o["ok"] and o["offloaded"] and o["location"] == "SMDS",
          "OFFLD1TH(0)/OFFLD1SZ(32K): a 40 000-byte message is offloaded even on an empty structure")
    o = c.op(op="put", qmgr="QM01", queue="Q1", length=20000, tag=2)
    check(o["ok"] and not o["offloaded"], "OFFLD1TH(0)/OFFLD1SZ(32K): a 20 000-byte message stays in the CF")
    o = c.op(op="put", qmgr="QM01", queue="Q1", length=32768, tag=3)
    check(o["offloaded"], "inclusive reading: a message of exactly OFFLD1SZ (32K) is offloaded")
    # an offloaded message keeps one entry and one element (about 0.75 KB)
    check(impl.ENTRY_COST + impl.OFFLOADED_ELEMENTS * impl.ELEMENT_COST == 768,
          "an offloaded message costs 0.75 KB of CF storage")

    # 64K = rule not in effect; only messages over 63.75 KB are offloaded
    s = dict({"name": "APP1", "size_kb": 65536, "cflevel": 5, "recover": True}, **RULES_OFF)
    c.open(mq_cfg([s], [{"name": "Q1", "cfstruct": "APP1"}]))
    o = c.op(op="put", qmgr="QM01", queue="Q1", length=65280, tag=1)
    check(o["ok"] and not o["offloaded"] and o["location"] == "CF",
          "all OFFLDnSZ(64K): a 63.75 KB message is kept in the structure")
    o = c.op(op="put", qmgr="QM01", queue="Q1", length=65281, tag=2)
    check(o["ok"] and o["offloaded"], "all OFFLDnSZ(64K): a message over 63.75 KB is offloaded")
    s["offload"] = "DB2"
    c.open(mq_cfg([s], [{"name": "Q1", "cfstruct": "APP1"}]))
    o = c.op(op="put", qmgr="QM01", queue="Q1", length=1000000, tag=1)
    check(o["ok"] and o["location"] == "DB2", "OFFLOAD(DB2): a 1 MB message goes to Db2")

    # default rules 70%/32K, 80%/4K, 90%/0K while the structure fills up
    s = {"name": "APP1", "size_kb": 16384, "cflevel": 5, "recover": True, "ratio": 6}
    c.open(mq_cfg([s], [{"name": "Q1", "cfstruct": "APP1"}, {"name": "PROBE", "cfstruct": "APP1"}]))
    usage = c.op(op="put", qmgr="QM01", queue="Q1", length=3000, tag=0)["usage"]
    seen = {}
    for i in range(100000):
        pct = combined_pct(usage)
        probes = {}
        for length in (40000, 5000, 100):
            o = c.op(op="put", qmgr="QM01", queue="PROBE", length=length, tag=-1)
            if not o["ok"]:
                break
            probes[length] = o["offloaded"]
            c.op(op="get", qmgr="QM01", queue="PROBE")   # take the probe out again
        else:
            expect = {40000: pct >= 70, 5000: pct >= 80, 100: pct >= 90}
            if probes != expect:
                check(False, "default offload rules at %.2f%%: %r expected %r" % (pct, probes, expect))
                break
            for t in (70, 80, 90):
                if pct >= t:
                    seen[t] = True
            o = c.op(op="put", qmgr="QM01", queue="Q1", length=3000, tag=0)
            if not o["ok"]:
                break
            usage = o["usage"]
            continue
        break
    check(seen == {70: True, 80: True, 90: True},
          "default offload rules exercised past 70%%, 80%% and 90%% (%r)" % seen)

    # Seed 002 capacity example: 1M messages x 0.75 KB = 18.75% of 4 GB, so the
    # all-messages rule is set at 80%: OFFLD3TH(80) OFFLD3SZ(0K).  Scaled down: once
    # the structure passes 80% every message is offloaded and the rest of the
    # structure (>= 18.75% of it) still takes that many messages.
    s = {"name": "APP1", "size_kb": 8192, "cflevel": 5, "recover": True, "ratio": 1,
         "offld1sz": 65536, "offld2sz": 65536, "offld3th": 80, "offld3sz": 0}
    c.open(mq_cfg([s], [{"name": "Q1", "cfstruct": "APP1"}]))
    total = None
    offloaded_from = None
    n_off = 0
    while True:
        o = c.op(op="put", qmgr="QM01", queue="Q1", length=400, tag=0)
        if not o["ok"]:
            check(o["reason"] == 2192, "structure full gives 2192")
            break
        total = o["usage"][1]
        if o["offloaded"]:
            n_off += 1
            if offloaded_from is None:
                offloaded_from = o["usage"][0] - 1
    check(offloaded_from is not None and 100 * offloaded_from >= 80 * total
          and 100 * (offloaded_from - 1) < 80 * total,
          "OFFLD3TH(80): offloading of all messages starts at 80% usage")
    check(n_off >= 0.1875 * total,
          "OFFLD3TH(80): the reserve above 80%% holds at least 18.75%% of capacity (%d of %d)"
          % (n_off, total))


def test_cflevel(c):
    structs = [
        {"name": "L2", "size_kb": 16384, "cflevel": 2, "recover": False},
        {"name": "L2R", "size_kb": 16384, "cflevel": 2, "recover": True},
        {"name": "L3", "size_kb": 16384, "cflevel": 3, "recover": False},
        {"name": "L3R", "size_kb": 131072, "cflevel": 3, "recover": True},
        {"name": "L4", "size_kb": 16384, "cflevel": 4, "recover": True},
    ]
    queues = [{"name": "Q" + s["name"], "cfstruct": s["name"]} for s in structs]
    queues.append({"name": "QSMALL", "cfstruct": "L3R", "maxmsgl": 1000})
    c.open(mq_cfg(structs, queues))
    put = lambda q, n, p=False: c.op(op="put", qmgr="QM01", queue=q, length=n, persistent=p, tag=7)
    check(put("QL2", 100, True).get("reason") == 2366, "persistent put at CFLEVEL(2): 2366 (reading)")
    check(put("QL2R", 100, True).get("reason") == 2366, "persistent put at CFLEVEL(2) RECOVER(YES): 2366")
    check(put("QL3", 100, True).get("reason") == 2048, "persistent put with RECOVER(NO): 2048")
    check(put("QL3R", 100, True)["ok"], "persistent put at CFLEVEL(3) RECOVER(YES) succeeds")
    check(put("QL2", 100)["ok"], "nonpersistent put at CFLEVEL(2) succeeds")
    check(put("QL3R", 64512)["ok"], "a 63 KB message fits a CFLEVEL(3) structure")
    check(put("QL3R", 64513).get("reason") == 2366, "a message over 63 KB at CFLEVEL(3): 2366")
    check(put("QSMALL", 1001).get("reason") == 2030, "a message over MAXMSGL: 2030")
    o = put("QL4", 70000)
    check(o["ok"] and o["offloaded"] and o["location"] == "DB2", "CFLEVEL(4): a 70 000-byte message goes to Db2")
    # definitions
    d = lambda **s: c.op(op="define_structure", structure=s)
    check(d(name="X2", cflevel=2, recover=True).get("reason") == "INVALID", "RECOVER(YES) needs CFLEVEL(3)")
    check(d(name="X4", cflevel=4, offload="SMDS").get("reason") == "INVALID", "OFFLOAD needs CFLEVEL(5)")
    check(d(name="TOOLONGNAME13", cflevel=3).get("reason") == "INVALID", "structure names are at most 12 characters")
    check(d(name="CSQ_ADMIN").get("reason") == "INVALID", "CSQ_ADMIN cannot be defined")
    check(d(name="APP9", cflevel=5, offload="SMDS")["ok"], "a valid DEFINE CFSTRUCT succeeds")
    # CFLEVEL decrease needs empty queues
    a = c.op(op="alter_structure", name="L4", changes={"cflevel": 3})
    check(a.get("reason") == "NOT_ALLOWED", "CFLEVEL decrease from 4 with a message on a queue is refused")
    c.op(op="get", qmgr="QM01", queue="QL4")
    check(c.op(op="alter_structure", name="L4", changes={"cflevel": 3})["ok"],
          "CFLEVEL decrease from 4 with the queues empty is accepted")
    check(c.op(op="alter_structure", name="L3", changes={"cflevel": 5})["ok"], "CFLEVEL increase accepted")


def test_events_seed004(c):
    # Seed 004: QM1 has PERFMEV(DISABLED); SQ1 shared, LQ1 nonshared; both
    # QDPHIEV(ENABLED) QDPLOEV(DISABLED) QDPMAXEV(DISABLED).
    qa = {"maxdepth": 10, "qdepthhi": 80, "qdepthlo": 20, "qdphiev": True,
          "qdploev": False, "qdpmaxev": False}
    c.open(mq_cfg([{"name": "APP1", "size_kb": 16384}],
                  [dict(qa, name="SQ1", cfstruct="APP1"), dict(qa, name="LQ1", qmgr="QM01")],
                  qmgrs=["QM01", "QM02", "QM03"], perfmev_disabled=["QM01"]))
    ev = []
    for i in range(8):
        ev += c.op(op="put", qmgr="QM01", queue="SQ1", length=100, tag=i).get("events", [])
        ev += c.op(op="put", qmgr="QM01", queue="LQ1", length=100, tag=i).get("events", [])
    v = c.inspect()["queues"]
    check(v["SQ1"]["qdphiev"] is False and v["SQ1"]["qdploev"] is True and v["SQ1"]["qdpmaxev"] is True,
          "seed 004: SQ1's QDPHIEV switches to DISABLED, QDPLOEV and QDPMAXEV to ENABLED")
    check(v["LQ1"]["qdphiev"] is True and v["LQ1"]["qdploev"] is False and v["LQ1"]["qdpmaxev"] is False,
          "seed 004: LQ1's attributes remain unchanged while PERFMEV is DISABLED")
    check(ev == [], "coordinator with PERFMEV(DISABLED): no event messages (reading)")
    # now QM02 (enabled) drives the depth down: it coordinates, QM03 joins, QM01 does not
    c.op(op="put", qmgr="QM03", queue="SQ1", length=100, tag=99)
    ev = []
    for i in range(7):
        ev += c.op(op="get", qmgr="QM02", queue="SQ1").get("events", [])
    check([e["qmgr"] for e in ev] == ["QM02", "QM03"] and all(e["kind"] == "QDPLO" for e in ev),
          "queue depth low: the coordinating QM02 then the other enabled active QM03 (%r)" % ev)
    check(len({e["correl"] for e in ev}) == 1 and ev[0]["correl"] > 0, "one CorrelId for the set")
    check(ev[0]["enq"] == 0 and ev[0]["deq"] == 7 and ev[1]["enq"] == 1 and ev[1]["deq"] == 0,
          "each event message carries its queue manager's own counts (%r)" % ev)
    # stopped queue managers do not answer the broadcast
    c.op(op="stop_qmgr", qmgr="QM03")
    ev = []
    for i in range(7):
        ev += c.op(op="put", qmgr="QM02", queue="SQ1", length=100, tag=i).get("events", [])
    check([e["qmgr"] for e in ev] == ["QM02"], "an inactive queue manager issues no event message")


def test_events_example2(c):
    # queue depth events example 2: MAXDEPTH 1000, QDEPTHHI 80, QDEPTHLO 20
    c.open(mq_cfg([{"name": "APP1", "size_kb": 65536}],
                  [{"name": "Q1", "cfstruct": "APP1", "maxdepth": 1000, "qdphiev": True}],
                  qmgrs=["QM01"]))
    ops = [{"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 10, "tag": i} for i in range(1000)]
    outs = c.batch(ops)
    evs = [(i, e) for i, o in enumerate(outs) for e in o.get("events", [])]
    check(len(evs) == 1 and evs[0][0] == 799 and evs[0][1]["kind"] == "QDPHI" and evs[0][1]["enq"] == 800,
          "Queue Depth High when the depth reaches 800")
    o = c.op(op="put", qmgr="QM01", queue="Q1", length=10, tag=1000)
    check(o.get("reason") == 2053 and [e["kind"] for e in o.get("events", [])] == ["QFULL"],
          "the first put to a full queue: 2053 and a Queue Full event")
    check(o["events"][0]["enq"] == 200, "Queue Full counts the puts since the last event")
    v = c.inspect()["queues"]["Q1"]
    check((v["qdphiev"], v["qdploev"], v["qdpmaxev"]) == (False, True, False),
          "after Queue Full only Queue Depth Low is enabled")
    o = c.op(op="put", qmgr="QM01", queue="Q1", length=10, tag=1001)
    check(o.get("reason") == 2053 and not o.get("events"), "a second put to a full queue: no new event")
    outs = c.batch([{"op": "get", "qmgr": "QM01", "queue": "Q1"} for _ in range(800)])
    evs = [(i, e) for i, o in enumerate(outs) for e in o.get("events", [])]
    check(len(evs) == 1 and evs[0][0] == 799 and evs[0][1]["kind"] == "QDPLO" and evs[0][1]["deq"] == 800,
          "Queue Depth Low when the depth falls to 200")
    v = c.inspect()["queues"]["Q1"]
    check((v["qdphiev"], v["qdploev"], v["qdpmaxev"]) == (True, False, True),
          "Queue Depth Low enables Queue Depth High and Queue Full")
    # RESET QSTATS: the counts start again from zero
    c.batch([{"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 10, "tag": 1} for _ in range(100)])
    c.op(op="reset_qstats", qmgr="QM01", queue="Q1")
    outs = c.batch([{"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 10, "tag": 1} for _ in range(500)])
    evs = [e for o in outs for e in o.get("events", [])]
    check(len(evs) == 1 and evs[0]["enq"] == 500 and evs[0]["deq"] == 0,
          "after RESET QSTATS the event counts only later operations (%r)" % evs)


def test_syncpoint(c):
    c.open(mq_cfg([{"name": "APP1", "size_kb": 16384, "cflevel": 3, "recover": True}],
                  [{"name": "Q1", "cfstruct": "APP1", "maxdepth": 2}]))
    check(c.op(op="put", qmgr="QM01", queue="Q1", length=10, syncpoint=True, tag=1)["ok"], "syncpoint put")
    check(c.op(op="get", qmgr="QM02", queue="Q1").get("reason") == 2033, "uncommitted message is not available")
    c.op(op="put", qmgr="QM01", queue="Q1", length=10, syncpoint=True, tag=2)
    check(c.op(op="put", qmgr="QM02", queue="Q1", length=10, tag=3).get("reason") == 2053,
          "uncommitted puts count towards MAXDEPTH")
    c.op(op="commit", qmgr="QM01")
    o = c.op(op="get", qmgr="QM02", queue="Q1", syncpoint=True)
    check(o.get("tag") == 1, "FIFO after commit")
    c.op(op="backout", qmgr="QM02")
    check(c.op(op="get", qmgr="QM02", queue="Q1").get("tag") == 1, "backed-out get returns the message")
    c.op(op="put", qmgr="QM03", queue="Q1", length=10, syncpoint=True, tag=9)
    c.op(op="stop_qmgr", qmgr="QM03")
    check(c.inspect()["queues"]["Q1"]["depth"] == 1, "stopping a queue manager backs out its unit of work")
    check(c.op(op="put", qmgr="QM03", queue="Q1", length=10).get("reason") == "NOT_ACTIVE",
          "a stopped queue manager cannot put")


def test_full_and_alter(c):
    c.open(mq_cfg([{"name": "APP1", "size_kb": 6144, "initsize_kb": 5632, "fullthreshold": 80,
                    "ratio": 1}], [{"name": "Q1", "cfstruct": "APP1"}]))
    sig, n, last = [], 0, None
    while True:
        o = c.op(op="put", qmgr="QM01", queue="Q1", length=100, tag=n)
        if not o["ok"]:
            break
        n += 1
        last = o["usage"]
        for s in o.get("signals", []):
            sig.append((s, o["usage"]))
    check(o["reason"] == 2192, "a full structure gives 2192")
    check(len(sig) == 1 and sig[0][0] == "IXC585E APP1" and 100 * sig[0][1][0] >= 80 * sig[0][1][1]
          and 100 * (sig[0][1][0] - 1) < 80 * sig[0][1][1], "IXC585E when usage reaches FULLTHRESHOLD")
    o = c.op(op="setxcf_alter", cfstruct="APP1", size_kb=5632)
    check(o.get("reason") == "OUT_OF_RANGE", "SETXCF ALTER to the current size is refused (reading)")
    o = c.op(op="setxcf_alter", cfstruct="APP1", size_kb=6144)
    check(o.get("reason") == "OUT_OF_RANGE", "SETXCF ALTER to exactly SIZE is refused (reading)")
    o = c.op(op="setxcf_alter", cfstruct="APP1", size_kb=6000)
    check(o["ok"] and o["usage"][1] > last[1] and "IXC586I APP1" in o.get("signals", []),
          "SETXCF ALTER between current size and SIZE grows the structure, IXC586I (%r)" % o)


def test_recovery(c):
    c.open(mq_cfg([{"name": "APP1", "size_kb": 16384, "cflevel": 3, "recover": True},
                   {"name": "NOREC", "size_kb": 16384, "cflevel": 3}],
                  [{"name": "Q1", "cfstruct": "APP1"}]))
    check(c.op(op="backup", qmgr="QM01", cfstruct="NOREC").get("reason") == "NOT_ALLOWED",
          "BACKUP of a RECOVER(NO) structure fails")
    check(c.op(op="recover", cfstruct="APP1").get("reason") == "NOT_FAILED", "RECOVER of a structure not FAILED")
    check(c.op(op="recover", cfstruct="APP1", purge=True).get("reason") == "NOT_FAILED",
          "RECOVER TYPE(PURGE) of a structure not FAILED is refused (reading)")
    c.op(op="put", qmgr="QM01", queue="Q1", length=10, persistent=True, tag=1)
    c.op(op="put", qmgr="QM01", queue="Q1", length=10, persistent=False, tag=2)
    c.op(op="put", qmgr="QM01", queue="Q1", length=10, persistent=True, tag=3, syncpoint=True)
    c.op(op="fail_structure", cfstruct="APP1")
    check(c.op(op="put", qmgr="QM02", queue="Q1", length=10).get("reason") == 2373, "put on a failed structure: 2373")
    check(c.op(op="get", qmgr="QM02", queue="Q1").get("reason") == 2373, "get on a failed structure: 2373")
    check(c.op(op="recover", cfstruct="APP1").get("reason") == "NO_BACKUP", "RECOVER without a backup")
    c.op(op="fail_structure", cfstruct="APP1")
    c.op(op="recover", cfstruct="APP1", purge=True)
    check(c.inspect()["queues"]["Q1"]["depth"] == 0, "RECOVER TYPE(PURGE) empties the structure")
    c.op(op="put", qmgr="QM01", queue="Q1", length=10, persistent=True, tag=4)
    c.op(op="put", qmgr="QM01", queue="Q1", length=10, persistent=False, tag=5)
    check(c.op(op="backup", qmgr="QM01", cfstruct="APP1")["ok"], "BACKUP CFSTRUCT")
    c.op(op="put", qmgr="QM01", queue="Q1", length=10, persistent=True, tag=6)
    c.op(op="fail_structure", cfstruct="APP1")
    check(c.op(op="recover", cfstruct="APP1")["ok"], "RECOVER CFSTRUCT after a failure")
    tags = []
    while True:
        o = c.op(op="get", qmgr="QM01", queue="Q1")
        if not o["ok"]:
            break
        tags.append(o["tag"])
    check(tags == [4, 6], "recovery restores the committed persistent messages, including those "
                          "logged after the backup (%r)" % tags)


def test_topology(c):
    r = c.open(mq_cfg([{"name": "APP1"}], [], qmgrs=["Q%02d" % i for i in range(33)]))
    check(r["type"] == "error" and r["code"] == 13, "33 queue managers is a bad config")
    c.open(mq_cfg([{"name": "APP1", "size_kb": 16384}], []))
    outs = c.batch([{"op": "define_queue", "queue": {"name": "Q%03d" % i, "cfstruct": "APP1"}}
                    for i in range(513)])
    check(all(o["ok"] for o in outs[:512]) and outs[512].get("reason") == "INVALID",
          "512 queues per structure")
    outs = c.batch([{"op": "define_structure", "structure": {"name": "S%d" % i}} for i in range(63)])
    check(all(o["ok"] for o in outs[:62]) and outs[62].get("reason") == "INVALID",
          "63 application structures (64 with CSQ_ADMIN)")
    v = c.inspect()
    check(v["admin"]["entries_total"] >= 3000 and v["admin"]["size_kb"] >= 7976,
          "CSQ_ADMIN: Table 1 size and 1000 entries per queue manager")
    check(v["structures"]["APP1"]["cfname"] == "QSG1APP1", "CFRM name is QSG name + structure name")
    c.open(mq_cfg([{"name": "APP1"}], [], qsg="SQ3"))
    check(c.inspect()["structures"]["APP1"]["cfname"] == "SQ3@APP1", "QSG name padded with @")
    r = c.open(mq_cfg([{"name": "APP1"}], [], qmgrs=["QM01", "QM02"], admin_size_kb=6144))
    check(r["type"] == "error" and r["code"] == 13, "a CSQ_ADMIN below Table 1 is a bad config")


def test_sizing_table2(c):
    # Table 2 (seed 001): a structure of the table's size holds that many messages
    # (with an entry:element ratio fitted to the message size)
    for n, kb, mb in ((100, 63, 14), (1000, 1, 8), (1000, 32, 48), (10000, 1, 25), (10000, 4, 64)):
        length = kb * 1024 if kb < 63 else 64512
        ratio = max(1, -(-length // impl.ELEMENT_DATA))
        c.open(mq_cfg([{"name": "APP1", "size_kb": mb * 1024, "cflevel": 3, "ratio": ratio}],
                      [{"name": "Q1", "cfstruct": "APP1"}]))
        ok = 0
        for start in range(0, n, 1000):
            outs = c.batch([{"op": "put", "qmgr": "QM01", "queue": "Q1", "length": length, "tag": i}
                            for i in range(start, min(n, start + 1000))])
            ok += sum(1 for o in outs if o["ok"])
        check(ok == n, "Table 2: %d messages of %d KB fit in %d MB (%d did)" % (n, kb, mb, ok))


def test_cqs(c):
    base = {"profile": "cqs", "qsg": "IMS1", "qmgrs": ["CQS1", "CQS2"], "lgmsgsz": 4096}
    # without an overflow structure: puts to selected queues are rejected
    cfg = dict(base, structures=[{"name": "MSGQ", "size_kb": 6144, "ratio": 2, "fullthreshold": 0}],
               queues=[{"name": "TRANA", "cfstruct": "MSGQ"}, {"name": "TRANB", "cfstruct": "MSGQ"},
                       {"name": "TRANC", "cfstruct": "MSGQ"}], overflow_exit=["TRANA"])
    c.open(cfg)
    sig = []
    i = 0
    while not sig:
        q = ["TRANA", "TRANA", "TRANB", "TRANC"][i % 4]
        o = c.op(op="put", qmgr="CQS1", queue=q, length=1000, tag=i)
        i += 1
        sig = o.get("signals", [])
    u = o["usage"]
    check(sig == ["ALTER MSGQ"] and 100 * u[2] >= 70 * u[3] and 100 * (u[2] - 2) < 70 * u[3],
          "CQS starts a structure alter when usage reaches OVFLWMAX (70%)")
    v = c.inspect()["structures"]["MSGQ"]
    check(v["alter_pending"] and not v["overflow_mode"], "alter pending, no overflow mode yet")
    o = c.op(op="alter_outcome", cfstruct="MSGQ", success=False)
    s = o.get("signals", [])
    check(s[0] == "OVERFLOW_ON MSGQ", "a failed alter puts the structure into overflow mode")
    check("OVERFLOW_QUEUE MSGQ TRANA" not in s, "the Queue Overflow exit vetoes TRANA")
    check("OVERFLOW_QUEUE MSGQ TRANB" in s, "the next largest queue is selected (%r)" % s)
    o = c.op(op="put", qmgr="CQS1", queue="TRANB", length=10, tag=1)
    check(o.get("reason") == "REJECTED_OVERFLOW", "no overflow structure: CQSPUT to a selected queue is rejected")
    check(c.op(op="put", qmgr="CQS1", queue="TRANA", length=10, tag=1)["ok"], "vetoed queue keeps working")
    off = False
    for _ in range(10000):
        o = c.op(op="get", qmgr="CQS2", queue="TRANA")
        if not o["ok"]:
            break
        if "OVERFLOW_OFF MSGQ" in o.get("signals", []):
            off = True
            u = o["usage"]
            break
    check(off and 1000 * u[2] <= 8 * 70 * u[3],
          "overflow mode ends when usage falls 20%% below the threshold (0.8 x 70%%) %r" % (u,))

    # with an overflow structure: selected queues move, the scan returns empty ones
    cfg = dict(base, structures=[{"name": "MSGQ", "size_kb": 6144, "ratio": 2, "fullthreshold": 0,
                                  "ovflwstr": "MSGQOVFL", "ovflw_size_kb": 8192}],
               queues=[{"name": "TRANA", "cfstruct": "MSGQ"}, {"name": "TRANB", "cfstruct": "MSGQ"}])
    c.open(cfg)
    i = 0
    while True:
        o = c.op(op="put", qmgr="CQS1", queue="TRANA" if i % 3 else "TRANB", length=1000, tag=i)
        i += 1
        if o.get("signals"):
            break
    c.op(op="advance_clock", seconds=100)
    o = c.op(op="alter_outcome", cfstruct="MSGQ", success=False)
    check("OVERFLOW_QUEUE MSGQ TRANA" in o.get("signals", []), "largest queue moved to the overflow structure")
    v = c.inspect()
    check(v["structures"]["MSGQ"]["overflow_queues"] == ["TRANA"] and v["queues"]["TRANA"]["overflow"],
          "TRANA in overflow mode (%r)" % v["structures"]["MSGQ"])
    check(1000 * v["structures"]["MSGQ"]["elements_used"] <= 8 * 70 * v["structures"]["MSGQ"]["elements_total"],
          "moving TRANA takes the primary 20% below the threshold")
    check(c.op(op="put", qmgr="CQS1", queue="TRANA", length=10000, tag=500)["ok"],
          "puts to an overflow queue go to the overflow structure")
    check(c.inspect()["structures"]["MSGQ"]["staging_depth"] == 2,
          "a 10 000-byte message with LGMSGSZ 4096: 2 parts on the staging queue")
    while c.op(op="get", qmgr="CQS2", queue="TRANA")["ok"]:
        pass
    o = c.op(op="advance_clock", seconds=899)
    check(not o.get("signals"), "no scan before 15 minutes after overflow started (reading)")
    o = c.op(op="advance_clock", seconds=1)
    check(o.get("signals") == ["OVERFLOW_QUEUE_OFF MSGQ TRANA", "OVERFLOW_OFF MSGQ"],
          "the 15-minute scan returns the empty queue and overflow mode ends (%r)" % o)
    check(c.inspect()["structures"]["MSGQ"]["staging_depth"] == 0, "staging parts deleted with the message")


def main():
    c = Client()
    for t in (test_offload_seed002, test_cflevel, test_events_seed004, test_events_example2,
              test_syncpoint, test_full_and_alter, test_recovery, test_topology,
              test_sizing_table2, test_cqs):
        try:
            t(c)
        except Exception as e:  # keep going
            FAILS.append("%s raised %r" % (t.__name__, e))
            print("FAIL:", t.__name__, "raised", repr(e))
            c = Client()
    c.close()
    print("selftest: %d checks passed, %d failed" % (PASSES, len(FAILS)))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
