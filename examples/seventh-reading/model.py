"""The semantic model behind impl.py (see README.md for the readings and the
storage accounting).  A Model is created per `open`; `apply(op)` returns an
outcome record or raises OpError (a wire error).  Faults are single-sentence
departures switched on by `fault` (see faults.json)."""
import math
import re

# ---------------------------------------------------------------- constants
CF_LIMIT = 64512            # 63 KB: longest message data kept in a CF entry (reading 63K)
CF_LIMIT_6375 = 65280       # 63.75 KB (the other reading; used only by a fault)
RULE_OFF = 65536            # OFFLDnSZ(64K): rule not in effect
MQ_MAXMSGL = 104857600      # 100 MB
SCAN_SECONDS = 900          # CQS overflow scan: every 15 minutes
MAX_QMGRS = 32
MAX_QUEUES_PER_STRUCT = 512
MAX_APP_STRUCTS = 63        # 64 structures per QSG minus CSQ_ADMIN
DEFAULT_OVFLWMAX = 70

ADMIN_TABLE_CFCC14 = [6144, 6912, 7976, 8704, 9728, 10496, 11520, 12288, 13056, 14080, 14848,
                      15616, 16640, 17408, 18176, 19200, 19968, 20736, 21760, 22528, 23296,
                      24320, 25088, 25856, 27136, 27904, 28672, 29696, 30464, 31232, 32256]
# MQ V6 (CFCC level 9) edition, only the rows IBM printed
ADMIN_TABLE_CFCC9 = {1: 2560, 2: 3328, 4: 4608, 8: 7680, 16: 13568, 31: 24832}

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
    "alter_below_initsize": "accepted",
    "cflevel5_decrease": "guarded",
    "alter_at_size": "accepted",
    "alter_not_larger": "accepted",
    "full_signal_timing": "at-crossing",
    "cqs_alter": "async",
    "cqs_empty_overflow": "next-scan",
    "qstats_at_stop": "reset",
    "nonshared_at_stop": "lost",
}

CAPABILITIES = {
    "name": "seventh-reading",
    "protocol_version": "1.3",
    "profiles": ["mq", "cqs"],
    "families": ["CQS", "OFFLOAD", "CFLEVEL", "CAPACITY", "TOPOLOGY", "SIZING", "QDEPTH",
                 "RECOVERY", "QUEUE"],
    "readings": dict(READINGS),
    "reason_codes": "exact",
    "observes": ["usage", "events", "signals", "inspect"],
}

FAULT_IDS = {
    # OFFLOAD
    "OFF-TH-INCLUSIVE", "OFF-SZ-INCLUSIVE", "OFF-RULE-SIZE-ONLY", "OFF-FORCED-6375",
    "OFF-FULL-STORAGE", "OFF-DB2-AS-SMDS", "OFF-DEFAULT-DB2", "OFF-RULES-AT-CF4",
    "OFF-ALTER-RESETS", "OFF-64K-AS-SIZE", "OFF-RULE3-IGNORED",
    # CFLEVEL
    "CF-PERS-NEEDS-4", "CF-LARGE-CF3-OK", "CF-LARGE-BOUNDARY", "CF-DECREASE-UNGUARDED",
    "CF-OFFLOAD-KW-LOWCF", "CF-RECOVERNO-PERSIST-OK",
    # CAPACITY
    "CAP-ENTRIES-IGNORED", "CAP-WRONG-RC", "CAP-IXC-STRICT", "CAP-NO-IXC586I", "CAP-FT0-ON",
    # TOPOLOGY
    "TOP-511-QUEUES", "TOP-CFNAME-NOPAD", "TOP-SYSAPPL-UNCOUNTED", "TOP-31-QMGRS", "TOP-NAME-11",
    # SIZING
    "SIZ-ADMIN-ROW-SHIFT", "SIZ-ADMIN-ACTIVE-QMGRS", "SIZ-ALLOC-AT-SIZE", "SIZ-ALTER-ABOVE-SIZE",
    "SIZ-ADMIN-3QM-TYPO",
    # RECOVERY
    "REC-NONPERSISTENT", "REC-ONE-LOG", "REC-DOUBLE-REPLAY", "REC-BACKUP-RECOVERNO",
    "REC-NOT-FAILED-OK", "REC-FAILED-RC", "REC-NP-SURVIVE-FAIL",
    # QDEPTH
    "QD-HI-STRICT", "QD-LO-STRICT", "QD-SHARED-NEEDS-PERFMEV", "QD-BROADCAST-INACTIVE",
    "QD-NEW-CORREL", "QD-FIRST-QMGR-COORD", "QD-STATS-NORESET", "QD-HI-NO-QFULL-ENABLE",
    "QD-NONSHARED-TOGGLE", "QD-RESET-ALL-QMGRS", "QD-FULL-NO-EVENT",
    # CQS
    "CQS-DEFAULT-80", "CQS-NO-ALTER", "CQS-STRICT-THRESHOLD", "CQS-SELECT-LEAST", "CQS-TARGET-10",
    "CQS-EXIT-IGNORED", "CQS-VETO-NO-REPLACE", "CQS-NOSTR-ACCEPTS", "CQS-SCAN-10MIN",
    "CQS-NOSTR-NEVER-ENDS", "CQS-STAGING-MOVED", "CQS-LGMSG-OFFBY1", "CQS-RESOURCE-OVERFLOW",
    "CQS-OVERFLOW-AFTER-SUCCESS", "CQS-ALL-REMOVED-STAYS",
    # QUEUE
    "Q-STOP-COMMITS", "Q-NP-LOST-AT-STOP", "Q-MAXMSGL-INCLUSIVE", "Q-UNCOMMITTED-VISIBLE",
    "Q-FULL-OFFBY1",
}

STRUCT_FIELDS = {"name": None, "size_kb": 8192, "initsize_kb": None, "fullthreshold": 80, "ratio": 6,
                 "cflevel": 3, "recover": False, "offload": None, "offld1th": 70, "offld1sz": 32768,
                 "offld2th": 80, "offld2sz": 4096, "offld3th": 90, "offld3sz": 0, "ovflwmax": None,
                 "ovflwstr": None, "ovflw_size_kb": 8192, "resource": False}
QUEUE_FIELDS = {"name": None, "cfstruct": None, "qmgr": None, "maxdepth": 999999999,
                "maxmsgl": 4194304, "qdepthhi": 80, "qdepthlo": 20, "qdphiev": False,
                "qdploev": False, "qdpmaxev": False}
ACCOUNTING = {"element_bytes": 256, "entry_bytes": 256, "header_bytes": 128, "overhead": 1.3142,
              "fixed_kb": 6144, "offloaded_elements": 2}
CONFIG_FIELDS = {"profile", "qsg", "qmgrs", "structures", "queues", "readings", "accounting",
                 "lgmsgsz", "overflow_exit", "perfmev_disabled", "admin_size_kb", "admin_table"}

NAME_RE = re.compile(r"^[A-Z][A-Z0-9]*$")


class OpError(Exception):
    def __init__(self, code, text, detail=None):
        Exception.__init__(self, text)
        self.code, self.text, self.detail = code, text, detail


class ConfigError(Exception):
    def __init__(self, text, field=None, value=None, code=13):
        Exception.__init__(self, text)
        self.code, self.text = code, text
        self.detail = {"field": field, "value": value} if field is not None else None


