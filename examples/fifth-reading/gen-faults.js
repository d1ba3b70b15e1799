#!/usr/bin/env node
// gen-faults.js: writes faults.json, the fault kit's catalogue. Each entry names the sentence a
// faulty build breaks and a short scenario (config + ops in the protocol's record forms) on
// which the faithful and the faulty builds answer differently. faultcheck.js verifies that.
'use strict';

const fs = require('fs');
const path = require('path');

const S = (name, x) => Object.assign({ name }, x || {});
const Q = (name, cfstruct, x) => Object.assign({ name, cfstruct }, x || {});
const rep = (n, f) => Array.from({ length: n }, (_, i) => f(i));
const put = (qmgr, queue, length, x) => Object.assign({ op: 'put', qmgr, queue, length }, x || {});
const get = (qmgr, queue, x) => Object.assign({ op: 'get', qmgr, queue }, x || {});
const INSPECT = { op: 'inspect' };

const T = {
  s000: 'CQS structure overflow function (IMS)',
  s001: 'Planning your coupling facility and offload storage environment (IBM MQ for z/OS)',
  s002: 'Specifying offload options for shared messages (IBM MQ for z/OS)',
  s003: 'Where are shared queue messages held? (IBM MQ for z/OS)',
  s004: 'Shared queues and queue depth events (IBM MQ for z/OS)',
  proto: 'cfconform wire protocol (docs/PROTOCOL.md)',
};
const facts = (title, sec) => `${title}, as quoted in ibm-facts.md ${sec}`;

// ---- CQS building blocks: a 188 KB primary = 300 elements; 1536-byte messages are 3 elements
const P188 = (name, x) => S(name, Object.assign({ size_kb: 188 }, x || {}));
const cqs = (x) => Object.assign({ profile: 'cqs', qsg: 'IMS1', qmgrs: ['IMSA', 'IMSB'] }, x);
const ABC = (s) => [Q('A', s), Q('B', s), Q('C', s)];
const fillABC = () => [].concat(rep(30, (i) => put('IMSA', 'A', 1536, { tag: 100 + i })),
  rep(25, (i) => put('IMSA', 'B', 1536, { tag: 200 + i })), rep(15, (i) => put('IMSA', 'C', 1536, { tag: 300 + i })));
const altFail = { op: 'alter_outcome', cfstruct: 'PRIM', success: false };
const cqsBasic = (x) => cqs(Object.assign({ structures: [P188('PRIM')], queues: ABC('PRIM') }, x || {}));
const cqsOvf = (x) => cqs(Object.assign({ structures: [P188('PRIM', { ovflwstr: 'OVFL' })], queues: ABC('PRIM') }, x || {}));

// ---- MQ building blocks: a 188 KB structure = 100 entries and 300 elements
const mq = (x) => Object.assign({ profile: 'mq', qsg: 'QSG1', qmgrs: ['QM01', 'QM02', 'QM03'] }, x);
const S188 = (name, x) => S(name, Object.assign({ size_kb: 188, cflevel: 5, recover: true }, x || {}));
const mqOff = (x) => mq({ structures: [S188('APP1', x || {})], queues: [Q('Q1', 'APP1'), Q('Q2', 'APP1')] });
const fillQ2 = (n) => rep(n, () => put('QM01', 'Q2', 1));
const dq = (x) => Q('Q', 'APP1', Object.assign({ maxdepth: 10, qdepthhi: 80, qdepthlo: 20, qdphiev: true }, x || {}));
const mqQd = (x, qx) => mq(Object.assign({ structures: [S('APP1')], queues: [dq(qx)] }, x || {}));

const F = [];
function fault(id, family, source, sentence, description, config, ops) {
  F.push({ id, family, sentence, source, description, scenario: { config, ops } });
}

// ================================================================ CQS
fault('cqs-default-80', 'CQS', T.s000,
  'The default overflow threshold is 70%, but you can change the default by defining the OVFLWMAX parameter in the CQSSGxxx member of the PROCLIB data set.',
  'Wrong default: OVFLWMAX defaults to 80% instead of 70%, so the alter starts late.',
  cqs({ structures: [P188('PRIM')], queues: [Q('A', 'PRIM')] }), rep(70, () => put('IMSA', 'A', 1536)));
fault('cqs-threshold-strict', 'CQS', T.s000,
  'When the usage of a structure reaches the overflow threshold, CQS attempts to make the structure larger by initiating a structure alter.',
  'Off-by-one: the alter starts only when usage exceeds the threshold, not when it reaches it (210 of 300 elements).',
  cqs({ structures: [P188('PRIM')], queues: [Q('A', 'PRIM')] }), rep(70, () => put('IMSA', 'A', 1536)));
