"""Adapter discovery: built-ins, entry points, module:attr specs, wire commands and mutants."""

from __future__ import annotations

import importlib.util
import json
import shlex

import pytest

from cfconform.adapters import registry
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.adapters.registry import AdapterLoadError, load_adapter
from cfconform.adapters.wire.client import WireAdapter
from cfconform.cli.main import main
from cfconform.reference_model.errors import ConfigurationError
from tests.adapters.conftest import SERVE_REFERENCE


def make_reference(name: str = "made") -> ReferenceAdapter:
    return ReferenceAdapter(name=name)


NOT_AN_ADAPTER = object()


def test_reference_is_installed():
    info = registry.installed()["reference"]
    assert "cfconform.adapters.reference:ReferenceAdapter" == info.target
    assert "built-in" in info.source


def test_load_by_name():
    assert isinstance(load_adapter("reference"), ReferenceAdapter)


def test_load_class_spec():
    assert isinstance(load_adapter("cfconform.adapters.reference:ReferenceAdapter"), ReferenceAdapter)


def test_load_factory_spec_with_options():
    adapter = load_adapter("tests.adapters.test_registry:make_reference", name="custom")
    assert "custom" == adapter.capabilities().name


def test_unknown_name_lists_installed_adapters():
    with pytest.raises(AdapterLoadError, match="reference") as caught:
        load_adapter("no-such-adapter")
    assert isinstance(caught.value, ConfigurationError)  # the CLI turns it into exit code 2


def test_spec_that_is_not_an_adapter_is_refused():
    with pytest.raises(AdapterLoadError, match="Adapter"):
        load_adapter("tests.adapters.test_registry:NOT_AN_ADAPTER")


def test_spec_of_a_missing_module_or_attribute_is_refused():
    with pytest.raises(AdapterLoadError, match="importable"):
        load_adapter("no_such_module_xyz:Thing")
    with pytest.raises(AdapterLoadError, match="not found"):
        load_adapter("cfconform.adapters.reference:NoSuchThing")


def test_wire_spec_gives_a_wire_adapter():
    adapter = load_adapter("wire:" + shlex.join(SERVE_REFERENCE), timeout=10)
    try:
        assert isinstance(adapter, WireAdapter)
        assert "reference" == adapter.capabilities().name
    finally:
        adapter.close()


def test_entry_points_are_discovered(monkeypatch):
    class FakeEntryPoint:
        name, value, dist = "plugin-x", "cfconform.adapters.reference:ReferenceAdapter", None

    monkeypatch.setattr(
        registry, "entry_points", lambda group: [FakeEntryPoint()] if group == "cfconform.adapters" else []
    )
    assert "entry point" == registry.installed()["plugin-x"].source
    assert isinstance(load_adapter("plugin-x"), ReferenceAdapter)


@pytest.mark.skipif(importlib.util.find_spec("cfconform.adapters.mutants") is None, reason="no mutant catalogue")
def test_mutant_spec_loads_a_mutant_when_the_catalogue_offers_it():
    mutants = importlib.import_module("cfconform.adapters.mutants")
    if not hasattr(mutants, "get_mutant"):
        with pytest.raises(AdapterLoadError, match="get_mutant"):
            load_adapter("mutant:M-QUEUE-001-a")
        return
    ids = registry.mutant_ids()
    if not ids:
        pytest.skip("the catalogue lists no mutant IDs")
    adapter = load_adapter(f"mutant:{ids[0]}")
    assert hasattr(adapter, "apply_batch")


def test_unknown_mutant_is_refused():
    with pytest.raises(AdapterLoadError):
        load_adapter("mutant:M-NOPE-999-z")


def test_adapters_command_lists_reference(capsys):
    assert 0 == main(["adapters"])
    out = capsys.readouterr().out
    assert "reference" in out and "mq,cqs" in out


def test_adapters_command_json(capsys):
    assert 0 == main(["adapters", "--json"])
    rows = json.loads(capsys.readouterr().out)["adapters"]
    assert {"name": "reference", "profiles": "mq,cqs"} == {k: rows[0][k] for k in ("name", "profiles")}
