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
        # Whether the tree came from re-parsing an edited tree (whose error recovery may differ from a
        # fresh parse's) rather than from parsing the whole text.
        self.incremental = False

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
        source = old.edited(start, old_end, inserted)
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
        self.incremental = True
        if version is not None:
            self.version = version

    def replace_range(self, start: Position, end: Position, new_text: str, unit: str = "utf16",
                      version: int | None = None) -> None:
        """Applies an edit given as line/column positions (LSP uses UTF-16 columns)."""
        source = self._parsed.source
        self.replace(Span(source.offset(start, unit), source.offset(end, unit)), new_text, version)

    def set_text(self, text: str, version: int | None = None) -> None:
        self._parsed = parse(text)
        self.incremental = False
        if version is not None:
            self.version = version


def _point(source: SourceText, offset: int) -> tuple[int, int]:
    """tree-sitter's point: rows end at "\n" only (a lone "\r" is a line break for LSP, not for it)."""
    data = source.data
    if not source.has_carriage_return():
        return source.line_column(offset, "byte")
    row = data.count(b"\n", 0, offset)
    return (row, offset - (data.rfind(b"\n", 0, offset) + 1))


# How much an interruptible parse reads, and an interruptible comparison visits, between two questions.
_CHUNK_BYTES = 4096
_NODES_BETWEEN_QUESTIONS = 1024


def parse_unless(source: SourceText, stale) -> Parsed | None:
    """A fresh parse of `source`, fed in chunks so that it can stop early: None once `stale()` is true."""
    data = source.data

    def read(offset: int, _point) -> bytes:
        if stale():
            return b""  # the parser takes it for the end of the text and finishes soon
        end = min(len(data), offset + _CHUNK_BYTES)
        while end < len(data) and (data[end] & 0xC0) == 0x80:
            end += 1  # whole characters only
        return data[offset:end]

    tree = _new_parser().parse(read)
    if tree is None or stale():
        return None
    return Parsed(source, tree)


def same_tree(a: ts.Tree, b: ts.Tree, stale=None, reused: bool = False) -> bool | None:
    """Whether two trees of the same text have the same nodes: kind, byte range, field and MISSING flag of
    every node, anonymous ones included. tree-sitter's own `changed_ranges` is no proof of this: it passes
    over two leaves of one kind that start at different bytes. None once `stale()` is true (asked every
    thousand nodes or so).

    `reused`: `b` was parsed incrementally from `a` (which `tree.edit` has moved by the edit), and both are
    alive. A node's id is the address of its slot in its parent's list of children, so the same id in both
    means a parent the parse reused, and the same subtree below it: it is not walked (an unchanged file's
    comparison then costs about the edited declaration's nodes, not the whole tree's)."""
    left, right = a.walk(), b.walk()
    visited = 0
    while True:
        visited += 1
        if stale is not None and visited % _NODES_BETWEEN_QUESTIONS == 0 and stale():
            return None
        x, y = left.node, right.node
        if x.kind_id != y.kind_id or x.start_byte != y.start_byte or x.end_byte != y.end_byte \
                or left.field_id != right.field_id or x.is_missing != y.is_missing:
            return False
        if not (reused and x.id == y.id):
            down = left.goto_first_child()
            if down != right.goto_first_child():
                return False
            if down:
                continue
        while True:
            across = left.goto_next_sibling()
            if across != right.goto_next_sibling():
                return False
            if across:
                break
            up = left.goto_parent()
            if up != right.goto_parent():
                return False
            if not up:
                return True
