// Shared helpers for selftest.js and faultcheck.js: a wire client that spawns impl.js and a
// small JSON-Schema (draft 2020-12 subset) validator for the schemas in docs/schemas/.
'use strict';

const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const readline = require('readline');

const IMPL = path.join(__dirname, 'impl.js');
const SCHEMA_DIR = path.join(__dirname, '..', '..', 'docs', 'schemas');

// ------------------------------------------------------------------ schema validation
const schemas = {};
function loadSchema(name) {
  if (!schemas[name]) schemas[name] = JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, `${name}.json`), 'utf8'));
  return schemas[name];
}
function typeOf(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}
function typeMatches(t, v) {
  const a = typeOf(v);
  if (t === 'number') return a === 'number' || a === 'integer';
  return t === a;
}
function validate(schema, v, root, where, errs) {
  root = root || schema; where = where || ''; errs = errs || [];
  if (schema === true || schema === undefined) return errs;
  if (schema === false) { errs.push(`${where}: not allowed`); return errs; }
  if (schema.$ref) {
    const m = /^#\/\$defs\/(.+)$/.exec(schema.$ref);
    validate(root.$defs[m[1]], v, root, where, errs);
  }
  if (schema.type !== undefined) {
    const ts = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!ts.some((t) => typeMatches(t, v))) errs.push(`${where}: type ${typeOf(v)} not in ${ts}`);
  }
  if (typeof v === 'number' && !Number.isFinite(v)) errs.push(`${where}: not finite`);
  if (schema.enum && !schema.enum.some((e) => e === v)) errs.push(`${where}: ${JSON.stringify(v)} not in enum`);
  if ('const' in schema && schema.const !== v) errs.push(`${where}: not const ${schema.const}`);
  if (typeof v === 'number' && schema.minimum !== undefined && v < schema.minimum) errs.push(`${where}: below minimum`);
  if (typeof v === 'string') {
    if (schema.minLength !== undefined && v.length < schema.minLength) errs.push(`${where}: too short`);
    if (schema.pattern && !new RegExp(schema.pattern).test(v)) errs.push(`${where}: pattern`);
  }
  if (Array.isArray(v)) {
    if (schema.minItems !== undefined && v.length < schema.minItems) errs.push(`${where}: minItems`);
    if (schema.maxItems !== undefined && v.length > schema.maxItems) errs.push(`${where}: maxItems`);
    if (schema.uniqueItems && new Set(v.map((x) => JSON.stringify(x))).size !== v.length) errs.push(`${where}: not unique`);
    if (schema.items) v.forEach((x, i) => validate(schema.items, x, root, `${where}/${i}`, errs));
  }
  if (typeOf(v) === 'object') {
    for (const r of schema.required || []) if (!(r in v)) errs.push(`${where}: missing ${r}`);
    const props = schema.properties || {};
    for (const [k, x] of Object.entries(v)) {
      if (k in props) validate(props[k], x, root, `${where}/${k}`, errs);
      else if (schema.additionalProperties === false) errs.push(`${where}: unexpected field ${k}`);
      else if (typeof schema.additionalProperties === 'object') validate(schema.additionalProperties, x, root, `${where}/${k}`, errs);
    }
  }
  if (schema.anyOf && !schema.anyOf.some((s) => validate(s, v, root, where, []).length === 0)) errs.push(`${where}: no anyOf branch`);
  if (schema.oneOf && schema.oneOf.filter((s) => validate(s, v, root, where, []).length === 0).length !== 1) errs.push(`${where}: not exactly one oneOf branch`);
  return errs;
}
function validateMessage(msg) {
  const t = msg && msg.type;
  const known = ['init_ok', 'open_ok', 'apply_ok', 'batch_ok', 'close_ok', 'error'];
  if (!known.includes(t)) return [`unknown reply type ${t}`];
  return validate(loadSchema(t), msg);
}

// ------------------------------------------------------------------ client
class Client {
  constructor(args, opts) {
    opts = opts || {};
    this.proc = spawn(process.execPath, [IMPL].concat(args || []), { stdio: ['pipe', 'pipe', 'pipe'] });
    this.lines = [];
    this.waiters = [];
    this.stderr = '';
    this.exited = new Promise((res) => this.proc.on('exit', (code, sigl) => res({ code, signal: sigl })));
    this.proc.stderr.on('data', (d) => { this.stderr += d; });
    const rl = readline.createInterface({ input: this.proc.stdout, crlfDelay: Infinity });
    rl.on('line', (l) => {
      if (this.waiters.length) this.waiters.shift()(l); else this.lines.push(l);
    });
    this.nextId = 1;
    this.schemaErrors = [];
    this.strictSchema = opts.strictSchema !== false;
  }
  readLine(timeoutMs) {
    if (this.lines.length) return Promise.resolve(this.lines.shift());
    return new Promise((res, rej) => {
      const t = setTimeout(() => rej(new Error('timeout waiting for a reply')), timeoutMs || 20000);
      this.waiters.push((l) => { clearTimeout(t); res(l); });
    });
  }
  async raw(text) {
    this.proc.stdin.write(text + '\n');
    const line = await this.readLine();
    const msg = JSON.parse(line);
    const errs = validateMessage(msg);
    if (errs.length) this.schemaErrors.push({ sent: text.slice(0, 200), errs });
    return msg;
  }
  async request(obj) {
    if (obj.msg_id === undefined) obj.msg_id = this.nextId++;
    const reply = await this.raw(JSON.stringify(obj));
    if (reply.in_reply_to !== obj.msg_id) this.schemaErrors.push({ sent: obj.type, errs: [`in_reply_to ${reply.in_reply_to} != ${obj.msg_id}`] });
    return reply;
  }
  init(extra) { return this.request(Object.assign({ type: 'init', protocol_version: '1.2', suite: 'fifth-reading selftest', max_line_bytes: 1048576 }, extra || {})); }
  open(config) { return this.request({ type: 'open', config }); }
  async apply(op) {
    const r = await this.request({ type: 'apply', op });
    if (r.type === 'apply_ok' && r.outcome.kind !== op.op) this.schemaErrors.push({ sent: op.op, errs: ['outcome kind mismatch'] });
    return r;
  }
  async batch(ops) {
    const r = await this.request({ type: 'batch', ops });
    if (r.type === 'batch_ok') r.outcomes.forEach((o, i) => { if (o.kind !== ops[i].op) this.schemaErrors.push({ sent: 'batch', errs: [`outcome ${i} kind mismatch`] }); });
    return r;
  }
  // apply many ops, splitting into batches; returns all outcomes (throws on error replies)
  async run(ops) {
    const outs = [];
    let i = 0;
    while (i < ops.length) {
      const chunk = ops.slice(i, i + 1000);
      const r = await this.batch(chunk);
      if (r.type !== 'batch_ok') throw new Error(`batch error: ${JSON.stringify(r)}`);
      outs.push(...r.outcomes);
      if (r.error) throw Object.assign(new Error(`batch stopped at op ${i + r.outcomes.length}: ${r.error.text}`), { reply: r, outs });
      i += r.outcomes.length;
    }
    return outs;
  }
  async close() {
    const r = await this.request({ type: 'close' });
    const ex = await this.exited;
    return { reply: r, exit: ex };
  }
  kill() { try { this.proc.kill('SIGKILL'); } catch (e) { /* gone */ } }
}

module.exports = { Client, validate, validateMessage, loadSchema, IMPL };
