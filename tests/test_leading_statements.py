"""Typing inside a function checks it from the edited statement on: the statements before the edit, in the
body and in the blocks around the edit, are replayed from the last version's check (semantic/leading.py),
and every version's findings, model and editor answers are those of a check without any reuse of the same
tree.

The work is counted in calls of Checker.statement on statements (comments apart): a statement that ends
before the edit and lies outside the statements holding it is not checked again once the function was
checked at the last version.
"""

from __future__ import annotations

import random
from pathlib import Path

from benchmarks.common import matrix_library_kernel
from benchmarks.matrix_kernels import matrix_kernel_file
from coop_lsp.core.text import Position, Span
from coop_lsp.ide import Analysis
from coop_lsp.ide.completion import completion
from coop_lsp.ide.hover import hover
from coop_lsp.ide.navigation import definition, highlights
from coop_lsp.ide.presentation import inlay_hints, semantic_tokens
from coop_lsp.lint import Reuse
from coop_lsp.semantic.checker import Checker
from coop_lsp.syntax import Document
from coop_lsp.syntax.parser import Parsed
from tests.test_lint_reuse import lookups_agree, model_facts

ROOT = Path(__file__).resolve().parent.parent
_COMMENTS = ("line_comment", "block_comment")
# Typed a character at a time at a statement's start: unfinished text, then a statement that parses; the
# second names a local declared before it, the third a module-scope name, the fourth opens a block.
PIECES = ["let q = 1u; ", "_ = q + 1; ", "x = b[0]; ", "if (true) { let r = 2; } "]


def _kernels() -> list[tuple[str, str]]:
    texts = [(str(p.relative_to(ROOT)), p.read_text()) for p in sorted((ROOT / "examples").rglob("*.wgsl"))]
    texts.append(("matrix_kernel_file", matrix_kernel_file(random.Random(7), kernels=2)))
    texts.append(("matrix_library_kernel", matrix_library_kernel(random.Random(5), functions=3)))
    return texts


def _statement_starts(root) -> list[int]:
    """The start of every statement in a block, at every depth, in source order."""
    starts, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.type == "compound_statement":
            starts.extend(c.start_byte for c in node.named_children if c.type not in _COMMENTS)
        stack.extend(node.named_children)
    return sorted(set(starts))


class _Counted:
    """The statement nodes Checker.statement is called on while `active`."""

    def __init__(self, monkeypatch) -> None:
        self.active, self.nodes = False, []
        checked = Checker.statement

        def counting(checker, node):
            if self.active and node.type not in _COMMENTS:
                self.nodes.append(node)
            return checked(checker, node)

        monkeypatch.setattr(Checker, "statement", counting)

    def analyse(self, parsed: Parsed, reuse: Reuse) -> Analysis:
        self.active, self.nodes = True, []
        try:
            return Analysis.of_parsed(parsed, reuse=reuse, provisional=True)
        finally:
            self.active = False


def _editor_answers(analysis: Analysis, offsets: list[int], span: Span, whole: bool) -> list:
    answers = [repr(semantic_tokens(analysis)), repr(inlay_hints(analysis))] if whole else []
    for offset in offsets:
        answers += [repr(hover(analysis, offset)), repr(definition(analysis, offset)),
                    repr(highlights(analysis, offset))]
    answers.append(repr(completion(analysis, span.end)))
    return answers


def _same_as_without_reuse(document: Document, reuse: Reuse, counted: _Counted, at: int,
                           whole: bool = True) -> tuple[int, int]:
    """This version with `reuse` against the same tree without (`whole`: the editor's answers about the whole
    document too): the statements of the function holding `at` checked with reuse and without."""
    holder = document.tree.root_node.descendant_for_byte_range(at, at)
    while holder is not None and holder.type != "function_declaration":
        holder = holder.parent
    low, high = (holder.start_byte, holder.end_byte) if holder is not None else (at, at)

    def inside() -> int:
        return sum(low <= node.start_byte < high for node in counted.nodes)

    analysis = counted.analyse(Parsed(document.source, document.tree.copy()), reuse)
    with_reuse = inside()
    plain = counted.analyse(Parsed(document.source, document.tree.copy()), None)
    assert analysis.result.diagnostics == plain.result.diagnostics, document.text
    assert model_facts(analysis.result.model) == model_facts(plain.result.model), document.text
    lookups_agree(analysis.result.model)
    data = document.source.data
    offsets = sorted({max(0, at - 1), at} | {data.find(b"(", at) + 1, data.rfind(b"let ", 0, at) + 4})
    span = Span(at, at)
    assert _editor_answers(analysis, offsets, span, whole) == _editor_answers(plain, offsets, span, whole), \
        document.text
    return with_reuse, inside()