fault('cqs-metric-entries', 'CQS', facts('Using structure alter for CQS (IMS 15.3)', '§1.1'),
  "OVFLWMAX specifies the percentage of the structure's elements that must be in use to trigger CQS overflow processing, default 70%.",
  'Wrong unit: compares list entries in use, not data elements, with OVFLWMAX.',
  cqs({ structures: [P188('PRIM')], queues: [Q('A', 'PRIM')] }), rep(70, () => put('IMSA', 'A', 1)));
fault('cqs-no-alter', 'CQS', T.s000,
  "If CQS does not succeed in altering a structure's size, the structure goes into overflow mode.",
  'Forgotten step: goes straight into overflow mode at the threshold without trying a structure alter.',
  cqsBasic(), fillABC().concat([INSPECT]));
fault('cqs-overflow-on-alter-success', 'CQS', T.s000,
  'If the alter fails, CQS either allocates an overflow structure and moves data objects associated with selected queues to the overflow structure (if you define an overflow structure) or rejects data objects from being put on the selected queues.',
  'Forgotten condition: enters overflow mode even when the alter succeeded.',
  cqs({ structures: [P188('PRIM', { size_kb: 376, initsize_kb: 188 })], queues: ABC('PRIM') }),
  fillABC().concat([{ op: 'alter_outcome', cfstruct: 'PRIM', success: true }, INSPECT]));
fault('cqs-select-least', 'CQS', T.s000,
  'In overflow mode, CQS selects queues using the most space on the structure as candidates for overflow processing.',
  'Wrong order: candidates are taken in ascending order of space used.',
  cqsBasic(), fillABC().concat([altFail]));
fault('cqs-target-at-threshold', 'CQS', T.s000,
  'CQS stops selecting queues when enough queues have been selected to cause the primary structure usage to fall 20% below the overflow threshold.',
  'Forgotten 20%: selection stops as soon as usage is at the threshold, so nothing is selected at exactly 70%.',
  cqsBasic(), fillABC().concat([altFail, INSPECT]));
fault('cqs-exit-ignored', 'CQS', T.s000,
  'CQS drives the Queue Overflow User-Supplied exit routine with the candidate queue names, which the exit then approves or rejects for overflow processing.',
  'Missed call: the Queue Overflow exit is never driven, so a vetoed queue is moved anyway.',
  cqsBasic({ overflow_exit: ['A'] }), fillABC().concat([altFail]));
fault('cqs-veto-stops-selection', 'CQS', facts('CQS Queue Overflow user-supplied exit routine (IMS 15.3)', '§1.4'),
  'A vetoed name is removed from the candidate list and another queue is selected.',
  'Forgotten replacement: a veto (RC 4) ends the selection instead of picking another candidate.',
  cqsBasic({ overflow_exit: ['A'] }), fillABC().concat([altFail]));
fault('cqs-no-ovflwstr-accepts', 'CQS', T.s000,
  'If an overflow structure is not defined, CQS rejects CQSPUT requests for the approved queues.',
  'Missed check: CQSPUT to an approved queue is accepted when there is no overflow structure.',
  cqsBasic(), fillABC().concat([altFail, put('IMSB', 'A', 10)]));
fault('cqs-reject-all-queues', 'CQS', T.s000,
  'Queues that get approved are placed into overflow mode.',
  'Too broad: without an overflow structure every queue of the structure is rejected, not only the approved ones.',
  cqsBasic(), fillABC().concat([altFail, put('IMSB', 'B', 10)]));
const stagingOps = [put('IMSA', 'A', 4096), put('IMSA', 'A', 4097), put('IMSA', 'A', 10000)]
  .concat(rep(6, () => put('IMSA', 'A', 10000)), rep(18, () => put('IMSA', 'B', 1536)), [altFail, INSPECT]);
fault('cqs-staging-moved', 'CQS', T.s000,
  'Any parts of a message that are on the staging queue remain on the primary structure.',
  'Too much moved: the staging parts of a selected queue\'s large messages are moved to the overflow structure too.',
  cqsOvf(), stagingOps);
fault('cqs-no-staging', 'CQS', T.s000,
  'The second and subsequent parts are placed on a secondary queue called the staging queue.',
  'Missed split: large messages are stored whole on the ready queue; the staging queue stays empty.',
  cqsBasic(), [put('IMSA', 'A', 10000), INSPECT]);
fault('cqs-lgmsgsz-inclusive', 'CQS', T.s000,
  'Large messages (messages that exceed the size of a queue manager long message record) are put on the shared queue structure in multiple parts.',
  'Off-by-one: a message of exactly LGMSGSZ bytes is split.',
  cqsBasic({ lgmsgsz: 4096 }), [put('IMSA', 'A', 4096), INSPECT]);
fault('cqs-scan-5min', 'CQS', T.s000,
  '(The queues are scanned every 15 minutes.)',
  'Wrong constant: the overflow scan runs every 5 minutes (300 s).',
  cqsOvf(), fillABC().concat([altFail], rep(30, () => get('IMSB', 'A')), [{ op: 'advance_clock', seconds: 300 }, INSPECT]));
