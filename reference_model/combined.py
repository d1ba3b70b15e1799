"""The ``combined`` reading of structure usage, on an implementation's own figures (OFFLOAD-012).

Under the ``combined`` reading of "current usage of the coupling facility structure" (ibm-facts
2.3, reading (c)) usage is storage in use over storage offered: ``(eu*E + lu*L) / (et*E + lt*L)``
for the implementation's own entry cost ``E`` and element cost ``L``, which no document gives.  Its
figures alone leave usage anywhere between the entry and the element percentages, but the costs
are the implementation's and do not change from put to put: every offload decision taken on such
usage bounds the ratio ``w = E / L``.  This keeps, per structure, the interval of ratios the
decisions so far allow (:attr:`~.state.Structure.combined_weights`), decides a threshold wherever
the whole interval agrees, and finds the decision no ratio explains.

The interval is closed (a decision at exactly a threshold is never held against the
implementation), and ``w`` runs from 0 (usage = elements%) to infinity (usage = entries%).
"""

from __future__ import annotations

from .state import Structure

_INF = float("inf")
Pools4 = tuple[int, int, int, int]


def _pct(pools: Pools4, w: float) -> float:
    eu, et, lu, lt = pools
    if w == _INF:
        return 100.0 * eu / et
    return 100.0 * (eu * w + lu) / (et * w + lt)


def reached(s: Structure, pools: Pools4, threshold: float, inclusive: bool) -> bool | None:
    """Whether usage is over (``inclusive``: at or over) ``threshold`` for every entry:element cost
    ratio the structure's earlier decisions allow; None when the allowed ratios disagree."""
    if pools[1] <= 0 or pools[3] <= 0:
        return None
    lo, hi = s.combined_weights
    ends = [_pct(pools, w) for w in (lo, hi)]
    over = [u >= threshold if inclusive else u > threshold for u in ends]
    return over[0] if over[0] == over[1] else None


def narrow(s: Structure, pools: Pools4, threshold: float, over: bool) -> bool:
    """Keep the ratios under which usage is at or over ``threshold`` (``over``), or at or under it;
    False (and nothing kept) when no ratio allowed so far does: the decision is not explained."""
    eu, et, lu, lt = pools
    if et <= 0 or lt <= 0:
        return True
    # usage >= threshold  <=>  w * (100 eu - threshold et) >= threshold lt - 100 lu   (w >= 0)
    a, b = 100 * eu - threshold * et, threshold * lt - 100 * lu
    lo, hi = s.combined_weights
    if a == 0:
        return (b <= 0) if over else (b >= 0)
    r = b / a
    if (a > 0) == over:
        lo = max(lo, r)
    else:
        hi = min(hi, r)
    if lo > hi * (1 + 1e-12) + 1e-12:
        return False
    s.combined_weights = (lo, hi)
    return True
