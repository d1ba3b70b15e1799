"""Semantics of CF shared queues, read independently from IBM's documentation.

Two profiles:
  mq  - IBM MQ for z/OS shared queues (CF structures, CFLEVEL, offload rules,
        capacity, topology limits, BACKUP/RECOVER CFSTRUCT, queue depth events
        across a queue-sharing group, units of work);
  cqs - IMS CQS structure overflow (OVFLWMAX, alter first then overflow mode,
        queue selection, the Queue Overflow exit, overflow structure or
        rejected puts, the 15-minute scan, large-message staging).

Every reading choice is listed in READINGS (declared in the capabilities) and
explained in README.md.  Deliberate faults are switched on with a fault id;
inside the model each one is a check ``self.f("ID")``.
"""
import copy
import re
from fractions import Fraction

# ---------------------------------------------------------------------------
# Readings (ambiguity id -> reading followed).  Declared in init_ok.
READINGS = {
    "cqs_target": "relative",             # stop at 0.8 x OVFLWMAX
    "cqs_usage_metric": "max",            # max(entries %, elements %)
    "cqs_reselect": "select",             # reaching OVFLWMAX again selects more queues
    "cqs_scan_anchor": "overflow-start",  # scans every 900 s from the start of overflow mode
    "offload_compare": "inclusive",       # usage >= THn and length >= SZn
    "offload_usage_metric": "elements",   # elements used / elements total
    "forced_offload_boundary": "63.75K",  # > 65 280 bytes is too large for the structure
    "persistent_low_cflevel_rc": "2366",  # persistent put to CFLEVEL(1)/(2)
    "large_low_cflevel_rc": "2030",       # > 63.75 KB put to CFLEVEL below 4
    "qdepth_percent": "floor",            # limit = floor(pct x MAXDEPTH / 100)
    "qfull_hi_flag": "disabled",          # Queue Full also disables QDPHIEV
    "event_broadcast": "always",          # coordinator broadcasts even with PERFMEV(DISABLED)
    "recover_purge_nonfailed": "accepted",
    "alter_below_initsize": "accepted",
    "cflevel5_decrease": "unguarded",
    "alter_at_size": "rejected",
    "alter_not_larger": "rejected",
    "full_signal_timing": "deferred",     # IXC585E/IXC586I at the next z/OS poll (advance_clock)
    "cqs_alter": "async",                 # the CQS alter completes with alter_outcome
    "cqs_empty_overflow": "next-scan",
    "qstats_at_stop": "reset",
    "nonshared_at_stop": "lost",
}

# ---------------------------------------------------------------------------
# Storage accounting (our own; config.accounting is ignored).
ENTRY_BYTES = 256          # one list entry (entry controls + adjunct area)
ELEMENT_BYTES = 512        # one data element
MQ_HEADER_BYTES = 364      # MQMD (version 2) kept with the message data in the CF
OFFLOADED_ELEMENTS = 1     # an offloaded message: 1 entry + 1 element = 768 B = 0.75 KB
ADMIN_ENTRY_BYTES = 512    # CSQ_ADMIN list entry with its control data
CQS_PREFIX_BYTES = 0       # CQS data objects: the client's bytes are the object
MAX_MSG_BYTES = 104857600  # 100 MB
FORCED_OFFLOAD = 65280     # 63.75 KB: larger messages cannot be stored in the structure
# Below CFLEVEL(4): "bigger than 63 KB" is 64 512 bytes (ibm-facts 3.2, by the CFSizer definition).
# (Changed by the suite's authors: this build first used 65 280 here too, see README.)
LOW_CFLEVEL_LIMIT = 64512
SIZE_OFF = 65536           # OFFLDnSZ(64K): rule not in effect
SCAN_SECONDS = 900         # the CQS overflow scan
CQS_DEFAULT_OVFLWMAX = 70
LGMSGSZ_MAX = 30632
MAX_QUEUES_PER_STRUCT = 512
MAX_APPL_STRUCTS = 63      # 64 per QSG, one of them CSQ_ADMIN
MAX_QMGRS = 32

# Table 1 (CFCC level 14), 001: minimum CSQ_ADMIN size by queue managers.
ADMIN_TABLE_CFCC14 = [6144, 6912, 7976, 8704, 9728, 10496, 11520, 12288, 13056, 14080,
                      14848, 15616, 16640, 17408, 18176, 19200, 19968, 20736, 21760, 22528,
                      23296, 24320, 25088, 25856, 27136, 27904, 28672, 29696, 30464, 31232,
                      32256]
# MQ V6 (CFCC level 9) edition: only these rows are known (ibm-facts 6.2).
ADMIN_TABLE_V6_POINTS = {1: 2560, 2: 3328, 4: 4608, 8: 7680, 16: 13568, 31: 24832}

# ---------------------------------------------------------------------------
# Fault registry: id -> what the fault does (faults.json carries the rest).
FAULT_IDS = {
    # OFFLOAD
    "OFF_SIZE_ONLY": "offload rule fires on the size test alone (threshold ignored)",
    "OFF_TH_ONLY": "offload rule fires on the threshold alone (size ignored)",
    "OFF_PAIR_SWAP": "rule 1 threshold paired with rule 2 size and vice versa",
    "OFF_64K_DISABLES_ALL": "a 64K rule switches off every offload rule",
    "OFF_NO_FORCED": "messages too large for the structure are kept in the CF at CFLEVEL(5)",
    "OFF_CF4_RULES": "offload rules applied at CFLEVEL(4)",
    "OFF_DEFAULT_DB2": "OFFLOAD unset at CFLEVEL(5) offloads to Db2",
    "OFF_DB2_IGNORED": "OFFLOAD(DB2) offloads to SMDS",
    "OFF_CF4_SMDS": "CFLEVEL(4) large messages go to SMDS",
    "OFF_COST_FULL": "an offloaded message is charged its full size in CF elements",
    "OFF_COST_NO_ENTRY": "an offloaded message takes no CF list entry",
    "OFF_USAGE_AFTER": "offload rules look at usage after adding the message",
    "OFF_RULE3_SKIPPED": "only offload rules 1 and 2 are evaluated",
    "OFF_ALTER_RESETS": "ALTER CFSTRUCT resets offload keywords not given",
    "OFF_DEFINE_LOWLEVEL": "DEFINE CFSTRUCT accepts OFFLOAD below CFLEVEL(5)",
    # CFLEVEL
    "CFL_PERSIST_L4": "persistent puts refused below CFLEVEL(4)",
    "CFL_RECOVER_NO_PERSIST": "persistent puts allowed on RECOVER(NO)",
    "CFL_LARGE_L3": "messages over the CF limit accepted (in the CF) at CFLEVEL(3)",
    "CFL_DECREASE_UNGUARDED": "CFLEVEL lowered from 3/4 with messages on a queue",
    "CFL_DECREASE_UNCOMMITTED": "CFLEVEL decrease guard ignores uncommitted messages",
    "CFL_RANGE6": "DEFINE CFSTRUCT accepts CFLEVEL(6)",
    "CFL_MAXMSGL_100MB": "DEFINE QLOCAL accepts MAXMSGL above 100 MB",
    # CAPACITY
    "CAP_FULL_ELEMENTS_ONLY": "structure full only when elements run out",
    "CAP_FULL_RC": "full structure answers 2053 instead of 2192",
    "CAP_QFULL_OFFBYONE": "a put succeeds at depth == MAXDEPTH",
    "CAP_IXC585_STRICT": "IXC585E only above FULLTHRESHOLD, not at it",
    "CAP_IXC_ELEMENTS_ONLY": "structure full monitoring ignores entries",
    "CAP_FT0": "FULLTHRESHOLD(0) still monitors",
    "CAP_IXC586_MISSING": "no IXC586I when usage falls below FULLTHRESHOLD",
    "CAP_SETXCF_ABOVE_SIZE": "SETXCF alter above SIZE accepted",
    "CAP_SETXCF_NO_EFFECT": "accepted SETXCF alter leaves the capacity unchanged",
    "CAP_INITSIZE": "structure allocated at SIZE instead of INITSIZE",
    # TOPOLOGY / ADMIN
    "TOP_513": "a 513th queue accepted on one structure",
    "TOP_512TH": "the 512th queue on a structure refused",
    "TOP_64STRUCT": "a 64th application structure accepted",
    "TOP_SYSAPPL": "CSQSYSAPPL not counted against the structure limit",
    "TOP_CFNAME_PAD": "CFRM name not padded with @ to four characters",
    "TOP_NAME_LEN": "DEFINE CFSTRUCT accepts a 13-character name",
    "TOP_ADMIN_ROW": "CSQ_ADMIN sized from Table 1 one row too low",
    "TOP_ADMIN_CHECK": "an undersized CSQ_ADMIN is accepted",
    "TOP_QSG_LEN": "a five-character QSG name accepted",
    "TOP_QSG_EQ_QMGR": "a QSG name equal to a queue manager name accepted",
    "ADM_FT_RANGE": "FULLTHRESHOLD above 100 accepted",
    "ADM_QDEPTH_RANGE": "QDEPTHHI above 100 accepted",
    # EVENTS
    "EV_HI_STRICT": "Queue Depth High needs depth above the limit",
    "EV_LO_STRICT": "Queue Depth Low needs depth below the limit",
    "EV_SHARED_PERFMEV_GATES": "shared queue events switched only with PERFMEV(ENABLED)",
    "EV_NONSHARED_TOGGLE": "nonshared queue events switched with PERFMEV(DISABLED)",
    "EV_NO_BROADCAST": "only the coordinating queue manager issues an event message",
    "EV_INACTIVE_ISSUE": "stopped queue managers issue event messages",
    "EV_DISABLED_ISSUE": "queue managers with PERFMEV(DISABLED) issue event messages",
    "EV_CORREL_DIFF": "each queue manager uses its own CorrelId",
    "EV_STATS_NOT_RESET": "statistics not reset after an event message",
    "EV_STATS_GLOBAL": "event messages carry the whole group's counts",
    "EV_WRONG_COORDINATOR": "the first queue manager coordinates, not the detecting one",
    "EV_HI_NO_QFULL_ENABLE": "Queue Depth High does not enable Queue Full",
    "EV_HI_NOT_DISABLED": "Queue Depth High does not disable itself",
    "EV_LO_NO_HI_ENABLE": "Queue Depth Low does not enable Queue Depth High",
    "EV_QFULL_NO_LO_ENABLE": "Queue Full does not enable Queue Depth Low",
    "EV_QFULL_ON_SUCCESS": "Queue Full raised by the put that fills the queue",
    "EV_SYNCPOINT_SUPPRESS": "no depth events for operations in a unit of work",
    "EV_BACKOUT_RESTORES": "backout restores the event enable flags",
    "EV_RESET_ALL_QMGRS": "RESET QSTATS resets every queue manager's counts",
    "EV_PERCENT_AS_COUNT": "QDEPTHHI taken as a message count, not a percentage",
    # RECOVERY
    "REC_NP_RECOVERED": "nonpersistent messages backed up and recovered",
    "REC_NO_REPLAY": "RECOVER restores the backup without replaying the logs",
    "REC_REPLAY_ONE_QM": "RECOVER replays only the backing-up queue manager's log",
    "REC_UNCOMMITTED": "in-flight persistent puts are recovered",
    "REC_NORMAL_NOT_FAILED": "RECOVER TYPE(NORMAL) accepted on an ACTIVE structure",
    "REC_PURGE_KEEPS": "RECOVER TYPE(PURGE) keeps the persistent messages",
    "REC_BACKUP_RECOVER_NO": "BACKUP CFSTRUCT accepted on RECOVER(NO)",
    "REC_RECOVER_RECOVER_NO": "RECOVER CFSTRUCT accepted on RECOVER(NO)",
    "REC_NO_BACKUP_OK": "RECOVER TYPE(NORMAL) succeeds without a backup",
    "REC_FAILED_RC": "MQGET on a FAILED structure answers 2033",
    "REC_NP_LOST_AT_STOP": "shared nonpersistent messages lost when a queue manager stops",
    # UOW / QUEUE
    "UOW_UNCOMMITTED_VISIBLE": "uncommitted puts can be got",
    "UOW_STOP_COMMITS": "stopping a queue manager commits its unit of work",
    "UOW_BACKOUT_KEEPS_PUT": "backout keeps the messages put in the unit of work",
    "QUEUE_LIFO": "gets return the newest message first",
    "QUEUE_NOT_SHARED": "a shared queue message is visible only to its putter",
    "QUEUE_MAXMSGL_EQ": "a message of exactly MAXMSGL is refused",
    # CQS
    "CQS_NO_ALTER_FIRST": "threshold goes straight to overflow mode, no alter",
    "CQS_THRESHOLD_STRICT": "overflow threshold needs usage above OVFLWMAX",
    "CQS_DEFAULT_80": "default OVFLWMAX is 80%",
    "CQS_ENTRIES_ONLY": "overflow threshold looks at entries only",
    "CQS_OVERFLOW_AFTER_SUCCESS": "overflow mode even when the alter succeeds",
    "CQS_ALTER_NO_GROWTH": "a successful alter does not grow the structure",
    "CQS_SELECT_LEAST": "selects the queues using the least space",
    "CQS_SELECT_ALL": "selects every queue, ignoring the target",
    "CQS_TARGET_AT_THRESHOLD": "selection stops at the threshold, not 20% below",
    "CQS_EXIT_IGNORED": "the Queue Overflow exit's vetoes are ignored",
    "CQS_VETO_STOPS": "a veto ends the selection",
    "CQS_NO_EXIT_REJECTS": "with no exit every queue is rejected",
    "CQS_NOSTR_ACCEPTS": "without an overflow structure puts to approved queues succeed",
    "CQS_NO_MOVE": "approved queues' data stays on the primary structure",
    "CQS_STAGING_MOVED": "staging parts move to the overflow structure too",
    "CQS_STAGING_ELIGIBLE": "the staging queue is a candidate for overflow",
    "CQS_FIRST_PART_STAGED": "the first part of a large message goes to the staging queue",
    "CQS_NO_STAGING": "all parts of a large message stay on the ready queue",
    "CQS_LGMSG_EQUAL_SPLIT": "a message of exactly LGMSGSZ is split",
    "CQS_LGMSGSZ_NO_ROUND": "LGMSGSZ not rounded up to a multiple of 4",
    "CQS_LGMSGSZ_NO_CAP": "LGMSGSZ above 30632 not lowered",
    "CQS_SCAN_10MIN": "the overflow scan runs every 10 minutes",
    "CQS_SCAN_IMMEDIATE": "an emptied queue leaves overflow mode at once",
    "CQS_SCAN_NONEMPTY": "the scan returns non-empty queues to normal",
    "CQS_EXIT_ON_FIRST": "overflow mode ends when the first queue is removed",
    "CQS_NOSTR_EXIT_AT_THRESHOLD": "without an overflow structure, overflow ends below OVFLWMAX",
    "CQS_RESOURCE_OVERFLOW": "resource structures go through overflow processing",
}

