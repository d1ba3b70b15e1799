#!/usr/bin/env python3
"""Writes faults.json: the fault kit's catalogue.  Each entry names the fault
(impl.py --fault ID), the sentence it breaks (quoted exactly; markdown
emphasis from ibm-facts.md dropped), the document it comes from, and a short
scenario on which the faithful and the faulty build must differ
(faultcheck.py checks this)."""
import json
import os

SEED0 = "CQS structure overflow function"
SEED1 = "Planning your coupling facility and offload storage environment"
SEED2 = "Specifying offload options for shared messages"
SEED3 = "Where are shared queue messages held?"
SEED4 = "Shared queues and queue depth events (IBM MQ for z/OS)"
PROTO = "cfconform wire protocol (docs/PROTOCOL.md)"


def facts(title):
    return "%s (IBM documentation, quoted in ibm-facts.md)" % title


# ---------------------------------------------------------------- builders
def S(name="APP1", **kw):
    d = {"name": name}
    d.update(kw)
    return d


def Q(name="Q1", cfstruct="APP1", **kw):
    d = {"name": name, "cfstruct": cfstruct}
    d.update(kw)
    return d


def mq(structures=None, queues=None, **kw):
    d = {"profile": "mq", "structures": structures or [S()],
         "queues": queues if queues is not None else [Q()]}
    d.update(kw)
    return d


def cqs(structures=None, queues=None, **kw):
    d = {"profile": "cqs", "structures": structures or [S(size_kb=256, ratio=2)],
         "queues": queues if queues is not None else [Q("QA"), Q("QB")]}
    d.update(kw)
    return d


def put(qm="QM01", q="Q1", length=100, **kw):
    d = {"op": "put", "qmgr": qm, "queue": q, "length": length}
    d.update(kw)
    return d


def get(qm="QM01", q="Q1", **kw):
    d = {"op": "get", "qmgr": qm, "queue": q}
    d.update(kw)
    return d


def cput(q, n, length=4096):
    return [put("QM01", q, length) for _ in range(n)]


INSPECT = {"op": "inspect"}


def adv(s):
    return {"op": "advance_clock", "seconds": s}


FILL70 = [put(length=30000)] * 3 + [put(length=1536)]   # 180 of 256 elements: 70.3 %
SEL4 = dict(structures=[S(size_kb=256, ratio=2, ovflwmax=50, ovflwstr="OVF1")],
            queues=[Q("QA"), Q("QB"), Q("QC"), Q("QD")])
SEL4_OPS = cput("QA", 3) + cput("QB", 4) + cput("QC", 6) + cput("QD", 3)
ONEQ_OVF = dict(structures=[S(size_kb=256, ratio=2, ovflwmax=50, ovflwstr="OVF1")], queues=[Q("QA")])
NOSTR = cput("QA", 12) + cput("QB", 11)                 # 184 of 256 -> QA approved
QD10 = dict(queues=[Q(maxdepth=10, qdepthhi=80, qdepthlo=20, qdphiev=True)])

FAULTS = []


def fault(id, family, sentence, source, description, config, ops):
    FAULTS.append({"id": id, "family": family, "sentence": sentence, "source": source,
                   "description": description, "scenario": {"config": config, "ops": ops}})


# ================================================================== CQS
fault("cqs-threshold-strict", "CQS",
      "When the usage of a structure reaches the overflow threshold, CQS attempts to make the structure larger by initiating a structure alter.",
      SEED0, "Off by one: the alter starts only when usage is strictly above OVFLWMAX, not when it reaches it.",
      cqs(structures=[S(size_kb=256, ratio=2, ovflwmax=50)]), cput("QA", 16))
fault("cqs-default-ovflwmax-80", "CQS",
      "The default overflow threshold is 70%, but you can change the default by defining the OVFLWMAX parameter in the CQSSGxxx member of the PROCLIB data set.",
      SEED0, "Wrong default: OVFLWMAX defaults to 80% (the z/OS FULLTHRESHOLD default) instead of 70%.",
      cqs(), cput("QA", 23))
