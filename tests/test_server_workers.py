"""Documents only opened are checked in worker processes (issue 37, "bad input"): the server keeps their
text, diagnostics and symbols; a huge kernel no longer holds up the others; a dying worker costs only
its job; nothing survives the server.

In-process servers (create_server) with `workers`; the last tests start `coop-lsp` itself."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lsprotocol import types as lsp

from coop_lsp.ide.analysis import Analysis
from coop_lsp.ide.settings import Settings
from coop_lsp.lint.rules import INTERNAL_ERROR
from coop_lsp.server.check_pool import CheckPool, WorkerDied, WorkerError
from coop_lsp.server.server import ABANDON_CHARS, create_server
from tests.support.server_documents import Recorder, change_document, open_document
from tests.support.server_documents import until as _until

in_loop = pytest.mark.asyncio(loop_scope="function")


async def until(condition, timeout: float = 120.0) -> None:
    # A huge document's check takes tens of seconds on a busy 2-core machine.
    await _until(condition, timeout)


ROOT = Path(__file__).resolve().parent.parent
SMALL = """\
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let bad: u32 = 1.5;
  out[id.x] = 1.0;
}
"""
BROKEN = "fn broken() {\n  let x: u32 = 1.5;\n}\n"


def expected(text: str) -> list:
    return [d.code for d in Analysis.of(text).diagnostics]


def filler(functions: int) -> str:
    return "".join(f"fn k{i}(x: f32) -> f32 {{\n  let y = x * {i}.0 + 1.0;\n  return y * y;\n}}\n"
                   for i in range(functions))


def huge(functions: int) -> str:
    """Plain functions, all of them called (so that each is checked in full): seconds of checking."""
    parts = ["@group(0) @binding(0) var<storage, read_write> out: array<f32>;"]
    for i in range(functions):
        parts.append(f"fn k{i}(x: f32) -> f32 {{\n  let y = x * {i}.0 + 1.0;\n  return y * y;\n}}")
    calls = "\n".join(f"  s = s + k{i}(s);" for i in range(functions))
    parts.append(f"@compute @workgroup_size(1)\nfn main() {{\n  var s = 0.0;\n{calls}\n  out[0] = s;\n}}")
    return "\n".join(parts) + "\n"


def close(ls, uri: str) -> None:
    ls.protocol.fm.features[lsp.TEXT_DOCUMENT_DID_CLOSE](lsp.DidCloseTextDocumentParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri)))


def codes(params: lsp.PublishDiagnosticsParams) -> list:
    return [d.code for d in params.diagnostics]


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# ------------------------------------------------------------------ the pool itself
def test_a_worker_that_dies_or_raises_costs_only_its_job():
    pool = CheckPool(os._exit, 1)  # os._exit(job): the worker ends with that status
    try:
        died = pool.submit(3)
        with pytest.raises(WorkerDied, match="exited with status 3"):
            died.result(60)
        raised = CheckPool(int, 1)
        try:
            with pytest.raises(WorkerError, match="ValueError"):
                raised.submit("not a number").result(60)
            assert raised.submit("42").result(60) == 42  # the same worker goes on
        finally:
            raised.stop()
    finally:
        pool.stop()


def test_stop_ends_the_workers_and_refuses_new_jobs():
    pool = CheckPool(abs, 2)
    assert [pool.submit(-i).result(60) for i in range(4)] == [0, 1, 2, 3]
    pids = pool.pids()
    assert pids
    pool.stop()
    for pid in pids:
        deadline = time.monotonic() + 10
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not alive(pid)
    with pytest.raises(RuntimeError):
        pool.submit(1)


def test_an_idle_worker_ends_and_the_next_job_starts_another():
    pool = CheckPool(abs, 1, idle_seconds=0.3)
    try:
        assert pool.submit(-1).result(60) == 1
        first = pool.pids()
        deadline = time.monotonic() + 30
        while pool.pids() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pool.pids() == [] and not any(alive(pid) for pid in first)
        assert pool.submit(-2).result(60) == 2 and pool.pids() != first
    finally:
        pool.stop()


# ------------------------------------------------------------------ the server
def _kernels() -> list[Path]:
    spec = ROOT / "tests" / "spec"
    return (sorted((ROOT / "examples").glob("[cpsw]*/*.wgsl"))
            + [spec / "semantic" / "chromium_matrix.wgsl", spec / "semantic" / "dialects.wgsl",
               spec / "uniformity" / "loops.wgsl", spec / "performance" / "rules.wgsl"])


@in_loop
async def test_a_workers_diagnostics_and_symbols_are_those_of_the_analysis_thread():
    files = _kernels()
    servers = {workers: create_server(workers=workers) for workers in (0, 2)}
    recorders = {workers: Recorder(ls) for workers, ls in servers.items()}
    try:
        for workers, ls in servers.items():
            for path in files:
                open_document(ls, path.as_uri(), path.read_text())
            await until(lambda: {p.uri for p in recorders[workers].published} == {f.as_uri() for f in files})
        # Not one model built in the server, but for the documents that may be templates.
        here = [f.as_uri() for f in files if not servers[2].for_workers(f.as_uri(), f.read_text())]
        assert sorted(recorders[2].analysed) == sorted(here) and len(here) < len(files) // 2
        for path in files:
            uri = path.as_uri()
            in_process, in_worker = recorders[0].of(uri)[-1], recorders[2].of(uri)[-1]
            assert in_worker.diagnostics == in_process.diagnostics, path
            assert in_worker.version == in_process.version == 1
            at_rest = servers[2].documents[uri]
            assert uri in here or at_rest.resting and at_rest.resting_diagnostics[1] == in_process.diagnostics
        symbols = {}
        for workers, ls in servers.items():
            ls.warm.clear()
            ls.rest_the_others()
            answer = await ls.protocol.fm.features[lsp.WORKSPACE_SYMBOL](lsp.WorkspaceSymbolParams(query=""))
            symbols[workers] = sorted((s.location.uri, s.name, s.location.range.start.line) for s in answer)
        assert symbols[2] == symbols[0] and symbols[0]
        assert sorted(recorders[2].analysed) == sorted(here)
    finally:
        for ls in servers.values():
            ls.stop_workers()


@in_loop
async def test_requests_about_documents_in_a_workers_queue_wait_for_its_check():
    """Pulled diagnostics and workspace symbols asked for while the workers check: answered from their
    results, without building each document's model in the server too."""
    ls = create_server(workers=1)
    recorder = Recorder(ls)
    uris = [f"file:///virtual/q{i}.wgsl" for i in range(4)]
    text = SMALL + filler(300)
    try:
        for uri in uris:
            open_document(ls, uri, text)
        pulled = await ls.protocol.fm.features[lsp.TEXT_DOCUMENT_DIAGNOSTIC](lsp.DocumentDiagnosticParams(
            text_document=lsp.TextDocumentIdentifier(uri=uris[-1])))
        assert [d.code for d in pulled.items] == expected(text)
        symbols = await ls.protocol.fm.features[lsp.WORKSPACE_SYMBOL](lsp.WorkspaceSymbolParams(query=""))
        assert sorted((s.location.uri, s.name) for s in symbols) == sorted(
            (uri, name) for uri in uris for name in ["out", "main"] + [f"k{i}" for i in range(300)])
        assert recorder.analysed == []
    finally:
        ls.stop_workers()


