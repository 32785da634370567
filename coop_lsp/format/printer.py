"""The layout of a WGSL syntax tree: one canonical text for every construct.

The printer walks the tree and decides every line break and space itself, so
the source's own layout matters only where the author chose it on purpose:
blank lines between items (at most one is kept), and where comments sit (a
comment at the end of a line stays at the end of that line; one on its own
line stays on its own line).

An expression is first laid out on one line; when that line would pass the
line width, the outermost list (call arguments, parameters, attribute
arguments, template arguments) puts one item per line, and a long binary
expression breaks after an operator. Breaking never adds or removes a token
(no trailing comma is added), so a list without a trailing comma keeps none.

Where a comment sits inside a construct that has no place for it (between
an operator and its operand, say), that construct keeps its source text
as written: the comment stays exactly where it was.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from ..syntax import nodes as sn
from .lexical import lexical_tokens

_LISTS = ("argument_list", "parameter_list", "attribute_arguments", "template_list")
_CALL_PARENS = frozenset(("argument_list", "parameter_list", "attribute_arguments", "diagnostic_control"))
_TRAILING_COMMA_LISTS = frozenset(("argument_list", "parameter_list", "attribute_arguments"))
_TEMPLATE_START, _TEMPLATE_END = ("<", "T<"), (">", "T>")
_COMMENTS = frozenset(("line_comment", "block_comment"))
_NO_SPACE_BEFORE = frozenset((",", ";", ")", "]", ".", ":", "++", "--", "["))
_NO_SPACE_AFTER = frozenset(("(", "[", ".", "@"))
# The part that holds the one expression a simple statement may break inside.
_BREAKABLE_PARTS = (sn.value, sn.right, sn.condition)


@dataclass(frozen=True, slots=True)
class Options:
    indent_width: int = 4
    line_width: int = 100


class _Unflat(Exception):
    """A node that cannot be laid out on one line: it holds a line comment or a multi-line block comment."""


class Printer:
    def __init__(self, data: bytes, options: Options) -> None:
        self.data = data
        self.width = options.line_width
        self.unit = " " * options.indent_width
        self.ascii = data.decode("ascii") if data.isascii() else None

    # ------------------------------------------------------------------ tokens
    def text(self, node: ts.Node) -> str:
        if self.ascii is not None:
            return self.ascii[node.start_byte:node.end_byte]
        return self.data[node.start_byte:node.end_byte].decode("utf-8", errors="surrogateescape")

    def leaves(self, node: ts.Node, out: list[tuple[str, str]], parent_type: str = "") -> None:
        """Appends (text, kind) for each token under `node`; the kind steers the spacing."""
        text_of = self.text
        # The parent's type comes from the caller: tree-sitter finds a node's parent by walking down
        # from the root, which made formatting quadratic in the number of top-level items.
        stack: list = [(node, parent_type)]
        pop, push = stack.pop, stack.append
        while stack:
            current, parent = pop()
            if current is None:
                out.append(_TEMPLATE_END)
                continue
            kind = current.type
            if kind == "template_list":
                out.append(_TEMPLATE_START)
                push((None, ""))
                stack.extend([(c, kind) for c in reversed(current.children)])
                continue
            if current.child_count == 0 or kind in _COMMENTS:
                text = text_of(current)
                if kind in _COMMENTS:
                    if kind == "line_comment" or "\n" in text:
                        raise _Unflat
                    out.append((text, "comment"))
                elif text == "(" and parent in _CALL_PARENS:
                    out.append((text, "callparen"))
                elif parent == "unary_expression" and not current.is_named:
                    out.append((text, "unary"))
                else:
                    out.append((text, "token"))
                continue
            if kind in _TRAILING_COMMA_LISTS and _trailing_comma(current):
                raise _Unflat  # the author's trailing comma keeps the list one item per line
            stack.extend([(c, kind) for c in reversed(current.children)])

    def leaves_of(self, nodes, parent_type: str) -> list[tuple[str, str]] | None:
        out: list[tuple[str, str]] = []
        try:
            for node in nodes:
                self.leaves(node, out, parent_type)
        except _Unflat:
            return None
        return out

    @staticmethod
    def join(leaves: list[tuple[str, str]]) -> str:
        parts: list[str] = []
        previous = None
        for leaf in leaves:
            if previous is not None and _space(previous, leaf):
                parts.append(" ")
            parts.append(leaf[0])
            previous = leaf
        return "".join(parts)

    def flat(self, node: ts.Node) -> str | None:
        leaves = self.leaves_of((node,), "")  # a whole node: its own tokens know their parent
        return None if leaves is None else self.join(leaves)

    # ------------------------------------------------------------- expressions
    def expr(self, node: ts.Node, indent: int, col: int, reserve: int, one_line=...) -> list[str]:
        """`node` laid out from column `col`: the first string continues the current line, the others
        are whole lines; `reserve` columns must stay free after it for what follows on its last line."""
        if one_line is ...:
            one_line = self.flat(node)
        if one_line is not None and col + len(one_line) + reserve <= self.width:
            return [one_line]
        kind = node.type
        if kind in _LISTS:
            return self.items(node, indent, col, reserve)
        if not _direct_comments(node):
            if kind == "call_expression":
                return self.seq(node.children, 1, indent, col, reserve, kind)
            if kind == "binary_expression":
                return self.binary(node, indent, col, reserve)
            if kind in ("paren_expression", "unary_expression", "index_expression", "templated_identifier",
                        "type_specifier", "attribute"):
                named = [i for i, c in enumerate(node.children) if c.is_named]
                breakable = {"paren_expression": 0, "unary_expression": -1, "index_expression": -1,
                             "templated_identifier": -1, "type_specifier": -1, "attribute": -1}[kind]
                if named:
                    return self.seq(node.children, named[breakable], indent, col, reserve, kind)
            if kind == "member_expression":
                return self.seq(node.children, 0, indent, col, reserve, kind)
        if one_line is not None:
            return [one_line]  # nothing to break: a long line stays long
        return self.verbatim(node)

    def seq(self, children, k: int | None, indent: int, col: int, reserve: int, parent: str) -> list[str]:
        """Children on one line, except child `k`, which may break over lines."""
        children = list(children)
        if k is None:
            leaves = self.leaves_of(children, parent)
            if leaves is None:
                return self.verbatim_span(children[0].start_byte, children[-1].end_byte)
            return [self.join(leaves)]
        before, middle, after = self.leaves_of(children[:k], parent), self.leaves_of(children[k:k + 1], parent), \
            self.leaves_of(children[k + 1:], parent)
        if before is None or after is None:
            return self.verbatim_span(children[0].start_byte, children[-1].end_byte)
        head = self.join(before)
        tail = self.join(after)
        if middle:
            first, last = middle[0], middle[-1]
        else:
            first, last = self.edge(children[k], False), self.edge(children[k], True)
        if before and first is not None and _space(before[-1], first):
            head += " "
        if after and last is not None and _space(last, after[0]):
            tail = " " + tail
        lines = self.expr(children[k], indent, col + len(head), reserve + len(tail),
                          None if middle is None else self.join(middle))
        lines[0] = head + lines[0]
        _append(lines, tail, self.unit * indent)
        return lines

    def edge(self, node: ts.Node, last: bool) -> tuple[str, str] | None:
        """The first (or last) token of a node, for the spacing next to it."""
        parent = ""
        while True:
            if node.type == "template_list":
                return (">", "T>") if last else ("<", "T<")
            if node.child_count == 0 or node.type in _COMMENTS:
                out: list = []
                try:
                    self.leaves(node, out, parent)
                except _Unflat:
                    return None
                return out[0] if out else None
            tokens = [c for c in node.children if c.type not in _COMMENTS]
            if not tokens:
                return None
            parent = node.type
            node = tokens[-1] if last else tokens[0]

    def binary(self, node: ts.Node, indent: int, col: int, reserve: int) -> list[str]:
        left, operator, right = sn.left(node), sn.operator(node), \
            sn.right(node)
        op = self.text(operator)
        lines = self.expr(left, indent, col, reserve + len(op) + 1)
        _append(lines, " " + op, self.unit * indent)
        inner = indent + 1
        rest = self.expr(right, inner, len(self.unit) * inner, reserve)
        lines.append(self.unit * inner + rest[0])
        lines.extend(rest[1:])
        return lines

    def items(self, node: ts.Node, indent: int, col: int, reserve: int) -> list[str]:
        """A bracketed list, one item per line; comments stay beside the item they followed."""
        children = node.children
        if node.type == "template_list":
            open_text, close_text, body = "<", ">", children
        else:
            open_text, close_text, body = self.text(children[0]), self.text(children[-1]), children[1:-1]
        inner = indent + 1
        pad = self.unit * inner
        lines = [open_text]
        prefix = ""
        previous_row = children[0].end_point[0] if node.type != "template_list" else node.start_point[0]
        i = 0
        while i < len(body):
            child = body[i]
            if len(lines) > 1 and child.type != "," and child.start_point[0] - previous_row > 1:
                lines.append("")
            if child.type == "block_comment" and i + 1 < len(body) and body[i + 1].type not in _COMMENTS \
                    and body[i + 1].type != "," and body[i + 1].start_point[0] == child.end_point[0] \
                    and child.start_point[0] != previous_row and "\n" not in self.text(child):
                prefix += self.text(child) + " "  # a comment just before an item, on its line: it stays there
                previous_row = child.end_point[0]
                i += 1
                continue
            if child.type in _COMMENTS:
                comment = self.comment_lines(child, inner)
                if child.start_point[0] == previous_row and len(lines) >= 1:
                    lines[-1] += " " + comment[0].lstrip()
                    lines.extend(comment[1:])
                else:
                    lines.extend(comment)
                previous_row = child.end_point[0]
                i += 1
                continue
            if child.type == ",":  # a comma after a comment: it stays after it
                if body[i - 1].type == "line_comment" or "\n" in self.text(body[i - 1]):
                    lines.append(pad + ",")  # the comment ends its line
                else:
                    _append(lines, ",", pad)
                previous_row = child.end_point[0]
                i += 1
                continue
            has_comma = i + 1 < len(body) and body[i + 1].type == ","
            item = self.expr(child, inner, len(pad) + len(prefix), 1 if has_comma else 0)
            lines.append(pad + prefix + item[0])
            prefix = ""
            lines.extend(item[1:])
            previous_row = child.end_point[0]
            if has_comma:
                _append(lines, ",", pad)
                previous_row = body[i + 1].end_point[0]
                i += 1
            i += 1
        lines.append(self.unit * indent + close_text)
        return lines

    # ---------------------------------------------------------------- comments
    def comment_lines(self, node: ts.Node, indent: int) -> list[str]:
        """A comment on lines of its own; the inner lines of a block comment keep their text."""
        text = self.text(node)
        if node.type == "line_comment":
            return [self.unit * indent + text.rstrip()]
        first, *rest = text.split("\n")
        return [self.unit * indent + first] + rest

    def verbatim(self, node: ts.Node) -> list[str]:
        return self.verbatim_span(node.start_byte, node.end_byte)

    def verbatim_span(self, start: int, end: int) -> list[str]:
        """Source text kept as written: its first line moves with its construct, the others stay."""
        return self.data[start:end].decode("utf-8", errors="surrogateescape").split("\n")

    # -------------------------------------------------------------- statements
    def statement(self, node: ts.Node, indent: int, reserve: int) -> list[str]:
        """Whole lines (indented) for a statement or declaration, without its ';'."""
        pad = self.unit * indent
        kind = node.type
        method = getattr(self, "stmt_" + kind, None)
        if method is not None:
            if not _comments_outside_blocks(node):
                return method(node, indent)
            lines = self.verbatim(node)
            lines[0] = pad + lines[0]
            return lines
        children = node.children
        k = None
        for part in _BREAKABLE_PARTS:
            child = part(node)
            if child is not None:
                k = _index(children, child)
                break
        if k is None and kind == "call_statement":
            k = 0
        if not children:
            return [pad + self.text(node)]
        lines = self.seq(children, k, indent, len(pad), reserve, kind)
        lines[0] = pad + lines[0]
        return lines

    def header(self, children, k: int | None, indent: int, parent: str) -> list[str]:
        pad = self.unit * indent
        lines = self.seq(children, k, indent, len(pad), 2, parent)
        lines[0] = pad + lines[0]
        return lines

    def stmt_compound_statement(self, node: ts.Node, indent: int) -> list[str]:
        return self.attach_block([self.unit * indent], node, indent)

    def attach_block(self, lines: list[str], block: ts.Node, indent: int) -> list[str]:
        """Appends the block's attributes, ` {`, its items one level in, and `}`."""
        children = block.children
        opening = next(i for i, c in enumerate(children) if c.type == "{")
        inner = children[opening + 1:-1]
        pad = self.unit * indent
        if opening:
            head = self.seq(children[:opening], None, indent, 0, 0, block.type)
            _append(lines, (" " if lines[-1].strip() else "") + head[0], pad)
            lines.extend(head[1:])
        _append(lines, " {" if lines[-1].strip() else "{", pad)
        if not inner:
            lines[-1] += "}"
            return lines
        lines.extend(self.block_items(inner, indent + 1, children[opening].end_point[0], lines))
        lines.append(self.unit * indent + "}")
        return lines

    def stmt_if_statement(self, node: ts.Node, indent: int) -> list[str]:
        consequence = sn.consequence(node)
        children = node.children
        c = _index(children, consequence)
        head = children[:c]
        lines = self.header(head, _index(head, sn.condition(node)), indent, node.type)
        lines = self.attach_block(lines, consequence, indent)
        alternative = sn.alternative(node)
        if alternative is not None:
            branch = alternative.named_children[-1] if alternative.named_children else None
            if branch is None or _direct_comments(alternative):
                _append(lines, " " + self.verbatim(alternative)[0], self.unit * indent)
                lines.extend(self.verbatim(alternative)[1:])
                return lines
            _append(lines, " else", self.unit * indent)
            if branch.type == "if_statement":
                rest = self.statement(branch, indent, 0)
                _append(lines, " " + rest[0].lstrip(), self.unit * indent)
                lines.extend(rest[1:])
            else:
                lines = self.attach_block(lines, branch, indent)
        return lines

    def stmt_while_statement(self, node: ts.Node, indent: int) -> list[str]:
        body = sn.body(node)
        head = node.children[:_index(node.children, body)]
        lines = self.header(head, _index(head, sn.condition(node)), indent, node.type)
        return self.attach_block(lines, body, indent)

    def stmt_switch_statement(self, node: ts.Node, indent: int) -> list[str]:
        body = sn.body(node)
        head = node.children[:_index(node.children, body)]
        lines = self.header(head, _index(head, sn.value(node)), indent, node.type)
        return self.attach_block(lines, body, indent)

    def _keyword_block(self, node: ts.Node, indent: int) -> list[str]:
        body = sn.body(node)
        head = node.children[:_index(node.children, body)]
        return self.attach_block(self.header(head, None, indent, node.type), body, indent)

    stmt_for_statement = _keyword_block
    stmt_loop_statement = _keyword_block
    stmt_continuing_statement = _keyword_block
    stmt_case_clause = _keyword_block
    stmt_default_clause = _keyword_block

    def stmt_function_declaration(self, node: ts.Node, indent: int) -> list[str]:
        body = sn.body(node)
        children = node.children
        start = next(i for i, c in enumerate(children) if c.type == "fn")
        lines = []
        if start:
            lines.extend(self.header(children[:start], None, indent, node.type))
        head = children[start:_index(children, body)]
        lines.extend(self.header(head, _index(head, sn.parameters(node)), indent, node.type))
        return self.attach_block(lines, body, indent)

    def stmt_struct_declaration(self, node: ts.Node, indent: int) -> list[str]:
        return self._keyword_block(node, indent)

    # ------------------------------------------------------------------ blocks
    def block_items(self, children, indent: int, previous_row: int, lines_before: list[str],
                    top_level: bool = False) -> list[str]:
        """The items of a block (or of the file), one per line, with the author's blank lines (at most
        one in a row) and comments; `lines_before` ends with the line that opened the block."""
        lines: list[str] = []
        previous_kind = None  # the type of the last item printed
        children = list(children)
        i = 0
        while i < len(children):
            child = children[i]
            if child.type in _COMMENTS:
                if child.start_point[0] == previous_row and previous_row >= 0:
                    target = lines if lines else lines_before
                    comment = self.comment_lines(child, indent)
                    target[-1] += " " + comment[0].lstrip()
                    target.extend(comment[1:])
                    previous_row = child.end_point[0]
                    i += 1
                    continue
            if child.type in ("empty_declaration", "empty_statement") and lines and previous_kind is not None \
                    and previous_kind not in _COMMENTS:
                _append(lines, ";", self.unit * indent)  # `};` after a struct: the stray ';' stays on its line
                previous_row = child.end_point[0]
                i += 1
                continue
            blank = previous_kind is not None and child.start_point[0] - previous_row > 1
            if top_level and previous_kind is not None:
                if previous_kind in ("function_declaration", "struct_declaration") or \
                        _directive(previous_kind) and not _directive(child.type):
                    blank = True
                elif child.type in ("function_declaration", "struct_declaration") and previous_kind not in _COMMENTS:
                    blank = True
            if blank:
                lines.append("")
            if child.type in _COMMENTS:
                lines.extend(self.comment_lines(child, indent))
                previous_row, previous_kind = child.end_point[0], child.type
                i += 1
                continue
            # A statement, the ';' or ',' that ends it, and any comments in between.
            end = i + 1
            separator = None
            j = end
            while j < len(children) and children[j].type in _COMMENTS and children[j].type == "block_comment" \
                    and "\n" not in self.text(children[j]):
                j += 1
            if j < len(children) and not children[j].is_named and children[j].type in (";", ","):
                separator = children[j]
                between = children[end:j]
                end = j + 1
            else:
                between = []
            suffix = "".join(" " + self.text(c) for c in between) + (self.text(separator) if separator else "")
            item = self.statement(child, indent, len(suffix))
            if suffix:
                _append(item, suffix, self.unit * indent)
            lines.extend(item)
            previous_row = children[end - 1].end_point[0]
            previous_kind = child.type
            i = end
        return lines


