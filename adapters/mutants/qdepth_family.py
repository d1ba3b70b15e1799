"""Mutants of the queue depth event rules (QDEPTH-001..017), profile ``mq``.

Reproducers use MAXDEPTH 4 with QDEPTHHI(25) and QDEPTHLO(0), so that one put
reaches the high limit and one get the low limit under every
``qdepth_percent`` reading (``MAXDEPTH(0)`` makes the first put a Queue Full),
and one queue manager unless the rule is about the others.
"""

from __future__ import annotations

from typing import Any

from cfconform.reference_model import events, mq
from cfconform.reference_model.operations import (
    AlterQueue,
    Backout,
    Get,
    Inspect,
    Put,
    ResetQstats,
    StartQmgr,
    StopQmgr,
)
from cfconform.reference_model.outcomes import Outcome

from .kit import (
    Mutant,
    Patched,
    apply_queue_changes,
    lenient,
    mutant,
    post,
    pre,
    rebind,
    rebound,
)
from .mq_common import get, mq_config, put, qd, sd
from .qdepth_faults import (
    count,
    cumulative_message,
    defer_events_to_commit,
    depth_unlimited,
    firing,
    full_one_early,
    full_when_filled,
    group_totals_message,
    ignoring_switch,
    low_on_put,
    q_full_reason,
    qfull_disables_hi_on_shared,
    reject_maxdepth_zero,
    restore_switches_on_backout,
    stopped_stay_silent,
    thresholds,
    toggle_variant,
)

ON = {"qdphiev": True, "qdploev": True, "qdpmaxev": True}


def q1(**fields: Any) -> Any:
    """Shared queue Q1 on APP1, MAXDEPTH(4) QDEPTHHI(25) QDEPTHLO(0), switches off unless given."""
    return qd("Q1", **{"maxdepth": 4, "qdepthhi": 25, "qdepthlo": 0, **fields})


def cfg(*queues: Any, **kw: Any) -> Any:
    return mq_config(sd(), queues=list(queues) or [q1(qdphiev=True)], **kw)


TWO_QMGRS = ("QM01", "QM02")


def _in_definition_order(model: Any, op: Any, out: Outcome) -> Outcome:
    """Event messages listed in the group's definition order, whoever detected the event."""
    order = list(model.qmgrs)
    out.events = tuple(sorted(out.events, key=lambda e: order.index(e.qmgr)))
    return out


def reset_everyone(model: Any, op: ResetQstats, out: Outcome) -> Outcome:
    """M-QDEPTH-017-b: every queue manager's statistics for the queue restart."""
    q = model.queues[op.queue]
    for name in q.stats:
        q.stats[name] = [0, 0]
    return out


