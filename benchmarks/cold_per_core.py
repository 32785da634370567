"""Cold speed per core: one lint job's CPU time on matrix-heavy kernels, for one or more checkouts, against
Tint on the same files, in one run.

    .venv/bin/python -m benchmarks.cold_per_core [--checkout PATH[=PYTHON]]... [--files N] [--rounds R]

N files from benchmarks/matrix_kernels.py (the generator benchmarks.cli --matrix-heavy uses, same seed), or
with --corpus mixed benchmarks.cli's ordinary mix, are linted in one process per checkout, one after the
other, the way a single coop-lint worker lints them with no cache; the figure is that process's CPU time
(time.process_time) around the files alone, after one tiny file has loaded the modules. The checkouts take
turns for R rounds and each keeps its best: on a machine that others use, CPU time still moves with their
load (caches, frequency), and taking turns spreads that over every checkout alike. Each checkout runs its
own package with its own .venv (or the Python named after '='), writing no bytecode. Tint:
benchmarks.tint_timing over the same files on Dawn's Null backend, its whole process timed as benchmarks.cli
does. Writes benchmarks/results/<--result>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .common import matrix_heavy_kernel, synthetic_kernel, write_result

# Run inside each checkout (its own package first on sys.path): lints every file named on stdin and
# prints the CPU seconds and the findings, so that the checkouts can be seen to agree.
_ONE_JOB = """
import json, sys, time
from coop_lsp.lint.config import Settings
from coop_lsp.lint.files import PLAIN, lint_file
paths = json.loads(sys.stdin.read())
datas = [open(p, "rb").read() for p in paths]
settings = Settings()
lint_file(b"@compute @workgroup_size(1) fn main() {}\\n", settings, None, kind=PLAIN)
start = time.process_time()
found = [[repr(d) for d in lint_file(data, settings, None, kind=PLAIN)[1]] for data in datas]
print(json.dumps({"cpu": time.process_time() - start, "findings": found}))
"""


def _checkout(text: str) -> tuple[Path, str]:
    path, _, python = text.partition("=")
    root = Path(path).resolve()
    return root, python or str(root / ".venv" / "bin" / "python")


def _one_job(root: Path, python: str, paths: list[str]) -> dict:
    completed = subprocess.run([python, "-c", _ONE_JOB], input=json.dumps(paths), capture_output=True,
                               text=True, cwd=root, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"), check=True)
    return json.loads(completed.stdout)


def _tint(paths: list[Path]) -> dict:
    jobs = [{"name": str(p), "source": p.read_text(), "repeats": 1} for p in paths]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    completed = subprocess.run([sys.executable, "-m", "benchmarks.tint_timing"], input=json.dumps(jobs),
                               capture_output=True, text=True, env=dict(os.environ, WGPU_BACKEND_TYPE="Null"))
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if completed.returncode != 0:
        return {"tint": None, "why": completed.stderr.strip().splitlines()[-1:] or ["no output"]}
    times = json.loads(completed.stdout)
    return {"tint_process_seconds": round(wall, 3),
            "tint_cpu_seconds": round(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, 3),
            "tint_compile_seconds": round(sum(v["seconds"] for v in times.values()), 3),
            "tint_files_with_errors": sum(1 for v in times.values() if v["errors"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", action="append", default=[],
                        help="PATH or PATH=PYTHON (default: this checkout); repeat to compare")
    parser.add_argument("--files", type=int, default=30, help="how many files (default %(default)s)")
    parser.add_argument("--rounds", type=int, default=3, help="turns per checkout; the best counts")
    parser.add_argument("--result", default="cold_per_core", help="result file name under benchmarks/results/")
    parser.add_argument("--notes", default="", help="added to the result's notes")
    parser.add_argument("--corpus", choices=("matrix-heavy", "mixed"), default="matrix-heavy",
                        help="matrix-heavy kernels, or benchmarks.cli's mixed files (plain functions among "
                             "matrix ones, 40 to 400 lines each)")
    args = parser.parse_args()
    checkouts = [_checkout(text) for text in args.checkout or ["."]]
    rng = random.Random(3)
    load_at_start = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for index in range(args.files):
            path = Path(folder) / f"kernel_{index:03}.wgsl"
            path.write_text(matrix_heavy_kernel(rng) if args.corpus == "matrix-heavy" else
                            synthetic_kernel(lines=rng.choice((40, 80, 120, 200, 400)), rng=rng))
            paths.append(path)
        lines = sum(p.read_text().count("\n") + 1 for p in paths)
        names = [str(p) for p in paths]
        runs: dict[str, list[float]] = {str(root): [] for root, _ in checkouts}
        findings: dict[str, list] = {}
        for _ in range(args.rounds):
            for root, python in checkouts:
                result = _one_job(root, python, names)
                runs[str(root)].append(result["cpu"])
                findings[str(root)] = result["findings"]
        tint = _tint(paths)
    tint_lines = lines / tint["tint_process_seconds"] if "tint_process_seconds" in tint else None
    figures = {
        "corpus": ("matrix-heavy (benchmarks/matrix_kernels.py, seed 3)" if args.corpus == "matrix-heavy" else
                   "mixed (benchmarks.common.synthetic_kernel as benchmarks.cli draws it, seed 3)"),
        "files": args.files, "lines": lines,
        "rounds": args.rounds,
        "checkouts": {root: {"cpu_seconds_best": round(min(cpu), 3),
                             "cpu_seconds_all": [round(c, 3) for c in cpu],
                             "lines_per_cpu_s": round(lines / min(cpu)),
                             "over_tint_whole_process": round(lines / min(cpu) / tint_lines, 3) if tint_lines else None}
                      for root, cpu in runs.items()},
        "same_findings_in_every_checkout": len({json.dumps(f) for f in findings.values()}) == 1,
        "findings": sum(len(f) for f in next(iter(findings.values()))),
        **tint,
        "tint_lines_per_s_whole_process": round(tint_lines) if tint_lines else None,
        "tint_lines_per_s_compiles_alone": round(lines / tint["tint_compile_seconds"]) if tint_lines else None,
        "load_average_at_start": load_at_start,
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
    }
    path = write_result(args.result, figures, notes=(
        "One lint job per checkout (CPU time of the linting alone, modules loaded first, no cache), best of "
        "the rounds, checkouts taking turns; Tint: device.create_shader_module per file on Dawn's Null backend "
        "in one process, lines/s over the whole process. " + args.notes).strip())
    print(json.dumps(figures, indent=2))
    print(f"written to {path}")


if __name__ == "__main__":
    main()
