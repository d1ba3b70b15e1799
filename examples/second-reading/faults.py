#!/usr/bin/env python3
"""The fault kit of second-reading: deliberately faulty variants of impl.py.

Each fault breaks exactly one documented sentence. Select one with
`python3 impl.py --fault ID`. `python3 faults.py` rewrites faults.json from the
table below (the scenarios are the smallest traces on which the faulty build's
outcomes differ from the faithful build's in a way the documents decide).
"""
import json
import os

S000 = "seeds/000 (CQS structure overflow function)"
S001 = "seeds/001 (Planning your coupling facility and offload storage environment)"
S002 = "seeds/002 (Specifying offload options for shared messages)"
S003 = "seeds/003 (Where are shared queue messages held?)"
S004 = "seeds/004 (Shared queues and queue depth events)"


def st(**kw):
    d = {"name": "APP1"}
    d.update(kw)
    return d


def qu(**kw):
    d = {"name": "Q1", "cfstruct": "APP1"}
    d.update(kw)
    return d


def mq(structs=None, queues=None, **kw):
    c = {"profile": "mq", "qsg": "QSG1", "qmgrs": ["QM01", "QM02"],
         "structures": structs if structs is not None else [st()],
         "queues": queues if queues is not None else [qu()]}
    c.update(kw)
    return c


def cqs(structs=None, queues=None, **kw):
    c = {"profile": "cqs", "qsg": "QSG1", "qmgrs": ["IMS1", "IMS2"],
         "structures": structs if structs is not None else [st(size_kb=64)],
         "queues": queues if queues is not None else [qu()]}
    c.update(kw)
    return c


def put(length=100, qmgr="QM01", queue="Q1", tag=0, persistent=False, syncpoint=False):
    return {"op": "put", "qmgr": qmgr, "queue": queue, "length": length,
            "persistent": persistent, "syncpoint": syncpoint, "tag": tag}


def get(qmgr="QM01", queue="Q1", syncpoint=False):
    return {"op": "get", "qmgr": qmgr, "queue": queue, "syncpoint": syncpoint}


def cput(length=4000, queue="Q1", tag=0):
    return put(length, "IMS1", queue, tag)


def cget(queue="Q1"):
    return get("IMS1", queue)


INSPECT = {"op": "inspect"}
RULES_OFF = dict(offld1sz=65536, offld2sz=65536, offld3sz=65536)
QD = dict(maxdepth=10, qdepthhi=50, qdepthlo=20)
REC = st(cflevel=3, recover=True)
CQS_SELECT = cqs(queues=[qu(name="QA"), qu(name="QB")])
CQS_SELECT_OPS = [cput(queue="QA", tag=i) for i in range(1, 8)] + \
                 [cput(queue="QB", tag=8), cput(queue="QB", tag=9), cput(queue="QB", tag=10)]


def many_structs(n, extra=()):
    return [st(name=f"S{i:02d}") for i in range(1, n + 1)] + [st(name=x) for x in extra]


