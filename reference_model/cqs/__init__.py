"""IMS CQS structure overflow (seed 000; ibm-facts 1): the cqs profile's operations.

Sequence: a CQSPUT that leaves primary usage at or above OVFLWMAX starts a
structure alter (CQS-003); z/OS answers with :class:`AlterOutcome`.  Success
means no overflow (CQS-004); failure means overflow mode (CQS-005), in which
queues are selected (CQS-006..010, CQS-018) atomically (CQS-008), then moved
(CQS-011, CQS-019) or fenced off (CQS-012).  Overflow ends by the 15-minute
scan (CQS-013/014) or by usage falling (CQS-015).

One concern a module, each importing only those listed before it (no cycle: ``tests/meta/test_layers.py``):

- ``usage``: the usage compared with OVFLWMAX and the target (CQS-007/015/020), the scan interval;
- ``storage``: message parts and where they live (CQS-011/017/019), moving queues' data;
- ``sizes``: which queue surely uses more space, what surely fits the overflow structure (CQS-006/011);
- ``selection``: selecting queues, the model's and the implementation's (CQS-006..010, CQS-018);
- ``relief``: overflow mode ending as usage falls (CQS-015), and ending at all (CQS-014);
- ``threshold``: whether a CQSPUT reached OVFLWMAX, and what it shows of it (CQS-001..003, CQS-020);
- ``alter``: z/OS's answer to the alter, overflow mode beginning (CQS-003..005, CQS-008);
- ``adopt``: what an implementation shows only later, adopted (``adopt_*``, the ``_unseen`` helpers);
- ``scan``: the 15-minute scan (CQS-013/014) and SET OVERFLOW EXIT (CQS-009/010);
- ``put_get``: CQSPUT and CQSREAD + CQSDEL, the operations that draw on all of them.

Every name the single ``cqs.py`` module had is re-exported here, private helpers included, so that
``cqs.put``, ``cqs._candidates`` and ``from cfconform.reference_model.cqs import adopt_alter`` work as
before.  A function calls another through its own module's globals: a mutant changes one by
:func:`~cfconform.adapters.mutants.kit.rebind` (a copy of the calling function with that global swapped,
which works wherever the function lives), never by assigning to this package; ``model.py`` looks up
``cqs.scan_between`` through this package at call time (the scan mutants swap it there).
"""

from __future__ import annotations

from .adopt import (
    _adopt_moved,
    _adopt_unseen_overflow,
    _adopt_unseen_relief,
    _begin_unseen,
    _later_pick,
    _may_be_passed,
    _reported_sound,
    _reselected_unseen,
    _unseen,
    adopt_alter,
    adopt_put,
    adopt_relief,
    adopt_selection,
)
from .alter import (
    _alter_now,
    _alterable_to,
    _altered,
    _Answer,
    _exits_at_start,
    _overflow,
    _pick_due,
    _selected,
    _usage_at_start,
    alter_outcome,
)
from .put_get import _alter_at_refusal, _at_refusal, _passing_full, _start_alter, get, put
from .relief import (
    _below_target,
    _end_overflow,
    _found_by_scan,
    _lagging_relief,
    _may_lag,
    _seen_above_target,
    relieved,
)
from .scan import _holding, _leaves, _scan_open, _scanned, scan_between, set_overflow_exit
from .selection import (
    _candidates,
    _costs,
    _open_candidates,
    _reselect,
    _select_by_costs,
    _select_open,
    _select_reported,
    _selection_sound,
    _vetoes,
    select,
)
from .sizes import (
    SURELY_COSTS,
    SURELY_ELEMENT_BYTES,
    _first_pick,
    _fits_overflow,
    _larger,
    _surely_fits,
    _surely_fits_all,
    _surely_larger,
)
from .storage import _charge, _first_parts, _in_overflow, _in_parts, _move, _overflow_room, _space, message_parts
from .threshold import _may_alter, _moved_within, _reselect_due, _round_unseen, _seen_cost, _selects, _threshold_reached
from .usage import SCAN_SECONDS, _base_usage, _metric, _usage, target

__all__ = [
    "SCAN_SECONDS",
    "SURELY_COSTS",
    "SURELY_ELEMENT_BYTES",
    "_Answer",
    "_adopt_moved",
    "_adopt_unseen_overflow",
    "_adopt_unseen_relief",
    "_alter_at_refusal",
    "_alter_now",
    "_alterable_to",
    "_altered",
    "_at_refusal",
    "_base_usage",
    "_begin_unseen",
    "_below_target",
    "_candidates",
    "_charge",
    "_costs",
    "_end_overflow",
    "_exits_at_start",
    "_first_parts",
    "_first_pick",
    "_fits_overflow",
    "_found_by_scan",
    "_holding",
    "_in_overflow",
    "_in_parts",
    "_lagging_relief",
    "_larger",
    "_later_pick",
    "_leaves",
    "_may_alter",
    "_may_be_passed",
    "_may_lag",
    "_metric",
    "_move",
    "_moved_within",
    "_open_candidates",
    "_overflow",
    "_overflow_room",
    "_passing_full",
    "_pick_due",
    "_reported_sound",
    "_reselect",
    "_reselect_due",
    "_reselected_unseen",
    "_round_unseen",
    "_scan_open",
    "_scanned",
    "_seen_above_target",
    "_seen_cost",
    "_select_by_costs",
    "_select_open",
    "_select_reported",
    "_selected",
    "_selection_sound",
    "_selects",
    "_space",
    "_start_alter",
    "_surely_fits",
    "_surely_fits_all",
    "_surely_larger",
    "_threshold_reached",
    "_unseen",
    "_usage",
    "_usage_at_start",
    "_vetoes",
    "adopt_alter",
    "adopt_put",
    "adopt_relief",
    "adopt_selection",
    "alter_outcome",
    "get",
    "message_parts",
    "put",
    "relieved",
    "scan_between",
    "select",
    "set_overflow_exit",
    "target",
]
