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
import re
from collections.abc import Mapping
from typing import Any

import attrs

from cfconform.adapters.protocol import Capabilities
from cfconform.reference_model.config import Config
from cfconform.reference_model.cqs import adopt_alter, adopt_selection
from cfconform.reference_model.model import Model, Observed
from cfconform.reference_model.operations import (
    AlterOutcome,
    Backout,
    Commit,
    DefineQueue,
    DefineStructure,
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
    STRUCTURE_USAGE_KEYS,
    CorrelMap,
    FieldDiff,
    compare,
    diff,
)
from .relations import UsageRelations

#: Readings vectors explored per failing step before giving up (bounds the search).
MAX_ALTERNATIVES = 400
MAX_ALIVE = 32
#: Deeper vectors tried where a shallower one made the model consult a new ambiguity (_led_on).
MAX_LED = 64
_INVALIDATING = (Commit, Backout, StopQmgr, FailStructure)
_PUT_GET = (Put, Get)


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


#: Commands an implementation may refuse where the model accepts them (names, keywords and
#: resources are the product's), except where a sentence decides: see :func:`_refusable`.
REFUSABLE = ("define_structure", "define_queue", "alter_structure", "set_perfmev", "reset_qstats")


#: Names of the kind every product accepts (IBM's own examples): refusing one is about something else.
_PLAIN_NAME = re.compile(r"^[A-Z][A-Z0-9.]{0,11}$")
#: ALTER CFSTRUCT keywords with documented values (CFLEVEL 1-5, RECOVER, OFFLOAD at CFLEVEL(5)).
_DOCUMENTED_KEYWORDS = frozenset({"cflevel", "recover", "offload"})


def _field(definition: Any, name: str) -> Any:
    """A field of a definition given as a record or as a raw dict."""
    return definition.get(name) if isinstance(definition, dict) else getattr(definition, name, None)


def _refusable(model: Model, op: Any, expected: Outcome, observed: Outcome) -> bool:
    """Whether refusing ``op`` is the implementation's right.  Judged: a plainly named queue on a
    structure holding fewer than 512 (TOPOLOGY-005 "Each structure can hold up to 512 shared
    queues"), a plainly named MQ structure among fewer than 63 (TOPOLOGY-003), and an ALTER CFSTRUCT
    of CFLEVEL, RECOVER or OFFLOAD to documented values that the model accepts (CFLEVEL-001/009)."""
    if observed.ok or not expected.ok or getattr(op, "KIND", None) not in REFUSABLE:
        return False
    if isinstance(op, DefineQueue):
        name, cfstruct = _field(op.queue, "name"), _field(op.queue, "cfstruct")
        held = sum(1 for other in model.queues.values() if cfstruct is not None and other.defn.cfstruct == cfstruct)
        # (the model has taken the step: the count includes the queue refused)
        return not (isinstance(name, str) and _PLAIN_NAME.match(name) and cfstruct is not None and held <= 512)
    if isinstance(op, DefineStructure):
        if _below_its_level(op.structure, op.structure if isinstance(op.structure, dict) else {}):
            return True
        name = _field(op.structure, "name")
        plain = model.config.profile == "mq" and isinstance(name, str) and bool(_PLAIN_NAME.match(name))
        return not (plain and "." not in name and len(model.structures) <= 63)
    if op.KIND == "alter_structure":
        s = model.structures.get(op.name)
        if s is not None and (s.failed or _below_its_level(s.defn, dict(op.changes))):
            return True  # (no document says what ALTER CFSTRUCT of a failed structure does)
        return model.config.profile != "mq" or not all(_documented(k, v) for k, v in dict(op.changes).items())
    return True


def _before_refusal(cands: list[_Candidate], op: Any, observed: Outcome) -> dict[int, Model]:
    """Copies of the candidates' models before the implementation's refusal of a command it may
    refuse (:func:`_refusable`).  When a reading explains the refusal (guarded CFLEVEL-009 refusing a
    5-to-4 ALTER that also keeps OFFLDn* below CFLEVEL 5, say), the refusal decides nothing between
    readings: the others survive with the command undone, as the implementation left it, instead of
    the trace pinning the reading that matched by chance (second reading, ci seed 2)."""
    if observed.ok or getattr(op, "KIND", None) not in REFUSABLE:
        return {}
    return {id(c): c.model.copy() for c in cands}


def _below_its_level(definition: Any, named: dict[str, Any]) -> bool:
    """Whether a definition keeps a keyword below the CFLEVEL it needs, where the documents leave a
    refusal open (ibm-facts 2.6, AMBIGUOUS): RECOVER(YES) below CFLEVEL(3) ("required if you want to
    use persistent messages", CFLEVEL-007), or OFFLOAD/OFFLDn* named below CFLEVEL(5) (OFFLOAD-007:
    "only valid from CFLEVEL(5)"; whether OFFLDn* are refused too is not verified)."""
    cflevel = _field(definition, "cflevel")
    if not isinstance(cflevel, int) or isinstance(cflevel, bool):
        cflevel = 3  # DEFINE CFSTRUCT's default CFLEVEL
    if _field(definition, "recover") is True and cflevel < 3:
        return True
    return cflevel < 5 and any(k == "offload" or k.startswith("offld") for k in named)