@in_loop
async def test_a_small_document_is_diagnosed_while_a_huge_one_is_checked():
    """Both opened at once, the huge one first: on one analysis thread the small one waited for it."""
    ls = create_server(workers=2)
    recorder = Recorder(ls)
    try:
        open_document(ls, "file:///virtual/huge.wgsl", huge(8000))
        open_document(ls, "file:///virtual/small.wgsl", SMALL)
        await until(lambda: recorder.of("file:///virtual/huge.wgsl"))
        assert recorder.index("file:///virtual/small.wgsl") < recorder.index("file:///virtual/huge.wgsl")
        assert codes(recorder.of("file:///virtual/small.wgsl")[0]) == expected(SMALL) != []
        assert recorder.analysed == []
    finally:
        ls.stop_workers()


@in_loop
async def test_documents_only_opened_are_diagnosed_while_a_huge_edited_one_is_checked():
    """The huge document is the one being edited, so it is checked on the analysis thread; the documents
    opened meanwhile go to the workers and are diagnosed before its edit is."""
    ls = create_server(workers=2)
    recorder = Recorder(ls)
    big = "file:///virtual/huge.wgsl"
    try:
        open_document(ls, big, huge(8000))
        change_document(ls, big, 2, huge(8000) + BROKEN)
        others = [f"file:///virtual/other{i}.wgsl" for i in range(3)]
        for uri in others:
            open_document(ls, uri, SMALL)
        await until(lambda: recorder.of(big))
        assert all(recorder.index(uri) < recorder.index(big, 2) for uri in others)
        assert recorder.analysed == [big]
    finally:
        ls.stop_workers()


