"""Hypothesis rule-based state machines that drive an adapter and the checker side by side.

``machine_for(adapter_factory, profile)`` returns a ``RuleBasedStateMachine``
class bound to the adapter, with its own recorder.  The plumbing is in
:mod:`properties.base`; the profiles' rules in :mod:`properties.mq_machine` and
:mod:`properties.cqs_machine`.
"""

from __future__ import annotations

from collections.abc import Callable

from adapters.protocol import Adapter
from properties.base import AdapterFailure, ConformanceFailure, MachineBase, Recorder
from properties.cqs_machine import CQSMachine
from properties.mq_machine import MQMachine

__all__ = ["AdapterFailure", "CQSMachine", "ConformanceFailure", "MQMachine", "machine_for"]


def machine_for(adapter_factory: Callable[[], Adapter], profile: str) -> type[MachineBase]:
    """A fresh machine class bound to ``adapter_factory`` with its own :class:`Recorder`."""
    base = MQMachine if profile == "mq" else CQSMachine
    return type(
        f"{base.__name__}For", (base,), {"adapter_factory": staticmethod(adapter_factory), "recorder": Recorder()}
    )
