"""model.py -- semantics of coupling-facility shared queues, as read from IBM's texts.

Two profiles:

* ``mq``  -- IBM MQ for z/OS shared queues: CF application structures (DEFINE/ALTER
  CFSTRUCT), CFLEVEL, offload rules OFFLDnTH/OFFLDnSZ to SMDS or Db2, structure
  capacity, topology limits, the CSQ_ADMIN structure, BACKUP/RECOVER CFSTRUCT,
  queue depth events across a queue-sharing group, units of work.
* ``cqs`` -- IMS Common Queue Server structure overflow: OVFLWMAX, the CQS-initiated
  structure alter, overflow mode, queue selection, the Queue Overflow user exit, the
  overflow structure or rejected CQSPUTs, the 15-minute scan, large-message staging.

Storage accounting is this reading's own (see README.md, "Storage accounting").

Deliberate faults: every ID in FAULT_IDS is switched on by ``fault=ID`` and tested with
``self.F(ID)`` inside this file; faults.json says which IBM sentence each one breaks.
"""

import math
import re

# --------------------------------------------------------------------------------------
# Fault switches (faults.json holds the sentence, family, description and scenario).
# --------------------------------------------------------------------------------------
FAULT_IDS = (
    # OFFLOAD
    "OFFLD_SZ64_ACTIVE", "OFFLD_FORCED_MISSING", "OFFLD_PAIR_MIX", "OFFLD_DEFAULT_DB2",
    "OFFLD_COST_FULL", "OFFLD_RULE3_IGNORED", "OFFLD_SIZE_WHOLE_KB", "OFFLD_USAGE_ENTRIES",
    "OFFLD_USAGE_AFTER",
    # CFLEVEL
    "OFFLD_RULES_CFLEVEL4", "OFFLD_DEFINE_BELOW5", "OFFLD_ALTER_BELOW5", "OFFLD_CF4_SMDS",
    "CFL_PERSIST_RECOVER_NO", "CFL_LEVEL6", "CFL_LARGE_CF3", "CFL_LARGE_CF4_REJECT",
    "CFL_2030_ORDER", "CFL_DECREASE_UNGUARDED", "CFL_63K_BOUNDARY",
    # CAPACITY
    "CAP_ENTRIES_IGNORED", "CAP_FULL_RC_2053", "CAP_IXC585_STRICT", "CAP_IXC586_MISSING",
    "CAP_FT0_ACTIVE", "CAP_MIN_512", "CAP_SETXCF_ABOVE_SIZE", "CAP_INITSIZE_IGNORED",
    # TOPOLOGY
    "TOP_512_DEFINE", "TOP_512_OPEN", "TOP_SYSAPPL_UNCOUNTED", "TOP_QSG_LEN", "TOP_CFNAME_PAD",
    "TOP_STRUCT_NAME_LEN", "TOP_STRUCT_FIRST_DIGIT", "TOP_MIN_STRUCTS", "TOP_QSG_EQ_QMGR",
    # ADMIN
    "ADM_TABLE_CHECK", "ADM_DEFAULT_ROW", "ADM_ENTRIES_PER_QMGR", "ADM_CFCC_LEVEL",
    "ADM_TABLE_EDITION", "ADM_ALTER_RESETS",
    # EVENTS
    "EV_HI_STRICT", "EV_LO_STRICT", "EV_HI_NO_LO_ENABLE", "EV_HI_NO_MAX_ENABLE",
    "EV_HI_NOT_DISABLED", "EV_LO_NO_HI_ENABLE", "EV_QFULL_NO_LO_ENABLE",
    "EV_SHARED_PERFMEV_GATE", "EV_NONSHARED_TOGGLE", "EV_INACTIVE_BROADCAST",
    "EV_DISABLED_ISSUES", "EV_CORREL_DIFF", "EV_STATS_CUMULATIVE", "EV_STATS_COORD_COPY",
    "EV_COORD_FIRST_QMGR", "EV_RESET_ALL_QMGRS", "EV_QFULL_MISSING", "EV_PERCENT_ABSOLUTE",
    # UOW
    "UOW_EVENT_DEFERRED", "UOW_ROLLBACK_FLAGS", "UOW_PUT_VISIBLE", "UOW_GET_NOT_LOCKED",
    "UOW_BACKOUT_GET_LOST", "UOW_DECREASE_UNCOMMITTED",
    # RECOVERY
    "REC_NONPERSIST", "REC_NO_REPLAY", "REC_ONE_QMGR_LOG", "REC_NORMAL_NOT_FAILED",
    "REC_NO_BACKUP", "REC_BACKUP_RECOVER_NO", "REC_PURGE_KEEPS", "REC_FAILED_RC",
    "REC_UNCOMMITTED_GET",
    # QUEUE
    "Q_FULL_OFFBYONE", "Q_SHARED_NOT_VISIBLE", "Q_NP_RESTART_LOST", "Q_MAXMSGL_100MB",
    "Q_DEPTH_RANGE", "Q_GET_NOT_REMOVED",
    # CQS
    "CQS_DEFAULT_80", "CQS_THRESH_STRICT", "CQS_NO_ALTER_FIRST", "CQS_OVERFLOW_ON_ALTER_OK",
    "CQS_SELECT_LEAST", "CQS_TARGET_10", "CQS_SELECT_ALL", "CQS_SELECT_EXTRA",
    "CQS_EXIT_IGNORED", "CQS_VETO_STOPS", "CQS_EXIT_REMOVE_IGNORED", "CQS_DATA_NOT_MOVED",
    "CQS_REJECT_WITH_OVFLWSTR", "CQS_NO_OVFLW_ACCEPT", "CQS_REJECT_ALL_QUEUES",
    "CQS_SCAN_SECONDS", "CQS_SCAN_NONEMPTY", "CQS_EXIT_EARLY", "CQS_NOOVF_EXIT_AT_THRESHOLD",
    "CQS_STAGING_MOVED", "CQS_FIRST_PART_STAGING", "CQS_STAGING_ELIGIBLE", "CQS_LGMSGSZ_CAP",
    "CQS_LGMSGSZ_ROUND", "CQS_RESOURCE_OVERFLOW", "CQS_USAGE_ENTRIES", "CQS_ALTER_NO_GROW",
    "CQS_SETXCF_ABOVE_SIZE", "CQS_FULL_ACCEPT", "CQS_OVFLWMAX_RANGE", "CQS_OVFLWSTR_ALTER",
)

# --------------------------------------------------------------------------------------
# Readings chosen where the texts allow several behaviours (declared in init_ok).
# --------------------------------------------------------------------------------------
READINGS = {
    "cqs_target": "points-floor",
    "cqs_usage_metric": "elements",
    "cqs_reselect": "select",
    "cqs_scan_anchor": "overflow-start",
    "offload_compare": "strict",
    "offload_usage_metric": "max",
    "forced_offload_boundary": "63K",
    "persistent_low_cflevel_rc": "2048",
    "large_low_cflevel_rc": "2366",
    "qdepth_percent": "real",
    "qfull_hi_flag": "unchanged",
    "event_broadcast": "if-coordinator-enabled",
    "recover_purge_nonfailed": "rejected",
    "alter_below_initsize": "rejected",
    "cflevel5_decrease": "guarded",
    "alter_at_size": "accepted",
    "alter_not_larger": "accepted",
    "full_signal_timing": "at-crossing",
    "cqs_alter": "async",
    "cqs_empty_overflow": "next-scan",
    "qstats_at_stop": "reset",
    "nonshared_at_stop": "lost",
}

# --------------------------------------------------------------------------------------
# Constants from the texts
# --------------------------------------------------------------------------------------
KB = 1024
CF_DATA_LIMIT = 63 * KB            # 64 512 bytes: "larger than 63 KB" (001, 003; CFSizer)
QMGR_MAXMSGL = 104857600           # 100 MB, CFLEVEL(4)/(5) "up to 100 MB"
OFFLD_SZ_OFF = 64 * KB             # OFFLDnSZ(64K): "the rule is not in effect"
MAX_QUEUES_PER_STRUCT = 512
MAX_APP_STRUCTS = 63               # 64 structures per QSG, one of them CSQ_ADMIN
MAX_QMGRS = 32
SYSAPPL = "CSQSYSAPPL"
SCAN_SECONDS = 15 * 60             # "(The queues are scanned every 15 minutes.)"
LGMSGSZ_MAX = 30632

# Own storage accounting -- see README.md.
MQ_UNIT = 256                      # bytes per MQ list entry and per list element
MQ_UNIT_COST = 336                 # CF storage per entry or element, control included
MQ_FIXED_KB = 6144                 # structure control storage (Table 2's intercept)
MQ_MSG_HEADER = 256                # MQ control information kept with in-CF message data
MQ_MIN_ELEMENTS = 2                # "at least 512 bytes of data"
MQ_OFFLOADED_ELEMENTS = 2          # 0.75 KB = entry (256) + 2 x 256-byte elements
CQS_ELEMENT = 512                  # CQS data element size
CQS_ENTRY_COST = 336
CQS_ELEMENT_COST = 672
CQS_FIXED_KB = 1024

# Table 1 (001): minimum CSQ_ADMIN size, CFCC level 14.
ADMIN_TABLE_14 = {
    1: 6144, 2: 6912, 3: 7976, 4: 8704, 5: 9728, 6: 10496, 7: 11520, 8: 12288, 9: 13056,
    10: 14080, 11: 14848, 12: 15616, 13: 16640, 14: 17408, 15: 18176, 16: 19200, 17: 19968,
    18: 20736, 19: 21760, 20: 22528, 21: 23296, 22: 24320, 23: 25088, 24: 25856, 25: 27136,
    26: 27904, 27: 28672, 28: 29696, 29: 30464, 30: 31232, 31: 32256,
}
# MQ V6 edition (CFCC level 9), ibm-facts.md 6.2; other rows interpolated.
ADMIN_TABLE_9_KNOWN = {1: 2560, 2: 3328, 4: 4608, 8: 7680, 16: 13568, 31: 24832}

