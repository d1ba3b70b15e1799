"""The opened state of one trace: structures, queues, queue managers, CQS overflow."""
from cfcommon import *  # noqa: F401,F403
from cfcommon import _is_int  # noqa: F401


# ------------------------------------------------------------------ model
class Pool:
    """Entries and elements of one CF list structure."""

    def __init__(self, size_kb, ratio, fault):
        self.ratio = ratio
        self.fault = fault
        self.size_kb = size_kb
        self.eu = 0
        self.elu = 0
        self.et = 0
        self.elt = 0
        self.resize(size_kb)

    def resize(self, size_kb):
        self.size_kb = size_kb
        self.et, self.elt = self.totals(size_kb)

    def totals(self, size_kb):
        if self.fault == "SZ_FIXED_6MB":
            ctl = 6144
        else:
            ctl = min(CONTROL_KB_MAX, size_kb // 2)
        avail = max(0, size_kb - ctl) * KB
        et = avail // (ENTRY_B + self.ratio * ELEM_B)
        return et, et * self.ratio

    def fits(self, e, el):
        return self.eu + e <= self.et and self.elu + el <= self.elt

    def add(self, e, el):
        self.eu += e
        self.elu += el

    def sub(self, e, el):
        self.eu -= e
        self.elu -= el

    def usage(self):
        return [self.eu, self.et, self.elu, self.elt]


class Msg:
    __slots__ = ("mid", "tag", "length", "persistent", "qmgr", "queue", "committed",
                 "locked_by", "offloaded", "location", "elems", "in_ovf", "staging",
                 "staging_moved")

    def __init__(self, mid, tag, length, persistent, qmgr, queue):
        self.mid = mid
        self.tag = tag
        self.length = length
        self.persistent = persistent
        self.qmgr = qmgr
        self.queue = queue
        self.committed = True
        self.locked_by = None
        self.offloaded = False
        self.location = "CF"
        self.elems = 0
        self.in_ovf = False
        self.staging = []       # CQS: elements of each staging part
        self.staging_moved = False


class Struct:
    def __init__(self, rec, profile, fault):
        self.name = rec["name"]
        self.profile = profile
        self.size_kb = rec["size_kb"]                      # SIZE (policy maximum)
        init = rec["initsize_kb"]
        cur = init if (init is not None and fault != "SZ_INITSIZE_IGNORED") else self.size_kb
        self.initsize_kb = init if init is not None else self.size_kb
        self.ratio = rec["ratio"]
        self.fullthreshold = rec["fullthreshold"]
        self.cflevel = rec["cflevel"]
        self.recover = rec["recover"]
        self.offload = rec["offload"]
        if self.cflevel >= 5 and self.offload is None:
            self.offload = "DB2" if fault == "OFF_DEFAULT_DB2" else "SMDS"
        self.rules = [[rec["offld1th"], rec["offld1sz"]], [rec["offld2th"], rec["offld2sz"]],
                      [rec["offld3th"], rec["offld3sz"]]]
        ov = rec["ovflwmax"]
        if ov is None:
            ov = 80 if fault == "CQS_DEFAULT_80" else 70
        self.ovflwmax = ov
        self.ovflwstr = rec["ovflwstr"]
        self.ovflw_size_kb = rec["ovflw_size_kb"]
        self.resource = rec["resource"]
        self.pool = Pool(cur, self.ratio, fault)
        self.status = "ACTIVE"
        self.full_warning = False
        # CQS
        self.alter_pending = False
        self.overflow_mode = False
        self.next_scan = None
        self.ovf = None
        self.staging_depth = 0
        self.staging_elems = 0
        # MQ recovery
        self.backup = None
        self.log = []


class Queue:
    def __init__(self, rec, owner):
        self.name = rec["name"]
        self.cfstruct = rec["cfstruct"]
        self.owner = owner
        self.maxdepth = rec["maxdepth"]
        self.maxmsgl = rec["maxmsgl"]
        self.qdepthhi = rec["qdepthhi"]
        self.qdepthlo = rec["qdepthlo"]
        self.qdphiev = rec["qdphiev"]
        self.qdploev = rec["qdploev"]
        self.qdpmaxev = rec["qdpmaxev"]
        self.msgs = []
        self.stats = {}
        self.overflow = False   # CQS

    def depth(self):
        return sum(1 for m in self.msgs if m.locked_by is None)


class QMgr:
    def __init__(self, name, perfmev):
        self.name = name
        self.active = True
        self.perfmev = perfmev
        self.uow = []
        self.flags_at_uow = {}


class Model:
    """The opened state of one trace."""

    def __init__(self, cfg, fault):
        self.fault = fault
        self.F = lambda n: fault == n
        self.profile = cfg["profile"]
        self.qsg = cfg["qsg"]
        self.clock = 0
        self.mid = 0
        self.correl = 0
        self.lgmsgsz = cfg["lgmsgsz_eff"]
        self.exit_vetoes = cfg["overflow_exit"]
        self.order = list(cfg["qmgrs"])
        self.qm = {n: QMgr(n, n not in cfg["perfmev_disabled"]) for n in self.order}
        self.structs = {}
        self.queues = {}
        self.admin_kb = cfg["admin_kb"]
        self.admin_entries = cfg["admin_entries"]
        for s in cfg["structures"]:
            self.structs[s["name"]] = Struct(s, self.profile, fault)
        for q in cfg["queues"]:
            self.queues[q["name"]] = Queue(q, q["_owner"])

    # ---------------------------------------------------------- helpers
    def usage_of(self, s):
        return s.pool.usage()

    def full_check(self, s, signals):
        """IXC585E when entries or elements in use reach FULLTHRESHOLD; IXC586I below."""
        p = s.pool
        ft = s.fullthreshold
        if self.F("CAP_FT_FIXED_85"):
            ft = 85
        if ft == 0 and not self.F("CAP_FT0_MONITORS"):
            over = False
        elif self.F("CAP_IXC585E_STRICT"):
            over = p.eu * 100 > ft * p.et or p.elu * 100 > ft * p.elt
        elif self.F("CAP_IXC585E_ELEMENTS_ONLY"):
            over = p.elu * 100 >= ft * p.elt
        else:
            over = p.eu * 100 >= ft * p.et or p.elu * 100 >= ft * p.elt
        if over and not s.full_warning:
            s.full_warning = True
            signals.append("IXC585E " + s.name)
        elif not over and s.full_warning:
            s.full_warning = False
            if not self.F("CAP_NO_IXC586I"):
                signals.append("IXC586I " + s.name)

    def structure_full(self, p, e, el):
        if self.F("CAP_FULL_ENTRIES_ONLY"):
            return p.eu + e > p.et
        return not p.fits(e, el)

    def qmgr(self, name):
        if not isinstance(name, str) or name not in self.qm:
            raise OpError(14, f"qmgr={name!r} is invalid: allowed one of {self.order}",
                          {"field": "qmgr", "value": name, "allowed": f"one of {self.order}",
                           "rule_id": "TOPOLOGY-006"})
        return self.qm[name]

    def queue(self, name, qm=None):
        q = self.queues.get(name) if isinstance(name, str) else None
        if q is None or (qm is not None and q.cfstruct is None and q.owner != qm.name):
            raise OpError(14, f"queue={name!r} is invalid",
                          {"field": "queue", "value": name,
                           "allowed": f"one of {sorted(self.queues)}", "rule_id": "TOPOLOGY-013"})
        return q

    def struct(self, name):
        s = self.structs.get(name) if isinstance(name, str) else None
        if s is None:
            raise OpError(14, f"cfstruct={name!r} is invalid",
                          {"field": "cfstruct", "value": name,
                           "allowed": f"one of {sorted(self.structs)}", "rule_id": "TOPOLOGY-012"})
        return s

    def queues_on(self, s):
        return [q for q in self.queues.values() if q.cfstruct == s.name]

    # ---------------------------------------------------------- events
    def limit_hit_hi(self, q, depth):
        if self.F("QD_LIMIT_AS_COUNT"):
            return depth >= q.qdepthhi
        if self.F("QD_HI_STRICT"):
            return depth * 100 > q.qdepthhi * q.maxdepth
        return depth * 100 >= q.qdepthhi * q.maxdepth

    def limit_hit_lo(self, q, depth):
        if self.F("QD_LIMIT_AS_COUNT"):
            return depth <= q.qdepthlo
        if self.F("QD_LO_STRICT"):
            return depth * 100 < q.qdepthlo * q.maxdepth
        return depth * 100 <= q.qdepthlo * q.maxdepth

    def toggle(self, q, kind):
        if kind == "QDPHI":
            if not self.F("QD_HI_KEEPS_ENABLED"):
                q.qdphiev = False
            q.qdploev = True
            if not self.F("QD_HI_NO_MAX_ENABLE"):
                q.qdpmaxev = True
        elif kind == "QDPLO":
            q.qdploev = False
            if not self.F("QD_LO_NO_HI_ENABLE"):
                q.qdphiev = True
            q.qdpmaxev = True
        else:  # QFULL: QDPHIEV unchanged (reading qfull_hi_flag=unchanged)
            q.qdpmaxev = False
            if not self.F("QD_FULL_NO_LO_ENABLE"):
                q.qdploev = True

    def stats(self, q, qmname):
        return q.stats.setdefault(qmname, [0, 0])

    def event_message(self, q, kind, qmname, correl):
        if self.F("QD_STATS_GROUP_WIDE"):
            enq = sum(v[0] for v in q.stats.values())
            deq = sum(v[1] for v in q.stats.values())
        else:
            st = self.stats(q, qmname)
            enq, deq = st
        ev = {"qmgr": qmname, "kind": kind, "queue": q.name, "correl": correl,
              "enq": enq, "deq": deq}
        if not self.F("QD_STATS_NOT_RESET"):
            q.stats[qmname] = [0, 0]
        return ev

    def raise_event(self, q, kind, detector):
        shared = q.cfstruct is not None
        if not shared:
            owner = self.qm[q.owner]
            if not owner.perfmev and not self.F("QD_NONSHARED_TOGGLES"):
                return []
            self.toggle(q, kind)
            if not owner.perfmev:
                return []
            return [self.event_message(q, kind, owner.name, 0)]
        coord = self.qm[detector]
        if not coord.perfmev and self.F("QD_SHARED_NEEDS_PERFMEV"):
            return []
        self.toggle(q, kind)               # shared: toggled even with PERFMEV(DISABLED)
        if not coord.perfmev:
            return []                      # reading event_broadcast=if-coordinator-enabled
        self.correl += 1
        correl = self.correl
        events = [self.event_message(q, kind, coord.name, correl)]
        if self.F("QD_NO_BROADCAST"):
            return events
        for name in self.order:
            if name == coord.name:
                continue
            m = self.qm[name]
            if not m.active and not self.F("QD_BROADCAST_INACTIVE"):
                continue
            if not m.perfmev and not self.F("QD_BROADCAST_IGNORES_PERFMEV"):
                continue
            if self.F("QD_SKIP_IDLE_QMGR") and self.stats(q, name) == [0, 0]:
                continue
            c = correl
            if self.F("QD_OWN_CORREL"):
                self.correl += 1
                c = self.correl
            events.append(self.event_message(q, kind, name, c))
        return events

    # ---------------------------------------------------------- MQ storage
    def cf_cost(self, length):
        return 1, ceil_div(length + HDR_B, ELEM_B)

    def offload_decision(self, s, length):
        """Returns (offloaded, location) for a put to structure s."""
        limit = 63000 if self.F("CFL_63K_DECIMAL") else LIMIT_63K
        if s.cflevel < 5:
            if length > limit:
                return True, ("SMDS" if self.F("OFF_L4_LARGE_SMDS") else "DB2")
            if not self.F("CFL_RULES_AT_L4"):
                return False, "CF"
        loc = s.offload or "SMDS"
        if self.F("OFF_DB2_AS_SMDS"):
            loc = "SMDS"
        if s.cflevel < 5:
            loc = "DB2"
        p = s.pool
        all_off = all(sz == RULE_OFF for _, sz in s.rules)
        if length > limit and not (self.F("OFF_64K_BLOCKS_FORCED") and all_off):
            return True, loc
        for i, (th, sz) in enumerate(s.rules):
            if sz == RULE_OFF:
                continue
            if i == 2 and self.F("OFF_NO_RULE3"):
                continue
            if i == 1 and self.F("OFF_RULE2_USES_TH1"):
                th = s.rules[0][0]
            if self.F("OFF_SZ_DECIMAL"):
                sz = (sz // KB) * 1000
            over = p.eu * 100 > th * p.et or p.elu * 100 > th * p.elt
            if self.F("OFF_SIZE_ONLY"):
                over = True
            if over and length > sz:
                return True, loc
        return False, "CF"

    # ---------------------------------------------------------- MQ operations
    def op_put(self, op):
        qm = self.qmgr(op["qmgr"])
        q = self.queue(op["queue"], qm)
        length = op["length"]
        if length < 0 or length > MAX_MSG:
            raise OpError(14, f"length={length} is out of range 0..{MAX_MSG}",
                          {"field": "length", "value": length, "allowed": f"0..{MAX_MSG}",
                           "rule_id": "QUEUE-010"})
        if self.profile == "cqs":
            return self.cqs_put(qm, q, op)
        if not qm.active:
            return {"kind": "put", "ok": False, "reason": "NOT_ACTIVE"}
        persistent = op.get("persistent", False)
        sync = op.get("syncpoint", False)
        s = self.structs[q.cfstruct] if q.cfstruct else None
        if s is not None and s.status == "FAILED":
            return {"kind": "put", "ok": False,
                    "reason": 2192 if self.F("R_FAILED_RC_2192") else 2373}
        if length > q.maxmsgl or (self.F("Q_MAXMSGL_INCLUSIVE") and length == q.maxmsgl):
            return {"kind": "put", "ok": False, "reason": 2030}
        if s is not None:
            limit = 63000 if self.F("CFL_63K_DECIMAL") else LIMIT_63K
            if length > limit:
                if s.cflevel < 3 or (s.cflevel == 3 and not self.F("CFL_LARGE_L3_ALLOWED")):
                    return {"kind": "put", "ok": False, "reason": 2366}
                if s.cflevel == 4 and self.F("CFL_LARGE_L4_REJECTED"):
                    return {"kind": "put", "ok": False, "reason": 2366}
            if persistent:
                if s.cflevel <= 2 and not self.F("CFL_PERSIST_L2_ALLOWED"):
                    return {"kind": "put", "ok": False, "reason": 2366}
                if s.cflevel == 3 and self.F("CFL_PERSIST_L3_REJECTED"):
                    return {"kind": "put", "ok": False, "reason": 2366}
                if not s.recover and not self.F("Q_PERSIST_RECOVER_NO_OK"):
                    return {"kind": "put", "ok": False,
                            "reason": 2366 if self.F("CFL_RECOVER_NO_RC_2366") else 2048}
        depth = q.depth()
        full_at = q.maxdepth - 1 if self.F("Q_FULL_OFF_BY_ONE") else q.maxdepth
        if depth >= full_at:
            out = {"kind": "put", "ok": False, "reason": 2053}
            if q.qdpmaxev:
                ev = self.raise_event(q, "QFULL", qm.name)
                if ev:
                    out["events"] = ev
            if s is not None:
                out["usage"] = s.pool.usage()
            return out
        out = {"kind": "put", "ok": True}
        msg = None
        if s is not None:
            off, loc = self.offload_decision(s, length)
            if off:
                e, el = (1, 0) if self.F("OFF_OFFLOADED_FREE") else (1, OFFLOADED_ELEMS)
            else:
                e, el = self.cf_cost(length)
            if self.structure_full(s.pool, e, el):
                return {"kind": "put", "ok": False,
                        "reason": 2053 if self.F("CAP_FULL_RC_QFULL") else 2192,
                        "usage": s.pool.usage()}
            self.mid += 1
            msg = Msg(self.mid, op.get("tag", 0), length, persistent, qm.name, q.name)
            msg.offloaded = off
            msg.location = loc
            msg.elems = (e, el)
            s.pool.add(e, el)
            out["offloaded"] = off
            out["location"] = loc
        else:
            self.mid += 1
            msg = Msg(self.mid, op.get("tag", 0), length, persistent, qm.name, q.name)
        q.msgs.append(msg)
        if sync:
            qm.flags_at_uow.setdefault(q.name, (q.qdphiev, q.qdploev, q.qdpmaxev))
            msg.committed = False
            qm.uow.append(("put", q, msg))
        else:
            self.log_op(s, qm.name, "put", msg)
        self.stats(q, qm.name)[0] += 1
        signals = []
        if q.qdphiev and self.limit_hit_hi(q, q.depth()):
            ev = self.raise_event(q, "QDPHI", qm.name)
            if ev:
                out["events"] = ev
        if s is not None:
            self.full_check(s, signals)
            out["usage"] = s.pool.usage()
        if signals:
            out["signals"] = signals
        return out

    def log_op(self, s, qmname, kind, msg):
        if s is None or not msg.persistent or s.backup is None:
            return
        s.log.append((qmname, kind, msg))

    def visible(self, q, qm):
        for m in q.msgs:
            if m.locked_by is not None:
                continue
            if not m.committed and not self.F("Q_UNCOMMITTED_VISIBLE"):
                continue
            if self.F("Q_OTHER_QMGR_BLIND") and m.qmgr != qm.name:
                continue
            return m
        return None

    def remove_msg(self, q, msg, s):
        q.msgs.remove(msg)
        if s is not None and self.profile == "mq":
            s.pool.sub(*msg.elems)

    def op_get(self, op):
        qm = self.qmgr(op["qmgr"])
        q = self.queue(op["queue"], qm)
        if self.profile == "cqs":
            return self.cqs_get(qm, q)
        if not qm.active:
            return {"kind": "get", "ok": False, "reason": "NOT_ACTIVE"}
        s = self.structs[q.cfstruct] if q.cfstruct else None
        if s is not None and s.status == "FAILED":
            return {"kind": "get", "ok": False,
                    "reason": 2192 if self.F("R_FAILED_RC_2192") else 2373}
        m = self.visible(q, qm)
        if m is None:
            out = {"kind": "get", "ok": False, "reason": 2033}
            if s is not None:
                out["usage"] = s.pool.usage()
            return out
        out = {"kind": "get", "ok": True, "tag": m.tag}
        signals = []
        if op.get("syncpoint", False):
            qm.flags_at_uow.setdefault(q.name, (q.qdphiev, q.qdploev, q.qdpmaxev))
            m.locked_by = qm.name
            qm.uow.append(("get", q, m))
        else:
            self.remove_msg(q, m, s)
            self.log_op(s, qm.name, "get", m)
        self.stats(q, qm.name)[1] += 1
        if q.qdploev and self.limit_hit_lo(q, q.depth()):
            ev = self.raise_event(q, "QDPLO", qm.name)
            if ev:
                out["events"] = ev
        if s is not None:
            self.full_check(s, signals)
            out["usage"] = s.pool.usage()
        if signals:
            out["signals"] = signals
        return out

    def end_uow(self, qm, commit):
        signals = []
        touched = []
        for kind, q, m in qm.uow:
            s = self.structs[q.cfstruct] if q.cfstruct else None
            if s is not None and s not in touched:
                touched.append(s)
            if kind == "put":
                if commit:
                    m.committed = True
                    self.log_op(s, qm.name, "put", m)
                elif m in q.msgs:
                    self.remove_msg(q, m, s)
            else:
                if commit:
                    if m in q.msgs:
                        self.remove_msg(q, m, s)
                    self.log_op(s, qm.name, "get", m)
                else:
                    m.locked_by = None
        qm.uow = []
        qm.flags_at_uow = {}
        for s in touched:
            self.full_check(s, signals)
        return signals

    def op_commit(self, op, commit=True):
        qm = self.qmgr(op["qmgr"])
        kind = "commit" if commit else "backout"
        if self.profile == "cqs":
            return {"kind": kind, "ok": True}
        if not qm.active:
            return {"kind": kind, "ok": False, "reason": "NOT_ACTIVE"}
        saved_flags = qm.flags_at_uow
        signals = self.end_uow(qm, commit)
        if not commit and self.F("QD_BACKOUT_RESTORES_FLAGS"):
            for n, v in saved_flags.items():
                q = self.queues[n]
                q.qdphiev, q.qdploev, q.qdpmaxev = v
        out = {"kind": kind, "ok": True}
        if signals:
            out["signals"] = signals
        return out

    def op_set_perfmev(self, op):
        qm = self.qmgr(op["qmgr"])
        if not qm.active:
            return {"kind": "set_perfmev", "ok": False, "reason": "NOT_ACTIVE"}
        qm.perfmev = op["enabled"]
        return {"kind": "set_perfmev", "ok": True}

    def op_reset_qstats(self, op):
        qm = self.qmgr(op["qmgr"])
        q = self.queue(op["queue"], qm)
        if not qm.active:
            return {"kind": "reset_qstats", "ok": False, "reason": "NOT_ACTIVE"}
        q.stats[qm.name] = [0, 0]
        return {"kind": "reset_qstats", "ok": True}

    def op_start_qmgr(self, op):
        qm = self.qmgr(op["qmgr"])
        qm.active = True
        return {"kind": "start_qmgr", "ok": True}

    def op_stop_qmgr(self, op):
        qm = self.qmgr(op["qmgr"])
        if not qm.active:
            return {"kind": "stop_qmgr", "ok": False, "reason": "NOT_ACTIVE"}
        signals = self.end_uow(qm, commit=False)        # unit of work backed out
        qm.active = False
        touched = []
        for q in self.queues.values():
            if q.cfstruct is None and q.owner == qm.name:
                q.msgs = [m for m in q.msgs if m.persistent]   # reading nonshared_at_stop=lost
            elif q.cfstruct is not None and self.F("Q_STOP_LOSES_SHARED_NP"):
                s = self.structs[q.cfstruct]
                for m in [m for m in q.msgs if not m.persistent and m.qmgr == qm.name]:
                    self.remove_msg(q, m, s)
                if s not in touched:
                    touched.append(s)
            q.stats.pop(qm.name, None)                      # reading qstats_at_stop=reset
        for s in touched:
            self.full_check(s, signals)
        out = {"kind": "stop_qmgr", "ok": True}
        if signals:
            out["signals"] = signals
        return out

    # ---------------------------------------------------------- recovery
    def recoverable(self, s):
        return s.cflevel >= 3 and s.recover

    def op_backup(self, op):
        qm = self.qmgr(op["qmgr"])
        s = self.struct(op["cfstruct"])
        if not qm.active:
            return {"kind": "backup", "ok": False, "reason": "NOT_ACTIVE"}
        ok_level = s.cflevel >= 3 or self.F("R_BACKUP_CFLEVEL2")
        ok_rec = s.recover or self.F("R_BACKUP_RECOVER_NO")
        if not (ok_level and ok_rec):
            return {"kind": "backup", "ok": False, "reason": "NOT_ALLOWED"}
        if s.status != "ACTIVE":
            return {"kind": "backup", "ok": False, "reason": "NOT_ALLOWED"}
        snap = []
        for q in self.queues_on(s):
            for m in q.msgs:
                if m.persistent and m.committed:
                    snap.append(m)
        s.backup = snap
        s.log = []
        return {"kind": "backup", "ok": True}

    def op_fail_structure(self, op):
        s = self.struct(op["cfstruct"])
        if s.status == "FAILED":
            return {"kind": "fail_structure", "ok": True}
        s.status = "FAILED"
        qs = self.queues_on(s)
        s.failed_np = []
        for q in qs:
            if self.F("R_RECOVER_KEEPS_NP"):
                s.failed_np.extend(m for m in q.msgs if not m.persistent and m.committed)
            q.msgs = []
        for qm in self.qm.values():
            qm.uow = [u for u in qm.uow if u[1].cfstruct != s.name]
        s.pool.eu = 0
        s.pool.elu = 0
        s.full_warning = False
        return {"kind": "fail_structure", "ok": True}

    def op_recover(self, op):
        s = self.struct(op["cfstruct"])
        purge = op.get("purge", False)
        if not self.recoverable(s) and not self.F("R_RECOVER_RECOVER_NO"):
            return {"kind": "recover", "ok": False, "reason": "NOT_ALLOWED"}
        if s.status != "FAILED" and not (self.F("R_RECOVER_NOT_FAILED_OK") and not purge):
            return {"kind": "recover", "ok": False, "reason": "NOT_FAILED"}
        if not purge and s.backup is None and not self.F("R_RECOVER_WITHOUT_BACKUP"):
            return {"kind": "recover", "ok": False, "reason": "NO_BACKUP"}
        qs = self.queues_on(s)
        for q in qs:
            for m in q.msgs:
                s.pool.sub(*m.elems)
            q.msgs = []
        for qm in self.qm.values():
            qm.uow = [u for u in qm.uow if u[1].cfstruct != s.name]
        s.status = "ACTIVE"
        if purge and not self.F("R_PURGE_KEEPS"):
            s.backup = None
            s.log = []
            return {"kind": "recover", "ok": True}
        live = {}
        for m in (s.backup or []):
            live[m.mid] = m
        if not self.F("R_NO_LOG_REPLAY"):
            for qmname, kind, m in s.log:
                if self.F("R_REPLAY_ACTIVE_ONLY") and not self.qm[qmname].active:
                    continue
                if kind == "put":
                    live[m.mid] = m
                else:
                    live.pop(m.mid, None)
        if self.F("R_RECOVER_KEEPS_NP"):
            for m in getattr(s, "failed_np", []):
                live[m.mid] = m
        byq = {q.name: q for q in qs}
        signals = []
        for mid in sorted(live):
            m = live[mid]
            q = byq.get(m.queue)
            if q is None:
                continue
            m.committed = True
            m.locked_by = None
            q.msgs.append(m)
            s.pool.add(*m.elems)
        self.full_check(s, signals)
        out = {"kind": "recover", "ok": True}
        if signals:
            out["signals"] = signals
        return out

    # ---------------------------------------------------------- SETXCF alter
    def op_setxcf_alter(self, op):
        s = self.struct(op["cfstruct"])
        new = op["size_kb"]
        if new <= 0:
            raise OpError(14, f"size_kb={new} is out of range",
                          {"field": "size_kb", "value": new, "allowed": ">= 1",
                           "rule_id": "CAPACITY-010"})
        if new > s.size_kb and not self.F("CAP_ALTER_ABOVE_SIZE"):
            return {"kind": "setxcf_alter", "ok": False, "reason": "OUT_OF_RANGE"}
        if s.status == "FAILED":
            return {"kind": "setxcf_alter", "ok": False, "reason": "NOT_ALLOWED"}
        et, elt = s.pool.totals(new)
        if et < s.pool.eu or elt < s.pool.elu:
            return {"kind": "setxcf_alter", "ok": False, "reason": "NOT_ALLOWED"}
        if self.F("CAP_ALTER_NO_RESIZE"):
            s.pool.size_kb = new
        else:
            s.pool.resize(new)
        signals = []
        self.full_check(s, signals)
        if self.profile == "cqs":
            self.cqs_check_exit_no_ovflw(s, signals)
        out = {"kind": "setxcf_alter", "ok": True, "usage": s.pool.usage()}
        if signals:
            out["signals"] = signals
        return out

    # ---------------------------------------------------------- definitions
    def op_define_structure(self, op):
        rec = op["structure"]
        try:
            if not isinstance(rec, dict):
                raise Invalid("INVALID", "structure record is not an object")
            rec = struct_defaults(rec, self.fault)
            validate_structure(rec, self.profile, self.fault, Invalid)
            if rec["name"] in self.structs:
                raise Invalid("INVALID", "structure already defined")
            if self.profile == "mq":
                check_struct_count(list(self.structs) + [rec["name"]], self.fault, Invalid)
        except Invalid as e:
            return {"kind": "define_structure", "ok": False, "reason": e.reason}
        self.structs[rec["name"]] = Struct(rec, self.profile, self.fault)
        return {"kind": "define_structure", "ok": True}

    def op_define_queue(self, op):
        rec = op["queue"]
        try:
            if not isinstance(rec, dict):
                raise Invalid("INVALID", "queue record is not an object")
            rec = fill_defaults(rec, QUEUE_DEFAULTS)
            owner = validate_queue(rec, self.profile, self.order, set(self.structs),
                                   self.fault, Invalid)
            if rec["name"] in self.queues:
                raise Invalid("INVALID", "queue already defined")
            if rec["cfstruct"] is not None and self.profile == "mq":
                n = len(self.queues_on(self.structs[rec["cfstruct"]])) + 1
                check_queue_count(n, self.fault, Invalid)
        except Invalid as e:
            return {"kind": "define_queue", "ok": False, "reason": e.reason}
        self.queues[rec["name"]] = Queue(rec, owner)
        return {"kind": "define_queue", "ok": True}

    def op_alter_queue(self, op):
        q = self.queue(op["name"])
        ch = op["changes"]
        allowed = {"maxdepth", "maxmsgl", "qdepthhi", "qdepthlo", "qdphiev", "qdploev", "qdpmaxev"}
        try:
            for k in ch:
                if k not in allowed:
                    raise Invalid("INVALID", f"keyword {k} cannot be altered")
            rec = {"name": q.name, "cfstruct": q.cfstruct, "qmgr": q.owner,
                   "maxdepth": q.maxdepth, "maxmsgl": q.maxmsgl, "qdepthhi": q.qdepthhi,
                   "qdepthlo": q.qdepthlo, "qdphiev": q.qdphiev, "qdploev": q.qdploev,
                   "qdpmaxev": q.qdpmaxev}
            rec.update(ch)
            validate_queue(rec, self.profile, self.order, set(self.structs), self.fault,
                           Invalid, existing=True)
        except Invalid as e:
            return {"kind": "alter_queue", "ok": False, "reason": e.reason}
        for k, v in ch.items():
            setattr(q, k, v)
        return {"kind": "alter_queue", "ok": True}

    def op_alter_structure(self, op):
        s = self.struct(op["name"])
        ch = op["changes"]
        keys = set(STRUCT_DEFAULTS) - {"resource"}
        try:
            for k in ch:
                if k not in keys:
                    raise Invalid("INVALID", f"keyword {k} cannot be altered")
            cur = {"name": s.name, "size_kb": s.size_kb, "initsize_kb": s.initsize_kb,
                   "fullthreshold": s.fullthreshold, "ratio": s.ratio, "cflevel": s.cflevel,
                   "recover": s.recover, "offload": s.offload,
                   "offld1th": s.rules[0][0], "offld1sz": s.rules[0][1],
                   "offld2th": s.rules[1][0], "offld2sz": s.rules[1][1],
                   "offld3th": s.rules[2][0], "offld3sz": s.rules[2][1],
                   "ovflwmax": s.ovflwmax, "ovflwstr": s.ovflwstr,
                   "ovflw_size_kb": s.ovflw_size_kb, "resource": s.resource}
            if self.F("OFF_ALTER_RESETS"):
                for k in ("offld1th", "offld1sz", "offld2th", "offld2sz", "offld3th", "offld3sz"):
                    cur[k] = STRUCT_DEFAULTS[k]
            new = dict(cur)
            new.update(ch)
            newlevel = new["cflevel"]
            if _is_int(newlevel) and newlevel < 5 and "offload" not in ch:
                new["offload"] = None
            validate_structure(new, self.profile, self.fault, Invalid)
            if self.profile == "cqs" and s.ovflwstr is None and new["ovflwstr"] is not None \
                    and not self.F("CQS_ADD_OVFLWSTR_LATER"):
                raise Invalid("NOT_ALLOWED", "adding OVFLWSTR needs a cold start")
            if new["size_kb"] < s.pool.size_kb:
                raise Invalid("NOT_ALLOWED", "SIZE below the allocated size")
            if self.profile == "mq" and newlevel < s.cflevel:
                guarded = s.cflevel in (3, 4) or (s.cflevel == 5)  # reading cflevel5_decrease=guarded
                if guarded and not self.F("CFL_DECREASE_UNGUARDED"):
                    for q in self.queues_on(s):
                        if self.F("CFL_DECREASE_IGNORES_UOW"):
                            busy = any(m.committed for m in q.msgs)
                        else:
                            busy = bool(q.msgs) or any(u[1] is q for m in self.qm.values()
                                                       for u in m.uow)
                        if busy:
                            raise Invalid("NOT_ALLOWED", "a queue on the structure is not empty")
        except Invalid as e:
            return {"kind": "alter_structure", "ok": False, "reason": e.reason}
        s.size_kb = new["size_kb"]
        s.fullthreshold = new["fullthreshold"]
        s.cflevel = new["cflevel"]
        s.recover = new["recover"]
        s.offload = new["offload"]
        if s.cflevel >= 5 and s.offload is None:
            s.offload = "DB2" if self.F("OFF_DEFAULT_DB2") else "SMDS"
        s.rules = [[new["offld1th"], new["offld1sz"]], [new["offld2th"], new["offld2sz"]],
                   [new["offld3th"], new["offld3sz"]]]
        if new["ovflwmax"] is not None:
            s.ovflwmax = new["ovflwmax"]
        s.ovflwstr = new["ovflwstr"]
        s.ovflw_size_kb = new["ovflw_size_kb"]
        if "ratio" in ch and new["ratio"] != s.ratio:
            s.ratio = new["ratio"]
            s.pool.ratio = s.ratio
            s.pool.resize(s.pool.size_kb)
        signals = []
        self.full_check(s, signals)
        out = {"kind": "alter_structure", "ok": True}
        if signals:
            out["signals"] = signals
        return out

    # ---------------------------------------------------------- CQS
    def lgm(self):
        return self.lgmsgsz

    def cqs_parts(self, length):
        L = self.lgm()
        if self.F("CQS_SPLIT_AT_EQUAL"):
            n = length // L + 1
        else:
            n = 1 if length <= L else ceil_div(length, L)
        if n == 1:
            return [length]
        parts = [L] * (n - 1)
        parts.append(length - L * (n - 1) if length - L * (n - 1) > 0 else 0)
        return parts

    def cqs_usage_pct_reached(self, p, pct):
        # reading cqs_usage_metric=elements; "reaches": >=
        if self.F("CQS_THRESH_STRICT"):
            return p.elu * 100 > pct * p.elt
        return p.elu * 100 >= pct * p.elt

    def cqs_target_met(self, s, elu):
        target = max(0, s.ovflwmax - 20)          # reading cqs_target=points-floor
        if self.F("CQS_TARGET_AT_THRESHOLD"):
            return elu * 100 < s.ovflwmax * s.pool.elt
        if self.F("CQS_SELECT_ALL"):
            return False
        return elu * 100 <= target * s.pool.elt

    def overflow_capable(self, s):
        return not s.resource or self.F("CQS_RESOURCE_OVERFLOW")

    def q_primary_elems(self, q):
        return sum(m.elems[1] for m in q.msgs if not m.in_ovf)

    def cqs_put(self, qm, q, op):
        s = self.structs[q.cfstruct]
        length = op["length"]
        in_ovf_mode = q.overflow
        if s.overflow_mode and s.ovflwstr is None and self.F("CQS_NO_OVFLW_REJECTS_ALL"):
            in_ovf_mode = True
        if in_ovf_mode and (s.ovflwstr is None or self.F("CQS_OVFLW_REJECTS")) \
                and not self.F("CQS_NO_OVFLW_ACCEPTS"):
            return {"kind": "put", "ok": False, "reason": "REJECTED_OVERFLOW",
                    "usage": s.pool.usage()}
        parts = self.cqs_parts(length)
        first = self.cf_cost(parts[0])
        stag = [self.cf_cost(pl)[1] for pl in parts[1:]]
        to_ovf = q.overflow and s.ovflwstr is not None and s.ovf is not None
        need_e = len(stag) + (0 if to_ovf else 1)
        need_el = sum(stag) + (0 if to_ovf else first[1])
        if self.structure_full(s.pool, need_e, need_el) or \
                (to_ovf and self.structure_full(s.ovf, 1, first[1])):
            return {"kind": "put", "ok": False, "reason": "STRUCTURE_FULL",
                    "usage": s.pool.usage()}
        before = s.pool.elu
        self.mid += 1
        m = Msg(self.mid, op.get("tag", 0), length, False, qm.name, q.name)
        m.elems = first
        m.staging = stag
        if to_ovf:
            m.in_ovf = True
            s.ovf.add(*first)
        else:
            s.pool.add(*first)
        for el in stag:
            s.pool.add(1, el)
        s.staging_depth += len(stag)
        q.msgs.append(m)
        signals = []
        self.full_check(s, signals)
        self.cqs_after_put(s, before, signals)
        out = {"kind": "put", "ok": True, "usage": s.pool.usage()}
        if signals:
            out["signals"] = signals
        return out

    def cqs_after_put(self, s, before, signals):
        if not self.overflow_capable(s):
            return
        p = s.pool
        reached = self.cqs_usage_pct_reached(p, s.ovflwmax)
        if not reached:
            return
        if s.overflow_mode:
            # reading cqs_reselect=select: crossing OVFLWMAX again selects more queues
            was = (before * 100 > s.ovflwmax * p.elt) if self.F("CQS_THRESH_STRICT") \
                else (before * 100 >= s.ovflwmax * p.elt)
            if not was:
                self.cqs_select(s, signals)
            return
        if s.alter_pending:
            return
        if getattr(s, "overflow_seen", False) and self.F("CQS_SECOND_CROSS_IGNORED"):
            return
        if self.F("CQS_NO_ALTER"):
            self.cqs_enter_overflow(s, signals)
            return
        s.alter_pending = True                       # reading cqs_alter=async
        signals.append("ALTER " + s.name)

    def cqs_enter_overflow(self, s, signals):
        s.overflow_mode = True
        s.overflow_seen = True
        signals.append("OVERFLOW_ON " + s.name)
        interval = 600 if self.F("CQS_SCAN_10MIN") else SCAN_SECONDS
        s.next_scan = self.clock + interval            # reading cqs_scan_anchor=overflow-start
        if s.ovflwstr is not None and s.ovf is None:
            s.ovf = Pool(s.ovflw_size_kb, s.ratio, self.fault)
        self.cqs_select(s, signals)

    def cqs_select(self, s, signals):
        qs = [q for q in self.queues.values() if q.cfstruct == s.name and not q.overflow]
        order = {n: i for i, n in enumerate(self.queues)}
        cands = [(self.q_primary_elems(q), q) for q in qs]
        cands = [c for c in cands if c[0] > 0]
        if self.F("CQS_SELECT_SMALLEST"):
            cands.sort(key=lambda c: (c[0], order[c[1].name]))
        else:
            cands.sort(key=lambda c: (-c[0], order[c[1].name]))
        if self.F("CQS_STAGING_ELIGIBLE"):
            st = self.staging_elems(s)
            if st > 0:
                cands.append((st, None))
                cands.sort(key=lambda c: (-c[0], order[c[1].name] if c[1] is not None else -1))
        projected = s.pool.elu
        vetoes = self.exit_vetoes
        for elems, q in cands:
            if self.cqs_target_met(s, projected):
                break
            name = q.name if q is not None else "STAGING"
            if vetoes is not None and name in vetoes and not self.F("CQS_IGNORE_EXIT"):
                if self.F("CQS_VETO_STOPS"):
                    break
                continue
            signals.append(f"OVERFLOW_QUEUE {s.name} {name}")
            projected -= elems
            if q is None:
                # faulty: staging parts dropped from the primary's books
                for qq in self.queues_on(s):
                    for m in qq.msgs:
                        for el in m.staging:
                            s.pool.sub(1, el)
                        m.staging = []
                s.staging_depth = 0
                continue
            q.overflow = True
            if s.ovflwstr is not None and s.ovf is not None:
                for m in q.msgs:
                    if not m.in_ovf:
                        m.in_ovf = True
                        s.pool.sub(*m.elems)
                        s.ovf.add(*m.elems)
                        if self.F("CQS_STAGING_MOVED"):
                            for el in m.staging:
                                s.pool.sub(1, el)
                                s.ovf.add(1, el)
                            s.staging_depth -= len(m.staging)
                            m.staging_moved = True
        self.full_check(s, signals)

    def staging_elems(self, s):
        return sum(sum(m.staging) for q in self.queues_on(s) for m in q.msgs
                   if not getattr(m, "staging_moved", False))

    def cqs_get(self, qm, q):
        s = self.structs[q.cfstruct]
        if not q.msgs:
            return {"kind": "get", "ok": False, "reason": "NO_MSG", "usage": s.pool.usage()}
        m = q.msgs.pop(0)
        moved = getattr(m, "staging_moved", False)
        if m.in_ovf:
            s.ovf.sub(*m.elems)
            if moved:
                for el in m.staging:
                    s.ovf.sub(1, el)
        else:
            s.pool.sub(*m.elems)
        if not moved:
            for el in m.staging:
                s.pool.sub(1, el)
            s.staging_depth -= len(m.staging)
        signals = []
        self.full_check(s, signals)
        self.cqs_check_exit_no_ovflw(s, signals)
        out = {"kind": "get", "ok": True, "tag": m.tag, "usage": s.pool.usage()}
        if signals:
            out["signals"] = signals
        return out

    def cqs_check_exit_no_ovflw(self, s, signals):
        if not s.overflow_mode or s.ovflwstr is not None:
            return
        p = s.pool
        if self.F("CQS_NOOVF_EXIT_AT_THRESHOLD"):
            met = p.elu * 100 < s.ovflwmax * p.elt
        else:
            met = p.elu * 100 <= max(0, s.ovflwmax - 20) * p.elt
        if met:
            self.cqs_leave(s, signals)

    def cqs_leave(self, s, signals):
        for q in self.queues_on(s):
            q.overflow = False
        s.overflow_mode = False
        s.next_scan = None
        signals.append("OVERFLOW_OFF " + s.name)

    def cqs_scan(self, s, signals):
        for q in sorted(self.queues_on(s), key=lambda q: q.name):
            if not q.overflow:
                continue
            if q.msgs and not self.F("CQS_SCAN_IGNORES_ENTRIES"):
                continue
            q.overflow = False
            # queue back to normal processing: any remaining entries return to the primary
            for m in q.msgs:
                if m.in_ovf:
                    s.ovf.sub(*m.elems)
                    s.pool.add(*m.elems)
                    m.in_ovf = False
            signals.append(f"OVERFLOW_QUEUE_OFF {s.name} {q.name}")
        if not any(q.overflow for q in self.queues_on(s)) and not self.F("CQS_NO_EXIT_OVERFLOW"):
            self.cqs_leave(s, signals)

    def op_alter_outcome(self, op):
        s = self.struct(op["cfstruct"])
        if not s.alter_pending:
            return {"kind": "alter_outcome", "ok": False, "reason": "NO_ALTER_PENDING"}
        size = op.get("size_kb")
        signals = []
        if op["success"]:
            new = s.size_kb if size is None else size
            if new <= 0 or new > s.size_kb:
                return {"kind": "alter_outcome", "ok": False, "reason": "OUT_OF_RANGE"}
            s.alter_pending = False
            et, elt = s.pool.totals(new)
            if et >= s.pool.eu and elt >= s.pool.elu and not self.F("CAP_ALTER_NO_RESIZE"):
                s.pool.resize(new)
            self.full_check(s, signals)
            if self.F("CQS_OVERFLOW_AFTER_GOOD_ALTER"):
                self.cqs_enter_overflow(s, signals)
        else:
            s.alter_pending = False
            self.cqs_enter_overflow(s, signals)
        out = {"kind": "alter_outcome", "ok": True, "usage": s.pool.usage()}
        if signals:
            out["signals"] = signals
        return out

    def op_set_overflow_exit(self, op):
        v = op.get("vetoes")
        self.exit_vetoes = list(v) if v is not None else None
        return {"kind": "set_overflow_exit", "ok": True}

    def op_advance_clock(self, op):
        sec = op["seconds"]
        if sec < 0:
            raise OpError(14, f"seconds={sec} is negative",
                          {"field": "seconds", "value": sec, "allowed": ">= 0", "rule_id": "CQS-000"})
        end = self.clock + sec
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
                interval = 600 if self.F("CQS_SCAN_10MIN") else SCAN_SECONDS
                s.next_scan = t + interval
                if s.ovflwstr is not None:
                    self.cqs_scan(s, signals)
        self.clock = end
        out = {"kind": "advance_clock", "ok": True}
        if signals:
            out["signals"] = signals
        return out

    # ---------------------------------------------------------- inspect
    def op_inspect(self, op):
        structs = {}
        for name in sorted(self.structs):
            s = self.structs[name]
            p = s.pool
            d = {"elements_total": p.elt, "elements_used": p.elu, "entries_total": p.et,
                 "entries_used": p.eu, "full_warning": s.full_warning,
                 "size_kb": p.size_kb, "status": s.status}
            if self.profile == "mq":
                pad = " " if self.F("T_CFNAME_BLANK_PAD") else "@"
                d["cfname"] = self.qsg.ljust(4, pad)[:4] + s.name
            else:
                d["alter_pending"] = s.alter_pending
                d["overflow_mode"] = s.overflow_mode
                d["overflow_queues"] = sorted(q.name for q in self.queues_on(s) if q.overflow)
                d["staging_depth"] = s.staging_depth
            structs[name] = dict(sorted(d.items()))
        queues = {}
        for name in sorted(self.queues):
            q = self.queues[name]
            if self.profile == "mq":
                queues[name] = {"depth": q.depth(), "qdphiev": q.qdphiev, "qdploev": q.qdploev,
                                "qdpmaxev": q.qdpmaxev}
            else:
                queues[name] = {"depth": len(q.msgs), "overflow": q.overflow}
        qmgrs = {n: {"active": self.qm[n].active, "perfmev": self.qm[n].perfmev}
                 for n in sorted(self.qm)}
        value = {"clock": self.clock, "qmgrs": qmgrs, "queues": queues, "structures": structs}
        if self.profile == "mq":
            value["admin"] = {"entries_total": self.admin_entries, "size_kb": self.admin_kb}
        return {"kind": "inspect", "ok": True, "value": dict(sorted(value.items()))}


