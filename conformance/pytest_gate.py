"""The gate's side of the pytest plugin (:mod:`cfconform.conformance.pytest_plugin`): settings,
one item per rule ID and per profile, outcomes.

Registered by the plugin's ``pytest_configure`` only when ``--cf-adapter`` or ``--cf-adapter-cmd``
is given, so a pytest run without them never imports it.
"""

from __future__ import annotations

import datetime as dt
import random
import warnings
from collections import Counter
from typing import Any

import pytest

from cfconform.judge.results import GateResult, RuleVerdict, matches
from cfconform.reference_model.config import PROFILES as PROFILE_NAMES

_GATES = pytest.StashKey[dict[str, GateResult]]()
_SETTINGS = pytest.StashKey[dict[str, Any]]()
SKIP_REASONS = {
    "not-claimed": "not claimed by the adapter (family or profile)",
    "not-reached": "claimed but never exercised by the gate",
    "static": "static rule: checked by configuration and calculators, or implementation-defined: not by traces",
}


class ConformanceWarning(UserWarning):
    """A rule passed with a caveat: a known deviation, or a threshold never crossed."""


class GateFailure(Exception):
    """A rule (or a profile's run) failed; the message is the whole report."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "cfconform: a rule of the cfconform conformance gate")
    from cfconform.reference_model.errors import ConfigurationError

    from .deviations import load_deviations

    if config.getoption("cf_adapter") and config.getoption("cf_adapter_cmd"):
        raise pytest.UsageError("give one of --cf-adapter and --cf-adapter-cmd")
    worker = getattr(config, "workerinput", None)
    seed = config.getoption("cf_seed")
    if seed is None:
        seed = worker["cf_seed"] if worker and "cf_seed" in worker else random.SystemRandom().randrange(2**32)
    pattern = config.getoption("cf_rules")
    try:
        deviations = load_deviations(config.getoption("cf_deviations")) if config.getoption("cf_deviations") else ()
    except ConfigurationError as err:
        raise pytest.UsageError(f"--cf-deviations: {err}") from err
    config.stash[_SETTINGS] = {
        "seed": seed,
        "profiles": tuple(config.getoption("cf_profile") or PROFILE_NAMES),
        "rules": [p.strip() for p in pattern.split(",") if p.strip()] if pattern else None,
        "deviations": deviations,
        "factory": None,
    }
    config.stash[_GATES] = {}
    try:
        _factory(config)
    except ConfigurationError as err:
        raise pytest.UsageError(f"cfconform: {err}") from err


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist (controller): every worker gets the controller's seed."""
    settings = node.config.stash.get(_SETTINGS, None)
    if settings is not None:
        node.workerinput["cf_seed"] = settings["seed"]


def pytest_report_header(config: pytest.Config) -> list[str]:
    s = config.stash[_SETTINGS]
    spec = config.getoption("cf_adapter") or f"wire:{config.getoption('cf_adapter_cmd')}"
    return [
        f"cfconform: adapter {spec}, profiles {','.join(s['profiles'])}, "
        f"hypothesis {config.getoption('cf_hypothesis_profile')}, seed {s['seed']}"
    ]


def _factory(config: pytest.Config) -> Any:
    from .reproducer import adapter_factory

    settings = config.stash[_SETTINGS]
    if settings["factory"] is None:
        settings["factory"], _ = adapter_factory(
            config.getoption("cf_adapter"), config.getoption("cf_adapter_cmd"), timeout=config.getoption("cf_timeout")
        )
    return settings["factory"]


def gate_for(config: pytest.Config, profile: str) -> GateResult:
    """The gate's result for one profile, run on first use in this process."""
    from .gate import run_gate

    gates = config.stash[_GATES]
    if profile not in gates:
        s = config.stash[_SETTINGS]
        gates[profile] = run_gate(
            _factory(config),
            profiles=[profile],
            seed=s["seed"],
            rules=s["rules"],
            hypothesis_profile=config.getoption("cf_hypothesis_profile"),
            deviations=s["deviations"],
            today=dt.date.today(),
            started=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        )
    return gates[profile]


def merge(verdicts: list[RuleVerdict]) -> RuleVerdict:
    """One rule's verdict over several single-profile gate runs (as the gate judges several profiles)."""
    kinds = {v.verdict for v in verdicts}
    for verdict in ("static", "fail", "known-deviation", "pass", "not-reached", "not-claimed"):
        if verdict in kinds:
            break
    bounds: Counter[str] = Counter()
    for v in verdicts:
        bounds.update(v.boundaries)
    first = verdicts[0]
    return RuleVerdict(first.rule, first.family, first.title, verdict, sum(v.steps for v in verdicts), dict(bounds))


