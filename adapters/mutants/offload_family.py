"""Mutants of the MQ offload rules (OFFLOAD-*), profile ``mq``: one row each (:func:`.kit.family`).

Offload reproducers keep away from equality (so both ``offload_compare``
readings agree) unless they pin a reading on purpose, and use one element per
entry with messages of one element, so the three ``offload_usage_metric``
readings agree too.  Rules are set per reproducer with :func:`rules`: a
threshold of 0 with a size of 0 offloads every message once the structure is
in use at all (a message put into an empty structure is at the boundary of
"more than 0% full", where either answer stands: OFFLOAD-014), so such a
reproducer puts a first message before the one it judges.
"""

from __future__ import annotations

from typing import Any

import attrs

from cfconform.reference_model.config import StructureDef
from cfconform.reference_model.operations import AlterStructure
from cfconform.reference_model.units import KB, SIZE_63_75K, SIZE_63K

from .kit import Mutant, family, lenient, wrap
from .mq_common import alter, deciding, mq_config, one, put, reject_alter, rules, sd

DEFAULT_RULES = {k: getattr(StructureDef("X"), k) for k in (f"offld{n}{f}" for n in (1, 2, 3) for f in ("th", "sz"))}
K33 = 33 * KB  # 133 elements
OVER_6375 = SIZE_63_75K + 1
BIG = {"size": 6400, "ratio": 255, "cflevel": 4}


def _alter_with_defaults(defaults: dict[str, Any]) -> Any:
    """ALTER CFSTRUCT that resets the keywords it was not given."""
    return wrap(AlterStructure, lambda f: lambda m, op: f(m, attrs.evolve(op, changes=defaults | dict(op.changes))))


def _elements(n: int) -> Any:
    return lambda m: setattr(m, "acct", attrs.evolve(m.acct, offloaded_elements=n))


def _hit(mixed: bool = False) -> Any:
    return lambda n, u, th, ln, sz, strict: (u > th and ln > sz) if n == 1 or not mixed else (u >= th and ln >= sz)


_P = (("offld1th", "offld1sz"), ("offld2th", "offld2sz"), ("offld3th", "offld3sz"))


def _pairs(*order: tuple[int, int]) -> Any:
    """The rule pairs ``(OFFLDnTH, OFFLDmSZ)``: one ``(n, m)`` per pair applied, numbered from 0."""
    return lambda d: [(getattr(d, _P[n][0]), getattr(d, _P[m][1])) for n, m in order]


