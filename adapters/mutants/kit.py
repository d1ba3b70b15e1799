"""Building blocks of the mutant catalogue: the record, the adapter and fault installers.

A fault is an *installer*: a function that receives the freshly opened
:class:`~cfconform.reference_model.model.Model` and patches that one instance, never a module (an entry of
``model._dispatch``, an instance attribute, a wrapped handler).  A fault inside a rule function is made by
:func:`rebind`: a copy of a model function with some of its global names replaced, so the model's own code runs with
one piece swapped.  When a refactoring moves a name a fault relies on, :func:`rebind` and :class:`Patched` refuse
with a ``ValueError`` naming it.
"""

from __future__ import annotations

import copy
import re
import types
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from cfconform.reference_model import validation
from cfconform.reference_model.config import Config
from cfconform.reference_model.model import Model
from cfconform.reference_model.outcomes import CMD_INVALID, Outcome
from cfconform.reference_model.readings import AMBIGUITIES, Readings
from cfconform.reference_model.rules import RULE_BY_ID

from ..protocol import Adapter, Capabilities
from ..reference import ReferenceAdapter

Install = Callable[[Model], None]
Handler = Callable[[Model, Any], Outcome]
MUTANT_ID = re.compile(r"^M-(?P<rule>[A-Z]+-\d{3})-[a-z]$")


@attrs.frozen
class Mutant:
    """One faulty implementation (the model with ``patch`` installed) and its minimal reproducer (``config`` and
    ``scenario``: no operation can be dropped).  ``mixes`` names the ambiguities a mixed-reading fault mixes: each
    step matches some reading, but no single reading matches them all."""

    id: str
    rule: str
    description: str
    config: Config
    scenario: tuple[Any, ...] = attrs.field(converter=tuple)
    patch: Install = attrs.field(eq=False, repr=False)
    mixes: tuple[str, ...] = attrs.field(default=(), converter=tuple)

    def __attrs_post_init__(self) -> None:
        match = MUTANT_ID.match(self.id)
        if match is None or match["rule"] != self.rule or not set(self.mixes) <= set(AMBIGUITIES):
            raise ValueError(f"mutant {self.id!r}: not M-{self.rule}-<letter>, or unknown ambiguities {self.mixes}")

    @property
    def sentence(self) -> str:
        """The documented sentence the fault breaks: its rule's quote in the rule catalogue."""
        return RULE_BY_ID[self.rule].citation.quote

    def factory(self) -> Adapter:
        """A fresh adapter with the fault."""
        return MutantAdapter(self.id, self.patch, self.config.profile)


class MutantAdapter(ReferenceAdapter):
    """The reference model (default readings) with one fault installed after ``open``; it declares no reading
    (the gate must infer them, and fail to for a mixed one) and claims only the profile its fault is built for."""

    def __init__(self, name: str, install: Install, profile: str = "mq") -> None:
        super().__init__(Readings(), name=name)
        self._install, self._profile = install, profile

    def capabilities(self) -> Capabilities:
        return Capabilities(name=self.name, profiles=(self._profile,))

    def open(self, config: Config) -> None:
        super().open(config)
        assert self.model is not None
        self._install(self.model)


def family(name: str, *rows: tuple[Any, ...]) -> tuple[Mutant, ...]:
    """One family's mutants, one row each: ``(suffix, description, config, scenario, patch[, mixes])``; the ID is
    ``M-<name>-<suffix>``, the rule ``<name>-NNN`` (``suffix`` is ``NNN-x``)."""
    return tuple(Mutant(f"M-{name}-{row[0]}", f"{name}-{row[0][:3]}", *row[1:]) for row in rows)


# -- function and module rebinding --------------------------------------------------
def _names(code: types.CodeType) -> set[str]:
    """The global names ``code`` and the code nested in it (comprehensions, lambdas) look up."""
    return set(code.co_names).union(*(_names(c) for c in code.co_consts if isinstance(c, types.CodeType)))


def rebind(fn: Callable[..., Any], **names: Any) -> Callable[..., Any]:
    """A copy of ``fn`` whose global lookups of ``names`` see the given objects instead."""
    unknown = [n for n in names if n not in _names(fn.__code__)]
    if unknown:
        raise ValueError(f"{fn.__qualname__} does not refer to {unknown}")
    new = types.FunctionType(fn.__code__, fn.__globals__ | names, fn.__name__, fn.__defaults__, fn.__closure__)
    new.__kwdefaults__, new.__qualname__ = fn.__kwdefaults__, fn.__qualname__
    return new


class Patched:
    """A stand-in for a module with some attributes replaced (used with :func:`rebind`)."""

    def __init__(self, base: types.ModuleType, **overrides: Any) -> None:
        missing = [n for n in overrides if not hasattr(base, n)]
        if missing:
            raise ValueError(f"{base.__name__} has no {missing}")
        self.__dict__.update(overrides, _base=base)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)


def force_evolve(record: Any, changes: Mapping[str, Any]) -> Any:
    """``attrs.evolve`` without validation: what an implementation that skips a check stores."""
    new = copy.copy(record)
    for key, value in changes.items():
        object.__setattr__(new, key, value)
    return new