#: OFFLDnSZ and OFFLDnTH values IBM's texts use (seed 002's table and examples, the /64K default).
_OFFLOAD_SIZES = frozenset({0, 4 * 1024, 32 * 1024, 64 * 1024})
_OFFLOAD_THRESHOLDS = frozenset({0, 70, 80, 90})


def _documented(keyword: str, value: Any) -> bool:
    """Whether an ALTER CFSTRUCT keyword and value are ones the documents show valid."""
    if keyword in _DOCUMENTED_KEYWORDS:
        return True
    if keyword.startswith("offld") and keyword.endswith("sz"):
        return value in _OFFLOAD_SIZES
    if keyword.startswith("offld") and keyword.endswith("th"):
        return value in _OFFLOAD_THRESHOLDS
    return False


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
            _adopt_selections(self.model, observed)
            _adopt_contractions(self.model, observed)
        expected = self.model.step(op, None, hint)
        names = KNOWN_SIGNALS if hint.cqs_signals else CAPACITY_SIGNALS
        detector = getattr(op, "qmgr", None) if isinstance(op, _PUT_GET) else None
        diff = compare(expected, observed, caps.observes, caps.reason_codes, self.correl, names, detector)
        if isinstance(op, Inspect) and diff is None:
            _adopt_sizes(self.model, observed)
        return expected, diff


def _adopt_selections(model: Model, observed: Outcome) -> None:
    """CQS selections (and alters, cqs.adopt_alter) the implementation has not shown yet are taken
    from its ``inspect``."""
    seen = observed.value.get("structures") if isinstance(observed.value, Mapping) else None
    for name, s in model.structures.items():
        if s.alter_unseen and isinstance((seen or {}).get(name), Mapping):
            adopt_alter(model, s, seen[name].get("alter_pending"))  # type: ignore[index]
        if s.selection_open is not None and isinstance((seen or {}).get(name), Mapping):
            shown = seen[name]  # type: ignore[index]
            adopt_selection(model, s, shown.get("overflow_queues"), shown.get("overflow_mode"))


def _adopt_sizes(model: Model, observed: Outcome) -> None:
    """A structure size the implementation chose (a CQS alter completed inside a put) is taken from
    its ``inspect`` once it is in INITSIZE..SIZE."""
    seen = observed.value.get("structures") if isinstance(observed.value, Mapping) else None
    for name, s in model.structures.items():
        size = (seen or {}).get(name, {}).get("size_kb") if not s.size_known else None
        if isinstance(size, int) and 1 <= size <= s.defn.size_kb:
            s.size_kb, s.size_known = size, True


def _adopt_contractions(model: Model, observed: Outcome) -> None:
    """CAPACITY-004: after an accepted SETXCF ALTER contraction the size may be anything from its
    target to the size before it (it may stop short: storage in use); the ``inspect`` shows which.
    Outside that range the nearer end is expected, so the comparison that follows names it."""
    seen = observed.value.get("structures") if isinstance(observed.value, Mapping) else None
    for name, s in model.structures.items():
        size = (seen or {}).get(name, {}).get("size_kb") if s.size_range is not None else None
        if isinstance(size, int) and s.size_range is not None:
            low, high = s.size_range
            s.size_kb, s.size_known, s.size_range = min(max(size, low), high), True, None


def _optional_judged(op: Any, observed: Outcome) -> tuple[str, ...]:
    """The rules an ``inspect`` judged through the optional keys the implementation reported
    (docs/PROTOCOL.md, Inspect): CSQ_ADMIN (TOPOLOGY-007/008), structures' cfname (TOPOLOGY-010)."""
    if not isinstance(op, Inspect):
        return ()
    value = observed.value if isinstance(observed.value, Mapping) else {}
    rules: tuple[str, ...] = ()
    if isinstance(value.get("admin"), Mapping):
        rules += ("TOPOLOGY-007", "TOPOLOGY-008") if "size_kb" in value["admin"] else ("TOPOLOGY-007",)
    structures = value.get("structures")
    if isinstance(structures, Mapping) and any(isinstance(s, Mapping) and "cfname" in s for s in structures.values()):
        rules += ("TOPOLOGY-010",)
    return rules


