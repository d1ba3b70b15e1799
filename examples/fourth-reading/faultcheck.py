#!/usr/bin/env python3
"""faultcheck.py: checks the fault kit.

For every entry of faults.json:
  * the fault exists in impl.py (and every impl.py fault is catalogued);
  * its sentence occurs verbatim in the named source document (whitespace and
    markdown emphasis normalised);
  * on its scenario the faithful build and the faulty build give different
    outcomes (over the wire, every reply schema-checked).
Prints PASS/FAIL per fault and exits 1 on any failure.
"""
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
from wire import run_scenario  # noqa: E402

SEEDS = "/work/shared/seeds"
FACTS = "/work/shared/notes/ibm-facts.md"
PROTOCOL = os.path.normpath(os.path.join(HERE, "..", "..", "docs", "PROTOCOL.md"))


def norm(text):
    text = text.replace("**", "").replace("’", "'")
    return re.sub(r"\s+", " ", text).strip()


def documents():
    docs = {}
    if os.path.isdir(SEEDS):
        for fn in sorted(os.listdir(SEEDS)):
            with open(os.path.join(SEEDS, fn), encoding="utf-8") as f:
                text = f.read()
            title = next(l.strip() for l in text.splitlines() if l.strip() and l.strip() != "[z/OS]")
            docs[norm(title)] = norm(text)
    if os.path.exists(FACTS):
        with open(FACTS, encoding="utf-8") as f:
            docs["__facts__"] = norm(f.read())
    with open(PROTOCOL, encoding="utf-8") as f:
        docs["__protocol__"] = norm(f.read())
    return docs


def source_doc(source, docs):
    if "ibm-facts.md" in source:
        return docs.get("__facts__")
    if "PROTOCOL.md" in source:
        return docs.get("__protocol__")
    key = norm(source)
    for title, text in docs.items():
        if title.startswith(key) or key.startswith(title) or \
                norm(re.sub(r"\s*\(.*\)\s*$", "", source)) in title:
            return text
    return None


def main():
    with open(os.path.join(HERE, "faults.json"), encoding="utf-8") as f:
        faults = json.load(f)
    listed = subprocess.run([sys.executable, os.path.join(HERE, "impl.py"), "--list-faults"],
                            capture_output=True, text=True).stdout.split()
    impl_faults = dict(zip(listed[1::2], listed[0::2]))
    docs = documents()
    failures = 0
    ids = [x["id"] for x in faults]
    missing = sorted(set(impl_faults) - set(ids))
    if missing or len(set(ids)) != len(ids):
        print("FAIL catalogue: impl faults missing from faults.json %s, or duplicate ids" % missing)
        failures += 1

    def one(fx):
        problems = []
        for k in ("id", "family", "sentence", "source", "description", "scenario"):
            if k not in fx:
                problems.append("missing field %s" % k)
        if fx["id"] not in impl_faults:
            problems.append("impl.py has no such fault")
        elif impl_faults[fx["id"]] != fx["family"]:
            problems.append("family %s != impl's %s" % (fx["family"], impl_faults[fx["id"]]))
        doc = source_doc(fx["source"], docs)
        if doc is None:
            problems.append("source document %r not found" % fx["source"])
        elif norm(fx["sentence"]) not in doc:
            problems.append("sentence not found verbatim in %r" % fx["source"])
        good = run_scenario(fx["scenario"])
        bad = run_scenario(fx["scenario"], fault=fx["id"])
        for tr, who in ((good, "faithful"), (bad, "faulty")):
            if tr and isinstance(tr[-1], tuple) and tr[-1][0] == "schema":
                problems.append("%s build broke the schema: %s" % (who, tr[-1][1][:2]))
        if good == bad:
            problems.append("faithful and faulty builds agree on the scenario")
        diff = None
        for i, (a, b) in enumerate(zip(good, bad)):
            if a != b:
                diff = (i, a, b)
                break
        if diff is None and len(good) != len(bad):
            diff = (min(len(good), len(bad)), "length %d" % len(good), "length %d" % len(bad))
        return fx, problems, diff

    with ThreadPoolExecutor(max_workers=8) as ex:
        results = list(ex.map(one, faults))
    fams = {}
    for fx, problems, diff in results:
        fams.setdefault(fx["family"], [0, 0])
        fams[fx["family"]][1] += 1
        if problems:
            failures += 1
            print("FAIL %-38s %s" % (fx["id"], "; ".join(problems)))
        else:
            fams[fx["family"]][0] += 1
            i, a, b = diff
            step = "open" if i == 0 else "op %d (%s)" % (i, fx["scenario"]["ops"][i - 1].get("op"))
            print("PASS %-38s differs at %s" % (fx["id"], step))
    print("faultcheck: %d/%d faults differ from the faithful build on their scenario; by family: %s"
          % (sum(v[0] for v in fams.values()), len(faults),
             ", ".join("%s %d/%d" % (k, v[0], v[1]) for k, v in sorted(fams.items()))))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
