"""Fake implementation: correct, except that it ignores close (no close_ok) and keeps running."""

import fakebase


def close(msg):
    fakebase.log("fake: ignoring close")


fakebase.run(close=close)
