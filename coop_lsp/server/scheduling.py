"""When a document's diagnostics are checked and published.

A fixed debounce made every diagnostic wait for it, however fast the check.
Instead each open document has at most one check running, for its newest
version:

- an edit to a document with no check running starts one at once;
- edits that arrive while a check runs only mark the document changed: when
  the check ends, its result is dropped (it is stale) and one check starts
  for the newest version. A burst of fast typing thus costs one check per
  check time, not one per keystroke, and the last keystroke waits for at most
  the check in progress plus its own.
- a check that has not started when a newer version arrives never runs. One
  already running finishes: the per-function results it leaves are what the
  next version's check replays, so abandoning it would make that one slower.

An optional delay (``--debounce-ms``, the ``diagnosticsDelayMs`` setting)
waits until the document has been quiet that long, for users who prefer
diagnostics not to change while they type. An edit inside a comment, whose
diagnostics were published at once (comment_edits.py), asks for a short one
too: its check only confirms, and run between keystrokes it does not slow
the next one down. The newest edit's delay is the one a check waits for.

Publishing goes through `offer`, which refuses a result for a version that is
no longer the document's newest, and any version older than one already
published (kernel runs republish too): a client never sees diagnostics go
back in time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)


@dataclass(eq=False)
class _Track:
    edited_at: float = 0.0
    delay: float = 0.0  # the newest edit's: how long the document must be quiet before its check
    worker: asyncio.Task | None = None
    published_version: int | None = None
    # Set while the worker waits out a delay: a newer edit wakes it to measure the wait again from its own
    # delay (an edit of code after a comment's must not wait out the comment's 50 ms).
    wake: asyncio.Event | None = None


class DiagnosticsScheduler:
    """`current(uri)` is the identity of the document's newest text (None once closed) and its version;
    `check(uri)` returns the result for the newest text, which has `.version` and `.key` (the identity it
    was computed from); `publish(uri, result)` sends it."""

    def __init__(self, current: Callable[[str], tuple[object, int | None] | None],
                 check: Callable[[str], Awaitable[object]], publish: Callable[[str, object], None],
                 delay: float = 0.0) -> None:
        self.current, self.check, self.publish_now = current, check, publish
        self.delay = delay
        self._tracks: dict[str, _Track] = {}

    def changed(self, uri: str, delay: float | None = None) -> None:
        """The document is new or has a new version: check it as soon as the machine is free."""
        track = self._tracks.setdefault(uri, _Track())
        loop = asyncio.get_running_loop()
        track.edited_at = loop.time()
        track.delay = self.delay if delay is None else delay
        if track.wake is not None:
            track.wake.set()
        if track.worker is None or track.worker.done():
            track.worker = loop.create_task(self._work(uri, track))

    def forget(self, uri: str) -> None:
        """The document closed: stop its checks and what was published for it."""
        track = self._tracks.pop(uri, None)
        if track is not None and track.worker is not None:
            track.worker.cancel()

    def stop(self) -> None:
        for uri in list(self._tracks):
            self.forget(uri)

    def busy(self, uri: str) -> bool:
        track = self._tracks.get(uri)
        return track is not None and track.worker is not None and not track.worker.done()

    async def settle(self, uri: str) -> None:
        """Waits until the document's check in progress (if any) has ended and its result, if still the
        newest, is published; a cancelled check ends the wait too."""
        track = self._tracks.get(uri)
        worker = track.worker if track is not None else None
        if worker is None or worker.done():
            return
        try:
            await asyncio.shield(worker)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if not worker.cancelled() or (task is not None and task.cancelling()):
                raise

    def offer(self, uri: str, result) -> bool:
        """Publishes `result` if it is for the document's newest version and not older than what the client
        has; says whether it did."""
        now = self.current(uri)
        if now is None or getattr(result, "key", now[0]) is not now[0]:
            return False
        track = self._tracks.setdefault(uri, _Track())
        version = result.version
        if version is not None and track.published_version is not None and version < track.published_version:
            return False
        self.publish_now(uri, result)
        if version is not None:
            track.published_version = version
        return True

    def published(self, uri: str, version: int | None) -> None:
        """Diagnostics of `version` were sent by other means (a document opened from the result cache)."""
        if version is not None:
            self._tracks.setdefault(uri, _Track()).published_version = version

    async def _work(self, uri: str, track: _Track) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                while track.delay > 0 and (remaining := track.edited_at + track.delay - loop.time()) > 0:
                    track.wake = asyncio.Event()
                    try:
                        await asyncio.wait_for(track.wake.wait(), remaining)
                    except asyncio.TimeoutError:
                        pass
                    finally:
                        track.wake = None
                before = self.current(uri)
                if before is None:
                    return
                result = await self.check(uri)
                after = self.current(uri)
                if after is None:
                    return
                if after[0] is before[0]:
                    self.offer(uri, result)
                    return
                # Edited while checking: check the newest version instead (what the burst coalesces into).
        except asyncio.CancelledError:
            pass
        except Exception:  # noqa: BLE001 - diagnostics must never take the server down
            log.exception("checking %s failed", uri)
        finally:
            if self._tracks.get(uri) is track and track.worker is asyncio.current_task():
                track.worker = None
