"""Mutants of the MQ offload rules (OFFLOAD-*), profile ``mq``: one row each (:func:`.kit.family`).

Offload reproducers keep away from equality (so both ``offload_compare`` readings agree) unless they pin a reading
on purpose, and use one element per entry with messages of one element, so the three ``offload_usage_metric``
readings agree too.  Rules are set per reproducer with :func:`rules`: a threshold of 0 with a size of 0 offloads
every message once the structure is in use at all (a message put into an empty structure is at the boundary of "more
than 0% full", where either answer stands: OFFLOAD-014), so such a reproducer puts a first message before the one it
judges.
"""

from __future__ import annotations

from typing import Any

import attrs

from cfconform.reference_model import offload
from cfconform.reference_model.accounting import usage_pct
from cfconform.reference_model.config import StructureDef
from cfconform.reference_model.operations import AlterStructure
from cfconform.reference_model.units import KB, SIZE_63_75K, SIZE_63K

from .kit import family, lenient, rebind, wrap
from .mq_common import alter, deciding, mq_config, one, put, reject_alter, rules, sd

DEFAULT_RULES = {k: getattr(StructureDef("X"), k) for k in (f"offld{n}{f}" for n in (1, 2, 3) for f in ("th", "sz"))}
K33 = 33 * KB  # 133 elements
OVER_6375 = SIZE_63_75K + 1
BIG = {"size": 6400, "ratio": 255, "cflevel": 4}


def _alter_with_defaults(defaults: dict[str, Any]) -> Any:
    """ALTER CFSTRUCT that resets the keywords it was not given."""
    return wrap(AlterStructure, lambda f: lambda m, op: f(m, attrs.evolve(op, changes=defaults | dict(op.changes))))


def _each(hit: Any) -> Any:
    """The rules decided one by one: ``hit(model, s, rule, length, strict, metric)``, ``rule`` being (n, th, sz)."""
    return lambda m, s, rules, *a: next((r for r in rules if hit(m, s, r, *a)), None)


def _one(m: Any, s: Any, r: Any, ln: int, strict: bool, metric: str) -> Any:
    """The model's decision on one rule."""
    return offload._ruled(m, s, (r,), ln, strict, metric)


def _only(keep: Any) -> Any:
    """The model's rules (n, th, sz) where ``keep(n, th, sz)``."""
    return deciding(_pairs=lambda d: [r for r in offload._pairs(d) if keep(*r)])


def _sizes(size: Any) -> Any:
    """Rule n's OFFLDnSZ read as ``size(n, sz, rules)``."""
    return deciding(_pairs=lambda d: [(n, th, size(n, sz, offload._pairs(d))) for n, th, sz in offload._pairs(d)])


def _forced(limit: Any) -> Any:
    """Forced offload above ``limit(cflevel)`` bytes."""
    return deciding(forced_boundary=lambda reading, cflevel: limit(cflevel))


