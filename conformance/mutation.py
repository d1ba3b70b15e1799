"""Self-measurement: run the gate's state machines against every mutant and tabulate the kills."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from typing import Any

import attrs

from properties.run import run_machine
from reference_model.rules import RULE_BY_ID


@attrs.frozen
class Kill:
    """One row of the kill table."""

    mutant: str
    rule: str
    killed: bool
    seconds: float
    reproducer_steps: int | None
    documented_steps: int
    rule_named: bool
    field: str | None

    def to_record(self) -> dict[str, Any]:
        return attrs.asdict(self)


def _profiles(mutant: Any) -> list[str]:
    """The profile of the mutant's scenario first, then the rule's other profiles."""
    first = mutant.config.profile
    rest = [p for p in RULE_BY_ID[mutant.rule].profiles if p != first] if mutant.rule in RULE_BY_ID else []
    return [first, *rest]


def kill(mutant: Any, *, hypothesis_profile: str = "ci", seed: int | None = None) -> Kill:
    """Run the machines of the mutant's profile(s) until one kills it."""
    seconds = 0.0
    for profile in _profiles(mutant):
        run = run_machine(mutant.factory, profile, hypothesis_profile=hypothesis_profile, seed=seed)
        seconds += run.seconds
        failure = run.failure
        if failure is not None and failure.verdict != "pass":
            rules = failure.divergence.rules if failure.divergence else ()
            field = failure.divergence.field if failure.divergence else "adapter"
            return Kill(
                mutant.id,
                mutant.rule,
                True,
                round(seconds, 3),
                len(failure.ops),
                len(mutant.scenario),
                mutant.rule in rules,
                field,
            )
    return Kill(mutant.id, mutant.rule, False, round(seconds, 3), None, len(mutant.scenario), False, None)


def kill_all(mutants: Iterable[Any], **kwargs: Any) -> list[Kill]:
    return [kill(m, **kwargs) for m in mutants]


def summary(kills: list[Kill]) -> dict[str, Any]:
    """Mutation score, time to kill (median, max) and reproducer length against the documented scenario."""
    killed = [k for k in kills if k.killed]
    times = [k.seconds for k in killed]
    excess = [k.reproducer_steps - k.documented_steps for k in killed if k.reproducer_steps is not None]
    return {
        "mutants": len(kills), "killed": len(killed),
        "score": round(len(killed) / len(kills), 4) if kills else 0.0,
        "median_seconds": round(statistics.median(times), 3) if times else None,
        "max_seconds": round(max(times), 3) if times else None,
        "max_excess_steps": max(excess) if excess else None,
        "rule_named": sum(k.rule_named for k in killed),
        "survivors": [k.mutant for k in kills if not k.killed],
    }  # fmt: skip
