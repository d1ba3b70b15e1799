#!/usr/bin/env node
// selftest.js: scenarios from the IBM documents' worked examples and rules, driven over the
// wire against impl.js (spawned as a child process). Every reply is validated against the
// JSON Schemas in docs/schemas/. Prints PASS/FAIL per check; exits 1 on any failure.
//
//   node selftest.js [--fault NAME]     (with --fault, failures are expected)
'use strict';

const { Client } = require('./wire');
const { adminMinKb } = require('./impl');

const argv = process.argv.slice(2);
const implArgs = argv.includes('--fault') ? ['--fault', argv[argv.indexOf('--fault') + 1]] : [];
const quiet = argv.includes('--quiet');

let passed = 0, failed = 0;
const failures = [];
function check(name, cond, info) {
  if (cond) { passed++; if (!quiet) console.log(`PASS ${name}`); }
  else {
    failed++;
    failures.push(name);
    console.log(`FAIL ${name}${info !== undefined ? ': ' + (typeof info === 'string' ? info : JSON.stringify(info)).slice(0, 400) : ''}`);
  }
}
const eq = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const sorted = (a) => (a || []).slice().sort();

// ------------------------------------------------------------------ record builders
const S = (name, x) => Object.assign({ name }, x || {});
const Q = (name, cfstruct, x) => Object.assign({ name, cfstruct }, x || {});
const mq = (x) => Object.assign({ profile: 'mq', qsg: 'QSG1', qmgrs: ['QM01', 'QM02', 'QM03'] }, x);
const cqs = (x) => Object.assign({ profile: 'cqs', qsg: 'IMS1', qmgrs: ['IMSA', 'IMSB'] }, x);
const put = (qmgr, queue, length, x) => Object.assign({ op: 'put', qmgr, queue, length }, x || {});
const get = (qmgr, queue, x) => Object.assign({ op: 'get', qmgr, queue }, x || {});
const rep = (n, f) => Array.from({ length: n }, (_, i) => f(i));
const INSPECT = { op: 'inspect' };

let C; // the current client
async function fresh() {
  if (C) { try { await C.close(); } catch (e) { C.kill(); } }
  C = new Client(implArgs);
  const r = await C.init();
  if (r.type !== 'init_ok') throw new Error('init failed');
}
async function open(cfg) {
  const r = await C.open(cfg);
  if (r.type !== 'open_ok') throw new Error(`open failed: ${JSON.stringify(r)}`);
}
async function one(op) {
  const r = await C.apply(op);
  if (r.type !== 'apply_ok') return { error: r };
  return r.outcome;
}
async function ins() { return (await one(INSPECT)).value; }
const sigs = (o) => sorted(o.signals);

// ------------------------------------------------------------------ scenarios
async function protocolChecks() {
  C = new Client(implArgs);
  let r = await C.request({ type: 'open', config: mq({}) });
  check('protocol: request before init gets error 15', r.type === 'error' && r.code === 15 && r.definite === true, r);
  r = await C.init();
  check('protocol: init_ok announces 1.2', r.type === 'init_ok' && r.protocol_version === '1.2', r);
  const caps = r.capabilities;
  check('protocol: capabilities claim both profiles, all nine families, exact reason codes',
    eq(sorted(caps.profiles), ['cqs', 'mq']) && caps.families.length === 9 && caps.reason_codes === 'exact', caps);
  r = await C.init();
  check('protocol: second init gets error 15', r.type === 'error' && r.code === 15, r);
  r = await C.raw('this is not json');
  check('protocol: non-JSON line gets error 11 with in_reply_to null', r.type === 'error' && r.code === 11 && r.in_reply_to === null, r);
  r = await C.raw('{"type":"apply"}');
  check('protocol: no msg_id gets error 11 with in_reply_to null', r.type === 'error' && r.code === 11 && r.in_reply_to === null, r);
  r = await C.request({ type: 'frobnicate' });
  check('protocol: unknown message type gets definite error 11', r.type === 'error' && r.code === 11 && r.definite === true, r);
  r = await C.apply(INSPECT);
  check('protocol: apply before open gets error 15', r.type === 'error' && r.code === 15, r);
  r = await C.open(mq({ profile: 'ims' }));
  check('protocol: unimplemented profile gets error 10', r.type === 'error' && r.code === 10, r);
  r = await C.open(mq({ colour: 'blue' }));
  check('protocol: unknown config field gets error 13', r.type === 'error' && r.code === 13, r);
  r = await C.apply(INSPECT);
  check('protocol: after a failed open the implementation is not open', r.type === 'error' && r.code === 15, r);
  r = await C.open({ profile: 'mq', queues: [{ name: 'Q1', cfstruct: 'APP1' }] });
  check('protocol: a short config takes the schema defaults', r.type === 'open_ok', r);
  const v = await ins();
  check('protocol: defaults give QM01..QM03 and APP1 (8192 KB)', eq(Object.keys(v.qmgrs), ['QM01', 'QM02', 'QM03']) && v.structures.APP1.size_kb === 8192, v);
  r = await C.apply({ op: 'cfconform_no_such_op' });
  check('protocol: unknown op kind gets definite error 11', r.type === 'error' && r.code === 11 && r.definite, r);
  r = await C.apply({ op: 'put', qmgr: 'QM01', queue: 'Q1' });
  check('protocol: op missing a required field gets error 11', r.type === 'error' && r.code === 11, r);
  r = await C.apply({ op: 'put', qmgr: 'QM01', queue: 'Q1', length: 1.5 });
  check('protocol: non-integer length gets error 11', r.type === 'error' && r.code === 11, r);
  r = await C.apply({ op: 'put', qmgr: 'QM01', queue: 'Q1', length: 10, colour: 1 });
  check('protocol: op with an unknown field gets error 11', r.type === 'error' && r.code === 11, r);
  r = await C.apply(put('QM09', 'Q1', 10));
  check('protocol: unknown queue manager gets error 14 with detail', r.type === 'error' && r.code === 14 && r.detail && r.detail.field === 'qmgr', r);
  r = await C.apply(put('QM01', 'NOPE', 10));
  check('protocol: unknown queue gets error 14', r.type === 'error' && r.code === 14, r);
  r = await C.apply({ op: 'alter_outcome', cfstruct: 'APP1', success: true });
  check('protocol: a cqs operation in the mq profile gets error 14', r.type === 'error' && r.code === 14, r);
  r = await C.apply(put('QM01', 'Q1', -1));
  check('protocol: negative length gets error 14', r.type === 'error' && r.code === 14, r);
  r = await C.batch([put('QM01', 'Q1', 10, { tag: 1 }), put('QM01', 'NOPE', 1), put('QM01', 'Q1', 10, { tag: 3 })]);
  check('protocol: batch stops at a failing op with a prefix and error',
    r.type === 'batch_ok' && r.outcomes.length === 1 && r.error && r.error.code === 14 && r.error.definite === true, r);
  r = await C.request({ type: 'batch', ops: [] });
  check('protocol: empty batch gets error 11', r.type === 'error' && r.code === 11, r);
  const d = (await ins()).queues.Q1.depth;
  check('protocol: ops after a batch error were not applied', d === 1, d);
  r = await C.request({ type: 'open', config: mq({ structures: [S('APP1')], queues: [Q('Q1', 'APP1')] }) });
  check('protocol: open resets everything', r.type === 'open_ok' && (await ins()).queues.Q1.depth === 0);
  const closed = await C.close();
  check('protocol: close_ok then exit code 0', closed.reply.type === 'close_ok' && closed.exit.code === 0, closed.exit);
  check('protocol: every reply so far matched its schema', C.schemaErrors.length === 0, C.schemaErrors);
  C = null;

  // end of stdin
  const c2 = new Client(implArgs);
  await c2.init();
  c2.proc.stdin.end();
  const ex = await c2.exited;
  check('protocol: exit 0 at end of stdin', ex.code === 0, ex);

  // prefix replies under a small line limit: the rest is sent again, nothing is applied twice
  const c3 = new Client(implArgs);
  await c3.init({ max_line_bytes: 1024 });
  await c3.open(mq({ structures: [S('APP1')], queues: [Q('Q1', 'APP1')] }));
  const ops = rep(50, (i) => put('QM01', 'Q1', 100, { tag: i + 1 }));
  let sent = 0, rounds = 0, okCount = 0, prefixSeen = false;
  while (sent < ops.length) {
    const rr = await c3.batch(ops.slice(sent));
    rounds++;
    if (rr.outcomes.length < ops.length - sent) prefixSeen = true;
    okCount += rr.outcomes.filter((o) => o.ok).length;
    sent += rr.outcomes.length;
    if (rr.error || rounds > 100) break;
  }
  const v3 = (await c3.apply(INSPECT)).outcome.value;
  check('protocol: batch replies stay under the suite line limit (prefix) and the rest is resent',
    prefixSeen && okCount === 50 && v3.queues.Q1.depth === 50, { rounds, okCount, depth: v3.queues.Q1.depth });
  check('protocol: prefix replies matched their schema', c3.schemaErrors.length === 0, c3.schemaErrors);
  await c3.close();

  const c4 = new Client(implArgs);
  const r4 = await c4.request({ type: 'init', protocol_version: '2.0' });
  check('protocol: major version 2 gets error 16', r4.type === 'error' && r4.code === 16, r4);
  c4.proc.stdin.end();
  await c4.exited;
}