fault("cqs-alter-skipped", "CQS",
      "If CQS does not succeed in altering a structure's size, the structure goes into overflow mode.",
      SEED0, "Overflow mode even though the structure could grow (INITSIZE < SIZE): the alter result is ignored.",
      cqs(structures=[S(size_kb=512, initsize_kb=256, ratio=2)]), cput("QA", 23) + [INSPECT])
fault("cqs-target-forgets-20", "CQS",
      "CQS stops selecting queues when enough queues have been selected to cause the primary structure usage to fall 20% below the overflow threshold.",
      SEED0, "Forgotten margin: selection stops as soon as usage is back at the threshold, not 20 points below it.",
      cqs(**SEL4), SEL4_OPS + [INSPECT])
fault("cqs-select-least-space", "CQS",
      "In overflow mode, CQS selects queues using the most space on the structure as candidates for overflow processing.",
      SEED0, "Wrong order: candidates are taken smallest first.",
      cqs(**SEL4), SEL4_OPS)
fault("cqs-exit-veto-ignored", "CQS",
      "CQS drives the Queue Overflow User-Supplied exit routine with the candidate queue names, which the exit then approves or rejects for overflow processing.",
      SEED0, "The exit's rejection is ignored: a vetoed queue is placed in overflow mode anyway.",
      cqs(overflow_exit=["QC"], **SEL4), SEL4_OPS)
fault("cqs-no-ovflwstr-accepts-puts", "CQS",
      "If an overflow structure is not defined, CQS rejects CQSPUT requests for the approved queues.",
      SEED0, "Forgotten condition: without OVFLWSTR, puts to approved queues are still accepted on the primary.",
      cqs(), NOSTR + cput("QA", 1))
fault("cqs-staging-moved", "CQS",
      "Any parts of a message that are on the staging queue remain on the primary structure.",
      SEED0, "Wrong structure: a queue's staging parts move to the overflow structure with it.",
      cqs(structures=[S(size_kb=256, ratio=2, ovflwmax=50, ovflwstr="OVF1")], lgmsgsz=4096),
      cput("QB", 3) + [put("QM01", "QA", 10000)] * 6 + [INSPECT])
fault("cqs-no-staging-queue", "CQS",
      "The second and subsequent parts are placed on a secondary queue called the staging queue.",
      SEED0, "Large messages are stored whole on the ready queue; nothing goes to the staging queue.",
      cqs(lgmsgsz=4096), [put("QM01", "QA", 10000), INSPECT])
fault("cqs-scan-immediate", "CQS",
      "The queues are scanned every 15 minutes.",
      SEED0, "No periodic scan: a queue leaves overflow mode the moment it is emptied.",
      cqs(**ONEQ_OVF), cput("QA", 16) + [get("QM01", "QA")] * 16 + [INSPECT])
fault("cqs-overflow-never-ends", "CQS",
      "When all queues have been removed, CQS exits overflow mode.",
      SEED0, "Missed toggle: after the scan removes the last queue the structure stays in overflow mode.",
      cqs(**ONEQ_OVF), cput("QA", 16) + [get("QM01", "QA")] * 16 + [adv(900), INSPECT])
fault("cqs-no-ovflwstr-exit-at-threshold", "CQS",
      "If no overflow structure is allocated, CQS exits overflow mode when the primary structure usage drops 20% below the overflow threshold.",
      SEED0, "Leaves overflow mode as soon as usage is below the threshold, without the 20-point margin.",
      cqs(), NOSTR + [get("QM01", "QA")])
fault("cqs-resource-overflow", "CQS",
      "Structure overflow is not supported for resource structures.",
      SEED0, "Rule applied to the wrong structure type: a resource structure goes into overflow processing.",
      cqs(structures=[S(size_kb=256, ratio=2, resource=True)]), cput("QA", 23))