PROFILE_OPS = {
    "mq": {"define_structure", "alter_structure", "define_queue", "alter_queue", "put", "get",
           "commit", "backout", "set_perfmev", "reset_qstats", "start_qmgr", "stop_qmgr",
           "backup", "fail_structure", "recover", "setxcf_alter", "advance_clock", "inspect"},
    "cqs": {"define_structure", "alter_structure", "define_queue", "alter_queue", "put", "get",
            "setxcf_alter", "alter_outcome", "set_overflow_exit", "advance_clock", "inspect"},
}

STRUCT_DEFAULTS = {
    "size_kb": 8192, "initsize_kb": None, "fullthreshold": 80, "ratio": 6, "cflevel": 3,
    "recover": False, "offload": None, "offld1th": 70, "offld1sz": 32768, "offld2th": 80,
    "offld2sz": 4096, "offld3th": 90, "offld3sz": 0, "ovflwmax": None, "ovflwstr": None,
    "ovflw_size_kb": 8192, "resource": False,
}
QUEUE_DEFAULTS = {
    "cfstruct": None, "qmgr": None, "maxdepth": 999999999, "maxmsgl": 4194304,
    "qdepthhi": 80, "qdepthlo": 20, "qdphiev": False, "qdploev": False, "qdpmaxev": False,
}
STRUCT_TYPES = {
    "name": (str,), "size_kb": (int,), "initsize_kb": (int, type(None)), "fullthreshold": (int,),
    "ratio": (int,), "cflevel": (int,), "recover": (bool,), "offload": (str, type(None)),
    "offld1th": (int,), "offld1sz": (int,), "offld2th": (int,), "offld2sz": (int,),
    "offld3th": (int,), "offld3sz": (int,), "ovflwmax": (int, type(None)),
    "ovflwstr": (str, type(None)), "ovflw_size_kb": (int,), "resource": (bool,),
}
QUEUE_TYPES = {
    "name": (str,), "cfstruct": (str, type(None)), "qmgr": (str, type(None)), "maxdepth": (int,),
    "maxmsgl": (int,), "qdepthhi": (int,), "qdepthlo": (int,), "qdphiev": (bool,),
    "qdploev": (bool,), "qdpmaxev": (bool,),
}
MQ_STRUCT_ALTERABLE = {"cflevel", "recover", "offload", "offld1th", "offld1sz", "offld2th",
                       "offld2sz", "offld3th", "offld3sz"}
QUEUE_ALTERABLE = {"maxdepth", "maxmsgl", "qdepthhi", "qdepthlo", "qdphiev", "qdploev", "qdpmaxev"}

MQ_STRUCT_NAME = re.compile(r"^[A-Z][A-Z0-9]{0,11}$")
MQ_STRUCT_NAME_13 = re.compile(r"^[A-Z][A-Z0-9]{0,12}$")
CQS_STRUCT_NAME = re.compile(r"^[A-Z][A-Z0-9@#$_]{0,15}$")
MQ_QUEUE_NAME = re.compile(r"^[A-Za-z0-9._/%]{1,48}$")
CQS_QUEUE_NAME = re.compile(r"^\S{1,16}$")
STAGING = "STAGING"        # name of each CQS structure's staging queue


