"""The emulation lowering (and the translation to Tint's dialect) produce WGSL the compilers accept."""

from __future__ import annotations

from pathlib import Path

import pytest

from coop_lsp.runner.kernel import KernelError
from coop_lsp.runner.lowering import emulate, to_tint

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
MATRIX_KERNELS = sorted(p for d in ("chromium", "standard", "wgpu") for p in (EXAMPLES / d).glob("*.wgsl"))
IDS = [f"{p.parent.name}/{p.name}" for p in MATRIX_KERNELS]

MATRIX_WORDS = ("subgroup_matrix", "subgroupMatrix", "coop_mat", "coopLoad", "coopStore", "coopMultiplyAdd",
                "@builtin(subgroup_id)", "@builtin(num_subgroups)")


def _code(text: str) -> str:
    return "\n".join(line.split("//")[0] for line in text.splitlines())


@pytest.mark.parametrize("path", MATRIX_KERNELS, ids=IDS)
def test_emulation_leaves_no_matrix_construct(path):
    lowered = emulate(path.read_text())
    code = _code(lowered.text)
    for word in MATRIX_WORDS:
        assert word not in code, word
    assert "enable subgroup_matrix" not in code and "wgpu_cooperative_matrix" not in code


@pytest.mark.tint
@pytest.mark.parametrize("path", MATRIX_KERNELS, ids=IDS)
def test_tint_accepts_the_emulation(tint, path):
    result = tint.compile(emulate(path.read_text()).text)
    assert result.accepted, [(m.line, m.message) for m in result.messages]
    assert not result.warnings, [(m.line, m.message) for m in result.warnings]


@pytest.mark.tint
@pytest.mark.parametrize("path", MATRIX_KERNELS, ids=IDS)
def test_tint_accepts_the_translation_to_its_dialect(tint, path):
    lowered = to_tint(path.read_text())
    result = tint.compile(lowered.text)
    assert result.accepted, [(m.line, m.message) for m in result.messages]
    if path.parent.name == "wgpu":
        assert "subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, " in lowered.text
        assert lowered.notes and "translated from the wgpu dialect" in lowered.notes[0]


@pytest.mark.parametrize("path", MATRIX_KERNELS, ids=IDS)
def test_naga_accepts_the_emulation(naga, path):
    result = naga.validate(emulate(path.read_text()).text)
    assert result.accepted, [m.message for m in result.errors]


def test_subgroup_builtins_become_values():
    text = (EXAMPLES / "chromium" / "gemm_naive.wgsl").read_text()
    lowered = emulate(text, subgroup_size=16)
    assert "@builtin(local_invocation_index) coop_emu_lid: u32" in lowered.text
    assert "let sg: u32 = u32(coop_emu_lid / 16u);" in lowered.text
    assert "subgroup size 16" in lowered.notes[0]


def test_unsupported_pointer_is_a_clear_error():
    text = """enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
fn load(p: ptr<storage, array<f16>, read>) -> subgroup_matrix_left<f16, 16, 16> {
    return subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(p, 0u, 16u);
}
@compute @workgroup_size(32) fn main() { _ = load(&a); }
"""
    with pytest.raises(KernelError, match="line 5: .*'&variable' only"):
        emulate(text)


def test_kernel_with_errors_is_refused():
    with pytest.raises(KernelError, match="error"):
        emulate("fn main( {")


def test_helper_returning_a_matrix_stays_a_call():
    # A user function whose result is a matrix is not a constructor: lowering it as one
    # filled every tile with the offset it was given, and the run came out wrong.
    text = """enable f16;
enable chromium_experimental_subgroup_matrix;
alias Tile = subgroup_matrix_left<f16, 16, 16>;
@group(0) @binding(0) var<storage, read_write> a: array<f16>;
fn load_tile(at: u32) -> Tile {
    return subgroupMatrixLoad<Tile, row_major>(&a, at, 16u);
}
@compute @workgroup_size(32) fn main() {
    let loaded = load_tile(16u);
    let filled = Tile(2.0h);
    subgroupMatrixStore(&a, 0u, loaded, false, 16u);
    subgroupMatrixStore(&a, 256u, filled, false, 16u);
}
"""
    code = _code(emulate(text).text)
    assert "load_tile(16u)" in code
    assert code.count("coop_emu_splat") == 2  # the helper's definition and the one constructor

