"""The roofline measures a run against the matrix peak of the configuration the kernel multiplies with,
not the element type of the check's `a` binding (issue 32: ggml reads f32 activations, converts them to
f16 in the kernel and multiplies f16 matrices; the report said no profile had peak figures for it).

The timing step runs for real on a recorded GPU time: the kernel is loaded and linted as a run does, the
bindings come from its run description, and only the GPU's answer (one dispatch of 1 ms) is given."""

from __future__ import annotations

import pytest

from coop_lsp.devices.profiles import shipped_profiles
from coop_lsp.runner.description import parse_run_description
from coop_lsp.runner.execute import RunReport, _inputs, _timing
from coop_lsp.runner.kernel import load_kernel

H100 = shipped_profiles()["nvidia-h100"]

# a: f32 in memory, converted to f16 before the multiply (as ggml does with src1).
F32_FEEDS_F16 = """\
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
var<workgroup> a_half: array<f16, 256>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  for (var i = lid; i < 256u; i += 32u) {
    a_half[i] = f16(a[i]);
  }
  workgroupBarrier();
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a_half, 0u, 16u);
  let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&b, 0u, 16u);
  let acc = subgroupMatrixMultiply<f32>(l, r);
  subgroupMatrixStore<row_major>(&c, 0u, acc, 16u);
}
"""

DESCRIPTION = """\
dispatch = [1]
flops = "2 * 16 * 16 * 16 * 1000000"
[sizes]
M = 16
N = 16
K = 16
[[binding]]
binding = 0
type = "f32"
size = "M * K"
fill = "random"
[[binding]]
binding = 1
type = "f16"
size = "K * N"
fill = "random"
[[binding]]
binding = 2
type = "f32"
size = "M * N"
[check]
kind = "gemm"
"""


def timed(text: str, adapter: str = H100.title) -> RunReport:
    module = load_kernel(text)
    description = parse_run_description(DESCRIPTION)
    _, bindings = _inputs(description, module)
    report = RunReport(kernel="k.wgsl", adapter=adapter, status="correct")
    report.lint = module.result
    _timing(report, {"gpu_ms": [1.0]}, description, bindings)
    return report


def test_an_f32_check_a_feeding_an_f16_multiply_is_measured_against_the_f16_peak():
    report = timed(F32_FEEDS_F16)
    assert report.peak_profile == "nvidia-h100"
    assert report.peak_fraction == pytest.approx(report.tflops / H100.peak_tflops["f16"])
    text = report.render()
    assert "peaks from the nvidia-h100 profile; f16 matrix peak: the kernel multiplies f16 matrices into f32" in text
    assert "no device profile" not in text and "roofline (nvidia-h100)" in text


def test_a_multiply_in_a_type_the_profile_has_no_peak_for_says_so_instead_of_blaming_the_adapter():
    f32_multiply = (F32_FEEDS_F16.replace("subgroup_matrix_left<f16", "subgroup_matrix_left<f32")
                    .replace("subgroup_matrix_right<f16, 16, 16>, row_major>(&b", "subgroup_matrix_right<f32, 16, 16>"
                             ", row_major>(&c")
                    .replace("array<f16, 256>", "array<f32, 256>").replace("f16(a[i])", "a[i]"))
    report = timed(f32_multiply)
    assert report.peak_fraction is None
    assert "the nvidia-h100 profile has no matrix peak for f32 multiplies" in report.render()


def test_an_adapter_no_profile_names_still_says_so():
    report = timed(F32_FEEDS_F16, adapter="llvmpipe (LLVM 17.0.6, 256 bits)")
    assert report.peak_profile == "" and report.peak_fraction is None