async function queueChecks() {
  await fresh();
  await open(mq({ structures: [S('APP1', { cflevel: 3, recover: true })], queues: [Q('SQ', 'APP1'), Q('LQ', null, { qmgr: 'QM01' })] }));
  let o = await C.run([put('QM01', 'SQ', 10, { tag: 1 }), put('QM02', 'SQ', 10, { tag: 2 }), put('QM03', 'SQ', 10, { tag: 3 })]);
  const g = await C.run([get('QM02', 'SQ'), get('QM03', 'SQ'), get('QM01', 'SQ'), get('QM01', 'SQ')]);
  check('QUEUE: a shared queue is FIFO across queue managers', eq(g.map((x) => x.tag), [1, 2, 3, undefined]) && g[3].reason === 2033, g);
  o = await C.run([put('QM01', 'SQ', 10, { tag: 10, syncpoint: true }), get('QM02', 'SQ'), INSPECT]);
  check('QUEUE: an uncommitted put is not retrievable but counts in the depth', o[1].reason === 2033 && o[2].value.queues.SQ.depth === 1, o);
  o = await C.run([{ op: 'commit', qmgr: 'QM01' }, get('QM02', 'SQ')]);
  check('QUEUE: after commit the message is retrievable', o[0].ok && o[1].tag === 10, o);
  o = await C.run([put('QM01', 'SQ', 10, { tag: 11, syncpoint: true }), { op: 'backout', qmgr: 'QM01' }, get('QM02', 'SQ'), INSPECT]);
  check('QUEUE: backout removes an uncommitted put', o[2].reason === 2033 && o[3].value.queues.SQ.depth === 0, o);
  o = await C.run([put('QM01', 'SQ', 10, { tag: 21 }), put('QM01', 'SQ', 10, { tag: 22 }), get('QM02', 'SQ', { syncpoint: true }),
    get('QM03', 'SQ'), { op: 'backout', qmgr: 'QM02' }, get('QM03', 'SQ')]);
  check('QUEUE: a backed-out get returns the message to the queue', o[2].tag === 21 && o[3].tag === 22 && o[5].tag === 21, o);
  o = await C.run([put('QM01', 'SQ', 10, { tag: 31 }), get('QM02', 'SQ', { syncpoint: true }), { op: 'stop_qmgr', qmgr: 'QM02' }, get('QM03', 'SQ'),
    put('QM02', 'SQ', 10)]);
  check('QUEUE: stopping a queue manager backs out its unit of work', o[3].tag === 31, o);
  check('QUEUE: a stopped queue manager cannot put', o[4].ok === false && o[4].reason === 'NOT_ACTIVE', o[4]);
  o = await C.run([{ op: 'start_qmgr', qmgr: 'QM02' }, put('QM01', 'SQ', 10, { tag: 41 }), { op: 'stop_qmgr', qmgr: 'QM01' }, get('QM02', 'SQ')]);
  check('QUEUE: nonpersistent shared messages survive a queue manager stop', o[3].tag === 41, o);
  o = await C.run([{ op: 'start_qmgr', qmgr: 'QM01' }, put('QM01', 'LQ', 10, { tag: 51 }), put('QM01', 'LQ', 10, { tag: 52, persistent: true }),
    { op: 'stop_qmgr', qmgr: 'QM01' }, { op: 'start_qmgr', qmgr: 'QM01' }, get('QM01', 'LQ'), get('QM01', 'LQ')]);
  check('QUEUE: a nonshared queue keeps persistent and loses nonpersistent messages at stop (nonshared_at_stop=lost)',
    o[5].tag === 52 && o[6].reason === 2033, o);
  const r = await C.apply(put('QM02', 'LQ', 10));
  check('QUEUE: another queue manager cannot open a nonshared queue (error 14)', r.type === 'error' && r.code === 14, r);
  o = await one(put('QM01', 'LQ', 10));
  check('QUEUE: a put to a nonshared queue reports neither offloaded nor usage', o.ok && o.offloaded === undefined && o.usage === undefined, o);
  check('QUEUE: replies matched their schema', C.schemaErrors.length === 0, C.schemaErrors);
}

async function cflevelChecks() {
  await fresh();
  const structs = [1, 2, 3, 4, 5].map((l) => S(`L${l}`, { cflevel: l, recover: l >= 3, size_kb: 1048576 }));
  structs.push(S('NR3', { cflevel: 3, recover: false }));
  structs.push(S('D5', { cflevel: 5, recover: true, offload: 'DB2', size_kb: 1048576 }));
  const queues = structs.map((s) => Q(`Q${s.name}`, s.name, { maxmsgl: 104857600 }));
  queues.push(Q('SMALL', 'L5', { maxmsgl: 1000 }), Q('SMALL3', 'L3', { maxmsgl: 1000 }));
  await open(mq({ structures: structs, queues }));
  const res = {};
  for (const l of [1, 2, 3, 4, 5]) {
    res[l] = await C.run([put('QM01', `QL${l}`, 64512), put('QM01', `QL${l}`, 64513), put('QM01', `QL${l}`, 100, { persistent: true })]);
  }
  check('CFLEVEL: 1 and 2 hold nonpersistent messages up to 63 KB (64 512 bytes)', res[1][0].ok && res[2][0].ok, [res[1][0], res[2][0]]);
  check('CFLEVEL: 1 and 2 refuse messages over 63 KB with 2366', res[1][1].reason === 2366 && res[2][1].reason === 2366);
  check('CFLEVEL: 1 and 2 refuse persistent messages with 2366 (persistent_low_cflevel_rc)', res[1][2].reason === 2366 && res[2][2].reason === 2366, [res[1][2], res[2][2]]);
  check('CFLEVEL: 3 holds persistent messages', res[3][2].ok && res[3][0].ok, res[3]);
  check('CFLEVEL: 3 refuses messages over 63 KB with 2366', res[3][1].reason === 2366, res[3][1]);
  check('CFLEVEL: 4 holds messages over 63 KB (in Db2)', res[4][1].ok && res[4][1].offloaded === true && res[4][1].location === 'DB2', res[4][1]);
  check('CFLEVEL: 4 keeps a 63 KB message in the CF', res[4][0].ok && res[4][0].location === 'CF', res[4][0]);
  check('CFLEVEL: 5 offloads over 63 KB to SMDS (the default OFFLOAD)', res[5][1].ok && res[5][1].location === 'SMDS', res[5][1]);
  let o = await C.run([put('QM01', 'QL4', 104857600), put('QM01', 'QL5', 104857600), put('QM01', 'QL5', 104857601), put('QM01', 'QD5', 70000),
    put('QM01', 'QNR3', 10, { persistent: true }), put('QM01', 'SMALL', 1001), put('QM01', 'QL3', 104857600), put('QM01', 'SMALL3', 70000)]);
  check('CFLEVEL: 4 and 5 hold messages up to 100 MB', o[0].ok && o[1].ok, o.slice(0, 2));
  check('CAPACITY: a message over 100 MB gets 2030', o[2].reason === 2030, o[2]);
  check('OFFLOAD: OFFLOAD(DB2) keeps offloaded data in Db2', o[3].location === 'DB2' && o[3].offloaded === true, o[3]);
  check('CFLEVEL: RECOVER(NO) refuses persistent messages with 2048', o[4].reason === 2048, o[4]);
  check('CAPACITY: a message longer than MAXMSGL gets 2030', o[5].reason === 2030, o[5]);
  check('CFLEVEL: over 63 KB at CFLEVEL 3 with MAXMSGL allowing it gets 2366 (large_low_cflevel_rc=2366)', o[6].reason === 2366, o[6]);
  check('CFLEVEL: 2030 takes precedence over 2366 when MAXMSGL is smaller than the message', o[7].reason === 2030, o[7]);
  o = await C.run([
    { op: 'define_structure', structure: S('X4', { cflevel: 4, offload: 'SMDS' }) },
    { op: 'define_structure', structure: S('X5', { cflevel: 5, offload: 'SMDS' }) },
    { op: 'define_structure', structure: S('X6', { cflevel: 6 }) },
    { op: 'alter_structure', name: 'L4', changes: { cflevel: 3 } },
    { op: 'alter_structure', name: 'L3', changes: { offload: 'SMDS' } },
  ]);
  check('CFLEVEL: OFFLOAD is only valid from CFLEVEL(5) (define)', o[0].reason === 'INVALID' && o[1].ok, o.slice(0, 2));
  check('CFLEVEL: CFLEVEL(6) does not exist', o[2].reason === 'INVALID', o[2]);
  check('CFLEVEL: lowering CFLEVEL from 4 needs every queue empty', o[3].reason === 'NOT_ALLOWED', o[3]);
  check('CFLEVEL: OFFLOAD is only valid from CFLEVEL(5) (alter)', o[4].reason === 'INVALID', o[4]);
  const drain = [];
  for (let i = 0; i < 4; i++) drain.push(get('QM01', 'QL4'));
  o = await C.run(drain.concat([{ op: 'alter_structure', name: 'L4', changes: { cflevel: 3 } }, put('QM01', 'QL4', 64513),
    { op: 'alter_structure', name: 'L5', changes: { cflevel: 4 } }]));
  check('CFLEVEL: lowering CFLEVEL from 4 is allowed once every queue is empty', o[4].ok && o[5].reason === 2366, o.slice(4));
  check('CFLEVEL: lowering CFLEVEL from 5 is guarded too (cflevel5_decrease=guarded)', o[6].reason === 'NOT_ALLOWED', o[6]);
  check('CFLEVEL: replies matched their schema', C.schemaErrors.length === 0, C.schemaErrors);
}

