"""coop-lint over a corpus of generated kernels, against Tint over the same files, in one run.

    .venv/bin/python -m benchmarks.cli

500 kernels of varied size (built from benchmarks/common.py's generator,
each with its own mix of plain and matrix functions) are written to a
temporary folder; coop-lint lints them in one process (as CI runs it), and
Tint on Dawn's Null backend compiles the same files. Also the start-up time
of the command. Writes benchmarks/results/cli.json.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .common import synthetic_kernel, write_result

FILES = 500


def main() -> None:
    rng = random.Random(3)
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for index in range(FILES):
            text = synthetic_kernel(lines=rng.choice((40, 80, 120, 200, 400)))
            path = Path(folder) / f"kernel_{index:03}.wgsl"
            path.write_text(text)
            paths.append(path)
        lines = sum(p.read_text().count("\n") + 1 for p in paths)
        coop_lint = Path(sys.executable).with_name("coop-lint")
        start = time.perf_counter()
        completed = subprocess.run([str(coop_lint), "-q", "--output-format", "concise", folder],
                                   capture_output=True, text=True)
        ours = time.perf_counter() - start
        jobs = [{"name": str(p), "source": p.read_text(), "repeats": 1} for p in paths]
        start = time.perf_counter()
        tint = subprocess.run([sys.executable, "-m", "benchmarks.tint_timing"], input=json.dumps(jobs),
                              capture_output=True, text=True, env=dict(os.environ, WGPU_BACKEND_TYPE="Null"))
        tint_wall = time.perf_counter() - start
        tint_times = json.loads(tint.stdout) if tint.returncode == 0 else {}
        tint_compile = sum(v["seconds"] for v in tint_times.values())
        tint_errors = sum(1 for v in tint_times.values() if v["errors"])
    startups = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([str(coop_lint), "--version"], capture_output=True)
        startups.append(time.perf_counter() - start)
    figures = {
        "files": FILES, "lines": lines,
        "coop_lint_seconds": round(ours, 3),
        "coop_lint_files_per_s": round(FILES / ours, 1),
        "coop_lint_lines_per_s": round(lines / ours),
        "coop_lint_exit_code": completed.returncode,
        "coop_lint_findings": len([line for line in completed.stdout.splitlines() if line.strip()]),
        "tint_compile_seconds": round(tint_compile, 3),
        "tint_process_seconds": round(tint_wall, 3),
        "tint_files_per_s": round(FILES / tint_compile, 1) if tint_compile else None,
        "tint_files_with_errors": tint_errors,
        "coop_lint_time_over_tint_compile_time": round(ours / tint_compile, 2) if tint_compile else None,
        "startup_ms_median": round(statistics.median(startups) * 1e3, 1),
    }
    path = write_result("cli", figures, notes=(
        "coop-lint: one process over the folder (parse, syntax, semantic, uniformity), including start-up; "
        "Tint: device.create_shader_module per file on Dawn's Null backend, summed compile time "
        "(tint_process_seconds adds Dawn's start and the transfer of the sources)."))
    for key, value in figures.items():
        print(f"{key:40} {value}")
    print(f"written to {path}")


if __name__ == "__main__":
    main()
