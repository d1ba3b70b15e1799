#!/usr/bin/env python3
"""Independent simulator of CF shared queues (IBM MQ for z/OS shared queues, profile
``mq``; IMS CQS structures, profile ``cqs``) speaking the cfconform wire protocol 1.4
(newline-delimited JSON on stdin/stdout).

    python3 impl.py                 faithful build
    python3 impl.py --fault ID      the same build with one deliberate fault
    python3 impl.py --list-faults   the fault IDs, one per line

Python 3 standard library only.  See README.md for readings, accounting and choices.
"""
import json
import math
import sys

PROTOCOL_VERSION = "1.4"
MAX_LINE = 1048576
FAULT = None

FAULT_IDS = [
    # OFFLOAD
    "OFF-TH-INCLUSIVE", "OFF-SZ-INCLUSIVE", "OFF-SZ-KB-UNIT", "OFF-64K-STOPS-RULES", "OFF-RULE3-IGNORED",
    "OFF-FORCED-63K", "OFF-PAIR-CROSSED", "OFF-OFFLOADED-COST-1K", "OFF-DEFAULT-DB2",
    "OFF-SIZE-ONLY", "OFF-ALTER-RESETS",
    # CFLEVEL
    "CFL-OFFLOAD-AT-4", "CFL-LARGE-AT-3-OK", "CFL-PERSIST-AT-2-OK", "CFL-DB2-AT-4-MISSING",
    "CFL-DECREASE-UNGUARDED", "CFL-LEVEL6-ACCEPTED", "CFL-LARGE-RC-2030",
    # CAPACITY
    "CAP-FULL-2053", "CAP-ENTRY-IGNORED", "CAP-IXC585-STRICT", "CAP-FT0-MONITORS",
    "CAP-FT101-ACCEPTED", "CAP-IXC586-MISSING", "CAP-OFFLOAD-NO-CHARGE",
    # TOPOLOGY
    "TOP-QSG5-ACCEPTED", "TOP-QSG-EQ-QMGR", "TOP-64-STRUCTS", "TOP-SYSAPPL-UNCOUNTED",
    "TOP-513-QUEUES", "TOP-NAME13", "TOP-DIGIT-NAME", "TOP-CFNAME-NOPAD",
    # SIZING
    "SIZ-INITSIZE-IGNORED", "SIZ-ALTER-AT-SIZE", "SIZ-ALTER-ABOVE-SIZE", "SIZ-ADMIN-TABLE-OFFBY1",
    "SIZ-ADMIN-ENTRIES", "SIZ-KB-AS-BYTES",
    # QDEPTH
    "QD-HI-STRICT", "QD-LO-STRICT", "QD-NO-REARM", "QD-FORGET-LAST-QMGR", "QD-PERFMEV-NO-TOGGLE",
    "QD-NONSHARED-TOGGLES", "QD-NO-STATS-RESET", "QD-QFULL-NO-LO-ENABLE", "QD-HI101-ACCEPTED",
    "QD-INACTIVE-EMITS", "QD-RESET-QSTATS-IGNORED",
    # RECOVERY
    "REC-NONPERSIST-BACKED", "REC-NO-BACKUP-OK", "REC-FORGET-STOPPED-LOG", "REC-GETS-NOT-REPLAYED",
    "REC-NORMAL-NONFAILED", "REC-CFLEVEL2-BACKUP", "REC-FAILED-PUT-RC",
    # QUEUE
    "QUE-LIFO", "QUE-QFULL-OFFBY1", "QUE-BACKOUT-KEEPS-PUT", "QUE-UNCOMMITTED-VISIBLE",
    "QUE-MAXMSGL-INCLUSIVE", "QUE-NP-LOST-ON-STOP",
    # CQS
    "CQS-THRESHOLD-STRICT", "CQS-NO-ALTER-FIRST", "CQS-SELECT-LEAST", "CQS-STOP-EARLY",
    "CQS-VETO-STOPS", "CQS-STAGING-MOVED", "CQS-PUT-ACCEPTED-NOSTR", "CQS-SCAN-NEVER",
    "CQS-RESOURCE-OVERFLOW", "CQS-DEFAULT-80",
]


def F(fid):
    return FAULT == fid


# ----------------------------------------------------------------------------- accounting
# Our own accounting (see README): entries of 256 bytes, elements of 128 bytes, our
# element ratio is twice the configured one (our elements are half the usual 256 bytes),
# one eighth of each structure is control storage, a message in the CF carries a
# 256-byte header, every entry holds at least 4 elements (512 bytes of data), an
# offloaded message costs 1 entry + 4 elements = 768 bytes = 0.75 KB.
ENTRY_BYTES = 256
ELEMENT_BYTES = 128
HEADER_BYTES = 256
MIN_ELEMENTS = 4
OFFLOADED_ELEMENTS = 4
KB63 = 64512          # 63 KB
KB6375 = 65280        # 63.75 KB: too large to store in the structure
SZ_OFF = 65536        # OFFLDnSZ(64K): rule not in effect
MAX_MSG = 104857600   # 100 MB
SCAN = 900            # 15 minutes

ADMIN_CFCC14 = [6144, 6912, 7976, 8704, 9728, 10496, 11520, 12288, 13056, 14080, 14848,
                15616, 16640, 17408, 18176, 19200, 19968, 20736, 21760, 22528, 23296, 24320,
                25088, 25856, 27136, 27904, 28672, 29696, 30464, 31232, 32256]
ADMIN_V6 = {1: 2560, 2: 3328, 4: 4608, 8: 7680, 16: 13568, 31: 24832}


def admin_min_kb(n, table):
    if n < 1:
        n = 1
    if str(table).lower() in ("v6", "cfcc9", "cfcc09", "mqv6"):
        for k in sorted(ADMIN_V6):
            if k >= n:
                return ADMIN_V6[k]
        return ADMIN_V6[31] + 768 * (n - 31)
    if n <= 31:
        idx = n - 1
        if F("SIZ-ADMIN-TABLE-OFFBY1"):
            idx = max(0, n - 2)
        return ADMIN_CFCC14[idx]
    return ADMIN_CFCC14[30] + 768 * (n - 31)


