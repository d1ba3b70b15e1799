"""TOPOLOGY-006/007/008/010 judged on behaviour, not only on configurations (issue 23).

The CFRM name and CSQ_ADMIN's figures are optional ``inspect`` keys (docs/PROTOCOL.md, Inspect):
judged when reported, never required.  TOPOLOGY-006 is named by every put and get on a shared
queue while 32 queue managers are defined, so a refusal then blames it.
"""

from __future__ import annotations

from typing import Any

import attrs

from cfconform.adapters.reference import ReferenceAdapter
from cfconform.judge.runner import run_trace
from cfconform.reference_model import operations as o
from cfconform.reference_model.config import Config, QueueDef, StructureDef
from cfconform.reference_model.outcomes import Outcome
from cfconform.reference_model.topology import structure_name

CONFIG = Config(qsg="QS", structures=(StructureDef("APP1"),), queues=(QueueDef("Q0", cfstruct="APP1"),))
FULL_HOUSE = attrs.evolve(CONFIG, qmgrs=tuple(f"QM{i:02d}" for i in range(1, 33)))


class _Inspecting(ReferenceAdapter):
    """The reference, its ``inspect`` value changed by :meth:`change`."""

    def apply(self, op: Any) -> Outcome:
        out = super().apply(op)
        if isinstance(op, o.Inspect):
            value = dict(out.value)
            self.change(value)
            out = attrs.evolve(out, value=value)
        return out

    def change(self, value: dict[str, Any]) -> None:
        raise NotImplementedError


class NoTopologyKeys(_Inspecting):
    def change(self, value: dict[str, Any]) -> None:
        value.pop("admin", None)
        value["structures"] = {n: {k: v for k, v in s.items() if k != "cfname"} for n, s in value["structures"].items()}


class UnpaddedName(_Inspecting):
    """Forgets the @ padding of a short QSG name: QSAPP1 instead of QS@@APP1."""

    def change(self, value: dict[str, Any]) -> None:
        value["structures"] = {n: {**s, "cfname": "QS" + n} for n, s in value["structures"].items()}


class SmallAdmin(_Inspecting):
    """A CSQ_ADMIN with 999 list entries per queue manager."""

    def change(self, value: dict[str, Any]) -> None:
        value["admin"] = {**value["admin"], "entries_total": 999 * len(CONFIG.qmgrs)}


class RefusesTheLast(ReferenceAdapter):
    """Only 31 queue managers connect: the 32nd's puts are refused."""

    def apply(self, op: Any) -> Outcome:
        if isinstance(op, o.Put) and op.qmgr == "QM32":
            return Outcome("put", False, 2059)
        return super().apply(op)


def test_the_cfname_is_the_qsg_name_padded_with_at_signs_then_the_cfstruct():
    assert ("QS@@APP1", "SQ03MYDATA") == (structure_name("QS", "APP1"), structure_name("SQ03", "MYDATA"))


def test_an_implementation_reporting_no_cfname_nor_admin_conforms():
    assert run_trace(NoTopologyKeys(), CONFIG, [o.Inspect()]).verdict == "pass"


def test_a_cfname_without_the_padding_breaks_topology_010():
    result = run_trace(UnpaddedName(), CONFIG, [o.Inspect()])
    assert ("fail", ("TOPOLOGY-010",)) == (result.verdict, result.divergence.rules)


def test_a_csq_admin_with_fewer_than_1000_entries_per_qmgr_breaks_topology_007():
    result = run_trace(SmallAdmin(), CONFIG, [o.Inspect()])
    assert ("fail", "TOPOLOGY-007") == (result.verdict, result.divergence.rules[0])


def test_a_put_by_the_32nd_queue_manager_exercises_topology_006():
    result = run_trace(ReferenceAdapter(), FULL_HOUSE, [o.Put("QM32", "Q0", 10)])
    assert ("pass", 1) == (result.verdict, result.rules_exercised.get("TOPOLOGY-006"))


def test_refusing_the_32nd_queue_managers_put_blames_topology_006():
    result = run_trace(RefusesTheLast(), FULL_HOUSE, [o.Put("QM32", "Q0", 10)])
    assert ("fail", "TOPOLOGY-006") == (result.verdict, result.divergence.rules[0])
