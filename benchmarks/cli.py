"""coop-lint over a corpus of generated kernels, against Tint over the same files, in one run.

    .venv/bin/python -m benchmarks.cli [--notes TEXT]

500 kernels of varied size (40 to 400 lines, from benchmarks/common.py's
generator with a seeded random source: each file has its own mix of plain
and matrix functions, names, constants and loop bounds, so no two files are
alike) are written to a temporary folder. Whole processes, as CI runs them:
coop-lint with its default jobs (one worker per core) and an empty cache;
the same again, which reads every result from the cache; coop-lint with
--jobs 1 and no cache (one core, for comparison); and Tint on Dawn's Null backend compiling the same
files in one process (its start and Dawn's included). Also the start-up time
of the command. Writes benchmarks/results/cli.json.

--matrix-heavy: the 500 files come from benchmarks/matrix_kernels.py instead (32 tiled GEMM kernels a
file, each multiplying subgroup matrices in a K loop with staging copies and barriers, about 1,570 lines),
the case the generator's mix of cheap plain functions hides. --files N writes N files instead of 500 (100
matrix-heavy files are about as many lines as 500 of the old generator's). --checkout PATH times another checkout's coop-lint (its own .venv,
writing no bytecode there) with the same corpus; --result names the file under benchmarks/results/.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from coop_lsp.cli.parallel import default_jobs

from .common import matrix_heavy_kernel, synthetic_kernel, write_result

FILES = 500


CPU_SECONDS: dict[int, float] = {}  # id(completed process) -> CPU time of it and its workers


def _timed(command: list[str], **kwargs) -> tuple[float, subprocess.CompletedProcess]:
    """Wall time, and (in CPU_SECONDS) the CPU time the process and its children used: on a machine others
    are using, the wall time grows with their load and the CPU time does not."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    completed = subprocess.run(command, capture_output=True, text=True, **kwargs)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU_SECONDS[id(completed)] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, completed


def _cpu(completed: subprocess.CompletedProcess) -> float:
    return round(CPU_SECONDS[id(completed)], 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", default="", help="added to the result's notes (e.g. how busy the machine was)")
    parser.add_argument("--matrix-heavy", action="store_true", help="every function multiplies matrices in a loop")
    parser.add_argument("--checkout", type=Path, help="time this checkout's coop-lint (default: this one)")
    parser.add_argument("--files", type=int, default=FILES, help="how many files (default %(default)s)")
    parser.add_argument("--result", help="result file name under benchmarks/results/ (default: cli or "
                                         "cli_matrix_heavy)")
    args = parser.parse_args()
    rng = random.Random(3)
    environment = dict(os.environ, PYTHONDONTWRITEBYTECODE="1") if args.checkout else None
    load_at_start = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as cache:
        paths = []
        for index in range(args.files):
            text = matrix_heavy_kernel(rng) if args.matrix_heavy else \
                synthetic_kernel(lines=rng.choice((40, 80, 120, 200, 400)), rng=rng)
            path = Path(folder) / f"kernel_{index:03}.wgsl"
            path.write_text(text)
            paths.append(path)
        lines = sum(p.read_text().count("\n") + 1 for p in paths)
        distinct = len({p.read_bytes() for p in paths})
        coop_lint = str(args.checkout.resolve() / ".venv" / "bin" / "coop-lint") if args.checkout else \
            str(Path(sys.executable).with_name("coop-lint"))
        base = [coop_lint, "-q", "--output-format", "concise"]
        cold, completed = _timed(base + ["--cache-dir", cache, folder], env=environment)
        cached, cached_run = _timed(base + ["--cache-dir", cache, folder], env=environment)
        one_core, one_core_run = _timed(base + ["--no-cache", "--jobs", "1", folder], env=environment)
        same = completed.stdout == cached_run.stdout == one_core_run.stdout
        jobs = [{"name": str(p), "source": p.read_text(), "repeats": 1} for p in paths]
        tint_wall, tint = _timed([sys.executable, "-m", "benchmarks.tint_timing"], input=json.dumps(jobs),
                                 env=dict(os.environ, WGPU_BACKEND_TYPE="Null"))
        tint_times = json.loads(tint.stdout) if tint.returncode == 0 else {}
        tint_compile = sum(v["seconds"] for v in tint_times.values())
        tint_errors = sum(1 for v in tint_times.values() if v["errors"])
    startups = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([coop_lint, "--version"], capture_output=True, env=environment)
        startups.append(time.perf_counter() - start)
    ours_lines = lines / cold
    tint_lines = lines / tint_wall if tint.returncode == 0 else None
    figures = {
        "corpus": "matrix-heavy" if args.matrix_heavy else "mixed",
        "checkout": str(args.checkout.resolve()) if args.checkout else str(Path.cwd()),
        "files": args.files, "distinct_files": distinct, "lines": lines, "jobs": default_jobs(),
        "cold_seconds": round(cold, 3),
        "cold_cpu_seconds": _cpu(completed),
        "cached_cpu_seconds": _cpu(cached_run),
        "one_job_cpu_seconds": _cpu(one_core_run),
        "tint_cpu_seconds": _cpu(tint),
        "cold_lines_per_s": round(ours_lines),
        "cached_seconds": round(cached, 3),
        "cached_speedup_over_cold": round(cold / cached, 1),
        "one_job_no_cache_seconds": round(one_core, 3),
        "one_job_lines_per_s": round(lines / one_core),
        "same_findings_in_all_three_runs": same,
        "coop_lint_exit_code": completed.returncode,
        "coop_lint_findings": len([line for line in completed.stdout.splitlines() if line.strip()]),
        "tint_process_seconds": round(tint_wall, 3),
        "tint_lines_per_s_whole_process": round(tint_lines) if tint_lines else None,
        "tint_compile_seconds": round(tint_compile, 3),
        "tint_files_with_errors": tint_errors,
        "cold_lines_per_s_over_tint": round(ours_lines / tint_lines, 2) if tint_lines else None,
        "startup_ms_median": round(statistics.median(startups) * 1e3, 1),
        "load_average_at_start": load_at_start,
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
    }
    name = args.result or ("cli_matrix_heavy" if args.matrix_heavy else "cli")
    path = write_result(name, figures, notes=(
        "Whole processes. coop-lint: default jobs (one worker process per core) with an empty cache (cold), then "
        "the same command reading the cache, then --jobs 1 --no-cache; parse, syntax, semantic, uniformity. "
        "Tint: device.create_shader_module per file on Dawn's Null backend in one process; its lines/s are over "
        "the whole process (start and Dawn's set-up included), tint_compile_seconds sums the compiles alone. "
        + args.notes).strip())
    for key, value in figures.items():
        print(f"{key:40} {value}")
    print(f"written to {path}")


if __name__ == "__main__":
    main()
