"""Mutants of the MQ offload and CFLEVEL rules (OFFLOAD-*, CFLEVEL-*), profile ``mq``.

Offload reproducers keep away from equality (so both ``offload_compare``
readings agree) unless they pin a reading on purpose, and use one element per
entry with messages of one element, so the three ``offload_usage_metric``
readings agree too.  Rules are set per reproducer with :func:`rules`: a
threshold of 0 with a size of 0 offloads every message once the structure is
in use at all.
"""

from __future__ import annotations

from typing import Any

import attrs

from cfconform.reference_model.config import StructureDef
from cfconform.reference_model.model import Model
from cfconform.reference_model.operations import AlterStructure
from cfconform.reference_model.outcomes import (
    Outcome,
)
from cfconform.reference_model.units import KB, SIZE_63_75K, SIZE_63K

from .kit import (
    Mutant,
    apply_structure_changes,
    lenient,
    mutant,
    wrap,
)
from .mq_common import (
    alter,
    deciding,
    mq_config,
    put,
    reject_alter,
    rules,
    sd,
)

DEFAULT_RULES = {k: getattr(StructureDef("X"), k) for k in (f"offld{n}{f}" for n in (1, 2, 3) for f in ("th", "sz"))}

K33 = 33 * KB  # 133 elements

OVER_6375 = SIZE_63_75K + 1


def _alter_with_defaults(defaults: dict[str, Any]) -> Any:
    """ALTER CFSTRUCT that resets the keywords it was not given."""

    def make(original: Any) -> Any:
        def handler(model: Model, op: AlterStructure) -> Outcome:
            return original(model, attrs.evolve(op, changes={**defaults, **dict(op.changes)}))

        return handler

    return wrap(AlterStructure, make)


