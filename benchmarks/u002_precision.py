"""U002's precision, checked by running: does a U002 call really diverge?

    python -m benchmarks.u002_precision [--realkernels /work/realkernels] [--out FILE]

Every kernel is run emulated on lavapipe with every subgroup and matrix builtin call traced
(coop_lsp.runner.divergence): at each call the run tells whether the lanes of some subgroup arrived a
different number of times (diverged), never did (uniform), or never got there (not reached).

Kernels:
  - examples/: every example with a run description in examples/runs, at the small sizes
    EXAMPLE_SIZES (the emulation's);
  - the gathered public kernels (benchmarks/real_kernels.py's folder), at their emulated sizes;
  - tests/spec/uniformity/: every case that calls a subgroup or matrix builtin, with a run description
    made for it (two workgroups; arrays of 4096 elements, random: integers 0 or 1, floats in
    [-1, 1]); cases whose bindings are not arrays are skipped, with the reason.

Precision: of the U002 calls (control flow) that were reached, the share that diverged. U002s about an
argument (lanes arrive together with different values) are counted apart: arrivals do not measure them.
Calls that diverged where U002 said nothing are counted apart: with U001 there (Tint's rule is on,
so U002 stays quiet), and unflagged (U002's misses).
Writes benchmarks/results/u002_precision.json with the machine.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import machine  # noqa: E402
from coop_lsp.runner.description import parse_run_description  # noqa: E402
from coop_lsp.runner.divergence import measure, traced_calls  # noqa: E402
from coop_lsp.runner.kernel import KernelError, load_kernel  # noqa: E402

EXAMPLES = {  # kernel -> (run description, sizes to emulate at)
    "chromium/gemm_naive.wgsl": ("gemm_naive.run.toml", {}),
    "chromium/gemm_blocked.wgsl": ("gemm_blocked.run.toml", {}),
    "chromium/gemm_int8.wgsl": ("gemm_int8.run.toml", {}),
    "chromium/gemm_tiled.wgsl": ("gemm_tiled.run.toml", {"M": 128, "N": 128, "K": 64, "BM": 64, "BN": 64,
                                                          "WM": 32, "WN": 32}),
    "chromium/gemm_tiled_4x4.wgsl": ("gemm_tiled_4x4.run.toml", {"M": 64, "N": 64, "K": 16, "BM": 32, "BN": 32,
                                                                 "TILE": 8}),
    "chromium/gemm_pipelined.wgsl": ("gemm_pipelined.run.toml", {"M": 64, "N": 64, "K": 64, "BM": 32, "BN": 64,
                                                                 "BK": 16, "TILES_N": 2, "TILE": 8}),
    "standard/gemm_naive.wgsl": ("gemm_naive.run.toml", {}),
    "standard/gemm_blocked.wgsl": ("gemm_blocked.run.toml", {}),
    "plain/gemm_tiled_f32.wgsl": ("gemm_tiled_f32.run.toml", {}),
    "wgpu/gemm_naive.wgsl": ("wgpu_gemm_naive.run.toml", {}),
}


def spec_cases(folder: Path):
    """(name, text) of each `// === ` case of the spec files."""
    for path in sorted(folder.glob("*.wgsl")):
        parts = re.split(r"^// === (.*)$", path.read_text(), flags=re.MULTILINE)
        for title, body in zip(parts[1::2], parts[2::2]):
            yield f"{path.name}: {title.strip()}", body


def description_for(text: str) -> str:
    """A run description for a spec case: each binding an array of random values, two workgroups."""
    module = load_kernel(text, tolerate=frozenset({"U002", "U001"}))
    lines = ["dispatch = [2]"]
    for b in module.bindings:
        if b.element is None or b.struct is not None:
            raise KernelError(f"'{b.name}' is not an array of scalars or vectors")
        value_range = "[-1, 1]" if b.element.startswith("f") else "[0, 1]"
        lines += ["[[binding]]", f"group = {b.group}", f"binding = {b.binding}", f'type = "{b.element}"',
                  f"size = {4096 * b.vector}", 'fill = "random"', f"range = {value_range}", "seed = 1"]
    return "\n".join(lines) + "\n"


def record(kernel: str, corpus: str, report) -> dict:
    entry = report.as_dict()
    entry.update(kernel=kernel, corpus=corpus)
    return entry


def tally(entries: list[dict]) -> dict:
    sites = [s for e in entries for s in e["sites"]]
    flagged = [s for s in sites if s["u002_kind"] == "control flow"]
    reached = [s for s in flagged if s["verdict"] != "not reached"]
    true = [s for s in reached if s["verdict"] == "diverged"]
    return {"kernels_run": sum(1 for e in entries if e["status"] not in ("error", "failed", "timeout")),
            "calls_traced": len(sites), "calls_reached": sum(1 for s in sites if s["verdict"] != "not reached"),
            "u002_argument_calls": sum(1 for s in sites if s["u002_kind"] == "argument"),
            "u002_calls": len(flagged), "u002_reached": len(reached), "u002_diverged": len(true),
            "u002_never_diverged": len(reached) - len(true),
            "precision": (len(true) / len(reached)) if reached else None,
            "diverged_with_u001": sum(1 for s in sites if s["verdict"] == "diverged" and s["u001"]),
            "diverged_unflagged": sum(1 for s in sites if s["verdict"] == "diverged" and not s["u002"]
                                      and not s["u001"])}


# Why a U002 call that was reached never diverged in the run, by case and call: read off the cases.
EXPLAINED = {
    ("subgroup.wgsl: rule off, per-invocation break in a matrix loop", "subgroupMatrixScalarMultiply"):
        "input-dependent: lanes break on `buf[li] > 1.0`, and the run's data lie in [-1, 1]; other data diverge",
    # Judged at the size the run uses (8 on lavapipe), the size-dependent classes no longer claim
    # divergence there (splits.py); these two say what else it depends on.
    ("subgroup.wgsl: rule off, branch on local_invocation_index < 32 in a 64-invocation workgroup", "subgroupAdd"):
        "mapping-dependent (a warning that says so): lavapipe numbers invocations into subgroups in order, "
        "so no 8-lane subgroup straddles invocation 32; another order would split one",
    ("subgroup.wgsl: rule off, loop stepping by an override stays an error", "subgroupShuffleDown"):
        "override-dependent: the run used STEP's default 4, with which every lane runs 8 iterations; a "
        "pipeline that sets STEP = 2 diverges",
}


def never_diverged(entries: list[dict]) -> list[dict]:
    out = []
    for e in entries:
        for site in e["sites"]:
            if site["u002_kind"] == "control flow" and site["verdict"] == "uniform":
                out.append({"kernel": e["kernel"], "line": site["line"], "call": site["call"],
                            "why": EXPLAINED.get((e["kernel"], site["call"]), "not explained")})
    return out


def summarize(document: dict) -> dict:
    entries = document["kernels"]
    document["summary"] = {corpus: tally([e for e in entries if e["corpus"] == corpus])
                           for corpus in ("examples", "gathered", "spec")}
    document["summary"]["all"] = tally(entries)
    document["u002_reached_never_diverged"] = never_diverged(entries)
    document["not_run"] = [{"kernel": e["kernel"], "status": e["status"], "error": e["error"][:300]}
                           for e in entries if e["status"] in ("error", "failed", "timeout")]
    return document


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--realkernels", type=Path, default=Path("/work/realkernels"))
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "u002_precision.json")
    parser.add_argument("--summarize", type=Path, help="recompute the summary of an earlier run's file")
    args = parser.parse_args(argv)
    if args.summarize:
        document = summarize(json.loads(args.summarize.read_text()))
        args.out.write_text(json.dumps(document, indent=2) + "\n")
        print(json.dumps(document["summary"]["all"], indent=2))
        return 0
    started = time.perf_counter()
    entries, skipped = [], []
    for kernel, (run, sizes) in EXAMPLES.items():
        path, run_path = ROOT / "examples" / kernel, ROOT / "examples" / "runs" / run
        desc = parse_run_description(run_path.read_text(), run_path, run_path.parent, sizes or None)
        entries.append(record(kernel, "examples", measure(path, desc)))
        print(kernel, entries[-1]["status"], entries[-1]["error"][:200], file=sys.stderr, flush=True)
    for folder in sorted(p for p in args.realkernels.iterdir() if (p / "meta.json").exists()):
        meta = json.loads((folder / "meta.json").read_text())
        run_path = folder / "kernel.run.toml"
        desc = parse_run_description(run_path.read_text(), run_path, folder, meta.get("emulate_sizes"))
        kernel = folder / meta.get("emulate_kernel", "kernel.wgsl")
        entries.append(record(f"{folder.name}/{kernel.name}", "gathered", measure(kernel, desc)))
        print(folder.name, entries[-1]["status"], entries[-1]["error"][:200], file=sys.stderr, flush=True)
    for name, text in spec_cases(ROOT / "tests" / "spec" / "uniformity"):
        try:
            module = load_kernel(text, tolerate=frozenset({"U002", "U001"}))
            if not traced_calls(module) or not module.entry_points:
                continue
            desc = parse_run_description(description_for(text))
        except Exception as error:  # noqa: BLE001 - a case that cannot be described is skipped, with why
            skipped.append({"case": name, "why": str(error)[:200]})
            continue
        entries.append(record(name, "spec", measure(Path("case.wgsl"), desc, text=text,
                                                    tolerate=frozenset({"U002", "U001"}))))
        print(name, entries[-1]["status"], entries[-1]["error"][:200], file=sys.stderr, flush=True)
    document = {"benchmark": "u002_precision", "machine": machine(),
                "adapter": "lavapipe (llvmpipe), through wgpu-native",
                "wall_s": round(time.perf_counter() - started, 1),
                "kernels": entries, "skipped": skipped}
    summarize(document)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=2) + "\n")
    print(json.dumps(document["summary"], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
