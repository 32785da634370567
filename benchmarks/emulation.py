"""Emulated matrix kernels on lavapipe (wgpu-native's CPU Vulkan adapter) at 128^3: wall time of one
`coop-lint run --backend emulate` (compiling dominates), the emulated WGSL's size, and correctness
against NumPy.

    nice -n 5 python -m benchmarks.emulation [--label NAME] [--timeout SECONDS]

Writes benchmarks/results/emulation.json (one run per case; merges with the cases already there under
other labels, so a "before" and an "after" run of the lowering sit side by side). The machine is
shared: the figures say how long a CI-sized machine takes, not the best it could do.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from pathlib import Path

from benchmarks.common import RESULTS, write_result

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# The two examples issue 19 names, at their real TILE = 16, on a 128 x 128 block (one workgroup at 128^3).
CASES = [
    ("gemm_tiled_4x4", "chromium/gemm_tiled_4x4.wgsl", "gemm_tiled_4x4",
     {"M": 128, "N": 128, "K": 128, "BM": 128, "BN": 128, "TILE": 16}),
    ("gemm_pipelined", "chromium/gemm_pipelined.wgsl", "gemm_pipelined",
     {"M": 128, "N": 128, "K": 128, "BM": 128, "BN": 128, "BK": 32, "TILES_N": 4, "TILE": 16}),
    # the "mid-size kernel": 128 x 128 block, 8 subgroups of 4 x 2 accumulators
    ("gemm_tiled", "chromium/gemm_tiled.wgsl", "gemm_tiled",
     {"M": 128, "N": 128, "K": 128, "BM": 128, "BN": 128, "WM": 64, "WN": 32}),
]


def run_case(kernel: str, run: str, sizes: dict, timeout: float) -> dict:
    from coop_lsp.runner.description import load_run_description
    from coop_lsp.runner.execute import apply_constants, run_kernel
    from coop_lsp.runner.kernel import load_kernel
    from coop_lsp.runner.lowering import emulate

    description = load_run_description(EXAMPLES / "runs" / f"{run}.run.toml", size_values=sizes)
    description.warmup, description.repetitions = 0, 1
    text = (EXAMPLES / kernel).read_text()
    started, children = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    report = run_kernel(EXAMPLES / kernel, description, backend="emulate", timeout_s=timeout)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # The worker's own CPU time: on a shared machine the wall time says more about the neighbours.
    cpu = (after.ru_utime - children.ru_utime) + (after.ru_stime - children.ru_stime)
    lowered = emulate(apply_constants(text, description.constants, load_kernel(text)))
    check = report.checks[0] if report.checks else None
    return {"status": report.status, "wall_s": round(wall, 2), "worker_cpu_s": round(cpu, 2),
            "load_average_1min": round(os.getloadavg()[0], 1), "emulated_wgsl_kib": round(len(lowered.text) / 1024, 1),
            "max_abs_error": getattr(check, "max_abs_error", None), "adapter": report.adapter,
            "error": report.error or None, "sizes": sizes}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--label", default="after")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    os.environ["MESA_SHADER_CACHE_DISABLE"] = "true"  # time the compile, not a cache hit
    path = RESULTS / "emulation.json"
    previous = json.loads(path.read_text()).get("figures", {}) if path.exists() else {}
    figures = dict(previous)
    for name, kernel, run, sizes in CASES:
        if args.only and name not in args.only.split(","):
            continue
        result = run_case(kernel, run, sizes, args.timeout)
        figures.setdefault(name, {})[args.label] = result
        print(name, args.label, json.dumps(result), flush=True)
    write_result("emulation", figures, notes="one `coop-lint run --backend emulate` per case on lavapipe at "
                 "128^3 (wall seconds, compile included, Mesa's shader cache off; worker_cpu_s: the worker "
                 "process's CPU seconds, absent for runs killed at the time limit), run with nice on a 2-core "
                 "machine shared with other engineers' jobs (load_average_1min at the end of each run). "
                 "'before': the lowering that held every matrix whole in every invocation (commit 7ca72f9); "
                 "'after': matrices distributed over the subgroup's lanes")


if __name__ == "__main__":
    main()
