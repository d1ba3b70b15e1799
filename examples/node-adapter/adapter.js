#!/usr/bin/env node
// A small but real implementation of IBM MQ shared queues speaking the cfconform
// wire protocol (docs/PROTOCOL.md, version 1.0): newline-delimited JSON requests on
// stdin, replies on stdout, logs on stderr.
//
// It implements the `mq` profile's queue behaviour: MQPUT/MQGET in FIFO order,
// syncpoint units of work (commit/backout), MAXDEPTH (MQRC_Q_FULL 2053), MAXMSGL,
// CFLEVEL and RECOVER refusals, SMDS offload decisions, structure storage
// accounting (entries/elements, MQRC_STORAGE_MEDIUM_FULL 2192, FULLTHRESHOLD
// messages), queue depth events (QDPHI/QDPLO/QFULL) and inspect.  Structure
// administration, backup/recovery and the CQS profile are answered with the
// definite error 10 (not-supported); its capabilities claim only the families it
// implements.  No dependencies: `node adapter.js`.
"use strict";

const readline = require("readline");

const PROTOCOL_VERSION = "1.0";
const MAX_LINE_BYTES = 1024 * 1024;
const KB = 1024;
const SIZE_63K = 63 * KB;
const SIZE_63_75K = 65280;
const SIZE_100MB = 100 * 1024 * KB;
const RULE_OFF = 64 * KB;

// Error codes of the protocol's registry (docs/PROTOCOL.md, "Errors").
const NOT_SUPPORTED = 10, INVALID_REQUEST = 11, CRASH = 12, BAD_CONFIG = 13, INVALID_OPERATION = 14,
  PRECONDITION_FAILED = 15, VERSION_MISMATCH = 16, REQUEST_TOO_LARGE = 17;
const DEFINITE = { 10: true, 11: true, 12: false, 13: true, 14: true, 15: true, 16: true, 17: true };

// The readings (docs/PROTOCOL.md, "Capabilities") this implementation follows.
const READINGS = {
  offload_compare: "strict", offload_usage_metric: "max", forced_offload_boundary: "63.75K",
  persistent_low_cflevel_rc: "2048", large_low_cflevel_rc: "2366", qdepth_percent: "real",
  qfull_hi_flag: "unchanged", event_broadcast: "always",
};

const CAPABILITIES = {
  name: "node-example",
  protocol_version: PROTOCOL_VERSION,
  profiles: ["mq"],
  families: ["QUEUE", "QDEPTH", "OFFLOAD", "CFLEVEL"],
  readings: READINGS,
  reason_codes: "exact",
  observes: ["usage", "events", "signals", "inspect"],
};

const log = (...args) => process.stderr.write(`[node-adapter] ${args.join(" ")}\n`);

// An error thrown while handling a request; becomes an `error` reply.
class WireError extends Error {
  constructor(code, text, detail) {
    super(text);
    this.code = code;
    this.detail = detail;
  }
}

const invalidOp = (field, value, allowed) =>
  new WireError(INVALID_OPERATION, `${field}=${JSON.stringify(value)} is invalid: allowed ${allowed}`,
    { field, value, allowed, rule_id: "none" });

// -- configuration --------------------------------------------------------------------------
const STRUCTURE_DEFAULTS = {
  size_kb: 8192, initsize_kb: null, fullthreshold: 80, ratio: 6, cflevel: 3, recover: false, offload: null,
  offld1th: 70, offld1sz: 32 * KB, offld2th: 80, offld2sz: 4 * KB, offld3th: 90, offld3sz: 0,
};
const QUEUE_DEFAULTS = {
  cfstruct: null, qmgr: null, maxdepth: 5000, maxmsgl: 4 * 1024 * KB, qdepthhi: 80, qdepthlo: 20,
  qdphiev: false, qdploev: false, qdpmaxev: false,
};
const ACCOUNTING_DEFAULTS = {
  element_bytes: 256, entry_bytes: 256, header_bytes: 128, overhead: 1.3142, fixed_kb: 6144,
  offloaded_elements: 2,
};

function badConfig(field, value, allowed) {
  return new WireError(BAD_CONFIG, `config ${field}=${JSON.stringify(value)} is invalid: allowed ${allowed}`,
    { field, value, allowed, rule_id: "none" });
}

