#!/usr/bin/env python3
"""twelfth-reading: a simulator of coupling-facility shared queues.

Profiles: ``mq``  (IBM MQ for z/OS shared queues: offload rules, CFLEVEL,
queue depth events, BACKUP/RECOVER CFSTRUCT, sizing, topology) and ``cqs``
(IMS CQS structure overflow).  It speaks the cfconform JSON-lines wire
protocol 1.4 on stdin/stdout (see /work/twelfth-input/PROTOCOL.md).

    python3 impl.py               the faithful build
    python3 impl.py --fault ID    the same build with one deliberate fault
    python3 impl.py --list-faults print the fault IDs, one a line

Python 3 standard library only.  Persona: an operations team's emulator for
migration rehearsal -- where the texts leave a choice open, the earliest /
most eager defensible side is taken (see README.md, readings table).
"""
import heapq
import json
import re
import sys

PROTOCOL_VERSION = "1.4"
MY_MAX_LINE = 1048576

# ---------------------------------------------------------------------------
# Readings this build follows (declared in init_ok; the config's `readings`
# are accepted and ignored -- the protocol lets an implementation follow its own).
READINGS = {
    "cqs_target": "relative",            # 20% below 70% -> 56%: stop selecting / leave overflow earliest
    "cqs_usage_metric": "elements",      # documented for OVFLWMAX
    "cqs_reselect": "select",            # eager: reaching OVFLWMAX again selects more queues
    "cqs_scan_anchor": "clock",          # scans at every multiple of 900 s: never later than overflow-start
    "offload_compare": "strict",         # "more than 70% full", "exceeding 32 KB" decide it
    "offload_usage_metric": "max",       # max(entries%, elements%): offloads earliest
    "forced_offload_boundary": "63K",    # > 64 512 bytes always offloaded: earliest
    "persistent_low_cflevel_rc": "2048",
    "large_low_cflevel_rc": "2366",
    "qdepth_percent": "floor",           # high limit = floor(HI*MAXDEPTH/100): Queue Depth High earliest
    "qfull_hi_flag": "unchanged",
    "event_broadcast": "always",         # eager: others still issue when the coordinator is DISABLED
    "recover_purge_nonfailed": "accepted",
    "alter_below_initsize": "accepted",
    "cflevel5_decrease": "guarded",
    "alter_at_size": "accepted",
    "alter_not_larger": "accepted",
    "full_signal_timing": "at-crossing",
    "cqs_alter": "sync",                 # the CQS alter completes inside the CQSPUT that reached OVFLWMAX
    "cqs_empty_overflow": "ends",
    "cqs_relief_timing": "at-delete",
    "offload_after_raise": "kept",
    "qstats_at_stop": "reset",
    "nonshared_at_stop": "lost",
}

FAMILIES = ["CQS", "OFFLOAD", "CFLEVEL", "CAPACITY", "TOPOLOGY", "SIZING", "QDEPTH", "RECOVERY", "QUEUE"]

# ---------------------------------------------------------------------------
# Deliberate faults (id -> one-line description).  faults.json carries the
# sentence each one violates and a scenario on which it shows.
FAULTS = {
    # CQS
    "CQS_REACH_STRICT": "overflow processing starts only when usage exceeds OVFLWMAX, not when it reaches it",
    "CQS_NO_ALTER": "CQS goes straight into overflow mode without first trying a structure alter",
    "CQS_DEFAULT_80": "default OVFLWMAX taken as 80% instead of 70%",
    "CQS_SELECT_SMALLEST": "candidates taken in ascending order of space (least space first)",
    "CQS_SELECT_ALL": "selection does not stop when usage would fall 20% below the threshold",
    "CQS_EXIT_IGNORED": "the Queue Overflow exit's rejections are ignored",
    "CQS_VETO_STOPS": "a vetoed candidate ends selection instead of another queue being selected",
    "CQS_NOOVF_ACCEPT": "without an overflow structure, CQSPUT to approved queues is still accepted",
    "CQS_NOT_MOVED": "with an overflow structure, approved queues' data stays on the primary structure",
    "CQS_SCAN_30": "overflow queues scanned every 30 minutes instead of 15",
    "CQS_QUEUE_OFF_AT_DELETE": "a queue leaves overflow mode at the CQSDEL that empties it, not at the scan",
    "CQS_SCAN_REMOVES_NONEMPTY": "the scan returns every overflow queue to normal, empty or not",
    "CQS_MODE_STAYS": "the structure stays in overflow mode after all queues have been removed",
    "CQS_RELIEF_AT_THRESHOLD": "without OVFLWSTR, overflow ends as soon as usage is below OVFLWMAX (not 20% below)",
    "CQS_STAGING_MOVED": "staging-queue parts of large messages are moved to the overflow structure too",
    "CQS_NO_SPLIT": "large messages are not split; no staging-queue parts",
    "CQS_SPLIT_AT_EQUAL": "a message exactly LGMSGSZ long is split (off by one)",
    "CQS_RESOURCE_OVERFLOW": "overflow processing also applied to resource structures",
    "CQS_OVFLWMAX_IGNORED": "the OVFLWMAX parameter is ignored; 70% always used",
    "CQS_REJECT_ALL_QUEUES": "without OVFLWSTR, CQSPUT is rejected for every queue of a structure in overflow mode",
    "CQS_STAGING_COUNTED": "a queue's staging-queue parts counted as its space when selecting candidates",
    "CQS_OVF_PUT_PRIMARY": "new CQSPUTs to a queue moved to the overflow structure still go to the primary",
    "CQS_ALTER_NEVER_FAILS": "the CQS alter is reported successful even when the structure is already at SIZE",
    "CQS_METRIC_ENTRIES": "OVFLWMAX compared with entries in use instead of data elements",
    # OFFLOAD
    "OFF_TH_INCLUSIVE": "offload threshold compared with >= (usage exactly at OFFLDnTH offloads)",
    "OFF_SZ_INCLUSIVE": "offload size compared with >= (a message exactly OFFLDnSZ long offloads)",
    "OFF_64K_WRAPS": "OFFLDnSZ(64K) stored in 16 bits: wraps to 0K instead of switching the rule off",
    "OFF_NO_FORCED": "with every rule off, a message over 63 KB is kept in the structure",
    "OFF_SIZE_ONLY": "a rule's size test applied without its threshold test (APAR PI21909 defect)",
    "OFF_CROSS_RULE": "threshold of one rule combined with the size of another",
    "OFF_DB2_AS_SMDS": "OFFLOAD(DB2) structures report their offloaded data in SMDS",
    "OFF_DEFAULT_DB2": "OFFLOAD defaults to DB2 instead of SMDS",
    "OFF_RULES_BELOW_5": "offload rules applied at CFLEVEL(4)",
    "OFF_DEFINE_L4_ACCEPTED": "DEFINE CFSTRUCT with OFFLOAD below CFLEVEL(5) accepted",
    "OFF_COST_FULL": "an offloaded message charged its full size in the structure",
    "OFF_COST_ENTRY_ONLY": "an offloaded message charged only a list entry (no 512 bytes of data)",
    "OFF_USAGE_AFTER": "offload decision uses the usage after the message is added, not the current usage",
    "OFF_TH0_EMPTY": "OFFLDnTH(0) compared strictly, so an empty structure does not offload",
    "OFF_ALTER_RESETS": "ALTER CFSTRUCT resets offload keywords it does not name to their defaults",
    # CFLEVEL
    "CFL_PERSIST_L2": "persistent messages allowed on a CFLEVEL(2) structure defined RECOVER(YES)",
    "CFL_RECOVERNO_PERSIST": "persistent messages allowed on a RECOVER(NO) structure",
    "CFL_LARGE_L3_6375": "CFLEVEL below 4 accepts messages up to 63.75 KB instead of 63 KB",
    "CFL_LARGE_RC_2030": "a message over 63 KB on CFLEVEL below 4 gets 2030 though MAXMSGL allows it",
    "CFL_DECREASE_UNGUARDED": "CFLEVEL lowered from 3/4/5 while queues on the structure hold messages",
    "CFL_DECREASE_IGNORES_UNCOMMITTED": "CFLEVEL decrease guard looks only at depth, not uncommitted activity",
    "CFL_LEVEL6_ACCEPTED": "DEFINE CFSTRUCT accepts CFLEVEL(6)",
    "CFL_RECOVER_L2_DEFINE": "DEFINE CFSTRUCT accepts RECOVER(YES) with CFLEVEL(2)",
    "CFL_L4_SMDS": "at CFLEVEL(4) messages over 63 KB reported in SMDS instead of Db2",
    "CFL_RAISE_KEEPS_DB2": "after ALTER raises CFLEVEL to 5, large messages still go to Db2 (no SMDS default)",
    # CAPACITY
    "CAP_FT_STRICT": "IXC585E only when usage exceeds FULLTHRESHOLD, not when it reaches it",
    "CAP_FT_ELEMENTS_ONLY": "structure-full monitoring looks at elements only, not entries",
    "CAP_NO_586": "IXC586I never issued when usage goes back below FULLTHRESHOLD",
    "CAP_FT0_MONITORS": "FULLTHRESHOLD(0) does not disable monitoring",
    "CAP_FULL_RC_2053": "a full structure reported as MQRC_Q_FULL (2053)",
    "CAP_FULL_ELEMENTS_ONLY": "structure treated as full only when elements run out; entries ignored",
    "CAP_FT_101_ACCEPTED": "FULLTHRESHOLD above 100 accepted",
    "CAP_586_AT_THRESHOLD": "IXC586I issued when usage drops to FULLTHRESHOLD, not below it",
    # SIZING
    "SIZ_ALTER_ABOVE_SIZE": "SETXCF ALTER above the CFRM SIZE accepted",
    "SIZ_ALTER_NO_EFFECT": "SETXCF ALTER accepted but the structure keeps its old size",
    "SIZ_ADMIN_ROW_OFF_BY_ONE": "CSQ_ADMIN size read from Table 1's row for one queue manager fewer",
    "SIZ_ADMIN_SMALL_ACCEPTED": "CSQ_ADMIN smaller than Table 1's minimum accepted",
    "SIZ_INITSIZE_IGNORED": "structures allocated at SIZE instead of INITSIZE",
    "SIZ_CONTROL_6MB": "Table 2's 6 MB intercept charged again as fixed control storage",
    "SIZ_ADMIN_V6_TABLE": "the CFCC level 14 edition of Table 1 ignored; the V6 table used",
    # TOPOLOGY
    "TOP_QSG_5": "QSG names of five characters accepted",
    "TOP_QSG_EQ_QM": "a QSG name equal to a queue manager name accepted",
    "TOP_513_QUEUES": "513 shared queues accepted on one structure",
    "TOP_64_STRUCTS": "64 application structures accepted",
    "TOP_SYSAPPL_EXTRA": "CSQSYSAPPL not counted against the 63 application structures",
    "TOP_NAME_13": "structure names of 13 characters accepted",
    "TOP_NAME_DIGIT": "structure names starting with a digit accepted",
    "TOP_CFNAME_NOPAD": "CFRM structure name built without padding the QSG name with @",
    "TOP_33_QMGRS": "33 queue managers connected to the structures",
    "TOP_DEFINE_513": "DEFINE QLOCAL of a 513th queue on a structure accepted",
    # QDEPTH
    "QD_HI_STRICT": "Queue Depth High only when depth exceeds the high limit",
    "QD_LO_STRICT": "Queue Depth Low only when depth falls below the low limit",
    "QD_SHARED_NEEDS_PERFMEV": "shared-queue event switches not toggled when the detecting QM has PERFMEV DISABLED",
    "QD_NONSHARED_TOGGLES_DISABLED": "nonshared-queue switches toggled while PERFMEV is DISABLED",
    "QD_HI_NO_MAX_ENABLE": "Queue Depth High does not enable QDPMAXEV",
    "QD_HI_STAYS_ENABLED": "Queue Depth High does not disable QDPHIEV",
    "QD_LO_NO_HI_ENABLE": "Queue Depth Low does not enable QDPHIEV",
    "QD_QFULL_NO_LO_ENABLE": "Queue Full does not enable QDPLOEV",
    "QD_QFULL_MAX_STAYS": "Queue Full does not disable QDPMAXEV",
    "QD_NO_BROADCAST": "only the coordinating queue manager issues an event message",
    "QD_INACTIVE_EMIT": "stopped queue managers also issue event messages",
    "QD_OWN_CORREL": "each queue manager puts its own CorrelId in its event message",
    "QD_STATS_NOT_RESET": "statistics not reset when an event message is issued",
    "QD_STATS_GLOBAL": "event messages carry the whole group's statistics, not the issuer's",
    "QD_DISABLED_EMITS": "queue managers with PERFMEV DISABLED issue event messages",
    "QD_RESET_QSTATS_IGNORED": "RESET QSTATS does not reset the statistics",
    "QD_QFULL_OFF_BY_ONE": "the queue is reported full one message early (depth >= MAXDEPTH-1)",
    "QD_QFULL_NO_EVENT": "no Queue Full event when a put fails on a full queue",
    "QD_NULL_EVENT_SKIPPED": "a queue manager with no activity on the queue issues no event message",
    # RECOVERY
    "REC_NONPERSIST_RECOVERED": "RECOVER restores nonpersistent messages too",
    "REC_BACKUP_ONLY": "RECOVER restores the backup only; later log activity not replayed",
    "REC_OWN_LOG_ONLY": "RECOVER replays only the log of the queue manager that took the backup",
    "REC_NORMAL_NOT_FAILED_OK": "RECOVER TYPE(NORMAL) accepted on a structure that has not failed",
    "REC_BACKUP_RECOVERNO": "BACKUP CFSTRUCT accepted for a RECOVER(NO) structure",
    "REC_PURGE_KEEPS": "RECOVER TYPE(PURGE) restores persistent messages instead of emptying",
    "REC_FAILED_RC_2192": "MQI calls on a failed structure get 2192 instead of 2373",
    "REC_UNCOMMITTED_RECOVERED": "RECOVER restores persistent messages whose put was uncommitted at failure",
    "REC_NO_BACKUP_OK": "RECOVER TYPE(NORMAL) succeeds without any backup (empty structure)",
    "REC_BACKUP_L2": "BACKUP CFSTRUCT accepted for a structure below CFLEVEL(3)",
    # QUEUE
    "Q_UNCOMMITTED_VISIBLE": "MQGET returns messages whose put is not yet committed",
    "Q_BACKOUT_GET_LOST": "backing out an MQGET loses the message",
    "Q_STOP_LOSES_SHARED_NP": "stopping a queue manager deletes nonpersistent messages on shared queues",
    "Q_SHARED_NOT_VISIBLE": "a shared-queue message is only visible to the queue manager that put it",
    "Q_MAXMSGL_INCLUSIVE": "a message exactly MAXMSGL long rejected with 2030",
}

