"""A short check of an edit runs on the event loop's own thread (work_queue.PriorityWorker.submit_on_loop,
server.LOOP_CHECK_SECONDS) instead of going to the analysis thread and back: only while the analysis thread
is idle, one task at a time whichever thread runs it, with the same diagnostics as a check on the thread;
an edit that arrives during it still makes it stale; a long or first check still goes to the thread."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time

import pytest

from benchmarks.matrix_kernels import matrix_kernel_file
from coop_lsp.server import server as server_module
from coop_lsp.server.server import create_server
from coop_lsp.server.work_queue import BACKGROUND, PriorityWorker, on_loop
from tests.support.server_documents import edit_document, open_document, until
from tests.test_server_stdin_watch import _Session

on_a_loop = pytest.mark.asyncio(loop_scope="function")


# ------------------------------------------------------------ the queue
@on_a_loop
async def test_a_task_runs_on_the_loops_thread_when_the_worker_is_idle():
    worker = PriorityWorker("test-lent")
    try:
        ran_on = []
        work = worker.submit_on_loop(asyncio.get_running_loop(), lambda x: ran_on.append(threading.current_thread())
                                     or x * 2, 21)
        assert await on_loop(work, asyncio.get_running_loop()) == 42
        assert ran_on == [threading.current_thread()]
        failing = worker.submit_on_loop(asyncio.get_running_loop(), lambda: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            await on_loop(failing, asyncio.get_running_loop())
    finally:
        worker.shutdown()


@on_a_loop
async def test_a_task_waits_in_the_queue_while_the_worker_is_busy_and_keeps_its_order():
    loop = asyncio.get_running_loop()
    worker = PriorityWorker("test-busy")
    gate, order = threading.Event(), []
    try:
        blocker = worker.submit(gate.wait, 5)
        while not blocker.running():
            await asyncio.sleep(0.001)
        later = worker.submit_at(BACKGROUND, lambda: order.append(("background", threading.current_thread().name)))
        lent = worker.submit_on_loop(loop, lambda: order.append(("edit", threading.current_thread().name)))
        await asyncio.sleep(0.01)  # its loop turn has passed: queued, not run
        assert order == [] and worker.pending() == 2
        gate.set()
        await on_loop(lent, loop)
        await on_loop(later, loop)
        # On the worker's thread, before the background task queued first (it is FOREGROUND).
        assert order == [("edit", "test-busy"), ("background", "test-busy")]
    finally:
        worker.shutdown()


@on_a_loop
async def test_the_worker_takes_nothing_while_a_task_is_lent_to_the_loop():
    loop = asyncio.get_running_loop()
    worker = PriorityWorker("test-held")
    spans = {}
    try:
        def lent_task():
            spans["lent"] = [time.monotonic()]
            # Queued from inside the lent task (as a check queues the completion items): it waits for its end.
            spans["queued"] = worker.submit_at(BACKGROUND, lambda: spans.setdefault("background", time.monotonic()))
            time.sleep(0.05)
            spans["lent"].append(time.monotonic())

        await on_loop(worker.submit_on_loop(loop, lent_task), loop)
        await on_loop(spans["queued"], loop)
        assert spans["background"] >= spans["lent"][1]
    finally:
        worker.shutdown()


@on_a_loop
async def test_a_lent_task_cancelled_before_its_turn_or_after_shutdown_never_runs():
    loop = asyncio.get_running_loop()
    worker = PriorityWorker("test-cancel")
    ran = []
    cancelled = worker.submit_on_loop(loop, ran.append, "cancelled")
    cancelled.cancel()
    after = worker.submit_on_loop(loop, ran.append, "after shutdown")
    worker.shutdown()
    await asyncio.sleep(0.01)
    assert ran == [] and cancelled.cancelled() and after.cancelled()


# ------------------------------------------------------------ the server
def _edits(rng: random.Random, text: str):
    """(start, end, new text) in bytes of the current text: literals, names and syntax errors typed and deleted
    inside the functions' bodies."""
    while True:
        body = [i for i, c in enumerate(text) if c == ";"]
        at = rng.choice(body)
        kind = rng.random()
        if kind < 0.5:
            new, start, end = rng.choice(["1", "u", " ", "x", "@@ ", "0.5", "(", "let"]), at, at
        else:
            new, start, end = "", max(0, at - rng.randrange(1, 4)), at
        text = text[:start] + new + text[end:]
        yield start, end, new


