"""Does a mutant's reproducer expose it?  Reading-aware comparison with the reference model.

An implementation conforms if *one* admissible reading (``cfconform.reference_model.readings``) explains all its
outcomes.  :func:`explaining_readings` finds one without enumerating every combination: a :class:`_Tracker` notes
the ambiguities a run consults, and only those are enumerated (growing the set whenever a run consults a new one):
the model is deterministic, so a reading's outcomes depend only on the ambiguities it consulted.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import attrs

from cfconform.reference_model.codec import outcome_to_record
from cfconform.reference_model.config import Config
from cfconform.reference_model.model import Model
from cfconform.reference_model.readings import AMBIGUITIES, Readings

from ..protocol import Adapter

Records = list[dict[str, Any]]


def observable(outcome: Any) -> dict[str, Any]:
    """The outcome record without ``rules``: rule IDs are the model's explanation, not an observable
    (an implementation reports none, and ``cfconform.judge.compare`` never compares them)."""
    record = outcome_to_record(outcome)
    record.pop("rules", None)
    return record


class _Tracker:
    """Stands in for :class:`Readings` and notes every ambiguity the model consults."""

    def __init__(self, readings: Readings, seen: set[str]) -> None:
        self._readings, self._seen = readings, seen

    def __getattr__(self, name: str) -> Any:
        if name in AMBIGUITIES:
            self._seen.add(name)
        return getattr(self._readings, name)


def records_of(adapter: Adapter, config: Config, scenario: Sequence[Any]) -> Records | None:
    """Outcome records of ``scenario`` on ``adapter``; ``None`` if the scenario is invalid for it."""
    try:
        adapter.open(config)
        try:
            return [observable(o) for o in adapter.apply_batch(list(scenario))]
        finally:
            adapter.close()
    except (ValueError, KeyError, TypeError):  # ConfigurationError is a ValueError
        return None


def reference_records(
    config: Config, scenario: Sequence[Any], readings: Readings | None = None, seen: set[str] | None = None
) -> Records | None:
    """Outcome records of the reference model under ``readings`` (default readings if ``None``)."""
    tracker = _Tracker(readings or Readings(), set() if seen is None else seen)
    try:
        model = Model(attrs.evolve(config, readings=tracker))  # type: ignore[arg-type]
        return [observable(model.step(op)) for op in scenario]
    except (ValueError, KeyError, TypeError):
        return None


def explaining_readings(
    config: Config, scenario: Sequence[Any], observed: Records, only: Sequence[str] | None = None
) -> Readings | None:
    """A reading combination under which the model produces ``observed`` (or ``None``), searching every ambiguity
    the scenario consults (only those in ``only``, if given; the others stay at their defaults)."""
    allowed = set(AMBIGUITIES if only is None else only)
    relevant: set[str] = set()
    while True:
        keys = sorted(relevant)
        for combo in itertools.product(*(AMBIGUITIES[k].readings for k in keys)):
            readings = Readings(**dict(zip(keys, combo, strict=True)))
            seen: set[str] = set()
            records = reference_records(config, scenario, readings, seen)
            if (seen & allowed) - relevant:
                relevant |= seen & allowed
                break  # (a new ambiguity consulted: enumerate again, with it)
            if records == observed:
                return readings
        else:
            return None