fault('cqs-immediate-exit', 'CQS', T.s000,
  'Because the scan is periodic, empty queues might remain in overflow mode temporarily.',
  'No scan: a queue leaves overflow mode at the get that empties it.',
  cqsOvf(), fillABC().concat([altFail], rep(30, () => get('IMSB', 'A')), [INSPECT]));
fault('cqs-scan-removes-nonempty', 'CQS', T.s000,
  'If an overflow structure is allocated, a queue remains in overflow mode until CQS detects that there are no more entries in the queue.',
  'Forgotten condition: the scan returns every overflow queue to normal processing, empty or not.',
  cqsOvf(), fillABC().concat([altFail, { op: 'advance_clock', seconds: 900 }, INSPECT]));
fault('cqs-exit-at-threshold', 'CQS', T.s000,
  'If no overflow structure is allocated, CQS exits overflow mode when the primary structure usage drops 20% below the overflow threshold.',
  'Forgotten 20%: overflow mode ends as soon as usage is below the threshold itself.',
  cqsBasic(), fillABC().concat([altFail, get('IMSB', 'A'), INSPECT]));
fault('cqs-resource-overflow', 'CQS', T.s000,
  'Important: Structure overflow is not supported for resource structures.',
  'Missed toggle: resource structures get the overflow alter too.',
  cqs({ structures: [P188('RSRC', { resource: true })], queues: [Q('A', 'RSRC')] }), rep(70, () => put('IMSA', 'A', 1536)));
fault('cqs-ovflwstr-added-later', 'CQS', facts('CQSSGxxx member of the IMS PROCLIB data set (IMS 15.4)', '§1.6'),
  'Adding one later requires a cold start of the structure and of all CQSs',
  'Missed rule: an overflow structure can be added to a running structure definition.',
  cqs({ structures: [P188('PRIM')], queues: [Q('A', 'PRIM')] }), [{ op: 'alter_structure', name: 'PRIM', changes: { ovflwstr: 'OVFL' } }, INSPECT]);

// ================================================================ OFFLOAD
fault('offload-default-db2', 'OFFLOAD', T.s002, 'OFFLOAD(SMDS) is the default value.',
  'Wrong default: a CFLEVEL(5) structure without OFFLOAD offloads to Db2.',
  mqOff(), [put('QM01', 'Q1', 70000)]);
fault('offload-th-inclusive', 'OFFLOAD', T.s002,
  'If the coupling facility structure is more than 90% full offload data for messages exceeding 0 KB (all messages)',
  'Off-by-one: "more than 90% full" read as "at least 90% full".',
  mqOff(), fillQ2(90).concat([put('QM01', 'Q1', 1)]));
fault('offload-sz-inclusive', 'OFFLOAD', T.s002,
  'If the coupling facility structure is more than 80% full offload data for messages exceeding 4 KB',
  'Off-by-one: a message of exactly 4 KB is treated as exceeding 4 KB.',
  mqOff(), fillQ2(81).concat([put('QM01', 'Q1', 4096)]));
fault('offload-kb-decimal', 'OFFLOAD', T.s002,
  'If the coupling facility structure is more than 70% full offload data for messages exceeding 32 KB',
  'Unit error: 32K taken as 32 000 bytes instead of 32 768.',
  mqOff(), fillQ2(71).concat([put('QM01', 'Q1', 32500)]));
fault('offload-ignore-threshold', 'OFFLOAD', T.s002,
  'Message data is offloaded to SMDS or Db2 based on the size of the message data, and the current usage of the coupling facility structure.',
  'Forgotten condition (the APAR PI21909 defect): the size limit alone decides, the usage threshold is ignored.',
  mqOff(), [put('QM01', 'Q1', 40000)]);
fault('offload-64k-disables-all', 'OFFLOAD', T.s002,
  'In this case messages will only be offloaded if another offload rule is in effect, or if the message is greater than 63.75 KB and so, too large to store in the structure.',
  'Too broad: one rule at 64K switches all three rules off.',
  mqOff({ offld1sz: 65536 }), fillQ2(91).concat([put('QM01', 'Q1', 100)]));
fault('offload-forced-64k', 'OFFLOAD', T.s003, 'Message data exceeding 63 KB is always offloaded to SMDS or Db2.',
  'Wrong boundary: forced offload only above 64 KB (65 536 bytes).',
  mqOff({ offld1sz: 65536, offld2sz: 65536, offld3sz: 65536 }), [put('QM01', 'Q1', 65000)]);
fault('offload-cost-full', 'OFFLOAD', T.s002, 'Each message which is offloaded still requires 0.75 KB of storage in the coupling facility.',
  'Wrong accounting: an offloaded message is charged its full data size in the structure.',
  mqOff({ offld1th: 0 }), [put('QM01', 'Q1', 1), put('QM01', 'Q1', 40000)]);