def _moved_off(model: Model, op: Any, expected: Outcome, hint: Observed, structure: str | None) -> FieldDiff | None:
    """CQS-011: an alter failure that moves approved queues' data objects to the overflow structure
    lowers the primary structure's usage."""
    if not isinstance(op, AlterOutcome):
        return None
    s = model.structures.get(structure) if structure is not None else None
    if s is None or s.defn.ovflwstr is None:
        return None
    before, after = hint.before.get(structure), hint.after.get(structure)  # type: ignore[arg-type]
    moved = any(sig.startswith(f"OVERFLOW_QUEUE {structure} ") for sig in expected.signals)
    if not moved or before is None or after is None or after[0] < before[0] or after[2] < before[2]:
        return None
    return diff("usage.moved", "usage", f"less in use on the primary than before {list(before)}", list(after))


def _off_primary(model: Model, op: Any) -> bool:
    """A CQS get from a structure with an overflow structure may take a data object from there (the
    implementation's selection may differ from the model's): the primary's usage need not fall."""
    if model.config.profile != "cqs" or not isinstance(op, Get):
        return False
    q = model.queues.get(op.queue)
    s = model.structures.get(q.defn.cfstruct) if q is not None and q.defn.cfstruct else None
    return s is None or s.defn.ovflwstr is not None


def _of_overflow(
    model: Model, op: Any, totals: Mapping[str, Any], pools: tuple[int, ...] | None, view: Mapping[str, Any]
) -> bool:
    """Whether a CQSPUT or CQSREAD's usage may be the overflow structure's: outcomes report "the
    structure the op touched", which for a queue in overflow mode (or perhaps selected) is the
    overflow structure.  A report offering totals other than the primary's last known ones is the
    overflow's; for a queue known to be in overflow mode, so is one of equal totals that shows the
    primary other than it was (its data objects are not there), as the third reading's reports do.
    An implementation may also report the primary, unchanged (the second reading does)."""
    if model.config.profile != "cqs" or not isinstance(op, _PUT_GET) or pools is None:
        return False
    q = model.queues.get(op.queue)
    s = model.structures.get(q.defn.cfstruct) if q is not None and q.defn.cfstruct else None
    if s is None or s.defn.ovflwstr is None:
        return False
    known = totals.get(s.defn.name)
    if op.queue in s.overflow_queues:  # its data objects are on the overflow structure
        if known is None or tuple(known) != tuple(pools[1::2]):
            return True
        # the two structures offer the same totals: a report of the primary shows it as it was
        seen = view.get(s.defn.name)
        if seen is not None and _staged_freed(model, op, seen, pools):
            return False
        return seen is None or tuple(seen) != tuple(pools)
    maybe = op.queue in (s.selection_open or {}) or bool(s.overflow_mode)
    return maybe and known is not None and tuple(known) != tuple(pools[1::2])


def _staged_freed(model: Model, op: Any, seen: Any, pools: tuple[int, ...]) -> bool:
    """A CQSREAD of a message whose later parts stay on the primary (CQS-019) frees one primary
    list entry per part; a report whose entries fell by that many (two or more) is the primary's,
    as the overflow structure gives up one data object per read (the second reading's reports)."""
    if not isinstance(op, Get):
        return False
    msgs = model.queues[op.queue].msgs
    staged = len(msgs[0].staged) if msgs else 0
    return staged >= 2 and pools[0] == seen[0] - staged and pools[2] < seen[2]


def _recovered_depth(model: Model, diff: FieldDiff | None) -> tuple[str, ...]:
    """The recovery rules first when ``inspect`` shows a queue's depth other than RECOVER CFSTRUCT
    left it (nothing has been got from it since): what it holds is the recovery's (RECOVERY-003/004/005)."""
    parts = diff.field.split(".") if diff is not None else []
    if len(parts) != 4 or parts[:2] != ["value", "queues"] or parts[3] != "depth":
        return ()
    q = model.queues.get(parts[2])
    return q.recovery if q is not None and q.recovery_left > 0 else ()


def _released(model: Model, qmgr: str) -> set[str]:
    """Structures where ``qmgr``'s unit of work holds gets a commit will release."""
    qm = model.qmgrs.get(qmgr)
    out = set()
    for action, qname, _ in qm.uow if qm is not None else ():
        q = model.queues.get(qname)
        if action == "get" and q is not None and q.defn.cfstruct is not None:
            out.add(q.defn.cfstruct)
    return out


def _structure_of(model: Model, op: Any) -> str | None:
    if isinstance(op, _PUT_GET):
        q = model.queues.get(op.queue)
        return q.defn.cfstruct if q else None
    return getattr(op, "cfstruct", None) or getattr(op, "name", None)


def _pools(value: Any) -> tuple[int, int, int, int] | None:
    if value is None or len(value) != 4:
        return None
    a, b, c, d = value
    if type(a) is not int or type(b) is not int or type(c) is not int or type(d) is not int:
        return None
    return (a, b, c, d)


