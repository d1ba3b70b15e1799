"""Mutants of the CFLEVEL rules (CFLEVEL-001..009), profile ``mq``: one row each (:func:`.kit.family`).

Reproducers put one message (persistent, or longer than 63 KB, or longer than MAXMSGL) or alter one structure;
mixed-reading mutants use two structures of different CFLEVELs so that each reason-code reading is pinned by one
put.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from cfconform.reference_model import admin, mq
from cfconform.reference_model import outcomes as rc
from cfconform.reference_model.model import Model
from cfconform.reference_model.operations import AlterStructure, Put
from cfconform.reference_model.outcomes import Outcome
from cfconform.reference_model.state import Structure
from cfconform.reference_model.units import SIZE_63_75K, SIZE_63K

from .kit import family, lenient, reason_for, rebind, rebound, refuse
from .mq_common import INSPECT, alter, deciding, mq_config, one, put, qd, reject_alter, rules, sd, structure_of


def as_nonpersistent(when: Callable[[Structure], bool]) -> Callable[[Model], None]:
    """MQPUT's refusals without the persistence checks on structures where ``when`` holds."""

    def refusal(model: Model, op: Put, q: Any, s: Structure | None) -> list[Outcome]:
        if op.persistent and s is not None and not s.failed and when(s):
            op = attrs.evolve(op, persistent=False)
        return mq._refusals(model, op, q, s)

    return rebound(Put, _refusals=refusal)


def _cflevel_is(*levels: int) -> Any:
    return lambda model, op: structure_of(model, op.queue).defn.cflevel in levels  # type: ignore[union-attr]


# fmt: off
MUTANTS = family(
    "CFLEVEL",
    ("001-a", "CFLEVEL(6) is accepted.", one(cflevel=3), [alter(cflevel=6)], lenient(AlterStructure, "CFLEVEL-001")),
    ("001-b", "CFLEVEL(5) is rejected (upper bound taken as exclusive).", one(cflevel=4), [alter(cflevel=5)],
     reject_alter(lambda c: c.get("cflevel") == 5, "CFLEVEL-001")),
    ("002-a", "Persistent messages are accepted at CFLEVEL(2).", one(cflevel=2), [put(persistent=True)],
     as_nonpersistent(lambda s: s.defn.cflevel <= 2)),
    ("002-b", "A persistent put at CFLEVEL(2) fails with 2030 (neither 2048 nor 2366).", one(cflevel=2),
     [put(persistent=True)], reason_for(Put, "CFLEVEL-002", rc.MQRC_MSG_TOO_BIG_FOR_Q)),
    ("002-c", "Mixed reading: 2048 at CFLEVEL(1) but 2366 at CFLEVEL(2).",
     mq_config(sd("APP1", cflevel=1), sd("APP2", cflevel=2)), [put(persistent=True), put(queue="Q2", persistent=True)],
     reason_for(Put, "CFLEVEL-002", rc.MQRC_WRONG_CF_LEVEL, _cflevel_is(2)), ("persistent_low_cflevel_rc",)),
    ("003-a", "CFLEVEL(3) accepts messages up to 63.75 KB.", one(size=6400, ratio=255, cflevel=3), [put(65000)],
     rebound(Put, _refusals=rebind(mq._refusals, _over_63k=rebind(mq._over_63k, SIZE_63K=SIZE_63_75K)))),
    # plenty of room (Table 2): 2192 cannot be a full structure
    ("003-c", "A put over 63 KB at CFLEVEL(3) fails with 2192 (neither 2366 nor 2030).",
     one(cflevel=3, size=8192), [INSPECT, put(65000)], reason_for(Put, "CFLEVEL-003", rc.MQRC_STORAGE_MEDIUM_FULL)),
    ("003-d", "Mixed reading: 2030 at CFLEVEL(2) but 2366 at CFLEVEL(3).",
     mq_config(sd("APP1", cflevel=2), sd("APP2", cflevel=3)), [put(65000), put(65000, "Q2")],
     reason_for(Put, "CFLEVEL-003", rc.MQRC_MSG_TOO_BIG_FOR_Q, _cflevel_is(1, 2)), ("large_low_cflevel_rc",)),
    ("004-a", "A persistent put to a RECOVER(NO) structure is accepted.", one(cflevel=3), [put(persistent=True)],
     as_nonpersistent(lambda s: s.defn.cflevel >= 3 and not s.defn.recover)),
    ("004-b", "CFLEVEL(3) is treated like CFLEVEL(2): persistent puts fail even with RECOVER(YES).",
     one(cflevel=3, recover=True), [put(persistent=True)],
     refuse(Put, lambda m, op: op.persistent and structure_of(m, op.queue) is not None and _cflevel_is(3)(m, op),
            rc.MQRC_PERSISTENT_NOT_ALLOWED, "CFLEVEL-002")),
    ("004-c", "A persistent put to a RECOVER(NO) structure fails with 2366 instead of 2048.", one(cflevel=3),
     [put(persistent=True)], reason_for(Put, "CFLEVEL-004", rc.MQRC_WRONG_CF_LEVEL)),
    ("005-a", "CFLEVEL(4) still rejects messages over 63 KB.", one(cflevel=4), [put(70000)],
     refuse(Put, lambda m, op: (s := structure_of(m, op.queue)) is not None and not s.failed and s.defn.cflevel < 5
            and op.length > SIZE_63K, rc.MQRC_WRONG_CF_LEVEL, "CFLEVEL-003")),
    ("006-a", "The offload rules are applied at CFLEVEL(4) too.", one(cflevel=4, **rules((0, 0), None, None)),
     [put(1), put(1)], deciding(RULES_LEVEL=4)),
    ("006-b", "The offload rules are not applied at CFLEVEL(5) (only the forced offload).",
     one(**rules((0, 0), None, None)), [put(1), put(1)], deciding(RULES_LEVEL=6)),
    ("008-a", "MAXMSGL is not enforced.", mq_config(queues=[qd(maxmsgl=100)]), [put(101)],
     rebound(Put, _refusals=lambda *a: [o for o in mq._refusals(*a) if "CFLEVEL-008" not in o.rules])),
    ("008-b", "A message of exactly MAXMSGL bytes is rejected.", mq_config(queues=[qd(maxmsgl=100)]), [put(100)],
     refuse(Put, lambda m, op: op.length == m.queues[op.queue].defn.maxmsgl, rc.MQRC_MSG_TOO_BIG_FOR_Q, "CFLEVEL-008")),
    ("009-a", "CFLEVEL can be decreased while messages are on the structure.", one(cflevel=3),
     [put(), alter(cflevel=2)], rebound(AlterStructure, _in_use=lambda model, s: False)),
    ("009-b", "CFLEVEL cannot be decreased even when every queue is empty.", one(cflevel=3), [alter(cflevel=2)],
     rebound(AlterStructure, _in_use=lambda model, s: True)),
    ("009-c", "Uncommitted puts do not count when checking that the queues are empty.", one(cflevel=3),
     [put(syncpoint=True), alter(cflevel=2)],
     rebound(AlterStructure, _in_use=lambda m, s: any(not x.uncommitted for q in m.queues.values()
                                                      if q.defn.cfstruct == s.defn.name for x in q.msgs))),
    ("009-d", "Only a decrease to below CFLEVEL(3) needs empty queues (4 to 3 is let through).", one(cflevel=4),
     [put(), alter(cflevel=3)],
     rebound(AlterStructure, _guarded=lambda m, old, new: new < 3 and admin._guarded(m, old, new))),
)
# fmt: on
