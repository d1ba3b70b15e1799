#!/usr/bin/env python3
"""third-reading: an independent implementation of IBM coupling-facility shared
queues (IBM MQ for z/OS shared queues, profile "mq"; IMS CQS structures, profile
"cqs"), written from IBM's documents only, speaking the cfconform JSON-lines wire
protocol 1.2 on stdin/stdout.

Standard library only.  Run:  python3 examples/third-reading/impl.py
See README.md next to this file for the readings chosen, the storage accounting
and every decision the documents leave open.
"""

import json
import re
import sys

PROTOCOL_VERSION = "1.2"
MY_MAX_LINE = 1048576

# --------------------------------------------------------------------------
# Readings (one per ambiguity ID of docs/schemas/capabilities.json)
# --------------------------------------------------------------------------
READINGS = {
    "cqs_target": "relative",               # 20% below OVFLWMAX = 0.8 x OVFLWMAX
    "cqs_usage_metric": "elements",         # OVFLWMAX measures data elements
    "cqs_scan_anchor": "overflow-start",    # scans every 900 s after overflow starts
    "offload_compare": "inclusive",         # usage >= THn and length >= SZn
    "offload_usage_metric": "combined",     # storage-weighted entries+elements
    "forced_offload_boundary": "63.75K",    # > 65 280 bytes always offloaded
    "persistent_low_cflevel_rc": "2366",    # persistent put, CFLEVEL(1)/(2)
    "large_low_cflevel_rc": "2366",         # > 63 KB put, CFLEVEL < 4
    "qdepth_percent": "floor",              # limit = floor(pct * MAXDEPTH / 100)
    "qfull_hi_flag": "disabled",            # Queue Full also disables QDPHIEV
    "event_broadcast": "if-coordinator-enabled",
    "recover_purge_nonfailed": "rejected",
    "alter_below_initsize": "rejected",
    "cflevel5_decrease": "guarded",
    "alter_at_size": "rejected",            # SETXCF newsize must be < SIZE
    "alter_not_larger": "rejected",         # ... and > the current size
    "full_signal_timing": "at-crossing",
    "cqs_alter": "async",
    "cqs_empty_overflow": "ends",
    "nonshared_at_stop": "lost",
}

CAPABILITIES = {
    "name": "third-reading",
    "protocol_version": PROTOCOL_VERSION,
    "profiles": ["mq", "cqs"],
    "families": ["CQS", "OFFLOAD", "CFLEVEL", "CAPACITY", "TOPOLOGY", "SIZING",
                 "QDEPTH", "RECOVERY", "QUEUE"],
    "readings": dict(READINGS),
    "reason_codes": "exact",
    "observes": ["usage", "events", "signals", "inspect"],
}

# --------------------------------------------------------------------------
# Storage accounting (this implementation's own; see README "Accounting")
# --------------------------------------------------------------------------
ELEMENT_DATA = 512        # bytes of message data one list element holds
ELEMENT_COST = 592        # CF storage one element costs (data + controls)
ENTRY_COST = 176          # CF storage one list entry costs (controls, adjunct)
FIXED_KB = 4608           # structure controls not available for entries/elements
OFFLOADED_ELEMENTS = 1    # an offloaded message keeps 1 entry + 1 element (0.75 KB)

CF_LIMIT_63K = 63 * 1024            # 64 512: "bigger than 63 KB" (MQRC 2366)
CF_LIMIT_6375K = 65280              # 63.75 KB: too large for the structure
RULE_OFF_SZ = 64 * 1024             # OFFLDnSZ(64K): rule not in effect
MQ_MAX_MSG = 100 * 1024 * 1024      # 100 MB
MAXDEPTH_MAX = 999999999

# Table 1 (seed 001), minimum CSQ_ADMIN sizes in KB, CFCC level 14
ADMIN_CFCC14 = [6144, 6912, 7976, 8704, 9728, 10496, 11520, 12288, 13056, 14080,
                14848, 15616, 16640, 17408, 18176, 19200, 19968, 20736, 21760,
                22528, 23296, 24320, 25088, 25856, 27136, 27904, 28672, 29696,
                30464, 31232, 32256]
# MQ V6 (CFCC level 9) edition: only some rows are published (ibm-facts 6.2)
ADMIN_CFCC9_POINTS = {1: 2560, 2: 3328, 4: 4608, 8: 7680, 16: 13568, 31: 24832}
ADMIN_FIXED_KB = {"cfcc14": FIXED_KB, "cfcc9": 1536}
ADMIN_ENTRY_COST = ENTRY_COST + ELEMENT_COST   # one element per admin entry
ADMIN_TABLE_ALIASES = {"cfcc14": "cfcc14", "14": "cfcc14", "current": "cfcc14",
                       "cfcc9": "cfcc9", "9": "cfcc9", "v6": "cfcc9", "V6": "cfcc9"}

MAX_QMGRS = 32
MAX_APP_STRUCTS = 63          # 64 per QSG including CSQ_ADMIN
MAX_QUEUES_PER_STRUCT = 512
SCAN_INTERVAL = 900           # CQS overflow scan, 15 minutes

MQ_STRUCT_NAME = re.compile(r"^[A-Z][A-Z0-9]{0,11}$")
CQS_STRUCT_NAME = re.compile(r"^[A-Z][A-Z0-9@#$_]{0,15}$")
MQ_QUEUE_NAME = re.compile(r"^[A-Za-z0-9._/%]{1,48}$")
CQS_QUEUE_NAME = re.compile(r"^[A-Za-z0-9@#$._/%]{1,48}$")

ERROR_DEFINITE = {10: True, 11: True, 12: False, 13: True, 14: True, 15: True,
                  16: True, 17: True, 18: False, 19: True, 20: False}


class WireError(Exception):
    def __init__(self, code, text, detail=None):
        super().__init__(text)
        self.code = code
        self.text = text
        self.detail = detail

    def as_dict(self):
        d = {"code": self.code, "text": self.text,
             "definite": ERROR_DEFINITE.get(self.code, True)}
        if self.detail is not None:
            d["detail"] = self.detail
        return d


def invalid_op(field, value, allowed):
    return WireError(14, "%s=%r is invalid: allowed %s" % (field, value, allowed),
                     {"field": field, "value": value, "allowed": allowed})


