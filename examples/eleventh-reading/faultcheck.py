#!/usr/bin/env python3
"""Checks every fault of faults.json: its sentence is verbatim in its source (whitespace
runs compare as one space), its ID is listed by --list-faults and used in impl.py, its
scenario is schema-valid, and the faithful and faulty builds answer it differently."""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from selftest import run_scenario, schema, validate  # noqa: E402

SOURCES = "/work/eleventh-input"
ALLOWED = {"000_869f717547e3a89a.txt", "001_bbb586403b3000fc.txt", "002_adc847a8fc6c1ca2.txt",
           "003_83ac8579f7e0d9f5.txt", "004_97a0fff9f37ed76b.txt", "ibm-facts.md"}
FAMILIES = {"CQS", "OFFLOAD", "CFLEVEL", "CAPACITY", "TOPOLOGY", "SIZING", "QDEPTH", "RECOVERY", "QUEUE"}


def norm(t):
    return re.sub(r"\s+", " ", t).strip()


def main():
    faults = json.load(open(os.path.join(HERE, "faults.json")))
    listed = subprocess.run([sys.executable, os.path.join(HERE, "impl.py"), "--list-faults"],
                            stdout=subprocess.PIPE, universal_newlines=True).stdout.split()
    impl = open(os.path.join(HERE, "impl.py")).read()
    texts = {}
    bad = 0
    seen = set()
    fams = {}
    for f in faults:
        fid = f.get("id")
        probs = []
        for k in ("id", "family", "sentence", "source", "description", "scenario"):
            if k not in f:
                probs.append("missing " + k)
        if fid in seen:
            probs.append("duplicate id")
        seen.add(fid)
        if f.get("family") not in FAMILIES:
            probs.append("family %r" % f.get("family"))
        fams[f.get("family")] = fams.get(f.get("family"), 0) + 1
        src = f.get("source")
        if src not in ALLOWED:
            probs.append("source %r not allowed" % src)
        else:
            if src not in texts:
                texts[src] = norm(open(os.path.join(SOURCES, src), encoding="utf-8").read())
            if norm(f.get("sentence", "")) not in texts[src]:
                probs.append("sentence not verbatim in source")
        if fid not in listed:
            probs.append("not listed by --list-faults")
        if impl.count('"%s"' % fid) < 2:
            probs.append("not used in impl.py")
        sc = f.get("scenario", {})
        cfg, ops = sc.get("config"), sc.get("ops", [])
        for e in validate(cfg, schema("config"))[:2]:
            probs.append("config schema: " + e)
        for i, op in enumerate(ops):
            for e in validate(op, schema("op"))[:1]:
                probs.append("op %d schema: %s" % (i, e))
        if not probs:
            good, e1 = run_scenario(cfg, ops)
            faulty, e2 = run_scenario(cfg, ops, fault=fid)
            if e1 or e2:
                probs.append("reply schema: %s" % (e1 + e2)[:2])
            if good == faulty:
                probs.append("faithful and faulty builds answer alike")
        if probs:
            bad += 1
            print("FAIL %s: %s" % (fid, "; ".join(probs)))
        else:
            print("ok   %s" % fid)
    missing = [x for x in listed if x not in seen]
    if missing:
        bad += len(missing)
        print("FAIL listed but not in faults.json: %s" % missing)
    print("faultcheck: %d faults, %d passed, %d failed; per family %s" %
          (len(faults), len(faults) - bad if bad <= len(faults) else 0, bad,
           json.dumps(fams, sort_keys=True)))
    if len(faults) < 60:
        print("FAIL fewer than 60 faults")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
