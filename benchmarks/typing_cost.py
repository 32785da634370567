"""Typing a statement on 1,061 matrix-heavy lines: CPU per version in-process, and edit-to-diagnostics in whole
processes, this checkout against another, same run.

The workload is benchmarks/server_latency.py's `measure_file`: a 40-character comment typed at the start of the
middle line of the server benchmark's first document (it comments out a loop header, an error that stays), then
`let y = max(1.0, 2.0); ` typed one character at a time at the next statement line. Most versions do not parse.
In-process, each version goes the server's way (Document.replace_range, Analysis.of_parsed on a copy of the
tree, provisional, with the document's Reuse); each checkout runs in its own interpreter, the two in turn.
Whole processes: each checkout's real server, a fresh one per round (the repair cache must not see the same
bytes again), driven by server_latency's Editor.

    python -m benchmarks.typing_cost [--baseline /work/main] [--rounds 3] [--json OUT.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATEMENT = "let y = max(1.0, 2.0); "
COMMENT = ("// " + "x" * 40)[:40]


def _workload():
    from benchmarks.server_matrix import documents
    text = documents(1, seed=1)[0]
    lines = text.split("\n")
    middle = text.count("\n") // 2
    code_line = next(i for i in range(middle + 1, len(lines))
                     if lines[i].startswith("  ") and lines[i].rstrip().endswith(";"))
    return text, middle, code_line


def _percentiles(samples: list[float]) -> dict:
    samples = sorted(samples)
    return {"median_ms": round(statistics.median(samples), 2),
            "p95_ms": round(samples[min(len(samples) - 1, int(len(samples) * 0.95))], 2), "versions": len(samples)}


def _in_process() -> list[float]:
    from coop_lsp.core.text import Position
    from coop_lsp.ide import Analysis
    from coop_lsp.lint import Reuse
    from coop_lsp.server.idle_gc import defer_full_collections
    from coop_lsp.syntax import Document
    from coop_lsp.syntax.parser import Parsed

    defer_full_collections()
    text, middle, code_line = _workload()
    document, reuse = Document(text), Reuse()
    Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse, fresh=True)
    samples = []
    for line, typed in ((middle, COMMENT), (code_line, STATEMENT)):
        for index, char in enumerate(typed):
            start = time.process_time()
            document.replace_range(Position(line, index), Position(line, index), char)
            Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse, provisional=True)
            if line == code_line:
                samples.append((time.process_time() - start) * 1000)
    return samples


async def _whole_process(checkout: Path) -> list[float]:
    from benchmarks import server_latency
    server_latency.use_checkout(checkout)
    text, middle, code_line = _workload()
    editor = server_latency.Editor()
    await editor.start()
    try:
        uri = "file:///bench/typing.wgsl"
        await editor.open(uri, text)
        await editor.type_characters(uri, middle, COMMENT)
        waits = await editor.type_characters(uri, code_line, STATEMENT, first_version=2 + len(COMMENT))
    finally:
        await editor.stop()
    return [wait * 1000 for wait in waits]


def _run_checkout(checkout: Path) -> list[float]:
    out = subprocess.run([str(checkout / ".venv" / "bin" / "python"), str(Path(__file__).resolve()), "--worker"],
                         cwd=checkout, env=dict(os.environ, PYTHONPATH=str(checkout)), check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def alternate(checkouts: dict[str, Path], rounds: int, measure: Callable[[str, Path], None]) -> None:
    """Rounds alternate the checkouts, so that a change in the machine's load falls on each of them."""
    for _ in range(rounds):
        for name, checkout in checkouts.items():
            measure(name, checkout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="/work/main", help="the other checkout (with its own .venv)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        sys.setrecursionlimit(100_000)
        print(json.dumps(_in_process()))
        return 0
    checkouts = {"baseline": Path(args.baseline), "this": ROOT}
    cpu: dict[str, list[float]] = {name: [] for name in checkouts}
    wall: dict[str, list[float]] = {name: [] for name in checkouts}
    load = [round(x, 2) for x in os.getloadavg()]

    def measure(name: str, checkout: Path) -> None:
        cpu[name] += _run_checkout(checkout)
        wall[name] += asyncio.run(_whole_process(checkout))

    alternate(checkouts, args.rounds, measure)
    figures = {"what": __doc__.splitlines()[0], "machine": f"{os.cpu_count()} CPUs, shared", "rounds": args.rounds,
               "load_average_before": load, "load_average_after": [round(x, 2) for x in os.getloadavg()],
               "checkouts": {name: str(path) for name, path in checkouts.items()},
               "in_process_cpu_per_version": {name: _percentiles(values) for name, values in cpu.items()},
               "whole_process_edit_to_diagnostics": {name: _percentiles(values) for name, values in wall.items()}}
    print(json.dumps(figures, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    if "--worker" in sys.argv:
        sys.path.insert(0, os.getcwd())
    raise SystemExit(main())
