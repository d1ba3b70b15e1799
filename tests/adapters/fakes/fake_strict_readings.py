"""Fake implementation speaking protocol 1.2 that checks a config's readings against the ambiguities
1.2 knows, as an implementation validating its copy of the 1.2 schema would: an unknown one is
error 13 (bad-config)."""

import fakebase

fakebase.CAPABILITIES["protocol_version"] = "1.2"
NEWER = ("qstats_at_stop", "cqs_reselect")  # ambiguities added in 1.3


def init(msg):
    return {**fakebase.init(msg), "protocol_version": "1.2"}


def open_(msg):
    unknown = [k for k in (msg.get("config") or {}).get("readings", {}) if k in NEWER]
    if unknown:
        return {
            "type": "error",
            "in_reply_to": msg["msg_id"],
            "code": 13,
            "definite": True,
            "text": f"config readings.{unknown[0]} is not a known ambiguity",
        }
    return fakebase.open_(msg)


fakebase.run(init=init, open_=open_)