// 188 KB: 100 entries and 300 elements in our accounting.
const S188 = (name, x) => S(name, Object.assign({ size_kb: 188, cflevel: 5, recover: true }, x || {}));
async function offloadChecks() {
  await fresh();
  await open(mq({ structures: [S188('APP1')], queues: [Q('Q1', 'APP1'), Q('Q2', 'APP1')] }));
  let v = await ins();
  check('SIZING: a 188 KB structure offers 100 entries and 300 elements in our accounting',
    v.structures.APP1.entries_total === 100 && v.structures.APP1.elements_total === 300, v.structures.APP1);
  let o = await one(put('QM01', 'Q1', 40000));
  check('OFFLOAD: an empty structure keeps a 40 000-byte message in the CF', o.ok && o.offloaded === false && o.location === 'CF', o);
  await one(get('QM01', 'Q1'));
  await C.run(rep(70, () => put('QM01', 'Q2', 1)));
  o = await one(put('QM01', 'Q1', 40000));
  check('OFFLOAD: exactly 70% full is not "more than 70% full" (offload_compare=strict)', o.offloaded === false, o);
  await one(get('QM01', 'Q1'));
  await one(put('QM01', 'Q2', 1));
  o = await C.run([put('QM01', 'Q1', 40000), put('QM01', 'Q1', 32768), put('QM01', 'Q1', 32769), put('QM01', 'Q1', 5000)]);
  check('OFFLOAD: rule 1: more than 70% full offloads messages exceeding 32 KB', o[0].offloaded === true && o[0].location === 'SMDS', o[0]);
  check('OFFLOAD: rule 1: a message of exactly 32 KB is not "exceeding 32 KB"', o[1].offloaded === false, o[1]);
  check('OFFLOAD: rule 1: 32 KB + 1 byte is offloaded', o[2].offloaded === true, o[2]);
  check('OFFLOAD: rule 2 is not in effect below 80%', o[3].offloaded === false, o[3]);
  check('OFFLOAD: an offloaded message costs one entry and one element (0.75 KB)',
    o[2].usage[0] - o[1].usage[0] === 1 && o[2].usage[2] - o[1].usage[2] === 1, [o[1].usage, o[2].usage]);

  await open(mq({ structures: [S188('APP1')], queues: [Q('Q1', 'APP1'), Q('Q2', 'APP1')] }));
  await C.run(rep(81, () => put('QM01', 'Q2', 1)));
  o = await C.run([put('QM01', 'Q1', 4096), put('QM01', 'Q1', 4097), put('QM01', 'Q1', 100)]);
  check('OFFLOAD: rule 2: more than 80% full offloads messages exceeding 4 KB', o[0].offloaded === false && o[1].offloaded === true, o);
  check('OFFLOAD: rule 3 is not in effect below 90%', o[2].offloaded === false, o[2]);
  await C.run(rep(7, () => put('QM01', 'Q2', 1)));
  o = await C.run([put('QM01', 'Q1', 1), put('QM01', 'Q1', 0)]);
  check('OFFLOAD: rule 3: more than 90% full offloads every message with data', o[0].offloaded === true, o[0]);
  check('OFFLOAD: rule 3: a zero-length message does not exceed 0 KB', o[1].offloaded === false, o[1]);

  await open(mq({ structures: [S188('APP1', { offld1sz: 65536 })], queues: [Q('Q1', 'APP1'), Q('Q2', 'APP1')] }));
  await C.run(rep(75, () => put('QM01', 'Q2', 1)));
  o = await one(put('QM01', 'Q1', 40000));
  check('OFFLOAD: OFFLD1SZ(64K) means rule 1 is not in effect', o.offloaded === false, o);
  await C.run(rep(16, () => put('QM01', 'Q2', 1)));
  o = await C.run([put('QM01', 'Q1', 40000), put('QM01', 'Q1', 65000)]);
  check('OFFLOAD: with rule 1 off, rule 3 still offloads', o[0].offloaded === true, o[0]);
  await open(mq({ structures: [S188('APP1', { offld1sz: 65536, offld2sz: 65536, offld3sz: 65536 })], queues: [Q('Q1', 'APP1')] }));
  o = await C.run([put('QM01', 'Q1', 64512), put('QM01', 'Q1', 64513)]);
  check('OFFLOAD: with every rule off, only messages over 63 KB are offloaded (forced_offload_boundary=63K)',
    o[0].offloaded === false && o[1].offloaded === true, o);
  await open(mq({ structures: [S188('APP1', { offld1th: 0 })], queues: [Q('Q1', 'APP1')] }));
  o = await C.run([put('QM01', 'Q1', 32769), put('QM01', 'Q1', 32769), { op: 'alter_structure', name: 'APP1', changes: { offld2th: 50 } },
    put('QM01', 'Q1', 32769), { op: 'alter_structure', name: 'APP1', changes: { offld1th: 101 } }]);
  check('OFFLOAD: OFFLD1TH(0): an empty structure is not "more than 0% full" (strict), so the first message stays', o[0].offloaded === false, o[0]);
  check('OFFLOAD: OFFLD1TH(0) then offloads every message over 32 KB (IBM example)', o[1].offloaded === true, o[1]);
  check('OFFLOAD: ALTER CFSTRUCT leaves keywords not given unchanged', o[2].ok && o[3].offloaded === true, o.slice(2, 4));
  check('OFFLOAD: OFFLD1TH(101) is invalid', o[4].reason === 'INVALID', o[4]);
  check('OFFLOAD: replies matched their schema', C.schemaErrors.length === 0, C.schemaErrors);
}

async function capacityChecks() {
  await fresh();
  await open(mq({ structures: [S188('APP1', { cflevel: 3 })], queues: [Q('Q1', 'APP1', { maxdepth: 3 }), Q('Q2', 'APP1')] }));
  let o = await C.run(rep(4, (i) => put('QM01', 'Q1', 10, { tag: i })));
  check('CAPACITY: a queue holding MAXDEPTH messages refuses the next put with 2053', o[2].ok && o[3].reason === 2053, o);
  o = await C.run(rep(97, () => put('QM01', 'Q2', 1)).concat([put('QM01', 'Q2', 1)]));
  check('CAPACITY: with all entries in use the structure is full: 2192', o[96].ok && o[97].reason === 2192, o.slice(95));
  await open(mq({ structures: [S188('APP1', { cflevel: 3 })], queues: [Q('Q1', 'APP1')] }));
  o = await C.run(rep(30, () => put('QM01', 'Q1', 5120)).concat([put('QM01', 'Q1', 1)]));
  check('CAPACITY: with all elements in use (entries free) the structure is full: 2192', o[29].ok && o[29].usage[2] === 300 && o[30].reason === 2192, o.slice(29));
  o = await C.run([{ op: 'fail_structure', cfstruct: 'APP1' }, put('QM01', 'Q1', 1), get('QM01', 'Q1')]);
  check('CAPACITY: puts and gets on a failed structure get 2373', o[1].reason === 2373 && o[2].reason === 2373, o);
  check('CAPACITY: replies matched their schema', C.schemaErrors.length === 0, C.schemaErrors);
}

