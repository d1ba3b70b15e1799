#!/usr/bin/env node
// fifth-reading: an independent implementation of IBM coupling-facility shared-queue
// behaviour (IBM MQ for z/OS shared queues, profile "mq"; IMS CQS structures, profile "cqs")
// speaking the cfconform wire protocol 1.2 on stdin/stdout.
//
// Written only from the five IBM seed texts, ibm-facts.md and docs/PROTOCOL.md + schemas.
// Node.js >= 18, CommonJS, standard library only.
//
//   node impl.js                 the faithful build
//   node impl.js --fault NAME    a deliberately wrong build that breaks one sentence
//   node impl.js --list-faults   print the fault names
//
// See README.md for every reading chosen and the storage accounting.
'use strict';

const readline = require('readline');

// ---------------------------------------------------------------------------------------
// Fault kit: each name breaks exactly one documented sentence (see faults.json).
// ---------------------------------------------------------------------------------------
const FAULTS = [
  // CQS
  'cqs-default-80', 'cqs-threshold-strict', 'cqs-metric-entries', 'cqs-no-alter',
  'cqs-overflow-on-alter-success', 'cqs-select-least', 'cqs-target-at-threshold',
  'cqs-exit-ignored', 'cqs-veto-stops-selection', 'cqs-no-ovflwstr-accepts',
  'cqs-reject-all-queues', 'cqs-staging-moved', 'cqs-no-staging', 'cqs-lgmsgsz-inclusive',
  'cqs-scan-5min', 'cqs-immediate-exit', 'cqs-scan-removes-nonempty',
  'cqs-exit-at-threshold', 'cqs-resource-overflow', 'cqs-ovflwstr-added-later',
  // OFFLOAD
  'offload-default-db2', 'offload-th-inclusive', 'offload-sz-inclusive', 'offload-kb-decimal',
  'offload-ignore-threshold', 'offload-64k-disables-all', 'offload-forced-64k',
  'offload-cost-full', 'offload-below-cflevel5', 'offload-alter-resets',
  // CFLEVEL
  'cflevel-persistent-needs-4', 'cflevel-large-at-3', 'cflevel-63k-decimal',
  'cflevel-recover-no-persistent', 'cflevel-decrease-unguarded',
  // CAPACITY
  'capacity-qfull-offbyone', 'capacity-full-wrong-rc', 'capacity-entries-ignored',
  'capacity-maxmsgl-inclusive', 'capacity-failed-rc',
  // TOPOLOGY
  'topo-512-offbyone', 'topo-64-structures', 'topo-sysappl-not-counted', 'topo-33-qmgrs',
  'topo-qsg-5chars', 'topo-cfname-nopad', 'topo-struct-name-13',
  // SIZING
  'sizing-admin-row-offbyone', 'sizing-admin-check-skipped', 'sizing-kb-1000',
  'sizing-initsize-ignored', 'sizing-alter-over-size', 'sizing-ft-strict', 'sizing-ft0-not-off',
  'sizing-no-ixc586', 'sizing-ft-elements-only',
  // QDEPTH
  'qdepth-hi-strict', 'qdepth-lo-strict', 'qdepth-hi-no-lo-enable', 'qdepth-hi-stays-enabled',
  'qdepth-shared-gated', 'qdepth-nonshared-ungated', 'qdepth-no-broadcast',
  'qdepth-broadcast-disabled', 'qdepth-broadcast-inactive', 'qdepth-correl-per-qmgr',
  'qdepth-stats-not-reset', 'qdepth-stats-global', 'qdepth-qfull-no-lo-enable',
  'qdepth-events-at-commit', 'qdepth-reset-ignored', 'qdepth-first-qmgr-coordinates',
  // RECOVERY
  'recovery-np-recovered', 'recovery-backup-recover-no', 'recovery-normal-nonfailed',
  'recovery-no-replay', 'recovery-purge-keeps', 'recovery-no-backup-needed',
  // QUEUE
  'queue-lifo', 'queue-uncommitted-visible', 'queue-stop-commits', 'queue-shared-np-lost-at-stop',
];

function parseFault(argv) {
  const i = argv.indexOf('--fault');
  if (i < 0) return null;
  const name = argv[i + 1];
  if (!FAULTS.includes(name)) {
    process.stderr.write(`fifth-reading: unknown fault ${JSON.stringify(name)}; use --list-faults\n`);
    process.exit(2);
  }
  return name;
}
if (process.argv.includes('--list-faults')) {
  process.stdout.write(FAULTS.join('\n') + '\n');
  process.exit(0);
}
const FAULT = parseFault(process.argv);
const F = (name) => FAULT === name;

// ---------------------------------------------------------------------------------------
// Constants: storage accounting of our own design (README "Storage accounting").
// ---------------------------------------------------------------------------------------
const KB = F('sizing-kb-1000') ? 1000 : 1024; // bytes per KB (CFRM sizes are in KB of 1024)
const ELEMENT_BYTES = 512;        // "at least a coupling facility entry plus at least 512 bytes of data"
const ENTRY_BYTES = 256;          // list entry control; 256 + 512 = 768 B = "0.75 KB" per offloaded message
const ELEMENTS_PER_ENTRY = 3;     // our fixed entry:element ratio 1:3
const UNIT_BYTES = ENTRY_BYTES + ELEMENTS_PER_ENTRY * ELEMENT_BYTES; // 1792
const CONTROL_DIVISOR = 16;       // 1/16 of a structure is control area (not usable)
const OFFLOADED_ELEMENTS = 1;     // an offloaded message keeps one element of references in the CF
const CF_MAX_DATA = F('cflevel-63k-decimal') ? 63000 : 63 * 1024; // 64 512 bytes = 63 KB
const FORCED_OFFLOAD = F('offload-forced-64k') ? 64 * 1024 : CF_MAX_DATA; // reading forced_offload_boundary=63K
const RULE_OFF = 64 * 1024;       // OFFLDnSZ(64K): the rule is not in effect
const QM_MAXMSGL = 104857600;     // 100 MB
const MAX_QUEUE_DEPTH = 999999999;
const ADMIN_ENTRY_BYTES = 512;    // CSQ_ADMIN: one list entry + its data charged 512 bytes
const SCAN_SECONDS = F('cqs-scan-5min') ? 300 : 900; // "The queues are scanned every 15 minutes."
const MAX_QUEUES_PER_STRUCT = F('topo-512-offbyone') ? 511 : 512;
const MAX_APP_STRUCTS = F('topo-64-structures') ? 64 : 63; // CSQ_ADMIN is the 64th
const MAX_CONNECTED_QMGRS = F('topo-33-qmgrs') ? 33 : 32;
const LGMSGSZ_MAX = 30632;
const MY_MAX_LINE = 4 * 1048576;

const ADMIN_CFCC14 = [6144, 6912, 7976, 8704, 9728, 10496, 11520, 12288, 13056, 14080, 14848,
  15616, 16640, 17408, 18176, 19200, 19968, 20736, 21760, 22528, 23296, 24320, 25088, 25856,
  27136, 27904, 28672, 29696, 30464, 31232, 32256];
const ADMIN_V6_POINTS = [[1, 2560], [2, 3328], [4, 4608], [8, 7680], [16, 13568], [31, 24832]];

// ---------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------
class WireError extends Error {
  constructor(code, text, detail) { super(text); this.code = code; this.detail = detail; }
}
const DEFINITE = { 10: true, 11: true, 12: false, 13: true, 14: true, 15: true, 16: true, 17: true, 18: false, 19: true, 20: false };
function errObj(code, text, detail) {
  const e = { code, text, definite: DEFINITE[code] !== undefined ? DEFINITE[code] : true };
  if (detail !== undefined) e.detail = detail;
  return e;
}
function invalidOp(field, value, allowed, text) {
  return new WireError(14, text || `${field}=${JSON.stringify(value)} is invalid: allowed ${allowed}`,
    { field, value: value === undefined ? null : value, allowed });
}
function badConfig(field, value, allowed) {
  return new WireError(13, `config ${field}=${JSON.stringify(value)} is invalid: allowed ${allowed}`,
    { field, value: value === undefined ? null : value, allowed });
}

// ---------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------
const isInt = (v) => typeof v === 'number' && Number.isInteger(v);
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const ceilDiv = (a, b) => Math.floor((a + b - 1) / b);
const dict = () => Object.create(null);

function geometry(sizeKb) {
  const bytes = sizeKb * KB;
  const usable = bytes - Math.floor(bytes / CONTROL_DIVISOR);
  const units = Math.max(0, Math.floor(usable / UNIT_BYTES));
  return { entries: units, elements: units * ELEMENTS_PER_ENTRY };
}
// smallest size (KB) whose geometry holds the given usage
function minSizeFor(entries, elements) {
  const units = Math.max(entries, ceilDiv(elements, ELEMENTS_PER_ENTRY));
  let kb = Math.max(1, Math.floor((units * UNIT_BYTES) / KB));
  while (true) {
    const g = geometry(kb);
    if (g.entries >= entries && g.elements >= elements) return kb;
    kb += 1;
  }
}
function dataElements(len) { return Math.max(1, ceilDiv(len, ELEMENT_BYTES)); }

