"""How tokens and constructs are named in messages, the way a kernel author says them."""

from __future__ import annotations

import tree_sitter as ts

from ..core.text import SourceText

_NODE_PHRASES = {
    "let_declaration": "'let' declaration",
    "variable_declaration": "'var' declaration",
    "const_declaration": "'const' declaration",
    "override_declaration": "'override' declaration",
    "type_alias_declaration": "'alias' declaration",
    "return_statement": "'return' statement",
    "call_statement": "function call",
    "assignment_statement": "assignment",
    "compound_assignment_statement": "assignment",
    "increment_statement": "'++' statement",
    "decrement_statement": "'--' statement",
    "break_statement": "'break'",
    "continue_statement": "'continue'",
    "discard_statement": "'discard'",
    "const_assert_statement": "'const_assert'",
}

_LEAF_KINDS = {
    "identifier": "name",
    "int_literal": "number",
    "float_literal": "number",
}


def describe_node(node: ts.Node) -> str:
    return _NODE_PHRASES.get(node.type, node.type.replace("_", " "))


def describe_token(node: ts.Node, source: SourceText) -> str:
    text = source.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
    if len(text) > 40:
        text = text[:37] + "..."
    kind = _LEAF_KINDS.get(node.type)
    if kind is not None:
        return f"{kind} '{text}'"
    if not text.isprintable():
        return f"character {text!r}"
    return f"'{text}'"
