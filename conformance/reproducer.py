"""Reproducers: a failing trace as a JSON transcript, its replay, and a standalone pytest module.

Transcript format (``version`` 1)::

    {"format": "cfconform-transcript", "version": 1,
     "adapter": "<spec it was recorded against>", "profile": "mq",
     "config": {config record}, "ops": [op records],
     "expected": {"kind": "divergence", "rules": [...], "step": 3, "field": "offloaded",
                  "expected": false, "observed": true},
     "readings": {ambiguity: [readings still consistent with the implementation]}}

Records are those of :mod:`cfconform.reference_model.codec`.  ``expected.kind`` is
``divergence`` or ``fault`` (an adapter crash; then ``observed`` is the message).
"""

from __future__ import annotations

import hashlib
import json
import os
import pprint
import reprlib
import shlex
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from cfconform.adapters.protocol import Adapter
from cfconform.judge.opening import config_or_forbidden
from cfconform.judge.results import FailureRecord
from cfconform.judge.runner import run_trace
from cfconform.judge.trace import TraceResult
from cfconform.reference_model.codec import op_from_record
from cfconform.reference_model.errors import UNKNOWN_FIELD, ConfigurationError

FORMAT = "cfconform-transcript"
VERSION = 1
#: Environment variable naming the adapter a generated reproducer test runs against.
ADAPTER_ENV = "CFCONFORM_ADAPTER"
_EXPECTED_KEYS = ("rules", "step", "field", "expected", "observed")


def adapter_factory(
    spec: str | None = None, cmd: str | None = None, *, timeout: float = 10.0
) -> tuple[Callable[[], Adapter], str]:
    """A fresh-adapter factory and its spec, from ``--adapter SPEC`` or ``--adapter-cmd CMD``.

    ``cmd`` becomes ``WireAdapter(shlex.split(cmd), timeout=timeout)`` (spec ``wire:CMD``).  A
    ``module:attr`` spec may name a module in the current directory.  The spec is loaded once
    here, so an unknown adapter raises :class:`~cfconform.adapters.registry.AdapterLoadError` at once.
    """
    from cfconform.adapters.registry import load_adapter

    if (spec is None) == (cmd is None):
        raise ConfigurationError("adapter", None, "exactly one of --adapter and --adapter-cmd", UNKNOWN_FIELD)
    if spec is not None and spec.strip().startswith("wire:"):
        cmd, spec = spec.strip().removeprefix("wire:"), None
    if cmd is not None:
        from cfconform.adapters.wire.client import WireAdapter

        try:
            argv = shlex.split(cmd)
        except ValueError as err:  # an unbalanced quote: a usage error, found before anything starts
            raise ConfigurationError("--adapter", f"wire:{cmd}", f"a command line ({err})", UNKNOWN_FIELD) from None
        if not argv:
            raise ConfigurationError("--adapter", f"wire:{cmd}", "wire:COMMAND", UNKNOWN_FIELD)
        return (lambda: WireAdapter(argv, timeout=timeout)), f"wire:{shlex.join(argv)}"
    assert spec is not None
    spec = spec.strip()
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    load_adapter(spec).close()
    return (lambda: load_adapter(spec)), spec


