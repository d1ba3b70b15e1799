#!/usr/bin/env python3
"""Build faults.json: every deliberate fault with the sentence it breaks and a
smallest scenario on which the faulty build and the faithful build differ.

Run:  python3 make_faults.py      (writes faults.json next to this file)
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

F000 = "000_869f717547e3a89a.txt"   # CQS structure overflow function
F001 = "001_bbb586403b3000fc.txt"   # MQ planning CF and offload storage
F002 = "002_adc847a8fc6c1ca2.txt"   # MQ offload options
F003 = "003_83ac8579f7e0d9f5.txt"   # where shared queue messages are held
F004 = "004_97a0fff9f37ed76b.txt"   # shared queues and queue depth events
FACTS = "ibm-facts.md"
PROTO = "PROTOCOL.md"


# ------------------------------------------------------------------ helpers
def S(name="APP1", **kw):
    d = {"name": name}
    d.update(kw)
    return d


def Q(name="Q1", cfstruct="APP1", **kw):
    d = {"name": name, "cfstruct": cfstruct}
    d.update(kw)
    return d


def mq(structures=None, queues=None, qmgrs=("QM01", "QM02"), **kw):
    cfg = {"profile": "mq", "qsg": "QSG1", "qmgrs": list(qmgrs),
           "structures": structures if structures is not None else [S()],
           "queues": queues if queues is not None else [Q()]}
    cfg.update(kw)
    return cfg


def put(qmgr="QM01", queue="Q1", length=100, tag=1, **kw):
    d = {"op": "put", "qmgr": qmgr, "queue": queue, "length": length, "tag": tag}
    d.update(kw)
    return d


def get(qmgr="QM01", queue="Q1", **kw):
    d = {"op": "get", "qmgr": qmgr, "queue": queue}
    d.update(kw)
    return d


INSPECT = {"op": "inspect"}


def adv(seconds):
    return {"op": "advance_clock", "seconds": seconds}


# CQS: a 512 KB primary with ratio 1 has 170 entries and 170 elements; with
# LGMSGSZ 30000 a 20000-byte message is one part of 40 elements, 15000 bytes
# 30 elements, 2560 bytes 5 elements.  OVFLWMAX(50) is reached at 85 elements;
# the selection target (0.8 x 50% = 40%) is 68 elements.
def CS(name="MSGQ", **kw):
    d = {"name": name, "size_kb": 512, "ratio": 1, "ovflwmax": 50}
    d.update(kw)
    return d


def cqs(structures=None, queues=None, **kw):
    cfg = {"profile": "cqs", "qsg": "IMS1", "qmgrs": ["CQS1"], "lgmsgsz": 30000,
           "structures": structures if structures is not None else [CS()],
           "queues": queues if queues is not None else
           [Q("TRANA", "MSGQ"), Q("TRANB", "MSGQ"), Q("TRANC", "MSGQ")]}
    cfg.update(kw)
    return cfg


def cput(queue="TRANA", length=20000, tag=1):
    return {"op": "put", "qmgr": "CQS1", "queue": queue, "length": length, "tag": tag}


def cget(queue="TRANA"):
    return {"op": "get", "qmgr": "CQS1", "queue": queue}


def outcome(success, size_kb=None):
    d = {"op": "alter_outcome", "cfstruct": "MSGQ", "success": success}
    if size_kb is not None:
        d["size_kb"] = size_kb
    return d


# A on 80 elements, B on 5: reaches 85 (alter), selection takes A only.
CQS_AB = [cput("TRANA", 20000, 1), cput("TRANA", 20000, 2), cput("TRANB", 2560, 3)]
# A 40, B 40, C 30: selection takes A then B (after A usage is 70 > 68).
CQS_ABC = [cput("TRANA", 20000, 1), cput("TRANB", 20000, 2), cput("TRANC", 15000, 3)]

FAULTS = []


def fault(fid, family, source, sentence, description, config, ops):
    FAULTS.append({"id": fid, "family": family, "sentence": sentence, "source": source,
                   "description": description, "scenario": {"config": config, "ops": ops}})


# ================================================================ OFFLOAD
C5 = S(cflevel=5)
fault("OFF_SIZE_ONLY", "OFFLOAD", F002,
      "If the coupling facility structure is more than 70% full offload data for messages "
      "exceeding 32 KB",
      "An offload rule fires when the message exceeds OFFLDnSZ even though the structure is not "
      "OFFLDnTH full (the APAR PI21909 defect).",
      mq([C5]), [put(length=40000)])
fault("OFF_TH_ONLY", "OFFLOAD", F002,
      "If the coupling facility structure is more than 80% full offload data for messages "
      "exceeding 4 KB",
      "An offload rule fires once the usage threshold is met, whatever the message size.",
      mq([S(cflevel=5, offld1th=0)]), [put(length=100)])
fault("OFF_PAIR_SWAP", "OFFLOAD", F002,
      "These parameters are a corresponding coupling facility structure usage threshold "
      "percentage ( OFFLDnTH ) and a message size limit ( OFFLDnSZ ).",
      "Rule 1's threshold is paired with rule 2's size limit (and rule 2's with rule 1's).",
      mq([S(cflevel=5, offld1th=0)]), [put(length=5000)])
fault("OFF_64K_DISABLES_ALL", "OFFLOAD", F002,
      "In this case messages will only be offloaded if another offload rule is in effect, or if "
      "the message is greater than 63.75 KB and so, too large to store in the structure.",
      "A rule set to OFFLDnSZ(64K) switches off the other rules too.",
      mq([S(cflevel=5, offld1th=0, offld2sz=65536)]), [put(tag=1), put(length=40000, tag=2)])
fault("OFF_NO_FORCED", "OFFLOAD", F001,
      "Messages which are too large to store in the coupling facility (that is, larger than 63 "
      "KB) must always be offloaded, and smaller messages can optionally be offloaded to reduce "
      "coupling facility space usage.",
      "At CFLEVEL(5) a message too large for the structure stays in the CF when no rule matches.",
      mq([C5]), [put(length=70000)])
fault("OFF_CF4_RULES", "OFFLOAD", F003,
      "However, with CFLEVEL(5) you can use the offload parameters to offload data for messages "
      "less than 63 KB thereby increasing the number of messages which can be stored in the "
      "structure, although each message still requires at least a coupling facility entry plus "
      "at least 512 bytes of data.",
      "The OFFLDn rules are applied at CFLEVEL(4) as well (a rule at the wrong CFLEVEL).",
      mq([S(cflevel=4, offld1th=0)]), [put(length=40000)])
fault("OFF_DEFAULT_DB2", "OFFLOAD", F002, "OFFLOAD(SMDS) is the default value.",
      "A CFLEVEL(5) structure without OFFLOAD offloads to Db2.",
      mq([C5]), [put(length=70000)])
fault("OFF_DB2_IGNORED", "OFFLOAD", F002,
      "The selection of SMDS or Db2 shared message storage is controlled with the "
      "OFFLOAD(SMDS|DB2) parameter on the CFSTRUCT definition.",
      "OFFLOAD(DB2) is ignored: data goes to SMDS.",
      mq([S(cflevel=5, offload="DB2")]), [put(length=70000)])
fault("OFF_CF4_SMDS", "OFFLOAD", F003,
      "5 - can be used for persistent and nonpersistent messages up to 100 MB and selectively "
      "offloaded to shared message data sets (SMDS) or Db2.",
      "Large messages on a CFLEVEL(4) structure go to SMDS, which only CFLEVEL(5) offers.",
      mq([S(cflevel=4)]), [put(length=70000)])
fault("OFF_COST_FULL", "OFFLOAD", F002,
      "Using this mechanism means the amount of coupling facility element storage required for "
      "each message is only a fraction of the actual size of the message.",
      "An offloaded message is charged as many CF elements as if its data were in the CF.",
      mq([C5]), [put(length=70000)])
fault("OFF_COST_NO_ENTRY", "OFFLOAD", F002,
      "Every shared queue message is still managed using a list entry in a coupling facility "
      "structure, but when the message data is offloaded to the SMDS, the coupling facility "
      "entry only contains some control information and a list of references to the relevant "
      "disk blocks where the message is stored.",
      "An offloaded message takes no list entry in the structure.",
      mq([C5]), [put(length=70000)])
fault("OFF_USAGE_AFTER", "OFFLOAD", F002,
      "Message data is offloaded to SMDS or Db2 based on the size of the message data, and the "
      "current usage of the coupling facility structure.",
      "The rules compare the usage the structure would have after this message, not its current "
      "usage.",
      mq([S(cflevel=5, size_kb=1024, offld1th=1)]), [put(length=40000)])
fault("OFF_RULE3_SKIPPED", "OFFLOAD", F002,
      "There are three rules, and each rule specifies a matching pair of parameters.",
      "Only rules 1 and 2 are evaluated; OFFLD3TH/OFFLD3SZ have no effect.",
      mq([S(cflevel=5, offld3th=0)]), [put(tag=1), put(length=100, tag=2)])
fault("OFF_ALTER_RESETS", "OFFLOAD", FACTS,
      "ALTER CFSTRUCT has the same offload keywords and no defaults; keywords not specified are "
      "left unchanged.",
      "ALTER CFSTRUCT puts every offload keyword it does not name back to its default.",
      mq([S(cflevel=5, offld1th=0)]),
      [put(tag=1), {"op": "alter_structure", "name": "APP1", "changes": {"offld2th": 85}},
       put(length=40000, tag=2)])
fault("OFF_DEFINE_LOWLEVEL", "OFFLOAD", F002,
      "This parameter also requires the CFSTRUCT to use CFLEVEL(5) or greater.",
      "DEFINE CFSTRUCT accepts OFFLOAD on a CFLEVEL(4) structure.",
      mq(), [{"op": "define_structure", "structure": S("APP2", cflevel=4, offload="SMDS")}])

# ================================================================ CFLEVEL
fault("CFL_PERSIST_L4", "CFLEVEL", F003,
      "3 - can be used for persistent and nonpersistent messages less than 63 KB",
      "Persistent messages are refused below CFLEVEL(4) (the rule applied one level too high).",
      mq([S(cflevel=3, recover=True)]), [put(persistent=True)])
fault("CFL_RECOVER_NO_PERSIST", "CFLEVEL", FACTS,
      "On z/OS, you cannot put persistent messages to a shared queue if the CFSTRUCT that the "
      "queue uses is defined with RECOVER(NO).",
      "A persistent put to a RECOVER(NO) structure succeeds.",
      mq([S(cflevel=3, recover=False)]), [put(persistent=True)])
fault("CFL_LARGE_L3", "CFLEVEL", F003,
      "4 - can be used for persistent and nonpersistent messages up to 100 MB",
      "A message too large for the structure is accepted (kept in the CF) at CFLEVEL(3).",
      mq([S(cflevel=3)]), [put(length=70000)])
fault("CFL_DECREASE_UNGUARDED", "CFLEVEL", FACTS,
      "Decrease from 3 or from 4 only if every queue referencing the structure is empty (no "
      "messages and no uncommitted activity) and closed.",
      "CFLEVEL is lowered from 4 while a queue on the structure holds a message.",
      mq([S(cflevel=4)]),
      [put(), {"op": "alter_structure", "name": "APP1", "changes": {"cflevel": 3}}])
fault("CFL_DECREASE_UNCOMMITTED", "CFLEVEL", FACTS,
      "empty (no messages and no uncommitted activity)",
      "The CFLEVEL decrease guard only counts committed messages.",
      mq([S(cflevel=4)]),
      [put(syncpoint=True), {"op": "alter_structure", "name": "APP1", "changes": {"cflevel": 3}}])
fault("CFL_RANGE6", "CFLEVEL", F003,
      "CF structures have a CFLEVEL attribute that determines their functional capability:",
      "DEFINE CFSTRUCT accepts CFLEVEL(6), a level with no defined capability.",
      mq(), [{"op": "define_structure", "structure": S("APP2", cflevel=6)}])
fault("CFL_MAXMSGL_100MB", "CFLEVEL", FACTS,
      "Queue-manager MaxMsgLength ranges from 32 KB (32 768) to **100 MB (104 857 600 bytes)**.",
      "DEFINE QLOCAL accepts a MAXMSGL above 100 MB.",
      mq(), [{"op": "define_queue", "queue": Q("Q2", maxmsgl=104857601)}])

# ================================================================ CAPACITY
TWO_ENTRIES = S(size_kb=1024, ratio=200, fullthreshold=50)   # 2 entries, 400 elements
fault("CAP_FULL_ELEMENTS_ONLY", "CAPACITY", FACTS,
      "\"A structure is full if either all ENTRYs or all ELEMENTs are in use.\"",
      "A put succeeds although every list entry is in use (only elements are checked).",
      mq([TWO_ENTRIES]), [put(tag=1), put(tag=2), put(tag=3)])
fault("CAP_FULL_RC", "CAPACITY", F001,
      "If no action is taken and a queue structure fills up, an MQRC_STORAGE_MEDIUM_FULL return "
      "code is returned to the application.",
      "A full structure answers MQRC_Q_FULL (2053) instead of 2192.",
      mq([TWO_ENTRIES]), [put(tag=1), put(tag=2), put(tag=3)])
fault("CAP_QFULL_OFFBYONE", "CAPACITY", FACTS,
      "already contains the maximum number of messages possible",
      "The put is refused only when depth exceeds MAXDEPTH, so depth == MAXDEPTH still accepts.",
      mq(queues=[Q(maxdepth=1)]), [put(tag=1), put(tag=2)])
fault("CAP_IXC585_STRICT", "CAPACITY", FACTS,
      "IXC585E is issued when entries **or** elements in use *reach* FULLTHRESHOLD (≥); IXC586I "
      "when they fall below.",
      "IXC585E only when usage is above FULLTHRESHOLD, not when it reaches it.",
      mq([TWO_ENTRIES]), [put(), adv(1), INSPECT])
fault("CAP_IXC_ELEMENTS_ONLY", "CAPACITY", FACTS,
      "IXC585E is issued when the number of **entries or elements** in use reaches "
      "FULLTHRESHOLD; IXC586I when usage goes back below it.",
      "Structure full monitoring looks at elements only.",
      mq([TWO_ENTRIES]), [put(), adv(1), INSPECT])
fault("CAP_FT0", "CAPACITY", FACTS, "FULLTHRESHOLD(0) disables monitoring.",
      "FULLTHRESHOLD(0) is taken as a 0% threshold: IXC585E at once.",
      mq([S(fullthreshold=0)]), [put(), adv(1), INSPECT])
fault("CAP_IXC586_MISSING", "CAPACITY", F001,
      "FULLTHRESHOLD sets the percentage value of the threshold at which z/OS® issues message "
      "IXC585E to indicate that the structure is getting full.",
      "No IXC586I is issued when usage falls back below FULLTHRESHOLD (the warning is cleared "
      "silently).",
      mq([TWO_ENTRIES]), [put(), adv(1), get(), adv(1)])
fault("CAP_SETXCF_ABOVE_SIZE", "CAPACITY", F001,
      "SIZE is the maximum size that the structure can attain.",
      "SETXCF START,ALTER to a size above SIZE is accepted.",
      mq([S(size_kb=2048, initsize_kb=1024)]),
      [{"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 4096}])
fault("CAP_SETXCF_NO_EFFECT", "CAPACITY", F001,
      "alters the size of the structure to newsize, where newsize is a value that is less than "
      "the value of SIZE specified on the CFRM policy for the structure, but greater than the "
      "current coupling facility size.",
      "An accepted SETXCF alter leaves the structure's size and capacity unchanged.",
      mq([S(size_kb=2048, initsize_kb=1024)]),
      [{"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 1536}])
fault("CAP_INITSIZE", "CAPACITY", F001,
      "INITSIZE is the size in KB that the structure is allocated with when the first queue "
      "manager connects to it.",
      "The structure is allocated at SIZE rather than INITSIZE.",
      mq([S(size_kb=2048, initsize_kb=1024)]), [INSPECT])

# ================================================================ TOPOLOGY / ADMIN
Q512 = [Q("Q%03d" % i) for i in range(512)]
S63 = [S("APP%02d" % i) for i in range(63)]
S62 = [S("CSQSYSAPPL")] + [S("APP%02d" % i) for i in range(62)]
fault("TOP_513", "TOPOLOGY", F003,
      "A single coupling facility list structure can contain up to 512 shared queues.",
      "A 513th shared queue is accepted on one structure.",
      mq(queues=Q512), [{"op": "define_queue", "queue": Q("Q512")}])
fault("TOP_512TH", "TOPOLOGY", F001, "Each structure can hold up to 512 shared queues.",
      "The limit is applied one early: the 512th queue on a structure is refused.",
      mq(queues=Q512[:511]), [{"op": "define_queue", "queue": Q("Q511")}])
fault("TOP_64STRUCT", "TOPOLOGY", F001,
      "A queue sharing group can connect to up to 64 coupling facility structures.",
      "A 64th application structure is accepted (forgetting that CSQ_ADMIN is one of the 64).",
      mq(S63, queues=[]), [{"op": "define_structure", "structure": S("EXTRA")}])
fault("TOP_SYSAPPL", "TOPOLOGY", F001,
      "You can use up to 63 (62 if qsg-nameCSQSYSAPPL is defined) structures for message data.",
      "CSQSYSAPPL is not counted, so 63 message structures are allowed beside it.",
      mq(S62, queues=[]), [{"op": "define_structure", "structure": S("EXTRA")}])
fault("TOP_CFNAME_PAD", "TOPOLOGY", FACTS,
      "A short name is padded with `@` to 4 characters when it forms structure names (see 2.6).",
      "The CFRM structure name uses a short QSG name without @ padding.",
      mq(qsg="QS"), [INSPECT])
fault("TOP_NAME_LEN", "TOPOLOGY", FACTS,
      "Structure name: **≤ 12 characters; starts with an uppercase letter A–Z; only A–Z and 0–9.**",
      "DEFINE CFSTRUCT accepts a 13-character name.",
      mq(), [{"op": "define_structure", "structure": S("ABCDEFGHIJKLM")}])
fault("TOP_ADMIN_ROW", "TOPOLOGY", F001,
      "Table 1 shows the minimum required size for the administrative structure for various "
      "numbers of queue managers defined in the queue sharing group.",
      "CSQ_ADMIN is sized from the Table 1 row for one queue manager fewer.",
      mq(), [INSPECT])
fault("TOP_ADMIN_CHECK", "TOPOLOGY", F001,
      "When a queue manager starts, the structure is checked to see if it is large enough for the "
      "number of queue managers currently defined to the queue sharing group.",
      "A CSQ_ADMIN smaller than Table 1 requires for the group is accepted.",
      mq(admin_size_kb=6144), [INSPECT])
fault("TOP_QSG_LEN", "TOPOLOGY", FACTS,
      "QSG name: \"**up to four characters**\", unique in the network, and different from any "
      "queue manager name.",
      "A five-character queue-sharing group name is accepted.",
      mq(qsg="QSGAB"), [INSPECT])
fault("TOP_QSG_EQ_QMGR", "TOPOLOGY", FACTS,
      "different from any queue manager name",
      "A queue-sharing group named like one of its queue managers is accepted.",
      mq(qsg="QM01"), [INSPECT])
fault("ADM_FT_RANGE", "ADMIN", FACTS,
      "FULLTHRESHOLD valid values are 0–100 (decimal), default 80, where 0 means no monitoring "
      "or auto-alter.",
      "DEFINE accepts FULLTHRESHOLD(101).",
      mq(), [{"op": "define_structure", "structure": S("APP2", fullthreshold=101)}])
fault("ADM_QDEPTH_RANGE", "ADMIN", FACTS,
      "Limits are expressed as a **percentage of MaxQDepth**, an integer 0 ≤ v ≤ 100.",
      "ALTER QLOCAL accepts QDEPTHHI(101).",
      mq(), [{"op": "alter_queue", "name": "Q1", "changes": {"qdepthhi": 101}}])

# ================================================================ EVENTS (QDEPTH)
QM3 = ("QM01", "QM02", "QM03")
HI1 = Q(maxdepth=10, qdepthhi=10, qdphiev=True)            # Queue Depth High at depth 1
fault("EV_HI_STRICT", "EVENTS", FACTS,
      "has caused the queue depth to be incremented to, or greater than",
      "Queue Depth High needs the depth to exceed QDEPTHHI, not reach it.",
      mq(queues=[Q(maxdepth=10, qdepthhi=50, qdphiev=True)]),
      [put(tag=i) for i in range(1, 6)])
fault("EV_LO_STRICT", "EVENTS", FACTS,
      "has caused the queue depth to be decremented to, or less than",
      "Queue Depth Low needs the depth to fall below QDEPTHLO, not reach it.",
      mq(queues=[Q(maxdepth=10, qdepthlo=20, qdploev=True)]),
      [put(tag=1), put(tag=2), put(tag=3), get()])
fault("EV_SHARED_PERFMEV_GATES", "EVENTS", F004,
      "A key difference is that events are switched on for shared queues even if PERFMEV is "
      "DISABLED on the queue manager.",
      "On a shared queue the event attributes switch only when the detecting queue manager has "
      "PERFMEV(ENABLED).",
      mq(queues=[HI1], perfmev_disabled=["QM01"]), [put(), INSPECT])
fault("EV_NONSHARED_TOGGLE", "EVENTS", F004,
      "In contrast the attributes for LQ1 remain unchanged until PERFMEV on the queue manager is "
      "ENABLED.",
      "A nonshared queue's event attributes switch although PERFMEV is DISABLED.",
      mq(queues=[Q("LQ1", None, qmgr="QM01", maxdepth=10, qdepthhi=10, qdphiev=True)],
         perfmev_disabled=["QM01"]),
      [put(queue="LQ1"), INSPECT])
fault("EV_NO_BROADCAST", "EVENTS", F004,
      "Broadcasts to all other active queue managers in the same queue-sharing group to request "
      "the production of an event message for the shared queue.",
      "Only the coordinating queue manager issues an event message.",
      mq(queues=[HI1]), [put()])
fault("EV_INACTIVE_ISSUE", "EVENTS", F004,
      "When performance events occur on a shared queue, n event messages are produced, where n is "
      "a number from 1 to the number of active queue managers in the queue-sharing group.",
      "A stopped queue manager still issues an event message.",
      mq(queues=[HI1]), [{"op": "stop_qmgr", "qmgr": "QM02"}, put()])
fault("EV_DISABLED_ISSUE", "EVENTS", F004,
      "If PERFMEV is set to DISABLED on some of the queue managers, event messages are not "
      "produced by those queue managers, making event monitoring from an application more "
      "difficult.",
      "A queue manager with PERFMEV(DISABLED) issues an event message.",
      mq(queues=[HI1], perfmev_disabled=["QM02"]), [put()])
fault("EV_CORREL_DIFF", "EVENTS", F004,
      "The message descriptor (MQMD) of this event message contains the unique correlation "
      "identifier (CorrelId) specified by the coordinating queue manager.",
      "Each queue manager's event message gets its own CorrelId.",
      mq(queues=[HI1]), [put()])
fault("EV_STATS_NOT_RESET", "EVENTS", F004,
      "Issues an event message that captures all shared queue performance data it has gathered "
      "since the last time an event message was created, or since the queue statistics were last "
      "reset.",
      "The counts are not restarted after an event message, so the next one repeats them.",
      mq(queues=[Q(maxdepth=10, qdepthhi=10, qdepthlo=0, qdphiev=True)]), [put(), get()])
fault("EV_STATS_GLOBAL", "EVENTS", F004,
      "This event message that each queue manager generates represents its individual usage of "
      "the shared queue.",
      "Every event message carries the whole group's counts for the queue.",
      mq(queues=[Q(maxdepth=10, qdepthhi=20, qdphiev=True)]), [put("QM02", tag=1), put(tag=2)])
fault("EV_WRONG_COORDINATOR", "EVENTS", F004,
      "After updating the shared queue object successfully, the queue manager that detected the "
      "performance event initially becomes the coordinating queue manager.",
      "The first queue manager of the group coordinates instead of the one that detected the "
      "event, so the event messages start on the wrong queue manager.",
      mq(queues=[HI1]), [put("QM02")])
fault("EV_HI_NO_QFULL_ENABLE", "EVENTS", F004,
      "For example, depending on the definition of the queue attributes, a Queue Depth High event "
      "enables a Queue Depth Low and a Queue Full event.",
      "Queue Depth High enables Queue Depth Low but not Queue Full.",
      mq(queues=[HI1]), [put(), INSPECT])
fault("EV_HI_NOT_DISABLED", "EVENTS", F004,
      "If messages are placed on both queues so that the depth meets or exceeds the QDEPTHHI "
      "threshold, the QDPHIEV value on SQ1 switches to DISABLED.",
      "Queue Depth High leaves QDPHIEV enabled, so it fires again on the next put.",
      mq(queues=[HI1]), [put(tag=1), put(tag=2)])
fault("EV_LO_NO_HI_ENABLE", "EVENTS", FACTS,
      "A Queue Depth High event is automatically enabled by a Queue Depth Low event",
      "Queue Depth Low does not re-enable Queue Depth High.",
      mq(queues=[Q(maxdepth=10, qdepthlo=50, qdploev=True)]), [put(), get(), INSPECT])
fault("EV_QFULL_NO_LO_ENABLE", "EVENTS", FACTS,
      "A Queue Depth Low event is automatically enabled by a Queue Depth High event or a Queue "
      "Full event",
      "Queue Full does not enable Queue Depth Low.",
      mq(queues=[Q(maxdepth=1, qdpmaxev=True)]), [put(tag=1), put(tag=2), INSPECT])
fault("EV_QFULL_ON_SUCCESS", "EVENTS", FACTS,
      "the first message that cannot be put on the queue because the queue is full",
      "Queue Full is raised by the put that fills the queue, not by the first refused put.",
      mq(queues=[Q(maxdepth=1, qdpmaxev=True)]), [put()])
fault("EV_SYNCPOINT_SUPPRESS", "EVENTS", FACTS,
      "MQPUT/MQGET inside a unit of work generate performance events whether the unit of work "
      "commits or backs out.",
      "A put inside a unit of work generates no queue depth event.",
      mq(queues=[HI1]), [put(syncpoint=True)])
fault("EV_BACKOUT_RESTORES", "EVENTS", FACTS, "A rollback does not restore the enable flags.",
      "Backing out a unit of work restores the queue's event enable flags.",
      mq(queues=[HI1]), [put(syncpoint=True), {"op": "backout", "qmgr": "QM01"}, INSPECT])
fault("EV_RESET_ALL_QMGRS", "EVENTS", F004,
      "The event message that is issued contains information about all the operations performed "
      "by the receiving (active) queue manager since the last time an event message was created, "
      "or since the statistics were last reset.",
      "RESET QSTATS on one queue manager restarts every queue manager's counts.",
      mq(queues=[Q(maxdepth=10, qdepthhi=20, qdphiev=True)]),
      [put("QM02", tag=1), {"op": "reset_qstats", "qmgr": "QM01", "queue": "Q1"}, put(tag=2)])
fault("EV_PERCENT_AS_COUNT", "EVENTS", FACTS, "percentage of MaxQDepth",
      "QDEPTHHI is used as a number of messages instead of a percentage of MAXDEPTH.",
      mq(queues=[Q(maxdepth=10, qdepthhi=20, qdphiev=True)]), [put(tag=1), put(tag=2)])

# ================================================================ RECOVERY
R = S(cflevel=3, recover=True)
BK = {"op": "backup", "qmgr": "QM01", "cfstruct": "APP1"}
FAIL = {"op": "fail_structure", "cfstruct": "APP1"}
REC = {"op": "recover", "cfstruct": "APP1"}
PURGE = {"op": "recover", "cfstruct": "APP1", "purge": True}
fault("REC_NP_RECOVERED", "RECOVERY", FACTS,
      "Non-persistent messages are not backed up and cannot be",
      "Nonpersistent messages are backed up and come back after RECOVER CFSTRUCT.",
      mq([R]), [put(), BK, FAIL, REC, get()])
fault("REC_NO_REPLAY", "RECOVERY", F003,
      "Any activity since the last backup is replayed using the logs of all the queue managers in "
      "the queue-sharing group, and the CF structure is then restored up to the point before the "
      "failure.",
      "RECOVER restores the backup only; later activity is not replayed.",
      mq([R]), [BK, put(persistent=True), FAIL, REC, get()])
fault("REC_REPLAY_ONE_QM", "RECOVERY", FACTS,
      "Recovery restores persistent messages from the last backup, then replays the logs of "
      "**all** queue managers",
      "RECOVER replays only the log of the queue manager that took the backup.",
      mq([R]), [BK, put("QM02", persistent=True), FAIL, REC, get()])
fault("REC_UNCOMMITTED", "RECOVERY", FACTS,
      "Model: after failure followed by RECOVER(NORMAL), the queue contents equal the committed "
      "persistent messages at the failure point.",
      "Persistent messages put in a unit of work still in flight at the failure are recovered.",
      mq([R]), [BK, put(persistent=True, syncpoint=True), FAIL, REC, get("QM02")])
fault("REC_NORMAL_NOT_FAILED", "RECOVERY", FACTS,
      "if TYPE(NORMAL) is specified and the structure has not been flagged as FAILED",
      "RECOVER CFSTRUCT TYPE(NORMAL) is accepted on a structure that has not failed.",
      mq([R]), [BK, REC])
fault("REC_PURGE_KEEPS", "RECOVERY", FACTS, "Any messages in the CF structures are lost",
      "RECOVER TYPE(PURGE) restores the persistent messages instead of emptying the structure.",
      mq([R]), [put(persistent=True), BK, FAIL, PURGE, get()])
fault("REC_BACKUP_RECOVER_NO", "RECOVERY", FACTS,
      "The command fails if the structure has CFLEVEL < 3 or RECOVER(NO).",
      "BACKUP CFSTRUCT is accepted on a RECOVER(NO) structure.",
      mq([S(cflevel=3, recover=False)]), [BK])
fault("REC_RECOVER_RECOVER_NO", "RECOVERY", FACTS, "It fails if CFLEVEL < 3 or RECOVER(NO).",
      "RECOVER CFSTRUCT is accepted on a RECOVER(NO) structure.",
      mq([S(cflevel=3, recover=False)]), [FAIL, PURGE])
fault("REC_NO_BACKUP_OK", "RECOVERY", F003,
      "This uses the backup record from Db2 to locate and restore persistent messages from the "
      "backup of the CF structure.",
      "RECOVER TYPE(NORMAL) succeeds with no backup record.",
      mq([R]), [put(persistent=True), FAIL, REC])
fault("REC_FAILED_RC", "RECOVERY", FACTS, "MQI calls on a FAILED structure get 2373.",
      "MQGET on a failed structure answers 2033 (no message) instead of 2373.",
      mq([R]), [FAIL, get()])
fault("REC_NP_LOST_AT_STOP", "RECOVERY", FACTS,
      "Nonpersistent messages on shared queues survive queue-manager restarts but **not** CF or "
      "structure failure",
      "A queue manager's stop deletes the nonpersistent shared messages it put.",
      mq(), [put(), {"op": "stop_qmgr", "qmgr": "QM01"}, get("QM02")])

# ================================================================ UOW / QUEUE
fault("UOW_UNCOMMITTED_VISIBLE", "UOW", F003, "Lock uncommitted messages on shared queues",
      "A message put in a unit of work can be got before it is committed.",
      mq(), [put(syncpoint=True), get("QM02")])
fault("UOW_STOP_COMMITS", "UOW", PROTO,
      "Stop a queue manager; its unit of work is backed out (QUEUE-005).",
      "Stopping a queue manager commits its unit of work.",
      mq(), [put(syncpoint=True), {"op": "stop_qmgr", "qmgr": "QM01"}, get("QM02")])
fault("UOW_BACKOUT_KEEPS_PUT", "UOW", PROTO, "Back out the queue manager's unit of work.",
      "Backout keeps (commits) the messages put in the unit of work.",
      mq(), [put(syncpoint=True), {"op": "backout", "qmgr": "QM01"}, get()])
fault("QUEUE_LIFO", "QUEUE", F003, "Search for the next retrievable message",
      "MQGET returns the newest message instead of the next one in order.",
      mq(), [put(tag=1), put(tag=2), get()])
fault("QUEUE_NOT_SHARED", "QUEUE", F003,
      "Many queue managers in the same sysplex can access those messages using the CF list "
      "structure.",
      "A shared queue message can only be got by the queue manager that put it.",
      mq(), [put(), get("QM02")])
fault("QUEUE_MAXMSGL_EQ", "QUEUE", FACTS,
      "applies when length > min(queue MaxMsgLength, queue-manager MaxMsgLength)",
      "A message exactly MAXMSGL long is refused with 2030.",
      mq(queues=[Q(maxmsgl=1000)]), [put(length=1000)])

# ================================================================ CQS
fault("CQS_NO_ALTER_FIRST", "CQS", F000,
      "When the usage of a structure reaches the overflow threshold, CQS attempts to make the "
      "structure larger by initiating a structure alter.",
      "Reaching OVFLWMAX puts the structure straight into overflow mode, without an alter.",
      cqs(), [cput(tag=1), cput(tag=2), cput(tag=3)])
fault("CQS_THRESHOLD_STRICT", "CQS", F000,
      "The overflow threshold is the percentage of the primary structure that must be in use "
      "before CQS goes into overflow mode.",
      "Overflow processing starts only above OVFLWMAX, not when usage reaches it.",
      cqs(), [cput(tag=1), cput(tag=2), cput("TRANB", 2560, 3)])
fault("CQS_DEFAULT_80", "CQS", F000,
      "The default overflow threshold is 70%, but you can change the default by defining the "
      "OVFLWMAX parameter in the CQSSGxxx member of the PROCLIB data set.",
      "Without OVFLWMAX the threshold is 80%.",
      cqs([CS(ovflwmax=None)]), [cput(tag=1), cput(tag=2), cput(tag=3)])
fault("CQS_ENTRIES_ONLY", "CQS", FACTS,
      "specifies the percentage of the structure's *elements* that must be in use to trigger CQS "
      "overflow processing",
      "The overflow threshold is compared with list entries only.",
      cqs(), [cput(tag=1), cput(tag=2), cput(tag=3)])
fault("CQS_OVERFLOW_AFTER_SUCCESS", "CQS", F000,
      "If CQS does not succeed in altering a structure's size, the structure goes into overflow "
      "mode.",
      "The structure goes into overflow mode even after a successful alter.",
      cqs([CS(size_kb=1024, initsize_kb=512)]), CQS_AB + [outcome(True)])
fault("CQS_ALTER_NO_GROWTH", "CQS", FACTS,
      "The CQS-initiated alter grows the primary structure from INITSIZE toward SIZE, and "
      "applies **only to the primary structure**.",
      "A successful CQS alter leaves the structure at its old size.",
      cqs([CS(size_kb=1024, initsize_kb=512)]), CQS_AB + [outcome(True)])
fault("CQS_SELECT_LEAST", "CQS", F000,
      "In overflow mode, CQS selects queues using the most space on the structure as candidates "
      "for overflow processing.",
      "Queues using the least space are selected first.",
      cqs(), CQS_AB + [outcome(False)])
fault("CQS_SELECT_ALL", "CQS", F000,
      "CQS stops selecting queues when enough queues have been selected to cause the primary "
      "structure usage to fall 20% below the overflow threshold.",
      "Selection does not stop at the target: every queue holding data is selected.",
      cqs(), CQS_AB + [outcome(False)])
fault("CQS_TARGET_AT_THRESHOLD", "CQS", FACTS,
      "moved to the overflow structure until the data element usage drops by a minimum of 20%",
      "Selection stops as soon as usage would be below the threshold itself, not 20% below it.",
      cqs(queues=[Q("TRAN" + c, "MSGQ") for c in "ABCDEFG"]),
      [cput("TRANA", 22016, 1), cput("TRANB", 8704, 2), cput("TRANC", 8192, 3)]
      + [cput("TRAN" + c, 7680, 4 + i) for i, c in enumerate("DEFG")] + [outcome(False)])
fault("CQS_EXIT_IGNORED", "CQS", F000,
      "CQS drives the Queue Overflow User-Supplied exit routine with the candidate queue names, "
      "which the exit then approves or rejects for overflow processing.",
      "The exit's rejections are ignored: a vetoed queue goes into overflow mode.",
      cqs(overflow_exit=["TRANA"]), CQS_AB + [outcome(False)])
fault("CQS_VETO_STOPS", "CQS", FACTS,
      "A vetoed name is removed from the candidate list and another queue is selected.",
      "A veto ends the selection instead of moving on to the next candidate.",
      cqs(overflow_exit=["TRANA"]), CQS_AB + [outcome(False)])
fault("CQS_NO_EXIT_REJECTS", "CQS", FACTS, "If no exit is defined, every selected queue is approved.",
      "Without an exit, candidates are treated as rejected.",
      cqs(), CQS_AB + [outcome(False)])
fault("CQS_NOSTR_ACCEPTS", "CQS", F000,
      "If an overflow structure is not defined, CQS rejects CQSPUT requests for the approved "
      "queues.",
      "Without an overflow structure, CQSPUT to an approved queue still succeeds.",
      cqs(), CQS_AB + [outcome(False), cput("TRANA", 100, 9)])
fault("CQS_NO_MOVE", "CQS", F000,
      "If an overflow structure is defined, CQS allocates the overflow structure and moves the "
      "data objects associated with the approved queues to the overflow structure.",
      "Approved queues' data objects stay on the primary structure.",
      cqs([CS(ovflwstr="MSGQOVF", ovflw_size_kb=512)]), CQS_AB + [outcome(False), INSPECT])
fault("CQS_STAGING_MOVED", "CQS", F000,
      "Any parts of a message that are on the staging queue remain on the primary structure.",
      "Staging-queue parts of a selected queue's messages move to the overflow structure too.",
      cqs([CS(ovflwstr="MSGQOVF", ovflw_size_kb=512)]),
      [cput("TRANA", 40000, 1), cput("TRANB", 4000, 2), outcome(False), INSPECT])
fault("CQS_STAGING_ELIGIBLE", "CQS", F000, "The staging queue is not eligible for overflow processing.",
      "The staging queue is treated as a candidate and selected first.",
      cqs([CS(ovflwstr="MSGQOVF", ovflw_size_kb=512)]),
      [cput("TRANA", 40000, 1), cput("TRANB", 4000, 2), outcome(False)])
fault("CQS_FIRST_PART_STAGED", "CQS", F000,
      "The first part of a message is placed on the transaction or LTERM ready queue.",
      "The first part of a large message is put on the staging queue too.",
      cqs(), [cput("TRANA", 40000), INSPECT])
fault("CQS_NO_STAGING", "CQS", F000,
      "The second and subsequent parts are placed on a secondary queue called the staging queue.",
      "All parts of a large message stay on the ready queue; nothing goes to the staging queue.",
      cqs(), [cput("TRANA", 40000), INSPECT])
fault("CQS_LGMSG_EQUAL_SPLIT", "CQS", F000,
      "Large messages (messages that exceed the size of a queue manager long message record) are "
      "put on the shared queue structure in multiple parts.",
      "A message exactly as long as the long message record is split.",
      cqs(), [cput("TRANA", 30000), INSPECT])
fault("CQS_LGMSGSZ_NO_ROUND", "CQS", FACTS,
      "Value: a 1–5 digit number of **bytes**, **rounded up to a multiple of 4**.",
      "LGMSGSZ is used as given, not rounded up to a multiple of 4.",
      cqs(lgmsgsz=4097), [cput("TRANA", 4100), INSPECT])
fault("CQS_LGMSGSZ_NO_CAP", "CQS", FACTS, "A larger value is set to 30632.",
      "An LGMSGSZ above 30632 is used as given.",
      cqs(lgmsgsz=40000), [cput("TRANA", 35000), INSPECT])
OVF = cqs([CS(ovflwstr="MSGQOVF", ovflw_size_kb=512)])
fault("CQS_SCAN_10MIN", "CQS", F000, "(The queues are scanned every 15 minutes.)",
      "The overflow scan runs every 10 minutes.",
      OVF, CQS_AB + [outcome(False), cget(), cget(), adv(600)])
fault("CQS_SCAN_IMMEDIATE", "CQS", F000,
      "Because the scan is periodic, empty queues might remain in overflow mode temporarily.",
      "A queue leaves overflow mode as soon as a CQSREAD/CQSDEL empties it.",
      OVF, CQS_AB + [outcome(False), cget(), cget()])
fault("CQS_SCAN_NONEMPTY", "CQS", F000,
      "If an overflow structure is allocated, a queue remains in overflow mode until CQS detects "
      "that there are no more entries in the queue.",
      "The scan returns queues to normal processing even when they still hold messages.",
      OVF, CQS_AB + [outcome(False), adv(900)])
fault("CQS_EXIT_ON_FIRST", "CQS", F000, "When all queues have been removed, CQS exits overflow mode.",
      "Overflow mode ends as soon as the first queue is removed from overflow.",
      OVF, CQS_ABC + [outcome(False), cget("TRANA"), adv(900)])
fault("CQS_NOSTR_EXIT_AT_THRESHOLD", "CQS", F000,
      "If no overflow structure is allocated, CQS exits overflow mode when the primary structure "
      "usage drops 20% below the overflow threshold.",
      "Without an overflow structure, overflow mode ends once usage is below the threshold itself.",
      cqs(), [cput(tag=1), cput(tag=2), cput("TRANB", 2560, 3), cput("TRANB", 2560, 4),
              outcome(False), cget("TRANB"), cget("TRANB")])
fault("CQS_RESOURCE_OVERFLOW", "CQS", F000,
      "Important: Structure overflow is not supported for resource structures.",
      "A resource structure reaching OVFLWMAX starts a structure alter like a queue structure.",
      cqs([CS(resource=True)]), [cput(tag=1), cput(tag=2), cput(tag=3)])


def main():
    ids = [f["id"] for f in FAULTS]
    assert len(ids) == len(set(ids)), "duplicate fault ids"
    with open(os.path.join(HERE, "faults.json"), "w", encoding="utf-8") as fh:
        json.dump(FAULTS, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    print("wrote %d faults" % len(FAULTS))


if __name__ == "__main__":
    main()