const isInt = (v) => Number.isInteger(v);

function poolTotals(sizeKb, ratio, acct) {
  const usable = Math.max(0, ((sizeKb - acct.fixed_kb) * KB) / acct.overhead);
  const entries = Math.floor(usable / (acct.entry_bytes + ratio * acct.element_bytes));
  return [entries, entries * ratio];
}

function elementsFor(length, acct) {
  return Math.max(1, Math.ceil((length + acct.header_bytes) / acct.element_bytes));
}

class QueueSharingGroup {
  constructor(config) {
    if (config === null || typeof config !== "object" || Array.isArray(config)) {
      throw badConfig("config", config, "an object");
    }
    if ((config.profile ?? "mq") !== "mq") {
      throw new WireError(NOT_SUPPORTED, `profile ${JSON.stringify(config.profile)} not implemented; profiles ["mq"]`);
    }
    this.acct = { ...ACCOUNTING_DEFAULTS, ...(config.accounting || {}) };
    this.clock = 0;
    this.correl = 0;
    this.seq = 0;
    this.live = new Map();
    this.qmgrs = new Map();
    const qmgrs = config.qmgrs ?? ["QM01", "QM02", "QM03"];
    if (!Array.isArray(qmgrs) || qmgrs.length === 0) throw badConfig("qmgrs", qmgrs, "a non-empty list");
    const disabled = new Set(config.perfmev_disabled || []);
    for (const name of [...qmgrs].sort()) {
      if (typeof name !== "string") throw badConfig("qmgrs", name, "queue manager names");
      this.qmgrs.set(name, { name, active: true, perfmev: !disabled.has(name), uow: [] });
    }
    this.order = [...qmgrs];  // definition order, for event broadcasts
    this.structures = new Map();
    for (const raw of config.structures ?? [{ name: "APP1" }]) {
      const defn = { ...STRUCTURE_DEFAULTS, ...raw };
      if (typeof defn.name !== "string") throw badConfig("structures[].name", defn.name, "a name");
      if (!isInt(defn.cflevel) || defn.cflevel < 1 || defn.cflevel > 5) {
        throw badConfig(`structures[${defn.name}].cflevel`, defn.cflevel, "1..5");
      }
      const sizeKb = defn.initsize_kb ?? defn.size_kb;
      const [et, lt] = poolTotals(sizeKb, defn.ratio, this.acct);
      this.structures.set(defn.name, {
        defn, sizeKb, eu: 0, et, lu: 0, lt, failed: false, fullWarning: false,
      });
    }
    this.queues = new Map();
    for (const raw of config.queues ?? []) {
      const defn = { ...QUEUE_DEFAULTS, ...raw };
      if (typeof defn.name !== "string") throw badConfig("queues[].name", defn.name, "a name");
      if (defn.cfstruct !== null && !this.structures.has(defn.cfstruct)) {
        throw badConfig(`queues[${defn.name}].cfstruct`, defn.cfstruct, "a defined structure");
      }
      if (defn.cfstruct === null && !this.qmgrs.has(defn.qmgr)) {
        throw badConfig(`queues[${defn.name}].qmgr`, defn.qmgr, "an owning queue manager");
      }
      this.queues.set(defn.name, {
        defn, msgs: [], depth: 0, hi: defn.qdphiev, lo: defn.qdploev, max: defn.qdpmaxev, stats: new Map(),
      });
    }
  }

  // -- helpers ----------------------------------------------------------------------------
  qmgr(name) {
    const qm = this.qmgrs.get(name);
    if (!qm) throw invalidOp("qmgr", name, `one of ${JSON.stringify([...this.qmgrs.keys()])}`);
    return qm;
  }

  caller(qmgr, queue) {
    const qm = this.qmgr(qmgr);
    const q = this.queues.get(queue);
    if (!q) throw invalidOp("queue", queue, `one of ${JSON.stringify([...this.queues.keys()].sort())}`);
    if (q.defn.cfstruct === null) {
      if (q.defn.qmgr !== qmgr) throw invalidOp("qmgr", qmgr, `${q.defn.qmgr}, the owner of ${queue}`);
      return [qm, q, null];
    }
    return [qm, q, this.structures.get(q.defn.cfstruct)];
  }

