"""P009's fix on ggml's own kernel: the published mul_mat_subgroup_matrix against the same kernel with the
next K slice read into registers before the multiplies (the pattern P009 asks for), bounds checks on and
off, results checked, timed on the GPU.

    python -m benchmarks.advisor_ggml prepare FOLDER [--corpus /work/corpus/templates]   # here
    python -m benchmarks.advisor_ggml run FOLDER [--out FILE]                             # on the GPU machine

`prepare` instantiates the kernel as benchmarks/real_kernels.py does (outside the repository: the kernel
is ggml's, not ours) and derives the prefetch variant from it mechanically (prefetched()): the two staging
calls at the top of the K loop become a read of the next slice into registers before the multiplies and a
write to workgroup memory after them, between two barriers, as examples/chromium/gemm_pipelined.wgsl does
with one buffer. The rest of ggml's text, its interface and its f16 accumulation are unchanged. It writes
the run description beside them (ggml's dst is N x M: src1 (N x K) times src0 transposed).

`run` runs all four (published / prefetched, bounds checks on / off) with coop_lsp.runner on Dawn and writes
benchmarks/results/advisor_ggml.json (or --out) with the machine, each run's status, check, time and
TFLOP/s, and the speed-ups, and whether P009 fires on each kernel.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

from .common import prepare_and_run_main

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SIZE = 4096
DESCRIPTION = """\
dispatch = ["(M / 128) * (N / 128)"]
flops = "2 * M * N * K"

[sizes]
M = {size}
N = {size}
K = {size}

[[binding]]
binding = 0
type = "f16"
size = "M * K"
fill = "random"
seed = 1

[[binding]]
binding = 1
type = "f32"
size = "N * K"
fill = "random"
seed = 2

[[binding]]
binding = 2
type = "f32"
size = "N * M"

[[binding]]
binding = 3
fields = {{ m = "M", n = "N", k = "K", stride_01 = "K", stride_11 = "K", bs02 = 1, bs03 = 1, broadcast2 = 1, broadcast3 = 1 }}

[check]
kind = "gemm"        # dst (N x M) = src1 (N x K) x src0 transposed (src0 is M x K row-major: K x M column-major)
a = "src1"
b = "src0"
c = "dst"
M = "N"
N = "M"
K = "K"
layout_b = "col"

[timing]
warmup = 2
repetitions = 10
timeout_s = 120
"""

# The register-prefetch helpers, appended to the module. Each invocation copies 4 vec4s of each operand a
# step (ggml's staging loops run TILE_SRC*_SHMEM / (TOTAL_WORKGROUP_SIZE * 4) = 4 times), so the slice in
# flight is two arrays of four vec4<f16>, indexed by constants once the loops are unrolled.
HELPERS = """
const PREFETCH_COPIES = TILE_SRC0_SHMEM / (TOTAL_WORKGROUP_SIZE * 4u);
const_assert PREFETCH_COPIES * TOTAL_WORKGROUP_SIZE * 4u == TILE_SRC0_SHMEM;
const_assert TILE_SRC1_SHMEM == TILE_SRC0_SHMEM;
alias InFlight = array<vec4<f16>, PREFETCH_COPIES>;

// The slice starting at k_outer of src0 (rows offset_m...) and of src1 (rows offset_n...), into registers,
// with ggml's own bounds handling (zeros outside m, n and k).
fn prefetch_src0(thread_id: u32, batch_offset: u32, offset_m: u32, k_outer: u32) -> InFlight {
    var slice: InFlight;
    for (var i = 0u; i < PREFETCH_COPIES; i++) {
        let at = thread_id * 4u + i * TOTAL_WORKGROUP_SIZE * 4u;
        let row = offset_m + at / 32u;
        let col = k_outer + at % 32u;
        let inside = row < params.m && col < params.k;
        slice[i] = select(vec4<f16>(0.0), src0[select(0u, batch_offset + row * params.stride_01 + col, inside) / 4u],
                          inside);
    }
    return slice;
}

fn prefetch_src1(thread_id: u32, batch_offset: u32, offset_n: u32, k_outer: u32) -> InFlight {
    var slice: InFlight;
    for (var i = 0u; i < PREFETCH_COPIES; i++) {
        let at = thread_id * 4u + i * TOTAL_WORKGROUP_SIZE * 4u;
        let row = offset_n + at / 32u;
        let col = k_outer + at % 32u;
        let inside = row < params.n && col < params.k;
        slice[i] = vec4<f16>(select(vec4<f32>(0.0),
                                    src1[select(0u, batch_offset + row * params.stride_11 + col, inside) / 4u],
                                    inside));
    }
    return slice;
}

