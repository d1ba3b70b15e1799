import json, os
S0="000_869f717547e3a89a.txt"; S1="001_bbb586403b3000fc.txt"; S2="002_adc847a8fc6c1ca2.txt"
S3="003_83ac8579f7e0d9f5.txt"; S4="004_97a0fff9f37ed76b.txt"; FX="ibm-facts.md"

def mq(structs=None, queues=None, **kw):
    c={"profile":"mq","qsg":"QSG1","qmgrs":["QM01","QM02"],
       "structures":structs or [{"name":"APP1","size_kb":8192,"cflevel":5,"recover":True}],
       "queues":queues if queues is not None else [{"name":"Q1","cfstruct":"APP1"}]}
    c.update(kw); return c
def S(**kw):
    d={"name":"APP1","size_kb":8192,"cflevel":5,"recover":True}; d.update(kw); return d
def put(n=100,q="Q1",qm="QM01",**kw):
    d={"op":"put","qmgr":qm,"queue":q,"length":n}; d.update(kw); return d
def get(q="Q1",qm="QM01",**kw):
    d={"op":"get","qmgr":qm,"queue":q}; d.update(kw); return d
I={"op":"inspect"}
ADV={"op":"advance_clock","seconds":1}
def cqs(structs=None, queues=None, **kw):
    c={"profile":"cqs","qsg":"IMS1","qmgrs":["CQS1","CQS2"],
       "structures":structs or [{"name":"MSGQ","size_kb":64,"ovflwmax":70}],
       "queues":queues or [{"name":n,"cfstruct":"MSGQ"} for n in ("TA","TB","TC")]}
    c.update(kw); return c
def cput(q,n=3000,qm="CQS1"): return {"op":"put","qmgr":qm,"queue":q,"length":n}
def cget(q,qm="CQS1"): return {"op":"get","qmgr":qm,"queue":q}
def fill(plan): return [cput(q,n) for q,k,n in plan for _ in range(k)]
FILL=fill([("TA",6,3000),("TB",3,3000),("TC",2,3000)])
FAILALT={"op":"alter_outcome","cfstruct":"MSGQ","success":False}
SM=[S(name="APP1",size_kb=64,cflevel=3,recover=False)]
F=[]
def f(id,fam,src,sent,desc,config,ops):
    F.append({"id":id,"family":fam,"sentence":sent,"source":src,"description":desc,"scenario":{"config":config,"ops":ops}})

# OFFLOAD
f("OFF-TH-INCLUSIVE","OFFLOAD",S2,"If the coupling facility structure is more than 70% full offload data for messages exceeding 32 KB",
  "Usage threshold compared with >= instead of 'more than': at exactly OFFLD1TH% a >32K message is offloaded.",
  mq([S(size_kb=256,offld1th=25)]), [put(3840) for _ in range(12)]+[put(40000)])
f("OFF-SZ-INCLUSIVE","OFFLOAD",S2,"If the coupling facility structure is more than 80% full offload data for messages exceeding 4 KB",
  "Size compared with >= instead of 'exceeding': a message of exactly OFFLDnSZ bytes is offloaded.",
  mq([S(offld1th=0)]), [put(100),put(32768)])
f("OFF-SZ-KB-UNIT","OFFLOAD",S2,"These parameters are a corresponding coupling facility structure usage threshold percentage ( OFFLDnTH ) and a message size limit ( OFFLDnSZ ).",
  "OFFLDnSZ (bytes on the wire) divided by 1024 as if it were KB: the 32K limit becomes 32 bytes.",
  mq([S(offld1th=0)]), [put(100),put(100)])
f("OFF-64K-STOPS-RULES","OFFLOAD",S2,"In this case messages will only be offloaded if another offload rule is in effect, or if the message is greater than 63.75 KB and so, too large to store in the structure.",
  "A rule with OFFLDnSZ(64K) ends the rule scan instead of being skipped, so later rules never apply.",
  mq([S(offld1sz=65536,offld2th=0,offld2sz=0)]), [put(100),put(100)])
