"""Typing a statement in matrix-heavy code (1,062 lines, or --kernels): CPU per version in process, and edit-to-diagnostics in whole
processes, this checkout against another, same run.

The workload is benchmarks/server_latency.py's `measure_file`: a 40-character comment typed at the start of the
middle line of the server benchmark's first document (it comments out a loop header, an error that stays), then
`let y = max(1.0, 2.0); ` typed one character at a time at the next statement line. Most versions do not parse.
In-process, each version goes the server's way (Document.replace_range, Analysis.of_parsed on a copy of the
tree, provisional, with the document's Reuse); each checkout runs in its own interpreter, the two in turn.
Whole processes: each checkout's real server, a fresh one per round (the repair cache must not see the same
bytes again), driven by server_latency's Editor.

With --kernels N the document has N kernels (82: 3,988 lines) and the same edit at the same kind of lines.

    python -m benchmarks.typing_cost [--baseline /work/main] [--rounds 3] [--kernels 21] [--json OUT.json]
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


KERNELS = 21  # the server benchmark's first document: 1,062 lines
LARGE_KERNELS = 82  # 3,988 lines, for the cost of an edit against the file's size


def _workload(kernels: int = KERNELS):
    """The document, the line whose start the comment is typed at, and the line the statement is typed at.

    With other than KERNELS kernels, the lines are the first pair at or after the middle that read as the
    1,062-line document's pair (the same loop header above the same matrix load), so that the edit is the same
    and only the number of functions around it differs."""
    from benchmarks.replay_cost import _document
    text = _document(kernels)
    lines = text.split("\n")
    middle = text.count("\n") // 2
    code_line = next(i for i in range(middle + 1, len(lines))
                     if lines[i].startswith("  ") and lines[i].rstrip().endswith(";"))
    if kernels != KERNELS:
        _, base_middle, base_code_line = _workload()
        base = _document(KERNELS).split("\n")
        pair = (base[base_middle], base[base_code_line])
        middle = next(i for i in range(middle, len(lines) - 1) if (lines[i], lines[i + 1]) == pair)
        code_line = middle + 1
    return text, middle, code_line


def _percentiles(samples: list[float]) -> dict:
    samples = sorted(samples)
    return {"median_ms": round(statistics.median(samples), 2),
            "p95_ms": round(samples[min(len(samples) - 1, int(len(samples) * 0.95))], 2), "versions": len(samples)}


def _in_process(kernels: int = KERNELS) -> list[float]:
    from coop_lsp.core.text import Position
    from coop_lsp.ide import Analysis
    from coop_lsp.lint import Reuse
    from coop_lsp.server.idle_gc import defer_full_collections
    from coop_lsp.syntax import Document
    from coop_lsp.syntax.parser import Parsed

    defer_full_collections()
    text, middle, code_line = _workload(kernels)
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


async def _whole_process(checkout: Path, kernels: int = KERNELS) -> list[float]:
    from benchmarks import server_latency
    server_latency.use_checkout(checkout)
    text, middle, code_line = _workload(kernels)
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


def _run_checkout(checkout: Path, kernels: int = KERNELS) -> list[float]:
    out = subprocess.run([str(checkout / ".venv" / "bin" / "python"), str(Path(__file__).resolve()), "--worker",
                          "--kernels", str(kernels)],
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
    parser.add_argument("--kernels", type=int, default=KERNELS,
                        help=f"functions in the document ({KERNELS}: 1,062 lines; {LARGE_KERNELS}: 3,988 lines)")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        sys.setrecursionlimit(100_000)
        print(json.dumps(_in_process(args.kernels)))
        return 0
    checkouts = {"baseline": Path(args.baseline), "this": ROOT}
    cpu: dict[str, list[float]] = {name: [] for name in checkouts}
    wall: dict[str, list[float]] = {name: [] for name in checkouts}
    load = [round(x, 2) for x in os.getloadavg()]

    def measure(name: str, checkout: Path) -> None:
        cpu[name] += _run_checkout(checkout, args.kernels)
        wall[name] += asyncio.run(_whole_process(checkout, args.kernels))

    alternate(checkouts, args.rounds, measure)
    figures = {"what": __doc__.splitlines()[0], "machine": f"{os.cpu_count()} CPUs, shared", "rounds": args.rounds,
               "kernels": args.kernels, "lines": _workload(args.kernels)[0].count("\n") + 1,
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
