"""Full analysis throughput (parse, syntax and semantic checks) against Tint, in one run.

    .venv/bin/python -m benchmarks.semantic

Writes benchmarks/results/semantic.json. Tint is the wgpudawn 0.32.0.4 Tint
on Dawn's Null backend, timed in its own process (shader-module creation:
parse, resolve, validate, uniformity).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from coop_lsp.lint import lint_source

from .common import median_seconds, synthetic_kernel, write_result

ROOT = Path(__file__).resolve().parent.parent
REPEATS_SMALL, REPEATS_LARGE = 20, 3
LARGE_LINES = 50_000


def main() -> None:
    files = {str(p.relative_to(ROOT)): p.read_text() for p in sorted((ROOT / "examples").rglob("*.wgsl"))}
    files["generated (50,000 lines)"] = synthetic_kernel(lines=LARGE_LINES)
    ours = {}
    for name, source in files.items():
        repeats = REPEATS_LARGE if len(source) > 100_000 else REPEATS_SMALL
        result = lint_source(source)
        ours[name] = {
            "seconds": median_seconds(lambda: lint_source(source), repeats),
            "lines": source.count("\n") + 1,
            "findings": len(result.diagnostics),
        }
    tint_jobs = [{"name": name, "source": source,
                  "repeats": REPEATS_LARGE if len(source) > 100_000 else REPEATS_SMALL}
                 for name, source in files.items() if _tint_dialect(name)]
    completed = subprocess.run([sys.executable, "-m", "benchmarks.tint_timing"], input=json.dumps(tint_jobs),
                               capture_output=True, text=True, cwd=ROOT,
                               env=dict(os.environ, WGPU_BACKEND_TYPE="Null"), timeout=600)
    tint = json.loads(completed.stdout) if completed.returncode == 0 else {}
    rows = {}
    for name, figures in ours.items():
        row = {
            "lines": figures["lines"],
            "coop_lsp_ms": round(figures["seconds"] * 1e3, 3),
            "coop_lsp_lines_per_s": round(figures["lines"] / figures["seconds"]),
            "coop_lsp_findings": figures["findings"],
        }
        if name in tint:
            row["tint_ms"] = round(tint[name]["seconds"] * 1e3, 3)
            row["tint_lines_per_s"] = round(figures["lines"] / tint[name]["seconds"])
            row["tint_errors"] = tint[name]["errors"]
            row["coop_lsp_time_over_tint_time"] = round(figures["seconds"] / tint[name]["seconds"], 2)
        rows[name] = row
    path = write_result("semantic", rows, notes=(
        "coop_lsp = lint_source (parse + syntax + semantic checks) in-process; tint = "
        "device.create_shader_module on Dawn's Null backend, wgpudawn 0.32.0.4; medians. "
        "wgpu and standard dialect files have no Tint figure (Tint does not accept them)."))
    width = max(len(n) for n in rows)
    for name, row in rows.items():
        ratio = row.get("coop_lsp_time_over_tint_time", "-")
        print(f"{name:{width}}  {row['lines']:>6} lines  coop-lsp {row['coop_lsp_lines_per_s']:>9} lines/s  "
              f"tint {row.get('tint_lines_per_s', '-'):>9} lines/s  time ratio {ratio}")
    if completed.returncode != 0:
        print("Tint timing failed:", completed.stderr[-1000:])
    print(f"written to {path}")


def _tint_dialect(name: str) -> bool:
    return "wgpu/" not in name and "standard/" not in name


if __name__ == "__main__":
    main()