async function topologyChecks() {
  await fresh();
  const q512 = rep(512, (i) => Q(`Q${i}`, 'APP1'));
  let r = await C.open(mq({ structures: [S('APP1')], queues: q512 }));
  check('TOPOLOGY: a structure holds 512 shared queues', r.type === 'open_ok', r);
  let o = await C.run([{ op: 'define_queue', queue: Q('Q512', 'APP1') }, { op: 'define_queue', queue: Q('LOCAL', null) },
    { op: 'define_queue', queue: Q('Q1', 'APP1') }, { op: 'define_queue', queue: Q('BAD', 'NOSUCH') }]);
  check('TOPOLOGY: the 513th shared queue on a structure is refused', o[0].reason === 'NOT_ALLOWED', o[0]);
  check('TOPOLOGY: nonshared queues do not count towards 512', o[1].ok, o[1]);
  check('TOPOLOGY: a duplicate queue name is refused', o[2].reason === 'NOT_ALLOWED', o[2]);
  check('TOPOLOGY: a queue on an undefined structure is invalid', o[3].reason === 'INVALID', o[3]);
  r = await C.open(mq({ structures: [S('APP1')], queues: rep(513, (i) => Q(`Q${i}`, 'APP1')) }));
  check('TOPOLOGY: a config with 513 queues on one structure is a bad config', r.type === 'error' && r.code === 13, r);
  r = await C.open(mq({ structures: rep(63, (i) => S(`S${i + 1}`)) }));
  check('TOPOLOGY: 63 application structures are accepted', r.type === 'open_ok', r);
  o = await one({ op: 'define_structure', structure: S('S64') });
  check('TOPOLOGY: the 64th application structure is refused (CSQ_ADMIN is the 64th)', o.reason === 'NOT_ALLOWED', o);
  await open(mq({ structures: rep(61, (i) => S(`S${i + 1}`)).concat([S('CSQSYSAPPL')]) }));
  o = await C.run([{ op: 'define_structure', structure: S('S62') }, { op: 'define_structure', structure: S('S63') }]);
  check('TOPOLOGY: with CSQSYSAPPL only 62 structures hold message data', o[0].ok && o[1].reason === 'NOT_ALLOWED', o);
  await open(mq({ structures: [] }));
  o = await C.run([{ op: 'define_structure', structure: S('ABCDEFGHIJKL') }, { op: 'define_structure', structure: S('ABCDEFGHIJKLM') },
    { op: 'define_structure', structure: S('1ABC') }, { op: 'define_structure', structure: S('CSQ_ADMIN') },
    { op: 'define_structure', structure: S('abc') }, { op: 'define_structure', structure: S('ABCDEFGHIJKL') }]);
  check('TOPOLOGY: structure names are up to 12 characters A-Z 0-9 starting with a letter; not CSQ_ADMIN',
    o[0].ok && o.slice(1, 5).every((x) => x.reason === 'INVALID'), o);
  check('TOPOLOGY: a duplicate structure is refused', o[5].reason === 'NOT_ALLOWED', o[5]);
  const q33 = rep(33, (i) => `Q${String(i + 1).padStart(3, '0')}`);
  await open(mq({ qsg: 'BIG', qmgrs: q33 }));
  let v = await ins();
  check('TOPOLOGY: at most 32 queue managers are active at once (the 33rd starts inactive)',
    Object.values(v.qmgrs).filter((x) => x.active).length === 32 && v.qmgrs.Q033.active === false, v.qmgrs.Q033);
  o = await C.run([{ op: 'start_qmgr', qmgr: 'Q033' }, { op: 'stop_qmgr', qmgr: 'Q001' }, { op: 'start_qmgr', qmgr: 'Q033' }]);
  check('TOPOLOGY: a 33rd queue manager cannot connect until another stops', o[0].reason === 'NOT_ALLOWED' && o[2].ok, o);
  r = await C.open(mq({ qsg: 'QSG12' }));
  check('TOPOLOGY: a QSG name has up to four characters', r.type === 'error' && r.code === 13, r);
  r = await C.open(mq({ qsg: 'QM01' }));
  check('TOPOLOGY: the QSG name differs from every queue manager name', r.type === 'error' && r.code === 13, r);
  await open(mq({ qsg: 'QS', structures: [S('APP1')] }));
  v = await ins();
  check('TOPOLOGY: the CFRM name pads the QSG name with @ to four characters', v.structures.APP1.cfname === 'QS@@APP1', v.structures.APP1);
  await open(mq({ qsg: 'SQ03', structures: [S('MYDATA')] }));
  v = await ins();
  check('TOPOLOGY: CFSTRUCT(MYDATA) in SQ03 is CF structure SQ03MYDATA (IBM example)', v.structures.MYDATA.cfname === 'SQ03MYDATA', v.structures.MYDATA);
  check('TOPOLOGY: replies matched their schema', C.schemaErrors.length === 0, C.schemaErrors);
}

const TABLE1 = [6144, 6912, 7976, 8704, 9728, 10496, 11520, 12288, 13056, 14080, 14848, 15616, 16640, 17408, 18176, 19200,
  19968, 20736, 21760, 22528, 23296, 24320, 25088, 25856, 27136, 27904, 28672, 29696, 30464, 31232, 32256];
const TABLE2 = { // messages -> [1,2,4,8,16,32,63 KB] -> MB
  100: [6, 6, 7, 7, 8, 10, 14], 1000: [8, 9, 12, 17, 27, 48, 88], 10000: [25, 38, 64, 115, 218, 423, 821],
  100000: [199, 327, 584, 1097, 2124, 4177, 8156],
};
const TABLE2_KB = [1, 2, 4, 8, 16, 32, 63];

async function sizingChecks() {
  await fresh();
  let allRows = true; const bad = [];
  for (let n = 1; n <= 31; n++) {
    await open(mq({ qmgrs: rep(n, (i) => `M${String(i + 1).padStart(3, '0')}`), structures: [] }));
    const a = (await ins()).admin;
    if (a.size_kb !== TABLE1[n - 1] || a.entries_total < 1000 * n) { allRows = false; bad.push([n, a]); }
  }
  check('SIZING: CSQ_ADMIN defaults to Table 1 for 1..31 queue managers and offers >= 1000 entries each', allRows, bad);
  await open(mq({ qmgrs: ['QM01', 'QM02'], structures: [], admin_table: 'v6' }));
  let a = (await ins()).admin;
  check('SIZING: the V6 (CFCC level 9) edition of Table 1 gives 3328 KB for two queue managers', a.size_kb === 3328 && a.entries_total >= 2000, a);
  let r = await C.open(mq({ qmgrs: ['QM01', 'QM02'], admin_size_kb: 900 }));
  check('SIZING: CSQ_ADMIN too small for 1000 entries per queue manager is a bad config', r.type === 'error' && r.code === 13, r);
  r = await C.open(mq({ qmgrs: ['QM01', 'QM02'], admin_size_kb: 1000 }));
  check('SIZING: CSQ_ADMIN below Table 1 but with 1000 entries per queue manager is accepted (Table 1 is planning advice)', r.type === 'open_ok', r);

  // Table 2: a structure of the table's size holds the table's number of messages (CFLEVEL 3, in the CF)
  const structs = [];
  for (const [n, row] of Object.entries(TABLE2)) row.forEach((mb, i) => structs.push(S(`T${n}K${TABLE2_KB[i]}`, { size_kb: mb * 1024 })));
  structs.push(S('EX256', { size_kb: 256 * 1024 }), S('EX512', { size_kb: 512 * 1024 }));
  await open(mq({ structures: structs, queues: [Q('T1', 'T1000K1'), Q('T63', 'T1000K63')] }));
  const v = await ins();
  const capacity = (s, kb) => Math.min(s.entries_total, Math.floor(s.elements_total / Math.ceil((kb * 1024) / 512)));
  let ok2 = true; const short = [];
  for (const [n, row] of Object.entries(TABLE2)) {
    row.forEach((mb, i) => {
      const c = capacity(v.structures[`T${n}K${TABLE2_KB[i]}`], TABLE2_KB[i]);
      if (c < Number(n)) { ok2 = false; short.push([n, TABLE2_KB[i], mb, c]); }
    });
  }
  check('SIZING: every Table 2 structure size holds its number of messages in our accounting', ok2, short);
  check('SIZING: 200 000 messages of 1 KB need between 256 and 512 MB (IBM example)',
    capacity(v.structures.EX256, 1) < 200000 && capacity(v.structures.EX512, 1) >= 200000,
    [capacity(v.structures.EX256, 1), capacity(v.structures.EX512, 1)]);
  let o = await C.run(rep(1000, () => put('QM01', 'T1', 1024)).concat(rep(1000, () => put('QM01', 'T63', 64512))));
  check('SIZING: 1000 messages of 1 KB fit in 8 MB and 1000 of 63 KB fit in 88 MB (puts)', o.every((x) => x.ok), o.find((x) => !x.ok));

  await open(mq({ structures: [S('APP1', { size_kb: 376, initsize_kb: 188 })], queues: [Q('Q1', 'APP1')] }));
  let st = (await ins()).structures.APP1;
  check('SIZING: a structure is allocated at INITSIZE', st.size_kb === 188 && st.entries_total === 100, st);
  o = await C.run([{ op: 'setxcf_alter', cfstruct: 'APP1', size_kb: 377 }, { op: 'setxcf_alter', cfstruct: 'APP1', size_kb: 376 }, INSPECT,
    { op: 'setxcf_alter', cfstruct: 'APP1', size_kb: 300 }, { op: 'setxcf_alter', cfstruct: 'APP1', size_kb: 100 }, INSPECT]);
  check('SIZING: SETXCF ALTER above SIZE is refused', o[0].reason === 'OUT_OF_RANGE', o[0]);
  check('SIZING: SETXCF ALTER to SIZE is accepted (alter_at_size=accepted)', o[1].ok && o[2].value.structures.APP1.size_kb === 376, o[2].value.structures.APP1);
  check('SIZING: SETXCF ALTER smaller and below INITSIZE is accepted (alter_not_larger, alter_below_initsize)',
    o[3].ok && o[4].ok && o[5].value.structures.APP1.size_kb === 100, o[5].value.structures.APP1);
  await C.run(rep(50, () => put('QM01', 'Q1', 1)));
  o = await C.run([{ op: 'setxcf_alter', cfstruct: 'APP1', size_kb: 10 }, INSPECT]);
  st = o[1].value.structures.APP1;
  check('SIZING: a contraction stops at the storage in use', o[0].ok && st.size_kb > 10 && st.entries_total >= 50, st);

  await open(mq({ structures: [S188('APP1', { fullthreshold: 80 }), S188('OFF', { fullthreshold: 0 })], queues: [Q('Q1', 'APP1'), Q('Q0', 'OFF')] }));
  o = await C.run(rep(80, () => put('QM01', 'Q1', 1)));
  check('SIZING: IXC585E when entries in use reach FULLTHRESHOLD (80 of 100), not before',
    o.slice(0, 79).every((x) => !x.signals) && eq(o[79].signals, ['IXC585E APP1']), o.slice(78));
  o = await C.run([put('QM01', 'Q1', 1), INSPECT, get('QM01', 'Q1'), get('QM01', 'Q1'), INSPECT]);
  check('SIZING: no repeated IXC585E while above; full_warning is reported', !o[0].signals && o[1].value.structures.APP1.full_warning === true, o.slice(0, 2));
  check('SIZING: IXC586I when usage goes back below FULLTHRESHOLD', !o[2].signals && eq(o[3].signals, ['IXC586I APP1']) && o[4].value.structures.APP1.full_warning === false, o.slice(2));
  o = await C.run(rep(100, () => put('QM01', 'Q0', 1)));
  check('SIZING: FULLTHRESHOLD(0) turns structure full monitoring off', o.every((x) => !x.signals) && o[99].ok, o[99]);
  await open(mq({ structures: [S188('APP1', { cflevel: 3, fullthreshold: 50 })], queues: [Q('Q1', 'APP1')] }));
  o = await C.run(rep(16, () => put('QM01', 'Q1', 5120)));
  check('SIZING: IXC585E also when elements (not entries) reach FULLTHRESHOLD', eq(o[14].signals, ['IXC585E APP1']) && o[14].usage[2] === 150, o[14]);
  check('SIZING: replies matched their schema', C.schemaErrors.length === 0, C.schemaErrors);
}

