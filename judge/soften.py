"""Open again a configuration the implementation refused, with the keyword it named at its default.

An implementation may refuse to ``open`` any configuration no sentence requires it to accept
(principle 1): a range the documents never state (OVFLWMAX outside 50..100, say; ibm-facts 1.1
"Valid range of OVFLWMAX: NOT FOUND") is its own to choose.  Such a refusal is never a verdict, but
dropping the whole test case loses everything else the case would have judged: the tenth reading
refuses 45% of the generated ``cqs`` configurations for its OVFLWMAX range alone.

When the refusal names a keyword of a structure or queue definition (``detail.field`` of wire error
13, or a :class:`ConfigurationError`'s ``field``), the entries holding the refused value are given
the keyword's default and the configuration is opened again, a few times at most.  The trace is then
judged on the configuration that opened, which its record (and so its reproducer) carries.

Names and references (``name``, ``cfstruct``, ``qmgr``, ``ovflwstr``) are never changed: no default
stands for them.  A forbidden configuration (``judge.opening``) travels as a record and is never
softened: there the refusal is the verdict.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from cfconform.adapters.protocol import Adapter, is_refusal
from cfconform.reference_model.config import Config
from cfconform.reference_model.errors import ConfigurationError

#: Opens tried again after refusals, at most, per test case (each names one more keyword).
MAX_SOFTENINGS = 3

#: Keywords that name or refer to something: a default would change what the operations address.
_NAMES = frozenset({"name", "cfstruct", "qmgr", "ovflwstr"})

_ANY = object()  # (the refusal named no value: every entry off the default is a suspect)


def _refused(err: BaseException) -> tuple[str, Any] | None:
    """The keyword (its last dotted component, lower case) and value a refusal names, if any."""
    if isinstance(err, ConfigurationError):
        field, value = err.field, err.value
    else:
        detail = getattr(err, "detail", None)
        if not isinstance(detail, Mapping) or not isinstance(detail.get("field"), str):
            return None
        field, value = detail["field"], detail.get("value", _ANY)
    words = re.findall(r"[A-Za-z_][A-Za-z_0-9]*", field)
    return (words[-1].lower(), value) if words else None


def _defaulted(defn: Any, keyword: str, value: Any) -> Any:
    """``defn`` with ``keyword`` at its default if it holds the refused ``value``, else ``defn``."""
    spec = attrs.fields_dict(type(defn)).get(keyword)
    if spec is None or keyword in _NAMES or spec.default is attrs.NOTHING or isinstance(spec.default, attrs.Factory):  # type: ignore[arg-type]
        return defn
    current = getattr(defn, keyword)
    if current == spec.default or (value is not _ANY and current != value):
        return defn
    return attrs.evolve(defn, **{spec.alias: spec.default})


def softened(config: Config, err: BaseException) -> tuple[Config, str] | None:
    """``config`` with the keyword ``err`` refused at its default where it held the refused value,
    and that keyword; ``None`` when the refusal names nothing this can change (or the result would
    not be a valid configuration)."""
    found = _refused(err)
    if found is None:
        return None
    keyword, value = found
    structures = tuple(_defaulted(s, keyword, value) for s in config.structures)
    queues = tuple(_defaulted(q, keyword, value) for q in config.queues)
    if structures == config.structures and queues == config.queues:
        return None
    try:
        return attrs.evolve(config, structures=structures, queues=queues), keyword
    except ConfigurationError:  # (the default breaks another keyword's relation, e.g. INITSIZE <= SIZE)
        return None


def open_softened(adapter: Adapter, config: Config) -> tuple[Config, tuple[str, ...]]:
    """Open ``adapter`` with ``config``, softened after each refusal that names a keyword
    (:func:`softened`); the configuration that opened and the keywords defaulted on the way.  A
    refusal this cannot soften, or the last one allowed, is raised as it came."""
    keywords: list[str] = []
    while True:
        try:
            adapter.open(config)
            return config, tuple(keywords)
        except Exception as err:
            refusal = is_refusal(err) or isinstance(err, ConfigurationError)
            soft = softened(config, err) if refusal and len(keywords) < MAX_SOFTENINGS else None
            if soft is None:
                raise
            config, keyword = soft
            keywords.append(keyword)


__all__ = ["MAX_SOFTENINGS", "open_softened", "softened"]