  usagePct(s) {
    if (s.et <= 0 || s.lt <= 0) return 100.0;
    return 100.0 * Math.max(s.eu / s.et, s.lu / s.lt);  // reading offload_usage_metric=max
  }

  fullSignals(s) {
    const th = s.defn.fullthreshold;
    if (th <= 0) return [];
    const high = 100 * s.eu >= th * s.et || 100 * s.lu >= th * s.lt;
    if (high && !s.fullWarning) {
      s.fullWarning = true;
      return [`IXC585E ${s.defn.name}`];
    }
    if (!high && s.fullWarning) {
      s.fullWarning = false;
      return [`IXC586I ${s.defn.name}`];
    }
    return [];
  }

  // Offload decision for a CFLEVEL(4)/(5) structure (docs: offload rules).
  offloaded(s, length) {
    const d = s.defn;
    if (d.cflevel < 4) return false;
    if (length > SIZE_63_75K) return true;
    if (d.cflevel < 5) return false;
    const usage = this.usagePct(s);
    for (const [th, sz] of [[d.offld1th, d.offld1sz], [d.offld2th, d.offld2sz], [d.offld3th, d.offld3sz]]) {
      if (sz >= RULE_OFF) continue;
      // Seed 002: OFFLDnTH(0) "set to 0% to offload all such messages", OFFLDnSZ(0K) "(all messages)".
      if ((th === 0 || usage > th) && (sz === 0 || length > sz)) return true;
    }
    return false;
  }

  // -- queue depth events -----------------------------------------------------------------
  count(q, qmgr, enq, deq) {
    const st = q.stats.get(qmgr) || [0, 0];
    st[0] += enq;
    st[1] += deq;
    q.stats.set(qmgr, st);
  }

  eventMessage(q, qmgr, kind, correl) {
    const [enq, deq] = q.stats.get(qmgr) || [0, 0];
    q.stats.set(qmgr, [0, 0]);
    return { qmgr, kind, queue: q.defn.name, correl, enq, deq };
  }

  toggle(q, kind) {
    if (kind === "QDPHI") [q.hi, q.lo, q.max] = [false, true, true];
    else if (kind === "QDPLO") [q.hi, q.lo, q.max] = [true, false, true];
    else [q.lo, q.max] = [true, false];
  }

  fire(q, kind, detector) {
    if (q.defn.cfstruct === null) {
      const owner = this.qmgrs.get(q.defn.qmgr);
      if (!owner.perfmev) return [];
      this.toggle(q, kind);
      return [this.eventMessage(q, owner.name, kind, 0)];
    }
    this.toggle(q, kind);
    const coordinator = this.qmgrs.get(detector);
    const issuers = coordinator.perfmev ? [coordinator] : [];
    for (const name of this.order) {
      const m = this.qmgrs.get(name);
      if (m !== coordinator && m.active && m.perfmev) issuers.push(m);
    }
    if (issuers.length === 0) return [];
    this.correl += 1;
    return issuers.map((m) => this.eventMessage(q, m.name, kind, this.correl));
  }