// ---------------------------------------------------------------------------------------
// Record defaults (docs/schemas/config.json) and validation
// ---------------------------------------------------------------------------------------
const STRUCT_DEFAULTS = {
  size_kb: 8192, initsize_kb: null, fullthreshold: 80, ratio: 6, cflevel: 3, recover: false,
  offload: null, offld1th: 70, offld1sz: 32768, offld2th: 80, offld2sz: 4096, offld3th: 90,
  offld3sz: 0, ovflwmax: null, ovflwstr: null, ovflw_size_kb: 8192, resource: false,
};
const STRUCT_TYPES = {
  name: 'string', size_kb: 'int', initsize_kb: 'int?', fullthreshold: 'int', ratio: 'int',
  cflevel: 'int', recover: 'bool', offload: 'string?', offld1th: 'int', offld1sz: 'int',
  offld2th: 'int', offld2sz: 'int', offld3th: 'int', offld3sz: 'int', ovflwmax: 'int?',
  ovflwstr: 'string?', ovflw_size_kb: 'int', resource: 'bool',
};
const QUEUE_DEFAULTS = {
  cfstruct: null, qmgr: null, maxdepth: 999999999, maxmsgl: 4194304, qdepthhi: 80, qdepthlo: 20,
  qdphiev: false, qdploev: false, qdpmaxev: false,
};
const QUEUE_TYPES = {
  name: 'string', cfstruct: 'string?', qmgr: 'string?', maxdepth: 'int', maxmsgl: 'int',
  qdepthhi: 'int', qdepthlo: 'int', qdphiev: 'bool', qdploev: 'bool', qdpmaxev: 'bool',
};
const READINGS = {
  cqs_target: ['points', 'relative', 'drop-points', 'drop-relative'],
  cqs_usage_metric: ['elements', 'max'], cqs_scan_anchor: ['clock', 'overflow-start'],
  offload_compare: ['strict', 'inclusive'], offload_usage_metric: ['max', 'elements', 'combined'],
  forced_offload_boundary: ['63.75K', '63K'], persistent_low_cflevel_rc: ['2048', '2366'],
  large_low_cflevel_rc: ['2366', '2030'], qdepth_percent: ['real', 'floor', 'ceil'],
  qfull_hi_flag: ['unchanged', 'disabled'], event_broadcast: ['always', 'if-coordinator-enabled'],
  recover_purge_nonfailed: ['rejected', 'accepted'], alter_below_initsize: ['rejected', 'accepted'],
  cflevel5_decrease: ['guarded', 'unguarded'], alter_at_size: ['accepted', 'rejected'],
  alter_not_larger: ['accepted', 'rejected'], full_signal_timing: ['at-crossing', 'deferred'],
  cqs_alter: ['async', 'sync'], cqs_empty_overflow: ['ends', 'stays'],
  nonshared_at_stop: ['kept', 'lost'],
};
const ACCOUNTING_TYPES = {
  element_bytes: 'int', entry_bytes: 'int', header_bytes: 'int', overhead: 'number',
  fixed_kb: 'int', offloaded_elements: 'int',
};

function typeOk(t, v) {
  switch (t) {
    case 'string': return typeof v === 'string';
    case 'string?': return v === null || typeof v === 'string';
    case 'int': return isInt(v);
    case 'int?': return v === null || isInt(v);
    case 'bool': return typeof v === 'boolean';
    case 'number': return typeof v === 'number' && Number.isFinite(v);
    default: return false;
  }
}

// Returns {rec} or {bad: {field, value, allowed}}: a record the documents forbid.
function checkShape(raw, types, defaults, what) {
  if (!isObj(raw)) return { bad: { field: what, value: raw, allowed: 'an object' } };
  for (const k of Object.keys(raw)) {
    if (!(k in types)) return { bad: { field: `${what}.${k}`, value: raw[k], allowed: 'a known field' } };
  }
  if (!('name' in raw)) return { bad: { field: `${what}.name`, value: null, allowed: 'a name (required)' } };
  const rec = Object.assign({}, defaults, raw);
  for (const [k, t] of Object.entries(types)) {
    if (!typeOk(t, rec[k])) return { bad: { field: `${what}.${k}`, value: rec[k], allowed: `type ${t}` } };
  }
  return { rec };
}

