"""Navigation: definition, references, highlights, rename."""

from __future__ import annotations

from lsprotocol import types as lsp

from ...ide import navigation
from ..convert import Converter
from ..server import CoopLanguageServer


def register(ls: CoopLanguageServer) -> None:
    @ls.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def definition(params: lsp.DefinitionParams):
        found = await ls.features(params.text_document.uri)
        if found is None:
            return None
        analysis, convert = found
        template = analysis.template
        if template is not None:
            locations = []
            for path, span in template.definition(convert.offset(params.position)):
                if path is None:
                    locations.append(lsp.Location(uri=params.text_document.uri, range=convert.range(span)))
                    continue
                source = template.source_of(path)
                if source is not None:
                    locations.append(lsp.Location(uri=path.as_uri(), range=Converter(source, ls.unit).range(span)))
            return locations or None
        spans = navigation.definition(analysis, convert.offset(params.position))
        return [lsp.Location(uri=params.text_document.uri, range=convert.range(s)) for s in spans] or None

    @ls.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    async def references(params: lsp.ReferenceParams):
        found = await ls.features(params.text_document.uri)
        if found is None:
            return None
        analysis, convert = found
        spans = navigation.references(analysis, convert.offset(params.position),
                                      params.context.include_declaration)
        return [lsp.Location(uri=params.text_document.uri, range=convert.range(s)) for s in spans]

    @ls.feature(lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    async def document_highlight(params: lsp.DocumentHighlightParams):
        found = await ls.features(params.text_document.uri)
        if found is None:
            return None
        analysis, convert = found
        kinds = {"read": lsp.DocumentHighlightKind.Read, "write": lsp.DocumentHighlightKind.Write,
                 "text": lsp.DocumentHighlightKind.Text}
        return [lsp.DocumentHighlight(range=convert.range(h.span), kind=kinds[h.kind])
                for h in navigation.highlights(analysis, convert.offset(params.position))]

    @ls.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    async def prepare_rename(params: lsp.PrepareRenameParams):
        found = await ls.features(params.text_document.uri)
        if found is None:
            return None
        analysis, convert = found
        prepared = navigation.prepare_rename(analysis, convert.offset(params.position))
        if prepared is None:
            return None
        return lsp.PrepareRenamePlaceholder(range=convert.range(prepared[0]), placeholder=prepared[1])

    @ls.feature(lsp.TEXT_DOCUMENT_RENAME, lsp.RenameOptions(prepare_provider=True))
    async def rename(params: lsp.RenameParams):
        from pygls.exceptions import JsonRpcInvalidParams

        found = await ls.features(params.text_document.uri)
        if found is None:
            return None
        analysis, convert = found
        try:
            edits = navigation.rename(analysis, convert.offset(params.position), params.new_name)
        except navigation.RenameError as error:
            raise JsonRpcInvalidParams(str(error)) from None
        return lsp.WorkspaceEdit(changes={params.text_document.uri: [convert.text_edit(e) for e in edits]})