f("OFF-RULE3-IGNORED","OFFLOAD",S2,"If the coupling facility structure is more than 90% full offload data for messages exceeding 0 KB (all messages)",
  "Only the first two rule pairs are evaluated.",
  mq([S(offld3th=0,offld3sz=0)]), [put(100),put(100)])
f("OFF-FORCED-63K","OFFLOAD",S2,"If an offload rule has the OFFLD x SZ value of 64K this indicates that the rule is not in effect. In this case messages will only be offloaded if another offload rule is in effect, or if the message is greater than 63.75 KB and so, too large to store in the structure.",
  "Forced offload boundary taken as 63 KB (64512 bytes) instead of the 63.75 KB this text states.",
  mq(), [put(65000)])
f("OFF-PAIR-CROSSED","OFFLOAD",S2,"There are three rules, and each rule specifies a matching pair of parameters.",
  "Rule 1's threshold is paired with rule 2's size and vice versa.",
  mq([S(offld1th=0)]), [put(100),put(5000)])
f("OFF-OFFLOADED-COST-1K","OFFLOAD",S2,"Each message which is offloaded still requires 0.75 KB of storage in the coupling facility.",
  "An offloaded message is charged 1 KB + entry (8 elements) instead of 0.75 KB.",
  mq(), [put(70000)])
f("OFF-DEFAULT-DB2","OFFLOAD",S2,"OFFLOAD(SMDS) is the default value.",
  "A CFLEVEL(5) structure without OFFLOAD offloads to Db2.",
  mq(), [put(70000)])
f("OFF-SIZE-ONLY","OFFLOAD",FX,"So the correct behaviour needs both the size test and the threshold test of the same rule.",
  "The APAR PI21909 defect: a message matching a rule's size is offloaded although the usage threshold is not met.",
  mq(), [put(40000)])
f("OFF-ALTER-RESETS","OFFLOAD",FX,"ALTER CFSTRUCT has the same offload keywords and no defaults; keywords not specified are left unchanged.",
  "ALTER CFSTRUCT resets the offload keywords it does not name to their DEFINE defaults.",
  mq([S(offld3th=0,offld3sz=0)]), [{"op":"alter_structure","name":"APP1","changes":{"offld1th":50}},put(100),put(100)])
# CFLEVEL
f("CFL-OFFLOAD-AT-4","CFLEVEL",S2,"The OFFLOAD parameter is only valid from CFLEVEL(5).",
  "DEFINE CFSTRUCT accepts OFFLOAD below CFLEVEL(5).",
  mq(), [{"op":"define_structure","structure":{"name":"X4","cflevel":4,"offload":"SMDS"}}])
f("CFL-LARGE-AT-3-OK","CFLEVEL",S3,"3 - can be used for persistent and nonpersistent messages less than 63 KB",
  "CFLEVEL(3) accepts a message over 63 KB.",
  mq([S(cflevel=3)]), [put(70000)])
f("CFL-PERSIST-AT-2-OK","CFLEVEL",S3,"1, 2 - can be used for nonpersistent messages less than 63 KB",
  "No CFLEVEL gate for persistent puts; only RECOVER is checked, giving 2048 instead of our 2366.",
  mq([S(cflevel=2,recover=False)]), [put(100,persistent=True)])
f("CFL-DB2-AT-4-MISSING","CFLEVEL",S3,"Message data exceeding 63 KB is always offloaded to SMDS or Db2.",
  "At CFLEVEL(4) a message over 63.75 KB is kept in the structure instead of Db2.",
  mq([S(cflevel=4)]), [put(70000)])
f("CFL-DECREASE-UNGUARDED","CFLEVEL",FX,"Decrease from 3 or from 4 only if every queue referencing the structure is empty (no messages and no uncommitted activity) and closed.",
  "CFLEVEL lowered from 4 while a queue on the structure holds messages.",
  mq([S(cflevel=4)]), [put(100),{"op":"alter_structure","name":"APP1","changes":{"cflevel":3}}])
