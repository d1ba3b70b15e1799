#!/usr/bin/env python3
"""fourth-reading: an independent implementation of IBM coupling-facility
shared-queue behaviour (IBM MQ for z/OS shared queues, profile "mq"; IMS CQS
structures, profile "cqs"), speaking the cfconform wire protocol 1.2 on
stdin/stdout.

Written only from IBM's five seed texts, the notes in ibm-facts.md and the
wire contract (PROTOCOL.md + schemas).  Standard library only.

    python3 impl.py                 the faithful build
    python3 impl.py --fault NAME    a deliberately wrong build (see faults.json)
    python3 impl.py --list-faults   the fault names, one a line

Every decision where the documents leave room is listed in README.md.
"""
import json
import sys
from collections import OrderedDict

PROTOCOL_VERSION = "1.2"
IMPL_NAME = "fourth-reading"
IMPL_MAX_LINE = 1048576          # our own line limit (announced in init_ok)

# ----------------------------------------------------------------------------
# Storage accounting (our own design; see README "Storage accounting")
# ----------------------------------------------------------------------------
ELEMENT_BYTES = 512              # one data element
ENTRY_BYTES = 256                # one list entry (control + adjunct, holds the MQMD)
RATIO_UNIT = 256                 # `ratio` is counted in XES 256-byte element units
CONTROL_KB_CAP = 2048            # structure control area: min(2048 KB, size/4)
OFFLOADED_ELEMENTS = 1           # an offloaded message: 1 entry + 1 element = 0.75 KB

# ----------------------------------------------------------------------------
# Documented constants
# ----------------------------------------------------------------------------
LARGE_MSG = 63 * 1024            # 64 512 bytes: "larger than 63 KB must always be offloaded"
MAX_MSG = 100 * 1024 * 1024      # 104 857 600: "up to 100 MB"
RULE_OFF_SZ = 64 * 1024          # OFFLDnSZ(64K): "the rule is not in effect"
LGMSGSZ_MAX = 30632
SCAN_INTERVAL = 15 * 60          # "The queues are scanned every 15 minutes."
MONITOR_INTERVAL = 60            # z/OS structure full monitoring poll (our belief)
CQS_DEFAULT_OVFLWMAX = 70        # "The default overflow threshold is 70%"
CQS_TARGET_DROP = 20             # "20% below the overflow threshold" (percentage points)
OVFL_FULLTHRESHOLD = 80          # z/OS default FULLTHRESHOLD, used for overflow structures
MQ_MAX_APP_STRUCTS = 63          # 64 structures per QSG, one of them CSQ_ADMIN
MQ_MAX_QUEUES_PER_STRUCT = 512
MQ_MAX_QMGRS = 32

# Table 1, "Minimum administrative structure sizes" (CFCC level 14), KB by QM count.
ADMIN_TABLE_CFCC14 = [None, 6144, 6912, 7976, 8704, 9728, 10496, 11520, 12288, 13056,
                      14080, 14848, 15616, 16640, 17408, 18176, 19200, 19968, 20736,
                      21760, 22528, 23296, 24320, 25088, 25856, 27136, 27904, 28672,
                      29696, 30464, 31232, 32256]
# MQ V6 (CFCC level 9) edition: only these rows are known (ibm-facts 6.2).
ADMIN_TABLE_V6_KNOWN = {1: 2560, 2: 3328, 4: 4608, 8: 7680, 16: 13568, 31: 24832}
ADMIN_CONTROL_KB = {"cfcc14": 5120, "v6": 1536}
ADMIN_ENTRY_BYTES = 768

FAULT = None

# Fault names -> family (the descriptions and scenarios are in faults.json).
FAULT_FAMILIES = OrderedDict([
    ("cqs-threshold-strict", "CQS"),
    ("cqs-default-ovflwmax-80", "CQS"),
    ("cqs-alter-skipped", "CQS"),
    ("cqs-target-forgets-20", "CQS"),
    ("cqs-select-least-space", "CQS"),
    ("cqs-exit-veto-ignored", "CQS"),
    ("cqs-no-ovflwstr-accepts-puts", "CQS"),
    ("cqs-staging-moved", "CQS"),
    ("cqs-no-staging-queue", "CQS"),
    ("cqs-scan-immediate", "CQS"),
    ("cqs-overflow-never-ends", "CQS"),
    ("cqs-no-ovflwstr-exit-at-threshold", "CQS"),
    ("cqs-resource-overflow", "CQS"),
    ("offload-default-db2", "OFFLOAD"),
    ("offload-size-only", "OFFLOAD"),
    ("offload-threshold-only", "OFFLOAD"),
    ("offload-0k-rule-off", "OFFLOAD"),
    ("offload-forced-at-64000", "OFFLOAD"),
    ("offload-cflevel4-rules", "OFFLOAD"),
    ("offload-define-below-5-accepted", "OFFLOAD"),
    ("offload-full-cost", "OFFLOAD"),
    ("offload-alter-resets-unspecified", "OFFLOAD"),
    ("offload-default-offld1sz-64k", "OFFLOAD"),
    ("cflevel-recover-no-persistent-ok", "CFLEVEL"),
    ("cflevel-recover-yes-level2-accepted", "CFLEVEL"),
    ("cflevel-large-limit-64k", "CFLEVEL"),
    ("cflevel-4-rejects-large", "CFLEVEL"),
    ("cflevel-large-rc-2030", "CFLEVEL"),
    ("cflevel-decrease-unguarded", "CFLEVEL"),
    ("capacity-full-rc-2053", "CAPACITY"),
    ("capacity-qfull-off-by-one", "CAPACITY"),
    ("capacity-entries-ignored", "CAPACITY"),
    ("capacity-cqs-full-ignored", "CAPACITY"),
    ("topo-512-off-by-one", "TOPOLOGY"),
    ("topo-64-structures", "TOPOLOGY"),
    ("topo-sysappl-counted-twice", "TOPOLOGY"),
    ("topo-31-qmgrs", "TOPOLOGY"),
    ("topo-name-16", "TOPOLOGY"),
    ("topo-cfname-no-padding", "TOPOLOGY"),
    ("topo-admin-unchecked", "TOPOLOGY"),
    ("sizing-initsize-ignored", "SIZING"),
    ("sizing-alter-over-size", "SIZING"),
    ("sizing-alter-no-effect", "SIZING"),
    ("sizing-fullthreshold-default-85", "SIZING"),
    ("sizing-ixc585e-strict", "SIZING"),
    ("sizing-ixc-elements-only", "SIZING"),
    ("sizing-ixc586i-missing", "SIZING"),
    ("sizing-fullthreshold-0-warns", "SIZING"),
    ("qdepth-hi-strict", "QDEPTH"),
    ("qdepth-lo-strict", "QDEPTH"),
    ("qdepth-hi-no-max-toggle", "QDEPTH"),
    ("qdepth-hi-stays-enabled", "QDEPTH"),
    ("qdepth-shared-needs-perfmev", "QDEPTH"),
    ("qdepth-nonshared-ignores-perfmev", "QDEPTH"),
    ("qdepth-no-broadcast", "QDEPTH"),
    ("qdepth-disabled-qmgr-issues", "QDEPTH"),
    ("qdepth-inactive-qmgr-issues", "QDEPTH"),
    ("qdepth-correl-per-qmgr", "QDEPTH"),
    ("qdepth-stats-not-reset", "QDEPTH"),
    ("qdepth-reset-qstats-ignored", "QDEPTH"),
    ("qdepth-backout-restores-flags", "QDEPTH"),
    ("qdepth-qfull-no-event", "QDEPTH"),
    ("rec-nonpersistent-recovered", "RECOVERY"),
    ("rec-no-log-replay", "RECOVERY"),
    ("rec-backup-recover-no", "RECOVERY"),
    ("rec-recover-not-failed", "RECOVERY"),
    ("rec-purge-keeps", "RECOVERY"),
    ("rec-no-backup-needed", "RECOVERY"),
    ("rec-failed-rc-2192", "RECOVERY"),
    ("queue-lifo", "QUEUE"),
    ("queue-uncommitted-visible", "QUEUE"),
    ("queue-backout-get-deletes", "QUEUE"),
    ("queue-stop-commits", "QUEUE"),
    ("queue-shared-np-lost-at-stop", "QUEUE"),
])


def F(name):
    """True when the running build carries fault `name`."""
    return FAULT == name


# ----------------------------------------------------------------------------
# Errors
# ----------------------------------------------------------------------------
DEFINITE = {10: True, 11: True, 12: False, 13: True, 14: True, 15: True,
            16: True, 17: True, 18: False, 19: True, 20: False}


class WireError(Exception):
    """A protocol error reply (code from the registry)."""

    def __init__(self, code, text, detail=None):
        super().__init__(text)
        self.code = code
        self.text = text
        self.detail = detail

    def as_obj(self):
        d = {"code": self.code, "text": self.text, "definite": DEFINITE.get(self.code, True)}
        if self.detail is not None:
            d["detail"] = self.detail
        return d


