#!/usr/bin/env python3
"""tenth-reading: an independent CF shared-queue emulator (IBM MQ shared queues and IMS CQS
structure overflow) speaking the cfconform JSON-lines wire protocol 1.3.

    python3 impl.py                 faithful build
    python3 impl.py --fault ID      the same build with one deliberate fault
    python3 impl.py --list-faults   the fault IDs

Python 3 standard library only.  See README.md for every reading and choice.
"""
import json
import math
import os
import re
import sys

PROTOCOL_VERSION = "1.3"
MAX_LINE = 1048576

FAULT = None


def F(name):
    return FAULT == name


def _fault_ids():
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        with open(os.path.join(here, "faults.json"), encoding="utf-8") as fh:
            return [f["id"] for f in json.load(fh)]
    except (OSError, ValueError):
        return []


# ---------------------------------------------------------------------------------------------
# readings declared (one per ambiguity, never "unknown")
READINGS = {
    "cqs_target": "relative",
    "cqs_usage_metric": "elements",
    "cqs_reselect": "select",
    "cqs_scan_anchor": "overflow-start",
    "offload_compare": "strict",
    "offload_usage_metric": "combined",
    "forced_offload_boundary": "63.75K",
    "persistent_low_cflevel_rc": "2366",
    "large_low_cflevel_rc": "2366",
    "qdepth_percent": "floor",
    "qfull_hi_flag": "disabled",
    "event_broadcast": "always",
    "recover_purge_nonfailed": "rejected",
    "alter_below_initsize": "rejected",
    "cflevel5_decrease": "guarded",
    "alter_at_size": "rejected",
    "alter_not_larger": "rejected",
    "full_signal_timing": "deferred",
    "cqs_alter": "async",
    "cqs_empty_overflow": "next-scan",
    "qstats_at_stop": "reset",
    "nonshared_at_stop": "lost",
}

FAMILIES = ["CQS", "OFFLOAD", "CFLEVEL", "CAPACITY", "TOPOLOGY", "SIZING", "QDEPTH", "RECOVERY",
            "QUEUE"]


def capabilities():
    return {
        "name": "tenth-reading",
        "protocol_version": PROTOCOL_VERSION,
        "profiles": ["mq", "cqs"],
        "families": list(FAMILIES),
        "readings": dict(READINGS),
        "reason_codes": "exact",
        "observes": ["usage", "events", "signals", "inspect"],
    }


# ---------------------------------------------------------------------------------------------
# storage accounting (our own, see README "Storage accounting")
ENTRY_BYTES = 256          # list entry + adjunct/control
ELEMENT_BYTES = 512        # "at least 512 bytes of data" (003): one element is 512 bytes
HEADER_BYTES = 256         # message header stored with the data: 65280 + 256 = 65536 = 128 elements
USABLE_FRACTION = (9, 10)  # "aim to use not more than 90% of the maximum structure space" (002)
CF_ENTRY_LIMIT = 64512     # "bigger than 63 KB" (CFLEVEL < 4 rejection, 63 KB = 64 512 bytes)
FORCED_BOUNDARY = 65280    # "greater than 63.75 KB and so, too large to store in the structure"
MAX_MSG = 104857600        # 100 MB
RULE_OFF = 65536           # OFFLDnSZ(64K): the rule is not in effect


