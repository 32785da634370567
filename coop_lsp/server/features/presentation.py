"""Inlay hints (with the last run of each entry point and its watch and print values), folding and selection
ranges."""

from __future__ import annotations

from lsprotocol import types as lsp

from ...ide import presentation
from ..server import CoopLanguageServer
from .kernels import _compute_entry_points


def register(ls: CoopLanguageServer) -> None:
    @ls.feature(lsp.TEXT_DOCUMENT_INLAY_HINT)
    async def inlay_hint(params: lsp.InlayHintParams):
        found = await ls.features(params.text_document.uri)
        if found is None:
            return None
        analysis, convert = found
        hints = [lsp.InlayHint(position=convert.position(h.offset), label=h.label, kind=lsp.InlayHintKind.Type,
                               padding_left=False)
                 for h in presentation.inlay_hints(analysis, convert.span(params.range))]
        wanted = convert.span(params.range)
        for entry in _compute_entry_points(analysis):
            last = ls.kernel_runs.last.get(params.text_document.uri, {}).get(entry.name)
            if last is not None and wanted.start <= entry.span.end <= wanted.end:
                hints.append(lsp.InlayHint(position=convert.position(entry.span.end),
                                           label=f"last run: {last.summary()}", padding_left=True))
        for values in ls.kernel_runs.site_values(params.text_document.uri, analysis.version, analysis.source):
            if wanted.start <= values.hint_at <= wanted.end:
                hints.append(lsp.InlayHint(position=convert.position(values.hint_at), label=values.label,
                                           padding_left=True, tooltip=lsp.MarkupContent(
                                               kind=lsp.MarkupKind.Markdown, value=values.table)))
        return hints

    @ls.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
    async def folding_range(params: lsp.FoldingRangeParams):
        found = await ls.features(params.text_document.uri)
        if found is None:
            return None
        analysis, _ = found
        kinds = {"comment": lsp.FoldingRangeKind.Comment, "imports": lsp.FoldingRangeKind.Imports,
                 "region": lsp.FoldingRangeKind.Region}
        return [lsp.FoldingRange(start_line=r.start_line, end_line=r.end_line, kind=kinds[r.kind])
                for r in presentation.folding_ranges(analysis)]

    @ls.feature(lsp.TEXT_DOCUMENT_SELECTION_RANGE)
    async def selection_range(params: lsp.SelectionRangeParams):
        found = await ls.features(params.text_document.uri)
        if found is None:
            return None
        analysis, convert = found
        out = []
        for position in params.positions:
            parent = None
            for span in reversed(presentation.selection_range(analysis, convert.offset(position))):
                parent = lsp.SelectionRange(range=convert.range(span), parent=parent)
            out.append(parent)
        return out