def err14(field, value, allowed, text=None):
    return WireError(14, text or "%s=%r is invalid: allowed %s" % (field, value, allowed),
                     {"field": field, "value": value, "allowed": allowed})


def err13(field, value, allowed, text=None):
    return WireError(13, text or "config %s=%r is invalid: allowed %s" % (field, value, allowed),
                     {"field": field, "value": value, "allowed": allowed})


class Refusal(Exception):
    """A definition problem: becomes an outcome (define/alter) or error 13 (config)."""

    def __init__(self, reason, field, value, allowed):
        super().__init__("%s=%r: %s" % (field, value, allowed))
        self.reason = reason
        self.field = field
        self.value = value
        self.allowed = allowed


# ----------------------------------------------------------------------------
# Record specifications (config.json / op.json)
# ----------------------------------------------------------------------------
REQ = object()


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_strlist(v):
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


TYPES = {
    "str": lambda v: isinstance(v, str),
    "int": _is_int,
    "bool": lambda v: isinstance(v, bool),
    "obj": lambda v: isinstance(v, dict),
    "list": lambda v: isinstance(v, list),
    "str?": lambda v: v is None or isinstance(v, str),
    "int?": lambda v: v is None or _is_int(v),
    "strlist": _is_strlist,
    "strlist?": lambda v: v is None or _is_strlist(v),
}


def struct_spec():
    return OrderedDict([
        ("name", ("str", REQ)),
        ("size_kb", ("int", 8192)),
        ("initsize_kb", ("int?", None)),
        ("fullthreshold", ("int", 85 if F("sizing-fullthreshold-default-85") else 80)),
        ("ratio", ("int", 6)),
        ("cflevel", ("int", 3)),
        ("recover", ("bool", False)),
        ("offload", ("str?", None)),
        ("offld1th", ("int", 70)),
        ("offld1sz", ("int", RULE_OFF_SZ if F("offload-default-offld1sz-64k") else 32768)),
        ("offld2th", ("int", 80)),
        ("offld2sz", ("int", 4096)),
        ("offld3th", ("int", 90)),
        ("offld3sz", ("int", 0)),
        ("ovflwmax", ("int?", None)),
        ("ovflwstr", ("str?", None)),
        ("ovflw_size_kb", ("int", 8192)),
        ("resource", ("bool", False)),
    ])


QUEUE_SPEC = OrderedDict([
    ("name", ("str", REQ)),
    ("cfstruct", ("str?", None)),
    ("qmgr", ("str?", None)),
    ("maxdepth", ("int", 999999999)),
    ("maxmsgl", ("int", 4194304)),
    ("qdepthhi", ("int", 80)),
    ("qdepthlo", ("int", 20)),
    ("qdphiev", ("bool", False)),
    ("qdploev", ("bool", False)),
    ("qdpmaxev", ("bool", False)),
])

CONFIG_SPEC = OrderedDict([
    ("profile", ("str", "mq")),
    ("qsg", ("str", "QSG1")),
    ("qmgrs", ("strlist", ["QM01", "QM02", "QM03"])),
    ("structures", ("list", None)),          # default filled below
    ("queues", ("list", [])),
    ("readings", ("obj", {})),
    ("accounting", ("obj", {})),
    ("lgmsgsz", ("int", 4096)),
    ("overflow_exit", ("strlist?", None)),
    ("perfmev_disabled", ("strlist", [])),
    ("admin_size_kb", ("int?", None)),
    ("admin_table", ("str", "cfcc14")),
])


class RecordError(Exception):
    def __init__(self, field, value, allowed):
        super().__init__("%s=%r: %s" % (field, value, allowed))
        self.field = field
        self.value = value
        self.allowed = allowed


def fill_record(rec, spec, where=""):
    """Check field names and types of a record and fill in defaults."""
    if not isinstance(rec, dict):
        raise RecordError(where or "record", rec, "an object")
    for k in rec:
        if k not in spec:
            raise RecordError(where + k, rec[k], "a known field (one of %s)" % list(spec))
    out = OrderedDict()
    for k, (t, default) in spec.items():
        if k in rec:
            v = rec[k]
            if not TYPES[t](v):
                raise RecordError(where + k, v, "type %s" % t)
            out[k] = v
        else:
            if default is REQ:
                raise RecordError(where + k, None, "required")
            out[k] = json.loads(json.dumps(default))
    return out


OP_SPECS = {
    "define_structure": OrderedDict([("structure", ("obj", REQ))]),
    "alter_structure": OrderedDict([("name", ("str", REQ)), ("changes", ("obj", REQ))]),
    "define_queue": OrderedDict([("queue", ("obj", REQ))]),
    "alter_queue": OrderedDict([("name", ("str", REQ)), ("changes", ("obj", REQ))]),
    "put": OrderedDict([("qmgr", ("str", REQ)), ("queue", ("str", REQ)), ("length", ("int", REQ)),
                        ("persistent", ("bool", False)), ("syncpoint", ("bool", False)),
                        ("tag", ("int", 0))]),
    "get": OrderedDict([("qmgr", ("str", REQ)), ("queue", ("str", REQ)),
                        ("syncpoint", ("bool", False))]),
    "commit": OrderedDict([("qmgr", ("str", REQ))]),
    "backout": OrderedDict([("qmgr", ("str", REQ))]),
    "set_perfmev": OrderedDict([("qmgr", ("str", REQ)), ("enabled", ("bool", REQ))]),
    "reset_qstats": OrderedDict([("qmgr", ("str", REQ)), ("queue", ("str", REQ))]),
    "start_qmgr": OrderedDict([("qmgr", ("str", REQ))]),
    "stop_qmgr": OrderedDict([("qmgr", ("str", REQ))]),
    "backup": OrderedDict([("qmgr", ("str", REQ)), ("cfstruct", ("str", REQ))]),
    "fail_structure": OrderedDict([("cfstruct", ("str", REQ))]),
    "recover": OrderedDict([("cfstruct", ("str", REQ)), ("purge", ("bool", False))]),
    "setxcf_alter": OrderedDict([("cfstruct", ("str", REQ)), ("size_kb", ("int", REQ))]),
    "alter_outcome": OrderedDict([("cfstruct", ("str", REQ)), ("success", ("bool", REQ)),
                                  ("size_kb", ("int?", None))]),
    "set_overflow_exit": OrderedDict([("vetoes", ("strlist?", None))]),
    "advance_clock": OrderedDict([("seconds", ("int", REQ))]),
    "inspect": OrderedDict(),
}

MQ_OPS = set(OP_SPECS) - {"alter_outcome", "set_overflow_exit"}
CQS_OPS = {"define_structure", "alter_structure", "define_queue", "alter_queue", "put", "get",
           "setxcf_alter", "alter_outcome", "set_overflow_exit", "advance_clock", "inspect"}


def parse_op(op):
    if not isinstance(op, dict):
        raise WireError(11, "operation is not an object")
    kind = op.get("op")
    if not isinstance(kind, str):
        raise WireError(11, "operation has no string 'op' field")
    if kind not in OP_SPECS:
        raise WireError(11, 'unknown operation kind "%s"' % kind)
    body = {k: v for k, v in op.items() if k != "op"}
    try:
        filled = fill_record(body, OP_SPECS[kind])
    except RecordError as e:
        raise WireError(11, "operation %s: field %s=%r: %s" % (kind, e.field, e.value, e.allowed))
    filled["op"] = kind
    return filled