const MQ_STRUCT_NAME = F('topo-struct-name-13') ? /^[A-Z][A-Z0-9]{0,12}$/ : /^[A-Z][A-Z0-9]{0,11}$/;
const CQS_STRUCT_NAME = /^[A-Z@#$][A-Z0-9@#$_]{0,15}$/;
const MQ_QUEUE_NAME = /^[A-Za-z0-9._/%]{1,48}$/;

// Validate a structure record for `profile`. Returns {rec} or {bad}.
function validateStructure(raw, profile, what) {
  const r = checkShape(raw, STRUCT_TYPES, STRUCT_DEFAULTS, what);
  if (r.bad) return r;
  const s = r.rec;
  const bad = (f, allowed) => ({ bad: { field: `${what}.${f}`, value: s[f], allowed } });
  if (profile === 'mq') {
    if (s.name === 'CSQ_ADMIN' || !MQ_STRUCT_NAME.test(s.name)) {
      return bad('name', F('topo-struct-name-13') ? '1-13 characters A-Z 0-9' : '1-12 characters A-Z 0-9, starting A-Z, not CSQ_ADMIN');
    }
  } else if (!CQS_STRUCT_NAME.test(s.name)) {
    return bad('name', '1-16 characters A-Z 0-9 @ # $ _');
  }
  if (s.size_kb < 1) return bad('size_kb', '>= 1');
  if (s.initsize_kb !== null && (s.initsize_kb < 1 || s.initsize_kb > s.size_kb)) return bad('initsize_kb', '1..size_kb');
  if (s.fullthreshold < 0 || s.fullthreshold > 100) return bad('fullthreshold', '0..100');
  if (profile === 'mq') {
    if (s.cflevel < 1 || s.cflevel > 5) return bad('cflevel', '1..5');
    if (s.offload !== null) {
      const o = s.offload.toUpperCase();
      if (o !== 'SMDS' && o !== 'DB2') return bad('offload', 'SMDS, DB2 or null');
      if (s.cflevel < 5 && !F('offload-below-cflevel5')) return bad('offload', 'only from CFLEVEL(5)');
      s.offload = o;
    }
    for (const n of [1, 2, 3]) {
      const th = s[`offld${n}th`], sz = s[`offld${n}sz`];
      if (th < 0 || th > 100) return bad(`offld${n}th`, '0..100');
      if (sz < 0 || sz > RULE_OFF) return bad(`offld${n}sz`, '0..65536 bytes (0K..64K)');
    }
  } else {
    if (s.ovflwmax !== null && (s.ovflwmax < 0 || s.ovflwmax > 100)) return bad('ovflwmax', '0..100');
    if (s.ovflwstr !== null) {
      if (!CQS_STRUCT_NAME.test(s.ovflwstr) || s.ovflwstr === s.name) return bad('ovflwstr', 'a structure name other than the primary');
      if (s.resource) return bad('ovflwstr', 'null: structure overflow is not supported for resource structures');
    }
    if (s.ovflw_size_kb < 1) return bad('ovflw_size_kb', '>= 1');
  }
  return { rec: s };
}

function validateQueue(raw, profile, what, ctx) {
  const r = checkShape(raw, QUEUE_TYPES, QUEUE_DEFAULTS, what);
  if (r.bad) return r;
  const q = r.rec;
  const bad = (f, allowed) => ({ bad: { field: `${what}.${f}`, value: q[f], allowed } });
  if (profile === 'mq' ? !MQ_QUEUE_NAME.test(q.name) : q.name.length < 1) return bad('name', '1-48 characters A-Z a-z 0-9 . / _ %');
  if (q.cfstruct !== null && !ctx.structs.has(q.cfstruct)) return bad('cfstruct', `a defined structure`);
  if (profile === 'cqs' && q.cfstruct === null) return bad('cfstruct', 'a CQS queue lives on a structure');
  if (q.qmgr !== null && !ctx.qmgrs.has(q.qmgr)) return bad('qmgr', 'a queue manager of the group');
  if (q.maxdepth < 0 || q.maxdepth > MAX_QUEUE_DEPTH) return bad('maxdepth', '0..999999999');
  if (q.maxmsgl < 0 || q.maxmsgl > QM_MAXMSGL) return bad('maxmsgl', '0..104857600');
  if (q.qdepthhi < 0 || q.qdepthhi > 100) return bad('qdepthhi', '0..100');
  if (q.qdepthlo < 0 || q.qdepthlo > 100) return bad('qdepthlo', '0..100');
  return { rec: q };
}

function adminMinKb(table, n) {
  n = Math.max(1, n);
  if (table === 'v6') {
    const pts = ADMIN_V6_POINTS;
    let a = pts[pts.length - 2], b = pts[pts.length - 1];
    for (let i = 0; i + 1 < pts.length; i++) {
      if (n >= pts[i][0] && n <= pts[i + 1][0]) { a = pts[i]; b = pts[i + 1]; break; }
    }
    if (n === a[0]) return a[1];
    const v = a[1] + ((b[1] - a[1]) * (n - a[0])) / (b[0] - a[0]);
    return Math.ceil(v / 256) * 256;
  }
  const idx = F('sizing-admin-row-offbyone') ? Math.max(0, n - 2) : n - 1;
  if (idx < ADMIN_CFCC14.length) return ADMIN_CFCC14[idx];
  return 32256 + Math.ceil(((n - 31) * 2560) / 3 / 256) * 256;
}
function normAdminTable(v) {
  const t = String(v).toLowerCase();
  if (t === 'cfcc14' || t === 'current' || t === 'v7' || t === 'v8' || t === 'v9') return 'cfcc14';
  if (t === 'cfcc9' || t === 'v6' || t === 'cfcc09') return 'v6';
  return null;
}
function cfname(qsg, name) {
  if (F('topo-cfname-nopad')) return qsg + name;
  return (qsg + '@@@@').slice(0, Math.max(4, qsg.length)) + name;
}

// ---------------------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------------------
let st = null; // the opened state, or null

function newStruct(rec, order) {
  const cur = F('sizing-initsize-ignored') ? rec.size_kb : (rec.initsize_kb !== null ? rec.initsize_kb : rec.size_kb);
  const g = geometry(cur);
  return {
    name: rec.name, rec: Object.assign({}, rec), sizeKb: cur, order,
    status: 'ACTIVE', eU: 0, elU: 0, eT: g.entries, elT: g.elements, warn: false,
    backup: false, backupSnap: null, failSnap: null,
    alterPending: false, overflowMode: false, ovfQueues: [], ovf: null, staging: 0,
  };
}
function newQueue(rec, order, firstQmgr) {
  return {
    name: rec.name, cfstruct: rec.cfstruct, owner: rec.cfstruct === null ? (rec.qmgr || firstQmgr) : null,
    maxdepth: rec.maxdepth, maxmsgl: rec.maxmsgl, qdepthhi: rec.qdepthhi, qdepthlo: rec.qdepthlo,
    qdphiev: rec.qdphiev, qdploev: rec.qdploev, qdpmaxev: rec.qdpmaxev,
    msgs: [], head: 0, depth: 0, count: 0, stats: new Map(), overflow: false, order,
  };
}

function openConfig(cfg) {
  if (!isObj(cfg)) throw badConfig('config', cfg, 'an object');
  const known = ['profile', 'qsg', 'qmgrs', 'structures', 'queues', 'readings', 'accounting', 'lgmsgsz',
    'overflow_exit', 'perfmev_disabled', 'admin_size_kb', 'admin_table'];
  for (const k of Object.keys(cfg)) if (!known.includes(k)) throw badConfig(k, cfg[k], 'a known config field');
  const c = Object.assign({
    profile: 'mq', qsg: 'QSG1', qmgrs: ['QM01', 'QM02', 'QM03'], structures: [{ name: 'APP1' }],
    queues: [], readings: {}, accounting: {}, lgmsgsz: 4096, overflow_exit: null,
    perfmev_disabled: [], admin_size_kb: null, admin_table: 'cfcc14',
  }, cfg);
  if (typeof c.profile !== 'string') throw badConfig('profile', c.profile, '"mq" or "cqs"');
  if (c.profile !== 'mq' && c.profile !== 'cqs') {
    throw new WireError(10, `profile ${JSON.stringify(c.profile)} is not implemented`, { field: 'profile', value: c.profile, allowed: '"mq" or "cqs"' });
  }
  const profile = c.profile;
  if (typeof c.qsg !== 'string' || c.qsg.length < 1) throw badConfig('qsg', c.qsg, 'a name of 1-4 characters');
  if (profile === 'mq' && c.qsg.length > (F('topo-qsg-5chars') ? 5 : 4)) throw badConfig('qsg', c.qsg, 'a name of up to four characters');
  if (!Array.isArray(c.qmgrs) || c.qmgrs.some((q) => typeof q !== 'string' || q.length === 0)) throw badConfig('qmgrs', c.qmgrs, 'a list of names');
  if (new Set(c.qmgrs).size !== c.qmgrs.length) throw badConfig('qmgrs', c.qmgrs, 'unique names');
  if (profile === 'mq' && c.qmgrs.includes(c.qsg)) throw badConfig('qsg', c.qsg, 'a name different from every queue manager name');
  if (!isObj(c.readings)) throw badConfig('readings', c.readings, 'an object');
  for (const [k, v] of Object.entries(c.readings)) {
    if (!(k in READINGS) || !READINGS[k].includes(v)) throw badConfig(`readings.${k}`, v, 'a known ambiguity and reading');
  }
  if (!isObj(c.accounting)) throw badConfig('accounting', c.accounting, 'an object');
  for (const [k, v] of Object.entries(c.accounting)) {
    if (!(k in ACCOUNTING_TYPES) || !typeOk(ACCOUNTING_TYPES[k], v)) throw badConfig(`accounting.${k}`, v, 'a known field of the right type');
  }
  if (!isInt(c.lgmsgsz) || c.lgmsgsz < 1 || c.lgmsgsz > 99999) throw badConfig('lgmsgsz', c.lgmsgsz, '1..99999 bytes');
  if (c.overflow_exit !== null && (!Array.isArray(c.overflow_exit) || c.overflow_exit.some((x) => typeof x !== 'string'))) {
    throw badConfig('overflow_exit', c.overflow_exit, 'null or a list of queue names');
  }
  if (!Array.isArray(c.perfmev_disabled) || c.perfmev_disabled.some((x) => !c.qmgrs.includes(x))) {
    throw badConfig('perfmev_disabled', c.perfmev_disabled, 'a list of queue managers of the group');
  }
  if (c.admin_size_kb !== null && (!isInt(c.admin_size_kb) || c.admin_size_kb < 1)) throw badConfig('admin_size_kb', c.admin_size_kb, 'null or a size in KB');
  const table = normAdminTable(c.admin_table);
  if (typeof c.admin_table !== 'string' || table === null) throw badConfig('admin_table', c.admin_table, '"cfcc14" or "v6"');

  const s = {
    profile, qsg: c.qsg, qmgrOrder: c.qmgrs.slice(), qmgrs: new Map(), structs: new Map(), queues: new Map(),
    clock: 0, correl: 0, msgSeq: 0, lgmsgsz: Math.min(LGMSGSZ_MAX, ceilDiv(c.lgmsgsz, 4) * 4),
    vetoes: c.overflow_exit === null ? null : c.overflow_exit.slice(), admin: null,
    structCount: 0, queueCount: 0,
  };
  c.qmgrs.forEach((name, i) => {
    s.qmgrs.set(name, {
      name, active: profile === 'cqs' || i < MAX_CONNECTED_QMGRS,
      perfmev: !c.perfmev_disabled.includes(name), uow: [],
    });
  });
  if (profile === 'mq') {
    const n = c.qmgrs.length;
    const sizeKb = c.admin_size_kb !== null ? c.admin_size_kb : adminMinKb(table, n);
    const entries = Math.floor((sizeKb * 1024) / ADMIN_ENTRY_BYTES);
    if (entries < 1000 * n && !F('sizing-admin-check-skipped')) {
      throw badConfig('admin_size_kb', c.admin_size_kb, `at least 1000 list entries per queue manager (>= ${Math.ceil((1000 * n * ADMIN_ENTRY_BYTES) / 1024)} KB)`);
    }
    s.admin = { sizeKb, entries };
  }
  if (!Array.isArray(c.structures)) throw badConfig('structures', c.structures, 'a list of structure records');
  c.structures.forEach((raw, i) => {
    const r = validateStructure(raw, profile, `structures[${i}]`);
    if (r.bad) throw badConfig(r.bad.field, r.bad.value, r.bad.allowed);
    if (s.structs.has(r.rec.name)) throw badConfig(`structures[${i}].name`, r.rec.name, 'unique structure names');
    s.structs.set(r.rec.name, newStruct(r.rec, s.structCount++));
  });
  if (profile === 'mq') {
    const lim = appStructLimit(s, null);
    if (s.structs.size > lim) throw badConfig('structures', s.structs.size, `at most ${lim} application structures`);
  } else {
    const seen = new Set();
    for (const st2 of s.structs.values()) {
      const o = st2.rec.ovflwstr;
      if (o === null) continue;
      if (s.structs.has(o) || seen.has(o)) {
        throw badConfig('structures', o, 'an overflow structure name used by one primary structure only');
      }
      seen.add(o);
    }
  }
  if (!Array.isArray(c.queues)) throw badConfig('queues', c.queues, 'a list of queue records');
  c.queues.forEach((raw, i) => {
    const r = validateQueue(raw, profile, `queues[${i}]`, s);
    if (r.bad) throw badConfig(r.bad.field, r.bad.value, r.bad.allowed);
    if (s.queues.has(r.rec.name)) throw badConfig(`queues[${i}].name`, r.rec.name, 'unique queue names');
    if (profile === 'mq' && r.rec.cfstruct !== null && queuesOn(s, r.rec.cfstruct) >= MAX_QUEUES_PER_STRUCT) {
      throw badConfig(`queues[${i}].cfstruct`, r.rec.cfstruct, `at most ${MAX_QUEUES_PER_STRUCT} shared queues per structure`);
    }
    s.queues.set(r.rec.name, newQueue(r.rec, s.queueCount++, c.qmgrs[0]));
  });
  return s;
}

function appStructLimit(s, adding) {
  // "A queue sharing group can connect to up to 64 coupling facility structures. One of these
  //  structures must be the administration structure. ... up to 63 (62 if CSQSYSAPPL is defined)
  //  structures for message data."  CSQSYSAPPL itself is one of the 63 non-admin structures.
  if (F('topo-sysappl-not-counted')) {
    const sys = s.structs.has('CSQSYSAPPL') || adding === 'CSQSYSAPPL';
    return sys ? MAX_APP_STRUCTS + 1 : MAX_APP_STRUCTS;
  }
  return MAX_APP_STRUCTS;
}
function queuesOn(s, sname) {
  let n = 0;
  for (const q of s.queues.values()) if (q.cfstruct === sname) n++;
  return n;
}

// ---------------------------------------------------------------------------------------
// Outcome helpers
// ---------------------------------------------------------------------------------------
let curSignals = null; // signals collected during the current operation
function sig(text) { curSignals.push(text); }
function ok(kind, extra) { return Object.assign({ kind, ok: true }, extra || {}); }
function fail(kind, reason, extra) { return Object.assign({ kind, ok: false, reason }, extra || {}); }
function usageOf(s) { return [s.eU, s.eT, s.elU, s.elT]; }

function needQmgr(name) {
  const q = st.qmgrs.get(name);
  if (!q) throw invalidOp('qmgr', name, `one of ${JSON.stringify(st.qmgrOrder)}`);
  return q;
}
function needQueue(name) {
  const q = st.queues.get(name);
  if (!q) throw invalidOp('queue', name, `one of ${JSON.stringify([...st.queues.keys()])}`);
  return q;
}
function needStruct(name) {
  const s = st.structs.get(name);
  if (!s) throw invalidOp('cfstruct', name, `one of ${JSON.stringify([...st.structs.keys()])}`);
  return s;
}

// storage
function fits(pool, e, el) {
  if (F('capacity-entries-ignored')) return pool.elU + el <= pool.elT;
  return pool.eU + e <= pool.eT && pool.elU + el <= pool.elT;
}
function charge(pool, e, el) { pool.eU += e; pool.elU += el; }
function release(pool, e, el) { pool.eU -= e; pool.elU -= el; }
// strict "more than th% full" on max(entries%, elements%)
function usageAbove(s, th) {
  const gt = F('offload-th-inclusive') ? (a, b) => a >= b : (a, b) => a > b;
  const e = s.eT > 0 && gt(s.eU * 100, th * s.eT);
  const el = s.elT > 0 && gt(s.elU * 100, th * s.elT);
  return e || el;
}

// messages
function liveMsgs(q) {
  const out = [];
  for (let i = q.head; i < q.msgs.length; i++) if (!q.msgs[i].removed) out.push(q.msgs[i]);
  return out;
}
function removeMsg(q, m) {
  m.removed = true;
  q.count -= 1;
  while (q.head < q.msgs.length && q.msgs[q.head].removed) q.head++;
  if (q.head > 1024 && q.head * 2 > q.msgs.length) { q.msgs = q.msgs.slice(q.head); q.head = 0; }
}

// ---------------------------------------------------------------------------------------
// Queue depth events (QDEPTH)
// ---------------------------------------------------------------------------------------
function stat(q, qm) {
  let s = q.stats.get(qm);
  if (!s) { s = { enq: 0, deq: 0 }; q.stats.set(qm, s); }
  return s;
}
function eventRecord(q, qmName, kind, correl) {
  let enq, deq;
  if (F('qdepth-stats-global')) {
    enq = 0; deq = 0;
    for (const v of q.stats.values()) { enq += v.enq; deq += v.deq; }
  } else {
    const s = stat(q, qmName); enq = s.enq; deq = s.deq;
  }
  if (!F('qdepth-stats-not-reset')) { const s = stat(q, qmName); s.enq = 0; s.deq = 0; }
  return { qmgr: qmName, kind, queue: q.name, correl, enq, deq };
}
function toggle(q, kind) {
  if (kind === 'QDPHI') {
    if (!F('qdepth-hi-stays-enabled')) q.qdphiev = false;
    if (!F('qdepth-hi-no-lo-enable')) q.qdploev = true;
    q.qdpmaxev = true;
  } else if (kind === 'QDPLO') {
    q.qdploev = false; q.qdphiev = true; q.qdpmaxev = true;
  } else { // QFULL: QDPHIEV unchanged (reading qfull_hi_flag=unchanged)
    q.qdpmaxev = false;
    if (!F('qdepth-qfull-no-lo-enable')) q.qdploev = true;
  }
}
// A performance event detected by queue manager `det` on queue q. Returns event records.
function raiseEvent(q, kind, detName) {
  const det = st.qmgrs.get(detName);
  if (q.cfstruct === null) {
    const owner = st.qmgrs.get(q.owner);
    if (!owner.perfmev && !F('qdepth-nonshared-ungated')) return [];
    toggle(q, kind);
    return owner.perfmev ? [eventRecord(q, owner.name, kind, 0)] : [];
  }
  if (F('qdepth-shared-gated') && !det.perfmev) return [];
  // the detecting queue manager updates the shared definition (even with PERFMEV DISABLED)
  toggle(q, kind);
  let coord = det;
  if (F('qdepth-first-qmgr-coordinates')) coord = st.qmgrs.get(st.qmgrOrder.find((n) => st.qmgrs.get(n).active));
  const events = [];
  if (!coord.perfmev) return events; // reading event_broadcast=if-coordinator-enabled
  const correl = ++st.correl;
  events.push(eventRecord(q, coord.name, kind, correl));
  if (F('qdepth-no-broadcast')) return events;
  for (const name of st.qmgrOrder) {
    if (name === coord.name) continue;
    const o = st.qmgrs.get(name);
    if (!o.active && !F('qdepth-broadcast-inactive')) continue;
    if (!o.perfmev && !F('qdepth-broadcast-disabled')) continue;
    events.push(eventRecord(q, name, kind, F('qdepth-correl-per-qmgr') ? ++st.correl : correl));
  }
  return events;
}
// reading qdepth_percent=real
function hiReached(q) {
  return F('qdepth-hi-strict') ? q.depth * 100 > q.qdepthhi * q.maxdepth : q.depth * 100 >= q.qdepthhi * q.maxdepth;
}
function loReached(q) {
  return F('qdepth-lo-strict') ? q.depth * 100 < q.qdepthlo * q.maxdepth : q.depth * 100 <= q.qdepthlo * q.maxdepth;
}

// ---------------------------------------------------------------------------------------
// MQ operations
// ---------------------------------------------------------------------------------------
function mqAccess(qm, q) {
  if (q.cfstruct === null && q.owner !== qm.name) {
    throw invalidOp('queue', q.name, `a shared queue or a queue owned by ${qm.name} (${q.name} is a nonshared queue of ${q.owner})`);
  }
}

function offloadTarget(s, len) {
  const r = s.rec;
  if (r.cflevel < 4) return null;
  const forced = len > FORCED_OFFLOAD;
  if (r.cflevel === 4) return forced ? 'DB2' : null;
  const target = r.offload || (F('offload-default-db2') ? 'DB2' : 'SMDS');
  if (forced) return target;
  const rules = [[r.offld1th, r.offld1sz], [r.offld2th, r.offld2sz], [r.offld3th, r.offld3sz]];
  const anyOff = rules.some(([, sz]) => sz === RULE_OFF);
  for (const [th, sz] of rules) {
    if (sz === RULE_OFF) continue;
    if (anyOff && F('offload-64k-disables-all')) continue;
    const thOk = F('offload-ignore-threshold') || usageAbove(s, th);
    const lim = F('offload-kb-decimal') ? (sz / 1024) * 1000 : sz;
    const szOk = F('offload-sz-inclusive') ? len >= lim : len > lim;
    if (thOk && szOk) return target;
  }
  return null;
}

function mqPut(op) {
  const qm = needQmgr(op.qmgr), q = needQueue(op.queue);
  if (op.length < 0) throw invalidOp('length', op.length, '>= 0');
  if (!qm.active) return fail('put', 'NOT_ACTIVE');
  mqAccess(qm, q);
  const persistent = !!op.persistent, syncpoint = !!op.syncpoint;
  const s = q.cfstruct !== null ? st.structs.get(q.cfstruct) : null;
  // reason-code precedence (README): 2373, 2030, 2366 (persistent, CFLEVEL<=2), 2048, 2366 (>63K), 2053, 2192
  if (s && s.status === 'FAILED') return fail('put', F('capacity-failed-rc') ? 2192 : 2373);
  const maxl = Math.min(q.maxmsgl, QM_MAXMSGL);
  if (F('capacity-maxmsgl-inclusive') ? op.length >= maxl : op.length > maxl) return fail('put', 2030);
  if (s) {
    const r = s.rec;
    if (persistent && (F('cflevel-persistent-needs-4') ? r.cflevel <= 3 : r.cflevel <= 2)) return fail('put', 2366);
    if (persistent && !r.recover && !F('cflevel-recover-no-persistent')) return fail('put', 2048);
    if (op.length > CF_MAX_DATA && (F('cflevel-large-at-3') ? r.cflevel < 3 : r.cflevel < 4)) return fail('put', 2366);
  }
  if (F('capacity-qfull-offbyone') ? q.depth > q.maxdepth : q.depth >= q.maxdepth) {
    const events = q.qdpmaxev ? raiseEvent(q, 'QFULL', qm.name) : [];
    return fail('put', 2053, events.length ? { events } : {});
  }
  let location = null, offloaded = null, e = 0, el = 0;
  if (s) {
    const tgt = offloadTarget(s, op.length);
    offloaded = tgt !== null;
    location = tgt || 'CF';
    e = 1;
    el = offloaded && !F('offload-cost-full') ? OFFLOADED_ELEMENTS : dataElements(op.length);
    if (!fits(s, e, el)) return fail('put', F('capacity-full-wrong-rc') ? 2053 : 2192);
    charge(s, e, el);
  }
  const m = {
    id: ++st.msgSeq, tag: op.tag === undefined ? 0 : op.tag, len: op.length, persistent,
    state: syncpoint ? 'P' : 'C', by: qm.name, removed: false, e, el, location, offloaded,
  };
  q.msgs.push(m); q.count += 1; q.depth += 1;
  stat(q, qm.name).enq += 1;
  if (syncpoint) qm.uow.push({ t: 'put', q: q.name, id: m.id, m });
  const out = ok('put');
  if (s) { out.offloaded = offloaded; out.usage = usageOf(s); out.location = location; }
  let events = [];
  if (q.qdphiev && hiReached(q)) {
    if (syncpoint && F('qdepth-events-at-commit')) qm.uow.push({ t: 'hicheck', q: q.name });
    else events = raiseEvent(q, 'QDPHI', qm.name);
  }
  if (events.length) out.events = events;
  return out;
}

function mqGet(op) {
  const qm = needQmgr(op.qmgr), q = needQueue(op.queue);
  if (!qm.active) return fail('get', 'NOT_ACTIVE');
  mqAccess(qm, q);
  const s = q.cfstruct !== null ? st.structs.get(q.cfstruct) : null;
  if (s && s.status === 'FAILED') return fail('get', F('capacity-failed-rc') ? 2192 : 2373);
  const avail = (m) => !m.removed && (m.state === 'C' || (F('queue-uncommitted-visible') && m.state === 'P'));
  let m = null;
  if (F('queue-lifo')) {
    for (let i = q.msgs.length - 1; i >= q.head; i--) if (avail(q.msgs[i])) { m = q.msgs[i]; break; }
  } else {
    for (let i = q.head; i < q.msgs.length; i++) if (avail(q.msgs[i])) { m = q.msgs[i]; break; }
  }
  if (!m) return fail('get', 2033);
  const syncpoint = !!op.syncpoint;
  if (syncpoint) {
    m.state = 'L';
    qm.uow.push({ t: 'get', q: q.name, id: m.id, m });
  } else {
    removeMsg(q, m);
    if (s) release(s, m.e, m.el);
  }
  q.depth -= 1;
  stat(q, qm.name).deq += 1;
  const out = ok('get', { tag: m.tag });
  if (s) out.usage = usageOf(s);
  if (q.qdploev && loReached(q)) {
    let events;
    if (syncpoint && F('qdepth-events-at-commit')) { qm.uow.push({ t: 'locheck', q: q.name }); events = []; }
    else events = raiseEvent(q, 'QDPLO', qm.name);
    if (events.length) out.events = events;
  }
  return out;
}

function endUow(qm, commit) {
  const events = [];
  const list = commit ? qm.uow : qm.uow.slice().reverse();
  for (const u of list) {
    const q = st.queues.get(u.q);
    if (!q) continue;
    if (u.t === 'hicheck' || u.t === 'locheck') {
      if (!commit) continue;
      if (u.t === 'hicheck' && q.qdphiev && hiReached(q)) events.push(...raiseEvent(q, 'QDPHI', qm.name));
      if (u.t === 'locheck' && q.qdploev && loReached(q)) events.push(...raiseEvent(q, 'QDPLO', qm.name));
      continue;
    }
    const m = u.m;
    if (m.removed || m.lost) continue;
    const s = q.cfstruct !== null ? st.structs.get(q.cfstruct) : null;
    if (u.t === 'put') {
      if (commit) m.state = 'C';
      else { removeMsg(q, m); if (s) release(s, m.e, m.el); q.depth -= 1; }
    } else if (u.t === 'get') {
      if (commit) { removeMsg(q, m); if (s) release(s, m.e, m.el); }
      else { m.state = 'C'; q.depth += 1; }
    }
  }
  qm.uow = [];
  return events;
}

function mqCommit(op, commit) {
  const qm = needQmgr(op.qmgr);
  const kind = commit ? 'commit' : 'backout';
  if (!qm.active) return fail(kind, 'NOT_ACTIVE');
  const events = endUow(qm, commit);
  return ok(kind, events.length ? { events } : {});
}

function mqSetPerfmev(op) {
  const qm = needQmgr(op.qmgr);
  if (!qm.active) return fail('set_perfmev', 'NOT_ACTIVE');
  qm.perfmev = op.enabled;
  return ok('set_perfmev');
}

function mqResetQstats(op) {
  const qm = needQmgr(op.qmgr), q = needQueue(op.queue);
  if (!qm.active) return fail('reset_qstats', 'NOT_ACTIVE');
  mqAccess(qm, q);
  if (!F('qdepth-reset-ignored')) { const s = stat(q, qm.name); s.enq = 0; s.deq = 0; }
  return ok('reset_qstats');
}

function mqStartQmgr(op) {
  const qm = needQmgr(op.qmgr);
  if (qm.active) return ok('start_qmgr');
  let active = 0;
  for (const x of st.qmgrs.values()) if (x.active) active++;
  if (active >= MAX_CONNECTED_QMGRS) return fail('start_qmgr', 'NOT_ALLOWED');
  qm.active = true;
  return ok('start_qmgr');
}

function mqStopQmgr(op) {
  const qm = needQmgr(op.qmgr);
  if (!qm.active) return ok('stop_qmgr');
  const events = endUow(qm, F('queue-stop-commits'));
  qm.active = false;
  for (const q of st.queues.values()) {
    q.stats.delete(qm.name); // statistics are held in the stopping queue manager's storage
    const discard = (q.cfstruct === null && q.owner === qm.name) // reading nonshared_at_stop=lost
      || (q.cfstruct !== null && F('queue-shared-np-lost-at-stop'));
    if (!discard) continue;
    for (const m of liveMsgs(q)) {
      if (m.persistent) continue;
      if (q.cfstruct !== null && m.by !== qm.name) continue;
      if (q.cfstruct !== null && st.structs.get(q.cfstruct).status !== 'ACTIVE') continue;
      if (m.state === 'P' || m.state === 'L') continue; // in another queue manager's unit of work
      removeMsg(q, m); q.depth -= 1;
      if (q.cfstruct !== null) release(st.structs.get(q.cfstruct), m.e, m.el);
    }
  }
  return ok('stop_qmgr', events.length ? { events } : {});
}

function committedPersistent(s) {
  const snap = [];
  for (const q of st.queues.values()) {
    if (q.cfstruct !== s.name) continue;
    for (const m of liveMsgs(q)) {
      // committed messages, including ones locked by an in-flight get (the get is not committed)
      if (m.state === 'P') continue;
      if (!m.persistent && !F('recovery-np-recovered')) continue;
      snap.push({ q: q.name, m: Object.assign({}, m, { state: 'C' }) });
    }
  }
  return snap;
}

function mqBackup(op) {
  const qm = needQmgr(op.qmgr), s = needStruct(op.cfstruct);
  if (!qm.active) return fail('backup', 'NOT_ACTIVE');
  if (s.rec.cflevel < 3 || (!s.rec.recover && !F('recovery-backup-recover-no'))) return fail('backup', 'NOT_ALLOWED');
  if (s.status !== 'ACTIVE') return fail('backup', 'NOT_ACTIVE');
  s.backup = true;
  s.backupSnap = committedPersistent(s);
  return ok('backup');
}

function mqFailStructure(op) {
  const s = needStruct(op.cfstruct);
  if (s.status === 'FAILED') return ok('fail_structure');
  s.failSnap = committedPersistent(s);
  for (const q of st.queues.values()) {
    if (q.cfstruct !== s.name) continue;
    for (const m of liveMsgs(q)) m.lost = true;
    q.msgs = []; q.head = 0; q.count = 0; q.depth = 0;
  }
  for (const qm of st.qmgrs.values()) {
    qm.uow = qm.uow.filter((u) => { const q = st.queues.get(u.q); return !q || q.cfstruct !== s.name; });
  }
  s.status = 'FAILED'; s.eU = 0; s.elU = 0; s.warn = false;
  return ok('fail_structure');
}

function mqRecover(op) {
  const s = needStruct(op.cfstruct);
  const purge = !!op.purge;
  if (s.rec.cflevel < 3 || !s.rec.recover) return fail('recover', 'NOT_ALLOWED');
  if (s.status !== 'FAILED') {
    if (F('recovery-normal-nonfailed') && !purge) return ok('recover');
    return fail('recover', 'NOT_FAILED'); // reading recover_purge_nonfailed=rejected
  }
  if (!purge && !s.backup && !F('recovery-no-backup-needed')) return fail('recover', 'NO_BACKUP');
  s.status = 'ACTIVE'; s.eU = 0; s.elU = 0;
  let restore = [];
  if (!purge || F('recovery-purge-keeps')) restore = F('recovery-no-replay') ? (s.backupSnap || []) : (s.failSnap || []);
  for (const { q: qn, m } of restore) {
    const q = st.queues.get(qn);
    if (!q || q.cfstruct !== s.name) continue;
    const c = Object.assign({}, m, { removed: false, lost: false, state: 'C' });
    q.msgs.push(c); q.count += 1; q.depth += 1;
    charge(s, c.e, c.el);
  }
  s.failSnap = null;
  return ok('recover');
}

// ---------------------------------------------------------------------------------------
// CQS operations
// ---------------------------------------------------------------------------------------
function ovflwmax(s) {
  if (s.rec.ovflwmax !== null) return s.rec.ovflwmax;
  return F('cqs-default-80') ? 80 : 70; // "The default overflow threshold is 70%"
}
// reading cqs_usage_metric=elements
function thresholdReached(s) {
  const th = ovflwmax(s);
  const [u, t] = F('cqs-metric-entries') ? [s.eU, s.eT] : [s.elU, s.elT];
  if (t === 0) return false;
  return F('cqs-threshold-strict') ? u * 100 > th * t : u * 100 >= th * t;
}
// reading cqs_target=points: "20% below the overflow threshold" = OVFLWMAX - 20 percentage points
function targetPct(s) {
  return F('cqs-target-at-threshold') ? ovflwmax(s) : ovflwmax(s) - 20;
}
function belowTarget(s, elementsUsed) {
  return elementsUsed * 100 <= targetPct(s) * s.elT;
}
function queuePrimaryElements(q) {
  let el = 0, e = 0;
  for (const m of liveMsgs(q)) if (m.loc === 'P') { el += m.firstEl; e += 1; }
  return { el, e };
}
function ensureOverflowStruct(s) {
  if (!s.ovf) {
    const g = geometry(s.rec.ovflw_size_kb);
    s.ovf = { name: s.rec.ovflwstr, sizeKb: s.rec.ovflw_size_kb, eU: 0, elU: 0, eT: g.entries, elT: g.elements };
  }
  return s.ovf;
}
function moveQueue(s, q) {
  const ovf = ensureOverflowStruct(s);
  let e = 0, el = 0;
  const msgs = liveMsgs(q).filter((m) => m.loc === 'P');
  for (const m of msgs) {
    e += 1; el += m.firstEl;
    if (F('cqs-staging-moved')) { e += m.stagingEl.length; el += m.stagingEl.reduce((a, b) => a + b, 0); }
  }
  if (!fits(ovf, e, el)) return false;
  for (const m of msgs) {
    release(s, 1, m.firstEl); charge(ovf, 1, m.firstEl); m.loc = 'O';
    if (F('cqs-staging-moved')) {
      for (const x of m.stagingEl) { release(s, 1, x); charge(ovf, 1, x); }
      s.staging -= m.stagingEl.length; m.stagingLoc = 'O';
    }
  }
  return true;
}
function exitOverflow(s) {
  for (const qn of s.ovfQueues.slice().sort()) {
    const q = st.queues.get(qn);
    if (q) q.overflow = false;
    sig(`OVERFLOW_QUEUE_OFF ${s.name} ${qn}`);
  }
  s.ovfQueues = [];
  s.overflowMode = false;
  sig(`OVERFLOW_OFF ${s.name}`);
}
function enterOverflow(s) {
  s.overflowMode = true;
  sig(`OVERFLOW_ON ${s.name}`);
  // candidates: queues using the most space (primary elements), ties: more entries, then definition order
  const cands = [];
  for (const q of st.queues.values()) {
    if (q.cfstruct !== s.name || q.overflow) continue;
    const u = queuePrimaryElements(q);
    if (u.el > 0) cands.push({ q, el: u.el, e: u.e });
  }
  cands.sort((a, b) => (b.el - a.el) || (b.e - a.e) || (a.q.order - b.q.order));
  if (F('cqs-select-least')) cands.sort((a, b) => (a.el - b.el) || (a.e - b.e) || (a.q.order - b.q.order));
  let projected = s.elU;
  for (const c of cands) {
    if (belowTarget(s, projected)) break;
    if (st.vetoes !== null && st.vetoes.includes(c.q.name) && !F('cqs-exit-ignored')) {
      if (F('cqs-veto-stops-selection')) break;
      continue; // RC 4: do not move; pick another candidate
    }
    if (s.rec.ovflwstr !== null) {
      const before = s.elU;
      if (!moveQueue(s, c.q)) continue; // the overflow structure cannot take the whole queue
      projected -= before - s.elU;
    } else {
      projected -= c.el;
    }
    c.q.overflow = true;
    s.ovfQueues.push(c.q.name);
    sig(`OVERFLOW_QUEUE ${s.name} ${c.q.name}`);
  }
  if (s.rec.ovflwstr !== null) {
    if (s.ovfQueues.length === 0) exitOverflow(s); // reading cqs_empty_overflow=ends
  } else if (belowTarget(s, s.elU) && !F('cqs-exit-at-threshold')) {
    exitOverflow(s);
  } else if (F('cqs-exit-at-threshold') && !thresholdReached(s)) {
    exitOverflow(s);
  }
}
// without an overflow structure, overflow mode ends when usage drops 20% below the threshold
function checkOverflowExit(s) {
  if (!s.overflowMode || s.rec.ovflwstr !== null) return;
  const done = F('cqs-exit-at-threshold') ? !thresholdReached(s) : belowTarget(s, s.elU);
  if (done) exitOverflow(s);
}
function maybeStartAlter(s) {
  if (s.rec.resource && !F('cqs-resource-overflow')) return; // not supported for resource structures
  if (s.overflowMode || s.alterPending) return;
  if (!thresholdReached(s)) return;
  if (F('cqs-no-alter')) { enterOverflow(s); return; }
  s.alterPending = true; // reading cqs_alter=async: z/OS answers with alter_outcome
  sig(`ALTER ${s.name}`);
}

function cqsPut(op) {
  needQmgr(op.qmgr);
  const q = needQueue(op.queue);
  if (op.length < 0) throw invalidOp('length', op.length, '>= 0');
  const s = st.structs.get(q.cfstruct);
  if (s.overflowMode && s.rec.ovflwstr === null) {
    const rejected = F('cqs-reject-all-queues') ? true : (q.overflow && !F('cqs-no-ovflwstr-accepts'));
    if (rejected) return fail('put', 'REJECTED_OVERFLOW');
  }
  const ps = st.lgmsgsz;
  let first = op.length, staging = [];
  const large = F('cqs-lgmsgsz-inclusive') ? op.length >= ps : op.length > ps;
  if (large && !F('cqs-no-staging')) {
    first = ps;
    let rest = op.length - ps;
    while (rest > 0) { const p = Math.min(ps, rest); staging.push(dataElements(p)); rest -= p; }
    if (staging.length === 0) staging.push(1); // inclusive fault: an empty second part
  }
  const firstEl = dataElements(first);
  const toOvf = q.overflow && s.rec.ovflwstr !== null;
  const target = toOvf ? ensureOverflowStruct(s) : s;
  const stE = staging.length, stEl = staging.reduce((a, b) => a + b, 0);
  if (target === s) {
    if (!fits(s, 1 + stE, firstEl + stEl)) return fail('put', 'STRUCTURE_FULL');
  } else if (!fits(target, 1, firstEl) || !fits(s, stE, stEl)) {
    return fail('put', 'STRUCTURE_FULL');
  }
  charge(target, 1, firstEl);
  charge(s, stE, stEl);
  s.staging += stE;
  const m = {
    id: ++st.msgSeq, tag: op.tag === undefined ? 0 : op.tag, len: op.length, persistent: !!op.persistent,
    state: 'C', by: op.qmgr, removed: false, firstEl, stagingEl: staging, stagingLoc: 'P', loc: toOvf ? 'O' : 'P',
  };
  q.msgs.push(m); q.count += 1; q.depth += 1;
  maybeStartAlter(s);
  return ok('put', { usage: usageOf(s) });
}

function cqsGet(op) {
  needQmgr(op.qmgr);
  const q = needQueue(op.queue);
  const s = st.structs.get(q.cfstruct);
  let m = null;
  if (F('queue-lifo')) {
    for (let i = q.msgs.length - 1; i >= q.head; i--) if (!q.msgs[i].removed) { m = q.msgs[i]; break; }
  } else {
    for (let i = q.head; i < q.msgs.length; i++) if (!q.msgs[i].removed) { m = q.msgs[i]; break; }
  }
  if (!m) return fail('get', 'NO_MSG');
  removeMsg(q, m);
  q.depth -= 1;
  release(m.loc === 'O' ? s.ovf : s, 1, m.firstEl);
  const sPool = m.stagingLoc === 'O' ? s.ovf : s;
  for (const x of m.stagingEl) release(sPool, 1, x);
  if (m.stagingLoc !== 'O') s.staging -= m.stagingEl.length;
  if (F('cqs-immediate-exit') && q.overflow && q.depth === 0 && s.rec.ovflwstr !== null) {
    q.overflow = false;
    s.ovfQueues = s.ovfQueues.filter((n) => n !== q.name);
    sig(`OVERFLOW_QUEUE_OFF ${s.name} ${q.name}`);
    if (s.ovfQueues.length === 0) { s.overflowMode = false; sig(`OVERFLOW_OFF ${s.name}`); }
  }
  checkOverflowExit(s);
  return ok('get', { tag: m.tag, usage: usageOf(s) });
}

function cqsAlterOutcome(op) {
  const s = needStruct(op.cfstruct);
  if (!s.alterPending) return fail('alter_outcome', 'NO_ALTER_PENDING');
  if (op.success) {
    const want = op.size_kb === null || op.size_kb === undefined ? s.rec.size_kb : op.size_kb;
    if (want < 1) throw invalidOp('size_kb', op.size_kb, '>= 1');
    if (want > s.rec.size_kb) return fail('alter_outcome', 'OUT_OF_RANGE');
    s.alterPending = false;
    resize(s, want);
    if (F('cqs-overflow-on-alter-success')) enterOverflow(s);
    return ok('alter_outcome');
  }
  s.alterPending = false;
  enterOverflow(s); // "If CQS does not succeed in altering a structure's size, the structure goes into overflow mode."
  return ok('alter_outcome');
}

function cqsSetOverflowExit(op) {
  const v = op.vetoes === undefined ? null : op.vetoes;
  st.vetoes = v === null ? null : v.slice();
  return ok('set_overflow_exit');
}

function scan() {
  for (const s of st.structs.values()) {
    if (!s.overflowMode || s.rec.ovflwstr === null) continue;
    for (const qn of s.ovfQueues.slice().sort()) {
      const q = st.queues.get(qn);
      if (q && q.depth > 0 && !F('cqs-scan-removes-nonempty')) continue;
      if (q) q.overflow = false;
      s.ovfQueues = s.ovfQueues.filter((n) => n !== qn);
      sig(`OVERFLOW_QUEUE_OFF ${s.name} ${qn}`);
    }
    if (s.ovfQueues.length === 0) { s.overflowMode = false; sig(`OVERFLOW_OFF ${s.name}`); }
  }
}

// ---------------------------------------------------------------------------------------
// Operations of both profiles
// ---------------------------------------------------------------------------------------
function resize(s, kb) {
  // z/OS contracts as far as it can: never below what is in use (README)
  const k = Math.max(kb, s.eU > 0 || s.elU > 0 ? minSizeFor(s.eU, s.elU) : 1);
  s.sizeKb = k;
  const g = geometry(k);
  s.eT = g.entries; s.elT = g.elements;
}

function setxcfAlter(op) {
  let s = st.structs.get(op.cfstruct);
  if (!s && st.profile === 'cqs') {
    for (const p of st.structs.values()) {
      if (p.rec.ovflwstr === op.cfstruct) {
        if (op.size_kb < 1) throw invalidOp('size_kb', op.size_kb, '>= 1');
        if (op.size_kb > p.rec.ovflw_size_kb) return fail('setxcf_alter', 'OUT_OF_RANGE');
        const o = ensureOverflowStruct(p);
        const k = Math.max(op.size_kb, o.eU > 0 || o.elU > 0 ? minSizeFor(o.eU, o.elU) : 1);
        const g = geometry(k);
        o.sizeKb = k; o.eT = g.entries; o.elT = g.elements;
        return ok('setxcf_alter');
      }
    }
  }
  s = needStruct(op.cfstruct);
  if (op.size_kb < 1) throw invalidOp('size_kb', op.size_kb, '>= 1');
  if (s.status !== 'ACTIVE') return fail('setxcf_alter', 'NOT_ACTIVE');
  if (op.size_kb > s.rec.size_kb && !F('sizing-alter-over-size')) return fail('setxcf_alter', 'OUT_OF_RANGE');
  if (s.alterPending) return fail('setxcf_alter', 'NOT_ALLOWED'); // one alter at a time
  resize(s, op.size_kb);
  if (st.profile === 'cqs') checkOverflowExit(s);
  return ok('setxcf_alter');
}

function defineStructure(op) {
  const r = validateStructure(op.structure, st.profile, 'structure');
  if (r.bad) return fail('define_structure', 'INVALID');
  const rec = r.rec;
  if (st.structs.has(rec.name)) return fail('define_structure', 'NOT_ALLOWED');
  if (st.profile === 'mq' && st.structs.size + 1 > appStructLimit(st, rec.name)) return fail('define_structure', 'NOT_ALLOWED');
  if (st.profile === 'cqs') {
    if (rec.ovflwstr !== null && st.structs.has(rec.ovflwstr)) return fail('define_structure', 'INVALID');
    for (const p of st.structs.values()) {
      if (p.rec.ovflwstr === rec.name) return fail('define_structure', 'NOT_ALLOWED');
      if (rec.ovflwstr !== null && p.rec.ovflwstr === rec.ovflwstr) return fail('define_structure', 'NOT_ALLOWED');
    }
  }
  st.structs.set(rec.name, newStruct(rec, st.structCount++));
  return ok('define_structure');
}

function defineQueue(op) {
  const r = validateQueue(op.queue, st.profile, 'queue', st);
  if (r.bad) return fail('define_queue', 'INVALID');
  const rec = r.rec;
  if (st.queues.has(rec.name)) return fail('define_queue', 'NOT_ALLOWED');
  if (st.profile === 'mq' && rec.cfstruct !== null && queuesOn(st, rec.cfstruct) >= MAX_QUEUES_PER_STRUCT) {
    return fail('define_queue', 'NOT_ALLOWED');
  }
  st.queues.set(rec.name, newQueue(rec, st.queueCount++, st.qmgrOrder[0]));
  return ok('define_queue');
}

const QUEUE_ALTER_KEYS = ['maxdepth', 'maxmsgl', 'qdepthhi', 'qdepthlo', 'qdphiev', 'qdploev', 'qdpmaxev', 'cfstruct'];
function boolish(v) {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const u = v.toUpperCase();
    if (u === 'ENABLED' || u === 'YES') return true;
    if (u === 'DISABLED' || u === 'NO') return false;
  }
  return undefined;
}
function alterQueue(op) {
  const q = needQueue(op.name);
  const ch = {};
  for (const [k0, v] of Object.entries(op.changes)) {
    const k = k0.toLowerCase();
    if (!QUEUE_ALTER_KEYS.includes(k)) return fail('alter_queue', 'INVALID');
    if (k === 'qdphiev' || k === 'qdploev' || k === 'qdpmaxev') {
      const b = boolish(v);
      if (b === undefined) return fail('alter_queue', 'INVALID');
      ch[k] = b;
    } else if (k === 'cfstruct') {
      if (typeof v !== 'string' || !st.structs.has(v) || q.cfstruct === null) return fail('alter_queue', 'INVALID');
      ch[k] = v;
    } else {
      if (!isInt(v)) return fail('alter_queue', 'INVALID');
      const max = k === 'maxdepth' ? MAX_QUEUE_DEPTH : k === 'maxmsgl' ? QM_MAXMSGL : 100;
      if (v < 0 || v > max) return fail('alter_queue', 'INVALID');
      ch[k] = v;
    }
  }
  if (ch.cfstruct !== undefined && ch.cfstruct !== q.cfstruct) {
    if (q.count > 0 || q.overflow) return fail('alter_queue', 'NOT_ALLOWED');
    if (st.profile === 'mq' && queuesOn(st, ch.cfstruct) >= MAX_QUEUES_PER_STRUCT) return fail('alter_queue', 'NOT_ALLOWED');
  }
  Object.assign(q, ch);
  return ok('alter_queue');
}