class GateCollector(pytest.Collector):
    """The virtual collector holding one :class:`RuleItem` per rule and one :class:`ProfileItem` per profile."""

    def collect(self) -> list[pytest.Item]:
        from cfconform.reference_model.rules import RULES

        s = self.config.stash[_SETTINGS]
        items: list[pytest.Item] = [ProfileItem.from_parent(self, name=f"gate[{p}]", profile=p) for p in s["profiles"]]
        for rule in RULES:
            profiles = tuple(p for p in s["profiles"] if p in rule.profiles)
            if profiles and matches(rule.id, s["rules"]):
                items.append(RuleItem.from_parent(self, name=rule.id, rule_id=rule.id, profiles=profiles))
        return items


class ProfileItem(pytest.Item):
    """Fails when a profile's run was not judgeable: an adapter fault, or a flaky implementation."""

    def __init__(self, *, profile: str, profiles: tuple[str, ...] = (), **kw: Any) -> None:
        super().__init__(**kw)
        self.profile, self.profiles = profile, profiles or (profile,)
        self.add_marker(pytest.mark.cfconform)
        if self.config.pluginmanager.hasplugin("xdist"):  # with --dist loadgroup, one worker per profile's gate
            self.add_marker(pytest.mark.xdist_group("cfconform-" + "+".join(self.profiles)))

    def runtest(self) -> None:
        from cfconform.reports.gate_report import failure_detail

        result = gate_for(self.config, self.profile)
        faults = [f for f in result.failures if f.kind == "fault"]
        errors = [w for w in result.warnings if w.startswith(f"{self.profile}: ")]
        if faults or errors:
            text = [failure_detail(_record(f)) for f in faults] + errors
            raise GateFailure(f"{self.profile}: the adapter could not be judged\n" + "\n".join(text))
        if not result.profiles:
            pytest.skip(f"profile {self.profile} not claimed by the adapter")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, GateFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"cfconform {self.name}"


class RuleItem(ProfileItem):
    """One rule ID: passes, fails or skips per the gate's verdict for it."""

    def __init__(self, *, rule_id: str, profiles: tuple[str, ...], **kw: Any) -> None:
        super().__init__(profile=profiles[0], profiles=profiles, **kw)
        self.rule_id = rule_id

    def runtest(self) -> None:
        from cfconform.reports.gate_report import failure_detail

        results = [gate_for(self.config, p) for p in self.profiles]
        rows = [r for res in results for r in res.rules if r.rule == self.rule_id]
        if not rows:
            pytest.skip("not selected by --cf-rules")
        verdict = merge(rows)
        notes = [w.partition(": ")[2] for res in results for w in res.warnings if w.startswith(f"{self.rule_id}: ")]
        self.user_properties += [("verdict", verdict.verdict), ("seed", results[0].seed)]
        bad = sorted({n for n in notes if "expired" in n or (verdict.verdict == "pass" and "unexpected pass" in n)})
        if verdict.verdict == "fail":
            found = [f for res in results for f in res.failures if self.rule_id in f.rules]
            detail = "\n\n".join(failure_detail(_record(f)) for f in found) or "fails"
            where = f" ({found[0].profile} profile, step {found[0].step}, field {found[0].field})" if found else ""
            raise GateFailure(f"{self.rule_id} does not conform{where}\n{detail}")
        if bad:
            raise GateFailure(f"{self.rule_id}: " + "; ".join(bad))
        if verdict.verdict in SKIP_REASONS:
            pytest.skip(f"{verdict.verdict}: {SKIP_REASONS[verdict.verdict]}")
        caveats = sorted({n for n in notes if verdict.verdict == "known-deviation" or "never crossed" in n})
        for note in caveats:
            warnings.warn(ConformanceWarning(f"{self.rule_id}: {note}"), stacklevel=1)


def _record(failure: Any) -> dict[str, Any]:
    import attrs

    return attrs.asdict(failure)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Append the gate's items (before -k/-m/--deselect filter the list)."""
    collector = GateCollector.from_parent(session, name="cfconform", nodeid="cfconform")
    items.extend(collector.collect())
