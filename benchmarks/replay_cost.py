"""What an edit costs in-process on matrix-heavy documents, this checkout against another, same run.

The server's document (benchmarks/server_matrix.py: generated matrix kernels and one broken function)
at about 1,000, 5,000 and 18,000 lines, edited as server_matrix's toggle edits do: `@@ ` inserted after
the name of a `let` in the middle of the document, then taken out again (every other version has a
syntax error). Each version goes the server's way: Document.replace, then Analysis.of_parsed on a copy
of the tree with the document's Reuse. CPU milliseconds per edit (other processes share the machine).

Two workloads. `toggle` returns every other version to a text seen two versions before, which the
records kept of earlier versions replay (semantic/kept.py): the edited function costs little there.
`counter` makes a new text every version: the literal `16u` of that `let`'s line counts up (17u, 18u,
...), with `@@ ` before it in every other version, so the edited function is checked afresh each
time and what is left is the cost of the edit itself plus what every unchanged function costs.

For the clean versions it also records the most work any of them did afresh: function headers checked
(signatures, attributes, stage IO, module declarations), uniformity summaries analysed and moved, and
functions the accumulation check looked at; and the fewest of the semantic checker's steps carried over
from the last clean version without validation (semantic/carry.py) against all its steps; null where
the checkout does not count it.

Each checkout is measured by its own interpreter in its own process, the two in turn for each round,
with the load average before each; both run this file, so the only difference is the code under coop_lsp/.

    python -m benchmarks.replay_cost [--baseline /work/main] [--edits 40] [--rounds 2] [--json OUT.json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KERNELS = (21, 100, 360)  # about 1,061, 5,000 and 18,000 lines


def _document(kernels: int) -> str:
    from benchmarks.matrix_kernels import matrix_kernel_file
    from benchmarks.server_matrix import BROKEN, documents
    if kernels == 21:
        return documents(1, seed=1)[0]  # the server benchmark's own first document
    return matrix_kernel_file(random.Random(1), kernels) + BROKEN.format(i=0)


WORKLOADS = ("toggle", "counter")


def _edits(text: str, workload: str, edits: int):
    """(start, end, new text) of each version's edit, in the byte offsets of the version before it."""
    from benchmarks.server_matrix import _toggle_site
    line, column = _toggle_site(text)
    line_start = len("".join(part + "\n" for part in text.split("\n")[:line]).encode())
    if workload == "toggle":
        offset = line_start + column
        for index in range(edits):
            insert = index % 2 == 0
            yield offset, offset + (0 if insert else 3), "@@ " if insert else ""
        return
    site_line = text.split("\n")[line]
    column = site_line.index("16u", column)
    offset, current = line_start + len(site_line[:column].encode()), "16u"
    for index in range(edits):
        number = f"{17 + index}u"
        replacement = f"@@ {number}" if index % 2 == 0 else number
        yield offset, offset + len(current), replacement
        current = replacement


def measure(kernels: int, edits: int, workload: str = "toggle") -> dict:
    from coop_lsp.core.text import Span
    from coop_lsp.ide import Analysis
    from coop_lsp.lint import Reuse
    from coop_lsp.server.idle_gc import defer_full_collections
    from coop_lsp.syntax import Document
    from coop_lsp.syntax.parser import Parsed

    defer_full_collections()  # as the server's process does
    text = _document(kernels)
    document, reuse = Document(text), Reuse()
    Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse)
    samples, broken, clean, checked = [], [], [], 0
    carried = []  # per clean version: (steps carried over from the last clean version, steps), where counted
    # What the clean versions did afresh rather than replay (None where this checkout does not count it).
    headers = getattr(reuse.bodies, "headers", None)
    fresh = {"headers_checked": [], "summaries_analysed": [], "summaries_moved": [], "accumulation_computed": []}
    for index, (begin, end, replacement) in enumerate(_edits(text, workload, edits)):
        insert = index % 2 == 0  # (the versions with a syntax error)
        start = time.process_time()
        document.replace(Span(begin, end), replacement)
        analysis = Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse)
        elapsed = (time.process_time() - start) * 1000
        samples.append(elapsed)
        (broken if insert else clean).append(elapsed)
        checked = max(checked, reuse.bodies.checked)
        if not insert:
            for key, value in (("headers_checked", getattr(headers, "checked", None)),
                               ("summaries_analysed", reuse.summaries.analysed),
                               ("summaries_moved", getattr(reuse.summaries, "moved", None)),
                               ("accumulation_computed", getattr(getattr(reuse, "accumulation", None), "computed",
                                                                 None))):
                fresh[key].append(value)
            carry = getattr(reuse.bodies, "carry", None)
            if carry is not None:
                carried.append((carry.carried, carry.index))
    assert document.text == text or workload != "toggle"
    samples.sort()
    return {"workload": workload, "lines": text.count("\n") + 1, "edits": edits,
            "median_ms": round(statistics.median(samples), 2),
            "p95_ms": round(samples[min(len(samples) - 1, int(len(samples) * 0.95))], 2),
            "median_ms_syntax_error_versions": round(statistics.median(broken), 2),
            "median_ms_clean_versions": round(statistics.median(clean), 2),
            "bodies_checked_per_edit": checked, "bodies_replayed": reuse.bodies.replayed,
            "clean_versions_fresh_at_most": {key: max(values) if None not in values else None
                                             for key, values in fresh.items()},
            "clean_versions_steps_carried_at_least": min(carried)[0] if carried else None,
            "clean_versions_steps": max(carried)[1] if carried else None,
            "diagnostics": len(analysis.diagnostics)}


def _worker(edits: int) -> None:
    sys.setrecursionlimit(100_000)
    for kernels in KERNELS:
        for workload in WORKLOADS:
            print(json.dumps(measure(kernels, edits, workload)), flush=True)


def _run_checkout(checkout: Path, edits: int) -> dict:
    python = checkout / ".venv" / "bin" / "python"
    load = os.getloadavg()
    out = subprocess.run([str(python), str(Path(__file__).resolve()), "--worker", "--edits", str(edits)],
                         cwd=checkout, env=dict(os.environ, PYTHONPATH=str(checkout)), check=True,
                         capture_output=True, text=True).stdout
    git = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=checkout, capture_output=True, text=True)
    return {"checkout": str(checkout), "commit": git.stdout.strip(), "load_average_before": [round(x, 2) for x in load],
            "sizes": [json.loads(line) for line in out.splitlines() if line.startswith("{")]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="/work/main", help="the other checkout (with its own .venv)")
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        _worker(args.edits)
        return 0
    figures = {"what": __doc__.splitlines()[0], "machine": f"{os.cpu_count()} CPUs, shared",
               "rounds": []}
    # Rounds alternate the two checkouts, so that a change in the machine's load falls on both.
    for _ in range(args.rounds):
        runs = {}
        for name, checkout in (("baseline", Path(args.baseline)), ("this", ROOT)):
            runs[name] = _run_checkout(checkout, args.edits)
            print(json.dumps({name: runs[name]}), flush=True)
        figures["rounds"].append(runs)
    figures["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    if "--worker" in sys.argv:
        sys.path.insert(0, os.getcwd())
    raise SystemExit(main())
