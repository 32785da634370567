"""benchmarks/typing_cost.py's workload as the tests type it, the repair parses each version costs, and the
error regions whose repairs are searched."""

from __future__ import annotations

import random
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


def statements_typed(text: str, rng: random.Random, pieces: list[str], statements: int,
                     comment_out: float | None) -> Iterator[Parsed]:
    """The incremental trees (copies, as the server has them) of `statements` of `pieces` typed one character at
    a time at the starts of statement lines of `text`, after, with `comment_out`, a loop or `if` header commented
    out at its start (the rest of its function often falls to module scope): always where it is 1.0 and there is
    a header, else with that chance."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith("  ") and line.rstrip().endswith(";")]
    headers = [i for i, line in enumerate(lines) if line.lstrip().startswith(("for ", "if ", "loop"))]
    document = Document(text)
    if comment_out is not None and headers and (comment_out >= 1.0 or rng.random() < comment_out):
        line = rng.choice(headers)
        document.replace_range(Position(line, 0), Position(line, 0), "// ")
        yield Parsed(document.parsed.source, document.tree.copy())
    for _ in range(statements if starts else 0):
        line = rng.choice(starts)
        statement = rng.choice(pieces)
        for index, char in enumerate(statement):
            document.replace_range(Position(line, index), Position(line, index), char)
            yield Parsed(document.parsed.source, document.tree.copy())
