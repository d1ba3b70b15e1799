"""A configuration refused at open on a keyword no sentence bounds is opened again with that keyword
at its default, and the case judged on what opened (judge/soften.py)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from cfconform.adapters.delegating import DelegatingAdapter
from cfconform.adapters.protocol import AdapterError
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.conformance.gate import run_gate
from cfconform.judge.runner import run_trace
from cfconform.judge.soften import MAX_SOFTENINGS, open_softened, softened
from cfconform.properties.generator import generate
from cfconform.reference_model.config import Config, StructureDef
from cfconform.reference_model.errors import ConfigurationError


class BadConfig(AdapterError):
    """Wire error 13 as the wire client raises it: definite, with the reply's ``detail``."""

    def __init__(self, detail: dict[str, Any] | None) -> None:
        super().__init__("error 13 bad-config", definite=True)
        self.code = 13
        self.detail = detail


class NarrowOverflowRange(DelegatingAdapter):
    """The reference, refusing OVFLWMAX outside 50..100 at open (a range no sentence states:
    ibm-facts 1.1) as the tenth reading does; ``detail`` as the wire reply would carry it."""

    def __init__(self, detail: bool = True) -> None:
        super().__init__(ReferenceAdapter())
        self.detail = detail
        self.opens: list[Config] = []

    def open(self, config: Config) -> None:
        self.opens.append(config)
        for s in config.structures:
            if s.ovflwmax is not None and not 50 <= s.ovflwmax <= 100:
                raise BadConfig({"field": "ovflwmax", "value": s.ovflwmax} if self.detail else None)
        super().open(config)


def _cqs_config(ovflwmax: int) -> Config:
    primary = StructureDef("QMSGIMS01", size_kb=8192, ovflwmax=ovflwmax, ovflwstr="QMSGIMSOV")
    return Config(profile="cqs", qmgrs=("IMSA", "IMSB"), structures=(primary,))


def test_refused_keyword_is_opened_again_at_its_default():
    adapter = NarrowOverflowRange()
    opened, keywords = open_softened(adapter, _cqs_config(30))
    assert keywords == ("ovflwmax",)
    assert opened.structures[0].ovflwmax is None  # StructureDef's default: OVFLWMAX=70% (CQS-001)
    assert [s.ovflwmax for s in adapter.opens[0].structures] == [30]


def test_only_entries_holding_the_refused_value_change():
    config = _cqs_config(30)
    other = StructureDef("QMSGIMS02", ovflwmax=80, ovflwstr="QMSGIMSOW")
    config = attrs.evolve(config, structures=(*config.structures, other))
    opened, _ = softened(config, BadConfig({"field": "structures[QMSGIMS01].ovflwmax", "value": 30}))
    assert [s.ovflwmax for s in opened.structures] == [None, 80]


def test_a_model_configuration_error_names_its_keyword_too():
    err = ConfigurationError("structures[QMSGIMS01].ovflwmax", 30, "50..100", "CQS-002")
    opened, keyword = softened(_cqs_config(30), err)
    assert keyword == "ovflwmax" and opened.structures[0].ovflwmax is None


@pytest.mark.parametrize(
    "detail",
    [None, {"text": "no field"}, {"field": "name", "value": "QMSGIMS01"}, {"field": "ovflwstr", "value": "QMSGIMSOV"}],
    ids=["no-detail", "no-field", "a-name", "a-reference"],
)
def test_a_refusal_naming_no_defaultable_keyword_is_raised_as_it_came(detail):
    class Refusing(NarrowOverflowRange):
        def open(self, config: Config) -> None:
            raise BadConfig(detail)

    with pytest.raises(BadConfig):
        open_softened(Refusing(), _cqs_config(30))


def test_softening_stops_after_its_limit():
    class AlwaysRefusing(NarrowOverflowRange):
        def open(self, config: Config) -> None:
            self.opens.append(config)
            s = config.structures[0]
            keyword = next(k for k in ("ovflwmax", "fullthreshold", "ratio", "cflevel") if getattr(s, k) != _default(k))
            raise BadConfig({"field": keyword})

    primary = StructureDef("QMSGIMS01", ovflwmax=30, fullthreshold=60, ratio=8, cflevel=5, ovflwstr="QMSGIMSOV")
    adapter = AlwaysRefusing()
    with pytest.raises(BadConfig):
        open_softened(adapter, attrs.evolve(_cqs_config(30), structures=(primary,)))
    assert len(adapter.opens) == MAX_SOFTENINGS + 1


def _default(keyword: str) -> Any:
    return attrs.fields_dict(StructureDef)[keyword].default


def test_run_trace_judges_the_configuration_that_opened():
    config, ops = next(
        (c, o)
        for i in range(200)
        for c, o in [generate(i, "cqs", 12)]
        if any(s.ovflwmax is not None and s.ovflwmax < 50 for s in c.structures)
    )
    result = run_trace(NarrowOverflowRange(), config, ops)
    assert result.unjudged is None and result.steps_checked == len(ops)
    assert all(s["ovflwmax"] is None or s["ovflwmax"] >= 50 for s in result.config["structures"])


def test_the_gate_judges_cases_it_used_to_drop_and_says_so():
    result = run_gate(lambda: NarrowOverflowRange(), profiles=["cqs"], hypothesis_profile="dev", seed=3)
    assert result.exit_code == 0
    assert any(w.startswith("cqs: configurations refused at open were opened again") for w in result.warnings)
    assert not any("open x" in w for w in result.warnings)  # (no case ended at the open)
