"""What tree-sitter's parser itself says about a parse: its log, read for the state it was in at an offset."""

from __future__ import annotations

import re

import tree_sitter as ts

from coop_lsp.syntax.parser import wgsl_language


def logged_state(data: bytes, at: int) -> tuple[int, int] | None:
    """(stack versions, state) when the parser is about to read what follows `at`, from its own log: the first
    'process' line at the end of what precedes `at` (whitespace is not shifted, so it is where the last token or
    comment ends)."""
    end = at
    while end > 0 and data[end - 1 : end] in (b" ", b"\t", b"\n", b"\r"):
        end -= 1
    row, column = data.count(b"\n", 0, end), end - (data.rfind(b"\n", 0, end) + 1)
    found: list[tuple[int, int]] = []

    def log(_kind, message: str) -> None:
        seen = re.match(r"process version:\d+, version_count:(\d+), state:(\d+), row:(\d+), col:(\d+)", message)
        if seen and not found and (int(seen[3]), int(seen[4])) == (row, column):
            found.append((int(seen[1]), int(seen[2])))

    parser = ts.Parser(wgsl_language())
    parser.logger = log
    parser.parse(data)
    return found[0] if found else None