def _digest(config: Mapping[str, Any], ops: Any) -> str:
    text = json.dumps({"config": config, "ops": list(ops)}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def write_transcript(failure: FailureRecord, adapter_name: str) -> dict[str, Any]:
    """The transcript of one gate failure (a JSON-safe dict; the caller writes it)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "adapter": adapter_name,
        "profile": failure.profile,
        "config": failure.config,
        "ops": list(failure.ops),
        "expected": {
            "kind": failure.kind,
            "rules": list(failure.rules),
            "step": failure.step,
            "field": failure.field,
            "expected": failure.expected,
            "observed": failure.observed,
        },
        "readings": failure.readings,
    }


def transcript_stem(transcript: Mapping[str, Any]) -> str:
    """``<first-rule>-<shorthash>`` (``FAULT-<hash>`` for an adapter fault): the file name stem."""
    rules = transcript["expected"].get("rules") or ["FAULT"]
    return f"{rules[0]}-{_digest(transcript['config'], transcript['ops'])}"


def _require(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    name = f"{where}{key}"
    if key not in data:
        raise ConfigurationError(f"transcript.{name}", None, "present", UNKNOWN_FIELD)
    value = data[key]
    if not isinstance(value, kind):
        allowed = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise ConfigurationError(f"transcript.{name}", value, f"a {allowed}", UNKNOWN_FIELD)
    return value


def validate_transcript(data: Any) -> dict[str, Any]:
    """Check a transcript's shape and decode its config and ops (errors name the field)."""
    if not isinstance(data, dict):
        raise ConfigurationError("transcript", type(data).__name__, "a JSON object", UNKNOWN_FIELD)
    if data.get("format") != FORMAT:
        raise ConfigurationError("transcript.format", data.get("format"), repr(FORMAT), UNKNOWN_FIELD)
    if data.get("version") != VERSION:
        raise ConfigurationError("transcript.version", data.get("version"), str(VERSION), UNKNOWN_FIELD)
    _require(data, "adapter", str)
    _require(data, "profile", str)
    config = _require(data, "config", dict)
    ops = _require(data, "ops", list)
    expected = _require(data, "expected", dict)
    _require(data, "readings", dict)
    for key in _EXPECTED_KEYS:
        if key not in expected:
            raise ConfigurationError(f"transcript.expected.{key}", None, "present", UNKNOWN_FIELD)
    _require(expected, "rules", list, "expected.")
    _require(expected, "field", str, "expected.")
    if expected["step"] is not None and not isinstance(expected["step"], int):
        raise ConfigurationError("transcript.expected.step", expected["step"], "an integer or null", UNKNOWN_FIELD)
    _decoded("transcript.config", config, config_or_forbidden)
    for i, op in enumerate(ops):
        if not isinstance(op, dict):
            raise ConfigurationError(f"transcript.ops[{i}]", op, "an operation record (object)", UNKNOWN_FIELD)
        _decoded(f"transcript.ops[{i}]", op, op_from_record)
    return data


def _decoded(where: str, record: dict[str, Any], decode: Callable[[dict[str, Any]], Any]) -> Any:
    """``decode(record)``; a record of the wrong shape (a list where an object belongs, say) is a bad
    transcript naming ``where`` (exit 2), not a crash blamed on the run."""
    try:
        return decode(record)
    except ConfigurationError as err:  # named where it is in the transcript
        raise ConfigurationError(f"{where}.{err.field}", err.value, err.allowed, err.rule_id) from None
    except (TypeError, AttributeError, KeyError, ValueError) as err:
        allowed = f"a record of the documented shape ({type(err).__name__}: {err})"
        raise ConfigurationError(where, reprlib.repr(record), allowed, UNKNOWN_FIELD) from None


def load_transcript(path: str | Path) -> dict[str, Any]:
    """Read and validate a transcript file; a bad file raises ConfigurationError naming the field."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ConfigurationError("transcript", str(path), f"a readable JSON transcript ({err})", UNKNOWN_FIELD) from err
    return validate_transcript(data)


def replay(transcript: Mapping[str, Any], adapter: Adapter, *, batch: bool = False) -> TraceResult:
    """Run the transcript's operations through ``adapter`` (which the caller closes) and judge them."""
    config = config_or_forbidden(transcript["config"])  # (a forbidden one stays a record: judge/opening.py)
    ops = [op_from_record(r) for r in transcript["ops"]]
    return run_trace(adapter, config, ops, batch=batch)


def op_text(op: Mapping[str, Any]) -> str:
    """One operation record as ``kind key=value ...``."""
    args = " ".join(f"{k}={v}" for k, v in op.items() if k != "op")
    return f"{op.get('op', '?')} {args}".strip()


def describe(result: TraceResult) -> str:
    """A verdict in one paragraph: the divergence (step, op, field, expected, observed, rules) or the fault."""
    if result.divergence is not None:
        d = result.divergence
        return (
            f"step {d.step} ({op_text(d.op)}): {d.field} expected {d.expected!r}, observed {d.observed!r} "
            f"[{', '.join(d.rules)}]"
        )
    if result.fault is not None:
        return f"adapter fault at step {result.fault.step}: {result.fault.message}"
    return f"pass: {result.steps_checked} steps conform"


_TEST_TEMPLATE = '''\
"""Reproducer generated by cfconform for {title}.{blamed}

It fails while the bug exists: replaying the recorded trace against the adapter must conform.
Run it with ``python -m pytest {filename}``; set {env}=SPEC to test another adapter
(default: the adapter it was recorded against, {spec!r}).
"""

import json
import os

from cfconform.adapters.registry import load_adapter
from cfconform.conformance.reproducer import describe, replay, validate_transcript

TRANSCRIPT = validate_transcript(json.loads({literal}))
ADAPTER = os.environ.get({env!r}) or {spec!r}


def {test_name}():
    adapter = load_adapter(ADAPTER)
    try:
        result = replay(TRANSCRIPT, adapter)
    finally:
        adapter.close()
    assert result.verdict == "pass", f"{{ADAPTER}}: " + describe(result)
'''


def render_pytest(transcript: Mapping[str, Any], adapter_spec: str) -> str:
    """A standalone pytest module embedding ``transcript``; it passes once the implementation conforms."""
    stem = transcript_stem(transcript)
    text = json.dumps(transcript, indent=1, sort_keys=True)
    literal = f'r"""\n{text}\n"""' if '"""' not in text and not text.endswith("\\") else pprint.pformat(text)
    exp = transcript["expected"]
    rules = exp["rules"] or ["an adapter fault"]
    title = f"{rules[0]} ({transcript['profile']} profile, step {exp['step']}, field {exp['field']})"
    blamed = f"\n\nRules blamed: {', '.join(rules)}" if len(rules) > 1 else ""
    ident = stem.replace("-", "_")
    return _TEST_TEMPLATE.format(
        title=title,
        blamed=blamed,
        filename=f"test_{ident}.py",
        env=ADAPTER_ENV,
        spec=adapter_spec,
        literal=literal,
        test_name=f"test_reproducer_{ident}",
    )
