"""Fake implementation: answers apply with a 3 MiB line (over the 1 MiB default limit)."""

import fakebase


def apply(msg):
    reply = fakebase.apply(msg)
    reply["outcome"]["value"] = "x" * (3 * 1024 * 1024)
    return reply


fakebase.run(apply=apply)