async function qdepthChecks() {
  await fresh();
  // Seed 004 worked example: QM1 with PERFMEV(DISABLED), shared SQ1 and nonshared LQ1
  const flags = { qdphiev: true, qdploev: false, qdpmaxev: false, maxdepth: 10, qdepthhi: 80 };
  await open(mq({ qsg: 'QSG', qmgrs: ['QM1'], perfmev_disabled: ['QM1'], structures: [S('APP1')],
    queues: [Q('SQ1', 'APP1', flags), Q('LQ1', null, Object.assign({ qmgr: 'QM1' }, flags))] }));
  let o = await C.run(rep(8, () => put('QM1', 'SQ1', 10)).concat(rep(8, () => put('QM1', 'LQ1', 10))).concat([INSPECT]));
  let v = o[16].value;
  check('QDEPTH (seed example): SQ1 QDPHIEV switches to DISABLED, QDPLOEV and QDPMAXEV to ENABLED',
    eq(v.queues.SQ1, { depth: 8, qdphiev: false, qdploev: true, qdpmaxev: true }), v.queues.SQ1);
  check('QDEPTH (seed example): LQ1 attributes remain unchanged while PERFMEV is DISABLED',
    eq(v.queues.LQ1, { depth: 8, qdphiev: true, qdploev: false, qdpmaxev: false }), v.queues.LQ1);
  check('QDEPTH (seed example): a queue manager with PERFMEV(DISABLED) produces no event message', o.every((x) => !x.events), o.filter((x) => x.events));
  o = await C.run([{ op: 'set_perfmev', qmgr: 'QM1', enabled: true }, INSPECT, put('QM1', 'LQ1', 10), INSPECT]);
  check('QDEPTH (seed example): LQ1 is unchanged until PERFMEV is ENABLED, then toggles at its next event',
    o[1].value.queues.LQ1.qdphiev === true && o[2].events && o[2].events[0].kind === 'QDPHI' && o[3].value.queues.LQ1.qdphiev === false, o);
  check('QDEPTH: a nonshared queue event has correl 0 and the owner\'s statistics',
    o[2].events && eq(o[2].events, [{ qmgr: 'QM1', kind: 'QDPHI', queue: 'LQ1', correl: 0, enq: 9, deq: 0 }]), o[2].events);

  // IBM "Queue depth events example 2" (Table 13): MAXDEPTH 1000, HI 80%, LO 20%
  await open(mq({ qmgrs: ['QM1'], structures: [S('APP1', { size_kb: 65536 })],
    queues: [Q('Q', 'APP1', { maxdepth: 1000, qdepthhi: 80, qdepthlo: 20, qdphiev: true, qdploev: false, qdpmaxev: false })] }));
  const seq = [];
  const flagsNow = async () => { const q = (await ins()).queues.Q; return [q.qdphiev, q.qdploev, q.qdpmaxev]; };
  let a = await C.run(rep(800, () => put('QM1', 'Q', 100)));
  seq.push(['T4 high', a.filter((x) => x.events).map((x) => x.events), await flagsNow()]);
  a = await C.run(rep(600, () => get('QM1', 'Q')));
  seq.push(['T6 low', a.filter((x) => x.events).map((x) => x.events), await flagsNow()]);
  a = await C.run(rep(600, () => put('QM1', 'Q', 100)));
  seq.push(['T8 high', a.filter((x) => x.events).map((x) => x.events), await flagsNow()]);
  a = await C.run(rep(201, () => put('QM1', 'Q', 100)));
  seq.push(['T9 full', a.filter((x) => x.events).map((x) => x.events), await flagsNow(), a[199].ok, a[200].reason]);
  a = await C.run(rep(800, () => get('QM1', 'Q')));
  seq.push(['T12 low', a.filter((x) => x.events).map((x) => x.events), await flagsNow()]);
  const ev = (kind, enq, deq, correl) => [[{ qmgr: 'QM1', kind, queue: 'Q', correl, enq, deq }]];
  check('QDEPTH (example 2): High at depth 800 enables Low and Full', eq(seq[0].slice(1), [ev('QDPHI', 800, 0, 1), [false, true, true]]), seq[0]);
  check('QDEPTH (example 2): Low at depth 200 enables High and Full', eq(seq[1].slice(1), [ev('QDPLO', 0, 600, 2), [true, false, true]]), seq[1]);
  check('QDEPTH (example 2): High again at 800 enables Low and Full', eq(seq[2].slice(1), [ev('QDPHI', 600, 0, 3), [false, true, true]]), seq[2]);
  check('QDEPTH (example 2): Queue Full on the first refused put leaves only Low enabled (qfull_hi_flag=unchanged)',
    eq(seq[3].slice(1), [ev('QFULL', 200, 0, 4), [false, true, false], true, 2053]), seq[3]);
  check('QDEPTH (example 2): Low after Full enables High and Full', eq(seq[4].slice(1), [ev('QDPLO', 0, 800, 5), [true, false, true]]), seq[4]);

  // coordinating queue manager and broadcast
  await open(mq({ qmgrs: ['QM01', 'QM02', 'QM03'], perfmev_disabled: ['QM02'], structures: [S('APP1')],
    queues: [Q('Q', 'APP1', { maxdepth: 10, qdepthhi: 50, qdepthlo: 20, qdphiev: true, qdploev: false })] }));
  o = await C.run([put('QM02', 'Q', 1), put('QM02', 'Q', 1), put('QM03', 'Q', 1), put('QM01', 'Q', 1), put('QM01', 'Q', 1)]);
  check('QDEPTH: the detecting queue manager coordinates; enabled active queue managers each issue one message with its CorrelId',
    eq(o[4].events, [{ qmgr: 'QM01', kind: 'QDPHI', queue: 'Q', correl: 1, enq: 2, deq: 0 }, { qmgr: 'QM03', kind: 'QDPHI', queue: 'Q', correl: 1, enq: 1, deq: 0 }]), o[4].events);
  o = await C.run([get('QM02', 'Q'), get('QM02', 'Q'), get('QM02', 'Q'), INSPECT]);
  check('QDEPTH: a coordinator with PERFMEV(DISABLED) toggles the flags but no message is issued (event_broadcast=if-coordinator-enabled)',
    o.every((x) => !x.events) && eq([o[3].value.queues.Q.qdphiev, o[3].value.queues.Q.qdploev], [true, false]), o);
  o = await C.run([{ op: 'stop_qmgr', qmgr: 'QM03' }, put('QM01', 'Q', 1), put('QM01', 'Q', 1), put('QM01', 'Q', 1)]);
  check('QDEPTH: inactive queue managers issue no message; statistics restart after each message',
    eq(o[3].events, [{ qmgr: 'QM01', kind: 'QDPHI', queue: 'Q', correl: 2, enq: 3, deq: 0 }]), o[3].events);
  o = await C.run([{ op: 'start_qmgr', qmgr: 'QM03' }, get('QM03', 'Q'), { op: 'reset_qstats', qmgr: 'QM03', queue: 'Q' }, get('QM03', 'Q'), get('QM01', 'Q')]);
  check('QDEPTH: RESET QSTATS restarts that queue manager\'s counts; a queue manager with no activity reports zero',
    eq(o[4].events, [{ qmgr: 'QM01', kind: 'QDPLO', queue: 'Q', correl: 3, enq: 0, deq: 1 }, { qmgr: 'QM03', kind: 'QDPLO', queue: 'Q', correl: 3, enq: 0, deq: 1 }]), o[4].events);

  // events are outside syncpoint
  await open(mq({ qmgrs: ['QM01'], structures: [S('APP1')], queues: [Q('Q', 'APP1', { maxdepth: 4, qdepthhi: 50, qdphiev: true, qdpmaxev: true })] }));
  o = await C.run([put('QM01', 'Q', 1, { syncpoint: true }), put('QM01', 'Q', 1, { syncpoint: true }), { op: 'backout', qmgr: 'QM01' }, INSPECT]);
  check('QDEPTH: a put inside a unit of work raises the event at once; backout does not restore the flags',
    o[1].events && o[1].events[0].kind === 'QDPHI' && !o[2].events && o[3].value.queues.Q.qdphiev === false && o[3].value.queues.Q.depth === 0, o);
  o = await C.run(rep(5, () => put('QM01', 'Q', 1)).concat([INSPECT]));
  check('QDEPTH: Queue Full on a refused put disables QDPMAXEV and enables QDPLOEV',
    o[4].reason === 2053 && o[4].events && o[4].events[0].kind === 'QFULL' && o[5].value.queues.Q.qdpmaxev === false && o[5].value.queues.Q.qdploev === true, o.slice(3));
  await open(mq({ qmgrs: ['QM01'], structures: [S('APP1')], queues: [Q('Q', 'APP1', { maxdepth: 2, qdphiev: false, qdploev: false, qdpmaxev: true })] }));
  o = await C.run(rep(3, () => put('QM01', 'Q', 1)).concat([INSPECT]));
  check('QDEPTH: Queue Full enables a disabled Queue Depth Low and leaves QDPHIEV alone',
    o[2].reason === 2053 && eq(o[3].value.queues.Q, { depth: 2, qdphiev: false, qdploev: true, qdpmaxev: false }), o.slice(2));
  await open(mq({ qmgrs: ['QM01'], structures: [S('APP1')], queues: [Q('Q', 'APP1', { maxdepth: 7, qdepthhi: 50, qdepthlo: 30, qdphiev: true, qdploev: true })] }));
  o = await C.run(rep(4, () => put('QM01', 'Q', 1)).concat(rep(2, () => get('QM01', 'Q'))));
  check('QDEPTH: percentages compare as real numbers (qdepth_percent=real): 50% of 7 is reached at depth 4, 30% of 7 at depth 2',
    !o[2].events && o[3].events && o[3].events[0].kind === 'QDPHI' && !o[4].events && o[5].events && o[5].events[0].kind === 'QDPLO', o);
  check('QDEPTH: replies matched their schema', C.schemaErrors.length === 0, C.schemaErrors);
}

