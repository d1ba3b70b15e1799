"""Fake implementation: claims protocol version 2.0 in init_ok."""

import fakebase


def init(msg):
    reply = fakebase.init(msg)
    reply["protocol_version"] = "2.0"
    return reply


fakebase.run(init=init)