STRUCT_DEFAULTS = {
    "size_kb": 8192, "initsize_kb": None, "fullthreshold": 80, "ratio": 6, "cflevel": 3,
    "recover": False, "offload": None, "offld1th": 70, "offld1sz": 32768, "offld2th": 80,
    "offld2sz": 4096, "offld3th": 90, "offld3sz": 0, "ovflwmax": None, "ovflwstr": None,
    "ovflw_size_kb": 8192, "resource": False,
}
STRUCT_TYPES = {
    "name": "str", "size_kb": "int", "initsize_kb": "int?", "fullthreshold": "int",
    "ratio": "int", "cflevel": "int", "recover": "bool", "offload": "str?", "offld1th": "int",
    "offld1sz": "int", "offld2th": "int", "offld2sz": "int", "offld3th": "int",
    "offld3sz": "int", "ovflwmax": "int?", "ovflwstr": "str?", "ovflw_size_kb": "int",
    "resource": "bool",
}
QUEUE_DEFAULTS = {
    "cfstruct": None, "qmgr": None, "maxdepth": 999999999, "maxmsgl": 4194304,
    "qdepthhi": 80, "qdepthlo": 20, "qdphiev": False, "qdploev": False, "qdpmaxev": False,
}
QUEUE_TYPES = {
    "name": "str", "cfstruct": "str?", "qmgr": "str?", "maxdepth": "int", "maxmsgl": "int",
    "qdepthhi": "int", "qdepthlo": "int", "qdphiev": "bool", "qdploev": "bool",
    "qdpmaxev": "bool",
}
CONFIG_TYPES = {
    "profile": "str", "qsg": "str", "qmgrs": "list[str]", "structures": "list",
    "queues": "list", "readings": "dict", "accounting": "dict", "lgmsgsz": "int",
    "overflow_exit": "list[str]?", "perfmev_disabled": "list[str]", "admin_size_kb": "int?",
    "admin_table": "str",
}
CONFIG_READING_VALUES = {
    "cqs_target": ("points", "relative", "drop-points", "drop-relative", "points-floor"),
    "cqs_usage_metric": ("elements", "max"),
    "cqs_reselect": ("none", "select"),
    "cqs_scan_anchor": ("clock", "overflow-start"),
    "offload_compare": ("strict", "inclusive"),
    "offload_usage_metric": ("max", "elements", "combined"),
    "forced_offload_boundary": ("63.75K", "63K"),
    "persistent_low_cflevel_rc": ("2048", "2366"),
    "large_low_cflevel_rc": ("2366", "2030"),
    "qdepth_percent": ("real", "floor", "ceil"),
    "qfull_hi_flag": ("unchanged", "disabled"),
    "event_broadcast": ("always", "if-coordinator-enabled"),
    "recover_purge_nonfailed": ("rejected", "accepted"),
    "alter_below_initsize": ("rejected", "accepted"),
    "cflevel5_decrease": ("guarded", "unguarded"),
    "alter_at_size": ("accepted", "rejected"),
    "alter_not_larger": ("accepted", "rejected"),
    "full_signal_timing": ("at-crossing", "deferred"),
    "cqs_alter": ("async", "sync"),
    "cqs_empty_overflow": ("ends", "stays", "next-scan"),
    "qstats_at_stop": ("kept", "reset"),
    "nonshared_at_stop": ("kept", "lost"),
}
ACCOUNTING_TYPES = {
    "element_bytes": "int", "entry_bytes": "int", "header_bytes": "int",
    "overhead": "number", "fixed_kb": "int", "offloaded_elements": "int",
}

MQ_STRUCT_NAME = re.compile(r"^[A-Z][A-Z0-9]*$")
ZOS_STRUCT_NAME = re.compile(r"^[A-Z][A-Z0-9@#$_]*$")
QSG_NAME = re.compile(r"^[A-Z@#$][A-Z0-9@#$]*$")
QUEUE_NAME = re.compile(r"^[A-Za-z0-9._/%]+$")
CFCC_EDITION = re.compile(r"^cfcc(\d+)$", re.IGNORECASE)

MQ_ALTER_STRUCT_KEYS = ("cflevel", "recover", "offload", "offld1th", "offld1sz", "offld2th",
                        "offld2sz", "offld3th", "offld3sz")
MQ_ALTER_QUEUE_KEYS = ("maxdepth", "maxmsgl", "qdepthhi", "qdepthlo", "qdphiev", "qdploev",
                       "qdpmaxev")


# --------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------
class OpError(Exception):
    """A request error for the protocol layer (code 10, 11 or 14)."""

    def __init__(self, code, text, detail=None):
        super().__init__(text)
        self.code = code
        self.text = text
        self.detail = detail


class ConfigError(Exception):
    """An invalid configuration (protocol error 13, or 10 for another profile)."""

    def __init__(self, field, value, allowed, rule, code=13):
        text = "%s=%r is invalid: allowed %s [%s]" % (field, value, allowed, rule)
        super().__init__(text)
        self.code = code
        self.text = text
        self.detail = {"field": field, "value": value, "allowed": allowed, "rule_id": rule}


class Invalid(Exception):
    """A definition the queue manager (or CQS) refuses: an INVALID outcome."""

    def __init__(self, field, text):
        super().__init__(text)
        self.field = field


def _typeok(value, t):
    if t == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "int?":
        return value is None or _typeok(value, "int")
    if t == "bool":
        return isinstance(value, bool)
    if t == "str":
        return isinstance(value, str)
    if t == "str?":
        return value is None or isinstance(value, str)
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if t == "list":
        return isinstance(value, list)
    if t == "dict":
        return isinstance(value, dict)
    if t == "list[str]":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if t == "list[str]?":
        return value is None or _typeok(value, "list[str]")
    raise AssertionError(t)


def _sorted(obj):
    """Inspect values list their keys sorted by name."""
    if isinstance(obj, dict):
        return {k: _sorted(obj[k]) for k in sorted(obj)}
    return obj


