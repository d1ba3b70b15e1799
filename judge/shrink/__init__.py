"""Shrinking: minimise a failing trace through the adapter, one strategy per module, run by the
driver in the order of the registry (README.md lists them and what each removes).

The entry points are the driver's: :func:`minimise`, :func:`minimise_shortest` and
:func:`replay_first`."""

from .driver import minimise, minimise_shortest, replay_first
from .registry import STRATEGIES, Strategy

__all__ = ["STRATEGIES", "Strategy", "minimise", "minimise_shortest", "replay_first"]