# fmt: off
MUTANTS = family(
    "OFFLOAD",
    ("001-a", "Only two rule pairs: OFFLD3TH/OFFLD3SZ is never applied.",
     one(**rules(None, None, (0, 0))), [put(1), put(1)], _only(lambda n, th, sz: n < 3)),
    ("001-b", "The first rule pair (by default OFFLD1TH(70) OFFLD1SZ(32K)) is never applied.",
     one(size=6324, ratio=120), [put(K33), put(K33), put(18500), put(K33)], _only(lambda n, th, sz: n > 1)),
    ("002-a", "A rule offloads when usage OR size exceeds its limit (the pre-PI21909 behaviour).", one(**DEFAULT_RULES),
     [put(1)], deciding(_ruled=_each(lambda m, s, r, ln, strict, mt: m.usage(s, mt) > r[1] or ln > r[2]))),
    ("002-b", "A message is offloaded only when all three rules hold (rules AND-ed).",
     one(size=6324, ratio=120), [put(K33), put(K33), put(18500), put(K33)],
     deciding(_ruled=lambda m, s, rules, *a: rules[0] if rules and all(_one(m, s, r, *a) for r in rules) else None)),
    ("002-c", "Each OFFLDnTH is paired with the next rule's OFFLDnSZ.", one(**rules((0, 32 * KB), (100, 0), None)),
     [put(1), put(1)], _sizes(lambda n, sz, rules: rules[n % 3][2])),
    ("002-d", "Mixed reading: '>' for rule 1 but '>=' for rule 2.",
     mq_config(sd("APP1", **rules((0, 1000), None, None)), sd("APP2", **rules(None, (0, 1000), None))),
     [put(1000, "Q1"), put(1000, "Q2")],
     deciding(_ruled=_each(lambda m, s, r, ln, strict, mt: _one(m, s, r, ln, r[0] == 1, mt))), ("offload_compare",)),
    ("003-a", "OFFLDnSZ(64K) wraps to 0 (a 16-bit field): the rule applies to every size.",
     one(**{**rules(None, None, (0, 0)), "offld3sz": 64 * KB}), [put(1), put(1)],
     _sizes(lambda n, sz, rules: sz % (64 * KB))),
    ("003-b", "OFFLDnSZ(0K) is taken to switch the rule off, like 64K.",
     one(**rules(None, None, (0, 0))), [put(1), put(1)], _only(lambda n, th, sz: sz != 0)),
    ("004-a", "No forced offload at CFLEVEL(4): large messages are kept in the structure.",
     one(**BIG), [put(OVER_6375)], _forced(lambda cflevel: 100 * 1024 * KB if cflevel == 4 else SIZE_63_75K)),
    ("004-b", "Forced offload only above 64 KB instead of 63.75 KB (or 63 KB).",
     one(**BIG), [put(65300)], _forced(lambda cflevel: 64 * KB)),
    ("004-c", "Mixed reading: 63 KB boundary at CFLEVEL(4), 63.75 KB at CFLEVEL(5).",
     mq_config(sd("APP1", **BIG), sd("APP2", size=6400, ratio=255)), [put(64600, "Q1"), put(64600, "Q2")],
     _forced(lambda cflevel: SIZE_63K if cflevel == 4 else SIZE_63_75K), ("forced_offload_boundary",)),
    ("004-d", "Off by one: a message of exactly 63.75 KB is forced out, one of 63.1 KB is not.",
     one(**BIG), [put(SIZE_63_75K), put(64600)], _forced(lambda cflevel: SIZE_63_75K - 1)),
    ("005-c", "An offloaded message keeps its data in the structure: it costs more than the same message kept whole.",
     one(size=6219, ratio=50, **rules((50, 4 * KB), None, None)), [put(), put(8000), put(20000), put(8000)],
     lambda m: setattr(m, "acct", attrs.evolve(m.acct, offloaded_elements=64))),
    ("006-a", "ALTER CFSTRUCT accepts an OFFLOAD store other than SMDS or DB2.",
     one(), [alter(offload="DISK")], lenient(AlterStructure, "OFFLOAD-006")),
    ("006-b", "With OFFLOAD(DB2) the offload rules are never applied.", one(offload="DB2", **rules(None, None, (0, 0))),
     [put(1), put(1)], deciding(_pairs=lambda d: () if d.effective_offload == "DB2" else offload._pairs(d))),
    ("007-a", "ALTER CFSTRUCT accepts OFFLOAD at CFLEVEL(4).",
     one(cflevel=4), [alter(offload="SMDS")], lenient(AlterStructure, "OFFLOAD-007")),
    ("011-c", "OFFLDnSZ(64K) is rejected (upper bound taken as exclusive).", one(), [alter(offld1sz=64 * KB)],
     reject_alter(lambda c: any(c.get(f"offld{n}sz") == 64 * KB for n in (1, 2, 3)), "OFFLOAD-011")),
    ("012-b", "Usage is compared as a fraction (0..1) with the OFFLDnTH percentage.", one(**rules((1, 0), None, None)),
     [put(1), put(1)], deciding(_ruled=rebind(offload._ruled, usage_pct=lambda *a: usage_pct(*a) / 100))),
    ("013-a", "ALTER CFSTRUCT resets the offload rules it was not given to their defaults.",
     one(**rules(None, None, (0, 0))), [alter(fullthreshold=85), put(1), put(1)], _alter_with_defaults(DEFAULT_RULES)),
    ("013-b", "ALTER CFSTRUCT resets CFLEVEL to 3 when it is not given.",
     one(), [alter(fullthreshold=85), put(OVER_6375)], _alter_with_defaults({"cflevel": 3})),
    ("013-c", "ALTER CFSTRUCT resets RECOVER to NO when it is not given.", one(cflevel=3, recover=True),
     [alter(fullthreshold=85), put(persistent=True)], _alter_with_defaults({"recover": False})),
    ("014-a", "OFFLDnTH(0) is taken to switch its rule off: the messages its size selects are never offloaded by it.",
     one(**rules((0, KB), None, None)), [put(1), put(2 * KB)], _only(lambda n, th, sz: th != 0)),
)
# fmt: on
