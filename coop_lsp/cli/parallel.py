"""Running jobs over worker processes, one job at a time per worker, so that a worker that dies costs
only the job it was running.

`concurrent.futures.ProcessPoolExecutor` fails every pending job once one
worker dies and cannot say which job killed it. Here each worker has its
own pipe: the parent sends it one job, waits for the answer, sends the
next. When a worker's process ends without answering, a new worker takes its
place and tries the job once more (the first may have died of something
else, or before it even started it); if that one dies too, the job gets
`on_death`'s result. The other jobs go on.

Each worker has the next job in its pipe before it finishes the current one
(IN_FLIGHT jobs at a time): on a busy machine the parent may wait
milliseconds to be scheduled, and a worker that had to wait for it after
every file sat idle for a good part of the run. Answers come back in the
order the jobs were sent, so the first unanswered job is the one a dead
worker was running; the ones behind it never started and go back to the
queue without counting a death.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.reduction import ForkingPickler
from typing import Any

from ..core.workers import answer_jobs, usable_cores, why_ended


IN_FLIGHT = 2  # jobs in each worker's pipe at a time
# A job sent ahead fits in the pipe's buffer (a socket pair's holds 200 KiB on Linux), so sending it
# never blocks the parent.
MAX_AHEAD_BYTES = 32 * 1024


def default_jobs() -> int:
    return usable_cores()


def run_parallel(jobs: Sequence[Any], work: Callable[[Any], Any], workers: int,
                 on_death: Callable[[Any, str], Any], on_error: Callable[[Any, str], Any]) -> list[Any]:
    """`work(job)` for every job, in worker processes; results in the order of `jobs`. A job whose worker
    died gets `on_death(job, why)`; one whose `work` raised gets `on_error(job, traceback)`."""
    context = _context()
    results: list[Any] = [None] * len(jobs)
    waiting = list(range(len(jobs) - 1, -1, -1))  # popped from the end: first job first
    running: dict[Connection, tuple[Any, deque[int]]] = {}  # connection -> (process, jobs sent, unanswered)
    deaths = [0] * len(jobs)

    def start() -> None:
        parent, child = context.Pipe()
        process = context.Process(target=_serve, args=(child, work), daemon=True)
        process.start()
        child.close()
        running[parent] = (process, deque())
        feed(parent)

    def feed(connection: Connection) -> None:
        process, sent = running[connection]
        while waiting and len(sent) < IN_FLIGHT:
            payload = ForkingPickler.dumps(jobs[waiting[-1]])
            if sent and len(payload) > MAX_AHEAD_BYTES:
                # It would wait in the pipe while the worker may be blocked sending a large answer: the
                # parent, blocked sending it, would never read that answer. Sent when the worker is free.
                break
            index = waiting.pop()
            sent.append(index)
            try:
                connection.send_bytes(payload)
            except (BrokenPipeError, OSError):
                return  # it died already: found by the wait below
        if not sent:
            running.pop(connection)
            try:
                connection.send(None)
            except (BrokenPipeError, OSError):
                pass
            connection.close()
            process.join()

    try:
        # What the parent holds when the workers fork is theirs for good: frozen, their collector never
        # walks it again, and never touches (copies) its pages. The parent's own stays collectable.
        gc.freeze()
        try:
            for _ in range(min(workers, len(jobs))):
                start()
        finally:
            gc.unfreeze()
        while running:
            sentinels = {process.sentinel: connection for connection, (process, _) in running.items()}
            ready = wait(list(running) + list(sentinels))
            handled = set()
            for item in ready:
                connection = item if isinstance(item, Connection) else sentinels.get(item)
                if connection is None or connection in handled or connection not in running:
                    continue
                handled.add(connection)
                process, sent = running[connection]
                try:
                    if not connection.poll():
                        raise EOFError
                    ok, value = connection.recv()
                except (EOFError, OSError):
                    process.join()
                    running.pop(connection)
                    connection.close()
                    if sent:
                        index = sent.popleft()  # the job it was running
                        waiting.extend(reversed(sent))  # never started: back to the queue, first one first
                        deaths[index] += 1
                        if deaths[index] < 2:
                            waiting.append(index)
                        else:
                            results[index] = on_death(jobs[index], why_ended(process.exitcode))
                    if waiting:
                        start()
                    continue
                index = sent.popleft()
                results[index] = value if ok else on_error(jobs[index], value)
                feed(connection)
    finally:
        for connection, (process, _) in list(running.items()):
            process.kill()
            process.join()
            connection.close()
    return results


def _context():
    methods = multiprocessing.get_all_start_methods()
    # fork: the workers start with everything the parent imported (the spawn default would import it
    # all again in every worker).
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def _serve(connection: Connection, work: Callable[[Any], Any]) -> None:
    status = 0
    try:
        answer_jobs(connection, work)
    except BaseException:  # noqa: BLE001 - the parent reports the job as lost
        status = 1
    finally:
        connection.close()
        # Not sys.exit: a forked child must not flush the parent's buffered output a second time.
        os._exit(status)
