"""Fake implementation: answers apply with a message of a type the protocol does not have."""

import fakebase


def apply(msg):
    return {"type": "apply_maybe", "in_reply_to": msg["msg_id"]}


fakebase.run(apply=apply)
