"""Semantic tokens: whole document, delta against the last result, range."""

from __future__ import annotations

from lsprotocol import types as lsp

from ...ide import presentation
from .. import tokens as tokens_
from ..server import CoopLanguageServer, DocumentState, new_token


def register(ls: CoopLanguageServer) -> None:
    legend = lsp.SemanticTokensLegend(token_types=list(presentation.TOKEN_TYPES),
                                      token_modifiers=list(presentation.TOKEN_MODIFIERS))

    @ls.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, lsp.SemanticTokensRegistrationOptions(
        legend=legend, full=lsp.SemanticTokensFullDelta(delta=True), range=True))
    async def semantic_tokens_full(params: lsp.SemanticTokensParams):
        found = await ls.features(params.text_document.uri)
        if found is None:
            return lsp.SemanticTokens(data=[])
        analysis, convert = found
        data = tokens_.encode(convert, presentation.semantic_tokens(analysis))
        return lsp.SemanticTokens(data=data, result_id=_remember_tokens(ls.state(params.text_document.uri), data))

    @ls.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA)
    async def semantic_tokens_delta(params: lsp.SemanticTokensDeltaParams):
        uri = params.text_document.uri
        found = await ls.features(uri)
        if found is None:
            return lsp.SemanticTokens(data=[])
        analysis, convert = found
        data = tokens_.encode(convert, presentation.semantic_tokens(analysis))
        state = ls.state(uri)
        previous = state.tokens if state is not None else None
        result_id = _remember_tokens(state, data)
        if previous is None or previous[0] != params.previous_result_id:
            return lsp.SemanticTokens(data=data, result_id=result_id)  # an id we no longer have: all of them
        return lsp.SemanticTokensDelta(edits=tokens_.delta(previous[1], data), result_id=result_id)

    @ls.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE)
    async def semantic_tokens_range(params: lsp.SemanticTokensRangeParams):
        found = await ls.features(params.text_document.uri)
        if found is None:
            return lsp.SemanticTokens(data=[])
        analysis, convert = found
        tokens = presentation.semantic_tokens(analysis, convert.span(params.range))
        return lsp.SemanticTokens(data=tokens_.encode(convert, tokens))


def _remember_tokens(state: DocumentState | None, data: list[int]) -> str:
    result_id = new_token()
    if state is not None:
        state.tokens = (result_id, data)
    return result_id
