"""Hover: what a name is and its type; for builtins and matrix types, their documentation."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..analysis.binding_sizes import largest_per_binding, matrix_accesses
from ..core.text import Span
from ..semantic import types as t
from ..semantic.model import Symbol
from ..syntax import nodes as sn
from .analysis import Analysis
from .docs import builtin_markdown, module_dialect, type_markdown


@dataclass(frozen=True)
class Hover:
    markdown: str
    span: Span


def describe_symbol(analysis: Analysis, symbol: Symbol) -> str:
    """A one-declaration summary of `symbol`, as WGSL source."""
    declaration = symbol.declaration
    kind = symbol.kind
    if kind == "function" and declaration is not None:
        body = sn.body(declaration)
        start = next((c.start_byte for c in declaration.children if c.type == "fn"), declaration.start_byte)
        end = body.start_byte if body is not None else declaration.end_byte
        return _squash(analysis.data[start:end].decode("utf-8", errors="replace"))
    if kind == "struct":
        if isinstance(symbol.type, t.Struct) and symbol.type.members:
            members = "".join(f"  {m.name}: {m.type.describe()},\n" for m in symbol.type.members)
            return f"struct {symbol.name} {{\n{members}}}"
        return f"struct {symbol.name}"
    if kind == "alias":
        return f"alias {symbol.name} = {symbol.type.describe()}"
    type_text = "" if symbol.type is t.ERROR else f": {symbol.type.describe()}"
    if kind == "var":
        template = ""
        if symbol.space and symbol.space != "function":
            template = f"<{symbol.space}" + (f", {symbol.access}" if symbol.access and symbol.space == "storage" else "")
            template += ">"
        return f"var{template} {symbol.name}{type_text}"
    if kind == "parameter":
        return f"{symbol.name}{type_text}"
    value = f" = {symbol.value}" if kind == "const" and symbol.value is not None else ""
    return f"{kind} {symbol.name}{type_text}{value}"


def _minimum_binding(analysis: Analysis, symbol: Symbol) -> str:
    """For a storage binding of runtime size that subgroup matrices are loaded from or stored to: the
    least bytes a buffer bound to it must hold. (A fixed-size array too small is T016 at the declaration's
    use; a runtime-sized one is only known at dispatch, so the author sees the figure here.)"""
    if symbol.kind != "var" or symbol.space != "storage" or symbol.group is None or symbol.binding is None:
        return ""
    store = t.store_type(symbol.type) if symbol.type is not None else None
    if not isinstance(store, t.Array) or isinstance(store.count, int) or analysis.root is None:
        return ""
    access = largest_per_binding(matrix_accesses(analysis.root, analysis.model, analysis.data)).get(
        (symbol.group, symbol.binding))
    if access is None:
        return ""
    matrix = access.matrix
    verb = "stored" if "Store" in access.call else "loaded"
    return (f"\n\nMinimum binding size: **{access.bytes} bytes**, for the `{matrix.describe()}` {verb} on line "
            f"{access.line} ({matrix.rows} x {matrix.columns} x {matrix.element.byte_size} bytes: MinStorageSize "
            "in the gpuweb subgroup-matrix draft, #6310 and #6334). A smaller buffer is refused when the bind "
            "group is used (Dawn), and `coop-lint run` refuses it before running.")


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).replace("( ", "(").replace(" )", ")").strip()


def hover(analysis: Analysis, offset: int, dialect: str | None = None) -> Hover | None:
    offset = analysis.clamp(offset)
    dialect = module_dialect(analysis.model.enables, dialect)
    node = analysis.identifier_at(offset)
    if node is not None:
        span = Span(node.start_byte, node.end_byte)
        name = analysis.slice(span)
        symbol = analysis.model.symbol_at(node.start_byte, node.end_byte)
        if symbol is not None:
            text = f"```wgsl\n{describe_symbol(analysis, symbol)}\n```"
            found = analysis.model.type_at(node.start_byte, node.end_byte, node.type)
            if found is not None and isinstance(found, t.Reference):
                text += f"\n\nReference: `{found.describe()}`"
            text += _minimum_binding(analysis, symbol)
            return Hover(text, span)
        parent = node.parent
        is_member = parent is not None and parent.type == "member_expression" and \
            sn.member(parent) == node
        if not is_member:
            docs = builtin_markdown(name, dialect) or type_markdown(name)
            if docs is not None:
                found = analysis.expression_type_at(offset)
                if found is not None and parent is not None and found[1] == Span(parent.start_byte, parent.end_byte) \
                        and parent.type == "call_expression":
                    docs = f"Here: `{found[0].describe()}`\n\n" + docs
                return Hover(docs, span)
    found = analysis.expression_type_at(offset)
    if found is None:
        return None
    value_type, span = found
    return Hover(f"```wgsl\n{value_type.describe()}\n```", span)
