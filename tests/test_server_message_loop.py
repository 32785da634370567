"""The server's message loop (server/stdio.py's serve over MessageReader, incoming.Decoder) against pygls's
own (pygls.io_.run_async, json.loads with the protocol's hook): the same messages handled, the same errors
reported, the same debug lines, on byte streams bent in every way a header or body can be; and the work
each keystroke's message no longer costs (hook calls, JSON decoders, wrap_future, idle timers), counted on
the real server over pipes."""

from __future__ import annotations

import asyncio
import codecs
import concurrent.futures
import io
import json
import logging
import os
import random
import threading
from types import SimpleNamespace

import pytest
from pygls.io_ import StdinAsyncReader, run_async

from benchmarks.lsp_stdio import StdioClient
from coop_lsp.server import idle_gc, incoming
from coop_lsp.server.server import create_server
from coop_lsp.server.stdio import MessageReader, serve
from coop_lsp.server.work_queue import PriorityWorker, on_loop
from tests.support import did_change_messages as messages


@pytest.fixture(scope="module")
def protocol():
    ls = create_server()
    yield ls.protocol
    ls.analysis_executor.shutdown(wait=False)


def _outcome(call):
    try:
        return call()
    except BaseException as error:  # noqa: BLE001 - compared between the two ways (RecursionError too)
        return ("raised", type(error), str(error), type(error.__cause__))


def _comparable(found):
    if type(found).__name__ == "_Malformed":  # the server's answer to a malformed request: no __eq__
        return ("malformed", found.id, found.method, type(found.error), str(found.error))
    return found


def _same(ours, theirs) -> None:
    ours, theirs = _comparable(ours), _comparable(theirs)
    assert type(ours) is type(theirs) and ours == theirs and repr(ours) == repr(theirs)


def _bodies(rng: random.Random) -> list[bytes]:
    usual = [json.dumps(messages.message(rng)).encode() for _ in range(300)]
    bent = [json.dumps(messages.bent(rng, messages.message(rng))).encode() for _ in range(600)]
    change = messages.message(rng)
    inner = json.loads(json.dumps(change))
    inner["params"]["textDocument"]["jsonrpc"] = "2.0"  # an inner object the hook structures
    request = dict(change, id=7)
    odd = [
        json.dumps(inner).encode(),
        json.dumps(request).encode(),
        json.dumps([change, change]).encode(),  # a batch
        json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": "file:///a.wgsl", "languageId": "wgsl", "version": 1,
            "text": '"textDocument/didChange" \\"textDocument/didChange\\"'}}}).encode(),
        json.dumps(change).encode()[:-9],  # cut short: not JSON
        json.dumps(change).encode("utf-16"),
        json.dumps(change).encode("utf-16-le"),
        codecs.BOM_UTF8 + json.dumps(change).encode(),
        json.dumps(change, ensure_ascii=False).encode(),
        b'{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": "a", '
        b'"version": 1, "version": 2}, "contentChanges": []}}',  # a key twice: the last one holds
        b'{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": ' + b"[" * 100_000 + b"]" * 100_000
        + b"}",
        b'{"jsonrpc": "2.0", "id": 3, "result": null, "method": "textDocument/didChange"}',
        b'"textDocument/didChange"',
        b'{"method": "textDocument/didChange", "params": {}}',
        json.dumps({"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": "file:///a.wgsl"}, "position": {"line": 1, "character": 2}}}).encode(),
    ]
    return usual + bent + odd


def test_a_body_is_decoded_as_pygls_decodes_it(protocol):
    plain = 0
    bodies = _bodies(random.Random(23))
    for body in bodies:
        decoder = incoming.Decoder(protocol.structure_message)
        ours = _outcome(lambda: decoder.message(body))
        theirs = _outcome(lambda: json.loads(body, object_hook=protocol.structure_message))
        _same(ours, theirs)
        data = _outcome(lambda: json.loads(body))
        plain += type(data) is dict and incoming.did_change(data) is not None
    assert plain > 300 and len(bodies) - plain > 500  # both ways were compared


class _Recording:
    """A protocol for the loops: it structures objects with "fail" by raising, and records what it handles."""

    def __init__(self) -> None:
        self.handled: list = []
        self.structured = 0

    def structure_message(self, data):
        self.structured += 1
        if "fail" in data:
            raise ValueError(f"cannot structure {sorted(data)}")
        return data

    def handle_message(self, message) -> None:
        if isinstance(message, dict) and message.get("raise"):
            raise RuntimeError("handler failed")
        self.handled.append(message)


