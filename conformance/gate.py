"""The conformance gate: state machines per profile, then the per-rule matrix, warnings and exit code."""

from __future__ import annotations

import datetime as dt
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from cfconform.adapters.protocol import Adapter
from cfconform.judge.claims import claims
from cfconform.judge.opening import DECIDED_AT_OPEN, config_or_forbidden
from cfconform.judge.results import (
    GATE_SCHEMA_VERSION,
    Deviation,
    FailureRecord,
    GateResult,
    RuleVerdict,
    matches,
)  # fmt: skip
from cfconform.judge.trace import TraceResult
from cfconform.properties.run import MachineRun, run_machine
from cfconform.reference_model.codec import op_from_record
from cfconform.reference_model.config import Config
from cfconform.reference_model.model import Model
from cfconform.reference_model.rules import RULES

from .reuse import reusing

EXIT_OK, EXIT_NONCONFORMING, EXIT_ADAPTER, EXIT_NOTHING_JUDGED = 0, 1, 3, 4
#: Verdicts that judged a rule (anything else: static, not claimed, not reached).
JUDGED = ("pass", "fail", "known-deviation")


def run_gate(
    adapter_factory: Callable[[], Adapter],
    *,
    profiles: Sequence[str] | None = None,
    hypothesis_profile: str = "ci",
    seed: int | None = None,
    rules: Iterable[str] | None = None,
    deviations: Sequence[Deviation] = (),
    today: dt.date | None = None,
    started: str = "",
    watch: Callable[[str, Any], None] | None = None,
) -> GateResult:
    """Run the gate and judge every rule (see README: exit codes)."""
    probe = adapter_factory()  # the one instance of the run: its capabilities, then every case
    try:
        caps = probe.capabilities()
    except BaseException:
        probe.close()
        raise
    chosen = tuple(p for p in (profiles or caps.profiles) if p in caps.profiles)
    patterns = list(rules) if rules else None
    # --rules: only the profiles where a selected rule applies are run, and a divergence on rules
    # outside the selection ends its case unjudged (masked), so it cannot hide a selected rule
    unselected = frozenset(r.id for r in RULES if not matches(r.id, patterns)) if patterns else frozenset()
    if patterns:
        chosen = tuple(p for p in chosen if any(p in r.profiles for r in RULES if matches(r.id, patterns)))
    begin = time.perf_counter()
    # --rules: generation keeps to the probes that reach a selected rule's family
    families = frozenset(r.family for r in RULES if matches(r.id, patterns)) if patterns else None
    masked = frozenset(d.rule for d in deviations) | unselected
    with reusing(adapter_factory, probe) as shared:
        runs = [run for p in chosen for run in explore(shared, p, hypothesis_profile, seed, masked, families, watch)]
    failures = tuple(_failure(r) for r in runs if r.failure is not None and r.failure.verdict != "pass")
    failing = {rule for f in failures if f.kind == "divergence" for rule in f.rules}
    # a known deviation is masked while exploring: its divergences end their cases unjudged
    failing |= {rule for r in runs for rule in r.masked if any(d.rule == rule for d in deviations)}
    exercised: Counter[str] = Counter()
    bounds: dict[str, Counter[str]] = {}
    for r in runs:
        exercised.update(r.rules_exercised)
        for rule_id, where in r.boundaries.items():
            bounds.setdefault(rule_id, Counter()).update(where)
    today = today or dt.date.today()
    known = {d.rule: d for d in deviations}
    matrix, warnings, unexpected = [], [], False
    for rule in RULES:
        if not matches(rule.id, patterns):
            continue
        claimed = claims(rule, caps, chosen)
        verdict = "static" if is_static(rule) else _verdict(rule.id, claimed, failing, exercised, known)
        dev = known.get(rule.id)
        if dev is not None and dev.expires is not None and dev.expires < today:
            warnings.append(f"{rule.id}: known deviation expired on {dev.expires.isoformat()}")
            unexpected = True
        if dev is not None and verdict == "pass":
            warnings.append(f"{rule.id}: listed as a known deviation but passed (unexpected pass)")
            unexpected = True
        if verdict == "known-deviation":
            warnings.append(f"{rule.id}: known deviation: {dev.reason}")  # type: ignore[union-attr]
        warnings += _hollow(rule.id, verdict, bounds.get(rule.id))
        matrix.append(
            RuleVerdict(
                rule.id, rule.family, rule.title, verdict, exercised.get(rule.id, 0), dict(bounds.get(rule.id, {}))
            )
        )
    warnings += [f"{r.profile}: {r.error}" for r in runs if r.error]
    warnings += [w for profile in dict.fromkeys(r.profile for r in runs) for w in _not_judged(profile, runs)]
    exit_code = _exit_code(matrix, failures, unexpected, flaky=any(r.error for r in runs))
    readings = runs[0].failure.readings if runs and runs[0].failure else {}
    return GateResult(
        schema=GATE_SCHEMA_VERSION, adapter=caps.name, capabilities=caps.to_record(), profiles=chosen,
        hypothesis_profile=hypothesis_profile, seed=seed, started=started,
        seconds=round(time.perf_counter() - begin, 3), cases=sum(r.cases for r in runs),
        steps=sum(r.steps for r in runs), rules=tuple(matrix), failures=failures, warnings=tuple(warnings),
        readings=readings, exit_code=exit_code,
    )  # fmt: skip


