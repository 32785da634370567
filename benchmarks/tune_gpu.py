"""`coop-lint tune` on a host with two GPUs: one worker per GPU against one GPU, the same space, one call.

    python -m benchmarks.tune_gpu                 # on the 2-GPU machine: writes $OUT/tune_h100x2.json
    python -m benchmarks.tune_gpu --smoke         # here, on lavapipe: two variants, small sizes, same steps

The space is chromium/gemm_pipelined.wgsl's run-description sizes at 4096^3 (f16 in, f32 out):
TILE x BK x TILES_N x DEPTH x GROUP = 2 x 2 x 2 x 3 x 2 = 48 variants. TILE = 8 uses 8x8x8 subgroup
matrices, which the H100 does not offer: the linter prunes those 24 (D001) and the other 24 run. The
space is tuned twice through Dask's local cluster: with one worker (one GPU) and with two (one per GPU,
each bound to its GPU by its Vulkan device UUID). First it records what each way of listing the
adapters sees: wgpudawn's public enumeration, Dawn's raw one, and wgpu-native's.

On the device tool's machine the run needs the Vulkan loader and glvnd (libvulkan1, libglvnd0, libegl1,
libgl1, libglx0, libgles2, libopengl0 unpacked with dpkg -x: NVIDIA's Vulkan driver loads
libGLdispatch), and wheels of coop-lsp's runtime dependencies and Dask distributed; the grammar is built
there with `python3 setup.py build_ext --inplace`.
"""

from __future__ import annotations

import datetime
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

KERNEL = ROOT / "examples" / "chromium" / "gemm_pipelined.wgsl"
RUN = ROOT / "examples" / "runs" / "gemm_pipelined.run.toml"
SPACE = {"TILE": [8, 16], "BK": [16, 32], "TILES_N": [2, 4], "DEPTH": [0, 1, 2], "GROUP": [4, 8]}
SMOKE_SPACE = {"TILE": [16], "BK": [16, 32], "M": [128], "N": [128], "K": [128]}

_LISTING = r"""
import json, sys
out = {}
try:
    import wgpudawn
    from wgpudawn.backends.dawn import extras
    extras.set_instance_extras(enable_toggles=["allow_unsafe_apis", "vulkan_enable_f16_on_nvidia"])
    public = wgpudawn.gpu.enumerate_adapters_sync()
    out["dawn_public"] = [a.info["device"] for a in public]
    raw = wgpudawn.gpu._enumerate_all_adapters()
    out["dawn_raw"] = [{"device": a.info["device"], "backend": a.info["backend_type"],
                        "uuid": bytes((extras.get_adapter_properties(a).get("vulkan_uuids") or {}).get("device_uuid", b"")).hex()}
                       for a in raw]
except Exception as error:
    out["dawn_error"] = f"{type(error).__name__}: {error}"
try:
    import wgpu
    out["wgpu_native"] = [f'{a.info["device"]} ({a.info["backend_type"]})' for a in wgpu.gpu.enumerate_adapters_sync()]
except Exception as error:
    out["wgpu_error"] = f"{type(error).__name__}: {error}"
sys.stdout.write("\n" + json.dumps(out) + "\n")
"""


def listings(env_extra: dict | None = None) -> dict:
    env = {**os.environ, **(env_extra or {})}
    done = subprocess.run([sys.executable, "-c", _LISTING], capture_output=True, text=True, timeout=120, env=env)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    found = json.loads(lines[-1]) if lines else {"error": ""}
    if not found.get("dawn_raw") or not found.get("wgpu_native") or "error" in found:
        found["stderr"] = done.stderr[-1500:]  # why an API saw no adapter
    return found


