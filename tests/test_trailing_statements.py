"""Typing inside a function replays the check of the statements after the edit too, where what they read did not
change (semantic/trailing.py): every version's findings (in their raw order), model and editor answers are
those of a check without any reuse of the same tree, and the statements after the edit are not checked again.
"""

from __future__ import annotations

import random
import re

from benchmarks.typing_cost import COMMENT, STATEMENT, _workload
from coop_lsp.core.text import Position, Span
from coop_lsp.ide import Analysis
from coop_lsp.lint import Reuse
from coop_lsp.syntax import Document
from coop_lsp.syntax.parser import Parsed
from tests.test_leading_statements import (PIECES, STATE, _Counted, _holds, _kernels, _same_as_without_reuse,
                                           _statement_starts)

# Names the statements after the edit read, shadowed, redeclared, retyped and used: the module variable `a`
# (a local `a` hides it), `k` (a nested block shadows it), `m` and `p` (declared after the edit), and the first
# read and write of the module variables that aliasing keeps (where `work` is called with a pointer to one, the
# finding points at them).
NAMES = """\
enable chromium_experimental_subgroup_matrix;
enable f16;
var<private> g: f32;
var<private> a: f32;
fn helper(p: ptr<function, f32>) -> f32 { return *p; }
fn both(p: ptr<function, f32>, q: ptr<private, f32>) { *p = *q; }
fn work(q: ptr<private, f32>) {
  let base = 1.0;
  *q = base;
  g = a + base;
  _ = a;
}
fn caller() {
  work(&a);
  work(&g);
}
@compute @workgroup_size(64) fn cs(@builtin(local_invocation_index) lid: u32) {
  var v = 1.0;
  let k = 2u;
  let m = v + 1.0;
  let p = &v;
  _ = helper(p);
  {
    let k = 3i;
    _ = k + 1;
  }
  g = a + m;
  both(p, &g);
  for (var i = 0u; i < k; i++) {
    v += f32(i);
    let q = &v;
    *q = m;
  }
  _ = k;
  return;
}
@vertex fn vs() -> @builtin(position) vec4<f32> {
  let scale = 2.0;
  var first: subgroup_matrix_left<f16, 8, 8>;
  var second: subgroup_matrix_left<f16, 8, 8>;
  return vec4<f32>(scale);
}
"""
# Pieces typed that the statements after them read: a declaration of a later name (redeclared in the same block,
# shadowed in a nested one), a local hiding a module variable, uses of a later name before its declaration, a
# first read and a first write of module variables, a matrix in a vertex shader said before the one after it.
NAME_PIECES = ["let m = 1u; ", "let a = 1i; ", "_ = m; ", "_ = a; ", "g = 3.0; ", "let p = 1.0; ",
               "var third: subgroup_matrix_left<f16, 8, 8>; ", "let scale = 1u; ", "let unused_y = 1.0; "]
# Declarations before the edit retyped a character at a time: the statements after read the new type.
RETYPED = [("let k = 2u;", "let k = 2.0;"), ("var v = 1.0;", "var v = 1i;"), ("let scale = 2.0;", "let scale = 2u;")]


def _later_name(text: str, at: int) -> str | None:
    found = re.compile(r"\b(?:let|var|const) (\w+)").search(text, at)
    return found.group(1) if found else None


def _typed(document: Document, reuse: Reuse, counted: _Counted, at: int, piece: str) -> None:
    for index, char in enumerate(piece):
        document.replace(Span(at + index, at + index), char)
        _same_as_without_reuse(document, reuse, counted, at + index + 1, index == len(piece) - 1)
    document.replace(Span(at, at + len(piece)), "")  # and taken out again, at once
    _same_as_without_reuse(document, reuse, counted, at)


def _fresh(text: str) -> tuple[Document, Reuse]:
    document, reuse = Document(text), Reuse()
    Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse, fresh=True)
    return document, reuse