@in_loop
@pytest.mark.parametrize("abandoned", [True, False])
async def test_an_edit_makes_a_running_workers_check_stale(abandoned):
    text = huge(8000) if abandoned else huge(1500)
    assert (len(text) >= ABANDON_CHARS) is abandoned
    ls = create_server(workers=1)
    recorder = Recorder(ls)
    uri = "file:///virtual/edited.wgsl"
    try:
        open_document(ls, uri, text)
        await until(lambda: ls.documents[uri].pool_job is not None and ls.documents[uri].pool_job.running())
        job, pids = ls.documents[uri].pool_job, ls.pool.pids()
        change_document(ls, uri, 2, SMALL)
        await until(lambda: recorder.of(uri))
        await until(lambda: job.done())
        await asyncio.sleep(0.2)
        if abandoned:
            # Checking it would have taken seconds more: its worker was stopped.
            assert isinstance(job.exception(), WorkerDied) and "abandoned" in str(job.exception())
            assert not any(alive(pid) for pid in pids)
        else:
            assert job.result() is not None  # it finished, and its findings (version 1's) came too late
        # Never published over version 2's.
        assert [p.version for p in recorder.of(uri)] == [2]
        assert codes(recorder.of(uri)[0]) == expected(SMALL) and not ls.documents[uri].resting
    finally:
        ls.stop_workers()


@in_loop
async def test_a_settings_change_makes_a_running_workers_check_stale():
    """The targets change while a worker checks the document: only the new targets' findings are published."""
    ls = create_server(workers=1)
    recorder = Recorder(ls)
    uri = "file:///virtual/targets.wgsl"
    text = (ROOT / "examples" / "chromium" / "gemm_tiled.wgsl").read_text() + filler(3000)
    try:
        open_document(ls, uri, text)
        await until(lambda: ls.documents[uri].pool_job is not None and ls.documents[uri].pool_job.running())
        job = ls.documents[uri].pool_job
        ls.settings = Settings(targets=("apple-m",))
        ls.republish_all()
        await until(lambda: recorder.of(uri) and job.done())
        await asyncio.sleep(0.2)
        wanted = [d.code for d in Analysis.of(text, targets=("apple-m",)).diagnostics]
        assert wanted != expected(text)  # the profile adds a finding
        assert [codes(p) for p in recorder.of(uri)] == [wanted]
        assert recorder.analysed == [] and ls.documents[uri].resting
    finally:
        ls.stop_workers()


@in_loop
async def test_a_document_whose_worker_raised_is_checked_here():
    ls = create_server(workers=1)
    ls._pool = CheckPool(int, 1)  # int(job) raises in the worker
    recorder = Recorder(ls)
    uri = "file:///virtual/raised.wgsl"
    try:
        open_document(ls, uri, SMALL)
        await until(lambda: recorder.of(uri))
        assert codes(recorder.of(uri)[-1]) == expected(SMALL) and recorder.analysed == [uri]
    finally:
        ls.stop_workers()


@in_loop
async def test_queued_checks_are_dropped_when_their_document_is_closed_or_edited():
    ls = create_server(workers=1)
    recorder = Recorder(ls)
    big, closed, edited = "file:///virtual/huge.wgsl", "file:///virtual/closed.wgsl", "file:///virtual/edited.wgsl"
    try:
        open_document(ls, big, huge(6000))
        open_document(ls, closed, SMALL)
        open_document(ls, edited, SMALL)
        await until(lambda: all(ls.documents[u].pool_job is not None for u in (big, closed, edited)))
        queued = {u: ls.documents[u].pool_job for u in (closed, edited)}
        close(ls, closed)
        change_document(ls, edited, 2, SMALL + "// edited\n")
        await until(lambda: queued[closed].done() and queued[edited].done())
        assert queued[closed].cancelled() and queued[edited].cancelled()
        await until(lambda: recorder.of(big))
        # The edited one was checked on the analysis thread, without waiting for the worker.
        assert recorder.index(edited, 2) < recorder.index(big)
        assert [codes(p) for p in recorder.of(closed)] == [[]]  # only the close's clearing
    finally:
        ls.stop_workers()


