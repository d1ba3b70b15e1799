#!/usr/bin/env python3
"""Checks faults.json against impl.py.

For every fault: the quoted sentence is verbatim (whitespace-normalised) in
its source file; the ID is implemented in impl.py (listed by --list-faults and
used in the code); the scenario validates against the JSON Schemas (config,
each op, and the open/apply messages that carry them); and the faithful and
the faulty builds, driven over the wire, answer the scenario differently.

Prints "N faults, P passed, F failed".
"""
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import cfwire

HERE = cfwire.HERE
FAMILIES = {"CQS", "OFFLOAD", "CFLEVEL", "CAPACITY", "TOPOLOGY", "SIZING", "QDEPTH", "RECOVERY", "QUEUE"}
SOURCES = {"000_869f717547e3a89a.txt", "001_bbb586403b3000fc.txt", "002_adc847a8fc6c1ca2.txt",
           "003_83ac8579f7e0d9f5.txt", "004_97a0fff9f37ed76b.txt", "ibm-facts.md"}


def first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i, x, y
    if len(a) != len(b):
        return min(len(a), len(b)), None, None
    return None


def run(fault, scenario):
    c = cfwire.Client(fault=fault)
    try:
        init = c.init()
        if init.get("type") != "init_ok":
            return None, ["init failed: %r" % init]
        res = cfwire.run_scenario(c, scenario)
        return res, list(c.schema_errors)
    finally:
        c.close()


def check(f, texts, impl_src, listed):
    problems = []
    fid = f.get("id")
    for k in ("id", "family", "sentence", "source", "description", "scenario"):
        if k not in f:
            problems.append("missing field %r" % k)
    if problems:
        return problems, None
    if f["family"] not in FAMILIES:
        problems.append("unknown family %r" % f["family"])
    if f["source"] not in SOURCES:
        problems.append("unknown source %r" % f["source"])
    elif cfwire.norm(f["sentence"]) not in texts[f["source"]]:
        problems.append("sentence not verbatim in %s" % f["source"])
    if fid not in listed:
        problems.append("ID not listed by impl.py --list-faults")
    if len(re.findall(r'"%s"' % re.escape(fid), impl_src)) < 2:
        problems.append("ID not used in impl.py's code")
    sc = f["scenario"]
    if not isinstance(sc, dict) or set(sc) != {"config", "ops"} or not isinstance(sc["ops"], list) or not sc["ops"]:
        problems.append("scenario must be {config, ops(non-empty)}")
        return problems, None
    errs = cfwire.validator("config").errors(sc["config"])
    errs += cfwire.validator("open").errors({"type": "open", "msg_id": 1, "config": sc["config"]})
    for i, op in enumerate(sc["ops"]):
        e = cfwire.validator("op").errors(op)
        e += cfwire.validator("apply").errors({"type": "apply", "msg_id": 2 + i, "op": op})
        errs += ["op %d: %s" % (i, x) for x in e]
    if errs:
        problems.append("scenario does not validate: %s" % errs[:3])
        return problems, None
    return problems, sc


def main():
    with open(os.path.join(HERE, "faults.json")) as fh:
        faults = json.load(fh)
    texts = {}
    for s in SOURCES:
        with open(cfwire.source_path(s), encoding="utf-8") as fh:
            texts[s] = cfwire.norm(fh.read())
    with open(cfwire.IMPL, encoding="utf-8") as fh:
        impl_src = fh.read()
    listed = set(subprocess.run([sys.executable, cfwire.IMPL, "--list-faults"], capture_output=True,
                                text=True).stdout.split())
    ids = [f.get("id") for f in faults]
    dups = {i for i in ids if ids.count(i) > 1}

    # faithful answers: one process, many opens
    prepared = []
    for f in faults:
        problems, sc = check(f, texts, impl_src, listed)
        if f.get("id") in dups:
            problems.append("duplicate ID")
        prepared.append((f, problems, sc))
    base = cfwire.Client()
    base.init()
    faithful = {}
    for f, problems, sc in prepared:
        if sc is not None:
            faithful[f["id"]] = cfwire.run_scenario(base, sc)
    base_schema = list(base.schema_errors)
    base.close()

    def judge(item):
        f, problems, sc = item
        problems = list(problems)
        if sc is not None:
            try:
                res, serr = run(f["id"], sc)
            except cfwire.ProtocolFault as e:
                res, serr = None, ["protocol fault: %s" % e]
            if serr:
                problems.append("faulty build replies break the schema: %s" % serr[:2])
            if res is not None:
                d = first_diff(faithful[f["id"]], res)
                if d is None:
                    problems.append("faithful and faulty builds answer the scenario identically")
                else:
                    return f, problems, d
        return f, problems, None

    with ThreadPoolExecutor(max_workers=8) as ex:
        results = list(ex.map(judge, prepared))

    passed = failed = 0
    verbose = "-v" in sys.argv
    fams = {}
    for f, problems, d in results:
        if problems:
            failed += 1
            print("FAIL %s: %s" % (f.get("id"), "; ".join(problems)))
        else:
            passed += 1
            fams[f["family"]] = fams.get(f["family"], 0) + 1
            if verbose:
                print("PASS %s: differs at step %d: faithful %s / faulty %s" % (
                    f["id"], d[0], json.dumps(d[1])[:160], json.dumps(d[2])[:160]))
    if base_schema:
        failed += 1
        print("FAIL faithful build replies break the schema: %s" % base_schema[:3])
    missing = FAMILIES - set(fams)
    if missing:
        print("NOTE: families without a passing fault: %s" % sorted(missing))
    unlisted = listed - set(ids)
    if unlisted:
        print("NOTE: faults implemented but not in faults.json: %s" % sorted(unlisted))
    print("per family: %s" % json.dumps(dict(sorted(fams.items()))))
    print("%d faults, %d passed, %d failed" % (len(faults), passed, failed - (1 if base_schema else 0)))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