fault('offload-below-cflevel5', 'OFFLOAD', T.s002, 'The OFFLOAD parameter is only valid from CFLEVEL(5).',
  'Missed check: DEFINE CFSTRUCT CFLEVEL(4) OFFLOAD(SMDS) is accepted.',
  mq({ structures: [] }), [{ op: 'define_structure', structure: S('X4', { cflevel: 4, offload: 'SMDS' }) }]);
fault('offload-alter-resets', 'OFFLOAD', facts('ALTER CFSTRUCT (IBM MQ 9.2)', '§2.1'),
  'ALTER CFSTRUCT has the same offload keywords and no defaults; keywords not specified are left unchanged.',
  'Wrong default: ALTER CFSTRUCT resets the offload keywords it was not given to their DEFINE defaults.',
  mqOff({ offld1th: 0 }), [put('QM01', 'Q1', 1), { op: 'alter_structure', name: 'APP1', changes: { offld2th: 50 } }, put('QM01', 'Q1', 40000)]);

// ================================================================ CFLEVEL
const mqL = (level, x) => mq({ structures: [S('APP1', Object.assign({ cflevel: level, recover: level >= 3 }, x || {}))], queues: [Q('Q1', 'APP1')] });
fault('cflevel-persistent-needs-4', 'CFLEVEL', T.s003, '3 - can be used for persistent and nonpersistent messages less than 63 KB',
  'Off-by-one: persistent messages need CFLEVEL(4).',
  mqL(3), [put('QM01', 'Q1', 100, { persistent: true })]);
fault('cflevel-large-at-3', 'CFLEVEL', facts('MQRC_WRONG_CF_LEVEL 2366 (IBM MQ 9.1)', '§3.2'),
  'For example an MQPUT or MQPUT1 call was issued with a message that was bigger than 63 KB in length, and the shared queue was using an IBM MQ CFSTRUCT with a CFLEVEL of less than 4.',
  'Off-by-one: messages over 63 KB are refused only below CFLEVEL(3).',
  mqL(3), [put('QM01', 'Q1', 70000)]);
fault('cflevel-63k-decimal', 'CFLEVEL', T.s003, '1, 2 - can be used for nonpersistent messages less than 63 KB',
  'Unit error: 63 KB taken as 63 000 bytes.',
  mqL(2), [put('QM01', 'Q1', 64000)]);
fault('cflevel-recover-no-persistent', 'CFLEVEL', facts('MQRC_PERSISTENT_NOT_ALLOWED 2048', '§3.1'),
  'On z/OS, you cannot put persistent messages to a shared queue if the CFSTRUCT that the queue uses is defined with RECOVER(NO).',
  'Missed check: persistent puts to a RECOVER(NO) structure are accepted.',
  mqL(3, { recover: false }), [put('QM01', 'Q1', 100, { persistent: true })]);
fault('cflevel-decrease-unguarded', 'CFLEVEL', facts('DEFINE CFSTRUCT (IBM MQ V6)', '§2.6'),
  'Decrease from 3 or from 4 only if every queue referencing the structure is empty (no messages and no uncommitted activity) and closed.',
  'Missed guard: CFLEVEL can be lowered from 4 while a queue holds messages.',
  mqL(4), [put('QM01', 'Q1', 100), { op: 'alter_structure', name: 'APP1', changes: { cflevel: 3 } }, INSPECT]);

// ================================================================ CAPACITY
fault('capacity-qfull-offbyone', 'CAPACITY', facts('MQRC_Q_FULL 2053', '§3.5'),
  'already contains the maximum number of messages possible',
  'Off-by-one: the queue accepts MAXDEPTH + 1 messages.',
  mq({ structures: [S('APP1')], queues: [Q('Q1', 'APP1', { maxdepth: 2 })] }), rep(3, () => put('QM01', 'Q1', 10)));
fault('capacity-full-wrong-rc', 'CAPACITY', T.s001,
  'If no action is taken and a queue structure fills up, an MQRC_STORAGE_MEDIUM_FULL return code is returned to the application.',
  'Wrong reason code: a full structure gives 2053 (MQRC_Q_FULL) instead of 2192.',
  mqOff({ cflevel: 3 }), rep(101, () => put('QM01', 'Q1', 1)));
fault('capacity-entries-ignored', 'CAPACITY', facts('MQRC_STORAGE_MEDIUM_FULL 2192', '§3.3'),
  'A structure is full if either all ENTRYs or all ELEMENTs are in use.',
  'Forgotten condition: only elements are checked, so puts continue after the last entry is used.',
  mqOff({ cflevel: 3 }), rep(101, () => put('QM01', 'Q1', 1)));
fault('capacity-maxmsgl-inclusive', 'CAPACITY', facts('MQRC_MSG_TOO_BIG_FOR_Q 2030', '§3.2'),
  'applies when length > min(queue MaxMsgLength, queue-manager MaxMsgLength)',
  'Off-by-one: a message of exactly MAXMSGL bytes is refused.',
  mq({ structures: [S('APP1')], queues: [Q('Q1', 'APP1', { maxmsgl: 1000 })] }), [put('QM01', 'Q1', 1000)]);
