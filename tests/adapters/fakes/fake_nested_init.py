"""Fake implementation: its init reply nests JSON arrays 100,000 deep (beyond any parser's recursion)."""

import sys

import fakebase


def init(msg):
    depth = 100_000
    sys.stdout.write(
        '{"type": "init_ok", "in_reply_to": %d, "capabilities": %s%s}\n' % (msg["msg_id"], "[" * depth, "]" * depth)
    )
    sys.stdout.flush()


fakebase.run(init=init)