def test_typing_before_statements_that_read_real_kernels_equals_a_check_without_reuse(monkeypatch) -> None:
    counted = _Counted(monkeypatch)
    rng = random.Random(25)
    versions = 0
    for name, text in _kernels():
        starts = _statement_starts(Document(text).tree.root_node)
        for at in starts[::len(starts) // 6 + 1]:
            later = _later_name(text, at)
            # A name the statements after the edit declare or read, typed before them; or one of the plain pieces.
            pieces = PIECES + ([f"let {later} = 1.0; ", f"_ = {later}; "] if later else [])
            piece = rng.choice(pieces)
            document, reuse = _fresh(text)
            _typed(document, reuse, counted, at, piece)
            versions += len(piece) + 1
    assert versions > 300, versions


def test_typing_names_the_later_statements_read_equals_a_check_without_reuse(monkeypatch) -> None:
    counted = _Counted(monkeypatch)
    for module in (NAMES, STATE):
        starts = _statement_starts(Document(module).tree.root_node)
        for number, at in enumerate(starts):
            for piece in (NAME_PIECES[number % len(NAME_PIECES)], NAME_PIECES[(number + 4) % len(NAME_PIECES)]):
                document, reuse = _fresh(module)
                _typed(document, reuse, counted, at, piece)


def test_retyping_a_declaration_the_later_statements_read_equals_a_check_without_reuse(monkeypatch) -> None:
    counted = _Counted(monkeypatch)
    for old, new in RETYPED:
        document, reuse = _fresh(NAMES)
        at = document.text.index(old)
        # The old initializer's tail deleted a character at a time, then the new one typed.
        common = next(i for i, (x, y) in enumerate(zip(old, new)) if x != y)
        for end in range(len(old) - 1, common - 1, -1):
            document.replace(Span(at + end, at + end + 1), "")
            _same_as_without_reuse(document, reuse, counted, at + end)
        for index, char in enumerate(new[common:]):
            document.replace(Span(at + common + index, at + common + index), char)
            _same_as_without_reuse(document, reuse, counted, at + common + index + 1)


def test_a_keystroke_checks_few_statements_after_the_edit(monkeypatch) -> None:
    """The typing benchmark's statement, typed below a commented-out loop header: the statements after it (the
    matrix loads, multiplies and stores of the loops below, in the blocks around the edit) are replayed, not
    checked, at most keystrokes; they are checked where the keystroke changes what they read (the statement
    being typed swallows the next one's `let` while it does not parse, so `left` comes and goes)."""
    counted = _Counted(monkeypatch)
    text, middle, code_line = _workload()
    document, reuse = _fresh(text)
    for index, char in enumerate(COMMENT):
        document.replace_range(Position(middle, index), Position(middle, index), char)
        counted.analyse(Parsed(document.source, document.tree.copy()), reuse)
    after, per_version = [], []
    for index, char in enumerate(STATEMENT):
        document.replace_range(Position(code_line, index), Position(code_line, index), char)
        counted.analyse(Parsed(document.source, document.tree.copy()), reuse)
        point = document.source.offset(Position(code_line, index + 1))
        line_end = document.source.offset(Position(code_line + 1, 0))
        later = []
        for node in counted.nodes:
            if node.start_byte < line_end:
                continue
            holder = node.parent
            while holder is not None and not _holds(holder, point):
                holder = holder.parent
            if holder is None or holder.type in ("compound_statement", "function_declaration", "source_file"):
                later.append(node)
        after.append(len(later))
        per_version.append(len(counted.nodes))
    # Without reuse after the edit, every version checks the five statements below the line.
    assert sum(count == 0 for count in after) > len(after) * 2 // 3, after
    assert sum(per_version) <= 9 * len(per_version), per_version


# A constant declared after the function that reads it: the statements after the edit resolve it first.
LATE = """\
fn early() -> f32 {
  var v = 1.0;
  let w = v * LATE;
  return w;
}
const LATE = 2.0;
"""


def test_a_declaration_resolved_first_after_the_edit_is_validated_before_the_replay(monkeypatch) -> None:
    """One version types in the body and retypes the constant its last statements resolve first: they read the
    new type (a check without reuse finds `f32 * u32` wrong), not the one the last version recorded."""
    counted = _Counted(monkeypatch)
    document, reuse = _fresh(LATE)
    at = document.text.index("  let w")
    piece = "_ = v; "
    for index, char in enumerate(piece[:-1]):
        document.replace(Span(at + index, at + index), char)
        _same_as_without_reuse(document, reuse, counted, at + index + 1)
    constant = document.text.index("2.0;")
    document.replace(Span(constant, constant + 3), "2u")
    document.replace(Span(at + len(piece) - 1, at + len(piece) - 1), piece[-1])
    _same_as_without_reuse(document, reuse, counted, at + len(piece))
    analysis = counted.analyse(Parsed(document.source, document.tree.copy()), reuse)
    assert [d.code for d in analysis.result.diagnostics] == ["T004"], analysis.result.diagnostics


# Without a dialect's enable, naga may compile the module: a `const_assert` whose condition starts with '(' and
# goes on after it gets a portability note, said once per module, here by the first one.
SAID = """\
fn f() {
  const_assert (3 < 4) && true;
  let x = 1;
  const_assert (1 < 2) && true;
  _ = x;
}
"""


def test_statements_after_the_edit_say_once_what_is_no_longer_said_before_them(monkeypatch) -> None:
    """The literal of `let x` typed on (the second `const_assert` and the statement after it replayed), then, in
    one version, a digit more and the first `const_assert` taken out: the second one says the note now."""
    counted = _Counted(monkeypatch)
    document, reuse = _fresh(SAID)
    at = document.text.index("1;")
    for index, digit in enumerate("23"):
        document.replace(Span(at + 1 + index, at + 1 + index), digit)
        _same_as_without_reuse(document, reuse, counted, at + 2 + index)
    document.replace(Span(at + 3, at + 3), "4")
    first = document.text.index("  const_assert (3")
    document.replace(Span(first, document.text.index("\n", first) + 1), "")
    _same_as_without_reuse(document, reuse, counted, first)
    analysis = counted.analyse(Parsed(document.source, document.tree.copy()), reuse)
    assert [d.code for d in analysis.result.diagnostics] == ["T013"], analysis.result.diagnostics
