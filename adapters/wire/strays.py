"""The implementation's descendants that left its process group (issue 24, item 7).

The suite starts the implementation as the leader of its own session and process group, and ends
the group on exit, timeout and Ctrl-C.  A descendant that calls ``setsid()`` (a daemon, a detached
helper) leaves that group, so killing the group misses it.  While the leader still runs, its
descendants can be found through ``/proc`` whatever group they are in; they are noted before the
leader is stopped and killed after it, if they still run and are still the same processes (the
start time guards against a reused process ID).  Where ``/proc`` is missing nothing is found.
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

PROC = Path("/proc")

#: (pid, start time in clock ticks since boot) of a process.
Stray = tuple[int, int]


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, start time) of ``pid`` from /proc/PID/stat, or None if it is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()  # the command name may hold spaces and parentheses
    return int(fields[1]), int(fields[19])


def descendants(pid: int) -> list[Stray]:
    """Every process below ``pid`` now, each with its start time; empty without /proc."""
    children: dict[int, list[Stray]] = {}
    with contextlib.suppress(OSError):
        for entry in os.scandir(PROC):
            if entry.name.isdigit():
                found = _stat(int(entry.name))
                if found is not None:
                    children.setdefault(found[0], []).append((int(entry.name), found[1]))
    below, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            below.append(child)
            todo.append(child[0])
    return below


def end(strays: list[Stray]) -> None:
    """SIGKILL each of ``strays`` that still runs as the same process (not a reused pid)."""
    for pid, started in strays:
        found = _stat(pid)
        if found is not None and found[1] == started:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
