"""The kernel runner on a real GPU: every matrix example natively on Dawn and emulated, checked and timed;
cuBLAS for comparison; the sweep of the tuned GEMM at 4096^3.

    .venv/bin/python -m benchmarks.runner_gpu [--size 1024] [--repetitions 10] [--timeout 300] [--skip-examples]

For each example kernel in examples/chromium, examples/standard and
examples/wgpu it runs, through coop_lsp.runner (each run in its own child
process with a time limit):
  - natively on Dawn (wgpu and standard kernels translated to Tint's dialect),
    with robustness (Dawn's default) and without (disable_robustness);
  - emulated in plain WGSL on Dawn (at a smaller size: the emulation is slow).
Then, in the same run:
  - cuBLAS through PyTorch (fp16 inputs, f32 accumulation; fp16 and f32 output) at
    4096^3, timed like our kernels: back-to-back calls inside one timed region
    (two CUDA events around 50 calls), the median of 7 such batches; also one
    call at a time, the old way, for comparison. In a child process so that
    CUDA and Dawn never share one;
  - the tiled GEMM kernels (chromium/gemm_tiled, gemm_tiled_4x4 and
    gemm_pipelined) at 4096^3 over the variants of SWEEP, without robustness,
    then the fastest variant again with robustness (Dawn's default) and with
    workgroup memory left uninitialised.
Writes $OUT/runner_gpu.json (or benchmarks/results/runner_gpu.json) with, per
run, the status, max errors, median time, TFLOP/s, timing source and the
independent wall-clock check, and gemm_tiled_sweep.md (table and chart).
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
from coop_lsp.runner.sweep import SweepResult, fastest, sweep_page, sweep_table  # noqa: E402

# The sweep at 4096^3, in the order it was explored: chromium/gemm_tiled.wgsl (loops, an array of
# (WM / 16) x (WN / 16) accumulators) from the project's earlier 64 x 64 block towards larger blocks and
# register tiles, then chromium/gemm_tiled_4x4.wgsl (the 4 x 4 register tile written out) over block
# shapes, then over GROUP, the launch order of the blocks (1: row by row), then
# chromium/gemm_pipelined.wgsl (the step loop written out with constant buffers) over DEPTH, the slices
# read ahead, and the shapes around its best, with two workgroup buffers and then with one. Variants that need more workgroup memory than the adapter
# has fail at pipeline creation and stay in the table as such.
SWEEP = [("gemm_tiled", dict(BM=bm, BN=bn, BK=bk, WM=wm, WN=wn)) for bm, bn, bk, wm, wn in [
    (64, 64, 32, 32, 32),
    (64, 128, 32, 32, 64),
    (128, 128, 32, 64, 32),
    (128, 128, 32, 32, 64),
    (128, 128, 32, 64, 64),
    (128, 256, 16, 64, 64),
]] + [("gemm_tiled_4x4", dict(BM=bm, BN=bn, BK=bk, GROUP=group)) for bm, bn, bk, group in [
    (128, 128, 32, 1),
    (128, 128, 16, 1),
    (128, 256, 16, 1),
    (256, 128, 16, 1),
    (256, 256, 16, 1),
    (128, 256, 32, 1),
    (128, 128, 16, 8),
    (128, 256, 16, 8),
    (128, 256, 16, 16),
    (256, 128, 16, 8),
]] + [("gemm_pipelined", dict(BM=bm, BN=bn, BK=bk, TILES_N=tiles_n, DEPTH=depth, GROUP=group, BUFFERS=buffers))
      for bm, bn, bk, tiles_n, depth, group, buffers in [
    (128, 128, 16, 4, 1, 1, 2),
    (128, 128, 16, 4, 0, 1, 2),
    (128, 128, 16, 4, 2, 1, 2),
    (128, 128, 16, 4, 3, 1, 2),
    (128, 128, 16, 4, 4, 1, 2),
    (128, 128, 16, 4, 2, 8, 2),
    (128, 256, 16, 4, 2, 1, 2),
    (256, 128, 16, 4, 2, 1, 2),
    (128, 128, 16, 2, 2, 1, 2),
    (128, 128, 32, 4, 2, 1, 2),
    # One buffer: half the workgroup memory, so BK = 32 still leaves room for two workgroups.
    (128, 128, 16, 4, 2, 1, 1),
    (128, 128, 32, 4, 1, 1, 1),
    (128, 128, 32, 4, 2, 1, 1),
    (128, 128, 32, 4, 1, 8, 1),
    (128, 128, 32, 4, 0, 8, 1),
    (128, 256, 32, 4, 1, 8, 1),
    (128, 256, 32, 2, 2, 8, 1),
    (128, 128, 64, 4, 1, 8, 1),
]]
TILED_SIZE = 4096

CUBLAS = """
import json, statistics, sys
import torch
n = int(sys.argv[1])
torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False  # accumulate in f32
g = torch.Generator(device="cuda").manual_seed(0)
a = torch.rand(n, n, device="cuda", dtype=torch.float16, generator=g) * 2 - 1
b = torch.rand(n, n, device="cuda", dtype=torch.float16, generator=g) * 2 - 1
out = {"torch": torch.__version__, "cuda": torch.version.cuda, "device": torch.cuda.get_device_name()}
def one_at_a_time(fn, reps=50):
    # The old way: one call between two events, which adds launch gaps to every call.
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); e.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times)
def timed(fn, calls=50, batches=7):
    # Like our kernels: back-to-back launches inside one timed region, the median of several batches.
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    per_call = []
    for _ in range(batches):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(calls):
            fn()
        e.record(); e.synchronize()
        per_call.append(s.elapsed_time(e) / calls)
    return statistics.median(per_call), per_call