MUTANTS: tuple[Mutant, ...] = (
    # OFFLOAD-001: three rule pairs, with defaults 70/32K, 80/4K, 90/0K
    mutant(
        "M-OFFLOAD-001-a",
        "Only two rule pairs: OFFLD3TH/OFFLD3SZ is never applied.",
        mq_config(sd(**rules(None, None, (0, 0)))),
        [put(1)],
        deciding(pairs=lambda d: [(d.offld1th, d.offld1sz), (d.offld2th, d.offld2sz)]),
    ),
    mutant(
        "M-OFFLOAD-001-b",
        "The first rule pair (by default OFFLD1TH(70) OFFLD1SZ(32K)) is never applied.",
        mq_config(sd(size=6324, ratio=120)),
        [put(K33), put(K33), put(18500), put(K33)],
        deciding(pairs=lambda d: [(d.offld2th, d.offld2sz), (d.offld3th, d.offld3sz)]),
    ),
    # OFFLOAD-002: usage > THn AND size > SZn of the same rule; rules OR-ed
    mutant(
        "M-OFFLOAD-002-a",
        "A rule offloads when usage OR size exceeds its limit (the pre-PI21909 behaviour).",
        mq_config(sd(**DEFAULT_RULES)),
        [put(1)],
        deciding(hit=lambda n, u, th, length, sz, strict: u > th or length > sz),
    ),
    mutant(
        "M-OFFLOAD-002-b",
        "A message is offloaded only when all three rules hold (rules AND-ed).",
        mq_config(sd(size=6324, ratio=120)),
        [put(K33), put(K33), put(18500), put(K33)],
        deciding(combine=all),
    ),
    mutant(
        "M-OFFLOAD-002-c",
        "Each OFFLDnTH is paired with the next rule's OFFLDnSZ.",
        mq_config(sd(**rules((0, 32 * KB), (100, 0), None))),
        [put(1), put(1)],
        deciding(pairs=lambda d: [(d.offld1th, d.offld2sz), (d.offld2th, d.offld3sz), (d.offld3th, d.offld1sz)]),
    ),
    mutant(
        "M-OFFLOAD-002-d",
        "Mixed reading: '>' for rule 1 but '>=' for rule 2.",
        mq_config(sd("APP1", **rules((0, 1000), None, None)), sd("APP2", **rules(None, (0, 1000), None))),
        [put(1000, "Q1"), put(1000, "Q2")],
        deciding(
            hit=lambda n, u, th, length, sz, strict: (u > th and length > sz) if n == 1 else (u >= th and length >= sz)
        ),
        mixes=("offload_compare",),
    ),
    # OFFLOAD-003: OFFLDnSZ(64K) switches a rule off
    mutant(
        "M-OFFLOAD-003-a",
        "OFFLDnSZ(64K) wraps to 0 (a 16-bit field): the rule applies to every size.",
        mq_config(sd(**{**rules(None, None, (0, 0)), "offld3sz": 64 * KB})),
        [put(1), put(1)],
        deciding(
            off=lambda sz: False,
            pairs=lambda d: [
                (th, sz % (64 * KB))
                for th, sz in ((d.offld1th, d.offld1sz), (d.offld2th, d.offld2sz), (d.offld3th, d.offld3sz))
            ],
        ),
    ),
    mutant(
        "M-OFFLOAD-003-b",
        "OFFLDnSZ(0K) is taken to switch the rule off, like 64K.",
        mq_config(sd(**rules(None, None, (0, 0)))),
        [put(1)],
        deciding(off=lambda sz: sz in (0, 64 * KB)),
    ),
    # OFFLOAD-004: forced offload of messages too large for an entry at CFLEVEL(4)+
    mutant(
        "M-OFFLOAD-004-a",
        "No forced offload at CFLEVEL(4): large messages are kept in the structure.",
        mq_config(sd(size=6400, ratio=255, cflevel=4)),
        [put(OVER_6375)],
        deciding(boundary=lambda model, d: 100 * 1024 * KB if d.cflevel == 4 else SIZE_63_75K),
    ),
    mutant(
        "M-OFFLOAD-004-b",
        "Forced offload only above 64 KB instead of 63.75 KB (or 63 KB).",
        mq_config(sd(size=6400, ratio=255, cflevel=4)),
        [put(65300)],
        deciding(boundary=lambda model, d: 64 * KB),
    ),
    mutant(
        "M-OFFLOAD-004-c",
        "Mixed reading: 63 KB boundary at CFLEVEL(4), 63.75 KB at CFLEVEL(5).",
        mq_config(sd("APP1", size=6400, ratio=255, cflevel=4), sd("APP2", size=6400, ratio=255)),
        [put(64600, "Q1"), put(64600, "Q2")],
        deciding(boundary=lambda model, d: SIZE_63K if d.cflevel == 4 else SIZE_63_75K),
        mixes=("forced_offload_boundary",),
    ),
    mutant(
        "M-OFFLOAD-004-d",
        "Off by one: a message of exactly 63.75 KB is forced out, one of 63.1 KB is not.",
        mq_config(sd(size=6400, ratio=255, cflevel=4)),
        [put(SIZE_63_75K), put(64600)],
        deciding(boundary=lambda model, d: SIZE_63_75K - 1),
    ),
    # OFFLOAD-005: an offloaded message still uses an entry and at least 512 bytes
    mutant(
        "M-OFFLOAD-005-a",
        "An offloaded message uses a list entry but no data elements.",
        mq_config(sd(cflevel=4)),
        [put(OVER_6375)],
        lambda m: setattr(m, "acct", attrs.evolve(m.acct, offloaded_elements=0)),
    ),
    mutant(
        "M-OFFLOAD-005-b",
        "An offloaded message uses one 256-byte element (less than 512 bytes).",
        mq_config(sd(cflevel=4)),
        [put(OVER_6375)],
        lambda m: setattr(m, "acct", attrs.evolve(m.acct, offloaded_elements=1)),
    ),
    mutant(
        "M-OFFLOAD-005-c",
        "An offloaded message keeps its data in the structure: it costs more than the same message kept whole.",
        mq_config(sd(size=6219, ratio=50, **rules((50, 4 * KB), None, None))),
        [put(), put(8000), put(20000), put(8000)],
        lambda m: setattr(m, "acct", attrs.evolve(m.acct, offloaded_elements=64)),
    ),
    # OFFLOAD-006: OFFLOAD(SMDS|DB2)
    mutant(
        "M-OFFLOAD-006-a",
        "ALTER CFSTRUCT accepts an OFFLOAD store other than SMDS or DB2.",
        mq_config(sd()),
        [alter(offload="DISK")],
        lenient(AlterStructure, "OFFLOAD-006", apply_structure_changes),
    ),
    mutant(
        "M-OFFLOAD-006-b",
        "With OFFLOAD(DB2) the offload rules are never applied.",
        mq_config(sd(offload="DB2", **rules(None, None, (0, 0)))),
        [put(1)],
        deciding(rules_when=lambda d: d.effective_offload != "DB2"),
    ),
    # OFFLOAD-007: OFFLOAD only at CFLEVEL(5)
    mutant(
        "M-OFFLOAD-007-a",
        "ALTER CFSTRUCT accepts OFFLOAD at CFLEVEL(4).",
        mq_config(sd(cflevel=4)),
        [alter(offload="SMDS")],
        lenient(AlterStructure, "OFFLOAD-007", apply_structure_changes),
    ),
    mutant(
        "M-OFFLOAD-007-b",
        "ALTER CFSTRUCT lowers CFLEVEL to 4 on a structure with OFFLOAD(DB2).",
        mq_config(sd(offload="DB2")),
        [alter(cflevel=4)],
        lenient(AlterStructure, "OFFLOAD-007", apply_structure_changes),
    ),
    # OFFLOAD-011: OFFLDnTH 0..100, OFFLDnSZ 0K..64K
    mutant(
        "M-OFFLOAD-011-a",
        "OFFLDnTH above 100 is accepted.",
        mq_config(sd()),
        [alter(offld1th=101)],
        lenient(AlterStructure, "OFFLOAD-011", apply_structure_changes),
    ),
    mutant(
        "M-OFFLOAD-011-b",
        "OFFLDnSZ above 64K is accepted.",
        mq_config(sd()),
        [alter(offld2sz=64 * KB + 1)],
        lenient(AlterStructure, "OFFLOAD-011", apply_structure_changes),
    ),
    mutant(
        "M-OFFLOAD-011-c",
        "OFFLDnSZ(64K) is rejected (upper bound taken as exclusive).",
        mq_config(sd()),
        [alter(offld1sz=64 * KB)],
        reject_alter(lambda c: any(c.get(f"offld{n}sz") == 64 * KB for n in (1, 2, 3)), "OFFLOAD-011"),
    ),
    # OFFLOAD-012: usage is max(entries%, elements%), elements% or combined storage
    mutant(
        "M-OFFLOAD-012-a",
        "The rules compare list-entry usage only.",
        mq_config(sd(size=6154, ratio=6, **rules((50, 0), None, None))),
        [put(4992), put(1)],
        deciding(usage=lambda model, s, n: 100.0 * s.pools.entries_used / s.pools.entries_total),
    ),
    mutant(
        "M-OFFLOAD-012-b",
        "Usage is compared as a fraction (0..1) with the OFFLDnTH percentage.",
        mq_config(sd(**rules((1, 0), None, None))),
        [put(1), put(1)],
        deciding(usage=lambda model, s, n: model.usage(s, model.readings.offload_usage_metric) / 100),
    ),
    mutant(
        "M-OFFLOAD-012-c",
        "Mixed reading: rule 1 compares max(entries%, elements%), rule 2 elements%.",
        mq_config(sd(size=6154, ratio=6, **rules((20, 2000), (20, 0), None))),
        [put(), put(3000), put(100)],
        deciding(usage=lambda model, s, n: model.usage(s, "max" if n == 1 else "elements")),
        mixes=("offload_usage_metric",),
    ),
    # OFFLOAD-013: ALTER CFSTRUCT leaves unspecified keywords unchanged
    mutant(
        "M-OFFLOAD-013-a",
        "ALTER CFSTRUCT resets the offload rules it was not given to their defaults.",
        mq_config(sd(**rules(None, None, (0, 0)))),
        [alter(fullthreshold=85), put(1)],
        _alter_with_defaults(DEFAULT_RULES),
    ),
    mutant(
        "M-OFFLOAD-013-b",
        "ALTER CFSTRUCT resets CFLEVEL to 3 when it is not given.",
        mq_config(sd()),
        [alter(fullthreshold=85), put(OVER_6375)],
        _alter_with_defaults({"cflevel": 3}),
    ),
    mutant(
        "M-OFFLOAD-013-c",
        "ALTER CFSTRUCT resets RECOVER to NO when it is not given.",
        mq_config(sd(cflevel=3, recover=True)),
        [alter(fullthreshold=85), put(persistent=True)],
        _alter_with_defaults({"recover": False}),
    ),
    # OFFLOAD-014: OFFLDnTH(0) offloads all such messages, whatever the usage
    mutant(
        "M-OFFLOAD-014-a",
        "OFFLDnTH(0) compared like any threshold: under the strict reading, a message put into an empty "
        "structure is kept in the CF.",
        mq_config(sd(**rules((0, KB), None, None))),
        [put(2 * KB)],
        deciding(hit=lambda n, u, th, length, sz, strict: u > th and length > sz),
    ),
)
