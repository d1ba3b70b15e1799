"""The answers of ``cfconform size``: a CFRM recommendation and the IBM figure it is nearest to.

:class:`Recommendation` holds INITSIZE, SIZE and FULLTHRESHOLD for one structure and renders its CFRM
``STRUCTURE`` statement (SIZING-003); :class:`Comparison` names the IBM table figure the answer is
nearest to and the difference (issue 27, item 5); :func:`factor_of_two_advice` is the CAPACITY-007
warning every recommendation carries when INITSIZE and SIZE are more than a factor of 2 apart.
"""

from __future__ import annotations

import attrs

from ..units import KB
from .need import SIZE_FACTOR


@attrs.frozen
class Comparison:
    """The IBM table figure an answer is nearest to, and the difference (item 5 of issue 27).

    Attributes:
        table: which IBM figure: ``"Table 2"``, ``"Table 1 (CFCC level 14)"``, ...
        kind: what of that table: ``"cell"``, ``"row"`` or ``"figure"``.
        cell: the row or cell, e.g. ``"10,000 messages of 4 KB"``.
        ibm_kb: IBM's figure, in KB.
        answer_kb: this answer's INITSIZE, in KB.
        exact: the input is exactly that row or cell (else the nearest one).
        unit: ``"MB"`` or ``"KB"``, the unit IBM's table is printed in.
    """

    table: str
    kind: str
    cell: str
    ibm_kb: int
    answer_kb: int
    exact: bool
    unit: str = "MB"

    @property
    def diff_kb(self) -> int:
        return self.answer_kb - self.ibm_kb

    @property
    def diff_pct(self) -> float:
        return 100 * self.diff_kb / self.ibm_kb

    def _amount(self, kb: int, *, signed: bool = False) -> str:
        value = kb / KB if self.unit == "MB" else kb
        text = f"{value:+,g}" if signed else f"{value:,g}"
        return f"{text} {self.unit}"

    @property
    def text(self) -> str:
        """``nearest IBM Table 2 cell: 10,000 messages of 4 KB = 64 MB; this answer (INITSIZE 64 MB) +0 MB / +0.0%``."""
        which = "" if self.exact else " (the nearest; not this input)"
        return (
            f"nearest IBM {self.table} {self.kind}: {self.cell} = {self._amount(self.ibm_kb)}{which}; "
            f"this answer (INITSIZE {self._amount(self.answer_kb)}) {self._amount(self.diff_kb, signed=True)} / "
            f"{self.diff_pct:+.1f}%"
        )

    def to_record(self) -> dict[str, object]:
        return {
            "table": self.table,
            "kind": self.kind,
            "cell": self.cell,
            "ibm_kb": self.ibm_kb,
            "answer_kb": self.answer_kb,
            "exact": self.exact,
            "diff_kb": self.diff_kb,
            "diff_mb": self.diff_kb / KB,
            "diff_pct": round(self.diff_pct, 2),
            "text": self.text,
        }


@attrs.frozen
class Recommendation:
    """CFRM policy values for one structure (SIZING-003, CAPACITY-007).

    Attributes:
        name: the CFRM structure name.
        required_mb: what the structure needs, in MB (unrounded).
        initsize_kb, size_kb: INITSIZE and SIZE in KB.
        fullthreshold: FULLTHRESHOLD in percent.
        nearest: the IBM table figure the answer is nearest to.
        basis: how INITSIZE was found, in words.
        notes: lines the user should read (extrapolations, IBM's caveats).
    """

    name: str
    required_mb: float
    initsize_kb: int
    size_kb: int
    fullthreshold: int
    nearest: Comparison
    basis: str
    notes: tuple[str, ...] = ()

    @property
    def size_factor(self) -> float:
        return float(SIZE_FACTOR)

    @property
    def advice(self) -> str | None:
        """CAPACITY-007 warning, if INITSIZE and SIZE are more than a factor 2 apart."""
        return factor_of_two_advice(self.initsize_kb, self.size_kb)

    @property
    def size_basis(self) -> str:
        return f"{self.size_factor:g} x INITSIZE, rounded up to a whole MB"

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
            "required_mb": self.required_mb,
            "initsize_kb": self.initsize_kb,
            "size_kb": self.size_kb,
            "size_factor": self.size_factor,
            "initsize_basis": self.basis,
            "size_basis": self.size_basis,
            "fullthreshold": self.fullthreshold,
            "cfrm": self.cfrm,
            "advice": self.advice,
            "nearest": self.nearest.to_record(),
            "notes": list(self.notes),
        }


def _mb_text(kb: int) -> str:
    return f"{kb // KB} MB" if kb % KB == 0 else f"{kb} KB"


def factor_of_two_advice(initsize_kb: int, size_kb: int) -> str | None:
    """CAPACITY-007: a warning text when SIZE is more than twice INITSIZE, else ``None``.

    Advice, never an error: validity (positive sizes, INITSIZE <= SIZE) is
    CAPACITY-008's business (:mod:`cfconform.reference_model.validation`).
    """
    if size_kb > 2 * initsize_kb:
        return (
            f"SIZE({size_kb}) is more than twice INITSIZE({initsize_kb}): best practice keeps "
            f"INITSIZE and SIZE within a factor of 2 [CAPACITY-007]"
        )
    return None
