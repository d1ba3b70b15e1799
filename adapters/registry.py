"""Finding adapters by name: built-ins, plugins, ``module:attr`` specs, wire commands, mutants.

An adapter *spec* is one of:

``reference``
    a name: a built-in, or a plugin registered under the entry-point group
    ``cfconform.adapters`` (``[project.entry-points."cfconform.adapters"]`` in
    the plugin's pyproject.toml, value ``module:attr``);
``package.module:attr``
    an importable object: an Adapter class, or a factory returning an Adapter;
``wire:COMMAND``
    an implementation process speaking the wire protocol (docs/PROTOCOL.md),
    e.g. ``wire:node examples/node-adapter/adapter.js`` (split with shlex, no shell);
``mutant:ID``
    a mutant of the reference model, from ``cfconform.adapters.mutants.get_mutant(ID)``.

:func:`load_adapter` returns a fresh Adapter; an unknown or broken spec raises
:class:`AdapterLoadError` (a ConfigurationError: the CLI exits 2) that lists
what is installed.
"""

from __future__ import annotations

import importlib
import re
import shlex
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

import attrs

from cfconform.reference_model.errors import UNKNOWN_FIELD, ConfigurationError

from .protocol import Adapter

ENTRY_POINT_GROUP = "cfconform.adapters"
#: Built-in adapters (also registered as entry points in pyproject.toml).
BUILTINS: dict[str, str] = {"reference": "cfconform.adapters.reference:ReferenceAdapter"}
_OBJECT_SPEC = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


class AdapterLoadError(ConfigurationError):
    """An adapter spec that names nothing loadable, or an object that is not an Adapter."""

    def __init__(self, spec: str, allowed: str) -> None:
        super().__init__("adapter", spec, allowed, UNKNOWN_FIELD)


@attrs.frozen
class AdapterInfo:
    """One installed adapter: ``name``, the ``module:attr`` it loads and where it comes from."""

    name: str
    target: str
    source: str


def installed() -> dict[str, AdapterInfo]:
    """Built-ins and the plugins of the ``cfconform.adapters`` entry-point group, by name."""
    found = {name: AdapterInfo(name, target, "built-in") for name, target in BUILTINS.items()}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        dist = getattr(ep, "dist", None)
        origin = f"entry point ({dist.name} {dist.version})" if dist is not None else "entry point"
        if ep.name in BUILTINS and ep.value == BUILTINS[ep.name]:
            origin = f"built-in, {origin}"
        found[ep.name] = AdapterInfo(ep.name, ep.value, origin)
    return found


def _describe_installed() -> str:
    names = sorted(installed())
    return f"an installed adapter name (one of {names}), module:attr, 'wire:COMMAND' or 'mutant:ID'"


def resolve_object(target: str) -> Any:
    """Import ``module:attr`` (attr may be dotted) and return the object."""
    module_name, _, attr = target.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise AdapterLoadError(target, f"an importable module ({exc})") from exc
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise AdapterLoadError(target, f"an attribute of {module_name} ({part!r} not found)") from None
    return obj


def _instantiate(spec: str, obj: Any, kwargs: dict[str, Any]) -> Adapter:
    if isinstance(obj, Adapter) and not isinstance(obj, type):
        if kwargs:
            raise AdapterLoadError(spec, "a class or factory (options were given, but it is an instance)")
        return obj
    if not callable(obj):
        raise AdapterLoadError(spec, "an Adapter class or a factory returning an Adapter")
    try:
        adapter = obj(**kwargs)
    except TypeError as exc:
        raise AdapterLoadError(spec, f"a class or factory accepting {sorted(kwargs)} ({exc})") from exc
    if not isinstance(adapter, Adapter):
        raise AdapterLoadError(
            spec,
            f"something returning an Adapter (got {type(adapter).__name__}, which lacks "
            "capabilities/open/apply/apply_batch/close)",
        )
    return adapter


def mutant_factory(mutant_id: str) -> Callable[[], Adapter]:
    """A factory for ``mutant:ID`` (needs the ``cfconform.adapters.mutants`` package)."""
    try:
        mutants = importlib.import_module("cfconform.adapters.mutants")
    except ImportError as exc:
        raise AdapterLoadError(f"mutant:{mutant_id}", f"the cfconform.adapters.mutants package ({exc})") from exc
    get = getattr(mutants, "get_mutant", None)
    if get is None:
        raise AdapterLoadError(
            f"mutant:{mutant_id}", "a mutant catalogue (cfconform.adapters.mutants.get_mutant is missing)"
        )
    try:
        found = get(mutant_id)
    except (KeyError, LookupError, ValueError) as exc:
        known = mutant_ids()
        hint = f"e.g. {', '.join(known[:3])}, ... ({len(known)} in all; `cfconform adapters --json` lists them)"
        raise AdapterLoadError(f"mutant:{mutant_id}", f"a known mutant ID, {hint}") from exc
    if found is None:
        raise AdapterLoadError(f"mutant:{mutant_id}", "a known mutant ID")
    factory = getattr(found, "factory", None)
    if factory is not None and not isinstance(found, Adapter):
        return factory
    if isinstance(found, Adapter):
        return lambda: found
    return found


def load_adapter(spec: str, **kwargs: Any) -> Adapter:
    """A fresh Adapter for ``spec`` (see the module docstring); ``kwargs`` go to its factory."""
    spec = spec.strip()
    if spec.startswith("wire:"):
        from .wire.client import WireAdapter

        cmd = shlex.split(spec[len("wire:") :])
        if not cmd:
            raise AdapterLoadError(spec, "'wire:' followed by the implementation's command")
        return WireAdapter(cmd, **kwargs)
    if spec.startswith("mutant:"):
        return _instantiate(spec, mutant_factory(spec[len("mutant:") :].strip()), kwargs)
    known = installed()
    if spec in known:
        return _instantiate(spec, resolve_object(known[spec].target), kwargs)
    if _OBJECT_SPEC.match(spec):
        return _instantiate(spec, resolve_object(spec), kwargs)
    raise AdapterLoadError(spec, _describe_installed())


def mutant_ids() -> list[str]:
    """The mutant IDs the catalogue offers (empty when cfconform.adapters.mutants is absent or has no list)."""
    try:
        mutants = importlib.import_module("cfconform.adapters.mutants")
    except ImportError:
        return []
    for name in ("MUTANTS", "CATALOGUE", "CATALOG"):
        catalogue = getattr(mutants, name, None)
        if isinstance(catalogue, dict):
            return sorted(str(k) for k in catalogue)
        if isinstance(catalogue, list | tuple):
            return sorted(str(getattr(m, "id", m)) for m in catalogue)
    return []
