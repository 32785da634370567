"""Document formatting changes only indentation and trailing whitespace, and never what a kernel means."""

from __future__ import annotations

from pathlib import Path

import pytest

from coop_lsp.ide import Analysis
from coop_lsp.ide.formatting import format_document
from coop_lsp.lint import lint_source
from tests.support.spec import load_cases

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.wgsl"))
CASES = [case.source for directory in ("semantic", "uniformity", "syntax")
         for case in load_cases(ROOT / "tests" / "spec" / directory)]

UGLY = """enable f16;
struct S {
a: f32,
      b: u32,   \n}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
let x = foo(1,
            2);
        if (li > 0u) {
    workgroupBarrier();
  }
  else {
  }
      /* a
         comment */
  switch (li) {
  case 0u: {
  }
  default: {}
  }
}
fn foo(a: i32, b: i32) -> i32 { return a + b; }
"""

PRETTY = """enable f16;
struct S {
  a: f32,
  b: u32,
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  let x = foo(1,
              2);
  if (li > 0u) {
    workgroupBarrier();
  }
  else {
  }
  /* a
         comment */
  switch (li) {
    case 0u: {
    }
    default: {}
  }
}
fn foo(a: i32, b: i32) -> i32 { return a + b; }
"""


def formatted(text: str, tab_size: int = 4, insert_spaces: bool = True) -> str:
    analysis = Analysis.of(text)
    data = analysis.data
    out, at = [], 0
    for edit in format_document(analysis, tab_size, insert_spaces):
        out.append(data[at:edit.span.start])
        out.append(edit.new_text.encode())
        at = edit.span.end
    out.append(data[at:])
    return b"".join(out).decode()


def test_indentation_follows_the_braces_and_continuations_keep_their_alignment():
    assert formatted(UGLY, 2) == PRETTY
    assert formatted(PRETTY, 2) == PRETTY  # idempotent
    assert formatted(PRETTY, 4, insert_spaces=False).splitlines()[2] == "\ta: f32,"


def test_the_examples_are_already_formatted():
    for path in EXAMPLES:
        text = path.read_text()
        assert formatted(text, 4) == text, path


def test_documents_with_syntax_errors_or_lone_carriage_returns_are_left_alone():
    assert format_document(Analysis.of("fn main() {\n      let x = ;\n}\n")) == []
    assert format_document(Analysis.of("fn main() {\r      let x = 1;\r}\r")) == []


def test_crlf_line_endings_are_kept():
    assert formatted("fn main() {\r\n      let x = 1;   \r\n}\r\n", 2) == "fn main() {\r\n  let x = 1;\r\n}\r\n"


@pytest.mark.parametrize("tab_size,spaces", [(2, True), (4, True), (4, False)])
def test_formatting_never_changes_a_finding(tab_size: int, spaces: bool):
    """Over every spec case and example: the formatted text has the same findings, in the same order,
    on the same lines (formatting moves columns only) and formatting it again changes nothing."""
    changed = 0
    for text in CASES + [p.read_text() for p in EXAMPLES]:
        result = formatted(text, tab_size, spaces)
        if result == text:
            continue
        changed += 1
        before, after = lint_source(text), lint_source(result)

        def findings(lint, source: str):
            data = source.encode()
            return [(d.code, d.message, data.count(b"\n", 0, d.span.start)) for d in lint.diagnostics]

        assert findings(before, text) == findings(after, result), text
        assert formatted(result, tab_size, spaces) == result
    assert changed > 100  # the spec cases are written with two spaces, the examples with four
