"""What the server writes for each message it gets, byte for byte, with its own shortcuts and without them:
publishDiagnostics put together from each diagnostic's JSON kept from the publication before
(server/wire.py), against pygls's own serialisation of the same notification made in the same test; and
didOpen, didChange and didClose handed straight to their handlers, against pygls's dispatch of the same
messages in another server. The messages go in as JSON text, as they come over stdio. And the work the
server does per message besides: counted, so that it does not creep back."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.protocol import JsonRPCProtocol

from benchmarks import typing_cost
from coop_lsp.server.server import CoopProtocol, create_server
from tests.support.server_documents import until

asynchronous = pytest.mark.asyncio(loop_scope="function")

ROOT = Path(__file__).resolve().parent.parent
PUBLISH = lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
# Spec files with findings on most lines, one with related information; pieces typed into them at random.
KERNELS = [ROOT / "tests" / "spec" / "semantic" / "consts.wgsl", ROOT / "tests" / "spec" / "uniformity" / "filters.wgsl"]
PIECES = ["é", "🙂", "\n", "// note\n", "x", "", "  ", "let = ;", "\n\n", "\"", "\\", "1.5", "}"]


class Written:
    """The stream the server writes to."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.chunks.append(data)

    def close(self) -> None:
        pass


class Wire:
    """An in-process server fed JSON text, as its stdio loop feeds it; with `reference`, each
    publishDiagnostics it writes is also serialised by pygls itself (JsonRPCProtocol.notify) into
    `expected`, beside what the server wrote for it in `got`."""

    def __init__(self, reference: bool = False) -> None:
        self.ls = create_server()
        self.written = Written()
        self.ls.protocol.set_writer(self.written)
        self.version = 0
        self.got: list[bytes] = []
        self.expected: list[bytes] = []
        self.published: list[lsp.PublishDiagnosticsParams] = []
        protocol, real = self.ls.protocol, self.ls.protocol.notify

        def notify(method, params=None):
            if method != PUBLISH:
                return real(method, params)
            self.published.append(params)
            if reference:
                mine, protocol.writer = protocol.writer, Written()
                try:
                    JsonRPCProtocol.notify(protocol, method, params)
                    self.expected.append(b"".join(protocol.writer.chunks))
                finally:
                    protocol.writer = mine
            before = len(self.written.chunks)
            real(method, params)
            self.got.append(b"".join(self.written.chunks[before:]))
        protocol.notify = notify

    def send(self, method: str, params: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode()
        protocol = self.ls.protocol
        protocol.handle_message(json.loads(body, object_hook=protocol.structure_message))

    def open(self, uri: str, text: str) -> None:
        self.version = 1
        self.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "wgsl", "version": 1,
                                                            "text": text}})

    def change(self, uri: str, changes: list[dict]) -> None:
        self.version += 1
        self.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": self.version},
                                             "contentChanges": changes})

    def close(self, uri: str) -> None:
        self.send("textDocument/didClose", {"textDocument": {"uri": uri}})

    async def settled(self, uri: str) -> None:
        ls, version = self.ls, self.version
        await until(lambda: any(p.uri == uri and p.version == version for p in self.published)
                    and not ls.scheduler.busy(uri) and (uri not in ls.documents or ls.documents[uri].confirming is None))

    def stop(self) -> None:
        self.ls.analysis_executor.shutdown(wait=False)


def _typed(line: int, column: int, char: str) -> list[dict]:
    at = {"line": line, "character": column}
    return [{"range": {"start": at, "end": at}, "text": char}]


async def _type_the_benchmark(wire: Wire) -> None:
    """benchmarks/typing_cost.py's sequence: a comment over the middle loop header, then a statement below."""
    text, middle, code_line = typing_cost._workload()
    uri = "file:///bench/typing.wgsl"
    wire.open(uri, text)
    await wire.settled(uri)
    for line, typed in ((middle, typing_cost.COMMENT), (code_line, typing_cost.STATEMENT)):
        for index, char in enumerate(typed):
            wire.change(uri, _typed(line, index, char))
            await wire.settled(uri)


