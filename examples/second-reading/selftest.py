#!/usr/bin/env python3
"""Self-test of second-reading: every fault's scenario diverges from the faithful
build first at its declared step (and not only in usage figures), plus plain
tests of the faithful build against IBM's sentences, and a wire round trip."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import impl      # noqa: E402
import faults    # noqa: E402

IGNORED = ("usage",)


def run(scenario, fault=None):
    eng = impl.Engine(fault)
    eng.open(json.loads(json.dumps(scenario["config"])))
    outs = []
    for op in scenario["ops"]:
        try:
            outs.append(eng.apply(impl.parse_op(op)))
        except impl.ProtoError as e:
            outs.append({"error": e.code})
            break
    return outs


def admin_judged(admin, config):
    """CSQ_ADMIN's figures are implementation-defined; what the documents decide is
    whether it offers 1000 list entries per queue manager (seed 001) and Table 1's
    minimum size for the number of queue managers (seed 001 Table 1, CFCC level 14)."""
    n = len(config.get("qmgrs", impl.CONFIG_DEFAULTS["qmgrs"]))
    return {"entries_ok": admin["entries_total"] >= 1000 * n,
            "size_ok": admin["size_kb"] >= impl.Engine().admin_required("cfcc14", n)}


def strip(o, config=None):
    o = dict(o)
    for k in IGNORED:
        o.pop(k, None)
    if isinstance(o.get("value"), dict):   # inspect: drop the accounting figures
        v = json.loads(json.dumps(o["value"]))
        for s in v.get("structures", {}).values():
            for k in ("entries_used", "entries_total", "elements_used", "elements_total", "size_kb"):
                s.pop(k, None)
        if config is not None and "admin" in v:
            v["admin"] = admin_judged(v["admin"], config)
        o["value"] = v
    return o


def first_diff(a, b, config=None):
    """Index of the first outcome that differs in more than usage figures (which are
    implementation-defined), and whether everything before it is equal but for usage."""
    for i, (x, y) in enumerate(zip(a, b)):
        if strip(x, config) != strip(y, config):
            return i, True
    if len(a) != len(b):
        return min(len(a), len(b)), True
    return None, False


def check_faults():
    fails = 0
    ids = set()
    for f in faults.FAULTS:
        assert f["id"] not in ids, f"duplicate fault id {f['id']}"
        ids.add(f["id"])
        for k in ("id", "family", "sentence", "source", "description", "scenario", "step"):
            assert k in f, f"{f['id']}: missing {k}"
        good = run(f["scenario"])
        bad = run(f["scenario"], f["id"])
        step, meaningful = first_diff(good, bad, f["scenario"]["config"])
        ok = step == f["step"] and meaningful and "error" not in good[-1]
        if not ok:
            fails += 1
            print(f"FAIL {f['id']}: first difference at {step} (declared {f['step']}), "
                  f"meaningful={meaningful}")
            if step is not None:
                print("   faithful:", good[step] if step < len(good) else None)
                print("   faulty:  ", bad[step] if step < len(bad) else None)
        else:
            cfg = f["scenario"]["config"]
            print(f"ok   {f['id']:<26} step {step}: {strip(good[step], cfg)} -> {strip(bad[step], cfg)}"[:220])
    # faults.json is in step with faults.py
    with open(os.path.join(HERE, "faults.json")) as fh:
        assert json.load(fh) == json.loads(json.dumps(faults.FAULTS)), "faults.json is stale: run faults.py"
    from collections import Counter
    c = Counter(f["family"] for f in faults.FAULTS)
    for fam in ("OFFLOAD", "QDEPTH", "CQS", "CAPACITY", "RECOVERY"):
        assert c[fam] >= 5, fam
    for fam in ("CFLEVEL", "TOPOLOGY", "QUEUE"):
        assert c[fam] >= 3, fam
    assert len(faults.FAULTS) >= 45
    return fails, c


def outcome(config, ops):
    return [strip(o) for o in run({"config": config, "ops": ops})]


def plain_tests():
    mq, st, qu, put, get = faults.mq, faults.st, faults.qu, faults.put, faults.get
    n = 0

    def t(name, cond):
        nonlocal n
        n += 1
        assert cond, name
        print(f"ok   plain: {name}")

    o = outcome(mq([st(cflevel=5)]), [put(70000, tag=1), put(100, tag=2)])
    t("seed 003: data over 63 KB is always offloaded (to SMDS by default)",
      o[0]["ok"] and o[0]["offloaded"] and o[0]["location"] == "SMDS" and o[1]["location"] == "CF")
    o = outcome(mq([st(cflevel=5, offload="DB2")]), [put(70000, tag=1)])
    t("seed 002: OFFLOAD(DB2) sends offloaded data to Db2", o[0]["location"] == "DB2")
    o = outcome(mq([st(cflevel=3)]), [put(70000, tag=1)])
    t("2366 for a put over 63 KB below CFLEVEL(4)", o[0] == {"kind": "put", "ok": False, "reason": 2366})
    o = outcome(mq([st(cflevel=3)], [qu(maxmsgl=64512)]), [put(70000, tag=1)])
    t("2030 when MAXMSGL is smaller than the message", o[0]["reason"] == 2030)
    o = outcome(mq([st(cflevel=4)]), [put(70000, tag=1)])
    t("CFLEVEL(4) stores messages over 63 KB (in Db2)", o[0]["ok"] and o[0]["location"] == "DB2")
    o = outcome(mq([st(cflevel=3, recover=False)]), [put(1, persistent=True)])
    t("2048 for persistent on RECOVER(NO)", o[0]["reason"] == 2048)
    o = outcome(mq([st(cflevel=2, recover=True)]), [put(1, persistent=True)])
    t("2366 for persistent on CFLEVEL(2)", o[0]["reason"] == 2366)
    o = outcome(mq(queues=[qu(maxdepth=10, qdepthhi=50, qdphiev=True)]),
                [put(tag=i) for i in range(1, 6)] + [{"op": "inspect"}])
    ev = o[4]["events"]
    t("seed 004: one event message per active PERFMEV queue manager, shared CorrelId",
      [e["qmgr"] for e in ev] == ["QM01", "QM02"] and ev[0]["correl"] == ev[1]["correl"]
      and ev[0]["enq"] == 5 and ev[1]["enq"] == 0)
    q = o[5]["value"]["queues"]["Q1"]
    t("seed 004: Queue Depth High enables Queue Depth Low and Queue Full",
      q == {"depth": 5, "qdphiev": False, "qdploev": True, "qdpmaxev": True})
    o = outcome(mq(queues=[qu(maxdepth=1)]), [put(tag=1), put(tag=2), get(), get()])
    t("FIFO, 2053 at MAXDEPTH, 2033 when empty",
      o[1]["reason"] == 2053 and o[2]["tag"] == 1 and o[3]["reason"] == 2033)
    o = outcome(mq([st(cflevel=3, recover=True)]),
                [put(tag=1), put(tag=2, persistent=True), {"op": "fail_structure", "cfstruct": "APP1"}, put(),
                 {"op": "recover", "cfstruct": "APP1"}, {"op": "backup", "qmgr": "QM01", "cfstruct": "APP1"}])
    t("2373 on a failed structure; RECOVER needs a backup", o[3]["reason"] == 2373 and o[4]["reason"] == "NO_BACKUP")
    o = outcome(mq([st(size_kb=8192, initsize_kb=4096)]),
                [{"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": s} for s in (4096, 8192, 6000, 5000)])
    t("seed 001: SETXCF ALTER only between the current size and SIZE (exclusive)",
      [x["ok"] for x in o] == [False, False, True, False])
    o = outcome(faults.cqs(), [faults.cput(tag=i) for i in range(1, 10)] +
                [{"op": "alter_outcome", "cfstruct": "APP1", "success": True}, {"op": "inspect"}])
    v = o[10]["value"]
    t("seed 000: at the threshold with no room to alter, queues go into overflow",
      v["structures"]["APP1"]["overflow_mode"] and v["queues"]["Q1"]["overflow"]
      and o[9]["reason"] == "NO_ALTER_PENDING")
    o = outcome(mq(qsg="QS"), [{"op": "inspect"}])
    v = o[0]["value"]
    o2 = outcome(mq([st(name="MYDATA")], [qu(cfstruct="MYDATA")], qsg="SQ03"), [{"op": "inspect"}])
    t("seed 003 / ibm-facts 2.6: CFRM name = QSG padded with @ to four characters + CFSTRUCT name",
      v["structures"]["APP1"]["cfname"] == "QS@@APP1"
      and o2[0]["value"]["structures"]["MYDATA"]["cfname"] == "SQ03MYDATA")
    eng = impl.Engine()
    ok = True
    for table in ("cfcc14", "cfcc9"):
        for nq in range(1, impl.MAX_QMGRS + 1):
            qms = [f"QM{i:02d}" for i in range(1, nq + 1)]
            for size in (None, eng.admin_required(table, nq)):
                cfg = mq(qmgrs=qms, admin_table=table, admin_size_kb=size)
                a = run({"config": cfg, "ops": [{"op": "inspect"}]})[0]["value"]["admin"]
                ok = ok and a["entries_total"] >= 1000 * nq and a["size_kb"] >= eng.admin_required(table, nq)
                if size is None:
                    ok = ok and a["size_kb"] >= eng.admin_required("cfcc14", nq)
    t("seed 001: CSQ_ADMIN offers 1000 list entries per queue manager and the table's minimum size "
      "(1-32 queue managers, both editions, default and minimum admin_size_kb)", ok)
    o = outcome(faults.cqs(), [{"op": "inspect"}])
    t("cqs profile: no cfname, no admin in inspect",
      "admin" not in o[0]["value"] and "cfname" not in o[0]["value"]["structures"]["APP1"])
    return n


def wire_test():
    p = subprocess.run([sys.executable, os.path.join(HERE, "impl.py")], input="\n".join([
        '{"type":"apply","msg_id":1,"op":{"op":"inspect"}}',
        '{"type":"init","msg_id":2,"protocol_version":"1.0"}',
        'garbage',
        '{"type":"open","msg_id":3,"config":{"profile":"mq","qsg":"QSG1","qmgrs":["QM01"],"structures":[{"name":"APP1"}],"queues":[{"name":"Q1","cfstruct":"APP1"}]}}',
        '{"type":"batch","msg_id":4,"ops":[{"op":"put","qmgr":"QM01","queue":"Q1","length":5,"tag":7},{"op":"get","qmgr":"QM09","queue":"Q1"},{"op":"inspect"}]}',
        '{"type":"close","msg_id":5}']) + "\n", capture_output=True, text=True, timeout=20)
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert p.returncode == 0
    assert lines[0]["code"] == 15 and lines[1]["type"] == "init_ok" and lines[2]["code"] == 11
    assert lines[2]["in_reply_to"] is None and lines[3]["type"] == "open_ok"
    b = lines[4]
    assert len(b["outcomes"]) == 1 and b["error"]["code"] == 14 and b["error"]["definite"]
    assert lines[5]["type"] == "close_ok"
    print("ok   wire round trip (precondition, garbage, batch error, close)")


if __name__ == "__main__":
    fails, c = check_faults()
    n = plain_tests()
    wire_test()
    print(f"\n{len(faults.FAULTS)} faults {dict(c)}; {fails} failing; {n} plain tests passed")
    sys.exit(1 if fails else 0)
