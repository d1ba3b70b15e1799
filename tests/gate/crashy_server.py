"""The reference over the wire protocol, dying with exit code 7 midway through its 40th reply
(a crash that depends on the process's history: a fresh process replaying the case does not crash)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cfconform.adapters.reference import ReferenceAdapter
from cfconform.adapters.wire import server

REPLY = 40


class _Dying:
    def __init__(self) -> None:
        self.out, self.replies = sys.stdout.buffer, 0

    def write(self, data: bytes) -> int:
        self.replies += 1
        if self.replies == REPLY:
            self.out.write(data[: len(data) // 2])
            self.out.flush()
            sys.stderr.write("boom: dying mid-reply\n")
            sys.stderr.flush()
            os._exit(7)
        return self.out.write(data)

    def flush(self) -> None:
        self.out.flush()


if __name__ == "__main__":
    server.serve(ReferenceAdapter, sys.stdin.buffer, _Dying())  # type: ignore[arg-type]