// Registers to workgroup memory, where ggml's staging puts them.
fn stage_slices(thread_id: u32, a: InFlight, b: InFlight) {
    for (var i = 0u; i < PREFETCH_COPIES; i++) {
        let at = thread_id * 4u + i * TOTAL_WORKGROUP_SIZE * 4u;
        store_shmem(a[i], at);
        store_shmem(b[i], TILE_SRC0_SHMEM + at);
    }
}
"""

_LOOP = re.compile(
    r"(?P<indent>[ \t]*)for \(var k_outer = 0u; k_outer < params\.k; k_outer \+= (?P<step>\w+)\) \{\s*\n"
    r"\s*init_shmem_src0\((?P<args0>[^;]*?)\);\s*\n"
    r"\s*init_shmem_src1\((?P<args1>[^;]*?)\);\s*\n"
    r"\s*workgroupBarrier\(\);\s*\n")


def prefetched(text: str) -> str:
    """ggml's kernel with the next slice read into registers before the multiplies. Raises ValueError when
    the K loop does not have the shape this rewrite knows (the kernel is never run half-rewritten)."""
    found = _LOOP.search(text)
    if found is None:
        raise ValueError("the K loop does not start with init_shmem_src0, init_shmem_src1 and a barrier")
    args0 = [a.strip() for a in found["args0"].split(",")]
    args1 = [a.strip() for a in found["args1"].split(",")]
    if len(args0) != 4 or len(args1) != 4 or args0[3] != "k_outer" or args1[3] != "k_outer":
        raise ValueError("unexpected staging arguments")
    indent, step = found["indent"], found["step"]
    inner = indent + "    "
    # The last slice is read again past the end, into registers nobody stages for a multiply: cheaper than
    # a branch, and never out of bounds.
    last = "((params.k - 1u) / {step}) * {step}".format(step=step)
    head = (f"{indent}var next_a = prefetch_src0({', '.join(args0[:3])}, 0u);\n"
            f"{indent}var next_b = prefetch_src1({', '.join(args1[:3])}, 0u);\n"
            f"{indent}stage_slices({args0[0]}, next_a, next_b);\n"
            f"{indent}workgroupBarrier();\n"
            f"{indent}for (var k_outer = 0u; k_outer < params.k; k_outer += {step}) {{\n"
            f"{inner}let k_next = min(k_outer + {step}, {last});\n"
            f"{inner}next_a = prefetch_src0({', '.join(args0[:3])}, k_next);\n"
            f"{inner}next_b = prefetch_src1({', '.join(args1[:3])}, k_next);\n")
    rest = text[found.end():]
    # The loop's closing barrier: after it, write the registers and wait once more.
    closing = re.search(r"\n(?P<i>[ \t]*)workgroupBarrier\(\);\s*\n(?P=i)?[ \t]*\}", rest)
    if closing is None:
        raise ValueError("the K loop does not end with a barrier")
    body_end = closing.start()
    tail = (f"\n{inner}workgroupBarrier();\n{inner}stage_slices({args0[0]}, next_a, next_b);\n"
            f"{inner}workgroupBarrier();\n{indent}}}")
    return text[:found.start()] + head + rest[:body_end] + tail + rest[closing.end():] + HELPERS


def prepare(folder: Path, corpus: Path) -> None:
    from benchmarks.real_kernels import instantiate_ggml

    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        meta = instantiate_ggml(corpus, Path(scratch))
        text = (Path(scratch) / "kernel.wgsl").read_text()
    (folder / "published.wgsl").write_text(text)
    (folder / "prefetched.wgsl").write_text(prefetched(text))
    for name in ("published", "prefetched"):
        (folder / f"{name}.run.toml").write_text(DESCRIPTION.format(size=SIZE))
    (folder / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"wrote {folder}: published.wgsl, prefetched.wgsl and their run descriptions")


def p009_fires(text: str) -> bool:
    from coop_lsp.lint import lint_source

    return any(d.code == "P009" for d in lint_source(text, targets=("nvidia-h100",)).diagnostics)


def run(folder: Path, out: Path | None) -> int:
    from benchmarks.common import machine
    from coop_lsp.runner.description import load_run_description
    from coop_lsp.runner.execute import run_kernel

    results = {}
    for name in ("published", "prefetched"):
        kernel = folder / f"{name}.wgsl"
        for robustness in (False, True):
            description = load_run_description(folder / f"{name}.run.toml")
            started = time.perf_counter()
            report = run_kernel(kernel, description, api="dawn", emulate_kernel=False, robustness=robustness)
            print(report.render("text"), flush=True)
            entry = {"status": report.status, "adapter": report.adapter, "error": report.error[:800],
                     "bounds_checks": robustness, "wall_s": round(time.perf_counter() - started, 1),
                     "checks": [{"name": c.name, "verdict": c.verdict, "max_abs_error": c.max_abs_error,
                                 "judged": c.judged} for c in report.checks]}
            if report.timing:
                entry.update(median_ms=report.timing["median_ms"], min_ms=report.timing["min_ms"],
                             max_ms=report.timing["max_ms"], repetitions=report.timing["repetitions"],
                             timing_source=report.timing["source"])
            if report.tflops is not None:
                entry["tflops"] = report.tflops
            results[f"{name}, bounds checks {'on' if robustness else 'off'}"] = entry
    speedups = {}
    for setting in ("off", "on"):
        slow, fixed = results[f"published, bounds checks {setting}"], results[f"prefetched, bounds checks {setting}"]
        if slow["status"] == "correct" and fixed["status"] == "correct":
            speedups[f"bounds checks {setting}"] = slow["median_ms"] / fixed["median_ms"]
    payload = {"benchmark": "advisor_ggml", "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "machine": machine(), "size": f"{SIZE}^3", "kernel": json.loads((folder / "meta.json").read_text()),
               "fix": "P009: the next K slice read into registers before the multiplies and written to workgroup "
                      "memory after them (one buffer, two barriers a step; benchmarks/advisor_ggml.py prefetched())",
               "p009_fires": {name: p009_fires((folder / f"{name}.wgsl").read_text())
                              for name in ("published", "prefetched")},
               "runs": results, "speedup": speedups}
    target = out or Path(os.environ.get("OUT", ROOT / "benchmarks" / "results")) / "advisor_ggml.json"
    target.write_text(json.dumps(payload, indent=2) + "\n")
    print(json.dumps({"speedup": speedups, "p009_fires": payload["p009_fires"]}))
    return 0 if len(speedups) == 2 else 1


def main() -> int:
    return prepare_and_run_main(prepare, run, Path("/work/corpus/templates"))


if __name__ == "__main__":
    sys.exit(main())
