"""The body walk's shortcuts against the slow paths they stand for.

- A templated type argument (`subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, ...>`) resolved in one
  module is kept for the next ones, the next version of an edited body among them
  (expressions._SHARE_TEMPLATED_TYPES off: kept per module only).
- A local's templated declared type (`var acc: array<subgroup_matrix_result<f32, 8, 8>, 2>`) is kept as a
  templated type argument is (expressions._KEEP_DECLARED_TYPES off: resolved at each declaration).

Each is compared on real, generated and mutilated sources with the slow path: every finding (code,
message, range, related places, fixes), every type and reference in the model, and what the alias
analysis was told must be the same.
"""

from __future__ import annotations

import random

from benchmarks.common import matrix_heavy_kernel
from coop_lsp.lint import Reuse, lint_source
from coop_lsp.semantic import expressions, typenames
from tests.test_expression_shortcuts import _alias_facts, _outcome, _texts

_MATRIX_HEADERS = [
    "enable chromium_experimental_subgroup_matrix;\n",
    "enable subgroup_matrix;\n",
    "enable f16;\nenable chromium_experimental_subgroup_matrix;\n",
    "",  # the enable missing: said once per module
    "enable wgpu_cooperative_matrix;\n",  # the other family: every use an error
]
_MATRIX_BODIES = [
    """var<workgroup> a: array<f32, 256>;
@compute @workgroup_size(32) fn k() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&a, 0u, 8u);
  let n = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&a, 64u, 8u);
  _ = subgroupMatrixMultiply<f32>(m, subgroupMatrixLoad<subgroup_matrix_right<f32, 8, 8>, col_major>(&a, 0u, 8u));
}
""",
    """var<workgroup> h: array<f16, 256>;
const E = 8;
fn g() -> subgroup_matrix_result<f16, 8, 8> {
  let q = subgroupMatrixLoad<subgroup_matrix_left<f16, E, 8>, row_major>(&h, 0u, 8u);
  let r = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>, row_major>(&h, 0u, 4u);
  let c: coop_mat8x8<f16, A> = coopLoad<coop_mat8x8<f16, A>>(&h[0]);
  return subgroupMatrixLoad<subgroup_matrix_result<f16, 8, 8>, row_major>(&h, 0u, 8u);
}
@compute @workgroup_size(32) fn main() { _ = g(); }
""",
    """var<workgroup> a: array<f32, 256>;
fn d(p: ptr<function, array<subgroup_matrix_result<f32, 8, 8>, 2>>) {
  var acc: array<subgroup_matrix_result<f32, 8, 8>, 2>;
  var acc2: array<subgroup_matrix_result<f32, 8, 8>, 2>;
  let v: vec4<f32> = vec4<f32>(1.0);
  var w: vec4<f32>;
  let q: ptr<function, array<subgroup_matrix_result<f32, 8, 8>, 2>> = &acc;
  var bad: array<subgroup_matrix_result<f32, 8, 0>, 2>;
  var worse: array<f32, -1>;
  var named: array<subgroup_matrix_result<f32, N, 8>, 2>;
  const N = 8;
  var shadowed: array<subgroup_matrix_result<f32, N, 8>, 2>;
  acc = *q; acc2 = acc; *p = acc2; w = v;
}
""",
    """var<workgroup> a: array<f32, 256>;
alias f32 = u32;
@compute @workgroup_size(32) fn k() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&a, 0u, 8u);
  let subgroup_matrix_left = 1;
}
""",
]


def _matrix_texts() -> list[str]:
    texts = [header + body for header in _MATRIX_HEADERS for body in _MATRIX_BODIES]
    texts += [matrix_heavy_kernel(random.Random(200 + seed), functions=2) for seed in range(3)]
    rng = random.Random(29)
    for _ in range(40):
        text = rng.choice(texts)
        at = rng.randrange(len(text) + 1)
        texts.append(text[:at] + rng.choice(["", "<", ">", ",", "8", "f16", "u8", ";", "let x ="]) + text[at + rng.randint(0, 4):])
    return texts


