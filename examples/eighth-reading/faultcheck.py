#!/usr/bin/env python3
"""Check faults.json against impl.py, in process.

For every fault: the sentence must occur verbatim in its source file (runs of
whitespace compare as one space), the scenario must be valid (config against
schemas/config.json, each op against schemas/op.json), and running it through
Server on the faithful build and on the faulty build (--fault ID) must give
different replies.  The fault ids of faults.json and of impl.py must agree.
Exit 0 when everything holds, 1 otherwise.
"""
import io
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import impl  # noqa: E402
import schemacheck  # noqa: E402

SHARED = os.environ.get("CFCONFORM_SHARED", os.path.join(HERE, "..", "..", "..", "shared"))


def source_path(name):
    """A seed text in shared/seeds, ibm-facts.md in shared/notes, or docs/PROTOCOL.md."""
    if name == "PROTOCOL.md":
        return os.path.join(HERE, "..", "..", "docs", name)
    return os.path.join(SHARED, "notes" if name.endswith(".md") else "seeds", name)
KEYS = {"id", "family", "sentence", "source", "description", "scenario"}


def norm(text):
    return re.sub(r"\s+", " ", text).strip()


def run_scenario(scenario, fault=None):
    """Replies (as parsed JSON, msg ids stripped) of init/open/apply... in process."""
    out = io.BytesIO()
    server = impl.Server(fault, out)
    server.handle_line(json.dumps({"type": "init", "msg_id": 1, "protocol_version": "1.3",
                                   "suite": "faultcheck"}).encode())
    server.handle_line(json.dumps({"type": "open", "msg_id": 2,
                                   "config": scenario["config"]}).encode())
    for i, op in enumerate(scenario["ops"]):
        server.handle_line(json.dumps({"type": "apply", "msg_id": 3 + i, "op": op}).encode())
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    return replies[1:]   # the init_ok is the same for every build


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i, x, y
    if len(a) != len(b):
        return min(len(a), len(b)), None, None
    return None


def main():
    failures = []
    with open(os.path.join(HERE, "faults.json"), encoding="utf-8") as fh:
        faults = json.load(fh)
    texts = {}
    ids = []
    families = {}
    profiles = {"mq": 0, "cqs": 0}
    for f in faults:
        fid = f.get("id", "?")
        ids.append(fid)
        if set(f) != KEYS:
            failures.append("%s: keys %s, expected exactly %s" % (fid, sorted(f), sorted(KEYS)))
            continue
        if not re.match(r"^[A-Z][A-Z0-9_]*$", fid):
            failures.append("%s: id is not a short upper-case id" % fid)
        families[f["family"]] = families.get(f["family"], 0) + 1
        src = f["source"]
        if src not in texts:
            path = source_path(src)
            if not os.path.isfile(path):
                failures.append("%s: source %s does not exist" % (fid, src))
                continue
            with open(path, encoding="utf-8") as fh:
                texts[src] = norm(fh.read())
        if norm(f["sentence"]) not in texts[src]:
            failures.append("%s: sentence not found verbatim in %s: %r" % (fid, src, f["sentence"]))
        sc = f["scenario"]
        errs = schemacheck.validate(sc.get("config"), "config")
        if errs:
            failures.append("%s: scenario config invalid: %s %s" % ((fid,) + errs[0]))
        for k, op in enumerate(sc.get("ops", [])):
            errs = schemacheck.validate(op, "op")
            if errs:
                failures.append("%s: scenario op %d invalid: %s %s" % ((fid, k) + errs[0]))
        profiles[sc["config"].get("profile", "mq")] += 1
        try:
            good = run_scenario(sc)
            bad = run_scenario(sc, fid)
        except Exception as e:   # an unknown fault id raises in Server()
            failures.append("%s: scenario could not run: %r" % (fid, e))
            continue
        for r in good + bad:
            if r.get("type") == "error" and r.get("code") == 12:
                failures.append("%s: internal failure: %s" % (fid, r.get("text")))
                break
        diff = first_difference(good, bad)
        if diff is None:
            failures.append("%s: the scenario does not tell the faulty build from the faithful"
                            % fid)
        elif "-v" in sys.argv:
            i, x, y = diff
            print("%-28s reply %d differs:\n   faithful %s\n   faulty   %s"
                  % (fid, i, json.dumps(x)[:300], json.dumps(y)[:300]))
    # the fault lists of impl.py and faults.json
    listed = subprocess.run([sys.executable, os.path.join(HERE, "impl.py"), "--list-faults"],
                            capture_output=True, text=True, check=False).stdout.split()
    if len(ids) != len(set(ids)):
        failures.append("faults.json has duplicate ids")
    missing = sorted(set(listed) - set(ids))
    extra = sorted(set(ids) - set(listed))
    if missing:
        failures.append("in impl.py --list-faults but not in faults.json: %s" % missing)
    if extra:
        failures.append("in faults.json but not in impl.py --list-faults: %s" % extra)
    for f in failures:
        print("FAIL", f)
    print("faults: %d (mq %d, cqs %d); families: %s" % (
        len(faults), profiles["mq"], profiles["cqs"],
        ", ".join("%s %d" % kv for kv in sorted(families.items()))))
    print("impl.py lists %d faults; %d checked, %d problem(s)" % (len(listed), len(faults),
                                                                   len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