out["timing"] = "median over 7 batches of 50 back-to-back calls between two CUDA events, after 10 warm-up calls"
for key, fn in (("fp16_out", lambda: a @ b), ("f32_out", lambda: torch.mm(a, b, out_dtype=torch.float32))):
    try:
        ms, batches = timed(fn)
        single = one_at_a_time(fn)
        out[key] = {"median_ms": ms, "tflops": 2 * n ** 3 / ms / 1e9, "batch_ms": batches,
                    "one_at_a_time_ms": single, "one_at_a_time_tflops": 2 * n ** 3 / single / 1e9}
    except Exception as error:
        out[key] = {"error": f"{type(error).__name__}: {error}"}
print(json.dumps(out))
"""

EXAMPLES = ROOT / "examples"
KERNELS = [
    ("chromium/gemm_tiled", "gemm_tiled"),
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
                   max_ms=report.timing["max_ms"], timing_source=report.timing["source"])
    if report.tflops is not None:
        out["tflops"] = report.tflops
    if report.peak_fraction is not None:
        out["peak_fraction"] = report.peak_fraction
    if report.timing.get("independent_ms") is not None:
        out.update(independent_ms=report.timing["independent_ms"],
                   independent_dispatches=report.timing["independent_dispatches"],
                   timing_agreement=report.timing["agreement"])
    return out


def cublas(size: int) -> dict:
    import subprocess

    try:
        done = subprocess.run([sys.executable, "-c", CUBLAS, str(size)], capture_output=True, text=True, timeout=300)
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        if not lines:
            return {"error": (done.stderr or done.stdout).strip()[-1500:]}
        return json.loads(lines[-1])
    except (OSError, subprocess.TimeoutExpired) as error:
        return {"error": str(error)}


def tiled_sweep(args, references: dict) -> tuple[dict, str]:
    results: list[SweepResult] = []

    def one(kernel: str, values: dict, robust: bool, toggles=()):
        path = EXAMPLES / "chromium" / f"{kernel}.wgsl"
        run = EXAMPLES / "runs" / f"{kernel}.run.toml"
        d = parse_run_description(run.read_text(), run, size_values={"M": TILED_SIZE, "N": TILED_SIZE,
                                                                      "K": TILED_SIZE, **values})
        d.timeout_s = args.timeout
        d.toggles = tuple(toggles)
        report = run_kernel(path, d, api="dawn", emulate_kernel=False, robustness=robust)
        print(report.render("text"), flush=True)
        label = {"kernel": kernel, **values, **({"robust": 1} if robust else {}), **{t: 1 for t in toggles}}
        return SweepResult(label, report)

    for kernel, values in SWEEP:
        results.append(one(kernel, values, robust=False))
    best = fastest(results)
    if best is not None:
        kernel = best.values["kernel"]
        shape = {k: v for k, v in best.values.items() if k != "kernel"}
        results.append(one(kernel, shape, robust=True))
        results.append(one(kernel, shape, robust=False, toggles=("disable_workgroup_init",)))
    page = sweep_page(results, "markdown", title=f"Tiled GEMM kernels at {TILED_SIZE}^3 on the H100",
                      references=references,
                      notes=["Rows without robust=1 ran with the device toggle disable_robustness; robust=1 is "
                             "Dawn's default (bounds checks on every access, subgroup matrix loads included).",
                             "cuBLAS: PyTorch fp16 matmul with f32 accumulation, CUDA events, same run."])
    figures = {f"{r.label} {TILED_SIZE}^3": summary(r.report) for r in results}
    print(sweep_table(results), flush=True)
    return figures, page


# The fastest variant of the sweep (benchmarks/results/gemm_tiled_sweep.md).
FASTEST = ("gemm_pipelined", dict(BM=128, BN=128, BK=32, TILES_N=4, DEPTH=1, GROUP=8, BUFFERS=1))


def fair_comparison(reference: dict, kernel: dict) -> dict:
    """Our fastest kernel against cuBLAS timed the same way; ratios per cuBLAS output type."""
    out = {"kernel": kernel.get("label", ""), "kernel_tflops": kernel.get("tflops"),
           "kernel_status": kernel.get("status"), "timing": reference.get("timing", "")}
    for key in ("fp16_out", "f32_out"):
        figure = reference.get(key, {})
        if "tflops" in figure and kernel.get("tflops"):
            out[f"cublas_{key}_tflops"] = figure["tflops"]
            out[f"ratio_to_cublas_{key}"] = kernel["tflops"] / figure["tflops"]
    return out


def fastest_figure(figures: dict) -> dict | None:
    correct = [(key, f) for key, f in figures.items() if f.get("status") == "correct" and f.get("tflops")
               and not f.get("robustness")]
    if not correct:
        return None
    key, figure = max(correct, key=lambda pair: pair[1]["tflops"])
    return {**figure, "label": key}


def fair_only(args, out_dir: Path) -> int:
    """cuBLAS timed fairly and the fastest GEMM in the same run, added to the existing results."""
    existing = out_dir / "runner_gpu.json"
    previous = Path(__file__).parent / "results" / "runner_gpu.json"
    payload = json.loads((existing if existing.exists() else previous).read_text())
    reference = cublas(TILED_SIZE)
    print("cuBLAS:", json.dumps(reference), flush=True)
    kernel, values = FASTEST
    if args.fastest:
        # Chosen on the device from a sweep in the same session: its values, as K=V words.
        values = {k: int(v) for k, v in (word.split("=", 1) for word in args.fastest.split())}
    path, run = EXAMPLES / "chromium" / f"{kernel}.wgsl", EXAMPLES / "runs" / f"{kernel}.run.toml"
    d = parse_run_description(run.read_text(), run, size_values={"M": TILED_SIZE, "N": TILED_SIZE,
                                                                  "K": TILED_SIZE, **values})
    d.timeout_s = args.timeout
    report = run_kernel(path, d, api="dawn", emulate_kernel=False, robustness=False)
    print(report.render("text"), flush=True)
    label = " ".join(f"{k}={v}" for k, v in {"kernel": kernel, **values}.items())
    figure = {**summary(report), "label": label}
    payload["fair_cublas"] = {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "machine": machine(),
                              "cublas": reference, "kernel": figure,
                              "comparison": fair_comparison(reference, figure)}
    existing.write_text(json.dumps(payload, indent=2) + "\n")
    print(json.dumps(payload["fair_cublas"]["comparison"], indent=2))
    return 0 if report.status == "correct" else 1


def emulated_only(args, out_dir: Path) -> int:
    """Every example's emulation on the GPU's driver: whether it compiles and is correct there."""
    results: dict = {}
    for kernel, run in KERNELS:
        key = f"{kernel} emulated {args.emulated_size}^3"
        started = time.perf_counter()
        try:
            d = description(run, args.emulated_size, 1, 3, args.timeout)
            report = run_kernel(EXAMPLES / f"{kernel}.wgsl", d, api="dawn", emulate_kernel=True, robustness=True)
            results[key] = summary(report)
            print(report.render("text"), flush=True)
        except Exception as error:  # noqa: BLE001 - one broken run must not lose the others
            results[key] = {"status": "script-error", "error": f"{type(error).__name__}: {error}",
                            "wall_s": round(time.perf_counter() - started, 2)}
    correct = sum(1 for r in results.values() if r.get("status") == "correct")
    (out_dir / "runner_gpu_emulated.json").write_text(json.dumps({
        "benchmark": "runner_gpu_emulated", "machine": machine(), "correct": correct, "runs": len(results),
        "results": results}, indent=2) + "\n")
    return 0 if correct == len(results) else 1


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=1024, help="M = N = K of the native runs")
    parser.add_argument("--emulated-size", type=int, default=128, help="M = N = K of the emulated runs")
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--skip-examples", action="store_true", help="only cuBLAS and the gemm_tiled sweep")
    parser.add_argument("--emulated-only", action="store_true",
                        help="only every example emulated (--emulated-size), written to runner_gpu_emulated.json")
    parser.add_argument("--fair-only", action="store_true",
                        help="only cuBLAS and the fastest GEMM (FASTEST), merged into the existing runner_gpu.json")
    parser.add_argument("--fastest", metavar="'BM=128 BN=128 ...'",
                        help="with --fair-only: the gemm_pipelined [sizes] values to time instead of FASTEST's")
    args = parser.parse_args()
    out_dir = Path(os.environ["OUT"]) if os.environ.get("OUT") else Path(__file__).parent / "results"
    out_dir.mkdir(parents=True, exist_ok=True)

    if args.fair_only:
        return fair_only(args, out_dir)
    if args.emulated_only:
        return emulated_only(args, out_dir)
    results: dict = {}
    all_correct = True
    for kernel, run in ([] if args.skip_examples else KERNELS):
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

    reference = cublas(TILED_SIZE)
    print("cuBLAS:", json.dumps(reference), flush=True)
    references = {}
    for key, label in (("fp16_out", "cuBLAS fp16 out"), ("f32_out", "cuBLAS f32 out")):
        if "tflops" in reference.get(key, {}):
            references[label] = reference[key]["tflops"]
    sweep_figures, page = tiled_sweep(args, references)
    results.update(sweep_figures)
    (out_dir / "gemm_tiled_sweep.md").write_text(page)

    best = fastest_figure(sweep_figures)
    payload = {
        "benchmark": "runner_gpu",
        "cublas": reference,
        "fair_cublas": {"comparison": fair_comparison(reference, best)} if best else {},
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": machine(),
        "figures": results,
        "notes": f"coop_lsp.runner: example kernels natively on Dawn ({args.size}^3, robustness on and off) "
                 f"and emulated in plain WGSL on Dawn ({args.emulated_size}^3); f16 in, f32 accumulate "
                 "(i8 -> i32 for gemm_int8); checked against NumPy.",
    }
    (out_dir / "runner_gpu.json").write_text(json.dumps(payload, indent=2) + "\n")
    return 0 if all_correct else 1


if __name__ == "__main__":
    sys.exit(main())
