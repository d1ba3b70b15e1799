"""Self-measurement: run the gate's state machines against every mutant and tabulate the kills."""

from __future__ import annotations

import logging
import multiprocessing
import os
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from cfconform.properties.run import run_machine

log = logging.getLogger("conformance.mutation")  # the name -v shows, kept from before the cfconform namespace


@attrs.frozen
class Kill:
    """One row of the kill table.

    ``seconds`` is the time to kill (to the first failing case: the gate's verdict);
    ``total_seconds`` adds the search for shorter failing cases and their minimisation
    (when the gate's reproducer is ready).
    """

    mutant: str
    rule: str
    killed: bool
    seconds: float
    reproducer_steps: int | None
    documented_steps: int
    rule_named: bool
    field: str | None
    total_seconds: float | None = None
    seed: int | None = None

    def to_record(self) -> dict[str, Any]:
        return attrs.asdict(self)


def kill(mutant: Any, *, hypothesis_profile: str = "ci", seed: int | None = None, reproduce: bool = True) -> Kill:
    """Run the machine of the mutant's profile (the one its fault is built for) until it kills it.

    With ``reproduce`` False the run stops at the first failing case (the verdict) and the
    reproducer is not minimised, so ``reproducer_steps`` is None.
    """
    start = time.perf_counter()
    run = run_machine(
        mutant.factory, mutant.config.profile, hypothesis_profile=hypothesis_profile, seed=seed, reproduce=reproduce
    )
    total = round(time.perf_counter() - start, 3)
    failure = run.failure
    if failure is not None and failure.verdict != "pass" and run.seconds_to_failure is not None:
        rules = failure.divergence.rules if failure.divergence else ()
        field = failure.divergence.field if failure.divergence else "adapter"
        return Kill(
            mutant.id,
            mutant.rule,
            True,
            round(run.seconds_to_failure, 3),
            len(failure.ops) if reproduce else None,
            len(mutant.scenario),
            mutant.rule in rules,
            field,
            total,
            seed,
        )
    field = run.error  # a failing case that passed on replay: not a kill (the mutants are deterministic)
    return Kill(
        mutant.id, mutant.rule, False, round(run.seconds, 3), None, len(mutant.scenario), False, field, total, seed
    )


def _kill_by_id(job: tuple[str, str, int | None, bool]) -> Kill:
    from cfconform.adapters.mutants import MUTANT_BY_ID

    mutant_id, hypothesis_profile, seed, reproduce = job
    mutant = MUTANT_BY_ID[mutant_id]
    try:
        return kill(mutant, hypothesis_profile=hypothesis_profile, seed=seed, reproduce=reproduce)
    except Exception as err:  # one mutant's crash is its row of the table, not the end of the table
        log.error("mutant %s: the gate crashed: %s: %s", mutant_id, type(err).__name__, err)
        field = f"gate error: {type(err).__name__}: {err}"
        return Kill(mutant.id, mutant.rule, False, 0.0, None, len(mutant.scenario), False, field, None, seed)


def kill_all(
    mutants: Iterable[Any],
    *,
    hypothesis_profile: str = "ci",
    seeds: Sequence[int | None] = (None,),
    processes: int | None = None,
    reproduce: bool = True,
    on_kill: Callable[[Kill], None] | None = None,
) -> list[Kill]:
    """Kill every mutant under every seed, in a pool of ``processes`` workers (default: one per
    core), logging progress and handing each row to ``on_kill`` as soon as it is known (a long
    run stopped part way keeps the rows it has)."""
    chosen = list(mutants)
    jobs = [(m.id, hypothesis_profile, seed, reproduce) for seed in seeds for m in chosen]
    workers = processes or os.cpu_count() or 1
    kills: list[Kill] = []
    if workers == 1:
        results: Iterable[Kill] = map(_kill_by_id, jobs)
        return _collect(results, len(jobs), kills, on_kill)
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        return _collect(pool.imap(_kill_by_id, jobs), len(jobs), kills, on_kill)


def _collect(
    results: Iterable[Kill], total: int, kills: list[Kill], on_kill: Callable[[Kill], None] | None = None
) -> list[Kill]:
    for k in results:
        kills.append(k)
        if on_kill is not None:
            on_kill(k)
        survivors = sum(not x.killed for x in kills)
        log.info(
            "mutants %d/%d done, %d not killed (last: %s seed %s %s in %.1f s, reproducer %s steps in %.1f s, "
            "documented %d)",
            len(kills),
            total,
            survivors,
            k.mutant,
            k.seed,
            "killed" if k.killed else "SURVIVED",
            k.seconds,
            k.reproducer_steps,
            k.total_seconds or 0.0,
            k.documented_steps,
        )
    return kills


def summary(kills: list[Kill]) -> dict[str, Any]:
    """Mutation score, time to kill and to the reproducer (median, max) and reproducer length against
    the documented scenario.

    Over several seeds a mutant counts as killed only if every seed killed it (a seed that
    lets it survive is a CI run that passes a faulty implementation); ``per_seed`` gives
    each seed's own count and ``survived_seeds`` the seeds each survivor escaped.
    """
    killed = [k for k in kills if k.killed]
    times = [k.seconds for k in killed]
    totals = [k.total_seconds for k in killed if k.total_seconds is not None]
    excess = [k.reproducer_steps - k.documented_steps for k in killed if k.reproducer_steps is not None]
    mutants = list(dict.fromkeys(k.mutant for k in kills))
    escaped: dict[str, list[int | None]] = {}
    per_seed: dict[str, int] = {}
    for k in kills:
        per_seed.setdefault(str(k.seed), 0)
        if k.killed:
            per_seed[str(k.seed)] += 1
        else:
            escaped.setdefault(k.mutant, []).append(k.seed)
    return {
        "mutants": len(mutants), "killed": len(mutants) - len(escaped),
        "score": round((len(mutants) - len(escaped)) / len(mutants), 4) if mutants else 0.0,
        "runs": len(kills), "runs_killed": len(killed), "per_seed": per_seed,
        "median_seconds": round(statistics.median(times), 3) if times else None,
        "max_seconds": round(max(times), 3) if times else None,
        "median_total_seconds": round(statistics.median(totals), 3) if totals else None,
        "max_total_seconds": round(max(totals), 3) if totals else None,
        "max_excess_steps": max(excess) if excess else None,
        "rule_named": sum(k.rule_named for k in killed),
        "survivors": list(escaped), "survived_seeds": escaped,
    }  # fmt: skip
