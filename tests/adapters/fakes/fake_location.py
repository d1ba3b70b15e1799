"""Fake implementation speaking protocol 1.1: puts report ``"location": "SMDS"``."""

import fakebase

fakebase.CAPABILITIES["protocol_version"] = "1.1"


def init(msg):
    return {**fakebase.init(msg), "protocol_version": "1.1"}


def outcome(op):
    out = {"kind": op.get("op"), "ok": True}
    if op.get("op") == "put":
        out["location"] = "SMDS"
    return out


fakebase.outcome = outcome
fakebase.run(init=init)
