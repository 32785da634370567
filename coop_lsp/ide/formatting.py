"""Document formatting that only ever changes indentation and trailing whitespace.

What it does: every line that starts a statement, declaration, struct member,
case or comment inside braces, or closes a brace, is indented one unit per
enclosing `{ }`; the other lines of a construct (continued argument lists,
`else` on its own line, a function's `fn` line after its attributes) move
with the line that started it, so hand alignment is kept; trailing spaces go;
lines inside block comments are left exactly as they are.

Why it is safe: whitespace at the start and end of a line never joins or
splits a token, so the program means the same. It is also checked: the
formatted text must parse without errors into exactly the same tokens
(comments included) in the same order, or nothing is changed. A document
with syntax errors, or with lone carriage returns as line breaks, is not
formatted at all: there the tree says too little about where lines belong.
"""

from __future__ import annotations

import tree_sitter as ts

from ..core.diagnostic import Edit
from ..core.text import Span
from ..syntax import parse
from .analysis import Analysis

_BLOCKS = ("compound_statement", "struct_body", "switch_body")


def format_document(analysis: Analysis, tab_size: int = 4, insert_spaces: bool = True) -> list[Edit]:
    """The edits that format the document, or none when it cannot be done safely."""
    root, data = analysis.root, analysis.data
    if root is None or root.has_error or _has_lone_carriage_return(data):
        return []
    unit = b" " * max(1, tab_size) if insert_spaces else b"\t"
    comments = _multiline_comments(root)
    edits: list[Edit] = []
    delta_indent: bytes | None = None  # the indentation change of the line that started the construct
    old_anchor_indent = b""
    offset = 0
    for line in data.split(b"\n"):
        start, end = offset, offset + len(line)
        offset = end + 1
        content_end = end - 1 if line.endswith(b"\r") else end
        if _inside(comments, start):
            continue  # a line of a block comment: its text, spaces included, is the author's
        body = data[start:content_end]
        stripped = body.lstrip(b" \t")
        indent = body[: len(body) - len(stripped)]
        text_end = start + len(body.rstrip(b" \t")) if not _inside(comments, content_end) else content_end
        if not stripped:
            if content_end > start:
                edits.append(Edit(Span(start, content_end), ""))
            continue
        first = start + len(indent)
        depth = _anchor_depth(root, first)
        if depth is not None:
            new_indent = unit * depth
            delta_indent, old_anchor_indent = new_indent, indent
        elif delta_indent is not None:
            # A continuation: keep its position relative to the line that started the construct.
            new_indent = _shifted(indent, old_anchor_indent, delta_indent)
        else:
            new_indent = indent
        if text_end < content_end:
            edits.append(Edit(Span(text_end, content_end), ""))
        if new_indent != indent:
            edits.append(Edit(Span(start, first), new_indent.decode()))
    edits.sort(key=lambda e: e.span.start)
    return edits if edits and _same_tokens(data, _apply(data, edits)) else []


def _anchor_depth(root: ts.Node, offset: int) -> int | None:
    """How many blocks enclose a line starting at `offset`, if the line starts an item of a block
    (or of the module), or closes a block; None for the other lines of a construct."""
    node = root.descendant_for_byte_range(offset, offset)
    if node is None:
        return None
    # The largest node that starts here: a statement rather than its first keyword.
    while node.parent is not None and node.parent.start_byte == offset and node.parent.type not in _BLOCKS \
            and node.parent.parent is not None:
        node = node.parent
    parent = node.parent
    closing = node.type == "}" and parent is not None and parent.type in _BLOCKS
    if not closing and not (parent is None or parent.type in _BLOCKS + ("source_file",)):
        return None
    if not closing and node.type in ("{", "}"):
        return None
    depth = 0
    ancestor = parent
    while ancestor is not None:
        if ancestor.type in _BLOCKS:
            opener = next((c for c in ancestor.children if c.type == "{"), None)
            if opener is not None and opener.end_byte <= offset < ancestor.end_byte - 1:
                depth += 1
        ancestor = ancestor.parent
    return depth


def _shifted(indent: bytes, old_anchor: bytes, new_anchor: bytes) -> bytes:
    if indent.startswith(old_anchor):
        return new_anchor + indent[len(old_anchor):]
    return indent  # indented less than the line it continues, or with other characters: leave it


def _multiline_comments(root: ts.Node) -> list[tuple[int, int]]:
    found = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "block_comment":
            if node.start_point[0] != node.end_point[0]:
                found.append((node.start_byte, node.end_byte))
            continue
        if node.child_count and node.start_point[0] != node.end_point[0]:
            stack.extend(node.children)
    return found


def _inside(comments: list[tuple[int, int]], offset: int) -> bool:
    return any(start < offset < end for start, end in comments)


def _has_lone_carriage_return(data: bytes) -> bool:
    return data.count(b"\r") != data.count(b"\r\n")


def _apply(data: bytes, edits: list[Edit]) -> bytes:
    out, at = [], 0
    for edit in edits:
        out.append(data[at:edit.span.start])
        out.append(edit.new_text.encode())
        at = edit.span.end
    out.append(data[at:])
    return b"".join(out)


def _same_tokens(before: bytes, after: bytes) -> bool:
    old, new = parse(before), parse(after)
    return not new.root.has_error and _tokens(old.root, before) == _tokens(new.root, after)


def _tokens(root: ts.Node, data: bytes) -> list[tuple[str, bytes]]:
    out = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.child_count == 0 or node.type in ("block_comment", "line_comment"):
            text = data[node.start_byte:node.end_byte]
            # A line comment runs to the end of its line: its trailing spaces are the ones removed.
            out.append((node.type, text.rstrip() if node.type == "line_comment" else text))
            continue
        stack.extend(reversed(node.children))
    return out
