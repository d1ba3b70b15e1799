"""Mutants of the IMS CQS structure-overflow rules (CQS-001..022), profile ``cqs``.

Reproducers use structures a few KB above the fixed overhead with one element
per entry (``ratio=1``) and messages of one to a few elements, so that usage is
the same under both ``cqs_usage_metric`` readings; where the selection target
matters they use ``OVFLWMAX(100)`` on a full structure, for which all four
``cqs_target`` readings give 80%.  A small ``LGMSGSZ`` makes one put fill the
primary with staging parts while its ready queue stays small.
"""

from __future__ import annotations

import attrs

from cfconform.reference_model import cqs
from cfconform.reference_model.config import Config, QueueDef, StructureDef
from cfconform.reference_model.operations import (
    AdvanceClock,
    AlterOutcome,
    DefineStructure,
    Get,
    Inspect,
    Put,
    SetOverflowExit,
)

from .cqs_faults import (
    accept_unsolicited,
    deferred_selection,
    end_with_first_queue,
    entries_pct,
    fence_structure,
    first_part_staged,
    full_instead_of_fenced,
    ignore_failure,
    keep_exit,
    keep_exit_on_remove,
    leave_when_emptied,
    move_whole_messages,
    no_growth,
    overflow_after_success,
    overflow_without_alter,
    patched_cqs,
    primary_for_new,
    relief,
    resignal_alter,
    scan_all,
    scan_every,
    selecting,
    set_ovflwmax,
    skip_overflow_if_below,
    stay_without_queues,
    unfenced_put,
    usage_metric_by_step,
    with_lgmsgsz,
    without_pseudo_queue,
)
from .kit import (
    Mutant,
    chain,
    define_structure_unchecked,
    force_evolve,
    lenient,
    mutant,
    post,
    pre,
    rebound,
    setup,
)

PRIM = "PRIM"


def cfg(
    *,
    size: int = 6147,
    ratio: int = 1,
    ovflwmax: int | None = None,
    ovflwstr: str | None = "OVFL",
    queues: tuple[str, ...] = ("Q1",),
    lgmsgsz: int = 4096,
    exit: tuple[str, ...] | None = None,
    initsize: int | None = None,
    resource: bool = False,
) -> Config:
    """A one-structure CQS group; ``size`` 6147 gives 4 entries and 4 elements."""
    sd = StructureDef(
        PRIM,
        size_kb=size,
        initsize_kb=initsize,
        ratio=ratio,
        fullthreshold=0,
        ovflwmax=ovflwmax,
        ovflwstr=ovflwstr,
        resource=resource,
    )
    return Config(
        profile="cqs",
        qmgrs=("QM01",),
        structures=(sd,),
        queues=tuple(QueueDef(q, cfstruct=PRIM) for q in queues),
        lgmsgsz=lgmsgsz,
        overflow_exit=exit,
    )


def put(queue: str, length: int, tag: int = 0) -> Put:
    return Put("QM01", queue, length, tag=tag)


def get(queue: str) -> Get:
    return Get("QM01", queue)


FAIL = AlterOutcome(PRIM, False)
ELEVEN = tuple(f"Q{n}" for n in range(1, 12))

GROW = AlterOutcome(PRIM, True)

# Usage figures below are elements in use out of 4 (size 6147), 10 (6151) or 21 (6158).
BIG = 3840  # with LGMSGSZ(384): a first part of 2 elements and 9 staging parts of 2 elements


