"""The mutant catalogue: every family's mutants in rule order, and the rules left without one.

Each family module (``cqs_family``, ``offload_family``, ...) holds the mutants of its rules; this module only
gathers them and says which rules have no mutant and why (``SKIPPED``), so that ``docs/MUTANTS.md`` and the tests
can check that every rule with an observable effect has at least one.
"""

from __future__ import annotations

from collections.abc import Mapping

from cfconform.reference_model.rules import RULES

from . import (
    capacity_family,
    cflevel_family,
    cqs_family,
    offload_family,
    qdepth_family,
    queue_family,
    recovery_family,
    topology_family,
)
from .kit import Mutant

_ADVICE = "advice or a worked example for choosing OFFLD3TH: no behaviour an implementation could get wrong"
_SIZING = (
    "a sizing-calculator rule (the model's own accounting against IBM's tables, `cfconform size`), not a behaviour "
    "of an implementation; element accounting is implementation-defined and compared with a tolerance"
)
_CONFIG = "configuration-time advice or naming: checked when the configuration is built, never by an operation"

#: Rules with no mutant, and why (no observable effect an implementation could get wrong).
SKIPPED: Mapping[str, str] = {
    "CQS-022": "inferred (no sentence says where new data objects of a queue in overflow mode go): no verdict",
    **{f"OFFLOAD-0{n:02d}": _ADVICE for n in (8, 9, 10)},
    "CAPACITY-007": "best-practice advice (INITSIZE and SIZE within a factor of 2): a warning, never an outcome",
    "CAPACITY-011": "a freedom, not a constraint (z/OS may alter the entry:element ratio at any time): no outcome "
    "breaks it; tests/gate/test_autoalter.py checks that the gate accepts an implementation that uses it",
    "TOPOLOGY-002": "checked when the configuration is built (at least one application structure); no operation "
    "removes a structure, so no outcome can depend on it",
    "CFLEVEL-007": "RECOVER(YES) needs CFLEVEL(3): no document says DEFINE or ALTER refuses it below (ibm-facts "
    "2.6), so its only observable effect is CFLEVEL-002's refused persistent put",
    "QDEPTH-018": "MAXDEPTH's range is no sentence's (ibm-facts 4.2: 'Also undefined: MaxQDepth = 0'): an "
    "implementation may accept more or refuse 0 (the tenth reading refuses it), so no fault breaks it",
    "CFLEVEL-010": "a queue's MAXMSGL range is no sentence's (ibm-facts 3.5 states only the queue manager's): an "
    "implementation may accept more than 100 MB (the eleventh reading does) or refuse any, so no fault breaks it",
    "TOPOLOGY-007": f"CSQ_ADMIN sizing, {_CONFIG}",
    "TOPOLOGY-008": f"CSQ_ADMIN minimum sizes (Table 1), {_CONFIG}",
    "TOPOLOGY-014": f"the CFCC level (9 or higher) picks `cfconform size --admin`'s Table 1 edition, {_CONFIG}",
    "TOPOLOGY-010": f"the QSG name and structure-name prefix, {_CONFIG}",
    "TOPOLOGY-015": "judged at open on a configuration record (judge/opening.py); an in-process mutant is handed the "
    "model's validated Config and cannot open one; the eighth and ninth readings' faults TOP_QSG_LEN and "
    "TOP_QSG_EQ_QMGR are its killed faults (tests/gate/test_forbidden_configurations.py)",
    "TOPOLOGY-011": f"CSQSYSAPPL's default queues and suggested sizes, {_CONFIG}",
    "TOPOLOGY-012": f"CSQSYSAPPL sizing (Table 3), {_CONFIG}",
    **{f"SIZING-00{n}": _SIZING for n in range(1, 6)},
}