function alterStructure(op) {
  const s = needStruct(op.name);
  const rec = Object.assign({}, s.rec);
  const given = new Set();
  for (const [k0, v] of Object.entries(op.changes)) {
    const k = k0.toLowerCase();
    if (!(k in STRUCT_TYPES) || k === 'name') return fail('alter_structure', 'INVALID');
    let val = v;
    if (STRUCT_TYPES[k] === 'bool' && typeof v !== 'boolean') {
      val = boolish(v);
      if (val === undefined) return fail('alter_structure', 'INVALID');
    }
    if (!typeOk(STRUCT_TYPES[k], val)) return fail('alter_structure', 'INVALID');
    rec[k] = val;
    given.add(k);
  }
  if (F('offload-alter-resets')) {
    for (const k of ['offld1th', 'offld1sz', 'offld2th', 'offld2sz', 'offld3th', 'offld3sz']) {
      if (!given.has(k)) rec[k] = STRUCT_DEFAULTS[k];
    }
  }
  if (given.has('resource') && rec.resource !== s.rec.resource) return fail('alter_structure', 'NOT_ALLOWED');
  // OFFLOAD is only valid from CFLEVEL(5); a structure lowered below 5 keeps it dormant
  if (!given.has('offload') && rec.cflevel < 5) rec.offload = null;
  const r = validateStructure(rec, st.profile, 'structure');
  if (r.bad) return fail('alter_structure', 'INVALID');
  const nrec = r.rec;
  if (st.profile === 'mq' && nrec.cflevel < s.rec.cflevel && s.rec.cflevel >= 3 && !F('cflevel-decrease-unguarded')) {
    // decrease from 3 or 4 (and, reading cflevel5_decrease=guarded, from 5) only if every queue is empty
    for (const q of st.queues.values()) {
      if (q.cfstruct === s.name && q.count > 0) return fail('alter_structure', 'NOT_ALLOWED');
    }
  }
  if (st.profile === 'cqs' && nrec.ovflwstr !== s.rec.ovflwstr && !F('cqs-ovflwstr-added-later')) {
    return fail('alter_structure', 'NOT_ALLOWED'); // adding OVFLWSTR later needs a cold start
  }
  if (st.profile === 'cqs' && nrec.ovflw_size_kb !== s.rec.ovflw_size_kb && s.ovf) return fail('alter_structure', 'NOT_ALLOWED');
  s.rec = nrec;
  if (nrec.size_kb < s.sizeKb) resize(s, nrec.size_kb);
  if (st.profile === 'cqs') checkOverflowExit(s);
  return ok('alter_structure');
}

