"""The performance rules find a matrix call's arguments by parameter name, so one kernel written in each
spelling gets the same findings: Tint's template majorness, Tint's deprecated bool majorness (what ggml
ships), the draft standard, and naga's cooperative matrices.

The kernel: tiles of A straight from storage in the K loop of a 4-subgroup workgroup (P002), tiles of B from
a workgroup slice whose f16 rows are 128 bytes apart (P005), one multiply per pair of loaded tiles (P001),
one f16 at a time copied from storage in the loop (P006), that copy waited for at a barrier before the
multiplies with nothing read ahead (P009), and, beside a run, matrix loads and stores on runtime-sized
storage arrays (P007). Each spelling keeps every finding on the same line, so the comparison is line by line.
"""

from __future__ import annotations

import pytest

from coop_lsp.analysis.performance import performance_diagnostics
from coop_lsp.devices.profiles import shipped_profiles
from coop_lsp.lint import lint_source

H100 = shipped_profiles()["nvidia-h100"]

SHAPE = """\
{enables}
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
const LD: u32 = 64u;
var<workgroup> stage: array<f16, 16 * LD>;
@compute @workgroup_size(128) fn main(@builtin(local_invocation_index) lid: u32) {{
  var acc = {zero};
  for (var k = 0u; k < 256u; k += 16u) {{
    stage[lid] = a[k * 256u + lid];
    workgroupBarrier();
    let l = {load_a};
    let r = {load_b};
    acc = {multiply};
    workgroupBarrier();
  }}
  {store};
}}
"""

SPELLINGS = {
    "tint template majorness": dict(
        enables="enable f16;\nenable chromium_experimental_subgroup_matrix;",
        zero="subgroup_matrix_result<f32, 16, 16>()",
        load_a="subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, k, 256u)",
        load_b="subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&stage, 0u, LD)",
        multiply="subgroupMatrixMultiplyAccumulate(l, r, acc)",
        store="subgroupMatrixStore<row_major>(&c, 0u, acc, 16u)"),
    "tint deprecated bool majorness": dict(
        enables="enable f16;\nenable chromium_experimental_subgroup_matrix;",
        zero="subgroup_matrix_result<f32, 16, 16>()",
        load_a="subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&a, k, false, 256u)",
        load_b="subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>>(&stage, 0u, false, LD)",
        multiply="subgroupMatrixMultiplyAccumulate(l, r, acc)",
        store="subgroupMatrixStore(&c, 0u, acc, false, 16u)"),
    "draft standard": dict(
        enables="enable f16;\nenable subgroup_matrix;",
        zero="subgroup_matrix_result<f32, 16, 16>()",
        load_a="subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, k, 256u)",
        load_b="subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&stage, 0u, LD)",
        multiply="subgroupMatrixMultiplyAccumulate(l, r, acc)",
        store="subgroupMatrixStore<row_major>(&c, 0u, acc, 16u)"),
    "naga cooperative matrices": dict(
        enables="enable f16;\nenable wgpu_cooperative_matrix;",
        zero="coop_mat16x16<f32, C>()",
        load_a="coopLoadT<coop_mat16x16<f16, A>>(&a[k], 256u)",
        load_b="coopLoadT<coop_mat16x16<f16, B>>(&stage[0], LD)",
        multiply="coopMultiplyAdd(l, r, acc)",
        store="coopStoreT(acc, &c[0], 16u)"),
}


def kernel(spelling: str) -> str:
    return SHAPE.format(**SPELLINGS[spelling])


def findings(text: str) -> list[tuple[str, int]]:
    result = lint_source(text)
    assert result.model is not None and result.model.matrix_dialects, "the kernel must resolve as a matrix kernel"
    found = performance_diagnostics(result.parsed.root, result.source, result.model, [H100], run=True)
    return sorted((d.code, result.source.position(d.span.start).line) for d in found)


def test_the_reference_spelling_gets_every_finding_the_kernel_was_written_for():
    codes = {code for code, _ in findings(kernel("tint template majorness"))}
    assert codes == {"P001", "P002", "P005", "P006", "P007", "P009"}


@pytest.mark.parametrize("spelling", [s for s in SPELLINGS if s != "tint template majorness"])
def test_every_spelling_gets_the_same_findings_on_the_same_lines(spelling):
    assert findings(kernel(spelling)) == findings(kernel("tint template majorness"))


def test_the_deprecated_form_still_gets_p005_its_stride_is_the_fourth_argument():
    # Before parameters were found by name, P005 read the third argument, the bool, and said nothing.
    text = kernel("tint deprecated bool majorness")
    result = lint_source(text)
    messages = [d.message for d in performance_diagnostics(result.parsed.root, result.source, result.model, [H100])
                if d.code == "P005"]
    assert messages and "128 bytes apart" in messages[0]


def test_a_padded_stride_silences_p005_in_every_spelling():
    for spelling in SPELLINGS:
        padded = kernel(spelling).replace("const LD: u32 = 64u;", "const LD: u32 = 72u;")
        assert "P005" not in {code for code, _ in findings(padded)}, spelling
