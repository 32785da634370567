"""Formatting: whole document, range, on type (CoopLanguageServer.format runs them)."""

from __future__ import annotations

from lsprotocol import types as lsp

from ...ide import formatting as ide_formatting
from ..server import CoopLanguageServer


def register(ls: CoopLanguageServer) -> None:
    @ls.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    async def formatting(params: lsp.DocumentFormattingParams):
        return await ls.format(params, lambda data, _convert, options:
                               ide_formatting.format_document(data, options))

    @ls.feature(lsp.TEXT_DOCUMENT_RANGE_FORMATTING)
    async def range_formatting(params: lsp.DocumentRangeFormattingParams):
        return await ls.format(params, lambda data, convert, options:
                               ide_formatting.format_range(data, convert.span(params.range), options))

    @ls.feature(lsp.TEXT_DOCUMENT_ON_TYPE_FORMATTING,
                lsp.DocumentOnTypeFormattingOptions(first_trigger_character="}", more_trigger_character=[";"]))
    async def on_type_formatting(params: lsp.DocumentOnTypeFormattingParams):
        return await ls.format(params, lambda data, convert, options:
                               ide_formatting.format_on_type(data, convert.offset(params.position), params.ch,
                                                             options), quiet=True)
