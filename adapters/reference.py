"""The reference model wrapped as an adapter: the suite must pass against it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cfconform.reference_model.codec import config_from_record
from cfconform.reference_model.config import Config
from cfconform.reference_model.model import Model
from cfconform.reference_model.outcomes import Outcome
from cfconform.reference_model.readings import Readings

from .protocol import Capabilities


class ReferenceAdapter:
    """Runs :class:`~cfconform.reference_model.model.Model` in-process.

    ``readings`` picks the admissible reading it follows (default: the model's
    defaults); the configuration's own readings are overridden by it, as a real
    implementation's behaviour does not change with the test's configuration.
    """

    def __init__(self, readings: Readings | None = None, name: str = "reference") -> None:
        self.readings = readings or Readings()
        self.name = name
        self.model: Model | None = None

    def capabilities(self) -> Capabilities:
        return Capabilities(name=self.name, readings=self.readings.as_dict())

    def open(self, config: Config) -> None:
        self.model = Model(config.with_readings(self.readings))

    #: It checks a configuration record itself (:meth:`open_record`).
    opens_records = True

    def open_record(self, record: Mapping[str, Any]) -> None:
        """``open`` with a configuration record: one the model refuses raises its ConfigurationError."""
        self.open(config_from_record(record))

    def apply(self, op: Any) -> Outcome:
        assert self.model is not None, "open() first"
        return self.model.step(op)

    def apply_batch(self, ops: Sequence[Any]) -> list[Outcome]:
        step = self.apply
        return [step(op) for op in ops]

    def close(self) -> None:
        self.model = None
