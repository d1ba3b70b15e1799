"""Progress of a long command on stderr (issue 24): a live bar on a terminal (tqdm), a plain line
at least every two seconds in a CI log, nothing with ``-q``.

The work itself never prints: it reports counts through :meth:`Progress.watch` (a state
machine's recorder: cases, steps, failures) or :meth:`Progress.advance` (items done), and a
daemon thread reads them.  Reading counts another thread writes is safe here: they are ints.
Status lines go through :meth:`Progress.say`, which keeps a live bar intact.  A subclass
shows other counts by overriding :meth:`Progress.line`, :meth:`Progress.position` and
:meth:`Progress.postfix` (``cfconform.spark_fuzz.progress.SparkProgress``: ``fuzz`` and ``diff``).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any, TextIO

#: The longest wait between plain progress lines (the issue's bound: at least every 2 s).
INTERVAL = 2.0
#: Lines are due at this share of the interval, on a fixed schedule: a thread woken late on a busy
#: machine (two cores, other jobs, the work holding the GIL) still keeps within the interval.
EARLY = 0.8


class Progress:
    """One long command's progress; use as a context manager around the work."""

    def __init__(
        self, label: str, total: int | None = None, unit: str = "case", *, quiet: bool = False,
        stream: TextIO | None = None, interval: float = INTERVAL,
    ) -> None:  # fmt: skip
        self.label, self.total, self.unit = label, total, unit
        self.quiet, self.interval = quiet, interval
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0  # items finished (advance), or cases of finished recorders
        self.steps_done = 0
        self.failures = 0
        self.phase = ""
        self._recorder: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._bar: Any = None
        self._start = time.monotonic()

    # -- what the work reports --------------------------------------------------------------
    def watch(self, phase: str, recorder: Any) -> None:
        """A state machine starts (``recorder``: its cases, steps and failures are read from it)."""
        self._retire()
        self.phase, self._recorder = phase, recorder

    def advance(self, n: int = 1, failed: bool = False) -> None:
        """``n`` items finished (mutants, blocks)."""
        self.done += n
        self.failures += int(failed)

    # -- what is shown ----------------------------------------------------------------------
    def counts(self) -> tuple[int, int, int]:
        rec = self._recorder
        cases = self.done + (rec.cases if rec is not None else 0)
        steps = self.steps_done + (rec.steps if rec is not None else 0)
        failures = self.failures + (rec is not None and rec.first_failure_at is not None)
        return cases, steps, failures

    def line(self) -> str:
        cases, steps, failures = self.counts()
        elapsed = time.monotonic() - self._start
        parts = [f"{self.label}:", self.phase] if self.phase else [f"{self.label}:"]
        # the total is an estimate (probes may add cases): past it, no total and no ETA are shown
        estimate = self.total if self.total and cases < self.total else None
        of = f"/{estimate}" if estimate else ""
        parts.append(f"{cases}{of} {self.unit}s")
        if steps:
            parts.append(f"{steps} steps")
        parts.append(f"{failures} failing")
        parts.append(f"{elapsed:.0f} s")
        if estimate and cases:
            parts.append(f"ETA {elapsed * (estimate - cases) / cases:.0f} s")
        return " ".join(parts)

    def position(self) -> int:
        """Where a live bar stands (items done)."""
        return self.counts()[0]

    def postfix(self) -> str:
        """What a live bar shows after its counts."""
        _, steps, failures = self.counts()
        return f"{self.phase} {steps} steps, {failures} failing"

    def final_line(self) -> str:
        return self.line() + " (done)"

    def say(self, text: str) -> None:
        """A status line on the stream (above a live bar); nothing with ``quiet``."""
        if self.quiet:
            return
        if self._bar is not None:
            self._bar.write(text, file=self.stream)
        else:
            print(text, file=self.stream, flush=True)

    def __enter__(self) -> Progress:
        if self.quiet:
            return self
        if _is_terminal(self.stream):
            from tqdm import tqdm

            self._bar = tqdm(total=self.total, unit=self.unit, file=self.stream, desc=self.label, leave=False)
        else:
            print(f"{self.label}: started", file=self.stream, flush=True)
        self._thread = threading.Thread(target=self._loop, name="cfconform-progress", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.interval + 1)
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif not self.quiet and exc[0] is None:  # (an error says so itself, in one line)
            print(self.final_line(), file=self.stream, flush=True)

    def _loop(self) -> None:
        period = EARLY * self.interval if self._bar is None else min(0.5, self.interval)
        due = time.monotonic() + period
        while not self._stop.wait(max(0.0, due - time.monotonic())):
            due = max(due + period, time.monotonic() + period / 2)  # (after a long stall: no burst of lines)
            try:
                if self._bar is not None:
                    self._bar.n = self.position()
                    self._bar.set_postfix_str(self.postfix(), refresh=False)
                    self._bar.refresh()
                else:
                    print(self.line(), file=self.stream, flush=True)
            except Exception:  # progress must never break the work it reports on
                return

    def _retire(self) -> None:
        rec, self._recorder = self._recorder, None
        if rec is not None:
            self.done += rec.cases
            self.steps_done += rec.steps
            self.failures += rec.first_failure_at is not None


def _is_terminal(stream: TextIO) -> bool:
    """A terminal a bar can be drawn on (a pseudo-terminal of no width, as some CI runners give, gets lines)."""
    try:
        if not stream.isatty():
            return False
        return os.get_terminal_size(stream.fileno()).columns > 0
    except (AttributeError, ValueError, OSError):
        return stream.isatty() if hasattr(stream, "isatty") else False
