#!/usr/bin/env python3
"""Writes faults.json: one record per fault of impl.FAULTS, with its scenario.

Run: python3 gen_faults.py   (then python3 faultcheck.py)
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CQS_DOC = "000_869f717547e3a89a.txt"
PLAN = "001_bbb586403b3000fc.txt"
OFFL = "002_adc847a8fc6c1ca2.txt"
HELD = "003_83ac8579f7e0d9f5.txt"
QDEV = "004_97a0fff9f37ed76b.txt"
FACTS = "ibm-facts.md"

QMS = ["QM01", "QM02", "QM03"]


def S(name="APP1", **kw):
    d = {"name": name, "size_kb": 8192, "cflevel": 3, "recover": False}
    d.update(kw)
    return d


def Q(name="Q1", cfstruct="APP1", **kw):
    d = {"name": name, "cfstruct": cfstruct}
    d.update(kw)
    return d


def mq(structs=None, queues=None, qmgrs=None, **kw):
    c = {"profile": "mq", "qsg": "QSG1", "qmgrs": qmgrs or list(QMS),
         "structures": structs if structs is not None else [S()],
         "queues": queues if queues is not None else [Q()]}
    c.update(kw)
    return c


def P(qm="QM01", q="Q1", length=100, tag=0, persistent=False, syncpoint=False):
    return {"op": "put", "qmgr": qm, "queue": q, "length": length, "persistent": persistent,
            "syncpoint": syncpoint, "tag": tag}


def G(qm="QM01", q="Q1", syncpoint=False):
    return {"op": "get", "qmgr": qm, "queue": q, "syncpoint": syncpoint}


def puts(n, qm="QM01", q="Q1", length=100, start=1, **kw):
    return [P(qm, q, length, start + i, **kw) for i in range(n)]


INSPECT = {"op": "inspect"}

# A 350 KB structure has 100 entries and 600 elements in our accounting
# (175 KB control area, 1792 bytes per entry with its 6 elements).
SMALL = 350
# a 7000-byte CQS message (no split with LGMSGSZ 30632) takes 1 entry + 30 elements = 5 %
CQS_MSG = 7000


def cqs(structs=None, queues=None, **kw):
    c = {"profile": "cqs", "qsg": "IMSG", "qmgrs": ["IMS1", "IMS2"],
         "structures": structs if structs is not None else
         [{"name": "MSGQ", "size_kb": SMALL, "ovflwmax": 70, "ovflwstr": "MSGQOVF"}],
         "queues": queues if queues is not None else
         [{"name": n, "cfstruct": "MSGQ"} for n in ("QA", "QB", "QC", "QD", "QE")],
         "lgmsgsz": 30632}
    c.update(kw)
    return c


def cput(q, n=1, length=CQS_MSG, start=1):
    return [{"op": "put", "qmgr": "IMS1", "queue": q, "length": length, "tag": start + i}
            for i in range(n)]


def cget(q, n=1):
    return [{"op": "get", "qmgr": "IMS1", "queue": q} for _ in range(n)]


# 14 messages = 70 % of the elements: QA 3, QB 3, QC 3, QD 3, QE 2
FILL70 = cput("QA", 3, start=1) + cput("QB", 3, start=10) + cput("QC", 3, start=20) + \
    cput("QD", 3, start=30) + cput("QE", 2, start=40)
FAIL_ALTER = {"op": "alter_outcome", "cfstruct": "MSGQ", "success": False}

F = []


def fault(fid, family, source, sentence, description, config, ops):
    F.append({"id": fid, "family": family, "sentence": sentence, "source": source,
              "description": description, "scenario": {"config": config, "ops": ops}})


# ------------------------------------------------------------------ CAPACITY
fault("CAP_FULL_RC_QFULL", "CAPACITY", PLAN,
      "If no action is taken and a queue structure fills up, an MQRC_STORAGE_MEDIUM_FULL return code is returned to the application.",
      "A put that finds the structure full is answered 2053 (MQRC_Q_FULL) instead of 2192.",
      mq([S(size_kb=256)]), [P(length=60000, tag=1), P(length=60000, tag=2)])
fault("CAP_FULL_ENTRIES_ONLY", "CAPACITY", FACTS,
      "A structure is full if either all ENTRYs or all ELEMENTs are in use.",
      "Only the entry count is compared with its total: a put that needs more elements than are free is accepted.",
      mq([S(size_kb=256)]), [P(length=60000, tag=1), P(length=60000, tag=2)])
fault("CAP_IXC585E_STRICT", "CAPACITY", FACTS,
      "IXC585E is issued when the number of entries or elements in use reaches FULLTHRESHOLD; IXC586I when usage goes back below it.",
      "IXC585E waits until usage exceeds FULLTHRESHOLD; at exactly 5 % (5 of 100 entries) nothing is issued.",
      mq([S(size_kb=SMALL, fullthreshold=5)]), puts(5))
fault("CAP_IXC585E_ELEMENTS_ONLY", "CAPACITY", FACTS,
      "IXC585E is issued when the number of entries or elements in use reaches FULLTHRESHOLD; IXC586I when usage goes back below it.",
      "Only element usage is watched; small messages fill entries first and IXC585E never comes.",
      mq([S(size_kb=SMALL, fullthreshold=5)]), puts(5))
fault("CAP_FT0_MONITORS", "CAPACITY", FACTS,
      "The default is 80%. FULLTHRESHOLD(0) disables monitoring.",
      "FULLTHRESHOLD(0) is used as a 0 % threshold, so the first put raises IXC585E.",
      mq([S(fullthreshold=0)]), puts(1))
fault("CAP_NO_IXC586I", "CAPACITY", FACTS,
      "IXC585E is issued when the number of entries or elements in use reaches FULLTHRESHOLD; IXC586I when usage goes back below it.",
      "IXC586I is never issued when usage drops back under FULLTHRESHOLD.",
      mq([S(size_kb=SMALL, fullthreshold=5)]), puts(5) + [G()])
fault("CAP_ALTER_ABOVE_SIZE", "CAPACITY", PLAN,
      "alters the size of the structure to newsize, where newsize is a value that is less than the value of SIZE specified on the CFRM policy for the structure, but greater than the current coupling facility size.",
      "SETXCF START,ALTER beyond the CFRM SIZE is accepted.",
      mq([S(size_kb=8192, initsize_kb=4096)]),
      [{"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 16384}])
fault("CAP_FT_DEFAULT_85", "CAPACITY", FACTS,
      "FULLTHRESHOLD valid values are 0–100 (decimal), default 80, where 0 means no monitoring or auto-alter.",
      "A structure defined without FULLTHRESHOLD gets 85 (the MQ example value) instead of the z/OS default 80.",
      mq([S()], [Q()]),
      [{"op": "define_structure", "structure": {"name": "APP2", "size_kb": 70}},
       {"op": "define_queue", "queue": {"name": "Q2", "cfstruct": "APP2"}}] + puts(16, q="Q2"))

# ------------------------------------------------------------------ CFLEVEL
fault("CFL_PERSIST_L3_REJECTED", "CFLEVEL", HELD,
      "3 - can be used for persistent and nonpersistent messages less than 63 KB",
      "Persistent messages are refused at CFLEVEL(3) as if CFLEVEL(4) were needed.",
      mq([S(cflevel=3, recover=True)]), [P(persistent=True, tag=1)])
fault("CFL_PERSIST_L2_ALLOWED", "CFLEVEL", HELD,
      "1, 2 - can be used for nonpersistent messages less than 63 KB",
      "A persistent put to a CFLEVEL(2) structure defined RECOVER(YES) is accepted.",
      mq([S(cflevel=2, recover=True)]), [P(persistent=True, tag=1)])
fault("CFL_LARGE_L3_ALLOWED", "CFLEVEL", HELD,
      "3 - can be used for persistent and nonpersistent messages less than 63 KB",
      "A 70000-byte message is accepted at CFLEVEL(3).",
      mq([S(cflevel=3)]), [P(length=70000, tag=1)])
fault("CFL_63K_DECIMAL", "CFLEVEL", HELD,
      "3 - can be used for persistent and nonpersistent messages less than 63 KB",
      "63 KB taken as 63000 bytes: a 64000-byte message is refused at CFLEVEL(3).",
      mq([S(cflevel=3)]), [P(length=64000, tag=1)])
fault("CFL_OFFLOAD_BELOW5_OK", "CFLEVEL", OFFL,
      "The OFFLOAD parameter is only valid from CFLEVEL(5).",
      "DEFINE CFSTRUCT with OFFLOAD(SMDS) at CFLEVEL(4) is accepted.",
      mq(),
      [{"op": "define_structure", "structure": {"name": "APP2", "cflevel": 4, "offload": "SMDS"}}])
fault("CFL_RULES_AT_L4", "CFLEVEL", HELD,
      "5 - can be used for persistent and nonpersistent messages up to 100 MB and selectively offloaded to shared message data sets (SMDS) or Db2.",
      "The OFFLDn rules are applied below CFLEVEL(5), so a small message is offloaded at CFLEVEL(4).",
      mq([S(cflevel=4, offld1th=0, offld1sz=1024)]), [P(tag=1), P(length=2000, tag=2)])
fault("CFL_DECREASE_UNGUARDED", "CFLEVEL", FACTS,
      "Decrease from 3 or from 4 only if every queue referencing the structure is empty (no messages and no uncommitted activity) and closed.",
      "ALTER CFSTRUCT lowers CFLEVEL from 4 to 3 while a queue on it holds a message.",
      mq([S(cflevel=4)]), [P(tag=1), {"op": "alter_structure", "name": "APP1", "changes": {"cflevel": 3}}])
fault("CFL_DECREASE_IGNORES_UOW", "CFLEVEL", FACTS,
      "Decrease from 3 or from 4 only if every queue referencing the structure is empty (no messages and no uncommitted activity) and closed.",
      "The emptiness test counts committed messages only; an uncommitted put does not block the decrease.",
      mq([S(cflevel=4)]),
      [P(tag=1, syncpoint=True), {"op": "alter_structure", "name": "APP1", "changes": {"cflevel": 3}}])
fault("CFL_RECOVER_NO_RC_2366", "CFLEVEL", FACTS,
      "2048 MQRC_PERSISTENT_NOT_ALLOWED (MQCC_FAILED). \"On z/OS, you cannot put persistent messages to a shared queue if the CFSTRUCT that the queue uses is defined with RECOVER(NO).\"",
      "A persistent put to a RECOVER(NO) CFLEVEL(3) structure is answered 2366 (wrong CF level) instead of 2048.",
      mq([S(cflevel=3, recover=False)]), [P(persistent=True, tag=1)])

# ------------------------------------------------------------------ OFFLOAD
fault("OFF_SIZE_ONLY", "OFFLOAD", OFFL,
      "Rule pair 1 OFFLD1TH(70) and OFFLD1SZ(32K) If the coupling facility structure is more than 70% full offload data for messages exceeding 32 KB",
      "The size test alone decides (APAR PI21909 style): a 40000-byte message is offloaded into an empty structure.",
      mq([S(cflevel=5)]), [P(length=40000, tag=1)])
fault("OFF_NO_RULE3", "OFFLOAD", OFFL,
      "Rule pair 3 OFFLD3TH(90) and OFFLD3SZ(0K) If the coupling facility structure is more than 90% full offload data for messages exceeding 0 KB (all messages)",
      "The third rule is never evaluated: above 90 % a 100-byte message stays in the CF.",
      mq([S(cflevel=5, size_kb=70)]), puts(19, length=1000) + [P(length=1000, tag=99)])
# 70 KB structure: 20 entries / 120 elements; a 1000-byte message uses 1 entry + 6 elements,
# so entry and element usage are equal (15 messages = 75 % by every usage metric)
fault("OFF_RULE2_USES_TH1", "OFFLOAD", OFFL,
      "Rule pair 2 OFFLD2TH(80) and OFFLD2SZ(4K) If the coupling facility structure is more than 80% full offload data for messages exceeding 4 KB",
      "Rule 2 compares usage with OFFLD1TH (copy and paste): at 75 % a 5000-byte message is offloaded.",
      mq([S(cflevel=5, size_kb=70)]), puts(15, length=1000) + [P(length=5000, tag=99)])
fault("OFF_SZ_DECIMAL", "OFFLOAD", OFFL,
      "Rule pair 1 OFFLD1TH(70) and OFFLD1SZ(32K) If the coupling facility structure is more than 70% full offload data for messages exceeding 32 KB",
      "OFFLDnSZ read in decimal kilobytes: 32K becomes 32000 bytes and a 32500-byte message is offloaded.",
      mq([S(cflevel=5, offld1th=0)]), [P(tag=1), P(length=32500, tag=2)])
fault("OFF_64K_BLOCKS_FORCED", "OFFLOAD", OFFL,
      "In this case messages will only be offloaded if another offload rule is in effect, or if the message is greater than 63.75 KB and so, too large to store in the structure.",
      "With every rule switched off by 64K, a 70000-byte message is kept in the CF instead of being offloaded.",
      mq([S(cflevel=5, offld1sz=65536, offld2sz=65536, offld3sz=65536)]), [P(length=70000, tag=1)])
fault("OFF_DB2_AS_SMDS", "OFFLOAD", OFFL,
      "The selection of SMDS or Db2 shared message storage is controlled with the OFFLOAD(SMDS|DB2) parameter on the CFSTRUCT definition.",
      "Offloaded data of an OFFLOAD(DB2) structure is reported as kept in SMDS.",
      mq([S(cflevel=5, offload="DB2")]), [P(length=70000, tag=1)])
fault("OFF_DEFAULT_DB2", "OFFLOAD", OFFL,
      "OFFLOAD(SMDS) is the default value.",
      "A CFLEVEL(5) structure without OFFLOAD offloads to Db2.",
      mq([S(cflevel=5, offload=None)]), [P(length=70000, tag=1)])
fault("OFF_ALTER_RESETS", "OFFLOAD", FACTS,
      "ALTER CFSTRUCT has the same offload keywords and no defaults; keywords not specified are left unchanged.",
      "ALTER CFSTRUCT OFFLD2TH(50) puts OFFLD1TH/OFFLD1SZ back to 70/32K.",
      mq([S(cflevel=5, offld1th=0, offld1sz=1024)]),
      [{"op": "alter_structure", "name": "APP1", "changes": {"offld2th": 50}}, P(tag=1),
       P(length=2000, tag=2)])
fault("OFF_OFFLOADED_FREE", "OFFLOAD", OFFL,
      "Each message which is offloaded still requires 0.75 KB of storage in the coupling facility.",
      "An offloaded message is charged one entry and no data elements.",
      mq([S(cflevel=5)]), [P(length=70000, tag=1)])

# ------------------------------------------------------------------ QDEPTH
QHI = Q(maxdepth=10, qdepthhi=50, qdphiev=True)
fault("QD_HI_STRICT", "QDEPTH", QDEV,
      "If messages are placed on both queues so that the depth meets or exceeds the QDEPTHHI threshold, the QDPHIEV value on SQ1 switches to DISABLED.",
      "Queue Depth High needs the depth to exceed the limit; meeting it (5 of 10 at 50 %) raises nothing.",
      mq(queues=[QHI]), puts(5))
fault("QD_LO_STRICT", "QDEPTH", FACTS,
      "has caused the queue depth to be decremented to, or less than",
      "Queue Depth Low needs the depth to go below the limit; reaching 2 of 10 at 20 % raises nothing.",
      mq(queues=[Q(maxdepth=10, qdepthlo=20, qdploev=True)]), puts(3) + [G()])
fault("QD_HI_NO_MAX_ENABLE", "QDEPTH", QDEV,
      "Also, QDPLOEV and QDPMAXEV are switched to ENABLED.",
      "A Queue Depth High event enables QDPLOEV but leaves QDPMAXEV disabled.",
      mq(queues=[QHI]), puts(5) + [INSPECT])
fault("QD_FULL_NO_LO_ENABLE", "QDEPTH", FACTS,
      "A Queue Depth Low event is automatically enabled by a Queue Depth High event or a Queue Full event",
      "A Queue Full event does not enable QDPLOEV.",
      mq(queues=[Q(maxdepth=1, qdpmaxev=True)]), puts(2) + [INSPECT])
fault("QD_SHARED_NEEDS_PERFMEV", "QDEPTH", QDEV,
      "A key difference is that events are switched on for shared queues even if PERFMEV is DISABLED on the queue manager.",
      "When the detecting queue manager has PERFMEV(DISABLED) the shared queue's switches are not toggled.",
      mq(queues=[QHI], perfmev_disabled=["QM01"]), puts(5) + [INSPECT])
fault("QD_NONSHARED_TOGGLES", "QDEPTH", QDEV,
      "In contrast the attributes for LQ1 remain unchanged until PERFMEV on the queue manager is ENABLED.",
      "A nonshared queue's switches are toggled although its queue manager has PERFMEV(DISABLED).",
      mq(queues=[Q("LQ1", None, qmgr="QM01", maxdepth=10, qdepthhi=50, qdphiev=True)],
         perfmev_disabled=["QM01"]), puts(5, q="LQ1") + [INSPECT])
fault("QD_NO_BROADCAST", "QDEPTH", QDEV,
      "Broadcasts to all other active queue managers in the same queue-sharing group to request the production of an event message for the shared queue.",
      "Only the coordinating queue manager issues an event message.",
      mq(queues=[QHI]), puts(5))
fault("QD_BROADCAST_INACTIVE", "QDEPTH", QDEV,
      "Broadcasts to all other active queue managers in the same queue-sharing group to request the production of an event message for the shared queue.",
      "A stopped queue manager still answers the broadcast with an event message.",
      mq(queues=[QHI]), [{"op": "stop_qmgr", "qmgr": "QM03"}] + puts(5))
fault("QD_BROADCAST_IGNORES_PERFMEV", "QDEPTH", QDEV,
      "If PERFMEV is set to DISABLED on some of the queue managers, event messages are not produced by those queue managers, making event monitoring from an application more difficult.",
      "A queue manager with PERFMEV(DISABLED) answers the broadcast with an event message.",
      mq(queues=[QHI], perfmev_disabled=["QM02"]), puts(5))
fault("QD_STATS_NOT_RESET", "QDEPTH", QDEV,
      "Issues an event message that captures all shared queue performance data it has gathered since the last time an event message was created, or since the queue statistics were last reset.",
      "Statistics are not restarted after an event message: the second event (Queue Depth Low) still counts the puts of the first.",
      mq(queues=[Q(maxdepth=10, qdepthhi=50, qdepthlo=20, qdphiev=True)]), puts(5) + [G(), G(), G()])
fault("QD_STATS_GROUP_WIDE", "QDEPTH", QDEV,
      "This event message that each queue manager generates represents its individual usage of the shared queue.",
      "Each event message carries the counts of the whole group instead of its own queue manager's.",
      mq(queues=[QHI]), puts(2, qm="QM02") + puts(3, start=10))
fault("QD_SKIP_IDLE_QMGR", "QDEPTH", QDEV,
      "If a queue manager performs no activity on the shared queue, various values in the event message are null or zero.",
      "Queue managers that did nothing with the queue do not issue their (null) event message.",
      mq(queues=[QHI]), puts(5))
fault("QD_LIMIT_AS_COUNT", "QDEPTH", FACTS,
      "Limits are expressed as a percentage of MaxQDepth, an integer 0 ≤ v ≤ 100.",
      "QDEPTHHI is compared with the depth as a message count (50 messages) instead of 50 % of MAXDEPTH(10).",
      mq(queues=[QHI]), puts(5))
fault("QD_BACKOUT_RESTORES_FLAGS", "QDEPTH", FACTS,
      "A rollback does not restore the enable flags.",
      "Backing out the unit of work that raised Queue Depth High restores QDPHIEV and the other switches.",
      mq(queues=[QHI]), puts(5, syncpoint=True) + [{"op": "backout", "qmgr": "QM01"}, INSPECT])
# ------------------------------------------------------------------ QUEUE
fault("Q_UNCOMMITTED_VISIBLE", "QUEUE", HELD,
      "Lock uncommitted messages on shared queues",
      "A message put under syncpoint can be got by another queue manager before the commit.",
      mq(), [P(tag=1, syncpoint=True), G("QM02")])
fault("Q_STOP_LOSES_SHARED_NP", "QUEUE", FACTS,
      "Nonpersistent messages on shared queues survive queue-manager restarts but not CF or structure failure",
      "Stopping a queue manager discards the nonpersistent shared messages it put.",
      mq(), [P(tag=1), {"op": "stop_qmgr", "qmgr": "QM01"}, G("QM02")])
fault("Q_FULL_OFF_BY_ONE", "QUEUE", FACTS,
      "the put fails because the queue \"already contains the maximum number of messages possible\", i.e. depth == MaxQDepth before the put.",
      "The queue is reported full one message early.",
      mq(queues=[Q(maxdepth=2)]), puts(2))
fault("Q_OTHER_QMGR_BLIND", "QUEUE", HELD,
      "Many queue managers in the same sysplex can access those messages using the CF list structure.",
      "A shared message can be got only through the queue manager that put it.",
      mq(), [P(tag=1), G("QM02")])
fault("Q_MAXMSGL_INCLUSIVE", "QUEUE", FACTS,
      "2030 MQRC_MSG_TOO_BIG_FOR_Q applies when length > min(queue MaxMsgLength, queue-manager MaxMsgLength).",
      "A message exactly MAXMSGL long is refused with 2030.",
      mq(queues=[Q(maxmsgl=1000)]), [P(length=1000, tag=1)])
fault("Q_PERSIST_RECOVER_NO_OK", "QUEUE", FACTS,
      "2048 MQRC_PERSISTENT_NOT_ALLOWED (MQCC_FAILED). \"On z/OS, you cannot put persistent messages to a shared queue if the CFSTRUCT that the queue uses is defined with RECOVER(NO).\"",
      "A persistent put to a RECOVER(NO) structure is accepted.",
      mq([S(cflevel=4, recover=False)]), [P(persistent=True, tag=1)])

# ------------------------------------------------------------------ RECOVERY
REC = [S(cflevel=4, recover=True)]
BACKUP = {"op": "backup", "qmgr": "QM01", "cfstruct": "APP1"}
FAIL = {"op": "fail_structure", "cfstruct": "APP1"}
RECOVER = {"op": "recover", "cfstruct": "APP1", "purge": False}
fault("R_BACKUP_RECOVER_NO", "RECOVERY", FACTS,
      "The command fails if the structure has CFLEVEL < 3 or RECOVER(NO).",
      "BACKUP CFSTRUCT of a RECOVER(NO) structure succeeds.",
      mq([S(cflevel=4, recover=False)]), [BACKUP])
fault("R_RECOVER_NOT_FAILED_OK", "RECOVERY", FACTS,
      "if TYPE(NORMAL) is specified and the structure has not been flagged as FAILED",
      "RECOVER CFSTRUCT TYPE(NORMAL) is accepted on a structure that has not failed.",
      mq(REC), [BACKUP, RECOVER])
fault("R_RECOVER_WITHOUT_BACKUP", "RECOVERY", HELD,
      "This uses the backup record from Db2 to locate and restore persistent messages from the backup of the CF structure.",
      "RECOVER CFSTRUCT succeeds (with an empty structure) although no backup was ever taken.",
      mq(REC), [FAIL, RECOVER])
fault("R_RECOVER_KEEPS_NP", "RECOVERY", FACTS,
      "Only persistent shared queue messages are backed up. Non-persistent messages are not backed up and cannot be recovered.",
      "Nonpersistent messages come back after the structure failure and RECOVER.",
      mq(REC), [BACKUP, P(tag=1), FAIL, RECOVER, G()])
fault("R_NO_LOG_REPLAY", "RECOVERY", HELD,
      "Any activity since the last backup is replayed using the logs of all the queue managers in the queue-sharing group, and the CF structure is then restored up to the point before the failure.",
      "RECOVER restores the backup only; persistent messages put after it are lost.",
      mq(REC), [BACKUP, P(tag=1, persistent=True), FAIL, RECOVER, G()])
fault("R_REPLAY_ACTIVE_ONLY", "RECOVERY", HELD,
      "Any activity since the last backup is replayed using the logs of all the queue managers in the queue-sharing group, and the CF structure is then restored up to the point before the failure.",
      "Only the logs of active queue managers are replayed: a message put by a queue manager that has since stopped is lost.",
      mq(REC), [BACKUP, P("QM02", tag=1, persistent=True), {"op": "stop_qmgr", "qmgr": "QM02"},
                FAIL, RECOVER, G()])
fault("R_FAILED_RC_2192", "RECOVERY", FACTS,
      "2373 MQRC_CF_STRUC_FAILED: the structure has failed.",
      "A put to a failed structure is answered 2192 (storage medium full) instead of 2373.",
      mq(REC), [FAIL, P(tag=1)])
fault("R_PURGE_KEEPS", "RECOVERY", FACTS,
      "TYPE(PURGE) \"recover[s] to empty CF structures. Any messages in the CF structures are lost\".",
      "RECOVER TYPE(PURGE) restores the persistent messages like TYPE(NORMAL).",
      mq(REC), [P(tag=1, persistent=True), BACKUP, FAIL,
                {"op": "recover", "cfstruct": "APP1", "purge": True}, G()])

# ------------------------------------------------------------------ CQS
fault("CQS_DEFAULT_80", "CQS", CQS_DOC,
      "The default overflow threshold is 70%, but you can change the default by defining the OVFLWMAX parameter in the CQSSGxxx member of the PROCLIB data set.",
      "Without OVFLWMAX the threshold is 80 %, so reaching 70 % starts no alter.",
      cqs([{"name": "MSGQ", "size_kb": SMALL, "ovflwmax": None, "ovflwstr": "MSGQOVF"}]), FILL70)
fault("CQS_THRESH_STRICT", "CQS", CQS_DOC,
      "When the usage of a structure reaches the overflow threshold, CQS attempts to make the structure larger by initiating a structure alter.",
      "The alter starts only when usage exceeds OVFLWMAX; reaching exactly 70 % does nothing.",
      cqs(), FILL70)
fault("CQS_NO_ALTER", "CQS", CQS_DOC,
      "When the usage of a structure reaches the overflow threshold, CQS attempts to make the structure larger by initiating a structure alter.",
      "CQS goes straight into overflow mode without first trying a structure alter.",
      cqs(), FILL70)
fault("CQS_OVERFLOW_AFTER_GOOD_ALTER", "CQS", CQS_DOC,
      "If CQS does not succeed in altering a structure's size, the structure goes into overflow mode.",
      "The structure goes into overflow mode even though the alter succeeded.",
      cqs([{"name": "MSGQ", "size_kb": 700, "initsize_kb": SMALL, "ovflwmax": 70,
            "ovflwstr": "MSGQOVF"}]),
      FILL70 + [{"op": "alter_outcome", "cfstruct": "MSGQ", "success": True, "size_kb": 700}])
fault("CQS_SELECT_SMALLEST", "CQS", CQS_DOC,
      "In overflow mode, CQS selects queues using the most space on the structure as candidates for overflow processing.",
      "Candidates are taken smallest first.",
      cqs(), FILL70 + [FAIL_ALTER])
fault("CQS_TARGET_AT_THRESHOLD", "CQS", CQS_DOC,
      "CQS stops selecting queues when enough queues have been selected to cause the primary structure usage to fall 20% below the overflow threshold.",
      "Selection stops as soon as usage is below OVFLWMAX, not 20 % below it (seven equal queues of 10 %: the first selection leaves 60 %).",
      cqs(queues=[{"name": f"Q{i}", "cfstruct": "MSGQ"} for i in range(1, 8)]),
      sum((cput(f"Q{i}", 2, start=10 * i) for i in range(1, 8)), []) + [FAIL_ALTER])
fault("CQS_IGNORE_EXIT", "CQS", CQS_DOC,
      "CQS drives the Queue Overflow User-Supplied exit routine with the candidate queue names, which the exit then approves or rejects for overflow processing.",
      "The Queue Overflow exit is not driven: a queue it would veto is moved.",
      cqs(overflow_exit=["QA"]), FILL70 + [FAIL_ALTER])
fault("CQS_VETO_STOPS", "CQS", FACTS,
      "A vetoed name is removed from the candidate list and another queue is selected.",
      "A veto ends the selection instead of moving on to the next candidate.",
      cqs(), [{"op": "set_overflow_exit", "vetoes": ["QA"]}] + FILL70 + [FAIL_ALTER])
fault("CQS_NO_OVFLW_ACCEPTS", "CQS", CQS_DOC,
      "If an overflow structure is not defined, CQS rejects CQSPUT requests for the approved queues.",
      "Without an overflow structure, puts to approved queues are still accepted.",
      cqs([{"name": "MSGQ", "size_kb": SMALL, "ovflwmax": 70}]),
      FILL70 + [FAIL_ALTER] + cput("QA", 1, length=100, start=90))
fault("CQS_OVFLW_REJECTS", "CQS", CQS_DOC,
      "If an overflow structure is defined, CQS allocates the overflow structure and moves the data objects associated with the approved queues to the overflow structure.",
      "With an overflow structure, puts to queues in overflow mode are rejected as if none were defined.",
      cqs(), FILL70 + [FAIL_ALTER] + cput("QA", 1, length=100, start=90))
STG = cqs([{"name": "MSGQ", "size_kb": SMALL, "ovflwmax": 20, "ovflwstr": "MSGQOVF"}],
          [{"name": "QA", "cfstruct": "MSGQ"}], lgmsgsz=4096)
fault("CQS_STAGING_MOVED", "CQS", CQS_DOC,
      "Any parts of a message that are on the staging queue remain on the primary structure.",
      "The staging parts of a large message move to the overflow structure with its first part.",
      STG, cput("QA", 2, length=20000) + [FAIL_ALTER, INSPECT])
fault("CQS_SCAN_10MIN", "CQS", CQS_DOC,
      "(The queues are scanned every 15 minutes.)",
      "The overflow scan runs every 10 minutes.",
      cqs(), FILL70 + [FAIL_ALTER] + cget("QA", 3) + cget("QB", 3) +
      [{"op": "advance_clock", "seconds": 600}])
fault("CQS_NO_EXIT_OVERFLOW", "CQS", CQS_DOC,
      "When all queues have been removed, CQS exits overflow mode.",
      "After the scan has returned the last queue, the structure stays in overflow mode.",
      cqs(), FILL70 + [FAIL_ALTER] + cget("QA", 3) + cget("QB", 3) +
      [{"op": "advance_clock", "seconds": 900}])
fault("CQS_NOOVF_EXIT_AT_THRESHOLD", "CQS", CQS_DOC,
      "If no overflow structure is allocated, CQS exits overflow mode when the primary structure usage drops 20% below the overflow threshold.",
      "Without an overflow structure CQS leaves overflow mode as soon as usage is below OVFLWMAX.",
      cqs([{"name": "MSGQ", "size_kb": SMALL, "ovflwmax": 70}]),
      FILL70 + [FAIL_ALTER] + cget("QC", 1))
fault("CQS_RESOURCE_OVERFLOW", "CQS", CQS_DOC,
      "Structure overflow is not supported for resource structures.",
      "A resource structure reaching OVFLWMAX starts an alter and overflow processing.",
      cqs([{"name": "MSGQ", "size_kb": SMALL, "ovflwmax": 70, "resource": True}]), FILL70)
fault("CQS_LGMSGSZ_NO_CAP", "CQS", FACTS,
      "Maximum 30632. A larger value is set to 30632.",
      "LGMSGSZ(40000) is used as given, so a 35000-byte message is not split.",
      cqs(lgmsgsz=40000), cput("QA", 1, length=35000) + [INSPECT])
fault("CQS_SPLIT_AT_EQUAL", "CQS", CQS_DOC,
      "Large messages (messages that exceed the size of a queue manager long message record) are put on the shared queue structure in multiple parts.",
      "A message exactly LGMSGSZ long is split, leaving an empty part on the staging queue.",
      cqs(lgmsgsz=4096), cput("QA", 1, length=4096) + [INSPECT])
fault("CQS_ADD_OVFLWSTR_LATER", "CQS", FACTS,
      "Adding one later requires a cold start of the structure and of all CQSs",
      "OVFLWSTR is added to a running structure by ALTER.",
      cqs([{"name": "MSGQ", "size_kb": SMALL, "ovflwmax": 70}]),
      [{"op": "alter_structure", "name": "MSGQ", "changes": {"ovflwstr": "MSGQOVF"}}])
fault("CQS_SECOND_CROSS_IGNORED", "CQS", CQS_DOC,
      "When the usage of a structure reaches the overflow threshold, CQS attempts to make the structure larger by initiating a structure alter.",
      "Once overflow mode has ended, reaching OVFLWMAX a second time starts no new alter.",
      cqs([{"name": "MSGQ", "size_kb": SMALL, "ovflwmax": 70}]),
      FILL70 + [FAIL_ALTER] + cget("QC", 3) + cget("QD", 1) + cput("QE", 4, start=80))
fault("CQS_STAGING_ELIGIBLE", "CQS", CQS_DOC,
      "The staging queue is not eligible for overflow processing.",
      "The staging queue is a candidate like any ready queue (it uses the most space here).",
      cqs([{"name": "MSGQ", "size_kb": SMALL, "ovflwmax": 50, "ovflwstr": "MSGQOVF"}],
          [{"name": "QA", "cfstruct": "MSGQ"}, {"name": "QB", "cfstruct": "MSGQ"}], lgmsgsz=4096),
      cput("QA", 1, length=60000) + cput("QB", 12, length=100, start=10) + [FAIL_ALTER])

# ------------------------------------------------------------------ SIZING
fault("SZ_ADMIN_ROW3", "SIZING", PLAN, "3 7976 KB",
      "Table 1 read as 7936 KB for three queue managers (the value looks like a typo and was 'corrected').",
      mq(), [INSPECT])
fault("SZ_ADMIN_ROW_SHIFT", "SIZING", PLAN,
      "Table 1 shows the minimum required size for the administrative structure for various numbers of queue managers defined in the queue sharing group.",
      "Table 1 is indexed from zero: two queue managers get the one-queue-manager size.",
      mq(qmgrs=["QM01", "QM02"]), [INSPECT])
fault("SZ_ADMIN_FORMULA", "SIZING", PLAN, "25 27136 KB",
      "CSQ_ADMIN sized with a linear fit (5298 + 866 n KB) instead of Table 1.",
      mq(qmgrs=[f"Q{i:03d}" for i in range(1, 26)]), [INSPECT])
fault("SZ_ADMIN_CFCC9_AS_14", "SIZING", FACTS,
      "MQ V6 (CFCC level 9) gives 1→2560 KB, 2→3328, 4→4608, 8→7680, 16→13568, 31→24832 KB.",
      "The CFCC level 9 edition of the admin table is answered with the CFCC 14 values.",
      mq(qmgrs=["QM01", "QM02"], admin_table="cfcc9"), [INSPECT])
fault("SZ_ADMIN_UNCHECKED", "SIZING", PLAN,
      "When a queue manager starts, the structure is checked to see if it is large enough for the number of queue managers currently defined to the queue sharing group.",
      "A CSQ_ADMIN of 6000 KB is accepted for one queue manager (Table 1 asks 6144 KB).",
      mq(qmgrs=["QM01"], admin_size_kb=6000), [])
fault("SZ_INITSIZE_IGNORED", "SIZING", PLAN,
      "INITSIZE is the size in KB that the structure is allocated with when the first queue manager connects to it.",
      "The structure is allocated at SIZE, ignoring INITSIZE.",
      mq([S(size_kb=8192, initsize_kb=4096)]), [INSPECT])
fault("SZ_INITSIZE_OVER_SIZE", "SIZING", PLAN,
      "SIZE is the maximum size that the structure can attain.",
      "An INITSIZE larger than SIZE is accepted.",
      mq([S(size_kb=8192, initsize_kb=16384)]), [])
fault("SZ_FIXED_6MB", "SIZING", PLAN,
      "100 6 MB 6 MB 7 MB 7 MB 8 MB 10 MB 14 MB",
      "The whole 6 MB intercept of Table 2 is charged as control space, so a 6 MB structure cannot hold even one of the 100 1 KB messages Table 2 sizes it for.",
      mq([S(size_kb=6144)]), [P(length=1024, tag=1)])

# ------------------------------------------------------------------ TOPOLOGY
many_q = [Q(f"Q{i:03d}") for i in range(1, 513)]
fault("T_513_QUEUES", "TOPOLOGY", PLAN,
      "Each structure can hold up to 512 shared queues.",
      "A 513th queue is accepted on one structure.",
      mq(queues=many_q), [{"op": "define_queue", "queue": {"name": "Q513", "cfstruct": "APP1"}}])
fault("T_64_APPL", "TOPOLOGY", PLAN,
      "A queue sharing group can connect to up to 64 coupling facility structures. One of these structures must be the administration structure.",
      "64 application structures are accepted, forgetting that CSQ_ADMIN is one of the 64.",
      mq([S(f"APP{i}") for i in range(1, 64)], [Q()]),
      [{"op": "define_structure", "structure": {"name": "APP64"}}])
fault("T_SYSAPPL_EXTRA", "TOPOLOGY", PLAN,
      "You can use up to 63 (62 if qsg-nameCSQSYSAPPL is defined) structures for message data.",
      "CSQSYSAPPL is not counted: 63 message structures plus CSQSYSAPPL are accepted.",
      mq([S(f"APP{i}") for i in range(1, 63)] + [S("CSQSYSAPPL")], [Q()]),
      [{"op": "define_structure", "structure": {"name": "APP63"}}])
fault("T_NAME_16", "TOPOLOGY", FACTS,
      "Structure name: ≤ 12 characters; starts with an uppercase letter A–Z; only A–Z and 0–9.",
      "MQ structure names up to 16 characters (the z/OS limit) are accepted, forgetting the 4-character QSG prefix.",
      mq(), [{"op": "define_structure", "structure": {"name": "ABCDEFGHIJKLM"}}])
fault("T_QSG_8", "TOPOLOGY", FACTS,
      "QSG name: \"up to four characters\", unique in the network, and different from any queue manager name.",
      "QSG names up to 8 characters are accepted.",
      mq(qsg="QSGROUP1"), [])
fault("T_QMGR_IS_QSG", "TOPOLOGY", FACTS,
      "QSG name: \"up to four characters\", unique in the network, and different from any queue manager name.",
      "A queue manager with the QSG's own name is accepted.",
      mq(qsg="QM01"), [])
fault("T_33_QMGRS", "TOPOLOGY", HELD,
      "Up to 32 queue managers in a queue-sharing group can connect to a coupling facility list structure at the same time.",
      "33 queue managers are accepted and all connect to the structure.",
      mq(qmgrs=[f"Q{i:03d}" for i in range(1, 34)]), [])
fault("T_CFNAME_BLANK_PAD", "TOPOLOGY", FACTS,
      "always four characters, padded with @ symbols if necessary",
      "A short QSG name is padded with blanks in the CFRM structure name.",
      mq(qsg="QG"), [INSPECT])

if __name__ == "__main__":
    ids = [f["id"] for f in F]
    assert len(ids) == len(set(ids)), "duplicate ids"
    with open(os.path.join(HERE, "faults.json"), "w") as fh:
        json.dump(F, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    print(f"wrote {len(F)} faults")