  // -- operations -------------------------------------------------------------------------
  put(op) {
    const [qm, q, s] = this.caller(op.qmgr, op.queue);
    const length = op.length;
    if (!isInt(length) || length < 0 || length > SIZE_100MB) {
      throw invalidOp("put.length", length, `an integer 0..${SIZE_100MB}`);
    }
    const persistent = op.persistent === true, syncpoint = op.syncpoint === true;
    if (!qm.active) return { kind: "put", ok: false, reason: "NOT_ACTIVE" };
    const refuse = (reason) => ({ kind: "put", ok: false, reason });
    if (s !== null) {
      if (s.failed) return refuse(2373);
      if (persistent && s.defn.cflevel <= 2) return refuse(2048);
      if (persistent && !s.defn.recover) return refuse(2048);
    }
    if (length > q.defn.maxmsgl) return refuse(2030);
    if (s !== null && s.defn.cflevel < 4 && length > SIZE_63K) return refuse(2366);
    if (q.depth >= q.defn.maxdepth) {
      const out = { kind: "put", ok: false, reason: 2053 };  // MQRC_Q_FULL
      if (q.max) {
        const events = this.fire(q, "QFULL", op.qmgr);
        if (events.length) out.events = events;
      }
      return out;
    }
    let offloaded = false, elements = 0;
    if (s !== null) {
      offloaded = this.offloaded(s, length);
      elements = offloaded ? this.acct.offloaded_elements : elementsFor(length, this.acct);
      if (s.eu + 1 > s.et || s.lu + elements > s.lt) {
        return { kind: "put", ok: false, reason: 2192, usage: [s.eu, s.et, s.lu, s.lt] };
      }
      s.eu += 1;
      s.lu += elements;
    }
    this.seq += 1;
    const msg = { seq: this.seq, tag: op.tag ?? 0, persistent, elements, uncommitted: syncpoint, locked: false };
    q.msgs.push(msg);
    q.depth += 1;
    this.live.set(msg.seq, msg);
    if (syncpoint) qm.uow.push(["put", q.defn.name, msg.seq]);
    this.count(q, op.qmgr, 1, 0);
    let events = [];
    const d = q.defn;
    if (q.hi && 100 * q.depth >= d.qdepthhi * d.maxdepth) events = this.fire(q, "QDPHI", op.qmgr);
    const out = { kind: "put", ok: true };
    if (s !== null) out.offloaded = offloaded;
    if (events.length) out.events = events;
    if (s !== null) {
      const signals = this.fullSignals(s);
      if (signals.length) out.signals = signals;
      out.usage = [s.eu, s.et, s.lu, s.lt];
    }
    return out;
  }

  remove(q, index, s) {
    const [msg] = q.msgs.splice(index, 1);
    this.live.delete(msg.seq);
    if (s !== null) {
      s.eu -= 1;
      s.lu -= msg.elements;
    }
  }

  get(op) {
    const [qm, q, s] = this.caller(op.qmgr, op.queue);
    if (!qm.active) return { kind: "get", ok: false, reason: "NOT_ACTIVE" };
    if (s !== null && s.failed) return { kind: "get", ok: false, reason: 2373 };
    const index = q.msgs.findIndex((m) => !m.uncommitted && !m.locked);
    if (index < 0) return { kind: "get", ok: false, reason: 2033 };  // MQRC_NO_MSG_AVAILABLE
    const msg = q.msgs[index];
    if (op.syncpoint === true) {
      msg.locked = true;
      qm.uow.push(["get", q.defn.name, msg.seq]);
    } else {
      this.remove(q, index, s);
    }
    q.depth -= 1;
    this.count(q, op.qmgr, 0, 1);
    let events = [];
    const d = q.defn;
    if (q.lo && 100 * q.depth <= d.qdepthlo * d.maxdepth) events = this.fire(q, "QDPLO", op.qmgr);
    const out = { kind: "get", ok: true, tag: msg.tag };
    if (events.length) out.events = events;
    if (s !== null) {
      const signals = this.fullSignals(s);
      if (signals.length) out.signals = signals;
      out.usage = [s.eu, s.et, s.lu, s.lt];
    }
    return out;
  }

  settle(qm, commit) {
    const touched = new Map();
    for (const [action, qname, seq] of qm.uow) {
      const msg = this.live.get(seq);
      if (msg === undefined) continue;
      const q = this.queues.get(qname);
      const s = q.defn.cfstruct === null ? null : this.structures.get(q.defn.cfstruct);
      if (s !== null) touched.set(s.defn.name, s);
      if (action === "put" && commit) {
        msg.uncommitted = false;
      } else if (action === "get" && !commit) {
        msg.locked = false;
        q.depth += 1;
      } else {
        this.remove(q, q.msgs.indexOf(msg), s);
        if (action === "put") q.depth -= 1;
      }
    }
    qm.uow = [];
    const signals = [];
    for (const s of touched.values()) signals.push(...this.fullSignals(s));
    return signals;
  }

