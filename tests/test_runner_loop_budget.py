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
