"""Fake implementation: batches stop at the first "get" with error FAKE_ERROR_CODE (default 10).

The error's ``definite`` is the registry's for the code.  A batch whose first
op is a get gets ``batch_ok`` with no outcomes at all and the error.
"""

import os

import fakebase

CODE = int(os.environ.get("FAKE_ERROR_CODE", "10"))
DEFINITE = CODE not in (12, 18, 20)  # the registry's indefinite codes


def batch(msg):
    outcomes = []
    for op in msg["ops"]:
        if op.get("op") == "get":
            error = {"code": CODE, "text": f"fake: error {CODE} for a get", "definite": DEFINITE}
            return {"type": "batch_ok", "in_reply_to": msg["msg_id"], "outcomes": outcomes, "error": error}
        outcomes.append(fakebase.outcome(op))
    return fakebase.batch(msg)


fakebase.run(batch=batch)
