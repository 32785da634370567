"""Full garbage collections while the server is idle, not in the middle of a keystroke.

A full collection scans every live object. With the models of a few large
documents in memory that takes tens of milliseconds, and Python starts one
whenever enough objects have survived younger collections: on a 5,000-line
kernel every few keystrokes paid for one (edit-to-diagnostics went from
about 60 ms to about 100 ms). So the process keeps collecting its young
generations as usual, never starts a full collection by itself, and the
server runs one once no analysis has finished for a moment, or after many
analyses in a row without a pause (a flood of edits must not grow memory
without bound: cycles are rare in our data, not impossible).
"""

from __future__ import annotations

import asyncio
import gc

IDLE_SECONDS = 1.0
MOST_ANALYSES_BETWEEN = 200


def defer_full_collections() -> None:
    """Process-wide: called by the server's command line, not by code that embeds the server."""
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 1_000_000_000)


class IdleCollector:
    def __init__(self, idle: float = IDLE_SECONDS, most: int = MOST_ANALYSES_BETWEEN) -> None:
        self.idle, self.most = idle, most
        self._timer: asyncio.TimerHandle | None = None
        self._since = 0
        self.collections = 0

    def analysed(self) -> None:
        """Called on the event loop after each analysis is used."""
        if self._timer is not None:
            self._timer.cancel()
        self._since += 1
        if self._since >= self.most:
            self._collect()
            return
        self._timer = asyncio.get_running_loop().call_later(self.idle, self._collect)

    def _collect(self) -> None:
        self._timer = None
        self._since = 0
        self.collections += 1
        gc.collect()
