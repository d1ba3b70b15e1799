#!/usr/bin/env python3
"""second-reading: an independent implementation of CF shared-queue behaviour
(IBM MQ for z/OS shared queues, profile "mq"; IMS CQS structure overflow,
profile "cqs") speaking the cfconform newline-delimited JSON wire protocol.

Written from IBM's texts only (seeds 000-004 and ibm-facts.md). Standard
library only. Run:  python3 impl.py [--fault ID[,ID...]]
"""
from __future__ import annotations

import json
import re
import sys

PROTOCOL_VERSION = "1.1"
MAX_LINE = 1048576
NAME = "second-reading"

# ---------------------------------------------------------------- constants
KB = 1024
LIMIT_63K = 63 * KB            # 64 512 bytes: "larger than 63 KB must always be offloaded"
SZ_RULE_OFF = 64 * KB          # OFFLDnSZ(64K): "the rule is not in effect"
MAX_MSG = 100 * KB * KB        # 100 MB (CFLEVEL 4/5 "up to 100 MB")
ENTRY_BYTES = 256              # my accounting: a list entry costs 256 bytes
ELEMENT_BYTES = 512            # data elements of 512 bytes ("at least 512 bytes of data")
SCAN_SECONDS = 15 * 60         # CQS overflow scan
MAX_APP_STRUCTS = 63           # 64 per QSG including CSQ_ADMIN
MAX_QUEUES_PER_STRUCT = 512
MAX_QMGRS = 32
MAX_MAXDEPTH = 999999999

MQRC_NO_MSG = 2033
MQRC_TOO_BIG = 2030
MQRC_PERSIST = 2048
MQRC_Q_FULL = 2053
MQRC_MEDIUM_FULL = 2192
MQRC_WRONG_CF_LEVEL = 2366
MQRC_CF_STRUC_FAILED = 2373

# CFCC level 14 administrative structure minimum sizes (seed 001 Table 1), KB
ADMIN_TABLE_14 = [6144, 6912, 7976, 8704, 9728, 10496, 11520, 12288, 13056, 14080,
                  14848, 15616, 16640, 17408, 18176, 19200, 19968, 20736, 21760, 22528,
                  23296, 24320, 25088, 25856, 27136, 27904, 28672, 29696, 30464, 31232, 32256]
# MQ V6 / CFCC 9 edition (ibm-facts 6.2): known points, interpolated upwards
ADMIN_TABLE_9_POINTS = {1: 2560, 2: 3328, 4: 4608, 8: 7680, 16: 13568, 31: 24832}
# CSQ_ADMIN "must be large enough to contain 1000 list entries for each queue manager"
# (seed 001). My accounting for it: no user data is held there, so each list entry
# carries one 512-byte element at most: 256 + 512 bytes = 0.75 KB per entry.
ADMIN_ENTRIES_PER_QMGR = 1000
ADMIN_ENTRY_BYTES = ENTRY_BYTES + ELEMENT_BYTES

MQ_STRUCT_RE = re.compile(r"^[A-Z][A-Z0-9]{0,11}$")
ZOS_STRUCT_RE = re.compile(r"^[A-Z][A-Z0-9$@#_]{0,15}$")

STRUCT_DEFAULTS = {
    "name": None, "size_kb": 8192, "initsize_kb": None, "fullthreshold": 80, "ratio": 6,
    "cflevel": 3, "recover": False, "offload": None, "offld1th": 70, "offld1sz": 32768,
    "offld2th": 80, "offld2sz": 4096, "offld3th": 90, "offld3sz": 0, "ovflwmax": None,
    "ovflwstr": None, "ovflw_size_kb": 8192, "resource": False,
}
QUEUE_DEFAULTS = {
    "name": None, "cfstruct": None, "qmgr": None, "maxdepth": 5000, "maxmsgl": 4194304,
    "qdepthhi": 80, "qdepthlo": 20, "qdphiev": False, "qdploev": False, "qdpmaxev": False,
}
CONFIG_DEFAULTS = {
    "profile": "mq", "qsg": "QSG1", "qmgrs": ["QM01", "QM02", "QM03"],
    "structures": None, "queues": [], "readings": {}, "accounting": {}, "lgmsgsz": 4096,
    "overflow_exit": None, "perfmev_disabled": [], "admin_size_kb": None, "admin_table": "cfcc14",
}

ERROR_NAMES = {10: "not-supported", 11: "invalid-request", 12: "crash", 13: "bad-config",
               14: "invalid-operation", 15: "precondition-failed", 16: "version-mismatch",
               17: "request-too-large", 18: "reply-too-large", 19: "aborted", 20: "timeout"}
INDEFINITE = {12, 18, 20}


class ProtoError(Exception):
    def __init__(self, code, text, detail=None):
        super().__init__(text)
        self.code = code
        self.text = text
        self.detail = detail


def bad(field, value, allowed, code=14):
    return ProtoError(code, f"{field}={value!r} is invalid: allowed {allowed}",
                      {"field": field, "value": value, "allowed": allowed})


