#!/usr/bin/env python3
"""Runs every fault scenario of faults.json against the faithful and the faulty build.

Exit 1 if any pair agrees, if a fault of impl.FAULTS has no scenario (or a scenario
names an unknown fault), if a family is not one of the nine, or if a quoted sentence
does not occur in its named source (whitespace and markdown '*' ignored).
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import impl  # noqa: E402
from harness import observe, first_difference  # noqa: E402

SHARED = os.environ.get("CFCONFORM_SHARED", os.path.join(HERE, "..", "..", "..", "shared"))
SEEDS = os.path.join(SHARED, "seeds")
NOTES = os.path.join(SHARED, "notes")
FAMILIES = {"CAPACITY", "CFLEVEL", "CQS", "OFFLOAD", "QDEPTH", "QUEUE", "RECOVERY", "SIZING",
            "TOPOLOGY"}


def norm(text):
    return re.sub(r"\s+", "", text.replace("*", ""))


def source_text(name):
    for d in (SEEDS, NOTES):
        p = os.path.join(d, name)
        if os.path.isfile(p):
            with open(p, encoding="utf-8") as fh:
                return fh.read()
    return None


def main():
    with open(os.path.join(HERE, "faults.json"), encoding="utf-8") as fh:
        faults = json.load(fh)
    problems = []
    ids = [f.get("id") for f in faults]
    if len(ids) != len(set(ids)):
        problems.append("duplicate fault ids in faults.json")
    missing = set(impl.FAULTS) - set(ids)
    for m in sorted(missing):
        problems.append(f"{m}: fault in impl.py without a scenario in faults.json")
    cache = {}
    per_family = {}
    for f in faults:
        fid = f.get("id")
        for key in ("id", "family", "sentence", "source", "description", "scenario"):
            if key not in f:
                problems.append(f"{fid}: missing field {key}")
        if fid not in impl.FAULTS:
            problems.append(f"{fid}: not a fault of impl.py")
            continue
        if f.get("family") not in FAMILIES:
            problems.append(f"{fid}: unknown family {f.get('family')!r}")
        per_family[f.get("family")] = per_family.get(f.get("family"), 0) + 1
        src = f.get("source", "")
        if src not in cache:
            cache[src] = source_text(src)
        text = cache[src]
        if text is None:
            problems.append(f"{fid}: source {src!r} not found")
        elif norm(f.get("sentence", "")) not in norm(text):
            problems.append(f"{fid}: sentence not found in {src}: {f.get('sentence')!r}")
        sc = f.get("scenario")
        if not isinstance(sc, dict) or "config" not in sc or "ops" not in sc:
            problems.append(f"{fid}: no scenario")
            continue
        good = observe(sc["config"], sc["ops"], None)
        bad = observe(sc["config"], sc["ops"], fid)
        for i, oc in enumerate(good):
            if "error" in oc and i > 0:
                problems.append(f"{fid}: faithful build answers op {i - 1} with error {oc['error']}")
        diff = first_difference(good, bad)
        if diff is None:
            problems.append(f"{fid}: faithful and faulty builds agree")
        elif "-v" in sys.argv:
            i, x, y = diff
            print(f"{fid}: differs at step {i}\n   faithful: {json.dumps(x)[:300]}\n"
                  f"   faulty:   {json.dumps(y)[:300]}")
    n = len(faults)
    print(f"{n} faults; per family: " + ", ".join(f"{k} {v}" for k, v in sorted(per_family.items())))
    if not 60 <= n <= 90:
        problems.append(f"{n} faults: expected 60..90")
    for p in problems:
        print("FAIL", p)
    if problems:
        print(f"faultcheck: {len(problems)} problem(s)")
        return 1
    print("faultcheck: all faults distinguished, all sentences found")
    return 0


if __name__ == "__main__":
    sys.exit(main())
