#!/usr/bin/env python3
"""Writes faults.json: every deliberate fault of impl.py with the sentence it
violates, the file the sentence comes from, and a wire scenario on which the
faithful and the faulty builds answer differently.  (faultcheck.py checks all
of that.)"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
T000 = "000_869f717547e3a89a.txt"   # CQS structure overflow
T001 = "001_bbb586403b3000fc.txt"   # MQ planning CF / offload storage
T002 = "002_adc847a8fc6c1ca2.txt"   # MQ offload options
T003 = "003_83ac8579f7e0d9f5.txt"   # where shared queue messages are held
T004 = "004_97a0fff9f37ed76b.txt"   # shared queues and queue depth events
FACTS = "ibm-facts.md"


# ---------------------------------------------------------------- builders
def S(name="APP1", **kw):
    d = {"name": name}
    d.update(kw)
    return d


def Q(name="Q1", cfstruct="APP1", **kw):
    d = {"name": name, "cfstruct": cfstruct}
    d.update(kw)
    return d


def mq(structures=None, queues=None, qmgrs=("QM01", "QM02"), **kw):
    c = {"profile": "mq", "qsg": "QSG1", "qmgrs": list(qmgrs),
         "structures": structures if structures is not None else [S()],
         "queues": queues if queues is not None else [Q()]}
    c.update(kw)
    return c


def cqs(structures=None, queues=None, **kw):
    c = {"profile": "cqs", "qsg": "IMS1", "qmgrs": ["CQS1", "CQS2"],
         "structures": structures if structures is not None else [S(size_kb=1024)],
         "queues": queues if queues is not None else [Q("Q1"), Q("Q2"), Q("Q3")],
         "lgmsgsz": 30632}
    c.update(kw)
    return c


def put(q="Q1", length=100, qmgr="QM01", **kw):
    d = {"op": "put", "qmgr": qmgr, "queue": q, "length": length}
    d.update(kw)
    return d


def get(q="Q1", qmgr="QM01", **kw):
    d = {"op": "get", "qmgr": qmgr, "queue": q}
    d.update(kw)
    return d


def cput(q, length=30632, tag=0):
    return {"op": "put", "qmgr": "CQS1", "queue": q, "length": length, "tag": tag}


def cget(q):
    return {"op": "get", "qmgr": "CQS1", "queue": q}


INSPECT = {"op": "inspect"}


def clock(sec):
    return {"op": "advance_clock", "seconds": sec}


# structure of 1024 KB, ratio 6: 420 entries, 2520 elements; 64512-byte messages take 254 elements
def fill70(n=7):
    return [put(length=64512, tag=i) for i in range(n)]        # 7 x 254 = 1778 el = 70.6 %


def exact70():
    return fill70(6) + [put(length=60928)]                       # 6 x 254 + 240 = 1764 = 70.0 %


def s1_puts():
    """CQS: Q1 x8, Q2 x5, Q3 x2 full records (122 elements each): the 15th put reaches 70%."""
    return [cput("Q1", tag=i) for i in range(8)] + [cput("Q2", tag=10 + i) for i in range(5)] + \
           [cput("Q3", tag=20 + i) for i in range(2)]


F = []


def fault(id, family, source, sentence, description, config, ops):
    F.append({"id": id, "family": family, "sentence": sentence, "source": source,
              "description": description, "scenario": {"config": config, "ops": ops}})


# ==================================================================== CQS
OVS = [S(size_kb=1024, ovflwstr="OVF1")]
NOVS = [S(size_kb=1024)]

fault("CQS_REACH_STRICT", "CQS", T000,
      "When the usage of a structure reaches the overflow threshold, CQS attempts to make the structure larger by initiating a structure alter.",
      "Overflow processing compared with > instead of >=: usage exactly at OVFLWMAX starts nothing.",
      cqs(OVS), [cput("Q1") for _ in range(14)] + [cput("Q2", 13824)])
fault("CQS_NO_ALTER", "CQS", T000,
      "If CQS does not succeed in altering a structure's size, the structure goes into overflow mode.",
      "CQS skips the structure alter and enters overflow mode although the alter (INITSIZE<SIZE) would succeed.",
      cqs([S(size_kb=2048, initsize_kb=768, ovflwstr="OVF1")]), [cput("Q1") for _ in range(10)] + [INSPECT])
fault("CQS_DEFAULT_80", "CQS", T000,
      "The default overflow threshold is 70%, but you can change the default by defining the OVFLWMAX parameter in the CQSSGxxx member of the PROCLIB data set.",
      "Default OVFLWMAX taken as 80%.", cqs(OVS), s1_puts())
fault("CQS_SELECT_SMALLEST", "CQS", T000,
      "In overflow mode, CQS selects queues using the most space on the structure as candidates for overflow processing.",
      "Candidates are taken least-space first.", cqs(OVS), s1_puts() + [INSPECT])
fault("CQS_SELECT_ALL", "CQS", T000,
      "CQS stops selecting queues when enough queues have been selected to cause the primary structure usage to fall 20% below the overflow threshold.",
      "Selection never stops early: every candidate is moved.", cqs(OVS), s1_puts() + [INSPECT])
fault("CQS_EXIT_IGNORED", "CQS", T000,
      "CQS drives the Queue Overflow User-Supplied exit routine with the candidate queue names, which the exit then approves or rejects for overflow processing.",
      "The exit's rejections are ignored.", cqs(OVS, overflow_exit=["Q1"]), s1_puts() + [INSPECT])
fault("CQS_VETO_STOPS", "CQS", FACTS,
      "A vetoed name is removed from the candidate list and another queue is selected.",
      "A veto ends the selection instead of moving on to the next candidate.",
      cqs(OVS, overflow_exit=["Q1"]), s1_puts() + [INSPECT])
fault("CQS_NOOVF_ACCEPT", "CQS", T000,
      "If an overflow structure is not defined, CQS rejects CQSPUT requests for the approved queues.",
      "Without OVFLWSTR, puts to approved queues are accepted.", cqs(NOVS), s1_puts() + [cput("Q1")])
fault("CQS_NOT_MOVED", "CQS", T000,
      "If an overflow structure is defined, CQS allocates the overflow structure and moves the data objects associated with the approved queues to the overflow structure.",
      "Approved queues' data stays on the primary structure.", cqs(OVS), s1_puts() + [INSPECT])
fault("CQS_SCAN_30", "CQS", T000,
      "(The queues are scanned every 15 minutes.)",
      "The overflow scan runs every 30 minutes.",
      cqs(OVS), s1_puts() + [cget("Q1") for _ in range(8)] + [clock(900), INSPECT])
fault("CQS_QUEUE_OFF_AT_DELETE", "CQS", T000,
      "Because the scan is periodic, empty queues might remain in overflow mode temporarily.",
      "A queue leaves overflow mode at the CQSDEL that empties it, without waiting for the scan.",
      cqs(OVS), s1_puts() + [cget("Q1") for _ in range(8)] + [INSPECT])
fault("CQS_SCAN_REMOVES_NONEMPTY", "CQS", T000,
      "If an overflow structure is allocated, a queue remains in overflow mode until CQS detects that there are no more entries in the queue.",
      "The scan returns non-empty queues to normal processing.", cqs(OVS), s1_puts() + [clock(900), INSPECT])
fault("CQS_MODE_STAYS", "CQS", T000,
      "When all queues have been removed, CQS exits overflow mode.",
      "The structure stays in overflow mode after its last queue has been removed.",
      cqs(OVS), s1_puts() + [cget("Q1") for _ in range(8)] + [clock(900), INSPECT])
fault("CQS_RELIEF_AT_THRESHOLD", "CQS", T000,
      "If no overflow structure is allocated, CQS exits overflow mode when the primary structure usage drops 20% below the overflow threshold.",
      "Without OVFLWSTR, overflow mode ends as soon as usage is below OVFLWMAX.",
      cqs(NOVS), s1_puts() + [cget("Q2"), INSPECT])
fault("CQS_STAGING_MOVED", "CQS", T000,
      "Any parts of a message that are on the staging queue remain on the primary structure.",
      "Staging-queue parts are moved to the overflow structure with their queue.",
      cqs(OVS), [cput("Q1", 61264, i) for i in range(7)] + [cput("Q2")] + [INSPECT])
fault("CQS_NO_SPLIT", "CQS", T000,
      "The second and subsequent parts are placed on a secondary queue called the staging queue.",
      "Large messages are stored whole on the ready queue.", cqs(OVS), [cput("Q1", 61264), INSPECT])
fault("CQS_SPLIT_AT_EQUAL", "CQS", T000,
      "Large messages (messages that exceed the size of a queue manager long message record) are put on the shared queue structure in multiple parts.",
      "A message exactly one long message record long is split (off by one).",
      cqs(OVS), [cput("Q1", 30632), INSPECT])
fault("CQS_RESOURCE_OVERFLOW", "CQS", T000,
      "Important: Structure overflow is not supported for resource structures.",
      "Overflow processing also runs for resource structures.",
      cqs([S(size_kb=1024, resource=True)]), s1_puts() + [INSPECT])
fault("CQS_OVFLWMAX_IGNORED", "CQS", T000,
      "The overflow threshold is the percentage of the primary structure that must be in use before CQS goes into overflow mode.",
      "The configured OVFLWMAX is ignored; 70% is always used.",
      cqs([S(size_kb=1024, ovflwstr="OVF1", ovflwmax=50)]), [cput("Q1") for _ in range(11)])
fault("CQS_REJECT_ALL_QUEUES", "CQS", T000,
      "If the alter fails, CQS either allocates an overflow structure and moves data objects associated with selected queues to the overflow structure (if you define an overflow structure) or rejects data objects from being put on the selected queues.",
      "Without OVFLWSTR, puts to every queue of the structure are rejected, not only to the selected ones.",
      cqs(NOVS), s1_puts() + [cput("Q3")])
fault("CQS_STAGING_COUNTED", "CQS", T000,
      "The staging queue is not eligible for overflow processing.",
      "A queue's staging parts are counted as its space when ranking candidates.",
      cqs(OVS), [cput("Q1", 61264, i) for i in range(3)] + [cput("Q2", 30632, 10 + i) for i in range(5)] +
      [cput("Q3", 30632, 20 + i) for i in range(4)] + [INSPECT])
fault("CQS_OVF_PUT_PRIMARY", "CQS", FACTS,
      "The Redbook adds that the **whole queue** is moved, that a queue **cannot be in both** the primary and the overflow structure",
      "New CQSPUTs to a queue already moved to the overflow structure still land on the primary.",
      cqs(OVS), s1_puts() + [cput("Q1"), INSPECT])
fault("CQS_ALTER_NEVER_FAILS", "CQS", FACTS,
      "The CQS-initiated alter grows the primary structure from INITSIZE toward SIZE, and applies **only to the primary structure**.",
      "The CQS alter reports success even when the structure is already at SIZE, so overflow never starts.",
      cqs(OVS), s1_puts() + [INSPECT])
fault("CQS_METRIC_ENTRIES", "CQS", FACTS,
      "IMS 15.3 \"Using structure alter for CQS\" (Chinese edition) says that OVFLWMAX specifies the percentage of the structure's *elements* that must be in use to trigger CQS overflow processing, default 70%.",
      "OVFLWMAX is compared with the entries in use instead of the data elements.",
      cqs(OVS), s1_puts() + [INSPECT])

# ================================================================ OFFLOAD
L5 = [S(size_kb=1024, cflevel=5)]
fault("OFF_TH_INCLUSIVE", "OFFLOAD", T002,
      "If the coupling facility structure is more than 70% full offload data for messages exceeding 32 KB",
      "Usage threshold compared with >=: a structure exactly 70% full offloads.",
      mq(L5), exact70() + [put(length=40000)])
fault("OFF_SZ_INCLUSIVE", "OFFLOAD", T002,
      "If the coupling facility structure is more than 70% full offload data for messages exceeding 32 KB",
      "Size compared with >=: a message of exactly 32 KB is offloaded.",
      mq(L5), fill70() + [put(length=32768)])
fault("OFF_64K_WRAPS", "OFFLOAD", T002,
      "If an offload rule has the OFFLD x SZ value of 64K this indicates that the rule is not in effect.",
      "OFFLD1SZ(64K) wraps to 0K (16-bit field) and offloads everything above OFFLD1TH.",
      mq([S(size_kb=1024, cflevel=5, offld1sz=65536)]), fill70() + [put(length=100)])
fault("OFF_NO_FORCED", "OFFLOAD", T002,
      "In this case messages will only be offloaded if another offload rule is in effect, or if the message is greater than 63.75 KB and so, too large to store in the structure.",
      "With every rule off, a message over 63.75 KB is kept in the structure.",
      mq([S(cflevel=5, offld1sz=65536, offld2sz=65536, offld3sz=65536)]), [put(length=70000)])
fault("OFF_SIZE_ONLY", "OFFLOAD", FACTS,
      "So the correct behaviour needs both the size test and the threshold test of the same rule.",
      "APAR PI21909 defect: a message exceeding a rule's size is offloaded whatever the usage.",
      mq([S(cflevel=5)]), [put(length=40000)])
fault("OFF_CROSS_RULE", "OFFLOAD", T002,
      "There are three rules, and each rule specifies a matching pair of parameters.",
      "The threshold of one rule is combined with the size limit of another.",
      mq(L5), fill70() + [put(length=10000)])
fault("OFF_DB2_AS_SMDS", "OFFLOAD", T002,
      "The selection of SMDS or Db2 shared message storage is controlled with the OFFLOAD(SMDS|DB2) parameter on the CFSTRUCT definition.",
      "OFFLOAD(DB2) structures put offloaded data in SMDS.",
      mq([S(cflevel=5, offload="DB2")]), [put(length=70000)])
fault("OFF_DEFAULT_DB2", "OFFLOAD", T002, "OFFLOAD(SMDS) is the default value.",
      "OFFLOAD defaults to DB2.", mq([S(cflevel=5)]), [put(length=70000)])
fault("OFF_RULES_BELOW_5", "OFFLOAD", T003,
      "5 - can be used for persistent and nonpersistent messages up to 100 MB and selectively offloaded to shared message data sets (SMDS) or Db2.",
      "Offload rules are applied at CFLEVEL(4) too.",
      mq([S(size_kb=1024, cflevel=4)]), fill70() + [put(length=40000)])
fault("OFF_DEFINE_L4_ACCEPTED", "OFFLOAD", T002,
      "This parameter also requires the CFSTRUCT to use CFLEVEL(5) or greater.",
      "DEFINE CFSTRUCT accepts OFFLOAD at CFLEVEL(4).",
      mq(), [{"op": "define_structure", "structure": S("APP2", cflevel=4, offload="SMDS")}])
fault("OFF_COST_FULL", "OFFLOAD", T002,
      "Each message which is offloaded still requires 0.75 KB of storage in the coupling facility.",
      "An offloaded message is charged its full size in the structure.", mq([S(cflevel=5)]), [put(length=70000)])
fault("OFF_COST_ENTRY_ONLY", "OFFLOAD", T003,
      "However, with CFLEVEL(5) you can use the offload parameters to offload data for messages less than 63 KB thereby increasing the number of messages which can be stored in the structure, although each message still requires at least a coupling facility entry plus at least 512 bytes of data.",
      "An offloaded message is charged only its list entry.", mq([S(cflevel=5)]), [put(length=70000)])
fault("OFF_USAGE_AFTER", "OFFLOAD", T002,
      "Message data is offloaded to SMDS or Db2 based on the size of the message data, and the current usage of the coupling facility structure.",
      "The threshold test uses the usage after the new message is added.",
      mq(L5), fill70(6) + [put(length=44544), put(length=40000)])
fault("OFF_ALTER_RESETS", "OFFLOAD", FACTS,
      "ALTER CFSTRUCT has the same offload keywords and no defaults; keywords not specified are left unchanged.",
      "ALTER CFSTRUCT resets offload keywords it does not name to their DEFINE defaults.",
      mq([S(size_kb=1024, cflevel=5, offld1sz=65536, offld2sz=65536)]),
      [{"op": "alter_structure", "name": "APP1", "changes": {"offld3th": 95}}] + fill70() + [put(length=40000)])

fault("OFF_TH0_EMPTY", "OFFLOAD", T002,
      "For example, if messages exceeding 32KB occur frequently but the elapsed time performance for offloading them (as determined from RMF statistics or application performance) is very similar to that for keeping them in the coupling facility, then the threshold for the first rule could be set to 0% to offload all such messages.",
      "OFFLD1TH(0) compared strictly: the first large message into an empty structure is not offloaded.",
      mq([S(cflevel=5, offld1th=0)]), [put(length=40000)])

# ================================================================ CFLEVEL
fault("CFL_PERSIST_L2", "CFLEVEL", T003, "1, 2 - can be used for nonpersistent messages less than 63 KB",
      "Persistent messages accepted on a CFLEVEL(2) structure marked RECOVER(YES).",
      mq([S(cflevel=2, recover=True)]), [put(persistent=True)])
fault("CFL_RECOVERNO_PERSIST", "CFLEVEL", FACTS,
      "On z/OS, you cannot put persistent messages to a shared queue if the CFSTRUCT that the queue uses is defined with RECOVER(NO).",
      "Persistent messages accepted on RECOVER(NO).", mq([S(cflevel=3, recover=False)]), [put(persistent=True)])
fault("CFL_LARGE_L3_6375", "CFLEVEL", T003, "3 - can be used for persistent and nonpersistent messages less than 63 KB",
      "CFLEVEL(3) accepts messages up to 63.75 KB.", mq([S(cflevel=3)]), [put(length=65000)])
fault("CFL_LARGE_RC_2030", "CFLEVEL", FACTS,
      "For example an MQPUT or MQPUT1 call was issued with a message that was bigger than 63 KB in length, and the shared queue was using an IBM MQ CFSTRUCT with a CFLEVEL of less than 4.",
      "A message over 63 KB on CFLEVEL(3) gets 2030 although MAXMSGL allows it.",
      mq([S(cflevel=3)]), [put(length=70000)])
fault("CFL_DECREASE_UNGUARDED", "CFLEVEL", FACTS,
      "Decrease from 3 or from 4 only if every queue referencing the structure is empty (no messages and no uncommitted activity) and closed.",
      "CFLEVEL lowered while a queue on the structure holds messages.",
      mq([S(cflevel=4)]), [put(), {"op": "alter_structure", "name": "APP1", "changes": {"cflevel": 3}}])
fault("CFL_DECREASE_IGNORES_UNCOMMITTED", "CFLEVEL", FACTS,
      "Decrease from 3 or from 4 only if every queue referencing the structure is empty (no messages and no uncommitted activity) and closed.",
      "The decrease guard ignores uncommitted activity (an MQGET in syncpoint).",
      mq([S(cflevel=4)]), [put(), get(syncpoint=True),
                           {"op": "alter_structure", "name": "APP1", "changes": {"cflevel": 3}}])
fault("CFL_LEVEL6_ACCEPTED", "CFLEVEL", T003,
      "CF structures have a CFLEVEL attribute that determines their functional capability:",
      "DEFINE CFSTRUCT accepts CFLEVEL(6).", mq(), [{"op": "define_structure", "structure": S("APP2", cflevel=6)}])
fault("CFL_RECOVER_L2_DEFINE", "CFLEVEL", FACTS,
      "V6 says CFLEVEL 3 \"is required if you want to use persistent messages on shared queues (if RECOVER(YES) is set)\", which implies it is.",
      "DEFINE CFSTRUCT accepts RECOVER(YES) with CFLEVEL(2).",
      mq(), [{"op": "define_structure", "structure": S("APP2", cflevel=2, recover=True)}])
fault("CFL_L4_SMDS", "CFLEVEL", FACTS,
      "Before V7.1, messages over 63K were stored in a shared Db2 table (\"message body size was fixed at 63 K\"); V7.1 introduced SMDS and the offload rules.",
      "At CFLEVEL(4) large message data is reported in SMDS.", mq([S(cflevel=4)]), [put(length=70000)])
fault("CFL_RAISE_KEEPS_DB2", "CFLEVEL", T002, "OFFLOAD(SMDS) is the default value.",
      "After ALTER CFLEVEL(5) large message data still goes to Db2 (OFFLOAD default not applied).",
      mq([S(cflevel=4)]), [{"op": "alter_structure", "name": "APP1", "changes": {"cflevel": 5}}, put(length=70000)])

# =============================================================== CAPACITY
R255 = [S(size_kb=1024, ratio=255)]                 # 11 entries, 2805 elements
fault("CAP_FT_STRICT", "CAPACITY", T001,
      "FULLTHRESHOLD sets the percentage value of the threshold at which z/OS® issues message IXC585E to indicate that the structure is getting full.",
      "IXC585E only above FULLTHRESHOLD, not at it.",
      mq([S(size_kb=1024, fullthreshold=80)]), fill70() + [put(length=60416)])
fault("CAP_FT_ELEMENTS_ONLY", "CAPACITY", FACTS,
      "IXC585E is issued when the number of **entries or elements** in use reaches FULLTHRESHOLD; IXC586I when usage goes back below it.",
      "Structure-full monitoring ignores entries.", mq(R255), [put(length=0, tag=i) for i in range(9)])
fault("CAP_NO_586", "CAPACITY", FACTS,
      "IXC585E is issued when the number of **entries or elements** in use reaches FULLTHRESHOLD; IXC586I when usage goes back below it.",
      "No IXC586I when usage falls back below FULLTHRESHOLD.",
      mq(R255), [put(length=0, tag=i) for i in range(9)] + [get()])
fault("CAP_FT0_MONITORS", "CAPACITY", FACTS, "The default is 80%. FULLTHRESHOLD(0) disables monitoring.",
      "FULLTHRESHOLD(0) still issues IXC585E.", mq([S(size_kb=1024, ratio=255, fullthreshold=0)]), [put(length=0)])
fault("CAP_FULL_RC_2053", "CAPACITY", T001,
      "If no action is taken and a queue structure fills up, an MQRC_STORAGE_MEDIUM_FULL return code is returned to the application.",
      "A full structure answers MQRC_Q_FULL.", mq(R255), [put(length=0, tag=i) for i in range(12)])
fault("CAP_FULL_ELEMENTS_ONLY", "CAPACITY", FACTS, "A structure is full if either all ENTRYs or all ELEMENTs are in use.",
      "The structure counts as full only when elements run out.", mq(R255), [put(length=0, tag=i) for i in range(12)])
fault("CAP_FT_101_ACCEPTED", "CAPACITY", FACTS,
      "FULLTHRESHOLD valid values are 0–100 (decimal), default 80, where 0 means no monitoring or auto-alter.",
      "FULLTHRESHOLD(101) accepted.", mq([S(fullthreshold=101)]), [INSPECT])
fault("CAP_586_AT_THRESHOLD", "CAPACITY", FACTS,
      "IXC585E is issued when the number of **entries or elements** in use reaches FULLTHRESHOLD; IXC586I when usage goes back below it.",
      "IXC586I issued when usage drops to FULLTHRESHOLD (off by one).",
      mq([S(size_kb=1024, fullthreshold=80)]), [put(length=0)] + fill70() + [put(length=60416), get()])

# ================================================================= SIZING
fault("SIZ_ALTER_ABOVE_SIZE", "SIZING", T001,
      "alters the size of the structure to newsize, where newsize is a value that is less than the value of SIZE specified on the CFRM policy for the structure, but greater than the current coupling facility size.",
      "SETXCF ALTER above SIZE accepted.", mq([S(size_kb=8192, initsize_kb=4096)]),
      [{"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 9000}])
fault("SIZ_ALTER_NO_EFFECT", "SIZING", T001,
      "alters the size of the structure to newsize, where newsize is a value that is less than the value of SIZE specified on the CFRM policy for the structure, but greater than the current coupling facility size.",
      "SETXCF ALTER answers ok but the structure keeps its size.", mq([S(size_kb=8192, initsize_kb=4096)]),
      [{"op": "setxcf_alter", "cfstruct": "APP1", "size_kb": 6000}, INSPECT])
fault("SIZ_ADMIN_ROW_OFF_BY_ONE", "SIZING", T001, "3 7976 KB",
      "CSQ_ADMIN sized from Table 1's row for n-1 queue managers.", mq(qmgrs=("QM01", "QM02", "QM03")), [INSPECT])
fault("SIZ_ADMIN_SMALL_ACCEPTED", "SIZING", T001,
      "Table 1 shows the minimum required size for the administrative structure for various numbers of queue managers defined in the queue sharing group.",
      "A CSQ_ADMIN below Table 1's minimum is accepted.", mq(admin_size_kb=6144), [INSPECT])
fault("SIZ_INITSIZE_IGNORED", "SIZING", T001,
      "INITSIZE is the size in KB that the structure is allocated with when the first queue manager connects to it.",
      "Structures allocated at SIZE.", mq([S(size_kb=8192, initsize_kb=4096)]), [INSPECT])
fault("SIZ_CONTROL_6MB", "SIZING", T001, "100 6 MB 6 MB 7 MB 7 MB 8 MB 10 MB 14 MB",
      "Table 2's 6 MB intercept charged again as fixed control storage: 100 messages of 63 KB no longer fit in 14 MB.",
      mq([S(size_kb=14336, cflevel=4)]), [put(length=64512, tag=i) for i in range(100)])
fault("SIZ_ADMIN_V6_TABLE", "SIZING", T001,
      "These sizes were established for a CFCC level 14 coupling facility structure; for higher levels of CFCC, they probably need to be larger.",
      "The CFCC-14 edition of Table 1 ignored (the smaller V6 table used).", mq(qmgrs=("QM01",)), [INSPECT])

# =============================================================== TOPOLOGY
fault("TOP_QSG_5", "TOPOLOGY", FACTS,
      "QSG name: \"**up to four characters**\", unique in the network, and different from any queue manager name.",
      "A five-character QSG name accepted.", mq(qsg="QSG12"), [INSPECT])
fault("TOP_QSG_EQ_QM", "TOPOLOGY", FACTS,
      "QSG name: \"**up to four characters**\", unique in the network, and different from any queue manager name.",
      "A QSG name equal to a queue manager's accepted.", mq(qsg="QM01"), [INSPECT])
fault("TOP_513_QUEUES", "TOPOLOGY", T001, "Each structure can hold up to 512 shared queues.",
      "513 queues accepted on one structure.", mq(queues=[Q("Q%03d" % i) for i in range(513)]), [INSPECT])
fault("TOP_64_STRUCTS", "TOPOLOGY", T001,
      "You can use up to 63 (62 if qsg-nameCSQSYSAPPL is defined) structures for message data.",
      "64 application structures accepted.", mq(structures=[S("APP%d" % i) for i in range(64)]), [INSPECT])
fault("TOP_SYSAPPL_EXTRA", "TOPOLOGY", T001,
      "You can use up to 63 (62 if qsg-nameCSQSYSAPPL is defined) structures for message data.",
      "CSQSYSAPPL not counted: 63 message structures plus CSQSYSAPPL accepted.",
      mq(structures=[S("APP%d" % i) for i in range(63)] + [S("CSQSYSAPPL")]), [INSPECT])
fault("TOP_NAME_13", "TOPOLOGY", FACTS,
      "Structure name: **≤ 12 characters; starts with an uppercase letter A–Z; only A–Z and 0–9.**",
      "13-character structure names accepted.", mq([S("APPLICATION12")], []), [INSPECT])
fault("TOP_NAME_DIGIT", "TOPOLOGY", FACTS,
      "Structure name: **≤ 12 characters; starts with an uppercase letter A–Z; only A–Z and 0–9.**",
      "Structure names starting with a digit accepted.", mq([S("1APP")], []), [INSPECT])
fault("TOP_CFNAME_NOPAD", "TOPOLOGY", FACTS,
      "It is prefixed by the QSG name, \"always four characters, padded with @ symbols if necessary\" (for example NY03 + PRODUCT7 → NY03PRODUCT7).",
      "The CFRM name is built without padding a short QSG name.", mq(qsg="QS"), [INSPECT])
fault("TOP_33_QMGRS", "TOPOLOGY", T003,
      "Up to 32 queue managers in a queue-sharing group can connect to a coupling facility list structure at the same time.",
      "33 connected queue managers accepted.", mq(qmgrs=["QM%02d" % i for i in range(33)]), [INSPECT])
fault("TOP_DEFINE_513", "TOPOLOGY", T003, "A single coupling facility list structure can contain up to 512 shared queues.",
      "DEFINE QLOCAL of a 513th queue on a structure accepted.",
      mq(queues=[Q("Q%03d" % i) for i in range(512)]), [{"op": "define_queue", "queue": Q("QX")}])

# ================================================================= QDEPTH
QHI = [Q(maxdepth=10, qdphiev=True)]
fault("QD_HI_STRICT", "QDEPTH", FACTS,
      "**Queue Depth High**: an MQPUT/MQPUT1 \"has caused the queue depth to be incremented to, or greater than\" the QDepthHighLimit, i.e. depth_after_put ≥ limit.",
      "Queue Depth High only above the limit.", mq(queues=QHI), [put(tag=i) for i in range(8)])
fault("QD_LO_STRICT", "QDEPTH", FACTS,
      "**Queue Depth Low**: an MQGET \"has caused the queue depth to be decremented to, or less than\" the QDepthLowLimit, i.e. depth_after_get ≤ limit.",
      "Queue Depth Low only below the limit.", mq(queues=[Q(maxdepth=10, qdploev=True)]),
      [put(tag=i) for i in range(3)] + [get()])
fault("QD_SHARED_NEEDS_PERFMEV", "QDEPTH", T004,
      "A key difference is that events are switched on for shared queues even if PERFMEV is DISABLED on the queue manager.",
      "Shared-queue switches not toggled when the detecting queue manager has PERFMEV DISABLED.",
      mq(queues=QHI, perfmev_disabled=["QM01"]), [put(tag=i) for i in range(8)] + [INSPECT])
fault("QD_NONSHARED_TOGGLES_DISABLED", "QDEPTH", T004,
      "In contrast the attributes for LQ1 remain unchanged until PERFMEV on the queue manager is ENABLED.",
      "Nonshared-queue switches toggled while PERFMEV is DISABLED.",
      mq(queues=[Q("LQ1", None, qmgr="QM01", maxdepth=10, qdphiev=True)], perfmev_disabled=["QM01"]),
      [put("LQ1", tag=i) for i in range(8)] + [INSPECT])
fault("QD_HI_NO_MAX_ENABLE", "QDEPTH", T004, "Also, QDPLOEV and QDPMAXEV are switched to ENABLED.",
      "Queue Depth High leaves QDPMAXEV disabled.", mq(queues=QHI), [put(tag=i) for i in range(8)] + [INSPECT])
fault("QD_HI_STAYS_ENABLED", "QDEPTH", T004,
      "If messages are placed on both queues so that the depth meets or exceeds the QDEPTHHI threshold, the QDPHIEV value on SQ1 switches to DISABLED.",
      "QDPHIEV stays enabled after Queue Depth High: a second event at the next put.",
      mq(queues=QHI), [put(tag=i) for i in range(9)])
fault("QD_LO_NO_HI_ENABLE", "QDEPTH", FACTS,
      "The text says: \"A Queue Depth High event is automatically enabled by a Queue Depth Low event\"",
      "Queue Depth Low leaves QDPHIEV disabled.", mq(queues=[Q(maxdepth=10, qdploev=True)]),
      [put(tag=i) for i in range(3)] + [get(), INSPECT])
fault("QD_QFULL_NO_LO_ENABLE", "QDEPTH", FACTS,
      "\"A Queue Depth Low event is automatically enabled by a Queue Depth High event or a Queue Full event\"",
      "Queue Full leaves QDPLOEV disabled.", mq(queues=[Q(maxdepth=2, qdpmaxev=True)]),
      [put(tag=i) for i in range(3)] + [INSPECT])
fault("QD_QFULL_MAX_STAYS", "QDEPTH", FACTS,
      "| Queue Full | unchanged (it was already DISABLED in the example) | → ENABLED | → DISABLED |",
      "Queue Full leaves QDPMAXEV enabled.", mq(queues=[Q(maxdepth=2, qdpmaxev=True)]),
      [put(tag=i) for i in range(3)] + [INSPECT])
fault("QD_NO_BROADCAST", "QDEPTH", T004,
      "Broadcasts to all other active queue managers in the same queue-sharing group to request the production of an event message for the shared queue.",
      "Only the coordinating queue manager issues an event message.", mq(queues=QHI), [put(tag=i) for i in range(8)])
fault("QD_INACTIVE_EMIT", "QDEPTH", T004,
      "Having received a request from the coordinating queue manager, if there is an active queue manager in the queue-sharing group that is enabled for performance events , that active queue manager issues an event message for the shared queue.",
      "Stopped queue managers issue event messages too.", mq(queues=QHI),
      [{"op": "stop_qmgr", "qmgr": "QM02"}] + [put(tag=i) for i in range(8)])
fault("QD_OWN_CORREL", "QDEPTH", T004,
      "The message descriptor (MQMD) of this event message contains the unique correlation identifier (CorrelId) specified by the coordinating queue manager.",
      "Each queue manager puts its own CorrelId in its event message.", mq(queues=QHI), [put(tag=i) for i in range(8)])
fault("QD_STATS_NOT_RESET", "QDEPTH", T004,
      "Issues an event message that captures all shared queue performance data it has gathered since the last time an event message was created, or since the queue statistics were last reset.",
      "Statistics are not reset when an event message is issued.", mq(queues=QHI),
      [put(tag=i) for i in range(8)] + [get() for _ in range(6)])
fault("QD_STATS_GLOBAL", "QDEPTH", T004,
      "This event message that each queue manager generates represents its individual usage of the shared queue.",
      "Event messages carry the group's total statistics.", mq(queues=QHI),
      [put(tag=i) for i in range(4)] + [put(qmgr="QM02", tag=10 + i) for i in range(4)])
fault("QD_DISABLED_EMITS", "QDEPTH", T004,
      "If PERFMEV is set to DISABLED on some of the queue managers, event messages are not produced by those queue managers, making event monitoring from an application more difficult.",
      "Queue managers with PERFMEV DISABLED still issue event messages.",
      mq(queues=QHI, perfmev_disabled=["QM02"]), [put(tag=i) for i in range(8)])
fault("QD_RESET_QSTATS_IGNORED", "QDEPTH", T004,
      "Issues an event message that captures all shared queue performance data it has gathered since the last time an event message was created, or since the queue statistics were last reset.",
      "RESET QSTATS does not reset the counts.", mq(queues=QHI),
      [put(tag=i) for i in range(3)] + [{"op": "reset_qstats", "qmgr": "QM01", "queue": "Q1"}] +
      [put(tag=10 + i) for i in range(5)])
fault("QD_QFULL_OFF_BY_ONE", "QDEPTH", FACTS,
      "the put fails because the queue \"already contains the maximum number of messages possible\", i.e. depth == MaxQDepth *before* the put.",
      "The queue is full one message early.", mq(queues=[Q(maxdepth=2)]), [put(tag=1), put(tag=2)])
fault("QD_QFULL_NO_EVENT", "QDEPTH", FACTS,
      "Per example 2 below, it is raised on \"the first message that cannot be put on the queue because the queue is full\".",
      "No Queue Full event on the failed put.", mq(queues=[Q(maxdepth=1, qdpmaxev=True)]), [put(tag=1), put(tag=2)])
fault("QD_NULL_EVENT_SKIPPED", "QDEPTH", T004,
      "If a queue manager performs no activity on the shared queue, various values in the event message are null or zero.",
      "A queue manager with no activity on the queue issues no event message.",
      mq(queues=QHI), [put(tag=i) for i in range(8)])

# =============================================================== RECOVERY
RS = [S(cflevel=3, recover=True)]
BK = {"op": "backup", "qmgr": "QM01", "cfstruct": "APP1"}
FAIL = {"op": "fail_structure", "cfstruct": "APP1"}
REC = {"op": "recover", "cfstruct": "APP1"}
fault("REC_NONPERSIST_RECOVERED", "RECOVERY", FACTS,
      "\"Only persistent shared queue messages are backed up. Non-persistent messages are not backed up and cannot be recovered.\"",
      "RECOVER restores nonpersistent messages.", mq(RS),
      [put(persistent=True, tag=1), put(tag=2), BK, FAIL, REC, INSPECT])
fault("REC_BACKUP_ONLY", "RECOVERY", T003,
      "Any activity since the last backup is replayed using the logs of all the queue managers in the queue-sharing group, and the CF structure is then restored up to the point before the failure.",
      "RECOVER restores the backup without replaying later log activity.", mq(RS),
      [BK, put(persistent=True, tag=1), FAIL, REC, INSPECT])
fault("REC_OWN_LOG_ONLY", "RECOVERY", T003,
      "Any activity since the last backup is replayed using the logs of all the queue managers in the queue-sharing group, and the CF structure is then restored up to the point before the failure.",
      "RECOVER replays only the log of the queue manager that took the backup.", mq(RS),
      [BK, put(qmgr="QM02", persistent=True, tag=1), FAIL, REC, INSPECT])
fault("REC_NORMAL_NOT_FAILED_OK", "RECOVERY", FACTS,
      "it fails \"if TYPE(NORMAL) is specified and the structure has not been flagged as FAILED\".",
      "RECOVER TYPE(NORMAL) accepted on an active structure.", mq(RS), [BK, REC])
fault("REC_BACKUP_RECOVERNO", "RECOVERY", FACTS, "The command fails if the structure has CFLEVEL < 3 or RECOVER(NO).",
      "BACKUP CFSTRUCT accepted for RECOVER(NO).", mq([S(cflevel=3, recover=False)]), [BK])
fault("REC_PURGE_KEEPS", "RECOVERY", FACTS,
      "TYPE(PURGE) \"recover[s] to empty CF structures. Any messages in the CF structures are lost\".",
      "RECOVER TYPE(PURGE) restores the persistent messages.", mq(RS),
      [put(persistent=True, tag=1), BK, FAIL, {"op": "recover", "cfstruct": "APP1", "purge": True}, INSPECT])
fault("REC_FAILED_RC_2192", "RECOVERY", FACTS,
      "2373 **MQRC_CF_STRUC_FAILED**: the structure has failed. Use RECOVER CFSTRUCT unless automatic recovery (RECAUTO) is enabled.",
      "Puts to a failed structure answer 2192.", mq(RS), [FAIL, put()])
fault("REC_UNCOMMITTED_RECOVERED", "RECOVERY", FACTS,
      "Model: after failure followed by RECOVER(NORMAL), the queue contents equal the committed persistent messages at the failure point.",
      "RECOVER restores a persistent message whose put was uncommitted at the failure.", mq(RS),
      [BK, put(persistent=True, syncpoint=True, tag=1), FAIL, REC, INSPECT])
fault("REC_NO_BACKUP_OK", "RECOVERY", T003,
      "This uses the backup record from Db2 to locate and restore persistent messages from the backup of the CF structure.",
      "RECOVER TYPE(NORMAL) succeeds with no backup at all.", mq(RS), [put(persistent=True), FAIL, REC])
fault("REC_BACKUP_L2", "RECOVERY", FACTS, "The command fails if the structure has CFLEVEL < 3 or RECOVER(NO).",
      "BACKUP CFSTRUCT accepted below CFLEVEL(3).", mq([S(cflevel=2, recover=True)]), [BK])

# ================================================================== QUEUE
fault("Q_UNCOMMITTED_VISIBLE", "QUEUE", T003, "Lock uncommitted messages on shared queues",
      "MQGET can return a message whose put is not committed.", mq(),
      [put(syncpoint=True, tag=1), get(qmgr="QM02")])
fault("Q_BACKOUT_GET_LOST", "QUEUE", T003, "Lock uncommitted messages on shared queues",
      "Backing out an MQGET loses the message instead of unlocking it.", mq(),
      [put(tag=1), get(syncpoint=True), {"op": "backout", "qmgr": "QM01"}, get(qmgr="QM02")])
fault("Q_STOP_LOSES_SHARED_NP", "QUEUE", FACTS,
      "Nonpersistent messages on shared queues survive queue-manager restarts but **not** CF or structure failure",
      "Stopping a queue manager deletes nonpersistent shared-queue messages.", mq(),
      [put(tag=1), {"op": "stop_qmgr", "qmgr": "QM01"}, get(qmgr="QM02")])
fault("Q_SHARED_NOT_VISIBLE", "QUEUE", T003,
      "Many queue managers in the same sysplex can access those messages using the CF list structure.",
      "A shared-queue message is only visible to the queue manager that put it.", mq(), [put(tag=1), get(qmgr="QM02")])
fault("Q_MAXMSGL_INCLUSIVE", "QUEUE", FACTS,
      "2030 **MQRC_MSG_TOO_BIG_FOR_Q** applies when length > min(queue MaxMsgLength, queue-manager MaxMsgLength).",
      "A message exactly MAXMSGL long rejected.", mq(queues=[Q(maxmsgl=1000)]), [put(length=1000)])


if __name__ == "__main__":
    with open(os.path.join(HERE, "faults.json"), "w") as f:
        json.dump(F, f, indent=1, ensure_ascii=False)
        f.write("\n")
    fams = {}
    for x in F:
        fams[x["family"]] = fams.get(x["family"], 0) + 1
    print("%d faults written: %s" % (len(F), fams))
