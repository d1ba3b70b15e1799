#!/usr/bin/env python3
"""faultcheck: every fault in faults.json must (1) quote its sentence verbatim from its source
(whitespace runs compare as one space), (2) be known to impl.py --list-faults and used in the code,
and (3) make the faulty build answer its scenario differently from the faithful build."""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from wire import run_scenario  # noqa: E402

SOURCES = os.environ.get("CFCONFORM_TENTH_SOURCES", "/work/tenth-input")
FAMILIES = {"CQS", "OFFLOAD", "CFLEVEL", "CAPACITY", "TOPOLOGY", "SIZING", "QDEPTH", "RECOVERY", "QUEUE"}


def norm(t):
    return re.sub(r"\s+", " ", t).strip()


def main(argv):
    only = set(argv[1:])
    faults = json.load(open(os.path.join(HERE, "faults.json"), encoding="utf-8"))
    listed = subprocess.run([sys.executable, os.path.join(HERE, "impl.py"), "--list-faults"],
                            capture_output=True, text=True).stdout.split()
    code = open(os.path.join(HERE, "impl.py"), encoding="utf-8").read()
    texts = {}
    bad = 0
    baseline = {}
    for f in faults:
        if only and f["id"] not in only:
            continue
        probs = []
        for k in ("id", "family", "sentence", "source", "description", "scenario"):
            if k not in f:
                probs.append("missing " + k)
        if f.get("family") not in FAMILIES:
            probs.append("unknown family")
        src = f["source"]
        if src not in texts:
            try:
                texts[src] = norm(open(os.path.join(SOURCES, src), encoding="utf-8").read())
            except OSError:
                texts[src] = None
        if texts[src] is None:
            probs.append("source %s not found" % src)
        elif norm(f["sentence"]) not in texts[src]:
            probs.append("sentence not verbatim in %s" % src)
        if f["id"] not in listed:
            probs.append("not in --list-faults")
        if ('"%s"' % f["id"]) not in code and ("_" + f["id"].split("_")[-1]) not in code:
            probs.append("id not used in impl.py")
        scn = f["scenario"]
        key = json.dumps(scn, sort_keys=True)
        if key not in baseline:
            baseline[key] = run_scenario(scn)
        good = baseline[key]
        faulty = run_scenario(scn, fault=f["id"])
        if good == faulty:
            probs.append("scenario does not tell the builds apart")
        else:
            for i, (a, b) in enumerate(zip(good, faulty)):
                if a != b:
                    where = i
                    break
            else:
                where = min(len(good), len(faulty))
        status = "FAIL" if probs else "PASS"
        if probs:
            bad += 1
            print("%s %s: %s" % (status, f["id"], "; ".join(probs)))
        else:
            print("%s %s (differs at reply %d)" % (status, f["id"], where))
    n = len([f for f in faults if not only or f["id"] in only])
    print("summary: %d faults, %d pass, %d fail" % (n, n - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