@in_loop
async def test_a_killed_worker_costs_only_its_job():
    ls = create_server(workers=1)
    recorder = Recorder(ls)
    first, second, after = (f"file:///virtual/{n}.wgsl" for n in ("first", "second", "after"))
    try:
        # Killed once: a fresh worker checks it again, and the findings are the real ones.
        text = huge(3000) + BROKEN
        open_document(ls, first, text)
        await until(lambda: ls.documents[first].pool_job is not None and ls.documents[first].pool_job.running())
        await until(lambda: ls.pool.pids())
        os.kill(ls.pool.pids()[0], signal.SIGKILL)
        await until(lambda: recorder.of(first))
        assert codes(recorder.of(first)[-1]) == expected(text)
        assert INTERNAL_ERROR.code not in expected(text)
        # Killed on every try: a clear diagnostic, and the server goes on with the next document.
        open_document(ls, second, huge(3000))
        open_document(ls, after, SMALL)
        await until(lambda: ls.documents[second].pool_job is not None and ls.documents[second].pool_job.running())
        killed: set[int] = set()

        def kill_two_workers() -> bool:
            # Both of the second document's tries (the job behind it is left alone).
            for pid in ls.pool.pids():
                if pid not in killed and len(killed) < 2:
                    killed.add(pid)
                    os.kill(pid, signal.SIGKILL)
            return len(killed) == 2
        await until(lambda: kill_two_workers() and bool(recorder.of(second)))
        lost = recorder.of(second)[-1]
        assert codes(lost) == [INTERNAL_ERROR.code] and "killed by SIGKILL" in lost.diagnostics[0].message
        await until(lambda: recorder.of(after))
        assert codes(recorder.of(after)[-1]) == expected(SMALL)
        assert ls.documents[second].resting  # no attempt to check it here
    finally:
        ls.stop_workers()


# ------------------------------------------------------------------ the server's process
class _Client:
    """JSON-RPC over the server's standard streams, just enough to open documents and wait for them."""

    def __init__(self, *args: str) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        self.process = subprocess.Popen([sys.executable, "-m", "coop_lsp.server.main", "--no-cache", *args],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT, env=env)
        self.next_id = 0

    def send(self, method: str, params, request: bool = False) -> None:
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self) -> dict:
        length = 0
        while (line := self.process.stdout.readline().strip()):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.process.stdout.read(length))

    def start(self, uris: list[str]) -> None:
        self.send("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}}, request=True)
        while "id" not in self.receive():
            pass
        self.send("initialized", {})
        for uri in uris:
            self.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "wgsl", "version": 1,
                                                                "text": SMALL}})
        waiting = set(uris)
        while waiting:
            message = self.receive()
            if message.get("method") == "textDocument/publishDiagnostics":
                waiting.discard(message["params"]["uri"])

    def children(self) -> list[int]:
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as stat:
                        if int(stat.read().rsplit(")", 1)[1].split()[1]) == self.process.pid:
                            found.append(int(entry))
                except (OSError, ValueError, IndexError):
                    pass
        return found


def _gone(pids: list[int], timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(alive(pid) for pid in pids)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the workers in /proc")
@pytest.mark.parametrize("ending", ["shutdown and exit", "exit without shutdown", "killed"])
def test_no_worker_outlives_the_server(ending):
    client = _Client("--workers", "2")
    try:
        client.start([f"file:///virtual/k{i}.wgsl" for i in range(4)])
        workers = client.children()
        assert workers, "the documents were checked in worker processes"
        if ending == "killed":
            client.process.kill()
        else:
            if ending == "shutdown and exit":
                client.send("shutdown", None, request=True)
                while "id" not in client.receive():
                    pass
            client.send("exit", None)
        client.process.wait(30)
        assert _gone(workers), [pid for pid in workers if alive(pid)]
    finally:
        if client.process.poll() is None:
            client.process.kill()
            client.process.wait()