fault('capacity-failed-rc', 'CAPACITY', facts('MQRC_CF_STRUC_FAILED 2373', '§3.4'),
  'MQRC_CF_STRUC_FAILED: the structure has failed.',
  'Wrong reason code: a put to a failed structure gets 2192 instead of 2373.',
  mqL(3), [{ op: 'fail_structure', cfstruct: 'APP1' }, put('QM01', 'Q1', 10)]);

// ================================================================ TOPOLOGY
fault('topo-512-offbyone', 'TOPOLOGY', T.s001, 'Each structure can hold up to 512 shared queues.',
  'Off-by-one: the 512th shared queue on a structure is refused.',
  mq({ structures: [S('APP1')], queues: rep(511, (i) => Q(`Q${i}`, 'APP1')) }), [{ op: 'define_queue', queue: Q('Q511', 'APP1') }]);
fault('topo-64-structures', 'TOPOLOGY', T.s001,
  'A queue sharing group can connect to up to 64 coupling facility structures. One of these structures must be the administration structure.',
  'Forgotten admin structure: 64 application structures are accepted.',
  mq({ structures: rep(63, (i) => S(`S${i + 1}`)) }), [{ op: 'define_structure', structure: S('S64') }]);
fault('topo-sysappl-not-counted', 'TOPOLOGY', T.s001,
  'You can use up to 63 (62 if qsg-nameCSQSYSAPPL is defined) structures for message data.',
  'Forgotten condition: CSQSYSAPPL is not counted, so 62 message structures plus CSQSYSAPPL plus one more are accepted.',
  mq({ structures: rep(61, (i) => S(`S${i + 1}`)).concat([S('CSQSYSAPPL')]) }),
  [{ op: 'define_structure', structure: S('S62') }, { op: 'define_structure', structure: S('S63') }]);
fault('topo-33-qmgrs', 'TOPOLOGY', T.s003,
  'Up to 32 queue managers in a queue-sharing group can connect to a coupling facility list structure at the same time.',
  'Off-by-one: 33 queue managers can be active (connected) at once.',
  mq({ qsg: 'BIG', qmgrs: rep(33, (i) => `Q${String(i + 1).padStart(3, '0')}`) }), [{ op: 'start_qmgr', qmgr: 'Q033' }, INSPECT]);
fault('topo-qsg-5chars', 'TOPOLOGY', facts('Connecting to queue sharing groups (IBM MQ 9.2)', '§6.3'), 'up to four characters',
  'Off-by-one: a five-character QSG name is accepted.',
  mq({ qsg: 'QSG12' }), [INSPECT]);
fault('topo-cfname-nopad', 'TOPOLOGY', facts('DEFINE CFSTRUCT (IBM MQ 9.2)', '§2.6'), 'always four characters, padded with @ symbols if necessary',
  'Missed padding: the CFRM name of CFSTRUCT(APP1) in QSG QS is QSAPP1 instead of QS@@APP1.',
  mq({ qsg: 'QS', structures: [S('APP1')] }), [INSPECT]);
fault('topo-struct-name-13', 'TOPOLOGY', facts('DEFINE CFSTRUCT (IBM MQ 9.2)', '§2.6'),
  'Structure name: ≤ 12 characters; starts with an uppercase letter A–Z; only A–Z and 0–9.',
  'Off-by-one: a 13-character structure name is accepted.',
  mq({ structures: [] }), [{ op: 'define_structure', structure: S('ABCDEFGHIJKLM') }]);

// ================================================================ SIZING
fault('sizing-admin-row-offbyone', 'SIZING', `${T.s001}, Table 1`, '2 6912 KB',
  'Off-by-one row: CSQ_ADMIN for 2 queue managers is sized from the 1-queue-manager row (6144 KB).',
  mq({ qmgrs: ['QM01', 'QM02'], structures: [] }), [INSPECT]);
fault('sizing-admin-check-skipped', 'SIZING', T.s001,
  'The administrative structure (qsg-nameCSQ_ADMIN) must be large enough to contain 1000 list entries for each queue manager in the queue sharing group.',
  'Missed check: a CSQ_ADMIN too small for 1000 entries per queue manager is accepted.',
  mq({ qmgrs: ['QM01'], admin_size_kb: 100 }), [INSPECT]);
fault('sizing-kb-1000', 'SIZING', T.s001, 'INITSIZE(value from graph in KB, that is, multiplied by 1024)',
  'Unit error: a KB of structure size taken as 1000 bytes.',
  mq({ structures: [S('APP1', { size_kb: 188 })] }), [INSPECT]);
fault('sizing-initsize-ignored', 'SIZING', T.s001,
  'INITSIZE is the size in KB that the structure is allocated with when the first queue manager connects to it.',
  'Wrong field: the structure is allocated at SIZE, ignoring INITSIZE.',
  mq({ structures: [S('APP1', { size_kb: 376, initsize_kb: 188 })] }), [INSPECT]);
