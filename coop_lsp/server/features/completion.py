"""Completion and signature help."""

from __future__ import annotations

from lsprotocol import types as lsp

from ...ide import completion as ide_completion
from ..server import CoopLanguageServer
from ..completion_json import completion_list, completion_list_json
from ..wire import ResultJson


def register(ls: CoopLanguageServer) -> None:
    @ls.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                lsp.CompletionOptions(trigger_characters=[".", "@", "<", "(", ",", " "]))
    async def completion(params: lsp.CompletionParams):
        found = await ls.features(params.text_document.uri)
        if found is None:
            return None
        analysis, convert = found
        items = ide_completion.completion(analysis, convert.offset(params.position), ls.settings.dialect)
        return ResultJson(completion_list_json(items), lambda: completion_list(items))

    @ls.feature(lsp.TEXT_DOCUMENT_SIGNATURE_HELP,
                lsp.SignatureHelpOptions(trigger_characters=["(", ","], retrigger_characters=[","]))
    async def signature_help(params: lsp.SignatureHelpParams):
        found = await ls.features(params.text_document.uri)
        if found is None:
            return None
        analysis, convert = found
        result = ide_completion.signature_help(analysis, convert.offset(params.position), ls.settings.dialect)
        if result is None:
            return None
        return lsp.SignatureHelp(
            signatures=[lsp.SignatureInformation(
                label=s.label,
                documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=s.documentation)
                if s.documentation else None,
                parameters=[lsp.ParameterInformation(label=p) for p in s.parameters]) for s in result.signatures],
            active_signature=result.active_signature, active_parameter=result.active_parameter)