# ================================================================== OFFLOAD
fault("offload-default-db2", "OFFLOAD",
      "OFFLOAD(SMDS) is the default value.",
      SEED2, "Wrong default: a CFLEVEL(5) structure without OFFLOAD offloads to Db2.",
      mq(structures=[S(cflevel=5)]), [put(length=70000)])
fault("offload-size-only", "OFFLOAD",
      "If the coupling facility structure is more than 70% full offload data for messages exceeding 32 KB",
      SEED2, "The APAR PI21909 defect: a message matching a rule's size is offloaded although the usage threshold is not met.",
      mq(structures=[S(cflevel=5)]), [put(length=40000)])
fault("offload-threshold-only", "OFFLOAD",
      "If the coupling facility structure is more than 70% full offload data for messages exceeding 32 KB",
      SEED2, "Forgotten condition: once usage passes a rule's threshold every message is offloaded, whatever its size.",
      mq(structures=[S(size_kb=256, ratio=2, cflevel=5)]), FILL70 + [put(length=100)])
fault("offload-0k-rule-off", "OFFLOAD",
      "If the coupling facility structure is more than 90% full offload data for messages exceeding 0 KB (all messages)",
      SEED2, "OFFLD3SZ(0K) mistaken for 'rule off': small messages stay in the CF above 90%.",
      mq(structures=[S(size_kb=256, ratio=2, cflevel=5)]), [put(length=30000)] * 4 + [put(length=1)])
fault("offload-forced-at-64000", "OFFLOAD",
      "Messages which are too large to store in the coupling facility (that is, larger than 63 KB) must always be offloaded, and smaller messages can optionally be offloaded to reduce coupling facility space usage.",
      SEED1, "Off by 512 bytes: 63 KB taken as 64 000 bytes, so a 64 200-byte message is forced out.",
      mq(structures=[S(cflevel=5)]), [put(length=64200)])
fault("offload-cflevel4-rules", "OFFLOAD",
      "However, with CFLEVEL(5) you can use the offload parameters to offload data for messages less than 63 KB thereby increasing the number of messages which can be stored in the structure, although each message still requires at least a coupling facility entry plus at least 512 bytes of data.",
      SEED3, "Wrong level: the offload rules also act on a CFLEVEL(4) structure.",
      mq(structures=[S(size_kb=256, ratio=2, cflevel=4)]), FILL70 + [put(length=33000)])
fault("offload-define-below-5-accepted", "OFFLOAD",
      "This parameter also requires the CFSTRUCT to use CFLEVEL(5) or greater.",
      SEED2, "Missing validation: DEFINE CFSTRUCT CFLEVEL(4) OFFLOAD(SMDS) is accepted.",
      mq(), [{"op": "define_structure", "structure": S("APP2", cflevel=4, offload="SMDS")}])
fault("offload-full-cost", "OFFLOAD",
      "Each message which is offloaded still requires 0.75 KB of storage in the coupling facility.",
      SEED2, "Wrong accounting: an offloaded message is charged its full size in the CF.",
      mq(structures=[S(cflevel=5)]), [put(length=70000)])
fault("offload-alter-resets-unspecified", "OFFLOAD",
      "ALTER CFSTRUCT has the same offload keywords and no defaults; keywords not specified are left unchanged.",
      facts("ALTER CFSTRUCT (IBM MQ 9.2)"),
      "ALTER applies DEFINE's defaults to every offload keyword it does not name.",
      mq(structures=[S(size_kb=256, ratio=2, cflevel=5, offld1th=0)]),
      [{"op": "alter_structure", "name": "APP1", "changes": {"offld2th": 50}}, put(), put(length=40000)])
fault("offload-default-offld1sz-64k", "OFFLOAD",
      "Rule pair 1 OFFLD1TH(70) and OFFLD1SZ(32K)",
      SEED2, "Wrong default: DEFINE without OFFLD1SZ takes 64K (rule off) instead of 32K.",
      mq(queues=[]), [{"op": "define_structure", "structure": S("OF1", size_kb=256, ratio=2, cflevel=5)},
                      {"op": "define_queue", "queue": Q("QO", "OF1")}]
      + [put(q="QO", length=30000)] * 3 + [put(q="QO", length=1536), put(q="QO", length=33000)])

