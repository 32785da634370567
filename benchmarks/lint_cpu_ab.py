"""CPU time of lint_source, in process, for two checkouts taking turns on the same generated corpora.

    .venv/bin/python -m benchmarks.lint_cpu_ab BEFORE_CHECKOUT AFTER_CHECKOUT [--rounds 4] [--result NAME]

On a shared machine the wall time of a whole CLI run moves with other people's load, and so, less, does
the CPU time of a run that starts worker processes. This measures what a refactoring can change: each
round runs each checkout's own Python (its .venv, writing no bytecode there) over the same texts (the
CLI benchmark's mixed generator and the matrix-heavy one), three passes, keeping the least CPU time;
the checkouts alternate so that a change of load falls on both. Writes benchmarks/results/NAME.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import tempfile
from pathlib import Path

from .common import matrix_heavy_kernel, synthetic_kernel, write_result

# Run inside the checkout under test: its coop_lsp, its grammar.
_MEASURE = """
import json, sys, time
from coop_lsp.lint import lint_source
corpora = json.load(open(sys.argv[1]))
for text in corpora["mixed"][:3]:
    lint_source(text)
best = {}
for kind, texts in corpora.items():
    passes = []
    for _ in range(3):
        start = time.process_time()
        for text in texts:
            lint_source(text)
        passes.append(time.process_time() - start)
    best[kind] = min(passes)
print(json.dumps(best))
"""


def measure(checkout: Path, corpora: Path) -> dict[str, float]:
    python = checkout / ".venv" / "bin" / "python"
    done = subprocess.run([str(python), "-c", _MEASURE, str(corpora)], cwd=checkout, capture_output=True,
                          text=True, check=True, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--result", default="lint_cpu_ab")
    args = parser.parse_args()
    rng = random.Random(7)
    corpora = {"mixed": [synthetic_kernel(lines=rng.choice((40, 80, 120, 200, 400)), rng=rng) for _ in range(60)],
               "matrix-heavy": [matrix_heavy_kernel(rng) for _ in range(12)]}
    lines = {kind: sum(text.count("\n") for text in texts) for kind, texts in corpora.items()}
    load_at_start = [round(x, 2) for x in os.getloadavg()]
    samples: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    with tempfile.NamedTemporaryFile("w", suffix=".json") as file:
        json.dump(corpora, file)
        file.flush()
        for _ in range(args.rounds):
            for side in ("before", "after"):
                for kind, seconds in measure(getattr(args, side).resolve(), Path(file.name)).items():
                    samples[side].setdefault(kind, []).append(round(seconds, 3))
    figures: dict = {"checkouts": {"before": str(args.before.resolve()), "after": str(args.after.resolve())},
                     "lines": lines, "rounds": args.rounds, "cpu_seconds": samples}
    for kind in corpora:
        before, after = (statistics.median(samples[side][kind]) for side in ("before", "after"))
        figures[f"{kind}_median_cpu_seconds"] = {"before": before, "after": after,
                                                 "after_over_before": round(after / before, 3)}
        figures[f"{kind}_lines_per_cpu_second"] = {"before": round(lines[kind] / before),
                                                   "after": round(lines[kind] / after)}
    figures["load_average_at_start"] = load_at_start
    figures["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    path = write_result(args.result, figures, notes="In-process lint_source CPU time (least of 3 passes per round), "
                                                   "the two checkouts alternating round by round.")
    print(json.dumps(figures, indent=1))
    print(f"written to {path}")


if __name__ == "__main__":
    main()