fault('sizing-alter-over-size', 'SIZING', T.s001,
  'alters the size of the structure to newsize, where newsize is a value that is less than the value of SIZE specified on the CFRM policy for the structure, but greater than the current coupling facility size.',
  'Missed bound: SETXCF ALTER above the CFRM SIZE is accepted.',
  mq({ structures: [S('APP1', { size_kb: 376, initsize_kb: 188 })] }), [{ op: 'setxcf_alter', cfstruct: 'APP1', size_kb: 400 }, INSPECT]);
fault('sizing-ft-strict', 'SIZING', T.s001,
  'FULLTHRESHOLD sets the percentage value of the threshold at which z/OS® issues message IXC585E to indicate that the structure is getting full.',
  'Off-by-one: IXC585E only when usage exceeds FULLTHRESHOLD, not when it reaches it.',
  mqOff({ fullthreshold: 80 }), fillQ2(80));
fault('sizing-ft0-not-off', 'SIZING', facts('CQS structure full monitoring (IMS 15.5)', '§1.8'), 'FULLTHRESHOLD(0) disables monitoring.',
  'Missed toggle: FULLTHRESHOLD(0) is treated as a 0% threshold, so IXC585E appears at once.',
  mqOff({ fullthreshold: 0 }), fillQ2(1));
fault('sizing-no-ixc586', 'SIZING', facts('CQS structure full monitoring (IMS 15.5)', '§1.8'), 'IXC586I when usage goes back below it.',
  'Missed message: IXC586I is never issued when usage falls back below FULLTHRESHOLD.',
  mqOff({ fullthreshold: 80 }), fillQ2(80).concat([get('QM01', 'Q2')]));
fault('sizing-ft-elements-only', 'SIZING', facts('CQS structure full monitoring (IMS 15.5)', '§1.8'),
  'IXC585E is issued when the number of entries or elements in use reaches FULLTHRESHOLD',
  'Forgotten condition: only elements are compared with FULLTHRESHOLD.',
  mqOff({ fullthreshold: 80 }), fillQ2(80));

// ================================================================ QDEPTH
fault('qdepth-hi-strict', 'QDEPTH', facts('Queue Depth High (IBM MQ reference)', '§4.1'),
  'has caused the queue depth to be incremented to, or greater than',
  'Off-by-one: Queue Depth High only when the depth exceeds the limit.',
  mqQd(), rep(8, () => put('QM01', 'Q', 10)));
fault('qdepth-lo-strict', 'QDEPTH', facts('Queue Depth Low (IBM MQ reference)', '§4.1'), 'has caused the queue depth to be decremented to, or less than',
  'Off-by-one: Queue Depth Low only when the depth falls below the limit.',
  mqQd({}, { qdphiev: false, qdploev: true }), rep(3, () => put('QM01', 'Q', 10)).concat([get('QM01', 'Q')]));
fault('qdepth-hi-no-lo-enable', 'QDEPTH', T.s004,
  'For example, depending on the definition of the queue attributes, a Queue Depth High event enables a Queue Depth Low and a Queue Full event.',
  'Missed toggle: Queue Depth High does not enable Queue Depth Low.',
  mqQd(), rep(8, () => put('QM01', 'Q', 10)).concat([INSPECT]));
fault('qdepth-hi-stays-enabled', 'QDEPTH', T.s004,
  'If messages are placed on both queues so that the depth meets or exceeds the QDEPTHHI threshold, the QDPHIEV value on SQ1 switches to DISABLED.',
  'Missed toggle: QDPHIEV stays enabled, so every further put raises another Queue Depth High.',
  mqQd(), rep(9, () => put('QM01', 'Q', 10)));
fault('qdepth-shared-gated', 'QDEPTH', T.s004,
  'A key difference is that events are switched on for shared queues even if PERFMEV is DISABLED on the queue manager.',
  'Wrong condition: shared-queue flags are not toggled when the detecting queue manager has PERFMEV(DISABLED).',
  mqQd({ perfmev_disabled: ['QM01'] }), rep(8, () => put('QM01', 'Q', 10)).concat([INSPECT]));
fault('qdepth-nonshared-ungated', 'QDEPTH', T.s004,
  'In contrast the attributes for LQ1 remain unchanged until PERFMEV on the queue manager is ENABLED.',
  'Wrong condition: nonshared-queue flags are toggled while PERFMEV is DISABLED.',
  mq({ perfmev_disabled: ['QM01'], structures: [S('APP1')], queues: [Q('LQ1', null, { qmgr: 'QM01', maxdepth: 10, qdepthhi: 80, qdphiev: true })] }),
  rep(8, () => put('QM01', 'LQ1', 10)).concat([INSPECT]));
fault('qdepth-no-broadcast', 'QDEPTH', T.s004,
  'Broadcasts to all other active queue managers in the same queue-sharing group to request the production of an event message for the shared queue.',
  'Missed broadcast: only the coordinating queue manager issues an event message.',
  mqQd(), rep(8, () => put('QM01', 'Q', 10)));
