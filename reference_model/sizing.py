"""Structure sizing from the model's accounting (SIZING-001..005, CAPACITY-007, OFFLOAD-008..010).

Pure arithmetic over :class:`~reference_model.config.Accounting`:

* :func:`required_size_mb`: the structure size the model needs to hold N
  messages of one size.  The entry:element ratio is the ideal one for that size
  (one entry per message, ``elements_for(size)`` elements per entry), which is
  what z/OS auto-alter converges to.  Calibrated to reproduce Table 2 of
  seed 001 (:func:`table2_error`).
* :func:`recommend`: CFRM ``STRUCTURE`` statements in the style of seed 001.
* :func:`offload_reserve` / :func:`offld3th_for_reserve`: the OFFLD3TH that
  keeps room for a backlog of offloaded messages (seed 002 worked examples).
* :func:`factor_of_two_advice`: the INITSIZE/SIZE best-practice warning.

The arithmetic is ours (SIZING-005 is inferred and implementation-defined); the
numbers it must reproduce are IBM's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

import attrs

from reference_model.accounting import elements_for
from reference_model.config import Accounting
from reference_model.errors import ConfigurationError
from reference_model.tables import TABLE2_MB, TABLE2_SIZES
from reference_model.units import KB, MB, SIZE_63_75K, SIZE_100MB

#: Table 2 cells with fewer messages than this are dominated by rounding to whole MB
#: and by the fixed part, so SIZING-001 only binds from this row on.
TABLE2_MIN_MESSAGES = 1000
#: SIZING-001 tolerance: relative error allowed on every binding Table 2 cell.
TABLE2_TOLERANCE = 0.10
#: The calibrated accounting (config.Accounting defaults).
DEFAULT_ACCOUNTING = Accounting()
#: FULLTHRESHOLD of the seed 001 CFRM example (SIZING-003).
SEED_FULLTHRESHOLD = 85
#: The structure name of the seed 001 CFRM example.
SEED_STRUCTURE_NAME = "QSG1APPLICATION1"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_count(field: str, value: object, rule_id: str) -> int:
    if not _is_int(value) or value < 0:
        raise ConfigurationError(field, value, "an integer >= 0", rule_id)
    return value


def _check_length(field: str, value: object, rule_id: str) -> int:
    if not _is_int(value) or not 0 <= value <= SIZE_100MB:
        raise ConfigurationError(field, value, f"an integer 0..{SIZE_100MB} (bytes)", rule_id)
    return value


def message_elements(size_bytes: int, accounting: Accounting = DEFAULT_ACCOUNTING, *, offloaded: bool = False) -> int:
    """Elements one message of ``size_bytes`` keeps in the structure (SIZING-005, OFFLOAD-005).

    A message too large for an entry (over 63.75 KB, OFFLOAD-004) or one that
    ``offloaded`` says goes to SMDS/Db2 keeps only ``accounting.offloaded_elements``.
    """
    size = _check_length("size_bytes", size_bytes, "SIZING-005")
    if offloaded or size > SIZE_63_75K:
        return accounting.offloaded_elements
    return elements_for(size, accounting)


def message_bytes(size_bytes: int, accounting: Accounting = DEFAULT_ACCOUNTING, *, offloaded: bool = False) -> int:
    """CF bytes one message is charged before structure overhead: one entry plus its elements."""
    elements = message_elements(size_bytes, accounting, offloaded=offloaded)
    return accounting.entry_bytes + elements * accounting.element_bytes


def required_size_kb(
    messages: int,
    size_bytes: int,
    accounting: Accounting = DEFAULT_ACCOUNTING,
    *,
    offloaded: bool = False,
) -> int:
    """Smallest whole-KB structure that holds ``messages`` messages of ``size_bytes``.

    ``fixed_kb + messages x (entry + elements x element_bytes) x overhead / 1024``,
    rounded up, with the ideal entry:element ratio ``message_elements(size_bytes)``
    (what auto-alter converges to).
    """
    n = _check_count("messages", messages, "SIZING-001")
    per = message_bytes(size_bytes, accounting, offloaded=offloaded)
    return accounting.fixed_kb + math.ceil(n * per * accounting.overhead / KB)


def required_size_mb(
    messages: int,
    size_bytes: int,
    accounting: Accounting = DEFAULT_ACCOUNTING,
    *,
    offloaded: bool = False,
) -> float:
    """SIZING-001/002: structure size in MB (1 MB = 1024 KB) for ``messages`` x ``size_bytes``.

    Unrounded: ``(fixed_kb x 1024 + messages x per-message bytes x overhead) / 2**20``.
    With the default accounting, 200,000 x 1 KB needs 391.0 MB (seed 001: "in the
    range 256 through 512 MB").
    """
    n = _check_count("messages", messages, "SIZING-001")
    per = message_bytes(size_bytes, accounting, offloaded=offloaded)
    return (accounting.fixed_kb * KB + n * per * accounting.overhead) / MB


def table2_error(
    accounting: Accounting = DEFAULT_ACCOUNTING, table: Mapping[int, tuple[int, ...]] = TABLE2_MB
) -> dict[tuple[int, int], float]:
    """Relative error ``(model - table) / table`` per Table 2 cell.

    Keyed ``(messages, size_bytes)``; every cell, including the 100-message row.
    """
    return {
        (n, size): (required_size_mb(n, size, accounting) - mb) / mb
        for n, row in sorted(table.items())
        for size, mb in zip(TABLE2_SIZES, row, strict=True)
    }


def worst_table2_error(
    accounting: Accounting = DEFAULT_ACCOUNTING, min_messages: int = TABLE2_MIN_MESSAGES
) -> tuple[tuple[int, int], float]:
    """The binding Table 2 cell (>= ``min_messages``) with the largest absolute relative error."""
    cells = {k: v for k, v in table2_error(accounting).items() if k[0] >= min_messages}
    key = max(cells, key=lambda k: abs(cells[k]))
    return key, cells[key]


@attrs.frozen
class Recommendation:
    """CFRM policy values for one application structure (SIZING-003, CAPACITY-007).

    Attributes:
        name: the CFRM structure name (QSG name + CFSTRUCT name).
        messages, avg_size_bytes: the input.
        required_mb: :func:`required_size_mb` of the input.
        initsize_kb, size_kb: INITSIZE and SIZE in KB.
        fullthreshold: FULLTHRESHOLD in percent.
    """

    name: str
    messages: int
    avg_size_bytes: int
    required_mb: float
    initsize_kb: int
    size_kb: int
    fullthreshold: int

    @property
    def advice(self) -> str | None:
        """CAPACITY-007 warning, if INITSIZE and SIZE are more than a factor 2 apart."""
        return factor_of_two_advice(self.initsize_kb, self.size_kb)

    @property
    def cfrm(self) -> str:
        """The CFRM ``STRUCTURE`` statement, laid out like seed 001's example."""
        init = f"INITSIZE({self.initsize_kb})"
        size = f"SIZE({self.size_kb})"
        width = max(len(init), len(size)) + 1
        return "\n".join(
            (
                f"STRUCTURE NAME({self.name})",
                f"{init.ljust(width)}/* {_mb_text(self.initsize_kb)} */",
                f"{size.ljust(width)}/* {_mb_text(self.size_kb)} */",
                f"FULLTHRESHOLD({self.fullthreshold})",
            )
        )

    def to_record(self) -> dict[str, object]:
        return {
            "name": self.name,
            "messages": self.messages,
            "avg_size_bytes": self.avg_size_bytes,
            "required_mb": self.required_mb,
            "initsize_kb": self.initsize_kb,
            "size_kb": self.size_kb,
            "fullthreshold": self.fullthreshold,
            "cfrm": self.cfrm,
            "advice": self.advice,
        }


def _mb_text(kb: int) -> str:
    return f"{kb // KB} MB" if kb % KB == 0 else f"{kb} KB"


def graph_bracket_mb(required_mb: float) -> tuple[int, int]:
    """Powers of two in MB bracketing ``required_mb``: ``(low, 2 x low)``, low <= need < 2 x low.

    Figure 1 of seed 001 is read on a log scale with gridlines at powers of two;
    "200 000 messages of length 1 KB gives a value in the range 256 through 512 MB".
    """
    if required_mb <= 1:
        return 1, 2
    low = 2 ** math.floor(math.log2(required_mb))
    return low, 2 * low


def recommend(
    messages: int,
    avg_size_bytes: int,
    *,
    name: str = SEED_STRUCTURE_NAME,
    fullthreshold: int = SEED_FULLTHRESHOLD,
    accounting: Accounting = DEFAULT_ACCOUNTING,
    initsize: str = "graph",
    usable_pct: float = 100,
) -> Recommendation:
    """SIZING-003: INITSIZE, SIZE and FULLTHRESHOLD for ``messages`` x ``avg_size_bytes``.

    Rounding rule (ours, chosen so that seed 001's example is reproduced): find the
    range of Figure 1 the need falls in, i.e. the powers of two in MB with
    ``low <= need < 2 x low`` (:func:`graph_bracket_mb`); INITSIZE is ``low`` and
    SIZE is ``2 x low``, both in KB.  For 200,000 x 1 KB the need is 391 MB, the
    range is 256 through 512 MB, and the result is the seed's own
    ``INITSIZE(262144) /* 256 MB */ SIZE(524288) /* 512 MB */ FULLTHRESHOLD(85)``.

    So INITSIZE <= need <= SIZE = 2 x INITSIZE: the structure reaches the need by
    (auto-)alter within SIZE, and INITSIZE and SIZE are within a factor of 2
    (CAPACITY-007).  Note the seed's INITSIZE is *below* the need; pass
    ``initsize="cover"`` for INITSIZE = the next power of two at or above the
    need (SIZE still 2 x INITSIZE) when the structure must hold the backlog
    without altering.  ``usable_pct``: the share of the structure the messages may use
    (seed 002 suggests 90%); the need grows to match.
    """
    if initsize not in ("graph", "cover"):
        raise ConfigurationError("initsize", initsize, "graph or cover", "SIZING-003")
    if not _is_int(fullthreshold) or not 0 <= fullthreshold <= 100:
        raise ConfigurationError("fullthreshold", fullthreshold, "an integer 0..100", "CAPACITY-009")
    if not 0 < usable_pct <= 100:
        raise ConfigurationError("usable_pct", usable_pct, "a number in (0, 100]", "OFFLOAD-010")
    need = required_size_mb(messages, avg_size_bytes, accounting) * 100 / usable_pct  # only that share in use
    low, high = graph_bracket_mb(need)
    if initsize == "cover" and low < need:
        low, high = high, 2 * high
    return Recommendation(name, messages, avg_size_bytes, need, low * KB, high * KB, fullthreshold)


def factor_of_two_advice(initsize_kb: int, size_kb: int) -> str | None:
    """CAPACITY-007: a warning text when SIZE is more than twice INITSIZE, else ``None``.

    Advice, never an error: validity (positive sizes, INITSIZE <= SIZE) is
    CAPACITY-008's business (:mod:`reference_model.validation`).
    """
    if size_kb > 2 * initsize_kb:
        return (
            f"SIZE({size_kb}) is more than twice INITSIZE({initsize_kb}): best practice keeps "
            f"INITSIZE and SIZE within a factor of 2 [CAPACITY-007]"
        )
    return None


@attrs.frozen
class OffloadReserve:
    """SIZING-004: room reserved for a backlog of offloaded messages, and the OFFLD3TH it implies.

    Attributes:
        messages: the backlog to reserve room for.
        structure_bytes: the structure size.
        usable_pct: the share of the structure one aims to use (100, or 90 per OFFLOAD-010).
        reserve_bytes: ``messages x`` the CF bytes of one offloaded message (0.75 KB).
        reserve_pct: ``reserve_bytes`` as a percentage of ``structure_bytes``.
        offld3th: ``floor(usable_pct - reserve_pct)``, at least 0.
        feasible: whether the reserve fits in the usable share at all.
    """

    messages: int
    structure_bytes: int
    usable_pct: float
    reserve_bytes: int
    reserve_pct: float
    offld3th: int
    feasible: bool

    @property
    def reserve_mb(self) -> float:
        return self.reserve_bytes / MB

    def to_record(self) -> dict[str, object]:
        return {
            "messages": self.messages,
            "structure_bytes": self.structure_bytes,
            "usable_pct": self.usable_pct,
            "reserve_bytes": self.reserve_bytes,
            "reserve_mb": self.reserve_mb,
            "reserve_pct": self.reserve_pct,
            "offld3th": self.offld3th,
            "feasible": self.feasible,
        }


def offload_reserve(
    messages: int,
    structure_bytes: int,
    usable_pct: float = 100,
    accounting: Accounting = DEFAULT_ACCOUNTING,
) -> OffloadReserve:
    """SIZING-004 (OFFLOAD-008..010): the OFFLD3TH that keeps room for ``messages`` offloaded.

    ``floor(usable_pct - messages x 0.75 KB / structure_bytes x 100)``, computed
    exactly.  Seed 002: 1M messages on 4 GB need 768 MB, 18.75%, so OFFLD3TH 81
    ("around 80%"); on 10 GB, 7.5%, so 92 ("92% or lower"); aiming at 90% of the
    10 GB structure gives 82 ("better set around 80%").

    IBM's "1M" is 2**20 messages in that arithmetic: 1,048,576 x 0.75 KB = 768 MB
    = 18.75% of 4 GB.  Exactly 1,000,000 messages need 732.4 MB (17.9%, OFFLD3TH
    82, and 93 on 10 GB, which would contradict "92% or lower").
    """
    n = _check_count("messages", messages, "SIZING-004")
    if not _is_int(structure_bytes) or structure_bytes < 1:
        raise ConfigurationError("structure_bytes", structure_bytes, "an integer >= 1", "SIZING-004")
    if not (_is_int(usable_pct) or isinstance(usable_pct, float)) or not 0 < usable_pct <= 100:
        raise ConfigurationError("usable_pct", usable_pct, "a number in (0, 100]", "OFFLOAD-010")
    reserve = n * message_bytes(0, accounting, offloaded=True)
    pct = Fraction(reserve * 100, structure_bytes)
    room = Fraction(usable_pct) - pct
    offld3th = max(0, math.floor(room))
    return OffloadReserve(n, structure_bytes, usable_pct, reserve, float(pct), offld3th, room >= 0)


def offld3th_for_reserve(
    messages: int,
    structure_bytes: int,
    usable_pct: float = 100,
    accounting: Accounting = DEFAULT_ACCOUNTING,
) -> int:
    """The OFFLD3TH of :func:`offload_reserve` alone."""
    return offload_reserve(messages, structure_bytes, usable_pct, accounting).offld3th