MUTANTS: tuple[Mutant, ...] = (
    # QDEPTH-001: Queue Depth High
    mutant(
        "M-QDEPTH-001-a",
        "Queue Depth High only when depth exceeds QDEPTHHI, not when it reaches it.",
        cfg(),
        [put()],
        thresholds(high=lambda d, pct, md, reading: 100 * d > pct * md),
    ),
    mutant(
        "M-QDEPTH-001-b",
        "Queue Depth High is raised although QDPHIEV is DISABLED.",
        cfg(q1()),
        [put()],
        ignoring_switch(Put, "hi", "QDPHI"),
    ),
    # QDEPTH-002: Queue Depth Low
    mutant(
        "M-QDEPTH-002-a",
        "Queue Depth Low only when depth falls below QDEPTHLO, not when it reaches it.",
        cfg(q1(qdploev=True)),
        [put(), get()],
        thresholds(low=lambda d, pct, md, reading: 100 * d < pct * md),
    ),
    mutant(
        "M-QDEPTH-002-b",
        "Queue Depth Low is also checked on puts.",
        cfg(q1(qdploev=True, qdepthlo=50)),
        [put()],
        post(Put, low_on_put),
    ),
    mutant(
        "M-QDEPTH-002-c",
        "Queue Depth Low is raised although QDPLOEV is DISABLED.",
        cfg(q1()),
        [put(), get()],
        ignoring_switch(Get, "lo", "QDPLO"),
    ),
    # QDEPTH-003: Queue Full
    mutant(
        "M-QDEPTH-003-a",
        "No Queue Full event: the rejected put is all that happens.",
        cfg(q1(maxdepth=0, qdpmaxev=True)),
        [put()],
        rebound(
            Put,
            _queue_full=rebind(
                mq._queue_full,
                events=Patched(
                    events, fire=lambda m, q, kind, det: () if kind == "QFULL" else events.fire(m, q, kind, det)
                ),
            ),
        ),
    ),
    mutant(
        "M-QDEPTH-003-b",
        "Queue Full is raised by the put that fills the queue, not the first one rejected.",
        cfg(q1(maxdepth=1, qdpmaxev=True)),
        [put()],
        post(Put, full_when_filled),
    ),
    mutant(
        "M-QDEPTH-003-c",
        "Queue Full is raised although QDPMAXEV is DISABLED.",
        cfg(q1(maxdepth=0)),
        [put()],
        ignoring_switch(Put, "max", "QFULL"),
    ),
    # QDEPTH-004: High event switches
    mutant(
        "M-QDEPTH-004-a",
        "A high event leaves QDPHIEV ENABLED (repeated high events).",
        cfg(),
        [put(), put()],
        firing(toggle=toggle_variant({"QDPHI": {"lo": True, "max": True}})),
    ),
    mutant(
        "M-QDEPTH-004-b",
        "A high event does not enable QDPLOEV.",
        cfg(),
        [put(), get()],
        firing(toggle=toggle_variant({"QDPHI": {"hi": False, "max": True}})),
    ),
    mutant(
        "M-QDEPTH-004-c",
        "A high event does not enable QDPMAXEV.",
        cfg(q1(qdphiev=True, maxdepth=1, qdepthhi=100)),
        [put(), put()],
        firing(toggle=toggle_variant({"QDPHI": {"hi": False, "lo": True}})),
    ),
    # QDEPTH-005: Low event switches
    mutant(
        "M-QDEPTH-005-a",
        "A low event does not enable QDPHIEV.",
        cfg(q1(qdploev=True)),
        [put(), get(), put()],
        firing(toggle=toggle_variant({"QDPLO": {"lo": False, "max": True}})),
    ),
    mutant(
        "M-QDEPTH-005-b",
        "A low event leaves QDPLOEV ENABLED.",
        cfg(q1(qdploev=True)),
        [put(), get(), Inspect()],
        firing(toggle=toggle_variant({"QDPLO": {"hi": True, "max": True}})),
    ),
    mutant(
        "M-QDEPTH-005-c",
        "A low event does not enable QDPMAXEV.",
        cfg(q1(qdploev=True)),
        [put(), get(), Inspect()],
        firing(toggle=toggle_variant({"QDPLO": {"hi": True, "lo": False}})),
    ),
    # QDEPTH-006: Full event switches
    mutant(
        "M-QDEPTH-006-a",
        "A Queue Full event leaves QDPMAXEV ENABLED (repeated Queue Full events).",
        cfg(q1(maxdepth=0, qdpmaxev=True)),
        [put(), put()],
        firing(toggle=toggle_variant({"QFULL": {"lo": True}})),
    ),
    mutant(
        "M-QDEPTH-006-b",
        "A Queue Full event does not enable QDPLOEV.",
        cfg(q1(maxdepth=0, qdpmaxev=True)),
        [put(), Inspect()],
        firing(toggle=toggle_variant({"QFULL": {"max": False}})),
    ),
    mutant(
        "M-QDEPTH-006-c",
        "A Queue Full event enables QDPHIEV.",
        cfg(q1(maxdepth=0, qdpmaxev=True)),
        [put(), Inspect()],
        firing(toggle=toggle_variant({"QFULL": {"hi": True, "lo": True, "max": False}})),
    ),
    mutant(
        "M-QDEPTH-006-d",
        "Mixed reading: Queue Full disables QDPHIEV on shared queues only.",
        cfg(
            q1(maxdepth=0, qdphiev=True, qdpmaxev=True),
            qd("Q2", None, qmgr="QM01", maxdepth=0, qdphiev=True, qdpmaxev=True),
        ),
        [put(), put(queue="Q2"), Inspect()],
        firing(toggle=qfull_disables_hi_on_shared),
        mixes=("qfull_hi_flag",),
    ),
    # QDEPTH-007: shared queues toggle even with PERFMEV DISABLED
    mutant(
        "M-QDEPTH-007-a",
        "Shared-queue switches are not toggled when the detecting queue manager has PERFMEV(DISABLED).",
        cfg(perfmev_disabled=("QM01",)),
        [put(), Inspect()],
        firing(shared_toggle_needs_perfmev=True),
    ),
    # QDEPTH-008: nonshared queues: nothing while PERFMEV DISABLED
    mutant(
        "M-QDEPTH-008-a",
        "A nonshared queue's switches toggle while PERFMEV is DISABLED.",
        cfg(qd("Q1", None, qmgr="QM01", maxdepth=4, qdepthhi=25, qdphiev=True), perfmev_disabled=("QM01",)),
        [put(), Inspect()],
        firing(nonshared_toggles_anyway=True),
    ),
    mutant(
        "M-QDEPTH-008-b",
        "A nonshared queue issues event messages while PERFMEV is DISABLED.",
        cfg(qd("Q1", None, qmgr="QM01", maxdepth=4, qdepthhi=25, qdphiev=True), perfmev_disabled=("QM01",)),
        [put()],
        firing(nonshared_ignores_perfmev=True),
    ),
    # QDEPTH-009: the detecting queue manager issues an event message with a new CorrelId
    mutant(
        "M-QDEPTH-009-a",
        "Every event message carries the same CorrelId.",
        cfg(q1(qdphiev=True)),
        [put(), get()],
        firing(correl="same"),
    ),
    mutant(
        "M-QDEPTH-009-b",
        "The detecting queue manager issues no event message.",
        cfg(),
        [put()],
        firing(coordinator_issues=False),
    ),
    mutant(
        "M-QDEPTH-009-c",
        "The first queue manager of the group issues its event message first, not the one that detected "
        "the event (the coordinator issues its own, then broadcasts).",
        cfg(qmgrs=TWO_QMGRS),
        [put(qmgr="QM02")],
        post(Put, _in_definition_order),
    ),
    # QDEPTH-010: every other active PERFMEV-enabled queue manager issues one with the same CorrelId
    mutant(
        "M-QDEPTH-010-a",
        "Each queue manager's event message gets a CorrelId of its own.",
        cfg(qmgrs=TWO_QMGRS),
        [put()],
        firing(correl="each"),
    ),
    mutant(
        "M-QDEPTH-010-b",
        "Only the detecting queue manager issues an event message.",
        cfg(qmgrs=TWO_QMGRS),
        [put()],
        firing(others=lambda model, m: False),
    ),
    mutant(
        "M-QDEPTH-010-c",
        "Queue managers with PERFMEV(DISABLED) issue event messages too.",
        cfg(qmgrs=TWO_QMGRS, perfmev_disabled=("QM02",)),
        [put()],
        firing(others=lambda model, m: m.active),
    ),
    mutant(
        "M-QDEPTH-010-d",
        "Mixed reading: high events are broadcast always, low events only if the coordinator has PERFMEV(ENABLED).",
        cfg(q1(qdphiev=True), qmgrs=TWO_QMGRS, perfmev_disabled=("QM01",)),
        [put(), get()],
        firing(broadcast=lambda kind: "always" if kind == "QDPHI" else "if-coordinator-enabled"),
        mixes=("event_broadcast",),
    ),
    # QDEPTH-011: statistics since the last event message
    mutant(
        "M-QDEPTH-011-a",
        "MsgEnqCount/MsgDeqCount are not reset by an event message (cumulative).",
        cfg(q1(qdphiev=True)),
        [put(), get()],
        firing(message=cumulative_message),
    ),
    mutant(
        "M-QDEPTH-011-b",
        "Each event message carries the group's totals, not its queue manager's.",
        cfg(q1(qdepthhi=50, qdphiev=True), qmgrs=TWO_QMGRS),
        [put(qmgr="QM02"), put()],
        firing(message=group_totals_message),
    ),
    # QDEPTH-012: events outside syncpoint
    mutant(
        "M-QDEPTH-012-a",
        "A backout restores the event switches.",
        cfg(),
        [put(syncpoint=True), Backout("QM01"), put()],
        restore_switches_on_backout(),
    ),
    mutant(
        "M-QDEPTH-012-b",
        "Events of puts under syncpoint are held until commit.",
        cfg(),
        [put(syncpoint=True)],
        defer_events_to_commit(),
    ),
    # QDEPTH-013: percent-to-count conversion (real, floor or ceil)
    mutant(
        "M-QDEPTH-013-a",
        "QDEPTHHI percent is rounded to the nearest count.",
        cfg(q1(maxdepth=10, qdepthhi=12, qdphiev=True), qd("Q2", maxdepth=10, qdepthhi=17, qdphiev=True)),
        [put(), put(queue="Q2")],
        thresholds(high=lambda d, pct, md, reading: d >= count(pct, md, "nearest")),
    ),
    mutant(
        "M-QDEPTH-013-b",
        "The limit is computed as QDEPTHHI // 100 * MAXDEPTH (integer division first).",
        cfg(q1(maxdepth=10, qdepthhi=50, qdphiev=True)),
        [put()],
        thresholds(high=lambda d, pct, md, reading: d >= count(pct, md, "intdiv")),
    ),
    mutant(
        "M-QDEPTH-013-c",
        "Mixed reading: floor for QDEPTHHI, ceil for QDEPTHLO.",
        cfg(q1(maxdepth=10, qdepthhi=15, qdepthlo=5, qdphiev=True)),
        [put(), put(), get()],
        thresholds(
            high=lambda d, pct, md, reading: d >= count(pct, md, "floor"),
            low=lambda d, pct, md, reading: d <= count(pct, md, "ceil"),
        ),
        mixes=("qdepth_percent",),
    ),
    # QDEPTH-014: ranges
    mutant(
        "M-QDEPTH-014-a",
        "QDEPTHHI above 100 is accepted.",
        cfg(),
        [AlterQueue("Q1", {"qdepthhi": 101})],
        lenient(AlterQueue, "QDEPTH-014", apply_queue_changes),
    ),
    mutant(
        "M-QDEPTH-014-b",
        "MAXDEPTH above 999999999 is accepted.",
        cfg(),
        [AlterQueue("Q1", {"maxdepth": 1_000_000_000})],
        lenient(AlterQueue, "QDEPTH-014", apply_queue_changes),
    ),
    mutant(
        "M-QDEPTH-014-c",
        "MAXDEPTH(0) is rejected.",
        cfg(),
        [AlterQueue("Q1", {"maxdepth": 0})],
        pre(AlterQueue, reject_maxdepth_zero),
    ),
    # QDEPTH-015: a put to a queue at MAXDEPTH fails with 2053
    mutant("M-QDEPTH-015-a", "MAXDEPTH is not enforced.", cfg(q1(maxdepth=0)), [put()], pre(Put, depth_unlimited)),
    mutant(
        "M-QDEPTH-015-b",
        "The queue is full one message early (depth + 1 >= MAXDEPTH).",
        cfg(q1(maxdepth=1)),
        [put()],
        pre(Put, full_one_early),
    ),
    mutant(
        "M-QDEPTH-015-c",
        "A put to a full queue fails with 2192 instead of 2053.",
        mq_config(sd(size=8192), queues=[q1(maxdepth=0)]),  # plenty of room (Table 2): not a full structure
        [Inspect(), put()],
        post(Put, q_full_reason),
    ),
    # QDEPTH-016: inactive queue managers issue no event messages
    mutant(
        "M-QDEPTH-016-a",
        "A stopped queue manager still issues event messages.",
        cfg(qmgrs=TWO_QMGRS),
        [StopQmgr("QM02"), put()],
        firing(others=lambda model, m: m.perfmev),
    ),
    mutant(
        "M-QDEPTH-016-b",
        "A restarted queue manager is still taken as inactive: it issues no event messages.",
        cfg(qmgrs=TWO_QMGRS),
        [StopQmgr("QM02"), StartQmgr("QM02"), put()],
        stopped_stay_silent(),
    ),
    # QDEPTH-017: RESET QSTATS restarts the issuing queue manager's counts
    mutant(
        "M-QDEPTH-017-a",
        "RESET QSTATS is acknowledged but resets nothing.",
        cfg(q1(qdepthhi=50, qdphiev=True)),
        [put(), ResetQstats("QM01", "Q1"), put()],
        pre(ResetQstats, lambda model, op: Outcome("reset_qstats", rules=("QDEPTH-017",))),
    ),
    mutant(
        "M-QDEPTH-017-b",
        "RESET QSTATS resets every queue manager's counts, not only the issuing one's.",
        cfg(q1(qdepthhi=50, qdphiev=True), qmgrs=TWO_QMGRS),
        [put(qmgr="QM02"), ResetQstats("QM01", "Q1"), put()],
        post(ResetQstats, reset_everyone),
    ),
)
