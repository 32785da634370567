"""Where the checker's time goes on matrix-heavy code, cold and per edit, in one process.

Two measures, both in-process (whole processes are benchmarks/cli.py's and server_latency.py's):

- cold: lint_source over seeded matrix_library_kernel files and the repository's example kernels,
  CPU seconds per phase (parse, syntax, semantic, each analysis pass) and lines/s of the whole lint;
- edit: the server's incremental path (Document.replace, a copy of the tree, Analysis.of_parsed with the
  document's Reuse) on matrix-heavy documents of several sizes, editing a literal inside one function:
  CPU milliseconds per edit (other processes share the machine), and how many bodies the checker checked rather than replayed.

    python -m benchmarks.check_profile [--sizes 124,1000,5000,20000] [--edits 20] [--profile cold|edit]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import statistics
import sys
import threading
import time
from pathlib import Path

from benchmarks.common import matrix_library_kernel
from coop_lsp.ide import Analysis
from coop_lsp.lint import Reuse, lint_source
from coop_lsp.lint.passes import PASSES, Context
from coop_lsp.semantic.checker import check
from coop_lsp.server.idle_gc import defer_full_collections
from coop_lsp.syntax import Document, parse, syntax_diagnostics
from coop_lsp.syntax.filters import DiagnosticFilters
from coop_lsp.syntax.parser import Parsed
from coop_lsp.core.text import Span

ROOT = Path(__file__).resolve().parent.parent


def cold_corpus(files: int = 20) -> list[str]:
    texts = [matrix_library_kernel(random.Random(seed)) for seed in range(files)]
    return texts + [path.read_text() for path in sorted((ROOT / "examples").glob("*/*.wgsl"))]


def cold(texts: list[str], repeats: int = 3) -> dict:
    """The best of `repeats` rounds (CPU time: other processes share the machine)."""
    lines = sum(text.count("\n") + 1 for text in texts)
    lint_source(texts[0])
    best_whole, best_phases = None, None
    for _ in range(repeats):
        phases: dict[str, float] = {}

        def timed(name, action):
            start = time.process_time()
            result = action()
            phases[name] = phases.get(name, 0.0) + time.process_time() - start
            return result

        for text in texts:
            parsed = timed("parse", lambda: parse(text))
            timed("syntax", lambda: syntax_diagnostics(parsed))
            _, model = timed("semantic", lambda: check(parsed, None, "auto"))
            filters = DiagnosticFilters.from_tree(parsed.root, parsed.source)
            context = Context(parsed.root, parsed.source, model, filters, [], [], None, None)
            for analysis in PASSES:
                timed(analysis.what, lambda: analysis.run(context))
        start = time.process_time()
        for text in texts:
            lint_source(text)
        whole = time.process_time() - start
        if best_whole is None or whole < best_whole:
            best_whole, best_phases = whole, phases
    return {"files": len(texts), "lines": lines, "cpu_seconds": round(best_whole, 3),
            "lines_per_s": int(lines / best_whole),
            "phase_cpu_seconds": {name: round(value, 3) for name, value in best_phases.items()}}


def sized_kernel(lines: int, seed: int = 0) -> str:
    """A matrix-heavy module of about `lines` lines (each generated function is about 11.5 lines, and one more for its call in the entry point)."""
    rng = random.Random(seed)
    functions = max(1, round((lines - 8) / 12.5))
    return matrix_library_kernel(rng, functions=functions)


def loop_bound(data: bytes, rng: random.Random) -> int:
    """The byte offset of a random function's loop bound (`k < 96u`): editing it keeps the kernel valid."""
    found, at = [], 0
    while (at := data.find(b"k < ", at)) >= 0:
        found.append(at + 4)
        at += 4
    return rng.choice(found)


def edits(text: str, count: int, seed: int = 1, profiler: cProfile.Profile | None = None) -> dict:
    """Edits one loop bound at a time, as the server analyses each version; ms per edit and bodies checked."""
    # As the server's process does (server/idle_gc.py): full collections wait for idle time.
    defer_full_collections()
    rng = random.Random(seed)
    document = Document(text)
    reuse = Reuse()
    Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse)
    samples, checked, summaries = [], [], []
    for _ in range(count):
        data = document.source.data
        offset = loop_bound(data, rng)
        end = data.index(b"u", offset)
        digit = str(rng.randint(1, 9)).encode()
        # 96u -> 963u (then back to two digits): the function's text and length change, the later
        # functions move.
        bound = data[offset:end]
        replacement = (bound + digit if len(bound) < 3 else bound[:2]).decode()
        if profiler is not None:
            profiler.enable()
        start = time.process_time()
        document.replace(Span(offset, end), replacement)
        Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse)
        if profiler is not None:
            profiler.disable()
        samples.append((time.process_time() - start) * 1000)
        assert not document.parsed.root.has_error
        checked.append(reuse.bodies.checked)
        summaries.append(reuse.summaries.analysed)
    samples.sort()
    return {"lines": text.count("\n") + 1, "edits": count,
            "median_ms": round(statistics.median(samples), 2),
            "p95_ms": round(samples[min(len(samples) - 1, int(len(samples) * 0.95))], 2),
            "bodies_checked_per_edit": max(checked), "summaries_analysed_per_edit": max(summaries)}


def sampled(work, interval: float = 0.001, top: int = 30) -> list[tuple[str, float]]:
    """Runs `work` while another thread notes, every `interval`, the innermost coop_lsp function the
    working thread is in (its own time, as cProfile's tottime, without cProfile's cost per call, which
    inflates small functions)."""
    target = threading.get_ident()
    counts: dict[str, int] = {}
    done = threading.Event()

    def sample() -> None:
        while not done.wait(interval):
            frame = sys._current_frames().get(target)
            while frame is not None and "coop_lsp" not in frame.f_code.co_filename:
                frame = frame.f_back
            if frame is not None:
                code = frame.f_code
                where = f"{code.co_filename.split('coop_lsp/')[-1]}:{code.co_firstlineno} {code.co_name}"
                counts[where] = counts.get(where, 0) + 1

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        work()
    finally:
        done.set()
        sampler.join()
    total = sum(counts.values()) or 1
    return [(where, n / total) for where, n in sorted(counts.items(), key=lambda item: -item[1])[:top]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="124,1000,5000,20000")
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--profile", choices=("cold", "edit"))
    parser.add_argument("--sample", choices=("cold", "edit"),
                        help="a sampling view instead: where the checking thread is, every millisecond")
    parser.add_argument("--skip-cold", action="store_true")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(100_000)
    if args.sample:
        text = sized_kernel(int(args.sizes.split(",")[-1]))
        work = (lambda: [lint_source(t) for t in cold_corpus()]) if args.sample == "cold" \
            else (lambda: edits(text, args.edits))
        for where, share in sampled(work):
            print(f"{share:6.1%}  {where}")
        return 0
    if args.profile:
        profiler = cProfile.Profile()
        if args.profile == "cold":
            texts = cold_corpus()
            profiler.runcall(lambda: [lint_source(text) for text in texts])
        else:
            text = sized_kernel(int(args.sizes.split(",")[-1]))
            edits(text, args.edits, profiler=profiler)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(40)
        return 0
    figures: dict = {"edit": []}
    if not args.skip_cold:
        figures["cold"] = cold(cold_corpus())
        print({"cold": figures["cold"]}, flush=True)
    for size in (int(s) for s in args.sizes.split(",")):
        figures["edit"].append(edits(sized_kernel(size), args.edits))
        print({"edit": figures["edit"][-1]}, flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