async def _random_edits(wire: Wire, path: Path, edits: int) -> None:
    """Random edits in UTF-16 positions (non-ASCII text, several changes in one message, the whole text
    now and then), a close, and the document opened again."""
    rng = random.Random(path.name)
    uri = f"file:///virtual/{path.name}"
    text = path.read_text(encoding="utf-8")
    wire.open(uri, text)
    await wire.settled(uri)
    for step in range(edits):
        lines = wire.ls.documents[uri].document.text.split("\n")
        if step % 10 == 9:
            changes = [{"text": "\n".join(lines[: len(lines) // 2]) + "\n// whole é\n"}]
        else:
            changes = []
            for _ in range(rng.choice([1, 1, 1, 2])):
                line = rng.randrange(len(lines))
                column = rng.randrange(len(lines[line].encode("utf-16-le")) // 2 + 1)
                at = {"line": line, "character": column}
                end = {"line": line, "character": column + rng.choice([0, 0, 1, 3])}
                changes.append({"range": {"start": at, "end": end}, "text": rng.choice(PIECES)})
        wire.change(uri, changes)
        await wire.settled(uri)
    wire.close(uri)
    wire.open(uri, text)
    await wire.settled(uri)


@asynchronous
async def test_published_diagnostics_are_pygls_serialisation_byte_for_byte_while_typing():
    wire = Wire(reference=True)
    try:
        await _type_the_benchmark(wire)
    finally:
        wire.stop()
    assert len(wire.got) >= 1 + len(typing_cost.COMMENT) + len(typing_cost.STATEMENT)
    assert wire.got == wire.expected
    assert sum(len(p.diagnostics) for p in wire.published) > 100  # diagnostics, not only empty lists


@asynchronous
@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.name)
async def test_published_diagnostics_are_pygls_serialisation_byte_for_byte_over_random_edits(path: Path):
    wire = Wire(reference=True)
    try:
        await _random_edits(wire, path, 40)
    finally:
        wire.stop()
    assert wire.got == wire.expected
    assert any(d.related_information for p in wire.published for d in p.diagnostics)
    assert any(b"\\u" in got for got in wire.got)  # non-ASCII text, escaped as pygls escapes it
    assert wire.published[-2].diagnostics == []  # the close


class _CountingConverter:
    """pygls's converter, counting the diagnostics handed to `unstructure` (alone or in a notification)."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.diagnostics = 0

    def unstructure(self, obj, *args, **kwargs):
        if isinstance(obj, lsp.Diagnostic):
            self.diagnostics += 1
        elif isinstance(getattr(obj, "params", None), lsp.PublishDiagnosticsParams):
            self.diagnostics += len(obj.params.diagnostics)
        return self.inner.unstructure(obj, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@asynchronous
async def test_each_diagnostic_object_is_serialised_once_while_typing():
    """The forms a version shares with the one before (most of them) are not unstructured again: over the
    typing sequence, as many diagnostics are unstructured as there are distinct objects published, a
    small part of all those published (pygls unstructures every one of every publication)."""
    wire = Wire()
    counting = wire.ls.protocol._converter = _CountingConverter(wire.ls.protocol._converter)
    try:
        await _type_the_benchmark(wire)
    finally:
        wire.stop()
    forms = [form for p in wire.published for form in p.diagnostics]
    distinct = {id(form): form for form in forms}
    assert counting.diagnostics == len(distinct)
    assert len(distinct) * 5 < len(forms)


async def _stream(path: Path | None, direct: bool) -> tuple[bytes, list]:
    """Everything the server wrote, and the errors it reported, with or without the direct dispatch."""
    wire = Wire()
    reported: list = []
    wire.ls._report_server_error = lambda error, source: reported.append((type(error), str(error), source))
    if not direct:
        wire.ls.protocol._document_handler = lambda message: None
    try:
        if path is None:
            await _type_the_benchmark(wire)
        else:
            await _random_edits(wire, path, 20)
            # A handler that fails: reported as pygls reports a notification's failure.
            features = wire.ls.protocol.fm.features
            features[lsp.TEXT_DOCUMENT_DID_CHANGE], change = (lambda params: 1 / 0), features[lsp.TEXT_DOCUMENT_DID_CHANGE]
            wire.change(f"file:///virtual/{path.name}", _typed(0, 0, "x"))
            features[lsp.TEXT_DOCUMENT_DID_CHANGE] = change
    finally:
        wire.stop()
    return b"".join(wire.written.chunks), reported


@asynchronous
@pytest.mark.parametrize("path", [None, *KERNELS], ids=lambda p: "typing" if p is None else p.name)
async def test_document_notifications_handed_straight_to_their_handlers_write_what_pygls_dispatch_does(path):
    direct, reported = await _stream(path, direct=True)
    dispatched, reported_dispatched = await _stream(path, direct=False)
    assert direct == dispatched
    assert reported == reported_dispatched
    assert len(reported) == (0 if path is None else 1)


@asynchronous
async def test_document_notifications_skip_pygls_dispatch(monkeypatch):
    """No handler future, message id or generator step for didOpen, didChange or didClose (pygls makes two
    of each per message), and pygls structures each message other than a didChange (server/incoming.py builds
    those), not each object inside it."""
    wire = Wire()
    steps: list = []
    protocol = wire.ls.protocol
    execute = protocol._execute_handler
    protocol._execute_handler = lambda *args, **kwargs: steps.append(args) or execute(*args, **kwargs)
    structured: list = []
    structure = JsonRPCProtocol.structure_message
    monkeypatch.setattr(JsonRPCProtocol, "structure_message",
                        lambda self, data: structured.append(data) or structure(self, data))
    sent = changes = 0
    send = wire.send

    def counted(method, params):
        nonlocal sent, changes
        sent += 1
        changes += method == lsp.TEXT_DOCUMENT_DID_CHANGE
        send(method, params)
    wire.send = counted
    try:
        await _random_edits(wire, KERNELS[0], 5)
    finally:
        wire.stop()
    assert steps == []
    assert len(structured) == sent - changes and changes >= 5 and sent > changes
    assert isinstance(protocol, CoopProtocol) and wire.got


@asynchronous
async def test_document_notifications_leave_no_future_behind():
    """pygls's dispatch kept the future of each generator-handled notification in `_request_futures` for
    good (nothing pops a notification's): one more for every keystroke, as long as the server ran."""
    wire = Wire()
    try:
        await _random_edits(wire, KERNELS[0], 10)
    finally:
        wire.stop()
    assert len(wire.published) > 10
    assert wire.ls.protocol._request_futures == {}


@asynchronous
async def test_a_plain_documents_check_looks_its_file_up_once(monkeypatch):
    """The path of the file behind a uri (a stat) is looked up for its variant tables only, not once more for
    the template a plain document does not have."""
    from coop_lsp.server import server as server_module
    looked: list = []
    path_of = server_module._path_of
    monkeypatch.setattr(server_module, "_path_of", lambda uri: looked.append(uri) or path_of(uri))
    wire = Wire()
    analyses = 0
    analyse = wire.ls._analyse

    def counted(*args):
        nonlocal analyses
        analyses += 1
        return analyse(*args)
    wire.ls._analyse = counted
    try:
        await _random_edits(wire, KERNELS[1], 5)
    finally:
        wire.stop()
    assert analyses > 5 and len(looked) == analyses