# ================================================================== CFLEVEL
fault("cflevel-recover-no-persistent-ok", "CFLEVEL",
      "On z/OS, you cannot put persistent messages to a shared queue if the CFSTRUCT that the queue uses is defined with RECOVER(NO).",
      facts("MQRC_PERSISTENT_NOT_ALLOWED (2048)"),
      "Forgotten condition: a persistent put to a CFLEVEL(3) RECOVER(NO) structure succeeds.",
      mq(), [put(persistent=True)])
fault("cflevel-recover-yes-level2-accepted", "CFLEVEL",
      "1, 2 - can be used for nonpersistent messages less than 63 KB",
      SEED3, "Missing validation: RECOVER(YES) is accepted on a CFLEVEL(2) structure.",
      mq(), [{"op": "define_structure", "structure": S("L2", cflevel=2, recover=True)}])
fault("cflevel-large-limit-64k", "CFLEVEL",
      "3 - can be used for persistent and nonpersistent messages less than 63 KB",
      SEED3, "Off by 1 KB: the CFLEVEL(3) size limit is taken as 64 KB.",
      mq(), [put(length=65000)])
fault("cflevel-4-rejects-large", "CFLEVEL",
      "4 - can be used for persistent and nonpersistent messages up to 100 MB",
      SEED3, "Wrong level: messages over 63 KB need CFLEVEL(5).",
      mq(structures=[S(cflevel=4)]), [put(length=100000)])
fault("cflevel-large-rc-2030", "CFLEVEL",
      "For example an MQPUT or MQPUT1 call was issued with a message that was bigger than 63 KB in length, and the shared queue was using an IBM MQ CFSTRUCT with a CFLEVEL of less than 4.",
      facts("MQRC_WRONG_CF_LEVEL (2366)"),
      "Wrong reason code: 2030 MQRC_MSG_TOO_BIG_FOR_Q instead of 2366 although MAXMSGL allows the message.",
      mq(), [put(length=70000)])
fault("cflevel-decrease-unguarded", "CFLEVEL",
      "Decrease from 3 or from 4 only if every queue referencing the structure is empty (no messages and no uncommitted activity) and closed.",
      facts("DEFINE CFSTRUCT (MQ V6)"), "Forgotten condition: CFLEVEL is lowered while a queue holds messages.",
      mq(structures=[S(cflevel=4)]), [put(), {"op": "alter_structure", "name": "APP1", "changes": {"cflevel": 3}}])

# ================================================================== CAPACITY
fault("capacity-full-rc-2053", "CAPACITY",
      "If no action is taken and a queue structure fills up, an MQRC_STORAGE_MEDIUM_FULL return code is returned to the application.",
      SEED1, "Wrong reason code: a full structure answers 2053 MQRC_Q_FULL.",
      mq(structures=[S(size_kb=256, ratio=2)]), [put(length=64512), put(length=64512), put(length=3000)])
fault("capacity-qfull-off-by-one", "CAPACITY",
      "already contains the maximum number of messages possible",
      facts("MQRC_Q_FULL (2053)"), "Off by one: the queue is full one message before MAXDEPTH.",
      mq(queues=[Q(maxdepth=3)]), [put(), put(), put()])
fault("capacity-entries-ignored", "CAPACITY",
      "A structure is full if either all ENTRYs or all ELEMENTs are in use.",
      facts("MQRC_STORAGE_MEDIUM_FULL (2192)"),
      "Forgotten condition: only elements are checked, so puts continue after every entry is used.",
      mq(structures=[S(size_kb=64, ratio=30)]), [put(length=10)] * 7)
