#!/usr/bin/env python3
"""Runs every fault scenario of faults.json in process on the faithful build and on the faulty
build, and exits 1 if any fault's scenario gives identical outcomes, if its sentence is not found
verbatim in the named input file (whitespace runs, including line breaks, count as one space),
or if faults.json and impl.py's fault list disagree.  Options: -v (show each fault's first
difference)."""
import importlib.util
import io
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("CFCONFORM_SHARED", os.path.join(HERE, "..", "..", "..", "shared"))


def source_path(name):
    """A seed text in shared/seeds, ibm-facts.md in shared/notes, or docs/PROTOCOL.md."""
    if name == "PROTOCOL.md":  # the wire protocol, in this repository
        return os.path.join(HERE, "..", "..", "docs", name)
    sub = "notes" if name.endswith(".md") else "seeds"
    return os.path.join(SHARED, sub, name)
FAMILIES = {"OFFLOAD", "CFLEVEL", "CAPACITY", "TOPOLOGY", "SIZING", "RECOVERY", "QDEPTH", "CQS", "QUEUE"}


def load_impl():
    spec = importlib.util.spec_from_file_location("seventh_impl", os.path.join(HERE, "impl.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run(impl, fault, scenario):
    out = io.StringIO()
    srv = impl.Server(fault, out)
    replies = []
    msgs = [{"type": "init", "msg_id": 1, "protocol_version": "1.3", "suite": "faultcheck", "max_line_bytes": 1048576},
            {"type": "open", "msg_id": 2, "config": scenario["config"]}]
    msgs += [{"type": "apply", "msg_id": 3 + i, "op": op} for i, op in enumerate(scenario["ops"])]
    for m in msgs:
        out.seek(0)
        out.truncate()
        srv.handle_line(json.dumps(m).encode("utf-8"))
        lines = out.getvalue().splitlines()
        assert len(lines) == 1, "expected exactly one reply line, got %r" % lines
        r = json.loads(lines[0])
        r.pop("in_reply_to", None)
        replies.append(r)
    return replies[1:]   # the init_ok is the same for everybody


def norm(text):
    return re.sub(r"\s+", " ", text)


def main():
    verbose = "-v" in sys.argv
    impl = load_impl()
    faults = json.load(open(os.path.join(HERE, "faults.json")))
    bad = 0
    ids = [f["id"] for f in faults]
    if len(set(ids)) != len(ids):
        print("FAIL duplicate fault ids")
        bad += 1
    missing = set(impl.FAULT_IDS) - set(ids)
    extra = set(ids) - set(impl.FAULT_IDS)
    if missing or extra:
        print("FAIL fault lists disagree: only in impl %s, only in faults.json %s" % (sorted(missing), sorted(extra)))
        bad += 1
    for f in faults:
        fid = f["id"]
        problems = []
        if f.get("family") not in FAMILIES:
            problems.append("bad family %r" % f.get("family"))
        path = source_path(f["source"])
        if not os.path.exists(path):
            problems.append("source %s not found" % f["source"])
        elif norm(f["sentence"]) not in norm(open(path, encoding="utf-8").read()):
            problems.append("sentence not found verbatim in %s" % f["source"])
        if fid not in impl.FAULT_IDS:
            problems.append("unknown to impl.py")
        else:
            good = run(impl, None, f["scenario"])
            faulty = run(impl, fid, f["scenario"])
            if good == faulty:
                problems.append("scenario does not distinguish the faulty build")
            elif verbose:
                for i, (g, b) in enumerate(zip(good, faulty)):
                    if g != b:
                        print("  %s step %d:\n    faithful %s\n    faulty   %s" % (fid, i, json.dumps(g)[:300], json.dumps(b)[:300]))
                        break
            if any(r.get("type") == "error" and r.get("code") == 12 for r in good + faulty):
                problems.append("internal failure (error 12) in a run")
            if good and good[0].get("type") == "error":
                problems.append("faithful build refused the scenario's config: %s" % good[0].get("text"))
        if problems:
            bad += 1
            print("FAIL %s: %s" % (fid, "; ".join(problems)))
        else:
            print("PASS %s [%s]" % (fid, f["family"]))
    print("%d faults, %d failing" % (len(faults), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