f("CFL-LEVEL6-ACCEPTED","CFLEVEL",S3,"CF structures have a CFLEVEL attribute that determines their functional capability:",
  "CFLEVEL range check allows 6.",
  mq([S(cflevel=6)]), [I])
f("CFL-LARGE-RC-2030","CFLEVEL",FX,"For example an MQPUT or MQPUT1 call was issued with a message that was bigger than 63 KB in length, and the shared queue was using an IBM MQ CFSTRUCT with a CFLEVEL of less than 4.",
  "A >63 KB put to CFLEVEL(3) with a large MAXMSGL answers 2030 instead of 2366.",
  mq([S(cflevel=3)]), [put(70000)])
# CAPACITY
f("CAP-FULL-2053","CAPACITY",S1,"If no action is taken and a queue structure fills up, an MQRC_STORAGE_MEDIUM_FULL return code is returned to the application.",
  "A full structure answers MQRC_Q_FULL (2053) instead of 2192.",
  mq(SM), [put(3000) for _ in range(15)])
f("CAP-ENTRY-IGNORED","CAPACITY",FX,"A structure is full if either all ENTRYs or all ELEMENTs are in use.",
  "Only elements are checked; a structure out of entries still accepts puts.",
  mq(SM), [put(100) for _ in range(33)])
f("CAP-IXC585-STRICT","CAPACITY",S1,"FULLTHRESHOLD sets the percentage value of the threshold at which z/OS® issues message IXC585E to indicate that the structure is getting full.",
  "IXC585E only when usage exceeds FULLTHRESHOLD, not when it reaches it.",
  mq([S(size_kb=64,cflevel=3,recover=False,fullthreshold=25)]), [put(3840),put(3840),put(3840),ADV])
f("CAP-FT0-MONITORS","CAPACITY",FX,"FULLTHRESHOLD(0) disables monitoring.",
  "FULLTHRESHOLD(0) treated as a 0% threshold: IXC585E for any usage.",
  mq([S(fullthreshold=0)]), [put(100),ADV])
f("CAP-FT101-ACCEPTED","CAPACITY",FX,"FULLTHRESHOLD valid values are 0–100 (decimal), default 80, where 0 means no monitoring or auto-alter.",
  "FULLTHRESHOLD range check allows 101.",
  mq([S(fullthreshold=101)]), [I])
f("CAP-IXC586-MISSING","CAPACITY",FX,"IXC586I when usage goes back below it.",
  "IXC586I is never issued when usage falls back below FULLTHRESHOLD.",
  mq([S(size_kb=64,cflevel=3,recover=False,fullthreshold=25)]), [put(3840),put(3840),put(3840),ADV,get(),ADV])
f("CAP-OFFLOAD-NO-CHARGE","CAPACITY",S3,"However, with CFLEVEL(5) you can use the offload parameters to offload data for messages less than 63 KB thereby increasing the number of messages which can be stored in the structure, although each message still requires at least a coupling facility entry plus at least 512 bytes of data.",
  "An offloaded message is charged only its entry, no data elements.",
  mq(), [put(70000)])
# TOPOLOGY
f("TOP-QSG5-ACCEPTED","TOPOLOGY",FX,"QSG name: \"**up to four characters**\", unique in the network, and different from any queue manager name.",
  "QSG name length check allows 5 characters.",
  mq(qsg="QSG12"), [I])
f("TOP-QSG-EQ-QMGR","TOPOLOGY",FX,"QSG name: \"**up to four characters**\", unique in the network, and different from any queue manager name.",
  "No check that the QSG name differs from the queue manager names.",
  mq(qsg="QM01"), [I])
f("TOP-64-STRUCTS","TOPOLOGY",S1,"You can use up to 63 (62 if qsg-nameCSQSYSAPPL is defined) structures for message data.",
  "64 application structures accepted (the administration structure forgotten).",
  mq([{"name":"S%d"%i} for i in range(64)],[]), [I])