def _ceil_div(a, b):
    return -(-a // b)


def control_kb(size_kb):
    """Structure control storage: 2 MB plus 1/32 of the structure."""
    return 2048 + _ceil_div(size_kb, 32)


def usable_kb(size_kb):
    """Storage left for list entries and elements (never below a quarter)."""
    return max(size_kb - control_kb(size_kb), size_kb // 4)


def geometry(size_kb, ratio):
    """(entries_total, elements_total) of a list structure of size_kb with ratio."""
    per = ENTRY_BYTES + ratio * ELEMENT_BYTES
    ent = usable_kb(size_kb) * 1024 // per
    return ent, ent * ratio


def admin_entries(size_kb):
    return usable_kb(size_kb) * 1024 // ADMIN_ENTRY_BYTES


def admin_min_kb(table, n):
    """Minimum CSQ_ADMIN size for n queue managers (Table 1 or the V6 edition)."""
    if n < 1:
        n = 1
    if table == "cfcc14":
        if n <= len(ADMIN_TABLE_CFCC14):
            return ADMIN_TABLE_CFCC14[n - 1]
        return ADMIN_TABLE_CFCC14[-1] + 768 * (n - len(ADMIN_TABLE_CFCC14))
    pts = sorted(ADMIN_TABLE_V6_POINTS.items())
    if n in ADMIN_TABLE_V6_POINTS:
        return ADMIN_TABLE_V6_POINTS[n]
    if n > pts[-1][0]:
        return pts[-1][1] + 768 * (n - pts[-1][0])
    for (n0, s0), (n1, s1) in zip(pts, pts[1:]):
        if n0 < n < n1:
            v = s0 + (s1 - s0) * (n - n0) / (n1 - n0)
            return _ceil_div(int(_ceil_div(int(v * 1000), 1000)), 256) * 256
    return pts[0][1]


def mq_elements(length):
    return max(1, _ceil_div(length + MQ_HEADER_BYTES, ELEMENT_BYTES))


def cqs_part_elements(length):
    return max(1, _ceil_div(length + CQS_PREFIX_BYTES, ELEMENT_BYTES))


class Invalid(Exception):
    """A documented rejection of a definition: outcome ok=false."""

    def __init__(self, reason, field, value, allowed):
        super().__init__("%s=%r: %s" % (field, value, allowed))
        self.reason = reason
        self.field = field
        self.value = value
        self.allowed = allowed


class OpError(Exception):
    """An error reply (code 14 / 10 / 11)."""

    def __init__(self, code, text, detail=None):
        super().__init__(text)
        self.code = code
        self.text = text
        self.detail = detail


class ConfigError(Exception):
    def __init__(self, field, value, allowed):
        super().__init__("%s=%r is invalid: allowed %s" % (field, value, allowed))
        self.field = field
        self.value = value
        self.allowed = allowed


def _bad(field, value, allowed, rule):
    return OpError(14, "%s=%r is invalid: allowed %s [%s]" % (field, value, allowed, rule),
                   {"field": field, "value": value, "allowed": allowed, "rule_id": rule})


# ---------------------------------------------------------------------------
class Pool:
    """Entries and elements of one list structure."""

    def __init__(self, size_kb, ratio):
        self.size_kb = size_kb
        self.ratio = ratio
        self.entries_total, self.elements_total = geometry(size_kb, ratio)
        self.entries_used = 0
        self.elements_used = 0

    def resize(self, size_kb):
        self.size_kb = size_kb
        self.entries_total, self.elements_total = geometry(size_kb, self.ratio)

    def usage(self):
        return [self.entries_used, self.entries_total, self.elements_used, self.elements_total]


class Struct:
    def __init__(self, rec, profile, fault):
        self.name = rec["name"]
        self.rec = rec
        self.size_max = rec["size_kb"]
        self.initsize = rec["initsize_kb"] if rec["initsize_kb"] is not None else rec["size_kb"]
        start = self.size_max if fault("CAP_INITSIZE") else self.initsize
        self.pool = Pool(start, rec["ratio"])
        self.fullthreshold = rec["fullthreshold"]
        self.cflevel = rec["cflevel"]
        self.recover = rec["recover"]
        self.offload = rec["offload"]
        self.offld = [(rec["offld1th"], rec["offld1sz"]), (rec["offld2th"], rec["offld2sz"]),
                      (rec["offld3th"], rec["offld3sz"])]
        self.status = "ACTIVE"
        self.full_warning = False
        # recovery (mq)
        self.backup = None         # list of message snapshots, or None
        self.backup_qmgr = None
        self.log = []              # committed persistent activity since the backup
        self.at_failure = None     # committed persistent messages when it failed
        self.inflight_at_failure = []
        # cqs
        self.ovflwmax = rec["ovflwmax"]
        self.ovflwstr = rec["ovflwstr"]
        self.ovflw_size_kb = rec["ovflw_size_kb"]
        self.resource = rec["resource"]
        self.alter_pending = False
        self.overflow_mode = False
        self.overflow_start = 0
        self.overflow_queues = []
        self.ovf = None            # Pool of the allocated overflow structure
        self.staging = []          # staging parts: (msg seq, entries, elements)


class Queue:
    def __init__(self, rec, index):
        self.rec = rec
        self.name = rec["name"]
        self.index = index
        self.cfstruct = rec["cfstruct"]
        self.owner = rec["qmgr"]
        self.maxdepth = rec["maxdepth"]
        self.maxmsgl = rec["maxmsgl"]
        self.qdepthhi = rec["qdepthhi"]
        self.qdepthlo = rec["qdepthlo"]
        self.qdphiev = rec["qdphiev"]
        self.qdploev = rec["qdploev"]
        self.qdpmaxev = rec["qdpmaxev"]
        self.msgs = []             # in arrival order
        self.locked = 0            # messages got in a unit of work, not yet committed
        self.overflow = False      # cqs

    @property
    def shared(self):
        return self.cfstruct is not None


class Msg:
    __slots__ = ("seq", "tag", "length", "persistent", "queue", "location", "entries",
                 "elements", "committed", "locked_by", "putter", "loc", "stg_entries",
                 "stg_elements", "stg_parts", "first_entries", "first_elements")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, kw.get(k))

    def snap(self):
        return {"seq": self.seq, "tag": self.tag, "length": self.length,
                "persistent": self.persistent, "queue": self.queue, "location": self.location,
                "entries": self.entries, "elements": self.elements, "putter": self.putter}


class QMgr:
    def __init__(self, name, perfmev):
        self.name = name
        self.active = True
        self.perfmev = perfmev
        self.uow = []              # [("put"|"get", Msg)]
        self.uow_flags = {}        # queue -> event flags when the UOW first touched it


# ---------------------------------------------------------------------------
class Model:
    def __init__(self, config, fault=None):
        self.fault = fault
        self.clock = 0
        self.seq = 0
        self.correl = 0
        self.structs = {}          # name -> Struct, definition order
        self.queues = {}           # name -> Queue, definition order
        self.stats = {}            # (qmgr, queue) -> [enq, deq]
        self._build(config)

    def f(self, fid):
        return self.fault == fid

    # ------------------------------------------------------------------ config
    def _build(self, cfg):
        prof = cfg.get("profile", "mq")
        if prof not in ("mq", "cqs"):
            raise ConfigError("profile", prof, "mq or cqs")
        self.profile = prof
        qsg = cfg.get("qsg", "QSG1")
        qmgrs = cfg.get("qmgrs", ["QM01", "QM02", "QM03"])
        maxq = 5 if self.f("TOP_QSG_LEN") else 4
        if not isinstance(qsg, str) or not 1 <= len(qsg) <= maxq:
            raise ConfigError("qsg", qsg, "1 to 4 characters")
        if not isinstance(qmgrs, list) or not all(isinstance(q, str) and q for q in qmgrs):
            raise ConfigError("qmgrs", qmgrs, "a list of names")
        if len(set(qmgrs)) != len(qmgrs):
            raise ConfigError("qmgrs", qmgrs, "distinct names")
        if prof == "mq":
            if not qmgrs:
                raise ConfigError("qmgrs", qmgrs, "at least one queue manager")
            if len(qmgrs) > MAX_QMGRS:
                raise ConfigError("qmgrs", len(qmgrs), "at most 32 queue managers")
            if qsg in qmgrs and not self.f("TOP_QSG_EQ_QMGR"):
                raise ConfigError("qsg", qsg, "a name different from every queue manager")
        self.qsg = qsg
        self.qmgr_order = list(qmgrs)
        disabled = cfg.get("perfmev_disabled", []) or []
        for n in disabled:
            if n not in qmgrs:
                raise ConfigError("perfmev_disabled", n, "names from qmgrs")
        self.qmgrs = {n: QMgr(n, n not in disabled) for n in qmgrs}
        # long message record (CQS)
        lg = cfg.get("lgmsgsz", 4096)
        if not isinstance(lg, int) or isinstance(lg, bool) or not 1 <= lg <= 99999:
            raise ConfigError("lgmsgsz", lg, "1 to 99999 bytes")
        if not self.f("CQS_LGMSGSZ_NO_ROUND"):
            lg = _ceil_div(lg, 4) * 4
        if lg > LGMSGSZ_MAX and not self.f("CQS_LGMSGSZ_NO_CAP"):
            lg = LGMSGSZ_MAX
        self.lgmsgsz = lg
        ex = cfg.get("overflow_exit", None)
        if ex is not None and not (isinstance(ex, list) and all(isinstance(v, str) for v in ex)):
            raise ConfigError("overflow_exit", ex, "null or a list of queue names")
        self.exit_vetoes = None if ex is None else list(ex)
        # admin structure (mq)
        self.admin_table = cfg.get("admin_table", "cfcc14")
        if not isinstance(self.admin_table, str):
            raise ConfigError("admin_table", self.admin_table, "a table edition name")
        need = admin_min_kb(self.admin_table, len(qmgrs) - (1 if self.f("TOP_ADMIN_ROW") else 0))
        asz = cfg.get("admin_size_kb", None)
        if asz is None:
            asz = need
        elif prof == "mq":
            if not isinstance(asz, int) or isinstance(asz, bool):
                raise ConfigError("admin_size_kb", asz, "an integer (KB)")
            if not self.f("TOP_ADMIN_CHECK"):
                if asz < need:
                    raise ConfigError("admin_size_kb", asz,
                                      ">= %d KB (Table 1, %d queue managers)" % (need, len(qmgrs)))
                if admin_entries(asz) < 1000 * len(qmgrs):
                    raise ConfigError("admin_size_kb", asz,
                                      "at least 1000 list entries per queue manager")
        self.admin_size = asz
        # structures
        # a missing field takes config.json's default: one structure APP1
        for i, rec in enumerate(cfg.get("structures", [{"name": "APP1"}]) or []):
            try:
                norm = self._check_struct(rec)
                self._struct_limit(norm)
            except Invalid as e:
                raise ConfigError("structures[%d].%s" % (i, e.field), e.value, e.allowed)
            self.structs[norm["name"]] = Struct(norm, prof, self.f)
        for i, rec in enumerate(cfg.get("queues", []) or []):
            try:
                norm = self._check_queue(rec)
                self._queue_limit(norm)
            except Invalid as e:
                raise ConfigError("queues[%d].%s" % (i, e.field), e.value, e.allowed)
            self.queues[norm["name"]] = Queue(norm, len(self.queues))

    # --------------------------------------------------------- record checks
    def _normalise(self, rec, defaults, types):
        if not isinstance(rec, dict):
            raise Invalid("INVALID", "record", rec, "an object")
        for k in rec:
            if k not in types:
                raise Invalid("INVALID", k, rec[k], "a known keyword")
        if "name" not in rec:
            raise Invalid("INVALID", "name", None, "a name")
        out = dict(defaults)
        out.update(rec)
        for k, v in out.items():
            ok_types = types[k]
            if isinstance(v, bool) and bool not in ok_types:
                raise Invalid("INVALID", k, v, "type %s" % ok_types[0].__name__)
            if not isinstance(v, ok_types):
                raise Invalid("INVALID", k, v, "type %s" % ok_types[0].__name__)
        return out

    def _check_struct(self, rec):
        s = self._normalise(rec, STRUCT_DEFAULTS, STRUCT_TYPES)
        name = s["name"]
        if self.profile == "mq":
            pat = MQ_STRUCT_NAME_13 if self.f("TOP_NAME_LEN") else MQ_STRUCT_NAME
            if not pat.match(name):
                raise Invalid("INVALID", "name", name,
                              "1-12 characters, A-Z then A-Z/0-9 (not CSQ_ADMIN)")
        else:
            if not CQS_STRUCT_NAME.match(name):
                raise Invalid("INVALID", "name", name, "1-16 characters, A-Z then A-Z/0-9/@#$_")
        if name in self.structs:
            raise Invalid("INVALID", "name", name, "a structure not already defined")
        if s["size_kb"] < 1:
            raise Invalid("INVALID", "size_kb", s["size_kb"], ">= 1")
        if s["initsize_kb"] is not None and not 1 <= s["initsize_kb"] <= s["size_kb"]:
            raise Invalid("INVALID", "initsize_kb", s["initsize_kb"], "1..size_kb")
        fmax = 200 if self.f("ADM_FT_RANGE") else 100
        if not 0 <= s["fullthreshold"] <= fmax:
            raise Invalid("INVALID", "fullthreshold", s["fullthreshold"], "0..100")
        if s["ratio"] < 1:
            raise Invalid("INVALID", "ratio", s["ratio"], ">= 1")
        if self.profile == "mq":
            cmax = 6 if self.f("CFL_RANGE6") else 5
            if not 1 <= s["cflevel"] <= cmax:
                raise Invalid("INVALID", "cflevel", s["cflevel"], "1..5")
            self._check_mq_attrs(s, s, explicit_offload=True)
        else:
            if s["ovflwmax"] is not None and not 1 <= s["ovflwmax"] <= 100:
                raise Invalid("INVALID", "ovflwmax", s["ovflwmax"], "1..100 (percent)")
            if s["ovflwstr"] is not None:
                if not CQS_STRUCT_NAME.match(s["ovflwstr"]) or s["ovflwstr"] == name:
                    raise Invalid("INVALID", "ovflwstr", s["ovflwstr"],
                                  "a structure name other than the primary's")
                for o in self.structs.values():
                    if s["ovflwstr"] in (o.name, o.ovflwstr) or name == o.ovflwstr:
                        raise Invalid("INVALID", "ovflwstr", s["ovflwstr"],
                                      "a name no other structure uses")
            if s["ovflw_size_kb"] < 1:
                raise Invalid("INVALID", "ovflw_size_kb", s["ovflw_size_kb"], ">= 1")
        return s

    def _check_mq_attrs(self, s, changes, explicit_offload):
        """CFLEVEL-dependent consistency of an MQ structure definition s."""
        if s["offload"] is not None and s["offload"] not in ("SMDS", "DB2"):
            raise Invalid("INVALID", "offload", s["offload"], "SMDS or DB2")
        if (s["offload"] is not None and s["cflevel"] < 5 and explicit_offload
                and not self.f("OFF_DEFINE_LOWLEVEL")):
            raise Invalid("INVALID", "offload", s["offload"], "OFFLOAD only from CFLEVEL(5)")
        if s["recover"] and s["cflevel"] < 3:
            raise Invalid("INVALID", "recover", True, "RECOVER(YES) needs CFLEVEL(3) or higher")
        for n in (1, 2, 3):
            th, sz = s["offld%dth" % n], s["offld%dsz" % n]
            if not 0 <= th <= 100:
                raise Invalid("INVALID", "offld%dth" % n, th, "0..100 (percent)")
            if not 0 <= sz <= SIZE_OFF or sz % 1024:
                raise Invalid("INVALID", "offld%dsz" % n, sz, "0K..64K (bytes, a multiple of 1024)")

    def _struct_limit(self, s):
        if self.profile != "mq":
            return
        count = len(self.structs)
        if self.f("TOP_SYSAPPL"):
            count -= sum(1 for n in self.structs if n == "CSQSYSAPPL")
        limit = MAX_APPL_STRUCTS + (1 if self.f("TOP_64STRUCT") else 0)
        if count >= limit:
            raise Invalid("NOT_ALLOWED", "name", s["name"],
                          "at most 63 application structures (62 besides CSQSYSAPPL)")

    def _check_queue(self, rec):
        q = self._normalise(rec, QUEUE_DEFAULTS, QUEUE_TYPES)
        name = q["name"]
        if self.profile == "mq":
            if not MQ_QUEUE_NAME.match(name):
                raise Invalid("INVALID", "name", name, "1-48 characters A-Z a-z 0-9 . / _ %")
        else:
            if not CQS_QUEUE_NAME.match(name) or name == STAGING:
                raise Invalid("INVALID", "name", name, "1-16 characters")
        if name in self.queues:
            raise Invalid("INVALID", "name", name, "a queue not already defined")
        if q["cfstruct"] is not None:
            if q["cfstruct"] not in self.structs:
                raise Invalid("INVALID", "cfstruct", q["cfstruct"],
                              "one of %s" % sorted(self.structs))
            if q["qmgr"] is not None and q["qmgr"] not in self.qmgrs:
                raise Invalid("INVALID", "qmgr", q["qmgr"], "one of %s" % self.qmgr_order)
        else:
            if self.profile == "cqs":
                raise Invalid("INVALID", "cfstruct", None, "the queue's primary structure")
            if q["qmgr"] not in self.qmgrs:
                raise Invalid("INVALID", "qmgr", q["qmgr"],
                              "the owning queue manager of a nonshared queue")
        mm = 2 ** 31 - 1 if self.f("CFL_MAXMSGL_100MB") else MAX_MSG_BYTES
        if not 0 <= q["maxdepth"] <= 999999999:
            raise Invalid("INVALID", "maxdepth", q["maxdepth"], "0..999999999")
        if not 0 <= q["maxmsgl"] <= mm:
            raise Invalid("INVALID", "maxmsgl", q["maxmsgl"], "0..104857600")
        hmax = 1000 if self.f("ADM_QDEPTH_RANGE") else 100
        if not 0 <= q["qdepthhi"] <= hmax:
            raise Invalid("INVALID", "qdepthhi", q["qdepthhi"], "0..100 (percent of MAXDEPTH)")
        if not 0 <= q["qdepthlo"] <= 100:
            raise Invalid("INVALID", "qdepthlo", q["qdepthlo"], "0..100 (percent of MAXDEPTH)")
        return q

    def _queue_limit(self, q):
        if self.profile != "mq" or q["cfstruct"] is None:
            return
        n = sum(1 for o in self.queues.values() if o.cfstruct == q["cfstruct"])
        limit = MAX_QUEUES_PER_STRUCT
        if self.f("TOP_513"):
            limit += 1
        if self.f("TOP_512TH"):
            limit -= 1
        if n >= limit:
            raise Invalid("NOT_ALLOWED", "cfstruct", q["cfstruct"],
                          "at most 512 shared queues per structure")

    # ------------------------------------------------------------- lookups
    def _qmgr(self, name):
        if name not in self.qmgrs:
            raise _bad("qmgr", name, "one of %s" % self.qmgr_order, "TOPOLOGY-006")
        return self.qmgrs[name]

    def _queue(self, name):
        if name not in self.queues:
            raise _bad("queue", name, "one of %s" % list(self.queues), "TOPOLOGY-013")
        return self.queues[name]

    def _struct(self, name, field="cfstruct"):
        if name not in self.structs:
            raise _bad(field, name, "one of %s" % list(self.structs), "TOPOLOGY-011")
        return self.structs[name]

    # ------------------------------------------------------------- apply
    def apply(self, op):
        kind = op["op"]
        if kind not in PROFILE_OPS[self.profile]:
            raise _bad("op", kind, "an operation of the %s profile" % self.profile, "PROFILE")
        out = getattr(self, "op_" + kind)(op)
        out = {"kind": kind, **out}
        return {k: v for k, v in out.items() if v is not None and v != []}

    # ================================================================= MQ
    def _depth(self, q):
        """CURDEPTH: uncommitted puts count, messages got in a unit of work do not."""
        return len(q.msgs) - q.locked

    def _usage(self, s):
        return s.pool.usage() if s is not None and s.status == "ACTIVE" else None

    def _stat(self, qm, qn):
        return self.stats.setdefault((qm, qn), [0, 0])

    def _limit(self, q, which):
        """QDEPTHHI/QDEPTHLO as a message count (reading qdepth_percent=floor)."""
        pct = q.qdepthhi if which == "hi" else q.qdepthlo
        if self.f("EV_PERCENT_AS_COUNT") and which == "hi":
            return pct
        return pct * q.maxdepth // 100

    def _offload_target(self, s, length):
        """Location of a shared message's data: CF, SMDS or DB2."""
        big = length > FORCED_OFFLOAD
        if s.cflevel == 4:
            if self.f("OFF_CF4_RULES") and self._rules_match(s, length):
                return "DB2"
            return ("SMDS" if self.f("OFF_CF4_SMDS") else "DB2") if big else "CF"
        if s.cflevel < 4:
            return "CF"
        dest = s.offload or ("DB2" if self.f("OFF_DEFAULT_DB2") else "SMDS")
        if dest == "DB2" and self.f("OFF_DB2_IGNORED"):
            dest = "SMDS"
        if big and not self.f("OFF_NO_FORCED"):
            return dest
        if self._rules_match(s, length):
            return dest
        return "CF"

    def _rules_match(self, s, length):
        rules = list(s.offld)
        if self.f("OFF_PAIR_SWAP"):
            rules = [(rules[0][0], rules[1][1]), (rules[1][0], rules[0][1]), rules[2]]
        if self.f("OFF_RULE3_SKIPPED"):
            rules = rules[:2]
        if self.f("OFF_64K_DISABLES_ALL") and any(sz == SIZE_OFF for _, sz in rules):
            return False
        used, total = s.pool.elements_used, s.pool.elements_total
        if self.f("OFF_USAGE_AFTER"):
            used += mq_elements(length)
        for th, sz in rules:
            if sz == SIZE_OFF:
                continue                      # OFFLDnSZ(64K): the rule is not in effect
            usage_ok = (100 * used >= th * total) if total else True
            size_ok = length >= sz
            if self.f("OFF_SIZE_ONLY"):
                usage_ok = True
            if self.f("OFF_TH_ONLY"):
                size_ok = True
            if usage_ok and size_ok:
                return True
        return False

    def _fits(self, pool, entries, elements):
        if self.f("CAP_FULL_ELEMENTS_ONLY"):
            return pool.elements_used + elements <= pool.elements_total
        return (pool.entries_used + entries <= pool.entries_total
                and pool.elements_used + elements <= pool.elements_total)

    def _charge(self, s, m, sign):
        if s is None:
            return
        s.pool.entries_used += sign * m.entries
        s.pool.elements_used += sign * m.elements

    def _remove_msg(self, q, m):
        for i, x in enumerate(q.msgs):
            if x is m:
                del q.msgs[i]
                if m.locked_by is not None:
                    q.locked -= 1
                    m.locked_by = None
                self._charge(self.structs.get(q.cfstruct), m, -1)
                return

    def _log(self, s, kind, qm, m):
        if s is None or (not m.persistent and not self.f("REC_NP_RECOVERED")):
            return
        s.log.append((kind, qm, m.snap()))

    # -- queue depth events -------------------------------------------
    def _toggle(self, q, kind):
        if kind == "QDPHI":
            if not self.f("EV_HI_NOT_DISABLED"):
                q.qdphiev = False
            q.qdploev = True
            if not self.f("EV_HI_NO_QFULL_ENABLE"):
                q.qdpmaxev = True
        elif kind == "QDPLO":
            q.qdploev = False
            if not self.f("EV_LO_NO_HI_ENABLE"):
                q.qdphiev = True
            q.qdpmaxev = True
        else:  # QFULL
            q.qdpmaxev = False
            if not self.f("EV_QFULL_NO_LO_ENABLE"):
                q.qdploev = True
            q.qdphiev = False               # reading qfull_hi_flag=disabled

    def _event(self, q, kind, det, in_uow):
        """A queue depth event detected by queue manager det on queue q."""
        if in_uow and self.f("EV_SYNCPOINT_SUPPRESS"):
            return []
        dq = self.qmgrs[det]
        if q.shared:
            switch = dq.perfmev if self.f("EV_SHARED_PERFMEV_GATES") else True
        else:
            switch = True if self.f("EV_NONSHARED_TOGGLE") else dq.perfmev
        if not switch:
            return []
        self._toggle(q, kind)
        if not q.shared:
            if not dq.perfmev:
                return []
            return [self._event_msg(det, kind, q, 0)]
        self.correl += 1
        correl = self.correl
        coord = self.qmgr_order[0] if self.f("EV_WRONG_COORDINATOR") else det
        order = [coord] + [n for n in self.qmgr_order if n != coord]
        events = []
        for n in order:
            qm = self.qmgrs[n]
            if not qm.active and not self.f("EV_INACTIVE_ISSUE"):
                continue
            if not qm.perfmev and not self.f("EV_DISABLED_ISSUE"):
                continue
            if n != coord and self.f("EV_NO_BROADCAST"):
                continue
            c = correl
            if self.f("EV_CORREL_DIFF") and n != coord:
                self.correl += 1
                c = self.correl
            events.append(self._event_msg(n, kind, q, c))
        return events

    def _event_msg(self, n, kind, q, correl):
        if self.f("EV_STATS_GLOBAL"):
            enq = sum(v[0] for (m, qn), v in self.stats.items() if qn == q.name)
            deq = sum(v[1] for (m, qn), v in self.stats.items() if qn == q.name)
        else:
            st = self._stat(n, q.name)
            enq, deq = st
        if not self.f("EV_STATS_NOT_RESET"):
            self.stats[(n, q.name)] = [0, 0]
        return {"qmgr": n, "kind": kind, "queue": q.name, "correl": correl, "enq": enq, "deq": deq}

    # -- put / get ------------------------------------------------------
    def _mq_access(self, op):
        qm = self._qmgr(op["qmgr"])
        q = self._queue(op["queue"])
        if not q.shared and q.owner != qm.name:
            raise _bad("queue", q.name, "a queue defined on %s (nonshared queue of %s)"
                       % (qm.name, q.owner), "QUEUE-009")
        return qm, q

    def op_put(self, op):
        if self.profile == "cqs":
            return self._cqs_put(op)
        length = op["length"]
        if length < 0:
            raise _bad("length", length, ">= 0", "QUEUE-001")
        qm, q = self._mq_access(op)
        persistent = op.get("persistent", False)
        syncpoint = op.get("syncpoint", False)
        if not qm.active:
            return {"ok": False, "reason": 2059}
        if syncpoint:
            qm.uow_flags.setdefault(q.name, (q.qdphiev, q.qdploev, q.qdpmaxev))
        s = self.structs.get(q.cfstruct)
        if s is not None and s.status == "FAILED":
            return {"ok": False, "reason": 2373}
        if (length >= q.maxmsgl if self.f("QUEUE_MAXMSGL_EQ") else length > q.maxmsgl) \
                or length > MAX_MSG_BYTES:
            return {"ok": False, "reason": 2030, "usage": self._usage(s)}
        depth = self._depth(q)
        full = depth > q.maxdepth if self.f("CAP_QFULL_OFFBYONE") else depth >= q.maxdepth
        if full:
            events = []
            if q.qdpmaxev and not self.f("EV_QFULL_ON_SUCCESS"):
                events = self._event(q, "QFULL", qm.name, syncpoint)
            return {"ok": False, "reason": 2053, "usage": self._usage(s), "events": events}
        location = None
        entries = elements = 0
        if s is not None:
            if persistent and s.cflevel <= (3 if self.f("CFL_PERSIST_L4") else 2):
                return {"ok": False, "reason": 2366, "usage": self._usage(s)}
            if persistent and not s.recover and not self.f("CFL_RECOVER_NO_PERSIST"):
                return {"ok": False, "reason": 2048, "usage": self._usage(s)}
            if length > LOW_CFLEVEL_LIMIT and s.cflevel < 4 and not self.f("CFL_LARGE_L3"):
                return {"ok": False, "reason": 2030, "usage": self._usage(s)}
            location = self._offload_target(s, length)
            if location == "CF":
                entries, elements = 1, mq_elements(length)
            else:
                entries, elements = 1, OFFLOADED_ELEMENTS
                if self.f("OFF_COST_FULL"):
                    elements = mq_elements(length)
                if self.f("OFF_COST_NO_ENTRY"):
                    entries = 0
            if not self._fits(s.pool, entries, elements):
                return {"ok": False, "reason": 2053 if self.f("CAP_FULL_RC") else 2192,
                        "usage": self._usage(s)}
        self.seq += 1
        m = Msg(seq=self.seq, tag=op.get("tag", 0), length=length, persistent=persistent,
                queue=q.name, location=location, entries=entries, elements=elements,
                committed=not syncpoint, locked_by=None, putter=qm.name)
        q.msgs.append(m)
        self._charge(s, m, +1)
        if syncpoint:
            qm.uow.append(("put", m))
        else:
            self._log(s, "put", qm.name, m)
        self._stat(qm.name, q.name)[0] += 1
        events = []
        depth = self._depth(q)
        hi = self._limit(q, "hi")
        crossed = depth > hi if self.f("EV_HI_STRICT") else depth >= hi
        if q.qdphiev and crossed:
            events = self._event(q, "QDPHI", qm.name, syncpoint)
        if (self.f("EV_QFULL_ON_SUCCESS") and q.qdpmaxev and depth >= q.maxdepth):
            events += self._event(q, "QFULL", qm.name, syncpoint)
        out = {"ok": True, "events": events}
        if s is not None:
            out["offloaded"] = location != "CF"
            out["location"] = location
            out["usage"] = self._usage(s)
        return out

    def _next_msg(self, q, qm):
        """The next retrievable message: committed, not locked, in arrival order."""
        order = reversed(q.msgs) if self.f("QUEUE_LIFO") else q.msgs
        for m in order:
            if m.locked_by is not None:
                continue
            if not (m.committed or self.f("UOW_UNCOMMITTED_VISIBLE")):
                continue
            if self.f("QUEUE_NOT_SHARED") and m.putter != qm.name:
                continue
            return m
        return None

    def op_get(self, op):
        if self.profile == "cqs":
            return self._cqs_get(op)
        qm, q = self._mq_access(op)
        syncpoint = op.get("syncpoint", False)
        if not qm.active:
            return {"ok": False, "reason": 2059}
        if syncpoint:
            qm.uow_flags.setdefault(q.name, (q.qdphiev, q.qdploev, q.qdpmaxev))
        s = self.structs.get(q.cfstruct)
        if s is not None and s.status == "FAILED":
            return {"ok": False, "reason": 2033 if self.f("REC_FAILED_RC") else 2373}
        m = self._next_msg(q, qm)
        if m is None:
            return {"ok": False, "reason": 2033, "usage": self._usage(s)}
        if syncpoint:
            m.locked_by = qm.name
            q.locked += 1
            qm.uow.append(("get", m))
        else:
            self._remove_msg(q, m)
            if m.committed:
                self._log(s, "del", qm.name, m)
            else:   # only reachable with UOW_UNCOMMITTED_VISIBLE
                for holder in self.qmgrs.values():
                    holder.uow = [(k, x) for (k, x) in holder.uow if x is not m]
        self._stat(qm.name, q.name)[1] += 1
        events = []
        depth = self._depth(q)
        lo = self._limit(q, "lo")
        crossed = depth < lo if self.f("EV_LO_STRICT") else depth <= lo
        if q.qdploev and crossed:
            events = self._event(q, "QDPLO", qm.name, syncpoint)
        return {"ok": True, "tag": m.tag, "usage": self._usage(s), "events": events}

    # -- units of work ----------------------------------------------------
    def _end_uow(self, qm, commit):
        for kind, m in qm.uow:
            q = self.queues[m.queue]
            s = self.structs.get(q.cfstruct)
            if kind == "put":
                if commit:
                    if any(x is m for x in q.msgs):
                        m.committed = True
                        self._log(s, "put", qm.name, m)
                else:
                    self._remove_msg(q, m)
            else:
                if commit:
                    if m.locked_by is not None:
                        self._remove_msg(q, m)
                        self._log(s, "del", qm.name, m)
                elif m.locked_by is not None:
                    m.locked_by = None
                    q.locked -= 1
        qm.uow = []
        qm.uow_flags = {}

    def op_commit(self, op):
        qm = self._qmgr(op["qmgr"])
        if not qm.active:
            return {"ok": False, "reason": 2059}
        self._end_uow(qm, True)
        return {"ok": True}

    def op_backout(self, op):
        qm = self._qmgr(op["qmgr"])
        if not qm.active:
            return {"ok": False, "reason": 2059}
        saved = dict(qm.uow_flags)
        if self.f("UOW_BACKOUT_KEEPS_PUT"):
            puts = [(k, m) for (k, m) in qm.uow if k == "put"]
            qm.uow = [(k, m) for (k, m) in qm.uow if k == "get"]
            self._end_uow(qm, False)
            qm.uow = puts
            self._end_uow(qm, True)
        else:
            self._end_uow(qm, False)
        if self.f("EV_BACKOUT_RESTORES"):
            for qn, flags in saved.items():
                q = self.queues[qn]
                q.qdphiev, q.qdploev, q.qdpmaxev = flags
        return {"ok": True}

    # -- queue managers ---------------------------------------------------
    def op_set_perfmev(self, op):
        qm = self._qmgr(op["qmgr"])
        if not qm.active:
            return {"ok": False, "reason": "NOT_ACTIVE"}
        qm.perfmev = bool(op["enabled"])
        return {"ok": True}

    def op_reset_qstats(self, op):
        qm = self._qmgr(op["qmgr"])
        q = self._queue(op["queue"])
        if not qm.active:
            return {"ok": False, "reason": "NOT_ACTIVE"}
        if self.f("EV_RESET_ALL_QMGRS"):
            for n in self.qmgr_order:
                self.stats[(n, q.name)] = [0, 0]
        else:
            self.stats[(qm.name, q.name)] = [0, 0]
        return {"ok": True}

    def op_start_qmgr(self, op):
        qm = self._qmgr(op["qmgr"])
        qm.active = True
        return {"ok": True}

    def op_stop_qmgr(self, op):
        qm = self._qmgr(op["qmgr"])
        if not qm.active:
            return {"ok": True}
        self._end_uow(qm, self.f("UOW_STOP_COMMITS"))
        for q in self.queues.values():
            if not q.shared and q.owner == qm.name:
                for m in [m for m in q.msgs if not m.persistent]:
                    self._remove_msg(q, m)          # reading nonshared_at_stop=lost
            if q.shared and self.f("REC_NP_LOST_AT_STOP"):
                for m in [m for m in q.msgs if not m.persistent and m.putter == qm.name
                          and m.locked_by is None]:
                    self._remove_msg(q, m)
        for key in list(self.stats):
            if key[0] == qm.name:
                self.stats[key] = [0, 0]            # reading qstats_at_stop=reset
        qm.active = False
        return {"ok": True}

    # -- backup and recovery ----------------------------------------------
    def _persistent_snapshot(self, s):
        out = []
        for q in self.queues.values():
            if q.cfstruct != s.name:
                continue
            for m in q.msgs:
                if m.committed and (m.persistent or self.f("REC_NP_RECOVERED")):
                    out.append(m.snap())
        return out

    def op_backup(self, op):
        qm = self._qmgr(op["qmgr"])
        s = self._struct(op["cfstruct"])
        if not qm.active:
            return {"ok": False, "reason": "NOT_ACTIVE"}
        if (s.cflevel < 3 or not s.recover) and not self.f("REC_BACKUP_RECOVER_NO"):
            return {"ok": False, "reason": "NOT_ALLOWED"}
        if s.status != "ACTIVE":
            return {"ok": False, "reason": "NOT_ACTIVE"}
        s.backup = self._persistent_snapshot(s)
        s.backup_qmgr = qm.name
        s.log = []
        return {"ok": True}

    def op_fail_structure(self, op):
        s = self._struct(op["cfstruct"])
        if s.status == "FAILED":
            return {"ok": True}
        s.at_failure = self._persistent_snapshot(s)
        inflight = []
        for qm in self.qmgrs.values():
            keep = []
            for kind, m in qm.uow:
                if self.queues[m.queue].cfstruct == s.name:
                    if kind == "put":
                        inflight.append(m.snap())
                else:
                    keep.append((kind, m))
            qm.uow = keep
        s.inflight_at_failure = inflight
        for q in self.queues.values():
            if q.cfstruct == s.name:
                q.msgs = []
                q.locked = 0
        s.pool.entries_used = 0
        s.pool.elements_used = 0
        s.status = "FAILED"
        return {"ok": True}

    def _replay(self, s):
        state = {m["seq"]: m for m in (s.backup or [])}
        if not self.f("REC_NO_REPLAY"):
            for kind, qm, m in s.log:
                if self.f("REC_REPLAY_ONE_QM") and qm != s.backup_qmgr:
                    continue
                if kind == "put":
                    state[m["seq"]] = m
                elif kind == "del":
                    state.pop(m["seq"], None)
                elif kind == "purge":
                    state = {}
        if self.f("REC_UNCOMMITTED"):
            for m in s.inflight_at_failure:
                state[m["seq"]] = m
        return [state[k] for k in sorted(state)]

    def op_recover(self, op):
        s = self._struct(op["cfstruct"])
        purge = op.get("purge", False)
        if (s.cflevel < 3 or not s.recover) and not self.f("REC_RECOVER_RECOVER_NO"):
            return {"ok": False, "reason": "NOT_ALLOWED"}
        if not purge and s.backup is None and not self.f("REC_NO_BACKUP_OK"):
            return {"ok": False, "reason": "NO_BACKUP"}
        if s.status != "FAILED":
            if not purge and not self.f("REC_NORMAL_NOT_FAILED"):
                return {"ok": False, "reason": "NOT_FAILED"}
            if purge:                              # reading recover_purge_nonfailed=accepted
                if not self.f("REC_PURGE_KEEPS"):
                    self._purge(s)
                return {"ok": True, "usage": self._usage(s)}
            return {"ok": True, "usage": self._usage(s)}
        s.status = "ACTIVE"
        if purge:
            if self.f("REC_PURGE_KEEPS"):
                restored = self._replay(s)
            else:
                restored = []
                s.log.append(("purge", None, None))
        else:
            restored = self._replay(s)
        for snap in restored:
            q = self.queues[snap["queue"]]
            m = Msg(committed=True, locked_by=None, **snap)
            q.msgs.append(m)
            self._charge(s, m, +1)
        for q in self.queues.values():
            q.msgs.sort(key=lambda m: m.seq)
        s.at_failure = None
        s.inflight_at_failure = []
        return {"ok": True, "usage": self._usage(s)}

    def _purge(self, s):
        for qm in self.qmgrs.values():
            qm.uow = [(k, m) for (k, m) in qm.uow if self.queues[m.queue].cfstruct != s.name]
        for q in self.queues.values():
            if q.cfstruct == s.name:
                q.msgs = []
                q.locked = 0
        s.pool.entries_used = 0
        s.pool.elements_used = 0
        s.log.append(("purge", None, None))

    # ================================================================ shared
    def op_define_structure(self, op):
        try:
            norm = self._check_struct(op["structure"])
            self._struct_limit(norm)
        except Invalid as e:
            return {"ok": False, "reason": e.reason}
        self.structs[norm["name"]] = Struct(norm, self.profile, self.f)
        return {"ok": True}

    def op_define_queue(self, op):
        try:
            norm = self._check_queue(op["queue"])
            self._queue_limit(norm)
        except Invalid as e:
            return {"ok": False, "reason": e.reason}
        self.queues[norm["name"]] = Queue(norm, len(self.queues))
        return {"ok": True}

    def op_alter_structure(self, op):
        s = self._struct(op["name"], "name")
        ch = op["changes"]
        if self.profile == "cqs":
            return self._cqs_alter_structure(s, ch)
        for k, v in ch.items():
            if k not in MQ_STRUCT_ALTERABLE:
                return {"ok": False, "reason": "INVALID"}
            if not isinstance(v, STRUCT_TYPES[k]) or (isinstance(v, bool) and
                                                       bool not in STRUCT_TYPES[k]):
                return {"ok": False, "reason": "INVALID"}
        cur = {"cflevel": s.cflevel, "recover": s.recover, "offload": s.offload}
        for n in (1, 2, 3):
            cur["offld%dth" % n], cur["offld%dsz" % n] = s.offld[n - 1]
        if self.f("OFF_ALTER_RESETS"):
            for k in ("offld1th", "offld1sz", "offld2th", "offld2sz", "offld3th", "offld3sz"):
                cur[k] = STRUCT_DEFAULTS[k]
        new = dict(cur)
        new.update(ch)
        if not 1 <= new["cflevel"] <= 5:
            return {"ok": False, "reason": "INVALID"}
        if new["cflevel"] < 5 and "offload" not in ch:
            new["offload"] = None                 # the attribute lapses below CFLEVEL(5)
        try:
            self._check_mq_attrs(new, ch, explicit_offload="offload" in ch)
        except Invalid as e:
            return {"ok": False, "reason": e.reason}
        if new["cflevel"] < s.cflevel:
            guarded = s.cflevel in (3, 4) and not self.f("CFL_DECREASE_UNGUARDED")
            if guarded:
                for q in self.queues.values():
                    if q.cfstruct != s.name:
                        continue
                    if self.f("CFL_DECREASE_UNCOMMITTED"):
                        busy = any(m.committed and m.locked_by is None for m in q.msgs)
                    else:
                        busy = bool(q.msgs)
                    if busy:
                        return {"ok": False, "reason": "NOT_ALLOWED"}
        s.cflevel = new["cflevel"]
        s.recover = new["recover"]
        s.offload = new["offload"]
        s.offld = [(new["offld1th"], new["offld1sz"]), (new["offld2th"], new["offld2sz"]),
                   (new["offld3th"], new["offld3sz"])]
        return {"ok": True}

    def _cqs_alter_structure(self, s, ch):
        for k, v in ch.items():
            if k == "ovflwmax":
                if not (v is None or (isinstance(v, int) and not isinstance(v, bool)
                                      and 1 <= v <= 100)):
                    return {"ok": False, "reason": "INVALID"}
            elif k in ("ovflwstr", "ovflw_size_kb"):
                if v != getattr(s, k):
                    return {"ok": False, "reason": "NOT_ALLOWED"}   # needs a cold start
            else:
                return {"ok": False, "reason": "INVALID"}
        if "ovflwmax" in ch:
            s.ovflwmax = ch["ovflwmax"]
        return {"ok": True}

    def op_alter_queue(self, op):
        q = self._queue(op["name"])
        ch = op["changes"]
        if self.profile == "cqs":
            return {"ok": False, "reason": "INVALID"}
        for k, v in ch.items():
            if k not in QUEUE_ALTERABLE:
                return {"ok": False, "reason": "INVALID"}
            t = QUEUE_TYPES[k]
            if not isinstance(v, t) or (isinstance(v, bool) and bool not in t):
                return {"ok": False, "reason": "INVALID"}
        rec = {k: getattr(q, k) for k in QUEUE_ALTERABLE}
        rec.update(ch)
        hmax = 1000 if self.f("ADM_QDEPTH_RANGE") else 100
        if not 0 <= rec["maxdepth"] <= 999999999 or not 0 <= rec["maxmsgl"] <= MAX_MSG_BYTES \
                or not 0 <= rec["qdepthhi"] <= hmax or not 0 <= rec["qdepthlo"] <= 100:
            return {"ok": False, "reason": "INVALID"}
        for k, v in rec.items():
            setattr(q, k, v)
        return {"ok": True}

    # -- z/OS ------------------------------------------------------------
    def _setxcf_target(self, name):
        if name in self.structs:
            s = self.structs[name]
            return s, s.pool, s.size_max, s.initsize
        if self.profile == "cqs":
            for s in self.structs.values():
                if s.ovflwstr == name:
                    return s, s.ovf, s.ovflw_size_kb, s.ovflw_size_kb
        raise _bad("cfstruct", name, "one of %s" % list(self.structs), "TOPOLOGY-011")

    def op_setxcf_alter(self, op):
        s, pool, size, initsize = self._setxcf_target(op["cfstruct"])
        new = op["size_kb"]
        if pool is None or s.status != "ACTIVE":
            return {"ok": False, "reason": "NOT_ACTIVE"}
        ok = True
        if new > size and not self.f("CAP_SETXCF_ABOVE_SIZE"):
            ok = False
        if new == size:
            ok = False                          # reading alter_at_size=rejected
        if new <= pool.size_kb:
            ok = False                          # reading alter_not_larger=rejected
        # below INITSIZE: reading alter_below_initsize=accepted (no check)
        if not ok:
            return {"ok": False, "reason": "OUT_OF_RANGE", "usage": pool.usage()}
        if not self.f("CAP_SETXCF_NO_EFFECT"):
            pool.resize(new)
        signals = []
        if self.profile == "cqs" and pool is s.pool:
            self._cqs_exit_check(s, signals)
        return {"ok": True, "usage": pool.usage(), "signals": signals}

    def _is_full(self, pool, threshold):
        if threshold == 0 and not self.f("CAP_FT0"):
            return False
        checks = [(pool.elements_used, pool.elements_total)]
        if not self.f("CAP_IXC_ELEMENTS_ONLY"):
            checks.append((pool.entries_used, pool.entries_total))
        for used, total in checks:
            if total == 0:
                return True
            if self.f("CAP_IXC585_STRICT"):
                if 100 * used > threshold * total:
                    return True
            elif 100 * used >= threshold * total:
                return True
        return False

    def _poll_full(self, signals):
        """z/OS structure full monitoring (reading full_signal_timing=deferred)."""
        for s in self.structs.values():
            if s.status != "ACTIVE":
                continue
            full = self._is_full(s.pool, s.fullthreshold)
            if full and not s.full_warning:
                signals.append("IXC585E " + s.name)
                s.full_warning = True
            elif not full and s.full_warning:
                if not self.f("CAP_IXC586_MISSING"):
                    signals.append("IXC586I " + s.name)
                s.full_warning = False

    def op_advance_clock(self, op):
        secs = op["seconds"]
        if secs < 0:
            raise _bad("seconds", secs, ">= 0", "CLOCK-001")
        end = self.clock + secs
        signals = []
        if self.profile == "cqs":
            self._run_scans(end, signals)
        self.clock = end
        if secs > 0:
            self._poll_full(signals)
        return {"ok": True, "signals": signals}

    def op_inspect(self, op):
        structs = {}
        for s in self.structs.values():
            d = {"status": s.status, "size_kb": s.pool.size_kb,
                 "entries_used": s.pool.entries_used, "entries_total": s.pool.entries_total,
                 "elements_used": s.pool.elements_used, "elements_total": s.pool.elements_total,
                 "full_warning": s.full_warning}
            if self.profile == "mq":
                pad = self.qsg if self.f("TOP_CFNAME_PAD") else self.qsg.ljust(4, "@")
                d["cfname"] = pad + s.name
            else:
                d["alter_pending"] = s.alter_pending
                d["overflow_mode"] = s.overflow_mode
                d["overflow_queues"] = sorted(s.overflow_queues)
                d["staging_depth"] = len(s.staging)
            structs[s.name] = dict(sorted(d.items()))
        queues = {}
        for q in self.queues.values():
            if self.profile == "mq":
                d = {"depth": self._depth(q), "qdphiev": q.qdphiev, "qdploev": q.qdploev,
                     "qdpmaxev": q.qdpmaxev}
            else:
                d = {"depth": len(q.msgs), "overflow": q.overflow}
            queues[q.name] = dict(sorted(d.items()))
        qmgrs = {n: {"active": self.qmgrs[n].active, "perfmev": self.qmgrs[n].perfmev}
                 for n in self.qmgr_order}
        value = {"clock": self.clock, "qmgrs": qmgrs, "queues": queues, "structures": structs}
        if self.profile == "mq":
            value["admin"] = {"entries_total": admin_entries(self.admin_size),
                              "size_kb": self.admin_size}
        return {"ok": True, "value": dict(sorted(value.items()))}

    # ================================================================= CQS
    def _threshold(self, s):
        if s.ovflwmax is not None:
            return s.ovflwmax
        return 80 if self.f("CQS_DEFAULT_80") else CQS_DEFAULT_OVFLWMAX

    def _usage_frac(self, pool, e, l):
        """CQS usage (reading cqs_usage_metric=max) as a Fraction."""
        fe = Fraction(e, pool.entries_total) if pool.entries_total else Fraction(1)
        fl = Fraction(l, pool.elements_total) if pool.elements_total else Fraction(1)
        if self.f("CQS_ENTRIES_ONLY"):
            return fe
        return max(fe, fl)

    def _reached(self, s):
        u = self._usage_frac(s.pool, s.pool.entries_used, s.pool.elements_used)
        t = Fraction(self._threshold(s), 100)
        return u > t if self.f("CQS_THRESHOLD_STRICT") else u >= t

    def _target(self, s):
        """Usage at or below which primary usage is '20% below the threshold'."""
        t = Fraction(self._threshold(s), 100)
        return t * Fraction(4, 5)                 # reading cqs_target=relative

    def _below_target(self, s, e, l, exit_rule=False):
        u = self._usage_frac(s.pool, e, l)
        if exit_rule and self.f("CQS_NOSTR_EXIT_AT_THRESHOLD"):
            return u < Fraction(self._threshold(s), 100)
        if not exit_rule and self.f("CQS_TARGET_AT_THRESHOLD"):
            return u < Fraction(self._threshold(s), 100)
        return u <= self._target(s)

    def _parts(self, length):
        """Split a CQS message: (first part length, [staging part lengths])."""
        L = self.lgmsgsz
        large = length >= L if self.f("CQS_LGMSG_EQUAL_SPLIT") else length > L
        if not large:
            return length, []
        first = L
        if self.f("CQS_LGMSG_EQUAL_SPLIT") and length == L:
            first = L // 2
        rest = length - first
        parts = []
        while rest > 0:
            parts.append(min(L, rest))
            rest -= L
        return first, parts

    def _queue_space(self, q):
        e = l = 0
        for m in q.msgs:
            if m.loc == "P":
                e += m.first_entries
                l += m.first_elements
        return e, l

    def _cqs_put(self, op):
        self._qmgr(op["qmgr"])
        q = self._queue(op["queue"])
        length = op["length"]
        if length < 0:
            raise _bad("length", length, ">= 0", "CQS-PUT")
        s = self.structs[q.cfstruct]
        if q.overflow and s.ovflwstr is None and not self.f("CQS_NOSTR_ACCEPTS"):
            return {"ok": False, "reason": "REJECTED_OVERFLOW", "usage": s.pool.usage()}
        first, staged = self._parts(length)
        if self.f("CQS_FIRST_PART_STAGED") and staged:
            staged = [first] + staged
            first = 0
        fe, fl = 1, cqs_part_elements(first)
        se = len(staged)
        sl = sum(cqs_part_elements(p) for p in staged)
        if self.f("CQS_NO_STAGING"):
            fe, fl, se, sl, staged = fe + se, fl + sl, 0, 0, []
        to_ovf = q.overflow and s.ovf is not None
        if to_ovf:
            if not self._fits(s.ovf, fe, fl) or not self._fits(s.pool, se, sl):
                return {"ok": False, "reason": "STRUCTURE_FULL", "usage": s.ovf.usage()}
        elif not self._fits(s.pool, fe + se, fl + sl):
            return {"ok": False, "reason": "STRUCTURE_FULL", "usage": s.pool.usage()}
        self.seq += 1
        m = Msg(seq=self.seq, tag=op.get("tag", 0), length=length, queue=q.name,
                loc="O" if to_ovf else "P", first_entries=fe, first_elements=fl,
                stg_entries=se, stg_elements=sl, stg_parts=len(staged), committed=True)
        q.msgs.append(m)
        first_pool = s.ovf if to_ovf else s.pool
        first_pool.entries_used += fe
        first_pool.elements_used += fl
        s.pool.entries_used += se
        s.pool.elements_used += sl
        for p in staged:
            s.staging.append((m.seq, 1, cqs_part_elements(p)))
        signals = []
        self._cqs_threshold_check(s, signals)
        return {"ok": True, "usage": first_pool.usage(), "signals": signals}

    def _cqs_threshold_check(self, s, signals):
        if s.resource and not self.f("CQS_RESOURCE_OVERFLOW"):
            return
        if not self._reached(s):
            return
        if not s.overflow_mode:
            if self.f("CQS_NO_ALTER_FIRST"):
                self._enter_overflow(s, signals)
            elif not s.alter_pending:
                s.alter_pending = True
                signals.append("ALTER " + s.name)
        else:
            self._select(s, signals)              # reading cqs_reselect=select

    def _cqs_get(self, op):
        self._qmgr(op["qmgr"])
        q = self._queue(op["queue"])
        s = self.structs[q.cfstruct]
        if not q.msgs:
            return {"ok": False, "reason": "NO_MSG", "usage": s.pool.usage()}
        m = q.msgs.pop(-1 if self.f("QUEUE_LIFO") else 0)
        pool = s.ovf if m.loc == "O" else s.pool
        pool.entries_used -= m.first_entries
        pool.elements_used -= m.first_elements
        s.pool.entries_used -= m.stg_entries
        s.pool.elements_used -= m.stg_elements
        s.staging = [p for p in s.staging if p[0] != m.seq]
        signals = []
        if self.f("CQS_SCAN_IMMEDIATE") and q.overflow and s.ovf is not None and not q.msgs:
            self._queue_off(s, q, signals)
            if not s.overflow_queues:
                self._leave_overflow(s, signals)
        self._cqs_exit_check(s, signals)
        return {"ok": True, "tag": m.tag, "usage": pool.usage(), "signals": signals}

    def _enter_overflow(self, s, signals):
        s.overflow_mode = True
        s.overflow_start = self.clock
        signals.append("OVERFLOW_ON " + s.name)
        self._select(s, signals)

    def _select(self, s, signals):
        """Select queues for overflow until usage would be 20% below the threshold."""
        cands = [q for q in self.queues.values()
                 if q.cfstruct == s.name and not q.overflow and self._queue_space(q)[1] > 0]
        if self.f("CQS_SELECT_LEAST"):
            cands.sort(key=lambda q: (self._queue_space(q)[1], q.index))
        else:
            cands.sort(key=lambda q: (-self._queue_space(q)[1], q.index))
        if self.f("CQS_STAGING_ELIGIBLE") and s.staging:
            cands.insert(0, None)
        # projected primary usage: queues already in overflow mode count as gone
        # (with an overflow structure their data has moved; without one their
        # data drains, since no more puts are accepted for them)
        e, l = s.pool.entries_used, s.pool.elements_used
        for qn in s.overflow_queues:
            qe, ql = self._queue_space(self.queues[qn])
            e -= qe
            l -= ql
        for q in cands:
            if self._below_target(s, e, l) and not self.f("CQS_SELECT_ALL"):
                break
            if q is None:   # the staging queue (fault CQS_STAGING_ELIGIBLE)
                signals.append("OVERFLOW_QUEUE %s %s" % (s.name, STAGING))
                e -= sum(p[1] for p in s.staging)
                l -= sum(p[2] for p in s.staging)
                continue
            vetoed = (self.exit_vetoes is not None and q.name in self.exit_vetoes
                      and not self.f("CQS_EXIT_IGNORED"))
            if self.exit_vetoes is None and self.f("CQS_NO_EXIT_REJECTS"):
                vetoed = True
            if vetoed:
                if self.f("CQS_VETO_STOPS"):
                    break
                continue
            qe, ql = self._queue_space(q)
            if s.ovflwstr is not None:
                if s.ovf is None:
                    s.ovf = Pool(s.ovflw_size_kb, s.pool.ratio)
                if not self.f("CQS_NO_MOVE"):
                    me = qe + (sum(m.stg_entries for m in q.msgs) if self.f("CQS_STAGING_MOVED") else 0)
                    ml = ql + (sum(m.stg_elements for m in q.msgs) if self.f("CQS_STAGING_MOVED") else 0)
                    if not self._fits(s.ovf, me, ml):
                        continue            # the overflow structure cannot take this queue
                    for m in q.msgs:
                        if m.loc == "P":
                            m.loc = "O"
                    s.pool.entries_used -= me
                    s.pool.elements_used -= ml
                    s.ovf.entries_used += me
                    s.ovf.elements_used += ml
                    if self.f("CQS_STAGING_MOVED"):
                        for m in q.msgs:
                            m.first_entries += m.stg_entries
                            m.first_elements += m.stg_elements
                            m.stg_entries = m.stg_elements = 0
                        moved = {m.seq for m in q.msgs}
                        s.staging = [p for p in s.staging if p[0] not in moved]
            q.overflow = True
            s.overflow_queues.append(q.name)
            signals.append("OVERFLOW_QUEUE %s %s" % (s.name, q.name))
            e -= qe
            l -= ql

    def _queue_off(self, s, q, signals):
        q.overflow = False
        s.overflow_queues.remove(q.name)
        signals.append("OVERFLOW_QUEUE_OFF %s %s" % (s.name, q.name))

    def _leave_overflow(self, s, signals):
        for qn in list(s.overflow_queues):
            self.queues[qn].overflow = False
        # faithfully the overflow structure is empty here (queues leave only
        # when empty); under faults that end overflow early, data still in it
        # comes back to the primary instead of being lost
        for q in self.queues.values():
            for m in q.msgs:
                if q.cfstruct == s.name and m.loc == "O":
                    m.loc = "P"
                    s.pool.entries_used += m.first_entries
                    s.pool.elements_used += m.first_elements
        s.overflow_queues = []
        s.overflow_mode = False
        s.ovf = None
        signals.append("OVERFLOW_OFF " + s.name)

    def _cqs_exit_check(self, s, signals):
        """Without an overflow structure, overflow ends 20% below the threshold."""
        if not s.overflow_mode or s.ovflwstr is not None:
            return
        if self._below_target(s, s.pool.entries_used, s.pool.elements_used, exit_rule=True):
            self._leave_overflow(s, signals)

    def _scan(self, s, signals):
        for qn in list(s.overflow_queues):
            q = self.queues[qn]
            if not q.msgs or self.f("CQS_SCAN_NONEMPTY"):
                self._queue_off(s, q, signals)
                if self.f("CQS_EXIT_ON_FIRST"):
                    self._leave_overflow(s, signals)
                    return
        if not s.overflow_queues:
            self._leave_overflow(s, signals)   # also reading cqs_empty_overflow=next-scan

    def _run_scans(self, end, signals):
        period = 600 if self.f("CQS_SCAN_10MIN") else SCAN_SECONDS
        while True:
            due = []
            for s in self.structs.values():
                if s.overflow_mode and s.ovflwstr is not None:
                    k = (self.clock - s.overflow_start) // period + 1
                    t = s.overflow_start + k * period
                    if t <= end:
                        due.append((t, s))
            if not due:
                return
            t = min(d[0] for d in due)
            self.clock = t
            for tt, s in due:
                if tt == t:
                    self._scan(s, signals)

    def op_alter_outcome(self, op):
        s = self._struct(op["cfstruct"])
        if not s.alter_pending:
            return {"ok": False, "reason": "NO_ALTER_PENDING", "usage": s.pool.usage()}
        signals = []
        size = op.get("size_kb")
        if op["success"]:
            new = s.size_max if size is None else size
            if new > s.size_max or new < s.pool.size_kb:
                raise _bad("size_kb", new, "%d..%d (current size..SIZE)"
                           % (s.pool.size_kb, s.size_max), "CQS-ALTER")
            s.alter_pending = False
            if not self.f("CQS_ALTER_NO_GROWTH"):
                s.pool.resize(new)
            if self.f("CQS_OVERFLOW_AFTER_SUCCESS"):
                self._enter_overflow(s, signals)
        else:
            s.alter_pending = False
            self._enter_overflow(s, signals)
        return {"ok": True, "usage": s.pool.usage(), "signals": signals}

    def op_set_overflow_exit(self, op):
        v = op.get("vetoes")
        self.exit_vetoes = None if v is None else list(v)
        return {"ok": True}

    def snapshot(self):
        return copy.deepcopy(self)