# fmt: off
MUTANTS: tuple[Mutant, ...] = family(
    "OFFLOAD",
    ("001-a", "Only two rule pairs: OFFLD3TH/OFFLD3SZ is never applied.",
     one(**rules(None, None, (0, 0))), [put(1), put(1)], deciding(pairs=_pairs((0, 0), (1, 1)))),
    ("001-b", "The first rule pair (by default OFFLD1TH(70) OFFLD1SZ(32K)) is never applied.",
     one(size=6324, ratio=120), [put(K33), put(K33), put(18500), put(K33)], deciding(pairs=_pairs((1, 1), (2, 2)))),
    ("002-a", "A rule offloads when usage OR size exceeds its limit (the pre-PI21909 behaviour).",
     one(**DEFAULT_RULES), [put(1)], deciding(hit=lambda n, u, th, ln, sz, strict: u > th or ln > sz)),
    ("002-b", "A message is offloaded only when all three rules hold (rules AND-ed).",
     one(size=6324, ratio=120), [put(K33), put(K33), put(18500), put(K33)], deciding(combine=all)),
    ("002-c", "Each OFFLDnTH is paired with the next rule's OFFLDnSZ.",
     one(**rules((0, 32 * KB), (100, 0), None)), [put(1), put(1)], deciding(pairs=_pairs((0, 1), (1, 2), (2, 0)))),
    ("002-d", "Mixed reading: '>' for rule 1 but '>=' for rule 2.",
     mq_config(sd("APP1", **rules((0, 1000), None, None)), sd("APP2", **rules(None, (0, 1000), None))),
     [put(1000, "Q1"), put(1000, "Q2")], deciding(hit=_hit(mixed=True)), ("offload_compare",)),
    ("003-a", "OFFLDnSZ(64K) wraps to 0 (a 16-bit field): the rule applies to every size.",
     one(**{**rules(None, None, (0, 0)), "offld3sz": 64 * KB}), [put(1), put(1)],
     deciding(
         off=lambda sz: False, pairs=lambda d: [(th, sz % (64 * KB)) for th, sz in _pairs((0, 0), (1, 1), (2, 2))(d)])),
    ("003-b", "OFFLDnSZ(0K) is taken to switch the rule off, like 64K.",
     one(**rules(None, None, (0, 0))), [put(1), put(1)], deciding(off=lambda sz: sz in (0, 64 * KB))),
    ("004-a", "No forced offload at CFLEVEL(4): large messages are kept in the structure.",
     one(**BIG), [put(OVER_6375)], deciding(boundary=lambda m, d: 100 * 1024 * KB if d.cflevel == 4 else SIZE_63_75K)),
    ("004-b", "Forced offload only above 64 KB instead of 63.75 KB (or 63 KB).",
     one(**BIG), [put(65300)], deciding(boundary=lambda m, d: 64 * KB)),
    ("004-c", "Mixed reading: 63 KB boundary at CFLEVEL(4), 63.75 KB at CFLEVEL(5).",
     mq_config(sd("APP1", **BIG), sd("APP2", size=6400, ratio=255)), [put(64600, "Q1"), put(64600, "Q2")],
     deciding(boundary=lambda m, d: SIZE_63K if d.cflevel == 4 else SIZE_63_75K), ("forced_offload_boundary",)),
    ("004-d", "Off by one: a message of exactly 63.75 KB is forced out, one of 63.1 KB is not.",
     one(**BIG), [put(SIZE_63_75K), put(64600)], deciding(boundary=lambda m, d: SIZE_63_75K - 1)),
    ("005-a", "An offloaded message uses a list entry but no data elements.",
     one(cflevel=4), [put(OVER_6375)], _elements(0)),
    ("005-b", "An offloaded message uses one 256-byte element (less than 512 bytes).",
     one(cflevel=4), [put(OVER_6375)], _elements(1)),
    ("005-c", "An offloaded message keeps its data in the structure: it costs more than the same message kept whole.",
     one(size=6219, ratio=50, **rules((50, 4 * KB), None, None)), [put(), put(8000), put(20000), put(8000)],
     _elements(64)),
    ("006-a", "ALTER CFSTRUCT accepts an OFFLOAD store other than SMDS or DB2.",
     one(), [alter(offload="DISK")], lenient(AlterStructure, "OFFLOAD-006")),
    ("006-b", "With OFFLOAD(DB2) the offload rules are never applied.",
     one(offload="DB2", **rules(None, None, (0, 0))), [put(1), put(1)],
     deciding(rules_when=lambda d: d.effective_offload != "DB2")),
    ("007-a", "ALTER CFSTRUCT accepts OFFLOAD at CFLEVEL(4).",
     one(cflevel=4), [alter(offload="SMDS")], lenient(AlterStructure, "OFFLOAD-007")),
    ("007-b", "ALTER CFSTRUCT lowers CFLEVEL to 4 on a structure with OFFLOAD(DB2).",
     one(offload="DB2"), [alter(cflevel=4)], lenient(AlterStructure, "OFFLOAD-007")),
    ("011-a", "OFFLDnTH above 100 is accepted.", one(), [alter(offld1th=101)], lenient(AlterStructure, "OFFLOAD-011")),
    ("011-b", "OFFLDnSZ above 64K is accepted.", one(), [alter(offld2sz=64 * KB + 1)],
     lenient(AlterStructure, "OFFLOAD-011")),
    ("011-c", "OFFLDnSZ(64K) is rejected (upper bound taken as exclusive).", one(), [alter(offld1sz=64 * KB)],
     reject_alter(lambda c: any(c.get(f"offld{n}sz") == 64 * KB for n in (1, 2, 3)), "OFFLOAD-011")),
    ("012-a", "The rules compare list-entry usage only.",
     one(size=6154, ratio=6, **rules((50, 0), None, None)), [put(4992), put(1)],
     deciding(usage=lambda m, s, n: 100.0 * s.pools.entries_used / s.pools.entries_total)),
    ("012-b", "Usage is compared as a fraction (0..1) with the OFFLDnTH percentage.",
     one(**rules((1, 0), None, None)), [put(1), put(1)],
     deciding(usage=lambda m, s, n: m.usage(s, m.readings.offload_usage_metric) / 100)),
    ("012-c", "Mixed reading: rule 1 compares max(entries%, elements%), rule 2 elements%.",
     one(size=6154, ratio=6, **rules((20, 2000), (20, 0), None)), [put(), put(3000), put(100)],
     deciding(usage=lambda m, s, n: m.usage(s, "max" if n == 1 else "elements")), ("offload_usage_metric",)),
    ("013-a", "ALTER CFSTRUCT resets the offload rules it was not given to their defaults.",
     one(**rules(None, None, (0, 0))), [alter(fullthreshold=85), put(1), put(1)], _alter_with_defaults(DEFAULT_RULES)),
    ("013-b", "ALTER CFSTRUCT resets CFLEVEL to 3 when it is not given.",
     one(), [alter(fullthreshold=85), put(OVER_6375)], _alter_with_defaults({"cflevel": 3})),
    ("013-c", "ALTER CFSTRUCT resets RECOVER to NO when it is not given.",
     one(cflevel=3, recover=True), [alter(fullthreshold=85), put(persistent=True)],
     _alter_with_defaults({"recover": False})),
    ("014-a", "OFFLDnTH(0) is taken to switch its rule off: the messages its size selects are never offloaded by it.",
     one(**rules((0, KB), None, None)), [put(1), put(2 * KB)],
     deciding(pairs=lambda d: [(th, sz) for th, sz in _pairs((0, 0), (1, 1), (2, 2))(d) if th != 0])),
)
# fmt: on