f("TOP-SYSAPPL-UNCOUNTED","TOPOLOGY",S1,"If it is defined, another of these structures might be the qsg-nameCSQSYSAPPL structure.",
  "CSQSYSAPPL not counted among the 64: 63 message structures plus CSQSYSAPPL accepted.",
  mq([{"name":"S%d"%i} for i in range(63)]+[{"name":"CSQSYSAPPL"}],[]), [I])
f("TOP-513-QUEUES","TOPOLOGY",S1,"Each structure can hold up to 512 shared queues.",
  "Off by one: 513 queues accepted on one structure.",
  mq(queues=[{"name":"Q%d"%i,"cfstruct":"APP1"} for i in range(513)]), [I])
f("TOP-NAME13","TOPOLOGY",FX,"Structure name: **≤ 12 characters; starts with an uppercase letter A–Z; only A–Z and 0–9.**",
  "Structure name length check allows 13 characters.",
  mq([{"name":"ABCDEFGHIJKLM"}],[]), [I])
f("TOP-DIGIT-NAME","TOPOLOGY",FX,"Structure name: **≤ 12 characters; starts with an uppercase letter A–Z; only A–Z and 0–9.**",
  "Structure name may start with a digit.",
  mq([{"name":"1APP"}],[]), [I])
f("TOP-CFNAME-NOPAD","TOPOLOGY",FX,"always four characters, padded with @ symbols if necessary",
  "CFRM structure name built from the QSG name without @ padding.",
  mq(qsg="AB"), [I])
# SIZING
f("SIZ-INITSIZE-IGNORED","SIZING",S1,"INITSIZE is the size in KB that the structure is allocated with when the first queue manager connects to it.",
  "The structure is allocated at SIZE, ignoring INITSIZE.",
  mq([S(size_kb=16384,initsize_kb=8192)]), [I])
f("SIZ-ALTER-AT-SIZE","SIZING",S1,"alters the size of the structure to newsize, where newsize is a value that is less than the value of SIZE specified on the CFRM policy for the structure, but greater than the current coupling facility size.",
  "SETXCF ALTER to exactly SIZE accepted (<= instead of <).",
  mq([S(size_kb=16384,initsize_kb=8192)]), [{"op":"setxcf_alter","cfstruct":"APP1","size_kb":16384}])
f("SIZ-ALTER-ABOVE-SIZE","SIZING",S1,"SIZE is the maximum size that the structure can attain.",
  "SETXCF ALTER above SIZE accepted.",
  mq([S(size_kb=16384,initsize_kb=8192)]), [{"op":"setxcf_alter","cfstruct":"APP1","size_kb":20000}])
f("SIZ-ADMIN-TABLE-OFFBY1","SIZING",S1,"Table 1 shows the minimum required size for the administrative structure for various numbers of queue managers defined in the queue sharing group.",
  "Table 1 indexed one row too early (n-1 queue managers).",
  mq(qmgrs=["QM01","QM02","QM03"]), [I])
f("SIZ-ADMIN-ENTRIES","SIZING",S1,"The administrative structure (qsg-nameCSQ_ADMIN) must be large enough to contain 1000 list entries for each queue manager in the queue sharing group.",
  "CSQ_ADMIN offers 999 list entries per queue manager.",
  mq(), [I])
f("SIZ-KB-AS-BYTES","SIZING",S1,"INITSIZE(value from graph in KB, that is, multiplied by 1024)",
  "Structure sizes converted with 1000 bytes per KB.",
  mq(), [I])
# QDEPTH
QD=[{"name":"Q1","cfstruct":"APP1","maxdepth":10,"qdepthhi":80,"qdepthlo":20,"qdphiev":True}]
QL=[{"name":"Q1","cfstruct":"APP1","maxdepth":10,"qdepthhi":80,"qdepthlo":20,"qdploev":True}]
f("QD-HI-STRICT","QDEPTH",FX,"has caused the queue depth to be incremented to, or greater than",
  "Queue Depth High only when the depth exceeds the limit.",
  mq(queues=QD), [put() for _ in range(8)])
