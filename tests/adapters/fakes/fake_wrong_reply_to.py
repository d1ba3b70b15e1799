"""Fake implementation: answers apply with in_reply_to off by one."""

import fakebase


def apply(msg):
    reply = fakebase.apply(msg)
    reply["in_reply_to"] = msg["msg_id"] + 1
    return reply


fakebase.run(apply=apply)
