"""Semantic tokens, inlay hints, folding ranges and selection ranges."""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from ..core.text import Span
from ..semantic import types as t
from ..semantic.typenames import PREDECLARED_TYPE_NAMES, TEMPLATE_ENUMERANTS
from ..syntax import nodes as sn
from .analysis import Analysis
from .docs import MATRIX_TYPE_DOCS, builtin_entries

TOKEN_TYPES = ("namespace", "type", "struct", "parameter", "variable", "property", "enumMember", "function",
               "decorator")
TOKEN_MODIFIERS = ("declaration", "readonly", "defaultLibrary")

_SYMBOL_TOKENS = {"function": ("function", ()), "struct": ("struct", ()), "alias": ("type", ()),
                  "const": ("variable", ("readonly",)), "override": ("variable", ("readonly",)),
                  "let": ("variable", ("readonly",)), "var": ("variable", ()), "parameter": ("parameter", ())}


@dataclass(frozen=True)
class SemanticToken:
    span: Span
    type: str
    modifiers: tuple[str, ...] = ()


def _walk(node: ts.Node):
    cursor = node.walk()
    while True:
        yield cursor.node
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return


def semantic_tokens(analysis: Analysis, span: Span | None = None) -> list[SemanticToken]:
    root = analysis.root
    if root is None:
        return []
    model = analysis.model
    out = []
    for node in _walk(root):
        if node.type != "identifier":
            continue
        if span is not None and (node.end_byte < span.start or node.start_byte > span.end):
            continue
        token = _classify(analysis, node, model)
        if token is not None:
            out.append(token)
    return out


def _classify(analysis: Analysis, node: ts.Node, model) -> SemanticToken | None:
    span = Span(node.start_byte, node.end_byte)
    symbol = model.symbol_at(node.start_byte, node.end_byte)
    if symbol is not None:
        kind, modifiers = _SYMBOL_TOKENS.get(symbol.kind, ("variable", ()))
        if symbol.span == span:
            modifiers = modifiers + ("declaration",)
        return SemanticToken(span, kind, modifiers)
    parent = node.parent
    if parent is None:
        return None
    name = analysis.slice(span)
    if parent.type == "member_expression" and sn.member(parent) == node:
        return SemanticToken(span, "property")
    if parent.type == "struct_member":
        return SemanticToken(span, "property", ("declaration",))
    if parent.type == "attribute":
        return SemanticToken(span, "decorator")
    if parent.type == "enable_directive":
        return SemanticToken(span, "namespace")
    if parent.type == "call_expression" and builtin_entries(name):
        return SemanticToken(span, "function", ("defaultLibrary",))
    if name in PREDECLARED_TYPE_NAMES or name in MATRIX_TYPE_DOCS or name.startswith("coop_mat"):
        return SemanticToken(span, "type", ("defaultLibrary",))
    if name in TEMPLATE_ENUMERANTS and parent.type in ("template_list", "type_specifier"):
        return SemanticToken(span, "enumMember", ("defaultLibrary",))
    return None


@dataclass(frozen=True)
class InlayHint:
    offset: int
    label: str
    kind: str = "type"


def inlay_hints(analysis: Analysis, span: Span | None = None) -> list[InlayHint]:
    """`: type` after every let/var/const/override whose type is inferred, and the M×N×K shape of every
    matrix multiply (the types say rows and columns in each dialect's own order; the shape does not)."""
    out = []
    for symbol in analysis.model.symbols:
        if symbol.kind not in ("let", "var", "const", "override"):
            continue
        # The range first: a declaration node may have to be looked up in the tree.
        if span is not None and not (span.start <= symbol.span.end <= span.end):
            continue
        if symbol.declaration is None or sn.declared_type(symbol.declaration) is not None \
                or symbol.type is t.ERROR:
            continue
        out.append(InlayHint(symbol.span.end, f": {symbol.type.describe()}"))
    out.extend(_multiply_shapes(analysis, span))
    out.sort(key=lambda h: h.offset)
    return out


_LEFT_ROLES, _RIGHT_ROLES = ("left", "A"), ("right", "B")


def _multiply_shapes(analysis: Analysis, span: Span | None) -> list[InlayHint]:
    model, root = analysis.model, analysis.root
    if root is None or not model.matrix_dialects:
        return []
    out = []
    for (start, end, kind), result in model.expression_types():
        if kind != "call_expression" or not isinstance(result, t.CoopMatrix):
            continue
        if span is not None and not (span.start <= end <= span.end):
            continue
        call = root.descendant_for_byte_range(start, end)
        while call is not None and not (call.type == kind and call.start_byte == start and call.end_byte == end):
            call = call.parent
        arguments = sn.arguments(call) if call is not None else None
        args = [a for a in arguments.named_children if not a.is_extra] if arguments is not None else []
        if len(args) < 2:
            continue
        left, right = (t.store_type(model.type_at(a.start_byte, a.end_byte, a.type) or t.ERROR) for a in args[:2])
        if not (isinstance(left, t.CoopMatrix) and left.kind.role in _LEFT_ROLES
                and isinstance(right, t.CoopMatrix) and right.kind.role in _RIGHT_ROLES):
            continue
        # Both dialects: the result has M rows and N columns; the left operand has K columns.
        out.append(InlayHint(end, f" {result.rows}×{result.columns}×{left.columns} (M×N×K)"))
    return out


@dataclass(frozen=True)
class FoldingRange:
    start_line: int
    end_line: int
    kind: str = "region"  # region, comment, imports


_FOLDABLE = {"compound_statement", "struct_body", "switch_body", "argument_list", "parameter_list",
             "block_comment"}


def folding_ranges(analysis: Analysis) -> list[FoldingRange]:
    root = analysis.root
    if root is None:
        return []
    source = analysis.source
    out = []
    seen = set()
    comment_run: list[int] = []

    def flush():
        if len(comment_run) >= 2:
            out.append(FoldingRange(comment_run[0], comment_run[-1], "comment"))
        comment_run.clear()

    for node in _walk(root):
        if node.type == "line_comment":
            line = node.start_point[0]
            if comment_run and line != comment_run[-1] + 1:
                flush()
            comment_run.append(line)
            continue
        if node.type not in _FOLDABLE:
            continue
        start = source.line_of(node.start_byte)
        end = source.line_of(node.end_byte)
        if node.type != "block_comment":
            end -= 1  # keep the closing bracket visible
        if end > start and start not in seen:
            seen.add(start)
            out.append(FoldingRange(start, end, "comment" if node.type == "block_comment" else "region"))
    flush()
    directives = [c for c in root.children if c.type in ("enable_directive", "requires_directive")]
    if len(directives) >= 2:
        first, last = source.line_of(directives[0].start_byte), source.line_of(directives[-1].start_byte)
        if last > first:
            out.append(FoldingRange(first, last, "imports"))
    out.sort(key=lambda r: (r.start_line, r.end_line))
    return out


def selection_range(analysis: Analysis, offset: int) -> list[Span]:
    """Ever larger spans around `offset`, innermost first: each node up to the whole file."""
    node = analysis.node_at(analysis.clamp(offset))
    out: list[Span] = []
    while node is not None:
        span = Span(node.start_byte, node.end_byte)
        if not out or out[-1] != span:
            out.append(span)
        node = node.parent
    whole = Span(0, len(analysis.data))
    if not out or out[-1] != whole:
        out.append(whole)
    return out
