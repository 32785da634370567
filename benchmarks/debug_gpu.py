"""What prints and watches cost on a GPU: examples/chromium/gemm_tiled.wgsl through Dawn, as written and
with coop-lint run's instrumentation (coop_lsp/runner/debug_print.py), timed the same way and checked.

    .venv/bin/python -m benchmarks.debug_gpu [--size 1024] [--repetitions 20] [--out FILE.json]
    .venv/bin/python -m benchmarks.debug_gpu --smoke      # small sizes, any adapter (lavapipe: emulated)

Variants, each one run of coop_lsp.runner.execute.run_kernel (its own worker process, GPU timestamps
where the adapter has them, the host clock otherwise):
  - plain: the kernel as written;
  - print_per_store: `// coop: print "row=%u col=%u", row, col` after the result store, so every
    invocation of every subgroup appends once per result tile (TILES_M x TILES_N records an invocation,
    almost all of them past the cap: the atomic counter is what is timed);
  - watch_k_loop: `--watch "step, kk@LINE"` on the line of the inner K loop, so every invocation tests
    the watch's lane filter each iteration and the first subgroup of the first workgroup records;
  - both together.
The records stay in the buffer across the timed repetitions (the worker reads them after the first
dispatch), so past the first dispatch every append is a counted overflow: the steady cost of a print left
in a hot kernel. Every variant's results are checked against NumPy; the instrumented ones must agree.

Writes JSON (default benchmarks/results/debug_gpu.json) with the machine, the adapter, and per variant
the status, median time, TFLOP/s, the slowdown against plain, and the records' count and overflow.
Exit status 0 when every variant is correct.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import machine  # noqa: E402
from coop_lsp.runner.description import load_run_description  # noqa: E402
from coop_lsp.runner.execute import run_kernel  # noqa: E402

KERNEL = ROOT / "examples" / "chromium" / "gemm_tiled.wgsl"
RUN = ROOT / "examples" / "runs" / "gemm_tiled.run.toml"
# The tiles that emulate quickly on lavapipe (tests/test_runner_run.py runs the same).
SMOKE_TILES = {"BM": 64, "BN": 64, "WM": 32, "WN": 32}


def _line_of(text: str, pattern: str) -> int:
    for number, line in enumerate(text.splitlines(), 1):
        if re.search(pattern, line):
            return number
    raise SystemExit(f"{KERNEL.name}: no line matches {pattern!r}; the benchmark's anchors need updating")


def variants(text: str) -> dict[str, tuple[str, dict | None]]:
    """name -> (kernel text, run_kernel's debug options)."""
    store = _line_of(text, r"subgroupMatrixStore<")
    k_loop = _line_of(text, r"for \(var kk = ")
    lines = text.splitlines()
    indent = re.match(r"\s*", lines[store - 1]).group(0)
    printed = "\n".join(lines[:store] + [f'{indent}// coop: print "row=%u col=%u", row, col'] + lines[store:]) + "\n"
    # The print's line comes after the K loop: the watch's line number is the same in both texts.
    watch = {"watches": [f"step, kk@{k_loop}"]}
    return {"plain": (text, None), "print_per_store": (printed, {}), "watch_k_loop": (text, watch),
            "print_and_watch": (printed, watch)}


def run_variant(name: str, text: str, debug: dict | None, description, backend: str, timeout: float) -> dict:
    report = run_kernel(KERNEL, description, backend=backend, text=text, timeout_s=timeout, debug=debug)
    out = {"variant": name, "status": report.status, "backend": report.backend, "emulated": report.emulated,
           "adapter": report.adapter, "error": report.error, "median_ms": report.timing.get("median_ms"),
           "min_ms": report.timing.get("min_ms"), "timing_source": report.timing.get("source"),
           "tflops": report.tflops, "max_abs_error": max((c.max_abs_error for c in report.checks), default=None)}
    if report.debug:
        out["debug"] = {k: report.debug[k] for k in ("count", "limit", "overflow", "lanes")}
        out["debug"]["records_kept"] = len(report.debug["records"])
        out["debug"]["first_records"] = report.debug["records"][:4]
        out["debug"]["sites"] = report.debug["sites"]
    print(f"{name:>16}: {report.status}" + (f", {out['median_ms']:.4f} ms" if out["median_ms"] else "")
          + (f" ({report.error})" if report.error else ""), file=sys.stderr, flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1024, help="M = N = K (default 1024)")
    parser.add_argument("--repetitions", type=int, default=20)
    parser.add_argument("--backend", default="dawn", help="dawn (default), or auto/emulate for --smoke")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--smoke", action="store_true",
                        help="128 x 128 x 64 with small tiles on whatever adapter there is (lavapipe: emulated)")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "debug_gpu.json"))
    args = parser.parse_args(argv)

    size = 128 if args.smoke else args.size
    values = {"M": size, "N": size, "K": 64 if args.smoke else size, **(SMOKE_TILES if args.smoke else {})}
    description = load_run_description(RUN, size_values=values)
    description.warmup = 1 if args.smoke else 3
    description.repetitions = 2 if args.smoke else args.repetitions
    backend = "auto" if args.smoke and args.backend == "dawn" else args.backend
    text = KERNEL.read_text()
    results = [run_variant(name, kernel_text, debug, description, backend, args.timeout)
               for name, (kernel_text, debug) in variants(text).items()]
    plain = results[0].get("median_ms")
    for r in results:
        r["slowdown"] = r["median_ms"] / plain if plain and r.get("median_ms") else None
    document = {"benchmark": "debug_gpu", "kernel": str(KERNEL.relative_to(ROOT)), "sizes": values,
                "smoke": args.smoke, "warmup": description.warmup, "repetitions": description.repetitions,
                "machine": machine(), "adapter": next((r["adapter"] for r in results if r["adapter"]), ""),
                "results": results}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document, indent=2) + "\n")
    print(f"wrote {out}", file=sys.stderr)
    return 0 if all(r["status"] == "correct" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
