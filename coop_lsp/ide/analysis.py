"""One analysed version of a document: its lint result and lookups the editor features share."""

from __future__ import annotations

from dataclasses import dataclass, field

import tree_sitter as ts

from ..core.diagnostic import Diagnostic
from ..core.text import SourceText, Span
from ..lint import LintResult, Reuse, lint_parsed, lint_source
from ..syntax.parser import Parsed, parse_unless, same_tree
from ..semantic.model import SemanticModel, Symbol

# Declarations whose names live in the enclosing block rather than the module.
_LOCAL_SCOPES = ("compound_statement", "for_statement", "function_declaration", "loop_statement",
                 "continuing_statement")


@dataclass
class Analysis:
    """The result of linting `text` once; every editor feature reads it and nothing recomputes it."""

    text: str
    version: int | None
    result: LintResult
    _occurrences: dict[int, list[Span]] | None = field(default=None, repr=False)
    _scopes: dict[int, Span | None] = field(default_factory=dict, repr=False)
    # Per-symbol results of editor features that depend only on this version (completion items).
    memo: dict = field(default_factory=dict, repr=False)
    # For a template: its active variant (ide.templates.TemplateView); None for plain WGSL.
    template: object = field(default=None, repr=False)
    # Linted on an incrementally re-parsed tree with errors: right unless a fresh parse recovers from the
    # errors differently (`agrees_with_fresh_parse` says which, off the editor's critical path).
    provisional: bool = field(default=False, repr=False)

    @classmethod
    def of(cls, text: str, version: int | None = None, targets: tuple[str, ...] = (),
           reuse: Reuse | None = None, dialect: str = "auto") -> "Analysis":
        """Lints `text`, checking it against the device profiles named in `targets`.

        `reuse` belongs to the document whose versions are analysed one after the other: the checks of
        the functions an edit did not touch are replayed from it (with the same result)."""
        return cls(text, version, lint_source(text, targets=targets, reuse=reuse, dialect=dialect))

    @classmethod
    def of_parsed(cls, parsed: Parsed, version: int | None = None, targets: tuple[str, ...] = (),
                  reuse: Reuse | None = None, dialect: str = "auto", provisional: bool = False,
                  fresh: bool = False) -> "Analysis":
        """Like `of`, on a tree already parsed (incrementally, by the server's Document) that no one edits
        any more (a `tree.copy()`). tree-sitter's error recovery after an incremental edit can differ from a
        fresh parse (tree-sitter issues #1444, #1645), and the findings must not: a tree with errors is
        parsed again from the text, unless the caller takes a `provisional` analysis of the tree as it is
        and asks `agrees_with_fresh_parse` later, or knows the tree is a `fresh` parse of the whole text."""
        if parsed.root.has_error and not provisional and not fresh:
            return cls.of(parsed.source.text, version, targets, reuse, dialect)
        # A provisional analysis is published while the user types into broken code, and its fixes are
        # asked for far less often: they are tested when asked (`diagnostics_with_fixes`).
        analysis = cls(parsed.source.text, version, lint_parsed(parsed, targets=targets, reuse=reuse,
                                                                dialect=dialect,
                                                                defer_fixes=provisional and parsed.root.has_error))
        analysis.provisional = parsed.root.has_error and not fresh
        return analysis

    def agrees_with_fresh_parse(self, stale=None) -> bool | None:
        """For a provisional analysis: whether a fresh parse of its text gives the very tree it was linted on
        (then its findings are a fresh check's too). Costs a parse and a walk of both trees; None when
        `stale()` turns true meanwhile (a newer version: the answer no longer matters)."""
        return self.against_fresh_parse(stale)[0]

    def against_fresh_parse(self, stale=None) -> tuple[bool | None, Parsed | None]:
        """`agrees_with_fresh_parse`, with the fresh parse it made: a caller that has to check the text
        again when they disagree checks that tree rather than parse the same text a second time."""
        if not self.provisional:
            return True, None
        stale = stale or (lambda: False)
        fresh = parse_unless(self.source, stale)
        if fresh is None:
            return (None if stale() else False), None  # no tree at all: the caller checks the text afresh
        agrees = same_tree(self.result.parsed.tree, fresh.tree, stale)
        if agrees:
            self.provisional = False
        return agrees, fresh

    # ------------------------------------------------------------ basics
    @property
    def source(self) -> SourceText:
        return self.result.source

    @property
    def data(self) -> bytes:
        return self.result.source.data

    @property
    def model(self) -> SemanticModel:
        return self.result.model if self.result.model is not None else _EMPTY_MODEL

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """The findings as published: those of a provisional analysis may lack fixes not tested yet."""
        return self.result.diagnostics

    def diagnostics_with_fixes(self) -> list[Diagnostic]:
        """The findings with every fix, as a lint that tests each fix at once gives them (for code actions)."""
        found = self.memo.get("diagnostics with fixes")
        if found is None:
            found = self.memo["diagnostics with fixes"] = self.result.with_fixes()
        return found

    @property
    def root(self) -> ts.Node | None:
        return self.result.parsed.root if self.result.parsed is not None else None

    def slice(self, span: Span) -> str:
        return self.source.slice(span)

    def clamp(self, offset: int) -> int:
        return max(0, min(offset, len(self.data)))

    # ------------------------------------------------------------ nodes
    def node_at(self, offset: int) -> ts.Node | None:
        """The smallest node that covers `offset` (a leaf, usually)."""
        root = self.root
        if root is None:
            return None
        offset = self.clamp(offset)
        return root.descendant_for_byte_range(offset, offset)

    def identifier_at(self, offset: int) -> ts.Node | None:
        """The identifier under the cursor, or the one the cursor stands right after."""
        for at in (offset, offset - 1):
            if at < 0:
                continue
            node = self.node_at(at)
            if node is not None and node.type == "identifier" and node.start_byte <= offset <= node.end_byte:
                return node
        return None

    def symbol_at(self, offset: int) -> tuple[Symbol, Span] | None:
        """The declared symbol named at `offset` (a use or the declaration itself), and that name's span."""
        node = self.identifier_at(offset)
        if node is None:
            return None
        symbol = self.model.symbol_at(node.start_byte, node.end_byte)
        return (symbol, Span(node.start_byte, node.end_byte)) if symbol is not None else None

    def occurrences(self, symbol: Symbol) -> list[Span]:
        """Every place that names `symbol`, its declaration included, in source order."""
        if self._occurrences is None:
            table: dict[int, list[Span]] = {}
            for (start, end), referenced in self.model.references():
                table.setdefault(id(referenced), []).append(Span(start, end))
            for spans in table.values():
                spans.sort(key=lambda s: s.start)
            self._occurrences = table
        return list(self._occurrences.get(id(symbol), ()))

    # ------------------------------------------------------------ scopes
    def is_module_scope(self, symbol: Symbol) -> bool:
        declaration = symbol.declaration
        return declaration is None or declaration.parent is None or declaration.parent.type == "source_file"

    def scope_of(self, symbol: Symbol) -> Span | None:
        """The byte range where a local symbol is visible; None for module-scope symbols."""
        key = id(symbol)
        if key not in self._scopes:
            self._scopes[key] = self._scope_of(symbol)
        return self._scopes[key]

    def _scope_of(self, symbol: Symbol) -> Span | None:
        if self.is_module_scope(symbol):
            return None
        node = symbol.declaration.parent
        while node is not None and node.type not in _LOCAL_SCOPES:
            node = node.parent
        if node is None:
            return None
        return Span(node.start_byte, node.end_byte)

    def visible_symbols(self, offset: int) -> list[Symbol]:
        """Symbols a name written at `offset` could refer to; inner declarations shadow outer ones."""
        by_name: dict[str, tuple[int, Symbol]] = {}
        for symbol in self.model.symbols:
            scope = self.scope_of(symbol)
            if scope is None:
                rank = -1
            else:
                if not (scope.start <= offset <= scope.end) or symbol.span.end > offset:
                    continue
                rank = symbol.span.start
            previous = by_name.get(symbol.name)
            if previous is None or rank > previous[0]:
                by_name[symbol.name] = (rank, symbol)
        return [symbol for _, symbol in by_name.values()]

    def lookup(self, name: str, offset: int) -> Symbol | None:
        for symbol in self.visible_symbols(offset):
            if symbol.name == name:
                return symbol
        return None

    def find_module_symbol(self, name: str, kind: str | None = None) -> Symbol | None:
        for symbol in self.model.symbols:
            if symbol.name == name and (kind is None or symbol.kind == kind) and self.is_module_scope(symbol):
                return symbol
        return None

    def expression_type_at(self, offset: int):
        """The innermost typed expression covering `offset`, as (type, span)."""
        node = self.node_at(offset)
        model = self.model
        while node is not None:
            found = model.type_at(node.start_byte, node.end_byte, node.type)
            if found is not None:
                return found, Span(node.start_byte, node.end_byte)
            node = node.parent
        return None


_EMPTY_MODEL = SemanticModel()
