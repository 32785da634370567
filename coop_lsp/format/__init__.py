"""The WGSL formatter: one canonical layout, changing only white space.

`format_text` lays out a whole document (see printer.py for the layout). It
refuses, with a message, text it cannot format safely: text with syntax
errors (the tree does not say where its lines belong), text that is not
UTF-8, and text with lone carriage returns. Every result is checked before it
is returned: it must hold the same tokens, comments included, in the same
order (lexical.py); otherwise the text is refused rather than changed. The
tests compare parse trees and Tint's verdict as well.

This layer sits above syntax and below ide; it needs nothing of lint (the WGSL strings of host files
come from source/hosts.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import tree_sitter as ts

from ..core.diagnostic import Severity
from ..syntax.diagnostics import syntax_diagnostics
from ..core.text import SourceText
from ..syntax.parser import Parsed, parse, wgsl_language
from .lexical import lexical_tokens
from .printer import Options, Printer

__all__ = ["Formatted", "Options", "format_text", "token_stream"]


@dataclass(frozen=True, slots=True)
class Formatted:
    """The formatted text (None when refused) and, when refused, why."""

    text: str | None
    refused: str | None = None

    def changed(self, original: str) -> bool:
        return self.text is not None and self.text != original


def format_text(text: str | bytes, options: Options = Options()) -> Formatted:
    data = text.encode("utf-8", errors="surrogatepass") if isinstance(text, str) else text
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        return Formatted(None, f"not formatted: the file is not UTF-8 text (byte {error.start})")
    crlf = b"\r\n" in data
    if data.count(b"\r") != data.count(b"\r\n"):
        return Formatted(None, "not formatted: the file has carriage returns that end no line")
    if crlf:
        data = data.replace(b"\r\n", b"\n")
    budget = _PARSE_SECONDS_PER_MB * len(data) / 1e6 + 0.5
    parsed = _parse_within(data, budget)
    if parsed is None:
        return Formatted(None, f"not formatted: it did not parse within {budget:.1f} s "
                               f"(mostly not WGSL: {len(data) / 1e6:.1f} MB of syntax errors)")
    root = parsed.root
    last = root
    while last.child_count and last.type != "block_comment":
        last = last.children[-1]
    unterminated = last.type == "block_comment" and not data[last.start_byte:last.end_byte].endswith(b"*/")
    if root.has_error or unterminated:
        return Formatted(None, _syntax_error(parsed))
    printer = Printer(data, options)
    lines = printer.block_items(root.children, 0, -1, [], top_level=True)
    out = "\n".join(line.rstrip() for line in lines)
    if out:
        out += "\n"
    original = data.decode("utf-8")
    if lexical_tokens(original) != lexical_tokens(out):
        # A layout bug, never the user's fault: leave the text as it was and say so.
        return Formatted(None, "not formatted: the formatter would have changed a token here; "
                               "the file is left as it was (please report this)")
    if crlf:
        out = out.replace("\n", "\r\n")
    return Formatted(out)


# Error recovery on text that is mostly not WGSL can take tree-sitter seconds per MB; valid WGSL
# parses at several MB/s. Beyond this budget the text is refused rather than waited for.
_PARSE_SECONDS_PER_MB = 1.0
_CHUNK = 1 << 16
_EXPLAIN_BYTES = 20_000


def _parse_within(data: bytes, seconds: float):
    """The parse of `data`, or None when it takes longer than `seconds`: the parser reads the text in
    chunks, and past the deadline it is told the text has ended, which ends the parse."""
    deadline = time.perf_counter() + seconds
    late = False

    def read(offset: int, _point) -> bytes:
        nonlocal late
        if late or time.perf_counter() > deadline:
            late = True
            return b""
        return data[offset:offset + _CHUNK]

    tree = ts.Parser(wgsl_language()).parse(read)
    if late or tree is None:
        return None
    return Parsed(SourceText.from_bytes(data), tree)


def token_stream(root: ts.Node, data: bytes) -> list[bytes]:
    """Every token in order, comments included (trailing spaces of their lines aside), with the
    boundaries of template lists, whose `<` and `>` the tree does not hold as tokens."""
    out: list[bytes] = []
    stack: list = [root]
    while stack:
        node = stack.pop()
        if node is None:
            out.append(b">")
            continue
        kind = node.type
        if node.child_count == 0 or kind == "line_comment" or kind == "block_comment":
            text = data[node.start_byte:node.end_byte]
            if kind == "line_comment" or kind == "block_comment":
                text = b"\n".join(line.rstrip() for line in text.replace(b"\r\n", b"\n").split(b"\n"))
            out.append(text)
            continue
        if kind == "template_list":
            out.append(b"<")
            stack.append(None)
        stack.extend(reversed(node.children))
    return out


def _syntax_error(parsed) -> str:
    """The first syntax error, in the linter's words. Wording a message costs repairs and re-parses,
    so only the text up to the first top-level item with an error, and two more, is explained."""
    root, data = parsed.root, parsed.source.data
    end = len(data)
    children = root.children
    for index, child in enumerate(children):
        if child.has_error or child.is_missing or child.type == "ERROR":
            # And the next item: what follows an error often decides how it is worded.
            end = children[min(index + 2, len(children) - 1)].end_byte
            break
    prefix = parsed if end >= len(data) else parse(data[:end])
    # Wording repairs re-parse the text: on a large broken prefix the plain message comes faster.
    explain = len(prefix.source.data) <= _EXPLAIN_BYTES
    first = next((d for d in syntax_diagnostics(prefix, explain=explain) if d.severity == Severity.ERROR), None)
    if first is None:
        return "not formatted: the file has a syntax error (formatting needs a file that parses)"
    where = prefix.source.position(first.span.start)
    return (f"not formatted: line {where.line + 1}, column {where.column + 1}: {first.message} "
            f"({first.code}; formatting needs a file that parses)")
