"""Progress of a running campaign, logged to stderr every few seconds (pure Python).

The Spark shell adds each finished Spark job's figures (observed metrics of the job's
rows: traces, divergences, faults, steps) to a :class:`Tally`; :class:`ProgressReporter`
polls ``tally.read`` from a daemon thread and emits lines made by the pure
:func:`progress_line`.  Nothing here needs a SparkContext, so the same progress works on
Spark Connect.

:class:`SparkProgress` is what ``cfconform fuzz`` and ``cfconform diff`` show from their
first second to their last (issue 24): the phase and its time while Spark starts, plans,
consolidates, triages or joins, and the campaign's line while blocks run; a live bar on
a terminal, a line every 2 s in a log, nothing with ``-q``.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from cfconform.conformance.progress import INTERVAL, Progress


def progress_line(done: int, total: int, divergences: int, faults: int, elapsed: float, computed: int) -> str:
    """``traces 12,000/100,000 (12.0%), 3 divergences, 0 faults, 1,234 traces/s, ETA 71 s``.

    ``done`` counts finished traces including earlier runs; ``computed`` those of this run
    (the rate and the ETA are this run's).
    """
    pct = 100.0 * done / total if total else 100.0
    rate = computed / elapsed if elapsed > 0 else 0.0
    eta = f"ETA {(total - done) / rate:,.0f} s" if rate > 0 and done < total else "ETA -"
    return (f"traces {done:,}/{total:,} ({pct:.1f}%), {divergences:,} divergences, {faults:,} faults, "
            f"{rate:,.0f} traces/s, {eta}")  # fmt: skip


class Tally:
    """Running totals of a campaign's finished jobs (thread-safe: jobs finish on several threads)."""

    FIELDS = ("traces", "divergences", "faults", "steps")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._totals = dict.fromkeys(self.FIELDS, 0)

    def add(self, figures: dict[str, int | None]) -> None:
        with self._lock:
            for name in self.FIELDS:
                self._totals[name] += int(figures.get(name) or 0)

    def __getitem__(self, name: str) -> int:
        with self._lock:
            return self._totals[name]

    def read(self) -> tuple[int, int, int]:
        """``(traces, divergences, faults)``: what :class:`ProgressReporter` polls."""
        with self._lock:
            return self._totals["traces"], self._totals["divergences"], self._totals["faults"]


class ProgressReporter:
    """Emit a progress line every ``every`` seconds until :meth:`stop` (then one final line)."""

    def __init__(self, total: int, done_before: int, read: Callable[[], tuple[int, int, int]], *,
                 every: float = 5.0, emit: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.total = total
        self.done_before = done_before
        self.read = read
        self.every = every
        self.emit = emit or (lambda line: print(f"cfconform fuzz: {line}", file=sys.stderr, flush=True))
        self.clock = clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start = clock()

    def line(self) -> str:
        traces, divergences, faults = self.read()
        return progress_line(self.done_before + traces, self.total, divergences, faults,
                             self.clock() - self._start, traces)  # fmt: skip

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.emit(self.line())
            except Exception:  # progress must never break a campaign
                return

    def start(self) -> ProgressReporter:
        self._start = self.clock()
        if self.every > 0:
            self._thread = threading.Thread(target=self._loop, name="cfconform-progress", daemon=True)
            self._thread.start()
        return self

    def stop(self, final: bool = True) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if final and self.every > 0:
            self.emit(self.line())

    def __enter__(self) -> ProgressReporter:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop(final=exc[0] is None)


class SparkProgress(Progress):
    """The progress of ``cfconform fuzz`` or ``diff`` from start to end (see the module docstring).

    :meth:`enter` names the phase under way (starting Spark, consolidating, ...); :meth:`follow`
    switches to the campaign's line (traces done of ``total``, divergences, faults, this run's
    rate and ETA) while blocks run, read from ``read()`` (:meth:`Tally.read`).
    """

    def __init__(self, label: str, total: int | None = None, *, quiet: bool = False, stream: Any = None,
                 interval: float = INTERVAL) -> None:  # fmt: skip
        super().__init__(label, total, "trace", quiet=quiet, stream=stream, interval=interval)
        self._read: Callable[[], tuple[int, int, int]] | None = None
        self._done_before = 0
        self._run_start = self._start

    def enter(self, phase: str) -> None:
        """A phase without counts begins (the line shows it and the time since the command started)."""
        self.phase = phase

    def follow(self, read: Callable[[], tuple[int, int, int]], done_before: int = 0) -> None:
        """Blocks start running: ``read()`` gives this run's finished traces, divergences and faults."""
        self._read, self._done_before, self._run_start, self.phase = read, done_before, time.monotonic(), ""
        if self._bar is not None:  # the bar's rate and ETA are this run's, as the line's
            self._bar.reset(total=self.total)
            self._bar.initial = self._bar.n = done_before

    def _figures(self) -> tuple[int, int, int]:
        return self._read() if self._read is not None else (0, 0, 0)

    def line(self) -> str:
        elapsed = time.monotonic() - self._start
        if self._read is None or self.phase:
            return f"{self.label}: {self.phase or 'started'} ({elapsed:.0f} s)"
        traces, divergences, faults = self._figures()
        ran = time.monotonic() - self._run_start
        total = self.total or 0
        return f"{self.label}: " + progress_line(self._done_before + traces, total, divergences, faults, ran, traces)

    def final_line(self) -> str:
        return f"{self.label}: done in {time.monotonic() - self._start:.0f} s"

    def position(self) -> int:
        return self._done_before + self._figures()[0]

    def postfix(self) -> str:
        if self._read is None or self.phase:
            return self.phase
        _, divergences, faults = self._figures()
        return f"{divergences:,} divergences, {faults:,} faults"
