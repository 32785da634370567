"""What the command line's and the server's worker processes share: how many cores there are to use, the
job loop a worker runs, and how a worker's end is told to the user."""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any


def usable_cores() -> int:
    """The cores this process may run on (its affinity, where the system has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def answer_jobs(connection: Connection, work: Callable[[Any], Any]) -> None:
    """Answers each job read from `connection` with (True, work(job)), or (False, its traceback) when it
    raised, until the parent sends None or closes the pipe. A failed send is the caller's to handle."""
    while True:
        try:
            job = connection.recv()
        except EOFError:
            return
        if job is None:
            return
        try:
            answer = (True, work(job))
        except Exception:  # noqa: BLE001 - reported for this job; the worker goes on
            answer = (False, traceback.format_exc(limit=8))
        job = None  # a large job's text is not kept while the answer is sent
        connection.send(answer)


def why_ended(exitcode: int | None) -> str:
    """A worker process's end, as a message says it: "killed by SIGKILL", "exited with status 3"."""
    if exitcode is not None and exitcode < 0:
        import signal

        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exited with status {exitcode}"
