"""The body walk's shortcuts against the slow paths they stand for.

- A parameter or local named again is answered by value() and expression() from what its first use kept,
  without _identifier (expressions._FAST_LOCAL_READS off: every read goes through it).

Each is compared on real, generated and mutilated sources with the slow path: every finding (code,
message, range, related places, fixes), every type and reference in the model, and what the alias
analysis and the module-variable uses were told must be the same.
"""

from __future__ import annotations

import random

from benchmarks.common import matrix_heavy_kernel
from coop_lsp.lint import lint_source
from coop_lsp.semantic import expressions
from coop_lsp.semantic.checker import Checker
from coop_lsp.syntax.parser import parse
from tests.support.trees import public_kernels_with_junk
from tests.test_expression_shortcuts import _alias_facts, _outcome, _texts

# Loops with continuing blocks, shadowing, consts, pointers and reads before and after a redeclaration: the
# cases where a kept answer could be stale or a name mean another symbol.
_CASES = [
    """fn f(p: ptr<function, u32>) -> u32 {
  var i = 0u;
  let k = 3u;
  const c = 2u;
  loop {
    let j = i + k + c;
    if j > 10u { break; }
    var i = j;
    i += c;
    continue;
    continuing { let u = i; i = u + 1u; break if i > 4u; }
  }
  *p = i;
  { let k = 1.0; let z = k * 2.0; }
  return i + k + *p;
}
""",
    """var<private> g: array<u32, 4>;
fn h(a: u32) -> u32 {
  var v = vec4<u32>(a);
  v.x = a; v[1] = v.y + a; g[a] = v.z;
  let q = &v;
  (*q).w = a;
  for (var n = 0u; n < a; n++) { v.x += n; let a = n; v.y = a; }
  return v.x + a + g[0];
}
@compute @workgroup_size(1) fn main() { let r = h(1u); _ = r; var r2 = r; r2 = r2 + r; }
""",
    "fn b() { let x = 1u; let x = x + 1u; var y: i32 = x; let w = undefined_name + x; }\n",
]


def _walked(text: str):
    """What the body walk noted besides the model: module-variable uses by function."""
    checker = Checker(parse(text))
    checker.run()
    return sorted((function.name, [(symbol.name, span.start, span.end) for symbol, span in uses])
                  for function, uses in checker.var_uses.items())


def test_local_reads_answered_from_their_first_use_check_as_through_identifier(monkeypatch):
    junk = ["1", "0x7fu", "(2 + g)", ";", "{", "continuing {", " x", "let x = x;"]
    texts = _CASES + _texts() + [text for _, text in public_kernels_with_junk(23, 23, junk, per_file=1)]
    fast = [(_outcome(text), _alias_facts(text), _walked(text)) for text in texts]
    monkeypatch.setattr(expressions, "_FAST_LOCAL_READS", False)
    slow = [(_outcome(text), _alias_facts(text), _walked(text)) for text in texts]
    assert len(texts) > 120
    for text, one, other in zip(texts, fast, slow):
        assert one == other, text[:300]


def test_a_local_read_again_goes_through_identifier_once(monkeypatch):
    """Work count: n lines that read a parameter, a let and a var (as values, as an index's base and as an
    assignment's left side) call _identifier for the first read of each name only, however many lines."""
    calls = []
    identifier = expressions.ExpressionChecker._identifier
    monkeypatch.setattr(expressions.ExpressionChecker, "_identifier",
                        lambda self, node, start, end: calls.append(start) or identifier(self, node, start, end))

    def reads_for(lines: int) -> int:
        body = "".join(f"  let x{i} = a + k * v[k];\n  v[a] = k;\n" for i in range(lines))
        calls.clear()
        result = lint_source(f"fn f(a: u32) {{\n  let k = 2u;\n  var v: array<u32, 4>;\n{body}}}\n")
        assert [d.code for d in result.diagnostics if d.severity.name == "ERROR"] == []
        return len(calls)

    assert reads_for(40) == reads_for(10)


def test_matrix_kernels_read_their_locals_through_the_shortcut(monkeypatch):
    """Work count on the matrix workload's shape: most names read in its bodies skip _identifier."""
    calls = []
    identifier = expressions.ExpressionChecker._identifier
    monkeypatch.setattr(expressions.ExpressionChecker, "_identifier",
                        lambda self, node, start, end: calls.append(start) or identifier(self, node, start, end))
    text = matrix_heavy_kernel(random.Random(7), functions=4)
    model = lint_source(text).model
    reads = sum(1 for key, _ in model.references() if key not in {(s.span.start, s.span.end) for s in model.symbols})
    assert reads > 200
    assert len(calls) < reads * 0.6