class Reject(Exception):
    """A documented rejection: becomes an ok:false outcome."""
    def __init__(self, reason):
        super().__init__(str(reason))
        self.reason = reason


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def ceil_div(a, b):
    return -(-a // b)


# ------------------------------------------------------------------ op specs
# kind -> (required {field: type}, optional {field: (type, default)})
T_STR, T_INT, T_BOOL, T_OBJ, T_LIST_OR_NULL, T_INT_OR_NULL = "str", "int", "bool", "obj", "list|null", "int|null"
OP_SPECS = {
    "define_structure": ({"structure": T_OBJ}, {}),
    "alter_structure": ({"name": T_STR, "changes": T_OBJ}, {}),
    "define_queue": ({"queue": T_OBJ}, {}),
    "alter_queue": ({"name": T_STR, "changes": T_OBJ}, {}),
    "put": ({"qmgr": T_STR, "queue": T_STR, "length": T_INT},
            {"persistent": (T_BOOL, False), "syncpoint": (T_BOOL, False), "tag": (T_INT, 0)}),
    "get": ({"qmgr": T_STR, "queue": T_STR}, {"syncpoint": (T_BOOL, False)}),
    "commit": ({"qmgr": T_STR}, {}),
    "backout": ({"qmgr": T_STR}, {}),
    "set_perfmev": ({"qmgr": T_STR, "enabled": T_BOOL}, {}),
    "start_qmgr": ({"qmgr": T_STR}, {}),
    "stop_qmgr": ({"qmgr": T_STR}, {}),
    "backup": ({"qmgr": T_STR, "cfstruct": T_STR}, {}),
    "fail_structure": ({"cfstruct": T_STR}, {}),
    "recover": ({"cfstruct": T_STR}, {"purge": (T_BOOL, False)}),
    "setxcf_alter": ({"cfstruct": T_STR, "size_kb": T_INT}, {}),
    "alter_outcome": ({"cfstruct": T_STR, "success": T_BOOL}, {"size_kb": (T_INT_OR_NULL, None)}),
    "set_overflow_exit": ({}, {"vetoes": (T_LIST_OR_NULL, None)}),
    "advance_clock": ({"seconds": T_INT}, {}),
    "inspect": ({}, {}),
}
MQ_ONLY = {"commit", "backout", "set_perfmev", "start_qmgr", "stop_qmgr", "backup",
           "fail_structure", "recover"}
CQS_ONLY = {"alter_outcome", "set_overflow_exit"}


def type_ok(v, t):
    if t == T_STR:
        return isinstance(v, str)
    if t == T_INT:
        return is_int(v)
    if t == T_BOOL:
        return isinstance(v, bool)
    if t == T_OBJ:
        return isinstance(v, dict)
    if t == T_LIST_OR_NULL:
        return v is None or (isinstance(v, list) and all(isinstance(x, str) for x in v))
    if t == T_INT_OR_NULL:
        return v is None or is_int(v)
    return False


def parse_op(op):
    if not isinstance(op, dict):
        raise ProtoError(11, "operation is not an object")
    kind = op.get("op")
    if not isinstance(kind, str):
        raise ProtoError(11, "operation has no string 'op'")
    if kind not in OP_SPECS:
        raise ProtoError(11, f"unknown operation kind {kind!r}")
    req, opt = OP_SPECS[kind]
    out = {"op": kind}
    for f, t in req.items():
        if f not in op:
            raise ProtoError(11, f"{kind}: missing field {f!r}")
        if not type_ok(op[f], t):
            raise ProtoError(11, f"{kind}: field {f!r} has the wrong type")
        out[f] = op[f]
    for f, (t, d) in opt.items():
        v = op.get(f, d)
        if not type_ok(v, t):
            raise ProtoError(11, f"{kind}: field {f!r} has the wrong type")
        out[f] = v
    for f in op:
        if f != "op" and f not in req and f not in opt:
            raise ProtoError(11, f"{kind}: unknown field {f!r}")
    return out


# ------------------------------------------------------------------ model
class Msg:
    __slots__ = ("tag", "length", "persistent", "seq", "state", "owner", "cost", "location",
                 "parts", "where")

    def __init__(self, tag, length, persistent, seq):
        self.tag = tag
        self.length = length
        self.persistent = persistent
        self.seq = seq
        self.state = "committed"   # committed | put_pending | get_pending
        self.owner = None          # qmgr holding the pending unit of work
        self.cost = (0, 0)         # (entries, elements) charged in its structure
        self.location = "CF"
        self.parts = []            # CQS: costs of staging-queue parts
        self.where = "P"           # CQS: first part on P(rimary) or O(verflow)


class Pool:
    """Entries and elements of one list structure, in my own units."""

    def __init__(self, size_kb, ratio):
        self.ratio = ratio
        self.eu = 0
        self.elu = 0
        self.resize(size_kb)

    def resize(self, size_kb):
        self.size_kb = size_kb
        per_set = ENTRY_BYTES + self.ratio * ELEMENT_BYTES
        self.et = (size_kb * KB) // per_set
        self.elt = self.et * self.ratio

    def fits(self, e, el, check_entries=True, check_elements=True):
        if check_entries and self.eu + e > self.et:
            return False
        if check_elements and self.elu + el > self.elt:
            return False
        return True

    def add(self, e, el):
        self.eu += e
        self.elu += el

    def sub(self, e, el):
        self.eu -= e
        self.elu -= el

    def usage(self):
        return [self.eu, self.et, self.elu, self.elt]


class Structure:
    def __init__(self, rec, profile):
        self.name = rec["name"]
        self.size_max = rec["size_kb"]
        self.initsize = rec["initsize_kb"] if rec["initsize_kb"] is not None else rec["size_kb"]
        self.fullthreshold = rec["fullthreshold"]
        self.ratio = rec["ratio"]
        self.cflevel = rec["cflevel"]
        self.recover = rec["recover"]
        self.offload = rec["offload"]
        self.offld = [[rec["offld1th"], rec["offld1sz"]], [rec["offld2th"], rec["offld2sz"]],
                      [rec["offld3th"], rec["offld3sz"]]]
        self.ovflwmax = rec["ovflwmax"]
        self.ovflwstr = rec["ovflwstr"]
        self.ovflw_size_kb = rec["ovflw_size_kb"]
        self.resource = rec["resource"]
        self.profile = profile
        self.pool = Pool(self.initsize, self.ratio)
        self.status = "ACTIVE"
        self.backup_taken = False
        self.full_warning = False
        # CQS
        self.overflow_mode = False
        self.overflow_queues = []
        self.ovfl_pool = None
        self.staging = 0
        self.scan_anchor = None


class Queue:
    def __init__(self, rec, owner):
        self.name = rec["name"]
        self.cfstruct = rec["cfstruct"]
        self.owner = owner
        self.maxdepth = rec["maxdepth"]
        self.maxmsgl = rec["maxmsgl"]
        self.hi = rec["qdepthhi"]
        self.lo = rec["qdepthlo"]
        self.hiev = rec["qdphiev"]
        self.loev = rec["qdploev"]
        self.maxev = rec["qdpmaxev"]
        self.msgs = []          # all messages physically on the queue, in put order
        self.stats = {}         # qmgr -> [enq, deq] since its last event message
        self.overflow = False   # CQS

    def depth(self):
        return sum(1 for m in self.msgs if m.state != "get_pending")


class Engine:
    def __init__(self, fault=None):
        self.fault = fault
        self.opened = False

    def F(self, fid):
        return self.fault is not None and fid in self.fault.split(",")

    # ------------------------------------------------------------ config
    def open(self, cfg):
        if not isinstance(cfg, dict):
            raise ProtoError(13, "config is not an object", {"field": "config"})
        for k in cfg:
            if k not in CONFIG_DEFAULTS:
                raise ProtoError(13, f"unknown config field {k!r}", {"field": k})
        c = dict(CONFIG_DEFAULTS)
        c.update(cfg)
        profile = c["profile"]
        if profile not in ("mq", "cqs"):
            raise ProtoError(13, f"profile {profile!r} unknown", {"field": "profile"})
        self.profile = profile
        qsg = c["qsg"]
        if not isinstance(qsg, str) or not (1 <= len(qsg) <= 4) or not re.match(r"^[A-Z0-9@#$]+$", qsg):
            raise bad("qsg", qsg, "1-4 characters A-Z 0-9 @ # $", 13)
        self.qsg = qsg
        qmgrs = c["qmgrs"]
        if (not isinstance(qmgrs, list) or not qmgrs or not all(isinstance(q, str) and q for q in qmgrs)
                or len(set(qmgrs)) != len(qmgrs)):
            raise bad("qmgrs", qmgrs, "a non-empty list of distinct names", 13)
        if len(qmgrs) > MAX_QMGRS:
            raise bad("qmgrs", len(qmgrs), f"at most {MAX_QMGRS} queue managers", 13)
        if profile == "mq" and qsg in qmgrs:
            raise bad("qsg", qsg, "a name different from every queue manager", 13)
        self.qmgr_order = list(qmgrs)
        pd = c["perfmev_disabled"]
        if not isinstance(pd, list) or any(q not in qmgrs for q in pd):
            raise bad("perfmev_disabled", pd, "names of configured queue managers", 13)
        self.qmgrs = {q: {"active": True, "perfmev": q not in pd} for q in qmgrs}
        self.uow = {q: [] for q in qmgrs}
        lg = c["lgmsgsz"]
        if not is_int(lg) or lg < 1:
            raise bad("lgmsgsz", lg, "a positive number of bytes", 13)
        lg = min(30632, ceil_div(lg, 4) * 4)     # rounded up to a multiple of 4; max 30632
        self.lgmsgsz = lg
        ox = c["overflow_exit"]
        if not (ox is None or (isinstance(ox, list) and all(isinstance(x, str) for x in ox))):
            raise bad("overflow_exit", ox, "null or a list of queue names", 13)
        self.vetoes = None if ox is None else set(ox)
        if not isinstance(c["readings"], dict) or not isinstance(c["accounting"], dict):
            raise ProtoError(13, "readings/accounting must be objects", {"field": "readings"})
        self.clock = 0
        self.correl = 0
        self.seq = 0
        self.structures = {}
        self.queues = {}
        structs = c["structures"]
        if structs is None:
            structs = [dict(STRUCT_DEFAULTS, name="APP1")]
        if not isinstance(structs, list):
            raise bad("structures", structs, "a list", 13)
        for s in structs:
            rec, why = self.check_structure(s)
            if why:
                raise ProtoError(13, f"structure: {why}", {"field": "structures", "value": s})
            self.structures[rec["name"]] = Structure(rec, profile)
        queues = c["queues"]
        if not isinstance(queues, list):
            raise bad("queues", queues, "a list", 13)
        for q in queues:
            rec, why = self.check_queue(q)
            if why:
                raise ProtoError(13, f"queue: {why}", {"field": "queues", "value": q})
            self.add_queue(rec)
        at = c["admin_table"]
        asz = c["admin_size_kb"]
        if not isinstance(at, str):
            raise bad("admin_table", at, "a string", 13)
        if asz is not None:
            if not is_int(asz) or asz < 1:
                raise bad("admin_size_kb", asz, "a positive size in KB", 13)
            need = self.admin_required(at, len(qmgrs))
            if need is not None and asz < need:
                raise bad("admin_size_kb", asz,
                          f">= {need} KB for {len(qmgrs)} queue managers (CSQ_ADMIN sizing table)", 13)
        self.admin_size_kb, self.admin_entries = self.admin_sizing(at, asz, len(qmgrs))
        self.opened = True

    def admin_sizing(self, table, size_kb, n):
        """CSQ_ADMIN as this implementation allocates it: (size in KB, list entries).
        Given admin_size_kb is taken as is (open has checked it against the table);
        otherwise the largest of the minimums that apply: Table 1 (CFCC 14, seed 001),
        the configured edition's minimum, and room for 1000 list entries per queue
        manager defined to the group."""
        if size_kb is None:
            need = [self.admin_required("cfcc14", n),
                    ceil_div(ADMIN_ENTRIES_PER_QMGR * n * ADMIN_ENTRY_BYTES, KB)]
            edition = self.admin_required(table, n)
            if edition is not None:
                need.append(edition)
            size_kb = max(need)
        per_entry = ADMIN_ENTRY_BYTES
        if self.F("TOP-ADMIN-SMALL"):
            # (fault) admin entries charged like an application structure's default set
            per_entry = ENTRY_BYTES + STRUCT_DEFAULTS["ratio"] * ELEMENT_BYTES
        return size_kb, (size_kb * KB) // per_entry

    def cfname(self, name):
        """CFRM structure name: the QSG name padded with @ to four characters, then the
        CFSTRUCT name (seed 003 "SQ03MYDATA"; ibm-facts 2.6 "padded with @ symbols")."""
        if self.F("TOP-CFNAME-NOPAD"):
            return self.qsg + name
        return self.qsg.ljust(4, "@") + name

    def admin_required(self, table, n):
        if table in ("cfcc14", "14", "current"):
            if n <= len(ADMIN_TABLE_14):
                return ADMIN_TABLE_14[n - 1]
            return ADMIN_TABLE_14[-1] + 1024 * (n - len(ADMIN_TABLE_14))
        if table in ("cfcc9", "9", "v6", "V6"):
            pts = sorted(ADMIN_TABLE_9_POINTS.items())
            for (n0, s0), (n1, s1) in zip(pts, pts[1:]):
                if n0 <= n <= n1:
                    return s0 + ceil_div((s1 - s0) * (n - n0), (n1 - n0))
            return pts[-1][1] + 800 * (n - pts[-1][0])
        return None

    def check_structure(self, s):
        """Returns (record, None) or (None, why)."""
        if not isinstance(s, dict):
            return None, "not an object"
        for k in s:
            if k not in STRUCT_DEFAULTS:
                return None, f"unknown field {k}"
        r = dict(STRUCT_DEFAULTS)
        r.update(s)
        name = r["name"]
        if not isinstance(name, str):
            return None, "name missing"
        if self.profile == "mq":
            ok_name = MQ_STRUCT_RE.match(name)
            if self.F("TOP-ADMIN-DEFINABLE"):
                ok_name = re.match(r"^[A-Z][A-Z0-9_]{0,11}$", name)
            if self.F("TOP-NAME-LEN"):
                ok_name = re.match(r"^[A-Z][A-Z0-9]{0,15}$", name)
            if self.F("TOP-NAME-DIGIT"):
                ok_name = re.match(r"^[A-Z0-9][A-Z0-9]{0,11}$", name)
            if not ok_name:
                return None, "name: up to 12 characters, A-Z first, A-Z 0-9 only (CSQ_ADMIN cannot be defined)"
        else:
            if not ZOS_STRUCT_RE.match(name):
                return None, "name: up to 16 characters, A-Z first"
        for f in ("size_kb", "fullthreshold", "ratio", "cflevel", "offld1th", "offld1sz", "offld2th",
                  "offld2sz", "offld3th", "offld3sz", "ovflw_size_kb"):
            if not is_int(r[f]):
                return None, f"{f} must be an integer"
        for f in ("recover", "resource"):
            if not isinstance(r[f], bool):
                return None, f"{f} must be a boolean"
        if not (1 <= r["size_kb"] <= 1 << 30):
            return None, "size_kb out of range 1..1073741824"
        if r["initsize_kb"] is not None:
            if not is_int(r["initsize_kb"]) or not (1 <= r["initsize_kb"] <= r["size_kb"]):
                return None, "initsize_kb must be 1..size_kb"
        if not (0 <= r["fullthreshold"] <= 100):
            return None, "fullthreshold out of range 0..100"
        if not (1 <= r["ratio"] <= 255):
            return None, "ratio out of range 1..255"
        cur = r["initsize_kb"] if r["initsize_kb"] is not None else r["size_kb"]
        if (cur * KB) // (ENTRY_BYTES + r["ratio"] * ELEMENT_BYTES) < 1:
            return None, "structure too small to hold one list entry"
        if not (1 <= r["cflevel"] <= 5):
            return None, "cflevel out of range 1..5"
        for n in (1, 2, 3):
            if not (0 <= r[f"offld{n}th"] <= 100):
                return None, f"offld{n}th out of range 0..100"
            if not (0 <= r[f"offld{n}sz"] <= SZ_RULE_OFF):
                return None, f"offld{n}sz out of range 0..65536 (0K..64K)"
        if self.profile == "mq":
            if r["offload"] is not None:
                if r["offload"] not in ("SMDS", "DB2"):
                    return None, "offload must be SMDS or DB2"
                if r["cflevel"] < 5 and not self.F("OFF-OFFLOAD-LOWLEVEL"):
                    return None, "OFFLOAD is only valid from CFLEVEL(5)"
            if r["ovflwmax"] is not None or r["ovflwstr"] is not None or r["resource"]:
                return None, "ovflwmax/ovflwstr/resource are CQS keywords"
            if name in self.structures:
                return None, "structure already defined"
            limit = MAX_APP_STRUCTS
            if self.F("TOP-64-STRUCTS"):
                limit = MAX_APP_STRUCTS + 1
            count = len(self.structures)
            if self.F("TOP-SYSAPPL-UNCOUNTED"):
                count = sum(1 for n in self.structures if n != "CSQSYSAPPL")
            if count + 1 > limit:
                return None, "a queue sharing group can connect to at most 64 structures including CSQ_ADMIN"
        else:
            if r["offload"] is not None:
                return None, "offload is an MQ keyword"
            if r["ovflwmax"] is not None:
                if not is_int(r["ovflwmax"]) or not (0 <= r["ovflwmax"] <= 100):
                    return None, "ovflwmax out of range 0..100"
            if r["ovflwstr"] is not None:
                if not isinstance(r["ovflwstr"], str) or not ZOS_STRUCT_RE.match(r["ovflwstr"]):
                    return None, "ovflwstr: up to 16 characters, A-Z first"
                if r["ovflwstr"] == name or r["ovflwstr"] in self.structures or any(
                        st.ovflwstr == r["ovflwstr"] for st in self.structures.values()):
                    return None, "ovflwstr must name a structure of its own"
                if r["resource"]:
                    return None, "structure overflow is not supported for resource structures"
            if not (1 <= r["ovflw_size_kb"] <= 1 << 30):
                return None, "ovflw_size_kb out of range"
            if name in self.structures or any(st.ovflwstr == name for st in self.structures.values()):
                return None, "structure already defined"
        return r, None

    def check_queue(self, q):
        if not isinstance(q, dict):
            return None, "not an object"
        for k in q:
            if k not in QUEUE_DEFAULTS:
                return None, f"unknown field {k}"
        r = dict(QUEUE_DEFAULTS)
        r.update(q)
        name = r["name"]
        if not isinstance(name, str) or not (1 <= len(name) <= 48):
            return None, "name: 1 to 48 characters"
        if name in self.queues:
            return None, "queue already defined"
        for f in ("maxdepth", "maxmsgl", "qdepthhi", "qdepthlo"):
            if not is_int(r[f]):
                return None, f"{f} must be an integer"
        for f in ("qdphiev", "qdploev", "qdpmaxev"):
            if not isinstance(r[f], bool):
                return None, f"{f} must be a boolean"
        if not (0 <= r["maxdepth"] <= MAX_MAXDEPTH):
            return None, "maxdepth out of range 0..999999999"
        if not (0 <= r["maxmsgl"] <= MAX_MSG):
            return None, "maxmsgl out of range 0..104857600"
        for f in ("qdepthhi", "qdepthlo"):
            if not (0 <= r[f] <= 100):
                return None, f"{f} out of range 0..100"
        cs = r["cfstruct"]
        if self.profile == "cqs":
            if cs is None:
                return None, "a CQS queue needs a structure"
        if cs is not None:
            if not isinstance(cs, str):
                return None, "cfstruct must be a string"
            st = self.structures.get(cs)
            if st is None and not self.F("TOP-QUEUE-NO-STRUCT"):
                return None, "cfstruct names no defined structure"
            if st is not None:
                if self.profile == "cqs" and st.resource:
                    return None, "a resource structure holds no queues"
                n = sum(1 for x in self.queues.values() if x.cfstruct == cs)
                limit = MAX_QUEUES_PER_STRUCT + (1 if self.F("TOP-512") else 0)
                if n + 1 > limit:
                    return None, "a structure can hold up to 512 shared queues"
        else:
            own = r["qmgr"]
            if own is not None and own not in self.qmgrs:
                return None, "qmgr names no configured queue manager"
        return r, None

    def add_queue(self, rec):
        owner = None
        if rec["cfstruct"] is None:
            owner = rec["qmgr"] if rec["qmgr"] is not None else self.qmgr_order[0]
        q = Queue(rec, owner)
        if rec["cfstruct"] is not None and rec["cfstruct"] not in self.structures:
            # only reachable with a fault: make a phantom structure so puts work
            self.structures[rec["cfstruct"]] = Structure(dict(STRUCT_DEFAULTS, name=rec["cfstruct"]),
                                                         self.profile)
        self.queues[q.name] = q

    # ------------------------------------------------------------ helpers
    def need_qmgr(self, name):
        if name not in self.qmgrs:
            raise bad("qmgr", name, f"one of {self.qmgr_order}")
        return self.qmgrs[name]

    def need_queue(self, name):
        if name not in self.queues:
            raise bad("queue", name, f"one of {sorted(self.queues)}")
        return self.queues[name]

    def need_struct(self, name):
        if name not in self.structures:
            raise bad("cfstruct", name, f"one of {sorted(self.structures)}")
        return self.structures[name]

    def usage_over(self, pool, pct):
        """Entries or elements in use reach pct% (FULLTHRESHOLD semantics)."""
        if pool.et == 0:
            return False
        return 100 * pool.eu >= pct * pool.et or 100 * pool.elu >= pct * pool.elt

    def check_full_warning(self, st, signals):
        if st.status != "ACTIVE":
            return
        ft = st.fullthreshold
        if self.F("CAP-FT0") and ft == 0:
            over = True
        elif ft == 0:
            over = False
        elif self.F("CAP-IXC585-STRICT"):
            p = st.pool
            over = 100 * p.eu > ft * p.et or 100 * p.elu > ft * p.elt
        else:
            over = self.usage_over(st.pool, ft)
        if over and not st.full_warning:
            st.full_warning = True
            signals.append(f"IXC585E {st.name}")
        elif not over and st.full_warning:
            if not self.F("CAP-IXC586-MISSING"):
                signals.append(f"IXC586I {st.name}")
            st.full_warning = False

    @staticmethod
    def whole_cost(length):
        # one entry, one control element, and the data in 512-byte elements
        return (1, 1 + ceil_div(length, ELEMENT_BYTES))

    OFFLOADED_COST = (1, 1)    # 256 + 512 bytes = 0.75 KB

    # ------------------------------------------------------------ apply
    def apply(self, op):
        kind = op["op"]
        if self.profile == "mq" and kind in CQS_ONLY:
            raise ProtoError(14, f"operation {kind} belongs to the cqs profile",
                             {"field": "op", "value": kind, "allowed": "mq operations"})
        if self.profile == "cqs" and kind in MQ_ONLY:
            raise ProtoError(14, f"operation {kind} belongs to the mq profile",
                             {"field": "op", "value": kind, "allowed": "cqs operations"})
        out = {"kind": kind, "ok": True}
        try:
            getattr(self, "op_" + kind)(op, out)
        except Reject as r:
            out["ok"] = False
            out["reason"] = r.reason
        return {k: v for k, v in out.items() if v is not None and v != []}

    # definitions ------------------------------------------------------
    def op_define_structure(self, op, out):
        rec, why = self.check_structure(op["structure"])
        if why:
            raise Reject("INVALID")
        self.structures[rec["name"]] = Structure(rec, self.profile)

    def op_define_queue(self, op, out):
        rec, why = self.check_queue(op["queue"])
        if why:
            raise Reject("INVALID")
        self.add_queue(rec)

    def op_alter_queue(self, op, out):
        q = self.need_queue(op["name"])
        ch = op["changes"]
        new = {}
        for k, v in ch.items():
            if k in ("maxdepth", "maxmsgl", "qdepthhi", "qdepthlo"):
                if not is_int(v):
                    raise Reject("INVALID")
                lim = {"maxdepth": MAX_MAXDEPTH, "maxmsgl": MAX_MSG, "qdepthhi": 100, "qdepthlo": 100}[k]
                if not (0 <= v <= lim):
                    raise Reject("INVALID")
            elif k in ("qdphiev", "qdploev", "qdpmaxev"):
                if not isinstance(v, bool):
                    raise Reject("INVALID")
            else:
                raise Reject("INVALID")
            new[k] = v
        attr = {"maxdepth": "maxdepth", "maxmsgl": "maxmsgl", "qdepthhi": "hi", "qdepthlo": "lo",
                "qdphiev": "hiev", "qdploev": "loev", "qdpmaxev": "maxev"}
        for k, v in new.items():
            setattr(q, attr[k], v)

    def op_alter_structure(self, op, out):
        st = self.need_struct(op["name"])
        ch = op["changes"]
        if self.profile == "cqs":
            for k, v in ch.items():
                if k == "ovflwmax":
                    if not is_int(v) or not (0 <= v <= 100) or st.resource:
                        raise Reject("INVALID")
                elif k == "ovflwstr":
                    if v != st.ovflwstr:
                        # adding an overflow structure later needs a cold start
                        raise Reject("NOT_ALLOWED")
                else:
                    raise Reject("INVALID")
            if "ovflwmax" in ch:
                st.ovflwmax = ch["ovflwmax"]
            return
        allowed = {"cflevel", "recover", "offload", "offld1th", "offld1sz", "offld2th", "offld2sz",
                   "offld3th", "offld3sz"}
        for k, v in ch.items():
            if k not in allowed:
                raise Reject("INVALID")
            if k == "recover" and not isinstance(v, bool):
                raise Reject("INVALID")
            if k == "offload" and v not in ("SMDS", "DB2", None):
                raise Reject("INVALID")
            if k == "cflevel" and (not is_int(v) or not 1 <= v <= 5):
                raise Reject("INVALID")
            if k.startswith("offld"):
                if not is_int(v):
                    raise Reject("INVALID")
                if k.endswith("th") and not 0 <= v <= 100:
                    raise Reject("INVALID")
                if k.endswith("sz") and not 0 <= v <= SZ_RULE_OFF:
                    raise Reject("INVALID")
        newlvl = ch.get("cflevel", st.cflevel)
        if ch.get("offload") is not None and newlvl < 5:
            raise Reject("INVALID")
        if newlvl < st.cflevel and st.cflevel in (3, 4) and not self.F("CFL-DECREASE-UNGUARDED"):
            # decrease from 3 or 4 only if every queue on the structure is empty and has no UOW activity
            for q in self.queues.values():
                if q.cfstruct == st.name and q.msgs:
                    raise Reject("NOT_ALLOWED")
        if self.F("OFF-ALTER-RESET"):
            d = STRUCT_DEFAULTS
            st.offld = [[d["offld1th"], d["offld1sz"]], [d["offld2th"], d["offld2sz"]],
                        [d["offld3th"], d["offld3sz"]]]
        st.cflevel = newlvl
        if "recover" in ch:
            st.recover = ch["recover"]
        if "offload" in ch:
            st.offload = ch["offload"]
        for n in (1, 2, 3):
            if f"offld{n}th" in ch:
                st.offld[n - 1][0] = ch[f"offld{n}th"]
            if f"offld{n}sz" in ch:
                st.offld[n - 1][1] = ch[f"offld{n}sz"]

    # queue managers ----------------------------------------------------
    def op_set_perfmev(self, op, out):
        qm = self.need_qmgr(op["qmgr"])
        if not qm["active"]:
            raise Reject("NOT_ACTIVE")
        qm["perfmev"] = op["enabled"]

    def op_start_qmgr(self, op, out):
        qm = self.need_qmgr(op["qmgr"])
        if qm["active"]:
            return
        if sum(1 for x in self.qmgrs.values() if x["active"]) >= MAX_QMGRS:
            raise Reject("NOT_ALLOWED")
        qm["active"] = True

    def op_stop_qmgr(self, op, out):
        name = op["qmgr"]
        qm = self.need_qmgr(name)
        if not qm["active"]:
            raise Reject("NOT_ACTIVE")
        signals = []
        if self.F("Q-STOP-COMMITS"):
            self.end_uow(name, True, signals)
        else:
            self.end_uow(name, False, signals)
        qm["active"] = False
        # nonpersistent messages on its nonshared queues do not survive a restart
        for q in self.queues.values():
            if q.cfstruct is None and q.owner == name:
                q.msgs = [m for m in q.msgs if m.persistent]
        out["signals"] = signals

    # MQ messages --------------------------------------------------------
    def hi_count(self, q):
        return ceil_div(q.hi * q.maxdepth, 100)

    def lo_count(self, q):
        return ceil_div(q.lo * q.maxdepth, 100)

    def stat(self, q, qmgr):
        return q.stats.setdefault(qmgr, [0, 0])

    def fire_event(self, q, detector, kind, events):
        """Toggle the queue's event switches and produce the event messages."""
        shared = q.cfstruct is not None
        det = self.qmgrs[detector]
        if not shared and not self.F("QD-NONSHARED-PERFMEV"):
            # nonshared: nothing happens while PERFMEV is DISABLED
            if not self.qmgrs[q.owner]["perfmev"]:
                return
        if shared and self.F("QD-SHARED-PERFMEV") and not det["perfmev"]:
            return
        if kind == "QDPHI":
            q.hiev = False
            if not self.F("QD-NO-TOGGLE-LO"):
                q.loev = True
            q.maxev = True
        elif kind == "QDPLO":
            q.loev = False
            q.hiev = True
            q.maxev = True
        else:  # QFULL
            if not self.F("QD-FULL-NOT-RESET"):
                q.maxev = False
            q.loev = True
            q.hiev = False        # my reading: Queue Full disables QDPHIEV too
        if not shared:
            owner = q.owner
            if self.qmgrs[owner]["perfmev"]:
                s = self.stat(q, owner)
                events.append({"qmgr": owner, "kind": kind, "queue": q.name, "correl": 0,
                               "enq": s[0], "deq": s[1]})
                q.stats[owner] = [0, 0]
            return
        if not det["perfmev"]:
            return        # a coordinator with PERFMEV DISABLED issues nothing and broadcasts nothing
        self.correl += 1
        correl = self.correl
        order = [detector] + [n for n in self.qmgr_order if n != detector]
        for i, n in enumerate(order):
            qm = self.qmgrs[n]
            if i > 0:
                if not qm["active"] and not self.F("QD-BROADCAST-INACTIVE"):
                    continue
                if not qm["perfmev"] and not self.F("QD-BROADCAST-DISABLED"):
                    continue
            s = self.stat(q, n)
            c = correl
            if self.F("QD-CORREL") and i > 0:
                self.correl += 1
                c = self.correl
            events.append({"qmgr": n, "kind": kind, "queue": q.name, "correl": c,
                           "enq": s[0], "deq": s[1]})
            if not self.F("QD-STATS-NOT-RESET"):
                q.stats[n] = [0, 0]

    def struct_of(self, q):
        return self.structures.get(q.cfstruct) if q.cfstruct is not None else None

    def offload_decision(self, st, length):
        """Returns True if the message data is offloaded (CFLEVEL 5)."""
        forced_limit = LIMIT_63K
        if self.F("OFF-FORCED-64K"):
            forced_limit = 64 * KB
        if length > forced_limit:
            return True
        p = st.pool
        # my usage metric: combined storage percentage of entries and elements
        used = p.eu * ENTRY_BYTES + p.elu * ELEMENT_BYTES
        total = p.et * ENTRY_BYTES + p.elt * ELEMENT_BYTES
        rules = st.offld
        if self.F("OFF-RULE3-IGNORED"):
            rules = rules[:2]
        for th, sz in rules:
            if self.F("OFF-64K-WRAP"):
                sz = sz & 0xFFFF
            elif sz >= SZ_RULE_OFF:
                continue          # OFFLDnSZ(64K): rule not in effect
            if self.F("OFF-TH-ZERO") and th == 0:
                continue
            size_ok = length >= sz
            use_ok = total > 0 and 100 * used >= th * total
            if self.F("OFF-RULE-AND"):
                use_ok = True
            if size_ok and use_ok:
                return True
        return False

    def op_put(self, op, out):
        qm = self.need_qmgr(op["qmgr"])
        q = self.need_queue(op["queue"])
        length = op["length"]
        if length < 0:
            raise bad("length", length, ">= 0")
        if self.profile == "cqs":
            return self.cqs_put(op, q, out)
        if not qm["active"]:
            raise Reject("NOT_ACTIVE")
        if q.cfstruct is None and not self.qmgrs[q.owner]["active"]:
            raise Reject("NOT_ACTIVE")
        st = self.struct_of(q)
        persistent = op["persistent"]
        if st is not None and st.status != "ACTIVE":
            raise Reject(MQRC_CF_STRUC_FAILED)
        if length > q.maxmsgl or length > MAX_MSG:
            raise Reject(MQRC_TOO_BIG)
        if st is not None:
            if persistent:
                lvl_limit = 3 if self.F("CFL-PERSIST-L3") else 2
                if st.cflevel <= lvl_limit and not self.F("CFL-PERSIST-L2-OK"):
                    raise Reject(MQRC_WRONG_CF_LEVEL)
                if not st.recover:
                    raise Reject(MQRC_WRONG_CF_LEVEL if self.F("CFL-RECOVER-NO-RC") else MQRC_PERSIST)
            big_level = 5 if self.F("CFL-LARGE-L4") else 4
            if length > LIMIT_63K and st.cflevel < big_level and not (
                    self.F("CFL-LARGE-L3-OK") and st.cflevel == 3):
                raise Reject(MQRC_WRONG_CF_LEVEL)
        depth = q.depth()
        full = depth >= q.maxdepth
        if self.F("Q-FULL-OFFBYONE"):
            full = depth > q.maxdepth
        if full:
            events = []
            if q.maxev:
                self.fire_event(q, op["qmgr"], "QFULL", events)
            out["events"] = events
            if st is not None:
                out["usage"] = st.pool.usage()
            raise Reject(MQRC_Q_FULL)
        m = Msg(op["tag"], length, persistent, self.next_seq())
        signals = []
        if st is not None:
            location = "CF"
            if st.cflevel >= 5 or (self.F("CFL-RULES-L4") and st.cflevel == 4):
                if self.offload_decision(st, length):
                    dest = st.offload or ("DB2" if self.F("OFF-DEFAULT-DB2") else "SMDS")
                    if self.F("OFF-DEST-DB2"):
                        dest = "DB2"
                    location = dest
            elif length > LIMIT_63K:
                location = "DB2"      # CFLEVEL(4): data over 63 KB kept in Db2
            cost = self.OFFLOADED_COST if location != "CF" else self.whole_cost(length)
            ce = not self.F("CAP-FULL-ELEMENTS-ONLY")
            cel = not self.F("CAP-FULL-ENTRIES-ONLY")
            if not st.pool.fits(cost[0], cost[1], check_entries=ce, check_elements=cel):
                out["usage"] = st.pool.usage()
                raise Reject(MQRC_MEDIUM_FULL if not self.F("CAP-FULL-RC") else MQRC_Q_FULL)
            st.pool.add(*cost)
            m.cost = cost
            m.location = location
            out["offloaded"] = location != "CF"
            if PROTOCOL_VERSION != "1.0":
                out["location"] = location
        if op["syncpoint"]:
            m.state = "put_pending"
            m.owner = op["qmgr"]
            self.uow[op["qmgr"]].append(("put", q, m))
        if self.F("Q-SYNCPOINT-VISIBLE"):
            m.state = "committed"
        q.msgs.append(m)
        self.stat(q, op["qmgr"])[0] += 1
        events = []
        if q.hiev and not (self.F("QD-EVENT-SYNCPOINT") and op["syncpoint"]):
            d = q.depth()
            hc = self.hi_count(q)
            hit = d > hc if self.F("QD-HI-STRICT") else d >= hc
            if hit:
                self.fire_event(q, op["qmgr"], "QDPHI", events)
        out["events"] = events
        if st is not None:
            self.check_full_warning(st, signals)
            out["usage"] = st.pool.usage()
        out["signals"] = signals

    def next_seq(self):
        self.seq += 1
        return self.seq

    def op_get(self, op, out):
        qm = self.need_qmgr(op["qmgr"])
        q = self.need_queue(op["queue"])
        if self.profile == "cqs":
            return self.cqs_get(op, q, out)
        if not qm["active"]:
            raise Reject("NOT_ACTIVE")
        if q.cfstruct is None and not self.qmgrs[q.owner]["active"]:
            raise Reject("NOT_ACTIVE")
        st = self.struct_of(q)
        if st is not None and st.status != "ACTIVE" and not self.F("REC-2373-GET"):
            raise Reject(MQRC_CF_STRUC_FAILED)
        avail = [m for m in q.msgs if m.state == "committed"]
        if not avail:
            if st is not None and st.status == "ACTIVE":
                out["usage"] = st.pool.usage()
            raise Reject(MQRC_NO_MSG)
        m = avail[-1] if self.F("Q-LIFO") else avail[0]
        signals = []
        if op["syncpoint"]:
            m.state = "get_pending"
            m.owner = op["qmgr"]
            self.uow[op["qmgr"]].append(("get", q, m))
        else:
            self.remove_msg(q, m)
        out["tag"] = m.tag
        self.stat(q, op["qmgr"])[1] += 1
        events = []
        if q.loev:
            d = q.depth()
            lc = self.lo_count(q)
            hit = d < lc if self.F("QD-LO-STRICT") else d <= lc
            if hit:
                self.fire_event(q, op["qmgr"], "QDPLO", events)
        out["events"] = events
        if st is not None:
            self.check_full_warning(st, signals)
            out["usage"] = st.pool.usage()
        out["signals"] = signals

    def remove_msg(self, q, m):
        q.msgs.remove(m)
        st = self.struct_of(q)
        if st is not None and st.status == "ACTIVE":
            st.pool.sub(*m.cost)

    def end_uow(self, qmgr, commit, signals):
        touched = {}
        for kind, q, m in self.uow[qmgr]:
            if m not in q.msgs:
                continue      # lost with a failed structure
            st = self.struct_of(q)
            if st is not None:
                touched[st.name] = st
            if kind == "put":
                if commit or self.F("Q-BACKOUT-KEEPS-PUT"):
                    m.state = "committed"
                    m.owner = None
                else:
                    self.remove_msg(q, m)
            else:
                if commit or self.F("Q-BACKOUT-GET-LOST"):
                    self.remove_msg(q, m)
                else:
                    m.state = "committed"
                    m.owner = None
        self.uow[qmgr] = []
        for st in touched.values():
            self.check_full_warning(st, signals)

    def op_commit(self, op, out):
        qm = self.need_qmgr(op["qmgr"])
        if not qm["active"]:
            raise Reject("NOT_ACTIVE")
        signals = []
        self.end_uow(op["qmgr"], True, signals)
        out["signals"] = signals

    def op_backout(self, op, out):
        qm = self.need_qmgr(op["qmgr"])
        if not qm["active"]:
            raise Reject("NOT_ACTIVE")
        signals = []
        self.end_uow(op["qmgr"], False, signals)
        out["signals"] = signals

    # backup and recovery -------------------------------------------------
    def recoverable(self, st):
        if self.F("REC-BACKUP-RECOVER-NO"):
            return st.cflevel >= 3
        if self.F("REC-BACKUP-CFLEVEL2"):
            return st.recover
        return st.cflevel >= 3 and st.recover

    def op_backup(self, op, out):
        qm = self.need_qmgr(op["qmgr"])
        st = self.need_struct(op["cfstruct"])
        if not qm["active"]:
            raise Reject("NOT_ACTIVE")
        if not self.recoverable(st):
            raise Reject("NOT_ALLOWED")
        if st.status != "ACTIVE":
            raise Reject("NOT_ALLOWED")
        st.backup_taken = True

    def op_fail_structure(self, op, out):
        st = self.need_struct(op["cfstruct"])
        if st.status == "FAILED":
            return
        st.status = "FAILED"
        st.full_warning = False
        for q in self.queues.values():
            if q.cfstruct != st.name:
                continue
            # the log of committed persistent work survives; the structure content does not
            keep = []
            for m in q.msgs:
                if self.F("REC-UNCOMMITTED-RESTORED") and m.persistent:
                    keep.append(m)
                elif m.persistent and m.state in ("committed", "get_pending"):
                    keep.append(m)
                elif self.F("REC-NP-SURVIVE") and not m.persistent and m.state != "put_pending":
                    keep.append(m)
            q.failed_log = keep
            q.msgs = []
        st.pool.eu = 0
        st.pool.elu = 0
        for n in self.uow:
            self.uow[n] = [(k, q, m) for (k, q, m) in self.uow[n] if q.cfstruct != st.name]

    def op_recover(self, op, out):
        st = self.need_struct(op["cfstruct"])
        if not self.recoverable(st):
            raise Reject("NOT_ALLOWED")
        purge = op["purge"]
        signals = []
        if st.status != "FAILED":
            if not purge and not self.F("REC-NORMAL-NONFAILED"):
                raise Reject("NOT_FAILED")
            if purge:
                # TYPE(PURGE) accepted on an active structure: it is emptied
                for q in self.queues.values():
                    if q.cfstruct == st.name:
                        q.msgs = []
                st.pool.eu = st.pool.elu = 0
                for n in self.uow:
                    self.uow[n] = [(k, q, m) for (k, q, m) in self.uow[n] if q.cfstruct != st.name]
                self.check_full_warning(st, signals)
                out["signals"] = signals
            return
        if not purge and not st.backup_taken:
            raise Reject("NO_BACKUP")
        st.status = "ACTIVE"
        for q in self.queues.values():
            if q.cfstruct != st.name:
                continue
            log = getattr(q, "failed_log", [])
            q.failed_log = []
            if purge and not self.F("REC-PURGE-KEEPS"):
                continue
            if self.F("REC-P-LOST"):
                continue
            for m in sorted(log, key=lambda x: x.seq):
                m.state = "committed"
                m.owner = None
                q.msgs.append(m)
                st.pool.add(*m.cost)
        self.check_full_warning(st, signals)
        out["signals"] = signals

    # structure size ----------------------------------------------------------
    def op_setxcf_alter(self, op, out):
        st = self.need_struct(op["cfstruct"])
        new = op["size_kb"]
        if st.status != "ACTIVE":
            raise Reject("NOT_ALLOWED")
        # seed 001: "less than the value of SIZE ... but greater than the current coupling facility size"
        upper_ok = True if self.F("CAP-SETXCF-ABOVE-SIZE") else new < st.size_max
        if not (upper_ok and new > st.pool.size_kb):
            raise Reject("OUT_OF_RANGE")
        st.pool.resize(new)
        signals = []
        self.check_full_warning(st, signals)
        if self.profile == "cqs":
            self.cqs_maybe_leave(st)
        out["signals"] = signals
        out["usage"] = st.pool.usage()

    # CQS -------------------------------------------------------------------
    def cqs_threshold(self, st):
        if st.ovflwmax is not None:
            return st.ovflwmax
        return 80 if self.F("CQS-DEFAULT-80") else 70

    def cqs_reached(self, st, eu=None, elu=None):
        p = st.pool
        eu = p.eu if eu is None else eu
        elu = p.elu if elu is None else elu
        t = self.cqs_threshold(st)
        if p.et == 0:
            return False
        return 100 * eu >= t * p.et or 100 * elu >= t * p.elt

    def cqs_below_target(self, st, eu, elu):
        """Usage (max of entries%, elements%) at or below 0.8 x OVFLWMAX."""
        p = st.pool
        t = self.cqs_threshold(st)
        return 500 * eu <= 4 * t * p.et and 500 * elu <= 4 * t * p.elt

    def cqs_parts(self, length):
        lg = self.lgmsgsz
        if length <= lg:
            return [length]
        n = ceil_div(length, lg)
        return [lg] * (n - 1) + [length - lg * (n - 1)]

    def cqs_put(self, op, q, out):
        st = self.structures[q.cfstruct]
        parts = self.cqs_parts(op["length"])
        first = self.whole_cost(parts[0])
        rest = [self.whole_cost(x) for x in parts[1:]]
        re_ = sum(c[0] for c in rest)
        rel = sum(c[1] for c in rest)
        signals = []
        to_ovfl = False
        if q.overflow:
            if st.ovfl_pool is None:
                if not self.F("CQS-NOOVF-ACCEPT"):
                    out["usage"] = st.pool.usage()
                    raise Reject("REJECTED_OVERFLOW")
            else:
                to_ovfl = True
        full_reason = 2192 if self.F("CQS-FULL-RC") else "STRUCTURE_FULL"
        if to_ovfl:
            if not st.ovfl_pool.fits(*first) or not st.pool.fits(re_, rel):
                out["usage"] = st.pool.usage()
                raise Reject(full_reason)
            st.ovfl_pool.add(*first)
        else:
            if not st.pool.fits(first[0] + re_, first[1] + rel):
                out["usage"] = st.pool.usage()
                raise Reject(full_reason)
            st.pool.add(*first)
        st.pool.add(re_, rel)
        st.staging += len(rest)
        m = Msg(op["tag"], op["length"], op["persistent"], self.next_seq())
        m.cost = first
        m.parts = rest
        m.where = "O" if to_ovfl else "P"
        q.msgs.append(m)
        if not st.resource and not st.overflow_mode and self.cqs_reached(st):
            self.cqs_threshold_reached(st, signals)
        self.check_full_warning(st, signals)
        out["signals"] = signals
        out["usage"] = st.pool.usage()

    def cqs_threshold_reached(self, st, signals):
        # 1. CQS first tries to make the structure larger (completes synchronously here)
        if not self.F("CQS-NO-ALTER") and st.pool.size_kb < st.size_max:
            st.pool.resize(st.size_max)
            return
        # 2. the alter failed: overflow mode
        st.overflow_mode = True
        st.scan_anchor = self.clock
        cands = []
        for q in self.queues.values():
            if q.cfstruct != st.name or q.overflow:
                continue
            e = sum(m.cost[0] for m in q.msgs if m.where == "P")
            el = sum(m.cost[1] for m in q.msgs if m.where == "P")
            if e == 0:
                continue
            cands.append((el, e, q))
        if self.F("CQS-STAGING-SELECTED"):
            se = sum(c[0] for q in self.queues.values() if q.cfstruct == st.name
                     for m in q.msgs for c in m.parts)
            sel = sum(c[1] for q in self.queues.values() if q.cfstruct == st.name
                      for m in q.msgs for c in m.parts)
            if se:
                cands.append((sel, se, None))
        if self.F("CQS-SELECT-LEAST"):
            cands.sort(key=lambda c: (c[0], c[1], c[2].name if c[2] else ""))
        else:
            cands.sort(key=lambda c: (-c[0], -c[1], c[2].name if c[2] else ""))
        eu, elu = st.pool.eu, st.pool.elu
        approved = []
        for el, e, q in cands:
            if self.cqs_below_target(st, eu, elu) and not self.F("CQS-SELECT-ALL"):
                break
            if q is None:       # (fault) the staging queue
                eu -= e
                elu -= el
                continue
            if self.vetoes is not None and q.name in self.vetoes and not self.F("CQS-VETO-IGNORED"):
                continue
            approved.append(q)
            eu -= e
            elu -= el
        if st.ovflwstr is not None and st.ovfl_pool is None:
            st.ovfl_pool = Pool(st.ovflw_size_kb, st.ratio)
        for q in approved:
            q.overflow = True
            st.overflow_queues.append(q.name)
            if st.ovfl_pool is not None:
                for m in q.msgs:
                    if m.where == "P" and st.ovfl_pool.fits(*m.cost):
                        st.pool.sub(*m.cost)
                        st.ovfl_pool.add(*m.cost)
                        m.where = "O"

    def cqs_get(self, op, q, out):
        st = self.structures[q.cfstruct]
        if not q.msgs:
            out["usage"] = st.pool.usage()
            raise Reject("NO_MSG")
        m = q.msgs.pop(0)
        if m.where == "O":
            st.ovfl_pool.sub(*m.cost)
        else:
            st.pool.sub(*m.cost)
        for c in m.parts:
            st.pool.sub(*c)
        st.staging -= len(m.parts)
        out["tag"] = m.tag
        signals = []
        self.check_full_warning(st, signals)
        self.cqs_maybe_leave(st)
        out["signals"] = signals
        out["usage"] = st.pool.usage()

    def cqs_maybe_leave(self, st):
        """Without an overflow structure, leave overflow when usage is 20% below the threshold."""
        if not st.overflow_mode or st.ovflwstr is not None:
            return
        if self.F("CQS-EXIT-NEVER"):
            return
        if self.cqs_below_target(st, st.pool.eu, st.pool.elu):
            self.cqs_leave(st)

    def cqs_leave(self, st):
        st.overflow_mode = False
        for n in st.overflow_queues:
            self.queues[n].overflow = False
        st.overflow_queues = []
        st.scan_anchor = None

    def cqs_scan(self, st):
        for n in list(st.overflow_queues):
            q = self.queues[n]
            if not q.msgs:
                q.overflow = False
                st.overflow_queues.remove(n)
        if not st.overflow_queues:
            self.cqs_leave(st)
            if st.ovfl_pool is not None and st.ovfl_pool.eu == 0:
                st.ovfl_pool = None

    def op_advance_clock(self, op, out):
        s = op["seconds"]
        if s < 0:
            raise bad("seconds", s, ">= 0")
        old = self.clock
        new = old + s
        if self.profile == "cqs" and not self.F("CQS-SCAN-NEVER"):
            # scans run every 15 minutes, counted from the start of overflow mode
            while True:
                due = []
                for st in self.structures.values():
                    if st.overflow_mode and st.ovflwstr is not None and st.scan_anchor is not None:
                        k = (self.clock - st.scan_anchor) // SCAN_SECONDS + 1
                        t = st.scan_anchor + k * SCAN_SECONDS
                        if t <= new:
                            due.append((t, st))
                if not due:
                    break
                t = min(d[0] for d in due)
                self.clock = t
                for tt, st in due:
                    if tt == t:
                        self.cqs_scan(st)
        self.clock = new

    def op_alter_outcome(self, op, out):
        self.need_struct(op["cfstruct"])
        # CQS's alters complete synchronously inside the CQSPUT that reached the threshold
        raise Reject("NO_ALTER_PENDING")

    def op_set_overflow_exit(self, op, out):
        v = op["vetoes"]
        self.vetoes = None if v is None else set(v)

    # inspect ---------------------------------------------------------------
    def op_inspect(self, op, out):
        structs = {}
        for n, st in self.structures.items():
            p = st.pool
            d = {"status": st.status, "size_kb": p.size_kb, "entries_used": p.eu,
                 "entries_total": p.et, "elements_used": p.elu, "elements_total": p.elt,
                 "full_warning": st.full_warning}
            if self.profile == "mq":
                d["cfname"] = self.cfname(n)
            if self.profile == "cqs":
                d["alter_pending"] = False
                d["overflow_mode"] = st.overflow_mode
                d["overflow_queues"] = sorted(st.overflow_queues)
                d["staging_depth"] = st.staging
            structs[n] = dict(sorted(d.items()))
        queues = {}
        for n, q in self.queues.items():
            if self.profile == "cqs":
                d = {"depth": len(q.msgs), "overflow": q.overflow}
            else:
                d = {"depth": q.depth(), "qdphiev": q.hiev, "qdploev": q.loev, "qdpmaxev": q.maxev}
            queues[n] = dict(sorted(d.items()))
        qmgrs = {n: {"active": v["active"], "perfmev": v["perfmev"]} for n, v in self.qmgrs.items()}
        value = {"clock": self.clock, "qmgrs": dict(sorted(qmgrs.items())),
                 "queues": dict(sorted(queues.items())),
                 "structures": dict(sorted(structs.items()))}
        if self.profile == "mq":
            value["admin"] = {"entries_total": self.admin_entries, "size_kb": self.admin_size_kb}
        out["value"] = dict(sorted(value.items()))


# ---------------------------------------------------------------- server
def capabilities():
    return {
        "name": NAME,
        "protocol_version": PROTOCOL_VERSION,
        "profiles": ["mq", "cqs"],
        "families": ["CQS", "OFFLOAD", "CFLEVEL", "CAPACITY", "TOPOLOGY", "SIZING", "QDEPTH",
                     "RECOVERY", "QUEUE"],
        "readings": {k: "unknown" for k in (
            "cqs_target", "cqs_usage_metric", "cqs_scan_anchor", "offload_compare",
            "offload_usage_metric", "forced_offload_boundary", "persistent_low_cflevel_rc",
            "large_low_cflevel_rc", "qdepth_percent", "qfull_hi_flag", "event_broadcast",
            "recover_purge_nonfailed", "alter_below_initsize", "cflevel5_decrease", "alter_at_size")},
        "reason_codes": "exact",
        "observes": ["usage", "events", "signals", "inspect"],
    }


class Server:
    def __init__(self, fault=None, out=None):
        self.fault = fault
        self.out = out if out is not None else sys.stdout
        self.inited = False
        self.engine = None
        self.peer_max = MAX_LINE

    def send(self, obj):
        self.out.write(json.dumps(obj, separators=(",", ":")) + "\n")
        self.out.flush()

    def error(self, irt, code, text, detail=None):
        e = {"type": "error", "in_reply_to": irt, "code": code, "text": text,
             "definite": code not in INDEFINITE}
        if detail is not None:
            e["detail"] = detail
        self.send(e)

    def handle_line(self, raw):
        """Returns False when the server must exit."""
        if len(raw) > MAX_LINE:
            self.error(None, 17, f"request line of {len(raw)} bytes exceeds {MAX_LINE}")
            return True
        try:
            msg = json.loads(raw.decode("utf-8"))
        except Exception:
            self.error(None, 11, "request is not JSON")
            return True
        if not isinstance(msg, dict):
            self.error(None, 11, "request is not a JSON object")
            return True
        mid = msg.get("msg_id")
        if not is_int(mid) or mid < 0:
            self.error(None, 11, "request has no readable msg_id")
            return True
        typ = msg.get("type")
        try:
            if typ == "init":
                if self.inited:
                    raise ProtoError(15, "second init")
                pv = msg.get("protocol_version")
                if not isinstance(pv, str):
                    raise ProtoError(11, "init: protocol_version missing")
                if pv.split(".")[0] != PROTOCOL_VERSION.split(".")[0]:
                    raise ProtoError(16, f"protocol version {pv} not spoken (major {PROTOCOL_VERSION.split('.')[0]})")
                mlb = msg.get("max_line_bytes")
                if is_int(mlb) and mlb >= 1024:
                    self.peer_max = mlb
                self.inited = True
                self.send({"type": "init_ok", "in_reply_to": mid, "protocol_version": PROTOCOL_VERSION,
                           "capabilities": capabilities(), "max_line_bytes": MAX_LINE})
                return True
            if typ not in ("open", "apply", "batch", "close"):
                raise ProtoError(11, f"unknown message type {typ!r}")
            if not self.inited:
                raise ProtoError(15, f"{typ} before init")
            if typ == "close":
                self.send({"type": "close_ok", "in_reply_to": mid})
                return False
            if typ == "open":
                if "config" not in msg:
                    raise ProtoError(11, "open: config missing")
                self.engine = None
                eng = Engine(self.fault)
                eng.open(msg["config"])
                self.engine = eng
                self.send({"type": "open_ok", "in_reply_to": mid})
                return True
            if self.engine is None:
                raise ProtoError(15, f"{typ} before a successful open")
            if typ == "apply":
                op = parse_op(msg.get("op"))
                outcome = self.engine.apply(op)
                reply = {"type": "apply_ok", "in_reply_to": mid, "outcome": outcome}
                line = json.dumps(reply, separators=(",", ":"))
                if len(line.encode()) > self.peer_max:
                    raise ProtoError(18, "reply exceeds the suite's line limit")
                self.out.write(line + "\n")
                self.out.flush()
                return True
            # batch
            ops = msg.get("ops")
            if not isinstance(ops, list) or not ops:
                raise ProtoError(11, "batch: ops must be a non-empty list")
            outcomes = []
            size = 200
            err = None
            for raw_op in ops:
                if outcomes and size + 16384 > self.peer_max:
                    break
                try:
                    op = parse_op(raw_op)
                    oc = self.engine.apply(op)
                except ProtoError as e:
                    err = {"code": e.code, "text": e.text, "definite": e.code not in INDEFINITE}
                    if e.detail is not None:
                        err["detail"] = e.detail
                    break
                except Exception as e:  # internal failure
                    err = {"code": 12, "text": f"internal error: {e!r}", "definite": False}
                    break
                n = len(json.dumps(oc, separators=(",", ":")).encode()) + 1
                if size + n > self.peer_max:
                    if op["op"] == "inspect" and outcomes:
                        break      # inspect changed nothing: leave it for the next batch
                    err = {"code": 18, "text": "reply exceeds the suite's line limit", "definite": False}
                    break
                outcomes.append(oc)
                size += n
            reply = {"type": "batch_ok", "in_reply_to": mid, "outcomes": outcomes}
            if err is not None:
                reply["error"] = err
            self.send(reply)
            return True
        except ProtoError as e:
            self.error(mid, e.code, e.text, e.detail)
            return True
        except Exception as e:
            self.error(mid, 12, f"internal error: {e!r}")
            return True


def main(argv):
    fault = None
    if "--fault" in argv:
        i = argv.index("--fault")
        if i + 1 >= len(argv):
            sys.stderr.write("--fault needs an ID\n")
            return 2
        fault = argv[i + 1]
        try:
            import os
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import faults
            unknown = [f for f in fault.split(",") if f not in faults.FAULT_IDS]
            if unknown:
                sys.stderr.write(f"unknown fault {unknown[0]}\n")
                return 2
        except ImportError:
            pass
        sys.stderr.write(f"second-reading: fault {fault} active\n")
    srv = Server(fault)
    stdin = sys.stdin.buffer
    while True:
        raw = stdin.readline()
        if not raw:
            return 0
        raw = raw.rstrip(b"\n")
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if not raw.strip():
            continue
        if not srv.handle_line(raw):
            return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