f("QD-LO-STRICT","QDEPTH",FX,"has caused the queue depth to be decremented to, or less than",
  "Queue Depth Low only when the depth falls under the limit.",
  mq(queues=QL), [put(),put(),put(),get()])
f("QD-NO-REARM","QDEPTH",FX,"A Queue Depth High event is automatically enabled by a Queue Depth Low event",
  "Queue Depth Low does not re-enable Queue Depth High: the event never re-arms.",
  mq(queues=QL), [put(),put(),put(),get(),I])
f("QD-FORGET-LAST-QMGR","QDEPTH",S4,"Broadcasts to all other active queue managers in the same queue-sharing group to request the production of an event message for the shared queue.",
  "The broadcast loop skips the last queue manager of the group.",
  mq(queues=QD), [put() for _ in range(8)])
f("QD-PERFMEV-NO-TOGGLE","QDEPTH",S4,"A key difference is that events are switched on for shared queues even if PERFMEV is DISABLED on the queue manager.",
  "A detecting queue manager with PERFMEV(DISABLED) does not toggle the shared queue's event switches.",
  mq(queues=QD, perfmev_disabled=["QM01"]), [put() for _ in range(8)]+[I])
f("QD-NONSHARED-TOGGLES","QDEPTH",S4,"In contrast the attributes for LQ1 remain unchanged until PERFMEV on the queue manager is ENABLED.",
  "Nonshared queues toggle their switches while PERFMEV is DISABLED.",
  mq(queues=[{"name":"L1","qmgr":"QM01","maxdepth":10,"qdphiev":True}], perfmev_disabled=["QM01"]), [put(q="L1") for _ in range(8)]+[I])
f("QD-NO-STATS-RESET","QDEPTH",S4,"Issues an event message that captures all shared queue performance data it has gathered since the last time an event message was created, or since the queue statistics were last reset.",
  "Statistics are not restarted after an event message, so the next one counts from the beginning.",
  mq(queues=[dict(QD[0],qdploev=False)]), [put() for _ in range(8)]+[get() for _ in range(6)])
f("QD-QFULL-NO-LO-ENABLE","QDEPTH",FX,"A Queue Depth Low event is automatically enabled by a Queue Depth High event or a Queue Full event",
  "Queue Full does not enable Queue Depth Low.",
  mq(queues=[{"name":"Q1","cfstruct":"APP1","maxdepth":2,"qdpmaxev":True}]), [put(),put(),put(),I])
f("QD-HI101-ACCEPTED","QDEPTH",FX,"Limits are expressed as a **percentage of MaxQDepth**, an integer 0 ≤ v ≤ 100.",
  "QDEPTHHI range check allows 101.",
  mq(queues=[{"name":"Q1","cfstruct":"APP1","qdepthhi":101}]), [I])
f("QD-INACTIVE-EMITS","QDEPTH",S4,"Having received a request from the coordinating queue manager, if there is an active queue manager in the queue-sharing group that is enabled for performance events , that active queue manager issues an event message for the shared queue.",
  "A stopped queue manager still issues an event message.",
  mq(queues=QD), [{"op":"stop_qmgr","qmgr":"QM02"}]+[put() for _ in range(8)])
f("QD-RESET-QSTATS-IGNORED","QDEPTH",S4,"The event message that is issued contains information about all the operations performed by the receiving (active) queue manager since the last time an event message was created, or since the statistics were last reset.",
  "RESET QSTATS does not restart the counts.",
  mq(queues=QD), [put(qm="QM02") for _ in range(3)]+[{"op":"reset_qstats","qmgr":"QM02","queue":"Q1"}]+[put() for _ in range(5)])