FAULTS = [
    # ------------------------------------------------------------------ OFFLOAD
    dict(id="OFF-64K-WRAP", family="OFFLOAD", source=S002,
         sentence="If an offload rule has the OFFLD x SZ value of 64K this indicates that the rule is not in effect.",
         description="OFFLDnSZ kept in a 16-bit field: 64K wraps to 0K, so a disabled rule offloads every message.",
         scenario={"config": mq([st(cflevel=5, offld1th=0, offld2th=0, offld3th=0, **RULES_OFF)]),
                   "ops": [put(100, tag=1)]}, step=0),
    dict(id="OFF-FORCED-64K", family="OFFLOAD", source=S003,
         sentence="Message data exceeding 63 KB is always offloaded to SMDS or Db2.",
         description="Forced offload only above 64 KB (65 536 bytes): a 65 400-byte message stays in the CF.",
         scenario={"config": mq([st(cflevel=5, **RULES_OFF)]), "ops": [put(65400, tag=1)]}, step=0),
    dict(id="OFF-DEST-DB2", family="OFFLOAD", source=S002,
         sentence="The selection of SMDS or Db2 shared message storage is controlled with the OFFLOAD(SMDS|DB2) parameter on the CFSTRUCT definition.",
         description="Offloaded data always goes to Db2, whatever the OFFLOAD keyword says.",
         scenario={"config": mq([st(cflevel=5, offload="SMDS")]), "ops": [put(70000, tag=1)]}, step=0),
    dict(id="OFF-DEFAULT-DB2", family="OFFLOAD", source=S002,
         sentence="OFFLOAD(SMDS) is the default value.",
         description="A CFLEVEL(5) structure without OFFLOAD offloads to Db2 instead of SMDS.",
         scenario={"config": mq([st(cflevel=5)]), "ops": [put(70000, tag=1)]}, step=0),
    dict(id="OFF-RULE-AND", family="OFFLOAD", source=S002,
         sentence="Rule pair 1 OFFLD1TH(70) and OFFLD1SZ(32K) If the coupling facility structure is more than 70% full offload data for messages exceeding 32 KB",
         description="The size test alone triggers a rule (the APAR PI21909 defect): a 40 000-byte message is offloaded into an empty structure.",
         scenario={"config": mq([st(cflevel=5)]), "ops": [put(40000, tag=1)]}, step=0),
    dict(id="OFF-RULE3-IGNORED", family="OFFLOAD", source=S002,
         sentence="There are three rules, and each rule specifies a matching pair of parameters.",
         description="The rule loop stops after rule 2, so OFFLD3TH/OFFLD3SZ never offload anything.",
         scenario={"config": mq([st(cflevel=5, size_kb=64, offld1sz=65536, offld2sz=65536, offld3th=1,
                                    offld3sz=0)]),
                   "ops": [put(2000, tag=1), put(100, tag=2)]}, step=1),
    dict(id="OFF-TH-ZERO", family="OFFLOAD", source=S002,
         sentence="the threshold for the first rule could be set to 0% to offload all such messages. This gives parameters OFFLD1TH(0) and OFFLD1SZ(32K).",
         description="OFFLDnTH(0) is taken as 'rule unset' and never offloads.",
         scenario={"config": mq([st(cflevel=5, offld1th=0, offld1sz=32768, offld2sz=65536, offld3sz=65536)]),
                   "ops": [put(2000, tag=1), put(40000, tag=2)]}, step=1),
    dict(id="OFF-ALTER-RESET", family="OFFLOAD", source="ibm-facts 2.1",
         sentence="ALTER CFSTRUCT has the same offload keywords and no defaults; keywords not specified are left unchanged.",
         description="ALTER CFSTRUCT resets the offload keywords it does not name to their DEFINE defaults.",
         scenario={"config": mq([st(cflevel=5, offld1th=0, offld1sz=1000, offld2sz=65536, offld3sz=65536)]),
                   "ops": [{"op": "alter_structure", "name": "APP1", "changes": {"offld2th": 85}},
                           put(100, tag=1), put(2000, tag=2)]}, step=2),
    dict(id="OFF-OFFLOAD-LOWLEVEL", family="OFFLOAD", source=S002,
         sentence="The OFFLOAD parameter is only valid from CFLEVEL(5).",
         description="DEFINE CFSTRUCT accepts OFFLOAD(SMDS) with CFLEVEL(4).",
         scenario={"config": mq(),
                   "ops": [{"op": "define_structure", "structure": st(name="APP2", cflevel=4, offload="SMDS")}]},
         step=0),
    # ------------------------------------------------------------------ CFLEVEL
    dict(id="CFL-PERSIST-L3", family="CFLEVEL", source=S003,
         sentence="3 - can be used for persistent and nonpersistent messages less than 63 KB",
         description="Persistent puts are refused up to CFLEVEL(3) instead of up to CFLEVEL(2).",
         scenario={"config": mq([REC]), "ops": [put(100, tag=1, persistent=True)]}, step=0),
    dict(id="CFL-PERSIST-L2-OK", family="CFLEVEL", source=S003,
         sentence="1, 2 - can be used for nonpersistent messages less than 63 KB",
         description="A persistent put to a CFLEVEL(2) RECOVER(YES) structure is accepted.",
         scenario={"config": mq([st(cflevel=2, recover=True)]), "ops": [put(100, tag=1, persistent=True)]},
         step=0),
    dict(id="CFL-LARGE-L4", family="CFLEVEL", source=S003,
         sentence="4 - can be used for persistent and nonpersistent messages up to 100 MB",
         description="Messages over 63 KB are refused below CFLEVEL(5) instead of below CFLEVEL(4).",
         scenario={"config": mq([st(cflevel=4)]), "ops": [put(70000, tag=1)]}, step=0),
    dict(id="CFL-LARGE-L3-OK", family="CFLEVEL", source="ibm-facts 3.2",
         sentence="an MQPUT or MQPUT1 call was issued with a message that was bigger than 63 KB in length, and the shared queue was using an IBM MQ CFSTRUCT with a CFLEVEL of less than 4.",
         description="A 70 000-byte put to a CFLEVEL(3) structure is accepted (stored in Db2) instead of MQRC_WRONG_CF_LEVEL.",
         scenario={"config": mq([st(cflevel=3)]), "ops": [put(70000, tag=1)]}, step=0),
    dict(id="CFL-RECOVER-NO-RC", family="CFLEVEL", source="ibm-facts 3.1",
         sentence="On z/OS, you cannot put persistent messages to a shared queue if the CFSTRUCT that the queue uses is defined with RECOVER(NO).",
         description="A persistent put to a CFLEVEL(3) RECOVER(NO) structure returns 2366 instead of 2048 MQRC_PERSISTENT_NOT_ALLOWED.",
         scenario={"config": mq([st(cflevel=3, recover=False)]), "ops": [put(100, tag=1, persistent=True)]},
         step=0),
    dict(id="CFL-DECREASE-UNGUARDED", family="CFLEVEL", source="ibm-facts 2.6",
         sentence="Decrease from 3 or from 4 only if every queue referencing the structure is empty (no messages and no uncommitted activity) and closed.",
         description="ALTER CFSTRUCT lowers CFLEVEL(4) to 3 while a queue on it holds a message.",
         scenario={"config": mq([st(cflevel=4)]),
                   "ops": [put(100, tag=1), {"op": "alter_structure", "name": "APP1", "changes": {"cflevel": 3}}]},
         step=1),
    dict(id="CFL-RULES-L4", family="CFLEVEL", source=S003,
         sentence="5 - can be used for persistent and nonpersistent messages up to 100 MB and selectively offloaded to shared message data sets (SMDS) or Db2.",
         description="The offload rules are applied at CFLEVEL(4) too, so small messages are offloaded.",
         scenario={"config": mq([st(cflevel=4, offld1th=0, offld1sz=0)]), "ops": [put(100, tag=1)]},
         step=0),
    # ------------------------------------------------------------------ CAPACITY
    dict(id="CAP-FULL-ENTRIES-ONLY", family="CAPACITY", source="ibm-facts 3.3",
         sentence="A structure is full if either all ENTRYs or all ELEMENTs are in use.",
         description="Only the entry pool is checked: a message needing more elements than are free is stored.",
         scenario={"config": mq([st(size_kb=64)]), "ops": [put(60000, tag=1)]}, step=0),
    dict(id="CAP-FULL-ELEMENTS-ONLY", family="CAPACITY", source="ibm-facts 3.3",
         sentence="A structure is full if either all ENTRYs or all ELEMENTs are in use.",
         description="Only the element pool is checked: a put is stored when every list entry is in use.",
         scenario={"config": mq([st(size_kb=64, ratio=64)]), "ops": [put(0, tag=1), put(0, tag=2)]}, step=1),
    dict(id="CAP-FULL-RC", family="CAPACITY", source=S001,
         sentence="If no action is taken and a queue structure fills up, an MQRC_STORAGE_MEDIUM_FULL return code is returned to the application.",
         description="A put to a full structure returns 2053 MQRC_Q_FULL instead of 2192.",
         scenario={"config": mq([st(size_kb=64)]), "ops": [put(60000, tag=1)]}, step=0),
    dict(id="CAP-IXC585-STRICT", family="CAPACITY", source="ibm-facts 1.8",
         sentence="IXC585E is issued when the number of entries or elements in use reaches FULLTHRESHOLD",
         description="IXC585E only when usage exceeds FULLTHRESHOLD, not when it reaches it.",
         scenario={"config": mq([st(size_kb=15, ratio=1, fullthreshold=10)]),
                   "ops": [put(0, tag=1), put(0, tag=2)]}, step=1),
    dict(id="CAP-IXC586-MISSING", family="CAPACITY", source="ibm-facts 1.8",
         sentence="IXC586I when usage goes back below it.",
         description="No IXC586I when usage falls back below FULLTHRESHOLD.",
         scenario={"config": mq([st(size_kb=15, ratio=1, fullthreshold=10)]),
                   "ops": [put(0, tag=1), put(0, tag=2), get()]}, step=2),
    dict(id="CAP-FT0", family="CAPACITY", source="ibm-facts 1.8",
         sentence="FULLTHRESHOLD(0) disables monitoring.",
         description="FULLTHRESHOLD(0) is compared like any other value, so IXC585E comes with the first put.",
         scenario={"config": mq([st(fullthreshold=0)]), "ops": [put(100, tag=1)]}, step=0),
    dict(id="CAP-SETXCF-ABOVE-SIZE", family="CAPACITY", source=S001,
         sentence="alters the size of the structure to newsize, where newsize is a value that is less than the value of SIZE specified on the CFRM policy for the structure",
         description="SETXCF START,ALTER accepts a size above the policy SIZE.",
         scenario={"config": mq([st(size_kb=8192, initsize_kb=4096)]),
                   "ops": [{"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 9000}]}, step=0),
    # ------------------------------------------------------------------ TOPOLOGY
    dict(id="TOP-512", family="TOPOLOGY", source=S001,
         sentence="Each structure can hold up to 512 shared queues.",
         description="Off by one: a 513th queue is defined on a structure.",
         scenario={"config": mq(queues=[qu(name=f"Q{i:03d}") for i in range(1, 513)]),
                   "ops": [{"op": "define_queue", "queue": qu(name="Q513")}]}, step=0),
    dict(id="TOP-64-STRUCTS", family="TOPOLOGY", source=S001,
         sentence="A queue sharing group can connect to up to 64 coupling facility structures. One of these structures must be the administration structure.",
         description="The administration structure is not counted: a 64th application structure is defined.",
         scenario={"config": mq(many_structs(63), queues=[qu(cfstruct="S01")]),
                   "ops": [{"op": "define_structure", "structure": st(name="S64")}]}, step=0),
    dict(id="TOP-SYSAPPL-UNCOUNTED", family="TOPOLOGY", source=S001,
         sentence="You can use up to 63 (62 if qsg-nameCSQSYSAPPL is defined) structures for message data.",
         description="CSQSYSAPPL is not counted, so 63 message structures are allowed beside it.",
         scenario={"config": mq(many_structs(62, ["CSQSYSAPPL"]), queues=[qu(cfstruct="S01")]),
                   "ops": [{"op": "define_structure", "structure": st(name="S63")}]}, step=0),
    dict(id="TOP-ADMIN-DEFINABLE", family="TOPOLOGY", source=S001,
         sentence="It has a fixed name of qsg-nameCSQ_ADMIN (where qsg-name is the name of your queue sharing group). ... No user data is held in this structure.",
         description="The structure-name check lets '_' through, so DEFINE CFSTRUCT(CSQ_ADMIN) succeeds.",
         scenario={"config": mq(), "ops": [{"op": "define_structure", "structure": st(name="CSQ_ADMIN")}]},
         step=0),
    dict(id="TOP-NAME-LEN", family="TOPOLOGY", source="ibm-facts 2.6",
         sentence="Structure name: <= 12 characters; starts with an uppercase letter A-Z; only A-Z and 0-9.",
         description="Structure names of up to 16 characters are accepted (the QSG prefix is forgotten).",
         scenario={"config": mq(), "ops": [{"op": "define_structure", "structure": st(name="ABCDEFGHIJKLM")}]},
         step=0),
    dict(id="TOP-NAME-DIGIT", family="TOPOLOGY", source="ibm-facts 2.6",
         sentence="Structure name: <= 12 characters; starts with an uppercase letter A-Z; only A-Z and 0-9.",
         description="A structure name may start with a digit.",
         scenario={"config": mq(), "ops": [{"op": "define_structure", "structure": st(name="1APP")}]}, step=0),
    dict(id="TOP-QUEUE-NO-STRUCT", family="TOPOLOGY", source="ibm-facts 2.6",
         sentence="The structure must also be in the CFRM policy before any queue can use it.",
         description="DEFINE QLOCAL QSGDISP(SHARED) accepts a CFSTRUCT that is not defined.",
         scenario={"config": mq(), "ops": [{"op": "define_queue", "queue": qu(name="Q2", cfstruct="NOPE")}]},
         step=0),
    dict(id="TOP-CFNAME-NOPAD", family="TOPOLOGY", source="ibm-facts 2.6; " + S003,
         sentence="It is prefixed by the QSG name, \"always four characters, padded with @ symbols if necessary\" "
                  "(for example NY03 + PRODUCT7 -> NY03PRODUCT7). / CFSTRUCT(MYDATA) defined in queue-sharing "
                  "group starting with SQ03 would use coupling facility list structure SQ03MYDATA.",
         description="The CFRM structure name is the QSG name as is, not padded with @: QSG QS and APP1 give QSAPP1 "
                     "instead of QS@@APP1.",
         scenario={"config": mq(qsg="QS"), "ops": [INSPECT]}, step=0),
    dict(id="TOP-ADMIN-SMALL", family="TOPOLOGY", source=S001,
         sentence="The administrative structure (qsg-nameCSQ_ADMIN) must be large enough to contain 1000 list "
                  "entries for each queue manager in the queue sharing group.",
         description="CSQ_ADMIN's list entries are charged like an application structure's (one entry plus six "
                     "elements), so at Table 1's size for 3 queue managers it offers 2454 entries, fewer than 3000.",
         scenario={"config": mq(qmgrs=["QM01", "QM02", "QM03"]), "ops": [INSPECT]}, step=0),
    # ------------------------------------------------------------------ QDEPTH
    dict(id="QD-HI-STRICT", family="QDEPTH", source="ibm-facts 4.1",
         sentence="Queue Depth High: an MQPUT/MQPUT1 \"has caused the queue depth to be incremented to, or greater than\" the QDepthHighLimit",
         description="Queue Depth High fires only above the limit, not on reaching it.",
         scenario={"config": mq(queues=[qu(qdphiev=True, **QD)]), "ops": [put(tag=i) for i in range(1, 6)]},
         step=4),
    dict(id="QD-LO-STRICT", family="QDEPTH", source="ibm-facts 4.1",
         sentence="Queue Depth Low: an MQGET \"has caused the queue depth to be decremented to, or less than\" the QDepthLowLimit",
         description="Queue Depth Low fires only below the limit, not on reaching it.",
         scenario={"config": mq(queues=[qu(qdploev=True, **QD)]),
                   "ops": [put(tag=1), put(tag=2), put(tag=3), get()]}, step=3),
    dict(id="QD-NO-TOGGLE-LO", family="QDEPTH", source=S004,
         sentence="depending on the definition of the queue attributes, a Queue Depth High event enables a Queue Depth Low and a Queue Full event.",
         description="Queue Depth High disables QDPHIEV and enables QDPMAXEV but forgets QDPLOEV.",
         scenario={"config": mq(queues=[qu(qdphiev=True, **QD)]),
                   "ops": [put(tag=i) for i in range(1, 6)] + [INSPECT]}, step=5),
    dict(id="QD-FULL-NOT-RESET", family="QDEPTH", source="ibm-facts 4.3",
         sentence="Queue Full | unchanged ... | -> ENABLED | -> DISABLED",
         description="A Queue Full event does not disable QDPMAXEV, so every rejected put raises another one.",
         scenario={"config": mq(queues=[qu(maxdepth=1, qdpmaxev=True)]),
                   "ops": [put(tag=1), put(tag=2), put(tag=3)]}, step=2),
    dict(id="QD-SHARED-PERFMEV", family="QDEPTH", source=S004,
         sentence="A key difference is that events are switched on for shared queues even if PERFMEV is DISABLED on the queue manager.",
         description="Shared queues are treated like nonshared ones: the switches stay put while PERFMEV is DISABLED.",
         scenario={"config": mq(queues=[qu(qdphiev=True, **QD)], perfmev_disabled=["QM01"]),
                   "ops": [put(tag=i) for i in range(1, 6)] + [INSPECT]}, step=5),
    dict(id="QD-NONSHARED-PERFMEV", family="QDEPTH", source=S004,
         sentence="In contrast the attributes for LQ1 remain unchanged until PERFMEV on the queue manager is ENABLED.",
         description="A nonshared queue's switches toggle although its queue manager has PERFMEV DISABLED.",
         scenario={"config": mq(queues=[{"name": "LQ1", "cfstruct": None, "qmgr": "QM01", "qdphiev": True, **QD}],
                                perfmev_disabled=["QM01"]),
                   "ops": [put(queue="LQ1", tag=i) for i in range(1, 6)] + [INSPECT]}, step=5),
    dict(id="QD-BROADCAST-DISABLED", family="QDEPTH", source=S004,
         sentence="If PERFMEV is set to DISABLED on some of the queue managers, event messages are not produced by those queue managers",
         description="Every active queue manager answers the broadcast, PERFMEV DISABLED or not.",
         scenario={"config": mq(queues=[qu(qdphiev=True, **QD)], perfmev_disabled=["QM02"]),
                   "ops": [put(tag=i) for i in range(1, 6)]}, step=4),
    dict(id="QD-BROADCAST-INACTIVE", family="QDEPTH", source=S004,
         sentence="Broadcasts to all other active queue managers in the same queue-sharing group to request the production of an event message for the shared queue.",
         description="A stopped queue manager still produces an event message.",
         scenario={"config": mq(queues=[qu(qdphiev=True, **QD)]),
                   "ops": [{"op": "stop_qmgr", "qmgr": "QM02"}] + [put(tag=i) for i in range(1, 6)]}, step=5),
    dict(id="QD-CORREL", family="QDEPTH", source=S004,
         sentence="The message descriptor (MQMD) of this event message contains the unique correlation identifier (CorrelId) specified by the coordinating queue manager.",
         description="Each queue manager answering the broadcast makes up its own CorrelId.",
         scenario={"config": mq(queues=[qu(qdphiev=True, **QD)]), "ops": [put(tag=i) for i in range(1, 6)]},
         step=4),
    dict(id="QD-STATS-NOT-RESET", family="QDEPTH", source=S004,
         sentence="The event message that is issued contains information about all the operations performed by the receiving (active) queue manager since the last time an event message was created",
         description="The enqueue/dequeue counts are not reset when an event message is created.",
         scenario={"config": mq(queues=[qu(qdphiev=True, **QD)]),
                   "ops": [put(tag=i) for i in range(1, 6)] + [get(), get(), get()]}, step=7),
    dict(id="QD-EVENT-SYNCPOINT", family="QDEPTH", source="ibm-facts 4.3",
         sentence="Events are generated and toggled outside syncpoint.",
         description="A put inside a unit of work raises no Queue Depth High event.",
         scenario={"config": mq(queues=[qu(qdphiev=True, **QD)]),
                   "ops": [put(tag=i, syncpoint=True) for i in range(1, 6)]}, step=4),
    # ------------------------------------------------------------------ RECOVERY
    dict(id="REC-NP-SURVIVE", family="RECOVERY", source="ibm-facts 5.2",
         sentence="Nonpersistent messages on shared queues survive queue-manager restarts but not CF or structure failure",
         description="Nonpersistent messages are restored by RECOVER CFSTRUCT after a structure failure.",
         scenario={"config": mq([REC]),
                   "ops": [put(tag=1), put(tag=2, persistent=True),
                           {"op": "backup", "qmgr": "QM01", "cfstruct": "APP1"},
                           {"op": "fail_structure", "cfstruct": "APP1"}, {"op": "recover", "cfstruct": "APP1"},
                           get()]}, step=5),
    dict(id="REC-P-LOST", family="RECOVERY", source=S003,
         sentence="If coupling facility fails, you can use the IBM MQ command RECOVER CFSTRUCT. This uses the backup record from Db2 to locate and restore persistent messages from the backup of the CF structure.",
         description="RECOVER CFSTRUCT brings the structure back empty: persistent messages are not restored.",
         scenario={"config": mq([REC]),
                   "ops": [put(tag=1, persistent=True), {"op": "backup", "qmgr": "QM01", "cfstruct": "APP1"},
                           {"op": "fail_structure", "cfstruct": "APP1"}, {"op": "recover", "cfstruct": "APP1"},
                           get()]}, step=4),
    dict(id="REC-2373-GET", family="RECOVERY", source="ibm-facts 3.4",
         sentence="2373 MQRC_CF_STRUC_FAILED: the structure has failed.",
         description="MQGET does not check the structure status and answers 2033 on a failed structure.",
         scenario={"config": mq([REC]), "ops": [{"op": "fail_structure", "cfstruct": "APP1"}, get()]}, step=1),
    dict(id="REC-NORMAL-NONFAILED", family="RECOVERY", source="ibm-facts 5.2",
         sentence="it fails \"if TYPE(NORMAL) is specified and the structure has not been flagged as FAILED\"",
         description="RECOVER CFSTRUCT TYPE(NORMAL) is accepted on an active structure.",
         scenario={"config": mq([REC]), "ops": [{"op": "recover", "cfstruct": "APP1"}]}, step=0),
    dict(id="REC-BACKUP-RECOVER-NO", family="RECOVERY", source="ibm-facts 5.1",
         sentence="The command fails if the structure has CFLEVEL < 3 or RECOVER(NO).",
         description="BACKUP CFSTRUCT is accepted for a RECOVER(NO) structure.",
         scenario={"config": mq([st(cflevel=3, recover=False)]),
                   "ops": [{"op": "backup", "qmgr": "QM01", "cfstruct": "APP1"}]}, step=0),
    dict(id="REC-BACKUP-CFLEVEL2", family="RECOVERY", source="ibm-facts 5.1",
         sentence="The command fails if the structure has CFLEVEL < 3 or RECOVER(NO).",
         description="BACKUP CFSTRUCT is accepted for a CFLEVEL(2) structure.",
         scenario={"config": mq([st(cflevel=2, recover=True)]),
                   "ops": [{"op": "backup", "qmgr": "QM01", "cfstruct": "APP1"}]}, step=0),
    dict(id="REC-PURGE-KEEPS", family="RECOVERY", source="ibm-facts 5.2",
         sentence="TYPE(PURGE) \"recover[s] to empty CF structures. Any messages in the CF structures are lost\".",
         description="RECOVER TYPE(PURGE) restores the persistent messages like TYPE(NORMAL).",
         scenario={"config": mq([REC]),
                   "ops": [put(tag=1, persistent=True), {"op": "backup", "qmgr": "QM01", "cfstruct": "APP1"},
                           {"op": "fail_structure", "cfstruct": "APP1"},
                           {"op": "recover", "cfstruct": "APP1", "purge": True}, get()]}, step=4),
    dict(id="REC-UNCOMMITTED-RESTORED", family="RECOVERY", source=S003,
         sentence="Any activity since the last backup is replayed using the logs of all the queue managers in the queue-sharing group, and the CF structure is then restored up to the point before the failure.",
         description="An uncommitted persistent put is restored as committed by RECOVER CFSTRUCT.",
         scenario={"config": mq([REC]),
                   "ops": [put(tag=1, persistent=True, syncpoint=True),
                           {"op": "backup", "qmgr": "QM01", "cfstruct": "APP1"},
                           {"op": "fail_structure", "cfstruct": "APP1"}, {"op": "recover", "cfstruct": "APP1"},
                           get(qmgr="QM02")]}, step=4),
    # ------------------------------------------------------------------ QUEUE
    dict(id="Q-LIFO", family="QUEUE", source=S003,
         sentence="Search for the next retrievable message",
         description="MQGET returns the newest message instead of the oldest (FIFO broken).",
         scenario={"config": mq(), "ops": [put(tag=1), put(tag=2), get()]}, step=2),
    dict(id="Q-SYNCPOINT-VISIBLE", family="QUEUE", source=S003,
         sentence="Notify interested queue managers about the arrival of committed messages",
         description="A message put inside a unit of work can be got before the commit.",
         scenario={"config": mq(), "ops": [put(tag=1, syncpoint=True), get(qmgr="QM02")]}, step=1),
    dict(id="Q-BACKOUT-KEEPS-PUT", family="QUEUE", source=S003,
         sentence="Lock uncommitted messages on shared queues",
         description="MQBACK commits the unit of work's puts instead of removing them.",
         scenario={"config": mq(), "ops": [put(tag=1, syncpoint=True), {"op": "backout", "qmgr": "QM01"},
                                            get(qmgr="QM02")]}, step=2),
    dict(id="Q-BACKOUT-GET-LOST", family="QUEUE", source=S003,
         sentence="Lock uncommitted messages on shared queues",
         description="MQBACK does not put back a message got inside the unit of work.",
         scenario={"config": mq(), "ops": [put(tag=1), get(syncpoint=True), {"op": "backout", "qmgr": "QM01"},
                                            get(qmgr="QM02")]}, step=3),
    dict(id="Q-FULL-OFFBYONE", family="QUEUE", source="ibm-facts 3.5",
         sentence="2053 MQRC_Q_FULL (MQCC_FAILED): the put fails because the queue \"already contains the maximum number of messages possible\"",
         description="Off by one: a queue accepts MAXDEPTH + 1 messages.",
         scenario={"config": mq(queues=[qu(maxdepth=1)]), "ops": [put(tag=1), put(tag=2)]}, step=1),
    dict(id="Q-STOP-COMMITS", family="QUEUE", source="PROTOCOL.md (stop_qmgr, QUEUE-005)",
         sentence="Stop a queue manager; its unit of work is backed out (QUEUE-005).",
         description="Stopping a queue manager commits its unit of work.",
         scenario={"config": mq(), "ops": [put(tag=1, syncpoint=True), {"op": "stop_qmgr", "qmgr": "QM01"},
                                            get(qmgr="QM02")]}, step=2),
    # ------------------------------------------------------------------ CQS
    dict(id="CQS-NO-ALTER", family="CQS", source=S000,
         sentence="When the usage of a structure reaches the overflow threshold, CQS attempts to make the structure larger by initiating a structure alter.",
         description="CQS goes straight into overflow mode without trying a structure alter.",
         scenario={"config": cqs([st(size_kb=128, initsize_kb=64)]),
                   "ops": [cput(tag=i) for i in range(1, 11)]}, step=9),
    dict(id="CQS-SELECT-LEAST", family="CQS", source=S000,
         sentence="In overflow mode, CQS selects queues using the most space on the structure as candidates for overflow processing.",
         description="Candidates are taken in ascending order of space used.",
         scenario={"config": CQS_SELECT, "ops": CQS_SELECT_OPS}, step=9),
    dict(id="CQS-SELECT-ALL", family="CQS", source=S000,
         sentence="CQS stops selecting queues when enough queues have been selected to cause the primary structure usage to fall 20% below the overflow threshold.",
         description="Selection never stops early: every queue on the structure is put into overflow mode.",
         scenario={"config": CQS_SELECT, "ops": CQS_SELECT_OPS}, step=9),
    dict(id="CQS-VETO-IGNORED", family="CQS", source=S000,
         sentence="CQS drives the Queue Overflow User-Supplied exit routine with the candidate queue names, which the exit then approves or rejects for overflow processing.",
         description="The exit's veto is ignored; a rejected queue goes into overflow mode anyway.",
         scenario={"config": dict(CQS_SELECT, overflow_exit=["QA"]),
                   "ops": CQS_SELECT_OPS[:9] + [cput(queue="QA", tag=10)]}, step=9),
    dict(id="CQS-NOOVF-ACCEPT", family="CQS", source=S000,
         sentence="If an overflow structure is not defined, CQS rejects CQSPUT requests for the approved queues.",
         description="Without an overflow structure, CQSPUTs to queues in overflow mode are still accepted.",
         scenario={"config": cqs(), "ops": [cput(tag=i) for i in range(1, 11)]}, step=9),
    dict(id="CQS-STAGING-SELECTED", family="CQS", source=S000,
         sentence="The staging queue is not eligible for overflow processing.",
         description="The staging queue is a selection candidate like any ready queue.",
         scenario={"config": cqs(queues=[qu(name="Q1"), qu(name="Q2")]),
                   "ops": [cput(20000, "Q1", 1)] + [cput(queue="Q2", tag=i) for i in range(2, 7)]}, step=5),
    dict(id="CQS-SCAN-NEVER", family="CQS", source=S000,
         sentence="If an overflow structure is allocated, a queue remains in overflow mode until CQS detects that there are no more entries in the queue. (The queues are scanned every 15 minutes.)",
         description="The periodic scan never runs, so an emptied queue stays in overflow mode for ever.",
         scenario={"config": cqs([st(size_kb=64, ovflwstr="OVF1", ovflw_size_kb=64)]),
                   "ops": [cput(tag=i) for i in range(1, 10)] + [cget() for _ in range(9)] +
                          [{"op": "advance_clock", "seconds": 1800}, INSPECT]}, step=19),
    dict(id="CQS-EXIT-NEVER", family="CQS", source=S000,
         sentence="If no overflow structure is allocated, CQS exits overflow mode when the primary structure usage drops 20% below the overflow threshold.",
         description="Without an overflow structure CQS never leaves overflow mode.",
         scenario={"config": cqs(),
                   "ops": [cput(tag=i) for i in range(1, 10)] + [cget(), cget(), cput(tag=10)]},
         step=11),
    dict(id="CQS-DEFAULT-80", family="CQS", source=S000,
         sentence="The default overflow threshold is 70%",
         description="OVFLWMAX defaults to 80% instead of 70%.",
         scenario={"config": cqs(), "ops": [cput(tag=i) for i in range(1, 11)]}, step=9),
    dict(id="CQS-FULL-RC", family="CQS", source="ibm-facts 1.7",
         sentence="Structure full -> CQS0205E.",
         description="A CQSPUT to a full structure reports MQ's 2192 instead of the CQS structure-full rejection.",
         scenario={"config": cqs(), "ops": [cput(60000, tag=1)]}, step=0),
]

FAULT_IDS = [f["id"] for f in FAULTS]


def write_json(path=None):
    path = path or os.path.join(os.path.dirname(os.path.abspath(__file__)), "faults.json")
    with open(path, "w") as fh:
        json.dump(FAULTS, fh, indent=1)
        fh.write("\n")
    return path


if __name__ == "__main__":
    p = write_json()
    from collections import Counter
    print(f"wrote {p}: {len(FAULTS)} faults", dict(Counter(f["family"] for f in FAULTS)))
