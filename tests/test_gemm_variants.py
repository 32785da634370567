"""The kernels benchmarks.gemm_structure_sweep derives from gemm_pipelined.wgsl: every edit still applies to
the example, gives a kernel with no error, and the two designs compute the right product (emulated on
lavapipe, small sizes, like tests/test_runner_run.py)."""

from __future__ import annotations

import pytest

from benchmarks.gemm_variants import EDITS, EXAMPLE, derive, is_diagnostic
from coop_lsp.lint.engine import lint_source
from coop_lsp.runner.execute import run_kernel

from .test_runner_run import small

ALL = [[name] for name in EDITS] + [["spare:8"], ["ring", "no_barriers"]]


@pytest.mark.parametrize("edits", ALL, ids=["+".join(e) for e in ALL])
def test_every_edit_applies_and_leaves_no_error(edits):
    text = derive(edits)
    assert text != EXAMPLE.read_text()
    errors = [d for d in lint_source(text, targets=("nvidia-h100",)).diagnostics if d.severity == "error"]
    assert not errors, errors


def test_an_edit_whose_text_is_gone_fails_loudly():
    example = EXAMPLE.read_text().replace("workgroupBarrier();", "workgroupBarrier( );")
    with pytest.raises(ValueError, match="workgroupBarrier"):
        derive(["no_barriers"], example)
    with pytest.raises(ValueError, match="B_LD"):
        derive(["b_transposed"], example.replace("const B_LD", "const B_ROW"))


def test_diagnostics_are_told_apart_from_designs():
    assert is_diagnostic(["ring", "no_barriers"]) and is_diagnostic(["spare:4"])
    assert not is_diagnostic(["ring"]) and not is_diagnostic(["b_transposed"])


DESIGNS = [
    (["b_transposed"], {"BK": 32, "DEPTH": 1, "BUFFERS": 1}),
    (["ring"], {"BK": 16, "DEPTH": 2, "BUFFERS": 2}),
    (["ring"], {"BK": 16, "DEPTH": 4, "BUFFERS": 3}),
]


@pytest.mark.parametrize("edits, knobs", DESIGNS, ids=["b_transposed", "ring2", "ring3"])
def test_designs_compute_the_product(adapter, tmp_path, edits, knobs):
    kernel = tmp_path / "variant.wgsl"
    kernel.write_text(derive(edits))
    description = small("gemm_pipelined", 64, 64, 128,
                        **{"BM": 32, "BN": 64, "TILES_N": 2, "TILE": 8, "GROUP": 2, **knobs})
    report = run_kernel(kernel, description, backend="emulate")
    assert report.status == "correct", report.render()
