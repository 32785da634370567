"""Worker processes for the checks of documents only opened, so that opening a workspace (or one huge
kernel) neither fills the analysis thread nor holds every document's model in the server.

Each worker is a process with its own pipe, driven by one thread of the server that sends it one job at a
time and waits for the answer or for the process to end; jobs wait in one first-in, first-out queue and a
queued job can be cancelled (its document was edited or closed). A worker that ends without answering
costs only its job: a fresh worker tries that job once more (the first may have died of something else),
and if that one dies too the job fails with `WorkerDied`. A job whose function raised fails with
`WorkerError`; the worker goes on.

Workers are started by `spawn`, never `fork`: the server has threads (the analysis thread, pygls's), and a
forked child may inherit a lock one of them held. A spawned worker imports the checker itself (measured:
about 0.4 s and 25 MiB on the 2-core machine), so workers start only with the first job. They end with
`stop`, after IDLE_SECONDS without a job, and on their own when the server's process ends in any way (they
watch its sentinel). Spawning also starts multiprocessing's resource tracker, one process of about 13 MiB
for the server's life.
"""

from __future__ import annotations

import collections
import concurrent.futures
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import Any

from ..core.workers import answer_jobs, usable_cores, why_ended

log = logging.getLogger(__name__)

MAX_DEFAULT_WORKERS = 4
ATTEMPTS = 2  # a job is tried by this many workers before its death is blamed on it
WORKER_NICENESS = 5
# A worker with no job for this long ends (its memory goes back); the next job starts a fresh one.
IDLE_SECONDS = 30.0
_IDLE = object()


class WorkerDied(RuntimeError):
    """The job's worker process ended without answering, twice."""


class WorkerError(RuntimeError):
    """The job raised in the worker; the message is the worker's traceback."""


def default_workers() -> int:
    """One worker per core the server may use, at most MAX_DEFAULT_WORKERS."""
    return min(usable_cores(), MAX_DEFAULT_WORKERS)