# RECOVERY
BK={"op":"backup","qmgr":"QM01","cfstruct":"APP1"}
FL={"op":"fail_structure","cfstruct":"APP1"}
RC={"op":"recover","cfstruct":"APP1"}
f("REC-NONPERSIST-BACKED","RECOVERY",FX,"Only persistent shared queue messages are backed up.",
  "BACKUP CFSTRUCT copies nonpersistent messages too, so they come back after RECOVER.",
  mq(), [put(tag=7),BK,FL,RC,get()])
f("REC-NO-BACKUP-OK","RECOVERY",S3,"This uses the backup record from Db2 to locate and restore persistent messages from the backup of the CF structure.",
  "RECOVER CFSTRUCT TYPE(NORMAL) succeeds without any backup.",
  mq(), [FL,RC])
f("REC-FORGET-STOPPED-LOG","RECOVERY",S3,"Any activity since the last backup is replayed using the logs of all the queue managers in the queue-sharing group, and the CF structure is then restored up to the point before the failure.",
  "Only the logs of active queue managers are replayed.",
  mq(), [BK,put(qm="QM02",persistent=True,tag=3),{"op":"stop_qmgr","qmgr":"QM02"},FL,RC,get()])
f("REC-GETS-NOT-REPLAYED","RECOVERY",S3,"MQPUT and MQGET operations on persistent messages are recorded on the log of the queue manager performing that operation.",
  "Replay applies logged puts but not logged gets, resurrecting retrieved messages.",
  mq(), [put(persistent=True,tag=1),BK,get(),FL,RC,get()])
f("REC-NORMAL-NONFAILED","RECOVERY",FX,"V5.3 text: it fails \"if TYPE(NORMAL) is specified and the structure has not been flagged as FAILED\".",
  "RECOVER TYPE(NORMAL) accepted on an active structure.",
  mq(), [BK,RC])
f("REC-CFLEVEL2-BACKUP","RECOVERY",FX,"The command fails if the structure has CFLEVEL < 3 or RECOVER(NO).",
  "BACKUP checks RECOVER but not CFLEVEL.",
  mq([S(cflevel=2,recover=True)]), [BK])
f("REC-FAILED-PUT-RC","RECOVERY",FX,"MQI calls on a FAILED structure get 2373.",
  "A put to a failed structure answers 2053.",
  mq(), [FL,put()])
# QUEUE
f("QUE-LIFO","QUEUE",S3,"Search for the next retrievable message",
  "Gets take the newest message instead of the next one.",
  mq(), [put(tag=1),put(tag=2),get()])
f("QUE-QFULL-OFFBY1","QUEUE",FX,"already contains the maximum number of messages possible",
  "Queue full checked as depth > MAXDEPTH: one message too many accepted.",
  mq(queues=[{"name":"Q1","cfstruct":"APP1","maxdepth":2}]), [put(),put(),put()])
f("QUE-BACKOUT-KEEPS-PUT","QUEUE",FX,"After a normal completion, every associated SMDS is marked RECOVERED, and the space map is rebuilt (ignoring nonpersistent and backed-out messages).",
  "BACKOUT commits the unit of work: a backed-out put stays on the queue.",
  mq(), [put(syncpoint=True,tag=4),{"op":"backout","qmgr":"QM01"},get()])
f("QUE-UNCOMMITTED-VISIBLE","QUEUE",S3,"Lock uncommitted messages on shared queues",
  "Uncommitted puts are retrievable by other queue managers.",
  mq(), [put(syncpoint=True,tag=4),get(qm="QM02")])
f("QUE-MAXMSGL-INCLUSIVE","QUEUE",FX,"2030 **MQRC_MSG_TOO_BIG_FOR_Q** applies when length > min(queue MaxMsgLength, queue-manager MaxMsgLength).",
  "A message of exactly MAXMSGL bytes refused with 2030.",
  mq(queues=[{"name":"Q1","cfstruct":"APP1","maxmsgl":1000}]), [put(1000)])
