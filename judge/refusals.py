"""Commands an implementation may refuse where the model accepts them (principle 1: no sentence, no
verdict), and the ones a sentence decides: names, keywords and resources are the product's, except
a plainly named queue or structure under a documented limit and ALTER CFSTRUCT to documented values."""

from __future__ import annotations

import re
from typing import Any

from cfconform.reference_model.model import Model
from cfconform.reference_model.operations import DefineQueue, DefineStructure
from cfconform.reference_model.outcomes import Outcome

#: Commands an implementation may refuse where the model accepts them (names, keywords and
#: resources are the product's), except where a sentence decides: see :func:`refusable`.
REFUSABLE = ("define_structure", "define_queue", "alter_structure", "alter_queue", "set_perfmev", "reset_qstats")


#: Names of the kind every product accepts (IBM's own examples): refusing one is about something else.
_PLAIN_NAME = re.compile(r"^[A-Z][A-Z0-9.]{0,11}$")
#: ALTER CFSTRUCT keywords with documented values (CFLEVEL 1-5, RECOVER, OFFLOAD at CFLEVEL(5)).
_DOCUMENTED_KEYWORDS = frozenset({"cflevel", "recover", "offload"})


def field(definition: Any, name: str) -> Any:
    """A field of a definition given as a record or as a raw dict."""
    return definition.get(name) if isinstance(definition, dict) else getattr(definition, name, None)


def refusable(model: Model, op: Any, expected: Outcome, observed: Outcome) -> bool:
    """Whether refusing ``op`` is the implementation's right.  Judged: a plainly named queue on a
    structure holding fewer than 512 (TOPOLOGY-005 "Each structure can hold up to 512 shared
    queues"), a plainly named MQ structure among fewer than 63 (TOPOLOGY-003), and an ALTER CFSTRUCT
    of CFLEVEL, RECOVER or OFFLOAD to documented values that the model accepts (CFLEVEL-001/009), and an
    ALTER QLOCAL to documented values (:func:`queue_documented`).  MAXDEPTH(0) may be refused: ibm-facts
    4.2 "Also undefined: MaxQDepth = 0" (the tenth reading refuses it, mq seeds 1-3)."""
    if observed.ok or not expected.ok or getattr(op, "KIND", None) not in REFUSABLE:
        return False
    if isinstance(op, DefineQueue):
        depth = field(op.queue, "maxdepth")  # (a record without it: the product's default, no reason)
        if depth is not None and not queue_documented("maxdepth", depth):
            return True
        name, cfstruct = field(op.queue, "name"), field(op.queue, "cfstruct")
        held = sum(1 for other in model.queues.values() if cfstruct is not None and other.defn.cfstruct == cfstruct)
        # (the model has taken the step: the count includes the queue refused)
        return not (isinstance(name, str) and _PLAIN_NAME.match(name) and cfstruct is not None and held <= 512)
    if isinstance(op, DefineStructure):
        if below_its_level(op.structure, op.structure if isinstance(op.structure, dict) else {}):
            return True
        name = field(op.structure, "name")
        plain = model.config.profile == "mq" and isinstance(name, str) and bool(_PLAIN_NAME.match(name))
        return not (plain and "." not in name and len(model.structures) <= 63)
    if op.KIND == "alter_structure":
        s = model.structures.get(op.name)
        if s is not None and (s.failed or below_its_level(s.defn, dict(op.changes))):
            return True  # (no document says what ALTER CFSTRUCT of a failed structure does)
        return model.config.profile != "mq" or not all(documented(k, v) for k, v in dict(op.changes).items())
    if op.KIND == "alter_queue":
        return not all(queue_documented(k, v) for k, v in dict(op.changes).items())
    return True


