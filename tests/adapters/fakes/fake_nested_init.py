"""Fake implementation: its init reply nests JSON arrays 100,000 deep (beyond any parser's recursion)."""

import sys

import fakebase


def init(msg):
    depth = 100_000
    nested = "[" * depth + "]" * depth
    sys.stdout.write(f'{{"type": "init_ok", "in_reply_to": {msg["msg_id"]}, "capabilities": {nested}}}\n')
    sys.stdout.flush()


fakebase.run(init=init)
