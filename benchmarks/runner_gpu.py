"""The kernel runner on a real GPU: every matrix example natively on Dawn and emulated, checked and timed.

    .venv/bin/python -m benchmarks.runner_gpu [--size 1024] [--repetitions 10] [--timeout 300]

For each example kernel in examples/chromium, examples/standard and
examples/wgpu it runs, through coop_lsp.runner (each run in its own child
process with a time limit):
  - natively on Dawn (wgpu and standard kernels translated to Tint's dialect),
    with robustness (Dawn's default) and without (disable_robustness);
  - emulated in plain WGSL on Dawn (at a smaller size: the emulation is slow).
Writes $OUT/runner_gpu.json (or benchmarks/results/runner_gpu.json) with, per
run, the status, max errors, median time, TFLOP/s, timing source and notes.
A run that fails or hangs is recorded and the script goes on. Exit status 0
when every native run is correct.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import machine  # noqa: E402
from coop_lsp.runner.description import parse_run_description  # noqa: E402
from coop_lsp.runner.execute import run_kernel  # noqa: E402

EXAMPLES = ROOT / "examples"
KERNELS = [
    ("chromium/gemm_naive", "gemm_naive"),
    ("chromium/gemm_blocked", "gemm_blocked"),
    ("chromium/gemm_int8", "gemm_int8"),
    ("standard/gemm_naive", "gemm_naive"),
    ("standard/gemm_blocked", "gemm_blocked"),
    ("wgpu/gemm_naive", "wgpu_gemm_naive"),
    ("wgpu/gemm_blocked", "gemm_naive"),
]


def description(run: str, size: int, warmup: int, repetitions: int, timeout_s: float):
    path = EXAMPLES / "runs" / f"{run}.run.toml"
    text = path.read_text()
    text = re.sub(r"(?m)^M = \d+\nN = \d+\nK = \d+$", f"M = {size}\nN = {size}\nK = {size}", text)
    text = re.sub(r"(?m)^warmup = \d+$", f"warmup = {warmup}", text)
    text = re.sub(r"(?m)^repetitions = \d+$", f"repetitions = {repetitions}", text)
    d = parse_run_description(text, path)
    d.timeout_s = timeout_s
    return d


def summary(report) -> dict:
    out = {"status": report.status, "backend": report.backend, "emulated": report.emulated,
           "robustness": report.robustness, "adapter": report.adapter, "notes": report.notes,
           "error": report.error, "stage": report.stage, "wall_s": round(report.wall_s, 2)}
    if report.checks:
        out["max_abs_error"] = max(c.max_abs_error for c in report.checks)
        out["max_rel_error"] = max(c.max_rel_error for c in report.checks)
    if report.timing:
        out.update(median_ms=report.timing["median_ms"], min_ms=report.timing["min_ms"],
                   max_ms=report.timing["max_ms"], timing_source=report.timing["source"],
                   wall_median_ms=report.timing.get("wall_median_ms"))
    if report.tflops is not None:
        out["tflops"] = report.tflops
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=1024, help="M = N = K of the native runs")
    parser.add_argument("--emulated-size", type=int, default=128, help="M = N = K of the emulated runs")
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args()

    results: dict = {}
    all_correct = True
    for kernel, run in KERNELS:
        path = EXAMPLES / f"{kernel}.wgsl"
        variants = [("dawn", False, True, args.size), ("dawn", False, False, args.size),
                    ("dawn", True, True, args.emulated_size)]
        for api, emulated, robust, size in variants:
            key = f"{kernel} {'emulated' if emulated else 'native'}{'' if robust else ' no-robustness'} {size}^3"
            started = time.perf_counter()
            try:
                d = description(run, size, 2 if not emulated else 1, args.repetitions if not emulated else 3,
                                args.timeout)
                report = run_kernel(path, d, api=api, emulate_kernel=emulated, robustness=robust)
                results[key] = summary(report)
                print(report.render("text"), flush=True)
            except Exception as error:  # noqa: BLE001 - one broken run must not lose the others
                results[key] = {"status": "script-error", "error": f"{type(error).__name__}: {error}",
                                "traceback": traceback.format_exc()[-2000:],
                                "wall_s": round(time.perf_counter() - started, 2)}
                print(f"{key}: script error: {error}", flush=True)
            if not emulated and results[key].get("status") != "correct":
                all_correct = False

    payload = {
        "benchmark": "runner_gpu",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": machine(),
        "figures": results,
        "notes": f"coop_lsp.runner: example kernels natively on Dawn ({args.size}^3, robustness on and off) "
                 f"and emulated in plain WGSL on Dawn ({args.emulated_size}^3); f16 in, f32 accumulate "
                 "(i8 -> i32 for gemm_int8); checked against NumPy.",
    }
    out_dir = Path(os.environ["OUT"]) if os.environ.get("OUT") else Path(__file__).parent / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "runner_gpu.json").write_text(json.dumps(payload, indent=2) + "\n")
    return 0 if all_correct else 1


if __name__ == "__main__":
    sys.exit(main())