def _ceil_div(a, b):
    return -(-a // b)


def normalise_record(rec, types, defaults, what):
    """Fill defaults and check field names/types; raise Invalid on a malformed record."""
    if not isinstance(rec, dict):
        raise Invalid(what, "%s must be an object" % what)
    for k in rec:
        if k not in types:
            raise Invalid(k, "unknown field %r in %s" % (k, what))
    out = {}
    for k, t in types.items():
        if k in rec:
            v = rec[k]
        elif k in defaults:
            v = defaults[k]
        else:
            raise Invalid(k, "%s needs field %r" % (what, k))
        if not _typeok(v, t):
            raise Invalid(k, "%s.%s=%r has the wrong type (%s)" % (what, k, v, t))
        out[k] = v
    return out


# --------------------------------------------------------------------------------------
# State records
# --------------------------------------------------------------------------------------
class Msg:
    __slots__ = ("seq", "tag", "length", "persistent", "location", "elements", "committed",
                 "got_by", "put_by", "parts", "in_ovf", "staged_in_ovf", "first_staged")

    def __init__(self, seq, tag, length, persistent, put_by):
        self.seq = seq
        self.tag = tag
        self.length = length
        self.persistent = persistent
        self.location = None      # MQ: CF / SMDS / DB2 (None on a nonshared queue)
        self.elements = 0         # elements of the (first) part charged for this message
        self.committed = True
        self.got_by = None        # queue manager holding it under an uncommitted MQGET
        self.put_by = put_by
        self.parts = []           # CQS: element counts of the parts on the staging queue
        self.in_ovf = False       # CQS: first part kept on the overflow structure
        self.staged_in_ovf = False
        self.first_staged = False


class Struct:
    def __init__(self, rec, profile, fault_initsize_ignored=False):
        self.name = rec["name"]
        self.size_max = rec["size_kb"]
        self.initsize = rec["initsize_kb"]
        self.size_kb = self.size_max if (self.initsize is None or fault_initsize_ignored) \
            else self.initsize
        self.fullthreshold = rec["fullthreshold"]
        self.ratio = rec["ratio"]
        self.profile = profile
        self.status = "ACTIVE"
        self.eu = 0
        self.lu = 0
        self.full_warning = False
        # MQ
        self.cflevel = rec["cflevel"]
        self.recover = rec["recover"]
        off = rec["offload"]
        self.offload = off.upper() if isinstance(off, str) else None
        self.rules = [[rec["offld1th"], rec["offld1sz"]], [rec["offld2th"], rec["offld2sz"]],
                      [rec["offld3th"], rec["offld3sz"]]]
        self.has_backup = False
        self.backup_ids = set()
        self.backup_qmgr = None
        self.image = []
        # CQS
        self.ovflwmax = rec["ovflwmax"]
        self.ovflwstr = rec["ovflwstr"]
        self.ovflw_size_kb = rec["ovflw_size_kb"]
        self.resource = rec["resource"]
        self.alter_pending = False
        self.overflow_mode = False
        self.overflow_queues = []
        self.staging = 0          # parts on the staging queue (kept on the primary)
        self.ovf_eu = 0
        self.ovf_lu = 0
        self.next_scan = None


class Queue:
    def __init__(self, rec, owner, order):
        self.name = rec["name"]
        self.cfstruct = rec["cfstruct"]
        self.owner = owner
        self.maxdepth = rec["maxdepth"]
        self.maxmsgl = rec["maxmsgl"]
        self.hi = rec["qdepthhi"]
        self.lo = rec["qdepthlo"]
        self.qdphiev = rec["qdphiev"]
        self.qdploev = rec["qdploev"]
        self.qdpmaxev = rec["qdpmaxev"]
        self.msgs = []
        self.overflow = False
        self.order = order


# --------------------------------------------------------------------------------------
# Accounting helpers
# --------------------------------------------------------------------------------------
def mq_totals(size_kb, ratio):
    usable = max(0, size_kb - MQ_FIXED_KB) * KB
    entries = usable // (MQ_UNIT_COST * (1 + ratio))
    return entries, entries * ratio


def cqs_totals(size_kb, ratio):
    usable = max(0, size_kb - CQS_FIXED_KB) * KB
    entries = usable // (CQS_ENTRY_COST + CQS_ELEMENT_COST * ratio)
    return entries, entries * ratio


def admin_level(edition):
    """CFCC level named by admin_table ('cfcc14', 'cfcc9', or 'v6' for MQ V6)."""
    if edition.lower() == "v6":
        return 9
    m = CFCC_EDITION.match(edition)
    if not m:
        return None
    return int(m.group(1))


def _round_up_256(x):
    return int(_ceil_div(int(math.ceil(x)), 256) * 256)


def admin_table_value(level, n, fault_v6=False):
    """Table minimum for n queue managers (None when the table has no row for n)."""
    if level >= 14 and not fault_v6:
        return ADMIN_TABLE_14.get(n)
    if n > 31:
        return None
    if n in ADMIN_TABLE_9_KNOWN:
        return ADMIN_TABLE_9_KNOWN[n]
    keys = sorted(ADMIN_TABLE_9_KNOWN)
    lo = max(k for k in keys if k < n)
    hi = min(k for k in keys if k > n)
    v = ADMIN_TABLE_9_KNOWN[lo] + (ADMIN_TABLE_9_KNOWN[hi] - ADMIN_TABLE_9_KNOWN[lo]) * \
        (n - lo) / (hi - lo)
    return _round_up_256(v)


def admin_default_size(level, n, fault_v6=False):
    v = admin_table_value(level, n, fault_v6)
    if v is not None:
        return v
    # beyond the table (32 queue managers): extend its average slope
    if level >= 14 and not fault_v6:
        slope = (ADMIN_TABLE_14[31] - ADMIN_TABLE_14[1]) / 30.0
        return _round_up_256(ADMIN_TABLE_14[31] + slope * (n - 31))
    slope = (ADMIN_TABLE_9_KNOWN[31] - ADMIN_TABLE_9_KNOWN[16]) / 15.0
    return _round_up_256(ADMIN_TABLE_9_KNOWN[31] + slope * (n - 31))


def admin_entries(level, size_kb, fault_v6=False):
    if level >= 14 and not fault_v6:
        return max(0, size_kb - 5120) * KB // 840
    return max(0, size_kb - 1536) * KB // 740


def cfname(qsg, name, fault_nopad=False):
    prefix = qsg if fault_nopad else (qsg + "@@@@")[:4]
    return prefix + name


# --------------------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------------------
class Model:
    """Opened state of one trace.  ``apply(op)`` returns an outcome record."""

    def __init__(self, config, fault=None, location=True):
        self.fault = fault
        self.location = location
        self.clock = 0
        self.seq = 0
        self.correl = 0
        cfg = self._normalise_config(config)
        self.profile = cfg["profile"]
        self.cfg = cfg
        self.qsg = cfg["qsg"]
        self.qmgrs = list(cfg["qmgrs"])
        self.active = {q: True for q in self.qmgrs}
        self.perfmev = {q: q not in cfg["perfmev_disabled"] for q in self.qmgrs}
        self.uow = {q: [] for q in self.qmgrs}
        self.uow_flags = {q: {} for q in self.qmgrs}
        self.stats = {}
        self.structs = {}
        self.queues = {}
        self.qorder = 0
        self.exit_vetoes = cfg["overflow_exit"]
        self.exit_installed = cfg["overflow_exit"] is not None
        if self.profile == "mq":
            self._open_mq(cfg)
        else:
            self._open_cqs(cfg)

    def F(self, fid):
        return self.fault == fid

    # ------------------------------------------------------------------ configuration
    def _normalise_config(self, config):
        if not isinstance(config, dict):
            raise ConfigError("config", config, "an object", "CONFIG")
        for k in config:
            if k not in CONFIG_TYPES:
                raise ConfigError(k, config[k], "a config field", "CONFIG")
        cfg = {
            "profile": "mq", "qsg": "QSG1", "qmgrs": ["QM01", "QM02", "QM03"],
            "structures": [dict(STRUCT_DEFAULTS, name="APP1")], "queues": [], "readings": {},
            "accounting": {}, "lgmsgsz": 4096, "overflow_exit": None, "perfmev_disabled": [],
            "admin_size_kb": None, "admin_table": "cfcc14",
        }
        cfg.update(config)
        for k, t in CONFIG_TYPES.items():
            if not _typeok(cfg[k], t):
                raise ConfigError(k, cfg[k], "type %s" % t, "CONFIG")
        if cfg["profile"] not in ("mq", "cqs"):
            raise ConfigError("profile", cfg["profile"], "'mq' or 'cqs'", "CONFIG", code=10)
        for k, v in cfg["readings"].items():
            if k not in CONFIG_READING_VALUES or v not in CONFIG_READING_VALUES[k]:
                raise ConfigError("readings." + k, v, "a reading of the schema", "CONFIG")
        for k, v in cfg["accounting"].items():
            if k not in ACCOUNTING_TYPES or not _typeok(v, ACCOUNTING_TYPES[k]):
                raise ConfigError("accounting." + k, v, "an accounting field", "CONFIG")
        structs = []
        for i, s in enumerate(cfg["structures"]):
            try:
                structs.append(normalise_record(s, STRUCT_TYPES, STRUCT_DEFAULTS, "structure"))
            except Invalid as e:
                raise ConfigError("structures[%d].%s" % (i, e.field), s, str(e), "CONFIG")
        cfg["structures"] = structs
        queues = []
        for i, q in enumerate(cfg["queues"]):
            try:
                queues.append(normalise_record(q, QUEUE_TYPES, QUEUE_DEFAULTS, "queue"))
            except Invalid as e:
                raise ConfigError("queues[%d].%s" % (i, e.field), q, str(e), "CONFIG")
        cfg["queues"] = queues
        return cfg

    def _common_qmgr_checks(self, cfg):
        qmgrs = cfg["qmgrs"]
        if not qmgrs:
            raise ConfigError("qmgrs", qmgrs, "at least one queue manager", "TOPOLOGY-QMGRS")
        if len(set(qmgrs)) != len(qmgrs):
            raise ConfigError("qmgrs", qmgrs, "distinct names", "TOPOLOGY-QMGRS")
        for q in qmgrs:
            if not q:
                raise ConfigError("qmgrs", q, "a non-empty name", "TOPOLOGY-QMGRS")
        for q in cfg["perfmev_disabled"]:
            if q not in qmgrs:
                raise ConfigError("perfmev_disabled", q, "one of %r" % qmgrs, "TOPOLOGY-QMGRS")

    def _open_mq(self, cfg):
        self._common_qmgr_checks(cfg)
        qsg = cfg["qsg"]
        max_qsg = 5 if self.F("TOP_QSG_LEN") else 4
        if not (1 <= len(qsg) <= max_qsg) or not QSG_NAME.match(qsg):
            raise ConfigError("qsg", qsg, "1 to 4 characters A-Z, 0-9, @, #, $",
                              "TOPOLOGY-QSGNAME")
        if qsg in cfg["qmgrs"] and not self.F("TOP_QSG_EQ_QMGR"):
            raise ConfigError("qsg", qsg, "a name different from every queue manager",
                              "TOPOLOGY-QSGNAME")
        if len(cfg["qmgrs"]) > MAX_QMGRS:
            raise ConfigError("qmgrs", len(cfg["qmgrs"]), "at most 32 queue managers",
                              "TOPOLOGY-QMGRMAX")
        # CSQ_ADMIN
        level = admin_level(cfg["admin_table"])
        min_level = 8 if self.F("ADM_CFCC_LEVEL") else 9
        if level is None or level < min_level:
            raise ConfigError("admin_table", cfg["admin_table"],
                              "a CFCC level of 9 or higher (cfccN)", "ADMIN-CFCC")
        self.admin_level = level
        n = len(cfg["qmgrs"])
        v6 = self.F("ADM_TABLE_EDITION")
        if cfg["admin_size_kb"] is None:
            rows = n - 1 if (self.F("ADM_DEFAULT_ROW") and n > 1) else n
            self.admin_size = admin_default_size(level, rows, v6)
        else:
            self.admin_size = cfg["admin_size_kb"]
            table = admin_table_value(level, n, v6)
            if table is not None and self.admin_size < table and not self.F("ADM_TABLE_CHECK"):
                raise ConfigError("admin_size_kb", self.admin_size,
                                  ">= %d KB (Table 1 minimum for %d queue managers)" % (table, n),
                                  "ADMIN-TABLE1")
        per_qmgr = 100 if self.F("ADM_ENTRIES_PER_QMGR") else 1000
        entries = admin_entries(level, self.admin_size, v6)
        if entries < per_qmgr * n:
            raise ConfigError("admin_size_kb", self.admin_size,
                              "room for 1000 list entries per queue manager (%d entries, "
                              "%d needed)" % (entries, 1000 * n), "ADMIN-ENTRIES")
        self.admin_entries = entries
        # application structures
        if not cfg["structures"] and not self.F("TOP_MIN_STRUCTS"):
            raise ConfigError("structures", [], "at least one application structure (a QSG "
                              "needs CSQ_ADMIN and one application structure)",
                              "TOPOLOGY-MINSTRUCT")
        for i, rec in enumerate(cfg["structures"]):
            try:
                self._check_mq_struct(rec)
            except Invalid as e:
                raise ConfigError("structures[%d].%s" % (i, e.field), rec.get(e.field), str(e),
                                  "CFSTRUCT")
            self.structs[rec["name"]] = Struct(rec, "mq", self.F("CAP_INITSIZE_IGNORED"))
        for i, rec in enumerate(cfg["queues"]):
            try:
                self._check_queue(rec, opening=True)
            except Invalid as e:
                raise ConfigError("queues[%d].%s" % (i, e.field), rec.get(e.field), str(e),
                                  "QUEUE")
            self._add_queue(rec)

    def _open_cqs(self, cfg):
        self._common_qmgr_checks(cfg)
        lg = cfg["lgmsgsz"]
        if lg < 1:
            raise ConfigError("lgmsgsz", lg, "a positive number of bytes", "CQS-LGMSGSZ")
        if not self.F("CQS_LGMSGSZ_ROUND"):
            lg = _ceil_div(lg, 4) * 4
        if lg > LGMSGSZ_MAX and not self.F("CQS_LGMSGSZ_CAP"):
            lg = LGMSGSZ_MAX
        self.lgmsgsz = lg
        for i, rec in enumerate(cfg["structures"]):
            try:
                self._check_cqs_struct(rec)
            except Invalid as e:
                raise ConfigError("structures[%d].%s" % (i, e.field), rec.get(e.field), str(e),
                                  "CQS-STRUCTURE")
            self.structs[rec["name"]] = Struct(rec, "cqs", self.F("CAP_INITSIZE_IGNORED"))
        for i, rec in enumerate(cfg["queues"]):
            try:
                self._check_queue(rec, opening=True)
            except Invalid as e:
                raise ConfigError("queues[%d].%s" % (i, e.field), rec.get(e.field), str(e),
                                  "CQS-QUEUE")
            self._add_queue(rec)

    # ------------------------------------------------------------------ definitions
    def _app_struct_count_ok(self, names):
        """64 structures per QSG: CSQ_ADMIN plus at most 63 application structures
        (62 for message data when CSQSYSAPPL is defined)."""
        names = list(names)
        if self.F("TOP_SYSAPPL_UNCOUNTED"):
            return len([n for n in names if n != SYSAPPL]) <= MAX_APP_STRUCTS
        return len(names) <= MAX_APP_STRUCTS

    def _check_mq_struct(self, rec):
        name = rec["name"]
        maxlen = 13 if self.F("TOP_STRUCT_NAME_LEN") else 12
        pattern = re.compile(r"^[A-Z0-9]+$") if self.F("TOP_STRUCT_FIRST_DIGIT") \
            else MQ_STRUCT_NAME
        if not (1 <= len(name) <= maxlen) or not pattern.match(name):
            raise Invalid("name", "structure name %r: 1-12 characters, A-Z then A-Z/0-9" % name)
        if name in self.structs:
            raise Invalid("name", "structure %r is already defined" % name)
        if not self._app_struct_count_ok(list(self.structs) + [name]):
            raise Invalid("name", "a QSG has at most 63 application structures "
                          "(62 besides CSQSYSAPPL)")
        self._check_size_fields(rec)
        if not 1 <= rec["cflevel"] <= (6 if self.F("CFL_LEVEL6") else 5):
            raise Invalid("cflevel", "CFLEVEL must be 1 to 5")
        if rec["recover"] and rec["cflevel"] < 3:
            raise Invalid("recover", "RECOVER(YES) needs CFLEVEL(3) or higher")
        if rec["offload"] is not None:
            if rec["offload"].upper() not in ("SMDS", "DB2"):
                raise Invalid("offload", "OFFLOAD must be SMDS or DB2")
            if rec["cflevel"] < 5 and not self.F("OFFLD_DEFINE_BELOW5"):
                raise Invalid("offload", "OFFLOAD is only valid from CFLEVEL(5)")
        for n in (1, 2, 3):
            self._check_offld("offld%dth" % n, rec["offld%dth" % n])
            self._check_offld("offld%dsz" % n, rec["offld%dsz" % n])

    @staticmethod
    def _check_offld(key, v):
        if key.endswith("th"):
            if not 0 <= v <= 100:
                raise Invalid(key, "%s is a percentage 0-100" % key.upper())
        else:
            if not (0 <= v <= OFFLD_SZ_OFF and v % KB == 0):
                raise Invalid(key, "%s is 0K to 64K (bytes, a multiple of 1024)" % key.upper())

    @staticmethod
    def _check_size_fields(rec):
        if rec["size_kb"] < 1:
            raise Invalid("size_kb", "SIZE must be positive")
        if rec["initsize_kb"] is not None and not 1 <= rec["initsize_kb"] <= rec["size_kb"]:
            raise Invalid("initsize_kb", "INITSIZE must be between 1 and SIZE")
        if not 0 <= rec["fullthreshold"] <= 100:
            raise Invalid("fullthreshold", "FULLTHRESHOLD is 0 to 100")
        if rec["ratio"] < 1:
            raise Invalid("ratio", "the entry-to-element ratio must be at least 1")

    def _check_cqs_struct(self, rec):
        name = rec["name"]
        if not (1 <= len(name) <= 16) or not ZOS_STRUCT_NAME.match(name):
            raise Invalid("name", "structure name %r: 1-16 characters, a letter first" % name)
        if name in self.structs or any(s.ovflwstr == name for s in self.structs.values()):
            raise Invalid("name", "structure %r is already defined" % name)
        self._check_size_fields(rec)
        if rec["resource"]:
            return      # RSRCSTRUCTURE: no overflow function, OVFLW* not used
        om = rec["ovflwmax"]
        if om is not None and not (0 <= om <= 100 or self.F("CQS_OVFLWMAX_RANGE")):
            raise Invalid("ovflwmax", "OVFLWMAX is a percentage 0-100")
        ov = rec["ovflwstr"]
        if ov is not None:
            if not (1 <= len(ov) <= 16) or not ZOS_STRUCT_NAME.match(ov):
                raise Invalid("ovflwstr", "overflow structure name %r is not a valid "
                              "structure name" % ov)
            if ov == name or ov in self.structs or \
                    any(s.ovflwstr == ov for s in self.structs.values()):
                raise Invalid("ovflwstr", "overflow structure %r is already in use" % ov)
            if rec["ovflw_size_kb"] < 1:
                raise Invalid("ovflw_size_kb", "the overflow structure size must be positive")

    def _check_queue(self, rec, opening=False):
        name = rec["name"]
        if not (1 <= len(name) <= 48) or not QUEUE_NAME.match(name):
            raise Invalid("name", "queue name %r is not valid" % name)
        if name in self.queues:
            raise Invalid("name", "queue %r is already defined" % name)
        cs = rec["cfstruct"]
        if self.profile == "cqs":
            if cs is None or cs not in self.structs:
                raise Invalid("cfstruct", "a CQS queue lives on a defined structure")
            return
        top = 101 if self.F("Q_DEPTH_RANGE") else 100
        for k in ("qdepthhi", "qdepthlo"):
            if not 0 <= rec[k] <= top:
                raise Invalid(k, "%s is a percentage of MAXDEPTH, 0-100" % k.upper())
        if not 0 <= rec["maxdepth"] <= 999999999:
            raise Invalid("maxdepth", "MAXDEPTH is 0 to 999999999")
        top = QMGR_MAXMSGL * 2 if self.F("Q_MAXMSGL_100MB") else QMGR_MAXMSGL
        if not 0 <= rec["maxmsgl"] <= top:
            raise Invalid("maxmsgl", "MAXMSGL is 0 to 100 MB")
        if cs is None:
            owner = rec["qmgr"] if rec["qmgr"] is not None else self.qmgrs[0]
            if owner not in self.qmgrs:
                raise Invalid("qmgr", "queue manager %r is not in the group" % owner)
            return
        if cs not in self.structs:
            raise Invalid("cfstruct", "CFSTRUCT(%s) is not defined" % cs)
        count = sum(1 for q in self.queues.values() if q.cfstruct == cs)
        check = not (self.F("TOP_512_OPEN") if opening else self.F("TOP_512_DEFINE"))
        if check and count + 1 > MAX_QUEUES_PER_STRUCT:
            raise Invalid("cfstruct", "a structure holds at most 512 shared queues")

    def _add_queue(self, rec):
        owner = None
        if self.profile == "mq" and rec["cfstruct"] is None:
            owner = rec["qmgr"] if rec["qmgr"] is not None else self.qmgrs[0]
        self.qorder += 1
        self.queues[rec["name"]] = Queue(rec, owner, self.qorder)

    # ------------------------------------------------------------------ op helpers
    def _qmgr(self, name):
        if name not in self.active:
            raise OpError(14, "qmgr=%r is invalid: allowed one of %r" % (name, self.qmgrs),
                          {"field": "qmgr", "value": name, "allowed": "one of %r" % self.qmgrs,
                           "rule_id": "TOPOLOGY-QMGR"})
        return name

    def _queue(self, name, qmgr=None):
        q = self.queues.get(name)
        visible = sorted(n for n, x in self.queues.items()
                         if qmgr is None or x.owner is None or x.owner == qmgr)
        if q is None or (qmgr is not None and q.owner is not None and q.owner != qmgr):
            raise OpError(14, "queue=%r is invalid: allowed one of %r" % (name, visible),
                          {"field": "queue", "value": name, "allowed": "one of %r" % visible,
                           "rule_id": "TOPOLOGY-QUEUE"})
        return q

    def _struct(self, name, field="cfstruct"):
        s = self.structs.get(name)
        if s is None:
            allowed = sorted(self.structs)
            raise OpError(14, "%s=%r is invalid: allowed one of %r" % (field, name, allowed),
                          {"field": field, "value": name, "allowed": "one of %r" % allowed,
                           "rule_id": "TOPOLOGY-CFSTRUCT"})
        return s

    def totals(self, s):
        if s.profile == "mq":
            return mq_totals(s.size_kb, s.ratio)
        return cqs_totals(s.size_kb, s.ratio)

    def usage(self, s):
        et, lt = self.totals(s)
        return [s.eu, et, s.lu, lt]

    def _ixc(self, s):
        """z/OS structure full monitoring: IXC585E when entries or elements in use reach
        FULLTHRESHOLD, IXC586I when usage falls back below it; FULLTHRESHOLD(0) is off."""
        if s.status != "ACTIVE":
            return []
        et, lt = self.totals(s)
        ft = s.fullthreshold
        if ft == 0 and not self.F("CAP_FT0_ACTIVE"):
            full = False
        elif self.F("CAP_IXC585_STRICT"):
            full = (et > 0 and 100 * s.eu > ft * et) or (lt > 0 and 100 * s.lu > ft * lt)
        else:
            full = (et > 0 and 100 * s.eu >= ft * et) or (lt > 0 and 100 * s.lu >= ft * lt)
        if full and not s.full_warning:
            s.full_warning = True
            return ["IXC585E " + s.name]
        if not full and s.full_warning:
            if self.F("CAP_IXC586_MISSING"):
                return []
            s.full_warning = False
            return ["IXC586I " + s.name]
        return []

    @staticmethod
    def _outcome(kind, ok=True, reason=None, **kw):
        out = {"kind": kind, "ok": ok}
        if reason is not None:
            out["reason"] = reason
        for k, v in kw.items():
            if v is None or v == []:
                continue
            out[k] = v
        return out

    # ------------------------------------------------------------------ dispatch
    MQ_OPS = ("define_structure", "alter_structure", "define_queue", "alter_queue", "put",
              "get", "commit", "backout", "set_perfmev", "reset_qstats", "start_qmgr",
              "stop_qmgr", "backup", "fail_structure", "recover", "setxcf_alter",
              "advance_clock", "inspect")
    CQS_OPS = ("define_structure", "alter_structure", "define_queue", "alter_queue", "put",
               "get", "setxcf_alter", "alter_outcome", "set_overflow_exit", "advance_clock",
               "inspect")

    def apply(self, op):
        kind = op["op"]
        allowed = self.MQ_OPS if self.profile == "mq" else self.CQS_OPS
        if kind not in allowed:
            raise OpError(14, "op=%r is invalid: allowed one of the %s profile's operations "
                          "%r" % (kind, self.profile, list(allowed)),
                          {"field": "op", "value": kind, "allowed": list(allowed),
                           "rule_id": "PROFILE-OPS"})
        prefix = "mq_" if self.profile == "mq" else "cqs_"
        fn = getattr(self, prefix + kind, None) or getattr(self, "op_" + kind)
        return fn(op)

    # ------------------------------------------------------------------ shared ops
    def op_advance_clock(self, op):
        secs = op["seconds"]
        if secs < 0:
            raise OpError(14, "seconds=%r is invalid: allowed >= 0" % secs,
                          {"field": "seconds", "value": secs, "allowed": ">= 0",
                           "rule_id": "CLOCK"})
        target = self.clock + secs
        signals = []
        if self.profile == "cqs":
            signals = self._run_scans(target)
        self.clock = target
        return self._outcome("advance_clock", signals=signals)

    def op_inspect(self, op):
        structs = {}
        for s in self.structs.values():
            et, lt = self.totals(s)
            failed = s.status != "ACTIVE"
            d = {"status": s.status, "size_kb": s.size_kb,
                 "entries_used": 0 if failed else s.eu, "entries_total": et,
                 "elements_used": 0 if failed else s.lu, "elements_total": lt,
                 "full_warning": s.full_warning}
            if self.profile == "mq":
                d["cfname"] = cfname(self.qsg, s.name, self.F("TOP_CFNAME_PAD"))
            else:
                d["alter_pending"] = s.alter_pending
                d["overflow_mode"] = s.overflow_mode
                d["overflow_queues"] = sorted(s.overflow_queues)
                d["staging_depth"] = s.staging
            structs[s.name] = d
        queues = {}
        for q in self.queues.values():
            if self.profile == "mq":
                queues[q.name] = {"depth": self._depth(q), "qdphiev": q.qdphiev,
                                  "qdploev": q.qdploev, "qdpmaxev": q.qdpmaxev}
            else:
                queues[q.name] = {"depth": len(q.msgs), "overflow": q.overflow}
        qmgrs = {m: {"active": self.active[m], "perfmev": self.perfmev[m]} for m in self.qmgrs}
        value = {"clock": self.clock, "structures": structs, "queues": queues, "qmgrs": qmgrs}
        if self.profile == "mq":
            value["admin"] = {"size_kb": self.admin_size, "entries_total": self.admin_entries}
        return self._outcome("inspect", value=_sorted(value))

    def op_setxcf_alter(self, op):
        s = self._struct(op["cfstruct"])
        new = op["size_kb"]
        if s.status != "ACTIVE":
            return self._outcome("setxcf_alter", False, "NOT_ACTIVE")
        if s.profile == "cqs" and s.alter_pending:
            # z/OS runs one alter at a time per structure
            return self._outcome("setxcf_alter", False, "NOT_ALLOWED")
        init = s.initsize if s.initsize is not None else s.size_max
        above_ok = self.F("CAP_SETXCF_ABOVE_SIZE") if s.profile == "mq" \
            else self.F("CQS_SETXCF_ABOVE_SIZE")
        if (new > s.size_max and not above_ok) or new < init or new < 1:
            return self._outcome("setxcf_alter", False, "OUT_OF_RANGE")
        et, lt = (mq_totals if s.profile == "mq" else cqs_totals)(new, s.ratio)
        if et < s.eu or lt < s.lu:
            # z/OS cannot contract a structure below the storage in use
            return self._outcome("setxcf_alter", False, "OUT_OF_RANGE")
        s.size_kb = new
        signals = self._ixc(s)
        if s.profile == "cqs":
            signals += self._noovf_exit_check(s)
        return self._outcome("setxcf_alter", signals=signals, usage=self.usage(s))

    # ================================================================== MQ profile
    def _depth(self, q):
        if self.profile == "cqs":
            return len(q.msgs)
        return sum(1 for m in q.msgs if m.got_by is None)

    def _available(self, q, qmgr):
        for m in q.msgs:
            if not m.committed and not self.F("UOW_PUT_VISIBLE"):
                continue
            if m.got_by is not None and not self.F("UOW_GET_NOT_LOCKED"):
                continue
            if self.F("Q_SHARED_NOT_VISIBLE") and q.cfstruct is not None and m.put_by != qmgr:
                continue
            return m
        return None

    def _stat(self, qmgr, qname):
        return self.stats.setdefault((qmgr, qname), [0, 0])

    def _mq_elements(self, length, location):
        if location != "CF" and not self.F("OFFLD_COST_FULL"):
            return MQ_OFFLOADED_ELEMENTS
        n = _ceil_div(length + MQ_MSG_HEADER, MQ_UNIT)
        if self.F("CAP_MIN_512"):
            return n
        return max(MQ_MIN_ELEMENTS, n)

    def _usage_more_than(self, s, th, extra_entries=0, extra_elements=0):
        """'more than THn% full': the greater of entry and element usage, strictly."""
        et, lt = self.totals(s)
        eu, lu = s.eu + extra_entries, s.lu + extra_elements
        if et == 0 or lt == 0:
            return True
        if self.F("OFFLD_USAGE_ENTRIES"):
            return 100 * eu > th * et
        return 100 * eu > th * et or 100 * lu > th * lt

    def _placement(self, s, length):
        """Where the message data of a put goes: 'CF', 'SMDS' or 'DB2'."""
        if s.cflevel >= 5:
            target = s.offload or ("DB2" if self.F("OFFLD_DEFAULT_DB2") else "SMDS")
            if length > CF_DATA_LIMIT and not self.F("OFFLD_FORCED_MISSING"):
                return target
            if self._rules_match(s, length):
                return target
            return "CF"
        if s.cflevel == 4:
            if length > CF_DATA_LIMIT:
                return "SMDS" if self.F("OFFLD_CF4_SMDS") else "DB2"
            if self.F("OFFLD_RULES_CFLEVEL4") and self._rules_match(s, length):
                return "DB2"
        return "CF"

    def _rules_match(self, s, length):
        rules = s.rules[:2] if self.F("OFFLD_RULE3_IGNORED") else s.rules
        extra = (1, self._mq_elements(length, "CF")) if self.F("OFFLD_USAGE_AFTER") else (0, 0)
        for th, sz in rules:
            if sz == OFFLD_SZ_OFF:
                if not self.F("OFFLD_SZ64_ACTIVE"):
                    continue
                sz = 0
            size = (length // KB) * KB if self.F("OFFLD_SIZE_WHOLE_KB") else length
            if self.F("OFFLD_PAIR_MIX"):
                if size > sz:
                    return True
                continue
            if size > sz and self._usage_more_than(s, th, *extra):
                return True
        return False

    def _charge(self, s, entries, elements):
        s.eu += entries
        s.lu += elements

    def _free(self, s, m):
        s.eu -= 1
        s.lu -= m.elements

    def _hi_reached(self, q, depth):
        if self.F("EV_PERCENT_ABSOLUTE"):
            return depth >= q.hi
        if self.F("EV_HI_STRICT"):
            return 100 * depth > q.hi * q.maxdepth
        return 100 * depth >= q.hi * q.maxdepth

    def _lo_reached(self, q, depth):
        if self.F("EV_LO_STRICT"):
            return 100 * depth < q.lo * q.maxdepth
        return 100 * depth <= q.lo * q.maxdepth

    def _toggle(self, q, kind):
        if kind == "QDPHI":
            if not self.F("EV_HI_NOT_DISABLED"):
                q.qdphiev = False
            if not self.F("EV_HI_NO_LO_ENABLE"):
                q.qdploev = True
            if not self.F("EV_HI_NO_MAX_ENABLE"):
                q.qdpmaxev = True
        elif kind == "QDPLO":
            q.qdploev = False
            if not self.F("EV_LO_NO_HI_ENABLE"):
                q.qdphiev = True
            q.qdpmaxev = True
        else:  # QFULL: QDPHIEV unchanged (reading qfull_hi_flag=unchanged)
            q.qdpmaxev = False
            if not self.F("EV_QFULL_NO_LO_ENABLE"):
                q.qdploev = True

    def _note_flags(self, qmgr, q):
        """Remember a queue's switches when a unit of work first touches it (used only by
        the UOW_ROLLBACK_FLAGS fault: a rollback does not restore them)."""
        self.uow_flags[qmgr].setdefault(q.name, (q.qdphiev, q.qdploev, q.qdpmaxev))

    def _depth_event(self, q, kind, qmgr):
        """A queue depth event detected by qmgr: toggle the switches, then produce the
        event messages (shared: coordinator first, then the other active queue managers
        enabled for performance events, in definition order)."""
        shared = q.cfstruct is not None
        if not self.perfmev[qmgr]:
            if not shared and not self.F("EV_NONSHARED_TOGGLE"):
                return []          # nonshared: nothing changes while PERFMEV is DISABLED
            if shared and self.F("EV_SHARED_PERFMEV_GATE"):
                return []
        self._toggle(q, kind)
        if not shared:
            if not self.perfmev[qmgr]:
                return []
            return [self._event_msg(qmgr, kind, q, 0)]
        coord = qmgr
        if self.F("EV_COORD_FIRST_QMGR"):
            coord = next(m for m in self.qmgrs if self.active[m])
        if not self.perfmev[coord]:
            return []              # reading event_broadcast = if-coordinator-enabled
        self.correl += 1
        correl = self.correl
        coord_stats = list(self._stat(coord, q.name))
        events = [self._event_msg(coord, kind, q, correl)]
        for m in self.qmgrs:
            if m == coord:
                continue
            if not self.active[m] and not self.F("EV_INACTIVE_BROADCAST"):
                continue
            if not self.perfmev[m] and not self.F("EV_DISABLED_ISSUES"):
                continue
            c = correl
            if self.F("EV_CORREL_DIFF"):
                self.correl += 1
                c = self.correl
            events.append(self._event_msg(m, kind, q, c,
                                          coord_stats if self.F("EV_STATS_COORD_COPY") else None))
        return events

    def _event_msg(self, qmgr, kind, q, correl, stats=None):
        st = self._stat(qmgr, q.name)
        enq, deq = (stats if stats is not None else st)
        if not self.F("EV_STATS_CUMULATIVE"):
            st[0] = st[1] = 0      # statistics restart at every event message
        return {"qmgr": qmgr, "kind": kind, "queue": q.name, "correl": correl,
                "enq": enq, "deq": deq}

    def _not_active(self, kind):
        return self._outcome(kind, False, "NOT_ACTIVE")

    def mq_put(self, op):
        qm = self._qmgr(op["qmgr"])
        q = self._queue(op["queue"], qm)
        length = op["length"]
        if length < 0:
            raise OpError(14, "length=%r is invalid: allowed >= 0" % length,
                          {"field": "length", "value": length, "allowed": ">= 0",
                           "rule_id": "QUEUE-LENGTH"})
        if not self.active[qm]:
            return self._not_active("put")
        s = self.structs[q.cfstruct] if q.cfstruct is not None else None
        if s is not None and s.status != "ACTIVE":
            return self._outcome("put", False, 2192 if self.F("REC_FAILED_RC") else 2373)
        maxl = min(q.maxmsgl, QMGR_MAXMSGL)
        if s is not None and self.F("CFL_2030_ORDER") and self._too_big_for_level(s, length):
            return self._outcome("put", False, 2366)
        if length > maxl:
            return self._outcome("put", False, 2030)
        if s is not None:
            if op.get("persistent", False):
                if s.cflevel < 3 or (not s.recover and not self.F("CFL_PERSIST_RECOVER_NO")):
                    return self._outcome("put", False, 2048)
            if self._too_big_for_level(s, length):
                return self._outcome("put", False, 2366)
        depth = self._depth(q)
        full_at = q.maxdepth - 1 if self.F("Q_FULL_OFFBYONE") else q.maxdepth
        if depth >= full_at:
            events = []
            if q.qdpmaxev and not self.F("EV_QFULL_MISSING"):
                events = self._depth_event(q, "QFULL", qm)
            return self._outcome("put", False, 2053, events=events,
                                 usage=self.usage(s) if s is not None else None)
        location = None
        elements = 0
        if s is not None:
            location = self._placement(s, length)
            elements = self._mq_elements(length, location)
            et, lt = self.totals(s)
            no_entry = s.eu + 1 > et and not self.F("CAP_ENTRIES_IGNORED")
            if no_entry or s.lu + elements > lt:
                return self._outcome("put", False, 2053 if self.F("CAP_FULL_RC_2053") else 2192,
                                     usage=self.usage(s))
            self._charge(s, 1, elements)
        self.seq += 1
        m = Msg(self.seq, op.get("tag", 0), length, op.get("persistent", False), qm)
        m.location = location
        m.elements = elements
        sync = op.get("syncpoint", False)
        if sync:
            m.committed = False
            self._note_flags(qm, q)
            self.uow[qm].append(("put", q.name, m))
        q.msgs.append(m)
        self._stat(qm, q.name)[0] += 1
        events = []
        depth = self._depth(q)
        if q.qdphiev and self._hi_reached(q, depth) and \
                not (sync and self.F("UOW_EVENT_DEFERRED")):
            events = self._depth_event(q, "QDPHI", qm)
        signals = self._ixc(s) if s is not None else []
        kw = {}
        if s is not None:
            kw["offloaded"] = location != "CF"
            if self.location:
                kw["location"] = location
            kw["usage"] = self.usage(s)
        return self._outcome("put", events=events, signals=signals, **kw)

    def _too_big_for_level(self, s, length):
        """CFLEVEL(1)-(3): messages less than 63 KB; CFLEVEL(4)/(5): up to 100 MB."""
        if self.F("CFL_LARGE_CF3"):
            return False
        big = length >= CF_DATA_LIMIT if self.F("CFL_63K_BOUNDARY") else length > CF_DATA_LIMIT
        level = 5 if self.F("CFL_LARGE_CF4_REJECT") else 4
        return big and s.cflevel < level

    def mq_get(self, op):
        qm = self._qmgr(op["qmgr"])
        q = self._queue(op["queue"], qm)
        if not self.active[qm]:
            return self._not_active("get")
        s = self.structs[q.cfstruct] if q.cfstruct is not None else None
        if s is not None and s.status != "ACTIVE":
            return self._outcome("get", False, 2192 if self.F("REC_FAILED_RC") else 2373)
        m = self._available(q, qm)
        if m is None:
            return self._outcome("get", False, 2033,
                                 usage=self.usage(s) if s is not None else None)
        sync = op.get("syncpoint", False)
        signals = []
        if sync:
            m.got_by = qm
            self._note_flags(qm, q)
            self.uow[qm].append(("get", q.name, m))
        elif not self.F("Q_GET_NOT_REMOVED"):
            q.msgs.remove(m)
            if s is not None:
                self._free(s, m)
        self._stat(qm, q.name)[1] += 1
        events = []
        if q.qdploev and self._lo_reached(q, self._depth(q)) and \
                not (sync and self.F("UOW_EVENT_DEFERRED")):
            events = self._depth_event(q, "QDPLO", qm)
        if s is not None:
            signals = self._ixc(s)
        return self._outcome("get", tag=m.tag, events=events, signals=signals,
                             usage=self.usage(s) if s is not None else None)

    def _end_uow(self, qm, commit):
        signals = []
        touched = []
        events = []
        for action, qname, m in self.uow[qm]:
            q = self.queues[qname]
            s = self.structs[q.cfstruct] if q.cfstruct is not None else None
            if s is not None and s not in touched:
                touched.append(s)
            if action == "put":
                if commit:
                    m.committed = True
                else:
                    if m in q.msgs:
                        q.msgs.remove(m)
                        if s is not None:
                            self._free(s, m)
            else:
                if commit:
                    if m in q.msgs:
                        q.msgs.remove(m)
                        if s is not None:
                            self._free(s, m)
                else:
                    if self.F("UOW_BACKOUT_GET_LOST"):
                        if m in q.msgs:
                            q.msgs.remove(m)
                            if s is not None:
                                self._free(s, m)
                    else:
                        m.got_by = None
        if commit and self.F("UOW_EVENT_DEFERRED"):
            seen = []
            for action, qname, m in self.uow[qm]:
                if qname in seen:
                    continue
                seen.append(qname)
                q = self.queues[qname]
                d = self._depth(q)
                if q.qdphiev and self._hi_reached(q, d):
                    events += self._depth_event(q, "QDPHI", qm)
                elif q.qdploev and self._lo_reached(q, d):
                    events += self._depth_event(q, "QDPLO", qm)
        if not commit and self.F("UOW_ROLLBACK_FLAGS"):
            for qname, flags in self.uow_flags[qm].items():
                q = self.queues[qname]
                q.qdphiev, q.qdploev, q.qdpmaxev = flags
        self.uow[qm] = []
        self.uow_flags[qm] = {}
        for s in touched:
            signals += self._ixc(s)
        return signals, events

    def mq_commit(self, op):
        qm = self._qmgr(op["qmgr"])
        if not self.active[qm]:
            return self._not_active("commit")
        signals, events = self._end_uow(qm, True)
        return self._outcome("commit", signals=signals, events=events)

    def mq_backout(self, op):
        qm = self._qmgr(op["qmgr"])
        if not self.active[qm]:
            return self._not_active("backout")
        signals, events = self._end_uow(qm, False)
        return self._outcome("backout", signals=signals, events=events)

    def mq_set_perfmev(self, op):
        qm = self._qmgr(op["qmgr"])
        if not self.active[qm]:
            return self._not_active("set_perfmev")
        self.perfmev[qm] = op["enabled"]
        return self._outcome("set_perfmev")

    def mq_reset_qstats(self, op):
        qm = self._qmgr(op["qmgr"])
        q = self._queue(op["queue"], qm)
        if not self.active[qm]:
            return self._not_active("reset_qstats")
        targets = self.qmgrs if self.F("EV_RESET_ALL_QMGRS") else [qm]
        for m in targets:
            st = self._stat(m, q.name)
            st[0] = st[1] = 0
        return self._outcome("reset_qstats")

    def mq_start_qmgr(self, op):
        qm = self._qmgr(op["qmgr"])
        if self.active[qm]:
            return self._outcome("start_qmgr", False, "NOT_ALLOWED")
        self.active[qm] = True
        return self._outcome("start_qmgr")

    def mq_stop_qmgr(self, op):
        qm = self._qmgr(op["qmgr"])
        if not self.active[qm]:
            return self._not_active("stop_qmgr")
        signals, _ = self._end_uow(qm, False)          # its unit of work is backed out
        for q in self.queues.values():
            if q.owner == qm:
                # nonpersistent messages on its page sets do not survive (nonshared_at_stop)
                q.msgs = [m for m in q.msgs if m.persistent]
            elif q.cfstruct is not None and self.F("Q_NP_RESTART_LOST"):
                s = self.structs[q.cfstruct]
                for m in [m for m in q.msgs if not m.persistent and m.put_by == qm]:
                    q.msgs.remove(m)
                    self._free(s, m)
        for key in list(self.stats):
            if key[0] == qm:
                del self.stats[key]                    # qstats_at_stop = reset
        self.active[qm] = False
        seen = []
        for q in self.queues.values():
            if q.cfstruct is not None and q.cfstruct not in seen and self.F("Q_NP_RESTART_LOST"):
                seen.append(q.cfstruct)
                signals += self._ixc(self.structs[q.cfstruct])
        return self._outcome("stop_qmgr", signals=signals)

    def _recoverable(self, s):
        return s.cflevel >= 3 and s.recover

    def mq_backup(self, op):
        qm = self._qmgr(op["qmgr"])
        s = self._struct(op["cfstruct"])
        if not self.active[qm]:
            return self._not_active("backup")
        if not self._recoverable(s) and not self.F("REC_BACKUP_RECOVER_NO"):
            return self._outcome("backup", False, "NOT_ALLOWED")
        if s.status != "ACTIVE":
            return self._outcome("backup", False, "NOT_ACTIVE")
        s.has_backup = True
        s.backup_qmgr = qm
        s.backup_ids = set(m.seq for q in self._struct_queues(s) for m in q.msgs
                           if m.persistent and m.committed)
        return self._outcome("backup")

    def _struct_queues(self, s):
        return [q for q in self.queues.values() if q.cfstruct == s.name]

    def mq_fail_structure(self, op):
        s = self._struct(op["cfstruct"])
        if s.status != "ACTIVE":
            return self._outcome("fail_structure")
        image = []
        for q in self._struct_queues(s):
            for m in q.msgs:
                if not m.committed:
                    continue            # uncommitted puts were never committed: not logged
                if m.got_by is not None and self.F("REC_UNCOMMITTED_GET"):
                    continue
                if not m.persistent and not self.F("REC_NONPERSIST"):
                    continue
                if self.F("REC_NO_REPLAY") and m.seq not in s.backup_ids:
                    continue
                if self.F("REC_ONE_QMGR_LOG") and m.seq not in s.backup_ids and \
                        m.put_by != s.backup_qmgr:
                    continue
                image.append((q.name, m))
            q.msgs = []
        for qm in self.qmgrs:
            self.uow[qm] = [(a, qn, m) for (a, qn, m) in self.uow[qm]
                            if self.queues[qn].cfstruct != s.name]
        for _, m in image:
            m.got_by = None
        s.image = image
        s.status = "FAILED"
        s.eu = s.lu = 0
        s.full_warning = False
        return self._outcome("fail_structure")

    def mq_recover(self, op):
        s = self._struct(op["cfstruct"])
        purge = op.get("purge", False)
        if not self._recoverable(s):
            return self._outcome("recover", False, "NOT_ALLOWED")
        if s.status == "ACTIVE" and not (self.F("REC_NORMAL_NOT_FAILED") and not purge):
            return self._outcome("recover", False, "NOT_FAILED")
        if not purge and not s.has_backup and not self.F("REC_NO_BACKUP"):
            return self._outcome("recover", False, "NO_BACKUP")
        if s.status == "ACTIVE":
            return self._outcome("recover")        # (reached only under a fault)
        s.status = "ACTIVE"
        if not purge or self.F("REC_PURGE_KEEPS"):
            for qname, m in s.image:
                self.queues[qname].msgs.append(m)
                self._charge(s, 1, m.elements)
            for q in self._struct_queues(s):
                q.msgs.sort(key=lambda x: x.seq)
        s.image = []
        signals = self._ixc(s)
        return self._outcome("recover", signals=signals, usage=self.usage(s))

    # ---------------------------------------------------------------- MQ definitions
    def mq_define_structure(self, op):
        try:
            rec = normalise_record(op["structure"], STRUCT_TYPES, STRUCT_DEFAULTS, "structure")
            self._check_mq_struct(rec)
        except Invalid:
            return self._outcome("define_structure", False, "INVALID")
        self.structs[rec["name"]] = Struct(rec, "mq", self.F("CAP_INITSIZE_IGNORED"))
        return self._outcome("define_structure")

    def mq_define_queue(self, op):
        try:
            rec = normalise_record(op["queue"], QUEUE_TYPES, QUEUE_DEFAULTS, "queue")
            self._check_queue(rec)
        except Invalid:
            return self._outcome("define_queue", False, "INVALID")
        self._add_queue(rec)
        return self._outcome("define_queue")

    def mq_alter_queue(self, op):
        q = self._queue(op["name"])
        changes = op["changes"]
        new = {}
        for k, v in changes.items():
            if k not in MQ_ALTER_QUEUE_KEYS:
                return self._outcome("alter_queue", False, "INVALID")
            if k in ("qdphiev", "qdploev", "qdpmaxev"):
                if not isinstance(v, bool):
                    return self._outcome("alter_queue", False, "INVALID")
            else:
                if not _typeok(v, "int"):
                    return self._outcome("alter_queue", False, "INVALID")
                top = {"maxdepth": 999999999, "maxmsgl": QMGR_MAXMSGL}.get(k, 100)
                if k in ("qdepthhi", "qdepthlo") and self.F("Q_DEPTH_RANGE"):
                    top = 101
                if not 0 <= v <= top:
                    return self._outcome("alter_queue", False, "INVALID")
            new[k] = v
        for k, v in new.items():
            attr = {"qdepthhi": "hi", "qdepthlo": "lo"}.get(k, k)
            setattr(q, attr, v)
        return self._outcome("alter_queue")

    def mq_alter_structure(self, op):
        s = self._struct(op["name"], "name")
        changes = op["changes"]
        for k in changes:
            if k not in MQ_ALTER_STRUCT_KEYS:
                return self._outcome("alter_structure", False, "INVALID")
        cur = {"cflevel": s.cflevel, "recover": s.recover, "offload": s.offload}
        for n in (1, 2, 3):
            cur["offld%dth" % n], cur["offld%dsz" % n] = s.rules[n - 1]
        if self.F("ADM_ALTER_RESETS"):
            for k in ("offld1th", "offld1sz", "offld2th", "offld2sz", "offld3th", "offld3sz"):
                cur[k] = STRUCT_DEFAULTS[k]
        new = dict(cur)
        try:
            for k, v in changes.items():
                if k == "cflevel":
                    if not _typeok(v, "int") or not 1 <= v <= 5:
                        raise Invalid(k, "CFLEVEL 1-5")
                elif k == "recover":
                    if not isinstance(v, bool):
                        raise Invalid(k, "RECOVER is YES or NO")
                elif k == "offload":
                    if not isinstance(v, str) or v.upper() not in ("SMDS", "DB2"):
                        raise Invalid(k, "OFFLOAD is SMDS or DB2")
                    v = v.upper()
                else:
                    if not _typeok(v, "int"):
                        raise Invalid(k, "an integer")
                    self._check_offld(k, v)
                new[k] = v
            level = new["cflevel"]
            if level < 5 and not self.F("OFFLD_ALTER_BELOW5"):
                if any(k.startswith("offl") for k in changes):
                    raise Invalid("offload", "OFFLOAD and OFFLDnTH/OFFLDnSZ are only valid "
                                  "from CFLEVEL(5)")
            if new["recover"] and level < 3:
                raise Invalid("recover", "RECOVER(YES) needs CFLEVEL(3) or higher")
        except Invalid:
            return self._outcome("alter_structure", False, "INVALID")
        old = s.cflevel
        if level < old:
            guarded = old in (3, 4, 5) and not self.F("CFL_DECREASE_UNGUARDED")
            if guarded and not self._struct_empty(s):
                return self._outcome("alter_structure", False, "NOT_ALLOWED")
        s.cflevel = level
        s.recover = new["recover"]
        s.offload = new["offload"] if level >= 5 else None
        for n in (1, 2, 3):
            s.rules[n - 1] = [new["offld%dth" % n], new["offld%dsz" % n]]
        return self._outcome("alter_structure")

    def _struct_empty(self, s):
        for q in self._struct_queues(s):
            if self.F("UOW_DECREASE_UNCOMMITTED"):
                if any(m.committed and m.got_by is None for m in q.msgs):
                    return False
            elif q.msgs:
                return False       # messages, or uncommitted puts/gets still hold entries
        return True

    # ================================================================== CQS profile
    def _ovflwmax(self, s):
        if s.ovflwmax is not None:
            return s.ovflwmax
        return 80 if self.F("CQS_DEFAULT_80") else 70

    def _target(self, s):
        """'20% below the overflow threshold': OVFLWMAX - 20 points, never below 0."""
        drop = 10 if self.F("CQS_TARGET_10") else 20
        return max(0, self._ovflwmax(s) - drop)

    def _threshold_reached(self, s):
        et, lt = self.totals(s)
        om = self._ovflwmax(s)
        if self.F("CQS_USAGE_ENTRIES"):
            used, total = s.eu, et
        else:
            used, total = s.lu, lt
        if total == 0:
            return False
        if self.F("CQS_THRESH_STRICT"):
            return 100 * used > om * total
        return 100 * used >= om * total

    def _parts(self, length):
        """A message longer than LGMSGSZ goes on the structure in parts of LGMSGSZ bytes:
        the first on the ready queue, the others on the staging queue."""
        lg = self.lgmsgsz
        if length <= lg:
            return [length]
        parts = [lg]
        rest = length - lg
        while rest > 0:
            parts.append(min(lg, rest))
            rest -= lg
        return parts

    @staticmethod
    def _cqs_elements(part):
        return max(1, _ceil_div(part, CQS_ELEMENT))

    def _ovf_totals(self, s):
        return cqs_totals(s.ovflw_size_kb, s.ratio)

    def _queue_primary_elements(self, q):
        return sum(m.elements for m in q.msgs if not m.in_ovf and not m.first_staged)

    def cqs_put(self, op):
        qm = self._qmgr(op["qmgr"])
        q = self._queue(op["queue"])
        length = op["length"]
        if length < 0:
            raise OpError(14, "length=%r is invalid: allowed >= 0" % length,
                          {"field": "length", "value": length, "allowed": ">= 0",
                           "rule_id": "CQS-LENGTH"})
        s = self.structs[q.cfstruct]
        parts = self._parts(length)
        first = self._cqs_elements(parts[0])
        staged = [self._cqs_elements(p) for p in parts[1:]]
        first_staged = self.F("CQS_FIRST_PART_STAGING")
        to_ovf = False
        if s.overflow_mode and self.F("CQS_REJECT_ALL_QUEUES") and s.ovflwstr is None \
                and not q.overflow:
            return self._outcome("put", False, "REJECTED_OVERFLOW", usage=self.usage(s))
        if q.overflow:
            if s.ovflwstr is None or self.F("CQS_REJECT_WITH_OVFLWSTR"):
                if not (s.ovflwstr is None and self.F("CQS_NO_OVFLW_ACCEPT")):
                    return self._outcome("put", False, "REJECTED_OVERFLOW",
                                         usage=self.usage(s))
            else:
                to_ovf = True
        et, lt = self.totals(s)
        if to_ovf:
            oet, olt = self._ovf_totals(s)
            fits = s.ovf_eu + 1 <= oet and s.ovf_lu + first <= olt and \
                s.eu + len(staged) <= et and s.lu + sum(staged) <= lt
        else:
            fits = s.eu + len(parts) <= et and s.lu + first + sum(staged) <= lt
        if not fits and not self.F("CQS_FULL_ACCEPT"):
            return self._outcome("put", False, "STRUCTURE_FULL", usage=self.usage(s))
        self.seq += 1
        m = Msg(self.seq, op.get("tag", 0), length, False, qm)
        m.elements = first
        m.parts = staged
        m.first_staged = first_staged
        if to_ovf:
            m.in_ovf = True
            s.ovf_eu += 1
            s.ovf_lu += first
        else:
            s.eu += 1
            s.lu += first
        s.eu += len(staged)
        s.lu += sum(staged)
        s.staging += len(staged) + (1 if first_staged else 0)
        q.msgs.append(m)
        signals = self._after_put(s)
        signals += self._ixc(s)
        return self._outcome("put", signals=signals, usage=self.usage(s))

    def _after_put(self, s):
        """CQS threshold processing after a CQSPUT: reaching OVFLWMAX starts a structure
        alter; in overflow mode it selects more queues (reading cqs_reselect=select)."""
        if s.resource and not self.F("CQS_RESOURCE_OVERFLOW"):
            return []           # structure overflow is not supported for resource structures
        if not self._threshold_reached(s):
            return []
        if s.overflow_mode:
            return self._select(s)
        if s.alter_pending:
            return []
        if self.F("CQS_NO_ALTER_FIRST"):
            return self._enter_overflow(s)
        s.alter_pending = True
        return ["ALTER " + s.name]

    def _enter_overflow(self, s):
        s.overflow_mode = True
        s.next_scan = self.clock + (15 if self.F("CQS_SCAN_SECONDS") else SCAN_SECONDS)
        signals = ["OVERFLOW_ON " + s.name]
        signals += self._select(s)
        signals += self._noovf_exit_check(s)
        return signals

    def _candidates(self, s):
        qs = [q for q in self.queues.values()
              if q.cfstruct == s.name and not q.overflow and self._queue_primary_elements(q) > 0]
        rev = not self.F("CQS_SELECT_LEAST")
        qs.sort(key=lambda q: (-self._queue_primary_elements(q) if rev
                               else self._queue_primary_elements(q), q.order))
        return qs

    def _vetoed(self, qname):
        if self.F("CQS_EXIT_IGNORED"):
            return False
        if not self.exit_installed:
            return False          # no exit: every selected queue is approved
        return qname in (self.exit_vetoes or [])

    def _select(self, s):
        """Select the queues using the most space until primary usage would fall to the
        target (OVFLWMAX - 20); the exit approves or vetoes each candidate."""
        et, lt = self.totals(s)
        target = self._target(s)
        projected = s.lu - sum(self._queue_primary_elements(self.queues[n])
                               for n in s.overflow_queues)
        signals = []
        cands = [(q.name, self._queue_primary_elements(q), q) for q in self._candidates(s)]
        if self.F("CQS_STAGING_ELIGIBLE") and s.staging > 0:
            cands.append(("*STAGING*", self._staging_elements(s), None))
            cands.sort(key=lambda c: -c[1])
        extra_done = False
        for name, elements, q in cands:
            met = lt == 0 or 100 * projected <= target * lt
            if met and not self.F("CQS_SELECT_ALL"):
                if not self.F("CQS_SELECT_EXTRA") or extra_done or not signals:
                    break
                extra_done = True
            if q is None:                       # the staging queue (fault only)
                signals.append("OVERFLOW_QUEUE %s %s" % (s.name, name))
                projected -= elements
                if s.ovflwstr is not None:
                    for qq in self._struct_queues(s):
                        for m in qq.msgs:
                            if m.parts and not m.staged_in_ovf:
                                s.eu -= len(m.parts)
                                s.lu -= sum(m.parts)
                                s.staging -= len(m.parts)
                                s.ovf_eu += len(m.parts)
                                s.ovf_lu += sum(m.parts)
                                m.staged_in_ovf = True
                continue
            if self._vetoed(q.name):
                if self.F("CQS_VETO_STOPS"):
                    break
                continue
            if s.ovflwstr is not None:
                oet, olt = self._ovf_totals(s)
                n = sum(1 for m in q.msgs if not m.in_ovf)
                el = self._queue_primary_elements(q)
                if s.ovf_eu + n > oet or s.ovf_lu + el > olt:
                    continue      # cannot be moved: the overflow structure has no room
            q.overflow = True
            s.overflow_queues.append(q.name)
            signals.append("OVERFLOW_QUEUE %s %s" % (s.name, q.name))
            projected -= self._queue_primary_elements(q)
            if s.ovflwstr is not None and not self.F("CQS_DATA_NOT_MOVED"):
                for m in q.msgs:
                    if m.in_ovf:
                        continue
                    m.in_ovf = True
                    s.eu -= 1
                    s.lu -= m.elements
                    s.ovf_eu += 1
                    s.ovf_lu += m.elements
                    if self.F("CQS_STAGING_MOVED") and m.parts:
                        s.eu -= len(m.parts)
                        s.lu -= sum(m.parts)
                        s.staging -= len(m.parts)
                        s.ovf_eu += len(m.parts)
                        s.ovf_lu += sum(m.parts)
                        m.staged_in_ovf = True
        return signals

    def _staging_elements(self, s):
        total = 0
        for q in self.queues.values():
            if q.cfstruct == s.name:
                for m in q.msgs:
                    if not m.staged_in_ovf:
                        total += sum(m.parts)
        return total

    def _leave_overflow(self, s):
        for n in s.overflow_queues:
            self.queues[n].overflow = False
        s.overflow_queues = []
        s.overflow_mode = False
        s.next_scan = None
        return ["OVERFLOW_OFF " + s.name]

    def _noovf_exit_check(self, s):
        """Without an overflow structure, CQS leaves overflow mode when primary usage
        drops 20% below the overflow threshold."""
        if not s.overflow_mode or s.ovflwstr is not None:
            return []
        et, lt = self.totals(s)
        if self.F("CQS_NOOVF_EXIT_AT_THRESHOLD"):
            below = lt > 0 and 100 * s.lu < self._ovflwmax(s) * lt
        else:
            below = lt > 0 and 100 * s.lu <= self._target(s) * lt
        if below:
            return self._leave_overflow(s)
        return []

    def _run_scans(self, until):
        signals = []
        while True:
            due = [s for s in self.structs.values()
                   if s.overflow_mode and s.ovflwstr is not None and s.next_scan is not None
                   and s.next_scan <= until]
            if not due:
                return signals
            s = min(due, key=lambda x: (x.next_scan, x.name))
            self.clock = s.next_scan
            interval = 15 if self.F("CQS_SCAN_SECONDS") else SCAN_SECONDS
            s.next_scan += interval
            found = self._scan(s)
            signals += found
            if not found and s.next_scan <= until:
                # nothing changes between operations: later scans would find the same
                s.next_scan += ((until - s.next_scan) // interval + 1) * interval

    def _scan(self, s):
        """The 15-minute scan: overflow queues found empty return to normal processing;
        when none remain, CQS exits overflow mode."""
        signals = []
        for n in list(s.overflow_queues):
            q = self.queues[n]
            if not q.msgs or self.F("CQS_SCAN_NONEMPTY"):
                q.overflow = False
                s.overflow_queues.remove(n)
                signals.append("OVERFLOW_QUEUE_OFF %s %s" % (s.name, n))
                if self.F("CQS_EXIT_EARLY"):
                    break
        if not s.overflow_queues or (self.F("CQS_EXIT_EARLY") and signals):
            signals += self._leave_overflow(s)
        return signals

    def cqs_get(self, op):
        self._qmgr(op["qmgr"])
        q = self._queue(op["queue"])
        s = self.structs[q.cfstruct]
        if not q.msgs:
            return self._outcome("get", False, "NO_MSG", usage=self.usage(s))
        m = q.msgs.pop(0)
        if m.in_ovf:
            s.ovf_eu -= 1
            s.ovf_lu -= m.elements
        else:
            s.eu -= 1
            s.lu -= m.elements
        if m.staged_in_ovf:
            s.ovf_eu -= len(m.parts)
            s.ovf_lu -= sum(m.parts)
        else:
            s.eu -= len(m.parts)
            s.lu -= sum(m.parts)
            s.staging -= len(m.parts)
        if m.first_staged:
            s.staging -= 1
        signals = self._ixc(s)
        signals += self._noovf_exit_check(s)
        return self._outcome("get", tag=m.tag, signals=signals, usage=self.usage(s))

    def cqs_alter_outcome(self, op):
        s = self._struct(op["cfstruct"])
        if not s.alter_pending:
            return self._outcome("alter_outcome", False, "NO_ALTER_PENDING")
        size = op.get("size_kb")
        if op["success"]:
            new = size if size is not None else s.size_max
            if new < 1 or new > s.size_max:
                raise OpError(14, "size_kb=%r is invalid: allowed 1..%d (SIZE)"
                              % (new, s.size_max),
                              {"field": "size_kb", "value": new,
                               "allowed": "1..%d" % s.size_max, "rule_id": "CQS-ALTER"})
            s.alter_pending = False
            if not self.F("CQS_ALTER_NO_GROW"):
                s.size_kb = new
            signals = []
            if self.F("CQS_OVERFLOW_ON_ALTER_OK"):
                signals += self._enter_overflow(s)
            signals += self._ixc(s)
            return self._outcome("alter_outcome", signals=signals, usage=self.usage(s))
        s.alter_pending = False
        signals = self._enter_overflow(s)
        signals += self._ixc(s)
        return self._outcome("alter_outcome", signals=signals, usage=self.usage(s))

    def cqs_set_overflow_exit(self, op):
        vetoes = op.get("vetoes")
        if vetoes is None:
            if not self.F("CQS_EXIT_REMOVE_IGNORED"):
                self.exit_installed = False
                self.exit_vetoes = None
        else:
            self.exit_installed = True
            self.exit_vetoes = list(vetoes)
        return self._outcome("set_overflow_exit")

    def cqs_define_structure(self, op):
        try:
            rec = normalise_record(op["structure"], STRUCT_TYPES, STRUCT_DEFAULTS, "structure")
            self._check_cqs_struct(rec)
        except Invalid:
            return self._outcome("define_structure", False, "INVALID")
        self.structs[rec["name"]] = Struct(rec, "cqs", self.F("CAP_INITSIZE_IGNORED"))
        return self._outcome("define_structure")

    def cqs_define_queue(self, op):
        try:
            rec = normalise_record(op["queue"], QUEUE_TYPES, QUEUE_DEFAULTS, "queue")
            self._check_queue(rec)
        except Invalid:
            return self._outcome("define_queue", False, "INVALID")
        self._add_queue(rec)
        return self._outcome("define_queue")

    def cqs_alter_queue(self, op):
        self._queue(op["name"])
        # CQS queues carry no alterable attributes
        return self._outcome("alter_queue", False, "INVALID")

    def cqs_alter_structure(self, op):
        s = self._struct(op["name"], "name")
        changes = op["changes"]
        for k, v in changes.items():
            if k == "ovflwmax":
                if s.resource or not (v is None or (_typeok(v, "int") and 0 <= v <= 100)):
                    return self._outcome("alter_structure", False, "INVALID")
            elif k == "ovflwstr":
                if s.resource:
                    return self._outcome("alter_structure", False, "INVALID")
                if v != s.ovflwstr and not self.F("CQS_OVFLWSTR_ALTER"):
                    # adding or changing OVFLWSTR needs a cold start of the structure and CQSs
                    return self._outcome("alter_structure", False, "NOT_ALLOWED")
                if v is not None and (not isinstance(v, str) or not ZOS_STRUCT_NAME.match(v)
                                      or v in self.structs):
                    return self._outcome("alter_structure", False, "INVALID")
            else:
                return self._outcome("alter_structure", False, "INVALID")
        if "ovflwmax" in changes:
            s.ovflwmax = changes["ovflwmax"]
        if "ovflwstr" in changes:
            s.ovflwstr = changes["ovflwstr"]
        return self._outcome("alter_structure")
