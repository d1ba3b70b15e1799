#!/usr/bin/env python3
"""Self-test of impl.py over the wire: a child process, newline-delimited JSON,
every reply validated against the JSON Schemas (schemacheck.py), and checks of
the protocol and of both profiles' semantics.  Exit 0 when every check passes.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import schemacheck  # noqa: E402

IMPL = os.path.join(HERE, "impl.py")
RESULTS = []


def check(name, cond, info=""):
    RESULTS.append((name, bool(cond)))
    print("%s %s%s" % ("PASS" if cond else "FAIL", name, "" if cond else "  -- %s" % (info,)))
    return cond


class Wire:
    """One impl.py child process."""

    def __init__(self, *args, init=True, max_line_bytes=1048576):
        self.proc = subprocess.Popen([sys.executable, IMPL] + list(args), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.mid = 0
        self.schema_errors = []
        self.init_reply = None
        if init:
            self.init_reply = self.request({"type": "init", "protocol_version": "1.3",
                                            "suite": "selftest",
                                            "max_line_bytes": max_line_bytes})

    def raw(self, data):
        """Send raw bytes (one line); return the parsed reply, schema-checked."""
        self.proc.stdin.write(data)
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("no reply; stderr: %s" % self.proc.stderr.read()[-2000:])
        if not line.endswith(b"\n") or line.strip() == b"":
            self.schema_errors.append("bad framing %r" % line[:80])
        reply = json.loads(line)
        kind = reply.get("type")
        schema = {"init_ok": "init_ok", "open_ok": "open_ok", "apply_ok": "apply_ok",
                  "batch_ok": "batch_ok", "close_ok": "close_ok", "error": "error"}.get(kind)
        if schema is None:
            self.schema_errors.append("reply of unknown type %r" % kind)
        else:
            errs = schemacheck.validate(reply, schema)
            if errs:
                self.schema_errors.append("%s: %s" % (kind, errs[:3]))
        return reply

    def request(self, msg):
        self.mid += 1
        msg = dict(msg, msg_id=self.mid)
        reply = self.raw(json.dumps(msg).encode() + b"\n")
        if reply.get("in_reply_to") != self.mid:
            self.schema_errors.append("in_reply_to %r for msg_id %d" % (reply.get("in_reply_to"),
                                                                        self.mid))
        return reply

    def open(self, config):
        return self.request({"type": "open", "config": config})

    def apply(self, op):
        r = self.request({"type": "apply", "op": op})
        if r.get("type") == "apply_ok" and r["outcome"]["kind"] != op.get("op"):
            self.schema_errors.append("outcome kind %r for op %r" % (r["outcome"]["kind"],
                                                                     op.get("op")))
        return r

    def out(self, op):
        """The outcome of op (or the error reply)."""
        r = self.apply(op)
        return r["outcome"] if r.get("type") == "apply_ok" else r

    def batch(self, ops):
        return self.request({"type": "batch", "ops": ops})

    def close(self):
        r = self.request({"type": "close"})
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = None
        rest = self.proc.stdout.read()
        return r, code, rest

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


# --------------------------------------------------------------- helpers
def S(name="APP1", **kw):
    d = {"name": name}
    d.update(kw)
    return d


def Q(name="Q1", cfstruct="APP1", **kw):
    d = {"name": name, "cfstruct": cfstruct}
    d.update(kw)
    return d


def mq(structures=None, queues=None, qmgrs=("QM01", "QM02"), **kw):
    cfg = {"profile": "mq", "qsg": "QSG1", "qmgrs": list(qmgrs),
           "structures": structures if structures is not None else [S()],
           "queues": queues if queues is not None else [Q()]}
    cfg.update(kw)
    return cfg


def put(qmgr="QM01", queue="Q1", length=100, tag=1, **kw):
    d = {"op": "put", "qmgr": qmgr, "queue": queue, "length": length, "tag": tag}
    d.update(kw)
    return d


def get(qmgr="QM01", queue="Q1", **kw):
    d = {"op": "get", "qmgr": qmgr, "queue": queue}
    d.update(kw)
    return d


def CS(name="MSGQ", **kw):
    d = {"name": name, "size_kb": 512, "ratio": 1, "ovflwmax": 50}
    d.update(kw)
    return d


def cqs(structures=None, queues=None, **kw):
    cfg = {"profile": "cqs", "qsg": "IMS1", "qmgrs": ["CQS1"], "lgmsgsz": 30000,
           "structures": structures if structures is not None else [CS()],
           "queues": queues if queues is not None else
           [Q("TRANA", "MSGQ"), Q("TRANB", "MSGQ"), Q("TRANC", "MSGQ")]}
    cfg.update(kw)
    return cfg


def cput(queue="TRANA", length=20000, tag=1):
    return {"op": "put", "qmgr": "CQS1", "queue": queue, "length": length, "tag": tag}


def cget(queue="TRANA"):
    return {"op": "get", "qmgr": "CQS1", "queue": queue}


INSPECT = {"op": "inspect"}


def adv(s):
    return {"op": "advance_clock", "seconds": s}


def sigs(o):
    return sorted(o.get("signals", []))


def evs(o):
    return [(e["qmgr"], e["kind"], e["enq"], e["deq"]) for e in o.get("events", [])]


# =============================================================== protocol
def test_protocol():
    w = Wire()
    r = w.init_reply
    check("init_ok type and version", r["type"] == "init_ok" and r["protocol_version"] == "1.3")
    caps = r["capabilities"]
    check("capabilities valid against capabilities.json",
          not schemacheck.validate(caps, "capabilities"))
    check("both profiles claimed", caps["profiles"] == ["mq", "cqs"])
    check("every family claimed", len(caps["families"]) == 9)
    readings = caps["readings"]
    allowed = schemacheck.load("capabilities")["properties"]["readings"]["properties"]
    check("every ambiguity declared, none unknown",
          set(readings) == set(allowed) and "unknown" not in readings.values(),
          sorted(set(allowed) - set(readings)))
    check("observes all four observables", sorted(caps["observes"]) ==
          ["events", "inspect", "signals", "usage"])
    r = w.request({"type": "init", "protocol_version": "1.3"})
    check("second init is error 15", r["type"] == "error" and r["code"] == 15 and r["definite"])
    r = w.request({"type": "apply", "op": {"op": "inspect"}})
    check("apply before open is error 15", r["type"] == "error" and r["code"] == 15)
    r = w.raw(b"this is not json\n")
    check("non-JSON line is error 11 with in_reply_to null",
          r["type"] == "error" and r["code"] == 11 and r["in_reply_to"] is None)
    r = w.raw(b'{"type":"apply"}\n')
    check("missing msg_id is error 11 with in_reply_to null",
          r["code"] == 11 and r["in_reply_to"] is None)
    r = w.raw(b'{"type":"apply","msg_id":900,"op":{"op":"put","length":NaN}}\n')
    check("NaN in a request is error 11", r["type"] == "error" and r["code"] == 11)
    r = w.request({"type": "frobnicate"})
    check("unknown message type is error 11", r["code"] == 11 and r["definite"])
    r = w.request({"type": "apply_ok"})
    check("a reply type sent as a request is error 11", r["code"] == 11)
    r = w.open(mq(structures=[S(bogus=1)]))
    check("config with unknown structure field is error 13", r["code"] == 13 and "detail" in r)
    r = w.request({"type": "apply", "op": {"op": "inspect"}})
    check("after a failed open the implementation is not open", r["code"] == 15)
    r = w.open({"profile": "zos"})
    check("unknown profile refused (13, schema)", r["type"] == "error" and r["code"] in (10, 13))
    r = w.open(mq())
    check("open_ok for a valid mq config", r["type"] == "open_ok")
    r = w.apply({"op": "frob"})
    check("unknown op kind is a definite error 11", r["code"] == 11 and r["definite"])
    r = w.apply({"op": "put", "qmgr": "QM01", "queue": "Q1"})
    check("op missing a required field is error 11", r["code"] == 11)
    r = w.apply(put(qmgr="QM09"))
    check("unknown queue manager is error 14 with detail",
          r["code"] == 14 and r["detail"]["field"] == "qmgr")
    r = w.apply(put(queue="NOPE"))
    check("unknown queue is error 14", r["code"] == 14)
    r = w.apply({"op": "alter_outcome", "cfstruct": "APP1", "success": True})
    check("a cqs-only operation in the mq profile is error 14", r["code"] == 14)
    r = w.batch([])
    check("empty batch is error 11", r["code"] == 11)
    r = w.batch([put(tag=1), put(tag=2, queue="NOPE"), put(tag=3)])
    check("batch stops at the failing op with an error",
          r["type"] == "batch_ok" and len(r["outcomes"]) == 1 and r["error"]["code"] == 14)
    o = w.out(INSPECT)
    check("ops after the failing batch op were not applied", o["value"]["queues"]["Q1"]["depth"] == 1)
    r = w.batch([get(), get(), INSPECT])
    check("batch outcomes in order", [x["kind"] for x in r["outcomes"]] == ["get", "get", "inspect"]
          and r["outcomes"][0]["tag"] == 1 and r["outcomes"][1]["reason"] == 2033)
    big = b'{"type":"apply","msg_id":77,"op":{"op":"inspect","pad":"' + b"x" * 1100000 + b'"}}\n'
    r = w.raw(big)
    check("an over-long line is error 17, in_reply_to null", r["code"] == 17 and r["in_reply_to"] is None)
    o = w.out(INSPECT)
    check("survives the over-long line", o.get("kind") == "inspect")
    r, code, rest = w.close()
    check("close_ok then exit 0 with nothing more on stdout",
          r["type"] == "close_ok" and code == 0 and rest == b"")
    check("every reply matched its schema (connection 1)", not w.schema_errors, w.schema_errors)

    w = Wire(init=False)
    r = w.request({"type": "open", "config": mq()})
    check("open before init is error 15", r["code"] == 15)
    r = w.request({"type": "init", "protocol_version": "2.0"})
    check("major version 2 is error 16", r["code"] == 16)
    w.proc.stdin.close()
    check("exit 0 at end of stdin", w.proc.wait(timeout=5) == 0)

    w = Wire(max_line_bytes=1024)
    w.open(mq())
    r = w.batch([put(tag=i) for i in range(40)])
    n = len(r["outcomes"])
    check("batch reply kept under the suite's line limit (prefix)",
          r["type"] == "batch_ok" and 1 <= n < 40 and "error" not in r
          and len(json.dumps(r)) <= 1024, n)
    w.open(mq(queues=[Q("QUEUE%02d" % i) for i in range(40)]))
    r = w.batch([INSPECT])
    check("an outcome that cannot fit is error 18",
          r["type"] == "error" and r["code"] == 18 and r["definite"] is False)
    w.open(mq())
    r = w.batch([put(tag=i) for i in range(40)])
    n = len(r["outcomes"])
    # only the prefix was applied: depth equals the number of outcomes
    cnt = 0
    while True:
        r = w.batch([get()])
        if r["outcomes"][0]["ok"] is False:
            break
        cnt += 1
    check("only the prefix of the batch was applied", cnt == n, (cnt, n))
    w.close()
    check("every reply matched its schema (small line limit)", not w.schema_errors, w.schema_errors)

    w = Wire("--fault", "QUEUE_LIFO")
    w.open(mq())
    w.out(put(tag=1))
    w.out(put(tag=2))
    check("--fault switches a fault on", w.out(get()).get("tag") == 2)
    w.close()
    lst = subprocess.run([sys.executable, IMPL, "--list-faults"], capture_output=True, text=True)
    check("--list-faults lists at least 60 faults", len(lst.stdout.split()) >= 60)
    bad = subprocess.run([sys.executable, IMPL, "--fault", "NO_SUCH"], capture_output=True,
                         text=True, input="")
    check("an unknown fault id is refused", bad.returncode != 0)


# =============================================================== MQ queue/UOW
def test_mq_queue():
    w = Wire()
    w.open(mq(queues=[Q(), Q("LQ1", None, qmgr="QM01"), Q("Q2", maxdepth=2, maxmsgl=1000)]))
    o = w.out(put(tag=1))
    check("put ok with location CF and our usage [1,1811,1,10866]",
          o["ok"] and o["location"] == "CF" and o["offloaded"] is False
          and o["usage"] == [1, 1811, 1, 10866], o)
    w.out(put(tag=2))
    check("FIFO: first get returns the first message", w.out(get("QM02")).get("tag") == 1)
    check("second get returns the second", w.out(get("QM02")).get("tag") == 2)
    check("get on an empty queue is 2033", w.out(get()).get("reason") == 2033)
    w.out(put(tag=3, syncpoint=True))
    check("uncommitted put is not retrievable", w.out(get("QM02")).get("reason") == 2033)
    check("uncommitted put counts in the depth",
          w.out(INSPECT)["value"]["queues"]["Q1"]["depth"] == 1)
    w.out({"op": "commit", "qmgr": "QM01"})
    check("after commit the message is retrievable", w.out(get("QM02")).get("tag") == 3)
    w.out(put(tag=4, syncpoint=True))
    w.out({"op": "backout", "qmgr": "QM01"})
    check("backout removes the put", w.out(get()).get("reason") == 2033)
    w.out(put(tag=5))
    o = w.out(get(syncpoint=True))
    check("get in a unit of work returns the message", o.get("tag") == 5)
    check("a got-but-uncommitted message leaves the depth",
          w.out(INSPECT)["value"]["queues"]["Q1"]["depth"] == 0)
    w.out({"op": "backout", "qmgr": "QM01"})
    check("backout of a get restores the message", w.out(get("QM02")).get("tag") == 5)
    w.out(put(tag=6, syncpoint=True))
    w.out({"op": "stop_qmgr", "qmgr": "QM01"})
    check("stop backs out the unit of work", w.out(get("QM02")).get("reason") == 2033)
    check("put through a stopped queue manager is 2059", w.out(put()).get("reason") == 2059)
    w.out({"op": "start_qmgr", "qmgr": "QM01"})
    check("after start the queue manager works", w.out(put(tag=7))["ok"])
    r = w.apply(put("QM02", "LQ1"))
    check("a nonshared queue is not visible to another queue manager", r.get("code") == 14)
    w.out(put(queue="LQ1", tag=8))
    w.out(put(queue="LQ1", tag=9, persistent=True))
    w.out({"op": "stop_qmgr", "qmgr": "QM01"})
    w.out({"op": "start_qmgr", "qmgr": "QM01"})
    check("nonshared: nonpersistent lost at stop, persistent kept (reading lost)",
          w.out(get(queue="LQ1")).get("tag") == 9 and w.out(get(queue="LQ1")).get("reason") == 2033)
    w.out(put(queue="Q2", tag=10))
    w.out(put(queue="Q2", tag=11))
    check("third put to MAXDEPTH(2) is 2053", w.out(put(queue="Q2")).get("reason") == 2053)
    check("message over MAXMSGL is 2030", w.out(put(queue="Q2", length=1001)).get("reason") == 2030)
    w.close()
    check("every reply matched its schema (mq queue)", not w.schema_errors, w.schema_errors)


# =============================================================== MQ CFLEVEL/offload
def test_mq_offload():
    w = Wire()
    w.open(mq([S("L2", cflevel=2), S("L3", cflevel=3), S("L3R", cflevel=3, recover=True),
               S("L4", cflevel=4), S("L5", cflevel=5), S("L5D", cflevel=5, offload="DB2"),
               S("R0", cflevel=5, offld1th=0), S("R64", cflevel=5, offld1th=0, offld1sz=65536),
               S("R3", cflevel=5, size_kb=1024, offld3th=50)],
              [Q("Q2", "L2"), Q("Q3", "L3"), Q("Q3R", "L3R"), Q("Q4", "L4"), Q("Q5", "L5"),
               Q("Q5D", "L5D"), Q("QR0", "R0"), Q("Q64", "R64"), Q("QR3", "R3")]))
    check("persistent put at CFLEVEL(2) is 2366 (reading)",
          w.out(put(queue="Q2", persistent=True)).get("reason") == 2366)
    check("persistent put to RECOVER(NO) is 2048",
          w.out(put(queue="Q3", persistent=True)).get("reason") == 2048)
    check("persistent put to CFLEVEL(3) RECOVER(YES) succeeds",
          w.out(put(queue="Q3R", persistent=True))["ok"])
    check("64512 bytes fit the structure at CFLEVEL(3)",
          w.out(put(queue="Q3", length=64512))["ok"])
    check("64513 bytes at CFLEVEL(3) is 2030 (reading for the code)",
          w.out(put(queue="Q3", length=64513)).get("reason") == 2030)
    o = w.out(put(queue="Q4", length=65281))
    check("large message at CFLEVEL(4) goes to Db2", o.get("location") == "DB2" and o["offloaded"])
    o = w.out(put(queue="Q5", length=65281))
    check("large message at CFLEVEL(5) goes to SMDS and costs 1 entry + 1 element",
          o.get("location") == "SMDS" and o["usage"][0] == 1 and o["usage"][2] == 1, o)
    check("OFFLOAD(DB2) sends large messages to Db2",
          w.out(put(queue="Q5D", length=70000)).get("location") == "DB2")
    check("65280 bytes stay in the CF at CFLEVEL(5) (boundary 63.75K)",
          w.out(put(queue="Q5", length=65280)).get("location") == "CF")
    check("OFFLD1TH(0): a message of exactly 32K is offloaded (inclusive)",
          w.out(put(queue="QR0", length=32768)).get("location") == "SMDS")
    check("OFFLD1TH(0): 32767 bytes stay in the CF",
          w.out(put(queue="QR0", length=32767)).get("location") == "CF")
    check("OFFLD1SZ(64K): the rule is not in effect",
          w.out(put(queue="Q64", length=40000)).get("location") == "CF")
    # R3: 1024 KB, 468 elements; OFFLD3TH(50): offload all at >= 50% elements
    locs = []
    for i in range(4):
        locs.append(w.out(put(queue="QR3", length=30000, tag=i)))
    check("below OFFLD3TH messages stay in the CF", all(o["location"] == "CF" for o in locs[:4]))
    o = w.out(INSPECT)["value"]["structures"]["R3"]
    check("4 x 30000 bytes use 240 of 468 elements", o["elements_used"] == 240, o)
    o = w.out(put(queue="QR3", length=100))
    check("at 51% elements OFFLD3 (0K) offloads even 100 bytes", o.get("location") == "SMDS", o)
    w.close()
    check("every reply matched its schema (offload)", not w.schema_errors, w.schema_errors)


# =============================================================== MQ capacity/topology
def test_mq_capacity():
    w = Wire()
    w.open(mq([S(size_kb=1024, ratio=200, fullthreshold=50), S("APP2", size_kb=2048,
                                                               initsize_kb=1024)],
              [Q(), Q("QB", "APP2")], qmgrs=("QM01", "QM02", "QM03"), qsg="QS"))
    o = w.out(put(tag=1))
    check("tiny structure: 2 entries, 400 elements", o["usage"] == [1, 2, 1, 400], o)
    check("IXC585E is not reported at the crossing (deferred)", "signals" not in o)
    o = w.out(adv(1))
    check("IXC585E reported at the next z/OS poll", sigs(o) == ["IXC585E APP1"], o)
    check("full_warning set", w.out(INSPECT)["value"]["structures"]["APP1"]["full_warning"])
    w.out(put(tag=2))
    check("structure full (all entries) is 2192", w.out(put(tag=3)).get("reason") == 2192)
    w.out(get())
    w.out(get())
    o = w.out(adv(1))
    check("IXC586I when usage falls back below", sigs(o) == ["IXC586I APP1"], o)
    v = w.out(INSPECT)["value"]
    check("cfname padded with @", v["structures"]["APP1"]["cfname"] == "QS@@APP1")
    check("CSQ_ADMIN sized from Table 1 (3 queue managers: 7976 KB)",
          v["admin"]["size_kb"] == 7976 and v["admin"]["entries_total"] >= 3000, v["admin"])
    check("structure allocated at INITSIZE", v["structures"]["APP2"]["size_kb"] == 1024)
    sx = lambda n: {"op": "setxcf_alter", "cfstruct": "APP2", "size_kb": n}
    check("SETXCF alter above SIZE refused", w.out(sx(4096)).get("reason") == "OUT_OF_RANGE")
    check("SETXCF alter to exactly SIZE refused (reading)", w.out(sx(2048)).get("reason") == "OUT_OF_RANGE")
    check("SETXCF alter to the current size refused (reading)",
          w.out(sx(1024)).get("reason") == "OUT_OF_RANGE")
    o = w.out(sx(1536))
    check("SETXCF alter between current and SIZE grows the structure",
          o["ok"] and o["usage"][1] == 118, o)
    ds = lambda **kw: {"op": "define_structure", "structure": S(**kw)}
    check("DEFINE CFSTRUCT with a bad name is INVALID", w.out(ds(name="1ABC")).get("reason") == "INVALID")
    check("DEFINE of an existing structure is INVALID", w.out(ds()).get("reason") == "INVALID")
    check("OFFLOAD below CFLEVEL(5) is INVALID",
          w.out(ds(name="X4", cflevel=4, offload="SMDS")).get("reason") == "INVALID")
    check("RECOVER(YES) below CFLEVEL(3) is INVALID",
          w.out(ds(name="X2", cflevel=2, recover=True)).get("reason") == "INVALID")
    check("OFFLD1SZ not a multiple of 1K is INVALID",
          w.out(ds(name="XS", cflevel=5, offld1sz=5000)).get("reason") == "INVALID")
    check("a valid DEFINE CFSTRUCT succeeds", w.out(ds(name="APP3", cflevel=5))["ok"])
    check("DEFINE QLOCAL on it succeeds",
          w.out({"op": "define_queue", "queue": Q("Q3", "APP3")})["ok"])
    check("DEFINE QLOCAL on an undefined structure is INVALID",
          w.out({"op": "define_queue", "queue": Q("Q4", "NOPE")}).get("reason") == "INVALID")
    w.close()
    check("every reply matched its schema (capacity)", not w.schema_errors, w.schema_errors)

    w = Wire()
    r = w.open(mq(queues=[Q("Q%03d" % i) for i in range(512)]))
    check("512 queues on one structure accepted", r["type"] == "open_ok")
    check("the 513th queue is NOT_ALLOWED",
          w.out({"op": "define_queue", "queue": Q("QX")}).get("reason") == "NOT_ALLOWED")
    r = w.open(mq([S("A%02d" % i) for i in range(63)], []))
    check("63 application structures accepted", r["type"] == "open_ok")
    check("a 64th application structure is NOT_ALLOWED",
          w.out({"op": "define_structure", "structure": S("EXTRA")}).get("reason") == "NOT_ALLOWED")
    r = w.open(mq(admin_size_kb=6144))
    check("CSQ_ADMIN below Table 1 for the group is error 13", r.get("code") == 13)
    r = w.open(mq(qsg="QSG12"))
    check("a five-character QSG name is error 13", r.get("code") == 13)
    r = w.open(mq(qmgrs=["Q%02d" % i for i in range(33)]))
    check("33 queue managers is error 13", r.get("code") == 13)
    w.close()


# =============================================================== MQ ALTER
def test_mq_alter():
    w = Wire()
    w.open(mq([S(cflevel=5, offld1th=0), S("APP4", cflevel=4), S("APP5", cflevel=5)],
              [Q(), Q("Q4", "APP4"), Q("Q5", "APP5")]))
    w.out({"op": "alter_structure", "name": "APP1", "changes": {"offld2th": 85}})
    check("ALTER CFSTRUCT keeps keywords not given",
          w.out(put(length=40000)).get("location") == "SMDS")
    check("ALTER CFSTRUCT with an unknown keyword is INVALID",
          w.out({"op": "alter_structure", "name": "APP1", "changes": {"size_kb": 9}})
          .get("reason") == "INVALID")
    w.out(put(queue="Q4"))
    check("lowering CFLEVEL from 4 with a message is NOT_ALLOWED",
          w.out({"op": "alter_structure", "name": "APP4", "changes": {"cflevel": 3}})
          .get("reason") == "NOT_ALLOWED")
    w.out(put(queue="Q5"))
    check("lowering CFLEVEL from 5 is unguarded (reading)",
          w.out({"op": "alter_structure", "name": "APP5", "changes": {"cflevel": 4}})["ok"])
    check("ALTER QLOCAL QDEPTHHI(101) is INVALID",
          w.out({"op": "alter_queue", "name": "Q1", "changes": {"qdepthhi": 101}})
          .get("reason") == "INVALID")
    check("ALTER QLOCAL event switch succeeds",
          w.out({"op": "alter_queue", "name": "Q1", "changes": {"qdphiev": True}})["ok"]
          and w.out(INSPECT)["value"]["queues"]["Q1"]["qdphiev"] is True)
    w.close()
    check("every reply matched its schema (alter)", not w.schema_errors, w.schema_errors)


# =============================================================== MQ events
def test_mq_events():
    w = Wire()
    w.open(mq(queues=[Q(maxdepth=10, qdepthhi=30, qdepthlo=10, qdphiev=True),
                      Q("Q2", maxdepth=1, qdpmaxev=True, qdphiev=True),
                      Q("LQ1", None, qmgr="QM03", maxdepth=10, qdepthhi=10, qdphiev=True)],
              qmgrs=("QM01", "QM02", "QM03"), perfmev_disabled=["QM03"]))
    w.out(put(tag=1))
    w.out(put("QM02", tag=2))
    o = w.out(put(tag=3))
    check("QDPHI at depth 3 = floor(30% of 10), from every enabled active qmgr, detector first",
          evs(o) == [("QM01", "QDPHI", 2, 0), ("QM02", "QDPHI", 1, 0)], o)
    check("one CorrelId for the set", len({e["correl"] for e in o["events"]}) == 1)
    q = w.out(INSPECT)["value"]["queues"]["Q1"]
    check("QDPHI disables QDPHIEV, enables QDPLOEV and QDPMAXEV",
          q == {"depth": 3, "qdphiev": False, "qdploev": True, "qdpmaxev": True}, q)
    check("no second QDPHI while disabled", "events" not in w.out(put(tag=4)))
    w.out(get())
    w.out(get())
    o = w.out(get())
    check("QDPLO at depth 1 = floor(10% of 10), statistics since the last event",
          evs(o) == [("QM01", "QDPLO", 1, 3), ("QM02", "QDPLO", 0, 0)], o)
    w.out(put("QM01", "Q2"))
    o = w.out(put("QM02", "Q2"))
    check("QFULL on the refused put", o.get("reason") == 2053 and
          [e["kind"] for e in o["events"]] == ["QFULL", "QFULL"], o)
    q = w.out(INSPECT)["value"]["queues"]["Q2"]
    check("QFULL disables QDPMAXEV and (reading) QDPHIEV, enables QDPLOEV",
          q["qdpmaxev"] is False and q["qdphiev"] is False and q["qdploev"] is True, q)
    o = w.out(put("QM03", "LQ1"))
    check("nonshared queue with PERFMEV(DISABLED): no event", "events" not in o)
    check("... and its attributes are unchanged",
          w.out(INSPECT)["value"]["queues"]["LQ1"]["qdphiev"] is True)
    w.out({"op": "set_perfmev", "qmgr": "QM01", "enabled": False})
    w.out({"op": "alter_queue", "name": "Q1", "changes": {"qdphiev": True}})
    w.out(put(tag=10))
    o = w.out(put(tag=12))
    check("coordinator PERFMEV(DISABLED): the other enabled qmgr still reports (reading always)",
          [e["qmgr"] for e in o.get("events", [])] == ["QM02"], o)
    check("shared queue attributes switch even with PERFMEV(DISABLED)",
          w.out(INSPECT)["value"]["queues"]["Q1"]["qdphiev"] is False)
    w.out({"op": "set_perfmev", "qmgr": "QM01", "enabled": True})
    w.out({"op": "stop_qmgr", "qmgr": "QM02"})
    w.out({"op": "alter_queue", "name": "Q1", "changes": {"qdphiev": True}})
    o = w.out(put(tag=13))
    check("a stopped queue manager issues no event message",
          [e["qmgr"] for e in o.get("events", [])] == ["QM01"], o)
    w.out({"op": "start_qmgr", "qmgr": "QM02"})
    w.out({"op": "reset_qstats", "qmgr": "QM01", "queue": "Q1"})
    w.out({"op": "alter_queue", "name": "Q1", "changes": {"qdphiev": True}})
    o = w.out(put("QM02", tag=14))
    check("RESET QSTATS and the stop reset the counts",
          evs(o) == [("QM02", "QDPHI", 1, 0), ("QM01", "QDPHI", 0, 0)], o)
    w.out({"op": "stop_qmgr", "qmgr": "QM03"})
    check("set_perfmev on a stopped queue manager is NOT_ACTIVE",
          w.out({"op": "set_perfmev", "qmgr": "QM03", "enabled": True}).get("reason") == "NOT_ACTIVE")
    w.close()
    check("every reply matched its schema (events)", not w.schema_errors, w.schema_errors)


# =============================================================== MQ recovery
def test_mq_recovery():
    w = Wire()
    w.open(mq([S(cflevel=3, recover=True), S("NR", cflevel=3)], [Q(), Q("QN", "NR")]))
    BK = {"op": "backup", "qmgr": "QM01", "cfstruct": "APP1"}
    check("RECOVER without a backup is NO_BACKUP",
          w.out({"op": "recover", "cfstruct": "APP1"}).get("reason") == "NO_BACKUP")
    w.out(put(tag=1, persistent=True))
    w.out(put(tag=2))
    check("BACKUP CFSTRUCT succeeds", w.out(BK)["ok"])
    check("RECOVER TYPE(NORMAL) on an active structure is NOT_FAILED",
          w.out({"op": "recover", "cfstruct": "APP1"}).get("reason") == "NOT_FAILED")
    w.out(put("QM02", tag=3, persistent=True))
    w.out(put(tag=4, persistent=True, syncpoint=True))
    w.out(get("QM02"))                     # takes tag 1 (committed, logged by QM02)
    w.out({"op": "fail_structure", "cfstruct": "APP1"})
    check("MQPUT on a failed structure is 2373", w.out(put()).get("reason") == 2373)
    check("MQGET on a failed structure is 2373", w.out(get()).get("reason") == 2373)
    check("inspect shows FAILED", w.out(INSPECT)["value"]["structures"]["APP1"]["status"] == "FAILED")
    check("RECOVER TYPE(NORMAL) succeeds", w.out({"op": "recover", "cfstruct": "APP1"})["ok"])
    tags = [w.out(get()).get("tag") for _ in range(2)]
    check("recovered: committed persistent messages from backup + all logs only",
          tags == [3, None], tags)
    w.out(put(tag=5, persistent=True))
    o = w.out({"op": "recover", "cfstruct": "APP1", "purge": True})
    check("RECOVER TYPE(PURGE) on an active structure accepted (reading) and empties it",
          o["ok"] and w.out(get()).get("reason") == 2033)
    check("BACKUP of a RECOVER(NO) structure is NOT_ALLOWED",
          w.out({"op": "backup", "qmgr": "QM01", "cfstruct": "NR"}).get("reason") == "NOT_ALLOWED")
    check("persistent put to RECOVER(NO) refused 2048",
          w.out(put(queue="QN", persistent=True)).get("reason") == 2048)
    w.out(put("QM01", "QN", tag=6))
    w.out({"op": "stop_qmgr", "qmgr": "QM01"})
    check("shared nonpersistent messages survive a queue manager stop",
          w.out(get("QM02", "QN")).get("tag") == 6)
    w.close()
    check("every reply matched its schema (recovery)", not w.schema_errors, w.schema_errors)


# =============================================================== CQS
def test_cqs():
    w = Wire()
    w.open(cqs())
    o = w.out(cput(tag=1))
    check("CQSPUT ok with usage of the primary", o["ok"] and o["usage"] == [1, 170, 40, 170], o)
    check("CQSREAD+CQSDEL returns it", w.out(cget()).get("tag") == 1)
    check("empty queue is NO_MSG", w.out(cget()).get("reason") == "NO_MSG")
    w.out(cput(tag=1))
    w.out(cput(tag=2))
    o = w.out(cput("TRANB", 2560, 3))
    check("reaching OVFLWMAX starts a structure alter first", sigs(o) == ["ALTER MSGQ"], o)
    check("inspect: alter pending, not in overflow",
          w.out(INSPECT)["value"]["structures"]["MSGQ"]["alter_pending"] is True)
    check("no second alter while one is pending", "signals" not in w.out(cput("TRANC", 100, 4)))
    w.out(cget("TRANC"))
    o = w.out({"op": "alter_outcome", "cfstruct": "MSGQ", "success": False})
    check("a failed alter: overflow mode, the queue using most space selected",
          sigs(o) == ["OVERFLOW_ON MSGQ", "OVERFLOW_QUEUE MSGQ TRANA"], o)
    check("no overflow structure: CQSPUT to the approved queue rejected",
          w.out(cput("TRANA", 100, 5)).get("reason") == "REJECTED_OVERFLOW")
    check("other queues still accept puts", w.out(cput("TRANC", 100, 6))["ok"])
    w.out(cget("TRANC"))
    v = w.out(INSPECT)["value"]
    check("inspect: overflow mode and the queue list",
          v["structures"]["MSGQ"]["overflow_mode"] and v["structures"]["MSGQ"]["overflow_queues"]
          == ["TRANA"] and v["queues"]["TRANA"]["overflow"], v["structures"])
    o = w.out(cget("TRANA"))
    check("at 45 of 170 elements (26% <= 40%) overflow mode ends", sigs(o) == ["OVERFLOW_OFF MSGQ"], o)
    check("alter_outcome with no alter pending is NO_ALTER_PENDING",
          w.out({"op": "alter_outcome", "cfstruct": "MSGQ", "success": True})
          .get("reason") == "NO_ALTER_PENDING")
    w.close()

    w = Wire()
    w.open(cqs([CS(size_kb=1024, initsize_kb=512)]))
    for i in range(3):
        w.out(cput(tag=i))
    o = w.out({"op": "alter_outcome", "cfstruct": "MSGQ", "success": True})
    check("a successful alter grows the structure to SIZE, no overflow",
          o["usage"][1] == 341 and "signals" not in o, o)
    w.close()

    w = Wire()
    w.open(cqs([CS(ovflwstr="MSGQOVF", ovflw_size_kb=512)], overflow_exit=["TRANA"]))
    w.out(cput(tag=1))
    w.out(cput(tag=2))
    w.out(cput("TRANB", 2560, 3))
    o = w.out({"op": "alter_outcome", "cfstruct": "MSGQ", "success": False})
    check("the exit's veto skips TRANA; TRANB is selected",
          sigs(o) == ["OVERFLOW_ON MSGQ", "OVERFLOW_QUEUE MSGQ TRANB"], o)
    check("TRANB's data moved to the overflow structure", o["usage"][2] == 80, o)
    o = w.out(cput("TRANB", 100, 4))
    check("puts to an overflow queue go to the overflow structure",
          o["ok"] and o["usage"] == [2, 170, 6, 170], o)
    w.out(cget("TRANB"))
    w.out(cget("TRANB"))
    check("empty queue stays in overflow until the scan",
          w.out(INSPECT)["value"]["queues"]["TRANB"]["overflow"] is True)
    check("no scan before 15 minutes", "signals" not in w.out(adv(899)))
    o = w.out(adv(1))
    check("the scan 900 s after overflow started returns the queue and ends overflow",
          sigs(o) == ["OVERFLOW_OFF MSGQ", "OVERFLOW_QUEUE_OFF MSGQ TRANB"], o)
    w.close()

    w = Wire()
    w.open(cqs([CS(ovflwstr="MSGQOVF")], overflow_exit=["TRANA", "TRANB", "TRANC"]))
    w.out(cput(tag=1))
    w.out(cput(tag=2))
    w.out(cput("TRANB", 2560, 3))
    o = w.out({"op": "alter_outcome", "cfstruct": "MSGQ", "success": False})
    check("every candidate vetoed: overflow mode with no queue", sigs(o) == ["OVERFLOW_ON MSGQ"], o)
    o = w.out(adv(900))
    check("... ends at the next scan (reading next-scan)", sigs(o) == ["OVERFLOW_OFF MSGQ"], o)
    w.close()

    w = Wire()
    w.open(cqs([CS(ovflwstr="MSGQOVF")]))
    w.out(cput(tag=1))
    w.out(cput(tag=2))
    w.out(cput("TRANB", 2560, 3))
    w.out({"op": "alter_outcome", "cfstruct": "MSGQ", "success": False})
    w.out({"op": "set_overflow_exit", "vetoes": ["TRANC"]})
    w.out(cput("TRANB", 20000, 4))
    o = w.out(cput("TRANC", 20000, 5))
    check("in overflow mode, reaching OVFLWMAX again selects more (reading select)",
          sigs(o) == ["OVERFLOW_QUEUE MSGQ TRANB"], o)
    check("the reselected queue's data moved too", o["usage"][2] == 40, o)
    w.close()

    w = Wire()
    w.open(cqs(lgmsgsz=10001))
    o = w.out(cput("TRANA", 25000))
    v = w.out(INSPECT)["value"]["structures"]["MSGQ"]
    check("LGMSGSZ 10001 rounds to 10004: 25000 bytes = 3 parts, 2 on the staging queue",
          v["staging_depth"] == 2 and o["usage"][0] == 3, (v, o))
    w.out(cget("TRANA"))
    v = w.out(INSPECT)["value"]["structures"]["MSGQ"]
    check("the get removes the staging parts", v["staging_depth"] == 0 and v["entries_used"] == 0)
    w.close()

    w = Wire()
    w.open(cqs([CS(resource=True, size_kb=1024, initsize_kb=512)]))
    outs = [w.out(cput(tag=i)) for i in range(3)]
    check("a resource structure does no overflow processing", all("signals" not in o for o in outs))
    o = w.out({"op": "setxcf_alter", "cfstruct": "MSGQ", "size_kb": 600})
    check("operator SETXCF alter is accepted on a CQS structure", o["ok"])
    r = w.apply({"op": "commit", "qmgr": "CQS1"})
    check("an mq-only operation in the cqs profile is error 14", r.get("code") == 14)
    w.close()
    check("every reply matched its schema (cqs)", not w.schema_errors, w.schema_errors)


# =============================================================== random traces
def random_op(rng, cfg):
    qm = rng.choice(cfg["qmgrs"])
    q = rng.choice(cfg["queues"])["name"]
    s = rng.choice(cfg["structures"])["name"]
    kinds = ["put"] * 8 + ["get"] * 6 + ["inspect", "advance_clock", "setxcf_alter"]
    if cfg["profile"] == "mq":
        kinds += ["commit", "commit", "backout", "set_perfmev", "reset_qstats", "start_qmgr",
                  "stop_qmgr", "backup", "fail_structure", "recover", "alter_structure"]
    else:
        kinds += ["alter_outcome"] * 3 + ["set_overflow_exit"]
    k = rng.choice(kinds)
    if k == "put":
        return {"op": k, "qmgr": qm, "queue": q, "tag": rng.randint(0, 99),
                "length": rng.choice([0, 100, 4096, 30000, 65281]),
                "persistent": rng.random() < .4, "syncpoint": rng.random() < .4}
    if k == "get":
        return {"op": k, "qmgr": qm, "queue": q, "syncpoint": rng.random() < .4}
    if k in ("commit", "backout", "start_qmgr", "stop_qmgr"):
        return {"op": k, "qmgr": qm}
    if k == "set_perfmev":
        return {"op": k, "qmgr": qm, "enabled": rng.random() < .5}
    if k == "reset_qstats":
        return {"op": k, "qmgr": qm, "queue": q}
    if k == "backup":
        return {"op": k, "qmgr": qm, "cfstruct": s}
    if k == "fail_structure":
        return {"op": k, "cfstruct": s}
    if k == "recover":
        return {"op": k, "cfstruct": s, "purge": rng.random() < .5}
    if k == "setxcf_alter":
        return {"op": k, "cfstruct": s, "size_kb": rng.choice([512, 1024, 4096])}
    if k == "alter_outcome":
        return {"op": k, "cfstruct": s, "success": rng.random() < .5}
    if k == "set_overflow_exit":
        return {"op": k, "vetoes": rng.choice([None, [q]])}
    if k == "advance_clock":
        return {"op": k, "seconds": rng.choice([0, 60, 900])}
    if k == "alter_structure":
        return {"op": k, "name": s, "changes": rng.choice([{"cflevel": rng.randint(1, 5)},
                                                           {"offld1th": 0}, {"recover": True}])}
    return {"op": k}


def test_random():
    import random
    for prof in ("mq", "cqs"):
        rng = random.Random(20240 + len(prof))
        if prof == "mq":
            cfg = mq([S(size_kb=1024, cflevel=5, recover=True), S("APP2", size_kb=2048,
                                                                 initsize_kb=1024, ratio=2)],
                     [Q(qdphiev=True, qdploev=True, maxdepth=20), Q("Q2", "APP2", qdpmaxev=True,
                                                                   maxdepth=5)],
                     qmgrs=("QM01", "QM02", "QM03"))
        else:
            cfg = cqs([CS(ovflwstr="MSGQOVF"), CS("MSGQ2", size_kb=1024, initsize_kb=512)],
                      [Q("TRANA", "MSGQ"), Q("TRANB", "MSGQ"), Q("TRANC", "MSGQ2")])
        w = Wire()
        w.open(cfg)
        crashes = 0
        replies = 0
        for _ in range(4):
            r = w.batch([random_op(rng, cfg) for _ in range(300)])
            replies += 1
            if r.get("type") != "batch_ok" or (r.get("error") or {}).get("code") == 12:
                crashes += 1
        check("%s: 1200 random operations, no internal failure" % prof, crashes == 0)
        w.close()
        check("%s: every random-trace reply matched its schema" % prof, not w.schema_errors,
              w.schema_errors[:3])


def main():
    tests = [test_protocol, test_mq_queue, test_mq_offload, test_mq_capacity, test_mq_alter,
             test_mq_events, test_mq_recovery, test_cqs, test_random]
    for t in tests:
        try:
            t()
        except Exception as e:
            import traceback
            traceback.print_exc()
            check("%s ran to completion" % t.__name__, False, repr(e))
    passed = sum(1 for _, ok in RESULTS if ok)
    print("selftest: %d/%d checks passed" % (passed, len(RESULTS)))
    return 0 if passed == len(RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
