"""Go to definition, references, highlights, rename, document and workspace symbols."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..core.diagnostic import Edit
from ..core.text import Span
from ..semantic import types as t
from ..semantic.model import Symbol
from ..semantic.typenames import PREDECLARED_TYPE_NAMES
from ..syntax.keywords import KEYWORDS, RESERVED_WORDS
from ..syntax import nodes as sn
from .analysis import Analysis
from .hover import describe_symbol

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _member_target(analysis: Analysis, offset: int) -> tuple[Span, Span] | None:
    """For `s.field` under the cursor: (span of the field name here, span of its declaration)."""
    node = analysis.identifier_at(offset)
    if node is None or node.parent is None or node.parent.type != "member_expression":
        return None
    if sn.member(node.parent) != node:
        return None
    value = sn.value(node.parent)
    if value is None:
        return None
    value_type = analysis.model.type_at(value.start_byte, value.end_byte, value.type)
    if value_type is None:
        return None
    value_type = t.store_type(value_type)
    if not isinstance(value_type, t.Struct):
        return None
    declaration = member_declaration(analysis, value_type.name, analysis.slice(Span(node.start_byte, node.end_byte)))
    return (Span(node.start_byte, node.end_byte), declaration) if declaration is not None else None


def member_declaration(analysis: Analysis, struct_name: str, member: str) -> Span | None:
    symbol = analysis.find_module_symbol(struct_name, "struct")
    if symbol is None or symbol.declaration is None:
        return None
    body = sn.body(symbol.declaration)
    for child in body.named_children if body is not None else []:
        name = sn.name(child) if child.type == "struct_member" else None
        if name is not None and analysis.slice(Span(name.start_byte, name.end_byte)) == member:
            return Span(name.start_byte, name.end_byte)
    return None


def definition(analysis: Analysis, offset: int) -> list[Span]:
    found = analysis.symbol_at(offset)
    if found is not None:
        return [found[0].span]
    member = _member_target(analysis, offset)
    return [member[1]] if member is not None else []


def references(analysis: Analysis, offset: int, include_declaration: bool = True) -> list[Span]:
    found = analysis.symbol_at(offset)
    if found is None:
        return []
    symbol = found[0]
    spans = analysis.occurrences(symbol)
    if not include_declaration:
        spans = [s for s in spans if s != symbol.span]
    return spans


@dataclass(frozen=True)
class Highlight:
    span: Span
    kind: str  # "read", "write" or "text"


def highlights(analysis: Analysis, offset: int) -> list[Highlight]:
    found = analysis.symbol_at(offset)
    if found is None:
        return []
    out = []
    for span in analysis.occurrences(found[0]):
        out.append(Highlight(span, "write" if span == found[0].span or _is_written(analysis, span) else "read"))
    return out


def _is_written(analysis: Analysis, span: Span) -> bool:
    node = analysis.node_at(span.start)
    child = node
    parent = node.parent if node is not None else None
    while parent is not None and parent.type in ("index_expression", "member_expression", "paren_expression"):
        child, parent = parent, parent.parent
    if parent is None:
        return False
    if parent.type in ("assignment_statement", "compound_assignment_statement", "increment_statement",
                       "decrement_statement"):
        return sn.left(parent) == child or parent.named_children[:1] == [child]
    return False


# ------------------------------------------------------------------ rename
class RenameError(ValueError):
    pass


def prepare_rename(analysis: Analysis, offset: int) -> tuple[Span, str] | None:
    found = analysis.symbol_at(offset)
    if found is None:
        return None
    return found[1], found[0].name


def rename(analysis: Analysis, offset: int, new_name: str) -> list[Edit]:
    """Edits that rename the symbol at `offset` everywhere it is used; raises RenameError when unsafe."""
    found = analysis.symbol_at(offset)
    if found is None:
        raise RenameError("there is no declared name here to rename")
    symbol = found[0]
    if not _IDENTIFIER.match(new_name) or new_name.startswith("__"):
        raise RenameError(f"'{new_name}' is not a WGSL identifier")
    if new_name in KEYWORDS or new_name in RESERVED_WORDS:
        raise RenameError(f"'{new_name}' is a reserved word in WGSL")
    if new_name == symbol.name:
        return []
    # A new name that some reference would then resolve differently changes the program.
    for span in analysis.occurrences(symbol):
        clash = analysis.lookup(new_name, span.start)
        if clash is not None and clash is not symbol:
            raise RenameError(f"'{new_name}' is already declared here and would be shadowed or clash "
                              f"(line {analysis.source.position(clash.span.start).line + 1})")
    if analysis.is_module_scope(symbol) and new_name in PREDECLARED_TYPE_NAMES:
        raise RenameError(f"'{new_name}' would shadow a predeclared type")
    scope = analysis.scope_of(symbol)
    for other in analysis.model.symbols:
        if other.name != new_name or other is symbol:
            continue
        other_scope = analysis.scope_of(other)
        # Same scope: a redeclaration. An inner declaration that some reference sits inside: capture.
        if other_scope == scope:
            raise RenameError(f"'{new_name}' is already declared in the same scope")
        if other_scope is not None and any(
                other_scope.start <= span.start <= other_scope.end and other.span.end <= span.start
                for span in analysis.occurrences(symbol)):
            raise RenameError(f"a reference would be captured by the inner declaration of '{new_name}'")
    return [Edit(span, new_name) for span in analysis.occurrences(symbol)]


# ------------------------------------------------------------------ symbols
_SYMBOL_KINDS = {"function": "function", "struct": "struct", "alias": "type", "const": "constant",
                 "override": "constant", "var": "variable", "let": "variable", "parameter": "variable"}


@dataclass
class DocumentSymbol:
    name: str
    kind: str  # function, struct, type, constant, variable, field
    span: Span  # the whole declaration
    selection: Span  # its name
    detail: str = ""
    children: list["DocumentSymbol"] = field(default_factory=list)


def document_symbols(analysis: Analysis) -> list[DocumentSymbol]:
    top: list[DocumentSymbol] = []
    functions: dict[tuple[int, int], DocumentSymbol] = {}
    locals_: list[tuple[Symbol, DocumentSymbol]] = []
    for symbol in analysis.model.symbols:
        declaration = symbol.declaration
        whole = Span(declaration.start_byte, declaration.end_byte) if declaration is not None else symbol.span
        entry = DocumentSymbol(symbol.name, _SYMBOL_KINDS.get(symbol.kind, "variable"), whole, symbol.span,
                               _detail(analysis, symbol))
        if analysis.is_module_scope(symbol):
            top.append(entry)
            if symbol.kind == "function" and declaration is not None:
                functions[(declaration.start_byte, declaration.end_byte)] = entry
            if symbol.kind == "struct" and isinstance(symbol.type, t.Struct):
                for member in symbol.type.members:
                    name_span = member_declaration(analysis, symbol.name, member.name)
                    if name_span is not None:
                        entry.children.append(DocumentSymbol(member.name, "field", name_span, name_span,
                                                             member.type.describe()))
        else:
            locals_.append((symbol, entry))
    for symbol, entry in locals_:
        node = symbol.declaration
        while node is not None and node.type != "function_declaration":
            node = node.parent
        owner = functions.get((node.start_byte, node.end_byte)) if node is not None else None
        if owner is not None:
            owner.children.append(entry)
    top.sort(key=lambda s: s.span.start)
    return top


def _detail(analysis: Analysis, symbol: Symbol) -> str:
    if symbol.kind in ("function", "struct"):
        return ""
    return symbol.type.describe() if symbol.type is not t.ERROR else ""


@dataclass(frozen=True)
class WorkspaceSymbol:
    name: str
    kind: str
    span: Span
    container: str = ""


def workspace_symbols(analysis: Analysis, query: str) -> list[WorkspaceSymbol]:
    """Module-scope declarations whose names contain the query's letters in order (case-insensitive)."""
    out = []
    for symbol in analysis.model.symbols:
        if analysis.is_module_scope(symbol) and _fuzzy(query, symbol.name):
            out.append(WorkspaceSymbol(symbol.name, _SYMBOL_KINDS.get(symbol.kind, "variable"), symbol.span,
                                       describe_symbol(analysis, symbol) if symbol.kind != "struct" else ""))
    return out


def matches_query(query: str, name: str) -> bool:
    """Whether a workspace symbol query matches `name` (its letters in order, case-insensitive)."""
    return _fuzzy(query, name)


def _fuzzy(query: str, name: str) -> bool:
    position = 0
    name = name.lower()
    for char in query.lower():
        position = name.find(char, position)
        if position < 0:
            return False
        position += 1
    return True
