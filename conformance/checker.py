"""The one checker: judges each observed outcome against the model (DEVELOPERS.md, principle 5).

Hypothesis machines, Spark campaigns and replays all feed it ``(op, observed)``
pairs.  It keeps every *reading vector* (one admissible reading per ambiguity,
see :mod:`reference_model.readings`) still consistent with the trace: readings
the adapter declared are fixed, the others are inferred.  A step fails only
when no admissible reading vector explains the whole trace so far, so an
implementation that follows one reading consistently conforms and one that
mixes readings does not (principle 3).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import attrs

from adapters.protocol import Capabilities
from conformance.blame import blame
from conformance.compare import CorrelMap, FieldDiff, compare
from reference_model.config import Config
from reference_model.model import Model
from reference_model.operations import Backout, Commit, FailStructure, Get, Inspect, Put, StopQmgr
from reference_model.outcomes import Outcome
from reference_model.readings import AMBIGUITIES, Readings

#: Readings vectors explored per failing step before giving up (bounds the search).
MAX_ALTERNATIVES = 400
MAX_ALIVE = 32
_INVALIDATING = (Commit, Backout, StopQmgr, FailStructure)


@attrs.frozen
class StepVerdict:
    """The checker's judgement of one step."""

    index: int
    expected: Outcome
    observed: Outcome
    diff: FieldDiff | None
    rules: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return self.diff is None


class _Candidate:
    """One reading vector with its own model, view of usage and CorrelId map."""

    __slots__ = ("correl", "model", "readings", "view")

    def __init__(self, config: Config, readings: Readings) -> None:
        self.readings = readings
        self.model = Model(attrs.evolve(config, readings=readings))
        self.view: dict[str, tuple[int, int, int, int]] = {}
        self.correl = CorrelMap()

    def step(self, op: Any, observed: Outcome, caps: Capabilities) -> tuple[Outcome, FieldDiff | None]:
        expected = self.model.step(op, self.view or None)
        diff = compare(expected, observed, caps.observes, caps.reason_codes, self.correl)
        self._sync_view(op, observed)
        return expected, diff

    def _sync_view(self, op: Any, observed: Outcome) -> None:
        """Decisions follow the implementation's own reported usage (principle 4)."""
        if isinstance(op, _INVALIDATING):
            self.view.clear()
        elif isinstance(op, Inspect) and isinstance(observed.value, Mapping):
            for name, s in (observed.value.get("structures") or {}).items():
                pools = tuple(s.get(k) for k in ("entries_used", "entries_total", "elements_used", "elements_total"))
                if all(isinstance(v, int) for v in pools):
                    self.view[name] = pools  # type: ignore[assignment]
        elif observed.usage is not None:
            name = _structure_of(self.model, op)
            if name is not None:
                self.view[name] = tuple(observed.usage)  # type: ignore[assignment]
            else:
                self.view.clear()


def _structure_of(model: Model, op: Any) -> str | None:
    if isinstance(op, Put | Get):
        q = model.queues.get(op.queue)
        return q.defn.cfstruct if q else None
    return getattr(op, "cfstruct", None) or getattr(op, "name", None)


class Checker:
    """Checks a trace step by step; see the module docstring."""

    def __init__(self, config: Config, caps: Capabilities) -> None:
        self.config = config
        self.caps = caps
        self.fixed = {k: v for k, v in caps.readings.items() if v != "unknown" and k in AMBIGUITIES}
        base = Readings(**self.fixed)
        self.alive: list[_Candidate] = [_Candidate(config, base)]
        self.history: list[tuple[Any, Outcome]] = []
        self.failed: StepVerdict | None = None
        self.pinned: set[str] = set(self.fixed)

    def check(self, op: Any, observed: Outcome) -> StepVerdict:
        """Judge one step; after a failure, later steps are not judged."""
        if self.failed is not None:
            return self.failed
        index = len(self.history)
        self.history.append((op, observed))
        survivors, first = [], None
        for cand in self.alive:
            expected, diff = cand.step(op, observed, self.caps)
            first = first or (expected, diff)
            if diff is None:
                survivors.append((cand, expected))
        if not survivors:
            survivors = self._search(first[0].rules, first[1])  # type: ignore[index]
        if not survivors:
            expected, diff = first  # type: ignore[misc]
            self.failed = StepVerdict(index, expected, observed, diff, blame(expected, observed, diff))
            return self.failed
        before = self.alive[0].readings
        self.alive = [c for c, _ in survivors][:MAX_ALIVE]
        self.pinned |= {k for k in AMBIGUITIES if getattr(self.alive[0].readings, k) != getattr(before, k)}
        expected = survivors[0][1]
        return StepVerdict(index, expected, observed, None, expected.rules + self._usage_checked(expected))

    def _usage_checked(self, expected: Outcome) -> tuple[str, ...]:
        """SIZING-005 when the step's usage was compared (within the tolerance): a step exercises the
        accounting rule whenever it reports usage, whatever rule decided its outcome."""
        if "usage" in self.caps.observes and expected.usage is not None and "SIZING-005" not in expected.rules:
            return ("SIZING-005",)
        return ()

    def readings_followed(self) -> dict[str, list[str]]:
        """Per ambiguity, the readings still consistent with the trace.

        An ambiguity the trace never had to decide (declared readings aside)
        lists every reading: nothing has distinguished them yet.
        """
        out: dict[str, list[str]] = {}
        for key, amb in AMBIGUITIES.items():
            if key in self.pinned:
                out[key] = sorted({getattr(c.readings, key) for c in self.alive})
            else:
                out[key] = list(amb.readings)
        return out

    # -- interpretation inference ---------------------------------------------------
    def _search(self, rules: tuple[str, ...], diff: FieldDiff | None) -> list[tuple[_Candidate, Outcome]]:
        """Find reading vectors that explain the whole trace; nearest (fewest changes) first."""
        free = [k for k in AMBIGUITIES if k not in self.fixed]
        relevant = [k for k in free if set(AMBIGUITIES[k].rules) & set(rules)]
        tried: set[Readings] = {c.readings for c in self.alive}
        budget = MAX_ALTERNATIVES
        for keys, depth in ((relevant, 1), (free, 1), (relevant, 2), (free, 2)):
            found = []
            for vector in self._neighbours(keys, depth):
                if vector in tried:
                    continue
                tried.add(vector)
                budget -= 1
                hit = self._replay(vector)
                if hit is not None:
                    found.append(hit)
                if budget <= 0:
                    return found
            if found:
                return found
        return []

    def _neighbours(self, keys: list[str], depth: int):
        for cand in list(self.alive):
            base = cand.readings.as_dict()
            for combo in itertools.combinations(keys, depth):
                choices = [[r for r in AMBIGUITIES[k].readings if r != base[k]] for k in combo]
                for values in itertools.product(*choices):
                    yield Readings(**{**base, **dict(zip(combo, values, strict=True))})

    def _replay(self, readings: Readings) -> tuple[_Candidate, Outcome] | None:
        cand = _Candidate(self.config, readings)
        expected = None
        for op, observed in self.history:
            expected, diff = cand.step(op, observed, self.caps)
            if diff is not None:
                return None
        return cand, expected  # type: ignore[return-value]
