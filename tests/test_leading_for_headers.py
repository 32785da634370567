"""The header of a `for` statement whose body holds the edit (initializer, condition, update) is replayed from the
last version's check of it (semantic/leading.py), and every version's findings, model and editor answers are
those of a check without reuse of the same tree.
"""

from __future__ import annotations

from benchmarks.typing_cost import COMMENT, STATEMENT, _workload
from coop_lsp.core.text import Position, Span
from coop_lsp.syntax import Document
from coop_lsp.syntax.parser import Parsed
from tests.test_leading_statements import PIECES, _Counted, _holds, _same_as_without_reuse, _statement_starts
from tests.test_trailing_statements import _fresh, _typed

# Headers that declare (with and without an initializer), shadow, assign a module variable, read one in the
# condition, point at a local, and one whose initializer names what the body then redeclares.
HEADERS = """\
var<private> count: u32;
var<workgroup> tile: array<f32, 64>;
fn fill(p: ptr<function, u32>) { *p = 1u; }
@compute @workgroup_size(64) fn cs(@builtin(local_invocation_index) lid: u32) {
  var total = 0u;
  for (var i = lid; i < 64u; i += 64u) {
    tile[i] = f32(i);
    for (var j: u32; j < count; j++) {
      total += j;
    }
  }
  for (count = 0u; count < 4u; count++) {
    let i = count;
    total += i;
  }
  for (let p = &total; *p < 8u; fill(p)) {
    let p = 2u;
    total += p;
  }
  for (; total < 100u;) {
    total *= 2u;
  }
}
"""
HEADER_PIECES = PIECES + ["let i = 1.0; ", "count = 2u; ", "var j = 3i; ", "let total = 1u; "]


def test_typing_in_loops_with_every_kind_of_header_equals_a_check_without_reuse(monkeypatch) -> None:
    counted = _Counted(monkeypatch)
    for number, at in enumerate(_statement_starts(Document(HEADERS).tree.root_node)):
        for piece in (HEADER_PIECES[number % len(HEADER_PIECES)], HEADER_PIECES[(number + 3) % len(HEADER_PIECES)]):
            document, reuse = _fresh(HEADERS)
            _typed(document, reuse, counted, at, piece)


def test_a_keystroke_checks_no_header_of_the_loops_around_it(monkeypatch) -> None:
    """The typing benchmark's statement, typed deep in nested `for` loops: once the function was checked with an
    edit in those loops, the loops' initializers and updates are not checked again."""
    counted = _Counted(monkeypatch)
    text, middle, code_line = _workload()
    document, reuse = _fresh(text)
    for index, char in enumerate(COMMENT):
        document.replace_range(Position(middle, index), Position(middle, index), char)
        counted.analyse(Parsed(document.source, document.tree.copy()), reuse)
    headers = []
    for index, char in enumerate(STATEMENT):
        document.replace_range(Position(code_line, index), Position(code_line, index), char)
        counted.analyse(Parsed(document.source, document.tree.copy()), reuse)
        point = document.source.offset(Position(code_line, index))
        for node in counted.nodes:
            parent = node.parent
            if parent is not None and parent.type == "for_statement" and _holds(parent, point) \
                    and node.end_byte <= point:
                headers.append(document.source.data[node.start_byte:node.end_byte].decode())
    assert headers == [], headers


def test_a_header_retyped_in_the_version_that_types_in_its_body_is_checked_again(monkeypatch) -> None:
    """One version types in the loop's body and retypes its initializer: the header's check is the new one."""
    counted = _Counted(monkeypatch)
    document, reuse = _fresh(HEADERS)
    at = document.text.index("    tile[i]")
    for index, char in enumerate("_ = 1"):
        document.replace(Span(at + index, at + index), char)
        _same_as_without_reuse(document, reuse, counted, at + index + 1)
    initializer = document.text.index("var i = lid") + len("var i = ")
    document.replace(Span(at + 5, at + 5), ";")
    document.replace(Span(initializer, initializer + 3), "1.0")
    _same_as_without_reuse(document, reuse, counted, at + 6)
    analysis = counted.analyse(Parsed(document.source, document.tree.copy()), reuse)
    assert analysis.result.diagnostics, "a float loop counter added to a u32"
