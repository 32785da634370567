"""Completion and signature help."""

from __future__ import annotations

from lsprotocol import types as lsp

from ...ide import completion as ide_completion
from ..server import CoopLanguageServer


def register(ls: CoopLanguageServer) -> None:
    @ls.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                lsp.CompletionOptions(trigger_characters=[".", "@", "<", "(", ",", " "]))
    async def completion(params: lsp.CompletionParams):
        found = await ls.features(params.text_document.uri)
        if found is None:
            return None
        analysis, convert = found
        items = ide_completion.completion(analysis, convert.offset(params.position), ls.settings.dialect)
        return lsp.CompletionList(is_incomplete=False, items=[_completion_item(i) for i in items])

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


_COMPLETION_KINDS = {"keyword": lsp.CompletionItemKind.Keyword, "type": lsp.CompletionItemKind.TypeParameter,
                     "function": lsp.CompletionItemKind.Function, "variable": lsp.CompletionItemKind.Variable,
                     "constant": lsp.CompletionItemKind.Constant, "struct": lsp.CompletionItemKind.Struct,
                     "field": lsp.CompletionItemKind.Field, "module": lsp.CompletionItemKind.Module,
                     "property": lsp.CompletionItemKind.Property, "value": lsp.CompletionItemKind.EnumMember,
                     "snippet": lsp.CompletionItemKind.Snippet}


def _completion_item(item) -> lsp.CompletionItem:
    return lsp.CompletionItem(
        label=item.label, kind=_COMPLETION_KINDS.get(item.kind), detail=item.detail or None,
        documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=item.documentation)
        if item.documentation else None,
        insert_text=item.insert_text,
        insert_text_format=lsp.InsertTextFormat.Snippet if item.snippet else None,
        sort_text=(item.sort + item.label) if item.sort else None)