def tune(run: Path, target: str, workers: int, results: Path, timeout_s: float) -> dict:
    command = [sys.executable, "-c", "import sys; from coop_lsp.cli.main import main; sys.exit(main())", "tune",
               str(KERNEL), "--run", str(run), "--target", target, "--format", "json", "--results", str(results),
               "--local-cluster", str(workers)]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, cwd=ROOT)
    wall = time.perf_counter() - started
    print(done.stderr[-6000:], file=sys.stderr, flush=True)
    if not done.stdout.strip().startswith("{"):
        return {"workers": workers, "wall_s": wall, "exit": done.returncode, "error": done.stderr[-1500:]}
    data = json.loads(done.stdout)
    records = data["records"]
    ran = [r for r in records if r["status"] not in ("pruned", "not run")]
    best = data["tuned"]["targets"].get(target)
    per_worker: dict[str, int] = {}
    for r in ran:
        where = (r.get("worker") or {}).get("adapter", "?")
        per_worker[where] = per_worker.get(where, 0) + 1
    return {
        "workers": workers, "exit": done.returncode, "wall_s": round(wall, 2), "tune_wall_s": round(data["wall_s"], 2),
        "variants": len(records), "pruned": sum(r["status"] == "pruned" for r in records), "ran": len(ran),
        "correct": sum(r["status"] == "correct" for r in ran),
        "statuses": sorted({r["status"] for r in ran}),
        "variants_per_minute": round(len(ran) / (data["wall_s"] / 60), 2) if data["wall_s"] else None,
        "runs_per_adapter": per_worker,
        "best": best and {"label": best["label"], "tflops": best["tflops"], "median_ms": best["median_ms"],
                          "peak_fraction": best["peak_fraction"], "adapter": best["adapter"]},
        "gpu_seconds_of_ran_runs": round(sum((r.get("report") or {}).get("wall_s", 0) for r in ran), 1),
        "pruned_reasons": sorted({r["error"].split(" '")[0] for r in records if r["status"] == "pruned"}),
        "results": [{"label": r["label"], "status": r["status"], "tflops": r.get("tflops"),
                     "max_abs_error": r.get("max_abs_error"), "adapter": (r.get("worker") or {}).get("adapter")}
                    for r in records],
    }


def main() -> None:
    smoke = "--smoke" in sys.argv
    out = Path(os.environ.get("OUT", tempfile.mkdtemp()))
    target = "lavapipe" if smoke else "nvidia-h100"
    space = SMOKE_SPACE if smoke else SPACE
    work = Path(tempfile.mkdtemp(prefix="tune-gpu-"))
    run = work / "gemm_pipelined.run.toml"
    sizes = ", ".join(f"{k} = {v}" for k, v in space.items())
    run.write_text(RUN.read_text() + f"\n[tune]\nsizes = {{ {sizes} }}\n")
    report = {"benchmark": "tune_h100x2", "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
        timespec="minutes"), "machine": machine(), "kernel": str(KERNEL.relative_to(ROOT)),
        "space": space, "size": "4096^3, f16 in, f32 out" if not smoke else "128^3 (smoke run, lavapipe)"}
    try:
        report["nvidia_smi"] = subprocess.run(["nvidia-smi", "--query-gpu=index,name,uuid", "--format=csv,noheader"],
                                              capture_output=True, text=True, timeout=30).stdout.strip().splitlines()
    except (OSError, subprocess.TimeoutExpired):
        report["nvidia_smi"] = []
    report["adapter_listings"] = {"plain": listings()}
    print(json.dumps(report["adapter_listings"], indent=1), file=sys.stderr, flush=True)
    from coop_lsp.runner.adapters import query_adapters

    report["coop_lsp_adapters"] = query_adapters()
    # Within one device call of 10 minutes: one GPU is given the larger share.
    report["one_gpu"] = tune(run, target, 1, work / "one.jsonl", 300)
    report["two_gpus"] = tune(run, target, 2, work / "two.jsonl", 220)
    one, two = report["one_gpu"], report["two_gpus"]
    if "error" not in one and "error" not in two:
        report["comparison"] = {
            "wall_ratio": round(one["tune_wall_s"] / two["tune_wall_s"], 3),
            "same_best": (one["best"] or {}).get("label") == (two["best"] or {}).get("label"),
            "every_run_correct": one["correct"] == one["ran"] and two["correct"] == two["ran"],
            "same_statuses": [(r["label"], r["status"]) for r in one["results"]]
                             == [(r["label"], r["status"]) for r in two["results"]],
        }
    name = "tune_h100x2.json" if not smoke else "tune_smoke.json"
    (out / name).write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps({k: v for k, v in report.items() if k not in ("one_gpu", "two_gpus")}, indent=1))
    for key in ("one_gpu", "two_gpus"):
        print(key, json.dumps({k: v for k, v in report[key].items() if k != "results"}))


if __name__ == "__main__":
    main()