async function recoveryChecks() {
  await fresh();
  await open(mq({ structures: [S('APP1', { cflevel: 3, recover: true }), S('NR', { cflevel: 3, recover: false }), S('L2', { cflevel: 2, recover: true })],
    queues: [Q('Q1', 'APP1'), Q('Q2', 'APP1')] }));
  let o = await C.run([{ op: 'backup', qmgr: 'QM01', cfstruct: 'NR' }, { op: 'backup', qmgr: 'QM01', cfstruct: 'L2' },
    { op: 'recover', cfstruct: 'APP1' }, { op: 'recover', cfstruct: 'APP1', purge: true }, { op: 'recover', cfstruct: 'NR' }]);
  check('RECOVERY: BACKUP fails for RECOVER(NO) and for CFLEVEL below 3', o[0].reason === 'NOT_ALLOWED' && o[1].reason === 'NOT_ALLOWED', o.slice(0, 2));
  check('RECOVERY: RECOVER fails on a structure that is not FAILED, TYPE(PURGE) too (recover_purge_nonfailed=rejected)',
    o[2].reason === 'NOT_FAILED' && o[3].reason === 'NOT_FAILED', o.slice(2, 4));
  check('RECOVERY: RECOVER fails for RECOVER(NO)', o[4].reason === 'NOT_ALLOWED', o[4]);
  o = await C.run([
    put('QM01', 'Q1', 100, { persistent: true, tag: 1 }), put('QM01', 'Q1', 100, { tag: 2 }), put('QM01', 'Q2', 100, { persistent: true, tag: 5 }),
    { op: 'backup', qmgr: 'QM01', cfstruct: 'APP1' },
    put('QM02', 'Q1', 100, { persistent: true, tag: 3 }), put('QM02', 'Q1', 100, { persistent: true, tag: 4, syncpoint: true }),
    get('QM03', 'Q2', { syncpoint: true }),
    { op: 'fail_structure', cfstruct: 'APP1' }, put('QM01', 'Q1', 1), INSPECT, { op: 'recover', cfstruct: 'APP1' }, INSPECT,
    { op: 'commit', qmgr: 'QM02' }, { op: 'commit', qmgr: 'QM03' },
    get('QM01', 'Q1'), get('QM01', 'Q1'), get('QM01', 'Q1'), get('QM01', 'Q2'), get('QM01', 'Q2')]);
  check('RECOVERY: BACKUP of a RECOVER(YES) CFLEVEL(3) structure succeeds', o[3].ok, o[3]);
  check('RECOVERY: a failed structure is FAILED and its queues are unusable (2373)',
    o[8].reason === 2373 && o[9].value.structures.APP1.status === 'FAILED' && o[9].value.queues.Q1.depth === 0, [o[8], o[9].value.structures.APP1]);
  check('RECOVERY: RECOVER restores the persistent messages from the backup plus the logged activity since, not the nonpersistent ones',
    o[10].ok && o[14].tag === 1 && o[15].tag === 3 && o[16].reason === 2033, o.slice(10, 17));
  check('RECOVERY: an uncommitted put is lost; a message under an uncommitted get is restored', o[17].tag === 5 && o[18].reason === 2033, o.slice(17));
  check('RECOVERY: the recovered structure is ACTIVE again', o[11].value.structures.APP1.status === 'ACTIVE' && o[11].value.queues.Q1.depth === 2, o[11].value);
  await open(mq({ structures: [S('APP1', { cflevel: 5, recover: true })], queues: [Q('Q1', 'APP1')] }));
  o = await C.run([put('QM01', 'Q1', 100, { persistent: true }), { op: 'fail_structure', cfstruct: 'APP1' }, { op: 'recover', cfstruct: 'APP1' },
    { op: 'recover', cfstruct: 'APP1', purge: true }, INSPECT, put('QM01', 'Q1', 10)]);
  check('RECOVERY: RECOVER TYPE(NORMAL) needs a backup', o[2].reason === 'NO_BACKUP', o[2]);
  check('RECOVERY: RECOVER TYPE(PURGE) recovers to an empty structure', o[3].ok && o[4].value.queues.Q1.depth === 0 && o[4].value.structures.APP1.status === 'ACTIVE' && o[5].ok, o.slice(3));
  check('RECOVERY: replies matched their schema', C.schemaErrors.length === 0, C.schemaErrors);
}

// CQS: 188 KB primary = 300 elements; 1536-byte messages cost 3 elements.
const P188 = (name, x) => S(name, Object.assign({ size_kb: 188 }, x || {}));
const fillABC = () => [].concat(rep(30, (i) => put('IMSA', 'A', 1536, { tag: 100 + i })), rep(25, (i) => put('IMSA', 'B', 1536, { tag: 200 + i })),
  rep(15, (i) => put('IMSA', 'C', 1536, { tag: 300 + i })));