def admin_entries(size_kb):
    # CSQ_ADMIN: our accounting uses 512-byte list entries (entry + 2 elements)
    return (size_kb * 1024 * 7 // 8) // (ENTRY_BYTES + 2 * ELEMENT_BYTES)


def msg_elements(length):
    return max(MIN_ELEMENTS, -(-(length + HEADER_BYTES) // ELEMENT_BYTES))


class Pool:
    """Entry/element accounting of one CF list structure."""

    def __init__(self, kb, ratio):
        self.kb = kb
        self.ratio = max(1, 2 * ratio)
        self.en_used = 0
        self.el_used = 0
        self.recompute()

    def recompute(self):
        kb = self.kb
        usable = kb * 1024 * 7 // 8
        if F("SIZ-KB-AS-BYTES"):
            usable = kb * 1000 * 7 // 8
        self.en_total = usable // (ENTRY_BYTES + self.ratio * ELEMENT_BYTES)
        self.el_total = self.en_total * self.ratio

    def fits(self, en, el):
        if F("CAP-ENTRY-IGNORED"):
            return self.el_used + el <= self.el_total
        return self.en_used + en <= self.en_total and self.el_used + el <= self.el_total

    def charge(self, en, el):
        self.en_used += en
        self.el_used += el

    def free(self, en, el):
        self.en_used = max(0, self.en_used - en)
        self.el_used = max(0, self.el_used - el)

    def usage(self):
        return [self.en_used, self.en_total, self.el_used, self.el_total]

    def full(self, ft):
        if ft <= 0 and not F("CAP-FT0-MONITORS"):
            return False
        if F("CAP-IXC585-STRICT"):
            return 100 * self.en_used > ft * self.en_total or 100 * self.el_used > ft * self.el_total
        return 100 * self.en_used >= ft * self.en_total or 100 * self.el_used >= ft * self.el_total


# ----------------------------------------------------------------------------- errors
class WireError(Exception):
    def __init__(self, code, text, detail=None):
        Exception.__init__(self, text)
        self.code = code
        self.text = text
        self.detail = detail


DEFINITE = {10: True, 11: True, 12: False, 13: True, 14: True, 15: True, 16: True, 17: True,
            18: False, 19: True, 20: False}


def bad_op(field, value, allowed, rule):
    return WireError(14, "%s=%r is invalid: allowed %s [%s]" % (field, value, allowed, rule),
                     {"field": field, "value": value, "allowed": allowed, "rule_id": rule})


def bad_cfg(field, value, allowed, rule):
    return WireError(13, "config %s=%r is invalid: allowed %s [%s]" % (field, value, allowed, rule),
                     {"field": field, "value": value, "allowed": allowed, "rule_id": rule})


class Invalid(Exception):
    """A documented command rejection (an outcome with ok false)."""

    def __init__(self, reason, why=""):
        Exception.__init__(self, why)
        self.reason = reason


# ----------------------------------------------------------------------------- records
STRUCT_DEFAULTS = {"name": None, "size_kb": 8192, "initsize_kb": None, "fullthreshold": 80,
                   "ratio": 6, "cflevel": 3, "recover": False, "offload": None,
                   "offld1th": 70, "offld1sz": 32768, "offld2th": 80, "offld2sz": 4096,
                   "offld3th": 90, "offld3sz": 0, "ovflwmax": None, "ovflwstr": None,
                   "ovflw_size_kb": 8192, "resource": False}
QUEUE_DEFAULTS = {"name": None, "cfstruct": None, "qmgr": None, "maxdepth": 999999999,
                  "maxmsgl": 4194304, "qdepthhi": 80, "qdepthlo": 20, "qdphiev": False,
                  "qdploev": False, "qdpmaxev": False}
CONFIG_KEYS = {"profile", "qsg", "qmgrs", "structures", "queues", "readings", "accounting",
               "lgmsgsz", "overflow_exit", "perfmev_disabled", "admin_size_kb", "admin_table"}

INT_FIELDS_S = {"size_kb", "fullthreshold", "ratio", "cflevel", "offld1th", "offld1sz", "offld2th",
                "offld2sz", "offld3th", "offld3sz", "ovflw_size_kb"}
INT_FIELDS_Q = {"maxdepth", "maxmsgl", "qdepthhi", "qdepthlo"}
BOOL_FIELDS_Q = {"qdphiev", "qdploev", "qdpmaxev"}


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def struct_problem(rec, profile):
    """Return (field, value, allowed, rule) for the first documented limit the structure
    record breaks, or None."""
    for k, v in rec.items():
        if k not in STRUCT_DEFAULTS:
            return (k, v, "a structure field", "TOPOLOGY-009")
    s = dict(STRUCT_DEFAULTS)
    s.update(rec)
    name = s["name"]
    if not isinstance(name, str) or not name:
        return ("name", name, "a name", "TOPOLOGY-009")
    for k in INT_FIELDS_S:
        if not is_int(s[k]):
            return (k, s[k], "an integer", "TOPOLOGY-009")
    if s["initsize_kb"] is not None and not is_int(s["initsize_kb"]):
        return ("initsize_kb", s["initsize_kb"], "an integer or null", "SIZING-001")
    if s["ovflwmax"] is not None and not is_int(s["ovflwmax"]):
        return ("ovflwmax", s["ovflwmax"], "an integer or null", "CQS-001")
    for k in ("recover", "resource"):
        if not isinstance(s[k], bool):
            return (k, s[k], "a boolean", "TOPOLOGY-009")
    if profile == "mq":
        bad = len(name) > 12
        if F("TOP-NAME13"):
            bad = len(name) > 13
        first_ok = "A" <= name[0] <= "Z" or (F("TOP-DIGIT-NAME") and name[0].isdigit())
        if bad or not first_ok or any(not ("A" <= c <= "Z" or "0" <= c <= "9") for c in name):
            return ("name", name, "1-12 characters A-Z 0-9 starting with A-Z", "TOPOLOGY-009")
        hi = 6 if F("CFL-LEVEL6-ACCEPTED") else 5
        if not 1 <= s["cflevel"] <= hi:
            return ("cflevel", s["cflevel"], "1..5", "CFLEVEL-001")
        if s["offload"] is not None:
            if s["offload"] not in ("SMDS", "DB2"):
                return ("offload", s["offload"], "SMDS or DB2", "OFFLOAD-001")
        for n in (1, 2, 3):
            th, sz = s["offld%dth" % n], s["offld%dsz" % n]
            if not 0 <= th <= 100:
                return ("offld%dth" % n, th, "0..100", "OFFLOAD-002")
            if not 0 <= sz <= SZ_OFF:
                return ("offld%dsz" % n, sz, "0..65536 (0K..64K)", "OFFLOAD-002")
    hi_ft = 101 if F("CAP-FT101-ACCEPTED") else 100
    if not 0 <= s["fullthreshold"] <= hi_ft:
        return ("fullthreshold", s["fullthreshold"], "0..100", "CAPACITY-009")
    if s["size_kb"] < 1:
        return ("size_kb", s["size_kb"], ">= 1", "SIZING-001")
    if s["initsize_kb"] is not None and not 1 <= s["initsize_kb"] <= s["size_kb"]:
        return ("initsize_kb", s["initsize_kb"], "1..size_kb", "SIZING-001")
    if s["ratio"] < 1:
        return ("ratio", s["ratio"], ">= 1", "SIZING-005")
    if s["ovflwmax"] is not None and not 0 <= s["ovflwmax"] <= 100:
        return ("ovflwmax", s["ovflwmax"], "0..100", "CQS-001")
    if s["ovflw_size_kb"] < 1:
        return ("ovflw_size_kb", s["ovflw_size_kb"], ">= 1", "CQS-001")
    if s["resource"] and s["ovflwstr"] is not None and not F("CQS-RESOURCE-OVERFLOW"):
        return ("ovflwstr", s["ovflwstr"], "none for a resource structure", "CQS-002")
    if s["ovflwstr"] is not None and not isinstance(s["ovflwstr"], str):
        return ("ovflwstr", s["ovflwstr"], "a name or null", "CQS-002")
    return None


def queue_problem(rec):
    for k, v in rec.items():
        if k not in QUEUE_DEFAULTS:
            return (k, v, "a queue field", "TOPOLOGY-013")
    q = dict(QUEUE_DEFAULTS)
    q.update(rec)
    if not isinstance(q["name"], str) or not q["name"]:
        return ("name", q["name"], "a name", "TOPOLOGY-013")
    for k in INT_FIELDS_Q:
        if not is_int(q[k]):
            return (k, q[k], "an integer", "QDEPTH-014")
    for k in BOOL_FIELDS_Q:
        if not isinstance(q[k], bool):
            return (k, q[k], "a boolean", "QDEPTH-014")
    if not 0 <= q["maxdepth"] <= 999999999:
        return ("maxdepth", q["maxdepth"], "0..999999999", "QDEPTH-014")
    hi_p = 101 if F("QD-HI101-ACCEPTED") else 100
    if not 0 <= q["qdepthhi"] <= hi_p:
        return ("qdepthhi", q["qdepthhi"], "0..100", "QDEPTH-014")
    if not 0 <= q["qdepthlo"] <= 100:
        return ("qdepthlo", q["qdepthlo"], "0..100", "QDEPTH-014")
    if q["maxmsgl"] < 0:
        return ("maxmsgl", q["maxmsgl"], ">= 0", "QUEUE-003")
    return None


class Msg(object):
    __slots__ = ("seq", "tag", "length", "persistent", "qmgr", "committed", "locked", "loc",
                 "en", "el", "pool", "staging", "putter")

    def __init__(self, seq, tag, length, persistent, qmgr):
        self.seq = seq
        self.tag = tag
        self.length = length
        self.persistent = persistent
        self.qmgr = qmgr
        self.putter = qmgr
        self.committed = True
        self.locked = None
        self.loc = "CF"
        self.en = 0
        self.el = 0
        self.pool = None
        self.staging = []   # CQS: (en, el) charges of the later parts, on the primary


class Struct(object):
    def __init__(self, rec):
        s = dict(STRUCT_DEFAULTS)
        s.update(rec)
        self.name = s["name"]
        self.size_kb = s["size_kb"]
        self.initsize_kb = s["initsize_kb"]
        cur = s["initsize_kb"] if s["initsize_kb"] is not None else s["size_kb"]
        if F("SIZ-INITSIZE-IGNORED"):
            cur = s["size_kb"]
        self.fullthreshold = s["fullthreshold"]
        self.ratio = s["ratio"]
        self.cflevel = s["cflevel"]
        self.recover = s["recover"]
        self.offload = s["offload"]
        self.offld = [[s["offld1th"], s["offld1sz"]], [s["offld2th"], s["offld2sz"]],
                      [s["offld3th"], s["offld3sz"]]]
        default_max = 80 if F("CQS-DEFAULT-80") else 70
        self.ovflwmax = s["ovflwmax"] if s["ovflwmax"] is not None else default_max
        self.ovflwstr = s["ovflwstr"]
        self.ovflw_size_kb = s["ovflw_size_kb"]
        self.resource = s["resource"]
        self.pool = Pool(cur, self.ratio)
        self.status = "ACTIVE"
        self.full_reported = False
        self.backup = None          # (snapshot {queue: [Msg copies]}, log position)
        self.log = []               # ("put", queue, Msg copy) / ("get", queue, seq)
        self.failed_seen = False
        # CQS
        self.alter_pending = False
        self.overflow_mode = False
        self.overflow_queues = []
        self.overflow_start = None
        self.ovpool = None          # the overflow structure, once allocated
        self.staging_depth = 0


class Queue(object):
    def __init__(self, rec):
        q = dict(QUEUE_DEFAULTS)
        q.update(rec)
        self.name = q["name"]
        self.cfstruct = q["cfstruct"]
        self.owner = q["qmgr"]
        self.maxdepth = q["maxdepth"]
        self.maxmsgl = q["maxmsgl"]
        self.hi = q["qdepthhi"]
        self.lo = q["qdepthlo"]
        self.qdphiev = q["qdphiev"]
        self.qdploev = q["qdploev"]
        self.qdpmaxev = q["qdpmaxev"]
        self.msgs = []
        self.stats = {}     # qmgr -> [enq, deq]
        self.overflow = False

    def depth(self):
        return sum(1 for m in self.msgs if m.locked is None)


def copy_msg(m):
    c = Msg(m.seq, m.tag, m.length, m.persistent, m.qmgr)
    c.putter = m.putter
    return c


# ----------------------------------------------------------------------------- the model
class Model(object):
    def __init__(self, cfg):
        self.validate(cfg)
        c = cfg
        self.profile = c.get("profile", "mq")
        self.qsg = c.get("qsg", "QSG1")
        self.qmgr_order = list(c.get("qmgrs", ["QM01", "QM02", "QM03"]))
        disabled = set(c.get("perfmev_disabled", []) or [])
        self.qmgrs = {}
        for n in self.qmgr_order:
            self.qmgrs[n] = {"active": True, "perfmev": n not in disabled}
        self.structs = {}
        self.struct_order = []
        for rec in c.get("structures", [dict(STRUCT_DEFAULTS, name="APP1")]):
            s = Struct(rec)
            self.structs[s.name] = s
            self.struct_order.append(s.name)
        self.queues = {}
        for rec in c.get("queues", []):
            q = Queue(rec)
            self.queues[q.name] = q
        lg = c.get("lgmsgsz", 4096)
        lg = -(-lg // 4) * 4
        self.lgmsgsz = max(4, min(30632, lg))
        self.exit_vetoes = c.get("overflow_exit", None)
        self.clock = 0
        self.seq = 0
        self.correl = 0
        self.uow = {n: [] for n in self.qmgr_order}
        n = len(self.qmgr_order)
        self.admin_table = c.get("admin_table", "cfcc14")
        a = c.get("admin_size_kb", None)
        self.admin_kb = a if a is not None else admin_min_kb(n, self.admin_table)

    # -- configuration validation ---------------------------------------------------
    def validate(self, c):
        if not isinstance(c, dict):
            raise WireError(11, "config is not an object")
        for k in c:
            if k not in CONFIG_KEYS:
                raise bad_cfg(k, c[k], "a config field", "CONFIG")
        prof = c.get("profile", "mq")
        if prof not in ("mq", "cqs"):
            raise WireError(10, "profile %r not supported" % (prof,))
        qsg = c.get("qsg", "QSG1")
        qmgrs = c.get("qmgrs", ["QM01", "QM02", "QM03"])
        if not isinstance(qsg, str) or not isinstance(qmgrs, list) or \
                not all(isinstance(x, str) for x in qmgrs):
            raise bad_cfg("qmgrs", qmgrs, "a list of names", "TOPOLOGY-006")
        structs = c.get("structures", [dict(STRUCT_DEFAULTS, name="APP1")])
        queues = c.get("queues", [])
        if not isinstance(structs, list) or not all(isinstance(x, dict) for x in structs):
            raise bad_cfg("structures", structs, "a list of structure records", "TOPOLOGY-009")
        if not isinstance(queues, list) or not all(isinstance(x, dict) for x in queues):
            raise bad_cfg("queues", queues, "a list of queue records", "TOPOLOGY-013")
        for k in ("lgmsgsz",):
            if k in c and not is_int(c[k]):
                raise bad_cfg(k, c[k], "an integer", "CQS-009")
        if c.get("admin_size_kb") is not None and not is_int(c.get("admin_size_kb")):
            raise bad_cfg("admin_size_kb", c.get("admin_size_kb"), "an integer", "TOPOLOGY-008")
        if prof == "mq":
            qlen_ok = 1 <= len(qsg) <= 4 or (F("TOP-QSG5-ACCEPTED") and len(qsg) == 5)
            if not qlen_ok:
                raise bad_cfg("qsg", qsg, "1 to 4 characters", "TOPOLOGY-015")
            if qsg in qmgrs and not F("TOP-QSG-EQ-QMGR"):
                raise bad_cfg("qsg", qsg, "different from every queue manager name", "TOPOLOGY-015")
            if len(qmgrs) > 32:
                raise bad_cfg("qmgrs", len(qmgrs), "at most 32 queue managers", "TOPOLOGY-006")
            napp = len(structs)
            limit = 63
            if F("TOP-64-STRUCTS"):
                limit = 64
            if F("TOP-SYSAPPL-UNCOUNTED"):
                napp = len([s for s in structs if s.get("name") != "CSQSYSAPPL"])
            if napp > limit:
                raise bad_cfg("structures", len(structs),
                              "at most 63 application structures (62 besides CSQSYSAPPL)",
                              "TOPOLOGY-003")
            a = c.get("admin_size_kb")
            if a is not None and a < admin_min_kb(len(qmgrs), c.get("admin_table", "cfcc14")):
                raise bad_cfg("admin_size_kb", a, ">= Table 1 minimum", "TOPOLOGY-008")
        names = set()
        for rec in structs:
            p = struct_problem(rec, prof)
            if p:
                raise bad_cfg("structures.%s" % p[0], p[1], p[2], p[3])
            if rec["name"] in names:
                raise bad_cfg("structures.name", rec["name"], "unique names", "TOPOLOGY-009")
            names.add(rec["name"])
        qnames = set()
        per = {}
        for rec in queues:
            p = queue_problem(rec)
            if p:
                raise bad_cfg("queues.%s" % p[0], p[1], p[2], p[3])
            if rec["name"] in qnames:
                raise bad_cfg("queues.name", rec["name"], "unique names", "TOPOLOGY-013")
            qnames.add(rec["name"])
            cs = rec.get("cfstruct")
            if cs is not None:
                if cs not in names:
                    raise bad_cfg("queues.cfstruct", cs, "a defined structure", "TOPOLOGY-013")
                per[cs] = per.get(cs, 0) + 1
            else:
                if prof == "cqs":
                    raise bad_cfg("queues.cfstruct", None, "a structure", "TOPOLOGY-013")
                ow = rec.get("qmgr")
                if ow not in qmgrs:
                    raise bad_cfg("queues.qmgr", ow, "a queue manager", "TOPOLOGY-013")
        lim = 513 if F("TOP-513-QUEUES") else 512
        for cs, n in per.items():
            if n > lim and prof == "mq":
                raise bad_cfg("queues", n, "at most 512 queues per structure", "TOPOLOGY-005")
        ex = c.get("overflow_exit")
        if ex is not None and (not isinstance(ex, list) or not all(isinstance(x, str) for x in ex)):
            raise bad_cfg("overflow_exit", ex, "a list of queue names or null", "CQS-006")

    # -- helpers -------------------------------------------------------------------
    def qmgr(self, name, need_active=True):
        if not isinstance(name, str) or name not in self.qmgrs:
            raise bad_op("qmgr", name, "one of %r" % self.qmgr_order, "TOPOLOGY-006")
        if need_active and not self.qmgrs[name]["active"]:
            raise bad_op("qmgr", name, "an active queue manager", "QUEUE-005")
        return self.qmgrs[name]

    def queue(self, name):
        if not isinstance(name, str) or name not in self.queues:
            raise bad_op("queue", name, "one of %r" % sorted(self.queues), "TOPOLOGY-013")
        return self.queues[name]

    def struct(self, name):
        if not isinstance(name, str) or name not in self.structs:
            raise bad_op("cfstruct", name, "one of %r" % self.struct_order, "TOPOLOGY-009")
        return self.structs[name]

    def nextseq(self):
        self.seq += 1
        return self.seq

    # -- dispatch ------------------------------------------------------------------
    MQ_OPS = {"define_structure", "alter_structure", "define_queue", "alter_queue", "put", "get",
              "commit", "backout", "set_perfmev", "reset_qstats", "start_qmgr", "stop_qmgr",
              "backup", "fail_structure", "recover", "setxcf_alter", "advance_clock", "inspect"}
    CQS_OPS = {"define_structure", "define_queue", "put", "get", "setxcf_alter", "alter_outcome",
               "set_overflow_exit", "advance_clock", "inspect"}

    def apply(self, op):
        kind = op["op"]
        allowed = self.MQ_OPS if self.profile == "mq" else self.CQS_OPS
        if kind not in allowed:
            raise bad_op("op", kind, "an operation of profile %s" % self.profile, "PROFILE")
        out = getattr(self, "op_" + kind)(op)
        out["kind"] = kind
        return out

    # -- definitions ---------------------------------------------------------------
    def op_define_structure(self, op):
        rec = op["structure"]
        if not isinstance(rec, dict):
            return {"ok": False, "reason": "INVALID"}
        p = struct_problem(rec, self.profile)
        if p is None and rec.get("name") in self.structs:
            p = ("name", rec.get("name"), "a new name", "TOPOLOGY-009")
        if p is None and self.profile == "mq":
            n = len(self.structs) + 1
            limit = 64 if F("TOP-64-STRUCTS") else 63
            if F("TOP-SYSAPPL-UNCOUNTED"):
                n = len([x for x in self.structs if x != "CSQSYSAPPL"]) + (rec["name"] != "CSQSYSAPPL")
            if n > limit:
                p = ("structures", n, "at most 63", "TOPOLOGY-003")
            s = dict(STRUCT_DEFAULTS)
            s.update(rec)
            if s["offload"] is not None and s["cflevel"] < 5 and not F("CFL-OFFLOAD-AT-4"):
                p = ("offload", s["offload"], "only from CFLEVEL(5)", "CFLEVEL-004")
            if s["recover"] and s["cflevel"] < 3:
                p = ("recover", True, "RECOVER(YES) needs CFLEVEL(3)", "CFLEVEL-002")
        if p is not None:
            return {"ok": False, "reason": "INVALID", "rules": [p[3]]}
        s = Struct(rec)
        self.structs[s.name] = s
        self.struct_order.append(s.name)
        return {"ok": True, "usage": s.pool.usage()}

    def op_define_queue(self, op):
        rec = op["queue"]
        if not isinstance(rec, dict):
            return {"ok": False, "reason": "INVALID"}
        p = queue_problem(rec)
        if p is None and rec["name"] in self.queues:
            p = ("name", rec["name"], "a new name", "TOPOLOGY-013")
        if p is None:
            cs = rec.get("cfstruct")
            if cs is not None:
                if cs not in self.structs:
                    p = ("cfstruct", cs, "a defined structure", "TOPOLOGY-013")
                else:
                    n = sum(1 for q in self.queues.values() if q.cfstruct == cs)
                    lim = 513 if F("TOP-513-QUEUES") else 512
                    if n + 1 > lim and self.profile == "mq":
                        p = ("cfstruct", cs, "at most 512 queues", "TOPOLOGY-005")
            else:
                if self.profile == "cqs" or rec.get("qmgr") not in self.qmgrs:
                    p = ("qmgr", rec.get("qmgr"), "an owning queue manager", "TOPOLOGY-013")
        if p is not None:
            return {"ok": False, "reason": "INVALID", "rules": [p[3]]}
        q = Queue(rec)
        self.queues[q.name] = q
        return {"ok": True}

    def op_alter_queue(self, op):
        q = self.queue(op["name"])
        ch = op["changes"]
        keys = {"maxdepth", "maxmsgl", "qdepthhi", "qdepthlo", "qdphiev", "qdploev", "qdpmaxev"}
        for k, v in ch.items():
            if k not in keys:
                return {"ok": False, "reason": "INVALID"}
            if k in BOOL_FIELDS_Q and not isinstance(v, bool):
                return {"ok": False, "reason": "INVALID"}
            if k in INT_FIELDS_Q and not is_int(v):
                return {"ok": False, "reason": "INVALID"}
        rec = {"name": q.name, "maxdepth": ch.get("maxdepth", q.maxdepth),
               "maxmsgl": ch.get("maxmsgl", q.maxmsgl), "qdepthhi": ch.get("qdepthhi", q.hi),
               "qdepthlo": ch.get("qdepthlo", q.lo)}
        if queue_problem(rec):
            return {"ok": False, "reason": "OUT_OF_RANGE", "rules": ["QDEPTH-014"]}
        q.maxdepth, q.maxmsgl, q.hi, q.lo = rec["maxdepth"], rec["maxmsgl"], rec["qdepthhi"], rec["qdepthlo"]
        for k in BOOL_FIELDS_Q:
            if k in ch:
                setattr(q, k, ch[k])
        return {"ok": True}

    def op_alter_structure(self, op):
        s = self.struct(op["name"])
        ch = op["changes"]
        for k, v in ch.items():
            if k not in STRUCT_DEFAULTS or k == "name":
                return {"ok": False, "reason": "INVALID"}
        cur = {"name": s.name, "size_kb": s.size_kb, "initsize_kb": s.initsize_kb,
               "fullthreshold": s.fullthreshold, "ratio": s.ratio, "cflevel": s.cflevel,
               "recover": s.recover, "offload": s.offload,
               "offld1th": s.offld[0][0], "offld1sz": s.offld[0][1],
               "offld2th": s.offld[1][0], "offld2sz": s.offld[1][1],
               "offld3th": s.offld[2][0], "offld3sz": s.offld[2][1],
               "ovflwmax": s.ovflwmax, "ovflwstr": s.ovflwstr,
               "ovflw_size_kb": s.ovflw_size_kb, "resource": s.resource}
        new = dict(cur)
        if F("OFF-ALTER-RESETS"):
            for k in ("offld1th", "offld1sz", "offld2th", "offld2sz", "offld3th", "offld3sz"):
                new[k] = STRUCT_DEFAULTS[k]
        new.update(ch)
        if new["cflevel"] == 5 and s.cflevel < 5:
            # offload_after_raise = "off": the OFFLDnSZ not named become 64K (rule off)
            for n in (1, 2, 3):
                if "offld%dsz" % n not in ch:
                    new["offld%dsz" % n] = SZ_OFF
        p = struct_problem(new, self.profile)
        if p is not None:
            reason = "OUT_OF_RANGE" if is_int(p[1]) and p[0] not in ("name",) else "INVALID"
            return {"ok": False, "reason": reason, "rules": [p[3]]}
        if "offload" in ch and ch["offload"] is not None and new["cflevel"] < 5 and not F("CFL-OFFLOAD-AT-4"):
            return {"ok": False, "reason": "INVALID", "rules": ["CFLEVEL-004"]}
        if new["recover"] and new["cflevel"] < 3:
            return {"ok": False, "reason": "NOT_ALLOWED", "rules": ["CFLEVEL-002"]}
        if new["cflevel"] < s.cflevel and s.cflevel >= 3 and not F("CFL-DECREASE-UNGUARDED"):
            for q in self.queues.values():
                if q.cfstruct == s.name and (q.msgs or self.queue_has_uow(q)):
                    return {"ok": False, "reason": "NOT_ALLOWED", "rules": ["CFLEVEL-003"]}
        if new["initsize_kb"] != cur["initsize_kb"] or new["size_kb"] != cur["size_kb"]:
            if new["size_kb"] < s.pool.kb:
                s.pool.kb = new["size_kb"]
                s.pool.recompute()
        s.size_kb = new["size_kb"]
        s.initsize_kb = new["initsize_kb"]
        s.fullthreshold = new["fullthreshold"]
        if new["ratio"] != s.ratio:
            s.ratio = new["ratio"]
            s.pool.ratio = max(1, 2 * s.ratio)
            s.pool.recompute()
        s.cflevel = new["cflevel"]
        s.recover = new["recover"]
        s.offload = new["offload"]
        s.offld = [[new["offld1th"], new["offld1sz"]], [new["offld2th"], new["offld2sz"]],
                   [new["offld3th"], new["offld3sz"]]]
        s.ovflwmax = new["ovflwmax"] if new["ovflwmax"] is not None else 70
        s.ovflwstr = new["ovflwstr"]
        s.ovflw_size_kb = new["ovflw_size_kb"]
        s.resource = new["resource"]
        return {"ok": True}

    def queue_has_uow(self, q):
        for lst in self.uow.values():
            for ent in lst:
                if ent[1] is q:
                    return True
        return False

    # -- MQ put/get ----------------------------------------------------------------
    def op_put(self, op):
        length = op["length"]
        if length < 0:
            raise bad_op("length", length, ">= 0", "QUEUE-003")
        if self.profile == "cqs":
            return self.cqs_put(op)
        qm = op["qmgr"]
        self.qmgr(qm)
        q = self.queue(op["queue"])
        persistent = op.get("persistent", False)
        sync = op.get("syncpoint", False)
        tag = op.get("tag", 0)
        if q.cfstruct is None:
            if q.owner != qm:
                raise bad_op("queue", q.name, "a queue owned by %s" % q.owner, "TOPOLOGY-013")
            return self.put_nonshared(q, qm, length, persistent, sync, tag)
        s = self.structs[q.cfstruct]
        if s.status == "FAILED":
            return {"ok": False, "reason": 2053 if F("REC-FAILED-PUT-RC") else 2373, "rules": ["RECOVERY-004"]}
        too_big = length > q.maxmsgl or length > MAX_MSG
        if F("QUE-MAXMSGL-INCLUSIVE"):
            too_big = length >= q.maxmsgl or length > MAX_MSG
        if too_big:
            return {"ok": False, "reason": 2030, "rules": ["QUEUE-003"]}
        # Our precedence: persistence is judged before message size (README).
        if persistent:
            if s.cflevel <= 2 and not F("CFL-PERSIST-AT-2-OK"):
                return {"ok": False, "reason": 2366, "rules": ["CFLEVEL-002"]}
            if not s.recover:
                return {"ok": False, "reason": 2048, "rules": ["CFLEVEL-002"]}
        if s.cflevel < 4 and length > KB63 and not F("CFL-LARGE-AT-3-OK"):
            return {"ok": False, "reason": 2030 if F("CFL-LARGE-RC-2030") else 2366, "rules": ["CFLEVEL-003"]}
        events = []
        full = q.depth() >= q.maxdepth
        if F("QUE-QFULL-OFFBY1"):
            full = q.depth() >= q.maxdepth + 1
        if full:
            events = self.queue_full_event(q, qm)
            out = {"ok": False, "reason": 2053, "rules": ["QUEUE-004"]}
            if events:
                out["events"] = events
            return out
        # where does the data go?
        loc = "CF"
        if s.cflevel >= 5:
            if self.offload_rule(s, length):
                loc = s.offload or ("DB2" if F("OFF-DEFAULT-DB2") else "SMDS")
        elif s.cflevel == 4:
            if length > KB6375 and not F("CFL-DB2-AT-4-MISSING"):
                loc = "DB2"
        if loc == "CF":
            en, el = 1, msg_elements(length)
        else:
            en, el = 1, (0 if F("CAP-OFFLOAD-NO-CHARGE") else
                         (8 if F("OFF-OFFLOADED-COST-1K") else OFFLOADED_ELEMENTS))
        if not s.pool.fits(en, el):
            return {"ok": False, "reason": 2053 if F("CAP-FULL-2053") else 2192, "rules": ["CAPACITY-001"],
                    "usage": s.pool.usage()}
        m = Msg(self.nextseq(), tag, length, persistent, qm)
        m.loc = loc
        m.en, m.el, m.pool = en, el, s.pool
        s.pool.charge(en, el)
        m.committed = not sync
        q.msgs.append(m)
        if sync:
            self.uow[qm].append(("put", q, m))
        elif persistent:
            s.log.append(("put", q.name, copy_msg(m), qm))
        self.stat(q, qm)[0] += 1
        events = self.after_put(q, qm)
        out = {"ok": True, "offloaded": loc != "CF", "location": loc, "usage": s.pool.usage()}
        if events:
            out["events"] = events
        return out

    def offload_rule(self, s, length):
        boundary = KB63 if F("OFF-FORCED-63K") else KB6375
        if length > boundary:
            return True
        used, total = s.pool.el_used, s.pool.el_total
        rules = s.offld
        if F("OFF-RULE3-IGNORED"):
            rules = rules[:2]
        if F("OFF-PAIR-CROSSED"):
            rules = [[rules[0][0], rules[1][1]], [rules[1][0], rules[0][1]], rules[2]]
        for th, sz in rules:
            if sz >= SZ_OFF:
                if F("OFF-64K-STOPS-RULES"):
                    break
                continue
            if F("OFF-SZ-KB-UNIT"):
                sz = sz // 1024
            if F("OFF-TH-INCLUSIVE"):
                over = 100 * used >= th * total
            else:
                over = 100 * used > th * total
            if F("OFF-SIZE-ONLY"):
                over = True
            bigger = length >= sz if F("OFF-SZ-INCLUSIVE") else length > sz
            if over and bigger:
                return True
        return False

    def put_nonshared(self, q, qm, length, persistent, sync, tag):
        if length > q.maxmsgl or length > MAX_MSG or (F("QUE-MAXMSGL-INCLUSIVE") and length >= q.maxmsgl):
            return {"ok": False, "reason": 2030, "rules": ["QUEUE-003"]}
        if q.depth() >= q.maxdepth + (1 if F("QUE-QFULL-OFFBY1") else 0):
            ev = self.queue_full_event(q, qm)
            out = {"ok": False, "reason": 2053}
            if ev:
                out["events"] = ev
            return out
        m = Msg(self.nextseq(), tag, length, persistent, qm)
        m.committed = not sync
        q.msgs.append(m)
        if sync:
            self.uow[qm].append(("put", q, m))
        self.stat(q, qm)[0] += 1
        ev = self.after_put(q, qm)
        out = {"ok": True}
        if ev:
            out["events"] = ev
        return out

    def op_get(self, op):
        if self.profile == "cqs":
            return self.cqs_get(op)
        qm = op["qmgr"]
        self.qmgr(qm)
        q = self.queue(op["queue"])
        sync = op.get("syncpoint", False)
        if q.cfstruct is None:
            if q.owner != qm:
                raise bad_op("queue", q.name, "a queue owned by %s" % q.owner, "TOPOLOGY-013")
            s = None
        else:
            s = self.structs[q.cfstruct]
            if s.status == "FAILED":
                return {"ok": False, "reason": 2373, "rules": ["RECOVERY-004"]}
        cands = [m for m in q.msgs if m.locked is None and (m.committed or F("QUE-UNCOMMITTED-VISIBLE"))]
        if not cands:
            out = {"ok": False, "reason": 2033, "rules": ["QUEUE-002"]}
            return out
        m = cands[-1] if F("QUE-LIFO") else cands[0]
        if sync:
            m.locked = qm
            self.uow[qm].append(("get", q, m))
        else:
            self.remove_msg(q, m, qm)
        self.stat(q, qm)[1] += 1
        ev = self.after_get(q, qm)
        out = {"ok": True, "tag": m.tag}
        if s is not None:
            out["usage"] = s.pool.usage()
        if ev:
            out["events"] = ev
        return out

    def remove_msg(self, q, m, getter):
        if m in q.msgs:
            q.msgs.remove(m)
        if m.pool is not None:
            m.pool.free(m.en, m.el)
        if q.cfstruct is not None and m.persistent and m.committed:
            self.structs[q.cfstruct].log.append(("get", q.name, m.seq, getter))

    def op_commit(self, op):
        qm = op["qmgr"]
        self.qmgr(qm)
        self.end_uow(qm, commit=True)
        return {"ok": True}

    def op_backout(self, op):
        qm = op["qmgr"]
        self.qmgr(qm)
        self.end_uow(qm, commit=F("QUE-BACKOUT-KEEPS-PUT"))
        return {"ok": True}

    def end_uow(self, qm, commit):
        for kind, q, m in self.uow.get(qm, []):
            if m not in q.msgs:
                continue    # lost with a failed structure
            if kind == "put":
                if commit:
                    m.committed = True
                    if q.cfstruct is not None and m.persistent:
                        self.structs[q.cfstruct].log.append(("put", q.name, copy_msg(m), qm))
                else:
                    q.msgs.remove(m)
                    if m.pool is not None:
                        m.pool.free(m.en, m.el)
            else:
                if commit:
                    self.remove_msg(q, m, qm)
                else:
                    m.locked = None
        self.uow[qm] = []

    # -- queue depth events ----------------------------------------------------------
    def stat(self, q, qm):
        return q.stats.setdefault(qm, [0, 0])

    def count_hi(self, q):
        # qdepth_percent = "ceil"
        return -(-(q.hi * q.maxdepth) // 100)

    def count_lo(self, q):
        return -(-(q.lo * q.maxdepth) // 100)

    def after_put(self, q, qm):
        if not q.qdphiev:
            return []
        d = q.depth()
        hit = d > self.count_hi(q) if F("QD-HI-STRICT") else d >= self.count_hi(q)
        if not hit:
            return []
        return self.fire(q, qm, "QDPHI")

    def after_get(self, q, qm):
        if not q.qdploev:
            return []
        d = q.depth()
        hit = d < self.count_lo(q) if F("QD-LO-STRICT") else d <= self.count_lo(q)
        if not hit:
            return []
        return self.fire(q, qm, "QDPLO")

    def queue_full_event(self, q, qm):
        if not q.qdpmaxev:
            return []
        return self.fire(q, qm, "QFULL")

    def toggle(self, q, kind):
        if kind == "QDPHI":
            q.qdphiev = False
            q.qdploev = True
            q.qdpmaxev = True
        elif kind == "QDPLO":
            if not F("QD-NO-REARM"):
                q.qdphiev = True
            q.qdploev = False
            q.qdpmaxev = True
        else:   # QFULL: qfull_hi_flag = "unchanged"
            if not F("QD-QFULL-NO-LO-ENABLE"):
                q.qdploev = True
            q.qdpmaxev = False

    def emit(self, q, qm, kind, correl):
        st = self.stat(q, qm)
        ev = {"qmgr": qm, "kind": kind, "queue": q.name, "correl": correl, "enq": st[0], "deq": st[1]}
        if not F("QD-NO-STATS-RESET"):
            st[0] = st[1] = 0
        return ev

    def fire(self, q, qm, kind):
        if q.cfstruct is None:
            # nonshared: nothing at all while PERFMEV is DISABLED
            if not self.qmgrs[qm]["perfmev"] and not F("QD-NONSHARED-TOGGLES"):
                return []
            self.toggle(q, kind)
            if not self.qmgrs[qm]["perfmev"]:
                return []
            return [self.emit(q, qm, kind, 0)]
        # shared: the detecting queue manager toggles, whatever its PERFMEV
        if self.qmgrs[qm]["perfmev"] or not F("QD-PERFMEV-NO-TOGGLE"):
            self.toggle(q, kind)
        self.correl += 1
        c = self.correl
        out = []
        if not self.qmgrs[qm]["perfmev"]:
            return out      # event_broadcast = "if-coordinator-enabled"
        out.append(self.emit(q, qm, kind, c))
        order = self.qmgr_order
        if F("QD-FORGET-LAST-QMGR"):
            order = order[:-1]
        rest = [n for n in order if n != qm]   # definition order, after the detector
        for n in rest:
            st = self.qmgrs[n]
            if (st["active"] or F("QD-INACTIVE-EMITS")) and st["perfmev"]:
                out.append(self.emit(q, n, kind, c))
        return out

    def op_set_perfmev(self, op):
        st = self.qmgr(op["qmgr"], need_active=False)
        if not isinstance(op["enabled"], bool):
            raise WireError(11, "enabled must be a boolean")
        st["perfmev"] = op["enabled"]
        return {"ok": True}

    def op_reset_qstats(self, op):
        qm = op["qmgr"]
        st = self.qmgr(qm, need_active=False)
        q = self.queue(op["queue"])
        if not st["active"]:
            return {"ok": False, "reason": "NOT_ACTIVE"}
        if not F("QD-RESET-QSTATS-IGNORED"):
            q.stats[qm] = [0, 0]
        return {"ok": True}

    # -- queue managers ----------------------------------------------------------------
    def op_start_qmgr(self, op):
        st = self.qmgr(op["qmgr"], need_active=False)
        st["active"] = True
        return {"ok": True}

    def op_stop_qmgr(self, op):
        qm = op["qmgr"]
        st = self.qmgr(qm, need_active=False)
        if not st["active"]:
            return {"ok": True}
        self.end_uow(qm, commit=False)
        st["active"] = False
        for q in self.queues.values():
            if qm in q.stats:   # qstats_at_stop = "reset"
                q.stats[qm] = [0, 0]
            if q.cfstruct is None and q.owner == qm:
                # nonshared_at_stop = "lost": nonpersistent messages do not survive
                q.msgs = [m for m in q.msgs if m.persistent]
            elif q.cfstruct is not None and F("QUE-NP-LOST-ON-STOP"):
                q.msgs = [m for m in q.msgs if m.persistent or m.qmgr != qm]
        return {"ok": True}

    # -- backup / recovery ----------------------------------------------------------------
    def op_backup(self, op):
        qm = op["qmgr"]
        st = self.qmgr(qm, need_active=False)
        s = self.struct(op["cfstruct"])
        if not st["active"]:
            return {"ok": False, "reason": "NOT_ACTIVE"}
        if (s.cflevel < 3 and not F("REC-CFLEVEL2-BACKUP")) or not s.recover:
            return {"ok": False, "reason": "NOT_ALLOWED", "rules": ["RECOVERY-001"]}
        if s.status == "FAILED":
            return {"ok": False, "reason": "NOT_ALLOWED", "rules": ["RECOVERY-001"]}
        snap = {}
        for q in self.queues.values():
            if q.cfstruct == s.name:
                snap[q.name] = [copy_msg(m) for m in q.msgs
                                if m.committed and (m.persistent or F("REC-NONPERSIST-BACKED"))]
        s.backup = (snap, len(s.log))
        return {"ok": True}

    def op_fail_structure(self, op):
        s = self.struct(op["cfstruct"])
        if s.status == "FAILED":
            return {"ok": True}
        s.status = "FAILED"
        for q in self.queues.values():
            if q.cfstruct == s.name:
                q.msgs = []
        for qm in self.uow:
            self.uow[qm] = [e for e in self.uow[qm] if e[1].cfstruct != s.name]
        s.pool.en_used = s.pool.el_used = 0
        return {"ok": True}

    def op_recover(self, op):
        s = self.struct(op["cfstruct"])
        purge = op.get("purge", False)
        if s.cflevel < 3 or not s.recover:
            return {"ok": False, "reason": "NOT_ALLOWED", "rules": ["RECOVERY-005"]}
        if s.status != "FAILED" and not purge and not F("REC-NORMAL-NONFAILED"):
            return {"ok": False, "reason": "NOT_FAILED", "rules": ["RECOVERY-006"]}
        if purge:
            # recover_purge_nonfailed = "accepted": recover to an empty structure
            for q in self.queues.values():
                if q.cfstruct == s.name:
                    for m in list(q.msgs):
                        q.msgs.remove(m)
                        if m.pool is not None:
                            m.pool.free(m.en, m.el)
            for qm in self.uow:
                self.uow[qm] = [e for e in self.uow[qm] if e[1].cfstruct != s.name]
            s.pool.en_used = s.pool.el_used = 0
            s.status = "ACTIVE"
            return {"ok": True}
        if s.backup is None and not F("REC-NO-BACKUP-OK"):
            return {"ok": False, "reason": "NO_BACKUP", "rules": ["RECOVERY-007"]}
        snap, pos = s.backup if s.backup is not None else ({}, 0)
        state = {}
        for qn, lst in snap.items():
            state[qn] = [copy_msg(m) for m in lst]
        inactive = set(n for n, v in self.qmgrs.items() if not v["active"])
        for rec in s.log[pos:]:
            if F("REC-FORGET-STOPPED-LOG") and rec[3] in inactive:
                continue
            if rec[0] == "put":
                state.setdefault(rec[1], []).append(copy_msg(rec[2]))
            elif not F("REC-GETS-NOT-REPLAYED"):
                state[rec[1]] = [m for m in state.get(rec[1], []) if m.seq != rec[2]]
        s.status = "ACTIVE"
        s.pool.en_used = s.pool.el_used = 0
        for q in self.queues.values():
            if q.cfstruct != s.name:
                continue
            msgs = sorted(state.get(q.name, []), key=lambda m: m.seq)
            q.msgs = []
            for m in msgs:
                loc = "CF"
                if s.cflevel >= 5 and m.length > KB6375:
                    loc = s.offload or "SMDS"
                elif s.cflevel == 4 and m.length > KB6375:
                    loc = "DB2"
                m.loc = loc
                m.en = 1
                m.el = msg_elements(m.length) if loc == "CF" else OFFLOADED_ELEMENTS
                m.pool = s.pool
                s.pool.charge(m.en, m.el)
                q.msgs.append(m)
        return {"ok": True}

    # -- SETXCF alter ----------------------------------------------------------------------
    def op_setxcf_alter(self, op):
        s = self.struct(op["cfstruct"])
        new = op["size_kb"]
        if not is_int(new):
            raise WireError(11, "size_kb must be an integer")
        if s.status == "FAILED":
            return {"ok": False, "reason": "NOT_ACTIVE"}
        init = s.initsize_kb if s.initsize_kb is not None else s.size_kb
        cur = s.pool.kb
        # strict reading of "less than the value of SIZE ... but greater than the current
        # coupling facility size": below INITSIZE, exactly SIZE and not larger are refused
        if new > s.size_kb and not F("SIZ-ALTER-ABOVE-SIZE"):
            return {"ok": False, "reason": "OUT_OF_RANGE", "rules": ["SIZING-003"]}
        if new == s.size_kb and not F("SIZ-ALTER-AT-SIZE"):
            return {"ok": False, "reason": "OUT_OF_RANGE", "rules": ["SIZING-003"]}
        if new < init:
            return {"ok": False, "reason": "OUT_OF_RANGE", "rules": ["SIZING-003"]}
        if new <= cur:
            return {"ok": False, "reason": "OUT_OF_RANGE", "rules": ["SIZING-003"]}
        s.pool.kb = new
        s.pool.recompute()
        return {"ok": True, "usage": s.pool.usage()}

    # -- clock, z/OS monitor, CQS scans ----------------------------------------------------
    def op_advance_clock(self, op):
        sec = op["seconds"]
        if not is_int(sec) or sec < 0:
            raise bad_op("seconds", sec, ">= 0", "CLOCK")
        old = self.clock
        self.clock += sec
        signals = []
        if self.profile == "cqs":
            for name in self.struct_order:
                signals += self.cqs_scans(self.structs[name], old, self.clock)
        if sec > 0:
            signals += self.monitor()
        out = {"ok": True}
        if signals:
            out["signals"] = signals
        return out

    def monitor(self):
        """z/OS structure full monitoring (full_signal_timing = "deferred"): the state is
        sampled when virtual time passes, not at the step that crosses FULLTHRESHOLD."""
        sig = []
        for name in self.struct_order:
            s = self.structs[name]
            full = s.status == "ACTIVE" and s.pool.full(s.fullthreshold)
            if full and not s.full_reported:
                s.full_reported = True
                sig.append("IXC585E " + name)
            elif not full and s.full_reported:
                s.full_reported = False
                if not F("CAP-IXC586-MISSING"):
                    sig.append("IXC586I " + name)
        return sig

    # -- CQS ----------------------------------------------------------------------------
    def cqs_target_met(self, s, el_used):
        total = s.pool.el_total
        # cqs_target = "relative": 20% below the threshold is 0.8 x OVFLWMAX
        return 125 * el_used <= s.ovflwmax * total

    def part_charge(self, nbytes):
        return 1, msg_elements(nbytes)

    def cqs_put(self, op):
        qm = op["qmgr"]
        self.qmgr(qm)
        q = self.queue(op["queue"])
        s = self.structs[q.cfstruct]
        length = op["length"]
        tag = op.get("tag", 0)
        if q.overflow and s.ovflwstr is None and not F("CQS-PUT-ACCEPTED-NOSTR"):
            return {"ok": False, "reason": "REJECTED_OVERFLOW", "rules": ["CQS-007"]}
        # parts: the first on the queue, the rest on the staging queue (primary)
        first = min(length, self.lgmsgsz)
        rest = []
        left = length - first
        while left > 0:
            p = min(left, self.lgmsgsz)
            rest.append(self.part_charge(p))
            left -= p
        to_ovf = q.overflow and s.ovflwstr is not None and s.ovpool is not None
        target = s.ovpool if to_ovf else s.pool
        en, el = self.part_charge(first)
        sen = sum(x[0] for x in rest)
        sel = sum(x[1] for x in rest)
        if to_ovf:
            ok = target.fits(en, el) and s.pool.fits(sen, sel)
        else:
            ok = s.pool.fits(en + sen, el + sel)
        if not ok:
            return {"ok": False, "reason": "STRUCTURE_FULL", "rules": ["CQS-008"],
                    "usage": s.pool.usage()}
        m = Msg(self.nextseq(), tag, length, False, qm)
        m.en, m.el, m.pool = en, el, target
        target.charge(en, el)
        m.staging = rest
        for a, b in rest:
            s.pool.charge(a, b)
        s.staging_depth += len(rest)
        q.msgs.append(m)
        signals = self.cqs_check_threshold(s)
        out = {"ok": True, "usage": target.usage()}
        if signals:
            out["signals"] = signals
        return out

    def cqs_check_threshold(self, s):
        if s.resource and not F("CQS-RESOURCE-OVERFLOW"):
            return []
        if s.overflow_mode or s.alter_pending:
            return []   # cqs_reselect = "none"
        used, total = s.pool.el_used, s.pool.el_total
        if F("CQS-THRESHOLD-STRICT"):
            reached = 100 * used > s.ovflwmax * total
        else:
            reached = 100 * used >= s.ovflwmax * total
        if not reached:
            return []
        if F("CQS-NO-ALTER-FIRST"):
            return self.cqs_enter_overflow(s)
        s.alter_pending = True   # cqs_alter = "async": z/OS answers later
        return ["ALTER " + s.name]

    def cqs_get(self, op):
        qm = op["qmgr"]
        self.qmgr(qm)
        q = self.queue(op["queue"])
        s = self.structs[q.cfstruct]
        if not q.msgs:
            return {"ok": False, "reason": "NO_MSG", "rules": ["CQS-010"]}
        m = q.msgs.pop(0)
        m.pool.free(m.en, m.el)
        for a, b in m.staging:
            s.pool.free(a, b)
        s.staging_depth -= len(m.staging)
        out = {"ok": True, "tag": m.tag, "usage": m.pool.usage()}
        # cqs_relief_timing = "by-scan": leaving overflow mode waits for the scan
        return out

    def op_alter_outcome(self, op):
        s = self.struct(op["cfstruct"])
        if not s.alter_pending:
            return {"ok": False, "reason": "NO_ALTER_PENDING"}
        if not isinstance(op["success"], bool):
            raise WireError(11, "success must be a boolean")
        size = op.get("size_kb")
        if op["success"]:
            if size is None:
                size = s.size_kb
            if not is_int(size) or size < 1 or size > s.size_kb:
                raise bad_op("size_kb", size, "1..%d (SIZE)" % s.size_kb, "CQS-003")
            s.alter_pending = False
            if size > s.pool.kb:
                s.pool.kb = size
                s.pool.recompute()
            return {"ok": True, "usage": s.pool.usage()}
        s.alter_pending = False
        sig = self.cqs_enter_overflow(s)
        out = {"ok": True}
        if sig:
            out["signals"] = sig
        return out

    def cqs_enter_overflow(self, s):
        sig = ["OVERFLOW_ON " + s.name]
        s.overflow_mode = True
        s.overflow_start = self.clock
        # candidates: the queues using the most space on the primary structure
        cands = []
        for idx, qn in enumerate(sorted(self.queues)):
            q = self.queues[qn]
            if q.cfstruct != s.name or q.overflow:
                continue
            el = sum(m.el for m in q.msgs if m.pool is s.pool)
            if F("CQS-STAGING-MOVED"):
                el += sum(b for m in q.msgs for a, b in m.staging)
            if el > 0:
                cands.append((el, qn))
        if F("CQS-SELECT-LEAST"):
            cands.sort(key=lambda x: (x[0], x[1]))
        else:
            cands.sort(key=lambda x: (-x[0], x[1]))
        projected = s.pool.el_used
        vetoes = self.exit_vetoes
        for i, (el, qn) in enumerate(cands):
            if self.cqs_target_met(s, projected):
                break
            if F("CQS-STOP-EARLY") and i == len(cands) - 1 and i > 0:
                break
            if vetoes is not None and qn in vetoes:
                if F("CQS-VETO-STOPS"):
                    break
                continue
            q = self.queues[qn]
            q.overflow = True
            s.overflow_queues.append(qn)
            sig.append("OVERFLOW_QUEUE %s %s" % (s.name, qn))
            projected -= el
            if s.ovflwstr is not None:
                if s.ovpool is None:
                    s.ovpool = Pool(s.ovflw_size_kb, s.ratio)
                for m in q.msgs:
                    if m.pool is s.pool:
                        s.pool.free(m.en, m.el)
                        s.ovpool.charge(m.en, m.el)
                        m.pool = s.ovpool
                    if F("CQS-STAGING-MOVED") and m.staging:
                        for a, b in m.staging:
                            s.pool.free(a, b)
                            s.ovpool.charge(a, b)
                        s.staging_depth -= len(m.staging)
                        m.staging = []
        return sig

    def scan_times(self, s, old, new):
        if F("CQS-SCAN-NEVER"):
            return []
        # cqs_scan_anchor = "overflow-start"
        t0 = s.overflow_start
        k = (old - t0) // SCAN + 1
        out = []
        while t0 + k * SCAN <= new:
            out.append(t0 + k * SCAN)
            k += 1
            if len(out) > 2:
                break
        return out

    def cqs_scans(self, s, old, new):
        sig = []
        for _t in self.scan_times(s, old, new) if s.overflow_mode else []:
            if not s.overflow_mode:
                break
            if s.ovflwstr is not None:
                for qn in list(s.overflow_queues):
                    q = self.queues[qn]
                    if not q.msgs:
                        q.overflow = False
                        s.overflow_queues.remove(qn)
                        sig.append("OVERFLOW_QUEUE_OFF %s %s" % (s.name, qn))
                if not s.overflow_queues:
                    # cqs_empty_overflow = "next-scan" also for a mode that selected nothing
                    s.overflow_mode = False
                    sig.append("OVERFLOW_OFF " + s.name)
            else:
                if self.cqs_target_met(s, s.pool.el_used):
                    for qn in s.overflow_queues:
                        self.queues[qn].overflow = False
                    s.overflow_queues = []
                    s.overflow_mode = False
                    sig.append("OVERFLOW_OFF " + s.name)
        return sig

    def op_set_overflow_exit(self, op):
        v = op.get("vetoes", None)
        if v is not None and (not isinstance(v, list) or not all(isinstance(x, str) for x in v)):
            raise WireError(11, "vetoes must be a list of names or null")
        self.exit_vetoes = v
        return {"ok": True}

    # -- inspect ------------------------------------------------------------------------
    def op_inspect(self, op):
        st = {}
        for name in self.struct_order:
            s = self.structs[name]
            u = s.pool.usage()
            d = {"status": s.status, "size_kb": s.pool.kb, "entries_used": u[0],
                 "entries_total": u[1], "elements_used": u[2], "elements_total": u[3],
                 "full_warning": s.full_reported}
            if self.profile == "cqs":
                d["alter_pending"] = s.alter_pending
                d["overflow_mode"] = s.overflow_mode
                d["overflow_queues"] = sorted(s.overflow_queues)
                d["staging_depth"] = s.staging_depth
            else:
                pad = self.qsg
                if not F("TOP-CFNAME-NOPAD"):
                    pad = (self.qsg + "@@@@")[:4]
                d["cfname"] = pad + name
            st[name] = d
        qs = {}
        for name in sorted(self.queues):
            q = self.queues[name]
            if self.profile == "cqs":
                qs[name] = {"depth": len(q.msgs), "overflow": q.overflow}
            else:
                qs[name] = {"depth": q.depth(), "qdphiev": q.qdphiev, "qdploev": q.qdploev,
                            "qdpmaxev": q.qdpmaxev}
        qm = {}
        for name in self.qmgr_order:
            qm[name] = {"active": self.qmgrs[name]["active"], "perfmev": self.qmgrs[name]["perfmev"]}
        v = {"clock": self.clock, "structures": st, "queues": qs, "qmgrs": qm}
        if self.profile == "mq":
            ent = admin_entries(self.admin_kb)
            if F("SIZ-ADMIN-ENTRIES"):
                ent = min(ent, 999 * len(self.qmgr_order))
            v["admin"] = {"size_kb": self.admin_kb, "entries_total": ent}
        return {"ok": True, "value": v}


# ----------------------------------------------------------------------------- op checking
OP_FIELDS = {
    "define_structure": ({"structure": dict}, {}),
    "alter_structure": ({"name": str, "changes": dict}, {}),
    "define_queue": ({"queue": dict}, {}),
    "alter_queue": ({"name": str, "changes": dict}, {}),
    "put": ({"qmgr": str, "queue": str, "length": int},
            {"persistent": bool, "syncpoint": bool, "tag": int}),
    "get": ({"qmgr": str, "queue": str}, {"syncpoint": bool}),
    "commit": ({"qmgr": str}, {}),
    "backout": ({"qmgr": str}, {}),
    "set_perfmev": ({"qmgr": str, "enabled": bool}, {}),
    "reset_qstats": ({"qmgr": str, "queue": str}, {}),
    "start_qmgr": ({"qmgr": str}, {}),
    "stop_qmgr": ({"qmgr": str}, {}),
    "backup": ({"qmgr": str, "cfstruct": str}, {}),
    "fail_structure": ({"cfstruct": str}, {}),
    "recover": ({"cfstruct": str}, {"purge": bool}),
    "setxcf_alter": ({"cfstruct": str, "size_kb": int}, {}),
    "alter_outcome": ({"cfstruct": str, "success": bool}, {"size_kb": (int, type(None))}),
    "set_overflow_exit": ({}, {"vetoes": (list, type(None))}),
    "advance_clock": ({"seconds": int}, {}),
    "inspect": ({}, {}),
}


def type_ok(v, t):
    if t is int:
        return is_int(v)
    if isinstance(t, tuple):
        return any(type_ok(v, x) for x in t)
    if t is bool:
        return isinstance(v, bool)
    return isinstance(v, t)


def check_op(op):
    if not isinstance(op, dict):
        raise WireError(11, "an operation must be an object")
    kind = op.get("op")
    if not isinstance(kind, str):
        raise WireError(11, "operation without a string 'op'")
    if kind not in OP_FIELDS:
        raise WireError(11, "unknown operation kind %r" % kind)
    req, opt = OP_FIELDS[kind]
    for k, t in req.items():
        if k not in op:
            raise WireError(11, "%s: missing field %r" % (kind, k))
        if not type_ok(op[k], t):
            raise WireError(11, "%s: field %r has the wrong type" % (kind, k))
    for k, v in op.items():
        if k == "op" or k in req:
            continue
        if k not in opt:
            raise WireError(11, "%s: unknown field %r" % (kind, k))
        if not type_ok(v, opt[k]):
            raise WireError(11, "%s: field %r has the wrong type" % (kind, k))


# ----------------------------------------------------------------------------- capabilities
READINGS = {
    "cqs_target": "relative",
    "cqs_usage_metric": "elements",
    "cqs_reselect": "unknown",            # followed: none
    "cqs_scan_anchor": "overflow-start",
    "offload_compare": "strict",
    "offload_usage_metric": "unknown",    # followed: elements
    "forced_offload_boundary": "63.75K",
    "persistent_low_cflevel_rc": "2366",
    "large_low_cflevel_rc": "unknown",    # followed: 2366
    "qdepth_percent": "unknown",          # followed: ceil
    "qfull_hi_flag": "unchanged",
    "event_broadcast": "unknown",         # followed: if-coordinator-enabled
    "recover_purge_nonfailed": "accepted",
    "alter_below_initsize": "rejected",
    "cflevel5_decrease": "unknown",       # followed: guarded
    "alter_at_size": "rejected",
    "alter_not_larger": "rejected",
    "full_signal_timing": "deferred",
    "cqs_alter": "async",
    "cqs_empty_overflow": "next-scan",
    "cqs_relief_timing": "by-scan",
    "offload_after_raise": "unknown",     # followed: off
    "qstats_at_stop": "unknown",          # followed: reset
    "nonshared_at_stop": "lost",
}


def capabilities():
    return {"name": "eleventh-reading", "protocol_version": PROTOCOL_VERSION,
            "profiles": ["mq", "cqs"],
            "families": ["CQS", "OFFLOAD", "CFLEVEL", "CAPACITY", "TOPOLOGY", "SIZING", "QDEPTH",
                         "RECOVERY", "QUEUE"],
            "readings": dict(READINGS), "reason_codes": "exact",
            "observes": ["usage", "events", "signals", "inspect"]}


# ----------------------------------------------------------------------------- server
def clean_outcome(o):
    out = {}
    for k, v in o.items():
        if v is None:
            continue
        if k in ("events", "signals", "rules") and not v:
            continue
        out[k] = v
    return out


class Server(object):
    def __init__(self, out):
        self.out = out
        self.inited = False
        self.model = None
        self.peer_max = MAX_LINE

    def send(self, msg):
        line = json.dumps(msg, separators=(",", ":"), allow_nan=False, sort_keys=True)
        self.out.write(line + "\n")
        self.out.flush()

    def error(self, rid, code, text, detail=None):
        m = {"type": "error", "in_reply_to": rid, "code": code, "text": text,
             "definite": DEFINITE.get(code, True)}
        if detail is not None:
            m["detail"] = detail
        self.send(m)

    def run_op(self, op):
        check_op(op)
        try:
            return clean_outcome(self.model.apply(op))
        except WireError:
            raise
        except Exception as e:  # internal failure: indefinite
            raise WireError(12, "internal failure: %s: %s" % (type(e).__name__, e))

    def handle(self, line):
        try:
            req = json.loads(line)
        except ValueError:
            return self.error(None, 11, "not JSON")
        if not isinstance(req, dict):
            return self.error(None, 11, "not an object")
        rid = req.get("msg_id")
        if not is_int(rid) or rid < 0:
            return self.error(None, 11, "no readable msg_id")
        t = req.get("type")
        if t not in ("init", "open", "apply", "batch", "close"):
            return self.error(rid, 11, "unknown message type %r" % (t,))
        if t == "init":
            if self.inited:
                return self.error(rid, 15, "second init")
            v = req.get("protocol_version")
            if not isinstance(v, str) or v.split(".")[0] != "1":
                return self.error(rid, 16, "protocol version %r not spoken (1.x)" % (v,))
            mlb = req.get("max_line_bytes")
            if is_int(mlb) and mlb >= 1024:
                self.peer_max = mlb
            self.inited = True
            return self.send({"type": "init_ok", "in_reply_to": rid, "protocol_version": PROTOCOL_VERSION,
                              "capabilities": capabilities(), "max_line_bytes": MAX_LINE})
        if not self.inited:
            return self.error(rid, 15, "init must come first")
        if t == "close":
            self.send({"type": "close_ok", "in_reply_to": rid})
            return "exit"
        if t == "open":
            cfg = req.get("config")
            self.model = None
            try:
                if not isinstance(cfg, dict):
                    raise WireError(11, "config must be an object")
                self.model = Model(cfg)
            except WireError as e:
                return self.error(rid, e.code, e.text, e.detail)
            except Exception as e:
                return self.error(rid, 13, "bad config: %s: %s" % (type(e).__name__, e))
            return self.send({"type": "open_ok", "in_reply_to": rid})
        if self.model is None:
            return self.error(rid, 15, "no successful open")
        if t == "apply":
            try:
                o = self.run_op(req.get("op"))
            except WireError as e:
                return self.error(rid, e.code, e.text, e.detail)
            return self.send_limited({"type": "apply_ok", "in_reply_to": rid, "outcome": o}, rid)
        ops = req.get("ops")
        if not isinstance(ops, list) or not ops:
            return self.error(rid, 11, "batch needs a non-empty list 'ops'")
        outs = []
        err = None
        for op in ops:
            try:
                outs.append(self.run_op(op))
            except WireError as e:
                err = {"code": e.code, "text": e.text, "definite": DEFINITE.get(e.code, True)}
                if e.detail is not None:
                    err["detail"] = e.detail
                break
        msg = {"type": "batch_ok", "in_reply_to": rid, "outcomes": outs}
        if err is not None:
            msg["error"] = err
        line = json.dumps(msg, separators=(",", ":"))
        if len(line.encode("utf-8")) <= self.peer_max:
            return self.send(msg)
        # keep a prefix that fits; the remaining operations were applied all the same,
        # so only a reply that cannot carry even one outcome is reported as error 18
        while len(outs) > 1 and len(json.dumps(msg, separators=(",", ":")).encode("utf-8")) > self.peer_max:
            outs.pop()
            msg.pop("error", None)
        if len(json.dumps(msg, separators=(",", ":")).encode("utf-8")) > self.peer_max:
            return self.error(rid, 18, "reply too large")
        return self.send(msg)

    def send_limited(self, msg, rid):
        line = json.dumps(msg, separators=(",", ":"))
        if len(line.encode("utf-8")) > self.peer_max:
            return self.error(rid, 18, "reply too large")
        return self.send(msg)


def main(argv):
    global FAULT
    if "--list-faults" in argv:
        for f in FAULT_IDS:
            print(f)
        return 0
    if "--fault" in argv:
        i = argv.index("--fault")
        if i + 1 >= len(argv) or argv[i + 1] not in FAULT_IDS:
            sys.stderr.write("unknown fault\n")
            return 2
        FAULT = argv[i + 1]
    inp = sys.stdin.buffer
    srv = Server(sys.stdout)
    while True:
        raw = inp.readline()
        if not raw:
            break
        body = raw[:-1] if raw.endswith(b"\n") else raw
        if body.endswith(b"\r"):
            body = body[:-1]
        if len(body) > MAX_LINE:
            srv.error(None, 17, "request line over %d bytes" % MAX_LINE)
            continue
        if not body.strip():
            continue
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            srv.error(None, 11, "not UTF-8")
            continue
        try:
            r = srv.handle(text)
        except Exception as e:   # never die on a request
            sys.stderr.write("internal: %r\n" % (e,))
            srv.error(None, 12, "internal failure")
            r = None
        if r == "exit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
