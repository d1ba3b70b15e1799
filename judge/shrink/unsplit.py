"""Strategy ``unsplit`` (a variant, IMS CQS): messages put in parts, and runs of puts to one queue: with
LGMSGSZ at its largest each put is one message of as many data elements, then each run of puts is
one put.  It changes the configuration and the operations at once, where changing one at a time
would make the trace pass."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from cfconform.reference_model import operations as o
from cfconform.reference_model.accounting import elements_for
from cfconform.reference_model.config import Config
from cfconform.reference_model.cqs import message_parts
from cfconform.reference_model.errors import ConfigurationError
from cfconform.reference_model.validation import LGMSGSZ_MAX, round_lgmsgsz


def _unsplit_length(elements: int, config: Config) -> int | None:
    """The length of one message of ``elements`` data elements put whole (CQS-017), if that fits
    under the largest LGMSGSZ (CQS-021)."""
    acct = config.accounting
    length = max(0, elements * acct.element_bytes - acct.header_bytes)
    return length if elements_for(length, acct) == elements and length <= LGMSGSZ_MAX else None


def _whole(config: Config, op: o.Put) -> o.Put:
    """``op`` with the length of one unsplit message of as many elements as its parts use."""
    first, staged = message_parts(op.length, round_lgmsgsz(config.lgmsgsz), config.accounting)
    length = _unsplit_length(first + sum(staged), config)
    return op if length is None else attrs.evolve(op, length=length)


def _runs_merged(config: Config, ops: Sequence[Any]) -> list[Any]:
    """Each run of consecutive puts by one caller to one queue made one put of as many elements
    (when that fits in one unsplit message)."""
    out: list[Any] = []
    for op in ops:
        last = out[-1] if out else None
        same = isinstance(op, o.Put) and isinstance(last, o.Put)
        if same and (last.qmgr, last.queue, last.syncpoint) == (op.qmgr, op.queue, op.syncpoint):
            acct = config.accounting
            length = _unsplit_length(elements_for(last.length, acct) + elements_for(op.length, acct), config)
            if length is not None:
                out[-1] = attrs.evolve(last, length=length)
                continue
        out.append(op)
    return out


def unsplit(config: Config, ops: Sequence[Any]) -> list[tuple[Config, list[Any]]]:
    """LGMSGSZ raised to its largest (CQS-021), each put made one message of as many data
    elements as its parts used (CQS-017), then also each run of puts to one queue made one put.

    A small LGMSGSZ caps the elements a message's first part keeps on its queue, so a
    queue outweighs another (CQS-006) only through many puts; whole messages let one do.
    """
    if config.profile != "cqs" or round_lgmsgsz(config.lgmsgsz) >= LGMSGSZ_MAX:
        return []
    if not any(isinstance(op, o.Put) and op.length > round_lgmsgsz(config.lgmsgsz) for op in ops):
        return []
    try:
        raised = attrs.evolve(config, lgmsgsz=LGMSGSZ_MAX)
    except ConfigurationError:
        return []
    whole = [_whole(config, op) if isinstance(op, o.Put) else op for op in ops]
    merged = _runs_merged(raised, whole)
    return [(raised, merged), (raised, whole)] if merged != whole else [(raised, whole)]


def candidates(config: Config, ops: list[Any]) -> list[tuple[Config, list[Any], bool]]:
    """Each unsplit trace, one replay each (no windows)."""
    return [(c, whole, False) for c, whole in unsplit(config, ops)]
