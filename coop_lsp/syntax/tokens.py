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


def excerpt(source: SourceText, node: ts.Node, limit: int = 40) -> str:
    """The text of a node for a message, shortened so that huge nodes stay cheap and readable."""
    text = source.data[node.start_byte : min(node.end_byte, node.start_byte + 4 * limit)]
    text = text.decode("utf-8", errors="replace").replace("\n", " ")
    if len(text) > limit or node.end_byte - node.start_byte > len(text.encode()):
        return text[: limit - 3] + "..."
    return text


def describe_node(node: ts.Node) -> str:
    return _NODE_PHRASES.get(node.type, node.type.replace("_", " "))


def describe_token(node: ts.Node, source: SourceText) -> str:
    text = excerpt(source, node)
    kind = _LEAF_KINDS.get(node.type)
    if kind is not None:
        return f"{kind} '{text}'"
    if not text.isprintable():
        return f"character {text!r}"
    return f"'{text}'"
