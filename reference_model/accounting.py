"""Coupling-facility storage accounting (SIZING-005, OFFLOAD-005, CQS-020, OFFLOAD-012).

IBM leaves the byte accounting implementation-defined.  The model charges each
stored data object one list entry and ``ceil((length + header) / element)``
elements; an offloaded MQ message keeps one entry and two 256-byte elements
(0.75 KB).  A structure of S KB offers ``(S - fixed) / overhead`` bytes, split
into entries and elements by its entry:element ratio.  The constants in
:class:`~cfconform.reference_model.config.Accounting` are calibrated on Table 2.
"""

from __future__ import annotations

from .config import Accounting
from .units import KB


def elements_for(length: int, acct: Accounting) -> int:
    """Elements one in-CF data object of ``length`` bytes uses (at least one)."""
    n = -(-(length + acct.header_bytes) // acct.element_bytes)
    return n if n > 1 else 1  # (max(1, n) without the call: once a put)


def usable_bytes(size_kb: int, acct: Accounting) -> float:
    """Bytes a structure of ``size_kb`` offers for entries and elements."""
    return max(0.0, (size_kb - acct.fixed_kb) * KB / acct.overhead)


def pool_totals(size_kb: int, ratio: int, acct: Accounting) -> tuple[int, int]:
    """``(entries_total, elements_total)`` for a structure with ``ratio`` elements per entry."""
    block = acct.entry_bytes + ratio * acct.element_bytes
    entries = int(usable_bytes(size_kb, acct) // block)
    return entries, entries * ratio


def usage_pct(metric: str, pools: tuple[int, int, int, int], acct: Accounting) -> float:
    """Structure usage in percent under one reading of "usage".

    ``pools`` is ``(entries_used, entries_total, elements_used, elements_total)``.
    Readings: ``max`` (entries% or elements%, whichever is higher), ``elements``
    (elements% only) or ``combined`` (storage in use over storage offered).
    """
    eu, et, lu, lt = pools
    if et <= 0 or lt <= 0:
        return 100.0
    if metric == "elements":
        return 100.0 * lu / lt
    if metric == "combined":
        used = eu * acct.entry_bytes + lu * acct.element_bytes
        offered = et * acct.entry_bytes + lt * acct.element_bytes
        return 100.0 * used / offered
    entries, elements = 100.0 * eu / et, 100.0 * lu / lt  # 100 * used first: exact at whole percents
    return elements if elements > entries else entries  # (max(), without the call: once a put)


def fits(pools: tuple[int, int, int, int], entries: int, elements: int) -> bool:
    """CAPACITY-001: room for ``entries`` more entries and ``elements`` more elements."""
    eu, et, lu, lt = pools
    return eu + entries <= et and lu + elements <= lt