class CheckPool:
    """`submit(job)` runs `work(job)` in a worker process; `work` must be a module-level function (a
    spawned worker finds it by name)."""

    def __init__(self, work: Callable[[Any], Any], workers: int, idle_seconds: float = IDLE_SECONDS) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.work, self.size, self.idle_seconds = work, workers, idle_seconds
        self._queue: collections.deque[tuple[concurrent.futures.Future, Any]] = collections.deque()
        self._ready = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._processes: set = set()  # the live worker processes, for `stop` and for measuring them
        self._closed = False
        self._idle = 0  # slots waiting for a job
        self._running: dict[int, _Worker] = {}  # id(future) -> the worker running its job
        self._context = multiprocessing.get_context("spawn")

    def submit(self, job) -> concurrent.futures.Future:
        future: concurrent.futures.Future = concurrent.futures.Future()
        with self._ready:
            if self._closed:
                raise RuntimeError("the check pool has stopped")
            self._queue.append((future, job))
            if len(self._threads) < self.size and len(self._queue) > self._idle:
                self._start_slot()  # one more worker only while the ones there all have a job
            self._ready.notify()
        return future

    def abandon(self, future: concurrent.futures.Future) -> None:
        """No one wants the answer to a running job: its worker is killed (a fresh one takes the next job).
        For a long job only: starting a worker costs about what half a second of checking does."""
        with self._ready:
            worker = self._running.get(id(future))
            if worker is None:
                return
            worker.abandoned = True
        worker.process.kill()

    def pids(self) -> list[int]:
        with self._ready:
            return [p.pid for p in self._processes if p.pid is not None]

    def stop(self) -> None:
        """Queued jobs are cancelled and every worker ends now, the running ones included."""
        with self._ready:
            self._closed = True
            for future, _ in self._queue:
                future.cancel()
            self._queue.clear()
            processes = list(self._processes)
            self._ready.notify_all()
        for process in processes:
            process.kill()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=5)

    # ------------------------------------------------------------ the slots' threads
    def _start_slot(self) -> None:
        thread = threading.Thread(target=self._slot, name=f"coop-check-{len(self._threads)}", daemon=True)
        self._threads.append(thread)
        thread.start()

    def _next(self, has_worker: bool):
        """The next job; None once the pool has stopped; _IDLE when a slot that has a worker got no job for
        `idle_seconds`."""
        with self._ready:
            self._idle += 1
            try:
                deadline = time.monotonic() + self.idle_seconds if has_worker else None
                while not self._queue and not self._closed:
                    if deadline is None:
                        self._ready.wait()
                    elif (remaining := deadline - time.monotonic()) > 0:
                        self._ready.wait(remaining)
                    else:
                        return _IDLE
                return None if self._closed else self._queue.popleft()
            finally:
                self._idle -= 1

    def _slot(self) -> None:
        worker: _Worker | None = None
        try:
            while (taken := self._next(worker is not None)) is not None:
                if taken is _IDLE:
                    worker.close()
                    self._retire(worker)
                    worker = None
                    continue
                future, job = taken
                if not future.set_running_or_notify_cancel():
                    continue
                deaths: list[str] = []
                while True:
                    if worker is None:
                        try:
                            worker = self._spawn()
                        except Exception as error:  # noqa: BLE001 - e.g. no processes left: this job fails
                            future.set_exception(WorkerDied(f"a worker process could not start: {error}"))
                            break
                    with self._ready:
                        self._running[id(future)] = worker
                    try:
                        answer = worker.ask(job)
                    finally:
                        with self._ready:
                            self._running.pop(id(future), None)
                    if answer is None and worker.abandoned:
                        self._retire(worker)
                        worker = None
                        future.set_exception(WorkerDied("abandoned: no one wanted its answer any more"))
                        break
                    if answer is None:
                        deaths.append(worker.why())
                        self._retire(worker)
                        worker = None
                        if len(deaths) < ATTEMPTS and not self._closed:
                            continue
                        future.set_exception(WorkerDied(f"the worker process checking it ended ({deaths[-1]})"))
                        break
                    ok, value = answer
                    if ok:
                        future.set_result(value)
                    else:
                        future.set_exception(WorkerError(value))
                    break
        finally:
            if worker is not None:
                worker.close()
                self._retire(worker)

    def _spawn(self) -> "_Worker":
        parent, child = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(child, self.work), daemon=True,
                                        name="coop-lsp check worker")
        with self._ready:
            if self._closed:
                raise RuntimeError("the check pool has stopped")
            process.start()
            self._processes.add(process)
        child.close()
        return _Worker(process, parent)

    def _retire(self, worker: "_Worker") -> None:
        worker.process.join(timeout=5)
        with self._ready:
            self._processes.discard(worker.process)


class _Worker:
    def __init__(self, process, connection: Connection) -> None:
        self.process, self.connection = process, connection
        self.abandoned = False

    def ask(self, job) -> tuple[bool, Any] | None:
        """The worker's answer to `job`; None when its process ended first."""
        try:
            self.connection.send(job)
            wait([self.connection, self.process.sentinel])
            if not self.connection.poll():
                raise EOFError
            return self.connection.recv()
        except (EOFError, OSError):
            self.connection.close()
            return None

    def why(self) -> str:
        self.process.join(timeout=5)
        return why_ended(self.process.exitcode)

    def close(self) -> None:
        try:
            self.connection.send(None)
        except (OSError, ValueError):
            pass
        self.connection.close()


def _serve(connection: Connection, work: Callable[[Any], Any]) -> None:
    """A worker's life: answers jobs until the server says stop, closes the pipe or ends."""
    # The server's standard output is the LSP stream (stdio): a stray print here must not land in it.
    os.dup2(2, 1)
    try:
        # Background work: the editor and the server's own thread (the documents being worked on) first.
        os.nice(WORKER_NICENESS)
    except (AttributeError, OSError):  # no os.nice on Windows
        pass
    parent = multiprocessing.parent_process()
    if parent is not None:
        # The server killed outright closes no pipe this worker is reading while it checks: end with it.
        threading.Thread(target=_end_with, args=(parent.sentinel,), daemon=True).start()
    try:
        answer_jobs(connection, work)
    except (OSError, ValueError):
        pass  # the pipe broke: the server is gone or gave up on this worker
    connection.close()


def _end_with(sentinel) -> None:
    wait([sentinel])
    os._exit(0)