function advanceClock(op) {
  if (op.seconds < 0) throw invalidOp('seconds', op.seconds, '>= 0');
  const old = st.clock;
  st.clock += op.seconds;
  if (st.profile === 'cqs' && Math.floor(st.clock / SCAN_SECONDS) > Math.floor(old / SCAN_SECONDS)) scan();
  return ok('advance_clock');
}

function inspect() {
  const structures = dict();
  for (const name of [...st.structs.keys()].sort()) {
    const s = st.structs.get(name);
    const v = {
      elements_total: s.elT, elements_used: s.elU, entries_total: s.eT, entries_used: s.eU,
      full_warning: s.warn, size_kb: s.sizeKb, status: s.status,
    };
    if (st.profile === 'mq') v.cfname = cfname(st.qsg, s.name);
    else {
      v.alter_pending = s.alterPending; v.overflow_mode = s.overflowMode;
      v.overflow_queues = s.ovfQueues.slice().sort(); v.staging_depth = s.staging;
    }
    structures[name] = sortKeys(v);
  }
  const queues = dict();
  for (const name of [...st.queues.keys()].sort()) {
    const q = st.queues.get(name);
    queues[name] = st.profile === 'mq'
      ? { depth: q.depth, qdphiev: q.qdphiev, qdploev: q.qdploev, qdpmaxev: q.qdpmaxev }
      : { depth: q.depth, overflow: q.overflow };
  }
  const qmgrs = dict();
  for (const name of [...st.qmgrs.keys()].sort()) {
    const m = st.qmgrs.get(name);
    qmgrs[name] = { active: m.active, perfmev: m.perfmev };
  }
  const value = {};
  if (st.profile === 'mq') value.admin = { entries_total: st.admin.entries, size_kb: st.admin.sizeKb };
  value.clock = st.clock;
  value.qmgrs = qmgrs;
  value.queues = queues;
  value.structures = structures;
  return ok('inspect', { value });
}
function sortKeys(o) {
  const r = {};
  for (const k of Object.keys(o).sort()) r[k] = o[k];
  return r;
}

