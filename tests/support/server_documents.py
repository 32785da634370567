"""What the in-process server tests share: a small kernel with one type error per document, its URIs,
opening and changing documents through the server's own handlers, and waiting for a condition."""

from __future__ import annotations

import asyncio

from lsprotocol import types as lsp

# One document per index: each has its own helper function and the same error (`1.5` is not a u32).
KERNEL = """\
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
fn helper_{i}(x: f32) -> f32 {{ return x * {i}.0; }}
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {{
  let bad: u32 = 1.5;
  out[id.x] = helper_{i}(f32(id.x));
}}
"""


def kernel(i: int) -> str:
    return KERNEL.format(i=i)


def uri(i: int) -> str:
    return f"file:///virtual/k{i}.wgsl"


async def until(condition, timeout: float = 60.0, poll: float = 0.01) -> None:
    """Waits, while the server's tasks run, until `condition()` holds; fails the test after `timeout`."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(poll)


def open_document(ls, uri: str, text: str, version: int = 1) -> None:
    ls.protocol.fm.features[lsp.TEXT_DOCUMENT_DID_OPEN](lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id="wgsl", version=version, text=text)))


def change_document(ls, uri: str, version: int, text: str) -> None:
    """Replaces the whole text, as a client without incremental sync does."""
    ls.protocol.fm.features[lsp.TEXT_DOCUMENT_DID_CHANGE](lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))


def edit_document(ls, uri: str, version: int, document, start: int, end: int, text: str) -> None:
    """An incremental change of bytes [start, end) of `document` (the server's current text), sent in the
    client's UTF-16 positions."""
    source = document.source
    a, b = source.position(start, "utf16"), source.position(end, "utf16")
    ls.protocol.fm.features[lsp.TEXT_DOCUMENT_DID_CHANGE](lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[lsp.TextDocumentContentChangePartial(
            range=lsp.Range(start=lsp.Position(line=a.line, character=a.column),
                            end=lsp.Position(line=b.line, character=b.column)), text=text)]))


def fresh_diagnostics(ls, uri: str, text: str) -> list[lsp.Diagnostic]:
    """What the server publishes for `text` checked from a fresh parse, with nothing reused."""
    from coop_lsp.lint import Reuse
    from coop_lsp.syntax import parse
    return ls.lsp_diagnostics(uri, ls._analyse(parse(text), None, ls.settings.targets, Reuse(),
                                               ls.settings.dialect or "auto", uri))


class Recorder:
    """What the server published, in order, and which documents its analysis thread checked."""

    def __init__(self, ls) -> None:
        self.published: list[lsp.PublishDiagnosticsParams] = []
        ls.text_document_publish_diagnostics = self.published.append
        self.analysed: list[str] = []
        analyse = ls._analyse

        def counted(parsed, version, targets, reuse, dialect, uri, *more):
            self.analysed.append(uri)
            return analyse(parsed, version, targets, reuse, dialect, uri, *more)
        ls._analyse = counted

    def of(self, uri: str) -> list[lsp.PublishDiagnosticsParams]:
        return [p for p in self.published if p.uri == uri]

    def codes(self, uri: str) -> list:
        """The codes of the document's latest publication."""
        return [d.code for d in self.of(uri)[-1].diagnostics]

    def index(self, uri: str, version: int | None = None) -> int:
        """Where the document's first publication (of `version`) came in the order of all of them."""
        for i, p in enumerate(self.published):
            if p.uri == uri and (version is None or p.version == version):
                return i
        raise AssertionError(f"nothing published for {uri}")
