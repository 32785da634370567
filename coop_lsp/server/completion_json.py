"""Completion items as the JSON pygls would write for them, each made once (server/wire.ResultJson sends
the list); and the language's items made before the first request asks for them."""

from __future__ import annotations

import json
import logging

from lsprotocol import types as lsp

from ..ide import completion as ide_completion
from ..ide.docs import module_dialect

log = logging.getLogger(__name__)

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


def completion_list(items) -> lsp.CompletionList:
    return lsp.CompletionList(is_incomplete=False, items=[_completion_item(i) for i in items])


# A completion list is some 250 items, most of them the same at every request (the language's builtins
# with their documentation, the module's symbols): as lsprotocol objects, unstructured by cattrs and
# encoded, they took most of a request. Each item's JSON is made once, by value.
_ITEM_JSON: dict = {}
_MOST_KEPT = 20_000


def completion_list_json(items) -> str:
    """`completion_list(items)` as pygls serialises it, from each item's JSON."""
    if len(_ITEM_JSON) > _MOST_KEPT:
        _ITEM_JSON.clear()  # symbols' items of many versions: the language's come back on the next request
        _WARM.clear()
    parts = []
    for item in items:
        text = _ITEM_JSON.get(item)
        if text is None:
            text = _ITEM_JSON[item] = json.dumps(_item_fields(item))
        parts.append(text)
    return f'{{"isIncomplete": false, "items": [{", ".join(parts)}]}}'


def _item_fields(item) -> dict:
    """`_completion_item(item)` unstructured: lsprotocol.types.CompletionItem's fields in their order, the
    unset ones left out."""
    fields: dict = {"label": item.label}
    kind = _COMPLETION_KINDS.get(item.kind)
    if kind is not None:
        fields["kind"] = kind.value
    if item.detail:
        fields["detail"] = item.detail
    if item.documentation:
        fields["documentation"] = {"kind": "markdown", "value": item.documentation}
    if item.sort:
        fields["sortText"] = item.sort + item.label
    if item.insert_text is not None:
        fields["insertText"] = item.insert_text
    if item.snippet:
        fields["insertTextFormat"] = lsp.InsertTextFormat.Snippet.value
    return fields


_WARM: set = set()


def warm_soon(submit, enables: set[str], dialect: str | None) -> None:
    """Has `submit` (the analysis thread's queue, behind the checks waiting there) make the items every general
    completion list of the document ends with (each builtin with its documentation) and their JSON, once per
    dialect, before the first request of the process needs them: that request took several times as long as
    the next ones. Made after the check that asks, not inside it, which would hold back its diagnostics."""
    language = module_dialect(enables, dialect)
    if language in _WARM:
        return
    _WARM.add(language)
    submit(_warm, language)


def _warm(language: str) -> None:
    try:
        completion_list_json(ide_completion.language_items(language))
    except Exception:  # noqa: BLE001 - tried once: a request makes them
        log.exception("making the completion items of %s failed", language)
