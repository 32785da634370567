"""benchmarks/typing_cost.py's workload as the tests type it, the repair parses each version costs, and the
error regions whose repairs are searched."""

from __future__ import annotations

from collections.abc import Iterator

from benchmarks import typing_cost
from coop_lsp.core.text import Position
from coop_lsp.syntax import Document, diagnostics as syntax
from coop_lsp.syntax.parser import Parsed


def typed_versions(comment_at_once: bool = False) -> Iterator[Parsed]:
    """Each version of the benchmark's document as the server has it (the incremental tree, a copy): the
    comment typed over the middle loop header one character at a time, then the statement below it.
    `comment_at_once`: the comment goes in as one edit, and only the statement's versions are given."""
    text, middle, line = typing_cost._workload()
    document = Document(text)
    typed = [(middle, typing_cost.COMMENT), (line, typing_cost.STATEMENT)]
    if comment_at_once:
        document.replace_range(Position(middle, 0), Position(middle, 0), typing_cost.COMMENT)
        typed = typed[1:]
    for typed_line, characters in typed:
        for index, char in enumerate(characters):
            document.replace_range(Position(typed_line, index), Position(typed_line, index), char)
            yield Parsed(document.parsed.source, document.tree.copy())


def repair_parses_per_version(versions, counted: list) -> list[int]:
    """How many parses (`counted`, the conftest fixture) the syntax diagnostics of each version make, the
    repair cache empty before the first."""
    syntax._tried.clear()
    syntax._tried_bytes = 0
    per_version = []
    for parsed in versions:
        counted.clear()
        syntax.syntax_diagnostics(parsed)
        per_version.append(len(counted))
    return per_version


def repair_regions(parsed: Parsed):
    """Each error region whose repairs `syntax_diagnostics` searches (ERROR nodes, not MISSING tokens, among the
    first MAX_REPAIRED_ERRORS errors, with a window): its node, window and the window's bytes."""
    for index, node in enumerate(syntax._error_nodes(parsed.root)):
        if index >= syntax.MAX_REPAIRED_ERRORS:
            return
        if node.is_missing:
            continue
        window = syntax._repair_window(parsed, node)
        if window is not None:
            yield node, window, parsed.source.data[window.start : window.end]