def elements_for(length):
    if F("S_HEADER_MISSING"):
        return max(1, -(-length // ELEMENT_BYTES))
    if F("S_ELEMENT_FLOOR"):
        return max(1, (length + HEADER_BYTES) // ELEMENT_BYTES)
    return -(-(length + HEADER_BYTES) // ELEMENT_BYTES)


def totals_for(size_kb, ratio):
    usable = size_kb * 1024 * USABLE_FRACTION[0] // USABLE_FRACTION[1]
    entries = usable // (ENTRY_BYTES + ratio * ELEMENT_BYTES)
    return entries, entries * ratio


ADMIN_TABLE_CFCC14 = [6144, 6912, 7976, 8704, 9728, 10496, 11520, 12288, 13056, 14080, 14848, 15616,
                      16640, 17408, 18176, 19200, 19968, 20736, 21760, 22528, 23296, 24320, 25088,
                      25856, 27136, 27904, 28672, 29696, 30464, 31232, 32256]
ADMIN_TABLE_CFCC9 = {1: 2560, 2: 3328, 4: 4608, 8: 7680, 16: 13568, 31: 24832}


def admin_minimum(table, n):
    if table == "cfcc14":
        idx = n - 1
        if F("T_ADMIN_TABLE_OFF"):
            idx = max(0, n - 2)
        if 0 <= idx < len(ADMIN_TABLE_CFCC14):
            return ADMIN_TABLE_CFCC14[idx]
        return None
    for k in sorted(ADMIN_TABLE_CFCC9):
        if k >= n:
            return ADMIN_TABLE_CFCC9[k]
    return None


def admin_entries(size_kb):
    usable = size_kb * 1024 * USABLE_FRACTION[0] // USABLE_FRACTION[1]
    return usable // (ENTRY_BYTES + ELEMENT_BYTES)


# ---------------------------------------------------------------------------------------------
class OpError(Exception):
    def __init__(self, code, text, detail=None):
        Exception.__init__(self, text)
        self.code = code
        self.text = text
        self.detail = detail


def bad(code, field, value, allowed, rule):
    txt = "%s=%r is invalid: allowed %s [%s]" % (field, value, allowed, rule)
    return OpError(code, txt, {"field": field, "value": value, "allowed": allowed, "rule_id": rule})


class Refuse(Exception):
    """A documented rejection of a definition or command: an outcome with ok false."""

    def __init__(self, reason, field=None, value=None, why=""):
        Exception.__init__(self, why)
        self.reason = reason
        self.field = field
        self.value = value


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


MQ_STRUCT_NAME = re.compile(r"^[A-Z][A-Z0-9]{0,11}$")
ZOS_STRUCT_NAME = re.compile(r"^[A-Z][A-Z0-9$@#_]{0,15}$")
MQ_QUEUE_NAME = re.compile(r"^[A-Za-z0-9._/%]{1,48}$")
CQS_QUEUE_NAME = re.compile(r"^[A-Z@#$][A-Z0-9@#$]{0,7}$")
QSG_NAME = re.compile(r"^[A-Z][A-Z0-9]{0,3}$")
QMGR_NAME = re.compile(r"^[A-Z@#$][A-Z0-9@#$]{0,3}$")

STRUCT_DEFAULTS = {
    "name": None, "size_kb": 8192, "initsize_kb": None, "fullthreshold": 80, "ratio": 6,
    "cflevel": 3, "recover": False, "offload": None, "offld1th": 70, "offld1sz": 32768,
    "offld2th": 80, "offld2sz": 4096, "offld3th": 90, "offld3sz": 0, "ovflwmax": None,
    "ovflwstr": None, "ovflw_size_kb": 8192, "resource": False,
}
QUEUE_DEFAULTS = {
    "name": None, "cfstruct": None, "qmgr": None, "maxdepth": 999999999, "maxmsgl": 4194304,
    "qdepthhi": 80, "qdepthlo": 20, "qdphiev": False, "qdploev": False, "qdpmaxev": False,
}
OFFLD_KEYS = ["offld1th", "offld1sz", "offld2th", "offld2sz", "offld3th", "offld3sz"]


def check_structure(rec, profile, existing, ovflw_names, where):
    """Validate a structure record; returns a filled record or raises Refuse."""
    if not isinstance(rec, dict):
        raise Refuse("INVALID", "structure", None, "not an object")
    for k in rec:
        if k not in STRUCT_DEFAULTS:
            raise Refuse("INVALID", k, rec[k], "unknown keyword")
    s = dict(STRUCT_DEFAULTS)
    s.update(rec)
    name = s["name"]
    pat = MQ_STRUCT_NAME if profile == "mq" else ZOS_STRUCT_NAME
    if F("T_STRNAME_13") and profile == "mq":
        pat = re.compile(r"^[A-Z][A-Z0-9]{0,12}$")
    if F("T_STRNAME_DIGIT") and profile == "mq":
        pat = re.compile(r"^[A-Z0-9][A-Z0-9]{0,11}$")
    if not isinstance(name, str) or not pat.match(name) or name == "CSQ_ADMIN":
        raise Refuse("INVALID", "name", name, "structure name rules")
    if name in existing or name in ovflw_names:
        raise Refuse("INVALID", "name", name, "already defined")
    for k in ("size_kb", "fullthreshold", "ratio", "cflevel", "ovflw_size_kb") + tuple(OFFLD_KEYS):
        if not is_int(s[k]):
            raise Refuse("INVALID", k, s[k], "integer required")
    for k in ("initsize_kb", "ovflwmax"):
        if s[k] is not None and not is_int(s[k]):
            raise Refuse("INVALID", k, s[k], "integer or null required")
    for k in ("recover", "resource"):
        if not isinstance(s[k], bool):
            raise Refuse("INVALID", k, s[k], "boolean required")
    if s["size_kb"] < 1:
        raise Refuse("OUT_OF_RANGE", "size_kb", s["size_kb"], ">= 1")
    if s["initsize_kb"] is not None and not (1 <= s["initsize_kb"] <= s["size_kb"]):
        raise Refuse("OUT_OF_RANGE", "initsize_kb", s["initsize_kb"], "1..size_kb")
    if not 0 <= s["fullthreshold"] <= 100:
        raise Refuse("OUT_OF_RANGE", "fullthreshold", s["fullthreshold"], "0..100")
    if not 1 <= s["ratio"] <= 255:
        raise Refuse("OUT_OF_RANGE", "ratio", s["ratio"], "1..255")
    check_offld_values(s)
    if profile == "mq":
        top = 6 if F("C_CFLEVEL_RANGE_6") else 5
        if not 1 <= s["cflevel"] <= top:
            raise Refuse("OUT_OF_RANGE", "cflevel", s["cflevel"], "1..5")
        if s["offload"] is not None and s["offload"] not in ("SMDS", "DB2"):
            raise Refuse("INVALID", "offload", s["offload"], "SMDS or DB2")
        check_level_combination(s, where)
        if s["ovflwmax"] is not None or s["ovflwstr"] is not None or s["resource"]:
            fld = "ovflwmax" if s["ovflwmax"] is not None else (
                "ovflwstr" if s["ovflwstr"] is not None else "resource")
            raise Refuse("INVALID", fld, s[fld], "CQS keyword in an MQ configuration")
        if s["cflevel"] == 5 and s["offload"] is None:
            s["offload"] = "SMDS"   # "OFFLOAD(SMDS) is the default value."
    else:
        if s["recover"]:
            raise Refuse("INVALID", "recover", True, "MQ keyword in a CQS configuration")
        if s["offload"] is not None:
            raise Refuse("INVALID", "offload", s["offload"], "MQ keyword in a CQS configuration")
        lo = 0 if F("CQS_OVFLWMAX_RANGE") else 50
        if s["ovflwmax"] is not None and not lo <= s["ovflwmax"] <= 100:
            raise Refuse("OUT_OF_RANGE", "ovflwmax", s["ovflwmax"], "50..100")
        if s["ovflwstr"] is not None:
            o = s["ovflwstr"]
            if not isinstance(o, str) or not ZOS_STRUCT_NAME.match(o) or o == name:
                raise Refuse("INVALID", "ovflwstr", o, "a z/OS structure name other than name")
            if o in existing or o in ovflw_names:
                raise Refuse("INVALID", "ovflwstr", o, "already used")
        if s["ovflw_size_kb"] < 1:
            raise Refuse("OUT_OF_RANGE", "ovflw_size_kb", s["ovflw_size_kb"], ">= 1")
        if s["resource"] and not F("CQS_RESOURCE_OVERFLOW"):
            if s["ovflwstr"] is not None or s["ovflwmax"] is not None:
                fld = "ovflwstr" if s["ovflwstr"] is not None else "ovflwmax"
                raise Refuse("INVALID", fld, s[fld], "no overflow for resource structures")
    return s


def check_offld_values(s):
    for n in (1, 2, 3):
        th, sz = s["offld%dth" % n], s["offld%dsz" % n]
        hi = 101 if F("O_TH_RANGE_101") else 100
        if not 0 <= th <= hi:
            raise Refuse("OUT_OF_RANGE", "offld%dth" % n, th, "0..100")
        if not 0 <= sz <= RULE_OFF or (sz % 1024 != 0 and not F("O_SZ_NONK")):
            raise Refuse("OUT_OF_RANGE", "offld%dsz" % n, sz, "0K..64K in whole K")


def check_level_combination(s, where):
    lvl = s["cflevel"]
    if s["recover"] and lvl < 3:
        skip = {"RUN": "C_RECOVER_LOW_DEFINE_OK", "OPEN": "C_RECOVER_LOW_OPEN_OK",
                "ALTER": "C_ALTER_RECOVER_LOW"}[where]
        if not F(skip):
            raise Refuse("INVALID", "recover", True, "RECOVER(YES) needs CFLEVEL(3) or above")
    if s["offload"] is not None and lvl < 5 and not F("C_OFFLOAD_LOW_LEVEL"):
        raise Refuse("INVALID", "offload", s["offload"], "OFFLOAD is only valid from CFLEVEL(5)")
    if lvl < 5 and not F("O_LOW_LEVEL_RULES_ACCEPT"):
        for k in OFFLD_KEYS:
            if s[k] != STRUCT_DEFAULTS[k]:
                raise Refuse("INVALID", k, s[k], "offload rules are only valid from CFLEVEL(5)")


def check_queue(rec, profile, st):
    if not isinstance(rec, dict):
        raise Refuse("INVALID", "queue", None, "not an object")
    for k in rec:
        if k not in QUEUE_DEFAULTS:
            raise Refuse("INVALID", k, rec[k], "unknown keyword")
    q = dict(QUEUE_DEFAULTS)
    q.update(rec)
    name = q["name"]
    pat = MQ_QUEUE_NAME if profile == "mq" else CQS_QUEUE_NAME
    if not isinstance(name, str) or not pat.match(name):
        raise Refuse("INVALID", "name", name, "queue name rules")
    if name in st.queues and not F("T_DUP_QUEUE_DEFINE"):
        raise Refuse("INVALID", "name", name, "already defined")
    for k in ("maxdepth", "maxmsgl", "qdepthhi", "qdepthlo"):
        if not is_int(q[k]):
            raise Refuse("INVALID", k, q[k], "integer required")
    for k in ("qdphiev", "qdploev", "qdpmaxev"):
        if not isinstance(q[k], bool):
            raise Refuse("INVALID", k, q[k], "boolean required")
    for k in ("cfstruct", "qmgr"):
        if q[k] is not None and not isinstance(q[k], str):
            raise Refuse("INVALID", k, q[k], "string or null")
    lo = 0 if F("U_MAXDEPTH_ZERO_ACCEPT") else 1
    if not lo <= q["maxdepth"] <= 999999999:
        raise Refuse("OUT_OF_RANGE", "maxdepth", q["maxdepth"], "1..999999999")
    if not 0 <= q["maxmsgl"] <= MAX_MSG:
        raise Refuse("OUT_OF_RANGE", "maxmsgl", q["maxmsgl"], "0..104857600")
    for k in ("qdepthhi", "qdepthlo"):
        if not 0 <= q[k] <= 100:
            raise Refuse("OUT_OF_RANGE", k, q[k], "0..100")
    if q["cfstruct"] is None:
        if profile == "cqs":
            raise Refuse("INVALID", "cfstruct", None, "a CQS queue lives on a structure")
        if q["qmgr"] not in st.qmgr_order:
            raise Refuse("INVALID", "qmgr", q["qmgr"], "a nonshared queue needs its queue manager")
    else:
        if q["qmgr"] is not None:
            raise Refuse("INVALID", "qmgr", q["qmgr"], "a shared queue has no owning queue manager")
        s = st.structures.get(q["cfstruct"])
        if s is None:
            raise Refuse("INVALID", "cfstruct", q["cfstruct"], "a defined structure")
        if profile == "cqs" and s.resource:
            raise Refuse("INVALID", "cfstruct", q["cfstruct"], "not a resource structure")
        count = sum(1 for x in st.queues.values() if x.cfstruct == s.name and x.name != name)
        limit = 511 if F("T_QUEUE_511") else 512
        skip = F("T_QUEUE_512_RUN") if st.phase == "RUN" else F("T_QUEUE_512_OPEN")
        if count >= limit and not skip:
            raise Refuse("INVALID", "cfstruct", q["cfstruct"], "at most 512 queues per structure")
    return q


# ---------------------------------------------------------------------------------------------
class Msg(object):
    __slots__ = ("tag", "length", "persistent", "seq", "state", "owner", "location", "entries",
                 "elements", "in_ovf", "stage_entries", "stage_elements")

    def __init__(self, tag, length, persistent, seq):
        self.tag = tag
        self.length = length
        self.persistent = persistent
        self.seq = seq
        self.state = "avail"        # avail | put (uncommitted put) | got (uncommitted get)
        self.owner = None
        self.location = "CF"
        self.entries = 1
        self.elements = 1
        self.in_ovf = False
        self.stage_entries = 0
        self.stage_elements = 0


class Structure(object):
    def __init__(self, rec, profile):
        self.rec = rec
        self.name = rec["name"]
        self.profile = profile
        self.size_max = rec["size_kb"]
        self.size_kb = rec["initsize_kb"] if rec["initsize_kb"] is not None else rec["size_kb"]
        self.initsize = self.size_kb
        if F("S_USAGE_INITSIZE"):
            self.size_kb = rec["size_kb"]
        self.ratio = rec["ratio"]
        self.fullthreshold = rec["fullthreshold"]
        self.cflevel = rec["cflevel"]
        self.recover = rec["recover"]
        self.offload = rec["offload"]
        self.offld = dict((k, rec[k]) for k in OFFLD_KEYS)
        self.status = "ACTIVE"
        self.entries_used = 0
        self.elements_used = 0
        self.entries_total, self.elements_total = totals_for(self.size_kb, self.ratio)
        self.full_warning = False
        self.has_backup = False
        self.recoverable = None
        # CQS
        self.resource = rec["resource"]
        self.ovflwmax = rec["ovflwmax"] if rec["ovflwmax"] is not None else (
            80 if F("CQS_OVFLWMAX_DEFAULT") else 70)
        self.ovflwstr = rec["ovflwstr"]
        self.ovf_size_kb = rec["ovflw_size_kb"]
        self.alter_pending = False
        self.overflow_mode = False
        self.overflow_start = None
        self.ovf_entries_used = 0
        self.ovf_elements_used = 0
        self.ovf_entries_total, self.ovf_elements_total = totals_for(self.ovf_size_kb, self.ratio)
        self.staging = 0

    def recompute_totals(self):
        self.entries_total, self.elements_total = totals_for(self.size_kb, self.ratio)

    def usage(self):
        return [self.entries_used, self.entries_total, self.elements_used, self.elements_total]

    def fits(self, entries, elements):
        if F("S_FULL_OFF_BY_ONE"):
            return (self.entries_used + entries < self.entries_total and
                    self.elements_used + elements < self.elements_total)
        if F("S_FULL_ELEMENTS_ONLY"):
            return self.elements_used + elements <= self.elements_total
        return (self.entries_used + entries <= self.entries_total and
                self.elements_used + elements <= self.elements_total)

    def charge(self, entries, elements, sign=1):
        self.entries_used += sign * entries
        self.elements_used += sign * elements

    def over_full_threshold(self):
        ft = self.fullthreshold
        if ft == 0 and not F("S_FULLTHRESHOLD_ZERO"):
            return False
        if F("S_IXC_STRICT"):
            return (self.entries_used * 100 > ft * self.entries_total or
                    self.elements_used * 100 > ft * self.elements_total)
        return (self.entries_used * 100 >= ft * self.entries_total or
                self.elements_used * 100 >= ft * self.elements_total)

    def combined_pct_over(self, th, strict):
        used = self.entries_used * ENTRY_BYTES + self.elements_used * ELEMENT_BYTES
        total = self.entries_total * ENTRY_BYTES + self.elements_total * ELEMENT_BYTES
        if F("O_USAGE_MAX"):
            a = self.entries_used * 100 - th * self.entries_total
            b = self.elements_used * 100 - th * self.elements_total
            m = max(a * max(self.elements_total, 1), b * max(self.entries_total, 1))
            return m > 0 if strict else m >= 0
        if strict:
            return used * 100 > th * total
        return used * 100 >= th * total


class Queue(object):
    def __init__(self, rec):
        self.name = rec["name"]
        self.cfstruct = rec["cfstruct"]
        self.owner = rec["qmgr"]
        self.maxdepth = rec["maxdepth"]
        self.maxmsgl = rec["maxmsgl"]
        self.qdepthhi = rec["qdepthhi"]
        self.qdepthlo = rec["qdepthlo"]
        self.qdphiev = rec["qdphiev"]
        self.qdploev = rec["qdploev"]
        self.qdpmaxev = rec["qdpmaxev"]
        self.msgs = []
        self.ngot = 0          # messages removed by an uncommitted get (still in the structure)
        self.stats = {}
        self.overflow = False

    def depth(self):
        if F("Q_DEPTH_EXCLUDES_UNCOMMITTED"):
            return sum(1 for m in self.msgs if m.state == "avail")
        return len(self.msgs) - self.ngot

    def reset_got(self):
        self.ngot = sum(1 for m in self.msgs if m.state == "got")


class QMgr(object):
    def __init__(self, name, perfmev):
        self.name = name
        self.active = True
        self.perfmev = perfmev
        self.uow = []


# ---------------------------------------------------------------------------------------------
CONFIG_KEYS = {"profile", "qsg", "qmgrs", "structures", "queues", "readings", "accounting",
               "lgmsgsz", "overflow_exit", "perfmev_disabled", "admin_size_kb", "admin_table"}
READING_VALUES = {
    "cqs_target": ["points", "relative", "drop-points", "drop-relative", "points-floor"],
    "cqs_usage_metric": ["elements", "max"], "cqs_reselect": ["none", "select"],
    "cqs_scan_anchor": ["clock", "overflow-start"], "offload_compare": ["strict", "inclusive"],
    "offload_usage_metric": ["max", "elements", "combined"],
    "forced_offload_boundary": ["63.75K", "63K"], "persistent_low_cflevel_rc": ["2048", "2366"],
    "large_low_cflevel_rc": ["2366", "2030"], "qdepth_percent": ["real", "floor", "ceil"],
    "qfull_hi_flag": ["unchanged", "disabled"], "event_broadcast": ["always", "if-coordinator-enabled"],
    "recover_purge_nonfailed": ["rejected", "accepted"], "alter_below_initsize": ["rejected", "accepted"],
    "cflevel5_decrease": ["guarded", "unguarded"], "alter_at_size": ["accepted", "rejected"],
    "alter_not_larger": ["accepted", "rejected"], "full_signal_timing": ["at-crossing", "deferred"],
    "cqs_alter": ["async", "sync"], "cqs_empty_overflow": ["ends", "stays", "next-scan"],
    "qstats_at_stop": ["kept", "reset"], "nonshared_at_stop": ["kept", "lost"],
}
ACCOUNTING_KEYS = {"element_bytes": int, "entry_bytes": int, "header_bytes": int,
                   "overhead": (int, float), "fixed_kb": int, "offloaded_elements": int}


def cfg_err(field, value, allowed, rule):
    return bad(13, field, value, allowed, rule)


class State(object):
    def __init__(self, cfg, suite_version):
        self.suite_minor = suite_version
        self.phase = "OPEN"
        if not isinstance(cfg, dict):
            raise cfg_err("config", None, "an object", "CONFIG-000")
        for k in cfg:
            if k not in CONFIG_KEYS:
                raise cfg_err(k, cfg[k], "a known config field", "CONFIG-001")
        profile = cfg.get("profile", "mq")
        if profile not in ("mq", "cqs"):
            raise OpError(10, "profile %r is not implemented" % (profile,),
                          {"field": "profile", "value": profile, "allowed": "mq or cqs"})
        self.profile = profile
        self.clock = 0
        # readings / accounting: validated, then our own are followed
        rd = cfg.get("readings")
        if rd is not None:
            if not isinstance(rd, dict):
                raise cfg_err("readings", rd, "an object", "CONFIG-002")
            for k, v in rd.items():
                if k not in READING_VALUES or v not in READING_VALUES[k]:
                    raise cfg_err("readings." + str(k), v, "a known reading", "CONFIG-002")
        ac = cfg.get("accounting")
        if ac is not None:
            if not isinstance(ac, dict):
                raise cfg_err("accounting", ac, "an object", "CONFIG-003")
            for k, v in ac.items():
                if k not in ACCOUNTING_KEYS or isinstance(v, bool) or not isinstance(v, ACCOUNTING_KEYS[k]):
                    raise cfg_err("accounting." + str(k), v, "a known accounting field", "CONFIG-003")
        # QSG
        qsg = cfg.get("qsg", "QSG1")
        qsg_pat = QSG_NAME
        if F("T_QSG_LEN5"):
            qsg_pat = re.compile(r"^[A-Z][A-Z0-9]{0,4}$")
        if not isinstance(qsg, str) or not qsg_pat.match(qsg):
            raise cfg_err("qsg", qsg, "1 to 4 characters A-Z 0-9, starting with a letter", "TOPOLOGY-001")
        self.qsg = qsg
        # queue managers
        qmgrs = cfg.get("qmgrs", ["QM01", "QM02", "QM03"])
        if not isinstance(qmgrs, list) or not qmgrs:
            raise cfg_err("qmgrs", qmgrs, "a non-empty list", "TOPOLOGY-002")
        top = 33 if F("T_QMGR_33") else (31 if F("T_QMGR_32_REFUSED") else 32)
        if len(qmgrs) > top:
            raise cfg_err("qmgrs", len(qmgrs), "at most 32 queue managers", "TOPOLOGY-003")
        seen = set()
        for n in qmgrs:
            if not isinstance(n, str) or not QMGR_NAME.match(n) or n in seen:
                raise cfg_err("qmgrs", n, "unique names of 1 to 4 characters", "TOPOLOGY-004")
            seen.add(n)
        if qsg in seen and not F("T_QSG_EQ_QMGR"):
            raise cfg_err("qsg", qsg, "a name different from every queue manager", "TOPOLOGY-005")
        pd = cfg.get("perfmev_disabled", [])
        if not isinstance(pd, list) or any(x not in seen for x in pd):
            raise cfg_err("perfmev_disabled", pd, "names from qmgrs", "QDEPTH-CFG")
        self.qmgr_order = list(qmgrs)
        self.qmgrs = dict((n, QMgr(n, n not in pd)) for n in qmgrs)
        # admin structure (mq)
        asz = None
        if profile == "mq":
            table = cfg.get("admin_table", "cfcc14")
            if table not in ("cfcc14", "cfcc9"):
                raise cfg_err("admin_table", table, "cfcc14 or cfcc9", "TOPOLOGY-008")
            asz = cfg.get("admin_size_kb")
            need = admin_minimum(table, len(qmgrs))
            if asz is None:
                if need is None:
                    raise cfg_err("admin_size_kb", None, "a size: Table 1 has no row for %d queue managers"
                                  % len(qmgrs), "TOPOLOGY-008")
                asz = need
            elif not is_int(asz) or asz < 1:
                raise cfg_err("admin_size_kb", asz, "a positive integer", "TOPOLOGY-008")
            elif need is not None and asz < need and not F("T_ADMIN_SIZE_UNCHECKED"):
                raise cfg_err("admin_size_kb", asz, ">= %d KB (Table 1)" % need, "TOPOLOGY-008")
            per = 100 if F("T_ADMIN_ENTRIES") else 1000
            if admin_entries(asz) < per * len(qmgrs):
                raise cfg_err("admin_size_kb", asz, "room for 1000 list entries per queue manager",
                              "TOPOLOGY-007")
        self.admin_size_kb = asz
        # CQS parameters
        lg = cfg.get("lgmsgsz", 4096)
        if not is_int(lg) or not 1 <= lg <= 99999:
            raise cfg_err("lgmsgsz", lg, "1 to 5 digits", "CQS-LGMSGSZ")
        if profile == "cqs":
            if not F("CQS_LGMSGSZ_NO_ROUND"):
                lg = -(-lg // 4) * 4
            if lg > 30632:
                if F("CQS_LGMSGSZ_NO_CLAMP"):
                    raise cfg_err("lgmsgsz", lg, "<= 30632", "CQS-LGMSGSZ")
                lg = 30632
        self.lgmsgsz = lg
        ox = cfg.get("overflow_exit")
        if ox is not None:
            if profile != "cqs":
                raise cfg_err("overflow_exit", ox, "null in the mq profile", "CQS-EXIT")
            if not isinstance(ox, list) or any(not isinstance(x, str) for x in ox):
                raise cfg_err("overflow_exit", ox, "a list of queue names", "CQS-EXIT")
        self.exit_vetoes = None if ox is None else list(ox)
        # structures
        self.structures = {}
        self.struct_order = []
        structs = cfg.get("structures", [dict(STRUCT_DEFAULTS, name="APP1")])
        if not isinstance(structs, list):
            raise cfg_err("structures", structs, "a list", "TOPOLOGY-009")
        for i, rec in enumerate(structs):
            try:
                s = check_structure(rec, profile, self.structures, self.ovflw_names(), "OPEN")
            except Refuse as r:
                raise cfg_err("structures[%d].%s" % (i, r.field), r.value, str(r), "CONFIG-STRUCT")
            self.structures[s["name"]] = Structure(s, profile)
            self.struct_order.append(s["name"])
        if profile == "mq":
            lim = self.struct_limit()
            if len(self.structures) > lim:
                raise cfg_err("structures", len(self.structures), "at most %d application structures"
                              % lim, "TOPOLOGY-011")
        # queues
        self.queues = {}
        self.queue_order = []
        qs = cfg.get("queues", [])
        if not isinstance(qs, list):
            raise cfg_err("queues", qs, "a list", "QUEUE-CFG")
        for i, rec in enumerate(qs):
            try:
                q = check_queue(rec, profile, self)
            except Refuse as r:
                raise cfg_err("queues[%d].%s" % (i, r.field), r.value, str(r), "CONFIG-QUEUE")
            self.add_queue(q)
        self.seq = 0
        self.correl = 0
        self.phase = "RUN"

    def ovflw_names(self):
        return set(s.ovflwstr for s in self.structures.values() if s.ovflwstr)

    def struct_limit(self):
        if F("T_STRUCT_64"):
            return 64
        if "CSQSYSAPPL" in self.structures and F("T_STRUCT_63_SYSAPPL"):
            return 62
        return 63

    def add_queue(self, q):
        if q["name"] not in self.queues:
            self.queue_order.append(q["name"])
        self.queues[q["name"]] = Queue(q)

    # -- helpers ---------------------------------------------------------------------------------
    def need_profile(self, op, profile):
        if self.profile != profile:
            raise bad(14, "op", op, "an operation of the %s profile" % self.profile, "PROFILE-001")

    def get_qmgr(self, op, field="qmgr"):
        n = op.get(field)
        if n not in self.qmgrs:
            raise bad(14, field, n, "one of %r" % self.qmgr_order, "TOPOLOGY-006")
        return self.qmgrs[n]

    def get_queue(self, op, field="queue"):
        n = op.get(field)
        if n not in self.queues:
            raise bad(14, field, n, "one of %r" % self.queue_order, "TOPOLOGY-013")
        return self.queues[n]

    def get_struct(self, op, field="cfstruct"):
        n = op.get(field)
        if n not in self.structures:
            raise bad(14, field, n, "one of %r" % self.struct_order, "TOPOLOGY-012")
        return self.structures[n]

    def next_seq(self):
        self.seq += 1
        return self.seq


def need_int(op, field, lo=None, hi=None):
    v = op.get(field)
    if not is_int(v):
        raise bad(11, field, v, "an integer", "WIRE-INT")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise bad(14, field, v, "%s..%s" % (lo, hi), "RANGE")
    return v


def need_bool(op, field, default=None):
    v = op.get(field, default)
    if not isinstance(v, bool):
        raise bad(11, field, v, "a boolean", "WIRE-BOOL")
    return v


def need_str(op, field):
    v = op.get(field)
    if not isinstance(v, str):
        raise bad(11, field, v, "a string", "WIRE-STR")
    return v


OP_FIELDS = {
    "define_structure": ({"structure"}, set()),
    "alter_structure": ({"name", "changes"}, set()),
    "define_queue": ({"queue"}, set()),
    "alter_queue": ({"name", "changes"}, set()),
    "put": ({"qmgr", "queue", "length"}, {"persistent", "syncpoint", "tag"}),
    "get": ({"qmgr", "queue"}, {"syncpoint"}),
    "commit": ({"qmgr"}, set()),
    "backout": ({"qmgr"}, set()),
    "set_perfmev": ({"qmgr", "enabled"}, set()),
    "reset_qstats": ({"qmgr", "queue"}, set()),
    "start_qmgr": ({"qmgr"}, set()),
    "stop_qmgr": ({"qmgr"}, set()),
    "backup": ({"qmgr", "cfstruct"}, set()),
    "fail_structure": ({"cfstruct"}, set()),
    "recover": ({"cfstruct"}, {"purge"}),
    "setxcf_alter": ({"cfstruct", "size_kb"}, set()),
    "alter_outcome": ({"cfstruct", "success"}, {"size_kb"}),
    "set_overflow_exit": (set(), {"vetoes"}),
    "advance_clock": ({"seconds"}, set()),
    "inspect": (set(), set()),
}
MQ_OPS = set(OP_FIELDS) - {"alter_outcome", "set_overflow_exit"}
CQS_OPS = {"define_structure", "define_queue", "put", "get", "setxcf_alter", "alter_outcome",
           "set_overflow_exit", "advance_clock", "inspect"}


def outcome(kind, ok, **kw):
    o = {"kind": kind, "ok": ok}
    for k, v in kw.items():
        if v is None or v == []:
            continue
        o[k] = v
    return o


def refused(kind, r):
    o = outcome(kind, False, reason=r.reason)
    return o


# ---------------------------------------------------------------------------------------------
class Engine(object):
    def __init__(self, st):
        self.st = st

    def apply(self, op):
        if not isinstance(op, dict):
            raise OpError(11, "an operation must be an object")
        kind = op.get("op")
        if not isinstance(kind, str):
            raise OpError(11, "operation without a string 'op'")
        if kind not in OP_FIELDS:
            raise OpError(11, "unknown operation kind %r" % kind)
        req, opt = OP_FIELDS[kind]
        for k in op:
            if k != "op" and k not in req and k not in opt:
                raise bad(11, k, op[k], "fields %r" % sorted(req | opt), "WIRE-FIELDS")
        for k in req:
            if k not in op:
                raise bad(11, k, None, "required", "WIRE-FIELDS")
        allowed = MQ_OPS if self.st.profile == "mq" else CQS_OPS
        if kind not in allowed:
            raise bad(14, "op", kind, "an operation of the %s profile" % self.st.profile, "PROFILE-001")
        oc = getattr(self, "op_" + kind)(op)
        if F("S_IXC_AT_CROSSING") and kind != "inspect":
            sig = self.monitor()
            if sig:
                oc["signals"] = oc.get("signals", []) + sig
        return oc

    # -- definitions -----------------------------------------------------------------------------
    def op_define_structure(self, op):
        st = self.st
        rec = op["structure"]
        if not isinstance(rec, dict):
            return outcome("define_structure", False, reason="INVALID")
        try:
            s = check_structure(rec, st.profile, st.structures, st.ovflw_names(), "RUN")
            if st.profile == "mq" and len(st.structures) + 1 > st.struct_limit() and \
                    not F("T_STRUCT_LIMIT_DEFINE"):
                raise Refuse("INVALID", "name", s["name"], "structure limit")
        except Refuse as r:
            return refused("define_structure", r)
        st.structures[s["name"]] = Structure(s, st.profile)
        st.struct_order.append(s["name"])
        return outcome("define_structure", True)

    def op_define_queue(self, op):
        st = self.st
        rec = op["queue"]
        if not isinstance(rec, dict):
            return outcome("define_queue", False, reason="INVALID")
        try:
            q = check_queue(rec, st.profile, st)
        except Refuse as r:
            return refused("define_queue", r)
        if q["name"] in st.queues:   # fault T_DUP_QUEUE_DEFINE only
            old = st.queues[q["name"]]
            for m in old.msgs:
                self.uncharge(old, m)
        st.add_queue(q)
        return outcome("define_queue", True)

    def op_alter_structure(self, op):
        st = self.st
        s = st.structures.get(op["name"])
        if s is None:
            raise bad(14, "name", op["name"], "one of %r" % st.struct_order, "TOPOLOGY-012")
        ch = op["changes"]
        if not isinstance(ch, dict):
            raise bad(11, "changes", ch, "an object", "WIRE-FIELDS")
        if s.status == "FAILED" and not F("R_ALTER_FAILED_OK"):
            return outcome("alter_structure", False, reason="NOT_ALLOWED")
        keys = {"cflevel", "recover", "offload"} | set(OFFLD_KEYS)
        norm = {}
        for k, v in ch.items():
            lk = k.lower() if isinstance(k, str) else k
            if lk not in keys:
                return outcome("alter_structure", False, reason="INVALID")
            norm[lk] = v
        cur = {"cflevel": s.cflevel, "recover": s.recover, "offload": s.offload}
        cur.update(s.offld)
        if F("C_ALTER_CLEARS_UNSPECIFIED"):
            for k in OFFLD_KEYS:
                cur[k] = STRUCT_DEFAULTS[k]
        new = dict(cur)
        new.update(norm)
        for k in ("cflevel",) + tuple(OFFLD_KEYS):
            if not is_int(new[k]):
                return outcome("alter_structure", False, reason="INVALID")
        if not isinstance(new["recover"], bool):
            return outcome("alter_structure", False, reason="INVALID")
        if new["offload"] is not None and new["offload"] not in ("SMDS", "DB2"):
            return outcome("alter_structure", False, reason="INVALID")
        if not 1 <= new["cflevel"] <= 5:
            return outcome("alter_structure", False, reason="OUT_OF_RANGE")
        try:
            if not F("O_ALTER_TH_RANGE"):
                check_offld_values(new)
        except Refuse as r:
            return refused("alter_structure", r)
        old_level = s.cflevel
        lvl = new["cflevel"]
        if lvl < 5:
            # below CFLEVEL(5) there is no OFFLOAD and no offload rules: what is not given lapses
            if "offload" not in norm:
                new["offload"] = None
            for k in OFFLD_KEYS:
                if k not in norm:
                    new[k] = STRUCT_DEFAULTS[k]
        elif old_level < 5:
            # Migration to CFLEVEL(5): OFFLOAD(DB2) and the rules off (64K) unless given (reading 2.1 (a))
            if "offload" not in norm:
                new["offload"] = "SMDS" if F("C_ALTER_OFFLOAD_DEFAULT") else "DB2"
            if not F("C_ALTER_64K_DEFAULT"):
                for n in (1, 2, 3):
                    if "offld%dsz" % n not in norm:
                        new["offld%dsz" % n] = RULE_OFF
        try:
            check_level_combination(new, "ALTER")
        except Refuse as r:
            return refused("alter_structure", r)
        if lvl < old_level:
            guarded = old_level in (3, 4) or (old_level == 5 and not F("C_DECREASE_UNGUARDED_5"))
            if F("C_DECREASE_UNGUARDED_3") and old_level == 3:
                guarded = False
            if guarded and not self.structure_empty(s):
                return outcome("alter_structure", False, reason="NOT_ALLOWED")
        s.cflevel = lvl
        s.recover = new["recover"]
        s.offload = new["offload"]
        for k in OFFLD_KEYS:
            s.offld[k] = new[k]
        return outcome("alter_structure", True)

    def structure_empty(self, s):
        for q in self.st.queues.values():
            if q.cfstruct != s.name:
                continue
            for m in q.msgs:
                if F("C_DECREASE_UNCOMMITTED") and m.state == "put":
                    continue
                if F("C_DECREASE_GOT_UNCOMMITTED") and m.state == "got":
                    continue
                return False
        return True

    def op_alter_queue(self, op):
        st = self.st
        q = st.queues.get(op["name"])
        if q is None:
            raise bad(14, "name", op["name"], "one of %r" % st.queue_order, "TOPOLOGY-013")
        ch = op["changes"]
        if not isinstance(ch, dict):
            raise bad(11, "changes", ch, "an object", "WIRE-FIELDS")
        ints = {"maxdepth": (1, 999999999), "maxmsgl": (0, MAX_MSG), "qdepthhi": (0, 100),
                "qdepthlo": (0, 100)}
        if F("U_ALTER_QUEUE_RANGE"):
            ints["qdepthhi"] = (0, 1000)
        bools = {"qdphiev", "qdploev", "qdpmaxev"}
        norm = {}
        for k, v in ch.items():
            lk = k.lower() if isinstance(k, str) else k
            if lk in ints:
                if not is_int(v):
                    return outcome("alter_queue", False, reason="INVALID")
                lo, hi = ints[lk]
                if not lo <= v <= hi:
                    return outcome("alter_queue", False, reason="OUT_OF_RANGE")
            elif lk in bools:
                if not isinstance(v, bool):
                    return outcome("alter_queue", False, reason="INVALID")
            else:
                return outcome("alter_queue", False, reason="INVALID")
            norm[lk] = v
        for k, v in norm.items():
            setattr(q, k, v)
        return outcome("alter_queue", True)

    # -- MQI -------------------------------------------------------------------------------------
    def active_qmgr(self, op):
        qm = self.st.get_qmgr(op)
        return qm

    def op_put(self, op):
        st = self.st
        qm = st.get_qmgr(op)
        q = st.get_queue(op)
        length = need_int(op, "length", 0, MAX_MSG)
        persistent = need_bool(op, "persistent", False)
        syncpoint = need_bool(op, "syncpoint", False)
        tag = op.get("tag", 0)
        if not is_int(tag):
            raise bad(11, "tag", tag, "an integer", "WIRE-INT")
        if st.profile == "cqs":
            return self.cqs_put(qm, q, length, tag)
        if q.cfstruct is None and q.owner != qm.name and not F("T_NONSHARED_OTHER_QMGR"):
            raise bad(14, "queue", q.name, "a queue known to %s" % qm.name, "TOPOLOGY-014")
        if not qm.active:
            return outcome("put", False, reason="NOT_ACTIVE")
        s = st.structures[q.cfstruct] if q.cfstruct else None
        if s is not None and s.status == "FAILED":
            return outcome("put", False, reason=2192 if F("R_FAILED_PUT_2192") else 2373)
        big = length > CF_ENTRY_LIMIT
        if F("C_LARGE_LEVEL3"):
            big = length > FORCED_BOUNDARY
        if F("C_LARGE_64512"):
            big = length >= CF_ENTRY_LIMIT
        if F("C_MAXMSGL_ORDER") and s is not None and big and s.cflevel < 4:
            return outcome("put", False, reason=2366)
        if length > q.maxmsgl:
            return outcome("put", False, reason=2030)
        if s is not None:
            if big and s.cflevel < 4:
                return outcome("put", False, reason=2366)
            if persistent and s.cflevel <= 2 and not F("C_PERSIST_LEVEL2_RC"):
                return outcome("put", False, reason=2366)
            if persistent and not s.recover and not F("C_PERSIST_RECOVER_NO"):
                return outcome("put", False, reason=2048)
        # placement
        loc, ents, elems = "CF", 0, 0
        if s is not None:
            loc = self.placement(s, length)
            ents = 1
            if loc == "CF":
                elems = elements_for(length)
            elif F("O_OFFLOADED_COST"):
                elems = elements_for(length)
            else:
                elems = 1
        if F("S_2192_ORDER") and s is not None and not s.fits(ents, elems):
            return outcome("put", False, reason=2192)
        if q.depth() >= q.maxdepth:
            events = []
            if q.qdpmaxev:
                events = self.fire(q, "QFULL", qm)
            if F("Q_ENQ_COUNTS_FAILED_PUT"):
                self.count(q, qm, 0)
            return outcome("put", False, reason=2053, events=events)
        if s is not None and not s.fits(ents, elems):
            return outcome("put", False, reason=2192)
        m = Msg(tag, length, persistent, st.next_seq())
        m.location = loc
        m.entries, m.elements = ents, elems
        if s is not None:
            s.charge(ents, elems)
        q.msgs.append(m)
        if syncpoint:
            m.state = "put"
            m.owner = qm.name
            qm.uow.append(("put", q.name, m))
        self.count(q, qm, 0)
        events = []
        d = q.depth()
        if q.qdphiev and self.hi_reached(q, d):
            events = self.fire(q, "QDPHI", qm)
        elif F("Q_QFULL_ON_SUCCESS") and d >= q.maxdepth and q.qdpmaxev:
            events = self.fire(q, "QFULL", qm)
        if s is None:
            return outcome("put", True, events=events)
        kw = {}
        if st.suite_minor >= 1:
            kw["location"] = loc
        return outcome("put", True, offloaded=(loc != "CF"), usage=s.usage(), events=events, **kw)

    def placement(self, s, length):
        boundary = CF_ENTRY_LIMIT if F("O_FORCED_63K") else FORCED_BOUNDARY
        forced = length > boundary
        if F("O_FORCED_OFF_BY_ONE"):
            forced = length >= boundary
        if s.cflevel < 4:
            return "CF"
        if s.cflevel == 4:
            if forced:
                return "SMDS" if F("C_LEVEL4_LARGE_LOCATION") else "DB2"
            return "CF"
        target = s.offload or "SMDS"
        if F("O_LOCATION_DB2_SMDS"):
            target = "SMDS"
        if forced:
            return target
        if F("O_USAGE_AFTER"):
            s.charge(1, elements_for(length))
        try:
            for n in (1, 2, 3):
                th = s.offld["offld%dth" % n]
                sz = s.offld["offld%dsz" % n]
                if F("O_RULE_PAIR_MISMATCH"):
                    sz = s.offld["offld%dsz" % (n % 3 + 1)]
                if sz == RULE_OFF:
                    continue
                size_ok = length >= sz if F("O_SIZE_INCLUSIVE") else length > sz
                usage_ok = s.combined_pct_over(th, strict=not F("O_COMPARE_INCLUSIVE"))
                if F("O_PI21909"):
                    usage_ok = True
                if size_ok and usage_ok:
                    return target
        finally:
            if F("O_USAGE_AFTER"):
                s.charge(1, elements_for(length), -1)
        return "CF"

    def op_get(self, op):
        st = self.st
        qm = st.get_qmgr(op)
        q = st.get_queue(op)
        syncpoint = need_bool(op, "syncpoint", False)
        if st.profile == "cqs":
            return self.cqs_get(qm, q)
        if q.cfstruct is None and q.owner != qm.name and not F("T_NONSHARED_OTHER_QMGR"):
            raise bad(14, "queue", q.name, "a queue known to %s" % qm.name, "TOPOLOGY-014")
        if not qm.active:
            return outcome("get", False, reason="NOT_ACTIVE")
        s = st.structures[q.cfstruct] if q.cfstruct else None
        if s is not None and s.status == "FAILED":
            return outcome("get", False, reason=2373)
        m = None
        for x in q.msgs:
            if x.state == "avail" or (F("U_UNCOMMITTED_VISIBLE") and x.state == "put"):
                m = x
                break
        if m is None:
            return outcome("get", False, reason=2033, usage=s.usage() if s else None)
        if syncpoint:
            m.state = "got"
            q.ngot += 1
            m.owner = qm.name
            qm.uow.append(("get", q.name, m))
            if F("S_GET_SYNC_FREES") and s is not None:
                s.charge(m.entries, m.elements, -1)
        else:
            q.msgs.remove(m)
            if m.state == "put":   # fault U_UNCOMMITTED_VISIBLE only
                self.st.qmgrs[m.owner].uow = [u for u in self.st.qmgrs[m.owner].uow if u[2] is not m]
            if s is not None:
                s.charge(m.entries, m.elements, -1)
        self.count(q, qm, 1)
        events = []
        d = q.depth()
        if q.qdploev and self.lo_reached(q, d):
            events = self.fire(q, "QDPLO", qm)
        return outcome("get", True, tag=m.tag, usage=s.usage() if s else None, events=events)

    def uncharge(self, q, m):
        if q.cfstruct is None:
            return
        s = self.st.structures[q.cfstruct]
        if self.st.profile == "cqs":
            if m.in_ovf:
                s.ovf_entries_used -= m.entries
                s.ovf_elements_used -= m.elements
            else:
                s.charge(m.entries, m.elements, -1)
            s.charge(m.stage_entries, m.stage_elements, -1)
            s.staging -= m.stage_entries
        else:
            s.charge(m.entries, m.elements, -1)

    def op_commit(self, op):
        qm = self.st.get_qmgr(op)
        if not qm.active:
            return outcome("commit", False, reason="NOT_ACTIVE")
        self.end_uow(qm, commit=True)
        return outcome("commit", True)

    def op_backout(self, op):
        qm = self.st.get_qmgr(op)
        if not qm.active:
            return outcome("backout", False, reason="NOT_ACTIVE")
        self.end_uow(qm, commit=False)
        return outcome("backout", True)

    def end_uow(self, qm, commit):
        for action, qname, m in qm.uow:
            q = self.st.queues.get(qname)
            if q is None or m not in q.msgs:
                continue
            s = self.st.structures[q.cfstruct] if q.cfstruct else None
            if action == "put":
                if commit:
                    m.state = "avail"
                    m.owner = None
                else:
                    q.msgs.remove(m)
                    if s is not None and not F("S_BACKOUT_LEAK"):
                        s.charge(m.entries, m.elements, -1)
            else:
                q.ngot -= 1
                if commit:
                    q.msgs.remove(m)
                    if s is not None and not F("S_GET_SYNC_FREES"):
                        s.charge(m.entries, m.elements, -1)
                else:
                    m.state = "avail"
                    m.owner = None
                    if F("U_FIFO_BACKOUT"):
                        q.msgs.remove(m)
                        q.msgs.append(m)
        qm.uow = []

    # -- queue depth events ----------------------------------------------------------------------
    def hi_reached(self, q, d):
        if F("Q_PERCENT_REAL"):
            return 100 * d >= q.qdepthhi * q.maxdepth
        lim = q.qdepthhi * q.maxdepth // 100
        if F("Q_HI_STRICT"):
            return d > lim
        return d >= lim

    def lo_reached(self, q, d):
        lim = q.qdepthlo * q.maxdepth // 100
        if F("Q_LO_STRICT"):
            return d < lim
        return d <= lim

    def count(self, q, qm, idx):
        c = q.stats.setdefault(qm.name, [0, 0])
        c[idx] += 1

    def event_msg(self, q, qm, kind, correl):
        c = q.stats.get(qm.name, [0, 0])
        ev = {"qmgr": qm.name, "kind": kind, "queue": q.name, "correl": correl,
              "enq": c[0], "deq": c[1]}
        if not F("Q_STATS_NOT_RESET_AFTER_EVENT"):
            q.stats[qm.name] = [0, 0]
        return ev

    def toggle(self, q, kind):
        if kind == "QDPHI":
            q.qdphiev = False
            if not F("Q_TOGGLE_LO_NOT_ENABLED"):
                q.qdploev = True
            q.qdpmaxev = True
        elif kind == "QDPLO":
            q.qdphiev = True
            q.qdploev = False
            q.qdpmaxev = True
        else:
            q.qdploev = True
            q.qdpmaxev = False
            if not F("Q_QFULL_HI_UNCHANGED"):
                q.qdphiev = False

    def fire(self, q, kind, det):
        st = self.st
        if q.cfstruct is None:
            # nonshared: only with PERFMEV(ENABLED) on the owning queue manager
            if not det.perfmev and not F("Q_NONSHARED_TOGGLE_DISABLED"):
                return []
            self.toggle(q, kind)
            if not det.perfmev:
                return []
            st.correl += 1
            return [self.event_msg(q, det, kind, st.correl)]
        if det.perfmev or not F("Q_SHARED_PERFMEV_NO_TOGGLE"):
            self.toggle(q, kind)
        st.correl += 1
        correl = st.correl
        evs = []
        order = [det.name] + [n for n in st.qmgr_order if n != det.name]
        if F("Q_EVENT_ORDER"):
            order = list(st.qmgr_order)
        broadcast = det.perfmev or not F("Q_BROADCAST_IF_COORD")
        for n in order:
            qm = st.qmgrs[n]
            if n == det.name:
                if det.perfmev:
                    evs.append(self.event_msg(q, qm, kind, correl))
                continue
            if not broadcast:
                continue
            if (qm.active or F("Q_INACTIVE_ISSUES")) and qm.perfmev:
                if F("Q_CORREL_PER_MSG"):
                    st.correl += 1
                    evs.append(self.event_msg(q, qm, kind, st.correl))
                else:
                    evs.append(self.event_msg(q, qm, kind, correl))
        return evs

    def op_set_perfmev(self, op):
        qm = self.st.get_qmgr(op)
        en = need_bool(op, "enabled")
        if not qm.active:
            return outcome("set_perfmev", False, reason="NOT_ACTIVE")
        qm.perfmev = en
        return outcome("set_perfmev", True)

    def op_reset_qstats(self, op):
        st = self.st
        qm = st.get_qmgr(op)
        q = st.get_queue(op)
        if q.cfstruct is None and q.owner != qm.name:
            raise bad(14, "queue", q.name, "a queue known to %s" % qm.name, "TOPOLOGY-014")
        if not qm.active:
            return outcome("reset_qstats", False, reason="NOT_ACTIVE")
        if F("Q_RESET_QSTATS_ALL"):
            q.stats = {}
        else:
            q.stats[qm.name] = [0, 0]
        return outcome("reset_qstats", True)

    # -- queue managers --------------------------------------------------------------------------
    def op_start_qmgr(self, op):
        qm = self.st.get_qmgr(op)
        if qm.active:
            return outcome("start_qmgr", False, reason="NOT_ALLOWED")
        qm.active = True
        return outcome("start_qmgr", True)

    def op_stop_qmgr(self, op):
        st = self.st
        qm = st.get_qmgr(op)
        if not qm.active:
            return outcome("stop_qmgr", False, reason="NOT_ACTIVE")
        self.end_uow(qm, commit=F("U_STOP_COMMITS"))
        qm.active = False
        if not F("Q_STATS_STOP_KEPT"):
            for q in st.queues.values():
                if qm.name in q.stats:
                    q.stats[qm.name] = [0, 0]
        for q in st.queues.values():
            if q.cfstruct is None and q.owner == qm.name:
                if F("U_NONSHARED_PERSISTENT_LOST"):
                    q.msgs = []
                elif not F("U_NONSHARED_KEPT_AT_STOP"):
                    q.msgs = [m for m in q.msgs if m.persistent]
                q.reset_got()
        return outcome("stop_qmgr", True)

    # -- recovery --------------------------------------------------------------------------------
    def op_backup(self, op):
        st = self.st
        qm = st.get_qmgr(op)
        s = st.get_struct(op)
        if not qm.active:
            return outcome("backup", False, reason="NOT_ACTIVE")
        if (s.cflevel < 3 or not s.recover) and not F("R_BACKUP_RECOVER_NO"):
            return outcome("backup", False, reason="NOT_ALLOWED")
        if s.status == "FAILED":
            return outcome("backup", False, reason="NOT_ALLOWED")
        s.has_backup = True
        return outcome("backup", True)

    def op_fail_structure(self, op):
        st = self.st
        s = st.get_struct(op)
        if s.status == "FAILED":
            return outcome("fail_structure", True)
        rec = {}
        for q in st.queues.values():
            if q.cfstruct != s.name:
                continue
            keep = []
            for m in q.msgs:
                if F("R_NONPERSISTENT_KEPT"):
                    ok = m.state in ("avail", "got")
                elif F("R_UNCOMMITTED_PUT_RESTORED"):
                    ok = m.persistent
                elif F("R_UNCOMMITTED_GET_LOST"):
                    ok = m.persistent and m.state == "avail"
                else:
                    ok = m.persistent and m.state in ("avail", "got")
                if ok:
                    keep.append(m)
            rec[q.name] = keep
            q.msgs = []
            q.ngot = 0
        if not F("R_UOW_SURVIVES_FAIL"):
            for qm in st.qmgrs.values():
                qm.uow = [u for u in qm.uow
                          if st.queues.get(u[1]) is None or st.queues[u[1]].cfstruct != s.name]
        s.recoverable = rec
        s.status = "FAILED"
        s.entries_used = 0
        s.elements_used = 0
        return outcome("fail_structure", True)

    def op_recover(self, op):
        st = self.st
        s = st.get_struct(op)
        purge = need_bool(op, "purge", False)
        if s.cflevel < 3 or not s.recover:
            return outcome("recover", False, reason="NOT_ALLOWED")
        if s.status != "FAILED":
            if not (purge and F("R_PURGE_NONFAILED_ACCEPTED")):
                return outcome("recover", False, reason="NOT_FAILED")
            for q in st.queues.values():
                if q.cfstruct == s.name:
                    for m in q.msgs:
                        self.uncharge(q, m)
                    q.msgs = []
                    q.ngot = 0
            return outcome("recover", True)
        if not purge and not s.has_backup and not F("R_NO_BACKUP_OK"):
            return outcome("recover", False, reason="NO_BACKUP")
        s.status = "ACTIVE"
        s.entries_used = 0
        s.elements_used = 0
        rec = s.recoverable or {}
        s.recoverable = None
        for qname in st.queue_order:
            q = st.queues[qname]
            if q.cfstruct != s.name:
                continue
            if purge:
                continue
            msgs = rec.get(qname, [])
            msgs = sorted(msgs, key=lambda m: m.seq, reverse=F("R_ORDER_LOST"))
            for m in msgs:
                m.state = "avail"
                m.owner = None
                s.charge(m.entries, m.elements)
            q.msgs = msgs
            q.ngot = 0
            if F("Q_RECOVER_FLAGS_RESET"):
                q.qdphiev, q.qdploev, q.qdpmaxev = False, False, False
        if F("R_BACKUP_CLEARED"):
            s.has_backup = False
        return outcome("recover", True)

    # -- z/OS ------------------------------------------------------------------------------------
    def op_setxcf_alter(self, op):
        st = self.st
        s = st.get_struct(op)
        size = need_int(op, "size_kb")
        if s.status == "FAILED":
            return outcome("setxcf_alter", False, reason="NOT_ALLOWED")
        if size > s.size_max or size < 1:
            return outcome("setxcf_alter", False, reason="OUT_OF_RANGE")
        if size == s.size_max and not F("S_SETXCF_AT_SIZE"):
            return outcome("setxcf_alter", False, reason="OUT_OF_RANGE")
        if size < s.initsize:
            return outcome("setxcf_alter", False, reason="OUT_OF_RANGE")
        if size <= s.size_kb and not (F("S_SETXCF_NOT_LARGER") and size == s.size_kb):
            return outcome("setxcf_alter", False, reason="OUT_OF_RANGE")
        s.size_kb = size
        if not F("S_SETXCF_NO_RECALC"):
            s.recompute_totals()
        return outcome("setxcf_alter", True, usage=s.usage())

    def op_advance_clock(self, op):
        st = self.st
        secs = need_int(op, "seconds", 0, None)
        old = st.clock
        new = old + secs
        signals = []
        if st.profile == "cqs":
            while True:
                nxt = None
                for name in st.struct_order:
                    s = st.structures[name]
                    if not s.overflow_mode:
                        continue
                    t = self.next_scan(s, old)
                    if t <= new and (nxt is None or t < nxt[0]):
                        nxt = (t, name)
                if nxt is None:
                    break
                t, name = nxt
                st.clock = t
                signals += self.cqs_scan(st.structures[name])
                old = t
        st.clock = new
        if secs > 0 and not F("S_IXC_AT_CROSSING"):
            signals += self.monitor()
        return outcome("advance_clock", True, signals=signals)

    def monitor(self):
        sig = []
        for name in self.st.struct_order:
            s = self.st.structures[name]
            over = s.status == "ACTIVE" and s.over_full_threshold()
            if over and not s.full_warning:
                s.full_warning = True
                sig.append("IXC585E " + s.name)
            elif not over and s.full_warning:
                s.full_warning = False
                if not F("S_IXC586_MISSING"):
                    sig.append("IXC586I " + s.name)
        return sig

    def op_inspect(self, op):
        st = self.st
        structs = {}
        for name in st.struct_order:
            s = st.structures[name]
            d = {"status": s.status, "size_kb": s.size_kb, "entries_used": s.entries_used,
                 "entries_total": s.entries_total, "elements_used": s.elements_used,
                 "elements_total": s.elements_total, "full_warning": s.full_warning}
            if st.profile == "mq":
                pad = st.qsg if F("T_CFNAME_PAD") else (st.qsg + "@@@@")[:4]
                d["cfname"] = pad + s.name
            else:
                d["alter_pending"] = s.alter_pending
                d["overflow_mode"] = s.overflow_mode
                d["overflow_queues"] = sorted(q.name for q in st.queues.values()
                                              if q.cfstruct == s.name and q.overflow)
                d["staging_depth"] = s.staging
            structs[name] = d
        queues = {}
        for name in st.queue_order:
            q = st.queues[name]
            if st.profile == "mq":
                queues[name] = {"depth": q.depth(), "qdphiev": q.qdphiev, "qdploev": q.qdploev,
                                "qdpmaxev": q.qdpmaxev}
            else:
                queues[name] = {"depth": len(q.msgs), "overflow": q.overflow}
        qmgrs = dict((n, {"active": st.qmgrs[n].active, "perfmev": st.qmgrs[n].perfmev})
                     for n in st.qmgr_order)
        value = {"clock": st.clock, "structures": structs, "queues": queues, "qmgrs": qmgrs}
        if st.profile == "mq":
            value["admin"] = {"size_kb": st.admin_size_kb,
                              "entries_total": admin_entries(st.admin_size_kb)}
        return outcome("inspect", True, value=value)

    # -- CQS -------------------------------------------------------------------------------------
    def cqs_pct(self, s):
        """elements in use as a fraction of the primary's elements (reading cqs_usage_metric=elements)"""
        if F("CQS_METRIC_MAX"):
            return max(s.elements_used / max(1, s.elements_total),
                       s.entries_used / max(1, s.entries_total)) * 100
        return s.elements_used * 100.0 / max(1, s.elements_total)

    def cqs_target(self, s):
        if F("CQS_TARGET_POINTS"):
            return s.ovflwmax - 20
        return s.ovflwmax * 0.8

    def threshold_reached(self, s):
        if F("CQS_THRESHOLD_STRICT"):
            return self.cqs_pct(s) > s.ovflwmax
        return self.cqs_pct(s) >= s.ovflwmax

    def cqs_put(self, qm, q, length, tag):
        st = self.st
        s = st.structures[q.cfstruct]
        if q.overflow and s.ovflwstr is None and not F("CQS_NO_OVFLWSTR_ACCEPT_PUT"):
            return outcome("put", False, reason="REJECTED_OVERFLOW")
        L = st.lgmsgsz
        nparts = max(1, -(-length // L))
        first = min(length, L)
        f_ents, f_elems = 1, elements_for(first)
        st_ents, st_elems = 0, 0
        rest = length - first
        while rest > 0:
            p = min(rest, L)
            st_ents += 1
            st_elems += elements_for(p)
            rest -= p
        to_ovf = q.overflow and s.ovflwstr is not None
        if F("CQS_STAGING_MOVED") and to_ovf:
            need_p = (0, 0)
            need_o = (f_ents + st_ents, f_elems + st_elems)
        elif to_ovf:
            need_p = (st_ents, st_elems)
            need_o = (f_ents, f_elems)
        else:
            need_p = (f_ents + st_ents, f_elems + st_elems)
            need_o = (0, 0)
        if not s.fits(*need_p):
            return outcome("put", False, reason="STRUCTURE_FULL", usage=s.usage())
        if need_o != (0, 0) and (s.ovf_entries_used + need_o[0] > s.ovf_entries_total or
                                 s.ovf_elements_used + need_o[1] > s.ovf_elements_total):
            return outcome("put", False, reason="STRUCTURE_FULL", usage=s.usage())
        m = Msg(tag, length, False, st.next_seq())
        m.entries, m.elements = f_ents, f_elems
        m.in_ovf = to_ovf
        m.stage_entries, m.stage_elements = st_ents, st_elems
        if to_ovf:
            s.ovf_entries_used += f_ents
            s.ovf_elements_used += f_elems
        else:
            s.charge(f_ents, f_elems)
        if F("CQS_STAGING_MOVED") and to_ovf:
            s.ovf_entries_used += st_ents
            s.ovf_elements_used += st_elems
            m.stage_entries, m.stage_elements = 0, 0
        else:
            s.charge(st_ents, st_elems)
            s.staging += st_ents
        q.msgs.append(m)
        del nparts
        signals = []
        if not s.resource and self.threshold_reached(s):
            if not s.overflow_mode and not s.alter_pending:
                signals.append("ALTER " + s.name)
                s.alter_pending = True
                if F("CQS_ALTER_SYNC"):
                    s.alter_pending = False
                    signals += self.enter_overflow(s)
            elif s.overflow_mode and not F("CQS_RESELECT_NONE"):
                signals += self.select_queues(s)
        return outcome("put", True, usage=s.usage(), signals=signals)

    def cqs_get(self, qm, q):
        st = self.st
        s = st.structures[q.cfstruct]
        if not q.msgs:
            return outcome("get", False, reason="NO_MSG", usage=s.usage())
        m = q.msgs.pop(0)
        self.uncharge(q, m)
        signals = []
        if F("CQS_SCAN_IMMEDIATE") and q.overflow and s.ovflwstr and not q.msgs:
            q.overflow = False
            signals.append("OVERFLOW_QUEUE_OFF %s %s" % (s.name, q.name))
            if not any(x.overflow for x in st.queues.values() if x.cfstruct == s.name):
                s.overflow_mode = False
                signals.append("OVERFLOW_OFF " + s.name)
        return outcome("get", True, tag=m.tag, usage=s.usage(), signals=signals)

    def op_alter_outcome(self, op):
        st = self.st
        s = st.get_struct(op)
        success = need_bool(op, "success")
        size = op.get("size_kb")
        if size is not None and not is_int(size):
            raise bad(11, "size_kb", size, "an integer or null", "WIRE-INT")
        if not s.alter_pending and not F("CQS_ALTER_OUTCOME_NOPENDING"):
            return outcome("alter_outcome", False, reason="NO_ALTER_PENDING")
        signals = []
        if success:
            new = s.size_max if size is None else size
            if not s.size_kb < new <= s.size_max:
                return outcome("alter_outcome", False, reason="OUT_OF_RANGE")
            s.alter_pending = False
            s.size_kb = new
            s.recompute_totals()
        else:
            s.alter_pending = False
            signals += self.enter_overflow(s)
        return outcome("alter_outcome", True, usage=s.usage(), signals=signals)

    def enter_overflow(self, s):
        s.overflow_mode = True
        s.overflow_start = self.st.clock
        sig = ["OVERFLOW_ON " + s.name]
        sig += self.select_queues(s)
        if F("CQS_EMPTY_ENDS") and s.ovflwstr is not None and \
                not any(q.overflow for q in self.st.queues.values() if q.cfstruct == s.name):
            s.overflow_mode = False
            sig.append("OVERFLOW_OFF " + s.name)
        return sig

    def select_queues(self, s):
        st = self.st
        sig = []
        target = self.cqs_target(s)
        cands = []
        for i, name in enumerate(st.queue_order):
            q = st.queues[name]
            if q.cfstruct != s.name or q.overflow:
                continue
            used = sum(m.elements for m in q.msgs if not m.in_ovf)
            if F("CQS_STAGING_MOVED"):
                used += sum(m.stage_elements for m in q.msgs)
            if used > 0:
                cands.append((used, i, q))
        if F("CQS_SELECT_ASC"):
            cands.sort(key=lambda c: (c[0], c[1]))
        else:
            cands.sort(key=lambda c: (-c[0], c[1]))
        projected = s.elements_used
        total = max(1, s.elements_total)
        for used, i, q in cands:
            if projected * 100.0 / total <= target:
                break
            vetoes = st.exit_vetoes
            if vetoes is not None and q.name in vetoes and not F("CQS_EXIT_IGNORED"):
                if F("CQS_VETO_STOPS"):
                    break
                continue
            q.overflow = True
            sig.append("OVERFLOW_QUEUE %s %s" % (s.name, q.name))
            projected -= used
            if s.ovflwstr is not None:
                for m in q.msgs:
                    if m.in_ovf:
                        continue
                    s.charge(m.entries, m.elements, -1)
                    s.ovf_entries_used += m.entries
                    s.ovf_elements_used += m.elements
                    m.in_ovf = True
                    if F("CQS_STAGING_MOVED"):
                        s.charge(m.stage_entries, m.stage_elements, -1)
                        s.staging -= m.stage_entries
                        s.ovf_entries_used += m.stage_entries
                        s.ovf_elements_used += m.stage_elements
                        m.stage_entries, m.stage_elements = 0, 0
        return sig

    def next_scan(self, s, after):
        period = 900
        if F("CQS_SCAN_CLOCK"):
            return (after // period + 1) * period
        base = s.overflow_start
        k = (after - base) // period + 1
        return base + k * period

    def cqs_scan(self, s):
        st = self.st
        sig = []
        mine = [st.queues[n] for n in st.queue_order if st.queues[n].cfstruct == s.name]
        if s.ovflwstr is not None:
            for q in mine:
                if q.overflow and not q.msgs:
                    q.overflow = False
                    sig.append("OVERFLOW_QUEUE_OFF %s %s" % (s.name, q.name))
            if not any(q.overflow for q in mine):
                s.overflow_mode = False
                sig.append("OVERFLOW_OFF " + s.name)
        else:
            pct = self.cqs_pct(s)
            limit = s.ovflwmax if F("CQS_EXIT_AT_THRESHOLD") else self.cqs_target(s)
            if pct <= limit:
                for q in mine:
                    q.overflow = False
                s.overflow_mode = False
                sig.append("OVERFLOW_OFF " + s.name)
        return sig

    def op_set_overflow_exit(self, op):
        v = op.get("vetoes")
        if v is not None and (not isinstance(v, list) or any(not isinstance(x, str) for x in v)):
            raise bad(11, "vetoes", v, "a list of strings or null", "WIRE-FIELDS")
        self.st.exit_vetoes = None if v is None else list(v)
        return outcome("set_overflow_exit", True)


# ---------------------------------------------------------------------------------------------
ERR_DEFINITE = {10: True, 11: True, 12: False, 13: True, 14: True, 15: True, 16: True, 17: True,
                18: False, 19: True, 20: False}


class Server(object):
    def __init__(self, out):
        self.out = out
        self.inited = False
        self.state = None
        self.engine = None
        self.suite_limit = MAX_LINE
        self.suite_minor = 3

    def send(self, obj):
        line = json.dumps(obj, separators=(",", ":"), sort_keys=True, allow_nan=False)
        self.out.write(line.encode("utf-8") + b"\n")
        self.out.flush()

    def error(self, rid, code, text, detail=None):
        e = {"type": "error", "in_reply_to": rid, "code": code, "text": text,
             "definite": ERR_DEFINITE.get(code, True)}
        if detail is not None:
            e["detail"] = detail
        self.send(e)

    def handle_line(self, raw):
        if len(raw) > MAX_LINE:
            self.error(None, 17, "request line of %d bytes exceeds %d" % (len(raw), MAX_LINE))
            return True
        try:
            msg = json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            self.error(None, 11, "request is not JSON")
            return True
        if not isinstance(msg, dict):
            self.error(None, 11, "request is not a JSON object")
            return True
        rid = msg.get("msg_id")
        if not is_int(rid) or rid < 0:
            self.error(None, 11, "request without a readable msg_id")
            return True
        t = msg.get("type")
        if t == "init":
            if self.inited:
                self.error(rid, 15, "init was already received")
                return True
            pv = msg.get("protocol_version")
            if not isinstance(pv, str) or not re.match(r"^\d+\.\d+$", pv):
                self.error(rid, 11, "init needs a protocol_version 'MAJOR.MINOR'")
                return True
            major, minor = pv.split(".")
            if major != "1":
                self.error(rid, 16, "this implementation speaks protocol 1.x, not %s" % pv)
                return True
            ml = msg.get("max_line_bytes", MAX_LINE)
            if is_int(ml) and ml >= 1024:
                self.suite_limit = ml
            self.suite_minor = int(minor)
            self.inited = True
            self.send({"type": "init_ok", "in_reply_to": rid, "protocol_version": PROTOCOL_VERSION,
                       "capabilities": capabilities(), "max_line_bytes": MAX_LINE})
            return True
        if not self.inited:
            self.error(rid, 15, "init must come first")
            return True
        if t == "close":
            self.send({"type": "close_ok", "in_reply_to": rid})
            return False
        if t == "open":
            self.state = None
            self.engine = None
            cfg = msg.get("config")
            try:
                st = State(cfg, self.suite_minor)
            except OpError as e:
                self.error(rid, e.code, e.text, e.detail)
                return True
            except Exception as e:  # pragma: no cover
                self.error(rid, 13, "configuration refused: %s" % e)
                return True
            self.state = st
            self.engine = Engine(st)
            self.send({"type": "open_ok", "in_reply_to": rid})
            return True
        if t == "apply":
            if self.engine is None:
                self.error(rid, 15, "apply before a successful open")
                return True
            op = msg.get("op")
            try:
                oc = self.engine.apply(op)
            except OpError as e:
                self.error(rid, e.code, e.text, e.detail)
                return True
            except Exception as e:
                self.error(rid, 12, "internal failure: %r" % (e,))
                return True
            reply = {"type": "apply_ok", "in_reply_to": rid, "outcome": oc}
            if len(json.dumps(reply, separators=(",", ":"))) + 1 > self.suite_limit:
                self.error(rid, 18, "the outcome does not fit the suite's line limit")
                return True
            self.send(reply)
            return True
        if t == "batch":
            if self.engine is None:
                self.error(rid, 15, "batch before a successful open")
                return True
            ops = msg.get("ops")
            if not isinstance(ops, list) or not ops:
                self.error(rid, 11, "batch needs a non-empty list 'ops'")
                return True
            self.run_batch(rid, ops)
            return True
        self.error(rid, 11, "unknown message type %r" % (t,))
        return True

    def run_batch(self, rid, ops):
        """Applies ops in order.  A reply that could outgrow the suite's line limit is cut to a
        prefix *before* the next operation is applied: an inspect (no side effects) is computed
        and kept only if it fits; any other operation is applied only while 32 KiB of room are
        left, which bounds the largest non-inspect outcome (events and signals lists)."""
        outs = []
        size = len('{"in_reply_to":%d,"outcomes":[],"type":"batch_ok"}' % rid) + 8
        for op in ops:
            if outs and not (isinstance(op, dict) and op.get("op") == "inspect") and \
                    size + 32768 > self.suite_limit:
                break
            try:
                oc = self.engine.apply(op)
            except OpError as e:
                err = {"code": e.code, "text": e.text, "definite": ERR_DEFINITE.get(e.code, True)}
                if e.detail is not None:
                    err["detail"] = e.detail
                self.send({"type": "batch_ok", "in_reply_to": rid, "outcomes": outs, "error": err})
                return
            except Exception as e:
                self.send({"type": "batch_ok", "in_reply_to": rid, "outcomes": outs,
                           "error": {"code": 12, "text": "internal failure: %r" % (e,),
                                     "definite": False}})
                return
            n = len(json.dumps(oc, separators=(",", ":"))) + 1
            if size + n > self.suite_limit:
                if outs and oc.get("kind") == "inspect":
                    break
                if not outs:
                    self.send({"type": "batch_ok", "in_reply_to": rid, "outcomes": [],
                               "error": {"code": 18, "text": "outcome too large for the line limit",
                                         "definite": False}})
                    return
            outs.append(oc)
            size += n
        self.send({"type": "batch_ok", "in_reply_to": rid, "outcomes": outs})


def main(argv):
    global FAULT
    if "--list-faults" in argv:
        for fid in _fault_ids():
            sys.stdout.write(fid + "\n")
        return 0
    if "--fault" in argv:
        i = argv.index("--fault")
        if i + 1 >= len(argv):
            sys.stderr.write("--fault needs an ID\n")
            return 2
        FAULT = argv[i + 1]
        if FAULT not in _fault_ids():
            sys.stderr.write("unknown fault %s\n" % FAULT)
            return 2
    out = sys.stdout.buffer
    srv = Server(out)
    inp = sys.stdin.buffer
    while True:
        raw = inp.readline(MAX_LINE + 2)
        if not raw:
            break
        if not raw.endswith(b"\n") and len(raw) > MAX_LINE:
            # discard the rest of an over-long line
            while True:
                more = inp.readline(65536)
                if not more or more.endswith(b"\n"):
                    break
            srv.error(None, 17, "request line exceeds %d bytes" % MAX_LINE)
            continue
        line = raw.rstrip(b"\n").rstrip(b"\r")
        if not line.strip():
            continue
        try:
            if not srv.handle_line(line):
                break
        except Exception as e:  # never die on a request
            try:
                srv.error(None, 12, "internal failure: %r" % (e,))
            except Exception:
                break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
