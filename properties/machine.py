"""Hypothesis rule-based state machines that drive an adapter and the checker side by side.

``machine_for(adapter_factory, profile)`` returns a ``RuleBasedStateMachine``
class bound to the adapter, with its own recorder.  The plumbing is in
:mod:`cfconform.properties.base`; the profiles' rules in :mod:`cfconform.properties.mq_machine` and
:mod:`cfconform.properties.cqs_machine`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from hypothesis.stateful import RULE_MARKER

from cfconform.adapters.protocol import Adapter

from .base import AdapterFailure, ConformanceFailure, MachineBase, Recorder
from .cqs_machine import CQSMachine
from .mq_machine import MQMachine
from .reach import REACH, reaches

__all__ = ["AdapterFailure", "CQSMachine", "ConformanceFailure", "MQMachine", "machine_for"]


def machine_for(
    adapter_factory: Callable[[], Adapter], profile: str, families: Iterable[str] | None = None
) -> type[MachineBase]:
    """A fresh machine class bound to ``adapter_factory`` with its own :class:`Recorder`; with
    ``families``, the probes that reach none of them are not rules of it (``--rules``)."""
    base = MQMachine if profile == "mq" else CQSMachine
    body: dict[str, object] = {"adapter_factory": staticmethod(adapter_factory), "recorder": Recorder()}
    for name in REACH:
        if getattr(getattr(base, name, None), RULE_MARKER, None) is not None and not reaches(name, families):
            body[name] = _left_out  # a plain method: Hypothesis no longer sees a rule there
    return type(f"{base.__name__}For", (base,), body)


def _left_out(self: MachineBase, *args: object, **kwargs: object) -> None:
    """A probe ``--rules`` leaves out."""
