"""The language server under random edit streams, malformed and out-of-order messages, cancellations,
and a client that disappears; over stdio, with a bounded number of messages per test.

After each stream the server's diagnostics for the document (pushed for the
final version, and pulled) equal those of a fresh `lint_source` of the
client's final text, and its semantic tokens equal those computed from that
text: the server's copy of the document is the client's.
"""

from __future__ import annotations

import random
import time

import pytest

from coop_lsp.ide import presentation
from coop_lsp.ide.analysis import Analysis
from coop_lsp.lint import lint_source
from coop_lsp.server.convert import Converter
from coop_lsp.server.tokens import encode as encode_tokens

from .conftest import count
from .lsp import RawServer, alive, children_of
from .mutate import seeds

FRAGMENTS = ["{", "}", "(", ")", ";", "<", ">", "<f16, 16, 16>", "let x = 1", "/*", "*/", "//", "\n", "fn g() {}",
             "é", "🙂", " ", "loop {", "&&", "a < b", "0x1p4f", "subgroupMatrixLoad<", "coopLoadT<", "\r\n", "\t",
             "struct S { a: f32 }", "@compute @workgroup_size(1)", "var<workgroup> t: array<f32, 4>;"]


class ClientDocument:
    """The client's copy: text plus conversions to LSP positions (UTF-16 columns; lines end at
    '\\n', '\\r\\n' or a lone '\\r', as the protocol says)."""

    def __init__(self, text: str, lone_cr_breaks: bool = True) -> None:
        self.text = text
        self.lone_cr_breaks = lone_cr_breaks

    def valid(self, index: int) -> int:
        """A cursor never stands between the two characters of a '\\r\\n'."""
        if 0 < index < len(self.text) and self.text[index - 1] == "\r" and self.text[index] == "\n":
            return index - 1
        return index

    def position(self, index: int) -> dict:
        before = self.text[:index]
        if self.lone_cr_breaks:
            lines = before.replace("\r\n", "\n").replace("\r", "\n")
        else:
            lines = before.replace("\r\n", "\n")
        line = lines.count("\n")
        column_text = lines[lines.rfind("\n") + 1:]
        return {"line": line, "character": sum(2 if ord(ch) > 0xFFFF else 1 for ch in column_text)}

    def edit(self, start: int, end: int, new: str) -> dict:
        start, end = self.valid(start), self.valid(end)
        change = {"range": {"start": self.position(start), "end": self.position(end)}, "text": new}
        self.text = self.text[:start] + new + self.text[end:]
        return change


def expected_diagnostics(text: str) -> list[tuple]:
    result = lint_source(text)
    convert = Converter(result.source, "utf16")
    out = []
    for diagnostic in result.diagnostics:
        r = convert.range(diagnostic.span)
        out.append((diagnostic.code, r.start.line, r.start.character, r.end.line, r.end.character))
    return out


def actual(diagnostics: list[dict]) -> list[tuple]:
    return [(d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"], d["range"]["end"]["line"],
             d["range"]["end"]["character"]) for d in diagnostics]


def expected_tokens(text: str) -> list[int]:
    analysis = Analysis.of(text)
    return encode_tokens(Converter(analysis.source, "utf16"), presentation.semantic_tokens(analysis))


