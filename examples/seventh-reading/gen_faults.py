#!/usr/bin/env python3
"""Writes faults.json (the deliberate faults and their smallest distinguishing scenarios).
Run: python3 gen_faults.py   (then python3 faultcheck.py)"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
S000, S001, S002, S003, S004 = ("000_869f717547e3a89a.txt", "001_bbb586403b3000fc.txt",
                                "002_adc847a8fc6c1ca2.txt", "003_83ac8579f7e0d9f5.txt",
                                "004_97a0fff9f37ed76b.txt")
FACTS, PROTO = "ibm-facts.md", "PROTOCOL.md"


def st(name="APP1", **kw):
    d = {"name": name, "size_kb": 8192, "initsize_kb": None, "fullthreshold": 80, "ratio": 6,
         "cflevel": 5, "recover": True, "offload": None, "offld1th": 70, "offld1sz": 32768,
         "offld2th": 80, "offld2sz": 4096, "offld3th": 90, "offld3sz": 0, "ovflwmax": None,
         "ovflwstr": None, "ovflw_size_kb": 8192, "resource": False}
    d.update(kw)
    return d


def qu(name="Q1", cfstruct="APP1", **kw):
    d = {"name": name, "cfstruct": cfstruct, "qmgr": None, "maxdepth": 10, "maxmsgl": 104857600,
         "qdepthhi": 80, "qdepthlo": 20, "qdphiev": False, "qdploev": False, "qdpmaxev": False}
    d.update(kw)
    return d


def cfg(profile="mq", structures=None, queues=None, qmgrs=None, **kw):
    d = {"profile": profile, "qsg": "QSG1", "qmgrs": qmgrs or ["QM01", "QM02"],
         "structures": structures if structures is not None else [st()],
         "queues": queues if queues is not None else [qu()],
         "lgmsgsz": 4096, "overflow_exit": None, "perfmev_disabled": [], "admin_size_kb": None,
         "admin_table": "cfcc14"}
    d.update(kw)
    return d


def put(qm="QM01", q="Q1", length=100, tag=0, persistent=False, syncpoint=False):
    return {"op": "put", "qmgr": qm, "queue": q, "length": length, "persistent": persistent,
            "syncpoint": syncpoint, "tag": tag}


def get(qm="QM01", q="Q1", syncpoint=False):
    return {"op": "get", "qmgr": qm, "queue": q, "syncpoint": syncpoint}


INSPECT = {"op": "inspect"}
F = []


def fault(fid, family, sentence, source, description, config, ops):
    F.append({"id": fid, "family": family, "sentence": sentence, "source": source,
              "description": description, "scenario": {"config": config, "ops": ops}})


# ------------------------------------------------------------------ OFFLOAD
R1 = "If the coupling facility structure is more than 70% full offload data for messages exceeding 32 KB"
fault("OFF-TH-INCLUSIVE", "OFFLOAD", R1, S002,
      "Usage threshold compared with >= instead of 'more than': OFFLD1TH(0) offloads on an empty structure.",
      cfg(structures=[st(offld1th=0)]), [put(length=40000)])
fault("OFF-SZ-INCLUSIVE", "OFFLOAD", R1, S002,
      "Size compared with >= instead of 'exceeding': a message of exactly OFFLD1SZ is offloaded.",
      cfg(structures=[st(offld1th=0)]), [put(length=100), put(length=32768)])
fault("OFF-RULE-SIZE-ONLY", "OFFLOAD",
      "If the coupling facility structure is more than 80% full offload data for messages exceeding 4 KB", S002,
      "A rule fires on its size test alone, ignoring its usage threshold (APAR PI21909 behaviour).",
      cfg(), [put(length=5000)])
fault("OFF-FORCED-6375", "OFFLOAD", "Message data exceeding 63 KB is always offloaded to SMDS or Db2.", S003,
      "Forced offload only above 63.75 KB, so a 65000-byte message stays in the CF.",
      cfg(structures=[st(offld1sz=65536, offld2sz=65536, offld3sz=65536)]), [put(length=65000)])
fault("OFF-FULL-STORAGE", "OFFLOAD", "Each message which is offloaded still requires 0.75 KB of storage in the coupling facility.", S002,
      "An offloaded message is charged CF elements for its data instead of the fixed small entry.",
      cfg(), [put(length=70000)])
fault("OFF-DB2-AS-SMDS", "OFFLOAD",
      "The selection of SMDS or Db2 shared message storage is controlled with the OFFLOAD(SMDS|DB2) parameter on the CFSTRUCT definition.", S002,
      "OFFLOAD(DB2) ignored: offloaded data reported in SMDS.",
      cfg(structures=[st(offload="DB2")]), [put(length=70000)])
fault("OFF-DEFAULT-DB2", "OFFLOAD", "OFFLOAD(SMDS) is the default value.", S002,
      "A CFLEVEL(5) structure without OFFLOAD offloads to Db2.",
      cfg(), [put(length=70000)])
fault("OFF-RULES-AT-CF4", "OFFLOAD",
      "5 - can be used for persistent and nonpersistent messages up to 100 MB and selectively offloaded to shared message data sets (SMDS) or Db2.", S003,
      "Offload rules applied at CFLEVEL(4), where only messages over 63 KB are offloaded.",
      cfg(structures=[st(cflevel=4, offld1th=0)]), [put(length=100), put(length=40000)])
fault("OFF-ALTER-RESETS", "OFFLOAD",
      "ALTER CFSTRUCT has the same offload keywords and no defaults; keywords not specified are left unchanged.", FACTS,
      "ALTER CFSTRUCT resets offload keywords it does not name to their defaults.",
      cfg(structures=[st(offld1th=0)]),
      [{"op": "alter_structure", "name": "APP1", "changes": {"offld2th": 85}}, put(length=100), put(length=40000)])
fault("OFF-64K-AS-SIZE", "OFFLOAD",
      "If an offload rule has the OFFLD x SZ value of 64K this indicates that the rule is not in effect.", S002,
      "OFFLDnSZ(64K) read as 'no size limit' instead of 'rule not in effect'.",
      cfg(structures=[st(offld1th=0, offld1sz=65536)]), [put(length=100), put(length=200)])
fault("OFF-RULE3-IGNORED", "OFFLOAD",
      "If the coupling facility structure is more than 90% full offload data for messages exceeding 0 KB (all messages)", S002,
      "The third rule is never evaluated.",
      cfg(structures=[st(offld3th=0, offld3sz=0)]), [put(length=100), put(length=100)])

# ------------------------------------------------------------------ CFLEVEL
fault("CF-PERS-NEEDS-4", "CFLEVEL", "3 - can be used for persistent and nonpersistent messages less than 63 KB", S003,
      "Persistent messages refused below CFLEVEL(4).",
      cfg(structures=[st(cflevel=3)]), [put(persistent=True)])
fault("CF-LARGE-CF3-OK", "CFLEVEL", "4 - can be used for persistent and nonpersistent messages up to 100 MB", S003,
      "A message over 63 KB accepted on a CFLEVEL(3) structure instead of MQRC_WRONG_CF_LEVEL.",
      cfg(structures=[st(cflevel=3)]), [put(length=70000)])
fault("CF-LARGE-BOUNDARY", "CFLEVEL",
      "For example an MQPUT or MQPUT1 call was issued with a message that was bigger than 63 KB in length, and the shared queue was using an IBM MQ CFSTRUCT with a CFLEVEL of less than 4.", FACTS,
      "Off by one: a message of exactly 63 KB (64512 bytes) refused at CFLEVEL(3).",
      cfg(structures=[st(cflevel=3)]), [put(length=64512)])
fault("CF-DECREASE-UNGUARDED", "CFLEVEL", "Decrease from 3 or from 4 only if every queue referencing the structure is empty", FACTS,
      "CFLEVEL lowered from 4 while a queue on the structure holds a message.",
      cfg(structures=[st(cflevel=4)]), [put(), {"op": "alter_structure", "name": "APP1", "changes": {"cflevel": 3}}])
fault("CF-OFFLOAD-KW-LOWCF", "CFLEVEL", "The OFFLOAD parameter is only valid from CFLEVEL(5).", S002,
      "DEFINE CFSTRUCT with OFFLOAD at CFLEVEL(4) accepted.",
      cfg(), [{"op": "define_structure", "structure": st("APP2", cflevel=4, offload="SMDS")}])
fault("CF-RECOVERNO-PERSIST-OK", "CFLEVEL",
      "On z/OS, you cannot put persistent messages to a shared queue if the CFSTRUCT that the queue uses is defined with RECOVER(NO).", FACTS,
      "Persistent put accepted on a RECOVER(NO) structure.",
      cfg(structures=[st(cflevel=3, recover=False)]), [put(persistent=True)])

# ----------------------------------------------------------------- CAPACITY
TINY = dict(size_kb=6146, ratio=2)   # 2 entries, 4 elements in our accounting
fault("CAP-ENTRIES-IGNORED", "CAPACITY", "A structure is full if either all ENTRYs or all ELEMENTs are in use.", FACTS,
      "Only elements are checked, so a put succeeds when all entries are in use.",
      cfg(structures=[st(**TINY)], queues=[qu(maxdepth=100)]), [put(length=0), put(length=0), put(length=0)])
fault("CAP-WRONG-RC", "CAPACITY",
      "If no action is taken and a queue structure fills up, an MQRC_STORAGE_MEDIUM_FULL return code is returned to the application.", S001,
      "A full structure answers MQRC_Q_FULL (2053) instead of 2192.",
      cfg(structures=[st(**TINY)], queues=[qu(maxdepth=100)]), [put(length=0), put(length=0), put(length=0)])
fault("CAP-IXC-STRICT", "CAPACITY",
      "FULLTHRESHOLD sets the percentage value of the threshold at which z/OS® issues message IXC585E to indicate that the structure is getting full.", S001,
      "IXC585E only when usage exceeds FULLTHRESHOLD, not when it reaches it.",
      cfg(structures=[st(size_kb=6146, ratio=1, fullthreshold=50)]), [put(length=0), put(length=0)])
fault("CAP-NO-IXC586I", "CAPACITY", "IXC585E is issued when the number of **entries or elements** in use reaches FULLTHRESHOLD; IXC586I when usage goes back below it.", FACTS,
      "No IXC586I when usage falls back below FULLTHRESHOLD.",
      cfg(structures=[st(size_kb=6146, ratio=1, fullthreshold=50)]), [put(length=0), put(length=0), get()])
fault("CAP-FT0-ON", "CAPACITY", "FULLTHRESHOLD(0) disables monitoring.", FACTS,
      "FULLTHRESHOLD(0) treated as a 0% threshold: IXC585E at once.",
      cfg(structures=[st(fullthreshold=0)]), [put()])

# ----------------------------------------------------------------- TOPOLOGY
fault("TOP-511-QUEUES", "TOPOLOGY", "Each structure can hold up to 512 shared queues.", S001,
      "Off by one: the 512th queue on a structure is refused.",
      cfg(queues=[qu("Q%03d" % i) for i in range(511)]),
      [{"op": "define_queue", "queue": qu("Q511")}])
fault("TOP-CFNAME-NOPAD", "TOPOLOGY", "always four characters, padded with @ symbols if necessary", FACTS,
      "A short QSG name is not padded with @ in the CFRM structure name.",
      cfg(qsg="QS"), [INSPECT])
fault("TOP-SYSAPPL-UNCOUNTED", "TOPOLOGY", "You can use up to 63 (62 if qsg-nameCSQSYSAPPL is defined) structures for message data.", S001,
      "CSQSYSAPPL not counted, so 63 message structures are allowed beside it.",
      cfg(structures=[st("CSQSYSAPPL")] + [st("S%02d" % i) for i in range(1, 63)], queues=[qu(cfstruct="S01")]),
      [{"op": "define_structure", "structure": st("S63")}])
fault("TOP-31-QMGRS", "TOPOLOGY", "Up to 32 queue managers in a queue-sharing group can connect to a coupling facility list structure at the same time.", S003,
      "Limit taken from Table 1 (31 rows): a 32-member group is refused.",
      cfg(qmgrs=["QM%02d" % i for i in range(1, 33)]), [INSPECT])
fault("TOP-NAME-11", "TOPOLOGY", "Structure name: **≤ 12 characters; starts with an uppercase letter A–Z; only A–Z and 0–9.**", FACTS,
      "Off by one: a 12-character structure name refused.",
      cfg(), [{"op": "define_structure", "structure": st("ABCDEFGHIJKL")}])

# ------------------------------------------------------------------- SIZING
fault("SIZ-ADMIN-ROW-SHIFT", "SIZING",
      "Table 1 shows the minimum required size for the administrative structure for various numbers of queue managers defined in the queue sharing group.", S001,
      "Table 1 read one row too early (n-1 queue managers).",
      cfg(), [INSPECT])
fault("SIZ-ADMIN-ACTIVE-QMGRS", "SIZING",
      "Queue managers are considered as being defined to the queue sharing group if they have been added by the CSQ5PQSG utility.", S001,
      "CSQ_ADMIN sized for the active queue managers, not the defined ones.",
      cfg(qmgrs=["QM01", "QM02", "QM03"]), [{"op": "stop_qmgr", "qmgr": "QM03"}, INSPECT])
fault("SIZ-ADMIN-3QM-TYPO", "SIZING", "3 7976 KB", S001,
      "Table 1's 3-queue-manager value 'corrected' to 7936 KB.",
      cfg(qmgrs=["QM01", "QM02", "QM03"]), [INSPECT])
fault("SIZ-ALLOC-AT-SIZE", "SIZING",
      "INITSIZE is the size in KB that the structure is allocated with when the first queue manager connects to it.", S001,
      "The structure is allocated at SIZE instead of INITSIZE.",
      cfg(structures=[st(size_kb=16384, initsize_kb=8192)]), [INSPECT])
fault("SIZ-ALTER-ABOVE-SIZE", "SIZING", "SIZE is the maximum size that the structure can attain.", S001,
      "SETXCF ALTER beyond the CFRM SIZE accepted.",
      cfg(), [{"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 9000}])

# ----------------------------------------------------------------- RECOVERY
REC = cfg(structures=[st(cflevel=3)], queues=[qu(maxdepth=100)])
FAIL = {"op": "fail_structure", "cfstruct": "APP1"}
RECOVER = {"op": "recover", "cfstruct": "APP1", "purge": False}


def backup(qm="QM01"):
    return {"op": "backup", "qmgr": qm, "cfstruct": "APP1"}


fault("REC-NONPERSISTENT", "RECOVERY",
      "This puts a copy of the persistent messages currently within the CF structure onto the active log data set of the queue manager making the backup, and writes a record of the backup to Db2.", S003,
      "BACKUP copies nonpersistent messages too, so RECOVER restores them.",
      REC, [put(tag=1, persistent=True), put(tag=2), backup(), FAIL, RECOVER, INSPECT])
fault("REC-ONE-LOG", "RECOVERY",
      "Any activity since the last backup is replayed using the logs of all the queue managers in the queue-sharing group, and the CF structure is then restored up to the point before the failure.", S003,
      "Only the log of the queue manager that took the backup is replayed.",
      REC, [backup("QM01"), put("QM02", tag=1, persistent=True), FAIL, RECOVER, INSPECT])
fault("REC-DOUBLE-REPLAY", "RECOVERY",
      "This uses the backup record from Db2 to locate and restore persistent messages from the backup of the CF structure.", S003,
      "Log replay starts before the backup point, duplicating messages the backup already holds.",
      REC, [put(tag=1, persistent=True), backup(), FAIL, RECOVER, INSPECT])
fault("REC-BACKUP-RECOVERNO", "RECOVERY", "The command fails if the structure has CFLEVEL < 3 or RECOVER(NO).", FACTS,
      "BACKUP CFSTRUCT accepted for a RECOVER(NO) structure.",
      cfg(structures=[st(cflevel=3, recover=False)]), [backup()])
fault("REC-NOT-FAILED-OK", "RECOVERY",
      "if neither the specified application structure nor its associated shared message data sets are flagged as being in a FAILED state", FACTS,
      "RECOVER CFSTRUCT accepted for a structure that has not failed.",
      REC, [RECOVER])
fault("REC-FAILED-RC", "RECOVERY", "MQI calls on a FAILED structure get 2373.", FACTS,
      "A put to a failed structure answers 2192 instead of MQRC_CF_STRUC_FAILED.",
      REC, [FAIL, put()])
fault("REC-NP-SURVIVE-FAIL", "RECOVERY",
      "Nonpersistent messages on shared queues survive queue-manager restarts but **not** CF or structure failure", FACTS,
      "Nonpersistent messages come back after structure failure and recovery.",
      REC, [put(tag=1), put(tag=2, persistent=True), backup(), FAIL, RECOVER, get(), get()])

# ------------------------------------------------------------------- QDEPTH
QD = dict(maxdepth=10, qdepthhi=80, qdepthlo=20, qdphiev=True)
fault("QD-HI-STRICT", "QDEPTH", "has caused the queue depth to be incremented to, or greater than", FACTS,
      "Queue Depth High only when depth exceeds the limit, not when it reaches it.",
      cfg(queues=[qu(**QD)]), [put(tag=i) for i in range(8)])
fault("QD-LO-STRICT", "QDEPTH", "has caused the queue depth to be decremented to, or less than", FACTS,
      "Queue Depth Low only when depth falls below the limit, not when it reaches it.",
      cfg(queues=[qu(maxdepth=10, qdploev=True)]), [put(), put(), put(), get()])
fault("QD-SHARED-NEEDS-PERFMEV", "QDEPTH",
      "A key difference is that events are switched on for shared queues even if PERFMEV is DISABLED on the queue manager.", S004,
      "The shared queue's event switches are not toggled when the detecting queue manager has PERFMEV(DISABLED).",
      cfg(queues=[qu(**QD)], perfmev_disabled=["QM01"]), [put(tag=i) for i in range(8)] + [INSPECT])
fault("QD-BROADCAST-INACTIVE", "QDEPTH",
      "Broadcasts to all other active queue managers in the same queue-sharing group to request the production of an event message for the shared queue.", S004,
      "A stopped queue manager also issues an event message.",
      cfg(qmgrs=["QM01", "QM02", "QM03"], queues=[qu(**QD)]),
      [{"op": "stop_qmgr", "qmgr": "QM03"}] + [put(tag=i) for i in range(8)])
fault("QD-NEW-CORREL", "QDEPTH",
      "The message descriptor (MQMD) of this event message contains the unique correlation identifier (CorrelId) specified by the coordinating queue manager.", S004,
      "Each queue manager's event message gets its own CorrelId.",
      cfg(queues=[qu(**QD)]), [put(tag=i) for i in range(8)])
fault("QD-FIRST-QMGR-COORD", "QDEPTH",
      "After updating the shared queue object successfully, the queue manager that detected the performance event initially becomes the coordinating queue manager.", S004,
      "The first queue manager of the group, not the detecting one, coordinates and reports first.",
      cfg(queues=[qu(**QD)]), [put("QM02", tag=i) for i in range(8)])
fault("QD-STATS-NORESET", "QDEPTH",
      "The event message that is issued contains information about all the operations performed by the receiving (active) queue manager since the last time an event message was created, or since the statistics were last reset.", S004,
      "Statistics are not reset when an event message is created.",
      cfg(queues=[qu(**QD)]), [put(tag=i) for i in range(8)] + [get() for _ in range(6)])
fault("QD-HI-NO-QFULL-ENABLE", "QDEPTH",
      "For example, depending on the definition of the queue attributes, a Queue Depth High event enables a Queue Depth Low and a Queue Full event.", S004,
      "Queue Depth High enables Queue Depth Low only, not Queue Full.",
      cfg(queues=[qu(**QD)]), [put(tag=i) for i in range(8)] + [INSPECT])
fault("QD-NONSHARED-TOGGLE", "QDEPTH",
      "In contrast the attributes for LQ1 remain unchanged until PERFMEV on the queue manager is ENABLED.", S004,
      "A nonshared queue's switches are toggled although its queue manager has PERFMEV(DISABLED).",
      cfg(queues=[qu("LQ1", cfstruct=None, qmgr="QM01", **QD)], perfmev_disabled=["QM01"]),
      [put(q="LQ1", tag=i) for i in range(8)] + [INSPECT])
fault("QD-RESET-ALL-QMGRS", "QDEPTH",
      "RESET QSTATS issued on ``qmgr`` for ``queue``: that queue manager's MsgEnqCount and MsgDeqCount for the queue start again from zero (QDEPTH-017).", PROTO,
      "RESET QSTATS on one queue manager clears every queue manager's counts.",
      cfg(queues=[qu(**QD)]),
      [put("QM02"), {"op": "reset_qstats", "qmgr": "QM01", "queue": "Q1"}] + [put("QM01", tag=i) for i in range(7)])
fault("QD-FULL-NO-EVENT", "QDEPTH",
      "For example, depending on the definition of the queue attributes, a Queue Depth High event enables a Queue Depth Low and a Queue Full event.", S004,
      "A put refused because the queue is full produces no Queue Full event although QDPMAXEV is enabled.",
      cfg(queues=[qu(maxdepth=1, qdpmaxev=True)]), [put(), put()])

# ---------------------------------------------------------------------- CQS
# CQS structure of 240 elements/40 entries; a 4546-byte message takes 24 elements in our accounting.
M = 4546


def cq(**kw):
    d = dict(size_kb=6214, cflevel=3, recover=False)
    d.update(kw)
    return st(**d)


def ccfg(structures=None, nq=5, **kw):
    return cfg("cqs", structures=structures or [cq(ovflwmax=50)],
               queues=[qu("Q%d" % i) for i in range(1, nq + 1)], lgmsgsz=30632, **kw)


FIVE = [put("QM01", "Q%d" % i, M, tag=i) for i in range(1, 6)]   # 120 elements = 50%
ALTER_FAIL = {"op": "alter_outcome", "cfstruct": "APP1", "success": False, "size_kb": None}
fault("CQS-DEFAULT-80", "CQS",
      "The default overflow threshold is 70%, but you can change the default by defining the OVFLWMAX parameter in the CQSSGxxx member of the PROCLIB data set.", S000,
      "Default OVFLWMAX taken as 80% (the FULLTHRESHOLD default).",
      ccfg(structures=[cq()], nq=1), [put("QM01", "Q1", M, tag=i) for i in range(7)])
fault("CQS-NO-ALTER", "CQS",
      "When the usage of a structure reaches the overflow threshold, CQS attempts to make the structure larger by initiating a structure alter.", S000,
      "Overflow mode entered at the threshold without first trying a structure alter.",
      ccfg(), FIVE)
fault("CQS-STRICT-THRESHOLD", "CQS",
      "The overflow threshold is the percentage of the primary structure that must be in use before CQS goes into overflow mode.", S000,
      "Threshold compared with > instead of 'reaches': usage exactly at OVFLWMAX starts nothing.",
      ccfg(), FIVE)
fault("CQS-SELECT-LEAST", "CQS",
      "In overflow mode, CQS selects queues using the most space on the structure as candidates for overflow processing.", S000,
      "Candidates taken in ascending order of space used.",
      ccfg(nq=2), [put("QM01", "Q1", M, tag=1), put("QM01", "Q2", M, tag=2), put("QM01", "Q2", M, tag=3),
                   put("QM01", "Q2", M, tag=4), put("QM01", "Q1", M, tag=5), put("QM01", "Q2", M, tag=6), ALTER_FAIL])
fault("CQS-TARGET-10", "CQS",
      "CQS stops selecting queues when enough queues have been selected to cause the primary structure usage to fall 20% below the overflow threshold.", S000,
      "Selection stops 10% below the threshold.",
      ccfg(), FIVE + [ALTER_FAIL])
fault("CQS-EXIT-IGNORED", "CQS",
      "CQS drives the Queue Overflow User-Supplied exit routine with the candidate queue names, which the exit then approves or rejects for overflow processing.", S000,
      "The exit's veto is ignored.",
      ccfg(overflow_exit=["Q1"]), FIVE + [ALTER_FAIL])
fault("CQS-VETO-NO-REPLACE", "CQS", "A vetoed name is removed from the candidate list and another queue is selected.", FACTS,
      "Selection stops at the first vetoed candidate.",
      ccfg(overflow_exit=["Q1"]), FIVE + [ALTER_FAIL])
fault("CQS-NOSTR-ACCEPTS", "CQS", "If an overflow structure is not defined, CQS rejects CQSPUT requests for the approved queues.", S000,
      "CQSPUT to an approved queue accepted when there is no overflow structure.",
      ccfg(), FIVE + [ALTER_FAIL, put("QM01", "Q1", 100)])
fault("CQS-NOSTR-NEVER-ENDS", "CQS",
      "If no overflow structure is allocated, CQS exits overflow mode when the primary structure usage drops 20% below the overflow threshold.", S000,
      "Without an overflow structure, overflow mode never ends.",
      ccfg(), FIVE + [ALTER_FAIL, get("QM01", "Q3"), get("QM01", "Q4")])
OVS = [cq(ovflwmax=50, ovflwstr="OVFL1")]
fault("CQS-SCAN-10MIN", "CQS", "(The queues are scanned every 15 minutes.)", S000,
      "The overflow scan runs every 10 minutes.",
      ccfg(structures=OVS), FIVE + [ALTER_FAIL, get("QM01", "Q1"), get("QM01", "Q2"),
                                    {"op": "advance_clock", "seconds": 600}])
fault("CQS-ALL-REMOVED-STAYS", "CQS", "When all queues have been removed, CQS exits overflow mode.", S000,
      "After the scan removes the last queue, the structure stays in overflow mode.",
      ccfg(structures=OVS), FIVE + [ALTER_FAIL, get("QM01", "Q1"), get("QM01", "Q2"),
                                    {"op": "advance_clock", "seconds": 900}])
fault("CQS-STAGING-MOVED", "CQS", "Any parts of a message that are on the staging queue remain on the primary structure.", S000,
      "Staging-queue parts of large messages are moved to the overflow structure with their queue.",
      cfg("cqs", structures=[cq(ovflwmax=50, ovflwstr="OVFL1")], queues=[qu("Q1"), qu("Q2")], lgmsgsz=4096),
      [put("QM01", "Q1", 12000, tag=1), put("QM01", "Q2", 4000, tag=2), put("QM01", "Q1", 4000, tag=3),
       put("QM01", "Q1", 4000, tag=4), ALTER_FAIL, INSPECT])
fault("CQS-LGMSG-OFFBY1", "CQS",
      "Large messages (messages that exceed the size of a queue manager long message record) are put on the shared queue structure in multiple parts.", S000,
      "A message exactly the size of the long message record is split.",
      cfg("cqs", structures=[cq()], queues=[qu("Q1")], lgmsgsz=4096), [put("QM01", "Q1", 4096), INSPECT])
fault("CQS-RESOURCE-OVERFLOW", "CQS", "Important: Structure overflow is not supported for resource structures.", S000,
      "A resource structure starts overflow processing at OVFLWMAX.",
      ccfg(structures=[cq(ovflwmax=50, resource=True)]), FIVE)
fault("CQS-OVERFLOW-AFTER-SUCCESS", "CQS",
      "If the alter fails, CQS either allocates an overflow structure and moves data objects associated with selected queues to the overflow structure (if you define an overflow structure) or rejects data objects from being put on the selected queues.", S000,
      "Overflow mode entered even though the structure alter succeeded.",
      ccfg(structures=[cq(ovflwmax=50, initsize_kb=6214, size_kb=6400)]),
      FIVE + [{"op": "alter_outcome", "cfstruct": "APP1", "success": True, "size_kb": None}])

# -------------------------------------------------------------------- QUEUE
fault("Q-STOP-COMMITS", "QUEUE", "Stop a queue manager; its unit of work is backed out (QUEUE-005).", PROTO,
      "Stopping a queue manager commits its unit of work.",
      cfg(), [put(syncpoint=True, tag=7), {"op": "stop_qmgr", "qmgr": "QM01"}, get("QM02")])
fault("Q-NP-LOST-AT-STOP", "QUEUE",
      "Nonpersistent messages on shared queues survive queue-manager restarts but **not** CF or structure failure", FACTS,
      "Nonpersistent shared messages put by a queue manager are lost when it stops.",
      cfg(), [put(tag=7), {"op": "stop_qmgr", "qmgr": "QM01"}, get("QM02")])
fault("Q-MAXMSGL-INCLUSIVE", "QUEUE",
      "2030 **MQRC_MSG_TOO_BIG_FOR_Q** applies when length > min(queue MaxMsgLength, queue-manager MaxMsgLength).", FACTS,
      "A message exactly MAXMSGL long is refused.",
      cfg(queues=[qu(maxmsgl=1000)]), [put(length=1000)])
fault("Q-UNCOMMITTED-VISIBLE", "QUEUE", "Lock uncommitted messages on shared queues", S003,
      "An uncommitted put is visible to another queue manager's get.",
      cfg(), [put(syncpoint=True, tag=7), get("QM02")])
fault("Q-FULL-OFFBY1", "QUEUE", "the put fails because the queue \"already contains the maximum number of messages possible\"", FACTS,
      "Queue full one message early.",
      cfg(queues=[qu(maxdepth=2)]), [put(), put()])

if __name__ == "__main__":
    with open(os.path.join(HERE, "faults.json"), "w") as fh:
        json.dump(F, fh, indent=1)
    print("wrote %d faults" % len(F))