f("QUE-NP-LOST-ON-STOP","QUEUE",FX,"Nonpersistent messages on shared queues survive queue-manager restarts but **not** CF or structure failure",
  "Stopping a queue manager drops the nonpersistent shared messages it put.",
  mq(), [put(tag=5),{"op":"stop_qmgr","qmgr":"QM01"},get(qm="QM02")])
# CQS
C25=cqs([{"name":"MSGQ","size_kb":64,"ovflwmax":25}])
f("CQS-THRESHOLD-STRICT","CQS",S0,"When the usage of a structure reaches the overflow threshold, CQS attempts to make the structure larger by initiating a structure alter.",
  "The alter starts only when usage exceeds OVFLWMAX, not when it reaches it.",
  C25, [cput("TA",3840) for _ in range(3)])
f("CQS-NO-ALTER-FIRST","CQS",S0,"If CQS does not succeed in altering a structure's size, the structure goes into overflow mode.",
  "Overflow mode entered at the threshold without first attempting a structure alter.",
  C25, [cput("TA",3840) for _ in range(3)])
f("CQS-SELECT-LEAST","CQS",S0,"In overflow mode, CQS selects queues using the most space on the structure as candidates for overflow processing.",
  "Candidates sorted ascending: the queue using the least space is selected first.",
  cqs(), FILL+[FAILALT])
f("CQS-STOP-EARLY","CQS",S0,"CQS stops selecting queues when enough queues have been selected to cause the primary structure usage to fall 20% below the overflow threshold.",
  "The selection loop stops one candidate too early (never considers the last one).",
  cqs(overflow_exit=["TA","TB"]), FILL+[FAILALT])
f("CQS-VETO-STOPS","CQS",FX,"A vetoed name is removed from the candidate list and another queue is selected.",
  "A veto from the Queue Overflow exit ends the selection.",
  cqs(overflow_exit=["TA"]), FILL+[FAILALT])
f("CQS-STAGING-MOVED","CQS",S0,"Any parts of a message that are on the staging queue remain on the primary structure.",
  "Staging-queue parts move to the overflow structure with their queue.",
  cqs([{"name":"MSGQ","size_kb":64,"ovflwmax":70,"ovflwstr":"OVFQ"}], lgmsgsz=1000), [cput("TA",3000) for _ in range(10)]+[FAILALT,I])
f("CQS-PUT-ACCEPTED-NOSTR","CQS",S0,"If an overflow structure is not defined, CQS rejects CQSPUT requests for the approved queues.",
  "CQSPUT to an approved queue accepted when no overflow structure is defined.",
  cqs(), FILL+[FAILALT,cput("TA",100)])
f("CQS-SCAN-NEVER","CQS",S0,"(The queues are scanned every 15 minutes.)",
  "The periodic scan never runs, so empty queues never leave overflow mode.",
  cqs([{"name":"MSGQ","size_kb":64,"ovflwmax":70,"ovflwstr":"OVFQ"}]), FILL+[FAILALT]+[cget("TA") for _ in range(6)]+[{"op":"advance_clock","seconds":900}])
f("CQS-RESOURCE-OVERFLOW","CQS",S0,"Structure overflow is not supported for resource structures.",
  "A resource structure accepted with an overflow structure.",
  cqs([{"name":"MSGQ","size_kb":64,"resource":True,"ovflwstr":"OVFQ"}]), [I])
f("CQS-DEFAULT-80","CQS",S0,"The default overflow threshold is 70%, but you can change the default by defining the OVFLWMAX parameter in the CQSSGxxx member of the PROCLIB data set.",
  "Default overflow threshold taken as 80% (the FULLTHRESHOLD default).",
  cqs([{"name":"MSGQ","size_kb":64}]), [cput("TA") for _ in range(11)])

here=os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
json.dump(F, open(os.path.join(here,"faults.json"),"w"), indent=1, ensure_ascii=False)
print(len(F))
