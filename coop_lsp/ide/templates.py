"""A template in the editor: one active variant, its findings, its left-out lines, hover and navigation.

Protocol-free, like the rest of ide. The active variant is the first configured set unless the user chose
another; its WGSL is analysed like any document, and positions go through the origin map both ways:
a position in the template finds the WGSL it produced, and what the analysis answers comes back to the
file and range it came from.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core.diagnostic import Diagnostic
from ..core.text import SourceText, Span
from ..lint.templates import TemplateLint, TemplateOptions, Variant, lint_template, options_for
from ..source import Expansion, FileCache, is_template
from . import hover as ide_hover
from . import navigation
from .analysis import Analysis


@dataclass
class TemplateView:
    path: Path | None
    variants: tuple[str, ...]  # the configured sets' names (empty: linted with no defines)
    active: str | None
    lint: TemplateLint
    analysis: Analysis  # of the active variant's WGSL
    cache: FileCache

    @property
    def expansion(self) -> Expansion:
        return self.lint.variants[0].expansion

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.lint.main

    def inactive(self) -> list[Span]:
        """Lines of this file that the active variant leaves out."""
        return [Span(start, end) for start, end in self.expansion.inactive.get(0, []) if end > start]

    def included(self) -> set[Path]:
        """Files this variant reads besides the template itself (an edit to one re-checks the template)."""
        return {p for p in self.expansion.origins.files[1:] if p is not None} | {
            link.target.resolve() for link in self.expansion.links}

    def source_of(self, path: Path | None) -> SourceText | None:
        if path is None:
            return None
        found = self.cache.get(path)
        return SourceText.from_bytes(found.data) if found is not None else None

    def hover(self, offset: int, dialect: str | None = None) -> ide_hover.Hover | None:
        expansion = self.expansion
        for use in expansion.macro_uses:
            if use.file == 0 and use.span.start <= offset < use.span.end:
                return ide_hover.Hover(self._macro_markdown(use.name, use.value), use.span)
        name_span = _word_at(self.analysis_source_bytes(), offset)
        if name_span is not None:
            name = self.analysis_source_bytes()[name_span.start:name_span.end].decode("ascii", "replace")
            line = _line_of(self.analysis_source_bytes(), offset)
            if line.lstrip().startswith(b"#") and name in expansion.macro_names:
                return ide_hover.Hover(self._macro_markdown(name, None), name_span)
        out = expansion.origins.output_offset(0, offset)
        if out is None:
            return None
        found = ide_hover.hover(self.analysis, out, dialect)
        if found is None:
            return None
        file, span = expansion.origins.span(found.span)
        return ide_hover.Hover(found.markdown, span if file == 0 else Span(offset, offset))

    def _macro_markdown(self, name: str, expanded: str | None) -> str:
        variant = f"variant `{self.active}`" if self.active else "this variant"
        value = self.lint.variants[0].variant.define_map.get(name)
        definition = self.expansion.definitions.get(name)
        if value is None and definition is not None:
            value = definition[2]
        if value is None and expanded is None:
            return f"`{name}` is not defined in {variant}"
        text = f"```wgsl\n#define {name} {value if value is not None else expanded}\n```\nin {variant}"
        if expanded is not None and expanded != value:
            text += f"; expands to `{expanded}`"
        return text

    def analysis_source_bytes(self) -> bytes:
        return self._template_data

    def definition(self, offset: int) -> list[tuple[Path | None, Span]]:
        """Where the name at `offset` is declared, in this file (None) or another; an #include, #import or
        import leads to the file it names."""
        expansion = self.expansion
        for link in expansion.links:
            if link.file == 0 and link.span.start <= offset <= link.span.end:
                return [(link.target.resolve(), Span(0, 0))]
        out = expansion.origins.output_offset(0, offset)
        if out is None:
            return []
        found = []
        for span in navigation.definition(self.analysis, out):
            file, mapped = expansion.origins.span(span)
            path = expansion.origins.files[file] if file < len(expansion.origins.files) else None
            found.append((None if file == 0 else path, mapped))
        return found


def template_view(path: Path | None, data: bytes, tables, active: str | None, cache: FileCache,
                  targets: tuple[str, ...] = (), dialect: str = "auto",
                  host_names: frozenset[str] = frozenset()) -> TemplateView | None:
    """The view of a document that is a template or has variant sets; None for plain WGSL.
    `host_names`: the macros a file without directives leaves to its host (lint.files.host_macro_names)."""
    options = options_for(tables, {})
    if options is None and not is_template(data) and not host_names:
        return None
    options = options or TemplateOptions(known_names=host_names)
    names = tuple(v.name for v in options.variants if v.name is not None)
    chosen: Variant = next((v for v in options.variants if v.name == active), options.variants[0])
    one = TemplateOptions((chosen,), options.include_dirs, options.override_file_defines,
                          options.known_names | host_names)
    lint = lint_template(path, data, one, targets, dialect, cache=cache, keep_results=True)
    run = lint.variants[0]
    analysis = Analysis(run.expansion.data.decode("utf-8", "replace"), None, run.result)
    view = TemplateView(path, names, chosen.name, lint, analysis, cache)
    view._template_data = data
    return view


def _word_at(data: bytes, offset: int) -> Span | None:
    start = end = offset
    while start > 0 and (data[start - 1 : start].isalnum() or data[start - 1 : start] == b"_"):
        start -= 1
    while end < len(data) and (data[end : end + 1].isalnum() or data[end : end + 1] == b"_"):
        end += 1
    return Span(start, end) if end > start else None


def _line_of(data: bytes, offset: int) -> bytes:
    start = data.rfind(b"\n", 0, offset) + 1
    end = data.find(b"\n", offset)
    return data[start : len(data) if end == -1 else end]
