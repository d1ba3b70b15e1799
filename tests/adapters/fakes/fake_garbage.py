"""Fake implementation: prints a non-JSON line instead of answering apply."""

import sys

import fakebase


def apply(msg):
    sys.stdout.write("Hello from a debug print, not JSON\n")
    sys.stdout.flush()


fakebase.run(apply=apply)
