"""Fake implementation: handshake and open work, then it exits (code 3) on the second apply."""

import sys

import fakebase

calls = 0


def apply(msg):
    global calls
    calls += 1
    if calls == 2:
        fakebase.log("fake: simulated fatal error, exiting with code 3")
        sys.exit(3)
    return fakebase.apply(msg)


fakebase.run(apply=apply)
