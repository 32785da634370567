"""`coop-lint run --explain --try` (docs/try.md): a finding's mechanical fix applied to the user's kernel,
run and checked like the original, its speed-up measured; a fix that does not apply cleanly refused with
its reason before anything runs; a variant whose results are wrong reported as wrong, never as a speed-up.

The rewrites are read first (no GPU); the runs go through wgpu-native's emulation on lavapipe with the H100
profile's findings (`--target nvidia-h100`): the times are lavapipe's, the findings and the quoted figures
the H100's. They skip without an adapter.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from coop_lsp.analysis.performance.rewrites import accumulate_in_f32, unroll
from coop_lsp.cli.main import main as cli_main
from coop_lsp.core.diagnostic import Edit
from coop_lsp.core.text import Span
from coop_lsp.lint import lint_source
from coop_lsp.lint.engine import findings_after_run
from coop_lsp.lint.fixes import apply_edits
from coop_lsp.runner.description import parse_run_description
from coop_lsp.runner.execute import run_kernel
from coop_lsp.runner.trial import run_trials

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
TILED_SMALL = ["--set", "M=64", "--set", "N=64", "--set", "K=32", "--set", "BM=64", "--set", "BN=64",
               "--set", "WM=32", "--set", "WN=32"]

INDEXED = """\
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(32)
fn main() {
    var left: array<subgroup_matrix_left<f16, 16, 16>, 2>;
    var right: array<subgroup_matrix_right<f16, 16, 16>, 2>;
    var acc: array<subgroup_matrix_result<f32, 16, 16>, 4>;
    for (var k = 0u; k < 64u; k += 16u) {
        for (var i = 0u; i < 2u; i++) {
            left[i] = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, i * 256u + k, 64u);
            right[i] = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, k * 64u + i * 16u, 64u);
        }
        for (var i = 0u; i < 2u; i++) {
            for (var j = 0u; j < 2u; j++) {
                acc[i * 2u + j] = subgroupMatrixMultiplyAccumulate(left[i], right[j], acc[i * 2u + j]);%s
            }
        }
    }
    subgroupMatrixStore<row_major>(&c, 0u, acc[0], 16u);
}
"""


def p003_spans(text: str):
    result = lint_source(text)
    return result, [d.span for d in findings_after_run(result, "nvidia-h100") if d.code == "P003"]


# ------------------------------------------------------------------ the rewrites, read


def test_unrolling_makes_every_index_a_constant_and_p003_goes():
    result, spans = p003_spans(INDEXED % "")
    assert spans
    rewrite = unroll(result.parsed.root, result.source, result.model, spans)
    assert rewrite.applies, rewrite.reason
    text = apply_edits(result.source.data, list(rewrite.edits)).decode()
    # The K loop (a trip count of 4 and no matrix index of its own) stays; the i and j loops become blocks.
    assert "for (var k = 0u; k < 64u; k += 16u)" in text and "for (var i" not in text and "for (var j" not in text
    assert text.count("const i: u32 = 1u;") == 2 and text.count("const j: u32 = 1u;") == 2 and "const k" not in text
    again = lint_source(text)
    assert not [d for d in again.diagnostics if d.severity.label == "error"]
    assert not [d for d in findings_after_run(again, "nvidia-h100") if d.code == "P003"]


def test_a_loop_that_breaks_is_not_unrolled():
    result, spans = p003_spans(INDEXED % "\n                if (j == 1u) { break; }")
    rewrite = unroll(result.parsed.root, result.source, result.model, spans)
    assert not rewrite.applies
    assert "has a break" in rewrite.reason


def test_a_loop_of_runtime_trip_count_is_not_unrolled():
    text = (INDEXED % "").replace("var<storage, read_write> c: array<f32>;",
                                  "var<storage, read_write> c: array<f32>;\n@group(0) @binding(2) var<uniform> n: u32;")
    text = text.replace("for (var j = 0u; j < 2u; j++)", "for (var j = 0u; j < n; j++)")
    result, spans = p003_spans(text)
    rewrite = unroll(result.parsed.root, result.source, result.model, spans)
    assert not rewrite.applies and "no constant trip count" in rewrite.reason


def test_f32_accumulators_change_every_f16_result_type():
    text = (INDEXED % "").replace("subgroup_matrix_result<f32", "subgroup_matrix_result<f16")
    result = lint_source(text)
    rewrite = accumulate_in_f32(result.parsed.root, result.source)
    assert len(rewrite.edits) == 1 and rewrite.edits[0].new_text == "f32"
    assert "subgroup_matrix_result<f32, 16, 16>" in apply_edits(result.source.data, list(rewrite.edits)).decode()
    assert not accumulate_in_f32(lint_source(INDEXED % "").parsed.root, lint_source(INDEXED % "").source).applies


# ------------------------------------------------------------------ runs on lavapipe


def on_lavapipe(adapter: str) -> bool:
    return "llvmpipe" in adapter.lower() or "lavapipe" in adapter.lower()


def test_try_applies_unrolling_and_measures_it(adapter, capsys):
    kernel = EXAMPLES / "chromium" / "gemm_tiled.wgsl"
    code = cli_main(["run", str(kernel), "--run", str(EXAMPLES / "runs" / "gemm_tiled.run.toml"), *TILED_SMALL,
                     "--explain", "--try", "--target", "nvidia-h100", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["status"] == "correct"
    trials = {t["code"]: t for t in out["explain"]["trials"]}
    unrolled = trials["P003"]
    assert unrolled["status"] == "measured" and unrolled["variant"]["status"] == "correct"
    assert unrolled["speedup"] == unrolled["before_ms"] / unrolled["after_ms"]
    assert unrolled["quoted"] and unrolled["within_quote"] in (True, False)
    assert unrolled["conditions"]["constant_trips"] is True
    # Bounds checks are a Dawn device setting: skipped on wgpu-native (lavapipe), with the reason; where
    # Dawn runs the kernel (on the H100) the variant without them is measured like the others.
    if on_lavapipe(adapter):
        assert trials["P007"]["status"] == "skipped" and "Dawn only" in trials["P007"]["reason"]
    else:
        assert trials["P007"]["status"] in ("measured", "skipped")


def f16_accumulating_naive(tmp_path: Path) -> tuple[Path, Path]:
    """gemm_naive accumulating in f16 into an f16 result: T050's situation."""
    text = (EXAMPLES / "chromium" / "gemm_naive.wgsl").read_text()
    text = text.replace("alias TileC = subgroup_matrix_result<f32, TN, TM>;",
                        "alias TileC = subgroup_matrix_result<f16, TN, TM>;")
    text = text.replace("var<storage, read_write> c: array<f32>;", "var<storage, read_write> c: array<f16>;")
    description = (EXAMPLES / "runs" / "gemm_naive.run.toml").read_text().replace('type = "f32"', 'type = "f16"')
    description = re.sub(r"(?m)^([MNK]) = 64$", r"\1 = 32", description)
    kernel, run = tmp_path / "naive_f16.wgsl", tmp_path / "naive_f16.run.toml"
    kernel.write_text(text)
    run.write_text(description)
    return kernel, run


