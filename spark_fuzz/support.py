"""What a campaign generates for an implementation: the kinds of operation of the families it
claims, less the kinds it answers "not supported" (issue 23: "never generated for it again").

The kinds are decided once, on the driver, before the campaign starts, and shipped in the
:class:`~cfconform.spark_fuzz.blocks.CampaignSpec` (``skip``): trace ``i`` stays a pure function of the
spec, so a campaign resumes and replays the same on any cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from cfconform.adapters.protocol import FAMILIES, Adapter, NotSupported
from cfconform.properties.generator import ALWAYS, MAKER_FAMILIES, maker_keys, probe


def unclaimed_makers(families: Iterable[str]) -> set[str]:
    """Makers whose every family the implementation leaves unclaimed."""
    claimed = set(families)
    return {key for key, serves in MAKER_FAMILIES.items() if not serves & claimed}


def unsupported_makers(load: Callable[[], Adapter], profiles: Iterable[str], skip: set[str]) -> set[str]:
    """Makers whose one-operation probe the implementation answers "not supported"."""
    found: set[str] = set()
    adapter = load()
    try:
        for profile in profiles:
            for key in maker_keys(profile):
                if key in ALWAYS or key == "inspect" or key in skip or key in found:
                    continue
                if _refuses(adapter, profile, key):
                    found.add(key)
    finally:
        adapter.close()
    return found


def _refuses(adapter: Adapter, profile: str, key: str) -> bool:
    config, op = probe(profile, key)
    try:
        adapter.open(config)
    except Exception:  # a configuration it refuses says nothing of the kind
        return False
    try:
        adapter.apply(op)
    except NotSupported:
        return True
    except Exception:  # any other error is the campaign's to find
        return False
    return False


def skipped(load: Callable[[], Adapter], caps: dict[str, Any], profiles: Iterable[str]) -> tuple[str, ...]:
    """The makers a campaign leaves out for this implementation, sorted."""
    skip = unclaimed_makers(caps.get("families", FAMILIES))
    return tuple(sorted(skip | unsupported_makers(load, profiles, skip)))
