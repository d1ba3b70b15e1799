"""An adapter that passes every call to another one: the base of wrappers that change one call."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cfconform.reference_model.config import Config
from cfconform.reference_model.outcomes import Outcome

from .protocol import Adapter, Capabilities


class DelegatingAdapter:
    """``inner`` behind the :class:`~cfconform.adapters.protocol.Adapter` methods; subclasses override what they
    change."""

    def __init__(self, inner: Adapter) -> None:
        self.inner = inner

    def capabilities(self) -> Capabilities:
        return self.inner.capabilities()

    def open(self, config: Config) -> None:
        self.inner.open(config)

    @property
    def opens_records(self) -> bool:
        """Whether ``inner`` takes a configuration record as it is (:meth:`open_record`)."""
        return bool(getattr(self.inner, "opens_records", False))

    def open_record(self, record: Mapping[str, Any]) -> None:
        self.inner.open_record(record)  # type: ignore[attr-defined]

    def apply(self, op: Any) -> Outcome:
        return self.inner.apply(op)

    def apply_batch(self, ops: Sequence[Any]) -> list[Outcome]:
        return self.inner.apply_batch(ops)

    def close(self) -> None:
        self.inner.close()