# -- installers ----------------------------------------------------------------------
def chain(*installs: Install) -> Install:
    """Apply several installers in order."""

    def install(model: Model) -> None:
        for one in installs:
            one(model)

    return install


def wrap(op_type: type | tuple[type, ...], make: Callable[[Handler], Handler]) -> Install:
    """Replace the handler of ``op_type`` (or of each of a tuple of them) by ``make(original_handler)``."""

    def install(model: Model) -> None:
        for one in op_type if isinstance(op_type, tuple) else (op_type,):
            model._dispatch[one] = make(model._dispatch[one])

    return install


def rebound(op_type: type | tuple[type, ...], **names: Any) -> Install:
    """Run the model's own handler of ``op_type`` with some global names replaced (:func:`rebind`)."""
    return wrap(op_type, lambda original: rebind(original, **names))


def post(op_type: type | tuple[type, ...], fn: Callable[[Model, Any, Outcome], Outcome]) -> Install:
    """Post-process the outcomes of ``op_type``: ``fn(model, op, outcome) -> outcome``."""
    return wrap(op_type, lambda original: lambda model, op: fn(model, op, original(model, op)))


def pre(op_type: type, fn: Callable[[Model, Any], Outcome | None]) -> Install:
    """Answer ``op_type`` with ``fn(model, op)`` when it returns an outcome, else as the model does."""
    return wrap(op_type, lambda original: lambda m, op: original(m, op) if (out := fn(m, op)) is None else out)


def around(op_type: type, before: Callable[[Model, Any], Any], after: Callable[..., None] | None = None) -> Install:
    """``op_type`` handled by the model between ``saved = before(model, op)`` and ``after(model, op, saved)``."""

    def make(original: Handler) -> Handler:
        def handler(model: Model, op: Any) -> Outcome:
            saved = before(model, op)
            try:
                return original(model, op)
            finally:
                if after is not None:
                    after(model, op, saved)

        return handler

    return wrap(op_type, make)


def during(op_type: type, target: Callable[[Model, Any], Any], **values: Any) -> Install:
    """``op_type`` handled by the model while ``target(model, op)`` (unless None) has the attributes ``values``
    (a value may be ``fn(model, op)`` giving one)."""

    def before(model: Model, op: Any) -> tuple[Any, dict[str, Any]]:
        obj = target(model, op)
        saved = {} if obj is None else {k: getattr(obj, k) for k in values}
        for k in saved:
            setattr(obj, k, values[k](model, op) if callable(values[k]) else values[k])
        return obj, saved

    return around(op_type, before, lambda model, op, kept: [setattr(kept[0], k, v) for k, v in kept[1].items()])


def reading(op_type: type, **choose: Any) -> Install:
    """``op_type`` handled under other readings (a mixed-reading fault): each ``choose[name]`` a reading, or
    ``fn(model, op)`` giving one."""
    pick = lambda m, op: attrs.evolve(m.readings, **{k: f(m, op) if callable(f) else f for k, f in choose.items()})  # noqa: E731
    return during(op_type, lambda model, op: model, readings=pick)


def refuse(op_type: Any, when: Callable[[Model, Any], Any], reason: int, rule: str) -> Install:
    """Refuse ``op_type`` with ``reason`` under ``rule`` where ``when(model, op)`` holds."""
    return pre(op_type, lambda m, op: Outcome(op_type.KIND, False, reason, (rule,)) if when(m, op) else None)


def reason_for(op_type: type, old: Any, new: Any, when: Callable[[Model, Any], Any] | None = None) -> Install:
    """Report ``new`` where ``op_type`` fails with ``old`` (a reason, or the ID of a rule that refused it)
    and ``when(model, op)``, if given, holds."""

    def fn(model: Model, op: Any, o: Outcome) -> Outcome:
        failed = o.reason == old or (not o.ok and old in o.rules)
        return evolve(o, reason=new) if failed and (when is None or when(model, op)) else o

    return post(op_type, fn)


def state(model: Model, key: str) -> dict[Any, Any]:
    """Private per-model state of a fault (kept on the model instance, so it dies with it)."""
    return model.__dict__.setdefault("_mutant_state", {}).setdefault(key, {})


#: A changed copy of an outcome (outcomes are values: never mutate one).
evolve = attrs.evolve


def lenient(op_type: type, rule: str, when: Callable[[Model, Any], bool] | None = None) -> Install:
    """Skip the validation of ``rule``: a DEFINE or ALTER the model rejects as INVALID under ``rule`` (where
    ``when(model, op)``, if given, holds before it runs) is carried out again with every rule's bounds lifted
    (:func:`cfconform.reference_model.validation.lenient`)."""

    def make(original: Handler) -> Handler:
        def handler(model: Model, op: Any) -> Outcome:
            applies = when is None or when(model, op)
            out = original(model, op)
            if not applies or out.ok or out.reason != CMD_INVALID or rule not in out.rules:
                return out
            with validation.lenient(frozenset(RULE_BY_ID)):
                return original(model, op)

        return handler

    return wrap(op_type, make)
