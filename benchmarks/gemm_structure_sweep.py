"""Block shapes and pipelines of chromium/gemm_pipelined.wgsl beyond the committed sweep, in one device call.

    python -m benchmarks.gemm_structure_sweep ROUND [--fair]      # on the GPU machine

Each set of variants is one `coop-lint run --no-robustness --sweep ...` at 4096^3 (f16 in, f32 out): every
variant compiled, run, checked against NumPy and timed in its own child process. Round 1 (2026-11-24)
asked whether one workgroup of 8 or 16 subgroups over a 256 x 128 or 128 x 256 block (25% less traffic
from L2 than two 128 x 128 workgroups) beats two workgroups per multiprocessor; round 2 gave those
blocks deeper read-ahead; round 3 two workgroups of 8 subgroups with 4 x 2 tiles each (twice the
subgroups per multiprocessor, half the registers each). Round 4 (2026-11-24, evening) runs kernels derived
from the example by benchmarks/gemm_variants.py: designs (B staged transposed; a ring of two or three
buffers with one barrier a step) and diagnostics that are wrong by construction (no barriers, tiles
loaded with the other layout, spare workgroup memory) to find what limits the kernel. Writes $OUT/gemm_structure_sweep_ROUND.json: the values of each variant
(those not named keep the run description's), its status and TFLOP/s. With --fair, the fastest correct
variant is then timed against cuBLAS by benchmarks.runner_gpu --fair-only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import machine  # noqa: E402
from benchmarks.gemm_variants import derive, is_diagnostic  # noqa: E402

KERNEL = "examples/chromium/gemm_pipelined.wgsl"
RUN = "examples/runs/gemm_pipelined.run.toml"
DEFAULTS = {"BM": 128, "BN": 128, "BK": 32, "TILES_N": 4, "DEPTH": 1, "GROUP": 8, "BUFFERS": 1}

# round -> [(name, fixed values, sweeps[, edits of benchmarks.gemm_variants])]
ROUNDS = {
    "1": [
        ("base", {}, ["GROUP=4,8,16"]),
        ("bk16_one", {"BK": 16}, ["DEPTH=0,1,2"]),
        ("256x128_t2_one", {"TILES_N": 2, "BM": 256}, ["BK=16,32", "DEPTH=1,2"]),
        ("256x128_two", {"BUFFERS": 2, "BK": 16, "BM": 256}, ["TILES_N=2,4", "DEPTH=1,2"]),
        ("128x256_t2_two", {"BUFFERS": 2, "BK": 16, "BN": 256, "TILES_N": 2}, ["DEPTH=1,2"]),
        ("256x128_t4_one", {"BM": 256}, ["DEPTH=0,1"]),
    ],
    "2": [
        ("base", {}, []),
        ("256x128_t4_one_deep", {"BM": 256}, ["DEPTH=2,3"]),
        ("256x128_t4_one_bk16", {"BM": 256, "BK": 16}, ["DEPTH=1,2,3,4"]),
        ("128x256_t4_one", {"BN": 256}, ["DEPTH=0,2"]),
        ("256x128_t4_one_g", {"BM": 256, "DEPTH": 0}, ["GROUP=2,4,16"]),
    ],
    "3": [
        ("base", {}, []),
        ("128x128_t2_one", {"TILES_N": 2}, ["DEPTH=0,1,2"]),
        ("128x128_t2_two", {"TILES_N": 2, "BK": 16, "BUFFERS": 2}, ["DEPTH=1,2"]),
        ("128x256_t2_one", {"TILES_N": 2, "BN": 256}, ["DEPTH=0,1,2"]),
    ],
    "4": [
        ("base", {}, []),
        ("a_col_major", {}, [], ["a_col_major"]),
        ("b_col_major", {}, [], ["b_col_major"]),
        ("b_transposed", {}, [], ["b_transposed"]),
        ("spare_4kib", {}, [], ["spare:4"]),
        ("spare_8kib", {}, [], ["spare:8"]),
        ("spare_16kib", {}, [], ["spare:16"]),
        ("no_barriers", {}, [], ["no_barriers"]),
        ("128x256", {"BN": 256, "DEPTH": 0}, []),
        ("128x256_no_barriers", {"BN": 256, "DEPTH": 0}, [], ["no_barriers"]),
        ("256x128_no_barriers", {"BM": 256, "DEPTH": 0}, [], ["no_barriers"]),
        ("ring2_128x256", {"BN": 256, "BK": 16, "BUFFERS": 2}, ["DEPTH=2,3,4"], ["ring"]),
        ("ring3_128x256", {"BN": 256, "BK": 16, "BUFFERS": 3}, ["DEPTH=3,4"], ["ring"]),
        ("ring2_128x256_no_barriers", {"BN": 256, "BK": 16, "BUFFERS": 2, "DEPTH": 2}, [], ["ring", "no_barriers"]),
        ("ring2_128x128", {"BK": 16, "BUFFERS": 2}, ["DEPTH=2,3"], ["ring"]),
    ],
}


def main() -> int:
    rnd = sys.argv[1]
    out = Path(os.environ.get("OUT", "/tmp"))
    rows = []
    derived = Path(tempfile.mkdtemp(prefix="gemm_variants_"))
    for name, fixed, sweeps, *more in ROUNDS[rnd]:
        edits = more[0] if more else []
        kernel = KERNEL
        if edits:
            kernel = str(derived / f"{name}.wgsl")
            Path(kernel).write_text(derive(edits))
        command = [sys.executable, "-m", "coop_lsp.cli.main", "run", kernel, "--run", RUN, "--no-robustness",
                   "--format", "json"]
        for key, value in fixed.items():
            command += ["--set", f"{key}={value}"]
        for sweep in sweeps or ["GROUP=8" if "GROUP" not in fixed else f"GROUP={fixed['GROUP']}"]:
            command += ["--sweep", sweep]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=500)
        try:
            results = json.loads(done.stdout)
        except json.JSONDecodeError:
            print(name, "gave no JSON:", done.stderr[-1500:], flush=True)
            continue
        for result in results:
            values = {**DEFAULTS, **fixed, **{k: int(v) for k, v in result["values"].items()}}
            row = {"set": name, "values": values, "edits": edits, "diagnostic": is_diagnostic(edits),
                   "status": result.get("status"), "tflops": result.get("tflops"),
                   "median_ms": (result.get("timing") or {}).get("median_ms"), "error": result.get("error", "")[:300]}
            rows.append(row)
            print(name, values, row["status"], row["tflops"], flush=True)
    correct = [r for r in rows if r["status"] == "correct" and r["tflops"]]
    best_of_all = max(correct, key=lambda r: r["tflops"]) if correct else None
    # Only the example's own knobs can be handed to runner_gpu's fair comparison.
    knobs_only = [r for r in correct if not r["edits"]]
    best = max(knobs_only, key=lambda r: r["tflops"]) if knobs_only else None
    (out / f"gemm_structure_sweep_{rnd}.json").write_text(json.dumps({
        "benchmark": "gemm_structure_sweep", "round": rnd, "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": machine(), "kernel": KERNEL, "size": "4096^3, f16 in, f32 out, robustness off",
        "variants": rows, "fastest": best_of_all}, indent=1) + "\n")
    if best and "--fair" in sys.argv and best["values"] != DEFAULTS:  # the committed variant was timed already
        words = " ".join(f"{k}={v}" for k, v in best["values"].items())
        print("fastest:", words, flush=True)
        subprocess.run([sys.executable, "-m", "benchmarks.runner_gpu", "--fair-only", "--fastest", words],
                       cwd=ROOT, timeout=400)
    return 0 if correct else 1


if __name__ == "__main__":
    sys.exit(main())
