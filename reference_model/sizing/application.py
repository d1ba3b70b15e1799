"""An application structure's CFRM statements (SIZING-001, SIZING-002, SIZING-003, OFFLOAD-004/005/010).

INITSIZE is the need (:func:`~cfconform.reference_model.sizing.need.required_size_mb`) rounded up to a
whole MB, SIZE 1.5 times that rounded up to a whole MB, with the nearest Table 2 cell and the range of
Figure 1 the need lies in.
"""

from __future__ import annotations

import attrs

from ..config import Accounting
from ..errors import ConfigurationError
from ..units import KB, SIZE_63_75K
from .inputs import (
    MAX_MESSAGES,
    SEED_FULLTHRESHOLD,
    SEED_STRUCTURE_NAME,
    _check_fullthreshold,
    _check_int,
    _check_length,
    _is_int,
)
from .need import DEFAULT_ACCOUNTING, figure1_range_mb, nearest_table2_cell, required_size_mb, size_for, whole_mb_kb
from .records import Comparison, Recommendation


def _grouped(n: int) -> str:
    return f"{n:,}"


def _size_label(size_bytes: int) -> str:
    return f"{size_bytes // KB} KB" if size_bytes % KB == 0 else f"{size_bytes} bytes"


@attrs.frozen
class ApplicationRecommendation(Recommendation):
    """:class:`Recommendation` for an application structure (SIZING-001..003).

    Attributes:
        messages, avg_size_bytes, usable_pct: the input.
    """

    messages: int = 0
    avg_size_bytes: int = 0
    usable_pct: float = 100

    @property
    def figure1_range_mb(self) -> tuple[int, int]:
        """The range of Figure 1 the need lies in (SIZING-002), e.g. (256, 512)."""
        return figure1_range_mb(self.required_mb)

    def to_record(self) -> dict[str, object]:
        low, high = self.figure1_range_mb
        return {
            "structure": "application",
            "messages": self.messages,
            "avg_size_bytes": self.avg_size_bytes,
            "usable_pct": self.usable_pct,
            "figure1_range_mb": [low, high],
            **super().to_record(),
        }


def recommend(
    messages: int,
    avg_size_bytes: int,
    *,
    name: str = SEED_STRUCTURE_NAME,
    fullthreshold: int = SEED_FULLTHRESHOLD,
    accounting: Accounting = DEFAULT_ACCOUNTING,
    usable_pct: float = 100,
) -> ApplicationRecommendation:
    """SIZING-003: INITSIZE, SIZE and FULLTHRESHOLD for ``messages`` x ``avg_size_bytes``.

    Seed 001: "INITSIZE(value from graph in KB, that is, multiplied by 1024)",
    "SIZE(something larger)", "INITSIZE and SIZE are within a factor of 2".

    * INITSIZE: the need (:func:`required_size_mb`, Table 2 reproduced to IBM's whole
      MB) rounded *up* to a whole MB, times 1024.  Never below the need, and at or
      above IBM's figure in every one of Table 2's 28 cells.
    * SIZE: :data:`SIZE_FACTOR` (1.5) x INITSIZE, rounded up to a whole MB
      (:func:`size_for`): larger, and within a factor of 2 (CAPACITY-007).

    For seed 001's example, 200,000 x 1 KB, the need is 391.1 MB, in Figure 1's range
    "256 through 512 MB" (SIZING-002): INITSIZE(401408) /* 392 MB */ SIZE(602112)
    /* 588 MB */.  (The seed's own INITSIZE(262144) /* 256 MB */ is the bottom of that
    range, 135 MB below the need; we do not follow it there.)

    ``usable_pct``: the share of the structure the messages may use (seed 002 suggests
    90%); the need grows to match.  Messages over 63.75 KB are charged as offloaded
    (an entry and two elements each).
    """
    n = _check_int("messages", messages, 0, MAX_MESSAGES, "SIZING-001")
    size = _check_length("avg_size_bytes", avg_size_bytes, "SIZING-001")
    _check_fullthreshold(fullthreshold)
    if not (_is_int(usable_pct) or isinstance(usable_pct, float)) or not 0 < usable_pct <= 100:
        raise ConfigurationError("usable_pct", usable_pct, "a number in (0, 100]", "OFFLOAD-010")
    need = required_size_mb(n, size, accounting) * 100 / usable_pct  # only that share in use
    initsize = whole_mb_kb(need)
    rows, cell_size, cell_mb = nearest_table2_cell(n, size)
    nearest = Comparison(
        "Table 2",
        "cell",
        f"{_grouped(rows)} messages of {_size_label(cell_size)}",
        cell_mb * KB,
        initsize,
        (rows, cell_size) == (n, size),
    )
    notes = []
    if size > SIZE_63_75K:
        notes.append(
            "messages over 63.75 KB are offloaded (SMDS or Db2): the structure keeps 0.75 KB of each "
            "[OFFLOAD-004, OFFLOAD-005]"
        )
    if usable_pct != 100:
        notes.append(f"sized so that the messages use {usable_pct:g}% of the structure [OFFLOAD-010]")
    return ApplicationRecommendation(
        name,
        need,
        initsize,
        size_for(initsize),
        fullthreshold,
        nearest,
        "the need rounded up to a whole MB",
        tuple(notes),
        messages=n,
        avg_size_bytes=size,
        usable_pct=usable_pct,
    )