MUTANTS: tuple[Mutant, ...] = (
    mutant(
        "M-CQS-001-a",
        "OVFLWMAX defaults to 80% instead of 70%.",
        cfg(),
        [put("Q1", 600), Inspect()],
        set_ovflwmax(lambda v: 80 if v is None else v),
    ),
    mutant(
        "M-CQS-001-b",
        "OVFLWMAX defaults to 60% instead of 70%.",
        cfg(size=6151),
        [put("Q1", 1408)],
        set_ovflwmax(lambda v: 60 if v is None else v),
    ),
    mutant(
        "M-CQS-002-a",
        "The configured OVFLWMAX is ignored; 70% is always used.",
        cfg(ovflwmax=50),
        [put("Q1", 300), Inspect()],
        set_ovflwmax(lambda v: None),
    ),
    mutant(
        "M-CQS-002-b",
        "OVFLWMAX(0) is taken to mean 'no overflow threshold'.",
        cfg(ovflwmax=0),
        [put("Q1", 0)],
        set_ovflwmax(lambda v: 101 if v == 0 else v),
    ),
    mutant(
        "M-CQS-002-c",
        "OVFLWMAX above 100 is accepted.",
        cfg(),
        [DefineStructure({"name": "PRIM2", "ovflwmax": 101})],
        lenient(DefineStructure, "CQS-002", define_structure_unchecked),
    ),
    mutant(
        "M-CQS-003-a",
        "The alter starts only when usage exceeds OVFLWMAX, not when it reaches it.",
        cfg(ovflwmax=75),
        [put("Q1", 600), Inspect()],
        rebound(Put, _threshold_reached=lambda model, s, *_: cqs._usage(model, s) > s.defn.effective_ovflwmax),
    ),
    mutant(
        "M-CQS-003-b",
        "An alter outcome arriving with no alter pending is acted on.",
        cfg(initsize=6147, size=6151),
        [GROW],
        pre(AlterOutcome, lambda m, op: accept_unsolicited(m, op)),
    ),
    mutant(
        "M-CQS-003-c",
        "Every put at or above OVFLWMAX starts another alter while one is pending.",
        cfg(ovflwmax=25),
        [put("Q1", 0), put("Q1", 0)],
        post(Put, resignal_alter),
    ),
    mutant(
        "M-CQS-003-d",
        "Reaching OVFLWMAX enters overflow mode at once, without trying an alter.",
        cfg(),
        [put("Q1", 600)],
        post(Put, overflow_without_alter),
    ),
    mutant(
        "M-CQS-004-a",
        "A successful alter does not grow the primary structure.",
        cfg(initsize=6147, size=6151),
        [put("Q1", 600), GROW, Inspect()],
        rebound(AlterOutcome, _altered=no_growth),
    ),
    mutant(
        "M-CQS-004-b",
        "A successful alter still puts the structure into overflow mode.",
        cfg(initsize=6147, size=6151),
        [put("Q1", 600), GROW],
        post(AlterOutcome, overflow_after_success),
    ),
    mutant(
        "M-CQS-004-c",
        "A successful alter grows the primary to SIZE, whatever size z/OS reached.",
        cfg(initsize=6147, size=6151),
        [put("Q1", 600), AlterOutcome(PRIM, True, 6148), Inspect()],
        pre(
            AlterOutcome,
            lambda m, op: (
                None if op.size_kb is None or not op.success else cqs.alter_outcome(m, attrs.evolve(op, size_kb=None))
            ),
        ),
    ),
    mutant(
        "M-CQS-005-a",
        "A failed alter enters overflow mode only if usage is still at OVFLWMAX.",
        cfg(),
        [put("Q1", 600), get("Q1"), FAIL],
        pre(AlterOutcome, skip_overflow_if_below),
    ),
    mutant(
        "M-CQS-005-b",
        "A failed alter is ignored: no overflow mode.",
        cfg(),
        [put("Q1", 600), FAIL],
        pre(AlterOutcome, ignore_failure),
    ),
    mutant(
        "M-CQS-006-a",
        "Candidates are taken smallest first.",
        # (three 2 KB objects against one: more space under any accounting, even before the last put)
        cfg(size=6160, ratio=8, ovflwstr=None, queues=("Q1", "Q2")),
        [Inspect(), put("Q1", 2048), put("Q2", 2048), put("Q2", 2048), put("Q2", 2048), FAIL],
        selecting(order=lambda c: (c[2], c[1], c[0])),
    ),
    mutant(
        "M-CQS-007-a",
        "Selection never stops: every approved queue is selected.",
        cfg(ovflwmax=50, queues=("Q1", "Q2")),
        [Inspect(), put("Q1", 0), put("Q2", 300), FAIL],
        selecting(exhaust=True),
    ),
    mutant(
        "M-CQS-007-b",
        "Selection stops once projected usage is below OVFLWMAX, not 20% below it.",
        # 21 entries, ten queues of two data objects and one of one: full at the last put; one queue
        # takes usage below OVFLWMAX (90%), three take it 20% below (71%), under every target reading
        cfg(size=6158, ovflwmax=100, ovflwstr=None, queues=ELEVEN),
        [Inspect(), *(put(q, 0) for q in ELEVEN[:10] for _ in range(2)), put("Q11", 0), FAIL],
        selecting(goal=lambda model, s: s.defn.effective_ovflwmax - 1e-9),
    ),
    mutant(
        "M-CQS-008-a",
        "Queues are selected at the next request after the failed alter, not within it.",
        cfg(),
        [put("Q1", 600), FAIL],
        deferred_selection(),
    ),
    mutant(
        "M-CQS-009-a",
        "The Queue Overflow exit's veto is ignored.",
        cfg(exit=("Q1",)),
        [put("Q1", 600), FAIL],
        selecting(vetoes=lambda model: frozenset()),
    ),
    mutant(
        "M-CQS-009-b",
        "A vetoed candidate ends the selection instead of being skipped.",
        cfg(ovflwmax=50, queues=("Q1", "Q2"), exit=("Q2",)),
        [put("Q1", 0), put("Q2", 300), FAIL],
        selecting(stop_at_veto=True),
    ),
    mutant(
        "M-CQS-009-c",
        "An exit installed while CQS runs is never called.",
        cfg(),
        [SetOverflowExit(("Q1",)), put("Q1", 600), FAIL],
        pre(SetOverflowExit, keep_exit),
    ),
    mutant(
        "M-CQS-010-a",
        "With no exit defined every candidate is rejected.",
        cfg(),
        [put("Q1", 600), FAIL],
        selecting(
            vetoes=lambda model: (
                frozenset(model.queues) if model.overflow_exit is None else frozenset(model.overflow_exit)
            )
        ),
    ),
    mutant(
        "M-CQS-010-b",
        "Removing the exit leaves the old exit's vetoes in force.",
        cfg(exit=("Q1",)),
        [SetOverflowExit(None), put("Q1", 600), FAIL],
        pre(SetOverflowExit, keep_exit_on_remove),
    ),
    mutant(
        "M-CQS-011-a",
        "Approved queues are not moved: their data stays on the primary.",
        cfg(),
        [put("Q1", 600), FAIL],
        rebound(AlterOutcome, _move=lambda model, s, names: None),
    ),
    mutant(
        "M-CQS-012-a",
        "Without OVFLWSTR, puts to a selected queue are still accepted.",
        cfg(ovflwstr=None),
        [put("Q1", 600), FAIL, put("Q1", 0)],
        pre(Put, unfenced_put),
    ),
    mutant(
        "M-CQS-012-b",
        "Without OVFLWSTR, puts to a selected queue are rejected as STRUCTURE_FULL.",
        # the 600-byte message's cost is seen (inspect before it), so the structure certainly has
        # room for the empty one (were it in doubt, STRUCTURE_FULL is admissible too: reason precedence)
        cfg(ovflwstr=None, size=6158, ovflwmax=10),
        [Inspect(), put("Q1", 600), FAIL, put("Q1", 0)],
        post(Put, full_instead_of_fenced),
    ),
    mutant(
        "M-CQS-012-c",
        "Without OVFLWSTR, puts to every queue of the structure are rejected.",
        cfg(ovflwstr=None, queues=("Q1", "Q2")),
        [put("Q1", 600), FAIL, put("Q2", 0)],
        pre(Put, fence_structure),
    ),
    mutant(
        "M-CQS-013-a",
        "A queue leaves overflow mode as soon as it is emptied, not at the next scan.",
        cfg(),
        [put("Q1", 600), FAIL, get("Q1")],
        post(Get, leave_when_emptied),
    ),
    mutant(
        "M-CQS-013-b",
        "Overflowed queues are scanned every 30 minutes instead of 15.",
        cfg(),
        [put("Q1", 600), FAIL, get("Q1"), AdvanceClock(900)],
        scan_every(1800),
    ),
    mutant(
        "M-CQS-013-c",
        "The scan takes queues out of overflow mode whether or not they are empty.",
        cfg(),
        [put("Q1", 600), FAIL, AdvanceClock(900)],
        rebound(AdvanceClock, cqs=patched_cqs(scan_between=scan_all)),
    ),
    mutant(
        "M-CQS-013-d",
        "Overflowed queues are scanned every 10 minutes instead of 15.",
        cfg(),
        [put("Q1", 600), FAIL, get("Q1"), AdvanceClock(600)],
        scan_every(600),
    ),
    mutant(
        "M-CQS-014-a",
        "Overflow mode does not end when the selection approves no queue.",
        cfg(exit=("Q1",)),
        [put("Q1", 600), FAIL],
        post(AlterOutcome, stay_without_queues),
    ),
    mutant(
        "M-CQS-014-b",
        "Overflow mode ends when the first queue leaves it, though others remain.",
        cfg(size=6151, ovflwmax=0, queues=("Q1", "Q2"), lgmsgsz=128),
        [put("Q1", 1152), put("Q2", 0), FAIL, get("Q1"), AdvanceClock(900)],
        post(AdvanceClock, end_with_first_queue),
    ),
    mutant(
        "M-CQS-015-a",
        "Without OVFLWSTR, overflow mode never ends as usage falls.",
        cfg(ovflwmax=50, ovflwstr=None),
        [put("Q1", 300), FAIL, get("Q1")],
        relief(lambda model, s: float("-inf")),
    ),
    mutant(
        "M-CQS-015-b",
        "Without OVFLWSTR, overflow mode ends once usage is below OVFLWMAX, not 20% below.",
        cfg(size=6158, ovflwmax=50, ovflwstr=None),
        [put("Q1", 0), put("Q1", 2432), FAIL, get("Q1")],
        relief(lambda model, s: s.defn.effective_ovflwmax - 1e-9),
    ),
    mutant(
        "M-CQS-016-a",
        "A resource structure goes through overflow processing like a queue structure.",
        cfg(ovflwstr=None, resource=True),
        [put("Q1", 600)],
        setup(
            lambda m: (
                [setattr(s, "defn", force_evolve(s.defn, {"resource": False})) for s in m.structures.values()] and None
            )
        ),
    ),
    mutant(
        "M-CQS-016-b",
        "The mq profile accepts a CFSTRUCT with CQS overflow fields.",
        Config(),
        [DefineStructure(StructureDef("APP2", ovflwstr="OVFL"))],
        lenient(DefineStructure, "CQS-016", define_structure_unchecked),
    ),
    mutant(
        "M-CQS-017-a",
        "Messages longer than LGMSGSZ are stored whole, not in parts.",
        cfg(lgmsgsz=128),
        [put("Q1", 300), Inspect()],
        setup(lambda m: setattr(m, "lgmsgsz", 10**9)),
    ),
    mutant(
        "M-CQS-017-b",
        "The first part of a long message is also counted on the staging queue.",
        cfg(lgmsgsz=128),
        [put("Q1", 300), Inspect()],
        first_part_staged(),
    ),
    mutant(
        "M-CQS-018-a",
        "The staging queue is a candidate for overflow like any queue.",
        cfg(size=6151, lgmsgsz=128),
        [put("Q1", 1152), FAIL],
        chain(
            selecting(staging=True),
            rebound(
                AlterOutcome, _move=lambda model, s, names: cqs._move(model, s, [n for n in names if n in model.queues])
            ),
            post(AlterOutcome, without_pseudo_queue),
        ),
    ),
    mutant(
        "M-CQS-019-a",
        "Staging parts of a selected queue's messages move to the overflow structure too.",
        cfg(size=6151, lgmsgsz=128),
        [put("Q1", 1152), FAIL, Inspect()],
        rebound(AlterOutcome, _move=move_whole_messages),
    ),
    mutant(
        "M-CQS-020-a",
        "OVFLWMAX is compared with list-entry usage instead of data elements.",
        cfg(),
        [put("Q1", 600), Inspect()],
        rebound(Put, _threshold_reached=lambda model, s, *_: entries_pct(model, s) >= s.defn.effective_ovflwmax),
    ),
    mutant(
        "M-CQS-020-b",
        "OVFLWMAX is compared with combined entry and element storage.",
        cfg(),
        [put("Q1", 600), Inspect()],
        rebound(Put, _threshold_reached=lambda model, s, *_: model.usage(s, "combined") >= s.defn.effective_ovflwmax),
    ),
    mutant(
        "M-CQS-020-c",
        "Mixed reading: data elements for the OVFLWMAX check, max(entries, elements) for leaving overflow mode.",
        cfg(size=6149, ratio=6, ovflwmax=50, ovflwstr=None),
        [put("Q1", 1152), put("Q1", 0), FAIL, get("Q1")],
        usage_metric_by_step("elements", "max"),
        mixes=("cqs_usage_metric",),
    ),
    mutant(
        "M-CQS-021-a",
        "LGMSGSZ is used as given, not rounded up to a multiple of 4.",
        cfg(lgmsgsz=126),
        [put("Q1", 128)],
        with_lgmsgsz(lambda v: min(v, 30632)),
    ),
    mutant(
        "M-CQS-021-b",
        "LGMSGSZ is not capped at 30632 bytes.",
        cfg(size=6400, lgmsgsz=32000),
        [put("Q1", 31000), Inspect()],
        with_lgmsgsz(lambda v: (v + 3) // 4 * 4),
    ),
    mutant(
        "M-CQS-021-c",
        "LGMSGSZ is rounded down to a multiple of 4.",
        cfg(lgmsgsz=126),
        [put("Q1", 128)],
        with_lgmsgsz(lambda v: min(v // 4 * 4, 30632)),
    ),
    mutant(
        "M-CQS-022-a",
        "New messages for a queue in overflow mode go to the primary structure.",
        cfg(),
        [put("Q1", 600), FAIL, put("Q1", 0)],
        pre(Put, primary_for_new),
    ),
)
