"""Whether a command can write where it is told to, asked before any work starts (exit 2 if not)."""

from __future__ import annotations

import os
from pathlib import Path


def unwritable(directory: Path) -> str | None:
    """Why files cannot be written in ``directory`` (created if missing), or None if they can."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / f".cfconform-write-test-{os.getpid()}"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as err:
        return f"not a writable directory ({err.strerror or err})"
    return None