def _run_loop(data: bytes, ours: bool) -> tuple:
    protocol, errors, lines = _Recording(), [], []
    logger = logging.getLogger(f"tests.message_loop.{'ours' if ours else 'pygls'}")
    logger.setLevel(logging.DEBUG)
    logger.propagate = False

    class Lines(logging.Handler):
        def emit(self, record) -> None:
            lines.append((record.levelname, record.getMessage()))

    handler = Lines()
    logger.addHandler(handler)
    stop = threading.Event()

    def report(error, source) -> None:
        errors.append((type(error).__name__, str(error), source))

    try:
        if ours:
            asyncio.run(asyncio.wait_for(serve(MessageReader(io.BytesIO(data)), protocol, stop, logger, report), 30))
        else:
            asyncio.run(asyncio.wait_for(run_async(stop, StdinAsyncReader(io.BytesIO(data)), protocol, logger,
                                                   report), 30))
    finally:
        logger.removeHandler(handler)
    return protocol.handled, protocol.structured, errors, lines


def _framed(body: bytes, rng: random.Random) -> bytes:
    headers = [b"Content-Length: %d\r\n" % len(body)]
    if rng.random() < 0.3:
        headers.append(b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n")
    if rng.random() < 0.2:
        headers.insert(0, rng.choice([b"X-Other: 1\r\n", b"content-length: 3\r\n", b"Content-Length: 0\r\n",
                                      b"Content-Length:7\r\n", b"Content-Length: 9\n", b"\r\n", b"junk"]))
    if rng.random() < 0.1:
        headers.append(b"Content-Length: 2\r\n")  # after the first: not read
    return b"".join(headers) + rng.choice([b"\r\n", b"\r\n", b"\n", b" \t\r\n"]) + body


_PIECES = [b'{"jsonrpc": "2.0", "method": "a", "params": {"x": [1, {"y": 2}]}}', b'{"fail": 1}', b'{"raise": 1}',
           b'[1, 2, {"z": null}]', b'not json', b'{"text": "\xc3\xa9\xf0\x9f\x99\x82"}', b'{"a": {"fail": 0}}', b'7']


def _stream(rng: random.Random) -> bytes:
    data = b"".join(_framed(rng.choice(_PIECES), rng) for _ in range(rng.randrange(0, 6)))
    if rng.random() < 0.3:
        data += rng.choice([b"garbage\r\n", b"\r\n", b"Content-Length: 40\r\n", b"Content-Length: 40\r\n\r\n{\"a\"",
                            b"Content-Length: 4\r\n\r\n", b"Content-Len"])
    if rng.random() < 0.2 and data:
        data = data[:rng.randrange(len(data))]  # the stream ends anywhere
    return data


def test_the_loop_handles_and_reports_what_pyglss_loop_does():
    rng = random.Random(5)
    streams = [b"", b"\r\n", b"Content-Length: 2\r\n\r\n{}", b"Content-Length: 2\r\n\r\n{}Content-Length: 3\r\n\r\n{}"]
    streams += [_stream(rng) for _ in range(300)]
    handled = 0
    for data in streams:
        ours, theirs = _run_loop(data, ours=True), _run_loop(data, ours=False)
        assert ours == theirs, data
        handled += len(ours[0])
    assert handled > 300


def _raise(error: BaseException):
    raise error


def test_the_analysis_threads_future_on_the_loop_is_wrap_futures():
    async def outcome(waiting: asyncio.Future):
        try:
            return await asyncio.shield(waiting)
        except BaseException as error:  # noqa: BLE001 - compared between the two ways
            return ("raised", type(error), str(error))

    async def outcomes(wrap) -> list:
        loop = asyncio.get_running_loop()
        worker = PriorityWorker("test-on-loop")
        gate = threading.Event()
        try:
            found = []
            for call in (lambda: 3, lambda: 1 / 0, lambda: _raise(concurrent.futures.CancelledError("x")),
                         lambda: _raise(concurrent.futures.TimeoutError("y")), lambda: None):
                found.append(await outcome(wrap(worker.submit(call), loop)))
            blocker = worker.submit(gate.wait, 5)  # holds the thread while the next ones wait
            queued = worker.submit(lambda: "never")
            waiting = wrap(queued, loop)
            waiting.cancel()  # cancelling the loop's future drops the queued work
            dropped = worker.submit(lambda: "dropped")
            other = wrap(dropped, loop)
            dropped.cancel()  # cancelled from the other side
            await asyncio.sleep(0)  # the loop's callbacks run before the thread is let go
            gate.set()
            await asyncio.wrap_future(blocker)
            found.append((waiting.cancelled(), queued.cancelled(), await outcome(other), other.cancelled()))
            return found
        finally:
            worker.shutdown(wait=False)

    ours = asyncio.run(outcomes(on_loop))
    theirs = asyncio.run(outcomes(lambda future, loop: asyncio.wrap_future(future, loop=loop)))
    assert ours == theirs
    assert ours[0] == 3 and ours[-1][:2] == (True, True) and ours[-1][3] is True


def test_the_idle_collection_waits_from_the_last_analysis():
    async def scenario() -> tuple:
        collector = idle_gc.IdleCollector(idle=0.05, most=1000)
        loop = asyncio.get_running_loop()
        last = 0.0
        for _ in range(4):
            collector.analysed()
            last = loop.time()
            await asyncio.sleep(0.02)  # each analysis within the wait of the one before
        before = collector.collections
        while collector.collections == before:
            await asyncio.sleep(0.005)
        return before, loop.time() - last

    before, waited = asyncio.run(scenario())
    assert before == 0 and waited >= 0.05


class _Pipes:
    """The server's start_io on a thread of this process, over two pipes, driven as a process would be."""

    def __init__(self) -> None:
        self.ls = create_server()
        into_server, self._write = os.pipe()
        self._read, out_of_server = os.pipe()
        self._stdin = os.fdopen(into_server, "rb", buffering=0)
        self._stdout = os.fdopen(out_of_server, "wb")
        self.client = StdioClient(SimpleNamespace(stdin=os.fdopen(self._write, "wb"),
                                                  stdout=os.fdopen(self._read, "rb")))
        self.thread = threading.Thread(target=self.ls.start_io, args=(self._stdin, self._stdout), daemon=True)

    def session(self, edits: int) -> None:
        uri = "file:///loop/typed.wgsl"
        self.thread.start()
        client = self.client
        client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        client.notify("initialized", {})
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "wgsl", "version": 1,
                                                                "text": "fn f() -> u32 {\n  return 1u;\n}\n"}})
        client.diagnostics(uri, 1)
        for version in range(2, 2 + edits):
            at = {"line": 1, "character": 9}
            client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                     "contentChanges": [{"range": {"start": at, "end": at},
                                                                         "text": "0"}]})
            client.diagnostics(uri, version)
        client.request("shutdown", None)
        client.notify("exit", None)
        self.thread.join(30)
        assert not self.thread.is_alive()
        self.ls.analysis_executor.shutdown(wait=False)
        for stream in (self._stdout, client.process.stdin, client.process.stdout):
            stream.close()


