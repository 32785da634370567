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