const ABC = (s) => [Q('A', s), Q('B', s), Q('C', s)];
async function cqsChecks() {
  await fresh();
  await open(cqs({ structures: [P188('PRIM')], queues: ABC('PRIM') }));
  let o = await C.run(fillABC());
  check('CQS: no alter below the default overflow threshold (69%)', o.slice(0, 69).every((x) => !x.signals), o.slice(0, 69).filter((x) => x.signals));
  check('CQS: reaching the default 70% threshold starts a structure alter', eq(o[69].signals, ['ALTER PRIM']) && o[69].usage[2] === 210, o[69]);
  let v = await ins();
  check('CQS: the alter is pending and the structure is not yet in overflow mode (cqs_alter=async)',
    v.structures.PRIM.alter_pending === true && v.structures.PRIM.overflow_mode === false, v.structures.PRIM);
  o = await C.run([put('IMSA', 'C', 1536), { op: 'alter_outcome', cfstruct: 'PRIM', success: false }, INSPECT]);
  check('CQS: no second alter while one is pending', !o[0].signals, o[0]);
  check('CQS: a failed alter puts the structure into overflow mode and selects the queue using most space until 20 points below (target 50%)',
    eq(sigs(o[1]), ['OVERFLOW_ON PRIM', 'OVERFLOW_QUEUE PRIM A']), o[1]);
  v = o[2].value;
  check('CQS: inspect shows overflow mode, the queue and no pending alter',
    v.structures.PRIM.overflow_mode && eq(v.structures.PRIM.overflow_queues, ['A']) && v.queues.A.overflow && !v.queues.B.overflow && !v.structures.PRIM.alter_pending, v);
  o = await C.run([put('IMSB', 'A', 10), put('IMSB', 'B', 1536)]);
  check('CQS: without an overflow structure, CQSPUT to an approved queue is rejected; other queues still work',
    o[0].reason === 'REJECTED_OVERFLOW' && o[1].ok, o);
  o = await C.run(rep(22, () => get('IMSB', 'A')));
  const exitAt = o.findIndex((x) => x.signals);
  check('CQS: without an overflow structure, overflow mode ends when usage drops 20 points below the threshold (<= 50%)',
    exitAt === 21 && o[21].usage[2] === 150 && eq(sigs(o[21]), ['OVERFLOW_OFF PRIM', 'OVERFLOW_QUEUE_OFF PRIM A']), { exitAt, o21: o[21] });
  o = await one(put('IMSB', 'A', 10));
  check('CQS: after overflow mode ends, puts to the queue are accepted again', o.ok, o);

  // the exit vetoes A: another queue is selected
  await open(cqs({ structures: [P188('PRIM')], queues: ABC('PRIM'), overflow_exit: ['A'] }));
  await C.run(fillABC());
  o = await one({ op: 'alter_outcome', cfstruct: 'PRIM', success: false });
  check('CQS: a queue the exit rejects is not moved; the next candidate is selected', eq(sigs(o), ['OVERFLOW_ON PRIM', 'OVERFLOW_QUEUE PRIM B']), o);
  await open(cqs({ structures: [P188('PRIM')], queues: ABC('PRIM') }));
  o = await C.run(fillABC().concat([{ op: 'set_overflow_exit', vetoes: ['A', 'B'] }, { op: 'alter_outcome', cfstruct: 'PRIM', success: false }]));
  check('CQS: set_overflow_exit installs the exit; with A and B vetoed, C alone does not reach the target and overflow stays',
    eq(sigs(o[71]), ['OVERFLOW_ON PRIM', 'OVERFLOW_QUEUE PRIM C']), o[71]);

  // alter succeeds
  await open(cqs({ structures: [P188('PRIM', { size_kb: 376, initsize_kb: 188 })], queues: ABC('PRIM') }));
  await C.run(fillABC());
  o = await C.run([{ op: 'alter_outcome', cfstruct: 'PRIM', success: true }, INSPECT, { op: 'alter_outcome', cfstruct: 'PRIM', success: false }]);
  v = o[1].value.structures.PRIM;
  check('CQS: a successful alter enlarges the structure to SIZE and avoids overflow mode',
    o[0].ok && !o[0].signals && v.size_kb === 376 && v.elements_total === 603 && !v.overflow_mode && !v.alter_pending, v);
  check('CQS: alter_outcome without a pending alter is NO_ALTER_PENDING', o[2].reason === 'NO_ALTER_PENDING', o[2]);

  // overflow structure
  await open(cqs({ structures: [P188('PRIM', { ovflwstr: 'OVFL', ovflw_size_kb: 188 })], queues: ABC('PRIM') }));
  await C.run(fillABC());
  o = await C.run([{ op: 'alter_outcome', cfstruct: 'PRIM', success: false }, INSPECT, put('IMSA', 'A', 1536, { tag: 999 })]);
  v = o[1].value.structures.PRIM;
  check('CQS: with an overflow structure, the approved queue\'s data moves off the primary', eq(sigs(o[0]), ['OVERFLOW_ON PRIM', 'OVERFLOW_QUEUE PRIM A']) && v.elements_used === 120, v);
  check('CQS: puts to a queue in overflow mode go to the overflow structure', o[2].ok && o[2].usage[2] === 120, o[2]);
  o = await C.run(rep(31, () => get('IMSB', 'A')).concat([get('IMSB', 'A'), { op: 'advance_clock', seconds: 899 }, INSPECT, { op: 'advance_clock', seconds: 1 }, INSPECT]));
  check('CQS: gets drain the queue from the overflow structure in FIFO order', o[0].tag === 100 && o[30].tag === 999 && o[31].reason === 'NO_MSG', [o[0], o[30], o[31]]);
  check('CQS: an empty queue stays in overflow mode until the 15-minute scan', !o[32].signals && o[33].value.queues.A.overflow === true, o.slice(32, 34));
  check('CQS: the scan at 900 s returns the empty queue and ends overflow mode (cqs_scan_anchor=clock)',
    eq(sigs(o[34]), ['OVERFLOW_OFF PRIM', 'OVERFLOW_QUEUE_OFF PRIM A']) && o[35].value.structures.PRIM.overflow_mode === false, o[34]);

  await open(cqs({ structures: [P188('PRIM', { ovflwstr: 'OVFL' })], queues: ABC('PRIM') }));
  await C.run(fillABC());
  o = await C.run([{ op: 'alter_outcome', cfstruct: 'PRIM', success: false }, get('IMSA', 'B'), { op: 'advance_clock', seconds: 900 }]);
  check('CQS: a scan leaves non-empty queues in overflow mode', !o[2].signals, o[2]);
  await open(cqs({ structures: [P188('PRIM', { ovflwstr: 'OVFL' })], queues: ABC('PRIM'), overflow_exit: ['A', 'B', 'C'] }));
  await C.run(fillABC());
  o = await one({ op: 'alter_outcome', cfstruct: 'PRIM', success: false });
  check('CQS: with every candidate vetoed, overflow mode with an overflow structure ends at once (cqs_empty_overflow=ends)',
    eq(sigs(o), ['OVERFLOW_OFF PRIM', 'OVERFLOW_ON PRIM']), o);

  // staging queue
  await open(cqs({ lgmsgsz: 4096, structures: [P188('PRIM', { ovflwstr: 'OVFL' })], queues: ABC('PRIM') }));
  o = await C.run([put('IMSA', 'A', 4096), INSPECT, put('IMSA', 'A', 4097), INSPECT, put('IMSA', 'A', 10000), INSPECT]);
  check('CQS: a message of exactly LGMSGSZ is one part; one byte more puts a second part on the staging queue',
    o[1].value.structures.PRIM.staging_depth === 0 && o[3].value.structures.PRIM.staging_depth === 1, [o[1].value.structures.PRIM, o[3].value.structures.PRIM]);
  check('CQS: a 10 000-byte message is three parts: 8 + 8 + 4 elements, two on the staging queue',
    o[5].value.structures.PRIM.staging_depth === 3 && o[4].usage[2] - o[2].usage[2] === 20 && o[4].usage[0] - o[2].usage[0] === 3, [o[2].usage, o[4].usage]);
  const fill = await C.run(rep(6, () => put('IMSA', 'A', 10000)).concat(rep(18, () => put('IMSA', 'B', 1536))));
  check('CQS: staging parts count towards the overflow threshold (alter at 211 of 300 elements)', eq(fill[23].signals, ['ALTER PRIM']) && !fill[22].signals, fill.slice(22));
  o = await C.run([INSPECT, { op: 'alter_outcome', cfstruct: 'PRIM', success: false }, INSPECT, get('IMSA', 'A'), get('IMSA', 'A'), INSPECT]);
  const before = o[0].value.structures.PRIM, after = o[2].value.structures.PRIM;
  check('CQS: only the first parts move with the queue; staging parts stay on the primary structure',
    after.staging_depth === before.staging_depth && before.staging_depth === 15 && eq(after.overflow_queues, ['A']) && before.elements_used - after.elements_used === 8 * 9,
    { before, after });
  check('CQS: reading a large message also deletes its staging parts', o[5].value.structures.PRIM.staging_depth === before.staging_depth - 1, o[5].value.structures.PRIM);

  // resource structures, definition rules
  await open(cqs({ structures: [P188('RSRC', { resource: true })], queues: [Q('A', 'RSRC'), Q('B', 'RSRC'), Q('C', 'RSRC')] }));
  o = await C.run(fillABC());
  check('CQS: structure overflow is not supported for resource structures (no alter)', o.every((x) => !x.signals || !x.signals.some((s) => s.startsWith('ALTER'))), o[69]);
  o = await C.run([{ op: 'define_structure', structure: P188('R2', { resource: true, ovflwstr: 'R2OV' }) },
    { op: 'define_structure', structure: P188('P2', { ovflwmax: 60 }) }, { op: 'alter_structure', name: 'P2', changes: { ovflwstr: 'P2OV' } },
    { op: 'define_structure', structure: P188('P3', { ovflwmax: 101 }) }]);
  check('CQS: a resource structure cannot have an overflow structure', o[0].reason === 'INVALID', o[0]);
  check('CQS: adding OVFLWSTR later needs a cold start (refused)', o[1].ok && o[2].reason === 'NOT_ALLOWED', o.slice(1, 3));
  check('CQS: OVFLWMAX above 100% is invalid', o[3].reason === 'INVALID', o[3]);
  await open(cqs({ structures: [P188('PRIM', { ovflwmax: 50 })], queues: [Q('A', 'PRIM')] }));
  o = await C.run(rep(50, () => put('IMSA', 'A', 1536)));
  check('CQS: OVFLWMAX=50 starts the alter at 50% of the elements', eq(o[49].signals, ['ALTER PRIM']) && !o[48].signals, o.slice(48));
  await open(cqs({ structures: [P188('PRIM')], queues: [Q('A', 'PRIM')] }));
  o = await C.run(rep(100, () => put('IMSA', 'A', 1)));
  check('CQS: the overflow threshold counts elements, not entries (cqs_usage_metric=elements)', o.every((x) => !x.signals || !x.signals.includes('ALTER PRIM')), o[69]);
  check('CQS: IXC585E also applies to CQS structures (entries reach FULLTHRESHOLD 80%)', eq(o[79].signals, ['IXC585E PRIM']), o[79]);
  o = await C.run([put('IMSA', 'A', 1), { op: 'setxcf_alter', cfstruct: 'PRIM', size_kb: 376 }, { op: 'setxcf_alter', cfstruct: 'PRIM', size_kb: 188 }, INSPECT]);
  check('CQS: a full structure refuses CQSPUT with STRUCTURE_FULL', o[0].reason === 'STRUCTURE_FULL', o[0]);
  check('CQS: an operator SETXCF ALTER above SIZE is refused; within SIZE accepted', o[1].reason === 'OUT_OF_RANGE' && o[2].ok && o[3].value.structures.PRIM.size_kb === 188, o.slice(1));
  check('CQS: replies matched their schema', C.schemaErrors.length === 0, C.schemaErrors);
}


