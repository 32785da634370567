"""lint/engine's statement around a syntax error, found by kind id, against the node.type names it replaced."""

from __future__ import annotations

import random
from pathlib import Path

from coop_lsp.core.text import Span
from coop_lsp.lint.engine import _enclosing_statement
from coop_lsp.syntax.parser import parse

EXAMPLES = sorted(Path(__file__).resolve().parent.parent.joinpath("examples").rglob("*.wgsl"))


def _by_type(parsed, span: Span) -> Span | None:
    """The walk as it read kinds before: by each node's type string."""
    start = span.start - 1 if span.start == span.end and span.start > 0 else span.start
    target = parsed.root.descendant_for_byte_range(start, max(start, span.end))
    innermost, node = None, parsed.root
    while target is not None and node is not None and node != target:
        node = node.child_with_descendant(target)
        if node is None:
            break
        kind = node.type
        if kind.endswith(("_statement", "_declaration")) and kind not in (
                "compound_statement", "function_declaration", "struct_declaration"):
            innermost = node
    return Span(innermost.start_byte, innermost.end_byte) if innermost is not None else None


def test_enclosing_statement_matches_the_type_names_on_broken_texts() -> None:
    chooser = random.Random(19)
    compared = found = 0
    for path in EXAMPLES:
        data = path.read_bytes()
        for _ in range(6):
            cut = chooser.randrange(len(data))
            broken = data[:cut] + data[cut + chooser.randrange(1, 8):]
            parsed = parse(broken)
            for _ in range(25):
                start = chooser.randrange(len(broken))
                span = Span(start, min(len(broken), start + chooser.randrange(0, 4)))
                statement = _enclosing_statement(parsed, span)
                assert statement == _by_type(parsed, span)
                compared += 1
                found += statement is not None
    assert compared >= 1000 and found >= compared // 4  # (most places lie in a statement)
