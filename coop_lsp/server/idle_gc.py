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
        self._loop: asyncio.AbstractEventLoop | None = None  # the timer's
        # When the collection is due (the last analysis's time plus `idle`), and when the timer goes off:
        # an analysis moves the first only. Re-arming a timer per analysis (a handle made, one cancelled,
        # both through the loop's heap) cost more than the check the timer makes when it goes off.
        self._due = self._armed = 0.0
        self._since = 0
        self.collections = 0

    def analysed(self) -> None:
        """Called on the event loop after each analysis is used."""
        self._since += 1
        if self._since >= self.most:
            if self._timer is not None:
                self._timer.cancel()
            self._collect()
            return
        loop = asyncio.get_running_loop()
        self._due = loop.time() + self.idle  # what call_later(idle) would be armed for now
        if self._timer is None or self._loop is not loop:  # (a server used from another loop: armed there)
            self._arm(loop)

    def _arm(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._loop, self._armed = loop, self._due
        self._timer = loop.call_at(self._due, self._went_off, loop)

    def _went_off(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        if self._due != self._armed:
            self._arm(loop)  # analysed since it was armed: the wait counts from the last analysis
            return
        self._collect()

    def _collect(self) -> None:
        self._timer = None
        self._since = 0
        self.collections += 1
        gc.collect()
