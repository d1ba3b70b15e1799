"""Hypothesis settings profiles for the gate: dev, ci and nightly."""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, Verbosity, settings

_COMMON = {
    "deadline": None,
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    # Generation only: cfconform.judge.shrink minimises failures through the adapter (see properties/run.py).
    "phases": [Phase.explicit, Phase.generate],
    "report_multiple_bugs": False,
    # The gate reports failures itself (with the minimised trace); Hypothesis's own report of the
    # case that ended generation would only repeat the unminimised steps on stdout.
    "verbosity": Verbosity.quiet,
}
PROFILES = {
    "dev": settings(max_examples=60, stateful_step_count=30, **_COMMON),
    "ci": settings(max_examples=1000, stateful_step_count=40, **_COMMON),
    "nightly": settings(max_examples=3000, stateful_step_count=80, **_COMMON),
}


def profile_settings(name: str) -> settings:
    """Settings for a named profile; raises ``KeyError`` naming the valid ones."""
    try:
        return PROFILES[name]
    except KeyError:
        raise KeyError(f"unknown Hypothesis profile {name!r}; use one of {sorted(PROFILES)}") from None
