"""Drives `coop-lsp` over stdio as an editor does and records latencies.

For the example GEMM kernel and generated 1,000- and 5,000-line kernels: open
the file, type characters one at a time in the middle of it (a comment, then
a statement), and time each edit until the diagnostics for that version
arrive; time hover and
completion requests. The server runs with its debounce off so that the
figures are the checking time, not the wait the debounce adds (150 ms by
default in editors). Finally, the server's resident memory with 100 open
documents.

    .venv/bin/python -m benchmarks.server_latency [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

from .common import synthetic_kernel, write_result

ROOT = Path(__file__).resolve().parent.parent
GEMM = ROOT / "examples" / "chromium" / "gemm_blocked.wgsl"


def percentiles(samples: list[float]) -> dict:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"p50_ms": round(statistics.median(ordered) * 1000, 2), "p95_ms": round(p95 * 1000, 2),
            "samples": len(ordered)}


class Editor:
    def __init__(self) -> None:
        self.client = LanguageClient("coop-lsp-bench", "0")
        self.arrived: dict[tuple[str, int], asyncio.Event] = {}
        self.seen: set[tuple[str, int]] = set()

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _published(params: lsp.PublishDiagnosticsParams):
            key = (params.uri, params.version)
            self.seen.add(key)
            event = self.arrived.get(key)
            if event is not None:
                event.set()

    async def start(self) -> None:
        await self.client.start_io(sys.executable, "-m", "coop_lsp.server.main", "--debounce-ms", "0")
        await self.client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
        self.client.initialized(lsp.InitializedParams())

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    def expect(self, uri: str, version: int) -> asyncio.Event:
        event = self.arrived.setdefault((uri, version), asyncio.Event())
        if (uri, version) in self.seen:
            event.set()
        return event

    async def open(self, uri: str, text: str) -> None:
        event = self.expect(uri, 1)
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="wgsl", version=1, text=text)))
        await asyncio.wait_for(event.wait(), 120)

    async def type_characters(self, uri: str, line: int, text: str, first_version: int = 2) -> list[float]:
        samples = []
        for index, char in enumerate(text):
            version = first_version + index
            event = self.expect(uri, version)
            start = time.perf_counter()
            self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[lsp.TextDocumentContentChangePartial(
                    range=lsp.Range(start=lsp.Position(line=line, character=index),
                                    end=lsp.Position(line=line, character=index)), text=char)]))
            await asyncio.wait_for(event.wait(), 120)
            samples.append(time.perf_counter() - start)
        return samples

    async def timed(self, requests) -> list[float]:
        samples = []
        for make in requests:
            start = time.perf_counter()
            await make()
            samples.append(time.perf_counter() - start)
        return samples

    def pid(self) -> int | None:
        server = getattr(self.client, "_server", None)
        return server.pid if server is not None else None


def positions(text: str, needles: list[str]) -> list[lsp.Position]:
    out = []
    for needle in needles:
        index = text.find(needle)
        if index < 0:
            continue
        line = text.count("\n", 0, index)
        out.append(lsp.Position(line=line, character=index - (text.rfind("\n", 0, index) + 1)))
    return out


async def measure_file(editor: Editor, name: str, text: str, characters: int) -> dict:
    uri = f"file:///bench/{name}.wgsl"
    start = time.perf_counter()
    await editor.open(uri, text)
    opened = time.perf_counter() - start
    middle = text.count("\n") // 2
    # Type a comment at the start of a middle line: each keystroke is a new version to check.
    typing = await editor.type_characters(uri, middle, ("// " + "x" * characters)[:characters])
    # Then a statement, at the start of a statement line further down: most versions do not parse
    # (`let y = max(1.0,` ...), so this is what checking costs while code is being written.
    lines = text.split("\n")
    code_line = next((i for i in range(middle + 1, len(lines)) if lines[i].startswith("  ") and
                      lines[i].rstrip().endswith(";")), middle + 1)
    statement = "let y = max(1.0, 2.0); "
    typing_code = await editor.type_characters(uri, code_line, statement, first_version=2 + characters)
    # Typing leaves the document at a new version; hover and completion then reuse its analysis.
    identifier = lsp.TextDocumentIdentifier(uri=uri)
    targets = positions(text, ["subgroupMatrixMultiplyAccumulate", "acc", "fma(", "data[", "let a ", "row"])
    targets = [lsp.Position(line=p.line, character=p.character + (characters if p.line == middle else 0)
                            + (len(statement) if p.line == code_line else 0))
               for p in targets] or [lsp.Position(line=0, character=0)]
    hovers = await editor.timed([
        (lambda p=p: editor.client.text_document_hover_async(lsp.HoverParams(text_document=identifier, position=p)))
        for p in targets * 10])
    completions = await editor.timed([
        (lambda p=p: editor.client.text_document_completion_async(lsp.CompletionParams(
            text_document=identifier, position=p))) for p in targets * 5])
    return {"lines": text.count("\n"), "bytes": len(text.encode()), "open_to_diagnostics_ms": round(opened * 1000, 1),
            "edit_to_diagnostics": percentiles(typing),
            "edit_to_diagnostics_typing_a_statement": percentiles(typing_code), "hover": percentiles(hovers),
            "completion": percentiles(completions)}


def rss_mib(pid: int | None) -> float | None:
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


async def main_async(quick: bool) -> dict:
    editor = Editor()
    await editor.start()
    figures = {}
    try:
        figures["gemm_blocked"] = await measure_file(editor, "gemm_blocked", GEMM.read_text(), 20 if quick else 60)
        figures["kernel_1000_lines"] = await measure_file(editor, "k1000", synthetic_kernel(lines=1000),
                                                          15 if quick else 40)
        if not quick:
            figures["kernel_5000_lines"] = await measure_file(editor, "k5000", synthetic_kernel(lines=5000), 15)
        before = rss_mib(editor.pid())
        text = synthetic_kernel(lines=200)
        for index in range(100):
            await editor.open(f"file:///bench/many_{index}.wgsl", text)
        figures["memory"] = {"rss_mib_before": before, "rss_mib_with_100_more_200_line_documents": rss_mib(editor.pid())}
    finally:
        await editor.stop()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples, no 5,000-line file")
    args = parser.parse_args()
    figures = asyncio.run(main_async(args.quick))
    path = write_result("server_latency", figures, notes=(
        "stdio, server started with --debounce-ms 0 (editors get +150 ms debounce on diagnostics); "
        "each edit re-parses the document from text and replays the syntax, semantic and uniformity results "
        "of the declarations it did not touch (coop_lsp/*/reuse.py), with the same diagnostics as a fresh lint"))
    print(path.read_text())


if __name__ == "__main__":
    main()
