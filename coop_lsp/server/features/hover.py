"""Hover, with the last run of the entry point under the cursor and the values of a print or watch after a run."""

from __future__ import annotations

import time

from lsprotocol import types as lsp

from ...ide import hover as ide_hover
from ...ide.run_values import values_at
from ..server import CoopLanguageServer
from .kernels import _entry_point_at


def register(ls: CoopLanguageServer) -> None:
    @ls.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(params: lsp.HoverParams):
        found = await ls.features(params.text_document.uri)
        if found is None:
            return None
        analysis, convert = found
        if analysis.template is not None:
            result = analysis.template.hover(convert.offset(params.position), ls.settings.dialect)
            return None if result is None else lsp.Hover(
                contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=result.markdown),
                range=convert.range(result.span))
        offset = convert.offset(params.position)
        # On a print or watch after a run: its values per lane (the comment itself has no other hover).
        values = values_at(ls.kernel_runs.site_values(params.text_document.uri, analysis.version, analysis.source),
                           offset)
        if values is not None:
            return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=values.table),
                             range=convert.range(values.span))
        result = ide_hover.hover(analysis, offset, ls.settings.dialect)
        if result is None:
            return None
        markdown = result.markdown
        entry = _entry_point_at(analysis, convert.offset(params.position))
        last = ls.kernel_runs.last.get(params.text_document.uri, {}).get(entry.name) if entry else None
        if last is not None:
            markdown += (f"\n\n---\n**Last run** ({time.strftime('%H:%M:%S', time.localtime(last.finished))}"
                         f"{'' if last.version == analysis.version else ', an earlier version'}): "
                         f"{last.summary()}\n\n" + last.report.render("markdown").split("\n", 2)[-1]
                         + (f"\n{last.advice}" if last.advice else ""))
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=markdown),
                         range=convert.range(result.span))
