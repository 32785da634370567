"""Parsing and incremental re-parsing of WGSL documents."""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from ..core.text import Position, SourceText, Span
from . import grammar


def wgsl_language() -> ts.Language:
    # Compiled into coop-lsp's own wheel from tree-sitter-wgsl/src; BrokenInstall says what is missing.
    return grammar.load()


def _new_parser() -> ts.Parser:
    return ts.Parser(wgsl_language())


class ParseAbandoned(RuntimeError):
    """py-tree-sitter returned no tree; the file gets one diagnostic instead of a crash."""


def _parse_bytes(data: bytes, old_tree: ts.Tree | None = None) -> ts.Tree:
    parser = _new_parser()
    tree = parser.parse(data, old_tree) if old_tree is not None else parser.parse(data)
    if tree is None:
        raise ParseAbandoned("the parser returned no tree")
    return tree


@dataclass(slots=True)
class Parsed:
    source: SourceText
    tree: ts.Tree

    @property
    def root(self) -> ts.Node:
        return self.tree.root_node


def parse(text: str | bytes) -> Parsed:
    source = SourceText.from_bytes(text) if isinstance(text, bytes) else SourceText(text)
    return Parsed(source, _parse_bytes(source.data))


class Document:
    """A WGSL document that is edited in place and re-parsed incrementally.

    Editors send small edits; re-parsing only the changed region keeps every
    keystroke cheap even in large files.
    """

    def __init__(self, text: str, version: int = 0) -> None:
        self.version = version
        self._parsed = parse(text)

    @property
    def parsed(self) -> Parsed:
        return self._parsed

    @property
    def source(self) -> SourceText:
        return self._parsed.source

    @property
    def text(self) -> str:
        return self._parsed.source.text

    @property
    def tree(self) -> ts.Tree:
        return self._parsed.tree

    def replace(self, span: Span, new_text: str, version: int | None = None) -> None:
        """Replaces the bytes in `span` with `new_text` and re-parses incrementally."""
        old = self._parsed.source
        start, old_end = span.start, span.end
        if old_end > len(old.data):
            raise ValueError(f"edit {span} lies outside the document ({len(old.data)} bytes)")
        inserted = new_text.encode("utf-8", errors="surrogatepass")
        data = old.data[:start] + inserted + old.data[old_end:]
        source = SourceText(data.decode("utf-8", errors="replace"))
        new_end = start + len(inserted)
        tree = self._parsed.tree
        tree.edit(
            start_byte=start,
            old_end_byte=old_end,
            new_end_byte=new_end,
            start_point=_point(old, start),
            old_end_point=_point(old, old_end),
            new_end_point=_point(source, new_end),
        )
        self._parsed = Parsed(source, _parse_bytes(source.data, tree))
        if version is not None:
            self.version = version

    def replace_range(self, start: Position, end: Position, new_text: str, unit: str = "utf16",
                      version: int | None = None) -> None:
        """Applies an edit given as line/column positions (LSP uses UTF-16 columns)."""
        source = self._parsed.source
        self.replace(Span(source.offset(start, unit), source.offset(end, unit)), new_text, version)

    def set_text(self, text: str, version: int | None = None) -> None:
        self._parsed = parse(text)
        if version is not None:
            self.version = version


def _point(source: SourceText, offset: int) -> tuple[int, int]:
    """tree-sitter's point: rows end at "\n" only (a lone "\r" is a line break for LSP, not for it)."""
    data = source.data
    if b"\r" not in data:
        position = source.position(offset, unit="byte")
        return (position.line, position.column)
    row = data.count(b"\n", 0, offset)
    return (row, offset - (data.rfind(b"\n", 0, offset) + 1))
