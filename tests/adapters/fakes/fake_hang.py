"""Fake implementation: handshake and open work, then it never answers apply or batch."""

import time

import fakebase


def hang(msg):
    fakebase.log("fake: hanging")
    while True:
        time.sleep(60)


fakebase.run(apply=hang, batch=hang)