def run_stream(server: RawServer, uri: str, text: str, rng: random.Random, edits: int, pause: float) -> dict:
    """One random edit stream with requests interleaved; returns its figures."""
    document = ClientDocument(text)
    server.open(uri, text, 1)
    version = 1
    history: list[tuple[int, int, str]] = []  # (start, end of the new text, old text) for undo
    requests = []
    for _ in range(edits):
        changes = []
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            size = len(document.text)
            kind = rng.random()
            if kind < 0.15 and history:  # undo
                start, end, old = history.pop()
                if document.valid(start) == start and document.valid(end) == end:
                    changes.append(document.edit(start, end, old))
                    continue
            start = document.valid(rng.randint(0, size))
            if kind < 0.5:  # insert
                end, new = start, rng.choice(FRAGMENTS)
            elif kind < 0.75:  # delete
                end, new = min(size, start + rng.choice((1, 1, 2, 5, 40))), ""
            else:  # replace
                end, new = min(size, start + rng.choice((1, 3, 10))), rng.choice(FRAGMENTS)
            end = document.valid(end)
            history.append((start, start + len(new), document.text[start:end]))
            changes.append(document.edit(start, end, new))
        version += 1
        server.change(uri, version, changes)
        if rng.random() < 0.3:
            position = document.position(rng.randint(0, len(document.text)))
            method = rng.choice(("textDocument/hover", "textDocument/completion", "textDocument/codeAction",
                                 "textDocument/signatureHelp", "textDocument/definition",
                                 "textDocument/semanticTokens/full"))
            params = {"textDocument": {"uri": uri}, "position": position}
            if method == "textDocument/codeAction":
                params = {"textDocument": {"uri": uri}, "range": {"start": position, "end": position},
                          "context": {"diagnostics": []}}
            elif method == "textDocument/semanticTokens/full":
                params = {"textDocument": {"uri": uri}}
            request = server.request(method, params)
            requests.append(request)
            if rng.random() < 0.2:  # the user moved on: cancel it
                server.notify("$/cancelRequest", {"id": request})
        if pause:
            time.sleep(pause)
    # Every request answered: with a result, or cancelled; never an internal error.
    for request in requests:
        reply = server.response(request, timeout=30)
        assert reply.get("error", {}).get("code") in (None, -32800), reply
    # The server's document is the client's.
    pushed = server.diagnostics_for(uri, version, timeout=30)
    expected = expected_diagnostics(document.text)
    assert actual(pushed) == expected, f"final text {document.text!r}"
    pulled = server.call("textDocument/diagnostic", {"textDocument": {"uri": uri}})["result"]["items"]
    assert actual(pulled) == expected
    tokens = server.call("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}})["result"]["data"]
    assert tokens == expected_tokens(document.text), f"final text {document.text!r}"
    return {"edits": version - 1, "requests": len(requests) + 2, "text": document.text}


@pytest.mark.parametrize("pause, seed", [(0.01, 1), (0.0, 2), (0.0, 3)], ids=["editor-speed", "flood", "flood-2"])
def test_random_edit_streams(pause, seed):
    rng = random.Random(seed)
    pool = [s for s in seeds() if s.name.startswith(("examples/", "tests/spec/"))]
    server = RawServer()
    try:
        server.initialize()
        for index in range(3):
            uri = f"file:///virtual/stress-{seed}-{index}.wgsl"
            figures = run_stream(server, uri, rng.choice(pool).text, rng, edits=80, pause=pause)
            count("server: edits applied", figures["edits"])
            count("server: requests served", figures["requests"])
            count("server: documents verified")
        assert server.shutdown() == 0
    finally:
        server.kill()


def test_malformed_and_out_of_order_messages():
    uri = "file:///virtual/faults.wgsl"
    text = seeds()[0].text
    server = RawServer()
    faults = 0
    try:
        # Before initialize: a request must be refused, not crash the server.
        early = server.call("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": 0, "character": 0}})
        assert "error" in early or early.get("result") is None
        server.initialize()
        # Edits and closes for documents that were never opened.
        server.change("file:///virtual/never.wgsl", 2, [{"text": "fn f() {}"}])
        server.notify("textDocument/didClose", {"textDocument": {"uri": "file:///virtual/never.wgsl"}})
        faults += 2
        server.open(uri, text, 5)
        document = ClientDocument(text)
        # Versions going backwards and repeating; ranges reversed, past the end, negative lines.
        server.change(uri, 3, [document.edit(0, 0, "// v3\n")])
        server.change(uri, 3, [document.edit(0, 0, "// v3 again\n")])
        faults += 2
        for bad_range in ({"start": {"line": 2, "character": 0}, "end": {"line": 0, "character": 0}},
                          {"start": {"line": 9999, "character": 0}, "end": {"line": 99999, "character": 5}},
                          {"start": {"line": -1, "character": -5}, "end": {"line": 0, "character": 0}},
                          {"start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 1}, "x": 1}):
            server.change(uri, 4, [{"range": bad_range, "text": "X"}])
            faults += 1
        # Whatever the server made of those, it must still be consistent with a full text sync.
        server.change(uri, 6, [{"text": document.text}])
        # Garbage on the wire: not JSON, JSON but not JSON-RPC, wrong types, an unknown method,
        # a batch, a huge id, bytes that are not UTF-8, a notification for a request method.
        for body in (b"{not json", b"[]", b"42", b'{"jsonrpc": "2.0"}', b'{"jsonrpc": "2.0", "id": 1}',
                     b'{"jsonrpc": "2.0", "method": 5, "id": 7}',
                     b'{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": 3}',
                     b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {}}}',
                     b'[{"jsonrpc": "2.0", "id": 8, "method": "shutdown"}]',
                     b'{"jsonrpc": "2.0", "id": 99999999999999999999999, "method": "coop/none", "params": {}}',
                     b'{"jsonrpc": "2.0", "id": 9, "method": "textDocument/hover", "params": "\xff\xfe"}',
                     b'{"jsonrpc": "2.0", "method": "textDocument/hover", "params": {}}'):
            server.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            faults += 1
        # A header with no length, then a good message: framing must recover or at least not die.
        server.send_bytes(b"Content-Type: nothing\r\n\r\n")
        faults += 1
        # Cancellations of requests that do not exist, or that already finished.
        done = server.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 1}})
        assert "error" not in done or done["error"]["code"] != -32603
        for id_ in (done["id"], 123456, "nope", None):
            server.notify("$/cancelRequest", {"id": id_})
            faults += 1
        # A request id reused while the first is still running.
        first = server.request("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}}, id_=77)
        server.request("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}}, id_=77)
        faults += 1
        assert "error" not in server.response(first) or server.response(first)["error"]["code"] != -32603
        # The server still serves, and its copy is the client's.
        server.change(uri, 7, [document.edit(0, 0, "\n")])
        assert actual(server.diagnostics_for(uri, 7)) == expected_diagnostics(document.text)
        tokens = server.call("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}})["result"]["data"]
        assert tokens == expected_tokens(document.text)
        count("server: faults injected", faults)
        count("server: documents verified")
        assert server.shutdown() == 0
    finally:
        server.kill()


@pytest.mark.parametrize("how", ["close-stdin", "close-both", "exit-without-shutdown"])
def test_client_that_disappears(how):
    """The client goes away mid-session: the server exits within a few seconds and leaves no child behind."""
    server = RawServer()
    try:
        server.initialize()
        uri = "file:///virtual/gone.wgsl"
        text = seeds()[0].text
        server.open(uri, text)
        server.diagnostics_for(uri, 1)
        # Busy when the client vanishes: edits in flight and requests unanswered.
        for version in range(2, 30):
            server.change(uri, version, [{"text": text + "\n" * version}])
        server.request("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}})
        descendants = children_of(server.process.pid)
        started = time.monotonic()
        if how == "exit-without-shutdown":
            server.notify("exit", None)
        else:
            server.process.stdin.close()
            if how == "close-both":
                server.process.stdout.close()
        try:
            status = server.process.wait(timeout=5)
        except Exception:  # noqa: BLE001
            pytest.fail(f"the server was still running 5 s after the client disappeared ({how})")
        count("server: client disappearances survived")
        assert time.monotonic() - started < 5
        # (The protocol wants status 1 after an exit without shutdown: tests/regressions/test_server_regressions.py.)
        assert status is not None
        time.sleep(0.2)
        assert [pid for pid in descendants if alive(pid)] == [], "orphaned child processes"
    finally:
        server.kill()