fault("capacity-cqs-full-ignored", "CAPACITY",
      "The total amount of message data stored in the structure is limited by the structure capacity.",
      SEED3, "Missing check in the CQS profile: a CQSPUT that does not fit is accepted.",
      cqs(structures=[S(size_kb=256, ratio=2, ovflwmax=100)]), cput("QA", 31) + [put("QM01", "QA", 8192)])

# ================================================================== TOPOLOGY
fault("topo-512-off-by-one", "TOPOLOGY",
      "Each structure can hold up to 512 shared queues.",
      SEED1, "Off by one: the 512th queue on a structure is refused.",
      mq(queues=[Q("Q%03d" % i) for i in range(511)]), [{"op": "define_queue", "queue": Q("Q511")}])
fault("topo-64-structures", "TOPOLOGY",
      "One of these structures must be the administration structure.",
      SEED1, "Forgets CSQ_ADMIN: 64 application structures are allowed.",
      mq(structures=[S("S%d" % i) for i in range(63)], queues=[]),
      [{"op": "define_structure", "structure": S("S63")}])
fault("topo-sysappl-counted-twice", "TOPOLOGY",
      "You can use up to 63 (62 if qsg-nameCSQSYSAPPL is defined) structures for message data.",
      SEED1, "Misread limit: with CSQSYSAPPL defined only 62 application structures in all (CSQSYSAPPL included).",
      mq(structures=[S("CSQSYSAPPL")] + [S("S%d" % i) for i in range(61)], queues=[]),
      [{"op": "define_structure", "structure": S("S61")}])
fault("topo-31-qmgrs", "TOPOLOGY",
      "Up to 32 queue managers in a queue-sharing group can connect to a coupling facility list structure at the same time.",
      SEED3, "Off by one (Table 1 stops at 31): 32 queue managers are refused.",
      mq(qmgrs=["M%02d" % i for i in range(32)], queues=[]), [INSPECT])
fault("topo-name-16", "TOPOLOGY",
      "Structure name: ≤ 12 characters; starts with an uppercase letter A–Z; only A–Z and 0–9.",
      facts("DEFINE CFSTRUCT (IBM MQ 9.2)"), "Wrong limit: the z/OS 16-character limit is used for CFSTRUCT names.",
      mq(), [{"op": "define_structure", "structure": S("ABCDEFGHIJKLMN")}])
fault("topo-cfname-no-padding", "TOPOLOGY",
      "always four characters, padded with @ symbols if necessary",
      facts("DEFINE CFSTRUCT (IBM MQ 9.2)"), "The CFRM name is the raw QSG name + CFSTRUCT name, unpadded.",
      mq(qsg="QS"), [INSPECT])
fault("topo-admin-unchecked", "TOPOLOGY",
      "When a queue manager starts, the structure is checked to see if it is large enough for the number of queue managers currently defined to the queue sharing group.",
      SEED1, "Missing check: an undersized CSQ_ADMIN (Table 1) is accepted.",
      mq(qmgrs=["QM01", "QM02", "QM03"], admin_size_kb=6912), [INSPECT])

# ================================================================== SIZING
fault("sizing-initsize-ignored", "SIZING",
      "INITSIZE is the size in KB that the structure is allocated with when the first queue manager connects to it.",
      SEED1, "Wrong size: the structure is allocated at SIZE, ignoring INITSIZE.",
      mq(structures=[S(size_kb=512, initsize_kb=256)]), [INSPECT])