def _typing_outcomes(text: str, statement: str) -> list:
    """Each version's outcome as `statement` is typed a character at a time at the start of a body's
    first line, linted with one Reuse as an editor's versions are."""
    at = text.index("{\n", text.index("fn ")) + 2
    reuse = Reuse()
    outcomes = [_outcome_with(text, reuse)]
    for length in range(1, len(statement) + 1):
        outcomes.append(_outcome_with(text[:at] + statement[:length] + text[at:], reuse))
    return outcomes


def _outcome_with(text: str, reuse: Reuse):
    result = lint_source(text, reuse=reuse)
    return [(d.code, d.span.start, d.span.end, d.message, [(r.span.start, r.message) for r in d.related],
             [(f.title, [(e.span.start, e.new_text) for e in f.edits]) for f in d.fixes]) for d in result.diagnostics], \
        sorted((key, repr(value)) for key, value in result.model.expression_types())


def test_templated_types_kept_across_modules_check_as_per_module_ones(monkeypatch):
    texts = _matrix_texts() + _texts()
    # (each text checked after all the others: what is kept comes from every module before it)
    fast = [(_outcome(text), _alias_facts(text)) for text in texts + texts][len(texts):]
    statement = "let t = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&a, 0u, 8u); "
    typed_fast = [_typing_outcomes(text, statement) for text in _matrix_texts()[:15]]
    assert expressions._SHARED_TEMPLATED_TYPES
    monkeypatch.setattr(expressions, "_SHARE_TEMPLATED_TYPES", False)
    monkeypatch.setattr(expressions, "_KEEP_DECLARED_TYPES", False)
    monkeypatch.setattr(expressions, "_SHARED_TEMPLATED_TYPES", {})
    slow = [(_outcome(text), _alias_facts(text)) for text in texts]
    for text, one, other in zip(texts, fast, slow):
        assert one == other, text[:300]
    typed_slow = [_typing_outcomes(text, statement) for text in _matrix_texts()[:15]]
    assert typed_fast == typed_slow


def test_an_edited_body_resolves_its_matrix_template_arguments_once_per_process(monkeypatch):
    """Work count: versions of an edited body after the first resolve none of the matrix types written as
    template arguments again (each version used to resolve each anew: its module's first use)."""
    resolved = []
    subgroup_matrix = typenames.TypeResolver._subgroup_matrix
    monkeypatch.setattr(typenames.TypeResolver, "_subgroup_matrix",
                        lambda self, name_node, *rest: resolved.append(self.ctx.text(name_node))
                        or subgroup_matrix(self, name_node, *rest))
    text = _MATRIX_HEADERS[0] + _MATRIX_BODIES[0]
    reuse = Reuse()
    lint_source(text, reuse=reuse)
    resolved.clear()
    for count in range(3, 8):
        result = lint_source(text.replace("0u, 8u", f"0u, {count}u"), reuse=reuse)
        assert "T009" in [d.code for d in result.diagnostics]  # (a short stride: the body was checked again)
    assert resolved == []


def test_a_local_templated_type_is_resolved_once_per_module(monkeypatch):
    """Work count: n functions that declare the same templated matrix array resolve its matrix type once
    (each declaration resolved it)."""
    resolved = []
    subgroup_matrix = typenames.TypeResolver._subgroup_matrix
    monkeypatch.setattr(typenames.TypeResolver, "_subgroup_matrix",
                        lambda self, name_node, *rest: resolved.append(self.ctx.text(name_node))
                        or subgroup_matrix(self, name_node, *rest))
    monkeypatch.setattr(expressions, "_SHARED_TEMPLATED_TYPES", {})

    def resolutions(functions: int) -> int:
        text = _MATRIX_HEADERS[0] + "".join(
            f"fn f{i}() {{\n  var acc: array<subgroup_matrix_result<f32, 8, 8>, 2>;\n  acc[1] = acc[0];\n}}\n"
            for i in range(functions))
        resolved.clear()
        result = lint_source(text)
        assert [d.code for d in result.diagnostics if d.severity.name == "ERROR"] == []
        return len(resolved)

    assert resolutions(12) == resolutions(3) == 1