#: Runs of one profile at most: the first, then one more for each failure found (its rules masked).
MAX_ROUNDS = 8


def explore(
    adapter_factory: Callable[[], Adapter],
    profile: str,
    hypothesis_profile: str,
    seed: int | None,
    masked: frozenset[str] = frozenset(),
    families: frozenset[str] | None = None,
    watch: Callable[[str, Any], None] | None = None,
) -> list[MachineRun]:
    """Every failing rule a profile's generation reaches, each with its own shortest reproducer.

    One failure must not hide another (DEVELOPERS.md, principle 6): after each failure the run is
    repeated from the same seed with the failure's rules masked (a divergence blamed only on
    masked rules ends its case unjudged), until a run finds nothing new.  Known deviations are
    masked from the start.
    """
    runs: list[MachineRun] = []
    for _ in range(MAX_ROUNDS):
        run = run_machine(
            adapter_factory, profile, hypothesis_profile=hypothesis_profile, seed=seed, masked=masked,
            families=families, watch=watch,
        )  # fmt: skip
        runs.append(run)
        found = run.failure
        if found is None or found.verdict != "fail" or found.divergence is None:
            break
        new = frozenset(found.divergence.rules) - masked
        if not new:  # minimised onto rules already reported: nothing new
            runs[-1] = attrs.evolve(run, failure=None)
            break
        masked |= new
    return runs


def _not_judged(profile: str, runs: list[MachineRun]) -> list[str]:
    """Warnings for ``profile``'s test cases that ended without a verdict, summed over its runs (a
    profile runs again after each failure): at an operation the implementation does not support,
    at a divergence on rules it does not claim, or at a configuration it would not open."""
    refused: Counter[str] = Counter()
    unclaimed: Counter[str] = Counter()
    unopened: Counter[str] = Counter()
    softened: Counter[str] = Counter()
    for run in (r for r in runs if r.profile == profile):
        refused.update(run.refused)
        unclaimed.update(run.unclaimed)
        unopened.update(run.unopened)
        softened.update(run.softened)
    out = []
    if refused:
        kinds = ", ".join(f"{k} x{n}" for k, n in sorted(refused.items()))
        out.append(
            f"{profile}: {sum(refused.values())} test cases ended at an operation the implementation "
            f"does not support ({kinds}); what only those operations reach was not checked"
        )
    if unclaimed:
        rules = ", ".join(f"{k} x{n}" for k, n in sorted(unclaimed.items()))
        out.append(f"{profile}: test cases ended, not judged, at divergences on unclaimed rules only ({rules})")
    for why, n in sorted(unopened.items()):
        out.append(f"{profile}: {n} configurations breaking a documented limit not judged ({why})")
    if softened:
        keywords = ", ".join(f"{k} x{n}" for k, n in sorted(softened.items()))
        out.append(
            f"{profile}: configurations refused at open were opened again with the keyword the refusal "
            f"named at its default ({keywords}); those values were not judged"
        )
    return out