FAULT = None

# ---------------------------------------------------------------------------
# Storage accounting (our own; see README "Storage accounting").
ELEMENT_BYTES = 256          # one data element
ENTRY_BYTES = 256            # one list entry (entry control + adjunct)
HEADER_BYTES = 512           # message header / prefix stored with the data
OFFLOADED_ELEMENTS = 2       # entry + 2 elements = 768 B = 0.75 KB per offloaded message
CF_LIMIT = 64512             # 63 KB: larger data is always offloaded (forced_offload_boundary 63K)
CF_LIMIT_6375 = 65280        # 63.75 KB = 255 elements of 256 B (only used by a fault)
MAX_MSG = 104857600          # 100 MB
CONTROL_BASE_KB = 256        # fixed control storage of a structure
CONTROL_DIV = 32             # plus 1/32 of its size (lock table, list headers)
SCAN_SECONDS = 900           # CQS overflow scan: every 15 minutes

OFFLD_DEFAULTS = [[70, 32768], [80, 4096], [90, 0]]
OFF_64K = 65536

# Table 1 (CFCC level 14) minimum CSQ_ADMIN sizes, 1..31 queue managers;
# 32 is our extrapolation (+768 KB, the table's usual step).
ADMIN_CFCC14 = [6144, 6912, 7976, 8704, 9728, 10496, 11520, 12288, 13056, 14080, 14848,
                15616, 16640, 17408, 18176, 19200, 19968, 20736, 21760, 22528, 23296, 24320,
                25088, 25856, 27136, 27904, 28672, 29696, 30464, 31232, 32256, 33024]
# MQ V6 (CFCC level 9) edition; rows 1,2,4,8,16,31 -- other counts use the next row up.
ADMIN_V6 = [(1, 2560), (2, 3328), (4, 4608), (8, 7680), (16, 13568), (31, 24832), (32, 25600)]

MQ_NAME_RE = re.compile(r"^[A-Z][A-Z0-9]*$")
Q_NAME_RE = re.compile(r"^[A-Za-z0-9._/%]{1,48}$")


def ceil_div(a, b):
    return -(-a // b)


def struct_totals(size_kb, ratio):
    """entries_total, elements_total of a structure of size_kb with `ratio` elements per entry."""
    ctl = CONTROL_BASE_KB + ceil_div(size_kb, CONTROL_DIV)
    if FAULT == "SIZ_CONTROL_6MB":
        ctl += 6144
    avail = (size_kb - ctl) * 1024
    if avail <= 0 or ratio <= 0:
        return 0, 0
    n = avail // (ENTRY_BYTES + ratio * ELEMENT_BYTES)
    return n, n * ratio


def cf_elements(datalen):
    return ceil_div(datalen + HEADER_BYTES, ELEMENT_BYTES)


def admin_min_kb(table, n):
    n = max(1, n)
    if table == "v6":
        for rows, kb in ADMIN_V6:
            if n <= rows:
                return kb
        return ADMIN_V6[-1][1]
    if FAULT == "SIZ_ADMIN_ROW_OFF_BY_ONE":
        n = max(1, n - 1)
    return ADMIN_CFCC14[min(n, len(ADMIN_CFCC14)) - 1]


def admin_entries(size_kb):
    # CSQ_ADMIN list entries: 512 bytes each (entry + its element) after 256 KB of control.
    return max(0, (size_kb - 256) * 2)


def admin_edition(name):
    s = name.strip().lower()
    if s in ("v6", "mq6", "mqv6", "cfcc9", "cfcc09", "cfcc_9", "cfcc-9"):
        return "v6"
    m = re.match(r"^cfcc[-_]?0*(\d+)$", s)
    if m:
        return "v6" if int(m.group(1)) < 14 else "cfcc14"
    if s in ("current", "latest", "cfcc14"):
        return "cfcc14"
    return None


# ---------------------------------------------------------------------------
class OpError(Exception):
    def __init__(self, code, text, detail=None):
        Exception.__init__(self, text)
        self.code = code
        self.text = text
        self.detail = detail


class Invalid(Exception):
    """A record that is invalid: (field, value, allowed, rule)."""

    def __init__(self, field, value, allowed, rule=None):
        Exception.__init__(self, "%s=%r is invalid: allowed %s" % (field, value, allowed))
        self.field = field
        self.value = value
        self.allowed = allowed
        self.rule = rule


def bad(field, value, allowed, rule=None):
    raise Invalid(field, value, allowed, rule)


def is_int(v):
    return type(v) is int


def is_bool(v):
    return type(v) is bool


# ---------------------------------------------------------------------------
class Msg(object):
    __slots__ = ("seq", "tag", "length", "persistent", "loc", "ent", "el", "queue",
                 "ovf", "nstg", "stg_el", "putter", "dead")

    def __init__(self, seq, tag, length, persistent, loc, ent, el, queue, putter):
        self.seq = seq
        self.tag = tag
        self.length = length
        self.persistent = persistent
        self.loc = loc
        self.ent = ent
        self.el = el
        self.queue = queue
        self.ovf = False
        self.nstg = 0
        self.stg_el = 0
        self.putter = putter
        self.dead = False

    def __lt__(self, other):
        return self.seq < other.seq


class Struct(object):
    def __init__(self, rec, profile):
        self.name = rec["name"]
        self.size_max = rec["size_kb"]
        init = rec["initsize_kb"]
        self.initsize = init if init is not None else self.size_max
        self.size = self.initsize
        if FAULT == "SIZ_INITSIZE_IGNORED":
            self.size = self.size_max
        self.ft = rec["fullthreshold"]
        self.ratio = rec["ratio"]
        self.cflevel = rec["cflevel"]
        self.recover = rec["recover"]
        off = rec["offload"]
        if off is not None:
            off = off.upper()
        elif self.cflevel >= 5:
            off = "DB2" if FAULT == "OFF_DEFAULT_DB2" else "SMDS"
        self.offload = off
        self.offld = [[rec["offld1th"], rec["offld1sz"]], [rec["offld2th"], rec["offld2sz"]],
                      [rec["offld3th"], rec["offld3sz"]]]
        om = rec["ovflwmax"]
        if om is None or FAULT == "CQS_OVFLWMAX_IGNORED":
            om = 80 if FAULT == "CQS_DEFAULT_80" and om is None else 70
        self.ovflwmax = om
        self.ovflwstr = rec["ovflwstr"]
        self.ovflw_size = rec["ovflw_size_kb"]
        self.resource = rec["resource"]
        self.status = "ACTIVE"
        self.ent_used = 0
        self.el_used = 0
        self.ent_total, self.el_total = struct_totals(self.size, self.ratio)
        self.full_warning = False
        self.backup = None          # (snapshot of Msg, qmgr, seq mark, {seq: getter}) or None
        self.failed_state = []      # committed persistent messages at the failure point
        self.overflow_mode = False
        self.staging = 0
        self.o_ent_used = 0
        self.o_el_used = 0
        self.o_ent_total, self.o_el_total = struct_totals(self.ovflw_size, self.ratio)
        self.queues = []

    def recalc(self):
        self.ent_total, self.el_total = struct_totals(self.size, self.ratio)

    def usage(self):
        if self.status != "ACTIVE":
            return [0, self.ent_total, 0, self.el_total]
        return [self.ent_used, self.ent_total, self.el_used, self.el_total]


class Queue(object):
    def __init__(self, rec, struct, idx):
        self.name = rec["name"]
        self.struct = struct
        self.owner = rec["qmgr"] if struct is None else None
        self.maxdepth = rec["maxdepth"]
        self.maxmsgl = rec["maxmsgl"]
        self.hi = rec["qdepthhi"]
        self.lo = rec["qdepthlo"]
        self.hiev = rec["qdphiev"]
        self.loev = rec["qdploev"]
        self.maxev = rec["qdpmaxev"]
        self.depth = 0
        self.avail = []            # heap of Msg (committed, not locked)
        self.stats = {}            # qmgr -> [enq, deq]
        self.overflow = False
        self.el_p = 0              # elements of first parts on the primary structure
        self.stg_el = 0            # elements of staging parts (primary)
        self.pending = 0           # uncommitted operations
        self.idx = idx


class QMgr(object):
    __slots__ = ("name", "active", "perfmev", "uow")

    def __init__(self, name, perfmev):
        self.name = name
        self.active = True
        self.perfmev = perfmev
        self.uow = []


# ---------------------------------------------------------------------------
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
ACCOUNTING_KEYS = {"element_bytes": "int", "entry_bytes": "int", "header_bytes": "int",
                   "overhead": "num", "fixed_kb": "int", "offloaded_elements": "int"}
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
    "cqs_relief_timing": ["at-delete", "by-scan"], "offload_after_raise": ["kept", "off"],
    "qstats_at_stop": ["kept", "reset"], "nonshared_at_stop": ["kept", "lost"],
}
INT_S = ("size_kb", "fullthreshold", "ratio", "cflevel", "offld1th", "offld1sz", "offld2th",
         "offld2sz", "offld3th", "offld3sz", "ovflw_size_kb")
