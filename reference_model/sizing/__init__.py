"""Structure sizing (SIZING-001..005, CAPACITY-007, TOPOLOGY-007/008/011/012, OFFLOAD-008..010).

Pure arithmetic, calibrated on IBM's tables (seed 001) and worked examples (seed 002):

* :func:`required_size_mb`: the structure size the sizing accounting needs to hold N
  messages of one size.  The entry:element ratio is the ideal one for that size
  (one entry per message, ``elements_for(size)`` elements per entry), which is
  what z/OS auto-alter converges to.  :data:`SIZING_ACCOUNTING` reproduces every
  cell of Table 2 to IBM's whole MB (:func:`table2_error`).
* :func:`recommend`: CFRM ``STRUCTURE`` statements for an application structure in
  the style of seed 001: INITSIZE is the need rounded *up* to a whole MB (in KB,
  "that is, multiplied by 1024"), SIZE is :data:`SIZE_FACTOR` x INITSIZE rounded up
  to a whole MB ("something larger", "within a factor of 2").
* :func:`admin_recommend`: the same for CSQ_ADMIN from Table 1 (1 to 32 queue
  managers; 32 is our labelled extrapolation, Table 1 stops at 31).
* :func:`csqsysappl_recommend`: the same for CSQSYSAPPL from Table 3 and its
  suggested INITSIZE(20480) SIZE(30720).
* :func:`offload_reserve` / :func:`offld3th_for_reserve`: the OFFLD3TH that
  keeps room for a backlog of offloaded messages (seed 002 worked examples).
* :func:`factor_of_two_advice`: the INITSIZE/SIZE best-practice warning.

Every answer carries a :class:`Comparison` with the IBM table figure it is nearest
to and the difference.  The arithmetic is ours (SIZING-005 is inferred and
implementation-defined); the numbers it must reproduce are IBM's.

One concern a module, each importing only those listed before it (no cycle: ``tests/meta/test_layers.py``):

- ``inputs``: the checks of every input, their bounds and seed 001's defaults;
- ``need``: :data:`SIZING_ACCOUNTING` and the arithmetic of the need, Table 2's errors, rounding, Figure 1;
- ``records``: :class:`Comparison`, :class:`Recommendation` and the CAPACITY-007 advice;
- ``application``: :func:`recommend`, an application structure (SIZING-001..003);
- ``csq_admin``: :func:`admin_minimum`, :func:`admin_recommend` (Table 1, TOPOLOGY-007/008/014);
- ``csqsysappl``: :func:`csqsysappl_recommend` (Table 3, TOPOLOGY-011/012);
- ``reserve``: :func:`offload_reserve`, :func:`offld3th_for_reserve` (SIZING-004).

Every name the single ``sizing.py`` module had is re-exported here, private helpers included, so that
``sizing.recommend`` and ``from cfconform.reference_model.sizing import SIZE_FACTOR`` work as before.
"""

from __future__ import annotations

from .application import ApplicationRecommendation, _grouped, _size_label, recommend
from .csq_admin import (
    ADMIN_ROUNDING_KB,
    ADMIN_TABLE_LABELS,
    MAX_CFCC_LEVEL,
    MIN_CFCC_LEVEL,
    AdminMinimum,
    AdminRecommendation,
    admin_minimum,
    admin_recommend,
    admin_table_for,
)
from .csqsysappl import (
    MAX_CHANNELS,
    CsqsysapplRecommendation,
    _channels_within,
    csqsysappl_recommend,
    csqsysappl_required_mb,
)
from .inputs import (
    MAX_MESSAGES,
    MAXDEPTH_MAX,
    SEED_FULLTHRESHOLD,
    SEED_QSG,
    SEED_STRUCTURE_NAME,
    _check_count,
    _check_fullthreshold,
    _check_int,
    _check_length,
    _check_qsg,
    _is_int,
    _qsg_structure,
)
from .need import (
    DEFAULT_ACCOUNTING,
    SIZE_FACTOR,
    SIZING_ACCOUNTING,
    TABLE2_MIN_MESSAGES,
    TABLE2_SMALL_TOLERANCE_MB,
    TABLE2_TOLERANCE,
    figure1_range_mb,
    graph_bracket_mb,
    message_bytes,
    message_elements,
    nearest_table2_cell,
    required_size_kb,
    required_size_mb,
    size_for,
    table2_error,
    whole_mb_kb,
    worst_small_table2_error,
    worst_table2_error,
)
from .records import Comparison, Recommendation, _mb_text, factor_of_two_advice
from .reserve import OffloadReserve, offld3th_for_reserve, offload_reserve

__all__ = [
    "ADMIN_ROUNDING_KB",
    "ADMIN_TABLE_LABELS",
    "DEFAULT_ACCOUNTING",
    "MAXDEPTH_MAX",
    "MAX_CFCC_LEVEL",
    "MAX_CHANNELS",
    "MAX_MESSAGES",
    "MIN_CFCC_LEVEL",
    "SEED_FULLTHRESHOLD",
    "SEED_QSG",
    "SEED_STRUCTURE_NAME",
    "SIZE_FACTOR",
    "SIZING_ACCOUNTING",
    "TABLE2_MIN_MESSAGES",
    "TABLE2_SMALL_TOLERANCE_MB",
    "TABLE2_TOLERANCE",
    "AdminMinimum",
    "AdminRecommendation",
    "ApplicationRecommendation",
    "Comparison",
    "CsqsysapplRecommendation",
    "OffloadReserve",
    "Recommendation",
    "_channels_within",
    "_check_count",
    "_check_fullthreshold",
    "_check_int",
    "_check_length",
    "_check_qsg",
    "_grouped",
    "_is_int",
    "_mb_text",
    "_qsg_structure",
    "_size_label",
    "admin_minimum",
    "admin_recommend",
    "admin_table_for",
    "csqsysappl_recommend",
    "csqsysappl_required_mb",
    "factor_of_two_advice",
    "figure1_range_mb",
    "graph_bracket_mb",
    "message_bytes",
    "message_elements",
    "nearest_table2_cell",
    "offld3th_for_reserve",
    "offload_reserve",
    "recommend",
    "required_size_kb",
    "required_size_mb",
    "size_for",
    "table2_error",
    "whole_mb_kb",
    "worst_small_table2_error",
    "worst_table2_error",
]
