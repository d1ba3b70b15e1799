#!/usr/bin/env python3
"""faultcheck.py -- check faults.json against the implementation and the IBM sources.

For every fault in faults.json:
  * the record has exactly the keys id, family, sentence, source, description, scenario;
  * its sentence occurs verbatim in its source file (runs of whitespace compare as one
    space);
  * its scenario (config valid under config.json, ops under op.json) run in process
    through impl.Server gives different replies on the faithful build and on the build
    with --fault ID;
and the fault IDs listed by `impl.py --list-faults` equal the IDs of faults.json, each
of them tested in model.py.

Sources: $CFCONFORM_SHARED/seeds/<the five texts> and $CFCONFORM_SHARED/notes/ibm-facts.md
when CFCONFORM_SHARED is set, otherwise /work/ninth-input/<file> for all files.  Schemas:
$CFCONFORM_SCHEMAS (default /work/ninth-input/schemas); scenario validation is skipped
with a note when that folder is absent.

Exit status 0 when everything holds, 1 otherwise.
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
import model  # noqa: E402
import schemacheck  # noqa: E402

FAMILIES = ("OFFLOAD", "CAPACITY", "CFLEVEL", "TOPOLOGY", "EVENTS", "RECOVERY", "UOW",
            "QUEUE", "CQS", "ADMIN")
KEYS = {"id", "family", "sentence", "source", "description", "scenario"}
DEFAULT_DIR = "/work/ninth-input"


def source_path(name):
    # (in the cfconform repository: ../shared beside the clone, as CI lays it out)
    here = os.path.dirname(os.path.abspath(__file__))
    shared = os.environ.get("CFCONFORM_SHARED", os.path.join(here, "..", "..", "..", "shared"))
    if not os.path.isdir(shared):
        return os.path.join(DEFAULT_DIR, name)
    if name.endswith(".md"):
        return os.path.join(shared, "notes", name)
    return os.path.join(shared, "seeds", name)


def norm(text):
    return re.sub(r"\s+", " ", text).strip()


def run_scenario(scenario, fault):
    out = io.StringIO()
    server = impl.Server(fault, out)
    server.handle_line(json.dumps({"type": "init", "msg_id": 1, "protocol_version": "1.3",
                                   "suite": "faultcheck", "max_line_bytes": 1048576}))
    server.handle_line(json.dumps({"type": "open", "msg_id": 2, "config": scenario["config"]}))
    for i, op in enumerate(scenario["ops"]):
        server.handle_line(json.dumps({"type": "apply", "msg_id": 3 + i, "op": op}))
    return [json.loads(line) for line in out.getvalue().splitlines()]


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i, x, y
    if len(a) != len(b):
        return min(len(a), len(b)), None, None
    return None


def main():
    problems = []
    with open(os.path.join(HERE, "faults.json"), encoding="utf-8") as fh:
        faults = json.load(fh)
    if not isinstance(faults, list):
        print("FAIL faults.json is not a list")
        return 1
    # fault lists
    listed = subprocess.run([sys.executable, os.path.join(HERE, "impl.py"), "--list-faults"],
                            capture_output=True, text=True, check=False).stdout.split()
    ids = [f.get("id") for f in faults]
    if len(set(ids)) != len(ids):
        problems.append("duplicate fault IDs in faults.json")
    if set(listed) != set(ids) or len(listed) != len(set(listed)):
        problems.append("impl.py --list-faults and faults.json disagree: only in impl %s, "
                        "only in faults.json %s" % (sorted(set(listed) - set(ids)),
                                                     sorted(set(ids) - set(listed))))
    with open(os.path.join(HERE, "model.py"), encoding="utf-8") as fh:
        model_src = fh.read()
    for fid in ids:
        if 'self.F("%s")' % fid not in model_src:
            problems.append("%s: no self.F(%r) check in model.py" % (fid, fid))
    # schemas (optional)
    schemas = None
    if os.path.isdir(schemacheck.schema_dir()):
        schemas = schemacheck.load_schemas()
    else:
        print("note: schema folder %s not found; scenarios not validated"
              % schemacheck.schema_dir())
    texts = {}
    per_family = {}
    cqs = 0
    told = 0
    for f in faults:
        fid = f.get("id")
        bad = []
        if set(f) != KEYS:
            bad.append("keys %s" % sorted(f))
        if not (isinstance(fid, str) and re.match(r"^[A-Z][A-Z0-9_]*$", fid)):
            bad.append("id is not a short upper-case id")
        if f.get("family") not in FAMILIES:
            bad.append("family %r" % f.get("family"))
        src = f.get("source")
        if src not in texts:
            try:
                with open(source_path(src), encoding="utf-8") as fh:
                    texts[src] = norm(fh.read())
            except (OSError, TypeError) as e:
                texts[src] = None
                bad.append("source %r unreadable: %s" % (src, e))
        if texts.get(src) is not None and norm(f.get("sentence", "")) not in texts[src]:
            bad.append("sentence not found verbatim in %s" % src)
        if not norm(f.get("sentence", "")):
            bad.append("empty sentence")
        sc = f.get("scenario")
        if not (isinstance(sc, dict) and set(sc) == {"config", "ops"}
                and isinstance(sc.get("ops"), list)):
            bad.append("scenario must be {config, ops}")
        else:
            if schemas is not None:
                for e in schemacheck.validate(sc["config"], schemas["config"])[:3]:
                    bad.append("config: " + e)
                for i, op in enumerate(sc["ops"]):
                    for e in schemacheck.validate(op, schemas["op"])[:1]:
                        bad.append("op %d: %s" % (i, e))
            if fid not in model.FAULT_IDS:
                bad.append("not a fault model.py knows; scenario not run")
            else:
                good = run_scenario(sc, None)
                faulty = run_scenario(sc, fid)
                diff = first_difference(good, faulty)
                if diff is None:
                    bad.append("scenario does not tell the faulty build from the faithful one")
                else:
                    told += 1
                    f["_diff"] = diff
            if isinstance(sc.get("config"), dict) and sc["config"].get("profile") == "cqs":
                cqs += 1
        per_family[f.get("family")] = per_family.get(f.get("family"), 0) + 1
        if bad:
            problems += ["%s: %s" % (fid, b) for b in bad]
            print("FAIL %-28s %s" % (fid, "; ".join(bad)))
        else:
            print("ok   %-28s differs at reply %d" % (fid, f["_diff"][0]))
    if len(faults) < 60:
        problems.append("fewer than 60 faults")
    if cqs < 20:
        problems.append("fewer than 20 faults in the cqs profile")
    missing = [fam for fam in FAMILIES if fam not in per_family]
    if missing:
        problems.append("families without a fault: %s" % missing)
    print()
    print("faults: %d (cqs profile: %d, mq profile: %d); told apart: %d; per family: %s"
          % (len(faults), cqs, len(faults) - cqs, told,
             ", ".join("%s %d" % (k, per_family[k]) for k in sorted(per_family))))
    if problems:
        print("FAILED: %d problem(s)" % len(problems))
        for p in problems:
            print("  - " + p)
        return 1
    print("faultcheck: all %d faults pass (sentence verbatim, scenario tells them apart, "
          "lists agree)" % len(faults))
    return 0


if __name__ == "__main__":
    sys.exit(main())
