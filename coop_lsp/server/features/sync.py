"""Document synchronisation: open, change, close, save."""

from __future__ import annotations

import logging

from lsprotocol import types as lsp

from ...core.text import Position, Span
from ...source.sniff import marks_near, may_be_template
from ...syntax import Document
from ..server import COMMENT_CHECK_AFTER_SECONDS, CoopLanguageServer, DocumentState, _uri_path
from ..trace import mark

log = logging.getLogger(__name__)


def register(ls: CoopLanguageServer) -> None:
    @ls.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: lsp.DidOpenTextDocumentParams):
        item = params.text_document
        # Opened again without a close: its versions may start over.
        ls.scheduler.forget(item.uri)
        _overlay(ls, item.uri, item.text)
        if ls.open_from_cache(item.uri, item.text, item.version) is not None:
            return  # unchanged since its last check: published, and resting until someone works on it
        if ls.open_in_background(item.uri, item.text, item.version) is not None:
            return  # a worker process checks it: resting here until someone works on it
        state = DocumentState(item.uri, Document(item.text, item.version), opened_version=item.version)
        if not may_be_template(state.document.source.data):
            state.unmarked = state.document.parsed
        ls.documents[item.uri] = state
        ls.touch(item.uri)
        # Checked after the documents being edited or asked about (work_queue.py).
        state.background = True
        ls.schedule_diagnostics(state, delay=0)

    @ls.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: lsp.DidChangeTextDocumentParams):
        state = ls.documents.get(params.text_document.uri)
        if state is None:
            log.warning("didChange for a document that is not open: %s", params.text_document.uri)
            return
        version = params.text_document.version
        ls.touch(state.uri)
        unit = ls.unit
        comment_edit = None
        unmarked = state.unmarked is state.document.parsed
        edited = None  # (start, inserted length) of a lone partial change
        for change in params.content_changes:
            if isinstance(change, lsp.TextDocumentContentChangePartial):
                start, end = change.range.start, change.range.end
                source = state.document.source
                a, b = (source.offset(Position(p.line, p.character), unit) for p in (start, end))
                span = Span(a, b)
                if len(params.content_changes) == 1:
                    comment_edit = ls.comment_edit(state, span.start, span.end, change.text)
                    edited = (span.start, len(change.text.encode("utf-8", errors="surrogatepass")))
                state.document.replace(span, change.text, version=version)
            else:
                state.document.set_text(change.text, version)
        state.document.version = version
        parsed = state.document.parsed
        if unmarked and edited is not None:
            unmarked = not marks_near(parsed.source.data, *edited)
        else:
            unmarked = not may_be_template(parsed.source.data)
        state.unmarked = parsed if unmarked else None
        mark("parsed")
        confirm_only = comment_edit is not None and ls.publish_moved(state, comment_edit)
        ls.drop_stale_check(state)
        ls.schedule_diagnostics(state, delay=COMMENT_CHECK_AFTER_SECONDS if confirm_only else None)
        _overlay(ls, state.uri, state.document.text)
        ls.recheck_includers(state.uri)
        mark("changed")

    @ls.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: lsp.DidCloseTextDocumentParams):
        state = ls.documents.pop(params.text_document.uri, None)
        ls.scheduler.forget(params.text_document.uri)
        if params.text_document.uri in ls.warm:
            ls.warm.remove(params.text_document.uri)
        ls.active_variants.pop(params.text_document.uri, None)
        path = _uri_path(params.text_document.uri)
        if path is not None and ls._template_files is not None:
            ls._template_files.forget(path)
        if state is not None:
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=state.uri, diagnostics=[]))

    @ls.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: lsp.DidSaveTextDocumentParams):
        ls.recheck_includers(params.text_document.uri)


def _overlay(ls: CoopLanguageServer, uri: str, text: str) -> None:
    """Templates that include an open document read its unsaved text."""
    if ls._template_files is None:
        return  # no template has been analysed yet: none reads open documents (the uri is not even parsed)
    path = _uri_path(uri)
    if path is not None:
        ls._template_files.overlay(path, text.encode("utf-8", errors="surrogatepass"))