INT_Q = ("maxdepth", "maxmsgl", "qdepthhi", "qdepthlo")
BOOL_Q = ("qdphiev", "qdploev", "qdpmaxev")


def fill_struct(rec, where):
    if not isinstance(rec, dict):
        bad(where, rec, "an object")
    for k in rec:
        if k not in STRUCT_DEFAULTS:
            bad(where + "." + k, rec[k], "a structure field")
    r = dict(STRUCT_DEFAULTS)
    r.update(rec)
    if not isinstance(r["name"], str):
        bad(where + ".name", r["name"], "a string")
    for k in INT_S:
        if not is_int(r[k]):
            bad(where + "." + k, r[k], "an integer")
    for k in ("initsize_kb", "ovflwmax"):
        if r[k] is not None and not is_int(r[k]):
            bad(where + "." + k, r[k], "an integer or null")
    for k in ("offload", "ovflwstr"):
        if r[k] is not None and not isinstance(r[k], str):
            bad(where + "." + k, r[k], "a string or null")
    for k in ("recover", "resource"):
        if not is_bool(r[k]):
            bad(where + "." + k, r[k], "a boolean")
    return r


def fill_queue(rec, where):
    if not isinstance(rec, dict):
        bad(where, rec, "an object")
    for k in rec:
        if k not in QUEUE_DEFAULTS:
            bad(where + "." + k, rec[k], "a queue field")
    r = dict(QUEUE_DEFAULTS)
    r.update(rec)
    if not isinstance(r["name"], str):
        bad(where + ".name", r["name"], "a string")
    for k in ("cfstruct", "qmgr"):
        if r[k] is not None and not isinstance(r[k], str):
            bad(where + "." + k, r[k], "a string or null")
    for k in INT_Q:
        if not is_int(r[k]):
            bad(where + "." + k, r[k], "an integer")
    for k in BOOL_Q:
        if not is_bool(r[k]):
            bad(where + "." + k, r[k], "a boolean")
    return r


def check_struct_values(r, profile, where, command):
    """Range rules of a structure record; `command` = a DEFINE (stricter than a state)."""
    name = r["name"]
    if profile == "mq":
        maxlen = 13 if FAULT == "TOP_NAME_13" else 12
        if not (1 <= len(name) <= maxlen):
            bad(where + ".name", name, "1 to 12 characters", "TOPOLOGY-009")
        pat = r"^[A-Z0-9][A-Z0-9]*$" if FAULT == "TOP_NAME_DIGIT" else r"^[A-Z][A-Z0-9]*$"
        if not re.match(pat, name):
            bad(where + ".name", name, "an uppercase letter then A-Z/0-9", "TOPOLOGY-009")
        lo_lvl, hi_lvl = 1, 5
        if FAULT == "CFL_LEVEL6_ACCEPTED" and command:
            hi_lvl = 6
        if not (lo_lvl <= r["cflevel"] <= hi_lvl):
            bad(where + ".cflevel", r["cflevel"], "1..5", "CFLEVEL-001")
        if r["offload"] is not None and r["offload"].upper() not in ("SMDS", "DB2"):
            bad(where + ".offload", r["offload"], "SMDS, DB2 or null")
        if command:
            if r["offload"] is not None and r["cflevel"] < 5 and FAULT != "OFF_DEFINE_L4_ACCEPTED":
                bad(where + ".offload", r["offload"], "only from CFLEVEL(5)", "OFFLOAD-011")
            if r["recover"] and r["cflevel"] < 3 and FAULT != "CFL_RECOVER_L2_DEFINE":
                bad(where + ".recover", True, "RECOVER(YES) needs CFLEVEL(3) or higher", "CFLEVEL-004")
        for n in (1, 2, 3):
            th = r["offld%dth" % n]
            sz = r["offld%dsz" % n]
            if not (0 <= th <= 100):
                bad(where + ".offld%dth" % n, th, "0..100")
            if not (0 <= sz <= OFF_64K):
                bad(where + ".offld%dsz" % n, sz, "0..65536 (0K..64K)")
    else:
        if not (1 <= len(name) <= 16):
            bad(where + ".name", name, "1 to 16 characters")
        if r["ovflwmax"] is not None and not (0 <= r["ovflwmax"] <= 100):
            bad(where + ".ovflwmax", r["ovflwmax"], "0..100")
        if r["ovflwstr"] is not None:
            if not (1 <= len(r["ovflwstr"]) <= 16) or r["ovflwstr"] == name:
                bad(where + ".ovflwstr", r["ovflwstr"], "1 to 16 characters, not the primary's name")
            if r["resource"] and FAULT != "CQS_RESOURCE_OVERFLOW":
                bad(where + ".ovflwstr", r["ovflwstr"], "null: overflow is not supported for resource structures", "CQS-010")
        if r["ovflw_size_kb"] < 1:
            bad(where + ".ovflw_size_kb", r["ovflw_size_kb"], ">= 1")
    if r["size_kb"] < 1:
        bad(where + ".size_kb", r["size_kb"], ">= 1")
    if r["initsize_kb"] is not None and not (1 <= r["initsize_kb"] <= r["size_kb"]):
        bad(where + ".initsize_kb", r["initsize_kb"], "1..size_kb")
    fmax = 101 if FAULT == "CAP_FT_101_ACCEPTED" else 100
    if not (0 <= r["fullthreshold"] <= fmax):
        bad(where + ".fullthreshold", r["fullthreshold"], "0..100", "CAPACITY-009")
    if r["ratio"] < 1:
        bad(where + ".ratio", r["ratio"], ">= 1")


def check_queue_values(r, where):
    if not Q_NAME_RE.match(r["name"]):
        bad(where + ".name", r["name"], "1 to 48 characters A-Z a-z 0-9 . / _ %")
    if not (0 <= r["maxdepth"] <= 999999999):
        bad(where + ".maxdepth", r["maxdepth"], "0..999999999", "QDEPTH-014")
    if not (0 <= r["maxmsgl"] <= MAX_MSG):
        bad(where + ".maxmsgl", r["maxmsgl"], "0..104857600")
    if not (0 <= r["qdepthhi"] <= 100):
        bad(where + ".qdepthhi", r["qdepthhi"], "0..100", "QDEPTH-014")
    if not (0 <= r["qdepthlo"] <= 100):
        bad(where + ".qdepthlo", r["qdepthlo"], "0..100", "QDEPTH-014")


def max_app_structs(names):
    if FAULT == "TOP_64_STRUCTS":
        return 64
    if FAULT == "TOP_SYSAPPL_EXTRA" and "CSQSYSAPPL" in names:
        return 64
    return 63


# ---------------------------------------------------------------------------
OP_SPECS = {
    "define_structure": [("structure", "obj", True, None)],
    "alter_structure": [("name", "str", True, None), ("changes", "obj", True, None)],
    "define_queue": [("queue", "obj", True, None)],
    "alter_queue": [("name", "str", True, None), ("changes", "obj", True, None)],
    "put": [("qmgr", "str", True, None), ("queue", "str", True, None), ("length", "int", True, None),
            ("persistent", "bool", False, False), ("syncpoint", "bool", False, False),
            ("tag", "int", False, 0)],
    "get": [("qmgr", "str", True, None), ("queue", "str", True, None), ("syncpoint", "bool", False, False)],
    "commit": [("qmgr", "str", True, None)],
    "backout": [("qmgr", "str", True, None)],
    "set_perfmev": [("qmgr", "str", True, None), ("enabled", "bool", True, None)],
    "reset_qstats": [("qmgr", "str", True, None), ("queue", "str", True, None)],
    "start_qmgr": [("qmgr", "str", True, None)],
    "stop_qmgr": [("qmgr", "str", True, None)],
    "backup": [("qmgr", "str", True, None), ("cfstruct", "str", True, None)],
    "fail_structure": [("cfstruct", "str", True, None)],
    "recover": [("cfstruct", "str", True, None), ("purge", "bool", False, False)],
    "setxcf_alter": [("cfstruct", "str", True, None), ("size_kb", "int", True, None)],
    "alter_outcome": [("cfstruct", "str", True, None), ("success", "bool", True, None),
                      ("size_kb", "intnull", False, None)],
    "set_overflow_exit": [("vetoes", "strlistnull", False, None)],
    "advance_clock": [("seconds", "int", True, None)],
    "inspect": [],
}
CQS_OPS = {"define_structure", "define_queue", "put", "get", "setxcf_alter", "alter_outcome",
           "set_overflow_exit", "advance_clock", "inspect"}
MQ_ONLY_NOT = {"alter_outcome", "set_overflow_exit"}


def type_ok(kind, v):
    if kind == "str":
        return isinstance(v, str)
    if kind == "int":
        return type(v) is int
    if kind == "bool":
        return type(v) is bool
    if kind == "obj":
        return isinstance(v, dict)
    if kind == "intnull":
        return v is None or type(v) is int
    if kind == "strlistnull":
        return v is None or (isinstance(v, list) and all(isinstance(x, str) for x in v))
    return False


def parse_op(op):
    """Return (kind, args dict) or raise OpError 11."""
    if not isinstance(op, dict):
        raise OpError(11, "an operation must be an object")
    kind = op.get("op")
    if not isinstance(kind, str):
        raise OpError(11, "operation without a string 'op'")
    spec = OP_SPECS.get(kind)
    if spec is None:
        raise OpError(11, "unknown operation kind %r" % kind)
    args = {}
    known = {"op"}
    for name, t, req, default in spec:
        known.add(name)
        if name in op:
            v = op[name]
            if not type_ok(t, v):
                raise OpError(11, "%s: field %r has the wrong type" % (kind, name))
            args[name] = v
        elif req:
            raise OpError(11, "%s: missing field %r" % (kind, name))
        else:
            args[name] = default
    for k in op:
        if k not in known:
            raise OpError(11, "%s: unknown field %r" % (kind, k))
    return kind, args


def out(kind, ok, reason=None, **kw):
    o = {"kind": kind, "ok": ok}
    if reason is not None:
        o["reason"] = reason
    for k, v in kw.items():
        if v is None:
            continue
        if isinstance(v, list) and not v and k != "usage":
            continue
        o[k] = v
    return o


