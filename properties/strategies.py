"""Hypothesis strategies for configurations and message lengths.

Configurations are drawn by :mod:`cfconform.properties.shapes` (shared with the campaign
generator); values lean toward the documented boundaries in
:mod:`cfconform.properties.boundaries`.  Plural names, Hypothesis house style.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from hypothesis import strategies as st

from cfconform.reference_model.config import Config
from cfconform.reference_model.units import SIZE_100MB

from . import boundaries as b
from . import shapes

T = TypeVar("T")


class HypothesisDraw:
    """A :class:`cfconform.properties.shapes.Draw` over Hypothesis's ``draw`` (shrinks toward earlier values)."""

    def __init__(self, draw: st.DrawFn) -> None:
        self._draw = draw

    def pick(self, values: Sequence[T]) -> T:
        return self._draw(st.sampled_from(values))

    def chance(self, percent: int) -> bool:
        return self._draw(st.integers(0, 99)) >= 100 - percent

    def integer(self, lo: int, hi: int) -> int:
        return self._draw(st.integers(lo, hi))


def boundary_lengths() -> st.SearchStrategy[int]:
    """The documented message-length boundaries and the points between them."""
    return st.sampled_from((*b.MQ_LENGTHS, *b.MQ_INTERIOR_LENGTHS))


def lengths(max_value: int = SIZE_100MB) -> st.SearchStrategy[int]:
    """Message lengths: mostly documented boundaries and points between them, sometimes anything."""
    edges = [v for v in (*b.MQ_LENGTHS, *b.MQ_INTERIOR_LENGTHS) if v <= max_value]
    return st.one_of(st.sampled_from(edges), st.integers(0, min(max_value, 70_000)))


@st.composite
def mq_configs(draw: st.DrawFn) -> Config:
    """An mq-profile configuration (:func:`cfconform.properties.shapes.mq_config`)."""
    return shapes.mq_config(HypothesisDraw(draw))


@st.composite
def cqs_configs(draw: st.DrawFn) -> Config:
    """A cqs-profile configuration (:func:`cfconform.properties.shapes.cqs_config`)."""
    return shapes.cqs_config(HypothesisDraw(draw))


def configs(profile: str) -> st.SearchStrategy[Config]:
    return mq_configs() if profile == "mq" else cqs_configs()