def bad_config(field, value, allowed):
    return WireError(13, "config %s=%r is invalid: allowed %s" % (field, value, allowed),
                     {"field": field, "value": value, "allowed": allowed})


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def ceil_div(a, b):
    return -(-a // b)


# --------------------------------------------------------------------------
# Record defaults and field types (docs/schemas/config.json)
# --------------------------------------------------------------------------
T_STR, T_INT, T_BOOL, T_NUM = "string", "integer", "boolean", "number"
T_STR_N, T_INT_N, T_LIST_STR_N, T_LIST_STR, T_DICT, T_LIST = (
    "string|null", "integer|null", "list[string]|null", "list[string]", "object", "list")

STRUCT_FIELDS = {
    "name": (T_STR, None), "size_kb": (T_INT, 8192), "initsize_kb": (T_INT_N, None),
    "fullthreshold": (T_INT, 80), "ratio": (T_INT, 6), "cflevel": (T_INT, 3),
    "recover": (T_BOOL, False), "offload": (T_STR_N, None),
    "offld1th": (T_INT, 70), "offld1sz": (T_INT, 32768),
    "offld2th": (T_INT, 80), "offld2sz": (T_INT, 4096),
    "offld3th": (T_INT, 90), "offld3sz": (T_INT, 0),
    "ovflwmax": (T_INT_N, None), "ovflwstr": (T_STR_N, None),
    "ovflw_size_kb": (T_INT, 8192), "resource": (T_BOOL, False),
}
QUEUE_FIELDS = {
    "name": (T_STR, None), "cfstruct": (T_STR_N, None), "qmgr": (T_STR_N, None),
    "maxdepth": (T_INT, 999999999), "maxmsgl": (T_INT, 4194304),
    "qdepthhi": (T_INT, 80), "qdepthlo": (T_INT, 20),
    "qdphiev": (T_BOOL, False), "qdploev": (T_BOOL, False), "qdpmaxev": (T_BOOL, False),
}
ACCOUNTING_FIELDS = {"element_bytes": T_INT, "entry_bytes": T_INT, "header_bytes": T_INT,
                     "overhead": T_NUM, "fixed_kb": T_INT, "offloaded_elements": T_INT}
CONFIG_FIELDS = {
    "profile": (T_STR, "mq"), "qsg": (T_STR, "QSG1"),
    "qmgrs": (T_LIST_STR, ["QM01", "QM02", "QM03"]),
    "structures": (T_LIST, None), "queues": (T_LIST, []),
    "readings": (T_DICT, {}), "accounting": (T_DICT, {}),
    "lgmsgsz": (T_INT, 4096), "overflow_exit": (T_LIST_STR_N, None),
    "perfmev_disabled": (T_LIST_STR, []), "admin_size_kb": (T_INT_N, None),
    "admin_table": (T_STR, "cfcc14"),
}


def type_ok(kind, v):
    if kind == T_STR:
        return isinstance(v, str)
    if kind == T_INT:
        return is_int(v)
    if kind == T_BOOL:
        return isinstance(v, bool)
    if kind == T_NUM:
        return (is_int(v) or isinstance(v, float))
    if kind == T_STR_N:
        return v is None or isinstance(v, str)
    if kind == T_INT_N:
        return v is None or is_int(v)
    if kind == T_LIST_STR_N:
        return v is None or (isinstance(v, list) and all(isinstance(x, str) for x in v))
    if kind == T_LIST_STR:
        return isinstance(v, list) and all(isinstance(x, str) for x in v)
    if kind == T_DICT:
        return isinstance(v, dict)
    if kind == T_LIST:
        return isinstance(v, list)
    return False


def fill_record(rec, fields):
    """Returns (filled, problem) where problem is (field, value, allowed) or None."""
    if not isinstance(rec, dict):
        return None, ("record", rec, "an object")
    for k in rec:
        if k not in fields:
            return None, (k, rec[k], "a known field: " + ", ".join(sorted(fields)))
    out = {}
    for k, (kind, default) in fields.items():
        if k in rec:
            v = rec[k]
            if not type_ok(kind, v):
                return None, (k, v, kind)
            out[k] = v
        else:
            if k == "name":
                return None, ("name", None, "a name (required)")
            out[k] = list(default) if isinstance(default, list) else default
    return out, None


# --------------------------------------------------------------------------
# State objects
# --------------------------------------------------------------------------
class Structure:
    def __init__(self, rec, is_overflow_of=None):
        self.rec = rec
        self.name = rec["name"]
        self.is_overflow_of = is_overflow_of
        self.size_kb = rec["initsize_kb"] if rec["initsize_kb"] is not None else rec["size_kb"]
        self.status = "ACTIVE"
        self.entries_used = 0
        self.elements_used = 0
        self.entries_total = 0
        self.elements_total = 0
        self.full_warning = False
        self.has_backup = False
        self.failure_snapshot = None      # committed persistent messages at failure
        # CQS
        self.alter_pending = False
        self.overflow_mode = False
        self.overflow_queues = []
        self.overflow_started = None
        self.next_scan = None
        self.overflow_struct = None       # Structure once allocated
        self._ovf_start_el = 0            # usage when overflow mode began
        self._ovf_start_en = 0
        self.staging = {}                 # msg id -> Message (2nd and later parts)
        self.recompute_totals()

    # geometry -------------------------------------------------------------
    def recompute_totals(self):
        ratio = max(1, self.rec["ratio"])
        usable = max(0, (self.size_kb - FIXED_KB) * 1024)
        unit = ENTRY_COST + ratio * ELEMENT_COST
        self.entries_total = usable // unit
        self.elements_total = self.entries_total * ratio

    def usage(self):
        return [self.entries_used, self.entries_total, self.elements_used, self.elements_total]

    def fits(self, entries, elements):
        return (self.entries_used + entries <= self.entries_total
                and self.elements_used + elements <= self.elements_total)

    def alloc(self, entries, elements):
        self.entries_used += entries
        self.elements_used += elements

    def free(self, entries, elements):
        self.entries_used = max(0, self.entries_used - entries)
        self.elements_used = max(0, self.elements_used - elements)

    def combined_storage(self):
        used = self.entries_used * ENTRY_COST + self.elements_used * ELEMENT_COST
        total = self.entries_total * ENTRY_COST + self.elements_total * ELEMENT_COST
        return used, total

    def full_reached(self):
        ft = self.rec["fullthreshold"]
        if ft <= 0:
            return False
        e = self.entries_total > 0 and 100 * self.entries_used >= ft * self.entries_total
        l = self.elements_total > 0 and 100 * self.elements_used >= ft * self.elements_total
        return e or l

    def check_full(self, signals):
        """z/OS structure-full monitoring: IXC585E when entries or elements in use
        reach FULLTHRESHOLD, IXC586I when usage goes back below it."""
        if self.status != "ACTIVE":
            return
        reached = self.full_reached()
        if reached and not self.full_warning:
            self.full_warning = True
            signals.append("IXC585E " + self.name)
        elif not reached and self.full_warning:
            self.full_warning = False
            signals.append("IXC586I " + self.name)


class Queue:
    def __init__(self, rec, owner):
        self.rec = rec
        self.name = rec["name"]
        self.cfstruct = rec["cfstruct"]
        self.owner = owner                 # nonshared: owning queue manager
        self.maxdepth = rec["maxdepth"]
        self.maxmsgl = rec["maxmsgl"]
        self.qdepthhi = rec["qdepthhi"]
        self.qdepthlo = rec["qdepthlo"]
        self.qdphiev = rec["qdphiev"]
        self.qdploev = rec["qdploev"]
        self.qdpmaxev = rec["qdpmaxev"]
        self.messages = {}                 # id -> Message, in arrival order
        self.depth = 0                     # CURDEPTH: not counting syncpoint gets
        self.stats = {}                    # qmgr -> [enq, deq]
        self.overflow = False              # CQS

    @property
    def shared(self):
        return self.cfstruct is not None

    def stat(self, qmgr):
        s = self.stats.get(qmgr)
        if s is None:
            s = self.stats[qmgr] = [0, 0]
        return s


class Message:
    __slots__ = ("id", "tag", "length", "persistent", "queue", "struct", "entries",
                 "elements", "offloaded", "location", "state", "uow",
                 "staging_parts", "staging_elements")

    def __init__(self, mid, tag, length, persistent, queue):
        self.id = mid
        self.tag = tag
        self.length = length
        self.persistent = persistent
        self.queue = queue
        self.struct = None          # name of the structure holding the entry
        self.entries = 0
        self.elements = 0
        self.offloaded = False
        self.location = None
        self.state = "available"    # pending (syncpoint put) | available | locked
        self.uow = None
        self.staging_parts = 0      # CQS: parts on the staging queue
        self.staging_elements = 0


class QMgr:
    def __init__(self, name, perfmev):
        self.name = name
        self.active = True
        self.perfmev = perfmev
        self.uow = []               # list of ("put"|"get", Message)


# --------------------------------------------------------------------------
# Validation of structure and queue records
# --------------------------------------------------------------------------
def structure_problem(rec, profile, strict):
    """Returns (field, value, allowed) for an invalid structure record, else None.
    strict: cross-field rules (a DEFINE command) as well as single-field ranges."""
    name = rec["name"]
    if profile == "mq":
        if not MQ_STRUCT_NAME.match(name):
            return ("name", name, "1-12 characters, A-Z first, then A-Z 0-9 (not CSQ_ADMIN)")
    else:
        if not CQS_STRUCT_NAME.match(name):
            return ("name", name, "1-16 characters, A-Z first, then A-Z 0-9 @ # $ _")
    if rec["size_kb"] < 1:
        return ("size_kb", rec["size_kb"], "a positive size in KB")
    ini = rec["initsize_kb"]
    if ini is not None and (ini < 1 or ini > rec["size_kb"]):
        return ("initsize_kb", ini, "1..size_kb")
    if not 0 <= rec["fullthreshold"] <= 100:
        return ("fullthreshold", rec["fullthreshold"], "0..100")
    if rec["ratio"] < 1:
        return ("ratio", rec["ratio"], ">= 1")
    if not 1 <= rec["cflevel"] <= 5:
        return ("cflevel", rec["cflevel"], "1..5")
    if rec["offload"] is not None and rec["offload"] not in ("SMDS", "DB2"):
        return ("offload", rec["offload"], "SMDS or DB2")
    for n in (1, 2, 3):
        th, sz = rec["offld%dth" % n], rec["offld%dsz" % n]
        if not 0 <= th <= 100:
            return ("offld%dth" % n, th, "0..100")
        if not 0 <= sz <= RULE_OFF_SZ:
            return ("offld%dsz" % n, sz, "0..65536 bytes (0K..64K)")
    om = rec["ovflwmax"]
    if om is not None and not 0 <= om <= 100:
        return ("ovflwmax", om, "0..100")
    ov = rec["ovflwstr"]
    if ov is not None and profile == "cqs":
        if not CQS_STRUCT_NAME.match(ov) or ov == name:
            return ("ovflwstr", ov, "a structure name other than the primary's")
    if rec["ovflw_size_kb"] < 1:
        return ("ovflw_size_kb", rec["ovflw_size_kb"], "a positive size in KB")
    if strict and profile == "mq":
        if rec["recover"] and rec["cflevel"] < 3:
            return ("recover", True, "RECOVER(YES) needs CFLEVEL(3) or higher")
        if rec["offload"] is not None and rec["cflevel"] < 5:
            return ("offload", rec["offload"], "OFFLOAD only from CFLEVEL(5)")
    return None


# --------------------------------------------------------------------------
# The implementation state
# --------------------------------------------------------------------------
class State:
    def __init__(self, cfg, send_location):
        self.send_location = send_location
        self.profile = cfg["profile"]
        self.qsg = cfg["qsg"]
        self.order = list(cfg["qmgrs"])
        disabled = set(cfg["perfmev_disabled"])
        self.qmgrs = {n: QMgr(n, n not in disabled) for n in self.order}
        self.structs = {}
        self.queues = {}
        self.clock = 0
        self.next_msg = 0
        self.correl = 0
        self.lgmsgsz = normalise_lgmsgsz(cfg["lgmsgsz"])
        self.vetoes = cfg["overflow_exit"]
        self.admin_table = cfg["_admin_table"]
        self.admin_size_kb = cfg["_admin_size_kb"]
        for s in cfg["structures"]:
            self.structs[s["name"]] = Structure(s)
        for q in cfg["queues"]:
            self.queues[q["name"]] = Queue(q, q["_owner"])

    # ---------------------------------------------------------------- helpers
    def qmgr(self, name, field="qmgr"):
        q = self.qmgrs.get(name)
        if q is None:
            raise invalid_op(field, name, "one of %r" % self.order)
        return q

    def queue(self, name, field="queue"):
        q = self.queues.get(name)
        if q is None:
            raise invalid_op(field, name, "one of %r" % sorted(self.queues))
        return q

    def struct(self, name, field="cfstruct"):
        s = self.structs.get(name)
        if s is None:
            raise invalid_op(field, name, "one of %r" % sorted(self.structs))
        return s

    def queue_for_qmgr(self, qm, q):
        if not q.shared and q.owner != qm.name:
            raise invalid_op("queue", q.name,
                             "a queue visible to %s (%s is nonshared, owned by %s)"
                             % (qm.name, q.name, q.owner))

    def struct_of(self, q):
        return self.structs.get(q.cfstruct) if q.cfstruct else None

    def new_msg(self, tag, length, persistent, q):
        self.next_msg += 1
        return Message(self.next_msg, tag, length, persistent, q.name)

    def usage_field(self, st):
        if st is None or st.status != "ACTIVE":
            return None
        return st.usage()

    # ---------------------------------------------------------- queue depth
    def hi_count(self, q):
        return (q.qdepthhi * q.maxdepth) // 100          # reading: floor

    def lo_count(self, q):
        return (q.qdepthlo * q.maxdepth) // 100          # reading: floor

    @staticmethod
    def toggle(q, kind):
        if kind == "QDPHI":
            q.qdphiev, q.qdploev, q.qdpmaxev = False, True, True
        elif kind == "QDPLO":
            q.qdphiev, q.qdploev, q.qdpmaxev = True, False, True
        else:  # QFULL
            q.qdpmaxev, q.qdploev = False, True
            if READINGS["qfull_hi_flag"] == "disabled":
                q.qdphiev = False

    def emit(self, qm_name, kind, q, correl, events):
        s = q.stat(qm_name)
        events.append({"qmgr": qm_name, "kind": kind, "queue": q.name,
                       "correl": correl, "enq": s[0], "deq": s[1]})
        s[0] = s[1] = 0

    def raise_event(self, q, kind, detector, events):
        if not q.shared:
            owner = self.qmgrs[q.owner]
            if not owner.perfmev:
                return          # nonshared: nothing changes while PERFMEV(DISABLED)
            self.toggle(q, kind)
            self.emit(owner.name, kind, q, 0, events)
            return
        # shared queue: the detecting queue manager toggles the shared definition
        # whatever its PERFMEV, and becomes the coordinating queue manager
        self.toggle(q, kind)
        coord = self.qmgrs[detector]
        if not coord.perfmev and READINGS["event_broadcast"] == "if-coordinator-enabled":
            return
        self.correl += 1
        correl = self.correl
        if coord.perfmev:
            self.emit(coord.name, kind, q, correl, events)
        for name in self.order:
            if name == coord.name:
                continue
            m = self.qmgrs[name]
            if m.active and m.perfmev:
                self.emit(name, kind, q, correl, events)

    # ------------------------------------------------------------ MQ: put
    def offload_decision(self, st, length):
        rec = st.rec
        forced = CF_LIMIT_6375K if READINGS["forced_offload_boundary"] == "63.75K" else CF_LIMIT_63K
        if rec["cflevel"] >= 4 and length > forced:
            return True
        if rec["cflevel"] < 5:
            return False
        used, total = st.combined_storage()
        inclusive = READINGS["offload_compare"] == "inclusive"
        for n in (1, 2, 3):
            th, sz = rec["offld%dth" % n], rec["offld%dsz" % n]
            if sz >= RULE_OFF_SZ:
                continue                      # OFFLDnSZ(64K): rule not in effect
            if total <= 0:
                over = True
            elif inclusive:
                over = 100 * used >= th * total
            else:
                over = 100 * used > th * total
            big = length >= sz if inclusive else length > sz
            if over and big:
                return True
        return False

    def mq_put(self, op):
        qm = self.qmgr(op["qmgr"])
        q = self.queue(op["queue"])
        length = op["length"]
        if length < 0:
            raise invalid_op("length", length, ">= 0")
        self.queue_for_qmgr(qm, q)
        out = {"kind": "put", "ok": False}
        if not qm.active:
            out["reason"] = "NOT_ACTIVE"
            return out
        st = self.struct_of(q)
        events, signals = [], []
        if st is not None and st.status != "ACTIVE":
            out["reason"] = 2373
            return out
        if length > q.maxmsgl or length > MQ_MAX_MSG:
            out["reason"] = 2030
            self.attach_usage(out, st)
            return out
        if st is not None:
            lvl = st.rec["cflevel"]
            if lvl < 4 and length > CF_LIMIT_63K:
                out["reason"] = 2366 if READINGS["large_low_cflevel_rc"] == "2366" else 2030
                self.attach_usage(out, st)
                return out
            if op["persistent"]:
                if lvl <= 2:
                    out["reason"] = int(READINGS["persistent_low_cflevel_rc"])
                    self.attach_usage(out, st)
                    return out
                if not st.rec["recover"]:
                    out["reason"] = 2048
                    self.attach_usage(out, st)
                    return out
        if q.depth >= q.maxdepth:
            out["reason"] = 2053
            if q.qdpmaxev:
                self.raise_event(q, "QFULL", qm.name, events)
            self.attach_usage(out, st)
            if events:
                out["events"] = events
            return out
        msg = self.new_msg(op["tag"], length, op["persistent"], q)
        if st is not None:
            off = self.offload_decision(st, length)
            elements = OFFLOADED_ELEMENTS if off else max(1, ceil_div(length, ELEMENT_DATA))
            if not st.fits(1, elements):
                out["reason"] = 2192
                self.attach_usage(out, st)
                return out
            st.alloc(1, elements)
            msg.struct, msg.entries, msg.elements = st.name, 1, elements
            msg.offloaded = off
            if off:
                msg.location = "DB2" if (st.rec["cflevel"] == 4 or st.rec["offload"] == "DB2") else "SMDS"
            else:
                msg.location = "CF"
        if op["syncpoint"]:
            msg.state, msg.uow = "pending", qm.name
            qm.uow.append(("put", msg))
        q.messages[msg.id] = msg
        q.depth += 1
        q.stat(qm.name)[0] += 1
        if st is not None:
            st.check_full(signals)
        if q.qdphiev and q.depth >= self.hi_count(q):
            self.raise_event(q, "QDPHI", qm.name, events)
        out = {"kind": "put", "ok": True}
        if st is not None:
            out["offloaded"] = msg.offloaded
            out["usage"] = st.usage()
            if self.send_location:
                out["location"] = msg.location
        if events:
            out["events"] = events
        if signals:
            out["signals"] = signals
        return out

    def attach_usage(self, out, st):
        u = self.usage_field(st)
        if u is not None:
            out["usage"] = u

    # ------------------------------------------------------------ MQ: get
    def mq_get(self, op):
        qm = self.qmgr(op["qmgr"])
        q = self.queue(op["queue"])
        self.queue_for_qmgr(qm, q)
        out = {"kind": "get", "ok": False}
        if not qm.active:
            out["reason"] = "NOT_ACTIVE"
            return out
        st = self.struct_of(q)
        if st is not None and st.status != "ACTIVE":
            out["reason"] = 2373
            return out
        msg = None
        for m in q.messages.values():
            if m.state == "available":
                msg = m
                break
        if msg is None:
            out["reason"] = 2033
            self.attach_usage(out, st)
            return out
        events, signals = [], []
        q.depth -= 1
        q.stat(qm.name)[1] += 1
        if op["syncpoint"]:
            msg.state, msg.uow = "locked", qm.name
            qm.uow.append(("get", msg))
        else:
            self.delete_msg(q, msg, signals)
        if q.qdploev and q.depth <= self.lo_count(q):
            self.raise_event(q, "QDPLO", qm.name, events)
        out = {"kind": "get", "ok": True, "tag": msg.tag}
        self.attach_usage(out, st)
        if events:
            out["events"] = events
        if signals:
            out["signals"] = signals
        return out

    def delete_msg(self, q, msg, signals):
        q.messages.pop(msg.id, None)
        if msg.struct is not None:
            st = self.structs.get(msg.struct)
            if st is None and self.profile == "cqs":
                st = self.find_overflow_struct(msg.struct)
            if st is not None and st.status == "ACTIVE":
                st.free(msg.entries, msg.elements)
                st.check_full(signals)
        if msg.staging_parts:
            prim = self.structs.get(q.cfstruct)
            if prim is not None:
                prim.staging.pop(msg.id, None)
                prim.free(msg.staging_parts, msg.staging_elements)
                prim.check_full(signals)

    # ------------------------------------------------------- MQ: syncpoint
    def mq_commit(self, op):
        qm = self.qmgr(op["qmgr"])
        out = {"kind": "commit", "ok": False}
        if not qm.active:
            out["reason"] = "NOT_ACTIVE"
            return out
        signals = []
        for action, msg in qm.uow:
            q = self.queues.get(msg.queue)
            if q is None or msg.id not in q.messages:
                continue
            if action == "put":
                msg.state, msg.uow = "available", None
            else:
                self.delete_msg(q, msg, signals)
        qm.uow = []
        out = {"kind": "commit", "ok": True}
        if signals:
            out["signals"] = signals
        return out

    def backout_uow(self, qm, signals):
        for action, msg in reversed(qm.uow):
            q = self.queues.get(msg.queue)
            if q is None or msg.id not in q.messages:
                continue
            if action == "put":
                self.delete_msg(q, msg, signals)
                q.depth -= 1
            else:
                msg.state, msg.uow = "available", None
                q.depth += 1
        qm.uow = []

    def mq_backout(self, op):
        qm = self.qmgr(op["qmgr"])
        if not qm.active:
            return {"kind": "backout", "ok": False, "reason": "NOT_ACTIVE"}
        signals = []
        self.backout_uow(qm, signals)
        out = {"kind": "backout", "ok": True}
        if signals:
            out["signals"] = signals
        return out

    # ------------------------------------------------------- MQ: qmgr ops
    def mq_set_perfmev(self, op):
        qm = self.qmgr(op["qmgr"])
        if not qm.active:
            return {"kind": "set_perfmev", "ok": False, "reason": "NOT_ACTIVE"}
        qm.perfmev = op["enabled"]
        return {"kind": "set_perfmev", "ok": True}

    def mq_reset_qstats(self, op):
        qm = self.qmgr(op["qmgr"])
        q = self.queue(op["queue"])
        self.queue_for_qmgr(qm, q)
        if not qm.active:
            return {"kind": "reset_qstats", "ok": False, "reason": "NOT_ACTIVE"}
        q.stats[qm.name] = [0, 0]
        return {"kind": "reset_qstats", "ok": True}

    def mq_start_qmgr(self, op):
        qm = self.qmgr(op["qmgr"])
        if qm.active:
            return {"kind": "start_qmgr", "ok": False, "reason": "NOT_ALLOWED"}
        qm.active = True
        return {"kind": "start_qmgr", "ok": True}

    def mq_stop_qmgr(self, op):
        qm = self.qmgr(op["qmgr"])
        if not qm.active:
            return {"kind": "stop_qmgr", "ok": False, "reason": "NOT_ACTIVE"}
        signals = []
        self.backout_uow(qm, signals)
        if READINGS["nonshared_at_stop"] == "lost":
            for q in self.queues.values():
                if q.shared or q.owner != qm.name:
                    continue
                for m in list(q.messages.values()):
                    if not m.persistent:
                        self.delete_msg(q, m, signals)
                        if m.state != "locked":
                            q.depth -= 1
        qm.active = False
        out = {"kind": "stop_qmgr", "ok": True}
        if signals:
            out["signals"] = signals
        return out

    # ---------------------------------------------- MQ: backup and recovery
    def mq_backup(self, op):
        qm = self.qmgr(op["qmgr"])
        st = self.struct(op["cfstruct"])
        out = {"kind": "backup", "ok": False}
        if not qm.active or st.status != "ACTIVE":
            out["reason"] = "NOT_ACTIVE"
            return out
        if st.rec["cflevel"] < 3 or not st.rec["recover"]:
            out["reason"] = "NOT_ALLOWED"
            return out
        st.has_backup = True
        return {"kind": "backup", "ok": True}

    def mq_fail_structure(self, op):
        st = self.struct(op["cfstruct"])
        if st.status == "FAILED":
            return {"kind": "fail_structure", "ok": True}
        snapshot = []
        for q in self.queues.values():
            if q.cfstruct != st.name:
                continue
            for m in q.messages.values():
                if m.persistent and m.state in ("available", "locked"):
                    snapshot.append(m)
            q.messages = {}
            q.depth = 0
        for qm in self.qmgrs.values():
            qm.uow = [(a, m) for (a, m) in qm.uow if m.struct != st.name]
        for m in snapshot:
            m.state, m.uow = "available", None
        st.failure_snapshot = snapshot
        st.status = "FAILED"
        st.entries_used = st.elements_used = 0
        st.full_warning = False
        return {"kind": "fail_structure", "ok": True}

    def mq_recover(self, op):
        st = self.struct(op["cfstruct"])
        out = {"kind": "recover", "ok": False}
        if not any(m.active for m in self.qmgrs.values()):
            out["reason"] = "NOT_ACTIVE"
            return out
        if st.rec["cflevel"] < 3 or not st.rec["recover"]:
            out["reason"] = "NOT_ALLOWED"
            return out
        purge = op["purge"]
        if st.status != "FAILED":
            if not (purge and READINGS["recover_purge_nonfailed"] == "accepted"):
                out["reason"] = "NOT_FAILED"
                return out
        if not purge and not st.has_backup:
            out["reason"] = "NO_BACKUP"
            return out
        signals = []
        if st.status != "FAILED":        # purge of a structure that has not failed
            for q in self.queues.values():
                if q.cfstruct == st.name:
                    for m in list(q.messages.values()):
                        self.delete_msg(q, m, signals)
                    q.depth = 0
            for qm in self.qmgrs.values():
                qm.uow = [(a, m) for (a, m) in qm.uow if m.struct != st.name]
        st.status = "ACTIVE"
        st.entries_used = st.elements_used = 0
        if not purge:
            for m in st.failure_snapshot or []:
                q = self.queues.get(m.queue)
                if q is None:
                    continue
                q.messages[m.id] = m
                q.depth += 1
                st.alloc(m.entries, m.elements)
            for q in self.queues.values():
                if q.cfstruct == st.name:
                    q.messages = dict(sorted(q.messages.items()))
        st.failure_snapshot = None
        st.full_warning = False
        st.check_full(signals)
        out = {"kind": "recover", "ok": True, "usage": st.usage()}
        if signals:
            out["signals"] = signals
        return out

    # ------------------------------------------------------- SETXCF ALTER
    def setxcf_alter(self, op):
        st = self.struct(op["cfstruct"])
        new = op["size_kb"]
        out = {"kind": "setxcf_alter", "ok": False}
        if st.status != "ACTIVE":
            out["reason"] = "NOT_ACTIVE"
            return out
        size = st.rec["size_kb"]
        ini = st.rec["initsize_kb"] if st.rec["initsize_kb"] is not None else size
        ok = 0 < new <= size
        if new == size and READINGS["alter_at_size"] == "rejected":
            ok = False
        if new <= st.size_kb and READINGS["alter_not_larger"] == "rejected":
            ok = False
        if new < ini and READINGS["alter_below_initsize"] == "rejected":
            ok = False
        if not ok:
            out["reason"] = "OUT_OF_RANGE"
            out["usage"] = st.usage()
            return out
        signals = []
        st.size_kb = new
        st.recompute_totals()
        st.check_full(signals)
        if self.profile == "cqs":
            self.cqs_check_exit(st, signals)
        out = {"kind": "setxcf_alter", "ok": True, "usage": st.usage()}
        if signals:
            out["signals"] = signals
        return out

    # ----------------------------------------------------- definitions
    def define_structure(self, op):
        out = {"kind": "define_structure", "ok": False, "reason": "INVALID"}
        rec, problem = fill_record(op["structure"], STRUCT_FIELDS)
        if problem is not None:
            if rec is None and problem[0] not in STRUCT_FIELDS and problem[0] != "record":
                raise WireError(11, "unknown field %r in structure record" % problem[0],
                                {"field": problem[0]})
            return out
        if structure_problem(rec, self.profile, strict=True) is not None:
            return out
        if rec["name"] in self.structs:
            return out
        if self.profile == "mq" and len(self.structs) >= MAX_APP_STRUCTS:
            return out
        if self.profile == "cqs":
            if rec["ovflwstr"] is not None and (rec["ovflwstr"] in self.structs
                                                 or self.find_overflow_struct(rec["ovflwstr"])):
                return out
            for s in self.structs.values():
                if s.rec["ovflwstr"] == rec["name"]:
                    return out
        self.structs[rec["name"]] = Structure(rec)
        return {"kind": "define_structure", "ok": True}

    def queue_problem(self, rec):
        pat = MQ_QUEUE_NAME if self.profile == "mq" else CQS_QUEUE_NAME
        if not pat.match(rec["name"]):
            return ("name", rec["name"], "1-48 characters A-Z a-z 0-9 . / _ %")
        if not 0 <= rec["maxdepth"] <= MAXDEPTH_MAX:
            return ("maxdepth", rec["maxdepth"], "0..999999999")
        if not 0 <= rec["maxmsgl"] <= MQ_MAX_MSG:
            return ("maxmsgl", rec["maxmsgl"], "0..104857600")
        for k in ("qdepthhi", "qdepthlo"):
            if not 0 <= rec[k] <= 100:
                return (k, rec[k], "0..100")
        return None

    def define_queue(self, op):
        out = {"kind": "define_queue", "ok": False, "reason": "INVALID"}
        rec, problem = fill_record(op["queue"], QUEUE_FIELDS)
        if problem is not None:
            if rec is None and problem[0] not in QUEUE_FIELDS and problem[0] != "record":
                raise WireError(11, "unknown field %r in queue record" % problem[0],
                                {"field": problem[0]})
            return out
        if self.queue_problem(rec) is not None or rec["name"] in self.queues:
            return out
        owner = None
        if self.profile == "cqs" and rec["cfstruct"] is None:
            if not self.structs:
                return out
            rec["cfstruct"] = next(iter(self.structs))
        if rec["cfstruct"] is not None:
            st = self.structs.get(rec["cfstruct"])
            if st is None:
                return out
            n = sum(1 for q in self.queues.values() if q.cfstruct == st.name)
            if n >= MAX_QUEUES_PER_STRUCT:
                return out
        else:
            owner = rec["qmgr"] if rec["qmgr"] is not None else self.order[0]
            if owner not in self.qmgrs:
                return out
        self.queues[rec["name"]] = Queue(rec, owner)
        return {"kind": "define_queue", "ok": True}

    MQ_STRUCT_ALTERABLE = ("cflevel", "recover", "offload", "offld1th", "offld1sz",
                           "offld2th", "offld2sz", "offld3th", "offld3sz")
    CQS_STRUCT_ALTERABLE = ("ovflwmax", "ovflwstr")

    def alter_structure(self, op):
        st = self.struct(op["name"], "name")
        changes = op["changes"]
        out = {"kind": "alter_structure", "ok": False, "reason": "INVALID"}
        allowed = self.MQ_STRUCT_ALTERABLE if self.profile == "mq" else self.CQS_STRUCT_ALTERABLE
        new = dict(st.rec)
        for k, v in changes.items():
            if k not in allowed:
                return out
            if not type_ok(STRUCT_FIELDS[k][0], v):
                return out
            new[k] = v
        if structure_problem(new, self.profile, strict=False) is not None:
            return out
        if self.profile == "cqs":
            if "ovflwstr" in changes and changes["ovflwstr"] != st.rec["ovflwstr"]:
                # adding or changing OVFLWSTR needs a cold start of the structure
                out["reason"] = "NOT_ALLOWED"
                return out
            st.rec = new
            return {"kind": "alter_structure", "ok": True}
        # MQ ALTER CFSTRUCT
        if new["recover"] and new["cflevel"] < 3:
            return out
        if "offload" in changes and changes["offload"] is not None and new["cflevel"] < 5:
            return out
        old_lvl, new_lvl = st.rec["cflevel"], new["cflevel"]
        if new_lvl < old_lvl and (old_lvl in (3, 4) or
                                  (old_lvl == 5 and READINGS["cflevel5_decrease"] == "guarded")):
            for q in self.queues.values():
                if q.cfstruct == st.name and q.messages:
                    out["reason"] = "NOT_ALLOWED"
                    return out
            if st.status == "FAILED" and st.failure_snapshot:
                out["reason"] = "NOT_ALLOWED"
                return out
        st.rec = new
        return {"kind": "alter_structure", "ok": True}

    QUEUE_ALTERABLE = ("maxdepth", "maxmsgl", "qdepthhi", "qdepthlo",
                       "qdphiev", "qdploev", "qdpmaxev")

    def alter_queue(self, op):
        q = self.queue(op["name"], "name")
        out = {"kind": "alter_queue", "ok": False, "reason": "INVALID"}
        new = dict(q.rec)
        new.update({"maxdepth": q.maxdepth, "maxmsgl": q.maxmsgl, "qdepthhi": q.qdepthhi,
                    "qdepthlo": q.qdepthlo, "qdphiev": q.qdphiev, "qdploev": q.qdploev,
                    "qdpmaxev": q.qdpmaxev})
        for k, v in op["changes"].items():
            if k not in self.QUEUE_ALTERABLE or not type_ok(QUEUE_FIELDS[k][0], v):
                return out
            new[k] = v
        if self.queue_problem(new) is not None:
            return out
        q.rec = new
        for k in self.QUEUE_ALTERABLE:
            setattr(q, k, new[k])
        return {"kind": "alter_queue", "ok": True}

    # =========================================================== CQS profile
    def find_overflow_struct(self, name):
        for s in self.structs.values():
            if s.overflow_struct is not None and s.overflow_struct.name == name:
                return s.overflow_struct
        return None

    def cqs_metric_reached(self, st, pct_times_10):
        """usage >= pct_times_10/10 % of the primary (elements or max metric)."""
        def over(used, total):
            return total > 0 and used * 1000 >= pct_times_10 * total
        if READINGS["cqs_usage_metric"] == "elements":
            return over(st.elements_used, st.elements_total)
        return over(st.elements_used, st.elements_total) or over(st.entries_used, st.entries_total)

    def ovflwmax(self, st):
        v = st.rec["ovflwmax"]
        return 70 if v is None else v

    def cqs_target_met(self, st, used_el, used_en, start_el=None, start_en=None):
        """Has usage fallen 20% below the overflow threshold?"""
        om = self.ovflwmax(st)
        mode = READINGS["cqs_target"]
        if mode == "points":
            lim10 = (om - 20) * 10
        elif mode == "relative":
            lim10 = om * 8
        else:
            lim10 = None

        def met(used, total, start):
            if total <= 0:
                return True
            if lim10 is not None:
                return used * 1000 <= lim10 * total
            if mode == "drop-points":
                return used * 100 <= (start * 100 - 20 * total)
            return used * 10 <= start * 8          # drop-relative

        if READINGS["cqs_usage_metric"] == "elements":
            return met(used_el, st.elements_total,
                       st.elements_used if start_el is None else start_el)
        return (met(used_el, st.elements_total, st.elements_used if start_el is None else start_el)
                and met(used_en, st.entries_total, st.entries_used if start_en is None else start_en))

    def cqs_put(self, op):
        self.qmgr(op["qmgr"])
        q = self.queue(op["queue"])
        length = op["length"]
        if length < 0:
            raise invalid_op("length", length, ">= 0")
        prim = self.structs[q.cfstruct]
        out = {"kind": "put", "ok": False}
        signals = []
        # split into parts: first part on the ready queue, the rest on the staging queue
        lg = self.lgmsgsz
        nparts = max(1, ceil_div(length, lg)) if length > lg else 1
        first_len = min(length, lg)
        rest = length - first_len
        staging_elements = 0
        if nparts > 1:
            full, tail = divmod(rest, lg)
            staging_elements = full * max(1, ceil_div(lg, ELEMENT_DATA))
            if tail:
                staging_elements += max(1, ceil_div(tail, ELEMENT_DATA))
        first_elements = max(1, ceil_div(first_len, ELEMENT_DATA))
        target = prim
        if q.overflow:
            if prim.overflow_struct is None:
                out["reason"] = "REJECTED_OVERFLOW"
                out["usage"] = prim.usage()
                return out
            target = prim.overflow_struct
        # both structures must take their parts
        if target is prim:
            if not prim.fits(nparts, first_elements + staging_elements):
                out["reason"] = "STRUCTURE_FULL"
                out["usage"] = prim.usage()
                return out
        else:
            if not target.fits(1, first_elements) or not prim.fits(nparts - 1, staging_elements):
                out["reason"] = "STRUCTURE_FULL"
                out["usage"] = target.usage()
                return out
        msg = self.new_msg(op["tag"], length, False, q)
        target.alloc(1, first_elements)
        msg.struct, msg.entries, msg.elements = target.name, 1, first_elements
        if nparts > 1:
            prim.alloc(nparts - 1, staging_elements)
            msg.staging_parts, msg.staging_elements = nparts - 1, staging_elements
            prim.staging[msg.id] = msg
        q.messages[msg.id] = msg
        q.depth += 1
        target.check_full(signals)
        if target is not prim:
            prim.check_full(signals)
        self.cqs_check_threshold(prim, signals)
        out = {"kind": "put", "ok": True, "usage": target.usage()}
        if signals:
            out["signals"] = signals
        return out

    def cqs_check_threshold(self, prim, signals):
        if prim.rec["resource"] or prim.alter_pending or prim.overflow_mode:
            return
        if self.cqs_metric_reached(prim, self.ovflwmax(prim) * 10):
            prim.alter_pending = True
            signals.append("ALTER " + prim.name)

    def cqs_get(self, op):
        self.qmgr(op["qmgr"])
        q = self.queue(op["queue"])
        prim = self.structs[q.cfstruct]
        if not q.messages:
            return {"kind": "get", "ok": False, "reason": "NO_MSG", "usage": prim.usage()}
        msg = next(iter(q.messages.values()))
        signals = []
        where = self.structs.get(msg.struct) or self.find_overflow_struct(msg.struct) or prim
        self.delete_msg(q, msg, signals)
        q.depth -= 1
        self.cqs_check_exit(prim, signals)
        out = {"kind": "get", "ok": True, "tag": msg.tag, "usage": where.usage()}
        if signals:
            out["signals"] = signals
        return out

    def cqs_check_exit(self, prim, signals):
        """Without an overflow structure CQS leaves overflow mode when primary
        usage drops 20% below the overflow threshold."""
        if not prim.overflow_mode or prim.rec["ovflwstr"] is not None:
            return
        if self.cqs_target_met(prim, prim.elements_used, prim.entries_used,
                               prim._ovf_start_el, prim._ovf_start_en):
            self.cqs_leave_overflow(prim, signals)

    def cqs_leave_overflow(self, prim, signals):
        for qn in prim.overflow_queues:
            q = self.queues.get(qn)
            if q is not None:
                q.overflow = False
        prim.overflow_queues = []
        prim.overflow_mode = False
        prim.next_scan = None
        prim.overflow_started = None
        if prim.overflow_struct is not None and prim.overflow_struct.entries_used == 0:
            prim.overflow_struct = None
        signals.append("OVERFLOW_OFF " + prim.name)

    def queue_space(self, q, prim):
        el = en = 0
        for m in q.messages.values():
            if m.struct == prim.name:
                el += m.elements
                en += m.entries
        return el, en

    def cqs_enter_overflow(self, prim, signals):
        prim.overflow_mode = True
        prim.overflow_started = self.clock
        prim.next_scan = (self.clock + SCAN_INTERVAL if READINGS["cqs_scan_anchor"] == "overflow-start"
                          else (self.clock // SCAN_INTERVAL + 1) * SCAN_INTERVAL)
        prim._ovf_start_el, prim._ovf_start_en = prim.elements_used, prim.entries_used
        signals.append("OVERFLOW_ON " + prim.name)
        # candidates: queues using the most space on the primary (staging excluded)
        cands = []
        for idx, q in enumerate(self.queues.values()):
            if q.cfstruct != prim.name or q.overflow:
                continue
            el, en = self.queue_space(q, prim)
            if el == 0 and en == 0:
                continue
            key = el if READINGS["cqs_usage_metric"] == "elements" else max(el, en)
            cands.append((-key, idx, q, el, en))
        cands.sort(key=lambda c: (c[0], c[1]))
        proj_el, proj_en = prim.elements_used, prim.entries_used
        selected = []
        for _k, _i, q, el, en in cands:
            if self.cqs_target_met(prim, proj_el, proj_en,
                                   prim._ovf_start_el, prim._ovf_start_en):
                break
            if self.vetoes is not None and q.name in self.vetoes:
                continue                     # the Queue Overflow exit rejected it (RC 4)
            selected.append(q)
            proj_el -= el
            proj_en -= en
        ovname = prim.rec["ovflwstr"]
        for q in selected:
            q.overflow = True
            prim.overflow_queues.append(q.name)
            signals.append("OVERFLOW_QUEUE %s %s" % (prim.name, q.name))
            if ovname is not None:
                if prim.overflow_struct is None:
                    rec = dict(prim.rec)
                    rec.update({"name": ovname, "size_kb": prim.rec["ovflw_size_kb"],
                                "initsize_kb": None, "ovflwstr": None, "ovflwmax": None})
                    prim.overflow_struct = Structure(rec, is_overflow_of=prim.name)
                ov = prim.overflow_struct
                for m in q.messages.values():
                    if m.struct == prim.name and ov.fits(m.entries, m.elements):
                        prim.free(m.entries, m.elements)
                        ov.alloc(m.entries, m.elements)
                        m.struct = ov.name
                ov.check_full(signals)
        prim.overflow_queues.sort()
        prim.check_full(signals)
        if not selected:
            if ovname is not None:
                if READINGS["cqs_empty_overflow"] == "ends":
                    self.cqs_leave_overflow(prim, signals)
            else:
                self.cqs_check_exit(prim, signals)

    def cqs_alter_outcome(self, op):
        st = self.struct(op["cfstruct"])
        out = {"kind": "alter_outcome", "ok": False}
        if not st.alter_pending:
            out["reason"] = "NO_ALTER_PENDING"
            return out
        signals = []
        if op["success"]:
            new = op["size_kb"] if op["size_kb"] is not None else st.rec["size_kb"]
            if new < 1 or new > st.rec["size_kb"]:
                out["reason"] = "OUT_OF_RANGE"
                return out
            st.alter_pending = False
            st.size_kb = new
            st.recompute_totals()
            st.check_full(signals)
        else:
            st.alter_pending = False
            self.cqs_enter_overflow(st, signals)
        out = {"kind": "alter_outcome", "ok": True, "usage": st.usage()}
        if signals:
            out["signals"] = signals
        return out

    def cqs_set_overflow_exit(self, op):
        self.vetoes = op["vetoes"]
        return {"kind": "set_overflow_exit", "ok": True}

    def cqs_scan(self, prim, signals):
        if prim.rec["ovflwstr"] is None:
            return
        for qn in list(prim.overflow_queues):
            q = self.queues.get(qn)
            if q is None or not q.messages:
                prim.overflow_queues.remove(qn)
                if q is not None:
                    q.overflow = False
                signals.append("OVERFLOW_QUEUE_OFF %s %s" % (prim.name, qn))
        if not prim.overflow_queues:
            self.cqs_leave_overflow(prim, signals)

    def advance_clock(self, op):
        secs = op["seconds"]
        if secs < 0:
            raise invalid_op("seconds", secs, ">= 0")
        end = self.clock + secs
        signals = []
        if self.profile == "cqs":
            while True:
                due = [(s.next_scan, s.name) for s in self.structs.values()
                       if s.overflow_mode and s.next_scan is not None and s.next_scan <= end]
                if not due:
                    break
                t, name = min(due)
                s = self.structs[name]
                self.clock = t
                s.next_scan = t + SCAN_INTERVAL
                self.cqs_scan(s, signals)
        self.clock = end
        out = {"kind": "advance_clock", "ok": True}
        if signals:
            out["signals"] = signals
        return out

    # =============================================================== inspect
    def inspect(self, op):
        structs = {}
        for s in self.structs.values():
            d = {"status": s.status, "size_kb": s.size_kb,
                 "entries_used": s.entries_used, "entries_total": s.entries_total,
                 "elements_used": s.elements_used, "elements_total": s.elements_total,
                 "full_warning": s.full_warning}
            if self.profile == "cqs":
                d.update({"alter_pending": s.alter_pending, "overflow_mode": s.overflow_mode,
                          "overflow_queues": sorted(s.overflow_queues),
                          "staging_depth": sum(m.staging_parts for m in s.staging.values())})
            else:
                d["cfname"] = (self.qsg + "@@@@")[:4] + s.name
            structs[s.name] = d
        queues = {}
        for q in self.queues.values():
            if self.profile == "cqs":
                queues[q.name] = {"depth": q.depth, "overflow": q.overflow}
            else:
                queues[q.name] = {"depth": q.depth, "qdphiev": q.qdphiev,
                                  "qdploev": q.qdploev, "qdpmaxev": q.qdpmaxev}
        qmgrs = {n: {"active": m.active, "perfmev": m.perfmev} for n, m in self.qmgrs.items()}
        value = {"clock": self.clock, "structures": structs, "queues": queues, "qmgrs": qmgrs}
        if self.profile == "mq":
            value["admin"] = {"size_kb": self.admin_size_kb,
                              "entries_total": admin_entries(self.admin_size_kb, self.admin_table)}
        return {"kind": "inspect", "ok": True, "value": value}

    # ============================================================== dispatch
    def apply(self, op):
        kind = op["op"]
        prof = self.profile
        if kind in MQ_ONLY and prof != "mq":
            raise invalid_op("op", kind, "an operation of the %s profile" % prof)
        if kind in CQS_ONLY and prof != "cqs":
            raise invalid_op("op", kind, "an operation of the %s profile" % prof)
        if kind == "put":
            return self.mq_put(op) if prof == "mq" else self.cqs_put(op)
        if kind == "get":
            return self.mq_get(op) if prof == "mq" else self.cqs_get(op)
        handler = {
            "define_structure": self.define_structure,
            "alter_structure": self.alter_structure,
            "define_queue": self.define_queue,
            "alter_queue": self.alter_queue,
            "commit": self.mq_commit,
            "backout": self.mq_backout,
            "set_perfmev": self.mq_set_perfmev,
            "reset_qstats": self.mq_reset_qstats,
            "start_qmgr": self.mq_start_qmgr,
            "stop_qmgr": self.mq_stop_qmgr,
            "backup": self.mq_backup,
            "fail_structure": self.mq_fail_structure,
            "recover": self.mq_recover,
            "setxcf_alter": self.setxcf_alter,
            "alter_outcome": self.cqs_alter_outcome,
            "set_overflow_exit": self.cqs_set_overflow_exit,
            "advance_clock": self.advance_clock,
            "inspect": self.inspect,
        }[kind]
        return handler(op)


MQ_ONLY = {"commit", "backout", "set_perfmev", "reset_qstats", "start_qmgr", "stop_qmgr",
           "backup", "fail_structure", "recover"}
CQS_ONLY = {"alter_outcome", "set_overflow_exit"}


def normalise_lgmsgsz(v):
    v = max(1, v)
    v = ceil_div(v, 4) * 4           # rounded up to a multiple of 4
    return min(v, 30632)             # larger values are set to 30632


# --------------------------------------------------------------------------
# CSQ_ADMIN sizing
# --------------------------------------------------------------------------
def admin_min_kb(n, table):
    if table == "cfcc14":
        if n <= len(ADMIN_CFCC14):
            return ADMIN_CFCC14[n - 1]
        return ADMIN_CFCC14[-1] + 768 * (n - len(ADMIN_CFCC14))
    pts = sorted(ADMIN_CFCC9_POINTS.items())
    if n in ADMIN_CFCC9_POINTS:
        return ADMIN_CFCC9_POINTS[n]
    for (a, va), (b, vb) in zip(pts, pts[1:]):
        if a < n < b:
            v = va + (vb - va) * (n - a) / (b - a)
            return int(ceil_div(int(v + 0.999999), 256) * 256)
    last_n, last_v = pts[-1]
    return last_v + 768 * (n - last_n)


def admin_entries(size_kb, table):
    fixed = ADMIN_FIXED_KB[table]
    return max(0, (size_kb - fixed) * 1024) // ADMIN_ENTRY_COST


# --------------------------------------------------------------------------
# Configuration parsing
# --------------------------------------------------------------------------
def parse_config(cfg):
    if not isinstance(cfg, dict):
        raise bad_config("config", cfg, "an object")
    out = {}
    for k in cfg:
        if k not in CONFIG_FIELDS:
            raise bad_config(k, cfg[k], "a known config field")
    for k, (kind, default) in CONFIG_FIELDS.items():
        if k in cfg:
            if not type_ok(kind, cfg[k]):
                raise bad_config(k, cfg[k], kind)
            out[k] = cfg[k]
        else:
            if k == "structures":
                out[k] = [{"name": "APP1"}]
            else:
                out[k] = list(default) if isinstance(default, list) else (
                    dict(default) if isinstance(default, dict) else default)
    prof = out["profile"]
    if prof not in ("mq", "cqs"):
        raise WireError(10, "profile %r is not implemented" % prof,
                        {"field": "profile", "value": prof, "allowed": "mq or cqs"})
    for k, v in out["accounting"].items():
        if k not in ACCOUNTING_FIELDS or not type_ok(ACCOUNTING_FIELDS[k], v):
            raise bad_config("accounting." + k, v, "a known accounting field")
    qsg = out["qsg"]
    if prof == "mq" and not 1 <= len(qsg) <= 4:
        raise bad_config("qsg", qsg, "1-4 characters")
    qmgrs = out["qmgrs"]
    if not 1 <= len(qmgrs) <= MAX_QMGRS:
        raise bad_config("qmgrs", qmgrs, "1..32 queue managers")
    if len(set(qmgrs)) != len(qmgrs) or any(not q for q in qmgrs):
        raise bad_config("qmgrs", qmgrs, "distinct non-empty names")
    if prof == "mq" and qsg in qmgrs:
        raise bad_config("qsg", qsg, "a name different from every queue manager's")
    for n in out["perfmev_disabled"]:
        if n not in qmgrs:
            raise bad_config("perfmev_disabled", n, "one of %r" % qmgrs)
    if out["lgmsgsz"] < 1:
        raise bad_config("lgmsgsz", out["lgmsgsz"], "a positive number of bytes")
    structs = []
    names = set()
    for i, s in enumerate(out["structures"]):
        rec, problem = fill_record(s, STRUCT_FIELDS)
        if problem is not None:
            raise bad_config("structures[%d].%s" % (i, problem[0]), problem[1], problem[2])
        p = structure_problem(rec, prof, strict=False)
        if p is not None:
            raise bad_config("structures[%d].%s" % (i, p[0]), p[1], p[2])
        if rec["name"] in names:
            raise bad_config("structures[%d].name" % i, rec["name"], "a unique name")
        names.add(rec["name"])
        structs.append(rec)
    if prof == "mq" and len(structs) > MAX_APP_STRUCTS:
        raise bad_config("structures", len(structs), "at most 63 application structures")
    if prof == "cqs":
        for i, rec in enumerate(structs):
            if rec["ovflwstr"] is not None and rec["ovflwstr"] in names:
                raise bad_config("structures[%d].ovflwstr" % i, rec["ovflwstr"],
                                 "a name not used by a primary structure")
    out["structures"] = structs
    queues = []
    qnames = set()
    per_struct = {}
    for i, q in enumerate(out["queues"]):
        rec, problem = fill_record(q, QUEUE_FIELDS)
        if problem is not None:
            raise bad_config("queues[%d].%s" % (i, problem[0]), problem[1], problem[2])
        pat = MQ_QUEUE_NAME if prof == "mq" else CQS_QUEUE_NAME
        if not pat.match(rec["name"]) or rec["name"] in qnames:
            raise bad_config("queues[%d].name" % i, rec["name"], "a unique valid queue name")
        qnames.add(rec["name"])
        for k, lo, hi in (("maxdepth", 0, MAXDEPTH_MAX), ("maxmsgl", 0, MQ_MAX_MSG),
                          ("qdepthhi", 0, 100), ("qdepthlo", 0, 100)):
            if not lo <= rec[k] <= hi:
                raise bad_config("queues[%d].%s" % (i, k), rec[k], "%d..%d" % (lo, hi))
        if prof == "cqs" and rec["cfstruct"] is None:
            if not structs:
                raise bad_config("queues[%d].cfstruct" % i, None, "a CQS structure")
            rec["cfstruct"] = structs[0]["name"]
        owner = None
        if rec["cfstruct"] is not None:
            if rec["cfstruct"] not in names:
                raise bad_config("queues[%d].cfstruct" % i, rec["cfstruct"],
                                 "one of %r" % sorted(names))
            per_struct[rec["cfstruct"]] = per_struct.get(rec["cfstruct"], 0) + 1
            if per_struct[rec["cfstruct"]] > MAX_QUEUES_PER_STRUCT:
                raise bad_config("queues[%d].cfstruct" % i, rec["cfstruct"],
                                 "a structure with fewer than 512 queues")
        else:
            owner = rec["qmgr"] if rec["qmgr"] is not None else qmgrs[0]
            if owner not in qmgrs:
                raise bad_config("queues[%d].qmgr" % i, owner, "one of %r" % qmgrs)
        rec["_owner"] = owner
        queues.append(rec)
    out["queues"] = queues
    table = ADMIN_TABLE_ALIASES.get(out["admin_table"])
    if table is None:
        raise bad_config("admin_table", out["admin_table"], "cfcc14 or cfcc9")
    need_kb = admin_min_kb(len(qmgrs), table)
    size = out["admin_size_kb"] if out["admin_size_kb"] is not None else need_kb
    if prof == "mq":
        if size < need_kb:
            raise bad_config("admin_size_kb", size,
                             ">= %d KB (Table 1 for %d queue managers)" % (need_kb, len(qmgrs)))
        if admin_entries(size, table) < 1000 * len(qmgrs):
            raise bad_config("admin_size_kb", size, "room for 1000 list entries per queue manager")
    out["_admin_table"] = table
    out["_admin_size_kb"] = size
    return out


# --------------------------------------------------------------------------
# Operation records
# --------------------------------------------------------------------------
OP_FIELDS = {
    "define_structure": {"structure": (T_DICT, True, None)},
    "alter_structure": {"name": (T_STR, True, None), "changes": (T_DICT, True, None)},
    "define_queue": {"queue": (T_DICT, True, None)},
    "alter_queue": {"name": (T_STR, True, None), "changes": (T_DICT, True, None)},
    "put": {"qmgr": (T_STR, True, None), "queue": (T_STR, True, None),
            "length": (T_INT, True, None), "persistent": (T_BOOL, False, False),
            "syncpoint": (T_BOOL, False, False), "tag": (T_INT, False, 0)},
    "get": {"qmgr": (T_STR, True, None), "queue": (T_STR, True, None),
            "syncpoint": (T_BOOL, False, False)},
    "commit": {"qmgr": (T_STR, True, None)},
    "backout": {"qmgr": (T_STR, True, None)},
    "set_perfmev": {"qmgr": (T_STR, True, None), "enabled": (T_BOOL, True, None)},
    "reset_qstats": {"qmgr": (T_STR, True, None), "queue": (T_STR, True, None)},
    "start_qmgr": {"qmgr": (T_STR, True, None)},
    "stop_qmgr": {"qmgr": (T_STR, True, None)},
    "backup": {"qmgr": (T_STR, True, None), "cfstruct": (T_STR, True, None)},
    "fail_structure": {"cfstruct": (T_STR, True, None)},
    "recover": {"cfstruct": (T_STR, True, None), "purge": (T_BOOL, False, False)},
    "setxcf_alter": {"cfstruct": (T_STR, True, None), "size_kb": (T_INT, True, None)},
    "alter_outcome": {"cfstruct": (T_STR, True, None), "success": (T_BOOL, True, None),
                      "size_kb": (T_INT_N, False, None)},
    "set_overflow_exit": {"vetoes": (T_LIST_STR_N, False, None)},
    "advance_clock": {"seconds": (T_INT, True, None)},
    "inspect": {},
}


def parse_op(op):
    if not isinstance(op, dict):
        raise WireError(11, "an operation must be an object")
    kind = op.get("op")
    if not isinstance(kind, str):
        raise WireError(11, "operation without a string 'op'")
    spec = OP_FIELDS.get(kind)
    if spec is None:
        raise WireError(11, "unknown operation kind %r" % kind)
    out = {"op": kind}
    for k in op:
        if k != "op" and k not in spec:
            raise WireError(11, "unknown field %r for operation %r" % (k, kind))
    for k, (t, req, default) in spec.items():
        if k in op:
            if not type_ok(t, op[k]):
                raise WireError(11, "field %r of %r must be %s" % (k, kind, t))
            out[k] = op[k]
        elif req:
            raise WireError(11, "operation %r needs field %r" % (kind, k))
        else:
            out[k] = default
    return out


# --------------------------------------------------------------------------
# Wire server
# --------------------------------------------------------------------------
class Server:
    def __init__(self, out):
        self.out = out
        self.inited = False
        self.state = None
        self.peer_max = 1048576
        self.peer_minor = 2

    def send(self, obj):
        self.out.write(json.dumps(obj, separators=(",", ":"), sort_keys=True) + "\n")
        self.out.flush()

    def error(self, in_reply_to, err):
        d = {"type": "error", "in_reply_to": in_reply_to}
        d.update(err.as_dict())
        self.send(d)

    def handle_line(self, raw):
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if len(raw) > MY_MAX_LINE:
            self.error(None, WireError(17, "request line of %d bytes exceeds %d"
                                       % (len(raw), MY_MAX_LINE)))
            return True
        if not raw.strip():
            return True
        try:
            msg = json.loads(raw.decode("utf-8"))
        except Exception:
            self.error(None, WireError(11, "request is not JSON"))
            return True
        if not isinstance(msg, dict):
            self.error(None, WireError(11, "request is not a JSON object"))
            return True
        mid = msg.get("msg_id")
        if not is_int(mid) or mid < 0:
            self.error(None, WireError(11, "request without a readable msg_id"))
            return True
        mtype = msg.get("type")
        try:
            if mtype == "init":
                self.on_init(mid, msg)
            elif mtype == "close":
                self.send({"type": "close_ok", "in_reply_to": mid})
                return False
            elif mtype not in ("open", "apply", "batch"):
                raise WireError(11, "unknown message type %r" % (mtype,))
            elif not self.inited:
                raise WireError(15, "init must come first")
            elif mtype == "open":
                self.on_open(mid, msg)
            elif self.state is None:
                raise WireError(15, "no successful open yet")
            elif mtype == "apply":
                self.on_apply(mid, msg)
            else:
                self.on_batch(mid, msg)
        except WireError as e:
            self.error(mid, e)
        except Exception as e:  # internal failure: indefinite
            self.error(mid, WireError(12, "internal error: %s: %s" % (type(e).__name__, e)))
        return True

    def on_init(self, mid, msg):
        if self.inited:
            raise WireError(15, "second init")
        pv = msg.get("protocol_version")
        if not isinstance(pv, str) or not re.match(r"^\d+\.\d+$", pv):
            raise WireError(11, "init needs protocol_version MAJOR.MINOR")
        major, minor = (int(x) for x in pv.split("."))
        if major != 1:
            raise WireError(16, "this implementation speaks protocol 1.x, not %s" % pv)
        self.peer_minor = minor
        mlb = msg.get("max_line_bytes")
        if is_int(mlb) and mlb >= 1024:
            self.peer_max = mlb
        self.inited = True
        self.send({"type": "init_ok", "in_reply_to": mid, "protocol_version": PROTOCOL_VERSION,
                   "capabilities": CAPABILITIES, "max_line_bytes": MY_MAX_LINE})

    def on_open(self, mid, msg):
        self.state = None
        cfg = parse_config(msg.get("config", {}))
        self.state = State(cfg, send_location=self.peer_minor >= 1)
        self.send({"type": "open_ok", "in_reply_to": mid})

    def on_apply(self, mid, msg):
        op = parse_op(msg.get("op"))
        outcome = self.state.apply(op)
        reply = {"type": "apply_ok", "in_reply_to": mid, "outcome": outcome}
        if len(json.dumps(reply, separators=(",", ":")).encode()) > self.peer_max:
            raise WireError(18, "the outcome does not fit the suite's line limit")
        self.send(reply)

    def on_batch(self, mid, msg):
        ops = msg.get("ops")
        if not isinstance(ops, list) or not ops:
            raise WireError(11, "batch needs a non-empty list 'ops'")
        outcomes = []
        base = len(json.dumps({"type": "batch_ok", "in_reply_to": mid, "outcomes": []},
                              separators=(",", ":")).encode()) + 600
        used = base
        error = None
        for raw in ops:
            try:
                op = parse_op(raw)
                if outcomes and self.peer_max - used < 65536 and op["op"] != "inspect":
                    break                      # prefix: leave room, the suite resends
                outcome = self.state.apply(op)
            except WireError as e:
                error = e.as_dict()
                break
            except Exception as e:
                error = WireError(12, "internal error: %s: %s" % (type(e).__name__, e)).as_dict()
                break
            size = len(json.dumps(outcome, separators=(",", ":")).encode()) + 1
            if used + size > self.peer_max:
                if op["op"] == "inspect" and outcomes:
                    break                      # inspect has no effect: not applied
                if not outcomes:
                    error = WireError(18, "the outcome does not fit the suite's line limit").as_dict()
                    break
                break
            used += size
            outcomes.append(outcome)
        if not outcomes and error is None:
            raise WireError(18, "no outcome fits the suite's line limit")
        reply = {"type": "batch_ok", "in_reply_to": mid, "outcomes": outcomes}
        if error is not None:
            reply["error"] = error
        self.send(reply)


def main():
    server = Server(sys.stdout)
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline()
        if not line:
            break
        if line.endswith(b"\n"):
            line = line[:-1]
        if not server.handle_line(line):
            break
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