def is_static(rule: Any) -> bool:
    """Rules no trace judges: observable only through configuration or calculators (advice, sizing),
    or implementation-defined (what the documents leave to the implementation is an input to the
    checker, never a verdict: DEVELOPERS.md, principle 2)."""
    if rule.id in DECIDED_AT_OPEN:  # judged at open too: a configuration breaking it must be refused
        return False
    return rule.status == "implementation-defined" or all(o.startswith("config.") for o in rule.observables)


def _verdict(
    rule_id: str, claimed: bool, failing: set[str], exercised: Counter[str], known: dict[str, Deviation]
) -> str:
    if not claimed:
        return "not-claimed"
    if rule_id in failing:
        return "known-deviation" if rule_id in known else "fail"
    return "pass" if exercised.get(rule_id) else "not-reached"


def _hollow(rule_id: str, verdict: str, where: Counter[str] | None) -> list[str]:
    """Warnings for passes that prove little: never exercised, or a boundary never crossed."""
    if verdict == "not-reached":
        return [f"{rule_id}: claimed but never exercised (hollow pass)"]
    if verdict == "pass" and where is not None and not (where.get("below") and (where.get("at") or where.get("above"))):
        return [f"{rule_id}: threshold never crossed (seen only {', '.join(sorted(where))})"]
    return []


def _exit_code(
    matrix: list[RuleVerdict], failures: Sequence[FailureRecord], unexpected: bool, flaky: bool = False
) -> int:
    if any(f.kind == "fault" for f in failures):
        return EXIT_ADAPTER
    if unexpected or flaky or any(r.verdict == "fail" for r in matrix):
        return EXIT_NONCONFORMING
    if any(f.kind == "divergence" for f in failures) and not any(r.verdict == "known-deviation" for r in matrix):
        return EXIT_NONCONFORMING
    if not any(r.verdict in JUDGED for r in matrix):  # no rule selected, claimed or reached: not a pass
        return EXIT_NOTHING_JUDGED
    return EXIT_OK


def _failure(run: MachineRun) -> FailureRecord:
    t: TraceResult = run.failure  # type: ignore[assignment]
    series, thresholds = usage_series(t.config, t.ops)
    d, fault = t.divergence, t.fault
    if d is not None:
        return FailureRecord(
            run.profile,
            d.rules,
            d.step,
            d.field,
            d.expected,
            d.observed,
            t.config,
            t.ops,
            d.expected_outcome,
            d.observed_outcome,
            t.readings,
            series,
            thresholds,
        )
    return FailureRecord(
        run.profile,
        (),
        fault.step if fault else None,
        "adapter",
        None,
        fault.message if fault else run.error,
        t.config,
        t.ops,
        None,
        None,
        t.readings,
        series,
        thresholds,
        kind="fault",
    )


def usage_series(
    config: dict[str, Any], ops: Sequence[dict[str, Any]]
) -> tuple[dict[str, list[float]], dict[str, dict[str, float]]]:
    """Structure usage (percent, the max of entries and elements) after each step, and the thresholds to plot
    (none for a configuration a sentence forbids: it is never opened)."""
    cfg = config_or_forbidden(config)
    if not isinstance(cfg, Config):
        return {}, {}
    model = Model(cfg)
    series: dict[str, list[float]] = {name: [] for name in model.structures}
    for record in ops:
        model.step(op_from_record(record))
        for name, s in model.structures.items():
            series.setdefault(name, []).append(round(model.usage(s, "max"), 3))
    thresholds: dict[str, dict[str, float]] = {}
    for name, s in model.structures.items():
        d = s.defn
        marks: dict[str, float] = {"FULLTHRESHOLD": d.fullthreshold}
        if cfg.profile == "cqs":
            marks["OVFLWMAX"] = d.effective_ovflwmax
        elif d.cflevel == 5:
            marks.update(
                {f"OFFLD{n}TH": getattr(d, f"offld{n}th") for n in (1, 2, 3) if getattr(d, f"offld{n}sz") < 64 * 1024}
            )
        thresholds[name] = marks
    return series, thresholds
