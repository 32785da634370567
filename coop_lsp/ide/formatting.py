"""Formatting in the editor: the whole document, a range, or as you type (after `}` and `;`).

All three run the formatter (coop_lsp/format) over the whole document, so a
range is laid out exactly as `coop-lint format` would lay it out; the edits
are then the changed runs of lines; for a range (or the construct just closed by
`}` or ended by `;`) they are the changed white space between the tokens on
its lines. Text with
syntax errors is not formatted: the reason comes back for the editor to show.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

import tree_sitter as ts

from ..core.diagnostic import Edit
from ..core.text import Span
from ..format import Options, format_text
from ..format.lexical import token_spans
from ..syntax import parse

# Above this many lines, a whole-document request gets one edit for the changed middle: the
# line diff would cost more than the formatting.
_DIFF_LINES = 20_000


@dataclass(frozen=True, slots=True)
class FormatEdits:
    edits: list[Edit]
    refused: str | None = None  # why nothing was formatted


def format_document(data: bytes, options: Options = Options()) -> FormatEdits:
    formatted, refused = _formatted(data, options)
    if formatted is None:
        return FormatEdits([], refused)
    if formatted == data:
        return FormatEdits([])
    if data.count(b"\n") > _DIFF_LINES:
        return FormatEdits([_middle_edit(data, formatted)])
    return FormatEdits([edit for edit, _ in _line_runs(data, formatted)])


def format_range(data: bytes, span: Span, options: Options = Options()) -> FormatEdits:
    """The white space of whole-document formatting, taken only between the tokens on the lines of `span`.

    The two texts hold the same tokens, so the k-th gap between tokens in one is the k-th in the
    other; an edit replaces one gap, and can never join, split or move a token."""
    formatted, refused = _formatted(data, options)
    if formatted is None:
        return FormatEdits([], refused)
    old, new = data.decode("utf-8", "surrogatepass"), formatted.decode("utf-8", "surrogatepass")
    old_spans, new_spans = token_spans(old), token_spans(new)
    if len(old_spans) != len(new_spans):
        return FormatEdits([], "not formatted: the range could not be matched with the formatted document")
    byte = _byte_offsets(old, data)
    first = data.rfind(b"\n", 0, span.start) + 1
    last = data.find(b"\n", span.end)
    last = len(data) if last < 0 else last
    edits = []
    ends = [0] + [end for _, end in old_spans]
    starts = [start for start, _ in old_spans] + [len(old)]
    new_ends = [0] + [end for _, end in new_spans]
    new_starts = [start for start, _ in new_spans] + [len(new)]
    for k in range(len(starts)):
        gap_start, gap_end = byte(ends[k]), byte(starts[k])
        if gap_end < first or gap_start > last:
            continue
        before, after = old[ends[k]:starts[k]], new[new_ends[k]:new_starts[k]]
        if gap_end > last and "\n" in before and "\n" in after:
            # The next line is outside the range: it keeps its own indentation.
            after = after[:after.rfind("\n")] + before[before.rfind("\n"):]
        if before != after:
            edits.append(Edit(Span(gap_start, gap_end), after))
    return FormatEdits(edits)


def format_on_type(data: bytes, offset: int, character: str, options: Options = Options()) -> FormatEdits:
    """After `}`: the block it closed (with its header); after `;`: the statement it ended."""
    root = parse(data).root
    if root.has_error:
        return FormatEdits([])  # mid-typing: say nothing
    node = _construct_ending_at(root, offset, character)
    if node is None:
        return FormatEdits([])
    return format_range(data, Span(node.start_byte, node.end_byte), options)


def _formatted(data: bytes, options: Options) -> tuple[bytes | None, str | None]:
    result = format_text(data, options)
    if result.text is None:
        return None, result.refused
    return result.text.encode("utf-8", errors="surrogatepass"), None


def _construct_ending_at(root: ts.Node, offset: int, character: str) -> ts.Node | None:
    """The statement or block whose last token is the `}` or `;` just before `offset`."""
    token = root.descendant_for_byte_range(max(0, offset - 1), offset)
    if token is None or token.type != character:
        return None
    node = token.parent
    if node is None:
        return None
    if character == "}":
        # The block's owner (`if`, `fn`, `struct`, ...), so its header line is laid out too.
        while node.parent is not None and node.parent.type != "source_file" and node.parent.end_byte == node.end_byte \
                and node.parent.type not in ("compound_statement", "switch_body"):
            node = node.parent
        return node
    # `;` belongs to the block around the statement: take the statement before it.
    previous = token.prev_sibling
    return previous if previous is not None else node


def _line_runs(before: bytes, after: bytes) -> list[tuple[Edit, tuple[int, int]]]:
    """One edit per changed run of lines, with the run's original lines [start, end)."""
    old = before.split(b"\n")
    new = after.split(b"\n")
    starts = [0]
    for line in old:
        starts.append(starts[-1] + len(line) + 1)
    out = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        # Lines i1..i2, each with its line break, become lines j1..j2; the file's last line has none.
        if i2 < len(old):
            start, end, text = starts[i1], starts[i2], b"".join(line + b"\n" for line in new[j1:j2])
        else:
            if i1 < len(old):
                start, text = starts[i1], b"\n".join(new[j1:j2])
            else:  # lines added after the last one
                start, text = len(before), b"\n" + b"\n".join(new[j1:j2])
            end = len(before)
        out.append((Edit(Span(start, end), text.decode("utf-8", errors="surrogatepass")), (i1, i2)))
    # Cheap insurance: the runs must rebuild the formatted text exactly.
    if _apply(before, [edit for edit, _ in out]) != after:
        return [(_middle_edit(before, after), (0, len(old)))]
    return out


def _middle_edit(before: bytes, after: bytes) -> Edit:
    prefix = 0
    limit = min(len(before), len(after))
    while prefix < limit and before[prefix] == after[prefix]:
        prefix += 1
    while prefix and (before[prefix - 1] & 0xC0) == 0x80:
        prefix -= 1  # never split a UTF-8 sequence
    suffix = 0
    while suffix < limit - prefix and before[len(before) - 1 - suffix] == after[len(after) - 1 - suffix]:
        suffix += 1
    while suffix and (before[len(before) - suffix] & 0xC0) == 0x80:
        suffix -= 1
    return Edit(Span(prefix, len(before) - suffix), after[prefix:len(after) - suffix].decode("utf-8", "surrogatepass"))


def _byte_offsets(text: str, data: bytes):
    if len(text) == len(data):
        return lambda offset: offset
    starts = [0]
    for ch in text:
        starts.append(starts[-1] + len(ch.encode("utf-8", "surrogatepass")))
    return lambda offset: starts[offset]


def _apply(data: bytes, edits: list[Edit]) -> bytes:
    out, at = [], 0
    for edit in sorted(edits, key=lambda e: e.span.start):
        out.append(data[at:edit.span.start])
        out.append(edit.new_text.encode("utf-8", errors="surrogatepass"))
        at = edit.span.end
    out.append(data[at:])
    return b"".join(out)
