"""stdin read by the event loop itself where it is a pipe or a socket (server/stdio.py), with no reader thread
between the client and the loop: the same messages handled, errors reported and debug lines written as pygls's
own loop, whatever pieces the pipe gives them in; a Replay's bytes first; a file or a buffered stream still read
by a thread; and the real server over pipes serving a session, a malformed message and the end of its input
without any thread reading for it."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import random
import threading
import time
from types import SimpleNamespace

from pygls.io_ import StdinAsyncReader, run_async

from benchmarks.lsp_stdio import StdioClient
from coop_lsp.server.fast_start import Replay
from coop_lsp.server.server import create_server
from coop_lsp.server.stdio import MessageReader, serve
from tests.test_server_message_loop import _Recording, _stream


def _loop_of(reader_of, data: bytes, ours: bool) -> tuple:
    """What a message loop handled, structured, reported and logged over `data`; `reader_of()` makes our
    reader (and starts feeding it) inside the running loop."""
    protocol, errors, lines = _Recording(), [], []
    logger = logging.getLogger(f"tests.stdin_watch.{'ours' if ours else 'pygls'}")
    logger.setLevel(logging.DEBUG)
    logger.propagate = False

    class Lines(logging.Handler):
        def emit(self, record) -> None:
            lines.append((record.levelname, record.getMessage()))

    handler = Lines()
    logger.addHandler(handler)
    stop = threading.Event()
    threaded = []

    def report(error, source) -> None:
        errors.append((type(error).__name__, str(error), source))

    async def ours_() -> None:
        reader = reader_of()
        try:
            await serve(reader, protocol, stop, logger, report)
        finally:
            threaded.append(reader.threaded)

    try:
        if ours:
            asyncio.run(asyncio.wait_for(ours_(), 30))
        else:
            asyncio.run(asyncio.wait_for(run_async(stop, StdinAsyncReader(io.BytesIO(data)), protocol, logger,
                                                   report), 30))
    finally:
        logger.removeHandler(handler)
    return (protocol.handled, protocol.structured, errors, lines), threaded


def _piped(data: bytes, rng: random.Random, first: bytes = b""):
    """A reader over a pipe that a thread fills with `data` in random pieces, some after a pause (so that the
    loop reads a message in several parts), then closes; `first` is replayed before it (fast_start.Replay)."""
    def make():
        into_reader, write = os.pipe()
        stream = os.fdopen(into_reader, "rb", buffering=0)
        cuts = sorted(rng.randrange(len(data) + 1) for _ in range(rng.randrange(4)))
        pieces = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)])]
        pauses = [rng.random() < 0.3 for _ in pieces]

        def fill() -> None:
            with os.fdopen(write, "wb", buffering=0) as out:
                for piece, pause in zip(pieces, pauses):
                    if pause:
                        time.sleep(0.002)
                    out.write(piece)

        threading.Thread(target=fill, daemon=True).start()
        return MessageReader(Replay(first, stream) if first else stream)
    return make


def test_a_pipe_read_by_the_loop_gives_what_pyglss_loop_gives_in_any_pieces():
    rng = random.Random(11)
    streams = [b"", b"\r\n", b"Content-Length: 2\r\n\r\n{}", b"Content-Length: 2\r\n\r\n{}Content-Length: 3\r\n\r\n{}"]
    streams += [_stream(rng) for _ in range(250)]
    handled = 0
    for data in streams:
        (ours, threaded), (theirs, _) = _loop_of(_piped(data, rng), data, True), _loop_of(None, data, False)
        assert ours == theirs, data
        assert threaded == [False]  # the loop watched the pipe: no thread read it
        handled += len(ours[0])
    assert handled > 150


def test_bytes_read_before_the_server_started_come_first_then_the_pipes():
    rng = random.Random(12)
    for _ in range(60):
        data = _stream(rng)
        at = rng.randrange(len(data) + 1)
        (ours, threaded), (theirs, _) = _loop_of(_piped(data[at:], rng, data[:at]), data, True), \
            _loop_of(None, data, False)
        assert ours == theirs, (data, at)
        assert threaded == [False]


def test_a_file_or_a_buffered_stream_is_read_by_a_thread(tmp_path):
    rng = random.Random(13)
    for index in range(30):
        data = _stream(rng)
        path = tmp_path / f"input{index}"
        path.write_bytes(data)
        for kind in ("raw file", "buffered pipe"):
            if kind == "raw file":
                def make(path=path):
                    return MessageReader(open(path, "rb", buffering=0))  # noqa: SIM115 - closed at exit
            else:
                def make(data=data):
                    into_reader, write = os.pipe()
                    with os.fdopen(write, "wb") as out:
                        out.write(data)  # the streams are far smaller than a pipe's buffer
                    return MessageReader(os.fdopen(into_reader, "rb"))
            (ours, threaded), (theirs, _) = _loop_of(make, data, True), _loop_of(None, data, False)
            assert ours == theirs, (kind, data)
            assert threaded == [True], kind


class _Session:
    """The server's start_io on a thread of this process over two pipes, as an editor would drive it, with the
    raw frames it writes kept."""

    def __init__(self) -> None:
        self.ls = create_server()
        into_server, self.write = os.pipe()
        self.read, out_of_server = os.pipe()
        self.stdin = os.fdopen(into_server, "rb", buffering=0)
        self.stdout = os.fdopen(out_of_server, "wb")
        self.client = StdioClient(SimpleNamespace(stdin=os.fdopen(self.write, "wb"), stdout=os.fdopen(self.read, "rb")))
        self.thread = threading.Thread(target=self.ls.start_io, args=(self.stdin, self.stdout), daemon=True)
        self.readers: list[str] = []

    def start(self) -> None:
        self.thread.start()
        self.client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        self.client.notify("initialized", {})

    def note_threads(self) -> None:
        self.readers += [t.name for t in threading.enumerate() if t.name == "coop-stdin"]

    def close(self) -> None:
        self.ls.analysis_executor.shutdown(wait=False)
        for stream in (self.stdout, self.client.process.stdout):
            stream.close()


def test_the_server_over_pipes_reads_edits_and_answers_malformed_messages_with_no_reading_thread():
    session = _Session()
    session.start()
    client = session.client
    uri = "file:///watch/typed.wgsl"
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "wgsl", "version": 1,
                                                            "text": "fn f() -> u32 {\n  return 1u;\n}\n"}})
    client.diagnostics(uri, 1)
    for version in range(2, 7):
        at = {"line": 1, "character": 9}
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"range": {"start": at, "end": at}, "text": "0"}]})
        client.diagnostics(uri, version)
        session.note_threads()
    client.send_bytes(b'{"jsonrpc": "2.0", "id": 40, "method": "textDocument/hover", "params": ')  # not JSON
    parse_error = client.until(lambda m: "error" in m)
    assert parse_error["id"] is None and parse_error["error"]["code"] == -32700
    invalid = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": "one"}}, 41)
    assert invalid["error"]["code"] == -32602
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": {"line": 0, "character": 3}}, 42)
    assert "result" in hover
    session.note_threads()
    client.request("shutdown", None)
    client.notify("exit", None)
    session.thread.join(30)
    assert not session.thread.is_alive()
    session.close()
    client.process.stdin.close()
    assert session.readers == []


def test_the_end_of_the_clients_stream_ends_the_server_watching_it():
    session = _Session()
    session.start()
    session.note_threads()
    started = time.monotonic()
    session.client.process.stdin.close()  # the editor went away without shutdown or exit
    session.thread.join(30)
    assert not session.thread.is_alive() and time.monotonic() - started < 30
    session.close()
    assert session.readers == []
    assert json.dumps(session.client.published) == "{}"