// z/OS structure full monitoring (reading full_signal_timing=at-crossing)
function monitorFull() {
  for (const s of st.structs.values()) {
    if (s.status !== 'ACTIVE') { s.warn = false; continue; }
    const ft = s.rec.fullthreshold;
    let reached = false;
    if (ft > 0 || F('sizing-ft0-not-off')) {
      const ge = F('sizing-ft-strict') ? (a, b) => a > b : (a, b) => a >= b;
      const e = !F('sizing-ft-elements-only') && s.eT > 0 && ge(s.eU * 100, ft * s.eT);
      const el = s.elT > 0 && ge(s.elU * 100, ft * s.elT);
      reached = e || el;
    }
    if (reached && !s.warn) { s.warn = true; sig(`IXC585E ${s.name}`); }
    else if (!reached && s.warn) { s.warn = false; if (!F('sizing-no-ixc586')) sig(`IXC586I ${s.name}`); }
  }
}

// ---------------------------------------------------------------------------------------
// Operation validation and dispatch
// ---------------------------------------------------------------------------------------
const OPS = {
  define_structure: { structure: 'object!' },
  alter_structure: { name: 'string!', changes: 'object!' },
  define_queue: { queue: 'object!' },
  alter_queue: { name: 'string!', changes: 'object!' },
  put: { qmgr: 'string!', queue: 'string!', length: 'int!', persistent: 'bool', syncpoint: 'bool', tag: 'int' },
  get: { qmgr: 'string!', queue: 'string!', syncpoint: 'bool' },
  commit: { qmgr: 'string!' },
  backout: { qmgr: 'string!' },
  set_perfmev: { qmgr: 'string!', enabled: 'bool!' },
  reset_qstats: { qmgr: 'string!', queue: 'string!' },
  start_qmgr: { qmgr: 'string!' },
  stop_qmgr: { qmgr: 'string!' },
  backup: { qmgr: 'string!', cfstruct: 'string!' },
  fail_structure: { cfstruct: 'string!' },
  recover: { cfstruct: 'string!', purge: 'bool' },
  setxcf_alter: { cfstruct: 'string!', size_kb: 'int!' },
  alter_outcome: { cfstruct: 'string!', success: 'bool!', size_kb: 'int?' },
  set_overflow_exit: { vetoes: 'strlist?' },
  advance_clock: { seconds: 'int!' },
  inspect: {},
};
const MQ_ONLY = new Set(['commit', 'backout', 'set_perfmev', 'reset_qstats', 'start_qmgr', 'stop_qmgr', 'backup', 'fail_structure', 'recover']);
const CQS_ONLY = new Set(['alter_outcome', 'set_overflow_exit']);

