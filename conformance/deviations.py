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

from conformance.results import Deviation
from reference_model.errors import ConfigurationError
from reference_model.rules import RULE_BY_ID


def load_deviations(path: str | Path) -> tuple[Deviation, ...]:
    """Read and validate a deviations file; errors name the entry and field."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise ConfigurationError("deviations", str(path), f"a readable TOML file ({err})", "none: file") from err
    out = []
    for i, entry in enumerate(data.get("deviation", [])):
        where = f"deviation[{i}]"
        rule = entry.get("rule")
        if rule not in RULE_BY_ID:
            raise ConfigurationError(f"{where}.rule", rule, "a rule ID from `cfconform rules`", "none: file")
        reason = entry.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise ConfigurationError(f"{where}.reason", reason, "a non-empty string", rule)
        expires = entry.get("expires")
        if isinstance(expires, str):
            expires = dt.date.fromisoformat(expires)
        if expires is not None and not isinstance(expires, dt.date):
            raise ConfigurationError(f"{where}.expires", expires, "a date (YYYY-MM-DD)", rule)
        out.append(Deviation(rule, reason.strip(), expires))
    return tuple(out)
