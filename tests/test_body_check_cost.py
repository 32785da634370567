"""What checking a function body costs per statement: work the checker does for each local declaration.

An edited function is checked afresh on every version (a body with a syntax error is never replayed), so
its per-statement costs are paid on every keystroke. These cases count the objects and walks behind a
local declaration and pin the findings that depend on them.
"""

from __future__ import annotations

import pytest

from coop_lsp.lint import lint_source
from coop_lsp.semantic import checker, expressions, model
from coop_lsp.semantic import types as t
from tests.support.trees import counted_instances


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


# ---------------------------------------------------------------- per expression
MATRIX_HEADER = """enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<f32, 256>;
"""


def _loads(count: int) -> str:
    lines = [f"  let m{i} = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&tile, {i}u, 8u);"
             for i in range(count)]
    return MATRIX_HEADER + "@compute @workgroup_size(64)\nfn main() {\n" + "\n".join(lines) + "\n}\n"


def test_a_matrix_type_argument_is_resolved_once_per_text(monkeypatch):
    """Each load names the same matrix type: resolved once for the module (main resolved it per call)."""
    resolved = []
    original = checker.Checker._subgroup_matrix

    def counted(self, *args):
        resolved.append(args[1])
        return original(self, *args)

    monkeypatch.setattr(checker.Checker, "_subgroup_matrix", counted)
    # (nothing kept from the modules checked before: those kept for every module are test_body_shortcuts')
    monkeypatch.setattr(expressions, "_SHARED_TEMPLATED_TYPES", {})
    result = lint_source(_loads(6))
    assert [d.code for d in result.diagnostics if d.severity.name == "ERROR"] == []
    assert resolved == ["subgroup_matrix_left"]


def test_a_kept_matrix_type_adds_what_a_fresh_one_would():
    """Every use still has its literals' types in the model, and a type name shadowed after the first use
    is resolved afresh there (reported as a fresh check reports it)."""
    source = _loads(3)
    result = lint_source(source)
    at = source.index("<f32, 8, 8>", source.index("m2 ="))
    eight = at + len("<f32, ")
    assert result.model.type_at(eight, eight + 1, "int_literal") == t.ABSTRACT_INT
    shadowed = source.replace("  let m2", "  const f32 = 1.0;\n  let m2")
    found = [(d.code, shadowed[d.span.start:d.span.end]) for d in lint_source(shadowed).diagnostics
             if d.code.startswith("T0") and d.severity.name == "ERROR"]
    assert found == [("T003", "f32")]
    assert lint_source(shadowed).diagnostics[0].span.start > shadowed.index("const f32")


def test_a_name_is_typed_once_per_declaration(monkeypatch):
    """A let used n more times costs no Typed per use (nor per run-time binary result it joins)."""
    made = counted_instances(monkeypatch, expressions.Typed)

    def typed_for(uses: int) -> int:
        made.clear()
        result = lint_source("fn f(p: u32) -> u32 { let a = p; var b = a; return " + " + ".join(["a", "b"] * uses)
                             + "; }")
        assert [d.code for d in result.diagnostics] == []
        return len(made)

    # Four more uses of each of a and b: eight more binary results, all run-time u32 values sharing one
    # Typed (made with the operator's memo entry), and nothing made per name. The first lint fills the
    # memos for itself: run alone, this test would count that fill as a use's cost.
    typed_for(1)
    assert typed_for(8) - typed_for(4) == 0
