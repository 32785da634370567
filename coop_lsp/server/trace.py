"""Timestamps of one edit's way through the server, for finding where its latency goes.

Off unless COOP_LSP_TRACE names a file; then each mark appends "seconds thread name" to it (perf_counter,
so that the marks of the reader, event-loop and analysis threads compare). Off, `mark` is a no-op that
costs one global lookup: the marks stay in the hot path for good.
"""

from __future__ import annotations

import os
import threading
import time

_PATH = os.environ.get("COOP_LSP_TRACE")
# Lives as long as the process: marks are written as they happen, so a killed server still leaves them.
_file = open(_PATH, "a", buffering=1, encoding="utf-8") if _PATH else None  # noqa: SIM115
ENABLED = _file is not None


def mark(name: str) -> None:
    if _file is not None:
        _file.write(f"{time.perf_counter():.6f} {threading.current_thread().name} {name}\n")