def _reported(op: Any, observed: Outcome, structure: str | None) -> dict[str, tuple[int, int, int, int]]:
    """The usage the implementation reported at this step, per structure."""
    if isinstance(op, Inspect) and isinstance(observed.value, Mapping):
        out = {}
        for name, s in (observed.value.get("structures") or {}).items():
            pools = _pools([s.get(k) for k in STRUCTURE_USAGE_KEYS]) if isinstance(s, Mapping) else None
            if pools is not None:
                out[name] = pools
        return out
    pools = _pools(observed.usage)
    return {structure: pools} if structure is not None and pools is not None else {}


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

    def check(self, op: Any, observed: Outcome) -> StepVerdict:
        """Judge one step; after a failure, later steps are not judged."""
        if self.failed is not None:
            return self.failed
        index = len(self.history)
        model = self.alive[0].model
        structure = _structure_of(model, op)
        after = _reported(op, observed, structure)
        if after and self._cqs and _of_overflow(model, op, self.totals, after.get(structure), self.view):
            after = {}  # (the structure the op touched may be the overflow structure: not the primary's)
        for name, pools in after.items():
            self.totals[name] = pools[1::2]
        if not self.cqs_signals and observed.signals:
            self.cqs_signals = any(sig.split(" ", 1)[0] in CQS_SIGNALS for sig in observed.signals)
        hint = Observed(observed, dict(self.view), after, self.cqs_signals)
        self.history.append((op, observed, hint))
        broken = self._relations_broken(op, observed, model, structure, hint)
        if observed.ok and isinstance(op, Commit):
            for name in _released(model, op.qmgr):
                self.relations.settled(name, hint.before.get(name))
        if isinstance(op, SetxcfAlter) and observed.ok and structure in model.structures:
            s = model.structures[structure]
            if s.size_known and not s.failed:
                self.relations.altered(structure, s.size_kb, op.size_kb, hint.before.get(structure))
        if isinstance(op, Inspect) and isinstance(observed.value, Mapping):
            broken = broken or self.relations.inspected(observed.value.get("structures"))
        self._sync_view(op, structure, after, observed.ok)
        if len(self.alive) == 1 and (observed.ok or getattr(op, "KIND", None) not in REFUSABLE):
            # (the usual step: one vector, nothing it may refuse refused; _before_refusal keeps nothing)
            lead = self.alive[0]
            expected, diff = lead.step(op, observed, hint, self.caps)
            first = (expected, diff)
            survivors = [] if diff is not None else [(lead, expected)]
        else:
            survivors, first, held = [], None, []
            kept = _before_refusal(self.alive, op, observed)
            for cand in self.alive:
                expected, diff = cand.step(op, observed, hint, self.caps)
                first = first or (expected, diff)
                if diff is None:
                    survivors.append((cand, expected))
                elif kept and _refusable(cand.model, op, expected, observed):
                    held.append((cand, expected))
            if survivors:  # a refusal some reading explains leaves the others' state as it was, unpinned
                for cand, expected in held:
                    cand.model = kept[id(cand)]
                    survivors.append((cand, expected))
        if broken is None and isinstance(op, AlterOutcome):
            broken = _moved_off(self.alive[0].model, op, first[0], hint, structure)  # type: ignore[index]
        if broken is not None:  # a relation of the implementation's own figures: no reading explains it
            expected = first[0]  # type: ignore[index]
            self.failed = StepVerdict(index, expected, observed, broken, broken.rules[:1])
            return self.failed
        if not survivors:
            self.nearest = first  # type: ignore[assignment]
            survivors = self._search(first[0].rules, first[1])  # type: ignore[index]
        if not survivors:
            expected, diff = self.nearest or first  # type: ignore[misc]
            refused = _refusable(self.alive[0].model, op, expected, observed)
            rules = _recovered_depth(self.alive[0].model, diff) + blame(expected, observed, diff)
            self.failed = StepVerdict(index, expected, observed, diff, tuple(dict.fromkeys(rules)), refused)
            return self.failed
        lead = self.alive[0]
        if len(survivors) != 1 or survivors[0][0] is not lead or len(self.alive) != 1:
            self.alive = [c for c, _ in survivors][:MAX_ALIVE]
            if self.alive[0].readings is not lead.readings:  # (the same vector: nothing newly pinned)
                new = self.alive[0].readings
                self.pinned |= {k for k in AMBIGUITIES if getattr(new, k) != getattr(lead.readings, k)}
        expected = survivors[0][1]
        rules = expected.rules + _optional_judged(op, observed) if isinstance(op, Inspect) else expected.rules
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
        if before is not None and not (self._cqs and _off_primary(model, op)):
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
            kept = _before_refusal([cand], op, observed) if i < last else {}
            expected, diff = cand.step(op, observed, hint, self.caps)
            if diff is not None and kept and _refusable(cand.model, op, expected, observed):
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
