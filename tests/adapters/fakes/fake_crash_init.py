"""Fake implementation: crashes (uncaught exception, traceback on stderr) on init."""

import fakebase


def init(msg):
    raise RuntimeError("fake: cannot connect to the coupling facility")


fakebase.run(init=init)