# ---------------------------------------------------------------------------
class Sim(object):
    def __init__(self, send_location=True):
        self.send_location = send_location
        self.opened = False

    # ---------------------------------------------------------------- open
    def open(self, cfg):
        if not isinstance(cfg, dict):
            raise OpError(11, "config must be an object")
        known = ("profile", "qsg", "qmgrs", "structures", "queues", "readings", "accounting",
                 "lgmsgsz", "overflow_exit", "perfmev_disabled", "admin_size_kb", "admin_table")
        for k in cfg:
            if k not in known:
                bad13(k, cfg[k], "a config field")
        profile = cfg.get("profile", "mq")
        if not isinstance(profile, str):
            bad13("profile", profile, "mq or cqs")
        if profile not in ("mq", "cqs"):
            raise OpError(10, "profile %r is not implemented" % profile,
                          {"field": "profile", "value": profile, "allowed": "mq, cqs"})
        try:
            self._open(cfg, profile)
        except Invalid as e:
            self.opened = False
            d = {"field": e.field, "value": e.value, "allowed": e.allowed}
            if e.rule:
                d["rule_id"] = e.rule
            raise OpError(13, "%s=%r is invalid: allowed %s" % (e.field, e.value, e.allowed), d)
        self.opened = True

    def _open(self, cfg, profile):
        qsg = cfg.get("qsg", "QSG1")
        qmgrs = cfg.get("qmgrs", ["QM01", "QM02", "QM03"])
        if not isinstance(qsg, str):
            bad("qsg", qsg, "a string")
        if not isinstance(qmgrs, list) or not all(isinstance(x, str) and x for x in qmgrs):
            bad("qmgrs", qmgrs, "a list of names")
        if len(set(qmgrs)) != len(qmgrs):
            bad("qmgrs", qmgrs, "distinct names")
        if profile == "mq":
            maxq = 4 if FAULT != "TOP_QSG_5" else 5
            if not (1 <= len(qsg) <= maxq):
                bad("qsg", qsg, "1 to 4 characters", "TOPOLOGY-015")
            if qsg in qmgrs and FAULT != "TOP_QSG_EQ_QM":
                bad("qsg", qsg, "a name different from every queue manager's", "TOPOLOGY-015")
            maxqm = 33 if FAULT == "TOP_33_QMGRS" else 32
            if len(qmgrs) > maxqm:
                bad("qmgrs", len(qmgrs), "at most 32 queue managers connected to a structure", "TOPOLOGY-011")
        structs = cfg.get("structures", [dict(STRUCT_DEFAULTS, name="APP1")])
        if not isinstance(structs, list):
            bad("structures", structs, "a list")
        queues = cfg.get("queues", [])
        if not isinstance(queues, list):
            bad("queues", queues, "a list")
        # readings / accounting: validated, then ignored (we follow our own)
        rd = cfg.get("readings", {})
        if not isinstance(rd, dict):
            bad("readings", rd, "an object")
        for k, v in rd.items():
            if k not in READING_VALUES or v not in READING_VALUES[k]:
                bad("readings." + k, v, "a known ambiguity and reading")
        acc = cfg.get("accounting", {})
        if not isinstance(acc, dict):
            bad("accounting", acc, "an object")
        for k, v in acc.items():
            t = ACCOUNTING_KEYS.get(k)
            if t is None:
                bad("accounting." + k, v, "an accounting field")
            if t == "int" and not is_int(v):
                bad("accounting." + k, v, "an integer")
            if t == "num" and (type(v) not in (int, float)):
                bad("accounting." + k, v, "a number")
        lg = cfg.get("lgmsgsz", 4096)
        if not is_int(lg):
            bad("lgmsgsz", lg, "an integer")
        if profile == "cqs" and not (1 <= lg <= 99999):
            bad("lgmsgsz", lg, "1..99999 (a 1-5 digit number of bytes)")
        ox = cfg.get("overflow_exit", None)
        if ox is not None and not (isinstance(ox, list) and all(isinstance(x, str) for x in ox)):
            bad("overflow_exit", ox, "null or a list of queue names")
        pd = cfg.get("perfmev_disabled", [])
        if not isinstance(pd, list) or not all(isinstance(x, str) for x in pd):
            bad("perfmev_disabled", pd, "a list of queue manager names")
        for x in pd:
            if x not in qmgrs:
                bad("perfmev_disabled", x, "one of %r" % (qmgrs,))
        asz = cfg.get("admin_size_kb", None)
        if asz is not None and not is_int(asz):
            bad("admin_size_kb", asz, "an integer or null")
        atab = cfg.get("admin_table", "cfcc14")
        if not isinstance(atab, str):
            bad("admin_table", atab, "a string")
        edition = admin_edition(atab)
        if edition is None:
            bad("admin_table", atab, "cfcc14 or cfcc9 (v6)")
        if FAULT == "SIZ_ADMIN_V6_TABLE":
            edition = "v6"

        self.profile = profile
        self.qsg = qsg
        self.qm_order = list(qmgrs)
        self.qms = {n: QMgr(n, n not in pd) for n in qmgrs}
        self.structs = {}
        self.struct_order = []
        for i, rec in enumerate(structs):
            r = fill_struct(rec, "structures[%d]" % i)
            check_struct_values(r, profile, "structures[%d]" % i, False)
            if r["name"] in self.structs:
                bad("structures[%d].name" % i, r["name"], "a name not already used")
            s = Struct(r, profile)
            self.structs[s.name] = s
            self.struct_order.append(s.name)
        if profile == "mq" and len(self.structs) > max_app_structs(self.structs):
            bad("structures", len(self.structs),
                "at most 63 application structures (62 besides CSQSYSAPPL)", "TOPOLOGY-003")
        self.queues = {}
        self.queue_order = []
        for i, rec in enumerate(queues):
            r = fill_queue(rec, "queues[%d]" % i)
            where = "queues[%d]" % i
            if profile == "mq":
                check_queue_values(r, where)
            elif not r["name"]:
                bad(where + ".name", r["name"], "a name")
            if r["name"] in self.queues:
                bad(where + ".name", r["name"], "a name not already used")
            s = None
            if r["cfstruct"] is not None:
                s = self.structs.get(r["cfstruct"])
                if s is None:
                    bad(where + ".cfstruct", r["cfstruct"], "one of %r" % (self.struct_order,))
            else:
                if profile == "cqs":
                    bad(where + ".cfstruct", None, "a structure name (CQS queues live on a structure)")
                if r["qmgr"] not in self.qms:
                    bad(where + ".qmgr", r["qmgr"], "the owning queue manager of a nonshared queue")
            q = Queue(r, s, len(self.queue_order))
            if s is not None:
                s.queues.append(q)
                lim = 513 if FAULT == "TOP_513_QUEUES" else 512
                if profile == "mq" and len(s.queues) > lim:
                    bad("queues", r["name"], "at most 512 queues on structure %s" % s.name, "TOPOLOGY-005")
            self.queues[q.name] = q
            self.queue_order.append(q.name)
        if profile == "mq":
            n = len(qmgrs)
            mn = admin_min_kb(edition, n)
            if asz is None:
                asz = mn
            elif FAULT != "SIZ_ADMIN_SMALL_ACCEPTED":
                if asz < mn:
                    bad("admin_size_kb", asz, ">= %d KB (Table 1, %d queue managers)" % (mn, n), "TOPOLOGY-008")
                if admin_entries(asz) < 1000 * n:
                    bad("admin_size_kb", asz, "at least 1000 list entries per queue manager", "TOPOLOGY-007")
        self.admin_kb = asz
        # CQS long message record size: rounded up to a multiple of 4, at most 30632
        lg = ceil_div(lg, 4) * 4 if lg > 0 else lg
        self.lgmsgsz = min(lg, 30632)
        self.vetoes = None if ox is None else set(ox)
        self.clock = 0
        self.seq = 0
        self.correl = 0

    # ------------------------------------------------------------- helpers
    def qm(self, name, field="qmgr"):
        m = self.qms.get(name)
        if m is None:
            raise OpError(14, "%s=%r is invalid: allowed one of %r [TOPOLOGY-006]" % (field, name, self.qm_order),
                          {"field": field, "value": name, "allowed": "one of %r" % (self.qm_order,),
                           "rule_id": "TOPOLOGY-006"})
        return m

    def queue(self, name, field="queue"):
        q = self.queues.get(name)
        if q is None:
            raise OpError(14, "%s=%r is invalid: allowed one of %r [TOPOLOGY-013]" % (field, name, self.queue_order),
                          {"field": field, "value": name, "allowed": "one of %r" % (self.queue_order,),
                           "rule_id": "TOPOLOGY-013"})
        return q

    def struct(self, name, field="cfstruct"):
        s = self.structs.get(name)
        if s is None:
            raise OpError(14, "%s=%r is invalid: allowed one of %r" % (field, name, self.struct_order),
                          {"field": field, "value": name, "allowed": "one of %r" % (self.struct_order,)})
        return s

    def owned(self, q, qmname):
        if q.struct is None and q.owner != qmname:
            raise OpError(14, "queue %r is a nonshared queue of %s, not visible to %s" % (q.name, q.owner, qmname),
                          {"field": "queue", "value": q.name, "allowed": "a queue visible to %s" % qmname,
                           "rule_id": "TOPOLOGY-013"})

    def check_ft(self, s, sig):
        """z/OS structure full monitoring: IXC585E at FULLTHRESHOLD, IXC586I back below."""
        if s.status != "ACTIVE":
            return
        ft = s.ft
        if ft == 0 and FAULT != "CAP_FT0_MONITORS":
            on = False
            off = True
        else:
            et, lt = s.ent_total, s.el_total
            eu, lu = s.ent_used, s.el_used
            if FAULT == "CAP_FT_ELEMENTS_ONLY":
                et = eu = 0
            if FAULT == "CAP_FT_STRICT":
                on = (et > 0 and 100 * eu > ft * et) or (lt > 0 and 100 * lu > ft * lt)
            else:
                on = (et > 0 and 100 * eu >= ft * et) or (lt > 0 and 100 * lu >= ft * lt)
            if FAULT == "CAP_586_AT_THRESHOLD":
                off = not ((et > 0 and 100 * eu > ft * et) or (lt > 0 and 100 * lu > ft * lt))
            else:
                off = not on
        if not s.full_warning and on:
            s.full_warning = True
            sig.append("IXC585E " + s.name)
        elif s.full_warning and off:
            s.full_warning = False
            if FAULT != "CAP_NO_586":
                sig.append("IXC586I " + s.name)

    def fits(self, s, ent, el):
        if FAULT == "CAP_FULL_ELEMENTS_ONLY":
            return s.el_used + el <= s.el_total
        return s.ent_used + ent <= s.ent_total and s.el_used + el <= s.el_total

    def alloc(self, s, ent, el):
        s.ent_used += ent
        s.el_used += el

    def free(self, s, ent, el):
        s.ent_used -= ent
        s.el_used -= el

    def inspect(self):
        st = {}
        for n in sorted(self.structs):
            s = self.structs[n]
            u = s.usage()
            d = {"elements_total": u[3], "elements_used": u[2], "entries_total": u[1], "entries_used": u[0],
                 "full_warning": s.full_warning, "size_kb": s.size, "status": s.status}
            if self.profile == "cqs":
                d["alter_pending"] = False
                d["overflow_mode"] = s.overflow_mode
                d["overflow_queues"] = sorted(q.name for q in s.queues if q.overflow)
                d["staging_depth"] = s.staging
            else:
                if FAULT == "TOP_CFNAME_NOPAD":
                    d["cfname"] = self.qsg + s.name
                else:
                    d["cfname"] = (self.qsg + "@@@@")[:4] + s.name
            st[n] = dict(sorted(d.items()))
        qs = {}
        for n in sorted(self.queues):
            q = self.queues[n]
            depth = q.depth
            if q.struct is not None and q.struct.status != "ACTIVE":
                depth = 0
            if self.profile == "cqs":
                qs[n] = {"depth": depth, "overflow": q.overflow}
            else:
                qs[n] = {"depth": depth, "qdphiev": q.hiev, "qdploev": q.loev, "qdpmaxev": q.maxev}
        qm = {}
        for n in sorted(self.qms):
            m = self.qms[n]
            qm[n] = {"active": m.active, "perfmev": m.perfmev}
        v = {"clock": self.clock, "qmgrs": qm, "queues": qs, "structures": st}
        if self.profile == "mq":
            v = {"admin": {"entries_total": admin_entries(self.admin_kb), "size_kb": self.admin_kb},
                 "clock": self.clock, "qmgrs": qm, "queues": qs, "structures": st}
        return out("inspect", True, value=v)

    # ------------------------------------------------------------- apply
    def apply(self, op):
        kind, a = parse_op(op)
        if self.profile == "cqs":
            if kind not in CQS_OPS:
                raise OpError(14, "operation %r is not part of the cqs profile" % kind,
                              {"field": "op", "value": kind, "allowed": sorted(CQS_OPS)})
        elif kind in MQ_ONLY_NOT:
            raise OpError(14, "operation %r is not part of the mq profile" % kind,
                          {"field": "op", "value": kind, "allowed": "an mq operation"})
        return getattr(self, "op_" + kind)(a)

    def op_inspect(self, a):
        return self.inspect()

    def op_advance_clock(self, a):
        sec = a["seconds"]
        if sec < 0:
            raise OpError(14, "seconds=%d is invalid: allowed >= 0" % sec,
                          {"field": "seconds", "value": sec, "allowed": ">= 0"})
        old = self.clock
        self.clock = old + sec
        sig = []
        if self.profile == "cqs":
            period = 1800 if FAULT == "CQS_SCAN_30" else SCAN_SECONDS
            if self.clock // period > old // period:
                self.scan(sig)
        return out("advance_clock", True, signals=sig)

    # ---------------------------------------------------------- definitions
    def op_define_structure(self, a):
        try:
            r = fill_struct(a["structure"], "structure")
            check_struct_values(r, self.profile, "structure", True)
            if r["name"] in self.structs:
                bad("structure.name", r["name"], "a name not already defined")
            if self.profile == "mq" and len(self.structs) + 1 > max_app_structs(set(self.structs) | {r["name"]}):
                bad("structure", r["name"], "at most 63 application structures", "TOPOLOGY-003")
        except Invalid:
            return out("define_structure", False, "INVALID")
        s = Struct(r, self.profile)
        self.structs[s.name] = s
        self.struct_order.append(s.name)
        return out("define_structure", True)

    def op_define_queue(self, a):
        try:
            r = fill_queue(a["queue"], "queue")
            if self.profile == "mq":
                check_queue_values(r, "queue")
            elif not r["name"]:
                bad("queue.name", r["name"], "a name")
            if r["name"] in self.queues:
                bad("queue.name", r["name"], "a name not already defined")
            s = None
            if r["cfstruct"] is not None:
                s = self.structs.get(r["cfstruct"])
                if s is None:
                    bad("queue.cfstruct", r["cfstruct"], "a defined structure")
                lim = 513 if FAULT == "TOP_DEFINE_513" else 512
                if self.profile == "mq" and len(s.queues) >= lim:
                    bad("queue.cfstruct", s.name, "a structure with fewer than 512 queues", "TOPOLOGY-005")
            else:
                if self.profile == "cqs":
                    bad("queue.cfstruct", None, "a structure")
                if r["qmgr"] not in self.qms:
                    bad("queue.qmgr", r["qmgr"], "the owning queue manager")
        except Invalid:
            return out("define_queue", False, "INVALID")
        q = Queue(r, s, len(self.queue_order))
        if s is not None:
            s.queues.append(q)
        self.queues[q.name] = q
        self.queue_order.append(q.name)
        return out("define_queue", True)

    def op_alter_queue(self, a):
        q = self.queue(a["name"], "name")
        ch = a["changes"]
        new = {}
        for k, v in ch.items():
            kk = k.lower()
            if kk in INT_Q:
                if not is_int(v):
                    return out("alter_queue", False, "INVALID")
            elif kk in BOOL_Q:
                if not is_bool(v):
                    return out("alter_queue", False, "INVALID")
            else:
                return out("alter_queue", False, "INVALID")
            new[kk] = v
        r = {"name": q.name, "maxdepth": q.maxdepth, "maxmsgl": q.maxmsgl, "qdepthhi": q.hi, "qdepthlo": q.lo}
        r.update({k: v for k, v in new.items() if k in INT_Q})
        try:
            check_queue_values(r, "changes")
        except Invalid:
            return out("alter_queue", False, "INVALID")
        q.maxdepth, q.maxmsgl, q.hi, q.lo = r["maxdepth"], r["maxmsgl"], r["qdepthhi"], r["qdepthlo"]
        if "qdphiev" in new:
            q.hiev = new["qdphiev"]
        if "qdploev" in new:
            q.loev = new["qdploev"]
        if "qdpmaxev" in new:
            q.maxev = new["qdpmaxev"]
        return out("alter_queue", True)

    def op_alter_structure(self, a):
        s = self.struct(a["name"], "name")
        ch = {}
        for k, v in a["changes"].items():
            ch[k.lower()] = v
        allowed = {"cflevel", "recover", "offload", "offld1th", "offld1sz", "offld2th", "offld2sz",
                   "offld3th", "offld3sz"}
        for k, v in ch.items():
            if k not in allowed:
                return out("alter_structure", False, "INVALID")
            if k == "recover":
                if not is_bool(v):
                    return out("alter_structure", False, "INVALID")
            elif k == "offload":
                if not isinstance(v, str) or v.upper() not in ("SMDS", "DB2"):
                    return out("alter_structure", False, "INVALID")
            elif not is_int(v):
                return out("alter_structure", False, "INVALID")
        lvl = ch.get("cflevel", s.cflevel)
        rec = ch.get("recover", s.recover)
        if not (1 <= lvl <= 5):
            return out("alter_structure", False, "INVALID")
        if "offload" in ch and lvl < 5:
            return out("alter_structure", False, "INVALID")
        if rec and lvl < 3:
            return out("alter_structure", False, "INVALID")
        for n in (1, 2, 3):
            th = ch.get("offld%dth" % n, 0)
            sz = ch.get("offld%dsz" % n, 0)
            if not (0 <= th <= 100) or not (0 <= sz <= OFF_64K):
                return out("alter_structure", False, "INVALID")
        if lvl < s.cflevel and s.cflevel >= 3 and FAULT != "CFL_DECREASE_UNGUARDED":
            # decrease from 3 or 4 (and, by analogy, 5: cflevel5_decrease=guarded)
            for q in s.queues:
                busy = q.depth != 0 or (q.pending != 0 and FAULT != "CFL_DECREASE_IGNORES_UNCOMMITTED")
                if s.status == "ACTIVE" and busy:
                    return out("alter_structure", False, "NOT_ALLOWED")
        old_lvl = s.cflevel
        s.cflevel = lvl
        s.recover = rec
        if "offload" in ch:
            s.offload = ch["offload"].upper()
        elif lvl >= 5 and s.offload is None:
            if FAULT != "CFL_RAISE_KEEPS_DB2":
                s.offload = "DB2" if FAULT == "OFF_DEFAULT_DB2" else "SMDS"
        for n in (1, 2, 3):
            for j, key in ((0, "offld%dth" % n), (1, "offld%dsz" % n)):
                if key in ch:
                    s.offld[n - 1][j] = ch[key]
                elif FAULT == "OFF_ALTER_RESETS" and any(x.startswith("offld") for x in ch):
                    s.offld[n - 1][j] = OFFLD_DEFAULTS[n - 1][j]
        return out("alter_structure", True)

    # -------------------------------------------------------------- MQ put
    def op_put(self, a):
        if self.profile == "cqs":
            return self.cqs_put(a)
        m = self.qm(a["qmgr"])
        q = self.queue(a["queue"])
        self.owned(q, m.name)
        length = a["length"]
        if length < 0:
            raise OpError(14, "length=%d is invalid: allowed >= 0" % length,
                          {"field": "length", "value": length, "allowed": ">= 0"})
        if not m.active:
            return out("put", False, "NOT_ACTIVE")
        s = q.struct
        persistent = a["persistent"]
        sig = []
        if s is not None and s.status != "ACTIVE":
            return out("put", False, 2192 if FAULT == "REC_FAILED_RC_2192" else 2373)
        too_big = length >= q.maxmsgl if FAULT == "Q_MAXMSGL_INCLUSIVE" else length > q.maxmsgl
        if too_big or length > MAX_MSG:
            return out("put", False, 2030)
        if s is not None:
            if persistent:
                low = s.cflevel <= 2 and FAULT != "CFL_PERSIST_L2"
                norec = not s.recover and FAULT != "CFL_RECOVERNO_PERSIST"
                if low or norec:
                    return out("put", False, 2048)
            lim = CF_LIMIT_6375 if FAULT == "CFL_LARGE_L3_6375" else CF_LIMIT
            if s.cflevel < 4 and length > lim:
                return out("put", False, 2030 if FAULT == "CFL_LARGE_RC_2030" else 2366)
        full_at = q.maxdepth - 1 if FAULT == "QD_QFULL_OFF_BY_ONE" else q.maxdepth
        if q.depth >= full_at:
            evs = []
            if q.maxev and FAULT != "QD_QFULL_NO_EVENT":
                evs = self.events(q, m.name, "QFULL")
            return out("put", False, 2053, events=evs)
        loc = "CF"
        if s is not None:
            loc = self.offload_location(s, length)
            if loc == "CF":
                ent, el = 1, cf_elements(length)
            else:
                ent, el = 1, OFFLOADED_ELEMENTS
                if FAULT == "OFF_COST_FULL":
                    el = cf_elements(length)
                elif FAULT == "OFF_COST_ENTRY_ONLY":
                    el = 0
            if not self.fits(s, ent, el):
                return out("put", False, 2053 if FAULT == "CAP_FULL_RC_2053" else 2192)
            self.alloc(s, ent, el)
        else:
            ent = el = 0
        self.seq += 1
        msg = Msg(self.seq, a["tag"], length, persistent, loc, ent, el, q, m.name)
        q.depth += 1
        st = q.stats.get(m.name)
        if st is None:
            st = q.stats[m.name] = [0, 0]
        st[0] += 1
        if a["syncpoint"]:
            m.uow.append((0, msg))
            q.pending += 1
            if FAULT == "Q_UNCOMMITTED_VISIBLE":
                heapq.heappush(q.avail, msg)
        else:
            heapq.heappush(q.avail, msg)
        evs = []
        if q.hiev:
            lim = q.hi * q.maxdepth // 100
            hit = q.depth > lim if FAULT == "QD_HI_STRICT" else q.depth >= lim
            if hit:
                evs = self.events(q, m.name, "QDPHI")
        if s is None:
            return out("put", True, events=evs)
        self.check_ft(s, sig)
        off = loc != "CF"
        return out("put", True, offloaded=off, usage=s.usage(), events=evs, signals=sig,
                   location=loc if self.send_location else None)

    def offload_location(self, s, length):
        if s.cflevel >= 5:
            target = "DB2" if s.offload == "DB2" else "SMDS"
            if FAULT == "OFF_DB2_AS_SMDS":
                target = "SMDS"
            if FAULT == "CFL_RAISE_KEEPS_DB2" and s.offload is None:
                target = "DB2"
            if self.offload_rules(s, length):
                return target
            return "CF"
        if s.cflevel == 4:
            if length > CF_LIMIT:
                return "SMDS" if FAULT == "CFL_L4_SMDS" else "DB2"
            if FAULT == "OFF_RULES_BELOW_5" and self.offload_rules(s, length, rules_only=True):
                return "DB2"
        return "CF"

    def offload_rules(self, s, length, rules_only=False):
        if not rules_only and length > CF_LIMIT:
            if FAULT == "OFF_NO_FORCED" and all(sz == OFF_64K for _, sz in s.offld):
                pass
            else:
                return True
        eu, et, lu, lt = s.ent_used, s.ent_total, s.el_used, s.el_total
        if FAULT == "OFF_USAGE_AFTER":
            eu += 1
            lu += cf_elements(length)

        def over(th):
            # "more than THn% full": max(entries%, elements%) > THn.  TH(0) is met even by an
            # empty structure: 002 says OFFLD1TH(0) offloads "all such messages".
            if th == 0 and FAULT != "OFF_TH0_EMPTY":
                return True
            if FAULT == "OFF_TH_INCLUSIVE":
                return (et > 0 and 100 * eu >= th * et) or (lt > 0 and 100 * lu >= th * lt)
            return (et > 0 and 100 * eu > th * et) or (lt > 0 and 100 * lu > th * lt)

        def exceeds(sz):
            if FAULT == "OFF_SZ_INCLUSIVE":
                return length >= sz
            return length > sz

        rules = []
        for th, sz in s.offld:
            if FAULT == "OFF_64K_WRAPS":
                sz = sz & 0xFFFF
            elif sz == OFF_64K:
                continue             # OFFLDnSZ(64K): rule not in effect
            rules.append((th, sz))
        if FAULT == "OFF_SIZE_ONLY":
            return any(exceeds(sz) for th, sz in rules)
        if FAULT == "OFF_CROSS_RULE":
            return any(over(th) for th, sz in rules) and any(exceeds(sz) for th, sz in rules)
        for th, sz in rules:
            if exceeds(sz) and over(th):
                return True
        return False

    # -------------------------------------------------------------- MQ get
    def op_get(self, a):
        if self.profile == "cqs":
            return self.cqs_get(a)
        m = self.qm(a["qmgr"])
        q = self.queue(a["queue"])
        self.owned(q, m.name)
        if not m.active:
            return out("get", False, "NOT_ACTIVE")
        s = q.struct
        if s is not None and s.status != "ACTIVE":
            return out("get", False, 2192 if FAULT == "REC_FAILED_RC_2192" else 2373)
        msg = None
        if FAULT == "Q_SHARED_NOT_VISIBLE":
            for cand in sorted(q.avail):
                if cand.putter == m.name:
                    msg = cand
                    break
            if msg is not None:
                q.avail.remove(msg)
                heapq.heapify(q.avail)
        elif q.avail:
            msg = heapq.heappop(q.avail)
        if msg is None:
            return out("get", False, 2033)
        q.depth -= 1
        st = q.stats.get(m.name)
        if st is None:
            st = q.stats[m.name] = [0, 0]
        st[1] += 1
        sig = []
        if a["syncpoint"]:
            m.uow.append((1, msg))
            q.pending += 1
        elif s is not None:
            self.free(s, msg.ent, msg.el)
            self.record_get(s, msg, m.name)
        evs = []
        if q.loev:
            lim = q.lo * q.maxdepth // 100
            hit = q.depth < lim if FAULT == "QD_LO_STRICT" else q.depth <= lim
            if hit:
                evs = self.events(q, m.name, "QDPLO")
        if s is None:
            return out("get", True, tag=msg.tag, events=evs)
        self.check_ft(s, sig)
        return out("get", True, tag=msg.tag, usage=s.usage(), events=evs, signals=sig)

    def record_get(self, s, msg, qmname):
        # remembered only for the REC_OWN_LOG_ONLY fault's replay of one log
        if FAULT == "REC_OWN_LOG_ONLY" and s.backup is not None:
            s.backup[3][msg.seq] = qmname

    # ------------------------------------------------------ units of work
    def op_commit(self, a):
        m = self.qm(a["qmgr"])
        if not m.active:
            return out("commit", False, "NOT_ACTIVE")
        sig = []
        touched = []
        for kind, msg in m.uow:
            q = msg.queue
            if msg.dead:
                continue
            q.pending -= 1
            if kind == 0:
                if FAULT != "Q_UNCOMMITTED_VISIBLE":
                    heapq.heappush(q.avail, msg)
            else:
                if q.struct is not None:
                    self.free(q.struct, msg.ent, msg.el)
                    self.record_get(q.struct, msg, m.name)
                    touched.append(q.struct)
        m.uow = []
        for s in dedupe(touched):
            self.check_ft(s, sig)
        return out("commit", True, signals=sig)

    def backout_uow(self, m, sig):
        touched = []
        for kind, msg in reversed(m.uow):
            q = msg.queue
            if msg.dead:
                continue
            q.pending -= 1
            if kind == 0:
                if FAULT == "Q_UNCOMMITTED_VISIBLE" and msg in q.avail:
                    q.avail.remove(msg)
                    heapq.heapify(q.avail)
                q.depth -= 1
                if q.struct is not None:
                    self.free(q.struct, msg.ent, msg.el)
                    touched.append(q.struct)
            else:
                if FAULT == "Q_BACKOUT_GET_LOST":
                    if q.struct is not None:
                        self.free(q.struct, msg.ent, msg.el)
                        touched.append(q.struct)
                    continue
                heapq.heappush(q.avail, msg)
                q.depth += 1
        m.uow = []
        for s in dedupe(touched):
            self.check_ft(s, sig)

    def op_backout(self, a):
        m = self.qm(a["qmgr"])
        if not m.active:
            return out("backout", False, "NOT_ACTIVE")
        sig = []
        self.backout_uow(m, sig)
        return out("backout", True, signals=sig)

    # ------------------------------------------------------ queue managers
    def op_set_perfmev(self, a):
        m = self.qm(a["qmgr"])
        if not m.active:
            return out("set_perfmev", False, "NOT_ACTIVE")
        m.perfmev = a["enabled"]
        return out("set_perfmev", True)

    def op_reset_qstats(self, a):
        m = self.qm(a["qmgr"])
        q = self.queue(a["queue"])
        self.owned(q, m.name)
        if not m.active:
            return out("reset_qstats", False, "NOT_ACTIVE")
        if FAULT != "QD_RESET_QSTATS_IGNORED":
            q.stats.pop(m.name, None)
        return out("reset_qstats", True)

    def op_start_qmgr(self, a):
        m = self.qm(a["qmgr"])
        if m.active:
            return out("start_qmgr", False, "NOT_ALLOWED")
        m.active = True
        return out("start_qmgr", True)

    def op_stop_qmgr(self, a):
        m = self.qm(a["qmgr"])
        if not m.active:
            return out("stop_qmgr", False, "NOT_ACTIVE")
        sig = []
        self.backout_uow(m, sig)
        for q in self.queues.values():
            q.stats.pop(m.name, None)                       # qstats_at_stop = reset
            if q.struct is None and q.owner == m.name:      # nonshared_at_stop = lost
                keep = [x for x in q.avail if x.persistent]
                q.depth -= len(q.avail) - len(keep)
                heapq.heapify(keep)
                q.avail = keep
            elif FAULT == "Q_STOP_LOSES_SHARED_NP" and q.struct is not None and q.struct.status == "ACTIVE":
                keep = [x for x in q.avail if x.persistent]
                for x in q.avail:
                    if not x.persistent:
                        self.free(q.struct, x.ent, x.el)
                q.depth -= len(q.avail) - len(keep)
                heapq.heapify(keep)
                q.avail = keep
        m.active = False
        return out("stop_qmgr", True, signals=sig)

    # ------------------------------------------------------ queue depth events
    def events(self, q, detector, kind):
        evs = []
        shared = q.struct is not None
        det = self.qms[detector]
        if not shared:
            if not det.perfmev and FAULT != "QD_NONSHARED_TOGGLES_DISABLED":
                return evs
            self.toggle(q, kind)
            if det.perfmev or FAULT == "QD_DISABLED_EMITS":
                evs.append(self.emit(q, det.name, kind, 0))
            return evs
        if FAULT == "QD_SHARED_NEEDS_PERFMEV" and not det.perfmev:
            return evs
        self.toggle(q, kind)
        self.correl += 1
        correl = self.correl
        order = [detector] + [n for n in self.qm_order if n != detector]
        for n in order:
            mm = self.qms[n]
            if not mm.active and FAULT != "QD_INACTIVE_EMIT":
                continue
            if not mm.perfmev and FAULT != "QD_DISABLED_EMITS":
                continue
            if n != detector:
                if FAULT == "QD_NO_BROADCAST":
                    continue
            if FAULT == "QD_NULL_EVENT_SKIPPED":
                st = q.stats.get(n)
                if not st or (st[0] == 0 and st[1] == 0):
                    continue
            c = correl
            if FAULT == "QD_OWN_CORREL" and n != detector:
                self.correl += 1
                c = self.correl
            evs.append(self.emit(q, n, kind, c))
        return evs

    def emit(self, q, n, kind, correl):
        if FAULT == "QD_STATS_GLOBAL":
            enq = sum(v[0] for v in q.stats.values())
            deq = sum(v[1] for v in q.stats.values())
        else:
            st = q.stats.get(n, [0, 0])
            enq, deq = st[0], st[1]
        if FAULT != "QD_STATS_NOT_RESET":
            q.stats.pop(n, None)
        return {"qmgr": n, "kind": kind, "queue": q.name, "correl": correl, "enq": enq, "deq": deq}

    def toggle(self, q, kind):
        if kind == "QDPHI":
            if FAULT != "QD_HI_STAYS_ENABLED":
                q.hiev = False
            q.loev = True
            if FAULT != "QD_HI_NO_MAX_ENABLE":
                q.maxev = True
        elif kind == "QDPLO":
            if FAULT != "QD_LO_NO_HI_ENABLE":
                q.hiev = True
            q.loev = False
            q.maxev = True
        else:  # QFULL; qfull_hi_flag = unchanged
            if FAULT != "QD_QFULL_NO_LO_ENABLE":
                q.loev = True
            if FAULT != "QD_QFULL_MAX_STAYS":
                q.maxev = False

    # ------------------------------------------------------ backup / recover
    def committed_persistent(self, s):
        """Persistent messages committed on s's queues now (in queue order)."""
        res = []
        locked = set()
        for m in self.qms.values():
            for kind, msg in m.uow:
                if kind == 1 and msg.queue.struct is s and not msg.dead:
                    locked.add(msg)
        for q in s.queues:
            for msg in q.avail:
                if msg.persistent and (FAULT != "Q_UNCOMMITTED_VISIBLE" or not self.is_uncommitted_put(msg)):
                    res.append(msg)
        for msg in locked:
            if msg.persistent:
                res.append(msg)
        return res

    def is_uncommitted_put(self, msg):
        for m in self.qms.values():
            for kind, x in m.uow:
                if kind == 0 and x is msg:
                    return True
        return False

    def op_backup(self, a):
        m = self.qm(a["qmgr"])
        s = self.struct(a["cfstruct"])
        if not m.active:
            return out("backup", False, "NOT_ACTIVE")
        if s.cflevel < 3 and FAULT != "REC_BACKUP_L2":
            return out("backup", False, "NOT_ALLOWED")
        if not s.recover and FAULT != "REC_BACKUP_RECOVERNO":
            return out("backup", False, "NOT_ALLOWED")
        if s.status != "ACTIVE":
            return out("backup", False, "NOT_ACTIVE")
        snap = list(self.committed_persistent(s))
        s.backup = (snap, m.name, self.seq, {})
        return out("backup", True)

    def op_fail_structure(self, a):
        s = self.struct(a["cfstruct"])
        if s.status == "FAILED":
            return out("fail_structure", True)
        # committed persistent state at the failure point (what logs + backup can rebuild)
        survivors = self.committed_persistent(s)
        if FAULT == "REC_UNCOMMITTED_RECOVERED":
            for m in self.qms.values():
                for kind, msg in m.uow:
                    if kind == 0 and msg.queue.struct is s and msg.persistent:
                        survivors.append(msg)
        if FAULT == "REC_NONPERSIST_RECOVERED":
            survivors = [x for q in s.queues for x in q.avail]
            for m in self.qms.values():
                for kind, msg in m.uow:
                    if kind == 1 and msg.queue.struct is s:
                        survivors.append(msg)
        s.failed_state = survivors
        self.drop_contents(s)
        s.status = "FAILED"
        s.full_warning = False
        return out("fail_structure", True)

    def drop_contents(self, s):
        for m in self.qms.values():
            keep = []
            for kind, msg in m.uow:
                if msg.queue.struct is s:
                    msg.dead = True
                    msg.queue.pending -= 1
                else:
                    keep.append((kind, msg))
            m.uow = keep
        for q in s.queues:
            for msg in q.avail:
                msg.dead = True
            q.avail = []
            q.depth = 0
            q.el_p = 0
            q.stg_el = 0
            q.pending = 0
        s.ent_used = 0
        s.el_used = 0

    def op_recover(self, a):
        s = self.struct(a["cfstruct"])
        if not any(m.active for m in self.qms.values()):
            return out("recover", False, "NOT_ACTIVE")
        if s.cflevel < 3 or not s.recover:
            return out("recover", False, "NOT_ALLOWED")
        purge = a["purge"]
        sig = []
        if s.status != "FAILED":
            if purge:                                   # recover_purge_nonfailed = accepted
                if FAULT != "REC_PURGE_KEEPS":
                    self.drop_contents(s)
                    s.backup = None
                self.check_ft(s, sig)
                return out("recover", True, signals=sig)
            if FAULT != "REC_NORMAL_NOT_FAILED_OK":
                return out("recover", False, "NOT_FAILED")
            return out("recover", True)
        if purge:
            s.status = "ACTIVE"
            if FAULT == "REC_PURGE_KEEPS":
                self.restore(s, s.failed_state)
            else:
                s.backup = None
            self.check_ft(s, sig)
            return out("recover", True, signals=sig)
        if s.backup is None:
            if FAULT == "REC_NO_BACKUP_OK":
                s.status = "ACTIVE"
                return out("recover", True)
            return out("recover", False, "NO_BACKUP")
        msgs = s.failed_state
        snap, bq, mark, gets = s.backup
        if FAULT == "REC_BACKUP_ONLY":
            msgs = snap
        elif FAULT == "REC_OWN_LOG_ONLY":
            msgs = [x for x in snap if gets.get(x.seq) != bq] + \
                   [x for x in s.failed_state if x.seq > mark and x.putter == bq]
        s.status = "ACTIVE"
        self.restore(s, msgs)
        self.check_ft(s, sig)
        return out("recover", True, signals=sig)

    def restore(self, s, msgs):
        seen = set()
        for old in sorted(msgs):
            if old.seq in seen:
                continue
            seen.add(old.seq)
            q = old.queue
            msg = Msg(old.seq, old.tag, old.length, old.persistent, old.loc, old.ent, old.el, q, old.putter)
            self.alloc(s, msg.ent, msg.el)
            heapq.heappush(q.avail, msg)
            q.depth += 1

    # ------------------------------------------------------ SETXCF alter
    def op_setxcf_alter(self, a):
        s = self.struct(a["cfstruct"])
        new = a["size_kb"]
        if new <= 0:
            raise OpError(14, "size_kb=%d is invalid: allowed > 0" % new,
                          {"field": "size_kb", "value": new, "allowed": "> 0"})
        if s.status != "ACTIVE":
            return out("setxcf_alter", False, "NOT_ACTIVE")
        if new > s.size_max and FAULT != "SIZ_ALTER_ABOVE_SIZE":
            return out("setxcf_alter", False, "OUT_OF_RANGE")
        # below INITSIZE: accepted; == SIZE: accepted; not larger than current: accepted
        et, lt = struct_totals(new, s.ratio)
        if et < s.ent_used or lt < s.el_used:
            return out("setxcf_alter", False, "OUT_OF_RANGE")
        sig = []
        if FAULT != "SIZ_ALTER_NO_EFFECT":
            s.size = new
            s.recalc()
        self.check_ft(s, sig)
        if self.profile == "cqs":
            self.relief(s, sig)
        return out("setxcf_alter", True, usage=s.usage(), signals=sig)

    # ------------------------------------------------------ CQS
    def op_alter_outcome(self, a):
        self.struct(a["cfstruct"])
        if a["size_kb"] is not None and a["size_kb"] <= 0:
            raise OpError(14, "size_kb must be > 0", {"field": "size_kb", "value": a["size_kb"], "allowed": "> 0"})
        # cqs_alter = sync: the alter CQS starts completes inside the CQSPUT; nothing is ever pending
        return out("alter_outcome", False, "NO_ALTER_PENDING")

    def op_set_overflow_exit(self, a):
        v = a["vetoes"]
        self.vetoes = None if v is None else set(v)
        return out("set_overflow_exit", True)

    def split(self, length):
        lg = self.lgmsgsz
        if FAULT == "CQS_NO_SPLIT":
            return length, []
        if FAULT == "CQS_SPLIT_AT_EQUAL" and length == lg:
            return lg - 1 if lg > 1 else lg, [1]
        if length <= lg:
            return length, []
        rest = []
        r = length - lg
        while r > 0:
            p = min(r, lg)
            rest.append(p)
            r -= p
        return lg, rest

    def cqs_put(self, a):
        self.qm(a["qmgr"])
        q = self.queue(a["queue"])
        length = a["length"]
        if length < 0:
            raise OpError(14, "length=%d is invalid: allowed >= 0" % length,
                          {"field": "length", "value": length, "allowed": ">= 0"})
        s = q.struct
        sig = []
        reject = q.overflow and not s.ovflwstr
        if FAULT == "CQS_NOOVF_ACCEPT":
            reject = False
        if FAULT == "CQS_REJECT_ALL_QUEUES" and s.overflow_mode and not s.ovflwstr:
            reject = True
        if reject:
            self.after_cqsput(s, sig)
            return out("put", False, "REJECTED_OVERFLOW", signals=sig)
        first, rest = self.split(length)
        f_el = cf_elements(first)
        s_ent = len(rest)
        s_el = sum(cf_elements(p) for p in rest)
        to_ovf = q.overflow and bool(s.ovflwstr) and FAULT not in ("CQS_NOT_MOVED", "CQS_OVF_PUT_PRIMARY")
        stg_ovf = to_ovf and FAULT == "CQS_STAGING_MOVED"
        p_ent = s_ent if not stg_ovf else 0
        p_el = s_el if not stg_ovf else 0
        o_ent = o_el = 0
        if to_ovf:
            o_ent, o_el = 1, f_el
            if stg_ovf:
                o_ent += s_ent
                o_el += s_el
        else:
            p_ent += 1
            p_el += f_el
        okp = self.fits(s, p_ent, p_el)
        oko = (s.o_ent_used + o_ent <= s.o_ent_total and s.o_el_used + o_el <= s.o_el_total)
        if not (okp and oko):
            self.after_cqsput(s, sig)
            return out("put", False, "STRUCTURE_FULL", signals=sig)
        self.alloc(s, p_ent, p_el)
        s.o_ent_used += o_ent
        s.o_el_used += o_el
        self.seq += 1
        msg = Msg(self.seq, a["tag"], length, False, "CF", 1, f_el, q, a["qmgr"])
        msg.nstg = s_ent
        msg.stg_el = s_el
        msg.ovf = to_ovf
        if not stg_ovf:
            s.staging += s_ent
            q.stg_el += s_el
        else:
            msg.nstg = -s_ent  # staging parts live on the overflow structure (fault only)
        if not to_ovf:
            q.el_p += f_el
        heapq.heappush(q.avail, msg)
        q.depth += 1
        self.check_ft(s, sig)
        self.after_cqsput(s, sig)
        return out("put", True, usage=s.usage(), signals=sig)

    def reached(self, s):
        thr = s.ovflwmax
        if FAULT == "CQS_METRIC_ENTRIES":
            used, tot = s.ent_used, s.ent_total
        else:
            used, tot = s.el_used, s.el_total
        if tot <= 0:
            return False
        if FAULT == "CQS_REACH_STRICT":
            return 100 * used > thr * tot
        return 100 * used >= thr * tot

    def after_cqsput(self, s, sig):
        if s.resource and FAULT != "CQS_RESOURCE_OVERFLOW":
            return                              # overflow not supported for resource structures
        if not self.reached(s):
            return
        if s.overflow_mode:
            self.select(s, sig)                 # cqs_reselect = select
            return
        if FAULT != "CQS_NO_ALTER":
            sig.append("ALTER " + s.name)
            if s.size < s.size_max or FAULT == "CQS_ALTER_NEVER_FAILS":
                s.size = s.size_max             # cqs_alter = sync: the alter succeeds at once
                s.recalc()
                self.check_ft(s, sig)
                return
        s.overflow_mode = True
        sig.append("OVERFLOW_ON " + s.name)
        self.select(s, sig)

    def below_target(self, s, used):
        """usage has fallen 20% below the threshold (cqs_target = relative: <= 0.8 x OVFLWMAX)."""
        tot = s.el_total if FAULT != "CQS_METRIC_ENTRIES" else s.ent_total
        if tot <= 0:
            return True
        return 500 * used <= 4 * s.ovflwmax * tot

    def select(self, s, sig):
        cands = [q for q in s.queues if not q.overflow and q.el_p > 0]
        if FAULT == "CQS_STAGING_COUNTED":
            key = lambda q: (-(q.el_p + q.stg_el), q.idx)
        elif FAULT == "CQS_SELECT_SMALLEST":
            key = lambda q: (q.el_p, q.idx)
        else:
            key = lambda q: (-q.el_p, q.idx)
        cands.sort(key=key)
        metric_entries = FAULT == "CQS_METRIC_ENTRIES"
        used = s.ent_used if metric_entries else s.el_used
        for q in s.queues:
            if q.overflow:
                used -= self.primary_space(q, metric_entries)
        for q in cands:
            if self.below_target(s, used) and FAULT != "CQS_SELECT_ALL":
                break
            if self.vetoes is not None and q.name in self.vetoes and FAULT != "CQS_EXIT_IGNORED":
                if FAULT == "CQS_VETO_STOPS":
                    break
                continue                         # vetoed: pick another candidate
            if s.ovflwstr and FAULT not in ("CQS_NOT_MOVED",):
                need_e, need_l = self.queue_cf(q)
                if s.o_ent_used + need_e > s.o_ent_total or s.o_el_used + need_l > s.o_el_total:
                    continue                     # does not fit in the overflow structure
            used -= self.primary_space(q, metric_entries)
            q.overflow = True
            sig.append("OVERFLOW_QUEUE %s %s" % (s.name, q.name))
            if s.ovflwstr and FAULT != "CQS_NOT_MOVED":
                self.move(s, q)
        if s.ovflwstr and not any(q.overflow for q in s.queues) and FAULT != "CQS_MODE_STAYS":
            s.overflow_mode = False               # cqs_empty_overflow = ends
            sig.append("OVERFLOW_OFF " + s.name)

    def primary_space(self, q, entries=False):
        if entries:
            return sum(1 for m in q.avail if not m.ovf)
        return q.el_p

    def queue_cf(self, q):
        e = l = 0
        for msg in q.avail:
            if not msg.ovf:
                e += 1
                l += msg.el
                if FAULT == "CQS_STAGING_MOVED":
                    e += msg.nstg
                    l += msg.stg_el
        return e, l

    def move(self, s, q):
        for msg in q.avail:
            if msg.ovf:
                continue
            msg.ovf = True
            self.free(s, 1, msg.el)
            s.o_ent_used += 1
            s.o_el_used += msg.el
            if FAULT == "CQS_STAGING_MOVED" and msg.nstg > 0:
                self.free(s, msg.nstg, msg.stg_el)
                s.staging -= msg.nstg
                q.stg_el -= msg.stg_el
                s.o_ent_used += msg.nstg
                s.o_el_used += msg.stg_el
                msg.nstg = -msg.nstg
        q.el_p = 0

    def cqs_get(self, a):
        self.qm(a["qmgr"])
        q = self.queue(a["queue"])
        s = q.struct
        if not q.avail:
            return out("get", False, "NO_MSG")
        msg = heapq.heappop(q.avail)
        q.depth -= 1
        sig = []
        if msg.ovf:
            s.o_ent_used -= 1
            s.o_el_used -= msg.el
        else:
            self.free(s, 1, msg.el)
            q.el_p -= msg.el
        if msg.nstg > 0:
            self.free(s, msg.nstg, msg.stg_el)
            s.staging -= msg.nstg
            q.stg_el -= msg.stg_el
        elif msg.nstg < 0:
            s.o_ent_used -= -msg.nstg
            s.o_el_used -= msg.stg_el
        self.check_ft(s, sig)
        if FAULT == "CQS_QUEUE_OFF_AT_DELETE" and q.overflow and s.ovflwstr and q.depth == 0:
            q.overflow = False
            sig.append("OVERFLOW_QUEUE_OFF %s %s" % (s.name, q.name))
            if not any(x.overflow for x in s.queues):
                s.overflow_mode = False
                sig.append("OVERFLOW_OFF " + s.name)
        self.relief(s, sig)
        return out("get", True, tag=msg.tag, usage=s.usage(), signals=sig)

    def relief(self, s, sig):
        """Without OVFLWSTR: overflow mode ends when primary usage drops 20% below OVFLWMAX."""
        if not s.overflow_mode or s.ovflwstr:
            return
        used = s.ent_used if FAULT == "CQS_METRIC_ENTRIES" else s.el_used
        if FAULT == "CQS_RELIEF_AT_THRESHOLD":
            tot = s.el_total
            done = tot <= 0 or 100 * used < s.ovflwmax * tot
        else:
            done = self.below_target(s, used)
        if done:
            for q in s.queues:
                q.overflow = False
            s.overflow_mode = False
            sig.append("OVERFLOW_OFF " + s.name)

    def scan(self, sig):
        """The 15-minute scan: empty overflow queues return to normal processing."""
        for n in self.struct_order:
            s = self.structs[n]
            if not s.overflow_mode or not s.ovflwstr:
                continue
            for q in s.queues:
                if q.overflow and (q.depth == 0 or FAULT == "CQS_SCAN_REMOVES_NONEMPTY"):
                    if FAULT == "CQS_SCAN_REMOVES_NONEMPTY":
                        self.unmove(s, q)
                    q.overflow = False
                    sig.append("OVERFLOW_QUEUE_OFF %s %s" % (s.name, q.name))
            if not any(q.overflow for q in s.queues) and FAULT != "CQS_MODE_STAYS":
                s.overflow_mode = False
                sig.append("OVERFLOW_OFF " + s.name)

    def unmove(self, s, q):
        # (fault only) messages left on the overflow structure stay there; new puts go to the primary
        pass