def test_try_refuses_f32_accumulators_that_the_store_cannot_take(adapter, tmp_path, capsys):
    kernel, run = f16_accumulating_naive(tmp_path)
    code = cli_main(["run", str(kernel), "--run", str(run), "--explain", "--try", "--target", "nvidia-h100"])
    text = capsys.readouterr().out
    assert code == 0
    # Refused before it ran: the f32 result cannot be stored into the f16 buffer, which --try leaves alone.
    assert re.search(r"T050: accumulate in f32 .*: SKIPPED: the rewritten kernel does not compile: line \d+: T008 "
                     r"'subgroupMatrixStore'", text), text
    # A fix that changes the kernel's structure is not tried: it says so and names an example of the change.
    assert "P001: not mechanical (the fix changes the kernel's structure); example: " \
           "benchmarks/perf_pairs/naive_2x2.wgsl" in text


def test_a_wrong_variant_is_reported_as_wrong_not_as_a_speedup(adapter):
    kernel = EXAMPLES / "chromium" / "gemm_naive.wgsl"
    path = EXAMPLES / "runs" / "gemm_naive.run.toml"
    description = parse_run_description(re.sub(r"(?m)^([MNK]) = 64$", r"\1 = 32", path.read_text()), path)
    report = run_kernel(kernel, description)
    assert report.status == "correct"
    data = report.lint.source.data
    at = data.index(b"k += TK")
    # Every other K slice skipped: still a valid kernel, and faster, but its results are wrong.
    wrong = ("P001", "skip every other K slice", (Edit(Span(at, at + len(b"k += TK")), "k += 2u * TK"),))

    def rerun(text=None, robustness=None):
        return run_kernel(kernel, description, text=text)

    trials = run_trials(report, "nvidia-h100", rerun, extra=[wrong])
    [tried] = [t for t in trials if t.fix == "skip every other K slice"]
    assert tried.status == "wrong" and "results are wrong" in tried.reason
    assert tried.speedup is None and tried.within is None
    assert tried.to_json()["variant"]["status"] == "incorrect"


def test_try_pads_staged_rows_with_the_findings_own_fix(adapter, capsys):
    # The small configuration multiplies 8x8x8 tiles, which the emulation offers and the H100 does not
    # (D001 refuses the run there); the H100's padding trial is benchmarks/advisor_try.py's, at 16x16.
    if not on_lavapipe(adapter):
        pytest.skip(f"8x8x8 tiles: {adapter} offers other shapes (the H100 figures: benchmarks/advisor_try.py)")
    kernel = ROOT / "benchmarks" / "perf_pairs" / "pipelined_knobs.wgsl"
    small = ["--set", "M=64", "--set", "N=64", "--set", "K=64", "--set", "BM=32", "--set", "BN=64", "--set", "BK=16",
             "--set", "TILES_N=2", "--set", "TILE=8", "--set", "PAD=0"]
    code = cli_main(["run", str(kernel), "--run", str(kernel.with_suffix(".run.toml")), *small, "--explain", "--try",
                     "--target", "nvidia-h100", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["status"] == "correct"
    [padded] = [t for t in out["explain"]["trials"] if t["code"] == "P005"]
    # Both staged arrays had unpadded rows; the quick fix pads both strides, and the variant is checked.
    assert padded["findings"] == 2 and padded["fix"].count("pad each row of") == 2
    assert padded["status"] == "measured" and padded["variant"]["status"] == "correct"
    assert padded["conditions"]["rows_per_bank"] >= 4
