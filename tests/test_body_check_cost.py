"""What checking a function body costs per statement: work the checker does for each local declaration.

An edited function is checked afresh on every version (a body with a syntax error is never replayed), so
its per-statement costs are paid on every keystroke. These cases count the objects and walks behind a
local declaration and pin the findings that depend on them.
"""

from __future__ import annotations

import pytest

from coop_lsp.lint import lint_source
from coop_lsp.semantic import checker, model
from coop_lsp.semantic import types as t


@pytest.fixture
def counted_symbols(monkeypatch):
    """Counts the Symbols the checker makes."""
    made = []

    class Counted(model.Symbol):
        def __init__(self, *args, **kwargs) -> None:
            made.append(args[0] if args else kwargs.get("name"))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(checker, "Symbol", Counted)
    return made


BODY = """
fn f(p: u32) -> u32 {
  let a = p * 2u;
  var b = a + 1u;
  const c = 3u;
  for (var i = 0u; i < 4u; i++) {
    let d = a + b + c + i;
    b += d;
  }
  return b;
}
"""


def test_a_local_declaration_makes_one_symbol(counted_symbols):
    result = lint_source(BODY)
    assert [d.code for d in result.diagnostics] == []
    locals_made = [name for name in counted_symbols if name in ("a", "b", "c", "i", "d")]
    # Each of the five locals is one symbol: made before its initializer is checked, declared after it.
    assert sorted(locals_made) == ["a", "b", "c", "d", "i"]


def test_the_declared_local_is_the_checked_one():
    result = lint_source(BODY)
    symbols = {s.name: s for s in result.model.symbols if s.kind in ("let", "var", "const")}
    assert symbols["a"].type == t.U32 and symbols["b"].space == "function" and symbols["c"].value == 3
    # Its span is its name's, as a symbol declared at module scope has.
    assert BODY[symbols["d"].span.start:symbols["d"].span.end] == "d"


@pytest.mark.parametrize(("source", "code", "where"), [
    # Redeclared: reported at the second name, the first one the note's place; the second is not declared.
    ("fn f() { let a = 1; let a = 2; _ = a; }", "T002", "a = 2"),
    # Not in scope in its own initializer.
    ("fn f() { let a = a; }", "T001", "a;"),
    # A var in another address space than 'function': checked on the one symbol too.
    ("fn f() { var<private> v: f32; }", "T003", "var<private>"),
])
def test_local_declaration_findings(source, code, where):
    result = lint_source(source)
    assert code in [d.code for d in result.diagnostics], result.diagnostics
    found = next(d for d in result.diagnostics if d.code == code)
    assert source[found.span.start:].startswith(where)


def test_flat_function_variables_are_not_walked(monkeypatch):
    """A scalar, vector or matrix in function memory can break none of _check_var_type's rules."""
    walks = []
    original = t.contains

    def counted(value_type, predicate):
        walks.append(predicate.__qualname__)
        return original(value_type, predicate)

    monkeypatch.setattr(t, "contains", counted)
    lint_source("fn f() { var a = 1u; var b = vec2f(); var c: mat2x2f; _ = a; _ = b; _ = c; }")
    assert [w for w in walks if "_check_var_type" in w or "_naga_matrices" in w] == []
    # The walks that stay still run: storage rules for a type that holds others.
    walks.clear()
    result = lint_source("fn f() { var a: array<atomic<u32>, 2>; _ = &a; }")
    assert "T003" in [d.code for d in result.diagnostics]
    assert any("_check_var_type" in w for w in walks)