def test_typing_at_every_statement_of_real_kernels_equals_a_check_without_reuse(monkeypatch) -> None:
    counted = _Counted(monkeypatch)
    rng = random.Random(24)
    fewer = versions = 0
    for name, text in _kernels():
        starts = _statement_starts(Document(text).tree.root_node)
        assert starts, name
        # Statement positions spread evenly over the kernel (every one of a small kernel).
        for at in starts[::len(starts) // 8 + 1]:
            document, reuse = Document(text), Reuse()
            Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse, fresh=True)
            piece = rng.choice(PIECES)
            for index, char in enumerate(piece):
                document.replace(Span(at + index, at + index), char)
                checked, plain = _same_as_without_reuse(document, reuse, counted, at + index + 1,
                                                        index == len(piece) - 1)
                versions += 1
                fewer += checked < plain
            document.replace(Span(at, at + len(piece)), "")  # and taken out again, at once
            _same_as_without_reuse(document, reuse, counted, at)
    assert versions > 300, versions
    # Where the edit has statements before it in its function, fewer of them are checked than a check without
    # reuse checks.
    assert fewer > versions // 2, (fewer, versions)


def _holds(node, point: int) -> bool:
    return node.start_byte <= point < node.end_byte


def test_a_keystroke_checks_no_statement_before_the_edit(monkeypatch) -> None:
    """The typing benchmark's edit (a loop header commented out, then a statement typed below it, deep in
    nested loops): after the first keystroke in the function, no statement that ends before the edit is
    checked again, except those inside a statement holding the edit (a `for`'s initializer and update).
    (One that ends where the keystroke goes may be the one it completes: checked, as it was broken.)"""
    from benchmarks.typing_cost import COMMENT, STATEMENT, _workload
    counted = _Counted(monkeypatch)
    text, middle, code_line = _workload()
    document, reuse = Document(text), Reuse()
    Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse, fresh=True)
    per_version = []
    for line, typed in ((middle, COMMENT), (code_line, STATEMENT)):
        for index, char in enumerate(typed):
            document.replace_range(Position(line, index), Position(line, index), char)
            counted.analyse(Parsed(document.source, document.tree.copy()), reuse)
            if line == middle and index == 0:
                continue  # the first version this function is edited in: checked whole
            point = document.source.offset(Position(line, index))
            before = []
            for node in counted.nodes:
                if node.end_byte >= point:
                    continue
                holder = node.parent
                while holder is not None and not _holds(holder, point):
                    holder = holder.parent
                if holder is None or holder.type in ("compound_statement", "function_declaration", "source_file"):
                    before.append(document.source.data[node.start_byte:node.end_byte].decode())
            assert before == [], (line, index, before)
            per_version.append(len(counted.nodes))
    # The function holds 34 statements that a check without reuse walks at each version.
    assert max(per_version) <= 16, per_version


# What a body's statements leave for the rest of its check: shadowed names, pointer lets handed to a call that
# aliasing looks at, a matrix in a vertex shader (said once per function), `loop` and continuing blocks (their
# frames are left alone), `@diagnostic` on a statement (said once per module, from a walk of the whole body), a
# declaration without type or initializer, and a module variable used and written.
STATE = """\
enable chromium_experimental_subgroup_matrix;
enable f16;
var<private> g: f32;
var<workgroup> tile: array<f16, 256>;
fn touch(p: ptr<function, f32>, q: ptr<private, f32>) { *p = *q; }
@vertex fn vs() -> @builtin(position) vec4<f32> {
  var m: subgroup_matrix_left<f16, 8, 8>;
  let a = 1.0;
  var v = a;
  let pv = &v;
  touch(pv, &g);
  var n: subgroup_matrix_left<f16, 8, 8>;
  return vec4<f32>(v);
}
@compute @workgroup_size(64) fn cs(@builtin(local_invocation_index) lid: u32) {
  var x = 0u;
  let shadow = x;
  {
    let shadow = 2u;
    x += shadow;
    var w;
    g = 2.0;
  }
  loop {
    let inner = x;
    if (inner > 4u) { break; }
    continue;
    continuing {
      let late = inner;
      x++;
      break if x > 8u;
    }
  }
  for (var i = 0u; i < 4u; i++) {
    let y = tile[i];
    @diagnostic(off, derivative_uniformity) if (lid == 0u) { workgroupBarrier(); }
    switch i { case 0u: { g = 1.0; } default: {} }
  }
  var unused: f32;
  _ = g + f32(shadow);
}
"""


def test_typing_where_statements_leave_state_behind_equals_a_check_without_reuse(monkeypatch) -> None:
    counted = _Counted(monkeypatch)
    starts = _statement_starts(Document(STATE).tree.root_node)
    pieces = PIECES + ["let shadow = 3u; ", "var w; ", "@diagnostic(off, derivative_uniformity) {} "]
    fewer = 0
    for number, at in enumerate(starts):
        # Two pieces at each place, in turn: each piece at a third of the places.
        for piece in (pieces[number % len(pieces)], pieces[(number + 3) % len(pieces)]):
            document, reuse = Document(STATE), Reuse()
            Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse, fresh=True)
            for index, char in enumerate(piece):
                document.replace(Span(at + index, at + index), char)
                checked, plain = _same_as_without_reuse(document, reuse, counted, at + index + 1,
                                                        index == len(piece) - 1)
                fewer += checked < plain
            document.replace(Span(at, at + len(piece)), "")
            _same_as_without_reuse(document, reuse, counted, at)
    assert fewer > 0