def dedupe(xs):
    seen = []
    for x in xs:
        if x not in seen:
            seen.append(x)
    return seen


def bad13(field, value, allowed):
    raise OpError(13, "%s=%r is invalid: allowed %s" % (field, value, allowed),
                  {"field": field, "value": value, "allowed": allowed})


# ---------------------------------------------------------------------------
def capabilities():
    return {
        "name": "twelfth-reading" + ("" if FAULT is None else "+fault:" + FAULT),
        "protocol_version": PROTOCOL_VERSION,
        "profiles": ["mq", "cqs"],
        "families": list(FAMILIES),
        "readings": dict(READINGS),
        "reason_codes": "exact",
        "observes": ["usage", "events", "signals", "inspect"],
    }


class Server(object):
    def __init__(self, fout):
        self.fout = fout
        self.inited = False
        self.sim = None
        self.suite_max = MY_MAX_LINE
        self.suite_minor = 4

    def write(self, obj):
        self.fout.write(json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n")
        self.fout.flush()

    def error(self, rid, code, text, detail=None):
        definite = code not in (12, 18, 20)
        e = {"type": "error", "in_reply_to": rid, "code": code, "text": text, "definite": definite}
        if detail is not None:
            e["detail"] = detail
        return e

    def handle_line(self, raw):
        """Returns False when the process should exit."""
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if not raw.strip():
            return True
        if len(raw) > MY_MAX_LINE:
            self.write(self.error(None, 17, "request line of %d bytes exceeds %d" % (len(raw), MY_MAX_LINE)))
            return True
        try:
            msg = json.loads(raw.decode("utf-8"))
        except Exception:
            self.write(self.error(None, 11, "request is not JSON"))
            return True
        if not isinstance(msg, dict):
            self.write(self.error(None, 11, "request is not a JSON object"))
            return True
        rid = msg.get("msg_id")
        if type(rid) is not int or rid < 0:
            self.write(self.error(None, 11, "request without a readable msg_id"))
            return True
        typ = msg.get("type")
        if not isinstance(typ, str):
            self.write(self.error(rid, 11, "request without a string type"))
            return True
        try:
            return self.dispatch(typ, rid, msg)
        except OpError as e:
            self.write(self.error(rid, e.code, e.text, e.detail))
            return True
        except Exception as e:  # internal failure: indefinite
            self.write(self.error(rid, 12, "internal error: %s: %s" % (type(e).__name__, e)))
            return True

    def dispatch(self, typ, rid, msg):
        if not self.inited:
            if typ != "init":
                raise OpError(15, "init must come first")
            pv = msg.get("protocol_version")
            if not isinstance(pv, str):
                raise OpError(11, "init without a protocol_version")
            mm = re.match(r"^(\d+)\.(\d+)$", pv)
            if not mm or mm.group(1) != "1":
                raise OpError(16, "protocol version %r not spoken; this implementation speaks 1.x (%s)"
                              % (pv, PROTOCOL_VERSION))
            self.suite_minor = int(mm.group(2))
            ml = msg.get("max_line_bytes")
            if type(ml) is int and ml >= 1024:
                self.suite_max = ml
            self.inited = True
            self.write({"type": "init_ok", "in_reply_to": rid, "protocol_version": PROTOCOL_VERSION,
                        "capabilities": capabilities(), "max_line_bytes": MY_MAX_LINE})
            return True
        if typ == "init":
            raise OpError(15, "a second init")
        if typ == "close":
            self.write({"type": "close_ok", "in_reply_to": rid})
            return False
        if typ == "open":
            if "config" not in msg:
                raise OpError(11, "open without config")
            sim = Sim(send_location=self.suite_minor >= 1)
            self.sim = None
            sim.open(msg["config"])
            self.sim = sim
            self.write({"type": "open_ok", "in_reply_to": rid})
            return True
        if typ == "apply":
            if self.sim is None:
                raise OpError(15, "apply before a successful open")
            if "op" not in msg:
                raise OpError(11, "apply without op")
            o = self.sim.apply(msg["op"])
            reply = {"type": "apply_ok", "in_reply_to": rid, "outcome": o}
            line = json.dumps(reply, separators=(",", ":"), ensure_ascii=False)
            if len(line.encode("utf-8")) > self.suite_max:
                raise OpError(18, "the outcome would exceed the suite's line limit")
            self.fout.write(line + "\n")
            self.fout.flush()
            return True
        if typ == "batch":
            if self.sim is None:
                raise OpError(15, "batch before a successful open")
            ops = msg.get("ops")
            if not isinstance(ops, list) or not ops:
                raise OpError(11, "batch needs a non-empty list ops")
            self.batch(rid, ops)
            return True
        raise OpError(11, "unknown message type %r" % typ)

    def batch(self, rid, ops):
        """Apply ops in order.  Before applying op k (k >= 1) we make sure a worst-case
        outcome still fits the suite's line limit, else we stop and reply with the prefix
        (the suite resends the rest).  inspect is read-only, so its real size is used.
        If an applied op's outcome does not fit after all, it gets error 18 (indefinite)."""
        outs = []
        err = None
        size = len('{"type":"batch_ok","in_reply_to":%d,"outcomes":[]}' % rid) + 400
        sim = self.sim
        bound = 2048 + 160 * len(sim.qms) + 80 * len(sim.queues)
        for op in ops:
            kind = op.get("op") if isinstance(op, dict) else None
            if outs and kind != "inspect" and size + bound > self.suite_max:
                break                                  # prefix: the suite sends the rest again
            try:
                o = sim.apply(op)
            except OpError as e:
                err = {"code": e.code, "text": e.text, "definite": e.code not in (12, 18, 20)}
                if e.detail is not None:
                    err["detail"] = e.detail
                break
            except Exception as e:
                err = {"code": 12, "text": "internal error: %s: %s" % (type(e).__name__, e), "definite": False}
                break
            n = len(json.dumps(o, separators=(",", ":"), ensure_ascii=False).encode("utf-8")) + 1
            if size + n > self.suite_max:
                if kind == "inspect" and outs:
                    break                              # read-only: leave it to the next batch
                err = {"code": 18, "text": "the outcome would exceed the suite's line limit",
                       "definite": False}
                break
            outs.append(o)
            size += n
        reply = {"type": "batch_ok", "in_reply_to": rid, "outcomes": outs}
        if err is not None:
            reply["error"] = err
        self.write(reply)


def main(argv):
    global FAULT
    args = argv[1:]
    if "--list-faults" in args:
        for k in FAULTS:
            sys.stdout.write(k + "\n")
        return 0
    if "--fault" in args:
        i = args.index("--fault")
        if i + 1 >= len(args) or args[i + 1] not in FAULTS:
            sys.stderr.write("unknown fault; see --list-faults\n")
            return 2
        FAULT = args[i + 1]
    fin = sys.stdin.buffer
    fout = sys.stdout
    srv = Server(fout)
    while True:
        raw = fin.readline()
        if not raw:
            break
        if not srv.handle_line(raw):
            break
    return 0


if __name__ == "__main__":
    try:
        sys.stdout.reconfigure(encoding="utf-8", newline="\n")
    except Exception:
        pass
    sys.exit(main(sys.argv))
