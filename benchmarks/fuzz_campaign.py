"""A long fuzz campaign by hand: the test suite's generator, mutators and invariants, many more inputs.

    .venv/bin/python -m benchmarks.fuzz_campaign --inputs 1000000 --jobs 8
    .venv/bin/python -m benchmarks.fuzz_campaign --minutes 30 --targets lint,incremental
    .venv/bin/python -m benchmarks.fuzz_campaign --combine run1.json run2.json --fixed "abc123: what it fixed"

Targets (each input goes to one, in turn):
  lint         generated modules and mutated seeds through tests/fuzz/invariants.check_lint
               (no exception, no X001, spans in range, fixes in range, non-overlapping, parsing no worse);
  incremental  random edit sequences with undo: Document.replace against a fresh parse;
  reuse        the same sequences, each version checked with the records of the ones before (the
               server's way) against a check of the same tree without them;
  ide          every editor feature at random offsets.
Each worker process runs inputs under a per-input alarm (a hang is reported,
not waited for); a worker that dies (a segfault) is replaced and its input
reported. Every new kind of problem is minimized (tests/fuzz/minimize.py)
and written to --findings (default benchmarks/results/fuzz_findings/) as a
.wgsl file to copy into tests/regressions/. Problems that match a known bug
(tests/fuzz/known.py) are counted, not written. Figures go to
benchmarks/results/fuzz_campaign.json.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import re
import signal
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.common import RESULTS, write_result  # noqa: E402

PER_INPUT_SECONDS = 10


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def make_input(rng: random.Random, target: str):
    """One input for `target`, from the same pieces the tests use."""
    from tests.fuzz.grammar import random_module
    from tests.fuzz.mutate import as_text, mutate, random_edits, random_mutations, seeds

    pool = seeds()
    if target == "lint":
        if rng.random() < 0.4:
            return (random_module(rng, slips=rng.choice((0, 3, 3, 10, 30))),)
        seed = pool[rng.randrange(len(pool))]
        return (as_text(mutate(seed.text.encode("utf-8"), random_mutations(rng))),)
    if target in ("incremental", "reuse"):
        text = pool[rng.randrange(len(pool))].text if rng.random() < 0.7 else random_module(rng)
        return (text, random_edits(rng, text))
    text = random_module(rng) if rng.random() < 0.5 else pool[rng.randrange(len(pool))].text
    if rng.random() < 0.5:
        text = mutate(text.encode("utf-8"), random_mutations(rng)).decode("utf-8", errors="replace")
    return (text, [rng.randrange(len(text) + 1) for _ in range(4)])


def signature(problem: str) -> str:
    """What makes two problems the same bug: the first line, less numbers and quoted text."""
    first = problem.splitlines()[0] if problem else ""
    first = re.sub(r"'[^']*'|\"[^\"]*\"", "Q", first)
    return re.sub(r"\d+", "N", first)[:160]


def work(job: tuple[int, int, int, list[str]]):
    """Runs `count` inputs from seed `base`; returns counts and (signature, input, problem) of new kinds."""
    index, base, count, targets = job
    from tests.fuzz import invariants
    from tests.fuzz.known import known

    signal.signal(signal.SIGALRM, _alarm)
    counts: Counter = Counter()
    found: dict[str, tuple] = {}
    started = time.monotonic()
    for number in range(count):
        rng = random.Random(base + number)
        target = targets[number % len(targets)]
        args = make_input(rng, target)
        signal.alarm(PER_INPUT_SECONDS)
        try:
            problems = getattr(invariants, f"check_{target}")(*args)
        except Hang:
            problems = [f"hang: no answer in {PER_INPUT_SECONDS} s"]
        finally:
            signal.alarm(0)
        counts[f"inputs_{target}"] += 1
        for problem in problems:
            bug = known(problem)
            if bug is not None:
                counts[f"known:{bug.regression}"] += 1
                continue
            counts["new_problems"] += 1
            key = f"{target}: {signature(problem)}"
            if key not in found:
                found[key] = (target, args, problem, base + number)
    counts["seconds"] = time.monotonic() - started
    return index, counts, found


def combine(paths: list[Path], fixed: list[str]) -> dict:
    """One campaign from several runs (other machines, other seeds): every run as it was written, with
    its machine, and the totals; `fixed` names the commits that fixed what the runs found."""
    runs = [json.loads(path.read_text()) for path in paths]
    totals: Counter = Counter()
    for run in runs:
        figures = run["figures"]
        for key in ("inputs", "inputs_lint", "inputs_incremental", "inputs_ide", "new_problems",
                    "new_problem_kinds", "crashed_batches"):
            totals[key] += figures.get(key, 0)
        totals["seconds"] += figures.get("seconds", 0)
    return {"runs": runs, "total": dict(totals), "fixed": fixed,
            "open_new_problems": runs[-1]["figures"].get("new_problems", 0) if runs else 0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--combine", nargs="+", type=Path, metavar="RUN.json",
                        help="write one campaign from the results of several runs (oldest first)")
    parser.add_argument("--fixed", action="append", default=[], metavar="COMMIT: WHAT",
                        help="with --combine: what fixed the problems the runs found")
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--minutes", type=float, default=None, help="stop after this long instead")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=2000)
    parser.add_argument("--targets", default="lint,incremental,reuse,ide")
    parser.add_argument("--findings", type=Path, default=RESULTS / "fuzz_findings")
    parser.add_argument("--no-write", action="store_true", help="do not write the results file")
    args = parser.parse_args(argv)
    if args.combine:
        figures = combine(args.combine, args.fixed)
        path = write_result("fuzz_campaign", figures,
                            "Several runs of benchmarks/fuzz_campaign.py (each with its machine, seed and "
                            "figures); problems found by a run were fixed before the next.")
        print(json.dumps(figures["total"], indent=2), f"wrote {path}", sep="\n", file=sys.stderr)
        return 0
    targets = args.targets.split(",")
    deadline = time.monotonic() + args.minutes * 60 if args.minutes else None
    total = Counter()
    findings: dict[str, tuple] = {}
    started = time.monotonic()
    batch = args.batch
    if deadline is None:
        # A short run split into --batch-sized pieces would leave all but one process idle.
        batch = max(1, min(batch, -(-args.inputs // args.jobs)))
    jobs = ((i, args.seed * 10**9 + i * batch, batch, targets) for i in range(10**9))
    submitted = 0
    # A worker that crashes hard takes its batch with it: maxtasksperchild keeps the pool fresh.
    with multiprocessing.get_context("spawn").Pool(args.jobs, maxtasksperchild=20) as pool:
        pending = []
        while True:
            while len(pending) < args.jobs * 2 and (deadline is not None or submitted < args.inputs) and \
                    (deadline is None or time.monotonic() < deadline):
                job = next(jobs)
                if deadline is None and submitted + job[2] > args.inputs:
                    job = (*job[:2], args.inputs - submitted, job[3])
                pending.append((job, pool.apply_async(work, (job,))))
                submitted += job[2]
            if not pending:
                break
            job, result = pending.pop(0)
            try:
                _, counts, found = result.get(timeout=PER_INPUT_SECONDS * job[2] + 600)
            except Exception as error:  # noqa: BLE001 - a worker died (segfault): report its batch
                total["crashed_batches"] += 1
                findings.setdefault(f"batch crash: {type(error).__name__}", ("lint", (f"batch seed {job[1]}",),
                                                                             repr(error), job[1]))
                continue
            total.update(counts)
            for key, value in found.items():
                findings.setdefault(key, value)
            done = sum(v for k, v in total.items() if k.startswith("inputs_"))
            print(f"{done} inputs, {time.monotonic() - started:.0f} s, {len(findings)} kinds of new problem",
                  file=sys.stderr)
    elapsed = time.monotonic() - started
    written = _write_findings(findings, args.findings)
    inputs = sum(v for k, v in total.items() if k.startswith("inputs_"))
    figures = {
        "inputs": inputs, **{k: v for k, v in sorted(total.items()) if k.startswith("inputs_")},
        "seconds": round(elapsed, 1), "inputs_per_second": round(inputs / max(elapsed, 1e-9), 1),
        "jobs": args.jobs, "seed": args.seed, "per_input_limit_s": PER_INPUT_SECONDS,
        "new_problem_kinds": len(findings), "new_problems": total["new_problems"],
        "crashed_batches": total["crashed_batches"],
        "known_bug_hits": {k[6:]: v for k, v in sorted(total.items()) if k.startswith("known:")},
        "findings": written,
    }
    for line in written:
        print(line)
    print(json.dumps(figures, indent=2), file=sys.stderr)
    if not args.no_write:
        path = write_result("fuzz_campaign", figures,
                            "Inputs from tests/fuzz (grammar generator, seed mutations, edit sequences); "
                            "invariants from tests/fuzz/invariants.py; known bugs from tests/fuzz/known.py.")
        print(f"wrote {path}", file=sys.stderr)
    return 1 if findings else 0


def _write_findings(findings: dict[str, tuple], directory: Path) -> list[str]:
    from tests.fuzz.minimize import minimize, still_fails

    out = []
    if findings:
        directory.mkdir(parents=True, exist_ok=True)
    for number, (key, (target, args, problem, seed)) in enumerate(sorted(findings.items())):
        stem = directory / f"finding_{number:03d}_{target}"
        text = args[0]
        data = text.encode("utf-8", errors="surrogatepass") if isinstance(text, str) else text
        if target == "lint" and not problem.startswith("hang") and isinstance(data, bytes):
            fragment = problem.splitlines()[0][:60]
            data = minimize(data, still_fails(fragment), budget=1500)
        stem.with_suffix(".wgsl").write_bytes(data)
        stem.with_suffix(".txt").write_text(f"{key}\nrandom seed {seed}\nargs {args[1:]!r}\n\n{problem}\n")
        out.append(f"{stem.with_suffix('.wgsl')}: {key}")
    return out


if __name__ == "__main__":
    sys.exit(main())
