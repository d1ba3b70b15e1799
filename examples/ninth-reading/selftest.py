#!/usr/bin/env python3
"""selftest.py -- checks of impl.py over the wire (a child process), every reply
validated against the JSON Schemas with schemacheck.py.

Schemas: $CFCONFORM_SCHEMAS (default /work/ninth-input/schemas).
Exit status 0 when every check passes, 1 otherwise.
"""

import json
import os
import select
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import schemacheck  # noqa: E402

SCHEMAS = schemacheck.load_schemas()
IMPL = os.path.join(HERE, "impl.py")
RESULTS = []


def check(name, cond, info=""):
    RESULTS.append((name, bool(cond)))
    print("%s %s%s" % ("PASS" if cond else "FAIL", name, "" if cond else "  -- %s" % (info,)))
    return bool(cond)


class Wire:
    """A child impl.py; every reply is validated against its schema."""

    def __init__(self, args=(), version="1.3", limit=1048576, init=True):
        self.p = subprocess.Popen([sys.executable, IMPL] + list(args), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.n = 0
        self.schema_errors = []
        self.init_reply = None
        if init:
            self.init_reply = self.req({"type": "init", "protocol_version": version,
                                        "suite": "selftest", "max_line_bytes": limit})

    def raw(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()
        return self.read()

    def read(self, timeout=10):
        r, _, _ = select.select([self.p.stdout], [], [], timeout)
        if not r:
            raise RuntimeError("no reply within %s s" % timeout)
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError("implementation closed stdout")
        reply = json.loads(line)
        errs = schemacheck.validate_reply(reply, SCHEMAS)
        for o in reply.get("outcomes", []) + ([reply["outcome"]] if "outcome" in reply else []):
            errs += schemacheck.validate(o, SCHEMAS["outcome"])
        if "capabilities" in reply:
            errs += schemacheck.validate(reply["capabilities"], SCHEMAS["capabilities"])
        if errs:
            self.schema_errors.append((reply, errs))
        return reply

    def req(self, msg):
        if "msg_id" not in msg:
            self.n += 1
            msg = dict(msg, msg_id=self.n)
        return self.raw((json.dumps(msg) + "\n").encode())

    def open(self, config):
        return self.req({"type": "open", "config": config})

    def op(self, **op):
        r = self.req({"type": "apply", "op": op})
        return r.get("outcome", r)

    def batch(self, ops):
        return self.req({"type": "batch", "ops": ops})

    def inspect(self):
        return self.op(op="inspect")["value"]

    def close(self):
        r = self.req({"type": "close"})
        try:
            code = self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.p.kill()
            code = None
        return r, code

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()


# ------------------------------------------------------------------ configurations
def mq(structs=None, queues=None, qmgrs=("QM01", "QM02", "QM03"), **kw):
    c = {"profile": "mq", "qsg": "QSG1", "qmgrs": list(qmgrs),
         "structures": structs if structs is not None else
         [{"name": "APP1", "cflevel": 5, "recover": True}],
         "queues": queues if queues is not None else [{"name": "Q1", "cfstruct": "APP1"}]}
    c.update(kw)
    return c


def st(**kw):
    d = {"name": "APP1", "cflevel": 5, "recover": True}
    d.update(kw)
    return d


def rules_off(**kw):
    d = {"offld1sz": 65536, "offld2sz": 65536, "offld3sz": 65536}
    d.update(kw)
    return d


def cqs(structs=None, queues=("TA", "TB", "TC"), **kw):
    c = {"profile": "cqs", "qmgrs": ["CQS1", "CQS2"],
         "structures": structs if structs is not None else [cst()],
         "queues": [{"name": q, "cfstruct": "MSGQ"} for q in queues]}
    c.update(kw)
    return c


def cst(**kw):
    d = {"name": "MSGQ", "size_kb": 1034, "ratio": 1, "ovflwmax": 70}
    d.update(kw)
    return d


def put(w, q="Q1", qm="QM01", length=100, tag=1, **kw):
    return w.op(op="put", qmgr=qm, queue=q, length=length, tag=tag, **kw)


def get(w, q="Q1", qm="QM01", **kw):
    return w.op(op="get", qmgr=qm, queue=q, **kw)


def cput(w, q, length, tag=1, qm="CQS1"):
    return w.op(op="put", qmgr=qm, queue=q, length=length, tag=tag)


def cget(w, q, qm="CQS2"):
    return w.op(op="get", qmgr=qm, queue=q)


def sig(outcome):
    return sorted(outcome.get("signals", []))


def ev(outcome):
    return [(e["qmgr"], e["kind"], e["correl"], e["enq"], e["deq"])
            for e in outcome.get("events", [])]


# ------------------------------------------------------------------ protocol
def test_protocol():
    w = Wire(init=False)
    r = w.req({"type": "apply", "op": {"op": "inspect"}})
    check("protocol: apply before init is error 15", r.get("code") == 15 and
          r.get("in_reply_to") == 1 and r.get("definite") is True, r)
    r = w.raw(b"this is not json\n")
    check("protocol: a non-JSON line is error 11 with in_reply_to null",
          r.get("code") == 11 and r.get("in_reply_to") is None, r)
    r = w.raw(b"[1,2,3]\n")
    check("protocol: a JSON array is error 11 with in_reply_to null",
          r.get("code") == 11 and r.get("in_reply_to") is None, r)
    r = w.raw(b'{"type":"init"}\n')
    check("protocol: a request without msg_id is error 11, in_reply_to null",
          r.get("code") == 11 and r.get("in_reply_to") is None, r)
    r = w.req({"type": "init", "protocol_version": "2.0"})
    check("protocol: init with major version 2 is error 16", r.get("code") == 16, r)
    r = w.req({"type": "init", "protocol_version": "1.3", "max_line_bytes": 1048576,
               "x_unknown_envelope": 1})
    caps = r.get("capabilities", {})
    check("protocol: init_ok announces 1.3 (unknown envelope fields ignored)",
          r.get("type") == "init_ok" and r.get("protocol_version") == "1.3", r)
    check("protocol: capabilities claim both profiles and all observables",
          caps.get("profiles") == ["mq", "cqs"] and
          set(caps.get("observes", [])) == {"usage", "events", "signals", "inspect"}, caps)
    readings = caps.get("readings", {})
    allowed = SCHEMAS["capabilities"]["properties"]["readings"]["properties"]
    check("protocol: every ambiguity of the schema is declared with a reading",
          set(readings) == set(allowed) and "unknown" not in readings.values(), readings)
    r = w.req({"type": "init", "protocol_version": "1.3"})
    check("protocol: a second init is error 15", r.get("code") == 15, r)
    r = w.req({"type": "apply", "op": {"op": "inspect"}})
    check("protocol: apply before open is error 15", r.get("code") == 15, r)
    r = w.req({"type": "batch", "ops": [{"op": "inspect"}]})
    check("protocol: batch before open is error 15", r.get("code") == 15, r)
    r = w.open({"profile": "mq", "nonsense": 1})
    check("protocol: a config with an unknown field is error 13, definite",
          r.get("code") == 13 and r.get("definite") is True and "detail" in r, r)
    r = w.req({"type": "apply", "op": {"op": "inspect"}})
    check("protocol: after a failed open the implementation is not open",
          r.get("code") == 15, r)
    r = w.open(mq())
    check("protocol: open of a valid mq config", r.get("type") == "open_ok", r)
    r = w.req({"type": "apply", "op": {"op": "frobnicate"}})
    check("protocol: unknown op kind is a definite error 11",
          r.get("code") == 11 and r.get("definite") is True and r.get("in_reply_to") == w.n, r)
    r = w.req({"type": "apply", "op": {"op": "get", "qmgr": "QM01", "queue": "Q1", "x": 1}})
    check("protocol: an op with an unknown field is error 11", r.get("code") == 11, r)
    r = w.req({"type": "apply", "op": {"op": "get", "qmgr": "QM01"}})
    check("protocol: an op without a required field is error 11", r.get("code") == 11, r)
    r = w.req({"type": "apply", "op": {"op": "put", "qmgr": "QM01", "queue": "Q1",
                                       "length": "100"}})
    check("protocol: a mistyped op field is error 11", r.get("code") == 11, r)
    r = w.req({"type": "apply", "op": {"op": "get", "qmgr": "QM09", "queue": "Q1"}})
    check("protocol: an unknown queue manager is error 14 with detail",
          r.get("code") == 14 and r.get("detail", {}).get("field") == "qmgr", r)
    r = w.req({"type": "apply", "op": {"op": "get", "qmgr": "QM01", "queue": "NOPE"}})
    check("protocol: an unknown queue is error 14", r.get("code") == 14, r)
    r = w.req({"type": "apply", "op": {"op": "alter_outcome", "cfstruct": "APP1",
                                       "success": True}})
    check("protocol: a cqs-only operation in the mq profile is error 14",
          r.get("code") == 14, r)
    r = w.req({"type": "wibble"})
    check("protocol: unknown message type is error 11", r.get("code") == 11, r)
    o = get(w)
    check("protocol: survives bad requests (get on an empty queue: 2033)",
          o.get("reason") == 2033, o)
    r = w.batch([{"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 10, "tag": 1},
                 {"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 10, "tag": 2},
                 {"op": "get", "qmgr": "QM02", "queue": "Q1"},
                 {"op": "get", "qmgr": "QM02", "queue": "Q1"}])
    check("protocol: batch of four ops gives four outcomes in order",
          [o.get("tag") for o in r.get("outcomes", [])] == [None, None, 1, 2], r)
    r = w.batch([{"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 10, "tag": 3},
                 {"op": "put", "qmgr": "QM01", "queue": "NOPE", "length": 10},
                 {"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 10, "tag": 4}])
    check("protocol: batch error at op 1 keeps op 0 and stops there",
          len(r.get("outcomes", [])) == 1 and r.get("error", {}).get("code") == 14, r)
    check("protocol: ops after a batch error are not applied",
          w.inspect()["queues"]["Q1"]["depth"] == 1)
    r = w.batch([])
    check("protocol: an empty batch is error 11", r.get("code") == 11, r)
    r = w.raw(b'{"type":"apply","msg_id":777,"op":{"op":"inspect"},"pad":"'
              + b"x" * 1048600 + b'"}\n')
    check("protocol: a line over 1 MiB is error 17", r.get("code") == 17 and
          r.get("definite") is True, r)
    r, code = w.close()
    check("protocol: close gives close_ok and exit code 0",
          r.get("type") == "close_ok" and code == 0, (r, code))
    check("protocol: every reply matched its JSON Schema", not w.schema_errors,
          w.schema_errors[:2])

    w = Wire()
    w.p.stdin.close()
    try:
        code = w.p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        w.kill()
        code = None
    check("protocol: exits with code 0 at end of input", code == 0, code)

    w = Wire(version="1.0")
    w.open(mq())
    o = put(w)
    check("protocol: no 'location' for a suite announcing 1.0",
          o.get("ok") and "location" not in o and o.get("offloaded") is False, o)
    w.close()

    w = Wire(limit=2048)
    w.open(mq())
    ops = [{"op": "put", "qmgr": "QM01", "queue": "Q1", "length": 10, "tag": i}
           for i in range(60)]
    r = w.batch(ops)
    n = len(r.get("outcomes", []))
    line = len(json.dumps(r, separators=(",", ":")))
    check("protocol: a batch reply over the suite's line limit is cut to a prefix",
          "error" not in r and 1 <= n < 60 and line <= 2048, (n, line))
    check("protocol: only the prefix of a cut batch was applied",
          w.inspect()["queues"]["Q1"]["depth"] == n)
    w.close()

    out = subprocess.run([sys.executable, IMPL, "--list-faults"], capture_output=True,
                         text=True, check=False).stdout.split()
    with open(os.path.join(HERE, "faults.json"), encoding="utf-8") as fh:
        ids = [f["id"] for f in json.load(fh)]
    check("cli: --list-faults lists the faults of faults.json", sorted(out) == sorted(ids))
    bad = subprocess.run([sys.executable, IMPL, "--fault", "NO_SUCH_FAULT"],
                         capture_output=True, text=True, input="", check=False)
    check("cli: an unknown --fault is refused (exit 2)", bad.returncode == 2, bad.returncode)


# ------------------------------------------------------------------ MQ
def test_mq_config():
    w = Wire()
    cases = [
        ("a five-character QSG name", mq(qsg="QSG12")),
        ("a QSG named like a queue manager", mq(qsg="QM01")),
        ("33 queue managers", mq(qmgrs=["Q%03d" % i for i in range(33)])),
        ("CSQ_ADMIN below Table 1 (6800 KB for 2 queue managers)",
         mq(qmgrs=("QM01", "QM02"), admin_size_kb=6800)),
        ("a coupling facility at CFCC level 8", mq(admin_table="cfcc8")),
        ("513 shared queues on one structure",
         mq(queues=[{"name": "Q%d" % i, "cfstruct": "APP1"} for i in range(513)])),
        ("64 application structures",
         mq([{"name": "S%02d" % i} for i in range(64)], [])),
        ("no application structure", mq([], [{"name": "L1", "qmgr": "QM01"}])),
        ("OFFLOAD with CFLEVEL(4)", mq([st(cflevel=4, offload="SMDS")])),
        ("RECOVER(YES) with CFLEVEL(2)", mq([st(cflevel=2)])),
        ("a queue on an undefined structure", mq(queues=[{"name": "Q1", "cfstruct": "NOPE"}])),
        ("OFFLD1SZ(65K)", mq([st(offld1sz=66560)])),
    ]
    for what, cfg in cases:
        r = w.open(cfg)
        check("mq config: %s is refused (error 13)" % what, r.get("code") == 13, r)
    r = w.open(mq(queues=[{"name": "Q%d" % i, "cfstruct": "APP1"} for i in range(512)]))
    check("mq config: 512 shared queues on one structure are accepted",
          r.get("type") == "open_ok", r)
    r = w.open(mq(qmgrs=["Q%03d" % i for i in range(32)]))
    check("mq config: 32 queue managers are accepted", r.get("type") == "open_ok", r)
    r = w.open({"profile": "mq"})
    check("mq config: the schema defaults alone form a valid config",
          r.get("type") == "open_ok", r)
    w.open(mq(qsg="QS"))
    v = w.inspect()
    check("mq inspect: CFRM name pads a short QSG name with @",
          v["structures"]["APP1"]["cfname"] == "QS@@APP1", v["structures"])
    check("mq inspect: CSQ_ADMIN defaults to Table 1's size with 1000 entries per "
          "queue manager", v["admin"]["size_kb"] == 7976 and
          v["admin"]["entries_total"] >= 3000, v["admin"])
    check("mq inspect: keys sorted by name", list(v) == sorted(v) and
          list(v["structures"]["APP1"]) == sorted(v["structures"]["APP1"]))
    w.close()
    check("mq config: every reply matched its JSON Schema", not w.schema_errors,
          w.schema_errors[:2])


def test_mq_offload_capacity():
    w = Wire()
    w.open(mq())
    o = put(w)
    check("mq put: a small message stays in the CF (entry + 2 elements)",
          o.get("location") == "CF" and o.get("offloaded") is False and
          o["usage"][0] == 1 and o["usage"][2] == 2, o)
    o = put(w, length=70000, tag=2)
    check("mq put: a 70000-byte message at CFLEVEL(5) goes to SMDS by default",
          o.get("location") == "SMDS" and o.get("offloaded") is True, o)
    check("mq put: an offloaded message keeps 0.75 KB in the CF (entry + 2 elements)",
          o["usage"][0] == 2 and o["usage"][2] == 4, o)
    check("mq get: FIFO order", get(w).get("tag") == 1 and get(w).get("tag") == 2)
    check("mq get: empty queue gives 2033", get(w).get("reason") == 2033)
    o = put(w, length=5000, tag=3)
    check("mq put: 5000 bytes on an almost empty structure is not offloaded "
          "(each rule needs its threshold)", o.get("location") == "CF", o)
    w.open(mq([st(offload="DB2")]))
    check("mq put: OFFLOAD(DB2) sends large messages to Db2",
          put(w, length=70000).get("location") == "DB2")
    w.open(mq([st(cflevel=4)]))
    o = put(w, length=70000)
    check("mq put: over 63 KB at CFLEVEL(4) is kept in Db2", o.get("location") == "DB2", o)
    w.open(mq([st(cflevel=3)]))
    check("mq put: over 63 KB at CFLEVEL(3) fails with 2366",
          put(w, length=70000).get("reason") == 2366)
    check("mq put: exactly 63 KB at CFLEVEL(3) is accepted",
          put(w, length=64512).get("ok") is True)
    check("mq put: persistent on RECOVER(YES) CFLEVEL(3) is accepted",
          put(w, persistent=True).get("ok") is True)
    w.open(mq([st(cflevel=3, recover=False)]))
    check("mq put: persistent on RECOVER(NO) fails with 2048",
          put(w, persistent=True).get("reason") == 2048)
    w.open(mq([st(cflevel=2, recover=False)]))
    check("mq put: persistent at CFLEVEL(2) fails with 2048",
          put(w, persistent=True).get("reason") == 2048)
    w.open(mq([st(cflevel=3)], [{"name": "Q1", "cfstruct": "APP1", "maxmsgl": 1000}]))
    check("mq put: longer than MAXMSGL fails with 2030",
          put(w, length=1001).get("reason") == 2030)
    w.open(mq([st(**rules_off())]))
    o1 = put(w, length=64512)
    o2 = put(w, length=64513, tag=2)
    check("mq put: the forced-offload boundary is 63 KB of data (64512 CF, 64513 SMDS)",
          o1.get("location") == "CF" and o2.get("location") == "SMDS", (o1, o2))
    w.open(mq([st(**rules_off(offld3th=0, offld3sz=0))]))
    o1 = put(w)
    o2 = put(w, tag=2)
    check("mq put: OFFLD3TH(0) OFFLD3SZ(0K) offloads once usage is more than 0%",
          o1.get("location") == "CF" and o2.get("location") == "SMDS", (o1, o2))
    w.open(mq([st(size_kb=6165, ratio=30, fullthreshold=50,
                  **rules_off(offld3th=50, offld3sz=0))]))
    o1 = put(w)
    o2 = put(w, tag=2)
    check("mq put: usage exactly at OFFLDnTH is not 'more than' (strict)",
          o1["usage"][:2] == [1, 2] and o2.get("location") == "CF", (o1, o2))
    check("mq signals: IXC585E when entries in use reach FULLTHRESHOLD",
          sig(o1) == ["IXC585E APP1"], o1)
    o3 = put(w, tag=3)
    check("mq put: a full structure (all entries in use) fails with 2192",
          o3.get("reason") == 2192, o3)
    get(w)
    o = get(w)
    check("mq signals: IXC586I when usage falls back below FULLTHRESHOLD",
          sig(o) == ["IXC586I APP1"], o)
    w.open(mq([st(fullthreshold=0, size_kb=6165, ratio=30)]))
    check("mq signals: FULLTHRESHOLD(0) disables monitoring", sig(put(w)) == [])
    w.open(mq([st(size_kb=8192, initsize_kb=7168)]))
    v = w.inspect()["structures"]["APP1"]
    check("mq structure: allocated at INITSIZE", v["size_kb"] == 7168, v)
    check("mq setxcf: above SIZE is refused",
          w.op(op="setxcf_alter", cfstruct="APP1", size_kb=9000).get("reason") == "OUT_OF_RANGE")
    check("mq setxcf: below INITSIZE is refused",
          w.op(op="setxcf_alter", cfstruct="APP1", size_kb=7000).get("reason") == "OUT_OF_RANGE")
    o = w.op(op="setxcf_alter", cfstruct="APP1", size_kb=8192)
    check("mq setxcf: to SIZE is accepted and grows the totals",
          o.get("ok") and o["usage"][1] > v["entries_total"], o)
    check("mq setxcf: back to INITSIZE (not larger) is accepted",
          w.op(op="setxcf_alter", cfstruct="APP1", size_kb=7168).get("ok") is True)
    w.close()
    check("mq offload/capacity: every reply matched its JSON Schema", not w.schema_errors,
          w.schema_errors[:2])


def test_mq_events():
    w = Wire()
    q = {"name": "Q1", "cfstruct": "APP1", "maxdepth": 10, "qdepthhi": 50, "qdepthlo": 20,
         "qdphiev": True, "qdploev": False, "qdpmaxev": False}
    w.open(mq(queues=[q], perfmev_disabled=["QM03"]))
    outs = [put(w, tag=i, qm="QM02") for i in range(5)]
    check("mq events: no event below QDEPTHHI", all(not o.get("events") for o in outs[:4]))
    check("mq events: Queue Depth High when depth meets QDEPTHHI; coordinator first, "
          "one CorrelId, PERFMEV(DISABLED) queue manager silent",
          ev(outs[4]) == [("QM02", "QDPHI", 1, 5, 0), ("QM01", "QDPHI", 1, 0, 0)], outs[4])
    v = w.inspect()["queues"]["Q1"]
    check("mq events: QDPHI disables QDPHIEV and enables QDPLOEV and QDPMAXEV",
          (v["qdphiev"], v["qdploev"], v["qdpmaxev"]) == (False, True, True), v)
    check("mq events: no second QDPHI while QDPHIEV is DISABLED",
          not put(w, tag=9, qm="QM02").get("events"))
    outs = [get(w, qm="QM01") for _ in range(4)]
    check("mq events: Queue Depth Low when depth falls to QDEPTHLO, counts since the last "
          "event message", ev(outs[3]) == [("QM01", "QDPLO", 2, 0, 4), ("QM02", "QDPLO", 2, 1, 0)],
          outs[3])
    v = w.inspect()["queues"]["Q1"]
    check("mq events: QDPLO enables QDPHIEV and QDPMAXEV, disables QDPLOEV",
          (v["qdphiev"], v["qdploev"], v["qdpmaxev"]) == (True, False, True), v)
    w.open(mq(queues=[dict(q, maxdepth=2, qdphiev=False, qdpmaxev=True)]))
    put(w)
    put(w, tag=2)
    o = put(w, tag=3)
    check("mq put: a full queue fails with 2053 and raises Queue Full",
          o.get("reason") == 2053 and [e[1] for e in ev(o)] == ["QFULL"] * 3, o)
    v = w.inspect()["queues"]["Q1"]
    check("mq events: QFULL disables QDPMAXEV, enables QDPLOEV, leaves QDPHIEV",
          (v["qdphiev"], v["qdploev"], v["qdpmaxev"]) == (False, True, False), v)
    w.open(mq(queues=[dict(q, maxdepth=2)], perfmev_disabled=["QM01"]))
    o = put(w)
    v = w.inspect()["queues"]["Q1"]
    check("mq events: shared queue toggles although the detecting queue manager has "
          "PERFMEV(DISABLED), and it issues no event messages",
          not o.get("events") and v["qdphiev"] is False and v["qdploev"] is True, (o, v))
    lq = {"name": "LQ1", "qmgr": "QM01", "maxdepth": 2, "qdepthhi": 50, "qdphiev": True}
    w.open(mq(queues=[lq], perfmev_disabled=["QM01"]))
    o = put(w, q="LQ1")
    v = w.inspect()["queues"]["LQ1"]
    check("mq events: nonshared queue unchanged while PERFMEV is DISABLED",
          not o.get("events") and v["qdphiev"] is True, (o, v))
    check("mq events: nonshared queue is not visible on another queue manager",
          w.req({"type": "apply", "op": {"op": "get", "qmgr": "QM02",
                                          "queue": "LQ1"}}).get("code") == 14)
    w.op(op="set_perfmev", qmgr="QM01", enabled=True)
    o = put(w, q="LQ1", tag=2)
    check("mq events: nonshared queue, PERFMEV re-ENABLED: one event message from the owner",
          ev(o) == [("QM01", "QDPHI", 0, 2, 0)], o)
    w.open(mq(queues=[dict(q, maxdepth=4)]))
    w.op(op="stop_qmgr", qmgr="QM03")
    put(w, qm="QM02")
    w.op(op="reset_qstats", qmgr="QM01", queue="Q1")
    o = put(w, tag=2)
    check("mq events: stopped queue managers are not asked; RESET QSTATS is per queue "
          "manager", ev(o) == [("QM01", "QDPHI", 1, 1, 0), ("QM02", "QDPHI", 1, 1, 0)], o)
    check("mq qmgr: operations on a stopped queue manager fail NOT_ACTIVE",
          put(w, qm="QM03").get("reason") == "NOT_ACTIVE")
    check("mq qmgr: starting an active queue manager is refused",
          w.op(op="start_qmgr", qmgr="QM01").get("reason") == "NOT_ALLOWED")
    check("mq qmgr: a stopped queue manager starts again",
          w.op(op="start_qmgr", qmgr="QM03").get("ok") is True and
          w.inspect()["qmgrs"]["QM03"]["active"] is True)
    w.open(mq(queues=[dict(q, maxdepth=2)]))
    o = put(w, syncpoint=True)
    check("mq uow: depth events are generated outside syncpoint",
          [e[1] for e in ev(o)] == ["QDPHI"] * 3, o)
    w.op(op="backout", qmgr="QM01")
    v = w.inspect()["queues"]["Q1"]
    check("mq uow: a rollback does not restore the event switches",
          v["qdphiev"] is False and v["depth"] == 0, v)
    w.close()
    check("mq events: every reply matched its JSON Schema", not w.schema_errors,
          w.schema_errors[:2])


def test_mq_uow_recovery_defs():
    w = Wire()
    w.open(mq([st(cflevel=3)]))
    put(w, syncpoint=True)
    check("mq uow: an uncommitted put is not available to others",
          get(w, qm="QM02").get("reason") == 2033)
    w.op(op="commit", qmgr="QM01")
    check("mq uow: after commit it is", get(w, qm="QM02", syncpoint=True).get("tag") == 1)
    check("mq uow: a message got under syncpoint is locked",
          get(w, qm="QM01").get("reason") == 2033)
    w.op(op="backout", qmgr="QM02")
    check("mq uow: backout of a get makes the message available again",
          get(w, qm="QM01").get("tag") == 1)
    put(w, persistent=True, tag=5)
    put(w, persistent=False, tag=6)
    put(w, qm="QM02", persistent=True, syncpoint=True, tag=7)
    w.op(op="stop_qmgr", qmgr="QM02")
    check("mq qmgr: stopping a queue manager backs out its unit of work",
          w.inspect()["queues"]["Q1"]["depth"] == 2)
    w.op(op="start_qmgr", qmgr="QM02")
    check("mq recovery: RECOVER of a structure that has not failed is refused NOT_FAILED",
          w.op(op="recover", cfstruct="APP1").get("reason") == "NOT_FAILED")
    w.op(op="fail_structure", cfstruct="APP1")
    check("mq recovery: MQI calls on a FAILED structure get 2373",
          put(w).get("reason") == 2373 and get(w).get("reason") == 2373)
    check("mq recovery: RECOVER without a backup fails NO_BACKUP",
          w.op(op="recover", cfstruct="APP1").get("reason") == "NO_BACKUP")
    w.open(mq([st(cflevel=3)]))
    put(w, persistent=True, tag=1)
    w.op(op="backup", qmgr="QM01", cfstruct="APP1")
    put(w, qm="QM02", persistent=True, tag=2)
    put(w, persistent=False, tag=3)
    get(w, qm="QM03", syncpoint=True)
    w.op(op="fail_structure", cfstruct="APP1")
    v = w.inspect()["structures"]["APP1"]
    check("mq recovery: structure FAILED", v["status"] == "FAILED", v)
    o = w.op(op="recover", cfstruct="APP1")
    tags = [get(w, qm="QM02").get("tag") for _ in range(3)]
    check("mq recovery: RECOVER restores committed persistent messages from backup plus "
          "every queue manager's log; nonpersistent ones are lost",
          o.get("ok") and tags == [1, 2, None], (o, tags))
    put(w, persistent=True)
    w.op(op="fail_structure", cfstruct="APP1")
    w.op(op="recover", cfstruct="APP1", purge=True)
    check("mq recovery: TYPE(PURGE) recovers to an empty structure",
          w.inspect()["queues"]["Q1"]["depth"] == 0)
    w.open(mq([st(cflevel=3, recover=False)]))
    check("mq recovery: BACKUP of a RECOVER(NO) structure is refused",
          w.op(op="backup", qmgr="QM01", cfstruct="APP1").get("reason") == "NOT_ALLOWED")
    w.open(mq())
    d = lambda **s: w.op(op="define_structure", structure=s)
    check("mq define: a valid structure", d(name="APP2", cflevel=5).get("ok") is True)
    check("mq define: a 13-character name is INVALID",
          d(name="ABCDEFGHIJKLM").get("reason") == "INVALID")
    check("mq define: a name starting with a digit is INVALID",
          d(name="1APP").get("reason") == "INVALID")
    check("mq define: a duplicate is INVALID", d(name="APP1").get("reason") == "INVALID")
    check("mq define: OFFLOAD below CFLEVEL(5) is INVALID",
          d(name="APP3", cflevel=4, offload="SMDS").get("reason") == "INVALID")
    check("mq define: an unknown field is INVALID (an outcome, not an error)",
          d(name="APP3", colour="red").get("reason") == "INVALID")
    dq = lambda **q: w.op(op="define_queue", queue=q)
    check("mq define: queue on an undefined structure is INVALID",
          dq(name="Q9", cfstruct="NOPE").get("reason") == "INVALID")
    check("mq define: queue with QDEPTHHI(101) is INVALID",
          dq(name="Q9", cfstruct="APP1", qdepthhi=101).get("reason") == "INVALID")
    check("mq define: a valid shared queue", dq(name="Q9", cfstruct="APP2").get("ok") is True)
    w.open(mq(queues=[{"name": "Q%d" % i, "cfstruct": "APP1"} for i in range(512)]))
    check("mq define: a 513th queue on a structure is INVALID",
          dq(name="QX", cfstruct="APP1").get("reason") == "INVALID")
    w.open(mq([st(cflevel=4)]))
    a = lambda **c: w.op(op="alter_structure", name="APP1", changes=c)
    check("mq alter: OFFLOAD on a CFLEVEL(4) structure is INVALID",
          a(offload="SMDS").get("reason") == "INVALID")
    put(w)
    check("mq alter: CFLEVEL 4 -> 3 with a message on the structure is NOT_ALLOWED",
          a(cflevel=3).get("reason") == "NOT_ALLOWED")
    get(w)
    check("mq alter: CFLEVEL 4 -> 3 when empty is accepted", a(cflevel=3).get("ok") is True)
    check("mq alter: CFLEVEL 3 -> 5 with an offload rule", a(cflevel=5, offld2th=0,
                                                              offld2sz=0).get("ok") is True)
    a(offld1th=75)
    put(w)
    o = put(w, tag=2)
    check("mq alter: keywords not given are left unchanged (OFFLD2 still 0%/0K)",
          o.get("location") == "SMDS", o)
    check("mq alter_queue: an unknown keyword is INVALID",
          w.op(op="alter_queue", name="Q1", changes={"colour": 1}).get("reason") == "INVALID")
    w.op(op="alter_queue", name="Q1", changes={"maxdepth": 2})
    check("mq alter_queue: MAXDEPTH lowered below the depth makes puts fail 2053",
          put(w, tag=3).get("reason") == 2053)
    w.close()
    check("mq uow/recovery/definitions: every reply matched its JSON Schema",
          not w.schema_errors, w.schema_errors[:2])


# ------------------------------------------------------------------ CQS
def test_cqs():
    w = Wire()
    r = w.open(cqs([cst(ovflwmax=150)]))
    check("cqs config: OVFLWMAX(150) is refused", r.get("code") == 13, r)
    w.open(cqs())
    o = cput(w, "TA", 500)
    check("cqs put: one 512-byte element and one entry", o.get("usage") == [1, 10, 1, 10], o)
    check("cqs get: returns the message; empty queue gives NO_MSG",
          cget(w, "TA").get("tag") == 1 and cget(w, "TA").get("reason") == "NO_MSG")
    check("cqs: alter_outcome with no alter pending is NO_ALTER_PENDING",
          w.op(op="alter_outcome", cfstruct="MSGQ", success=False).get("reason") ==
          "NO_ALTER_PENDING")
    o1 = cput(w, "TA", 2500, 1)
    o2 = cput(w, "TB", 1000, 2)
    check("cqs: reaching OVFLWMAX (70% of elements) starts a structure alter",
          not o1.get("signals") and sig(o2) == ["ALTER MSGQ"], (o1, o2))
    v = w.inspect()["structures"]["MSGQ"]
    check("cqs: the alter is pending, not yet in overflow mode",
          v["alter_pending"] is True and v["overflow_mode"] is False, v)
    o = cput(w, "TC", 100, 3)
    check("cqs: no second alter while one is pending (IXC585E at 80% FULLTHRESHOLD)",
          sig(o) == ["IXC585E MSGQ"], o)
    check("cqs setxcf: refused while CQS's alter is in progress",
          w.op(op="setxcf_alter", cfstruct="MSGQ", size_kb=1034).get("reason") == "NOT_ALLOWED")
    cget(w, "TC")
    o = w.op(op="alter_outcome", cfstruct="MSGQ", success=False)
    check("cqs: a failed alter enters overflow mode and selects the queue using most space "
          "until usage would be 20 points below OVFLWMAX",
          o.get("signals") == ["OVERFLOW_ON MSGQ", "OVERFLOW_QUEUE MSGQ TA"], o)
    o = cput(w, "TA", 500, 4)
    check("cqs: without an overflow structure, CQSPUTs to approved queues are rejected",
          o.get("reason") == "REJECTED_OVERFLOW", o)
    o = cput(w, "TC", 500, 5)
    check("cqs: other queues still accept CQSPUTs", o.get("ok") is True, o)
    cget(w, "TC")
    o = cget(w, "TB")
    check("cqs: leaves overflow mode when usage drops to 20 points below OVFLWMAX",
          sig(o) == ["OVERFLOW_OFF MSGQ"], o)
    check("cqs: the queue is back to normal processing",
          cput(w, "TA", 500, 6).get("ok") is True)

    w.open(cqs(overflow_exit=["TA"]))
    cput(w, "TA", 2500, 1)
    cput(w, "TB", 1000, 2)
    o = w.op(op="alter_outcome", cfstruct="MSGQ", success=False)
    check("cqs exit: a vetoed queue is skipped and another is selected",
          o.get("signals") == ["OVERFLOW_ON MSGQ", "OVERFLOW_QUEUE MSGQ TB"], o)
    w.open(cqs(overflow_exit=["TA"]))
    w.op(op="set_overflow_exit", vetoes=None)
    cput(w, "TA", 2500, 1)
    cput(w, "TB", 1000, 2)
    o = w.op(op="alter_outcome", cfstruct="MSGQ", success=False)
    check("cqs exit: with no exit every selected queue is approved",
          "OVERFLOW_QUEUE MSGQ TA" in o.get("signals", []), o)

    w.open(cqs([cst(ovflwstr="MSGQOVF")]))
    cput(w, "TA", 2500, 1)
    cput(w, "TB", 1000, 2)
    o = w.op(op="alter_outcome", cfstruct="MSGQ", success=False)
    check("cqs ovflwstr: the approved queue's data moves to the overflow structure",
          o.get("usage") == [1, 10, 2, 10], o)
    o = cput(w, "TA", 500, 3)
    check("cqs ovflwstr: CQSPUTs to the overflow queue are accepted (overflow structure)",
          o.get("ok") is True and o.get("usage") == [1, 10, 2, 10], o)
    o = w.op(op="advance_clock", seconds=900)
    check("cqs scan: a queue that still has entries stays in overflow mode",
          not o.get("signals"), o)
    cget(w, "TA")
    cget(w, "TA")
    o = w.op(op="advance_clock", seconds=899)
    check("cqs scan: an empty queue stays in overflow mode until the next scan",
          not o.get("signals") and w.inspect()["queues"]["TA"]["overflow"] is True, o)
    o = w.op(op="advance_clock", seconds=1)
    check("cqs scan: the 15-minute scan removes the empty queue; no queue left: overflow "
          "mode ends", o.get("signals") == ["OVERFLOW_QUEUE_OFF MSGQ TA", "OVERFLOW_OFF MSGQ"], o)

    w.open(cqs([cst(ovflwstr="MSGQOVF")], overflow_exit=["TA", "TB", "TC"]))
    cput(w, "TA", 2500, 1)
    cput(w, "TB", 1000, 2)
    o = w.op(op="alter_outcome", cfstruct="MSGQ", success=False)
    v = w.inspect()["structures"]["MSGQ"]
    check("cqs: every candidate vetoed leaves overflow mode with no queue",
          o.get("signals") == ["OVERFLOW_ON MSGQ"] and v["overflow_mode"] is True, (o, v))
    o = w.op(op="advance_clock", seconds=900)
    check("cqs: ... until the next scan ends it (reading cqs_empty_overflow=next-scan)",
          o.get("signals") == ["OVERFLOW_OFF MSGQ"], o)

    w.open(cqs([cst(ovflwstr="MSGQOVF", size_kb=1044)], queues=("TA", "TB", "TC", "TD")))
    cput(w, "TA", 3000, 1)
    for i in range(8):
        cput(w, "TB", 500, 10 + i)
    o = w.op(op="alter_outcome", cfstruct="MSGQ", success=False)
    check("cqs reselect: first selection took the queue using most space (TB)",
          o.get("signals") == ["OVERFLOW_ON MSGQ", "OVERFLOW_QUEUE MSGQ TB"], o)
    o1 = cput(w, "TC", 2500, 20)
    o2 = cput(w, "TC", 2500, 21)
    check("cqs reselect: reaching OVFLWMAX again in overflow mode selects more queues",
          not o1.get("signals") and o2.get("signals") == ["OVERFLOW_QUEUE MSGQ TC"] and
          o2.get("usage") == [1, 20, 6, 20], (o1, o2))

    w.open(cqs([cst(initsize_kb=1034, size_kb=2048)]))
    cput(w, "TA", 3500)
    o = w.op(op="alter_outcome", cfstruct="MSGQ", success=True)
    v = w.inspect()["structures"]["MSGQ"]
    check("cqs: a successful alter grows the structure to SIZE, no overflow mode",
          v["size_kb"] == 2048 and v["overflow_mode"] is False and not o.get("signals"), (o, v))

    w.open(cqs([cst(ovflwstr="MSGQOVF")], lgmsgsz=1024))
    cput(w, "TA", 3000, 1)
    v = w.inspect()["structures"]["MSGQ"]
    check("cqs large message: parts 2 and 3 go to the staging queue",
          v["staging_depth"] == 2 and w.inspect()["queues"]["TA"]["depth"] == 1, v)
    cput(w, "TB", 500, 2)
    o = w.op(op="alter_outcome", cfstruct="MSGQ", success=False)
    v = w.inspect()["structures"]["MSGQ"]
    check("cqs large message: only the first part moves; staging parts stay on the primary",
          o.get("usage") == [3, 10, 5, 10] and v["staging_depth"] == 2, (o, v))
    check("cqs large message: a get removes every part",
          cget(w, "TA").get("tag") == 1 and w.inspect()["structures"]["MSGQ"]["staging_depth"] == 0)
    w.open(cqs([cst(size_kb=8192, ratio=6)], lgmsgsz=40000))
    cput(w, "TA", 35000)
    check("cqs LGMSGSZ: a value above 30632 is set to 30632",
          w.inspect()["structures"]["MSGQ"]["staging_depth"] == 1)
    w.open(cqs([cst(size_kb=8192, ratio=6)], lgmsgsz=4097))
    cput(w, "TA", 4099)
    check("cqs LGMSGSZ: rounded up to a multiple of 4 (4097 -> 4100)",
          w.inspect()["structures"]["MSGQ"]["staging_depth"] == 0)
    w.open(cqs([cst(resource=True)]))
    check("cqs: no overflow processing on a resource structure",
          not cput(w, "TA", 3500).get("signals"))
    check("cqs: a CQSPUT that does not fit fails STRUCTURE_FULL",
          cput(w, "TB", 2000, 2).get("reason") == "STRUCTURE_FULL")
    w.open(cqs())
    check("cqs alter: adding OVFLWSTR needs a cold start (NOT_ALLOWED)",
          w.op(op="alter_structure", name="MSGQ",
               changes={"ovflwstr": "MSGQOVF"}).get("reason") == "NOT_ALLOWED")
    check("cqs setxcf: above SIZE is refused",
          w.op(op="setxcf_alter", cfstruct="MSGQ", size_kb=2000).get("reason") == "OUT_OF_RANGE")
    r = w.req({"type": "apply", "op": {"op": "commit", "qmgr": "CQS1"}})
    check("cqs: an mq-only operation is error 14", r.get("code") == 14, r)
    w.close()
    check("cqs: every reply matched its JSON Schema", not w.schema_errors,
          w.schema_errors[:2])


def main():
    for t in (test_protocol, test_mq_config, test_mq_offload_capacity, test_mq_events,
              test_mq_uow_recovery_defs, test_cqs):
        try:
            t()
        except Exception as e:  # a crash is a failed check, the rest still run
            check("%s ran to completion" % t.__name__, False, "%s: %s" % (type(e).__name__, e))
    passed = sum(1 for _, ok in RESULTS if ok)
    print()
    print("selftest: %d checks, %d passed, %d failed" % (len(RESULTS), passed,
                                                          len(RESULTS) - passed))
    return 0 if passed == len(RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