def _isint(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _bad_op(field, value, allowed, rule="TOPOLOGY-006"):
    return OpError(14, "%s=%r is invalid: allowed %s [%s]" % (field, value, allowed, rule),
                   {"field": field, "value": value, "allowed": allowed, "rule_id": rule})


# ------------------------------------------------------------------ records
class Msg:
    __slots__ = ("seq", "tag", "length", "persistent", "ent", "el", "offloaded", "location",
                 "put_uow", "get_uow", "parts", "on_ovfl", "putter")

    def __init__(self, seq, tag, length, persistent):
        self.seq, self.tag, self.length, self.persistent = seq, tag, length, persistent
        self.ent = self.el = 0
        self.offloaded = False
        self.location = "CF"
        self.put_uow = None     # qmgr whose uncommitted put this is
        self.get_uow = None     # qmgr holding it under an uncommitted get
        self.parts = []         # CQS: (ent, el) of each staging part
        self.on_ovfl = False    # CQS: first part lives on the overflow structure
        self.putter = None


class Queue:
    def __init__(self, rec):
        for k, v in rec.items():
            setattr(self, k, v)
        self.msgs = []
        self.stats = {}         # qmgr -> [enq, deq]
        self.overflow = False   # CQS


class Struct:
    def __init__(self, rec):
        for k, v in rec.items():
            setattr(self, k, v)
        self.cur_kb = rec["initsize_kb"] if rec["initsize_kb"] is not None else rec["size_kb"]
        self.status = "ACTIVE"
        self.ent_used = 0
        self.el_used = 0
        self.ov_ent_used = 0
        self.ov_el_used = 0
        self.full_warning = False
        self.backup = None
        self.alter_pending = False
        self.overflow_mode = False
        self.overflow_queues = []
        self.next_scan = None
        self.staging = 0


# -------------------------------------------------------------------- model
class Model:
    def __init__(self, cfg, fault=None):
        self.fault = fault
        self._load_config(cfg)

    def f(self, fid):
        return self.fault == fid

    # ............................................................ config
    def _load_config(self, cfg):
        for k in cfg:
            if k not in CONFIG_FIELDS:
                raise ConfigError("unknown config field %r" % k, k, cfg[k])
        prof = cfg.get("profile", "mq")
        if prof not in ("mq", "cqs"):
            raise ConfigError("profile %r not implemented" % (prof,), "profile", prof, code=10)
        self.profile = prof
        qsg = cfg.get("qsg", "QSG1")
        if not isinstance(qsg, str) or not (1 <= len(qsg) <= 4) or not re.match(r"^[A-Z0-9@#$]+$", qsg):
            raise ConfigError("qsg must be 1-4 characters", "qsg", qsg)
        self.qsg = qsg
        qmgrs = cfg.get("qmgrs", ["QM01", "QM02", "QM03"])
        if not isinstance(qmgrs, list) or not qmgrs or not all(isinstance(q, str) and q for q in qmgrs):
            raise ConfigError("qmgrs must be a non-empty list of names", "qmgrs", qmgrs)
        if len(set(qmgrs)) != len(qmgrs):
            raise ConfigError("duplicate queue manager names", "qmgrs", qmgrs)
        maxq = 31 if self.f("TOP-31-QMGRS") else MAX_QMGRS
        if len(qmgrs) > maxq:
            raise ConfigError("at most %d queue managers in a queue-sharing group" % maxq, "qmgrs", len(qmgrs))
        if self.profile == "mq" and qsg in qmgrs:
            raise ConfigError("the QSG name must differ from every queue manager name", "qsg", qsg)
        self.qmgr_order = list(qmgrs)
        pdis = cfg.get("perfmev_disabled", [])
        if not isinstance(pdis, list) or any(p not in qmgrs for p in pdis):
            raise ConfigError("perfmev_disabled names unknown queue managers", "perfmev_disabled", pdis)
        self.qmgrs = {q: {"active": True, "perfmev": q not in pdis, "uow": []} for q in qmgrs}
        acc = dict(ACCOUNTING)
        a = cfg.get("accounting") or {}
        if not isinstance(a, dict):
            raise ConfigError("accounting must be an object", "accounting", a)
        for k, v in a.items():
            if k not in ACCOUNTING:
                raise ConfigError("unknown accounting field %r" % k, "accounting." + k, v)
            if k == "overhead":
                if not isinstance(v, (int, float)) or isinstance(v, bool) or v <= 0:
                    raise ConfigError("overhead must be a positive number", "accounting.overhead", v)
            elif not _isint(v) or v < 0 or (k in ("element_bytes",) and v == 0):
                raise ConfigError("accounting.%s must be a non-negative integer" % k, "accounting." + k, v)
        self.acc = acc
        acc.update(a)
        lg = cfg.get("lgmsgsz", 4096)
        if not _isint(lg) or lg < 1:
            raise ConfigError("lgmsgsz must be a positive integer", "lgmsgsz", lg)
        # LGMSGSZ is rounded up to a multiple of 4, and a larger value than 30632 is set to 30632
        # (ibm-facts, "LGMSGSZ= parameter for procedures"; fixed after cfconform's gate found it)
        self.lgmsgsz = min(30632, (lg + 3) // 4 * 4)
        ox = cfg.get("overflow_exit")
        if ox is not None and (not isinstance(ox, list) or not all(isinstance(x, str) for x in ox)):
            raise ConfigError("overflow_exit must be null or a list of queue names", "overflow_exit", ox)
        self.exit_vetoes = None if ox is None else list(ox)
        rd = cfg.get("readings")
        if rd is not None and not isinstance(rd, dict):
            raise ConfigError("readings must be an object", "readings", rd)
        # readings of the model are ignored: this implementation follows its own (READINGS)
        self.admin_table = cfg.get("admin_table", "cfcc14")
        if self.admin_table not in ("cfcc14", "cfcc9"):
            raise ConfigError("admin_table must be cfcc14 or cfcc9", "admin_table", self.admin_table)
        self.admin_size_kb = cfg.get("admin_size_kb")
        if self.admin_size_kb is not None:
            if not _isint(self.admin_size_kb) or self.admin_size_kb <= 0:
                raise ConfigError("admin_size_kb must be a positive integer", "admin_size_kb", self.admin_size_kb)
            if self.profile == "mq" and self.admin_size_kb < self.admin_min_kb(len(qmgrs)):
                raise ConfigError("CSQ_ADMIN of %d KB is below the minimum %d KB for %d queue managers"
                                  % (self.admin_size_kb, self.admin_min_kb(len(qmgrs)), len(qmgrs)),
                                  "admin_size_kb", self.admin_size_kb)
        self.structs = {}
        self.struct_order = []
        for rec in cfg.get("structures", [dict(STRUCT_FIELDS, name="APP1")]):
            r, why = self._norm_struct(rec)
            if r is None:
                raise ConfigError("invalid structure: %s" % why, "structures", rec.get("name") if isinstance(rec, dict) else rec)
            lim = self._struct_limit_reason(r)
            if lim:
                raise ConfigError(lim, "structures", r["name"])
            self._add_struct(r)
        self.queues = {}
        self.queue_order = []
        for rec in cfg.get("queues", []):
            r, why = self._norm_queue(rec)
            if r is None:
                raise ConfigError("invalid queue: %s" % why, "queues", rec.get("name") if isinstance(rec, dict) else rec)
            if r["cfstruct"] is not None and self._queue_count(r["cfstruct"]) >= self._max_queues():
                raise ConfigError("structure %s already holds %d queues" % (r["cfstruct"], self._max_queues()),
                                  "queues", r["name"])
            self._add_queue(r)
        self.clock = 0
        self.seq = 0
        self.correl = 0
        self.log = []     # (qmgr, struct, queue, "put"/"get", msg-seq, snapshot)
        self.signals = []

    def _max_queues(self):
        return MAX_QUEUES_PER_STRUCT - 1 if self.f("TOP-511-QUEUES") else MAX_QUEUES_PER_STRUCT

    def admin_min_kb(self, n):
        if self.admin_table == "cfcc9":
            for k in sorted(ADMIN_TABLE_CFCC9):
                if k >= n:
                    return ADMIN_TABLE_CFCC9[k]
            return ADMIN_TABLE_CFCC9[31] + 1024 * (n - 31)
        if self.f("SIZ-ADMIN-ROW-SHIFT"):
            n = max(1, n - 1)
        if self.f("SIZ-ADMIN-3QM-TYPO") and n == 3:
            return 7936
        if 1 <= n <= len(ADMIN_TABLE_CFCC14):
            return ADMIN_TABLE_CFCC14[n - 1]
        # beyond Table 1 (32 queue managers): about 866 KB per queue manager, rounded up to 256 KB
        est = 5298 + 866 * n
        return ((est + 255) // 256) * 256

    # ........................................................ validation
    def _norm_struct(self, rec):
        """Return (record-with-defaults, None) or (None, why)."""
        if not isinstance(rec, dict):
            return None, "not an object"
        for k in rec:
            if k not in STRUCT_FIELDS:
                return None, "unknown field %r" % k
        r = dict(STRUCT_FIELDS)
        r.update(rec)
        return self._check_struct(r)

    def _check_struct(self, r):
        name = r["name"]
        maxlen = 11 if self.f("TOP-NAME-11") else 12
        if not isinstance(name, str) or not (1 <= len(name) <= maxlen) or not NAME_RE.match(name):
            return None, "name must be 1-12 characters A-Z0-9 starting with a letter"
        if name == "CSQ_ADMIN" or name == "CSQADMIN":
            return None, "the administration structure cannot hold messages"
        for k in ("size_kb", "ratio", "cflevel", "fullthreshold", "ovflw_size_kb",
                  "offld1th", "offld2th", "offld3th", "offld1sz", "offld2sz", "offld3sz"):
            if not _isint(r[k]):
                return None, "%s must be an integer" % k
        if r["size_kb"] <= 0 or r["ratio"] <= 0 or r["ovflw_size_kb"] <= 0:
            return None, "sizes and ratio must be positive"
        if r["initsize_kb"] is not None and (not _isint(r["initsize_kb"]) or not 0 < r["initsize_kb"] <= r["size_kb"]):
            return None, "initsize_kb must lie in 1..size_kb"
        if not 0 <= r["fullthreshold"] <= 100:
            return None, "fullthreshold must be 0..100"
        if not 1 <= r["cflevel"] <= 5:
            return None, "cflevel must be 1..5"
        if not isinstance(r["recover"], bool) or not isinstance(r["resource"], bool):
            return None, "recover/resource must be booleans"
        if r["recover"] and r["cflevel"] < 3:
            return None, "RECOVER(YES) needs CFLEVEL(3) or higher"
        if r["offload"] is not None:
            if r["offload"] not in ("SMDS", "DB2"):
                return None, "offload must be SMDS or DB2"
            if r["cflevel"] < 5 and not self.f("CF-OFFLOAD-KW-LOWCF"):
                return None, "OFFLOAD is only valid from CFLEVEL(5)"
        for n in (1, 2, 3):
            th, sz = r["offld%dth" % n], r["offld%dsz" % n]
            if not 0 <= th <= 100:
                return None, "offld%dth must be 0..100" % n
            if not 0 <= sz <= RULE_OFF or sz % 1024:
                return None, "offld%dsz must be 0K..64K" % n
        ov = r["ovflwmax"]
        if ov is not None and (not _isint(ov) or not 0 <= ov <= 100):
            return None, "ovflwmax must be 0..100"
        if r["ovflwstr"] is not None:
            if not isinstance(r["ovflwstr"], str) or not r["ovflwstr"] or len(r["ovflwstr"]) > 16:
                return None, "ovflwstr must be a structure name"
            if r["ovflwstr"] == name:
                return None, "ovflwstr must differ from the primary structure"
            if r["resource"]:
                return None, "structure overflow is not supported for resource structures"
        return r, None

    def _struct_limit_reason(self, r):
        if r["name"] in self.structs:
            return "structure %s is already defined" % r["name"]
        names = list(self.structs) + [r["name"]]
        if self.f("TOP-SYSAPPL-UNCOUNTED"):
            names = [n for n in names if n != "CSQSYSAPPL"]
        if len(names) > MAX_APP_STRUCTS:
            return "a queue-sharing group can use at most 63 application structures (62 with CSQSYSAPPL)"
        return None

    def _add_struct(self, r):
        self.structs[r["name"]] = Struct(r)
        self.struct_order.append(r["name"])

    def _norm_queue(self, rec):
        if not isinstance(rec, dict):
            return None, "not an object"
        for k in rec:
            if k not in QUEUE_FIELDS:
                return None, "unknown field %r" % k
        r = dict(QUEUE_FIELDS)
        r.update(rec)
        if self.profile == "cqs" and r["cfstruct"] is None:
            prim = [n for n in self.struct_order if not self.structs[n].resource]
            if prim:
                r["cfstruct"] = prim[0]
        return self._check_queue(r)

    def _check_queue(self, r):
        name = r["name"]
        if not isinstance(name, str) or not 1 <= len(name) <= 48:
            return None, "name must be 1-48 characters"
        if name in self.queues:
            return None, "queue %s is already defined" % name
        for k in ("maxdepth", "maxmsgl", "qdepthhi", "qdepthlo"):
            if not _isint(r[k]):
                return None, "%s must be an integer" % k
        for k in ("qdphiev", "qdploev", "qdpmaxev"):
            if not isinstance(r[k], bool):
                return None, "%s must be a boolean" % k
        if not 0 <= r["maxdepth"] <= 999999999:
            return None, "maxdepth must be 0..999999999"
        if not 0 <= r["maxmsgl"] <= MQ_MAXMSGL:
            return None, "maxmsgl must be 0..104857600"
        if not 0 <= r["qdepthhi"] <= 100 or not 0 <= r["qdepthlo"] <= 100:
            return None, "qdepthhi/qdepthlo must be 0..100"
        if r["cfstruct"] is None:
            if self.profile == "cqs":
                return None, "a CQS queue needs a structure"
            if r["qmgr"] not in self.qmgrs:
                return None, "a nonshared queue needs an owning queue manager"
        else:
            if r["cfstruct"] not in self.structs:
                return None, "structure %r is not defined" % (r["cfstruct"],)
            if r["qmgr"] is not None and r["qmgr"] not in self.qmgrs:
                return None, "unknown queue manager %r" % (r["qmgr"],)
        return r, None

    def _queue_count(self, sname):
        return sum(1 for q in self.queues.values() if q.cfstruct == sname)

    def _add_queue(self, r):
        q = Queue(r)
        q.stats = {qm: [0, 0] for qm in self.qmgr_order}
        self.queues[r["name"]] = q
        self.queue_order.append(r["name"])

    # ......................................................... accounting
    def capacity(self, kb, ratio):
        usable = max(0, kb - self.acc["fixed_kb"]) * 1024
        ent = usable // (self.acc["entry_bytes"] + ratio * self.acc["element_bytes"])
        return ent, ent * ratio

    def s_cap(self, s):
        return self.capacity(s.cur_kb, s.ratio)

    def ov_cap(self, s):
        return self.capacity(s.ovflw_size_kb, s.ratio)

    def data_elements(self, length):
        return max(1, int(math.ceil(self.acc["overhead"] * (length + self.acc["header_bytes"])
                                    / self.acc["element_bytes"] - 1e-9)))

    def usage(self, s):
        et, lt = self.s_cap(s)
        return [s.ent_used, et, s.el_used, lt]

    def _fits(self, s, ent, el, overflow=False):
        if overflow:
            et, lt = self.ov_cap(s)
            eu, lu = s.ov_ent_used, s.ov_el_used
        else:
            et, lt = self.s_cap(s)
            eu, lu = s.ent_used, s.el_used
        ent_ok = eu + ent <= et
        el_ok = lu + el <= lt
        if self.f("CAP-ENTRIES-IGNORED"):
            return el_ok
        return ent_ok and el_ok

    # ................................................................ ops
    OPS = {
        "define_structure": ({"structure": dict}, {}),
        "alter_structure": ({"name": str, "changes": dict}, {}),
        "define_queue": ({"queue": dict}, {}),
        "alter_queue": ({"name": str, "changes": dict}, {}),
        "put": ({"qmgr": str, "queue": str, "length": int},
                {"persistent": (bool, False), "syncpoint": (bool, False), "tag": (int, 0)}),
        "get": ({"qmgr": str, "queue": str}, {"syncpoint": (bool, False)}),
        "commit": ({"qmgr": str}, {}),
        "backout": ({"qmgr": str}, {}),
        "set_perfmev": ({"qmgr": str, "enabled": bool}, {}),
        "reset_qstats": ({"qmgr": str, "queue": str}, {}),
        "start_qmgr": ({"qmgr": str}, {}),
        "stop_qmgr": ({"qmgr": str}, {}),
        "backup": ({"qmgr": str, "cfstruct": str}, {}),
        "fail_structure": ({"cfstruct": str}, {}),
        "recover": ({"cfstruct": str}, {"purge": (bool, False)}),
        "setxcf_alter": ({"cfstruct": str, "size_kb": int}, {}),
        "alter_outcome": ({"cfstruct": str, "success": bool}, {"size_kb": ("intnull", None)}),
        "set_overflow_exit": ({}, {"vetoes": ("listnull", None)}),
        "advance_clock": ({"seconds": int}, {}),
        "inspect": ({}, {}),
    }
    MQ_ONLY = {"commit", "backout", "set_perfmev", "reset_qstats", "start_qmgr", "stop_qmgr",
               "backup", "fail_structure", "recover"}
    CQS_ONLY = {"alter_outcome", "set_overflow_exit"}

    @staticmethod
    def _typeok(v, t):
        if t is int:
            return _isint(v)
        if t is bool:
            return isinstance(v, bool)
        if t == "intnull":
            return v is None or _isint(v)
        if t == "listnull":
            return v is None or (isinstance(v, list) and all(isinstance(x, str) for x in v))
        return isinstance(v, t)

    def _parse(self, op):
        if not isinstance(op, dict):
            raise OpError(11, "operation is not an object")
        kind = op.get("op")
        if not isinstance(kind, str):
            raise OpError(11, "operation has no string 'op'")
        if kind not in self.OPS:
            raise OpError(11, "unknown operation kind %r" % kind)
        req, opt = self.OPS[kind]
        a = {}
        for k, v in op.items():
            if k == "op":
                continue
            if k in req:
                if not self._typeok(v, req[k]):
                    raise OpError(11, "%s: field %r has the wrong type" % (kind, k))
            elif k in opt:
                if not self._typeok(v, opt[k][0]):
                    raise OpError(11, "%s: field %r has the wrong type" % (kind, k))
            else:
                raise OpError(11, "%s: unknown field %r" % (kind, k))
            a[k] = v
        for k in req:
            if k not in a:
                raise OpError(11, "%s: missing field %r" % (kind, k))
        for k, (t, d) in opt.items():
            a.setdefault(k, d)
        return kind, a

    def apply(self, op):
        kind, a = self._parse(op)
        if self.profile == "mq" and kind in self.CQS_ONLY:
            raise OpError(14, "%s is a cqs operation; the configuration is mq" % kind,
                          {"field": "op", "value": kind, "allowed": "an mq operation", "rule_id": "PROFILE"})
        if self.profile == "cqs" and kind in self.MQ_ONLY:
            raise OpError(14, "%s is an mq operation; the configuration is cqs" % kind,
                          {"field": "op", "value": kind, "allowed": "a cqs operation", "rule_id": "PROFILE"})
        self.signals = []
        oc = getattr(self, "op_" + kind)(a)
        self._check_full_signals()
        if self.signals:
            oc["signals"] = list(self.signals)
        return oc

    # helpers for references
    def _qm(self, name):
        if name not in self.qmgrs:
            raise _bad_op("qmgr", name, "one of %r" % self.qmgr_order, "TOPOLOGY-006")
        return self.qmgrs[name]

    def _queue(self, name):
        if name not in self.queues:
            raise _bad_op("queue", name, "one of %r" % self.queue_order, "TOPOLOGY-013")
        return self.queues[name]

    def _struct(self, name):
        if name not in self.structs:
            raise _bad_op("cfstruct", name, "one of %r" % self.struct_order, "TOPOLOGY-012")
        return self.structs[name]

    @staticmethod
    def _fail(kind, reason, **kw):
        oc = {"kind": kind, "ok": False, "reason": reason}
        oc.update(kw)
        return oc

    # ...................................................... full signals
    def _is_full(self, s):
        ft = s.fullthreshold
        if ft == 0 and not self.f("CAP-FT0-ON"):
            return False
        if s.status != "ACTIVE":
            return False
        et, lt = self.s_cap(s)
        if self.f("CAP-IXC-STRICT"):
            return (et > 0 and s.ent_used * 100 > ft * et) or (lt > 0 and s.el_used * 100 > ft * lt)
        return (et > 0 and s.ent_used * 100 >= ft * et) or (lt > 0 and s.el_used * 100 >= ft * lt)

    def _check_full_signals(self):
        for n in self.struct_order:
            s = self.structs[n]
            now = self._is_full(s)
            if now and not s.full_warning:
                self.signals.append("IXC585E %s" % n)
                s.full_warning = True
            elif not now and s.full_warning:
                if not self.f("CAP-NO-IXC586I"):
                    self.signals.append("IXC586I %s" % n)
                s.full_warning = False

    # ................................................. define / alter ops
    def op_define_structure(self, a):
        r, why = self._norm_struct(a["structure"])
        if r is None:
            return self._fail("define_structure", "INVALID")
        lim = self._struct_limit_reason(r)
        if lim:
            reason = "INVALID" if r["name"] in self.structs else "NOT_ALLOWED"
            return self._fail("define_structure", reason)
        self._add_struct(r)
        return {"kind": "define_structure", "ok": True}

    def op_alter_structure(self, a):
        s = self._struct(a["name"])
        ch = a["changes"]
        if self.profile == "mq" and self.f("OFF-ALTER-RESETS"):
            base = {k: getattr(s, k) for k in STRUCT_FIELDS}
            for n in (1, 2, 3):
                for suf in ("th", "sz"):
                    base["offld%d%s" % (n, suf)] = STRUCT_FIELDS["offld%d%s" % (n, suf)]
        else:
            base = {k: getattr(s, k) for k in STRUCT_FIELDS}
        for k, v in ch.items():
            if k not in STRUCT_FIELDS or k == "name":
                return self._fail("alter_structure", "INVALID")
            base[k] = v
        if _isint(ch.get("cflevel")) and ch["cflevel"] < 5 and "offload" not in ch:
            base["offload"] = None   # OFFLOAD has no meaning below CFLEVEL(5)
        r, why = self._check_struct(base)
        if r is None:
            return self._fail("alter_structure", "INVALID")
        if _isint(ch.get("cflevel")) and r["cflevel"] < s.cflevel:
            guarded = s.cflevel in (3, 4) or (s.cflevel == 5 and READINGS["cflevel5_decrease"] == "guarded")
            if self.f("CF-DECREASE-UNGUARDED"):
                guarded = False
            if guarded:
                for q in self.queues.values():
                    if q.cfstruct == s.name and q.msgs:
                        return self._fail("alter_structure", "NOT_ALLOWED")
        for k in STRUCT_FIELDS:
            setattr(s, k, r[k])
        if s.cur_kb > s.size_kb:
            s.cur_kb = s.size_kb
        return {"kind": "alter_structure", "ok": True}

    def op_define_queue(self, a):
        r, why = self._norm_queue(a["queue"])
        if r is None:
            return self._fail("define_queue", "INVALID")
        if r["cfstruct"] is not None and self._queue_count(r["cfstruct"]) >= self._max_queues():
            return self._fail("define_queue", "NOT_ALLOWED")
        self._add_queue(r)
        return {"kind": "define_queue", "ok": True}

    def op_alter_queue(self, a):
        q = self._queue(a["name"])
        allowed = ("maxdepth", "maxmsgl", "qdepthhi", "qdepthlo", "qdphiev", "qdploev", "qdpmaxev")
        rec = {k: getattr(q, k) for k in QUEUE_FIELDS}
        for k, v in a["changes"].items():
            if k not in allowed:
                return self._fail("alter_queue", "INVALID")
            rec[k] = v
        saved = self.queues.pop(q.name)
        try:
            r, why = self._check_queue(rec)
        finally:
            self.queues[q.name] = saved
        if r is None:
            return self._fail("alter_queue", "INVALID")
        for k in allowed:
            setattr(q, k, r[k])
        return {"kind": "alter_queue", "ok": True}

    # ............................................................ MQ put
    def _depth(self, q):
        return sum(1 for m in q.msgs if m.get_uow is None)

    def _offload_pct_over(self, s, th):
        """Is the structure 'more than th% full' (reading: max of entry% and element%, strict)?"""
        et, lt = self.s_cap(s)
        num = []
        if et > 0:
            num.append((s.ent_used, et))
        if lt > 0:
            num.append((s.el_used, lt))
        if not num:
            return True
        # max(entries%, elements%) > th  <=>  any(used*100 > th*total)
        if self.f("OFF-TH-INCLUSIVE"):
            return any(u * 100 >= th * t for u, t in num)
        return any(u * 100 > th * t for u, t in num)

    def _offload_decision(self, s, length):
        """Return (offloaded, location)."""
        forced_limit = CF_LIMIT_6375 if self.f("OFF-FORCED-6375") else CF_LIMIT
        target = "DB2"
        if s.cflevel >= 5:
            target = s.offload if s.offload is not None else ("DB2" if self.f("OFF-DEFAULT-DB2") else "SMDS")
            if self.f("OFF-DB2-AS-SMDS"):
                target = "SMDS"
        if length > forced_limit:
            return True, target
        if s.cflevel < 5 and not self.f("OFF-RULES-AT-CF4"):
            return False, "CF"
        for n in (1, 2, 3):
            th, sz = getattr(s, "offld%dth" % n), getattr(s, "offld%dsz" % n)
            if n == 3 and self.f("OFF-RULE3-IGNORED"):
                continue
            if sz == RULE_OFF:
                if not self.f("OFF-64K-AS-SIZE"):
                    continue
                size_match = True   # fault: 64K read as "no size limit"
            else:
                size_match = length >= sz if self.f("OFF-SZ-INCLUSIVE") else length > sz
            if not size_match:
                continue
            if self.f("OFF-RULE-SIZE-ONLY") or self._offload_pct_over(s, th):
                return True, target
        return False, "CF"

    def _msg_cost(self, length, offloaded):
        if offloaded:
            if self.f("OFF-FULL-STORAGE"):
                return 1, self.data_elements(min(length, CF_LIMIT))
            return 1, self.acc["offloaded_elements"]
        return 1, self.data_elements(length)

    def _inactive(self, kind):
        return self._fail(kind, "NOT_ACTIVE")

    def op_put(self, a):
        qmn = a["qmgr"]
        qm = self._qm(qmn)
        q = self._queue(a["queue"])
        length = a["length"]
        if length < 0:
            raise _bad_op("length", length, ">= 0", "QUEUE-001")
        if self.profile == "cqs":
            return self._cqs_put(q, a)
        if q.cfstruct is None and q.qmgr != qmn:
            raise _bad_op("queue", q.name, "a shared queue or a nonshared queue of %s" % qmn, "TOPOLOGY-013")
        if not qm["active"]:
            return self._inactive("put")
        s = self.structs[q.cfstruct] if q.cfstruct is not None else None
        if s is not None and s.status == "FAILED":
            return self._fail("put", 2192 if self.f("REC-FAILED-RC") else 2373)
        maxl = min(q.maxmsgl, MQ_MAXMSGL)
        if (length >= maxl if self.f("Q-MAXMSGL-INCLUSIVE") else length > maxl):
            return self._fail("put", 2030)
        if s is not None:
            if a["persistent"]:
                if s.cflevel <= 2:
                    return self._fail("put", 2048)
                if self.f("CF-PERS-NEEDS-4") and s.cflevel < 4:
                    return self._fail("put", 2048)
                if not s.recover and not self.f("CF-RECOVERNO-PERSIST-OK"):
                    return self._fail("put", 2048)
            big = length >= CF_LIMIT if self.f("CF-LARGE-BOUNDARY") else length > CF_LIMIT
            if big and s.cflevel < 4 and not self.f("CF-LARGE-CF3-OK"):
                return self._fail("put", 2366)
        depth = self._depth(q)
        full = depth + 1 >= q.maxdepth if self.f("Q-FULL-OFFBY1") else depth >= q.maxdepth
        if full:
            oc = self._fail("put", 2053)
            ev = self._event(q, "QFULL", qmn)
            if ev:
                oc["events"] = ev
            return oc
        if s is not None:
            off, loc = self._offload_decision(s, length)
            ent, el = self._msg_cost(length, off)
            if not self._fits(s, ent, el):
                return self._fail("put", 2053 if self.f("CAP-WRONG-RC") else 2192, usage=self.usage(s))
        self.seq += 1
        m = Msg(self.seq, a["tag"], length, a["persistent"])
        m.putter = qmn
        if s is not None:
            m.offloaded, m.location, m.ent, m.el = off, loc, ent, el
            s.ent_used += ent
            s.el_used += el
        q.msgs.append(m)
        if a["syncpoint"]:
            m.put_uow = qmn
            qm["uow"].append(("put", q.name, m))
        else:
            self._log_put(qmn, q, m)
        q.stats[qmn][0] += 1
        oc = {"kind": "put", "ok": True}
        if s is not None:
            oc["offloaded"] = off
            oc["location"] = loc
            oc["usage"] = self.usage(s)
        ev = self._check_hi(q, qmn)
        if ev:
            oc["events"] = ev
        return oc

    # ............................................................ MQ get
    def op_get(self, a):
        qmn = a["qmgr"]
        qm = self._qm(qmn)
        q = self._queue(a["queue"])
        if self.profile == "cqs":
            return self._cqs_get(q, a)
        if q.cfstruct is None and q.qmgr != qmn:
            raise _bad_op("queue", q.name, "a shared queue or a nonshared queue of %s" % qmn, "TOPOLOGY-013")
        if not qm["active"]:
            return self._inactive("get")
        s = self.structs[q.cfstruct] if q.cfstruct is not None else None
        if s is not None and s.status == "FAILED":
            return self._fail("get", 2192 if self.f("REC-FAILED-RC") else 2373)
        m = None
        for x in q.msgs:
            if x.get_uow is None and (x.put_uow is None or self.f("Q-UNCOMMITTED-VISIBLE")):
                m = x
                break
        if m is None:
            oc = self._fail("get", 2033)
            if s is not None:
                oc["usage"] = self.usage(s)
            return oc
        if a["syncpoint"]:
            m.get_uow = qmn
            qm["uow"].append(("get", q.name, m))
        else:
            self._remove_msg(q, m)
            self._log_get(qmn, q, m)
        q.stats[qmn][1] += 1
        oc = {"kind": "get", "ok": True, "tag": m.tag}
        if s is not None:
            oc["usage"] = self.usage(s)
        ev = self._check_lo(q, qmn)
        if ev:
            oc["events"] = ev
        return oc

    def _remove_msg(self, q, m):
        q.msgs.remove(m)
        if q.cfstruct is not None and self.profile == "mq":
            s = self.structs[q.cfstruct]
            s.ent_used -= m.ent
            s.el_used -= m.el

    # ............................................................ logging
    def _log_put(self, qmn, q, m):
        if q.cfstruct is not None and m.persistent:
            self.log.append((qmn, q.cfstruct, q.name, "put", m.seq,
                             (m.seq, m.tag, m.length, m.persistent, m.offloaded, m.location, m.putter)))

    def _log_get(self, qmn, q, m):
        if q.cfstruct is not None and m.persistent:
            self.log.append((qmn, q.cfstruct, q.name, "get", m.seq, None))

    # ........................................................ units of work
    def op_commit(self, a):
        qmn = a["qmgr"]
        qm = self._qm(qmn)
        if not qm["active"]:
            return self._inactive("commit")
        self._end_uow(qmn, commit=True)
        return {"kind": "commit", "ok": True}

    def op_backout(self, a):
        qmn = a["qmgr"]
        qm = self._qm(qmn)
        if not qm["active"]:
            return self._inactive("backout")
        self._end_uow(qmn, commit=False)
        return {"kind": "backout", "ok": True}

    def _end_uow(self, qmn, commit):
        qm = self.qmgrs[qmn]
        for act, qname, m in qm["uow"]:
            q = self.queues[qname]
            if m not in q.msgs:
                continue  # lost with a failed structure
            if act == "put":
                if commit:
                    m.put_uow = None
                    self._log_put(qmn, q, m)
                else:
                    self._remove_msg(q, m)
            else:
                if commit:
                    self._remove_msg(q, m)
                    self._log_get(qmn, q, m)
                else:
                    m.get_uow = None
        qm["uow"] = []

    # ....................................................... queue managers
    def op_set_perfmev(self, a):
        qm = self._qm(a["qmgr"])
        if not qm["active"]:
            return self._inactive("set_perfmev")
        qm["perfmev"] = a["enabled"]
        return {"kind": "set_perfmev", "ok": True}

    def op_reset_qstats(self, a):
        qmn = a["qmgr"]
        qm = self._qm(qmn)
        q = self._queue(a["queue"])
        if not qm["active"]:
            return self._inactive("reset_qstats")
        if self.f("QD-RESET-ALL-QMGRS"):
            for k in q.stats:
                q.stats[k] = [0, 0]
        else:
            q.stats[qmn] = [0, 0]
        return {"kind": "reset_qstats", "ok": True}

    def op_start_qmgr(self, a):
        qm = self._qm(a["qmgr"])
        qm["active"] = True
        return {"kind": "start_qmgr", "ok": True}

    def op_stop_qmgr(self, a):
        qmn = a["qmgr"]
        qm = self._qm(qmn)
        if not qm["active"]:
            return self._inactive("stop_qmgr")
        self._end_uow(qmn, commit=self.f("Q-STOP-COMMITS"))
        qm["active"] = False
        for q in self.queues.values():
            if q.cfstruct is None and q.qmgr == qmn and READINGS["nonshared_at_stop"] == "lost":
                q.msgs = [m for m in q.msgs if m.persistent]
            if q.cfstruct is not None and self.f("Q-NP-LOST-AT-STOP"):
                for m in [m for m in q.msgs if not m.persistent and m.putter == qmn]:
                    self._remove_msg(q, m)
            if READINGS["qstats_at_stop"] == "reset":
                q.stats[qmn] = [0, 0]
        return {"kind": "stop_qmgr", "ok": True}

    # ............................................................ events
    def _hi_reached(self, q, depth):
        if self.f("QD-HI-STRICT"):
            return depth * 100 > q.qdepthhi * q.maxdepth
        return depth * 100 >= q.qdepthhi * q.maxdepth

    def _lo_reached(self, q, depth):
        if self.f("QD-LO-STRICT"):
            return depth * 100 < q.qdepthlo * q.maxdepth
        return depth * 100 <= q.qdepthlo * q.maxdepth

    def _check_hi(self, q, qmn):
        if q.qdphiev and self._hi_reached(q, self._depth(q)):
            return self._event(q, "QDPHI", qmn)
        return []

    def _check_lo(self, q, qmn):
        if q.qdploev and self._lo_reached(q, self._depth(q)):
            return self._event(q, "QDPLO", qmn)
        return []

    def _toggle(self, q, kind):
        if kind == "QDPHI":
            q.qdphiev = False
            q.qdploev = True
            if not self.f("QD-HI-NO-QFULL-ENABLE"):
                q.qdpmaxev = True
        elif kind == "QDPLO":
            q.qdploev = False
            q.qdphiev = True
            q.qdpmaxev = True
        else:
            q.qdpmaxev = False
            q.qdploev = True
            if READINGS["qfull_hi_flag"] == "disabled":
                q.qdphiev = False

    def _message(self, q, kind, qmn, correl):
        st = q.stats[qmn]
        ev = {"qmgr": qmn, "kind": kind, "queue": q.name, "correl": correl, "enq": st[0], "deq": st[1]}
        if not self.f("QD-STATS-NORESET"):
            q.stats[qmn] = [0, 0]
        return ev

    def _event(self, q, kind, qmn):
        """A queue depth event detected by qmn.  Returns the event messages."""
        if kind == "QFULL" and (not q.qdpmaxev or self.f("QD-FULL-NO-EVENT")):
            return []
        if q.cfstruct is None:
            # nonshared: nothing happens (not even the toggle) while PERFMEV is DISABLED
            if not self.qmgrs[qmn]["perfmev"]:
                if self.f("QD-NONSHARED-TOGGLE"):
                    self._toggle(q, kind)
                return []
            self._toggle(q, kind)
            return [self._message(q, kind, qmn, 0)]
        # shared queue: the detecting queue manager toggles the shared definition
        coord = qmn
        if self.f("QD-FIRST-QMGR-COORD"):
            coord = next(n for n in self.qmgr_order if self.qmgrs[n]["active"])
        if self.f("QD-SHARED-NEEDS-PERFMEV") and not self.qmgrs[coord]["perfmev"]:
            return []
        self._toggle(q, kind)
        out = []
        if not self.qmgrs[coord]["perfmev"]:
            if READINGS["event_broadcast"] == "if-coordinator-enabled":
                return out
        self.correl += 1
        correl = self.correl
        if self.qmgrs[coord]["perfmev"]:
            out.append(self._message(q, kind, coord, correl))
        for n in self.qmgr_order:
            if n == coord:
                continue
            st = self.qmgrs[n]
            if (st["active"] or self.f("QD-BROADCAST-INACTIVE")) and st["perfmev"]:
                if self.f("QD-NEW-CORREL"):
                    self.correl += 1
                    out.append(self._message(q, kind, n, self.correl))
                else:
                    out.append(self._message(q, kind, n, correl))
        return out

    # ........................................................... recovery
    def op_backup(self, a):
        qmn = a["qmgr"]
        qm = self._qm(qmn)
        s = self._struct(a["cfstruct"])
        if not qm["active"]:
            return self._inactive("backup")
        if s.cflevel < 3 or (not s.recover and not self.f("REC-BACKUP-RECOVERNO")):
            return self._fail("backup", "NOT_ALLOWED")
        if s.status == "FAILED":
            return self._fail("backup", "NOT_ALLOWED")
        snap = {}
        for qn in self.queue_order:
            q = self.queues[qn]
            if q.cfstruct != s.name:
                continue
            keep = [m for m in q.msgs if m.put_uow is None and
                    (m.persistent or self.f("REC-NONPERSISTENT"))]
            snap[qn] = [(m.seq, m.tag, m.length, m.persistent, m.offloaded, m.location, m.putter)
                        for m in keep]
        s.backup = {"by": qmn, "log_pos": len(self.log), "snap": snap}
        return {"kind": "backup", "ok": True}

    def op_fail_structure(self, a):
        s = self._struct(a["cfstruct"])
        if s.status == "FAILED":
            return {"kind": "fail_structure", "ok": True}
        s.status = "FAILED"
        for q in self.queues.values():
            if q.cfstruct == s.name:
                if self.f("REC-NP-SURVIVE-FAIL"):
                    q.lost_np = [m for m in q.msgs if not m.persistent and m.put_uow is None]
                q.msgs = []
        for qm in self.qmgrs.values():
            qm["uow"] = [u for u in qm["uow"] if self.queues[u[1]].cfstruct != s.name]
        s.ent_used = s.el_used = 0
        return {"kind": "fail_structure", "ok": True}

    def op_recover(self, a):
        s = self._struct(a["cfstruct"])
        if s.cflevel < 3 or not s.recover:
            return self._fail("recover", "NOT_ALLOWED")
        if s.status != "FAILED":
            if a["purge"] and READINGS["recover_purge_nonfailed"] == "accepted":
                pass
            elif not self.f("REC-NOT-FAILED-OK"):
                return self._fail("recover", "NOT_FAILED")
        if a["purge"]:
            for q in self.queues.values():
                if q.cfstruct == s.name:
                    q.msgs = []
            # a later replay from an older backup must not bring back what the purge discarded
            # (ibm-facts 5.2: the contents equal the persistent messages at the failure point)
            self.log.append((None, s.name, None, "purge", None, None))
            s.ent_used = s.el_used = 0
            s.status = "ACTIVE"
            return {"kind": "recover", "ok": True}
        if s.backup is None:
            return self._fail("recover", "NO_BACKUP")
        contents = {qn: {t[0]: t for t in lst} for qn, lst in s.backup["snap"].items()}
        start = 0 if self.f("REC-DOUBLE-REPLAY") else s.backup["log_pos"]
        dup = 0
        for (qmn, sn, qn, act, seq, snapm) in self.log[start:]:
            if sn != s.name:
                continue
            if self.f("REC-ONE-LOG") and qmn != s.backup["by"]:
                continue
            if act == "purge":
                contents = {}
                continue
            d = contents.setdefault(qn, {})
            if act == "put":
                if self.f("REC-DOUBLE-REPLAY") and seq in d:
                    dup += 1
                    d[-dup] = snapm   # replayed a second time
                else:
                    d[seq] = snapm
            else:
                d.pop(seq, None)
        # rebuild
        for q in self.queues.values():
            if q.cfstruct == s.name:
                q.msgs = []
        s.ent_used = s.el_used = 0
        for qn, d in contents.items():
            if qn not in self.queues:
                continue
            q = self.queues[qn]
            for key in sorted(d, key=lambda k: (d[k][0], k)):
                t = d[key]
                m = Msg(t[0], t[1], t[2], t[3])
                m.offloaded, m.location, m.putter = t[4], t[5], t[6]
                m.ent, m.el = self._msg_cost(m.length, m.offloaded)
                q.msgs.append(m)
                s.ent_used += m.ent
                s.el_used += m.el
            if self.f("REC-NP-SURVIVE-FAIL"):
                for m in getattr(q, "lost_np", []):
                    q.msgs.append(m)
                    s.ent_used += m.ent
                    s.el_used += m.el
                q.msgs.sort(key=lambda m: m.seq)
        s.status = "ACTIVE"
        return {"kind": "recover", "ok": True}

    # .......................................................... SETXCF
    def op_setxcf_alter(self, a):
        s = self._struct(a["cfstruct"])
        new = a["size_kb"]
        if s.status == "FAILED":
            return self._fail("setxcf_alter", "NOT_ALLOWED")
        if new <= 0:
            return self._fail("setxcf_alter", "OUT_OF_RANGE")
        if new > s.size_kb and not self.f("SIZ-ALTER-ABOVE-SIZE"):
            return self._fail("setxcf_alter", "OUT_OF_RANGE")
        if new == s.size_kb and READINGS["alter_at_size"] == "rejected":
            return self._fail("setxcf_alter", "OUT_OF_RANGE")
        init = s.initsize_kb if s.initsize_kb is not None else s.size_kb
        if new < init and READINGS["alter_below_initsize"] == "rejected":
            return self._fail("setxcf_alter", "OUT_OF_RANGE")
        if new <= s.cur_kb and READINGS["alter_not_larger"] == "rejected":
            return self._fail("setxcf_alter", "OUT_OF_RANGE")
        et, lt = self.capacity(new, s.ratio)
        if s.ent_used > et or s.el_used > lt:
            return self._fail("setxcf_alter", "OUT_OF_RANGE")
        s.cur_kb = new
        oc = {"kind": "setxcf_alter", "ok": True, "usage": self.usage(s)}
        if self.profile == "cqs":
            self._cqs_maybe_exit_nostr(s)
        return oc

    # ............................................................... CQS
    def _ovflwmax(self, s):
        if s.ovflwmax is not None:
            return s.ovflwmax
        return 80 if self.f("CQS-DEFAULT-80") else DEFAULT_OVFLWMAX

    def _target(self, s):
        if self.f("CQS-TARGET-10"):
            return max(0, self._ovflwmax(s) - 10)
        return max(0, self._ovflwmax(s) - 20)

    def _el_pct_reached(self, s, pct):
        lt = self.s_cap(s)[1]
        if self.f("CQS-STRICT-THRESHOLD"):
            return lt > 0 and s.el_used * 100 > pct * lt
        return lt > 0 and s.el_used * 100 >= pct * lt

    def _at_or_below_target(self, s, el_used):
        lt = self.s_cap(s)[1]
        return el_used * 100 <= self._target(s) * lt

    def _parts(self, length):
        """CQS: a message longer than the long message record (LGMSGSZ) is put in parts of at
        most LGMSGSZ bytes; the first on the ready queue, the others on the staging queue."""
        L = self.lgmsgsz
        if length > L:
            rest, left = [], length - L
            while left > 0:
                rest.append(min(L, left))
                left -= L
            return L, rest
        if self.f("CQS-LGMSG-OFFBY1") and length == L:
            return L, [0]
        return length, []

    def _cqs_put(self, q, a):
        s = self.structs[q.cfstruct]
        first, rest = self._parts(a["length"])
        fe = (1, self.data_elements(first))
        parts = [(1, self.data_elements(p)) for p in rest]
        to_ovfl = False
        if q.overflow:
            if s.ovflwstr is None and not self.f("CQS-NOSTR-ACCEPTS"):
                return self._fail("put", "REJECTED_OVERFLOW", usage=self.usage(s))
            to_ovfl = s.ovflwstr is not None
        pe = sum(p[0] for p in parts)
        pl = sum(p[1] for p in parts)
        if to_ovfl:
            if not self._fits(s, fe[0], fe[1], overflow=True) or not self._fits(s, pe, pl):
                return self._fail("put", "STRUCTURE_FULL", usage=self.usage(s))
        elif not self._fits(s, fe[0] + pe, fe[1] + pl):
            return self._fail("put", "STRUCTURE_FULL", usage=self.usage(s))
        self.seq += 1
        m = Msg(self.seq, a["tag"], a["length"], a["persistent"])
        m.ent, m.el = fe
        m.parts = parts
        m.on_ovfl = to_ovfl
        if to_ovfl:
            s.ov_ent_used += fe[0]
            s.ov_el_used += fe[1]
        else:
            s.ent_used += fe[0]
            s.el_used += fe[1]
        s.ent_used += pe
        s.el_used += pl
        s.staging += len(parts)
        q.msgs.append(m)
        oc = {"kind": "put", "ok": True}
        self._cqs_threshold(s)
        oc["usage"] = self.usage(s)
        return oc

    def _cqs_threshold(self, s):
        if s.resource and not self.f("CQS-RESOURCE-OVERFLOW"):
            return
        if not self._el_pct_reached(s, self._ovflwmax(s)):
            return
        if s.overflow_mode:
            if READINGS["cqs_reselect"] == "select":
                self._cqs_select(s)
            return
        if s.alter_pending:
            return
        if self.f("CQS-NO-ALTER"):
            self._cqs_enter_overflow(s)
            return
        s.alter_pending = True
        self.signals.append("ALTER %s" % s.name)

    def _cqs_get(self, q, a):
        s = self.structs[q.cfstruct]
        if not q.msgs:
            return self._fail("get", "NO_MSG", usage=self.usage(s))
        m = q.msgs.pop(0)
        if m.on_ovfl:
            s.ov_ent_used -= m.ent
            s.ov_el_used -= m.el
        else:
            s.ent_used -= m.ent
            s.el_used -= m.el
        for pe, pl in m.parts:
            s.ent_used -= pe
            s.el_used -= pl
        s.staging -= len(m.parts)
        self._cqs_maybe_exit_nostr(s)
        return {"kind": "get", "ok": True, "tag": m.tag, "usage": self.usage(s)}

    def op_alter_outcome(self, a):
        s = self._struct(a["cfstruct"])
        if not s.alter_pending:
            return self._fail("alter_outcome", "NO_ALTER_PENDING")
        if a["success"]:
            new = a["size_kb"] if a["size_kb"] is not None else s.size_kb
            if new <= 0 or new > s.size_kb:
                return self._fail("alter_outcome", "OUT_OF_RANGE")
            s.cur_kb = new
            s.alter_pending = False
            if self.f("CQS-OVERFLOW-AFTER-SUCCESS"):
                self._cqs_enter_overflow(s)
            return {"kind": "alter_outcome", "ok": True, "usage": self.usage(s)}
        s.alter_pending = False
        self._cqs_enter_overflow(s)
        return {"kind": "alter_outcome", "ok": True, "usage": self.usage(s)}

    def _queue_space(self, q):
        return sum(m.el for m in q.msgs if not m.on_ovfl)

    def _cqs_enter_overflow(self, s):
        s.overflow_mode = True
        self.signals.append("OVERFLOW_ON %s" % s.name)
        if s.ovflwstr is not None:
            s.next_scan = self.clock + self._scan_period()
        self._cqs_select(s)
        if s.ovflwstr is None:
            self._cqs_maybe_exit_nostr(s)
        elif not s.overflow_queues and READINGS["cqs_empty_overflow"] == "ends":
            self._cqs_exit(s)

    def _cqs_select(self, s):
        cands = [self.queues[n] for n in self.queue_order
                 if self.queues[n].cfstruct == s.name and not self.queues[n].overflow]
        cands = [q for q in cands if self._queue_space(q) > 0]
        order = {n: i for i, n in enumerate(self.queue_order)}
        if self.f("CQS-SELECT-LEAST"):
            cands.sort(key=lambda q: (self._queue_space(q), order[q.name]))
        else:
            cands.sort(key=lambda q: (-self._queue_space(q), order[q.name]))
        projected = s.el_used
        for q in cands:
            if self._at_or_below_target(s, projected):
                break
            vetoed = self.exit_vetoes is not None and q.name in self.exit_vetoes
            if vetoed and not self.f("CQS-EXIT-IGNORED"):
                if self.f("CQS-VETO-NO-REPLACE"):
                    break
                continue
            space = self._queue_space(q)
            if s.ovflwstr is not None:
                ent = sum(m.ent for m in q.msgs if not m.on_ovfl)
                if not self._fits(s, ent, space, overflow=True):
                    continue
                for m in q.msgs:
                    if not m.on_ovfl:
                        m.on_ovfl = True
                        s.ent_used -= m.ent
                        s.el_used -= m.el
                        s.ov_ent_used += m.ent
                        s.ov_el_used += m.el
                        if self.f("CQS-STAGING-MOVED"):
                            for pe, pl in m.parts:
                                s.ent_used -= pe
                                s.el_used -= pl
                                s.ov_ent_used += pe
                                s.ov_el_used += pl
                            s.staging -= len(m.parts)
                            m.parts = []
            q.overflow = True
            s.overflow_queues.append(q.name)
            self.signals.append("OVERFLOW_QUEUE %s %s" % (s.name, q.name))
            projected -= space

    def _cqs_exit(self, s):
        for n in s.overflow_queues:
            self.queues[n].overflow = False
        s.overflow_queues = []
        s.overflow_mode = False
        s.next_scan = None
        self.signals.append("OVERFLOW_OFF %s" % s.name)

    def _cqs_maybe_exit_nostr(self, s):
        if s.overflow_mode and s.ovflwstr is None and not self.f("CQS-NOSTR-NEVER-ENDS"):
            if self._at_or_below_target(s, s.el_used):
                self._cqs_exit(s)

    def _cqs_scan(self, s):
        for n in list(s.overflow_queues):
            q = self.queues[n]
            if not q.msgs:
                q.overflow = False
                s.overflow_queues.remove(n)
                self.signals.append("OVERFLOW_QUEUE_OFF %s %s" % (s.name, n))
        if not s.overflow_queues and not self.f("CQS-ALL-REMOVED-STAYS"):
            self._cqs_exit(s)

    def op_set_overflow_exit(self, a):
        self.exit_vetoes = None if a["vetoes"] is None else list(a["vetoes"])
        return {"kind": "set_overflow_exit", "ok": True}

    def _scan_period(self):
        return 600 if self.f("CQS-SCAN-10MIN") else SCAN_SECONDS

    def op_advance_clock(self, a):
        sec = a["seconds"]
        if sec < 0:
            raise _bad_op("seconds", sec, ">= 0", "CQS-CLOCK")
        end = self.clock + sec
        period = self._scan_period()
        while True:
            due = [(self.structs[n].next_scan, n) for n in self.struct_order
                   if self.structs[n].next_scan is not None and self.structs[n].next_scan <= end]
            if not due:
                break
            t, n = min(due)
            self.clock = t
            s = self.structs[n]
            s.next_scan = t + period
            self._cqs_scan(s)
        self.clock = end
        return {"kind": "advance_clock", "ok": True}

    # ........................................................... inspect
    def cfname(self, n):
        if self.f("TOP-CFNAME-NOPAD"):
            return self.qsg + n
        return (self.qsg + "@@@@")[:4] + n

    def op_inspect(self, a):
        structs = {}
        for n in sorted(self.struct_order):
            s = self.structs[n]
            et, lt = self.s_cap(s)
            size = s.size_kb if self.f("SIZ-ALLOC-AT-SIZE") else s.cur_kb
            if self.f("SIZ-ALLOC-AT-SIZE"):
                et, lt = self.capacity(s.size_kb, s.ratio)
            d = {"status": s.status, "size_kb": size, "entries_used": s.ent_used, "entries_total": et,
                 "elements_used": s.el_used, "elements_total": lt, "full_warning": s.full_warning}
            if self.profile == "cqs":
                d.update({"alter_pending": s.alter_pending, "overflow_mode": s.overflow_mode,
                          "overflow_queues": sorted(s.overflow_queues), "staging_depth": s.staging})
            else:
                d["cfname"] = self.cfname(n)
            structs[n] = dict(sorted(d.items()))
        queues = {}
        for n in sorted(self.queue_order):
            q = self.queues[n]
            if self.profile == "cqs":
                queues[n] = {"depth": len(q.msgs), "overflow": q.overflow}
            else:
                queues[n] = {"depth": self._depth(q), "qdphiev": q.qdphiev, "qdploev": q.qdploev,
                             "qdpmaxev": q.qdpmaxev}
        qmgrs = {n: {"active": self.qmgrs[n]["active"], "perfmev": self.qmgrs[n]["perfmev"]}
                 for n in sorted(self.qmgr_order)}
        value = {"clock": self.clock, "qmgrs": qmgrs, "queues": queues, "structures": structs}
        if self.profile == "mq":
            nq = len(self.qmgr_order)
            if self.f("SIZ-ADMIN-ACTIVE-QMGRS"):
                nq = max(1, sum(1 for x in self.qmgrs.values() if x["active"]))
            size = self.admin_size_kb if self.admin_size_kb is not None else self.admin_min_kb(nq)
            value["admin"] = {"entries_total": self.admin_entries(size), "size_kb": size}
        return {"kind": "inspect", "ok": True, "value": dict(sorted(value.items()))}

    @staticmethod
    def admin_entries(size_kb):
        # our accounting for CSQ_ADMIN: 5120 KB of control storage, then 768 bytes per list entry
        return max(0, (size_kb - 5120) * 1024 // 768)
