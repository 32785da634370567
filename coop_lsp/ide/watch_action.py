"""The "Watch value" code action: the selected expression (or the one under the cursor) becomes a
`// coop: watch EXPR` comment on its statement's line, so that the next Run kernel records it
(docs/debugging.md). Offered only for values the runner can record, in a function body, on one line.
"""

from __future__ import annotations

from ..analysis.debug_prints import COMMENT, split_arguments
from ..core.diagnostic import Edit
from ..core.text import Span
from ..semantic import types as t
from ..syntax import nodes
from .actions import CodeAction
from .analysis import Analysis

# The node kinds that are a value a watch can name; literals are left out (their value is in the text).
_EXPRESSIONS = frozenset({"identifier", "call_expression", "index_expression", "member_expression",
                          "binary_expression", "unary_expression", "paren_expression"})
# Statements with a block: the watch goes on the header's line and so runs inside the block, where the
# header's names (a for loop's variable) are in scope.
_HEADERS = frozenset({"if_statement", "for_statement", "while_statement", "loop_statement", "switch_statement"})
KIND = "refactor.rewrite"


def _expression_at(analysis: Analysis, span: Span):
    """The expression the selection covers exactly (blanks around it ignored), or, for a bare cursor, the
    name under it (with its `.member` when it is one)."""
    data = analysis.data
    start, end = span.start, span.end
    while start < end and data[start:start + 1].isspace():
        start += 1
    while end > start and data[end - 1:end].isspace():
        end -= 1
    if start == end:
        node = analysis.identifier_at(start)
        if node is not None and node.parent is not None and node.parent.type == "member_expression" \
                and nodes.member(node.parent) == node:
            node = node.parent
        return node
    node = analysis.root.named_descendant_for_byte_range(start, end)
    if node is None or (node.start_byte, node.end_byte) != (start, end):
        return None
    return node


def _is_value(analysis: Analysis, node) -> bool:
    if node.type not in _EXPRESSIONS:
        return False
    parent = node.parent
    if parent is None or parent.type in ("templated_identifier", "type_specifier", "attribute", "parameter"):
        return False
    if parent.type == "call_expression" and node == nodes.callee(parent):
        return False  # the called function's name
    if parent.type == "member_expression" and node == nodes.member(parent):
        return False  # a member's name alone
    if node == nodes.name(parent):
        return False  # a name being declared
    ty = analysis.model.type_at(node.start_byte, node.end_byte, node.type)
    if ty is None or ty is t.ERROR or isinstance(ty, t.TypeOf):
        return False
    ty = t.store_type(ty)
    inner = ty.element if isinstance(ty, (t.Vector, t.Matrix)) else ty
    return isinstance(ty, t.CoopMatrix) or isinstance(inner, t.Scalar)


def _statement(node):
    """The statement of a function body that holds `node`."""
    while node.parent is not None and node.parent.type != "compound_statement":
        node = node.parent
    return node if node.parent is not None else None


def watch_action(analysis: Analysis, span: Span) -> CodeAction | None:
    """The edit that watches the expression at `span`; None where there is no value to watch."""
    if analysis.root is None:
        return None
    node = _expression_at(analysis, span)
    if node is None or not _is_value(analysis, node) or node.start_point[0] != node.end_point[0]:
        return None
    statement = _statement(node)
    if statement is None:
        return None
    row = node.start_point[0] if statement.type in _HEADERS else statement.end_point[0]
    if statement.type not in _HEADERS and statement.start_point[0] != row:
        return None  # a statement over several lines: no line of it runs the whole statement
    expression = analysis.slice(Span(node.start_byte, node.end_byte))
    line_end = analysis.source.line_end(row)
    line = analysis.source.line_text(row)
    found = COMMENT.search(line)
    if found is not None:
        if found.group(1) != "watch":
            return None  # one coop comment a line: a print is there
        watched = split_arguments(found.group(2).strip())
        if expression in watched:
            return None
        text = (", " if watched else " ") + expression
        at = line_end - len(line[len(line.rstrip()):].encode())
        return CodeAction(f"Watch '{expression}' (add it to the line's watch)", (Edit(Span(at, at), text),),
                          False, kind=KIND)
    at = line_end - len(line[len(line.rstrip()):].encode())
    return CodeAction(f"Watch '{expression}' each time line {row + 1} runs",
                      (Edit(Span(at, at), f" // coop: watch {expression}"),), False, kind=KIND)

