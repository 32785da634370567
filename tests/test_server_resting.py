"""Documents no one is working on keep their text, diagnostics and symbols, not their trees, analyses and
per-function caches (CoopLanguageServer.rest); they come back whole on the next edit or request."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types as lsp

from coop_lsp.lint import lint_source
from coop_lsp.server.server import WARM_DOCUMENTS, create_server
from tests.support.server_documents import kernel, open_document, uri, until

pytestmark = pytest.mark.asyncio(loop_scope="function")

async def opened_server(count: int):
    ls = create_server()
    for i in range(count):
        open_document(ls, uri(i), kernel(i))
    await until(lambda: all(s.resting_diagnostics is not None for s in ls.documents.values()))
    await asyncio.sleep(0.05)
    return ls


async def test_only_the_documents_being_worked_on_keep_trees_and_caches():
    ls = await opened_server(8)
    warm = [u for u, s in ls.documents.items() if not s.resting]
    assert warm == [uri(i) for i in range(8 - WARM_DOCUMENTS, 8)]
    for i in range(8 - WARM_DOCUMENTS):
        state = ls.documents[uri(i)]
        assert state.parsed_document is None and state.analysis is None and state.tokens is None
        for cache in (state.reuse.declarations, state.reuse.bodies, state.reuse.summaries):
            assert not any(v for v in vars(cache).values() if isinstance(v, dict)), cache
        version, diagnostics = state.resting_diagnostics
        assert version == 1 and [d.code for d in diagnostics] == \
            [d.code for d in lint_source(kernel(i)).diagnostics]
        assert {s.name for s in state.resting_symbols} >= {"out", f"helper_{i}", "main"}
    ls.analysis_executor.shutdown(wait=False)


async def test_a_resting_document_answers_and_edits_like_any_other():
    ls = await opened_server(6)
    state = ls.documents[uri(0)]
    assert state.resting
    pull = ls.protocol.fm.features[lsp.TEXT_DOCUMENT_DIAGNOSTIC]
    report = await pull(lsp.DocumentDiagnosticParams(text_document=lsp.TextDocumentIdentifier(uri=uri(0))))
    assert state.resting  # answered from what it kept
    assert [d.code for d in report.items] == [d.code for d in lint_source(kernel(0)).diagnostics]
    symbols = await ls.protocol.fm.features[lsp.WORKSPACE_SYMBOL](lsp.WorkspaceSymbolParams(query="helper_0"))
    assert [s.name for s in symbols] == ["helper_0"] and state.resting
    hover = await ls.protocol.fm.features[lsp.TEXT_DOCUMENT_HOVER](lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri(0)), position=lsp.Position(line=1, character=4)))
    assert hover is not None and "helper_0" in hover.contents.value
    assert not state.resting  # asked about: it is being worked on
    # An edit to a document that rested: the diagnostics are a fresh lint's.
    assert ls.documents[uri(1)].resting
    did_change = ls.protocol.fm.features[lsp.TEXT_DOCUMENT_DID_CHANGE]
    did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri(1), version=2),
        content_changes=[lsp.TextDocumentContentChangePartial(
            range=lsp.Range(start=lsp.Position(line=4, character=17), end=lsp.Position(line=4, character=20)),
            text="1u")]))
    edited = ls.documents[uri(1)]
    await until(lambda: edited.resting_diagnostics[0] == 2)
    expected = lint_source(kernel(1).replace("1.5;", "1u;")).diagnostics
    assert [d.code for d in edited.resting_diagnostics[1]] == [d.code for d in expected]
    ls.analysis_executor.shutdown(wait=False)


async def test_a_document_opened_again_at_a_lower_version_gets_diagnostics():
    ls = await opened_server(1)
    did_open = ls.protocol.fm.features[lsp.TEXT_DOCUMENT_DID_OPEN]
    did_change = ls.protocol.fm.features[lsp.TEXT_DOCUMENT_DID_CHANGE]
    did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri(0), version=7),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=kernel(0))]))
    await until(lambda: ls.documents[uri(0)].resting_diagnostics[0] == 7)
    # Some clients open a document again without closing it, counting versions from 1 again.
    did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri(0), language_id="wgsl", version=1, text="fn f() { let x: u32 = 1.5; }\n")))
    await until(lambda: ls.documents[uri(0)].resting_diagnostics is not None)
    assert ls.documents[uri(0)].resting_diagnostics[0] == 1
    ls.analysis_executor.shutdown(wait=False)
