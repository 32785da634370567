"""The analysis thread's queue (coop_lsp/server/work_queue.py): the documents someone works on first."""

from __future__ import annotations

import threading

from coop_lsp.server.work_queue import BACKGROUND, FOREGROUND, PriorityWorker


def _blocked_worker():
    """A worker whose thread is busy until `gate` is set, so that the queue order can be arranged."""
    worker = PriorityWorker("test-queue")
    gate = threading.Event()
    worker.submit(gate.wait)
    return worker, gate


def test_foreground_work_runs_before_background_work_queued_earlier():
    worker, gate = _blocked_worker()
    ran = []
    futures = [worker.submit_at(BACKGROUND, ran.append, f"open {i}") for i in range(5)]
    futures.append(worker.submit_at(FOREGROUND, ran.append, "edit"))
    gate.set()
    for future in futures:
        future.result(10)
    assert ran == ["edit", "open 0", "open 1", "open 2", "open 3", "open 4"]
    worker.shutdown()


def test_promoted_background_work_runs_next_and_once():
    worker, gate = _blocked_worker()
    ran = []
    futures = [worker.submit_at(BACKGROUND, ran.append, i) for i in range(4)]
    worker.promote(futures[3])
    gate.set()
    for future in futures:
        future.result(10)
    assert ran == [3, 0, 1, 2]
    worker.shutdown()


def test_cancelled_work_never_runs_and_shutdown_can_drop_the_queue():
    worker, gate = _blocked_worker()
    ran = []
    dropped = worker.submit_at(BACKGROUND, ran.append, "stale")
    assert dropped.cancel()
    kept = worker.submit(ran.append, "newest")
    gate.set()
    kept.result(10)
    assert ran == ["newest"]
    worker2, gate2 = _blocked_worker()
    queued = worker2.submit_at(BACKGROUND, ran.append, "never")
    worker2.shutdown(wait=False, cancel_futures=True)
    gate2.set()
    assert queued.cancelled()
    worker.shutdown()
