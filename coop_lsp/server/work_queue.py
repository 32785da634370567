"""The analysis thread's queue: work for the documents someone is looking at runs before the rest.

Opening a workspace of a hundred files queues a hundred checks; with a first-in, first-out queue an edit
made meanwhile waited for all of them. Here each task has a priority (FOREGROUND for an edit or a request,
BACKGROUND for a document only opened), the thread always takes the most urgent one, and a background task
can be promoted when someone starts working on its document. A task that is running is never interrupted
(checking is plain Python on one thread); the wait for the foreground is at most the one task in progress.

A short task can also run on the event loop's own thread (`submit_on_loop`) while the worker has nothing to
do: handing it to the thread and its result back costs two thread wake-ups and two GIL hand-offs, which took
about as long as a keystroke's whole incremental check. The thread waits meanwhile: whatever thread runs
them, the tasks still run one at a time, in the queue's order.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import heapq
import itertools
import threading
from asyncio.futures import _copy_future_state  # wrap_future's own copy of an outcome (see on_loop)
from dataclasses import dataclass, field

FOREGROUND = 0
BACKGROUND = 1


@dataclass(order=True)
class _Task:
    priority: int
    order: int
    call: object = field(compare=False)
    future: concurrent.futures.Future = field(compare=False)
    taken: bool = field(default=False, compare=False)


class PriorityWorker(concurrent.futures.Executor):
    """One thread; `submit` is FOREGROUND (what `loop.run_in_executor` uses), `submit_at` chooses."""

    def __init__(self, name: str = "coop-analysis") -> None:
        self._heap: list[_Task] = []
        self._tasks: dict[int, _Task] = {}  # id(future) -> its task, while queued
        self._order = itertools.count()
        self._ready = threading.Condition()
        self._closed = False
        self._busy = False  # a task is running, on the worker's thread or lent to the loop's
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def submit(self, fn, /, *args, **kwargs) -> concurrent.futures.Future:
        return self.submit_at(FOREGROUND, fn, *args, **kwargs)

    def submit_at(self, priority: int, fn, /, *args, **kwargs) -> concurrent.futures.Future:
        future: concurrent.futures.Future = concurrent.futures.Future()
        with self._ready:
            if self._closed:
                raise RuntimeError("cannot schedule new work after shutdown")
            task = _Task(priority, next(self._order), lambda: fn(*args, **kwargs), future)
            self._tasks[id(future)] = task
            heapq.heappush(self._heap, task)
            self._ready.notify()
        return future

    def submit_on_loop(self, loop: asyncio.AbstractEventLoop, fn, /, *args) -> concurrent.futures.Future:
        """From the loop's thread: runs `fn(*args)` as a FOREGROUND task, in a callback on the loop's next
        turn if the worker is idle then (nothing running, nothing queued), else queued as `submit` queues
        it. Its future reaches the loop through `on_loop` as a queued task's does, a turn later: a message
        read meanwhile is handled before the result is (an edit that arrives during a check makes it stale,
        as it does on the thread). Cancelled before it runs, it never runs; after `shutdown`, it never runs
        (its future is cancelled)."""
        future: concurrent.futures.Future = concurrent.futures.Future()
        loop.call_soon(self._run_lent, future, lambda: fn(*args))
        return future

    def _run_lent(self, future: concurrent.futures.Future, call) -> None:
        with self._ready:
            if self._closed:
                future.cancel()
                return
            if self._busy or self._tasks:
                task = _Task(FOREGROUND, next(self._order), call, future)
                self._tasks[id(future)] = task
                heapq.heappush(self._heap, task)
                self._ready.notify()
                return
            self._busy = True
        try:
            if future.set_running_or_notify_cancel():
                _settle(future, call)
        finally:
            with self._ready:
                self._busy = False
                if self._heap or self._closed:
                    # Queued meanwhile (a task's follow-up), or shut down: the thread takes it, or ends, now.
                    # Not otherwise: a wake-up of the idle thread would compete with the loop for the GIL.
                    self._ready.notify()

    def promote(self, future: concurrent.futures.Future, priority: int = FOREGROUND) -> None:
        """Moves a queued task up (a task already running or done is left alone)."""
        with self._ready:
            task = self._tasks.get(id(future))
            if task is None or task.taken or task.priority <= priority:
                return
            task.taken = True  # its old heap entry is skipped
            moved = _Task(priority, next(self._order), task.call, future)
            self._tasks[id(future)] = moved
            heapq.heappush(self._heap, moved)
            self._ready.notify()

    def idle(self) -> bool:
        """Nothing running, nothing queued."""
        with self._ready:
            return not self._busy and not self._tasks

    def pending(self) -> int:
        with self._ready:
            return len(self._tasks)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._ready:
            self._closed = True
            if cancel_futures:
                for task in self._heap:
                    if not task.taken:
                        task.future.cancel()
                self._heap.clear()
                self._tasks.clear()
            self._ready.notify_all()
        if wait and threading.current_thread() is not self._thread:
            self._thread.join()

    def _run(self) -> None:
        ran = False
        while True:
            with self._ready:
                if ran:  # cleared here, in the one lock taken between a task's end and the wait for the next
                    self._busy = ran = False
                while (not self._heap or self._busy) and not self._closed:
                    self._ready.wait()
                while self._busy:  # closed while a task was lent: it ends before the queue's last ones run
                    self._ready.wait()
                if not self._heap:
                    return
                task = heapq.heappop(self._heap)
                if task.taken:
                    continue
                task.taken = True
                self._tasks.pop(id(task.future), None)
                self._busy = ran = True
            if task.future.set_running_or_notify_cancel():
                _settle(task.future, task.call)


def _settle(future: concurrent.futures.Future, call) -> None:
    try:
        result = call()
    except BaseException as error:  # noqa: BLE001 - handed to whoever awaits the future
        future.set_exception(error)
    else:
        future.set_result(result)


def on_loop(work: concurrent.futures.Future, loop: asyncio.AbstractEventLoop) -> asyncio.Future:
    """`asyncio.wrap_future(work, loop=loop)` for a future of this queue: the loop's future takes `work`'s
    outcome (through `call_soon_threadsafe`, unless the loop has closed), and cancelling it cancels `work`.
    wrap_future asks six times which kind of future it holds, and each of the three questions about the
    concurrent one makes and drops an AttributeError (its message formatted) inside `hasattr`; every edit
    hands its check over this way."""
    waiting = loop.create_future()

    def cancel_work(waiting: asyncio.Future) -> None:
        if waiting.cancelled():
            work.cancel()

    def settle(work: concurrent.futures.Future) -> None:
        if asyncio._get_running_loop() is loop:
            loop.call_soon(_copy_future_state, work, waiting)  # a task run on the loop's thread: no wake-up
        elif not loop.is_closed():
            loop.call_soon_threadsafe(_copy_future_state, work, waiting)

    waiting.add_done_callback(cancel_work)
    work.add_done_callback(settle)
    return waiting
