"""Known deviations: a TOML file keyed by rule ID that turns expected failures into warnings.

Format::

    [[deviation]]
    rule = "OFFLOAD-002"
    reason = "uses >= for OFFLD2TH only; fix tracked in ISSUE-123"
    expires = 2027-03-31        # optional; after it the entry fails the gate

An entry whose rule passes (an unexpected pass) or whose date has passed fails the gate.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from pathlib import Path

from cfconform.judge.results import Deviation
from cfconform.reference_model.errors import UNKNOWN_FIELD, ConfigurationError
from cfconform.reference_model.rules import RULE_BY_ID


def load_deviations(path: str | Path) -> tuple[Deviation, ...]:
    """Read and validate a deviations file; errors name the entry and field.

    A bad file is a usage error (exit 2): its message cites no rule, as no rule decides a file's shape.
    """
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise ConfigurationError("--deviations", str(path), f"a readable TOML file ({err})", UNKNOWN_FIELD) from err
    entries = data.get("deviation", [])
    if not isinstance(entries, list):
        raise ConfigurationError(f"{path}: deviation", entries, "[[deviation]] tables", UNKNOWN_FIELD)
    out = []
    for i, entry in enumerate(entries):
        where = f"{path}: deviation[{i}]"
        rule = entry.get("rule") if isinstance(entry, dict) else None
        if rule not in RULE_BY_ID:
            raise ConfigurationError(f"{where}.rule", rule, "a rule ID from `cfconform rules`", UNKNOWN_FIELD)
        reason = entry.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise ConfigurationError(f"{where}.reason", reason, "a non-empty string", UNKNOWN_FIELD)
        expires = entry.get("expires")
        if isinstance(expires, str):
            try:
                expires = dt.date.fromisoformat(expires)
            except ValueError:
                raise ConfigurationError(f"{where}.expires", expires, "a date (YYYY-MM-DD)", UNKNOWN_FIELD) from None
        if expires is not None and (not isinstance(expires, dt.date) or isinstance(expires, dt.datetime)):
            raise ConfigurationError(f"{where}.expires", expires, "a date (YYYY-MM-DD)", UNKNOWN_FIELD)
        out.append(Deviation(rule, reason.strip(), expires))
    return tuple(out)
