"""One implementation instance for a whole gate run, reset by ``open`` between test cases.

The adapter contract says ``open(config)`` starts *or resets to an empty state*;
the gate relies on that instead of starting a new implementation for every
Hypothesis case and every shrinking replay.  Over the wire that is the
difference between one process per gate and one process per case (hundreds of
interpreter start-ups: the ci gate took 203 s instead of about 20).

An implementation that does not reset fully on ``open`` is caught, not hidden:
the shrinker replays the failing trace on the same instance and, if the failure
does not recur, the gate reports the implementation as flaky (a failing verdict).
A wire adapter broken by a fault starts a fresh process on its next ``open``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from cfconform.adapters.delegating import DelegatingAdapter
from cfconform.adapters.protocol import Adapter


class _Lease(DelegatingAdapter):
    """An :class:`Adapter` view of the shared instance whose ``close`` keeps it alive."""

    def close(self) -> None:
        """End this lease; the instance is closed when the gate's ``reusing`` block ends."""


@contextmanager
def reusing(adapter_factory: Callable[[], Adapter], first: Adapter | None = None) -> Iterator[Callable[[], Adapter]]:
    """Yield a factory whose adapters all share one instance from ``adapter_factory``.

    The instance (``first`` if given: one already started) is created on first use and closed
    (child processes included) when the block exits, however it exits.
    """
    shared: list[Adapter] = [first] if first is not None else []

    def lease() -> Adapter:
        if not shared:
            shared.append(adapter_factory())
        return _Lease(shared[0])

    try:
        yield lease
    finally:
        for adapter in shared:
            adapter.close()