#: Mutants retired because the fault they make breaks nothing a document decides: the gate does not
#: judge it, so no correct checker can kill it.  A retired mutant is only this entry (its row is gone
#: from its family's table); the ID stays reserved (never reused or renumbered).
RETIRED: Mapping[str, str] = {
    "M-CQS-016-b": "an MQ definition with CQS overflow fields accepted: no MQ text names those fields, so "
    "ignoring them is admissible (the third reading does)",
    "M-CQS-014-a": "overflow mode that selected no queue (every candidate vetoed) staying: 'When all queues "
    "have been removed, CQS exits overflow mode' does not say what happens when none was ever added "
    "(reading cqs_empty_overflow; the second reading stays)",
    "M-CQS-021-a": "a message just over the unrounded LGMSGSZ split: whether the long message record's size "
    "includes the message prefix is not documented (ibm-facts 1.9, AMBIGUOUS: how a message is split into parts), so "
    "when a message is split is not judged exactly",
    "M-CQS-021-c": "as M-CQS-021-a: the split point of a message against LGMSGSZ is not documented exactly",
    "M-CQS-022-a": "a CQSPUT to a queue in overflow mode charged to the primary: CQS-022 is our inference (status "
    "inferred); no sentence says where new data objects of an overflowed queue go",
    "M-CAPACITY-009-b": "FULLTHRESHOLD(100) refused by ALTER CFSTRUCT: FULLTHRESHOLD is a CFRM policy value "
    "(seed 001), not an ALTER CFSTRUCT keyword, so refusing it there is the product's right",
    "M-CQS-002-b": "OVFLWMAX(0) read as 'no threshold': neither OVFLWMAX's range nor a meaning of 0 is documented "
    "(ibm-facts 1.1: valid range NOT FOUND)",
    "M-CQS-002-c": "OVFLWMAX above 100 accepted: no document states OVFLWMAX's range (ibm-facts 1.1: NOT FOUND)",
    "M-CQS-017-b": "one staging part too many: the part size is not documented, so the number of staging parts is "
    "only bounded below (no fewer than the parts of at most LGMSGSZ bytes)",
    "M-OFFLOAD-005-a": "an offloaded message using an entry but no element: how the CF holds the 0.75 KB an offloaded "
    "message keeps is its own accounting; what is stated is checked by M-OFFLOAD-005-c",
    "M-OFFLOAD-005-b": "one 256-byte element for an offloaded message: element size and count are the CF's accounting; "
    "what is stated (it costs less than the message kept whole) is checked by M-OFFLOAD-005-c",
    "M-OFFLOAD-007-b": "ALTER CFSTRUCT CFLEVEL(4) not naming OFFLOAD on an OFFLOAD(DB2) structure: the keyword is "
    "documented as valid only from CFLEVEL(5), but no sentence says such an ALTER is refused",
    "M-CFLEVEL-005-b": "MAXMSGL above 100 MB accepted: no sentence here states a queue's MAXMSGL range, only the "
    "queue manager's (CFLEVEL-010, inferred; the eleventh reading accepts it)",
    "M-QDEPTH-014-b": "MAXDEPTH above 999999999 accepted: no sentence here states MAXDEPTH's range (QDEPTH-018, "
    "inferred)",
    "M-QDEPTH-014-c": "MAXDEPTH(0) refused: ibm-facts 4.2 calls MaxQDepth = 0 undefined and states no range "
    "(QDEPTH-018; the tenth reading refuses it)",
    "M-OFFLOAD-011-a": "OFFLDnTH above 100 accepted: the ranges are not documented (ibm-facts 2.2, 8: NOT FOUND)",
    "M-OFFLOAD-011-b": "OFFLDnSZ above 64K accepted: the ranges are not documented (ibm-facts 2.2, 8: NOT FOUND)",
    "M-OFFLOAD-012-a": "list-entry usage only: every decision lies within the documented 'combined storage' reading "
    "(ibm-facts 2.3), whose weighting of entries and elements is the CF's",
    "M-OFFLOAD-012-c": "max(entries%, elements%) for rule 1 and elements% for rule 2: both lie within the documented "
    "'combined storage' reading (ibm-facts 2.3), whose weighting is the CF's, so no single reading is broken",
    "M-CFLEVEL-003-b": "exactly 63 KB refused at CFLEVEL(3): seed 003 says 'less than 63 KB', so 63 KB may be refused",
    "M-CFLEVEL-007-a": "RECOVER(YES) accepted at CFLEVEL(2): no document says DEFINE or ALTER refuses it (ibm-facts "
    "2.6); the persistent put it would allow is still refused (CFLEVEL-002)",
    "M-CFLEVEL-007-b": "CFLEVEL lowered to 2 on a RECOVER(YES) structure: no document says the ALTER is refused "
    "(ibm-facts 2.6); persistent puts are then refused (CFLEVEL-002)",
    "M-CFLEVEL-008-c": "2366 where 2030 also applies: a put over MAXMSGL and over the CFLEVEL limit breaks two "
    "sentences, and none says which reason code wins",
    "M-CAPACITY-001-d": "a refused put leaving a list entry in use: storage accounting is the CF's; no sentence states "
    "the usage after a refused put",
    "M-CAPACITY-004-c": "SETXCF ALTER to the current size (INITSIZE) refused: seed 001 says the new size is 'greater "
    "than the current coupling facility size', an admissible reading (alter_not_larger)",
    "M-RECOVERY-006-c": "NOT_ALLOWED instead of NOT_FAILED: no document names command failure reasons; only that "
    "RECOVER fails is compared",
    "M-QUEUE-003-d": "storage of a message got under syncpoint released before commit: when the CF releases storage "
    "is its accounting; the message itself still obeys commit and backout (QUEUE-003)",
}

#: Mutants that break a documented sentence but that the checker cannot flag today (a checker gap,
#: not a retirement): they stay in the catalogue, and their checker test is an expected failure.
CHECKER_GAPS: Mapping[str, str] = {}

_ORDER = {r.id: i for i, r in enumerate(RULES)}
#: Every family's mutants, in rule order.
MUTANTS: tuple[Mutant, ...] = tuple(sorted(
    (m for f in (cqs_family, offload_family, cflevel_family, capacity_family, topology_family, qdepth_family,
                 recovery_family, queue_family) for m in f.MUTANTS),
    key=lambda m: (_ORDER.get(m.rule, len(_ORDER)), int(m.rule[-3:]), m.id),
))  # fmt: skip