  unitOfWork(op, commit) {
    const kind = commit ? "commit" : "backout";
    const qm = this.qmgr(op.qmgr);
    if (!qm.active) return { kind, ok: false, reason: "NOT_ACTIVE" };
    const signals = this.settle(qm, commit);
    return signals.length ? { kind, ok: true, signals } : { kind, ok: true };
  }

  apply(op) {
    switch (op.op) {
      case "put": return this.put(op);
      case "get": return this.get(op);
      case "commit": return this.unitOfWork(op, true);
      case "backout": return this.unitOfWork(op, false);
      case "set_perfmev":
        this.qmgr(op.qmgr).perfmev = op.enabled === true;
        return { kind: "set_perfmev", ok: true };
      case "start_qmgr":
        this.qmgr(op.qmgr).active = true;
        return { kind: "start_qmgr", ok: true };
      case "stop_qmgr": {
        const qm = this.qmgr(op.qmgr);
        const signals = this.settle(qm, false);
        qm.active = false;
        return signals.length ? { kind: "stop_qmgr", ok: true, signals } : { kind: "stop_qmgr", ok: true };
      }
      case "advance_clock":
        if (!isInt(op.seconds) || op.seconds < 0) throw invalidOp("advance_clock.seconds", op.seconds, "an integer >= 0");
        this.clock += op.seconds;
        return { kind: "advance_clock", ok: true };
      case "inspect":
        return { kind: "inspect", ok: true, value: this.project() };
      default:
        if (KNOWN_KINDS.has(op.op)) {
          throw new WireError(NOT_SUPPORTED, `operation ${op.op} is not implemented by node-example`);
        }
        throw new WireError(INVALID_REQUEST, `unknown operation kind ${JSON.stringify(op.op)}`);
    }
  }

  project() {
    const byName = (m) => [...m.keys()].sort();
    const structures = {};
    for (const name of byName(this.structures)) {
      const s = this.structures.get(name);
      structures[name] = {
        status: s.failed ? "FAILED" : "ACTIVE", size_kb: s.sizeKb, entries_used: s.eu, entries_total: s.et,
        elements_used: s.lu, elements_total: s.lt, full_warning: s.fullWarning,
      };
    }
    const queues = {};
    for (const name of byName(this.queues)) {
      const q = this.queues.get(name);
      queues[name] = { depth: q.depth, qdphiev: q.hi, qdploev: q.lo, qdpmaxev: q.max };
    }
    const qmgrs = {};
    for (const name of byName(this.qmgrs)) {
      const m = this.qmgrs.get(name);
      qmgrs[name] = { active: m.active, perfmev: m.perfmev };
    }
    return { clock: this.clock, structures, queues, qmgrs };
  }
}

const KNOWN_KINDS = new Set([
  "define_structure", "alter_structure", "define_queue", "alter_queue", "put", "get", "commit", "backout",
  "set_perfmev", "start_qmgr", "stop_qmgr", "backup", "fail_structure", "recover", "setxcf_alter",
  "alter_outcome", "set_overflow_exit", "advance_clock", "inspect",
]);
const REQUIRED = {
  put: { qmgr: "string", queue: "string", length: "number" }, get: { qmgr: "string", queue: "string" },
  commit: { qmgr: "string" }, backout: { qmgr: "string" }, set_perfmev: { qmgr: "string", enabled: "boolean" },
  start_qmgr: { qmgr: "string" }, stop_qmgr: { qmgr: "string" }, advance_clock: { seconds: "number" },
};

function checkOp(op) {
  if (op === null || typeof op !== "object" || Array.isArray(op)) {
    throw new WireError(INVALID_REQUEST, "an op must be a JSON object");
  }
  for (const [field, type] of Object.entries(REQUIRED[op.op] || {})) {
    if (typeof op[field] !== type) {
      throw new WireError(INVALID_REQUEST, `${op.op}.${field} must be a ${type}, got ${JSON.stringify(op[field])}`);
    }
  }
}

// -- the protocol ---------------------------------------------------------------------------
let initialised = false;
let qsg = null;
let replyLimit = MAX_LINE_BYTES;

function send(msg) {
  process.stdout.write(JSON.stringify(msg) + "\n");
}

