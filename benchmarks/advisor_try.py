"""`coop-lint run --explain --try` on the GPU, against the same fixes made by hand (issue 32, item 4).

    python -m benchmarks.advisor_try prepare FOLDER [--corpus /work/corpus/templates]   # here
    python -m benchmarks.advisor_try run FOLDER [--out FILE]                             # on the GPU machine

`prepare` instantiates ggml's published mul_mat_subgroup_matrix outside the repository (as
benchmarks/advisor_ggml.py does, with its run description). `run` drives the command line as a user
would, one process per command, each at 4096^3, once with Dawn's bounds checks and once without
(--no-robustness, the setting the earlier pairs were measured in):
  - ggml's kernel with --explain --try (bounds checks off; P003 unrolling; P005 padding, which its literal
    stride refuses; T050 f32 accumulators), and by hand: the same kernel with --no-robustness;
  - examples/chromium/gemm_tiled.wgsl with --explain --try (bounds checks, P003 unrolling), and by hand:
    gemm_tiled_4x4.wgsl, gemm_tiled written out with constant indices, at the same 128 x 128 block and BK;
  - benchmarks/perf_pairs/pipelined_knobs.wgsl with PAD=0 (P005 fires) with --explain --try, and by hand:
    PAD=1, the padding its author wrote.
It writes benchmarks/results/advisor_try.json (or --out): machine, driver, every trial as `--try` reported
it, and each hand-made speed-up beside the one `--try` measured.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from .common import prepare_and_run_main

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CLI = "import sys; from coop_lsp.cli.main import main; sys.exit(main(sys.argv[1:]))"
RUNS = ROOT / "examples" / "runs"
PAIRS = ROOT / "benchmarks" / "perf_pairs"


def cases(folder: Path) -> list[dict]:
    ggml = folder / "published.wgsl"
    tiled = ROOT / "examples" / "chromium" / "gemm_tiled.wgsl"
    knobs = PAIRS / "pipelined_knobs.wgsl"
    return [
        {"name": "ggml mul_mat_subgroup_matrix", "kernel": ggml, "args": [],
         "hand": {"P007": ([str(ggml), "--no-robustness"], "the same kernel run with --no-robustness")}},
        {"name": "examples/chromium/gemm_tiled.wgsl", "kernel": tiled,
         "args": ["--run", str(RUNS / "gemm_tiled.run.toml")],
         "hand": {"P007": ([str(tiled), "--run", str(RUNS / "gemm_tiled.run.toml"), "--no-robustness"],
                           "the same kernel run with --no-robustness"),
                  "P003": ([str(ROOT / "examples" / "chromium" / "gemm_tiled_4x4.wgsl"), "--run",
                            str(RUNS / "gemm_tiled_4x4.run.toml"), "--set", "BN=128", "--set", "BK=32"],
                           "gemm_tiled_4x4.wgsl (written out by hand: constant indices, one B tile at a time) "
                           "at gemm_tiled's 128 x 128 block and BK = 32")}},
        {"name": "benchmarks/perf_pairs/pipelined_knobs.wgsl, PAD=0", "kernel": knobs,
         "args": ["--run", str(PAIRS / "pipelined_knobs.run.toml"), "--set", "PAD=0"],
         "hand": {"P005": ([str(knobs), "--run", str(PAIRS / "pipelined_knobs.run.toml"), "--set", "PAD=1"],
                           "PAD=1: the padding the kernel's author wrote (16 bytes a staged row)")}},
    ]


def prepare(folder: Path, corpus: Path) -> None:
    from benchmarks.advisor_ggml import DESCRIPTION, SIZE
    from benchmarks.real_kernels import instantiate_ggml

    folder.mkdir(parents=True, exist_ok=True)
    meta = instantiate_ggml(corpus, folder)
    (folder / "kernel.wgsl").rename(folder / "published.wgsl")
    (folder / "published.run.toml").write_text(DESCRIPTION.format(size=SIZE))
    (folder / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"wrote {folder}: published.wgsl and its run description")


def _cli(args: list[str]) -> tuple[dict | list | None, str, float]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CLI, "run", *args, "--format", "json"], capture_output=True,
                          text=True, timeout=540)
    wall = round(time.perf_counter() - started, 1)
    try:
        return json.loads(done.stdout), done.stderr[-2000:], wall
    except json.JSONDecodeError:
        return None, (done.stdout + done.stderr)[-2000:], wall


def _driver() -> str:
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _case(case: dict, checks: str, setting: list[str]) -> dict:
    """One kernel with --explain --try at one bounds-check setting, and its hand-made variants."""
    report, errors, wall = _cli([str(case["kernel"]), *case["args"], *setting, "--explain", "--try"])
    entry = {"kernel": case["name"], "bounds_checks": checks, "wall_s": wall}
    if report is None:
        entry["error"] = errors
        print(json.dumps(entry), flush=True)
        return entry
    entry.update(status=report["status"], adapter=report["adapter"], median_ms=report["timing"].get("median_ms"),
                 tflops=report.get("tflops"), findings=[f"{f['code']} {f['message']}" for f in
                                                        report["explain"]["findings"]],
                 trials=report["explain"].get("trials"), measured_bounds_checks=report["explain"]["bounds_checks"])
    hand = {}
    for code, (args, what) in case["hand"].items():
        if code == "P007" and setting:
            continue  # already without bounds checks
        made, errors, wall = _cli(args + setting)
        record = {"what": what, "wall_s": wall}
        if made is None:
            record["error"] = errors
        else:
            record.update(status=made["status"], median_ms=made["timing"].get("median_ms"),
                          tflops=made.get("tflops"))
            if made["status"] == "correct" and entry["median_ms"] and record["median_ms"]:
                record["speedup"] = entry["median_ms"] / record["median_ms"]
        tried = next((t for t in entry["trials"] or [] if t["code"] == code), None)
        record["try_speedup"] = tried["speedup"] if tried else None
        record["try_status"] = tried["status"] if tried else None
        hand[code] = record
    entry["hand_made"] = hand
    print(json.dumps(entry, indent=1), flush=True)
    return entry


def run(folder: Path, out: Path | None) -> int:
    from benchmarks.common import machine

    results = []
    for checks in ("on", "off"):
        setting = [] if checks == "on" else ["--no-robustness"]
        for case in cases(folder):
            results.append(_case(case, checks, setting))
    payload = {"benchmark": "advisor_try", "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "machine": machine(), "gpu_and_driver": _driver(), "size": "4096^3",
               "ggml": json.loads((folder / "meta.json").read_text()),
               "method": "each kernel run once with `coop-lint run --explain --try --format json` (each trial a "
                         "fresh checked and timed run of the variant, median of the run description's "
                         "repetitions by GPU timestamps); each hand-made variant run with `coop-lint run`; "
                         "hand-made speed-up = the --try run's original median / the hand-made median",
               "cases": results}
    target = out or Path(os.environ.get("OUT", ROOT / "benchmarks" / "results")) / "advisor_try.json"
    target.write_text(json.dumps(payload, indent=2) + "\n")
    return 0 if all("error" not in c for c in results) else 1


def main() -> int:
    return prepare_and_run_main(prepare, run, Path("/work/corpus/templates"))


if __name__ == "__main__":
    sys.exit(main())