async def _session(rng_seed: int, monkeypatch, loop_checks: bool) -> tuple[list, list]:
    """The first publication of each version over a run of edits, and where each check ran."""
    # Every check on the loop (however long, on a loaded machine) or none.
    monkeypatch.setattr(server_module, "LOOP_CHECK_SECONDS", 1e9 if loop_checks else 0.0)
    ls = create_server()
    published, ran = [], []
    ls.text_document_publish_diagnostics = published.append
    analyse = ls._analyse

    def noted(parsed, version, *more):
        ran.append((version, threading.current_thread() is threading.main_thread()))
        return analyse(parsed, version, *more)

    ls._analyse = noted
    rng = random.Random(rng_seed)
    text = matrix_kernel_file(rng, 4)
    uri = "file:///virtual/loop_checks.wgsl"
    open_document(ls, uri, text)
    await until(lambda: any(p.version == 1 for p in published))
    edits = _edits(rng, text)
    for version in range(2, 40):
        start, end, new = next(edits)
        edit_document(ls, uri, version, ls.documents[uri].document, start, end, new)
        await until(lambda: any(p.version == version for p in published))
    ls.scheduler.stop()
    ls._stop_confirming(ls.documents[uri])
    ls.analysis_executor.shutdown(wait=False)
    first = {}
    for params in published:
        first.setdefault(params.version, json.dumps(ls.protocol._converter.unstructure(params)))
    return sorted(first.items()), ran


@on_a_loop
async def test_short_checks_run_on_the_loops_thread_and_publish_what_checks_on_the_thread_publish(monkeypatch):
    for seed in (1, 2):
        ours, ran = await _session(seed, monkeypatch, loop_checks=True)
        theirs, ran_there = await _session(seed, monkeypatch, loop_checks=False)
        assert ours == theirs
        assert len(ours) == 39
        # The open's check reuses nothing: on the thread. The edits': on the loop, but where the thread was
        # busy then (making the completion items, once a process, after the first check).
        assert ran[0] == (1, False)
        assert sum(on_loop for _, on_loop in ran) >= len(ran) - 2
        # A check that took longer than LOOP_CHECK_SECONDS sends the next one to the thread.
        assert not any(on_loop for _, on_loop in ran_there)
        monkeypatch.undo()


@on_a_loop
async def test_a_document_put_to_rest_is_checked_on_the_thread_again(monkeypatch):
    monkeypatch.setattr(server_module, "LOOP_CHECK_SECONDS", 1e9)
    ls = create_server()
    ran = []
    analyse = ls._analyse

    def noted(parsed, version, *more):
        ran.append((version, threading.current_thread() is threading.main_thread()))
        return analyse(parsed, version, *more)

    ls._analyse = noted
    published = []
    ls.text_document_publish_diagnostics = published.append
    uri = "file:///virtual/rested.wgsl"
    open_document(ls, uri, matrix_kernel_file(random.Random(3), 2))
    await until(lambda: any(p.version == 1 for p in published))
    state = ls.documents[uri]
    await until(ls.analysis_executor.idle)  # the completion items, made once a process after a first check
    edit_document(ls, uri, 2, state.document, 0, 0, " ")
    await until(lambda: any(p.version == 2 for p in published))
    assert ls.rest(state)
    edit_document(ls, uri, 3, state.document, 0, 0, " ")
    await until(lambda: any(p.version == 3 for p in published))
    assert ran == [(1, False), (2, True), (3, False)]
    ls.analysis_executor.shutdown(wait=False)


def test_an_edit_that_arrives_during_a_check_on_the_loop_makes_it_stale(monkeypatch):
    monkeypatch.setattr(server_module, "LOOP_CHECK_SECONDS", 1e9)
    session = _Session()
    ls = session.ls
    slow_version, ran = 3, []
    analyse = ls._analyse

    def slowed(parsed, version, *more):
        ran.append((version, threading.current_thread() is session.thread))
        if version == slow_version:
            time.sleep(0.4)  # the client's next edit arrives meanwhile
        return analyse(parsed, version, *more)

    ls._analyse = slowed
    session.start()
    client = session.client
    uri = "file:///watch/stale.wgsl"
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "wgsl", "version": 1,
                                                            "text": "fn f() -> u32 {\n  return 1u;\n}\n"}})
    client.diagnostics(uri, 1)
    at = {"line": 1, "character": 9}

    def edit(version: int) -> None:
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"range": {"start": at, "end": at}, "text": "0"}]})

    edit(2)
    client.diagnostics(uri, 2)
    deadline = time.monotonic() + 30
    while not ls.analysis_executor.idle():  # the completion items, made once a process after a first check
        assert time.monotonic() < deadline
        time.sleep(0.01)
    edit(3)
    time.sleep(0.15)
    edit(4)
    client.diagnostics(uri, 4)
    client.request("shutdown", None)
    client.notify("exit", None)
    session.thread.join(30)
    session.close()
    client.process.stdin.close()
    assert client.published[uri] == [1, 2, 4]  # version 3's result was stale when its check ended
    assert ran[0] == (1, False) and ran[2:] == [(3, True), (4, True)]
