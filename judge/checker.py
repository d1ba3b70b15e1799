"""The one checker: judges each observed outcome against the model (DEVELOPERS.md, principle 5).

Hypothesis machines, Spark campaigns and replays all feed it ``(op, observed)``
pairs.  It keeps every *reading vector* (one admissible reading per ambiguity,
see :mod:`cfconform.reference_model.readings`) still consistent with the trace: readings
the adapter declared are fixed, the others are inferred.  A step fails only
when no admissible reading vector explains the whole trace so far, so an
implementation that follows one reading consistently conforms and one that
mixes readings does not (principle 3).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from typing import Any

import attrs

from cfconform.adapters.protocol import Capabilities
from cfconform.reference_model.config import Config
from cfconform.reference_model.model import Model, Observed
from cfconform.reference_model.operations import (
    AlterOutcome,
    Backout,
    Commit,
    FailStructure,
    Get,
    Inspect,
    Put,
    SetxcfAlter,
    StopQmgr,
)
from cfconform.reference_model.outcomes import Outcome
from cfconform.reference_model.readings import AMBIGUITIES, Readings
from cfconform.reference_model.rules import RULE_BY_ID

from .blame import blame
from .compare import (
    CAPACITY_SIGNALS,
    COMPARISONS,
    CQS_SIGNALS,
    KNOWN_SIGNALS,
    CorrelMap,
    FieldDiff,
    compare,
)
from .refusals import REFUSABLE, before_refusal, refusable
from .relations import UsageRelations
from .seen import (
    adopt_contractions,
    adopt_selections,
    adopt_sizes,
    moved_off,
    of_overflow,
    off_primary,
    optional_judged,
    recovered_depth,
    released,
    reported,
    structure_of,
)

#: Readings vectors explored per failing step before giving up (bounds the search).
MAX_ALTERNATIVES = 400
MAX_ALIVE = 32
#: Deeper vectors tried where a shallower one made the model consult a new ambiguity (_led_on).
MAX_LED = 64
_INVALIDATING = (Commit, Backout, StopQmgr, FailStructure)
_PUT_GET = (Put, Get)
#: Operations an agreeing step still looks at (an alter outcome's moves, an inspect's optional fields).
_LAST_LOOK = (AlterOutcome, Inspect)


@attrs.define
class StepVerdict:
    """The checker's judgement of one step.

    A value: never mutate one.  Not frozen only because frozen initialisation costs several times
    more, and the checker makes one per step (benchmarks/campaign_throughput.py).
    """

    index: int
    expected: Outcome
    observed: Outcome
    diff: FieldDiff | None
    rules: tuple[str, ...]
    #: The implementation refused a command no sentence requires it to accept: not judged, the
    #: test case ends there "not supported" (principle 1, issue: a configuration no document bounds).
    refused: bool = False

    @property
    def ok(self) -> bool:
        return self.diff is None


class _Consulted:
    """A reading vector that records which ambiguities the model has consulted.

    A vector that differs from a candidate's only in ambiguities its model never consulted takes
    exactly the same steps, so the search need not replay it (:meth:`Checker._neighbours`)."""

    def __init__(self, readings: Readings) -> None:
        self._readings = readings
        self.used: set[str] = set()

    def __getattr__(self, name: str) -> str:
        """The first read of a reading is recorded and the value kept as an attribute of this
        object, so later reads are plain attribute reads (the model reads some at every step)."""
        self.used.add(name)
        value = getattr(self._readings, name)
        self.__dict__[name] = value
        return value


class _Candidate:
    """One reading vector with its own model and CorrelId map."""

    __slots__ = ("consulted", "correl", "model", "readings")

    def __init__(self, config: Config, readings: Readings) -> None:
        self.readings = readings
        self.model = Model(config.with_readings(readings))
        self.consulted = _Consulted(readings)
        self.model.readings = self.consulted  # type: ignore[assignment]
        self.correl = CorrelMap()

    def step(self, op: Any, observed: Outcome, hint: Observed, caps: Capabilities) -> tuple[Outcome, FieldDiff | None]:
        if isinstance(op, Inspect):
            adopt_selections(self.model, observed)
            adopt_contractions(self.model, observed)
        expected = self.model.step(op, None, hint)
        names = KNOWN_SIGNALS if hint.cqs_signals else CAPACITY_SIGNALS
        detector = getattr(op, "qmgr", None) if isinstance(op, _PUT_GET) else None
        diff = compare(expected, observed, caps.observes, caps.reason_codes, self.correl, names, detector)
        if isinstance(op, Inspect) and diff is None:
            adopt_sizes(self.model, observed)
        return expected, diff


@functools.lru_cache(maxsize=64)
def _start_readings(fixed: tuple[tuple[str, str], ...], start: Readings | None) -> Readings:
    """The readings a checker starts from: ``start``'s, the declared ones (``fixed``) winning.  The
    same for every trace of one implementation, so made once, not once a trace."""
    return Readings(**{**(start.as_dict() if start is not None else {}), **dict(fixed)})


class Checker:
    """Checks a trace step by step; see the module docstring."""

    def __init__(self, config: Config, caps: Capabilities, start: Readings | None = None) -> None:
        """``start``: the readings to try first (those an earlier trace of the same implementation
        was found to follow); the declared ones always win, and any others are searched as usual."""
        self.config = config
        self.caps = caps
        self.fixed = {k: v for k, v in caps.readings.items() if v != "unknown" and k in AMBIGUITIES}
        base = _start_readings(tuple(self.fixed.items()), start)
        self.alive: list[_Candidate] = [_Candidate(config, base)]
        self.history: list[tuple[Any, Outcome, Observed]] = []
        #: The implementation's usage per structure, as last reported and still current.
        self.view: dict[str, tuple[int, int, int, int]] = {}
        #: The entries and elements each structure offered when last reported (kept when its usage
        #: becomes unknown): what tells a report of the overflow structure from the primary's.
        self.totals: dict[str, tuple[int, ...]] = {}
        self.relations = UsageRelations()
        #: At a failing step: the expected outcome and divergence of the nearest reading vector.
        self.nearest: tuple[Outcome, FieldDiff] | None = None
        #: Whether the implementation has reported any of CQS's signals (they are optional).
        self.cqs_signals = False
        self.failed: StepVerdict | None = None
        self.pinned: set[str] = set(self.fixed)
        #: (the helpers that only judge the cqs profile are not called for the other)
        self._cqs = config.profile == "cqs"
        self._signals = "signals" in caps.observes

    def check(self, op: Any, observed: Outcome) -> StepVerdict:
        """Judge one step; after a failure, later steps are not judged."""
        if self.failed is not None:
            return self.failed
        index = len(self.history)
        model = self.alive[0].model
        structure = structure_of(model, op)
        after = reported(op, observed, structure)
        if after and self._cqs and of_overflow(model, op, self.totals, after.get(structure), self.view):
            after = {}  # (the structure the op touched may be the overflow structure: not the primary's)
        for name, pools in after.items():
            self.totals[name] = pools[1::2]
        if not self.cqs_signals and observed.signals:
            self.cqs_signals = any(sig.split(" ", 1)[0] in CQS_SIGNALS for sig in observed.signals)
        hint = Observed(observed, dict(self.view), after, self.cqs_signals, self._signals)
        self.history.append((op, observed, hint))
        broken = self._relations_broken(op, observed, model, structure, hint)
        if observed.ok and isinstance(op, Commit):
            for name in released(model, op.qmgr):
                self.relations.settled(name, hint.before.get(name))
        if isinstance(op, SetxcfAlter) and observed.ok and structure in model.structures:
            s = model.structures[structure]
            if s.size_known and not s.failed:
                self.relations.altered(structure, s.size_kb, op.size_kb, hint.before.get(structure))
        if isinstance(op, Inspect) and isinstance(observed.value, Mapping):
            broken = broken or self.relations.inspected(observed.value.get("structures"))
        self._sync_view(op, structure, after, observed.ok)
        if len(self.alive) == 1 and (observed.ok or getattr(op, "KIND", None) not in REFUSABLE):
            # (the usual step: one vector, nothing it may refuse refused; before_refusal keeps nothing)
            lead = self.alive[0]
            expected, diff = lead.step(op, observed, hint, self.caps)
            if diff is None and broken is None and not isinstance(op, _LAST_LOOK):  # (it agrees: judged)
                return StepVerdict(index, expected, observed, None, expected.rules)
            first = (expected, diff)
            survivors = [] if diff is not None else [(lead, expected)]
        else:
            survivors, first, held = [], None, []
            kept = before_refusal(self.alive, op, observed)
            for cand in self.alive:
                expected, diff = cand.step(op, observed, hint, self.caps)
                first = first or (expected, diff)
                if diff is None:
                    survivors.append((cand, expected))
                elif kept and refusable(cand.model, op, expected, observed):
                    held.append((cand, expected))
            if survivors:  # a refusal some reading explains leaves the others' state as it was, unpinned
                for cand, expected in held:
                    cand.model = kept[id(cand)]
                    survivors.append((cand, expected))
        if broken is None and isinstance(op, AlterOutcome):
            broken = moved_off(self.alive[0].model, op, first[0], hint, structure)  # type: ignore[index]
        if broken is not None:  # a relation of the implementation's own figures: no reading explains it
            expected = first[0]  # type: ignore[index]
            self.failed = StepVerdict(index, expected, observed, broken, broken.rules[:1])
            return self.failed
        if not survivors:
            self.nearest = first  # type: ignore[assignment]
            survivors = self._search(first[0].rules, first[1])  # type: ignore[index]
        if not survivors:
            expected, diff = self.nearest or first  # type: ignore[misc]
            refused = refusable(self.alive[0].model, op, expected, observed)
            rules = recovered_depth(self.alive[0].model, diff) + blame(expected, observed, diff)
            self.failed = StepVerdict(index, expected, observed, diff, tuple(dict.fromkeys(rules)), refused)
            return self.failed
        lead = self.alive[0]
        if len(survivors) != 1 or survivors[0][0] is not lead or len(self.alive) != 1:
            self.alive = [c for c, _ in survivors][:MAX_ALIVE]
            if self.alive[0].readings is not lead.readings:  # (the same vector: nothing newly pinned)
                new = self.alive[0].readings
                self.pinned |= {k for k in AMBIGUITIES if getattr(new, k) != getattr(lead.readings, k)}
        expected = survivors[0][1]
        rules = expected.rules + optional_judged(op, observed) if isinstance(op, Inspect) else expected.rules
        return StepVerdict(index, expected, observed, None, rules)

    def _relations_broken(
        self, op: Any, observed: Outcome, model: Model, structure: str | None, hint: Observed
    ) -> FieldDiff | None:
        """The first relation of the implementation's own figures this step breaks
        (:class:`~cfconform.judge.relations.UsageRelations`).  Its ``check`` judges nothing without
        usage before and after the step, and its ``later`` nothing while no commit left a release
        due, so neither is called then (most steps)."""
        relations = self.relations
        broken = None
        now = hint.after.get(structure)
        before = hint.before.get(structure) if now is not None and structure is not None and observed.ok else None
        if before is not None and not (self._cqs and off_primary(model, op)):
            broken = relations.check(op, observed, before, now, structure, self.config.profile)
        if broken is None and relations.pending_free:
            broken = relations.later(op, hint.after)
        return broken

    def _sync_view(
        self, op: Any, structure: str | None, after: dict[str, tuple[int, int, int, int]], ok: bool = True
    ) -> None:
        """Keep the implementation's usage current: what a step reports replaces what was known; a
        step that may change usage without reporting it makes it unknown (a refused one changes
        nothing: an alter outcome with no alter pending, a get finding no message)."""
        if not ok:
            pass
        elif isinstance(op, _INVALIDATING):
            self.view.clear()
        elif structure is not None and structure not in after and not isinstance(op, Inspect):
            self.view.pop(structure, None)
        self.view.update(after)

    def readings_followed(self) -> dict[str, list[str]]:
        """Per ambiguity, the readings still consistent with the trace.

        An ambiguity the trace never had to decide (declared readings aside)
        lists every reading: nothing has distinguished them yet.
        """
        out: dict[str, list[str]] = {}
        alone = self.alive[0].readings if len(self.alive) == 1 else None  # (the usual case: one vector)
        for key, amb in AMBIGUITIES.items():
            if key not in self.pinned:
                out[key] = list(amb.readings)
            elif alone is not None:
                out[key] = [getattr(alone, key)]
            else:
                out[key] = sorted({getattr(c.readings, key) for c in self.alive})
        return out

    # -- interpretation inference ---------------------------------------------------
    def _search(self, rules: tuple[str, ...], diff: FieldDiff | None) -> list[tuple[_Candidate, Outcome]]:
        """Find reading vectors that explain the whole trace; nearest (fewest changes) first."""
        free = [k for k in AMBIGUITIES if k not in self.fixed]
        wanted = set(rules) | set(diff.rules if diff is not None else ())
        relevant = [k for k in free if set(AMBIGUITIES[k].rules) & wanted]
        profile = self.config.profile
        here = [k for k in free if any(profile in RULE_BY_ID[r].profiles for r in AMBIGUITIES[k].rules)]
        tried: set[Readings] = {c.readings for c in self.alive}
        budget = MAX_ALTERNATIVES
        #: vectors that failed with ambiguities consulted that their base never consulted
        self._led: list[tuple[Readings, frozenset[str]]] = []
        for keys, depth in ((relevant, 1), (here, 1), (relevant, 2), (here, 2), (free, 2)):
            found = []
            for vector in self._neighbours(keys, depth):
                if vector in tried:
                    continue
                budget -= 1
                hit = self._try(vector, tried)
                if hit is not None:
                    found.append(hit)
                if budget <= 0:
                    return found
            if found:
                return found
        return self._led_on(tried)

    def _led_on(self, tried: set[Readings]) -> list[tuple[_Candidate, Outcome]]:
        """Deeper vectors where the shallow ones lead: a vector that failed after its change made the
        model consult an ambiguity its base never did (a CQS alter completing inside the put only
        under another usage metric, say) is tried with that ambiguity changed too, up to
        ``MAX_LED`` replays."""
        base = set(self.alive[0].consulted.used) if self.alive else set()
        budget = MAX_LED
        while self._led and budget > 0:
            vector, consulted = self._led.pop(0)
            changed = vector.differs_from_default().keys() | set(self.fixed)
            for key in sorted(consulted - base - changed):
                for value in AMBIGUITIES[key].readings:
                    deeper = attrs.evolve(vector, **{key: value})
                    if deeper in tried:
                        continue
                    budget -= 1
                    hit = self._try(deeper, tried)
                    if hit is not None:
                        return [hit]
        return []

    def _try(self, vector: Readings, tried: set[Readings]) -> tuple[_Candidate, Outcome] | None:
        """Replay ``vector`` once (it is marked tried)."""
        tried.add(vector)
        return self._replay(vector)

    def _neighbours(self, keys: list[str], depth: int):
        """Vectors ``depth`` readings away from a live candidate's.  Each changes at least one
        ambiguity that candidate's model consulted: changing only unconsulted ones replays the
        candidate's own steps, which have just failed."""
        for cand in list(self.alive):
            base = cand.readings.as_dict()
            used = cand.consulted.used
            for combo in itertools.combinations(keys, depth):
                if not used.intersection(combo):
                    continue
                choices = [[r for r in AMBIGUITIES[k].readings if r != base[k]] for k in combo]
                for values in itertools.product(*choices):
                    yield Readings(**{**base, **dict(zip(combo, values, strict=True))})

    def _replay(self, readings: Readings) -> tuple[_Candidate, Outcome] | None:
        cand = _Candidate(self.config, readings)
        expected = None
        last = len(self.history) - 1
        for i, (op, observed, hint) in enumerate(self.history):
            kept = before_refusal([cand], op, observed) if i < last else {}
            expected, diff = cand.step(op, observed, hint, self.caps)
            if diff is not None and kept and refusable(cand.model, op, expected, observed):
                cand.model, diff = kept[id(cand)], None  # (a refusal the trace's readings explained)
            if diff is not None:
                if i == last:
                    self._note_nearest(expected, diff)
                led = getattr(self, "_led", None)
                if led is not None and len(led) < MAX_LED:
                    led.append((readings, frozenset(cand.consulted.used)))
                return None
        return cand, expected  # type: ignore[return-value]

    def _note_nearest(self, expected: Outcome, diff: FieldDiff) -> None:
        """Of the readings that explain every step but this one, keep the one agreeing on the most
        fields (its divergence comes latest in :data:`COMPARISONS`): it names the narrowest rule."""
        rank = list(COMPARISONS)
        current = self.nearest[1] if self.nearest is not None else None
        if current is None or rank.index(diff.comparison) > rank.index(current.comparison):
            self.nearest = (expected, diff)