function checkOp(op) {
  if (!isObj(op)) throw new WireError(11, 'an operation must be a JSON object');
  if (typeof op.op !== 'string') throw new WireError(11, 'operation has no string "op" field');
  const spec = OPS[op.op];
  if (!spec) throw new WireError(11, `unknown operation kind ${JSON.stringify(op.op)}`);
  for (const k of Object.keys(op)) {
    if (k !== 'op' && !(k in spec)) throw new WireError(11, `operation ${op.op}: unknown field ${JSON.stringify(k)}`);
  }
  for (const [k, t0] of Object.entries(spec)) {
    const required = t0.endsWith('!');
    const t = t0.replace('!', '');
    if (!(k in op)) {
      if (required) throw new WireError(11, `operation ${op.op}: missing field ${JSON.stringify(k)}`);
      continue;
    }
    const v = op[k];
    let good;
    switch (t) {
      case 'string': good = typeof v === 'string'; break;
      case 'int': good = isInt(v); break;
      case 'int?': good = v === null || isInt(v); break;
      case 'bool': good = typeof v === 'boolean'; break;
      case 'object': good = isObj(v); break;
      case 'strlist?': good = v === null || (Array.isArray(v) && v.every((x) => typeof x === 'string')); break;
      default: good = false;
    }
    if (!good) throw new WireError(11, `operation ${op.op}: field ${JSON.stringify(k)} must be ${t}`);
  }
}

