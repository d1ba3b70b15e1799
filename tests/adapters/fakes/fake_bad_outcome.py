"""Fake implementation: the outcome of one op (FAKE_BAD_AT, counted from 0 since open, over applies and
batches) is spoiled as FAKE_BAD says: ``nan_usage`` (a NaN in ``usage``, which Python's json writes
as the non-JSON ``NaN``), ``string_ok`` (``"ok": "true"``), ``unknown_field`` (an extra ``frob``),
``missing_ok``, ``negative_usage``, ``bad_location``, ``nan_value`` (a NaN inside ``value``)."""

import os

import fakebase

BAD = os.environ.get("FAKE_BAD", "nan_usage")
AT = int(os.environ.get("FAKE_BAD_AT", "0"))
count = 0
plain = fakebase.outcome


def spoil(out):
    if BAD == "nan_usage":
        out["usage"] = [1, 100, float("nan"), 600]
    elif BAD == "string_ok":
        out["ok"] = "true"
    elif BAD == "unknown_field":
        out["frob"] = 1
    elif BAD == "missing_ok":
        del out["ok"]
    elif BAD == "negative_usage":
        out["usage"] = [1, 100, -2, 600]
    elif BAD == "bad_location":
        out["location"] = "TAPE"
    elif BAD == "nan_value":
        out["value"] = {"clock": 0, "structures": {"APP1": {"size_kb": float("nan")}}}
    return out


def outcome(op):
    global count
    out = plain(op)
    if count == AT:
        spoil(out)
    count += 1
    return out


def open_(msg):
    global count
    count = 0
    return fakebase.open_(msg)


fakebase.outcome = outcome  # fakebase.apply and fakebase.batch look it up at call time
fakebase.run(open=open_)