fault('qdepth-broadcast-disabled', 'QDEPTH', T.s004,
  'If PERFMEV is set to DISABLED on some of the queue managers, event messages are not produced by those queue managers, making event monitoring from an application more difficult.',
  'Wrong number: queue managers with PERFMEV(DISABLED) answer the broadcast too.',
  mqQd({ perfmev_disabled: ['QM02'] }), rep(8, () => put('QM01', 'Q', 10)));
fault('qdepth-broadcast-inactive', 'QDEPTH', T.s004,
  'Having received a request from the coordinating queue manager, if there is an active queue manager in the queue-sharing group that is enabled for performance events , that active queue manager issues an event message for the shared queue.',
  'Wrong queue managers: a stopped queue manager issues an event message.',
  mqQd(), [{ op: 'stop_qmgr', qmgr: 'QM03' }].concat(rep(8, () => put('QM01', 'Q', 10))));
fault('qdepth-correl-per-qmgr', 'QDEPTH', T.s004,
  'The message descriptor (MQMD) of this event message contains the unique correlation identifier (CorrelId) specified by the coordinating queue manager.',
  'Wrong identifier: each queue manager makes its own CorrelId.',
  mqQd(), rep(8, () => put('QM01', 'Q', 10)));
fault('qdepth-stats-not-reset', 'QDEPTH', T.s004,
  'Issues an event message that captures all shared queue performance data it has gathered since the last time an event message was created, or since the queue statistics were last reset.',
  'Missed reset: counts keep accumulating across event messages.',
  mqQd({}, { qdploev: false }), rep(8, () => put('QM01', 'Q', 10)).concat(rep(6, () => get('QM01', 'Q'))));
fault('qdepth-stats-global', 'QDEPTH', T.s004,
  'This event message that each queue manager generates represents its individual usage of the shared queue.',
  'Wrong scope: every event message carries the group-wide counts.',
  mqQd(), rep(3, () => put('QM02', 'Q', 10)).concat(rep(5, () => put('QM01', 'Q', 10))));
fault('qdepth-qfull-no-lo-enable', 'QDEPTH', facts('Enabling queue depth events (IBM MQ)', '§4.3'),
  'A Queue Depth Low event is automatically enabled by a Queue Depth High event or a Queue Full event',
  'Missed toggle: Queue Full does not enable Queue Depth Low.',
  mqQd({}, { maxdepth: 2, qdphiev: false, qdploev: false, qdpmaxev: true }), rep(3, () => put('QM01', 'Q', 10)).concat([INSPECT]));
fault('qdepth-events-at-commit', 'QDEPTH', facts('Performance events (IBM MQ 9.0)', '§4.3'),
  'MQPUT/MQGET inside a unit of work generate performance events whether the unit of work commits or backs out.',
  'Wrong timing: events of syncpoint puts are deferred to commit, so a backed-out unit of work raises none.',
  mqQd(), rep(8, () => put('QM01', 'Q', 10, { syncpoint: true })).concat([{ op: 'backout', qmgr: 'QM01' }, INSPECT]));
fault('qdepth-reset-ignored', 'QDEPTH', T.s004,
  'The event message that is issued contains information about all the operations performed by the receiving (active) queue manager since the last time an event message was created, or since the statistics were last reset.',
  'Missed reset: RESET QSTATS does not restart the receiving queue manager\'s counts.',
  mqQd(), rep(3, () => put('QM02', 'Q', 10)).concat([{ op: 'reset_qstats', qmgr: 'QM02', queue: 'Q' }], rep(5, () => put('QM01', 'Q', 10))));
fault('qdepth-first-qmgr-coordinates', 'QDEPTH', T.s004,
  'After updating the shared queue object successfully, the queue manager that detected the performance event initially becomes the coordinating queue manager.',
  'Wrong queue manager: the first active queue manager of the group coordinates, not the one that detected the event.',
  mqQd(), rep(8, () => put('QM02', 'Q', 10)));

// ================================================================ RECOVERY
const mqR = (x) => mq({ structures: [S('APP1', Object.assign({ cflevel: 3, recover: true }, x || {}))], queues: [Q('Q1', 'APP1')] });
const bk = { op: 'backup', qmgr: 'QM01', cfstruct: 'APP1' };
const fl = { op: 'fail_structure', cfstruct: 'APP1' };
fault('recovery-np-recovered', 'RECOVERY', facts('BACKUP CFSTRUCT (IBM MQ 8.0)', '§5.1'),
  'Only persistent shared queue messages are backed up. Non-persistent messages are not backed up and cannot be recovered.',
  'Too much recovered: nonpersistent messages come back after RECOVER CFSTRUCT.',
  mqR(), [put('QM01', 'Q1', 10, { tag: 1 }), bk, fl, { op: 'recover', cfstruct: 'APP1' }, get('QM01', 'Q1')]);