# ----------------------------------------------------------------------------
# Storage pools
# ----------------------------------------------------------------------------
def pool_totals(size_kb, ratio):
    """(entries_total, elements_total) of a structure of size_kb with `ratio`."""
    if size_kb <= 0:
        return 0, 0
    control = min(CONTROL_KB_CAP, size_kb // 4)
    usable = (size_kb - control) * 1024
    slot = ENTRY_BYTES + ratio * RATIO_UNIT
    entries = usable // slot
    elements = (usable - entries * ENTRY_BYTES) // ELEMENT_BYTES
    return entries, elements


def elements_for(nbytes):
    return max(1, -(-nbytes // ELEMENT_BYTES))


class Pool:
    """One coupling-facility list structure's entry and element pools."""

    def __init__(self, name, size_kb, ratio, fullthreshold):
        self.name = name
        self.ratio = ratio
        self.fullthreshold = fullthreshold
        self.ent_used = 0
        self.el_used = 0
        self.warned = False
        self.resize(size_kb)

    def resize(self, size_kb):
        self.size_kb = size_kb
        self.ent_total, self.el_total = pool_totals(size_kb, self.ratio)

    def fits(self, ent, el):
        el_ok = self.el_used + el <= self.el_total
        if F("capacity-entries-ignored"):
            return el_ok
        return el_ok and self.ent_used + ent <= self.ent_total

    def add(self, ent, el):
        self.ent_used += ent
        self.el_used += el

    def sub(self, ent, el):
        self.ent_used = max(0, self.ent_used - ent)
        self.el_used = max(0, self.el_used - el)

    def usage(self):
        return [self.ent_used, self.ent_total, self.el_used, self.el_total]

    def over_pct(self, pct, strict):
        """max(entries%, elements%) compared with pct (> when strict, else >=)."""
        def cmp(used, total):
            if total <= 0:
                return False
            return used * 100 > pct * total if strict else used * 100 >= pct * total
        return cmp(self.ent_used, self.ent_total) or cmp(self.el_used, self.el_total)


# ----------------------------------------------------------------------------
# Model objects
# ----------------------------------------------------------------------------
class Msg:
    __slots__ = ("seq", "tag", "length", "persistent", "committed", "locked", "location",
                 "ent", "el", "where", "st_parts", "st_el", "st_where", "by")

    def clone(self):
        m = Msg()
        for k in Msg.__slots__:
            setattr(m, k, getattr(self, k))
        return m


class Queue:
    def __init__(self, rec):
        self.name = rec["name"]
        self.struct = rec["cfstruct"]
        self.owner = rec["qmgr"] if rec["cfstruct"] is None else None
        self.maxdepth = rec["maxdepth"]
        self.maxmsgl = rec["maxmsgl"]
        self.hi = rec["qdepthhi"]
        self.lo = rec["qdepthlo"]
        self.hiev = rec["qdphiev"]
        self.loev = rec["qdploev"]
        self.maxev = rec["qdpmaxev"]
        self.msgs = OrderedDict()     # seq -> Msg, in put order
        self.depth = 0                # CURDEPTH
        self.overflow = False         # CQS: queue in overflow mode
        self.p_el = 0                 # CQS: elements of ready-queue entries on the primary
        self.stats = {}               # qmgr -> [enq, deq]


class QMgr:
    def __init__(self, name, perfmev):
        self.name = name
        self.active = True
        self.perfmev = perfmev
        self.uow = []                 # [("put"|"get"|"flags", queue, payload)]


class Structure:
    def __init__(self, rec, profile):
        self.rec = OrderedDict(rec)
        self.name = rec["name"]
        self.profile = profile
        self.max_kb = rec["size_kb"]
        init = rec["initsize_kb"]
        alloc = self.max_kb if (init is None or F("sizing-initsize-ignored")) else init
        self.pool = Pool(self.name, alloc, rec["ratio"], rec["fullthreshold"])
        self.status = "ACTIVE"
        self.queues = []
        self.apply_attrs(rec)
        # recovery
        self.backup_exists = False
        self.backup_image = []
        self.failure_image = []
        # CQS
        self.overflow_mode = False
        self.overflow_queues = set()
        self.ovfl = None
        self.staging_depth = 0

    def apply_attrs(self, rec):
        self.rec = OrderedDict(rec)
        self.cflevel = rec["cflevel"]
        self.recover = rec["recover"]
        off = rec["offload"]
        if self.cflevel >= 5 and off is None:
            off = "DB2" if F("offload-default-db2") else "SMDS"
        self.offload = off if self.cflevel >= 5 else None
        self.rules = [(rec["offld1th"], rec["offld1sz"]), (rec["offld2th"], rec["offld2sz"]),
                      (rec["offld3th"], rec["offld3sz"])]
        ov = rec["ovflwmax"]
        if ov is None:
            ov = 80 if F("cqs-default-ovflwmax-80") else CQS_DEFAULT_OVFLWMAX
        self.ovflwmax = ov
        self.ovflwstr = rec["ovflwstr"]
        self.ovflw_size_kb = rec["ovflw_size_kb"]
        self.resource = rec["resource"]


# ----------------------------------------------------------------------------
# Validation of definitions
# ----------------------------------------------------------------------------
def mq_name_ok(name):
    limit = 16 if F("topo-name-16") else 12
    if not (1 <= len(name) <= limit):
        return False
    if not ("A" <= name[0] <= "Z"):
        return False
    return all(("A" <= c <= "Z") or ("0" <= c <= "9") for c in name)


def check_structure(rec, profile):
    """Raise Refusal when a (filled) structure record is not a valid definition."""
    name = rec["name"]
    if profile == "mq":
        if not mq_name_ok(name):
            raise Refusal("INVALID", "name", name,
                          "1-12 characters, A-Z then A-Z/0-9 (CSQ_ADMIN cannot be specified)")
    elif not name:
        raise Refusal("INVALID", "name", name, "a non-empty name")
    if rec["size_kb"] <= 0:
        raise Refusal("INVALID", "size_kb", rec["size_kb"], "> 0")
    init = rec["initsize_kb"]
    if init is not None and not (0 < init <= rec["size_kb"]):
        raise Refusal("INVALID", "initsize_kb", init, "1..SIZE")
    if not (0 <= rec["fullthreshold"] <= 100):
        raise Refusal("INVALID", "fullthreshold", rec["fullthreshold"], "0..100")
    if rec["ratio"] < 0:
        raise Refusal("INVALID", "ratio", rec["ratio"], ">= 0")
    if profile == "mq":
        lvl = rec["cflevel"]
        if not (1 <= lvl <= 5):
            raise Refusal("INVALID", "cflevel", lvl, "1..5")
        if rec["recover"] and lvl < 3 and not F("cflevel-recover-yes-level2-accepted"):
            raise Refusal("INVALID", "recover", True, "RECOVER(YES) needs CFLEVEL(3) or higher")
        off = rec["offload"]
        if off is not None:
            if off not in ("SMDS", "DB2"):
                raise Refusal("INVALID", "offload", off, "SMDS or DB2")
            if lvl < 5 and not F("offload-define-below-5-accepted"):
                raise Refusal("INVALID", "offload", off, "OFFLOAD is only valid from CFLEVEL(5)")
        for n in (1, 2, 3):
            th, sz = rec["offld%dth" % n], rec["offld%dsz" % n]
            if not (0 <= th <= 100):
                raise Refusal("INVALID", "offld%dth" % n, th, "0..100")
            if not (0 <= sz <= RULE_OFF_SZ):
                raise Refusal("INVALID", "offld%dsz" % n, sz, "0..65536 bytes (0K..64K)")
    else:
        ov = rec["ovflwmax"]
        if ov is not None and not (0 <= ov <= 100):
            raise Refusal("INVALID", "ovflwmax", ov, "0..100")
        if rec["ovflwstr"] is not None:
            if rec["resource"]:
                raise Refusal("INVALID", "ovflwstr", rec["ovflwstr"],
                              "structure overflow is not supported for resource structures")
            if rec["ovflwstr"] == "" or rec["ovflwstr"] == name:
                raise Refusal("INVALID", "ovflwstr", rec["ovflwstr"], "a name other than the primary's")
            if rec["ovflw_size_kb"] <= 0:
                raise Refusal("INVALID", "ovflw_size_kb", rec["ovflw_size_kb"], "> 0")


def check_queue_fields(rec, profile):
    if not rec["name"]:
        raise Refusal("INVALID", "name", rec["name"], "a non-empty name")
    if not (0 <= rec["maxdepth"] <= 999999999):
        raise Refusal("INVALID", "maxdepth", rec["maxdepth"], "0..999999999")
    if not (0 <= rec["maxmsgl"] <= MAX_MSG):
        raise Refusal("INVALID", "maxmsgl", rec["maxmsgl"], "0..104857600")
    for k in ("qdepthhi", "qdepthlo"):
        if not (0 <= rec[k] <= 100):
            raise Refusal("INVALID", k, rec[k], "0..100")
    if rec["cfstruct"] is None:
        if profile == "cqs":
            raise Refusal("INVALID", "cfstruct", None, "a CQS queue lives on a structure")
        if rec["qmgr"] is None:
            raise Refusal("INVALID", "qmgr", None, "a nonshared queue needs its owning qmgr")


def admin_min_kb(table, n):
    n = max(1, n)
    if table == "cfcc14":
        if n <= 31:
            return ADMIN_TABLE_CFCC14[n]
        return ADMIN_TABLE_CFCC14[31] + 768 * (n - 31)
    known = sorted(ADMIN_TABLE_V6_KNOWN.items())
    if n in ADMIN_TABLE_V6_KNOWN:
        return ADMIN_TABLE_V6_KNOWN[n]
    for (a, ka), (b, kb) in zip(known, known[1:]):
        if a < n < b:
            v = ka + (kb - ka) * (n - a) / (b - a)
            return int(-(-v // 256) * 256)
    return known[-1][1] + 768 * (n - known[-1][0])


def admin_entries(table, size_kb):
    return max(0, (size_kb - ADMIN_CONTROL_KB[table]) * 1024 // ADMIN_ENTRY_BYTES)


ADMIN_TABLE_NAMES = {"cfcc14": "cfcc14", "cfcc9": "v6", "v6": "v6", "mqv6": "v6"}


# ----------------------------------------------------------------------------
# The engine
# ----------------------------------------------------------------------------
def outcome(kind, ok, **kw):
    o = OrderedDict([("kind", kind), ("ok", ok)])
    for k, v in kw.items():
        if v is None:
            continue
        if isinstance(v, list) and not v and k in ("events", "signals", "rules"):
            continue
        o[k] = v
    return o


class Engine:
    def __init__(self, config):
        try:
            cfg = fill_record(config, CONFIG_SPEC)
        except RecordError as e:
            raise err13(e.field, e.value, e.allowed)
        prof = cfg["profile"]
        if prof not in ("mq", "cqs"):
            raise WireError(10, "profile %r is not implemented (mq, cqs)" % prof,
                            {"field": "profile", "value": prof, "allowed": "mq or cqs"})
        self.profile = prof
        self.qsg = cfg["qsg"]
        self.clock = 0
        self.seq = 0
        self.correl = 0
        self.signals = []
        self.events = []
        # queue managers / CQS clients
        names = cfg["qmgrs"]
        if len(set(names)) != len(names) or any(not n for n in names):
            raise err13("qmgrs", names, "distinct non-empty names")
        if prof == "mq":
            if not (1 <= len(self.qsg) <= 4):
                raise err13("qsg", self.qsg, "1 to 4 characters")
            if self.qsg in names:
                raise err13("qsg", self.qsg, "a name different from every queue manager name")
            limit = 31 if F("topo-31-qmgrs") else MQ_MAX_QMGRS
            if len(names) > limit:
                raise err13("qmgrs", len(names),
                            "at most %d queue managers connected to a structure" % limit)
        for n in cfg["perfmev_disabled"]:
            if n not in names:
                raise err13("perfmev_disabled", n, "one of %s" % names)
        self.qmgrs = OrderedDict((n, QMgr(n, n not in cfg["perfmev_disabled"])) for n in names)
        # CQS parameters
        lg = cfg["lgmsgsz"]
        if lg <= 0:
            raise err13("lgmsgsz", lg, "a positive number of bytes")
        lg = -(-lg // 4) * 4
        self.lgmsgsz = min(lg, LGMSGSZ_MAX)
        self.exit_vetoes = None if cfg["overflow_exit"] is None else set(cfg["overflow_exit"])
        # admin structure (MQ)
        self.admin = None
        if prof == "mq":
            table = ADMIN_TABLE_NAMES.get(cfg["admin_table"])
            if table is None:
                raise err13("admin_table", cfg["admin_table"], "cfcc14 or v6")
            need = admin_min_kb(table, len(names))
            size = cfg["admin_size_kb"] if cfg["admin_size_kb"] is not None else need
            if not F("topo-admin-unchecked"):
                if size < need:
                    raise err13("admin_size_kb", size,
                                ">= %d KB (Table 1 minimum for %d queue managers)" % (need, len(names)))
                if admin_entries(table, size) < 1000 * len(names):
                    raise err13("admin_size_kb", size, "room for 1000 list entries per queue manager")
            self.admin = {"size_kb": size, "entries_total": admin_entries(table, size)}
        # structures
        self.structs = OrderedDict()
        srecs = cfg["structures"]
        if srecs is None:
            srecs = [{"name": "APP1"}]
        for i, sr in enumerate(srecs):
            where = "structures[%d]." % i
            try:
                rec = fill_record(sr, struct_spec(), where)
            except RecordError as e:
                raise err13(e.field, e.value, e.allowed)
            try:
                self.check_new_structure(rec)
            except Refusal as r:
                raise err13(where + r.field, r.value, r.allowed)
            self.structs[rec["name"]] = Structure(rec, prof)
        # queues
        self.queues = OrderedDict()
        for i, qr in enumerate(cfg["queues"]):
            where = "queues[%d]." % i
            try:
                rec = fill_record(qr, QUEUE_SPEC, where)
            except RecordError as e:
                raise err13(e.field, e.value, e.allowed)
            try:
                check_queue_fields(rec, prof)
                self.check_new_queue(rec)
            except Refusal as r:
                raise err13(where + r.field, r.value, r.allowed)
            except WireError as w:
                raise WireError(13, w.text, w.detail)
            self.add_queue(rec)

    # ---------------------------------------------------------------- helpers
    def check_new_structure(self, rec):
        check_structure(rec, self.profile)
        name = rec["name"]
        taken = set(self.structs) | {s.ovflwstr for s in self.structs.values() if s.ovflwstr}
        if name in taken:
            raise Refusal("INVALID", "name", name, "a structure name not already defined")
        if self.profile == "cqs" and rec["ovflwstr"] is not None and \
                (rec["ovflwstr"] in taken or rec["ovflwstr"] == name):
            raise Refusal("INVALID", "ovflwstr", rec["ovflwstr"], "a name not already in use")
        if self.profile == "mq":
            names = list(self.structs) + [name]
            limit = 64 if F("topo-64-structures") else MQ_MAX_APP_STRUCTS
            if F("topo-sysappl-counted-twice") and "CSQSYSAPPL" in names:
                limit = 62
            if len(names) > limit:
                raise Refusal("NOT_ALLOWED", "structures", len(names),
                              "at most %d application structures (64 including CSQ_ADMIN)" % limit)

    def check_new_queue(self, rec):
        name = rec["name"]
        if name in self.queues:
            raise Refusal("INVALID", "name", name, "a queue name not already defined")
        if rec["cfstruct"] is not None:
            if rec["cfstruct"] not in self.structs:
                raise err14("cfstruct", rec["cfstruct"], "one of %s" % list(self.structs))
            if self.profile == "mq":
                n = len(self.structs[rec["cfstruct"]].queues)
                limit = MQ_MAX_QUEUES_PER_STRUCT - (1 if F("topo-512-off-by-one") else 0)
                if n + 1 > limit:
                    raise Refusal("NOT_ALLOWED", "cfstruct", rec["cfstruct"],
                                  "a structure can hold up to 512 shared queues")
        elif self.profile == "mq" and rec["qmgr"] not in self.qmgrs:
            raise err14("qmgr", rec["qmgr"], "one of %s" % list(self.qmgrs))

    def add_queue(self, rec):
        q = Queue(rec)
        self.queues[q.name] = q
        if q.struct is not None:
            self.structs[q.struct].queues.append(q.name)

    def get_qmgr(self, name):
        if name not in self.qmgrs:
            raise err14("qmgr", name, "one of %s" % list(self.qmgrs))
        return self.qmgrs[name]

    def get_queue(self, name):
        if name not in self.queues:
            raise err14("queue", name, "one of %s" % list(self.queues))
        return self.queues[name]

    def get_struct(self, name, field="cfstruct"):
        if name not in self.structs:
            raise err14(field, name, "one of %s" % list(self.structs))
        return self.structs[name]

    def local_check(self, qm, q):
        if q.struct is None and q.owner != qm.name:
            raise err14("queue", q.name, "a queue defined on %s (nonshared %s belongs to %s)"
                        % (qm.name, q.name, q.owner))

    def next_seq(self):
        self.seq += 1
        return self.seq

    def stats(self, q, qmname):
        return q.stats.setdefault(qmname, [0, 0])

    def sig(self, *parts):
        self.signals.append(" ".join(parts))

    # ---------------------------------------------------------------- dispatch
    def apply(self, op):
        kind = op["op"]
        allowed = MQ_OPS if self.profile == "mq" else CQS_OPS
        if kind not in allowed:
            raise err14("op", kind, "an operation of the %s profile" % self.profile)
        self.signals = []
        self.events = []
        res = getattr(self, "op_" + kind)(op)
        if self.signals and "signals" not in res:
            res["signals"] = list(self.signals)
        if self.events and "events" not in res:
            res["events"] = list(self.events)
        return res

    def fail(self, kind, reason, **kw):
        return outcome(kind, False, reason=reason, **kw)

    # ------------------------------------------------------------ definitions
    def op_define_structure(self, op):
        try:
            rec = fill_record(op["structure"], struct_spec())
        except RecordError as e:
            return self.fail("define_structure", "INVALID")
        try:
            self.check_new_structure(rec)
        except Refusal as r:
            return self.fail("define_structure", r.reason)
        self.structs[rec["name"]] = Structure(rec, self.profile)
        return outcome("define_structure", True)

    def op_alter_structure(self, op):
        s = self.get_struct(op["name"], "name")
        changes = {}
        for k, v in op["changes"].items():
            changes[k.lower()] = v
        spec = struct_spec()
        if self.profile == "mq":
            allowed = {"cflevel", "recover", "offload", "offld1th", "offld1sz", "offld2th",
                       "offld2sz", "offld3th", "offld3sz"}
        else:
            allowed = {"ovflwmax", "ovflwstr"}
        for k, v in changes.items():
            if k not in allowed or not TYPES[spec[k][0]](v):
                return self.fail("alter_structure", "INVALID")
        new = OrderedDict(s.rec)
        if F("offload-alter-resets-unspecified"):
            for k in ("offld1th", "offld1sz", "offld2th", "offld2sz", "offld3th", "offld3sz"):
                new[k] = spec[k][1]
        new.update(changes)
        if self.profile == "mq":
            if "cflevel" in changes and new["cflevel"] < 5 and "offload" not in changes:
                new["offload"] = None
        try:
            check_structure(new, self.profile)
        except Refusal as r:
            return self.fail("alter_structure", r.reason)
        if self.profile == "mq":
            old = s.cflevel
            if new["cflevel"] < old and old >= 3 and not F("cflevel-decrease-unguarded"):
                if self.structure_busy(s):
                    return self.fail("alter_structure", "NOT_ALLOWED")
        else:
            if new["ovflwstr"] != s.ovflwstr:
                # "Adding one later requires a cold start of the structure and of all CQSs"
                return self.fail("alter_structure", "NOT_ALLOWED")
        s.apply_attrs(new)
        return outcome("alter_structure", True)

    def structure_busy(self, s):
        for qn in s.queues:
            if self.queues[qn].msgs:
                return True
        for qm in self.qmgrs.values():
            for item in qm.uow:
                if item[0] in ("put", "get") and item[1] in s.queues:
                    return True
        return False

    def op_define_queue(self, op):
        try:
            rec = fill_record(op["queue"], QUEUE_SPEC)
        except RecordError:
            return self.fail("define_queue", "INVALID")
        try:
            check_queue_fields(rec, self.profile)
            self.check_new_queue(rec)
        except Refusal as r:
            return self.fail("define_queue", r.reason)
        self.add_queue(rec)
        return outcome("define_queue", True)

    def op_alter_queue(self, op):
        q = self.get_queue(op["name"])
        allowed = {"maxdepth": "int", "maxmsgl": "int", "qdepthhi": "int", "qdepthlo": "int",
                   "qdphiev": "bool", "qdploev": "bool", "qdpmaxev": "bool"}
        changes = {}
        for k, v in op["changes"].items():
            k = k.lower()
            if k not in allowed or not TYPES[allowed[k]](v):
                return self.fail("alter_queue", "INVALID")
            changes[k] = v
        rec = {"name": q.name, "cfstruct": q.struct, "qmgr": q.owner, "maxdepth": q.maxdepth,
               "maxmsgl": q.maxmsgl, "qdepthhi": q.hi, "qdepthlo": q.lo}
        rec.update({k: v for k, v in changes.items() if k in rec})
        try:
            check_queue_fields(rec, self.profile)
        except Refusal as r:
            return self.fail("alter_queue", r.reason)
        q.maxdepth = rec["maxdepth"]
        q.maxmsgl = rec["maxmsgl"]
        q.hi = rec["qdepthhi"]
        q.lo = rec["qdepthlo"]
        q.hiev = changes.get("qdphiev", q.hiev)
        q.loev = changes.get("qdploev", q.loev)
        q.maxev = changes.get("qdpmaxev", q.maxev)
        return outcome("alter_queue", True)

    # ---------------------------------------------------------------- MQ puts
    def offload_rules_say(self, s, length):
        for th, sz in s.rules:
            if sz >= RULE_OFF_SZ:
                continue                          # OFFLDnSZ(64K): rule not in effect
            if F("offload-0k-rule-off") and sz == 0:
                continue
            over = True if F("offload-size-only") else s.pool.over_pct(th, strict=True)
            big = True if F("offload-threshold-only") else length > sz
            if over and big:
                return True
        return False

    def placement(self, s, length):
        forced = 64000 if F("offload-forced-at-64000") else LARGE_MSG
        if s.cflevel < 4:
            return "CF"
        if s.cflevel == 4:
            if length > forced:
                return "DB2"
            if F("offload-cflevel4-rules") and self.offload_rules_say(s, length):
                return "DB2"
            return "CF"
        if length > forced or self.offload_rules_say(s, length):
            return s.offload
        return "CF"

    def op_put(self, op):
        qm = self.get_qmgr(op["qmgr"])
        q = self.get_queue(op["queue"])
        length = op["length"]
        if length < 0:
            raise err14("length", length, ">= 0")
        if self.profile == "cqs":
            return self.cqs_put(qm, q, op)
        self.local_check(qm, q)
        if not qm.active:
            return self.fail("put", "NOT_ACTIVE")
        s = self.structs[q.struct] if q.struct else None
        if s is not None and s.status == "FAILED":
            return self.fail("put", 2192 if F("rec-failed-rc-2192") else 2373)
        if length > q.maxmsgl or length > MAX_MSG:
            return self.fail("put", 2030)
        if s is not None:
            if op["persistent"]:
                if s.cflevel < 3 or (not s.recover and not F("cflevel-recover-no-persistent-ok")):
                    return self.fail("put", 2048)
            large = length > (65536 if F("cflevel-large-limit-64k") else LARGE_MSG)
            need = 5 if F("cflevel-4-rejects-large") else 4
            if large and s.cflevel < need:
                return self.fail("put", 2030 if F("cflevel-large-rc-2030") else 2366)
        full = q.depth + 1 >= q.maxdepth if F("capacity-qfull-off-by-one") else q.depth >= q.maxdepth
        if full:
            if q.maxev and not F("qdepth-qfull-no-event"):
                self.depth_event("QFULL", q, qm, op["syncpoint"])
            return self.fail("put", 2053)
        loc = None
        ent = el = 0
        if s is not None:
            loc = self.placement(s, length)
            if loc == "CF" or F("offload-full-cost"):
                ent, el = 1, elements_for(length)
            else:
                ent, el = 1, OFFLOADED_ELEMENTS
            if not s.pool.fits(ent, el):
                return self.fail("put", 2053 if F("capacity-full-rc-2053") else 2192)
            s.pool.add(ent, el)
        m = Msg()
        m.seq = self.next_seq()
        m.tag = op["tag"]
        m.length = length
        m.persistent = op["persistent"]
        m.committed = not op["syncpoint"]
        m.locked = None
        m.location = loc
        m.ent, m.el = ent, el
        m.where = "P"
        m.st_parts = m.st_el = 0
        m.st_where = "P"
        m.by = qm.name
        q.msgs[m.seq] = m
        q.depth += 1
        if op["syncpoint"]:
            qm.uow.append(("put", q.name, m.seq))
        self.stats(q, qm.name)[0] += 1
        if q.hiev:
            hit = (100 * q.depth > q.hi * q.maxdepth) if F("qdepth-hi-strict") else \
                (100 * q.depth >= q.hi * q.maxdepth)
            if hit:
                self.depth_event("QDPHI", q, qm, op["syncpoint"])
        if s is None:
            return outcome("put", True)
        return outcome("put", True, offloaded=(loc != "CF"), location=loc, usage=s.pool.usage())

    # ---------------------------------------------------------------- MQ gets
    def first_available(self, q):
        it = reversed(q.msgs.values()) if F("queue-lifo") else q.msgs.values()
        for m in it:
            if m.locked is None and (m.committed or F("queue-uncommitted-visible")):
                return m
        return None

    def remove_msg(self, q, m):
        del q.msgs[m.seq]
        if q.struct is None:
            return
        s = self.structs[q.struct]
        if m.where == "O" and s.ovfl is not None:
            s.ovfl.sub(m.ent, m.el)
        else:
            s.pool.sub(m.ent, m.el)
            q.p_el -= m.el
        if m.st_parts:
            if m.st_where == "O" and s.ovfl is not None:
                s.ovfl.sub(m.st_parts, m.st_el)
            else:
                s.pool.sub(m.st_parts, m.st_el)
                s.staging_depth -= m.st_parts

    def op_get(self, op):
        qm = self.get_qmgr(op["qmgr"])
        q = self.get_queue(op["queue"])
        if self.profile == "cqs":
            return self.cqs_get(qm, q)
        self.local_check(qm, q)
        if not qm.active:
            return self.fail("get", "NOT_ACTIVE")
        s = self.structs[q.struct] if q.struct else None
        if s is not None and s.status == "FAILED":
            return self.fail("get", 2192 if F("rec-failed-rc-2192") else 2373)
        m = self.first_available(q)
        if m is None:
            return self.fail("get", 2033)
        if op["syncpoint"]:
            m.locked = qm.name
            qm.uow.append(("get", q.name, m.seq))
        else:
            self.remove_msg(q, m)
        q.depth -= 1
        self.stats(q, qm.name)[1] += 1
        if q.loev:
            hit = (100 * q.depth < q.lo * q.maxdepth) if F("qdepth-lo-strict") else \
                (100 * q.depth <= q.lo * q.maxdepth)
            if hit:
                self.depth_event("QDPLO", q, qm, op["syncpoint"])
        if s is None:
            return outcome("get", True, tag=m.tag)
        return outcome("get", True, tag=m.tag, usage=s.pool.usage())

    # ------------------------------------------------------- queue depth events
    def toggle(self, q, kind, qm, syncpoint):
        if syncpoint:
            qm.uow.append(("flags", q.name, (q.hiev, q.loev, q.maxev)))
        if kind == "QDPHI":
            if not F("qdepth-hi-stays-enabled"):
                q.hiev = False
            q.loev = True
            if not F("qdepth-hi-no-max-toggle"):
                q.maxev = True
        elif kind == "QDPLO":
            q.hiev = True
            q.loev = False
            q.maxev = True
        else:                                     # QFULL: QDPHIEV left unchanged
            q.loev = True
            q.maxev = False

    def issue(self, kind, q, qmname, correl):
        st = self.stats(q, qmname)
        self.events.append(OrderedDict([("qmgr", qmname), ("kind", kind), ("queue", q.name),
                                        ("correl", correl), ("enq", st[0]), ("deq", st[1])]))
        if not F("qdepth-stats-not-reset"):
            st[0] = st[1] = 0

    def depth_event(self, kind, q, qm, syncpoint):
        if q.struct is None:
            # nonshared: nothing changes unless PERFMEV is ENABLED on the owner
            if qm.perfmev:
                self.toggle(q, kind, qm, syncpoint)
                self.issue(kind, q, qm.name, 0)
            elif F("qdepth-nonshared-ignores-perfmev"):
                self.toggle(q, kind, qm, syncpoint)
            return
        if F("qdepth-shared-needs-perfmev") and not qm.perfmev:
            return
        # shared: the detecting qmgr toggles the shared definition whatever PERFMEV says
        self.toggle(q, kind, qm, syncpoint)
        if not qm.perfmev:
            return                                # a disabled coordinator neither issues nor broadcasts
        self.correl += 1
        correl = self.correl
        self.issue(kind, q, qm.name, correl)
        if F("qdepth-no-broadcast"):
            return
        for other in self.qmgrs.values():
            if other is qm:
                continue
            if not (other.active or F("qdepth-inactive-qmgr-issues")):
                continue
            if not (other.perfmev or F("qdepth-disabled-qmgr-issues")):
                continue
            if F("qdepth-correl-per-qmgr"):
                self.correl += 1
                correl = self.correl
            self.issue(kind, q, other.name, correl)

    # ------------------------------------------------------------- UoW / qmgrs
    def op_commit(self, op):
        qm = self.get_qmgr(op["qmgr"])
        if not qm.active:
            return self.fail("commit", "NOT_ACTIVE")
        self.commit_uow(qm)
        return outcome("commit", True)

    def commit_uow(self, qm):
        for kind, qn, payload in qm.uow:
            q = self.queues.get(qn)
            if q is None:
                continue
            if kind == "put":
                m = q.msgs.get(payload)
                if m is not None:
                    m.committed = True
            elif kind == "get":
                m = q.msgs.get(payload)
                if m is not None:
                    self.remove_msg(q, m)
        qm.uow = []

    def op_backout(self, op):
        qm = self.get_qmgr(op["qmgr"])
        if not qm.active:
            return self.fail("backout", "NOT_ACTIVE")
        self.backout_uow(qm)
        return outcome("backout", True)

    def backout_uow(self, qm):
        for kind, qn, payload in reversed(qm.uow):
            q = self.queues.get(qn)
            if q is None:
                continue
            if kind == "put":
                m = q.msgs.get(payload)
                if m is not None:
                    self.remove_msg(q, m)
                    q.depth -= 1
            elif kind == "get":
                m = q.msgs.get(payload)
                if m is not None:
                    if F("queue-backout-get-deletes"):
                        self.remove_msg(q, m)
                    else:
                        m.locked = None
                        q.depth += 1
            elif kind == "flags" and F("qdepth-backout-restores-flags"):
                q.hiev, q.loev, q.maxev = payload
        qm.uow = []

    def op_set_perfmev(self, op):
        qm = self.get_qmgr(op["qmgr"])
        if not qm.active:
            return self.fail("set_perfmev", "NOT_ACTIVE")
        qm.perfmev = op["enabled"]
        return outcome("set_perfmev", True)

    def op_reset_qstats(self, op):
        qm = self.get_qmgr(op["qmgr"])
        q = self.get_queue(op["queue"])
        self.local_check(qm, q)
        if not qm.active:
            return self.fail("reset_qstats", "NOT_ACTIVE")
        if not F("qdepth-reset-qstats-ignored"):
            q.stats[qm.name] = [0, 0]
        return outcome("reset_qstats", True)

    def op_start_qmgr(self, op):
        qm = self.get_qmgr(op["qmgr"])
        if not qm.active:
            qm.active = True
            for q in self.queues.values():
                q.stats.pop(qm.name, None)
        return outcome("start_qmgr", True)

    def op_stop_qmgr(self, op):
        qm = self.get_qmgr(op["qmgr"])
        if not qm.active:
            return outcome("stop_qmgr", True)
        if F("queue-stop-commits"):
            self.commit_uow(qm)
        else:
            self.backout_uow(qm)
        qm.active = False
        for q in self.queues.values():
            q.stats.pop(qm.name, None)
            lost = []
            if q.struct is None and q.owner == qm.name:
                # nonpersistent messages on private queues do not survive the stop
                lost = [m for m in q.msgs.values() if not m.persistent]
            elif q.struct is not None and F("queue-shared-np-lost-at-stop"):
                lost = [m for m in q.msgs.values() if not m.persistent and m.by == qm.name]
            for m in lost:
                if m.locked is None:
                    q.depth -= 1
                self.remove_msg(q, m)
        return outcome("stop_qmgr", True)

    # ---------------------------------------------------------------- recovery
    def image_of(self, s, include_np=False):
        img = []
        for qn in s.queues:
            q = self.queues[qn]
            for m in q.msgs.values():
                if m.committed and (m.persistent or include_np):
                    c = m.clone()
                    c.locked = None
                    img.append((qn, c))
        return img

    def op_backup(self, op):
        qm = self.get_qmgr(op["qmgr"])
        s = self.get_struct(op["cfstruct"])
        if not qm.active:
            return self.fail("backup", "NOT_ACTIVE")
        if s.cflevel < 3 or (not s.recover and not F("rec-backup-recover-no")):
            return self.fail("backup", "NOT_ALLOWED")
        if s.status == "FAILED":
            return self.fail("backup", "NOT_ACTIVE")
        s.backup_exists = True
        s.backup_image = self.image_of(s, F("rec-nonpersistent-recovered"))
        return outcome("backup", True)

    def op_fail_structure(self, op):
        s = self.get_struct(op["cfstruct"])
        if s.status == "FAILED":
            return outcome("fail_structure", True)
        s.failure_image = self.image_of(s, F("rec-nonpersistent-recovered"))
        s.status = "FAILED"
        for qn in s.queues:
            q = self.queues[qn]
            q.msgs.clear()
            q.depth = 0
        s.pool.ent_used = s.pool.el_used = 0
        s.pool.warned = False
        names = set(s.queues)
        for qm in self.qmgrs.values():
            qm.uow = [it for it in qm.uow if it[1] not in names]
        return outcome("fail_structure", True)

    def op_recover(self, op):
        s = self.get_struct(op["cfstruct"])
        purge = op["purge"]
        if s.cflevel < 3 or not s.recover:
            return self.fail("recover", "NOT_ALLOWED")
        if s.status != "FAILED" and not F("rec-recover-not-failed"):
            return self.fail("recover", "NOT_FAILED")
        if not purge and not s.backup_exists and not F("rec-no-backup-needed"):
            return self.fail("recover", "NO_BACKUP")
        if s.status != "FAILED":
            # (only reachable in a faulty build) start from the current contents
            s.failure_image = self.image_of(s)
            for qn in s.queues:
                self.queues[qn].msgs.clear()
                self.queues[qn].depth = 0
            s.pool.ent_used = s.pool.el_used = 0
        s.status = "ACTIVE"
        if purge and not F("rec-purge-keeps"):
            image = []
        elif F("rec-no-log-replay"):
            image = s.backup_image
        else:
            image = s.failure_image
        for qn, m in image:
            q = self.queues[qn]
            c = m.clone()
            q.msgs[c.seq] = c
            q.depth += 1
            s.pool.add(c.ent, c.el)
        for qn in s.queues:        # keep put order
            q = self.queues[qn]
            q.msgs = OrderedDict(sorted(q.msgs.items()))
        s.failure_image = []
        return outcome("recover", True, usage=s.pool.usage())

    # --------------------------------------------------------- z/OS alter etc.
    def find_pool(self, name):
        """(structure, pool, max_kb) for a primary or (CQS) overflow structure name."""
        if name in self.structs:
            s = self.structs[name]
            return s, s.pool, s.max_kb
        if self.profile == "cqs":
            for s in self.structs.values():
                if s.ovflwstr == name:
                    return s, s.ovfl, s.ovflw_size_kb
        raise err14("cfstruct", name, "one of %s" % list(self.structs))

    def op_setxcf_alter(self, op):
        s, pool, max_kb = self.find_pool(op["cfstruct"])
        new = op["size_kb"]
        if new < 0:
            raise err14("size_kb", new, ">= 0")
        if pool is None or s.status == "FAILED":
            return self.fail("setxcf_alter", "NOT_ACTIVE")
        ok = (pool.size_kb < new) if F("sizing-alter-over-size") else (pool.size_kb < new < max_kb)
        if not ok:
            return self.fail("setxcf_alter", "OUT_OF_RANGE")
        if F("sizing-alter-no-effect"):
            pool.size_kb = new
        else:
            pool.resize(new)
        if self.profile == "cqs":
            self.cqs_check_exit(s)
        return outcome("setxcf_alter", True, usage=pool.usage())

    def op_alter_outcome(self, op):
        self.find_pool(op["cfstruct"])
        # CQS alters complete synchronously inside the CQSPUT that started them,
        # so z/OS never has an alter of ours outstanding.
        return self.fail("alter_outcome", "NO_ALTER_PENDING")

    def op_set_overflow_exit(self, op):
        v = op["vetoes"]
        self.exit_vetoes = None if v is None else set(v)
        return outcome("set_overflow_exit", True)

    def op_advance_clock(self, op):
        sec = op["seconds"]
        if sec < 0:
            raise err14("seconds", sec, ">= 0")
        old, new = self.clock, self.clock + sec
        self.clock = new
        if self.profile == "cqs" and new // SCAN_INTERVAL > old // SCAN_INTERVAL:
            self.cqs_scan()
        if new // MONITOR_INTERVAL > old // MONITOR_INTERVAL:
            self.full_monitor()
        return outcome("advance_clock", True)

    def full_monitor(self):
        pools = []
        for s in self.structs.values():
            if s.status == "ACTIVE":
                pools.append(s.pool)
            if s.ovfl is not None:
                pools.append(s.ovfl)
        for p in pools:
            ft = p.fullthreshold
            if ft == 0 and not F("sizing-fullthreshold-0-warns"):
                over = False
            else:
                strict = F("sizing-ixc585e-strict")

                def reach(used, total):
                    if total <= 0:
                        return False
                    return used * 100 > ft * total if strict else used * 100 >= ft * total
                over = reach(p.el_used, p.el_total) or \
                    (reach(p.ent_used, p.ent_total) and not F("sizing-ixc-elements-only"))
            if over and not p.warned:
                p.warned = True
                self.sig("IXC585E", p.name)
            elif not over and p.warned:
                p.warned = False
                if not F("sizing-ixc586i-missing"):
                    self.sig("IXC586I", p.name)

    # ------------------------------------------------------------------- CQS
    def parts_of(self, length):
        g = self.lgmsgsz
        if length <= g or F("cqs-no-staging-queue"):
            return [length]
        n = -(-length // g)
        return [g] * (n - 1) + [length - g * (n - 1)]

    def cqs_put(self, qm, q, op):
        s = self.structs[q.struct]
        length = op["length"]
        parts = self.parts_of(length)
        f_el = elements_for(parts[0])
        st_ent = len(parts) - 1
        st_el = sum(elements_for(p) for p in parts[1:])
        where = "P"
        if q.overflow and s.ovflwstr is None and not F("cqs-no-ovflwstr-accepts-puts"):
            return self.fail("put", "REJECTED_OVERFLOW")
        if q.overflow and s.ovflwstr is not None:
            where = "O"
            self.ensure_ovfl(s)
            fits = s.ovfl.fits(1, f_el) and s.pool.fits(st_ent, st_el)
        else:
            fits = s.pool.fits(1 + st_ent, f_el + st_el)
        if not fits and not F("capacity-cqs-full-ignored"):
            return self.fail("put", "STRUCTURE_FULL")
        m = Msg()
        m.seq = self.next_seq()
        m.tag = op["tag"]
        m.length = length
        m.persistent = op["persistent"]
        m.committed = True
        m.locked = None
        m.location = None
        m.ent, m.el = 1, f_el
        m.where = where
        m.st_parts, m.st_el, m.st_where = st_ent, st_el, "P"
        m.by = qm.name
        target = s.ovfl if where == "O" else s.pool
        target.add(1, f_el)
        if where == "P":
            q.p_el += f_el
        if st_ent:
            s.pool.add(st_ent, st_el)
            s.staging_depth += st_ent
        q.msgs[m.seq] = m
        q.depth = len(q.msgs)
        if where == "P" or st_ent:
            self.cqs_check_threshold(s)
        return outcome("put", True, usage=target.usage())

    def cqs_get(self, qm, q):
        s = self.structs[q.struct]
        if not q.msgs:
            return self.fail("get", "NO_MSG")
        m = self.first_available(q)
        if m is None:
            return self.fail("get", "NO_MSG")
        pool = s.ovfl if (m.where == "O" and s.ovfl is not None) else s.pool
        self.remove_msg(q, m)
        q.depth = len(q.msgs)
        if F("cqs-scan-immediate") and q.overflow and s.ovflwstr is not None and not q.msgs:
            self.cqs_release_queue(s, q)
            if not s.overflow_queues:
                s.overflow_mode = False
                self.sig("OVERFLOW_OFF", s.name)
        self.cqs_check_exit(s)
        return outcome("get", True, tag=m.tag, usage=pool.usage())

    def ensure_ovfl(self, s):
        if s.ovfl is None:
            s.ovfl = Pool(s.ovflwstr, s.ovflw_size_kb, s.pool.ratio, OVFL_FULLTHRESHOLD)

    def el_pct_reached(self, s, pct):
        p = s.pool
        if p.el_total <= 0:
            return False
        if F("cqs-threshold-strict"):
            return p.el_used * 100 > pct * p.el_total
        return p.el_used * 100 >= pct * p.el_total

    def cqs_target(self, s):
        if F("cqs-target-forgets-20"):
            return s.ovflwmax
        return max(0, s.ovflwmax - CQS_TARGET_DROP)

    def cqs_check_threshold(self, s):
        if s.resource and not F("cqs-resource-overflow"):
            return                                # overflow is not supported for resource structures
        if not self.el_pct_reached(s, s.ovflwmax):
            return
        if not s.overflow_mode:
            self.sig("ALTER", s.name)
            if s.pool.size_kb < s.max_kb and not F("cqs-alter-skipped"):
                s.pool.resize(s.max_kb)           # synchronous alter: success, to SIZE
                return
            s.overflow_mode = True                # the alter failed
            self.sig("OVERFLOW_ON", s.name)
            if s.ovflwstr is not None:
                self.ensure_ovfl(s)
        self.cqs_select(s)

    def queue_space(self, q):
        return q.p_el

    def cqs_select(self, s):
        target = self.cqs_target(s)
        p = s.pool

        def projected():
            used = p.el_used
            if s.ovflwstr is None:
                used -= sum(self.queue_space(self.queues[n]) for n in s.overflow_queues)
            return used

        def met():
            return projected() * 100 <= target * p.el_total

        if met():
            return
        cands = []
        for qn in s.queues:
            q = self.queues[qn]
            if q.overflow:
                continue
            sp = self.queue_space(q)
            if sp > 0:
                cands.append((sp, qn))
        if F("cqs-select-least-space"):
            cands.sort(key=lambda c: (c[0], c[1]))
        else:
            cands.sort(key=lambda c: (-c[0], c[1]))
        for sp, qn in cands:
            if met():
                break
            q = self.queues[qn]
            if s.ovflwstr is not None:
                ent = sum(m.ent for m in q.msgs.values() if m.where == "P")
                if F("cqs-staging-moved"):
                    ent += sum(m.st_parts for m in q.msgs.values())
                    sp += sum(m.st_el for m in q.msgs.values())
                if not s.ovfl.fits(ent, sp):
                    continue
            if self.exit_vetoes is not None and qn in self.exit_vetoes and \
                    not F("cqs-exit-veto-ignored"):
                continue
            q.overflow = True
            s.overflow_queues.add(qn)
            self.sig("OVERFLOW_QUEUE", s.name, qn)
            if s.ovflwstr is not None:
                for m in q.msgs.values():
                    if m.where == "P":
                        p.sub(m.ent, m.el)
                        s.ovfl.add(m.ent, m.el)
                        m.where = "O"
                q.p_el = 0
                for m in q.msgs.values():
                    if F("cqs-staging-moved") and m.st_parts and m.st_where == "P":
                        p.sub(m.st_parts, m.st_el)
                        s.ovfl.add(m.st_parts, m.st_el)
                        s.staging_depth -= m.st_parts
                        m.st_where = "O"

    def cqs_release_queue(self, s, q):
        q.overflow = False
        s.overflow_queues.discard(q.name)
        self.sig("OVERFLOW_QUEUE_OFF", s.name, q.name)

    def cqs_check_exit(self, s):
        """Without an overflow structure: leave overflow mode 20% below the threshold."""
        if not s.overflow_mode or s.ovflwstr is not None:
            return
        p = s.pool
        if F("cqs-no-ovflwstr-exit-at-threshold"):
            done = p.el_used * 100 < s.ovflwmax * p.el_total
        else:
            done = p.el_used * 100 <= self.cqs_target(s) * p.el_total
        if done:
            for qn in sorted(s.overflow_queues):
                self.queues[qn].overflow = False
            s.overflow_queues.clear()
            s.overflow_mode = False
            self.sig("OVERFLOW_OFF", s.name)

    def cqs_scan(self):
        for s in self.structs.values():
            if not s.overflow_mode or s.ovflwstr is None:
                continue
            for qn in sorted(s.overflow_queues):
                q = self.queues[qn]
                if not q.msgs:
                    self.cqs_release_queue(s, q)
            if not s.overflow_queues and not F("cqs-overflow-never-ends"):
                s.overflow_mode = False
                self.sig("OVERFLOW_OFF", s.name)

    # ----------------------------------------------------------------- inspect
    def op_inspect(self, op):
        structs = {}
        for s in self.structs.values():
            p = s.pool
            d = {"status": s.status, "size_kb": p.size_kb,
                 "entries_used": p.ent_used, "entries_total": p.ent_total,
                 "elements_used": p.el_used, "elements_total": p.el_total,
                 "full_warning": p.warned}
            if self.profile == "mq":
                pad = self.qsg if F("topo-cfname-no-padding") else (self.qsg + "@@@@")[:4]
                d["cfname"] = pad + s.name
            else:
                d["alter_pending"] = False
                d["overflow_mode"] = s.overflow_mode
                d["overflow_queues"] = sorted(s.overflow_queues)
                d["staging_depth"] = s.staging_depth
            structs[s.name] = d
        queues = {}
        for q in self.queues.values():
            if self.profile == "mq":
                queues[q.name] = {"depth": q.depth, "qdphiev": q.hiev, "qdploev": q.loev,
                                  "qdpmaxev": q.maxev}
            else:
                queues[q.name] = {"depth": len(q.msgs), "overflow": q.overflow}
        qmgrs = {n: {"active": qm.active, "perfmev": qm.perfmev} for n, qm in self.qmgrs.items()}
        value = {"clock": self.clock, "structures": structs, "queues": queues, "qmgrs": qmgrs}
        if self.profile == "mq":
            value["admin"] = dict(self.admin)
        return outcome("inspect", True, value=value)


# ----------------------------------------------------------------------------
# Wire server
# ----------------------------------------------------------------------------
def capabilities():
    name = IMPL_NAME if FAULT is None else "%s[fault=%s]" % (IMPL_NAME, FAULT)
    return OrderedDict([
        ("name", name),
        ("protocol_version", PROTOCOL_VERSION),
        ("profiles", ["mq", "cqs"]),
        ("families", ["CQS", "OFFLOAD", "CFLEVEL", "CAPACITY", "TOPOLOGY", "SIZING", "QDEPTH",
                      "RECOVERY", "QUEUE"]),
        ("reason_codes", "exact"),
        ("observes", ["usage", "events", "signals", "inspect"]),
    ])


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"), allow_nan=False, sort_keys=False)


def sorted_value(o):
    """inspect's value: keys sorted by name (recursively)."""
    if isinstance(o, dict):
        return OrderedDict((k, sorted_value(o[k])) for k in sorted(o))
    if isinstance(o, list):
        return [sorted_value(x) for x in o]
    return o


class Server:
    def __init__(self, out):
        self.out = out
        self.inited = False
        self.engine = None
        self.peer_limit = 1048576

    def send(self, obj):
        self.out.write(dumps(obj) + "\n")
        self.out.flush()

    def error(self, in_reply_to, code, text, detail=None):
        e = OrderedDict([("type", "error"), ("in_reply_to", in_reply_to), ("code", code),
                         ("text", text), ("definite", DEFINITE.get(code, True))])
        if detail is not None:
            e["detail"] = detail
        self.send(e)

    def run_op(self, op):
        parsed = parse_op(op)
        res = self.engine.apply(parsed)
        if res.get("kind") == "inspect":
            res["value"] = sorted_value(res["value"])
        return res

    def handle_line(self, raw):
        """Handle one request line (bytes, newline stripped). Returns False to exit."""
        if len(raw) > IMPL_MAX_LINE:
            self.error(None, 17, "request line of %d bytes exceeds %d" % (len(raw), IMPL_MAX_LINE))
            return True
        try:
            req = json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            self.error(None, 11, "not JSON: %s" % e)
            return True
        if not isinstance(req, dict):
            self.error(None, 11, "request is not a JSON object")
            return True
        mid = req.get("msg_id")
        if not _is_int(mid) or mid < 0:
            self.error(None, 11, "request has no readable msg_id")
            return True
        typ = req.get("type")
        if not isinstance(typ, str):
            self.error(mid, 11, "request has no string type")
            return True
        known = ("init", "open", "apply", "batch", "close")
        if typ not in known:
            self.error(mid, 11, "unknown message type %r" % typ)
            return True
        if not self.inited and typ != "init":
            self.error(mid, 15, "%s before init" % typ)
            return True
        if typ == "init":
            return self.on_init(mid, req)
        if typ == "close":
            self.send({"type": "close_ok", "in_reply_to": mid})
            return False
        if typ == "open":
            return self.on_open(mid, req)
        if self.engine is None:
            self.error(mid, 15, "%s before a successful open" % typ)
            return True
        if typ == "apply":
            return self.on_apply(mid, req)
        return self.on_batch(mid, req)

    def on_init(self, mid, req):
        if self.inited:
            self.error(mid, 15, "second init")
            return True
        pv = req.get("protocol_version")
        if not isinstance(pv, str):
            self.error(mid, 11, "init without a string protocol_version")
            return True
        if pv.split(".")[0] != PROTOCOL_VERSION.split(".")[0]:
            self.error(mid, 16, "protocol %s not spoken (we speak %s)" % (pv, PROTOCOL_VERSION))
            return True
        lim = req.get("max_line_bytes")
        if _is_int(lim) and lim >= 1024:
            self.peer_limit = lim
        self.inited = True
        self.send(OrderedDict([("type", "init_ok"), ("in_reply_to", mid),
                               ("protocol_version", PROTOCOL_VERSION),
                               ("capabilities", capabilities()),
                               ("max_line_bytes", IMPL_MAX_LINE)]))
        return True

    def on_open(self, mid, req):
        cfg = req.get("config")
        self.engine = None
        if not isinstance(cfg, dict):
            self.error(mid, 11, "open without a config object")
            return True
        try:
            self.engine = Engine(cfg)
        except WireError as e:
            self.engine = None
            self.error(mid, e.code, e.text, e.detail)
            return True
        except Exception as e:  # pragma: no cover - defensive
            self.engine = None
            self.error(mid, 12, "internal failure in open: %r" % e)
            return True
        self.send({"type": "open_ok", "in_reply_to": mid})
        return True

    def on_apply(self, mid, req):
        if "op" not in req:
            self.error(mid, 11, "apply without op")
            return True
        try:
            res = self.run_op(req["op"])
        except WireError as e:
            self.error(mid, e.code, e.text, e.detail)
            return True
        except Exception as e:
            self.error(mid, 12, "internal failure: %r" % e)
            return True
        line = dumps(OrderedDict([("type", "apply_ok"), ("in_reply_to", mid), ("outcome", res)]))
        if len(line.encode("utf-8")) > self.peer_limit:
            self.error(mid, 18, "reply of %d bytes exceeds the suite's limit" % len(line))
            return True
        self.out.write(line + "\n")
        self.out.flush()
        return True

    def on_batch(self, mid, req):
        ops = req.get("ops")
        if not isinstance(ops, list) or not ops:
            self.error(mid, 11, "batch needs a non-empty list ops")
            return True
        outcomes = []
        size = 64
        err = None
        margin = 65536
        for k, op in enumerate(ops):
            is_inspect = isinstance(op, dict) and op.get("op") == "inspect"
            if k > 0 and not is_inspect and size + margin > self.peer_limit:
                break                                  # reply a prefix; the rest is re-sent
            try:
                res = self.run_op(op)
            except WireError as e:
                err = e.as_obj()
                break
            except Exception as e:
                err = {"code": 12, "text": "internal failure: %r" % e, "definite": False}
                break
            piece = len(dumps(res).encode("utf-8")) + 1
            if size + piece > self.peer_limit:
                if k > 0 and is_inspect:
                    break                              # inspect has no effect: leave it out
                err = {"code": 18, "text": "outcome too large for the suite's line limit",
                       "definite": False}
                break
            outcomes.append(res)
            size += piece
        reply = OrderedDict([("type", "batch_ok"), ("in_reply_to", mid), ("outcomes", outcomes)])
        if err is not None:
            reply["error"] = err
        self.send(reply)
        return True


def main(argv):
    global FAULT
    args = argv[1:]
    if args and args[0] == "--list-faults":
        for name, fam in FAULT_FAMILIES.items():
            print("%s %s" % (fam, name))
        return 0
    if len(args) == 2 and args[0] == "--fault":
        if args[1] not in FAULT_FAMILIES:
            sys.stderr.write("unknown fault %r (try --list-faults)\n" % args[1])
            return 2
        FAULT = args[1]
    elif args:
        sys.stderr.write("usage: impl.py [--fault NAME | --list-faults]\n")
        return 2
    out = sys.stdout
    server = Server(out)
    stdin = sys.stdin.buffer
    while True:
        raw = stdin.readline()
        if not raw:
            break
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if not raw.strip():
            continue
        try:
            keep = server.handle_line(raw)
        except Exception as e:  # never die on a request
            try:
                server.error(None, 12, "internal failure: %r" % e)
            except Exception:
                pass
            keep = True
        if not keep:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