fault("sizing-alter-over-size", "SIZING",
      "alters the size of the structure to newsize, where newsize is a value that is less than the value of SIZE specified on the CFRM policy for the structure, but greater than the current coupling facility size.",
      SEED1, "Forgotten upper bound: SETXCF ALTER beyond SIZE is accepted.",
      mq(structures=[S(size_kb=512, initsize_kb=256)]), [{"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 600}])
fault("sizing-alter-no-effect", "SIZING",
      "Alternatively, you can use z/OS facilities to alter the structure size in place.",
      SEED1, "The accepted alter records the new size but the structure's capacity does not change.",
      mq(structures=[S(size_kb=512, initsize_kb=256)]), [{"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 400}])
fault("sizing-fullthreshold-default-85", "SIZING",
      "The default is 80%.",
      facts("CQS structure full monitoring (IMS 15.5)"),
      "Wrong default: FULLTHRESHOLD defaults to 85 (copied from the seed's CFRM example).",
      mq(queues=[]), [{"op": "define_structure", "structure": S("FT", size_kb=400, ratio=2)},
                      {"op": "define_queue", "queue": Q("QF", "FT")}]
      + [put(q="QF", length=30000)] * 5 + [put(q="QF", length=20480), adv(60)])
fault("sizing-ixc585e-strict", "SIZING",
      "FULLTHRESHOLD sets the percentage value of the threshold at which z/OS® issues message IXC585E to indicate that the structure is getting full.",
      SEED1, "Off by one: IXC585E only when usage is above FULLTHRESHOLD, not when it reaches it.",
      mq(structures=[S(size_kb=400, ratio=2, fullthreshold=80)]),
      [put(length=30000)] * 5 + [put(length=12800), adv(60)])
fault("sizing-ixc-elements-only", "SIZING",
      "IXC585E is issued when the number of entries or elements in use reaches FULLTHRESHOLD",
      facts("CQS structure full monitoring (IMS 15.5)"), "Forgotten condition: entries are not monitored, only elements.",
      mq(structures=[S(size_kb=64, ratio=30, fullthreshold=80)]), [put(length=10)] * 5 + [adv(60)])
fault("sizing-ixc586i-missing", "SIZING",
      "IXC586I when usage goes back below it.",
      facts("CQS structure full monitoring (IMS 15.5)"), "Missed message: no IXC586I when usage falls below FULLTHRESHOLD.",
      mq(structures=[S(size_kb=64, ratio=30, fullthreshold=80)]), [put(length=10)] * 5 + [adv(60), get(), adv(60)])
fault("sizing-fullthreshold-0-warns", "SIZING",
      "FULLTHRESHOLD(0) disables monitoring.",
      facts("CQS structure full monitoring (IMS 15.5)"), "0 read as 0%: every structure in use is reported as full.",
      mq(structures=[S(fullthreshold=0)]), [put(), adv(60)])

# ================================================================== QDEPTH
fault("qdepth-hi-strict", "QDEPTH",
      "has caused the queue depth to be incremented to, or greater than",
      facts("Queue Depth High (MQRC 2224)"), "Off by one: Queue Depth High only when depth exceeds the limit.",
      mq(**QD10), [put()] * 8)
fault("qdepth-lo-strict", "QDEPTH",
      "has caused the queue depth to be decremented to, or less than",
      facts("Queue Depth Low (MQRC 2225)"), "Off by one: Queue Depth Low only when depth falls under the limit.",
      mq(queues=[Q(maxdepth=10, qdepthlo=20, qdploev=True)]), [put()] * 3 + [get()])
fault("qdepth-hi-no-max-toggle", "QDEPTH",
      "Also, QDPLOEV and QDPMAXEV are switched to ENABLED.",
      SEED4, "Missed toggle: Queue Depth High enables Queue Depth Low but not Queue Full.",
      mq(**QD10), [put()] * 8 + [INSPECT])
fault("qdepth-hi-stays-enabled", "QDEPTH",
      "If messages are placed on both queues so that the depth meets or exceeds the QDEPTHHI threshold, the QDPHIEV value on SQ1 switches to DISABLED.",
      SEED4, "Missed toggle: QDPHIEV stays ENABLED, so every later put raises another event.",
      mq(**QD10), [put()] * 9)
fault("qdepth-shared-needs-perfmev", "QDEPTH",
      "A key difference is that events are switched on for shared queues even if PERFMEV is DISABLED on the queue manager.",
      SEED4, "Nonshared rule applied to a shared queue: nothing toggles while PERFMEV is DISABLED.",
      mq(perfmev_disabled=["QM01"], **QD10), [put()] * 8 + [INSPECT])
fault("qdepth-nonshared-ignores-perfmev", "QDEPTH",
      "In contrast the attributes for LQ1 remain unchanged until PERFMEV on the queue manager is ENABLED.",
      SEED4, "Shared rule applied to a nonshared queue: its switches toggle while PERFMEV is DISABLED.",
      mq(perfmev_disabled=["QM01"], queues=[Q("LQ1", None, qmgr="QM01", maxdepth=10, qdphiev=True)]),
      [put(q="LQ1")] * 8 + [INSPECT])
fault("qdepth-no-broadcast", "QDEPTH",
      "Broadcasts to all other active queue managers in the same queue-sharing group to request the production of an event message for the shared queue.",
      SEED4, "Missing broadcast: only the coordinating queue manager issues an event message.",
      mq(**QD10), [put()] * 8)
fault("qdepth-disabled-qmgr-issues", "QDEPTH",
      "If PERFMEV is set to DISABLED on some of the queue managers, event messages are not produced by those queue managers, making event monitoring from an application more difficult.",
      SEED4, "Forgotten condition: a PERFMEV(DISABLED) queue manager answers the broadcast.",
      mq(perfmev_disabled=["QM02"], **QD10), [put()] * 8)
fault("qdepth-inactive-qmgr-issues", "QDEPTH",
      "When performance events occur on a shared queue, n event messages are produced, where n is a number from 1 to the number of active queue managers in the queue-sharing group.",
      SEED4, "Forgotten condition: a stopped queue manager also issues an event message.",
      mq(**QD10), [{"op": "stop_qmgr", "qmgr": "QM03"}] + [put()] * 8)
fault("qdepth-correl-per-qmgr", "QDEPTH",
      "The message descriptor (MQMD) of this event message contains the unique correlation identifier (CorrelId) specified by the coordinating queue manager.",
      SEED4, "Each queue manager makes its own CorrelId instead of using the coordinator's.",
      mq(**QD10), [put()] * 8)
fault("qdepth-stats-not-reset", "QDEPTH",
      "The event message that is issued contains information about all the operations performed by the receiving (active) queue manager since the last time an event message was created, or since the statistics were last reset.",
      SEED4, "Statistics are not restarted after an event message, so the next one repeats old counts.",
      mq(**QD10), [put("QM02")] * 8 + [get("QM01")] * 6)
fault("qdepth-reset-qstats-ignored", "QDEPTH",
      "Issues an event message that captures all shared queue performance data it has gathered since the last time an event message was created, or since the queue statistics were last reset.",
      SEED4, "RESET QSTATS does not restart the queue manager's counts.",
      mq(**QD10), [put()] * 3 + [{"op": "reset_qstats", "qmgr": "QM01", "queue": "Q1"}] + [put()] * 5)
fault("qdepth-backout-restores-flags", "QDEPTH",
      "A rollback does not restore the enable flags.",
      facts("Performance events (IBM MQ 9.0)"), "Event switches are treated as part of the unit of work and restored by backout.",
      mq(**QD10), [put(syncpoint=True)] * 8 + [{"op": "backout", "qmgr": "QM01"}, INSPECT])
fault("qdepth-qfull-no-event", "QDEPTH",
      "the first message that cannot be put on the queue because the queue is full",
      facts("Queue depth events, example 2"), "Missing event: a put refused with 2053 raises no Queue Full event.",
      mq(queues=[Q(maxdepth=2, qdpmaxev=True)]), [put()] * 3)

# ================================================================== RECOVERY
REC = dict(structures=[S(recover=True)])
BK = {"op": "backup", "qmgr": "QM01", "cfstruct": "APP1"}
FAIL = {"op": "fail_structure", "cfstruct": "APP1"}
RECOVER = {"op": "recover", "cfstruct": "APP1"}
fault("rec-nonpersistent-recovered", "RECOVERY",
      "This puts a copy of the persistent messages currently within the CF structure onto the active log data set of the queue manager making the backup, and writes a record of the backup to Db2.",
      SEED3, "Nonpersistent messages are backed up and recovered too.",
      mq(**REC), [put(), BK, FAIL, RECOVER, INSPECT])
fault("rec-no-log-replay", "RECOVERY",
      "Any activity since the last backup is replayed using the logs of all the queue managers in the queue-sharing group, and the CF structure is then restored up to the point before the failure.",
      SEED3, "No log replay: RECOVER restores only what the last backup held.",
      mq(**REC), [BK, put(persistent=True), FAIL, RECOVER, INSPECT])
fault("rec-backup-recover-no", "RECOVERY",
      "The command fails if the structure has CFLEVEL < 3 or RECOVER(NO).",
      facts("BACKUP CFSTRUCT (IBM MQ 8.0)"), "Missing check: BACKUP of a RECOVER(NO) structure succeeds.",
      mq(), [BK])
fault("rec-recover-not-failed", "RECOVERY",
      "if neither the specified application structure nor its associated shared message data sets are flagged as being in a FAILED state",
      facts("RECOVER CFSTRUCT (IBM MQ 9.2)"), "Missing check: RECOVER of an active structure goes ahead.",
      mq(**REC), [BK, RECOVER])
fault("rec-purge-keeps", "RECOVERY",
      "recover[s] to empty CF structures. Any messages in the CF structures are lost",
      facts("RECOVER CFSTRUCT (IBM MQ 9.2)"), "TYPE(PURGE) treated like TYPE(NORMAL): persistent messages come back.",
      mq(**REC), [put(persistent=True), FAIL, {"op": "recover", "cfstruct": "APP1", "purge": True}, INSPECT])
fault("rec-no-backup-needed", "RECOVERY",
      "This uses the backup record from Db2 to locate and restore persistent messages from the backup of the CF structure.",
      SEED3, "Missing check: RECOVER TYPE(NORMAL) succeeds with no backup ever taken.",
      mq(**REC), [put(persistent=True), FAIL, RECOVER])
fault("rec-failed-rc-2192", "RECOVERY",
      "2373 MQRC_CF_STRUC_FAILED: the structure has failed.",
      facts("MQRC_CF_STRUC_FAILED (2373)"), "Wrong reason code: a put to a failed structure answers 2192.",
      mq(**REC), [FAIL, put()])

# ================================================================== QUEUE
fault("queue-lifo", "QUEUE",
      "Search for the next retrievable message",
      SEED3, "Wrong end: MQGET takes the newest message.",
      mq(), [put(tag=1), put(tag=2), get()])
fault("queue-uncommitted-visible", "QUEUE",
      "Notify interested queue managers about the arrival of committed messages",
      SEED3, "Uncommitted puts are retrievable by other queue managers.",
      mq(), [put(syncpoint=True, tag=1), get("QM02")])
fault("queue-backout-get-deletes", "QUEUE",
      "Lock uncommitted messages on shared queues",
      SEED3, "A message got under syncpoint is deleted at once, so backout cannot restore it.",
      mq(), [put(tag=1), get(syncpoint=True), {"op": "backout", "qmgr": "QM01"}, get("QM02")])
fault("queue-stop-commits", "QUEUE",
      "Stop a queue manager; its unit of work is backed out (QUEUE-005).",
      PROTO, "Stopping a queue manager commits its unit of work instead of backing it out.",
      mq(), [put(syncpoint=True, tag=1), {"op": "stop_qmgr", "qmgr": "QM01"}, get("QM02")])
fault("queue-shared-np-lost-at-stop", "QUEUE",
      "Messages put on a shared queue are referenced in a coupling facility structure until they are retrieved by an MQGET.",
      SEED3, "Private-queue rule applied to a shared queue: nonpersistent messages vanish when their putter stops.",
      mq(), [put(tag=1), {"op": "stop_qmgr", "qmgr": "QM01"}, get("QM02")])


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "faults.json"), "w") as f:
        json.dump(FAULTS, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("wrote %d faults" % len(FAULTS))
