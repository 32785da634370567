"""End-to-end runs on wgpu-native: the emulated example kernels on lavapipe (CI's CPU Vulkan adapter)
against NumPy, and the runner's failure paths (hang, bad binding, compile error).

Skips, with the reason, when wgpu-native or an adapter is missing. Sizes are tiny: lavapipe runs the
emulation at a few MFLOP/s.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from coop_lsp.cli.main import main as cli_main
from coop_lsp.runner.description import parse_run_description
from coop_lsp.runner.execute import run_kernel

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def small(run: str, m: int, n: int, k: int, **tiles: int):
    path = EXAMPLES / "runs" / f"{run}.run.toml"
    text = path.read_text()
    text = re.sub(r"(?m)^M = \d+\nN = \d+\nK = \d+$", f"M = {m}\nN = {n}\nK = {k}", text)
    text = re.sub(r"(?m)^warmup = \d+$", "warmup = 0", text)
    text = re.sub(r"(?m)^repetitions = \d+$", "repetitions = 1", text)
    description = parse_run_description(text, path, size_values=tiles)
    description.timeout_s = 180
    return description


CASES = [
    ("chromium/gemm_naive", "gemm_naive", (32, 32, 32)),
    ("chromium/gemm_int8", "gemm_int8", (32, 32, 32)),
    ("standard/gemm_naive", "gemm_naive", (32, 32, 32)),
    ("wgpu/gemm_naive", "wgpu_gemm_naive", (32, 32, 32)),
    ("wgpu/gemm_blocked", "gemm_naive", (32, 32, 32)),
    ("chromium/gemm_blocked", "gemm_blocked", (64, 64, 32)),
    ("standard/gemm_blocked", "gemm_blocked", (64, 64, 32)),
    # vec4<u32> workgroup memory: offsets and strides in 16-byte elements, f16 read from words
    ("chromium/gemm_tiled", "gemm_tiled", (64, 64, 32, {"BM": 64, "BN": 64, "WM": 32, "WN": 32})),
    # 8 x 8 tiles: two block-rows of two blocks also exercise the grouped launch order.
    ("chromium/gemm_tiled_4x4", "gemm_tiled_4x4", (64, 64, 16, {"BM": 32, "BN": 32, "TILE": 8})),
    # Its real 16 x 16 tiles on a 128 x 128 block, 4 subgroups of 4 x 4 accumulators: with every matrix
    # whole in every invocation this took lavapipe over 400 s; distributed over the lanes, seconds.
    ("chromium/gemm_tiled_4x4", "gemm_tiled_4x4", (128, 128, 128, {"BM": 128, "BN": 128, "TILE": 16})),
    # Two buffers with two slices in flight, then one buffer with two barriers a step; two block-rows per
    # band, and more invocations than A has 16-byte elements per slice (some copy nothing).
    ("chromium/gemm_pipelined", "gemm_pipelined",
     (64, 64, 64, {"BM": 32, "BN": 64, "BK": 16, "TILES_N": 2, "TILE": 8, "DEPTH": 2, "GROUP": 2, "BUFFERS": 2})),
    ("chromium/gemm_pipelined", "gemm_pipelined",
     (64, 64, 64, {"BM": 32, "BN": 64, "BK": 16, "TILES_N": 2, "TILE": 8, "DEPTH": 1, "GROUP": 2, "BUFFERS": 1})),
]


@pytest.mark.parametrize("kernel, run, sizes", CASES, ids=[c[0] for c in CASES])
def test_emulated_example_matches_numpy(adapter, kernel, run, sizes):
    m, n, k, *tiles = sizes
    report = run_kernel(EXAMPLES / f"{kernel}.wgsl", small(run, m, n, k, **(tiles[0] if tiles else {})),
                        backend="emulate")
    assert report.status == "correct", report.render()
    assert report.backend == "wgpu" and report.emulated
    assert report.timing["median_ms"] > 0 and report.tflops is not None
    if kernel.startswith("wgpu/"):
        assert any("wgpu (naga) dialect was emulated" in n for n in report.notes)
    if kernel.endswith("int8"):
        assert report.checks[0].max_abs_error == 0


def test_plain_kernel_runs_natively_with_overrides(adapter):
    report = run_kernel(EXAMPLES / "plain" / "gemm_tiled_f32.wgsl", small("gemm_tiled_f32", 40, 24, 16))
    assert report.status == "correct", report.render()
    assert not report.emulated and report.backend == "wgpu"


def test_wrong_result_is_reported_with_the_worst_element(adapter, tmp_path):
    kernel = tmp_path / "k.wgsl"
    kernel.write_text("@group(0) @binding(0) var<storage, read_write> c: array<f32>;\n"
                      "@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {\n"
                      "    c[i] = f32(i) + select(0.0, 0.5, i == 2u);\n}\n")
    description = parse_run_description(
        'dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 4\n'
        '[check]\nkind = "expression"\noutput = "c"\nexpected = "np.arange(4.0)"\n[timing]\nrepetitions = 1\n')
    report = run_kernel(kernel, description)
    assert report.status == "incorrect"
    check = report.checks[0]
    assert check.worst_index == [2] and check.worst_value == 2.5 and check.expected_value == 2.0


def test_an_expression_check_with_array_methods(adapter, tmp_path):
    # issue 31: x.reshape(G, 4).sum(axis=1) and .mean() failed with KeyError: '__import__'.
    kernel = tmp_path / "rows.wgsl"
    kernel.write_text("@group(0) @binding(0) var<storage, read> x: array<f32>;\n"
                      "@group(0) @binding(1) var<storage, read_write> s: array<f32>;\n"
                      "@compute @workgroup_size(2) fn main(@builtin(local_invocation_index) i: u32) {\n"
                      "    s[i] = x[4u * i] + x[4u * i + 1u] + x[4u * i + 2u] + x[4u * i + 3u];\n}\n")
    text = ('dispatch = [1]\n[sizes]\nG = 2\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 8\nfill = "random"\n'
            '[[binding]]\nbinding = 1\ntype = "f32"\nsize = 2\n'
            '[check]\nkind = "expression"\noutput = "s"\nexpected = "{}"\n[timing]\nrepetitions = 1\n')
    report = run_kernel(kernel, parse_run_description(text.format("x.reshape(G, 4).sum(axis=1)")))
    assert report.status == "correct", report.render()
    report = run_kernel(kernel, parse_run_description(text.format("x.reshape(G, 4).mean(axis=1) * 4")))
    assert report.status == "correct", report.render()


HANG = """@group(0) @binding(0) var<storage, read_write> x: array<atomic<u32>>;
@compute @workgroup_size(64) fn main() {
    // Atomics are side effects no compiler may remove. lavapipe ends a loop after 65535 iterations,
    // so the hang is made of many long workgroups instead (the description dispatches 65535^2).
    for (var i = 0u; i < 60000u; i++) {
        atomicAdd(&x[0], 1u);
    }
}
"""
PLAIN = """@group(0) @binding(0) var<storage, read_write> x: array<u32>;
@compute @workgroup_size(1) fn main() {
    if (x[1] == 0u) { x[0] = x[0] + 1u; }
}
"""


def test_hanging_kernel_is_killed_and_reported(adapter, tmp_path):
    kernel = tmp_path / "hang.wgsl"
    kernel.write_text(HANG)
    description = parse_run_description(
        'dispatch = [65535, 65535]\n[[binding]]\nbinding = 0\ntype = "u32"\nsize = 2\n')
    started = time.perf_counter()
    report = run_kernel(kernel, description, timeout_s=3)
    assert time.perf_counter() - started < 30
    assert report.status == "timeout", report.render()
    assert "killed after 3 s" in report.error and report.stage == "running the kernel"
    assert "TIMEOUT" in report.render("markdown")


def test_missing_binding_is_a_description_error(tmp_path):
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(HANG)
    report = run_kernel(kernel, parse_run_description("dispatch = [1]\n"))
    assert report.status == "error"
    assert "'x' (@group(0) @binding(0), line 1) is not described" in report.error


def test_wrong_binding_type_is_a_description_error(tmp_path):
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(PLAIN)
    report = run_kernel(kernel, parse_run_description(
        'dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 2\n'))
    assert report.status == "error" and "binding[0].type: 'f32' but 'x' holds u32" in report.error


def test_compile_error_is_reported(adapter, tmp_path):
    # Our checks and Tint accept `enable subgroups;`; naga (wgpu-native) does not implement it.
    kernel = tmp_path / "k.wgsl"
    kernel.write_text("enable subgroups;\n" + PLAIN)
    report = run_kernel(kernel, parse_run_description(
        'dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "u32"\nsize = 2\n'), backend="wgpu")
    assert report.status == "failed", report.render()
    assert report.stage == "compiling the kernel"


def test_cli_run(adapter, tmp_path, capsys):
    kernel = tmp_path / "k.wgsl"
    kernel.write_text("@group(0) @binding(0) var<storage, read_write> c: array<f32>;\n"
                      "@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {\n"
                      "    c[i] = 2.0 * f32(i);\n}\n")
    (tmp_path / "k.run.toml").write_text(
        'dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 4\n'
        '[check]\nkind = "expression"\noutput = "c"\nexpected = "2 * np.arange(4)"\n[timing]\nrepetitions = 2\n')
    assert cli_main(["run", str(kernel), "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert '"status": "correct"' in out
    (tmp_path / "k.run.toml").write_text("dispatch = [0]\n")
    assert cli_main(["run", str(kernel)]) == 2
    assert "k.run.toml: dispatch[0]: must be at least 1" in capsys.readouterr().err