function errorReply(inReplyTo, code, text, detail) {
  const msg = { type: "error", in_reply_to: inReplyTo, code, text, definite: DEFINITE[code] ?? false };
  if (detail !== undefined) msg.detail = detail;
  return msg;
}

function applyOne(op) {
  checkOp(op);
  return qsg.apply(op);
}

function handle(msg) {
  const id = msg.msg_id;
  switch (msg.type) {
    case "init":
      if (initialised) return errorReply(id, PRECONDITION_FAILED, "init sent twice");
      if (typeof msg.protocol_version !== "string" || msg.protocol_version.split(".")[0] !== "1") {
        return errorReply(id, VERSION_MISMATCH, `protocol_version ${JSON.stringify(msg.protocol_version)} not supported; this speaks ${PROTOCOL_VERSION}`);
      }
      if (Number.isInteger(msg.max_line_bytes)) replyLimit = msg.max_line_bytes;
      initialised = true;
      log(`init from ${msg.suite || "?"}`);
      return { type: "init_ok", in_reply_to: id, protocol_version: PROTOCOL_VERSION, capabilities: CAPABILITIES, max_line_bytes: MAX_LINE_BYTES };
    case "open":
      qsg = null;
      qsg = new QueueSharingGroup(msg.config);
      return { type: "open_ok", in_reply_to: id };
    case "apply":
      if (qsg === null) return errorReply(id, PRECONDITION_FAILED, "apply before a successful open");
      return { type: "apply_ok", in_reply_to: id, outcome: applyOne(msg.op) };
    case "batch": {
      if (qsg === null) return errorReply(id, PRECONDITION_FAILED, "batch before a successful open");
      if (!Array.isArray(msg.ops) || msg.ops.length === 0) return errorReply(id, INVALID_REQUEST, "batch needs a non-empty ops list");
      const outcomes = [];
      let size = 200;
      for (const op of msg.ops) {
        if (outcomes.length && size + 65536 > replyLimit) break;  // reply with this prefix; the suite resends the rest
        try {
          const outcome = applyOne(op);
          size += JSON.stringify(outcome).length + 1;
          outcomes.push(outcome);
        } catch (err) {
          const e = err instanceof WireError ? err : new WireError(CRASH, `${err}`);
          const reply = errorReply(id, e.code, e.message, e.detail);
          delete reply.type;
          delete reply.in_reply_to;
          return { type: "batch_ok", in_reply_to: id, outcomes, error: reply };
        }
      }
      return { type: "batch_ok", in_reply_to: id, outcomes };
    }
    case "close":
      return { type: "close_ok", in_reply_to: id };
    default:
      return errorReply(id, INVALID_REQUEST, `unknown message type ${JSON.stringify(msg.type)}`);
  }
}

function onLine(line) {
  if (!line.trim()) return;
  if (Buffer.byteLength(line) > MAX_LINE_BYTES) {
    send(errorReply(null, REQUEST_TOO_LARGE, `request longer than ${MAX_LINE_BYTES} bytes`));
    return;
  }
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (err) {
    send(errorReply(null, INVALID_REQUEST, `not JSON: ${err.message}`));
    return;
  }
  if (msg === null || typeof msg !== "object" || !Number.isInteger(msg.msg_id) || typeof msg.type !== "string") {
    send(errorReply(null, INVALID_REQUEST, "a request is an object with a string type and an integer msg_id"));
    return;
  }
  if (msg.type !== "init" && !initialised) {
    send(errorReply(msg.msg_id, PRECONDITION_FAILED, `${msg.type} before init`));
    return;
  }
  let reply;
  try {
    reply = handle(msg);
  } catch (err) {
    if (err instanceof WireError) reply = errorReply(msg.msg_id, err.code, err.message, err.detail);
    else {
      log(`internal error: ${err && err.stack}`);
      reply = errorReply(msg.msg_id, CRASH, `internal error: ${err}`);
    }
  }
  if (msg.type === "close" && reply.type === "close_ok") {
    process.stdout.write(JSON.stringify(reply) + "\n", () => process.exit(0));
    rl.close();
    return;
  }
  send(reply);
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
rl.on("line", onLine);
rl.on("close", () => {
  // End of input without close: exit once stdout is flushed.
  process.stdout.write("", () => process.exit(0));
});
