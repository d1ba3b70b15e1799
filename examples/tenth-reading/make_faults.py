#!/usr/bin/env python3
"""Writes faults.json: the deliberate faults of impl.py, each with its sentence and a minimal
scenario (config + operations) on which the faithful and the faulty build answer differently.
Run once after editing; faultcheck.py checks the result."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

F000 = "000_869f717547e3a89a.txt"
F001 = "001_bbb586403b3000fc.txt"
F002 = "002_adc847a8fc6c1ca2.txt"
F003 = "003_83ac8579f7e0d9f5.txt"
F004 = "004_97a0fff9f37ed76b.txt"
FACTS = "ibm-facts.md"

STRUCT = {"name": "APP1", "size_kb": 8192, "initsize_kb": None, "fullthreshold": 80, "ratio": 6,
          "cflevel": 5, "recover": True, "offload": "SMDS", "offld1th": 70, "offld1sz": 32768,
          "offld2th": 80, "offld2sz": 4096, "offld3th": 90, "offld3sz": 0, "ovflwmax": None,
          "ovflwstr": None, "ovflw_size_kb": 8192, "resource": False}
QUEUE = {"name": "Q1", "cfstruct": "APP1", "qmgr": None, "maxdepth": 999999999, "maxmsgl": 4194304,
         "qdepthhi": 80, "qdepthlo": 20, "qdphiev": False, "qdploev": False, "qdpmaxev": False}
OFF = 65536


def S(**kw):
    s = dict(STRUCT)
    s.update(kw)
    if s["cflevel"] < 5:
        s["offload"] = kw.get("offload")
    return s


def L3(**kw):
    """a CFLEVEL(3) structure with the offload keywords at their defaults"""
    base = dict(cflevel=3, offload=None, offld1th=70, offld1sz=32768, offld2th=80, offld2sz=4096,
                offld3th=90, offld3sz=0)
    base.update(kw)
    return S(**base)


def Q(name="Q1", **kw):
    q = dict(QUEUE)
    q["name"] = name
    q.update(kw)
    return q


def MQ(structures=None, queues=None, qmgrs=None, **kw):
    c = {"profile": "mq", "qsg": "QSG1", "qmgrs": qmgrs or ["QM01", "QM02", "QM03"],
         "structures": structures if structures is not None else [S()],
         "queues": queues if queues is not None else [Q()],
         "lgmsgsz": 4096, "overflow_exit": None, "perfmev_disabled": [],
         "admin_size_kb": None, "admin_table": "cfcc14"}
    c.update(kw)
    return c


def CS(name="MSGQ", **kw):
    s = dict(STRUCT)
    s.update({"name": name, "size_kb": 1024, "cflevel": 3, "recover": False, "offload": None,
              "offld1th": 70, "offld1sz": 32768, "offld2th": 80, "offld2sz": 4096, "offld3th": 90,
              "offld3sz": 0, "ovflw_size_kb": 1024})
    s.update(kw)
    return s


def CQ(name, struct="MSGQ"):
    return Q(name, cfstruct=struct)


def CQS(structures=None, queues=None, **kw):
    c = {"profile": "cqs", "qsg": "QSG1", "qmgrs": ["QM01", "QM02"],
         "structures": structures if structures is not None else [CS()],
         "queues": queues if queues is not None else [CQ("QA")],
         "lgmsgsz": 30632, "overflow_exit": None, "perfmev_disabled": [],
         "admin_size_kb": None, "admin_table": "cfcc14"}
    c.update(kw)
    return c


def put(q="Q1", length=100, qm="QM01", tag=0, persistent=False, syncpoint=False):
    return {"op": "put", "qmgr": qm, "queue": q, "length": length, "persistent": persistent,
            "syncpoint": syncpoint, "tag": tag}


def get(q="Q1", qm="QM01", syncpoint=False):
    return {"op": "get", "qmgr": qm, "queue": q, "syncpoint": syncpoint}


def op(kind, **kw):
    d = {"op": kind}
    d.update(kw)
    return d


INSPECT = {"op": "inspect"}


def puts(n, q="Q1", length=100, qm="QM01", start=1, **kw):
    return [put(q, length, qm, tag=start + i, **kw) for i in range(n)]


def cqs_fill(spec, length=30000):
    """spec: list of (queue, count), interleaved round robin"""
    out = []
    tag = 1
    left = [list(x) for x in spec]
    while any(c for _, c in left):
        for item in left:
            if item[1]:
                out.append(put(item[0], length, tag=tag))
                tag += 1
                item[1] -= 1
    return out


FAULTS = []


def fault(fid, family, source, sentence, description, config, ops):
    FAULTS.append({"id": fid, "family": family, "sentence": sentence, "source": source,
                   "description": description, "scenario": {"config": config, "ops": ops}})


QM = ["QM%02d" % i for i in range(1, 40)]

# ------------------------------------------------------------------ TOPOLOGY
fault("T_QSG_LEN5", "TOPOLOGY", FACTS,
      'QSG name: "**up to four characters**", unique in the network, and different from any queue manager name.',
      "open accepts a five-character QSG name (length checked against 5, not 4).",
      MQ(qsg="QSG12"), [])
fault("T_QSG_EQ_QMGR", "TOPOLOGY", FACTS,
      'QSG name: "**up to four characters**", unique in the network, and different from any queue manager name.',
      "open accepts a QSG named like one of its queue managers.",
      MQ(qsg="QM01", qmgrs=["QM01", "QM02"]), [])
fault("T_QMGR_33", "TOPOLOGY", F003,
      "Up to 32 queue managers in a queue-sharing group can connect to a coupling facility list structure at the same time.",
      "open accepts 33 queue managers (limit compared with > 33).",
      MQ(qmgrs=QM[:33], admin_size_kb=50000), [])
fault("T_QMGR_32_REFUSED", "TOPOLOGY", F003,
      "Up to 32 queue managers in a queue-sharing group can connect to a coupling facility list structure at the same time.",
      "off by one: open refuses a group of exactly 32 queue managers.",
      MQ(qmgrs=QM[:32], admin_size_kb=50000), [])
fault("T_STRUCT_64", "TOPOLOGY", F001,
      "You can use up to 63 (62 if qsg-nameCSQSYSAPPL is defined) structures for message data.",
      "the 64-structure connection limit is used for application structures, forgetting CSQ_ADMIN.",
      MQ(structures=[S(name="APP%d" % i) for i in range(64)], queues=[Q(cfstruct="APP0")]), [])
fault("T_STRUCT_63_SYSAPPL", "TOPOLOGY", F001,
      "You can use up to 63 (62 if qsg-nameCSQSYSAPPL is defined) structures for message data.",
      "CSQSYSAPPL counted among the 62 for message data: only 61 message structures accepted beside it.",
      MQ(structures=[S(name="CSQSYSAPPL")] + [S(name="APP%d" % i) for i in range(62)],
         queues=[Q(cfstruct="APP0")]), [])
fault("T_STRUCT_LIMIT_DEFINE", "TOPOLOGY", F001,
      "A queue sharing group can connect to up to 64 coupling facility structures.",
      "the structure limit is checked at open but not by DEFINE CFSTRUCT.",
      MQ(structures=[S(name="APP%d" % i) for i in range(63)], queues=[Q(cfstruct="APP0")]),
      [op("define_structure", structure=S(name="EXTRA"))])
fault("T_QUEUE_512_OPEN", "TOPOLOGY", F001, "Each structure can hold up to 512 shared queues.",
      "the 512-queue limit is checked by DEFINE QLOCAL but not in the initial configuration.",
      MQ(queues=[Q("Q%d" % i) for i in range(513)]), [])
fault("T_QUEUE_512_RUN", "TOPOLOGY", F003, "A single coupling facility list structure can contain up to 512 shared queues.",
      "the 512-queue limit is checked at open but not by DEFINE QLOCAL.",
      MQ(queues=[Q("Q%d" % i) for i in range(512)]), [op("define_queue", queue=Q("Q512"))])
fault("T_QUEUE_511", "TOPOLOGY", F001,
      "You have a requirement for a large number of shared queues, so they must be split across multiple structures because each structure can contain only 512 queues.",
      "off by one: the 512th queue on a structure is refused.",
      MQ(queues=[Q("Q%d" % i) for i in range(511)]), [op("define_queue", queue=Q("Q511"))])
fault("T_STRNAME_13", "TOPOLOGY", FACTS,
      "Structure name: **≤ 12 characters; starts with an uppercase letter A–Z; only A–Z and 0–9.**",
      "structure names of 13 characters are accepted at open.",
      MQ(structures=[S(name="APPLICATION12")], queues=[Q(cfstruct="APPLICATION12")]), [])
fault("T_STRNAME_DIGIT", "TOPOLOGY", FACTS,
      "Structure name: **≤ 12 characters; starts with an uppercase letter A–Z; only A–Z and 0–9.**",
      "DEFINE CFSTRUCT accepts a name that starts with a digit.",
      MQ(), [op("define_structure", structure=S(name="1APP"))])
fault("T_CFNAME_PAD", "TOPOLOGY", FACTS,
      'It is prefixed by the QSG name, "always four characters, padded with @ symbols if necessary"',
      "the CFRM name is built from the unpadded QSG name.",
      MQ(qsg="QS"), [INSPECT])
fault("T_ADMIN_ENTRIES", "TOPOLOGY", F001,
      "The administrative structure (qsg-nameCSQ_ADMIN) must be large enough to contain 1000 list entries for each queue manager in the queue sharing group.",
      "the CSQ_ADMIN entry check uses 100 entries per queue manager.",
      MQ(qmgrs=QM[:31], admin_table="cfcc9"), [])
fault("T_ADMIN_TABLE_OFF", "SIZING", F001,
      "Table 1 shows the minimum required size for the administrative structure for various numbers of queue managers defined in the queue sharing group.",
      "Table 1 is indexed one row early (n-1 queue managers).",
      MQ(qmgrs=["QM01", "QM02", "QM03"]), [INSPECT])
fault("T_ADMIN_SIZE_UNCHECKED", "SIZING", F001,
      "Table 1 shows the minimum required size for the administrative structure for various numbers of queue managers defined in the queue sharing group.",
      "an explicit CSQ_ADMIN size below Table 1 is accepted at open.",
      MQ(qmgrs=["QM01", "QM02"], admin_size_kb=6000), [])
fault("T_DUP_QUEUE_DEFINE", "QUEUE", F001,
      "The CFSTRUCT attribute of the queue definition is used to map the queue to a structure.",
      "DEFINE QLOCAL of an existing name silently replaces the queue (NOREPLACE ignored).",
      MQ(), [put(), op("define_queue", queue=Q()), INSPECT])
fault("T_NONSHARED_OTHER_QMGR", "TOPOLOGY", F003,
      "Many queue managers in the same sysplex can access those messages using the CF list structure.",
      "a nonshared queue is reachable from every queue manager, like a shared one.",
      MQ(queues=[Q("LQ1", cfstruct=None, qmgr="QM01")]), [put("LQ1", qm="QM02")])

# ------------------------------------------------------------------ CFLEVEL
fault("C_PERSIST_RECOVER_NO", "CFLEVEL", FACTS,
      '"On z/OS, you cannot put persistent messages to a shared queue if the CFSTRUCT that the queue uses is defined with RECOVER(NO)."',
      "persistent puts are accepted on a RECOVER(NO) structure.",
      MQ(structures=[L3(recover=False)]), [put(persistent=True)])
fault("C_PERSIST_LEVEL2_RC", "CFLEVEL", F003, "1, 2 - can be used for nonpersistent messages less than 63 KB",
      "a persistent put at CFLEVEL(2) is reported with the RECOVER(NO) code instead of the declared 2366.",
      MQ(structures=[L3(cflevel=2, recover=False)]), [put(persistent=True)])
fault("C_LARGE_LEVEL3", "CFLEVEL", F003, "3 - can be used for persistent and nonpersistent messages less than 63 KB",
      "the CFLEVEL(3) size check uses the 63.75 KB offload boundary instead of 63 KB.",
      MQ(structures=[L3()]), [put(length=64513)])
fault("C_LARGE_64512", "CFLEVEL", FACTS,
      "The CFLEVEL < 4 rejection threshold (\"bigger than 63 KB\") in 3.2 is 64 512 bytes by the CFSizer definition.",
      "off by one: a message of exactly 63 KB (64512 bytes) is refused at CFLEVEL(3).",
      MQ(structures=[L3()]), [put(length=64512)])
fault("C_MAXMSGL_ORDER", "CFLEVEL", FACTS,
      "AMBIGUOUS: if the queue's MAXMSGL is already ≤ 64 512, 2030 fires first.",
      "2366 is checked before MAXMSGL, so a put over a small MAXMSGL gets 2366.",
      MQ(structures=[L3()], queues=[Q(maxmsgl=65000)]), [put(length=70000)])
fault("C_RECOVER_LOW_DEFINE_OK", "CFLEVEL", FACTS, "Only RECOVER(YES) structures can be backed up and recovered.",
      "RECOVER(YES) with CFLEVEL(2) is refused at open but accepted by DEFINE CFSTRUCT.",
      MQ(), [op("define_structure", structure=L3(name="APP2", cflevel=2, recover=True))])
fault("C_RECOVER_LOW_OPEN_OK", "CFLEVEL", FACTS, "Only RECOVER(YES) structures can be backed up and recovered.",
      "RECOVER(YES) with CFLEVEL(2) is refused by DEFINE but accepted in the initial configuration.",
      MQ(structures=[L3(cflevel=2, recover=True)]), [])
fault("C_OFFLOAD_LOW_LEVEL", "CFLEVEL", F002, "The OFFLOAD parameter is only valid from CFLEVEL(5).",
      "OFFLOAD(SMDS) is accepted on a CFLEVEL(4) structure.",
      MQ(structures=[L3(cflevel=4, offload="SMDS")]), [])
fault("C_CFLEVEL_RANGE_6", "CFLEVEL", F003,
      "5 - can be used for persistent and nonpersistent messages up to 100 MB and selectively offloaded to shared message data sets (SMDS) or Db2.",
      "CFLEVEL(6) is accepted in the initial configuration.",
      MQ(structures=[S(cflevel=6)]), [])
fault("C_DECREASE_UNGUARDED_5", "CFLEVEL", FACTS,
      "By analogy this probably applies when decreasing from 5 too; not verified.",
      "lowering CFLEVEL from 5 skips the every-queue-empty check (declared reading: guarded).",
      MQ(), [put(), op("alter_structure", name="APP1", changes={"cflevel": 4})])
fault("C_DECREASE_UNGUARDED_3", "CFLEVEL", FACTS,
      "**Decrease from 3 or from 4 only if every queue referencing the structure is empty (no messages and no uncommitted activity) and closed.**",
      "lowering CFLEVEL from 3 does not check that the queues are empty.",
      MQ(structures=[L3(recover=False)]), [put(), op("alter_structure", name="APP1", changes={"cflevel": 2})])
fault("C_DECREASE_UNCOMMITTED", "CFLEVEL", FACTS,
      "**Decrease from 3 or from 4 only if every queue referencing the structure is empty (no messages and no uncommitted activity) and closed.**",
      "the emptiness check ignores uncommitted puts.",
      MQ(structures=[L3(cflevel=4)]),
      [put(syncpoint=True), op("alter_structure", name="APP1", changes={"cflevel": 3})])
fault("C_DECREASE_GOT_UNCOMMITTED", "CFLEVEL", FACTS,
      "**Decrease from 3 or from 4 only if every queue referencing the structure is empty (no messages and no uncommitted activity) and closed.**",
      "the emptiness check ignores messages removed by an uncommitted get.",
      MQ(structures=[L3(cflevel=4)]),
      [put(), get(syncpoint=True), op("alter_structure", name="APP1", changes={"cflevel": 3})])
fault("C_ALTER_RECOVER_LOW", "CFLEVEL", FACTS,
      "3: needed for persistent messages (RECOVER(YES)) and for INDXTYPE(GROUPID).",
      "ALTER CFSTRUCT lowers CFLEVEL to 2 on a RECOVER(YES) structure.",
      MQ(structures=[L3(recover=True)]), [op("alter_structure", name="APP1", changes={"cflevel": 2})])
fault("C_ALTER_OFFLOAD_DEFAULT", "OFFLOAD", FACTS,
      "(a) 64K (rule off) is the default when the structure is CFLEVEL(5) with OFFLOAD(DB2), or is migrated from CFLEVEL 4, to keep the old behaviour;",
      "offload plus CFLEVEL change: migrating 4 -> 5 without OFFLOAD takes SMDS instead of keeping Db2 (declared reading (a)).",
      MQ(structures=[L3(cflevel=4)]),
      [op("alter_structure", name="APP1", changes={"cflevel": 5}), put(length=70000)])
fault("C_ALTER_64K_DEFAULT", "OFFLOAD", FACTS,
      "(a) 64K (rule off) is the default when the structure is CFLEVEL(5) with OFFLOAD(DB2), or is migrated from CFLEVEL 4, to keep the old behaviour;",
      "offload plus CFLEVEL change: migrating 4 -> 5 switches the size rules on (32K/4K/0K) instead of 64K.",
      MQ(structures=[L3(cflevel=4)]),
      [op("alter_structure", name="APP1", changes={"cflevel": 5, "offld1th": 0}), put(length=100),
       put(length=40000)])
fault("C_ALTER_CLEARS_UNSPECIFIED", "OFFLOAD", FACTS,
      "ALTER CFSTRUCT has the same offload keywords and no defaults; keywords not specified are left unchanged.",
      "ALTER CFSTRUCT resets offload keywords it was not given to their DEFINE defaults.",
      MQ(structures=[S(offld1th=0, offld1sz=1024)]),
      [put(length=100), op("alter_structure", name="APP1", changes={"recover": False}), put(length=2000)])
fault("C_LEVEL4_LARGE_LOCATION", "CFLEVEL", "PROTOCOL.md",
      '`"SMDS"` or `"DB2"` (offloaded, per the structure\'s OFFLOAD; DB2 at CFLEVEL(4))',
      "a large message at CFLEVEL(4) is reported as kept in SMDS.",
      MQ(structures=[L3(cflevel=4)]), [put(length=70000)])

# ------------------------------------------------------------------ OFFLOAD
R1 = dict(offld1th=0, offld1sz=1024, offld2sz=OFF, offld3sz=OFF)
fault("O_COMPARE_INCLUSIVE", "OFFLOAD", F002,
      "Rule pair 1 OFFLD1TH(70) and OFFLD1SZ(32K) If the coupling facility structure is more than 70% full offload data for messages exceeding 32 KB",
      "'more than THn% full' compared with >= (an empty structure counts as more than 0% full).",
      MQ(structures=[S(**R1)]), [put(length=2000)])
fault("O_SIZE_INCLUSIVE", "OFFLOAD", F002,
      "Rule pair 1 OFFLD1TH(70) and OFFLD1SZ(32K) If the coupling facility structure is more than 70% full offload data for messages exceeding 32 KB",
      "'exceeding SZn' compared with >=.",
      MQ(structures=[S(**R1)]), [put(length=10), put(length=1024)])
fault("O_PI21909", "OFFLOAD", FACTS,
      "So the correct behaviour needs both the size test and the threshold test of the same rule.",
      "APAR PI21909: messages matching a size limit are offloaded although the threshold is not met.",
      MQ(), [put(length=40000)])
fault("O_RULE_PAIR_MISMATCH", "OFFLOAD", F002,
      "There are three rules, and each rule specifies a matching pair of parameters.",
      "each rule's threshold is paired with the next rule's size.",
      MQ(structures=[S(offld1th=0, offld1sz=OFF, offld2th=100, offld2sz=1024, offld3sz=OFF)]),
      [put(length=10), put(length=2000)])
fault("O_USAGE_MAX", "OFFLOAD", F002,
      "Structure space is divided into elements and entries, and even though there may be enough space overall, one of these may run out before the other.",
      "the rules compare max(entries%, elements%) instead of the declared combined storage usage.",
      MQ(structures=[S(size_kb=1024, offld1th=10, offld1sz=0, offld2sz=OFF, offld3sz=OFF)]),
      puts(29, length=0) + [put(length=100, tag=99)])
fault("O_USAGE_AFTER", "OFFLOAD", F002,
      "Message data is offloaded to SMDS or Db2 based on the size of the message data, and the current usage of the coupling facility structure.",
      "usage is measured after the message is added, so the message offloads itself.",
      MQ(structures=[S(offld1th=0, offld1sz=0, offld2sz=OFF, offld3sz=OFF)]), [put(length=100)])
fault("O_FORCED_63K", "OFFLOAD", F002,
      "In this case messages will only be offloaded if another offload rule is in effect, or if the message is greater than 63.75 KB and so, too large to store in the structure.",
      "the forced-offload boundary is 63 KB instead of the declared 63.75 KB.",
      MQ(structures=[S(offld1sz=OFF, offld2sz=OFF, offld3sz=OFF)]), [put(length=65000)])
fault("O_FORCED_OFF_BY_ONE", "OFFLOAD", F002,
      "In this case messages will only be offloaded if another offload rule is in effect, or if the message is greater than 63.75 KB and so, too large to store in the structure.",
      "off by one: a message of exactly 63.75 KB (65280 bytes) is forced out.",
      MQ(structures=[S(offld1sz=OFF, offld2sz=OFF, offld3sz=OFF)]), [put(length=65280)])
fault("O_OFFLOADED_COST", "SIZING", F002, "Each message which is offloaded still requires 0.75 KB of storage in the coupling facility.",
      "an offloaded message is charged the elements of its whole data.",
      MQ(), [put(length=70000)])
fault("O_LOCATION_DB2_SMDS", "OFFLOAD", F002,
      "The selection of SMDS or Db2 shared message storage is controlled with the OFFLOAD(SMDS|DB2) parameter on the CFSTRUCT definition.",
      "offloaded data always goes to SMDS, even with OFFLOAD(DB2).",
      MQ(structures=[S(offload="DB2")]), [put(length=70000)])
fault("O_TH_RANGE_101", "OFFLOAD", F002,
      "These parameters are a corresponding coupling facility structure usage threshold percentage ( OFFLDnTH ) and a message size limit ( OFFLDnSZ ).",
      "OFFLD1TH(101) is accepted in the initial configuration.",
      MQ(structures=[S(offld1th=101)]), [])
fault("O_SZ_NONK", "OFFLOAD", FACTS,
      "OFFLDnSZ is plausibly an integer 0..64 with a K suffix.",
      "an OFFLDnSZ that is not a whole number of K is accepted.",
      MQ(structures=[S(offld1sz=1000)]), [])
fault("O_ALTER_TH_RANGE", "OFFLOAD", F002,
      "These parameters are a corresponding coupling facility structure usage threshold percentage ( OFFLDnTH ) and a message size limit ( OFFLDnSZ ).",
      "ranges are checked at open/DEFINE but not by ALTER CFSTRUCT.",
      MQ(), [op("alter_structure", name="APP1", changes={"offld2th": 101})])
fault("O_LOW_LEVEL_RULES_ACCEPT", "OFFLOAD", FACTS,
      "AMBIGUOUS: whether specifying OFFLDn* below CFLEVEL 5 is also rejected with MQRCCF_PARM_CONFLICT.",
      "offload rules other than the defaults are accepted on a CFLEVEL(4) structure (declared: refused).",
      MQ(structures=[L3(cflevel=4, offld1th=50)]), [])

# ------------------------------------------------------------------ CAPACITY / SIZING
fault("S_FULL_ELEMENTS_ONLY", "CAPACITY", FACTS,
      '**"A structure is full if either all ENTRYs or all ELEMENTs are in use."**',
      "the full test looks at elements only; running out of entries is not noticed.",
      MQ(structures=[S(size_kb=1024, ratio=255)]), puts(8, length=0))
fault("S_FULL_OFF_BY_ONE", "CAPACITY", F001,
      "If no action is taken and a queue structure fills up, an MQRC_STORAGE_MEDIUM_FULL return code is returned to the application.",
      "off by one: the last free entry is never used.",
      MQ(structures=[S(size_kb=1024, ratio=255)]), puts(7, length=0))
fault("S_2192_ORDER", "CAPACITY", FACTS,
      '2053 **MQRC_Q_FULL** (MQCC_FAILED): the put fails because the queue "already contains the maximum number of messages possible", i.e. depth == MaxQDepth *before* the put.',
      "storage is checked before depth, so a full queue on a full structure answers 2192 (declared order: 2053 first).",
      MQ(structures=[S(size_kb=1024, ratio=255)], queues=[Q(maxdepth=7)]), puts(8, length=0))
fault("S_GET_SYNC_FREES", "CAPACITY", F003, "Lock uncommitted messages on shared queues",
      "an MQGET under syncpoint frees the entry before commit.",
      MQ(), [put(), get(syncpoint=True)])
fault("S_BACKOUT_LEAK", "CAPACITY", F003,
      "Messages put on a shared queue are referenced in a coupling facility structure until they are retrieved by an MQGET.",
      "backing out a put leaves its entry charged.",
      MQ(), [put(syncpoint=True), op("backout", qmgr="QM01"), INSPECT])
fault("S_ELEMENT_FLOOR", "SIZING", F003,
      "However, with CFLEVEL(5) you can use the offload parameters to offload data for messages less than 63 KB thereby increasing the number of messages which can be stored in the structure, although each message still requires at least a coupling facility entry plus at least 512 bytes of data.",
      "element count rounded down instead of up.",
      MQ(), [put(length=800)])
fault("S_HEADER_MISSING", "SIZING", F002,
      "In this case messages will only be offloaded if another offload rule is in effect, or if the message is greater than 63.75 KB and so, too large to store in the structure.",
      "the 256-byte header (63.75 KB + header = 128 elements) is not charged.",
      MQ(), [put(length=300)])
fault("S_USAGE_INITSIZE", "SIZING", F001,
      "INITSIZE is the size in KB that the structure is allocated with when the first queue manager connects to it.",
      "the structure is allocated at SIZE instead of INITSIZE.",
      MQ(structures=[S(initsize_kb=4096)]), [put()])
fault("S_SETXCF_AT_SIZE", "SIZING", F001,
      "alters the size of the structure to newsize, where newsize is a value that is less than the value of SIZE specified on the CFRM policy for the structure, but greater than the current coupling facility size.",
      "SETXCF ALTER to exactly SIZE is accepted (declared reading: rejected).",
      MQ(structures=[S(initsize_kb=4096)]), [op("setxcf_alter", cfstruct="APP1", size_kb=8192)])
fault("S_SETXCF_NOT_LARGER", "SIZING", F001,
      "alters the size of the structure to newsize, where newsize is a value that is less than the value of SIZE specified on the CFRM policy for the structure, but greater than the current coupling facility size.",
      "SETXCF ALTER to the current size is accepted.",
      MQ(structures=[S(initsize_kb=4096)]), [op("setxcf_alter", cfstruct="APP1", size_kb=4096)])
fault("S_SETXCF_NO_RECALC", "SIZING", F001,
      "SETXCF START,ALTER,STRNAME=structure-name,SIZE=newsize",
      "the structure's entry and element counts are not recomputed after an alter.",
      MQ(structures=[S(initsize_kb=4096)]), [op("setxcf_alter", cfstruct="APP1", size_kb=6000)])
fault("S_FULLTHRESHOLD_ZERO", "SIZING", FACTS,
      "FULLTHRESHOLD valid values are 0–100 (decimal), default 80, where 0 means no monitoring or auto-alter.",
      "FULLTHRESHOLD(0) is compared like any percentage, so IXC585E is raised at once.",
      MQ(structures=[S(fullthreshold=0)]), [put(), op("advance_clock", seconds=1)])
fault("S_IXC_AT_CROSSING", "SIZING", F001,
      "FULLTHRESHOLD sets the percentage value of the threshold at which z/OS® issues message IXC585E to indicate that the structure is getting full.",
      "IXC585E reported inside the crossing put (declared reading: deferred to z/OS's next monitoring pass).",
      MQ(structures=[S(size_kb=1024, fullthreshold=1)]), [put(length=20000)])
fault("S_IXC586_MISSING", "SIZING", FACTS,
      "IXC585E is issued when entries **or** elements in use *reach* FULLTHRESHOLD (≥); IXC586I when they fall below.",
      "IXC586I is never issued when usage falls back below FULLTHRESHOLD.",
      MQ(structures=[S(size_kb=1024, fullthreshold=1)]),
      [put(length=20000), op("advance_clock", seconds=1), get(), op("advance_clock", seconds=1)])
fault("S_IXC_STRICT", "SIZING", FACTS,
      "IXC585E is issued when entries **or** elements in use *reach* FULLTHRESHOLD (≥); IXC586I when they fall below.",
      "IXC585E needs usage strictly above FULLTHRESHOLD.",
      MQ(structures=[S(size_kb=1024, fullthreshold=50, offld1sz=OFF, offld2sz=OFF, offld3sz=OFF)]),
      puts(14, length=30000) + [put(length=4352, tag=99), op("advance_clock", seconds=1)])

# ------------------------------------------------------------------ QDEPTH
QD = dict(maxdepth=10, qdepthhi=80, qdepthlo=20)
fault("Q_HI_STRICT", "QDEPTH", F004,
      "If messages are placed on both queues so that the depth meets or exceeds the QDEPTHHI threshold, the QDPHIEV value on SQ1 switches to DISABLED.",
      "Queue Depth High needs the depth to exceed the limit.",
      MQ(queues=[Q(qdphiev=True, **QD)]), puts(8))
fault("Q_PERCENT_REAL", "QDEPTH", FACTS,
      "AMBIGUOUS: how a percentage becomes a message count is **NOT FOUND**.",
      "the high limit is compared as a real number (declared reading: floor).",
      MQ(queues=[Q(qdphiev=True, maxdepth=7, qdepthhi=50)]), puts(3))
fault("Q_LO_STRICT", "QDEPTH", FACTS,
      '**Queue Depth Low**: an MQGET "has caused the queue depth to be decremented to, or less than" the QDepthLowLimit, i.e. depth_after_get ≤ limit.',
      "Queue Depth Low needs the depth to fall below the limit.",
      MQ(queues=[Q(qdploev=True, **QD)]), puts(3) + [get()])
fault("Q_TOGGLE_LO_NOT_ENABLED", "QDEPTH", F004,
      "For example, depending on the definition of the queue attributes, a Queue Depth High event enables a Queue Depth Low and a Queue Full event.",
      "Queue Depth High does not enable Queue Depth Low.",
      MQ(queues=[Q(qdphiev=True, **QD)]), puts(8) + [INSPECT])
fault("Q_QFULL_HI_UNCHANGED", "QDEPTH", FACTS,
      "AMBIGUOUS: if Queue Full fires while QDPHIEV is ENABLED (reachable only by a manual ALTER or a shrinking MAXDEPTH), does QF disable QDPHIEV?",
      "Queue Full leaves QDPHIEV enabled (declared reading: disabled).",
      MQ(queues=[Q(maxdepth=2, qdpmaxev=True)]),
      puts(2) + [op("alter_queue", name="Q1", changes={"qdphiev": True}), put(tag=3), INSPECT])
fault("Q_SHARED_PERFMEV_NO_TOGGLE", "QDEPTH", F004,
      "A key difference is that events are switched on for shared queues even if PERFMEV is DISABLED on the queue manager.",
      "a shared queue's switches are not toggled when the detecting queue manager has PERFMEV(DISABLED).",
      MQ(queues=[Q(qdphiev=True, **QD)], perfmev_disabled=["QM01"]), puts(8) + [INSPECT])
fault("Q_NONSHARED_TOGGLE_DISABLED", "QDEPTH", F004,
      "In contrast the attributes for LQ1 remain unchanged until PERFMEV on the queue manager is ENABLED.",
      "a nonshared queue's switches toggle although PERFMEV is DISABLED.",
      MQ(queues=[Q("LQ1", cfstruct=None, qmgr="QM01", qdphiev=True, **QD)], perfmev_disabled=["QM01"]),
      puts(8, q="LQ1") + [INSPECT])
fault("Q_BROADCAST_IF_COORD", "QDEPTH", F004,
      "Having received a request from the coordinating queue manager, if there is an active queue manager in the queue-sharing group that is enabled for performance events , that active queue manager issues an event message for the shared queue.",
      "events on other queue managers: nobody else reports when the coordinator has PERFMEV(DISABLED) (declared reading: always).",
      MQ(queues=[Q(qdphiev=True, **QD)], perfmev_disabled=["QM01"]), puts(8))
fault("Q_INACTIVE_ISSUES", "QDEPTH", F004,
      "Broadcasts to all other active queue managers in the same queue-sharing group to request the production of an event message for the shared queue.",
      "events on other queue managers: a stopped queue manager still issues an event message.",
      MQ(queues=[Q(qdphiev=True, **QD)]), [op("stop_qmgr", qmgr="QM03")] + puts(8))
fault("Q_STATS_NOT_RESET_AFTER_EVENT", "QDEPTH", F004,
      "Issues an event message that captures all shared queue performance data it has gathered since the last time an event message was created, or since the queue statistics were last reset.",
      "MsgEnqCount/MsgDeqCount are not reset when an event message is issued.",
      MQ(queues=[Q(qdphiev=True, qdploev=True, maxdepth=10, qdepthhi=20, qdepthlo=10)]),
      puts(2) + [get()])
fault("Q_STATS_STOP_KEPT", "QDEPTH", "PROTOCOL.md",
      "adds the ambiguities `qstats_at_stop` (does stopping a queue manager reset its MsgEnqCount and MsgDeqCount? `kept` or `reset`)",
      "state after a queue manager restart: its statistics survive the stop (declared reading: reset).",
      MQ(queues=[Q(qdphiev=True, **QD)]),
      [put(qm="QM02"), op("stop_qmgr", qmgr="QM02"), op("start_qmgr", qmgr="QM02")] + puts(7, start=2))
fault("Q_RESET_QSTATS_ALL", "QDEPTH", "PROTOCOL.md",
      "RESET QSTATS issued on ``qmgr`` for ``queue``: that queue manager's MsgEnqCount and MsgDeqCount for the queue start again from zero (QDEPTH-017).",
      "RESET QSTATS clears every queue manager's statistics, not just the issuing one's.",
      MQ(queues=[Q(qdphiev=True, **QD)]),
      [put(qm="QM02"), op("reset_qstats", qmgr="QM01", queue="Q1")] + puts(7, start=2))
fault("Q_EVENT_ORDER", "QDEPTH", "PROTOCOL.md",
      "queue managers (MQ) or CQS clients, in definition order (event messages are issued in this order after the detecting queue manager)",
      "events on other queue managers: messages are listed in definition order, not starting with the coordinator.",
      MQ(queues=[Q(qdphiev=True, **QD)]), puts(8, qm="QM02"))
fault("Q_CORREL_PER_MSG", "QDEPTH", F004,
      "The message descriptor (MQMD) of this event message contains the unique correlation identifier (CorrelId) specified by the coordinating queue manager.",
      "each queue manager's event message gets its own CorrelId.",
      MQ(queues=[Q(qdphiev=True, **QD)]), puts(8))
fault("Q_QFULL_ON_SUCCESS", "QDEPTH", FACTS,
      "AMBIGUOUS: can a single put that crosses the high limit and reaches MaxQDepth raise only QDH? [INFER] yes: QF is raised only by a *failed* put.",
      "Queue Full is raised by the put that fills the queue.",
      MQ(queues=[Q(maxdepth=2, qdpmaxev=True)]), puts(2))
fault("Q_DEPTH_EXCLUDES_UNCOMMITTED", "QUEUE", FACTS,
      "(The IBM i MaxQDepth page notes that units of work can make the physical count exceed MaxQDepth.",
      "the depth used for MAXDEPTH ignores uncommitted puts.",
      MQ(queues=[Q(maxdepth=1)]), [put(syncpoint=True, tag=1), put(tag=2)])
fault("Q_RECOVER_FLAGS_RESET", "RECOVERY", F004,
      "When a queue manager issues a queue depth event, it updates the shared queue object definition to toggle the active performance event attributes.",
      "recovery plus depth events: RECOVER resets the queue's event switches.",
      MQ(queues=[Q(qdphiev=True, maxdepth=10, qdepthhi=10)]),
      [op("backup", qmgr="QM01", cfstruct="APP1"), put(persistent=True),
       op("fail_structure", cfstruct="APP1"), op("recover", cfstruct="APP1"), INSPECT])
fault("Q_ENQ_COUNTS_FAILED_PUT", "QDEPTH", FACTS,
      "MsgEnqCount (MQIA_MSG_ENQ_COUNT);",
      "a put refused with 2053 is counted in MsgEnqCount.",
      MQ(queues=[Q(qdploev=True, maxdepth=1, qdepthlo=0)]), puts(2) + [get()])

# ------------------------------------------------------------------ RECOVERY
fault("R_PURGE_NONFAILED_ACCEPTED", "RECOVERY", FACTS,
      '"if neither the specified application structure nor its associated shared message data sets are flagged as being in a FAILED state".',
      "RECOVER TYPE(PURGE) empties a structure that has not failed (declared reading: rejected).",
      MQ(), [put(), op("recover", cfstruct="APP1", purge=True)])
fault("R_NONPERSISTENT_KEPT", "RECOVERY", F003,
      "This puts a copy of the persistent messages currently within the CF structure onto the active log data set of the queue manager making the backup, and writes a record of the backup to Db2.",
      "RECOVER brings back nonpersistent messages too.",
      MQ(), [op("backup", qmgr="QM01", cfstruct="APP1"), put(), op("fail_structure", cfstruct="APP1"),
             op("recover", cfstruct="APP1"), INSPECT])
fault("R_UNCOMMITTED_PUT_RESTORED", "RECOVERY", F003,
      "Any activity since the last backup is replayed using the logs of all the queue managers in the queue-sharing group, and the CF structure is then restored up to the point before the failure.",
      "an uncommitted persistent put is restored by RECOVER.",
      MQ(), [op("backup", qmgr="QM01", cfstruct="APP1"), put(persistent=True, syncpoint=True),
             op("fail_structure", cfstruct="APP1"), op("recover", cfstruct="APP1"), INSPECT])
fault("R_UNCOMMITTED_GET_LOST", "RECOVERY", F003,
      "Any activity since the last backup is replayed using the logs of all the queue managers in the queue-sharing group, and the CF structure is then restored up to the point before the failure.",
      "a persistent message removed by an uncommitted get is lost by RECOVER.",
      MQ(), [put(persistent=True), op("backup", qmgr="QM01", cfstruct="APP1"), get(syncpoint=True),
             op("fail_structure", cfstruct="APP1"), op("recover", cfstruct="APP1"), INSPECT])
fault("R_NO_BACKUP_OK", "RECOVERY", F003,
      "This uses the backup record from Db2 to locate and restore persistent messages from the backup of the CF structure.",
      "RECOVER TYPE(NORMAL) succeeds without any backup.",
      MQ(), [op("fail_structure", cfstruct="APP1"), op("recover", cfstruct="APP1")])
fault("R_BACKUP_RECOVER_NO", "RECOVERY", FACTS, "The command fails if the structure has CFLEVEL < 3 or RECOVER(NO).",
      "BACKUP CFSTRUCT is accepted on a RECOVER(NO) structure.",
      MQ(structures=[L3(recover=False)]), [op("backup", qmgr="QM01", cfstruct="APP1")])
fault("R_BACKUP_CLEARED", "RECOVERY", F003,
      "This puts a copy of the persistent messages currently within the CF structure onto the active log data set of the queue manager making the backup, and writes a record of the backup to Db2.",
      "state after RECOVER: the backup record is forgotten, so a second failure cannot be recovered.",
      MQ(), [op("backup", qmgr="QM01", cfstruct="APP1"), op("fail_structure", cfstruct="APP1"),
             op("recover", cfstruct="APP1"), op("fail_structure", cfstruct="APP1"),
             op("recover", cfstruct="APP1")])
fault("R_FAILED_PUT_2192", "RECOVERY", FACTS, "MQI calls on a FAILED structure get 2373.",
      "a put to a failed structure is answered as storage full (2192).",
      MQ(), [op("fail_structure", cfstruct="APP1"), put()])
fault("R_UOW_SURVIVES_FAIL", "RECOVERY", F003,
      "Any activity since the last backup is replayed using the logs of all the queue managers in the queue-sharing group, and the CF structure is then restored up to the point before the failure.",
      "state after RECOVER: a unit of work from before the failure still commits against the recovered messages.",
      MQ(), [put(persistent=True), op("backup", qmgr="QM01", cfstruct="APP1"), get(syncpoint=True),
             op("fail_structure", cfstruct="APP1"), op("recover", cfstruct="APP1"),
             op("commit", qmgr="QM01"), INSPECT])
fault("R_ORDER_LOST", "RECOVERY", F003,
      "Any activity since the last backup is replayed using the logs of all the queue managers in the queue-sharing group, and the CF structure is then restored up to the point before the failure.",
      "recovered messages come back in reverse order.",
      MQ(), [op("backup", qmgr="QM01", cfstruct="APP1"), put(persistent=True, tag=1),
             put(persistent=True, tag=2), op("fail_structure", cfstruct="APP1"),
             op("recover", cfstruct="APP1"), get()])

# ------------------------------------------------------------------ QUEUE
fault("U_FIFO_BACKOUT", "QUEUE", F003, "Search for the next retrievable message",
      "a backed-out get puts the message at the end of the queue.",
      MQ(), puts(2) + [get(syncpoint=True), op("backout", qmgr="QM01"), get()])
fault("U_UNCOMMITTED_VISIBLE", "QUEUE", F003, "Notify interested queue managers about the arrival of committed messages",
      "an uncommitted put is visible to other queue managers' gets.",
      MQ(), [put(syncpoint=True), get(qm="QM02")])
fault("U_STOP_COMMITS", "QUEUE", "PROTOCOL.md", "Stop a queue manager; its unit of work is backed out (QUEUE-005).",
      "stopping a queue manager commits its unit of work.",
      MQ(), [put(syncpoint=True), op("stop_qmgr", qmgr="QM01"), get(qm="QM02")])
fault("U_NONSHARED_KEPT_AT_STOP", "QUEUE", "schemas/config.json",
      "Do nonpersistent messages on a stopping queue manager's nonshared queues survive the stop?",
      "state after a restart: nonpersistent nonshared messages survive (declared reading: lost).",
      MQ(queues=[Q("LQ1", cfstruct=None, qmgr="QM01")]),
      [put("LQ1"), op("stop_qmgr", qmgr="QM01"), op("start_qmgr", qmgr="QM01"), INSPECT])
fault("U_NONSHARED_PERSISTENT_LOST", "QUEUE", FACTS,
      "[SRC] Nonpersistent messages on shared queues survive queue-manager restarts but **not** CF or structure failure",
      "state after a restart: persistent messages on nonshared queues are lost too.",
      MQ(queues=[Q("LQ1", cfstruct=None, qmgr="QM01")]),
      [put("LQ1", persistent=True), op("stop_qmgr", qmgr="QM01"), op("start_qmgr", qmgr="QM01"), INSPECT])
fault("U_MAXDEPTH_ZERO_ACCEPT", "QUEUE", FACTS, "Also undefined: MaxQDepth = 0, and HI = 0 or LO = 100",
      "MAXDEPTH(0) is accepted in the initial configuration (declared: refused).",
      MQ(queues=[Q(maxdepth=0)]), [])
fault("U_ALTER_QUEUE_RANGE", "QDEPTH", FACTS,
      "[SRC] Limits are expressed as a **percentage of MaxQDepth**, an integer 0 ≤ v ≤ 100.",
      "ALTER QLOCAL accepts QDEPTHHI(101): ranges checked only at DEFINE.",
      MQ(), [op("alter_queue", name="Q1", changes={"qdepthhi": 101})])

# ------------------------------------------------------------------ CQS
EQ4 = [CQ("QA"), CQ("QB"), CQ("QC"), CQ("QD")]
OVF = dict(ovflwstr="MSGQOVF")
fault("CQS_OVFLWMAX_RANGE", "CQS", FACTS,
      "The bounds are unknown: 1..100, 0..100 and 50..100 are all plausible.",
      "OVFLWMAX(40) is accepted (declared bounds 50..100).",
      CQS(structures=[CS(ovflwmax=40)]), [])
fault("CQS_OVFLWMAX_DEFAULT", "CQS", F000,
      "The default overflow threshold is 70%, but you can change the default by defining the OVFLWMAX parameter in the CQSSGxxx member of the PROCLIB data set.",
      "the default overflow threshold is taken as 80% (FULLTHRESHOLD's default).",
      CQS(), cqs_fill([("QA", 20)]))
fault("CQS_ALTER_SYNC", "CQS", F000,
      "When the usage of a structure reaches the overflow threshold, CQS attempts to make the structure larger by initiating a structure alter.",
      "the alter is treated as failed inside the CQSPUT (declared reading: async, decided by z/OS later).",
      CQS(), cqs_fill([("QA", 20)]))
fault("CQS_THRESHOLD_STRICT", "CQS", F000,
      "Definition: The overflow threshold is the percentage of the primary structure that must be in use before CQS goes into overflow mode.",
      "the threshold is only reached when usage exceeds OVFLWMAX.",
      CQS(structures=[CS(ovflwmax=50)]), cqs_fill([("QA", 14)]) + [put("QA", 4352, tag=99)])
fault("CQS_METRIC_MAX", "CQS", FACTS,
      "**What is measured: data elements.**",
      "OVFLWMAX is compared with max(entries%, elements%) instead of elements.",
      CQS(structures=[CS(ratio=255)]), cqs_fill([("QA", 5)], length=0))
fault("CQS_TARGET_POINTS", "CQS", F000,
      "CQS stops selecting queues when enough queues have been selected to cause the primary structure usage to fall 20% below the overflow threshold.",
      "the target is OVFLWMAX-20 points (declared reading: relative, 0.8 x OVFLWMAX).",
      CQS(structures=[CS(**OVF)], queues=EQ4),
      cqs_fill([("QA", 5), ("QB", 5), ("QC", 5), ("QD", 5)]) +
      [op("alter_outcome", cfstruct="MSGQ", success=False)])
fault("CQS_EXIT_IGNORED", "CQS", F000,
      "CQS drives the Queue Overflow User-Supplied exit routine with the candidate queue names, which the exit then approves or rejects for overflow processing.",
      "overflow plus the exit: the exit's veto is ignored.",
      CQS(structures=[CS(**OVF)], queues=EQ4[:2], overflow_exit=["QA"]),
      cqs_fill([("QA", 12), ("QB", 8)]) + [op("alter_outcome", cfstruct="MSGQ", success=False)])
fault("CQS_VETO_STOPS", "CQS", FACTS,
      "A vetoed name is removed from the candidate list and another queue is selected.",
      "overflow plus the exit: a veto ends the selection instead of trying the next candidate.",
      CQS(structures=[CS(**OVF)], queues=EQ4[:2]),
      [op("set_overflow_exit", vetoes=["QA"])] + cqs_fill([("QA", 12), ("QB", 8)]) +
      [op("alter_outcome", cfstruct="MSGQ", success=False)])
fault("CQS_SELECT_ASC", "CQS", F000,
      "In overflow mode, CQS selects queues using the most space on the structure as candidates for overflow processing.",
      "candidates are taken smallest first.",
      CQS(structures=[CS(**OVF)], queues=EQ4[:2]),
      cqs_fill([("QA", 12), ("QB", 8)]) + [op("alter_outcome", cfstruct="MSGQ", success=False)])
fault("CQS_STAGING_MOVED", "CQS", F000,
      "Any parts of a message that are on the staging queue remain on the primary structure.",
      "the staging parts of large messages move to the overflow structure with their queue.",
      CQS(structures=[CS(**OVF)], lgmsgsz=4096),
      cqs_fill([("QA", 18)]) + [op("alter_outcome", cfstruct="MSGQ", success=False), INSPECT])
fault("CQS_NO_OVFLWSTR_ACCEPT_PUT", "CQS", F000,
      "If an overflow structure is not defined, CQS rejects CQSPUT requests for the approved queues.",
      "without an overflow structure, puts to approved queues are still accepted.",
      CQS(), cqs_fill([("QA", 20)]) + [op("alter_outcome", cfstruct="MSGQ", success=False), put("QA", 100)])
fault("CQS_SCAN_CLOCK", "CQS", F000, "(The queues are scanned every 15 minutes.)",
      "overflow plus the scan: scans are anchored at clock multiples of 900 s (declared reading: from the start of overflow mode).",
      CQS(structures=[CS(**OVF)], queues=EQ4[:2]),
      [op("advance_clock", seconds=500)] + cqs_fill([("QA", 12), ("QB", 8)]) +
      [op("alter_outcome", cfstruct="MSGQ", success=False)] + [get("QA")] * 12 +
      [op("advance_clock", seconds=400)])
fault("CQS_SCAN_IMMEDIATE", "CQS", F000,
      "Because the scan is periodic, empty queues might remain in overflow mode temporarily.",
      "overflow plus the scan: a queue leaves overflow mode the moment it is emptied.",
      CQS(structures=[CS(**OVF)], queues=EQ4[:2]),
      cqs_fill([("QA", 12), ("QB", 8)]) + [op("alter_outcome", cfstruct="MSGQ", success=False)] +
      [get("QA")] * 12)
fault("CQS_EMPTY_ENDS", "CQS", "PROTOCOL.md",
      "the `cqs_target` reading `points-floor` (OVFLWMAX − 20, but never below 0) and the `cqs_empty_overflow` reading `next-scan`",
      "overflow plus the exit plus the scan: overflow mode that selected nothing ends at once (declared reading: next-scan).",
      CQS(structures=[CS(**OVF)], queues=EQ4[:2], overflow_exit=["QA", "QB"]),
      cqs_fill([("QA", 12), ("QB", 8)]) + [op("alter_outcome", cfstruct="MSGQ", success=False), INSPECT])
fault("CQS_RESELECT_NONE", "CQS", "PROTOCOL.md",
      "(in overflow mode, does reaching OVFLWMAX again select more queues? `none` or `select`)",
      "reaching OVFLWMAX again in overflow mode selects nothing (declared reading: select).",
      CQS(structures=[CS(**OVF)], queues=EQ4[:2]),
      cqs_fill([("QA", 10), ("QB", 10)]) + [op("alter_outcome", cfstruct="MSGQ", success=False)] +
      cqs_fill([("QB", 10)]))
fault("CQS_RESOURCE_OVERFLOW", "CQS", F000, "Important: Structure overflow is not supported for resource structures.",
      "a resource structure with an overflow structure is accepted.",
      CQS(structures=[CS(), CS(name="RSRC", resource=True, ovflwstr="RSRCOVF")]), [])
fault("CQS_LGMSGSZ_NO_ROUND", "CQS", FACTS,
      "Value: a 1–5 digit number of **bytes**, **rounded up to a multiple of 4**.",
      "LGMSGSZ is used as given, not rounded up to a multiple of 4.",
      CQS(lgmsgsz=4097), [put("QA", 4100), INSPECT])
fault("CQS_LGMSGSZ_NO_CLAMP", "CQS", FACTS, "**Maximum 30632**. A larger value is set to 30632.",
      "an LGMSGSZ over 30632 is refused instead of being set to 30632.",
      CQS(lgmsgsz=40000), [])
fault("CQS_EXIT_AT_THRESHOLD", "CQS", F000,
      "If no overflow structure is allocated, CQS exits overflow mode when the primary structure usage drops 20% below the overflow threshold.",
      "without an overflow structure, overflow mode ends as soon as usage is below OVFLWMAX.",
      CQS(), cqs_fill([("QA", 20)]) + [op("alter_outcome", cfstruct="MSGQ", success=False)] +
      [get("QA")] * 2 + [op("advance_clock", seconds=900)])
fault("CQS_ALTER_OUTCOME_NOPENDING", "CQS", F000,
      "If CQS does not succeed in altering a structure's size, the structure goes into overflow mode.",
      "an alter answer with no alter in progress puts the structure into overflow mode.",
      CQS(), [put("QA", 100), op("alter_outcome", cfstruct="MSGQ", success=False)])

DROPPED = ['S_HEADER_MISSING', 'S_ELEMENT_FLOOR', 'T_DUP_QUEUE_DEFINE', 'T_NONSHARED_OTHER_QMGR', 'C_CFLEVEL_RANGE_6', 'S_SETXCF_NO_RECALC', 'U_FIFO_BACKOUT', 'Q_ENQ_COUNTS_FAILED_PUT', 'U_MAXDEPTH_ZERO_ACCEPT', 'O_SZ_NONK', 'C_MAXMSGL_ORDER', 'CQS_ALTER_OUTCOME_NOPENDING', 'Q_DEPTH_EXCLUDES_UNCOMMITTED']
FAULTS = [f for f in FAULTS if f and f["id"] not in DROPPED]

if __name__ == "__main__":
    ids = [f["id"] for f in FAULTS]
    assert len(ids) == len(set(ids)), "duplicate ids"
    with open(os.path.join(HERE, "faults.json"), "w", encoding="utf-8") as fh:
        json.dump(FAULTS, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    print("%d faults written" % len(FAULTS))
