"""The accumulation check (T050) looks again only at the functions whose text or body check changed; the
others' findings are moved from the last version, and the result is a fresh lint's (Editor.change
compares the diagnostics)."""

from __future__ import annotations

from tests.test_edit_cost import Editor

HEADER = """enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f16>;
"""
FUNCTION = """
fn gemm_N(base: u32) {
  var acc: array<subgroup_matrix_result<f16, 16, 16>, 2>;
  for (var k = 0u; k < 64u; k += 16u) {
    let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, base + k, 16u);
    let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, base + k, 16u);
    acc[0] = subgroupMatrixMultiplyAccumulate(l, r, acc[0]);
  }
  subgroupMatrixStore<row_major>(&c, base, acc[0], 16u);
}
"""
FUNCTIONS = 5
MODULE = HEADER + "".join(FUNCTION.replace("gemm_N", f"gemm_{i}") for i in range(FUNCTIONS)) + """
@compute @workgroup_size(32)
fn main() {
""" + "".join(f"  gemm_{i}({i}u * 256u);\n" for i in range(FUNCTIONS)) + "}\n"


def t050(result) -> list:
    return [d for d in result.diagnostics if d.code == "T050"]


def test_an_edit_in_one_function_looks_at_that_function_only() -> None:
    editor = Editor(MODULE)
    assert editor.reuse.accumulation.computed == FUNCTIONS
    # gemm_1 grows by a line: the functions after it move, and so do their findings.
    changed = MODULE.replace("fn gemm_1(base: u32) {\n", "fn gemm_1(base: u32) {\n  let unused = 1u;\n", 1)
    result = editor.change(changed)
    assert len(t050(result)) == FUNCTIONS
    assert editor.reuse.accumulation.computed == 1
    assert editor.reuse.accumulation.reused == FUNCTIONS - 1
    assert "2 result tiles" in t050(result)[3].message


def test_a_changed_tile_type_changes_the_finding() -> None:
    editor = Editor(MODULE)
    # Accumulating in f32 in gemm_2 only: its finding goes, the others stay where they were.
    start = MODULE.index("fn gemm_2(")
    end = MODULE.index("fn gemm_3(")
    changed = MODULE[:start] + MODULE[start:end].replace(
        "array<subgroup_matrix_result<f16, 16, 16>, 2>", "array<subgroup_matrix_result<f32, 16, 16>, 2>") + MODULE[end:]
    result = editor.change(changed)
    assert editor.reuse.accumulation.computed == 1
    assert len(t050(result)) == FUNCTIONS - 1
    assert not any(changed.index("fn gemm_2(") <= len(changed.encode()[:d.span.start].decode()) < changed.index(
        "fn gemm_3(") for d in t050(result))
    result = editor.change(MODULE)
    assert len(t050(result)) == FUNCTIONS
