"""Byte spans and plain ide data to LSP types, in the position encoding the client negotiated."""

from __future__ import annotations

from lsprotocol import types as lsp

from ..core.diagnostic import Diagnostic, Edit, Severity
from ..core.text import Position, SourceText, Span

SEVERITY = {Severity.ERROR: lsp.DiagnosticSeverity.Error, Severity.WARNING: lsp.DiagnosticSeverity.Warning,
            Severity.INFO: lsp.DiagnosticSeverity.Information, Severity.HINT: lsp.DiagnosticSeverity.Hint}

_UNITS = {"utf-8": "byte", "utf-16": "utf16", "utf-32": "char"}


def unit_of(encoding) -> str:
    value = getattr(encoding, "value", encoding)
    return _UNITS.get(str(value) if value is not None else "utf-16", "utf16")


class Converter:
    def __init__(self, source: SourceText, unit: str) -> None:
        self.source = source
        self.unit = unit

    def position(self, offset: int) -> lsp.Position:
        p = self.source.position(offset, self.unit)
        return lsp.Position(line=p.line, character=p.column)

    def range(self, span: Span) -> lsp.Range:
        return lsp.Range(start=self.position(span.start), end=self.position(span.end))

    def offset(self, position: lsp.Position) -> int:
        return self.source.offset(Position(position.line, position.character), self.unit)

    def span(self, range_: lsp.Range) -> Span:
        start, end = self.offset(range_.start), self.offset(range_.end)
        return Span(min(start, end), max(start, end))

    def text_edit(self, edit: Edit) -> lsp.TextEdit:
        return lsp.TextEdit(range=self.range(edit.span), new_text=edit.new_text)

    def places(self, diagnostic: Diagnostic) -> tuple:
        """Every line and column the diagnostic's LSP form holds (its range and its related ranges')."""
        place, unit, span = self.source.line_column, self.unit, diagnostic.span
        if not diagnostic.related:
            return place(span.start, unit), place(span.end, unit)
        places = [place(span.start, unit), place(span.end, unit)]
        for related in diagnostic.related:
            places += (place(related.span.start, unit), place(related.span.end, unit))
        return tuple(places)

    def diagnostic(self, uri: str, diagnostic: Diagnostic) -> lsp.Diagnostic:
        related = [lsp.DiagnosticRelatedInformation(
            location=lsp.Location(uri=uri, range=self.range(r.span)), message=r.message) for r in diagnostic.related]
        return lsp.Diagnostic(range=self.range(diagnostic.span), message=diagnostic.message,
                              severity=SEVERITY[diagnostic.severity], code=diagnostic.code, source="coop-lsp",
                              related_information=related or None)


class ConvertedDiagnostics:
    """One document's last published findings in their LSP form, by what that form holds. Most of an edit's
    findings are those of the version before, at the same lines and columns, and building the lsprotocol
    objects is most of what converting them costs (about 50 us a finding): those are reused. A finding is
    looked up by its form's contents, not by itself: its byte span moves with every character typed above
    it on its line or before it in the text, while its lines, columns and words stay."""

    def __init__(self) -> None:
        self._forms: dict[tuple, lsp.Diagnostic] = {}

    def convert(self, convert: Converter, uri: str, findings) -> list[lsp.Diagnostic]:
        forms, kept, out = self._forms, {}, []
        for finding in findings:
            # Everything Converter.diagnostic reads: the places, the words, and the uri of related locations.
            key = (convert.unit, uri, convert.places(finding), finding.code, finding.message, finding.severity,
                   tuple(related.message for related in finding.related))
            form = forms.get(key)
            if form is None:
                form = convert.diagnostic(uri, finding)
            kept[key] = form
            out.append(form)
        self._forms = kept  # only the last publication's: the cache never outgrows the document's findings
        return out
