"""A pytest plugin: the conformance gate as one test item per rule ID.

::

    pytest --cf-adapter=mypkg.impl:MyAdapter --cf-profile mq --cf-seed 7 -n 2
    pytest --cf-adapter-cmd="node adapter.js" --cf-rules 'OFFLOAD-*' --cf-deviations deviations.toml

Registered as the ``pytest11`` entry point ``cfconform``; without ``--cf-adapter`` or
``--cf-adapter-cmd`` it registers its options and nothing else (no marker, no hook that acts, no
import beyond pytest), so it adds next to nothing to pytest's start-up.  Given either, it registers
:mod:`cfconform.conformance.pytest_gate`, which holds the gate's hooks and items.  Each item runs
the gate lazily, once per profile per process (the GateResult is cached on the config), so under
pytest-xdist every worker runs the profiles of the items it received (``--dist loadgroup`` keeps
each profile's items on one worker).  All workers use the same seed (``--cf-seed``, or one drawn
by the controller and handed to the workers), and the gate is deterministic for a seed.

Outcomes: ``fail`` fails with the divergence; ``not-claimed``, ``not-reached`` and
``static`` skip with the reason; ``known-deviation`` passes with a warning; a
listed deviation that passed or expired fails.  One ``gate[PROFILE]`` item per
profile fails on an adapter fault or an unstable (flaky) run.
"""

from __future__ import annotations

import pytest

#: The profiles (``cfconform.reference_model.config.PROFILES``; a test keeps them equal): not imported, so
#: that pytest without ``--cf-adapter`` imports nothing of cfconform but this module.
PROFILE_NAMES = ("mq", "cqs")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("cfconform", "cfconform conformance gate")
    group.addoption("--cf-adapter", metavar="SPEC", help="adapter: name, module:attr, wire:COMMAND or mutant:ID")
    group.addoption("--cf-adapter-cmd", metavar="CMD", help="an implementation process speaking the wire protocol")
    group.addoption("--cf-profile", choices=PROFILE_NAMES, action="append", help="profile (repeatable; default all)")
    group.addoption("--cf-hypothesis-profile", choices=("dev", "ci", "nightly"), default="ci")
    group.addoption("--cf-seed", type=int, help="Hypothesis seed (default: one random seed for all workers)")
    group.addoption("--cf-rules", metavar="PATTERN[,PATTERN]", help="only these rule IDs (shell patterns)")
    group.addoption("--cf-deviations", metavar="FILE", help="known deviations (TOML)")
    group.addoption("--cf-timeout", type=float, default=10.0, help="seconds per wire reply (default 10)")


def _enabled(config: pytest.Config) -> bool:
    return bool(config.getoption("cf_adapter") or config.getoption("cf_adapter_cmd"))


def pytest_configure(config: pytest.Config) -> None:
    if not _enabled(config):
        return
    from . import pytest_gate

    config.pluginmanager.register(pytest_gate, "cfconform-gate")  # its pytest_configure runs now
