"""CSQ_ADMIN's size from Table 1 (TOPOLOGY-006, TOPOLOGY-007, TOPOLOGY-008, TOPOLOGY-014).

Table 1 gives CSQ_ADMIN's minimum size for 1 to 31 queue managers in two editions (the CFCC level
decides which: :func:`admin_table_for`); 32 is our labelled extrapolation.  SIZE is 1.5 times
INITSIZE, rounded up to a whole MB, and the notes carry the ENTSMAX check (1000 list entries per queue
manager) and seed 001's CFCC caveat.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

import attrs

from ..errors import ConfigurationError
from ..tables import ADMIN_TABLES
from ..topology import ADMIN_ENTRIES_PER_QMGR
from ..units import KB
from ..validation import ADMIN_NAME, MAX_QMGRS_PER_STRUCTURE
from .inputs import SEED_FULLTHRESHOLD, SEED_QSG, _check_fullthreshold, _check_int, _qsg_structure
from .need import size_for
from .records import Comparison, Recommendation

#: Table 1's editions, as labelled in the output.
ADMIN_TABLE_LABELS: Mapping[str, str] = {"cfcc14": "CFCC level 14", "v6": "V6, CFCC level 9"}
#: TOPOLOGY-014: "IBM MQ requires Level 9 or higher" (seed 001); the highest level taken is a sanity bound.
MIN_CFCC_LEVEL, MAX_CFCC_LEVEL = 9, 99


def admin_table_for(cfcc_level: int) -> str:
    """TOPOLOGY-014: the Table 1 edition for a coupling facility at ``cfcc_level``.

    Below level 9 IBM MQ does not run at all ("IBM MQ requires Level 9 or higher"), so the
    level is refused.  Levels 9 to 13 take the V6 edition, established at level 9 (ibm-facts
    6.2); 14 and above the current one, "established for a CFCC level 14 coupling facility
    structure; for higher levels of CFCC, they probably need to be larger" (seed 001), which
    :func:`admin_recommend`'s notes say.
    """
    level = _check_int("cfcc_level", cfcc_level, MIN_CFCC_LEVEL, MAX_CFCC_LEVEL, "TOPOLOGY-014")
    return "v6" if level < 14 else "cfcc14"


#: Extrapolated Table 1 figures are rounded up to this (all of Table 1's rows but 3's are multiples).
ADMIN_ROUNDING_KB = 256


@attrs.frozen
class AdminMinimum:
    """Table 1's minimum CSQ_ADMIN size for a number of queue managers (TOPOLOGY-008).

    Attributes:
        qmgrs, table: the input (``table``: a key of :data:`~cfconform.reference_model.tables.ADMIN_TABLES`).
        minimum_kb: the minimum, in KB.
        source: ``"table"`` (IBM's row for ``qmgrs``), ``"next-row"`` (the edition
            publishes no row for ``qmgrs``: its next row above) or ``"extrapolated"``
            (above the edition's last row: ours, not IBM's).
        row: the IBM row the figure is, or is nearest to: ``(queue managers, KB)``.
    """

    qmgrs: int
    table: str
    minimum_kb: int
    source: str
    row: tuple[int, int]


def admin_minimum(qmgrs: int, table: str = "cfcc14") -> AdminMinimum:
    """TOPOLOGY-008: Table 1's minimum CSQ_ADMIN size for ``qmgrs`` (1..32) queue managers.

    * A published row: IBM's figure, exactly (1..31 for ``cfcc14``).
    * An unpublished count below the last row (the ``v6`` edition prints 1, 2, 4, 8,
      16, 31): the next published row above, as :func:`~cfconform.reference_model.tables.admin_min_kb`.
    * Above the last row, i.e. 32 (ibm-facts 6.3: whether a QSG can have 32 members is
      AMBIGUOUS, and "Both admin tables stop at 31 queue managers"): an extrapolation,
      labelled as such.  The last row plus its step per queue manager from the row
      before it, rounded up to a multiple of 256 KB: ``cfcc14`` 32256 + 1024 = 33280 KB
      (Table 1 steps by 768 or 1024 KB; the larger step errs large, as seed 001 says
      higher CFCC levels "probably need to be larger"; ibm-facts 6.2's fit
      ``5298 + 866 n`` gives 33010 KB); ``v6`` 24832 + 751 -> 25600 KB.  32 is the
      most queue managers that can connect to a structure at once (TOPOLOGY-006).
    """
    n = _check_int("qmgrs", qmgrs, 1, MAX_QMGRS_PER_STRUCTURE, "TOPOLOGY-006")
    if table not in ADMIN_TABLES:
        raise ConfigurationError("admin_table", table, f"one of {', '.join(sorted(ADMIN_TABLES))}", "TOPOLOGY-008")
    rows = ADMIN_TABLES[table]
    counts = sorted(rows)
    if n in rows:
        return AdminMinimum(n, table, rows[n], "table", (n, rows[n]))
    above = [c for c in counts if c > n]
    if above:
        return AdminMinimum(n, table, rows[above[0]], "next-row", (above[0], rows[above[0]]))
    last, before = counts[-1], counts[-2]
    step = Fraction(rows[last] - rows[before], last - before)
    raw = rows[last] + step * (n - last)
    kb = math.ceil(raw / ADMIN_ROUNDING_KB) * ADMIN_ROUNDING_KB
    return AdminMinimum(n, table, kb, "extrapolated", (last, rows[last]))


@attrs.frozen
class AdminRecommendation(Recommendation):
    """:class:`Recommendation` for ``qsg-nameCSQ_ADMIN`` (TOPOLOGY-007/008).

    Attributes:
        qmgrs, admin_table: the input.
        source: where INITSIZE comes from (:attr:`AdminMinimum.source`): ``table``,
            ``next-row`` or ``extrapolated``.
        entries_needed: list entries the structure needs, 1000 per queue manager.
    """

    qmgrs: int = 1
    admin_table: str = "cfcc14"
    source: str = "table"
    entries_needed: int = ADMIN_ENTRIES_PER_QMGR

    def to_record(self) -> dict[str, object]:
        return {
            "structure": "admin",
            "qmgrs": self.qmgrs,
            "admin_table": self.admin_table,
            "source": self.source,
            "entries_needed": self.entries_needed,
            **super().to_record(),
        }


def admin_recommend(
    qmgrs: int, table: str = "cfcc14", *, qsg: str = SEED_QSG, fullthreshold: int = SEED_FULLTHRESHOLD
) -> AdminRecommendation:
    """TOPOLOGY-007/008: CFRM statements for ``qsg-nameCSQ_ADMIN`` with ``qmgrs`` queue managers.

    INITSIZE is Table 1's minimum in KB, exactly (:func:`admin_minimum`; 32 queue
    managers: our extrapolation, in the notes); SIZE is :data:`SIZE_FACTOR` x INITSIZE
    rounded up to a whole MB, room for seed 001's "large units of work".  The notes carry
    the ENTSMAX check (1000 list entries per queue manager) and seed 001's CFCC caveat.
    """
    minimum = admin_minimum(qmgrs, table)
    _check_fullthreshold(fullthreshold)
    label = f"Table 1 ({ADMIN_TABLE_LABELS[table]})"
    row_n, row_kb = minimum.row
    entries = ADMIN_ENTRIES_PER_QMGR * minimum.qmgrs
    notes = [
        f"CSQ_ADMIN needs {entries:,} list entries ({ADMIN_ENTRIES_PER_QMGR} per queue manager): check that "
        f"ENTSMAX in DISPLAY CFSTATUS(CSQ_ADMIN) is at least {entries:,} [TOPOLOGY-007]"
    ]
    if minimum.source == "next-row":
        notes.append(f"{label} has no row for {minimum.qmgrs} queue managers: its next row, {row_n}, applies")
    if minimum.source == "extrapolated":
        notes.append(
            f"EXTRAPOLATED: IBM's {label} stops at {row_n} queue managers; {minimum.minimum_kb} KB for "
            f"{minimum.qmgrs} is ours ({row_n}'s {row_kb} KB plus the table's last step per queue manager, "
            f"rounded up to 256 KB), not an IBM figure"
        )
    if table == "cfcc14":
        notes.append(
            "Table 1's sizes are for CFCC level 14; for higher levels they probably need to be larger (seed 001)"
        )
    edition = f"Table 1 for {ADMIN_TABLE_LABELS[table]}"
    basis = {"table": edition, "next-row": f"{edition}: its next row", "extrapolated": f"extrapolated beyond {edition}"}
    qmgrs_text = f"{row_n} queue manager{'' if row_n == 1 else 's'}"
    nearest = Comparison(label, "row", qmgrs_text, row_kb, minimum.minimum_kb, row_n == minimum.qmgrs, "KB")
    return AdminRecommendation(
        _qsg_structure(qsg, ADMIN_NAME),
        minimum.minimum_kb / KB,
        minimum.minimum_kb,
        size_for(minimum.minimum_kb),
        fullthreshold,
        nearest,
        basis[minimum.source],
        tuple(notes),
        qmgrs=minimum.qmgrs,
        admin_table=table,
        source=minimum.source,
        entries_needed=entries,
    )