fault('recovery-backup-recover-no', 'RECOVERY', facts('BACKUP CFSTRUCT (IBM MQ 8.0)', '§5.1'),
  'The command fails if the structure has CFLEVEL < 3 or RECOVER(NO).',
  'Missed check: BACKUP CFSTRUCT succeeds on a RECOVER(NO) structure.',
  mqR({ recover: false }), [bk]);
fault('recovery-normal-nonfailed', 'RECOVERY', facts('RECOVER CFSTRUCT (IBM MQ 9.2)', '§5.2'),
  'if neither the specified application structure nor its associated shared message data sets are flagged as being in a FAILED state',
  'Missed check: RECOVER CFSTRUCT TYPE(NORMAL) succeeds on an active structure.',
  mqR(), [bk, { op: 'recover', cfstruct: 'APP1' }]);
fault('recovery-no-replay', 'RECOVERY', T.s003,
  'Any activity since the last backup is replayed using the logs of all the queue managers in the queue-sharing group, and the CF structure is then restored up to the point before the failure.',
  'Forgotten log replay: RECOVER restores the backup only; messages put after it are lost.',
  mqR(), [put('QM01', 'Q1', 10, { persistent: true, tag: 1 }), bk, put('QM02', 'Q1', 10, { persistent: true, tag: 2 }), fl,
    { op: 'recover', cfstruct: 'APP1' }, get('QM01', 'Q1'), get('QM01', 'Q1')]);
fault('recovery-purge-keeps', 'RECOVERY', facts('RECOVER CFSTRUCT (IBM MQ 9.2)', '§5.2'),
  'recover[s] to empty CF structures. Any messages in the CF structures are lost',
  'Missed toggle: TYPE(PURGE) recovers like TYPE(NORMAL).',
  mqR(), [put('QM01', 'Q1', 10, { persistent: true }), bk, fl, { op: 'recover', cfstruct: 'APP1', purge: true }, get('QM01', 'Q1')]);
fault('recovery-no-backup-needed', 'RECOVERY', T.s003,
  'This uses the backup record from Db2 to locate and restore persistent messages from the backup of the CF structure.',
  'Missed check: RECOVER TYPE(NORMAL) succeeds when no backup was ever taken.',
  mqR(), [put('QM01', 'Q1', 10, { persistent: true }), fl, { op: 'recover', cfstruct: 'APP1' }]);

// ================================================================ QUEUE
const mqQ = () => mq({ structures: [S('APP1')], queues: [Q('Q1', 'APP1')] });
fault('queue-lifo', 'QUEUE', T.s003, 'Search for the next retrievable message',
  'Wrong order: MQGET returns the newest message (LIFO).',
  mqQ(), [put('QM01', 'Q1', 10, { tag: 1 }), put('QM01', 'Q1', 10, { tag: 2 }), get('QM02', 'Q1')]);
fault('queue-uncommitted-visible', 'QUEUE', T.s003, 'Lock uncommitted messages on shared queues',
  'Missed lock: another queue manager can get a message whose put is not committed.',
  mqQ(), [put('QM01', 'Q1', 10, { tag: 1, syncpoint: true }), get('QM02', 'Q1')]);
fault('queue-stop-commits', 'QUEUE', T.proto, "Stop a queue manager; its unit of work is backed out (QUEUE-005).",
  'Wrong direction: stopping a queue manager commits its unit of work.',
  mqQ(), [put('QM01', 'Q1', 10, { tag: 1, syncpoint: true }), { op: 'stop_qmgr', qmgr: 'QM01' }, get('QM02', 'Q1')]);
fault('queue-shared-np-lost-at-stop', 'QUEUE', facts('Persistence (MQLONG) (IBM MQ 9.1)', '§5.2'),
  'Nonpersistent messages on shared queues survive queue-manager restarts',
  'Private-queue habit: a stopping queue manager discards the nonpersistent messages it put on shared queues.',
  mqQ(), [put('QM01', 'Q1', 10, { tag: 1 }), { op: 'stop_qmgr', qmgr: 'QM01' }, get('QM02', 'Q1')]);

const out = path.join(__dirname, 'faults.json');
// one fault per block, the config on one line and one operation per line
const j = JSON.stringify;
const text = '[\n' + F.map((f) => [
  '  {',
  `    "id": ${j(f.id)},`, `    "family": ${j(f.family)},`, `    "sentence": ${j(f.sentence)},`,
  `    "source": ${j(f.source)},`, `    "description": ${j(f.description)},`,
  '    "scenario": {',
  `      "config": ${j(f.scenario.config)},`,
  '      "ops": [',
  f.scenario.ops.map((o) => `        ${j(o)}`).join(',\n'),
  '      ]',
  '    }',
  '  }',
].join('\n')).join(',\n') + '\n]\n';
JSON.parse(text);
fs.writeFileSync(out, text);
console.log(`wrote ${F.length} faults to ${out}`);
