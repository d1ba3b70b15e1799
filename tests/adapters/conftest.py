"""Shared helpers for the adapter and wire-protocol tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cfconform.reference_model import Config, QueueDef, StructureDef

FAKES = Path(__file__).resolve().parent / "fakes"
REPO = Path(__file__).resolve().parents[2]
NODE_ADAPTER = REPO / "examples" / "node-adapter" / "adapter.js"
SERVE_REFERENCE = [sys.executable, "-m", "cfconform.cli", "serve-reference"]


def fake(name: str) -> list[str]:
    """The command of the fake implementation ``tests/adapters/fakes/<name>.py``."""
    path = FAKES / f"{name}.py"
    assert path.exists(), path
    return [sys.executable, str(path)]


def small_mq_config() -> Config:
    structures = (StructureDef("APP1", size_kb=8192, cflevel=5, recover=True),
                  StructureDef("APP2", size_kb=6400, cflevel=3))  # fmt: skip
    queues = (
        QueueDef("Q1", cfstruct="APP1", maxdepth=40, qdphiev=True, qdploev=True, qdpmaxev=True),
        QueueDef("Q2", cfstruct="APP2", maxdepth=2000),
        QueueDef("L1", qmgr="QM01", maxdepth=10, qdphiev=True),
    )
    return Config(qmgrs=("QM01", "QM02", "QM03"), structures=structures, queues=queues)


@pytest.fixture
def mq_config() -> Config:
    return small_mq_config()