def _append(lines: list[str], text: str, pad: str) -> None:
    """Continues the last line, unless a line comment ends it: then `text` starts the next line."""
    if not text:
        return
    last = lines[-1]
    if "//" in last:
        tokens = lexical_tokens(last)
        if tokens and tokens[-1].startswith("//"):
            lines.append(pad + text.lstrip())
            return
    lines[-1] = last + text


def _space(previous: tuple[str, str], current: tuple[str, str]) -> bool:
    """Whether a space goes between two tokens on one line."""
    text, kind = current
    before, before_kind = previous
    if kind in ("T<", "T>", "callparen") or before_kind == "T<":
        return False
    if kind == "comment":
        return before not in ("(", "[")
    if before in _NO_SPACE_AFTER and before_kind != "comment":
        return False
    if text in _NO_SPACE_BEFORE:
        return False
    if before_kind == "unary":
        # `- -x`, `& &x`: without the space these would read as one token.
        return text[:1] == before and before in "-&"
    return True


def _direct_comments(node: ts.Node) -> bool:
    return any(c.type in _COMMENTS for c in node.children)


def _trailing_comma(node: ts.Node) -> bool:
    tokens = [c for c in node.children if c.type not in _COMMENTS]
    return len(tokens) >= 2 and tokens[-2].type == ","


def _comments_outside_blocks(node: ts.Node) -> bool:
    """Comments the block layout has no place for: any before a compound statement's `{`, or
    among a construct's own tokens (its blocks place their comments themselves)."""
    if node.type in ("compound_statement", "switch_body", "struct_body"):
        for child in node.children:
            if child.type == "{":
                return False
            if child.type in _COMMENTS:
                return True
        return False
    return _direct_comments(node)


def _directive(kind: str | None) -> bool:
    return kind in ("enable_directive", "requires_directive", "diagnostic_directive")


def _index(children, node: ts.Node | None) -> int | None:
    if node is None:
        return None
    for i, child in enumerate(children):
        if child.start_byte == node.start_byte and child.end_byte == node.end_byte and child.type == node.type:
            return i
    return None

