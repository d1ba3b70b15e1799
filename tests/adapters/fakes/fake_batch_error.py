"""Fake implementation: batches stop at the first "get" with an indefinite crash error (code 12)."""

import fakebase


def batch(msg):
    outcomes = []
    for op in msg["ops"]:
        if op.get("op") == "get":
            error = {"code": 12, "text": "fake: lost the CF connection", "definite": False}
            return {"type": "batch_ok", "in_reply_to": msg["msg_id"], "outcomes": outcomes, "error": error}
        outcomes.append(fakebase.outcome(op))
    return fakebase.batch(msg)


fakebase.run(batch=batch)