function applyOp(op) {
  checkOp(op);
  const kind = op.op;
  if ((st.profile === 'cqs' && MQ_ONLY.has(kind)) || (st.profile === 'mq' && CQS_ONLY.has(kind))) {
    throw invalidOp('op', kind, `an operation of the ${st.profile} profile`);
  }
  curSignals = [];
  let out;
  switch (kind) {
    case 'define_structure': out = defineStructure(op); break;
    case 'alter_structure': out = alterStructure(op); break;
    case 'define_queue': out = defineQueue(op); break;
    case 'alter_queue': out = alterQueue(op); break;
    case 'put': out = st.profile === 'mq' ? mqPut(op) : cqsPut(op); break;
    case 'get': out = st.profile === 'mq' ? mqGet(op) : cqsGet(op); break;
    case 'commit': out = mqCommit(op, true); break;
    case 'backout': out = mqCommit(op, false); break;
    case 'set_perfmev': out = mqSetPerfmev(op); break;
    case 'reset_qstats': out = mqResetQstats(op); break;
    case 'start_qmgr': out = mqStartQmgr(op); break;
    case 'stop_qmgr': out = mqStopQmgr(op); break;
    case 'backup': out = mqBackup(op); break;
    case 'fail_structure': out = mqFailStructure(op); break;
    case 'recover': out = mqRecover(op); break;
    case 'setxcf_alter': out = setxcfAlter(op); break;
    case 'alter_outcome': out = cqsAlterOutcome(op); break;
    case 'set_overflow_exit': out = cqsSetOverflowExit(op); break;
    case 'advance_clock': out = advanceClock(op); break;
    case 'inspect': out = inspect(); break;
    default: throw new WireError(10, `operation ${kind} not supported`);
  }
  monitorFull();
  if (curSignals.length) out.signals = (out.signals || []).concat(curSignals);
  curSignals = null;
  return out;
}

// ---------------------------------------------------------------------------------------
// Wire protocol
// ---------------------------------------------------------------------------------------
const CAPABILITIES = {
  name: 'fifth-reading',
  protocol_version: '1.2',
  profiles: ['mq', 'cqs'],
  families: ['CQS', 'OFFLOAD', 'CFLEVEL', 'CAPACITY', 'TOPOLOGY', 'SIZING', 'QDEPTH', 'RECOVERY', 'QUEUE'],
  readings: {
    cqs_target: 'points',
    cqs_usage_metric: 'elements',
    cqs_scan_anchor: 'clock',
    offload_compare: 'strict',
    offload_usage_metric: 'max',
    forced_offload_boundary: '63K',
    persistent_low_cflevel_rc: '2366',
    large_low_cflevel_rc: '2366',
    qdepth_percent: 'real',
    qfull_hi_flag: 'unchanged',
    event_broadcast: 'if-coordinator-enabled',
    recover_purge_nonfailed: 'rejected',
    alter_below_initsize: 'accepted',
    cflevel5_decrease: 'guarded',
    alter_at_size: 'accepted',
    alter_not_larger: 'accepted',
    full_signal_timing: 'at-crossing',
    cqs_alter: 'async',
    cqs_empty_overflow: 'ends',
    nonshared_at_stop: 'lost',
  },
  reason_codes: 'exact',
  observes: ['usage', 'events', 'signals', 'inspect'],
};
if (FAULT) CAPABILITIES.name = `fifth-reading[fault:${FAULT}]`;

let initialized = false;
let peerMaxLine = 1048576;
let closing = false;

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}
function sendError(inReplyTo, code, text, detail) {
  const m = { type: 'error', in_reply_to: inReplyTo, code, text, definite: DEFINITE[code] };
  if (detail !== undefined) m.detail = detail;
  send(m);
}
function asWireError(e) {
  if (e instanceof WireError) return e;
  process.stderr.write(`fifth-reading internal error: ${e && e.stack ? e.stack : e}\n`);
  return new WireError(12, `internal failure: ${e && e.message ? e.message : String(e)}`);
}
const byteLen = (s) => Buffer.byteLength(s, 'utf8');

function handleApply(msg) {
  if (!('op' in msg)) return sendError(msg.msg_id, 11, 'apply has no "op"');
  // Every definite error (10, 11, 14) is raised before the operation changes anything.
  let out;
  try {
    out = applyOp(msg.op);
  } catch (e) {
    const w = asWireError(e);
    curSignals = null;
    return sendError(msg.msg_id, w.code, w.message, w.detail);
  }
  const line = JSON.stringify({ type: 'apply_ok', in_reply_to: msg.msg_id, outcome: out });
  if (byteLen(line) > peerMaxLine) return sendError(msg.msg_id, 18, 'the outcome is larger than the suite\'s line limit');
  process.stdout.write(line + '\n');
}

const SNAPSHOT_MARGIN = 65536; // an outcome other than inspect stays far below 64 KiB (at most ~20 KiB of signals)

function handleBatch(msg) {
  if (!Array.isArray(msg.ops) || msg.ops.length === 0) return sendError(msg.msg_id, 11, 'batch needs a non-empty list "ops"');
  const outs = [];
  let used = byteLen(JSON.stringify({ type: 'batch_ok', in_reply_to: msg.msg_id, outcomes: [] })) + 200;
  let error;
  for (let i = 0; i < msg.ops.length; i++) {
    const op = msg.ops[i];
    // near the line limit, keep a copy so that an operation whose outcome does not fit can be undone
    const snapshot = used + SNAPSHOT_MARGIN > peerMaxLine && !(isObj(op) && op.op === 'inspect') ? structuredClone(st) : null;
    let out;
    try {
      out = applyOp(op);
    } catch (e) {
      const w = asWireError(e);
      curSignals = null;
      error = errObj(w.code, w.message, w.detail);
      break;
    }
    const n = byteLen(JSON.stringify(out)) + 1;
    if (used + n > peerMaxLine) {
      const undoable = snapshot !== null || (isObj(op) && op.op === 'inspect');
      if (outs.length === 0 || !undoable) {
        error = errObj(18, 'the outcome does not fit in the suite\'s line limit');
        break;
      }
      if (snapshot) st = snapshot; // not applied: the suite sends the rest again
      break;
    }
    used += n;
    outs.push(out);
  }
  const reply = { type: 'batch_ok', in_reply_to: msg.msg_id, outcomes: outs };
  if (error) reply.error = error;
  send(reply);
}

function handleLine(line) {
  if (line.length === 0) return;
  if (byteLen(line) > MY_MAX_LINE) return sendError(null, 17, `request longer than ${MY_MAX_LINE} bytes discarded`);
  let msg;
  try { msg = JSON.parse(line); } catch (e) { return sendError(null, 11, 'request is not JSON'); }
  if (!isObj(msg)) return sendError(null, 11, 'request is not a JSON object');
  if (!isInt(msg.msg_id) || msg.msg_id < 0) return sendError(null, 11, 'request has no readable msg_id');
  const id = msg.msg_id;
  const type = msg.type;
  const known = ['init', 'open', 'apply', 'batch', 'close'];
  if (typeof type !== 'string' || !known.includes(type)) return sendError(id, 11, `unknown message type ${JSON.stringify(type)}`);
  if (!initialized && type !== 'init') return sendError(id, 15, 'init must come first');
  try {
    switch (type) {
      case 'init': {
        if (initialized) return sendError(id, 15, 'init was already received');
        if (typeof msg.protocol_version !== 'string') return sendError(id, 11, 'init needs a string protocol_version');
        if (msg.protocol_version.split('.')[0] !== '1') return sendError(id, 16, `protocol ${msg.protocol_version} is not 1.x`);
        if (msg.max_line_bytes !== undefined) {
          if (!isInt(msg.max_line_bytes) || msg.max_line_bytes < 1024) return sendError(id, 11, 'max_line_bytes must be an integer >= 1024');
          peerMaxLine = msg.max_line_bytes;
        }
        initialized = true;
        return send({ type: 'init_ok', in_reply_to: id, protocol_version: '1.2', capabilities: CAPABILITIES, max_line_bytes: MY_MAX_LINE });
      }
      case 'open': {
        st = null;
        if (!('config' in msg)) return sendError(id, 11, 'open needs a config');
        try {
          st = openConfig(msg.config);
        } catch (e) {
          st = null;
          const w = asWireError(e);
          return sendError(id, w.code, w.message, w.detail);
        }
        return send({ type: 'open_ok', in_reply_to: id });
      }
      case 'apply':
        if (!st) return sendError(id, 15, 'apply before a successful open');
        return handleApply(msg);
      case 'batch':
        if (!st) return sendError(id, 15, 'batch before a successful open');
        return handleBatch(msg);
      case 'close':
        closing = true;
        process.stdout.write(JSON.stringify({ type: 'close_ok', in_reply_to: id }) + '\n', () => process.exit(0));
        return undefined;
      default:
        return sendError(id, 11, 'unknown message type');
    }
  } catch (e) {
    const w = asWireError(e);
    return sendError(id, w.code, w.message, w.detail);
  }
}

function main() {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  rl.on('line', (line) => { if (!closing) handleLine(line); });
  rl.on('close', () => { if (!closing) process.stdout.write('', () => process.exit(0)); });
}

if (require.main === module) main();
module.exports = { geometry, minSizeFor, adminMinKb, FAULTS, CAPABILITIES };