def before_refusal(cands: list[Any], op: Any, observed: Outcome) -> dict[int, Model]:
    """Copies of the candidates' models before the implementation's refusal of a command it may
    refuse (:func:`refusable`).  When a reading explains the refusal (guarded CFLEVEL-009 refusing a
    5-to-4 ALTER that also keeps OFFLDn* below CFLEVEL 5, say), the refusal decides nothing between
    readings: the others survive with the command undone, as the implementation left it, instead of
    the trace pinning the reading that matched by chance (second reading, ci seed 2)."""
    if observed.ok or getattr(op, "KIND", None) not in REFUSABLE:
        return {}
    return {id(c): c.model.copy() for c in cands}


def below_its_level(definition: Any, named: dict[str, Any]) -> bool:
    """Whether a definition keeps a keyword below the CFLEVEL it needs, where the documents leave a
    refusal open (ibm-facts 2.6, AMBIGUOUS): RECOVER(YES) below CFLEVEL(3) ("required if you want to
    use persistent messages", CFLEVEL-007), or OFFLOAD/OFFLDn* named below CFLEVEL(5) (OFFLOAD-007:
    "only valid from CFLEVEL(5)"; whether OFFLDn* are refused too is not verified)."""
    cflevel = field(definition, "cflevel")
    if not isinstance(cflevel, int) or isinstance(cflevel, bool):
        cflevel = 3  # DEFINE CFSTRUCT's default CFLEVEL
    if field(definition, "recover") is True and cflevel < 3:
        return True
    return cflevel < 5 and any(k == "offload" or k.startswith("offld") for k in named)


#: OFFLDnSZ and OFFLDnTH values IBM's texts use (seed 002's table and examples, the /64K default).
_OFFLOAD_SIZES = frozenset({0, 4 * 1024, 32 * 1024, 64 * 1024})
_OFFLOAD_THRESHOLDS = frozenset({0, 70, 80, 90})


def documented(keyword: str, value: Any) -> bool:
    """Whether an ALTER CFSTRUCT keyword and value are ones the documents show valid."""
    if keyword == "offload":  # OFFLOAD(SMDS|DB2): a null one (DEFINE's "not given") is no ALTER keyword
        return value in ("SMDS", "DB2")  # (the twelfth reading refuses it: mq seed 4)
    if keyword in _DOCUMENTED_KEYWORDS:
        return True
    if keyword.startswith("offld") and keyword.endswith("sz"):
        return value in _OFFLOAD_SIZES
    if keyword.startswith("offld") and keyword.endswith("th"):
        return value in _OFFLOAD_THRESHOLDS
    return False


#: ALTER QLOCAL keywords whose values the documents state: the two percentages "an integer 0 <= v <=
#: 100" (ibm-facts 4.2, QDEPTH-014) and the three event switches ENABLED or DISABLED.
_QUEUE_SWITCHES = frozenset({"qdphiev", "qdploev", "qdpmaxev"})
#: The MaxQDepth of IBM's queue depth Example 2 (ibm-facts 4.4: HighQDepth "1000 at QF").
_EXAMPLE_MAXDEPTH = 1000


def queue_documented(keyword: str, value: Any) -> bool:
    """Whether an ALTER QLOCAL (or DEFINE QLOCAL) keyword and value are ones the documents show valid.
    No sentence here states MAXDEPTH's range (QDEPTH-018), and ibm-facts 4.2 calls MaxQDepth = 0
    undefined.  The one depth the documents show is IBM's Example 2 queue, full at 1000 messages
    (ibm-facts 4.4, "1000 at QF"): a limit of 1 to 1000 messages is judged, a larger one is the
    product's to refuse (an emulator may cap it); MAXMSGL is the product's."""
    if isinstance(value, bool) or not isinstance(value, int):
        return keyword in _QUEUE_SWITCHES and isinstance(value, bool)
    if keyword in ("qdepthhi", "qdepthlo"):
        return 0 <= value <= 100
    return keyword == "maxdepth" and 1 <= value <= _EXAMPLE_MAXDEPTH
