"""Document and workspace symbols."""

from __future__ import annotations

from lsprotocol import types as lsp

from ...core.text import SourceText
from ...ide import navigation
from ..convert import Converter
from ..server import CoopLanguageServer


def register(ls: CoopLanguageServer) -> None:
    @ls.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def document_symbol(params: lsp.DocumentSymbolParams):
        found = await ls.features(params.text_document.uri)
        if found is None:
            return None
        analysis, convert = found
        return [_document_symbol(convert, s) for s in navigation.document_symbols(analysis)]

    @ls.feature(lsp.WORKSPACE_SYMBOL)
    async def workspace_symbol(params: lsp.WorkspaceSymbolParams):
        out = []
        for uri, state in list(ls.documents.items()):
            await ls.settle_in_worker(state)
            if ls.documents.get(uri) is not state:
                continue  # closed or opened again meanwhile
            if state.resting and state.resting_symbols is not None:
                convert = Converter(SourceText(state.resting_text[0]), ls.unit)
                symbols = [s for s in state.resting_symbols if navigation.matches_query(params.query, s.name)]
            else:
                analysis = await ls.analysis(state)
                convert = Converter(analysis.source, ls.unit)
                symbols = navigation.workspace_symbols(analysis, params.query)
            for symbol in symbols:
                out.append(lsp.SymbolInformation(name=symbol.name, kind=_SYMBOL_KINDS[symbol.kind],
                                                 location=lsp.Location(uri=uri, range=convert.range(symbol.span))))
        ls.rest_the_others()
        return out


_SYMBOL_KINDS = {"function": lsp.SymbolKind.Function, "struct": lsp.SymbolKind.Struct,
                 "type": lsp.SymbolKind.TypeParameter, "constant": lsp.SymbolKind.Constant,
                 "variable": lsp.SymbolKind.Variable, "field": lsp.SymbolKind.Field}


def _document_symbol(convert: Converter, symbol) -> lsp.DocumentSymbol:
    return lsp.DocumentSymbol(name=symbol.name, kind=_SYMBOL_KINDS[symbol.kind], range=convert.range(symbol.span),
                              selection_range=convert.range(symbol.selection), detail=symbol.detail or None,
                              children=[_document_symbol(convert, c) for c in symbol.children] or None)
