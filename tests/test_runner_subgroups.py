"""The emulation runs kernels that use subgroup operations, at any subgroup size a target allows.

Kernels here are tiny (one or two workgroups, 8 x 8 tiles) so that each run compiles in seconds on
lavapipe. Runs skip, with the reason, where wgpu-native has no adapter.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from coop_lsp.cli.main import main as cli_main
from coop_lsp.runner.description import parse_run_description
from coop_lsp.runner.execute import run_kernel
from coop_lsp.runner.lowering import LoweringError, emulate
from coop_lsp.runner.subgroup_sizes import SubgroupSizeError, run_at_subgroup_sizes, sizes_for_targets

# Sums 32 values per subgroup and has lane 0 write the sum: right only where subgroups have 32 lanes.
ASSUMES_32 = """enable subgroups;
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> sums: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    let total = subgroupAdd(x[lid]);
    if (lid % 32u == 0u) {
        sums[lid / 32u] = total;
    }
}
"""
ASSUMES_32_RUN = """dispatch = [1]
[[binding]]
binding = 0
type = "f32"
size = 64
fill = "random"
[[binding]]
binding = 1
type = "f32"
size = 2
[check]
kind = "expression"
output = "sums"
expected = "[np.sum(x[:32]), np.sum(x[32:])]"
[timing]
repetitions = 1
warmup = 0
"""

# Matrices next to subgroup operations: a multiply, then each lane's sum, neighbour and first value.
MIXED = """enable subgroups;
enable chromium_experimental_subgroup_matrix;
alias L = subgroup_matrix_left<f32, 8, 8>;
alias R = subgroup_matrix_right<f32, 8, 8>;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) size: u32) {
    let l = subgroupMatrixLoad<L, row_major>(&a, 0u, 8u);
    let r = subgroupMatrixLoad<R, row_major>(&b, 0u, 8u);
    subgroupMatrixStore<row_major>(&c, 0u, subgroupMatrixMultiply<f32>(l, r), 8u);
    let mine = a[lane];
    let sum = subgroupAdd(mine);
    let next = subgroupShuffle(mine, (lane + 1u) % size);
    let first = subgroupBroadcastFirst(mine);
    let most = subgroupMax(mine);
    c[64u + lane] = sum + 2.0 * next + 3.0 * first + 5.0 * most;
}
"""
MIXED_RUN = """dispatch = [1]
[[binding]]
binding = 0
type = "f32"
size = 64
fill = "random"
seed = 1
[[binding]]
binding = 1
type = "f32"
size = 64
fill = "random"
seed = 2
[[binding]]
binding = 2
type = "f32"
size = 96
[check]
kind = "expression"
output = "c"
expected = "np.concatenate([(a.reshape(8, 8) @ b.reshape(8, 8)).ravel(), np.sum(a[:32]) + 2 * a[np.arange(1, 33) % 32] + 3 * a[0] + 5 * np.max(a[:32])])"
rtol = 1e-5
atol = 1e-5
[timing]
repetitions = 1
warmup = 0
"""


def _kernel(tmp_path: Path, text: str, run: str) -> Path:
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(text)
    (tmp_path / "k.run.toml").write_text(run)
    return kernel


def test_naga_unimplemented_directive_is_dropped_with_a_note():
    lowered = emulate(MIXED)
    code = "\n".join(line.split("//")[0] for line in lowered.text.splitlines())
    assert "enable subgroups" not in code
    assert any("'enable subgroups;' dropped" in note for note in lowered.notes)
    # Emulated: the builtins become helpers that exchange values through workgroup memory.
    for name in ("subgroupAdd(", "subgroupShuffle(", "subgroupBroadcastFirst(", "subgroupMax("):
        assert name not in code, name
    assert any("emulated through workgroup memory" in note for note in lowered.notes)


def test_statement_diagnostic_filters_are_dropped_for_naga(naga):
    # Tint's authors put uniformity filters on statements; naga 29 parses them on functions only.
    text = MIXED.replace("    c[64u + lane] = sum", "    @diagnostic(off, chromium.subgroup_matrix_uniformity) {\n"
                         "    c[64u + lane] = sum").replace("5.0 * most;\n}", "5.0 * most;\n    }\n}")
    text = text.replace("@compute @workgroup_size(32)", "@diagnostic(off, derivative_uniformity)\n"
                        "@compute @workgroup_size(32)")
    lowered = emulate(text)
    assert "@diagnostic(off, chromium" not in lowered.text
    assert "@diagnostic(off, derivative_uniformity)" in lowered.text  # on the function: naga keeps it
    assert any("'@diagnostic' on statements dropped" in note for note in lowered.notes)
    result = naga.validate(lowered.text)
    assert result.accepted, [m.message for m in result.errors]


def test_subgroup_operations_are_kept_where_the_adapter_has_the_emulated_size():
    lowered = emulate(MIXED, 8, native_subgroup_size=8)
    assert "subgroupAdd(mine)" in lowered.text and "subgroupShuffle(mine" in lowered.text
    assert any("adapter's own subgroups (8 lanes)" in note for note in lowered.notes)


def test_naga_accepts_emulated_subgroup_operations(naga):
    for size in (8, 16, 32):
        result = naga.validate(emulate(MIXED, size).text)
        assert result.accepted, (size, [m.message for m in result.errors])


def test_subgroup_size_that_cannot_be_emulated_is_named():
    with pytest.raises(LoweringError, match="subgroup size 48 cannot be emulated"):
        emulate(MIXED, 48)
    # 64 invocations are not a whole number of 128-lane subgroups... but one partial one is fine;
    # 96 invocations in 64-lane subgroups are not.
    partial = MIXED.replace("@workgroup_size(32)", "@workgroup_size(96)")
    with pytest.raises(LoweringError, match="subgroup size 64 cannot be emulated: a workgroup of 96"):
        emulate(partial, 64)


def test_target_subgroup_sizes():
    assert sizes_for_targets(["amd-rdna3"]) == [32, 64]
    assert sizes_for_targets(["nvidia-h100"]) == [32]
    assert 16 in sizes_for_targets(["intel-arc"])
    with pytest.raises(SubgroupSizeError, match="unknown target 'nope'"):
        sizes_for_targets(["nope"])


def test_subgroup_operations_next_to_matrices_match_numpy(adapter, tmp_path):
    report = run_kernel(_kernel(tmp_path, MIXED, MIXED_RUN), parse_run_description(MIXED_RUN), backend="emulate")
    assert report.status == "correct", report.render()
    assert any("'enable subgroups;' dropped" in n for n in report.notes)
    assert any("emulated through workgroup memory" in n for n in report.notes)


def test_lavapipe_subgroups_run_the_kept_operations(adapter, tmp_path):
    text = MIXED.replace("@workgroup_size(32)", "@workgroup_size(8)")
    run = MIXED_RUN.replace("np.sum(a[:32]) + 2 * a[np.arange(1, 33) % 32] + 3 * a[0] + 5 * np.max(a[:32])",
                            "np.sum(a[:8]) + 2 * a[np.arange(1, 9) % 8] + 3 * a[0] + 5 * np.max(a[:8])") \
                   .replace("size = 96", "size = 72")
    description = parse_run_description(run)
    description.subgroup_size = 8
    report = run_kernel(_kernel(tmp_path, text, run), description, backend="emulate")
    assert report.status == "correct", report.render()
    if "llvmpipe" in report.adapter:
        assert any("adapter's own subgroups (8 lanes)" in n for n in report.notes)


def test_kernel_assuming_32_lanes_fails_at_16_and_the_report_says_why(adapter, tmp_path):
    kernel = _kernel(tmp_path, ASSUMES_32, ASSUMES_32_RUN)
    comparison = run_at_subgroup_sizes(kernel, parse_run_description(ASSUMES_32_RUN), [16, 32])
    assert comparison.reports[32].status == "correct", comparison.reports[32].render()
    assert comparison.reports[16].status == "incorrect"
    assert comparison.failing == [16] and not comparison.ok
    why = comparison.explanation()
    assert "16 lanes: INCORRECT" in why and "correct at 32 lanes" in why and "assumes 32 lanes" in why
    assert "line 8: `if (lid % 32u == 0u) {`" in why and "line 9: `sums[lid / 32u] = total;`" in why


def test_cli_subgroup_sizes(adapter, tmp_path, capsys):
    kernel = _kernel(tmp_path, ASSUMES_32, ASSUMES_32_RUN)
    assert cli_main(["run", str(kernel), "--backend", "emulate", "--targets", "amd-rdna3"]) == 1
    out = capsys.readouterr().out
    assert "64 lanes: INCORRECT" in out and "correct at 32 lanes" in out


def test_cli_refuses_a_subgroup_size_it_cannot_emulate(tmp_path, capsys):
    kernel = _kernel(tmp_path, ASSUMES_32, ASSUMES_32_RUN)
    assert cli_main(["run", str(kernel), "--subgroup-sizes", "32,48"]) == 2
    err = capsys.readouterr().err
    assert "subgroup size 48 cannot be emulated" in err
