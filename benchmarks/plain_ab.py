"""coop-lint on plain files: this tree against another tree of the project, run alternately.

    git archive BASE | tar -x -C /tmp/base && cp coop_lsp/syntax/_wgsl*.so /tmp/base/coop_lsp/syntax/
    .venv/bin/python -m benchmarks.plain_ab /tmp/base

On a shared machine wall-clock times of separate runs differ by 2x from one minute to the next; this
benchmark alternates the two trees over the same 200 generated kernels (one coop-lint process per run,
as CI runs it) and compares the CPU time the processes used, the minimum of six runs each. Writes
benchmarks/results/plain_ab.json.
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from .common import synthetic_kernel, write_result

FILES = 200
ROUNDS = 6
HERE = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not (Path(argv[0]) / "coop_lsp").is_dir():
        print("usage: python -m benchmarks.plain_ab OTHER_TREE (a copy of the project with its _wgsl .so)",
              file=sys.stderr)
        return 2
    trees = {"other": Path(argv[0]).resolve(), "this": HERE}
    coop_lint = Path(sys.executable).with_name("coop-lint")
    rng = random.Random(3)
    cpu: dict[str, list[float]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory() as folder:
        for index in range(FILES):
            Path(folder, f"kernel_{index:03}.wgsl").write_text(
                synthetic_kernel(lines=rng.choice((40, 80, 120, 200, 400))))
        for round_ in range(ROUNDS):
            order = ("other", "this") if round_ % 2 == 0 else ("this", "other")
            for name in order:
                env = dict(os.environ, PYTHONPATH=str(trees[name]))
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                done = subprocess.run([str(coop_lint), "-q", "--isolated", folder], env=env, capture_output=True)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                if done.returncode != 0:
                    print(done.stdout.decode()[:2000], done.stderr.decode()[:2000], file=sys.stderr)
                    return 1
                cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    figures = {
        "files": FILES, "rounds": ROUNDS,
        "other_tree": str(trees["other"]),
        "cpu_seconds_min": {name: round(min(values), 3) for name, values in cpu.items()},
        "cpu_seconds_median": {name: round(statistics.median(values), 3) for name, values in cpu.items()},
        "this_over_other_min": round(min(cpu["this"]) / min(cpu["other"]), 3),
        "this_over_other_median": round(statistics.median(cpu["this"]) / statistics.median(cpu["other"]), 3),
    }
    path = write_result("plain_ab", figures, notes=(
        "CPU time (user + system) of one coop-lint process over the folder, this tree and the other run "
        "alternately; ratios above 1 mean this tree is slower on plain files."))
    for key, value in figures.items():
        print(f"{key:28} {value}")
    print(f"written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