// deterministic random soak: no crash, schema-valid replies, storage invariants
function lcg(seed) { let x = seed >>> 0; return () => { x = (Math.imul(x, 1664525) + 1013904223) >>> 0; return x / 4294967296; }; }
async function soakChecks() {
  for (const profile of ['mq', 'cqs']) {
    await fresh();
    const rnd = lcg(profile === 'mq' ? 12345 : 54321);
    const pick = (a) => a[Math.floor(rnd() * a.length)];
    const qms = profile === 'mq' ? ['QM01', 'QM02', 'QM03'] : ['IMSA', 'IMSB'];
    const cfg = profile === 'mq'
      ? mq({ structures: [S('A3', { size_kb: 300, cflevel: 3, recover: true }), S('A5', { size_kb: 300, cflevel: 5, recover: true, fullthreshold: 60 }), S('A2', { size_kb: 200, cflevel: 2 })],
        queues: [Q('Q1', 'A3', { maxdepth: 40, qdphiev: true, qdploev: true, qdpmaxev: true }), Q('Q2', 'A5', { qdphiev: true, maxdepth: 60 }), Q('Q3', 'A2'), Q('L1', null, { qmgr: 'QM01', maxdepth: 20, qdphiev: true, qdpmaxev: true })] })
      : cqs({ lgmsgsz: 2048, structures: [P188('P1', { ovflwstr: 'P1OV', ovflw_size_kb: 120 }), P188('P2', { ovflwmax: 50 })], queues: [Q('A', 'P1'), Q('B', 'P1'), Q('C', 'P1'), Q('D', 'P2'), Q('E', 'P2')] });
    await open(cfg);
    const queues = cfg.queues.map((q) => q.name);
    const structs = cfg.structures.map((x) => x.name);
    let crashes = 0, broken = [];
    for (let i = 0; i < 3000; i++) {
      const r = rnd();
      let op;
      if (r < 0.45) op = put(pick(qms), pick(queues), pick([0, 1, 500, 1536, 5000, 40000, 70000]), { persistent: rnd() < 0.3, syncpoint: profile === 'mq' && rnd() < 0.2, tag: i });
      else if (r < 0.75) op = get(pick(qms), pick(queues), { syncpoint: profile === 'mq' && rnd() < 0.2 });
      else if (profile === 'mq') {
        op = pick([{ op: 'commit', qmgr: pick(qms) }, { op: 'backout', qmgr: pick(qms) }, { op: 'stop_qmgr', qmgr: pick(qms) }, { op: 'start_qmgr', qmgr: pick(qms) },
          { op: 'start_qmgr', qmgr: pick(qms) }, { op: 'set_perfmev', qmgr: pick(qms), enabled: rnd() < 0.7 }, { op: 'backup', qmgr: pick(qms), cfstruct: pick(structs) },
          { op: 'fail_structure', cfstruct: pick(structs) }, { op: 'recover', cfstruct: pick(structs), purge: rnd() < 0.3 }, { op: 'recover', cfstruct: pick(structs) },
          { op: 'setxcf_alter', cfstruct: pick(structs), size_kb: pick([100, 200, 300]) }, { op: 'reset_qstats', qmgr: 'QM01', queue: pick(queues) },
          { op: 'alter_queue', name: pick(queues), changes: { qdphiev: true, qdploev: true } }, INSPECT, { op: 'advance_clock', seconds: 60 }]);
      } else {
        op = pick([{ op: 'alter_outcome', cfstruct: pick(structs), success: rnd() < 0.4 }, { op: 'alter_outcome', cfstruct: pick(structs), success: false },
          { op: 'advance_clock', seconds: pick([60, 300, 900]) }, { op: 'set_overflow_exit', vetoes: rnd() < 0.5 ? null : [pick(queues)] },
          { op: 'setxcf_alter', cfstruct: pick(structs), size_kb: pick([150, 188]) }, INSPECT]);
      }
      const rep1 = await C.apply(op);
      if (rep1.type === 'error') { if (rep1.code === 12) crashes++; continue; }
      if (op.op === 'inspect') {
        for (const [n, x] of Object.entries(rep1.outcome.value.structures)) {
          if (x.entries_used > x.entries_total || x.elements_used > x.elements_total || x.entries_used < 0 || x.elements_used < 0) broken.push([i, n, x]);
        }
        for (const [n, x] of Object.entries(rep1.outcome.value.queues)) if (x.depth < 0) broken.push([i, n, x]);
      }
    }
    check(`soak (${profile}): 3000 random operations, no internal error`, crashes === 0, crashes);
    check(`soak (${profile}): storage never exceeds the structure and depths stay >= 0`, broken.length === 0, broken.slice(0, 3));
    check(`soak (${profile}): every reply matched its schema`, C.schemaErrors.length === 0, C.schemaErrors.slice(0, 3));
  }
}

(async () => {
  try {
    await protocolChecks();
    await queueChecks();
    await cflevelChecks();
    await offloadChecks();
    await capacityChecks();
    await topologyChecks();
    await sizingChecks();
    await qdepthChecks();
    await recoveryChecks();
    await cqsChecks();
    await soakChecks();
    if (C) { const c = await C.close(); check('protocol: final close exits 0', c.exit.code === 0, c.exit); }
  } catch (e) {
    failed++;
    console.log(`FAIL selftest aborted: ${e.stack}`);
    if (C) { console.log(C.stderr.slice(-2000)); C.kill(); }
  }
  console.log(`\nselftest: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})();
