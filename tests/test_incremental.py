"""Incremental re-parsing after any edits: a tree without errors is exactly the tree a fresh parse gives, and
a tree with errors, which may differ from it (tree-sitter's error recovery can start from a reused subtree:
issues #1444, #1645), is never linted as it is unless the caller asks for a provisional analysis."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from coop_lsp.core.text import Position, Span
from coop_lsp.ide import Analysis
from coop_lsp.syntax import Document, parse
from coop_lsp.syntax.parser import Parsed

KERNEL = (Path(__file__).resolve().parent.parent / "examples" / "chromium" / "gemm_naive.wgsl").read_text()
FRAGMENTS = ["{", "}", "(", ")", ";", "<", ">", "<f16, 16, 16>", "let x = 1", "/*", "*/", "//", "\n",
             "fn g() {}", "é", "🙂", " ", "loop {", "&&", "a < b", "0x1p4f", "subgroupMatrixLoad<"]


def _tree_text(tree) -> str:
    return str(tree.root_node)


def _is_continuation_byte(data: bytes, offset: int) -> bool:
    return 0 < offset < len(data) and (data[offset] & 0xC0) == 0x80


def _char_start(data: bytes, offset: int) -> int:
    """Moves back to the start of the character that contains `offset`."""
    while _is_continuation_byte(data, offset):
        offset -= 1
    return offset


def _char_end(data: bytes, offset: int) -> int:
    """Moves forward to the next character boundary."""
    while _is_continuation_byte(data, offset):
        offset += 1
    return offset


edits = st.lists(
    st.tuples(st.floats(0, 1), st.integers(0, 12), st.sampled_from(FRAGMENTS)),
    min_size=1, max_size=12,
)


@settings(max_examples=150, deadline=None)
@given(edits)
def test_incremental_equals_fresh_parse(edit_list):
    document = Document(KERNEL)
    for where, length, inserted in edit_list:
        data = document.source.data
        start = _char_start(data, int(where * len(data)))
        end = _char_end(data, min(start + length, len(data)))
        document.replace(Span(start, end), inserted)
        fresh = parse(document.text)
        assert document.text == fresh.source.text
        if not document.tree.root_node.has_error:
            assert _tree_text(document.tree) == _tree_text(fresh.tree)


# Found by Hypothesis: a `>` typed after `i < a` in a loop condition, once the file has an unmatched `{` at its
# start; the fresh parse reads a template list, the incremental one keeps the reused comparison.
RECOVERED_DIFFERENTLY = [(0.7734375, 2, "}"), (0.0, 0, "{"), (0.7734375, 0, ">")]


def _edited(edit_list) -> Document:
    document = Document(KERNEL)
    for where, length, inserted in edit_list:
        data = document.source.data
        start = _char_start(data, int(where * len(data)))
        document.replace(Span(start, _char_end(data, min(start + length, len(data)))), inserted)
    return document


def test_a_tree_with_errors_may_differ_from_a_fresh_parse():
    document = _edited(RECOVERED_DIFFERENTLY)
    assert document.tree.root_node.has_error
    assert _tree_text(document.tree) != _tree_text(parse(document.text).tree)


def test_an_analysis_of_an_incremental_tree_with_errors_is_a_fresh_parses():
    document = _edited(RECOVERED_DIFFERENTLY)
    fresh = Analysis.of_parsed(parse(document.text), fresh=True)
    incremental = Analysis.of_parsed(Parsed(document.source, document.tree.copy()))
    assert incremental.diagnostics == fresh.diagnostics
    provisional = Analysis.of_parsed(Parsed(document.source, document.tree.copy()), provisional=True)
    assert provisional.provisional and provisional.agrees_with_fresh_parse() is False


def test_edit_by_utf16_positions_like_an_editor():
    document = Document("fn f() {\n  let s = 1; // 🙂 é\n}\n")
    # Replace "1" (line 1, UTF-16 column 10) with "2".
    document.replace_range(Position(1, 10), Position(1, 11), "2", version=2)
    assert document.text == "fn f() {\n  let s = 2; // 🙂 é\n}\n"
    assert document.version == 2
    # Insert after the emoji: it is two UTF-16 units wide.
    document.replace_range(Position(1, 18), Position(1, 18), "!")
    assert document.text == "fn f() {\n  let s = 2; // 🙂! é\n}\n"


def test_edit_outside_the_document_is_refused():
    document = Document("fn f() {}")
    try:
        document.replace(Span(5, 100), "x")
    except ValueError as error:
        assert "outside the document" in str(error)
    else:
        raise AssertionError("an edit past the end must be refused")
    assert document.text == "fn f() {}"
