"""Where an edit's time goes outside the checker, and this checkout's server against another's (main).

On the 1,061-line matrix-heavy document (server_matrix.documents(1, seed=1)[0]), whole processes over
stdio, the edit toggling a syntax error in a middle function (`@@ ` in and out, so every other version
has errors):

- toggle: each edit is sent once the previous one's diagnostics have arrived and the document has been
  quiet for 80 ms (a person typing: errored versions get their confirming fresh parse in the pause);
- back_to_back: the same without the pause (the next edit arrives just after the diagnostics);
- burst: two edits 3 ms apart, the second sent while the first is being checked; timed for the second.

This checkout's server runs with COOP_LSP_TRACE (server/trace.py): each step of each timed edit, from the
client's send to the client's receipt, measured on the one monotonic clock both processes read.

    .venv/bin/python -m benchmarks.edit_overhead [--baseline /work/main] [--edits 60] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp

from .common import write_result
from .server_latency import SERVER, Editor, percentiles
from .server_matrix import _toggle_site, documents

ROOT = Path(__file__).resolve().parent.parent
URI = "file:///bench/matrix_1000.wgsl"


def _server(checkout: Path, trace: str | None) -> None:
    SERVER["command"] = [str(checkout / ".venv" / "bin" / "python"), "-m", "coop_lsp.server.main"]
    SERVER["cwd"] = str(checkout)
    SERVER["env"] = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **({"COOP_LSP_TRACE": trace} if trace else {}))


async def _edits(mode: str, count: int) -> list[tuple[float, float]]:
    """(sent, received) of each timed edit, on time.perf_counter's clock."""
    text = documents(1, seed=1)[0]
    line, column = _toggle_site(text)
    editor = Editor()
    await editor.start()
    timed = []
    try:
        await editor.open(URI, text)
        await asyncio.sleep(1.0)
        for index in range(count):
            version, insert = 2 + index, index % 2 == 0
            change = lsp.TextDocumentContentChangePartial(
                range=lsp.Range(start=lsp.Position(line=line, character=column),
                                end=lsp.Position(line=line, character=column + (0 if insert else 3))),
                text="@@ " if insert else "")
            params = lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=URI, version=version), content_changes=[change])
            if mode == "burst" and insert:
                editor.client.text_document_did_change(params)
                await asyncio.sleep(0.003)
                continue
            event = editor.expect(URI, version)
            sent = time.perf_counter()
            editor.client.text_document_did_change(params)
            await asyncio.wait_for(event.wait(), 120)
            received = next(t for u, v, t in editor.published if u == URI and v == version)
            timed.append((sent, received))
            if mode == "toggle":
                await asyncio.sleep(0.08)
    finally:
        await editor.stop()
    return timed


def _steps(trace: Path, timed: list[tuple[float, float]]) -> dict:
    """Median and p95 of each step between consecutive marks, over the timed edits."""
    marks = []
    for row in trace.read_text().splitlines():
        at, _thread, name = row.split()
        marks.append((float(at), name))
    steps: dict[str, list[float]] = {}
    for sent, received in timed:
        previous, name = sent, "sent"
        for at, mark in marks:
            if sent <= at <= received:
                steps.setdefault(f"{name}->{mark}", []).append(at - previous)
                previous, name = at, mark
        steps.setdefault(f"{name}->received", []).append(received - previous)
    return {step: {"p50_ms": round(statistics.median(v) * 1000, 2),
                   "p95_ms": round(sorted(v)[int(0.95 * (len(v) - 1))] * 1000, 2), "edits": len(v)}
            for step, v in steps.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, default=Path("/work/main"), help="the other checkout (with .venv)")
    parser.add_argument("--edits", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--result", default="server_edit_overhead")
    args = parser.parse_args()
    figures: dict = {"load_average_at_start": [round(x, 2) for x in os.getloadavg()], "rounds": []}
    breakdown = {}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.rounds):
            row = {}
            for mode in ("toggle", "back_to_back", "burst"):
                for who, checkout in (("baseline", args.baseline.resolve()), ("this", ROOT)):
                    trace = Path(folder) / f"{mode}.trace" if who == "this" else None
                    if trace is not None and trace.exists():
                        trace.unlink()
                    _server(checkout, str(trace) if trace else None)
                    timed = asyncio.run(_edits(mode, args.edits))
                    row[f"{mode}_{who}"] = percentiles([b - a for a, b in timed])
                    if trace is not None and trace.exists():
                        breakdown[mode] = _steps(trace, timed)
                print(row, file=sys.stderr)
            figures["rounds"].append(row)
    figures["steps_of_this_checkout_last_round"] = breakdown
    figures["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    figures["baseline"] = str(args.baseline.resolve())
    path = write_result(args.result, figures, notes=(
        "Whole processes over stdio, one client, the 1,061-line matrix-heavy document; edits toggle a syntax "
        "error (every other version has errors). Baseline and this checkout alternate, mode by mode, round by "
        "round, on the same machine; see benchmarks/edit_overhead.py for the modes and the step marks."))
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
