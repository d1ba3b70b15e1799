"""Deliberately faulty in-process adapters for the gate tests (specs ``tests.gate.faulty:NAME``)."""

from __future__ import annotations

import time
from typing import Any

import attrs

from cfconform.adapters.mutants import get_mutant
from cfconform.adapters.protocol import AdapterError, Capabilities, NotSupported
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.reference_model import operations as o
from cfconform.reference_model.outcomes import Outcome
from cfconform.reference_model.readings import Readings


class _Faulty(ReferenceAdapter):
    """The reference model under the class's own name."""

    def __init__(self, readings: Readings | None = None, name: str | None = None) -> None:
        super().__init__(readings, name=name or type(self).__name__)


class DropEvents(_Faulty):
    """Never issues queue depth event messages (breaks QDEPTH-001, the event trigger, and the message rules)."""

    def apply(self, op: Any) -> Outcome:
        out = super().apply(op)
        return attrs.evolve(out, events=()) if out.events else out


class FlipOffloaded(_Faulty):
    """Reports every successful MQ put's ``offloaded`` flag inverted (breaks the OFFLOAD rules)."""

    def apply(self, op: Any) -> Outcome:
        out = super().apply(op)
        return attrs.evolve(out, offloaded=not out.offloaded) if out.offloaded is not None else out


class Crashes(_Faulty):
    """Crashes on every operation: the gate must give an adapter-fault verdict (exit 3), not crash itself."""

    def apply(self, op: Any) -> Outcome:
        raise RuntimeError("implementation crashed")

    def apply_batch(self, ops: Any) -> list[Outcome]:
        raise RuntimeError("implementation crashed")


class MQOnly(_Faulty):
    """A conforming implementation that claims only the mq profile."""

    def capabilities(self) -> Capabilities:
        return attrs.evolve(super().capabilities(), profiles=("mq",))


class KeepsStateOnReopen(_Faulty):
    """Ignores every ``open`` after the first: state leaks from one test case into the next."""

    def open(self, config: Any) -> None:
        if self.model is None:
            super().open(config)


class RefusesAdministration(MQOnly):
    """A conforming implementation of queue operations that answers structure administration and
    SETXCF ALTER "not supported" (wire error 10), as docs/PROTOCOL.md allows."""

    def capabilities(self) -> Capabilities:
        return attrs.evolve(super().capabilities(), families=("QUEUE", "QDEPTH", "OFFLOAD", "CFLEVEL"))

    def apply(self, op: Any) -> Outcome:
        if isinstance(op, o.AlterStructure | o.DefineStructure | o.SetxcfAlter):
            raise NotSupported(f"{op.KIND} is not implemented")
        return super().apply(op)


class NoCapacityClaim:
    """M-CAPACITY-001-a (puts never fail for lack of storage), claiming every family but CAPACITY."""

    def __init__(self) -> None:
        self.mutant = get_mutant("M-CAPACITY-001-a")

    def capabilities(self) -> Capabilities:
        families = tuple(f for f in self.mutant.capabilities().families if f != "CAPACITY")
        return attrs.evolve(self.mutant.capabilities(), families=families, profiles=("mq",))

    def open(self, config: Any) -> None:
        self.mutant.open(config)

    def apply(self, op: Any) -> Outcome:
        return self.mutant.apply(op)

    def apply_batch(self, ops: Any) -> list[Outcome]:
        return self.mutant.apply_batch(ops)

    def close(self) -> None:
        self.mutant.close()


class FailsThirdOperation(_Faulty):
    """Answers its third operation with an error naming position 0 (as a one-operation wire call does)."""

    def open(self, config: Any) -> None:
        super().open(config)
        self.applied = 0

    def apply(self, op: Any) -> Outcome:
        self.applied += 1
        if self.applied == 3:
            raise AdapterError("lost", step=0)
        return super().apply(op)


class ClaimsNothing(_Faulty):
    """A conforming implementation that claims no rule family: nothing can be judged (exit 4)."""

    def capabilities(self) -> Capabilities:
        return attrs.evolve(super().capabilities(), families=())


class Slow(_Faulty):
    """A conforming implementation that takes 50 ms to open each case: a run long enough to watch its
    progress lines (a dev profile run of one profile: about 5 s more)."""

    def open(self, config: Any) -> None:
        time.sleep(0.05)
        super().open(config)