def test_a_keystrokes_message_costs_no_hook_call_no_decoder_no_wrapped_future_and_no_new_timer(monkeypatch):
    pipes = _Pipes()
    protocol = pipes.ls.protocol
    counts = {"hook on a didChange": 0, "decoders": 0, "wrap_future": 0, "idle timers": 0}
    hook = protocol.structure_message

    def structure(data):
        if data.get("method") == "textDocument/didChange" or data and data.keys() <= {"line", "character", "start", "end",
                                                                             "range", "text", "uri", "version"}:
            counts["hook on a didChange"] += 1
        return hook(data)

    monkeypatch.setattr(protocol, "structure_message", structure)
    decoder_init = json.JSONDecoder.__init__

    def decoder(self, *args, **kwargs):
        counts["decoders"] += 1
        decoder_init(self, *args, **kwargs)

    monkeypatch.setattr(json.JSONDecoder, "__init__", decoder)
    wrap = asyncio.wrap_future

    def wrapped(*args, **kwargs):
        counts["wrap_future"] += 1
        return wrap(*args, **kwargs)

    monkeypatch.setattr(asyncio, "wrap_future", wrapped)
    for name in ("call_later", "call_at"):
        method = getattr(asyncio.BaseEventLoop, name)

        def timed(self, when, callback, *args, _method=method, **kwargs):
            if getattr(callback, "__self__", None) is pipes.ls.idle_gc:
                counts["idle timers"] += 1
            return _method(self, when, callback, *args, **kwargs)
        monkeypatch.setattr(asyncio.BaseEventLoop, name, timed)
    pipes.session(edits=12)
    # The old loop: 7 hook calls per didChange, a decoder per message, a wrap_future per check and an idle
    # timer per check (13 checks).
    assert counts == {"hook on a didChange": 0, "decoders": 2, "wrap_future": 0, "idle timers": 1}
