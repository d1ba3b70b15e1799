#!/usr/bin/env node
// faultcheck.js: for every fault in faults.json, run its scenario against the faithful build
// and against `impl.js --fault ID`, and check that the two answer differently. Also checks
// that every fault id is implemented, that every quoted sentence occurs in the document it
// cites, and that both builds' replies match the protocol's JSON Schemas.
//
//   node faultcheck.js [--selftest] [ID ...]
//     --selftest  also run selftest.js against each faulty build and report which faults it catches
'use strict';

const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { Client } = require('./wire');
const { FAULTS } = require('./impl');

const args = process.argv.slice(2);
const withSelftest = args.includes('--selftest');
const only = args.filter((a) => !a.startsWith('--'));

const faults = JSON.parse(fs.readFileSync(path.join(__dirname, 'faults.json'), 'utf8'))
  .filter((f) => only.length === 0 || only.includes(f.id));

// ---- the documents a sentence may be quoted from
const norm = (s) => s.replace(/\*/g, '').replace(/\s+/g, ' ').trim();
const SEEDS = '/work/shared/seeds';
const docs = { seeds: {}, facts: '', proto: '' };
try {
  for (const f of fs.readdirSync(SEEDS)) docs.seeds[f] = norm(fs.readFileSync(path.join(SEEDS, f), 'utf8'));
  docs.facts = norm(fs.readFileSync('/work/shared/notes/ibm-facts.md', 'utf8'));
} catch (e) { /* documents not present: the quote check is skipped */ }
try { docs.proto = norm(fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'PROTOCOL.md'), 'utf8')); } catch (e) { /* skipped */ }
const haveDocs = Object.keys(docs.seeds).length > 0;
function quoteFound(f) {
  const q = norm(f.sentence);
  if (f.source.includes('ibm-facts.md')) return docs.facts.includes(q);
  if (f.source.includes('PROTOCOL.md')) return docs.proto.includes(q);
  return Object.values(docs.seeds).some((t) => t.includes(q));
}

// ---- running a scenario
function summarize(r) {
  if (r.type === 'error') return { error: r.code };
  if (r.type === 'apply_ok') return r.outcome;
  return { type: r.type };
}
async function runScenario(client, sc) {
  const res = [];
  const o = await client.open(sc.config);
  res.push(summarize(o));
  if (o.type !== 'open_ok') return res;
  for (const op of sc.ops) res.push(summarize(await client.apply(op)));
  return res;
}
function firstDiff(a, b) {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) return i;
  return -1;
}
const short = (x) => { const s = JSON.stringify(x); return s && s.length > 160 ? s.slice(0, 157) + '...' : s; };

(async () => {
  let ok = 0, bad = 0;
  const report = (pass, text) => { if (pass) ok++; else bad++; console.log(`${pass ? 'PASS' : 'FAIL'} ${text}`); };

  if (only.length === 0) {
    const ids = new Set(faults.map((f) => f.id));
    const missing = FAULTS.filter((id) => !ids.has(id));
    const unknown = faults.filter((f) => !FAULTS.includes(f.id)).map((f) => f.id);
    report(missing.length === 0 && unknown.length === 0, `catalogue: ${FAULTS.length} faults in impl.js, ${faults.length} in faults.json`
      + (missing.length ? `; no scenario for ${missing}` : '') + (unknown.length ? `; not implemented: ${unknown}` : ''));
    const fams = {};
    for (const f of faults) fams[f.family] = (fams[f.family] || 0) + 1;
    const all = ['CQS', 'OFFLOAD', 'CFLEVEL', 'CAPACITY', 'TOPOLOGY', 'SIZING', 'QDEPTH', 'RECOVERY', 'QUEUE'];
    report(all.every((x) => fams[x] > 0), `families: ${all.map((x) => `${x} ${fams[x] || 0}`).join(', ')}`);
  }

  const faithful = new Client([]);
  await faithful.init();
  const caught = {};
  for (const f of faults) {
    if (haveDocs && !quoteFound(f)) report(false, `${f.id}: sentence not found in "${f.source}": ${f.sentence.slice(0, 80)}`);
    const faulty = new Client(['--fault', f.id]);
    await faulty.init();
    const a = await runScenario(faithful, f.scenario);
    const b = await runScenario(faulty, f.scenario);
    await faulty.close();
    const crash = a.concat(b).some((x) => x && x.error === 12);
    const schemaErrs = faithful.schemaErrors.length + faulty.schemaErrors.length;
    const i = firstDiff(a, b);
    const where = i === 0 ? 'open' : `op ${i - 1} (${f.scenario.ops[i - 1] ? f.scenario.ops[i - 1].op : '-'})`;
    report(i >= 0 && !crash && schemaErrs === 0,
      `${f.id} [${f.family}]: ${i < 0 ? 'no difference' : `differs at ${where}: faithful ${short(a[i])} / faulty ${short(b[i])}`}`
      + (crash ? ' (crash!)' : '') + (schemaErrs ? ` (schema errors: ${JSON.stringify(faithful.schemaErrors.concat(faulty.schemaErrors)).slice(0, 300)})` : ''));
    faithful.schemaErrors = [];
    if (withSelftest) {
      let out = '';
      try { out = execFileSync(process.execPath, [path.join(__dirname, 'selftest.js'), '--fault', f.id, '--quiet'], { encoding: 'utf8' }); }
      catch (e) { out = e.stdout || ''; }
      const m = /selftest: (\d+) passed, (\d+) failed/.exec(out);
      caught[f.id] = m ? Number(m[2]) : -1;
    }
  }
  await faithful.close();
  if (withSelftest) {
    const missed = Object.entries(caught).filter(([, n]) => n === 0).map(([id]) => id);
    console.log(`\nselftest catches ${Object.keys(caught).length - missed.length} of ${Object.keys(caught).length} faults`
      + (missed.length ? `; not caught: ${missed.join(', ')}` : ''));
  }
  console.log(`\nfaultcheck: ${ok} passed, ${bad} failed (${faults.length} faults)`);
  process.exit(bad ? 1 : 0);
})();
