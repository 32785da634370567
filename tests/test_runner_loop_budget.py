"""The whole-matrix fallback of the emulation stays within lavapipe's loop budget.

llvmpipe (lavapipe) counts the iterations of all loops of a shader together and, past 65,535 per
invocation, ends every loop after its first iteration without any error. The fallback for matrix calls in
control flow that is not uniform across the workgroup (lane 0 holds whole matrices) used to loop once per
element in loads and stores and once per multiply-add in multiplies (about 4,900 iterations per 16 x 16 x
16 step), so a kernel with a dozen K steps silently stored garbage: ggml's mul_mat_subgroup_matrix at
128^3 and Dawn's tiled matmul test at TileDim 3 and 4 were wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from coop_lsp.runner.execute import run_kernel
from coop_lsp.runner.lowering import emulate

FIXTURES = Path(__file__).parent / "fixtures" / "runner"


def test_twenty_k_steps_in_nonuniform_control_flow_are_emulated_correctly(adapter):
    report = run_kernel(FIXTURES / "long_k_nonuniform.wgsl", FIXTURES / "long_k_nonuniform.run.toml",
                        backend="emulate")
    assert any("each invocation holds whole" in note for note in report.notes), report.notes
    assert report.status == "correct", report.render()
    assert report.checks[0].max_abs_error < 1e-4


@pytest.mark.tint
def test_the_kernel_is_one_tint_accepts_and_so_is_its_fallback_emulation(tint):
    text = (FIXTURES / "long_k_nonuniform.wgsl").read_text()
    assert tint.compile(text).accepted
    lowered = emulate(text)
    assert "if (coop_emu_lane != 0u)" in lowered.text  # the whole-matrix fallback
    result = tint.compile(lowered.text)
    assert result.accepted, [(m.line, m.message) for m in result.messages]


SPENDS_THE_BUDGET = """enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lane: u32) {
    let m = subgroupMatrixLoad<subgroup_matrix_result<f32, 16, 16>, row_major>(&a, 0u, 16u);
    subgroupMatrixStore<row_major>(&c, 0u, m, 16u);
    var n = 0u;
    for (var i = 0u; i < 70000u; i++) { n += 1u; }
    if (lane == 0u) { c[256] = f32(n); }
    if (n == 0u) { return; }
}
"""
SPENDS_THE_BUDGET_RUN = """dispatch = [1]
[[binding]]
binding = 0
type = "f32"
size = 256
fill = "random"
[[binding]]
binding = 1
type = "f32"
size = 257
[check]
kind = "expression"
output = "c"
expected = "np.concatenate([a, [70000.0]])"
[timing]
warmup = 0
repetitions = 1
"""


def test_a_run_that_spends_lavapipes_loop_budget_says_so(adapter, tmp_path):
    if "llvmpipe" not in adapter:
        pytest.skip("the loop budget is lavapipe's")
    kernel = tmp_path / "spends.wgsl"
    kernel.write_text(SPENDS_THE_BUDGET)
    (tmp_path / "spends.run.toml").write_text(SPENDS_THE_BUDGET_RUN)
    report = run_kernel(kernel, backend="emulate")
    assert report.status == "incorrect", report.render()
    assert report.checks[0].worst_index == [256] and report.checks[0].worst_value == 65535.0
    assert any("lavapipe's loop budget ran out" in note for note in report.notes), report.notes


def test_a_run_within_the_budget_has_no_such_note(adapter):
    report = run_kernel(FIXTURES / "long_k_nonuniform.wgsl", FIXTURES / "long_k_nonuniform.run.toml",
                        backend="emulate")
    assert not any("loop budget" in note for note in report.notes), report.notes
