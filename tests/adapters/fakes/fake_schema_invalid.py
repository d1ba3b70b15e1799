"""Fake implementation: its apply_ok outcome has "ok": "yes" (a string, not a boolean)."""

import fakebase


def apply(msg):
    reply = fakebase.apply(msg)
    reply["outcome"]["ok"] = "yes"
    return reply


fakebase.run(apply=apply)
