"""Drives `coop-lsp` over stdio as an editor does, with default settings, and records what users wait for.

- initialize: a whole new server process, from its start to the answer to
  `initialize` (also the CPU time the process had used by then, which a busy
  machine does not inflate);
- one character at a time in the middle of the example GEMM kernel and of
  generated 1,000- and 5,000-line kernels (`// xxx` at the start of a middle
  line, commenting it out; then a statement; then, in a fresh copy, a comment
  after a statement's `;` and a comment on a new line of its own): each edit
  until the diagnostics of that version arrive; hover and completion, each
  until its response has been read and parsed as JSON (as an editor parses
  it), and apart until pygls's client has also converted it to lsprotocol
  objects (`*_with_client_conversion`, as measured until session 21);
- fast typing on 1,000 lines: an edit every 30 ms for 3 s without waiting,
  then the time from the last keystroke to the diagnostics of the final
  version (and how many versions were published on the way);
- memory: the server's resident memory with 100 open (distinct) 1,000-line
  documents, in a fresh server.

    .venv/bin/python -m benchmarks.server_latency [--quick] [--matrix-heavy] [--checkout PATH --result NAME]

--matrix-heavy measures matrix-heavy documents instead, against the editor anchor (wgsl-analyzer) in the
same run, and opening a workspace of 100 such documents cold and from the cache: see
benchmarks/server_matrix.py. Its result is server_latency_matrix_heavy unless --result names another.

--against PATH [--rounds N] alternates PATH's server with this checkout's (or --checkout's) in the same call,
round by round, a fresh server each (edit -> diagnostics, hover and completion of measure_file, on the
matrix-heavy document with --matrix-heavy), and pools each tree's samples: single runs of the same tree
scatter more than two trees differ. Its result is server_latency_alternating unless --result names another.

--checkout measures another checkout's server (its own .venv, started in its folder, writing no bytecode
there), so that two versions are timed by the same driver minutes apart.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

from .common import synthetic_kernel, write_result
from .lsp_stdio import frame, read_message

ROOT = Path(__file__).resolve().parent.parent
GEMM = ROOT / "examples" / "chromium" / "gemm_blocked.wgsl"


def percentiles(samples: list[float], name: str | None = None, kept: dict | None = None) -> dict:
    """`kept`, where given, gathers the raw samples under `name` too, so that rounds can be pooled."""
    if kept is not None:
        kept.setdefault(name, []).extend(samples)
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"p50_ms": round(statistics.median(ordered) * 1000, 2), "p95_ms": round(p95 * 1000, 2),
            "samples": len(ordered)}


# How the server under test starts: this checkout's by default, another's with --checkout.
SERVER = {"command": [sys.executable, "-m", "coop_lsp.server.main"], "cwd": None, "env": None}


def use_checkout(path: Path) -> None:
    SERVER["command"] = [str(path / ".venv" / "bin" / "python"), "-m", "coop_lsp.server.main"]
    SERVER["cwd"] = str(path)
    SERVER["env"] = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")


class Editor:
    def __init__(self) -> None:
        self.client = LanguageClient("coop-lsp-bench", "0")
        self.arrived: dict[tuple[str, int], asyncio.Event] = {}
        self.seen: set[tuple[str, int]] = set()

        self.published: list[tuple[str, int, float]] = []
        # Per document: how many times diagnostics arrived, and how many of them were not empty (a server
        # that sends no version, as wgsl-analyzer, is timed by the count; see benchmarks/server_matrix.py).
        self.arrivals: dict[str, int] = {}
        self.findings: dict[str, int] = {}
        self.first_findings: dict[str, float] = {}  # when a document's first non-empty diagnostics came
        self.messages: dict[str, int] = {}  # the first finding of each publication: what the server reported
        self.any_arrival = asyncio.Event()
        self.response_parsed: float | None = None
        self._stamp_responses()

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _published(params: lsp.PublishDiagnosticsParams):
            key = (params.uri, params.version)
            self.published.append((params.uri, params.version, time.perf_counter()))
            self.arrivals[params.uri] = self.arrivals.get(params.uri, 0) + 1
            self.findings[params.uri] = len(params.diagnostics)
            if params.diagnostics:
                self.first_findings.setdefault(params.uri, time.perf_counter())
                self.messages[params.diagnostics[0].message] = self.messages.get(params.diagnostics[0].message, 0) + 1
            self.any_arrival.set()
            self.seen.add(key)
            event = self.arrived.get(key)
            if event is not None:
                event.set()

    async def start(self, command: list[str] | None = None, env: dict | None = None) -> None:
        """Starts this checkout's server (SERVER), or `command` (another server, such as the editor anchor)."""
        if command is None:
            await self.client.start_io(*SERVER["command"], cwd=SERVER["cwd"], env=env or SERVER["env"])
        else:
            await self.client.start_io(*command, env=env)
        await self.client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
        self.client.initialized(lsp.InitializedParams())

    async def arrivals_beyond(self, uri: str, count: int, timeout: float = 120) -> None:
        """Waits until diagnostics for `uri` have arrived more than `count` times."""
        deadline = time.perf_counter() + timeout
        while self.arrivals.get(uri, 0) <= count:
            self.any_arrival.clear()
            await asyncio.wait_for(self.any_arrival.wait(), max(0.001, deadline - time.perf_counter()))

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

    async def type_characters(self, uri: str, line: int, text: str, first_version: int = 2,
                              column: int = 0) -> list[float]:
        samples = []
        for index, char in enumerate(text):
            version = first_version + index
            event = self.expect(uri, version)
            start = time.perf_counter()
            at = lsp.Position(line=line, character=column + index)
            self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[lsp.TextDocumentContentChangePartial(range=lsp.Range(start=at, end=at), text=char)]))
            await asyncio.wait_for(event.wait(), 120)
            samples.append(time.perf_counter() - start)
        return samples

    def _stamp_responses(self) -> None:
        # pygls parses each message with json.loads and turns every dict into lsprotocol objects as it goes;
        # the message itself is the last dict handed over, so this marks when a response had been read and
        # parsed as JSON, before the client turned its result into objects. An editor parses JSON natively;
        # pygls's conversion of a 250-item completion list took 18-40 ms by itself on the 2-core machine.
        protocol = self.client.protocol
        structure = protocol.structure_message

        def stamped(data):
            if "jsonrpc" in data and "id" in data and "method" not in data:
                self.response_parsed = time.perf_counter()
            return structure(data)
        protocol.structure_message = stamped

    async def timed(self, requests, converted: list[float] | None = None) -> list[float]:
        """Seconds from sending each request (one at a time) to its response read and parsed as JSON.
        `converted`, where given, gathers the seconds until pygls's client had also converted the result."""
        samples = []
        for make in requests:
            start = time.perf_counter()
            self.response_parsed = None
            await make()
            done = time.perf_counter()
            if self.response_parsed is None:
                raise RuntimeError("pygls's client no longer parses responses through structure_message")
            samples.append(self.response_parsed - start)
            if converted is not None:
                converted.append(done - start)
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


async def measure_file(editor: Editor, name: str, text: str, characters: int, kept: dict | None = None) -> dict:
    uri = f"file:///bench/{name}.wgsl"
    start = time.perf_counter()
    await editor.open(uri, text)
    opened = time.perf_counter() - start
    middle = text.count("\n") // 2
    lines = text.split("\n")
    # `// xxx` typed at the start of a middle line, whatever that line holds (in the matrix kernels a
    # `for (...) {`: the brace is commented out, and every later version has a syntax error). It was
    # reported as "typing a comment" until session 14; it is editing code.
    commenting_out = await editor.type_characters(uri, middle, ("// " + "x" * characters)[:characters])
    # Then a statement, at the start of a statement line further down: most versions do not parse
    # (`let y = max(1.0,` ...), so this is what checking costs while code is being written.
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
    hovers_converted, completions_converted = [], []
    hovers = await editor.timed([
        (lambda p=p: editor.client.text_document_hover_async(lsp.HoverParams(text_document=identifier, position=p)))
        for p in targets * 10], hovers_converted)
    completions = await editor.timed([
        (lambda p=p: editor.client.text_document_completion_async(lsp.CompletionParams(
            text_document=identifier, position=p))) for p in targets * 5], completions_converted)
    return {"lines": text.count("\n"), "bytes": len(text.encode()), "open_to_diagnostics_ms": round(opened * 1000, 1),
            "edit_to_diagnostics_commenting_out_a_line": percentiles(
                commenting_out, "edit_to_diagnostics_commenting_out_a_line", kept),
            "commented_out_line": lines[middle].strip(),
            "edit_to_diagnostics_typing_a_statement": percentiles(
                typing_code, "edit_to_diagnostics_typing_a_statement", kept),
            "hover": percentiles(hovers, "hover", kept), "completion": percentiles(completions, "completion", kept),
            "hover_with_client_conversion": percentiles(hovers_converted, "hover_with_client_conversion", kept),
            "completion_with_client_conversion": percentiles(
                completions_converted, "completion_with_client_conversion", kept),
            **await typing_comments(editor, f"{name}_comments", text, code_line, characters, kept)}


async def typing_comments(editor: Editor, name: str, text: str, line: int, characters: int,
                          kept: dict | None = None) -> dict:
    """Comments as people type them, into a copy of the document as it was opened (no syntax error): after
    the `;` of the statement on `line`, and on a new line of their own above it (Enter, then the comment;
    Enter itself moves every later line, so it is timed apart)."""
    uri = f"file:///bench/{name}.wgsl"
    await editor.open(uri, text)
    lines = text.split("\n")
    after = (" // " + "note " * characters)[:characters]
    after_statement = await editor.type_characters(uri, line, after, column=len(lines[line]))
    version = 2 + characters
    above = line - 1
    enter = await editor.type_characters(uri, above, "\n", first_version=version, column=len(lines[above]))
    indent = lines[line][:len(lines[line]) - len(lines[line].lstrip())]
    own_line = await editor.type_characters(uri, above + 1, (indent + "// " + "why " * characters)[:characters],
                                            first_version=version + 1)
    if kept is not None:
        kept.setdefault("edit_to_diagnostics_enter_before_it", []).extend(enter)
    return {"edit_to_diagnostics_typing_a_comment_after_a_statement": percentiles(
                after_statement, "edit_to_diagnostics_typing_a_comment_after_a_statement", kept),
            "edit_to_diagnostics_typing_a_comment_line": percentiles(
                own_line, "edit_to_diagnostics_typing_a_comment_line", kept),
            "edit_to_diagnostics_enter_before_it_ms": round(enter[0] * 1000, 2)}


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


async def fast_typing(editor: Editor, name: str, text: str, first_version: int, period: float = 0.030,
                      seconds: float = 3.0) -> dict:
    """An edit every `period` for `seconds`, not waiting for anything; then the last keystroke's wait."""
    uri = f"file:///bench/{name}.wgsl"
    await editor.open(uri, text)
    line = text.count("\n") // 3
    count = int(seconds / period)
    loop = asyncio.get_running_loop()
    start = loop.time()
    sent_at = 0.0
    for index in range(count):
        await asyncio.sleep(max(0.0, start + index * period - loop.time()))
        version = first_version + index
        sent_at = time.perf_counter()
        editor.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangePartial(
                range=lsp.Range(start=lsp.Position(line=line, character=index),
                                end=lsp.Position(line=line, character=index)),
                text="/" if index < 2 else "x")]))
    final = first_version + count - 1
    await asyncio.wait_for(editor.expect(uri, final).wait(), 120)
    arrived = next(t for u, v, t in editor.published if u == uri and v == final)
    versions = [v for u, v, _ in editor.published if u == uri and first_version <= v <= final]
    return {"edits": count, "period_ms": period * 1000, "last_keystroke_to_final_diagnostics_ms":
            round((arrived - sent_at) * 1000, 1), "versions_published": len(versions),
            "published_in_order": versions == sorted(set(versions))}


def initialize_times(repeats: int) -> dict:
    """Whole processes: start `coop-lsp`, send initialize, time the answer."""
    walls, cpus = [], []
    ticks = os.sysconf("SC_CLK_TCK")
    for _ in range(repeats):
        start = time.perf_counter()
        process = subprocess.Popen(SERVER["command"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   cwd=SERVER["cwd"], env=SERVER["env"])
        process.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": os.getpid(), "rootUri": None, "capabilities": {}}}))
        process.stdin.flush()
        answer = read_message(process.stdout)
        walls.append(time.perf_counter() - start)
        stat = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        cpus.append((int(stat[11]) + int(stat[12])) / ticks)
        assert answer.get("id") == 1 and "capabilities" in answer["result"], answer
        process.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})
                            + frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
                            + frame({"jsonrpc": "2.0", "method": "exit"}))
        process.stdin.flush()
        process.wait(60)
    return {**percentiles(walls), "cpu_ms_median": round(statistics.median(cpus) * 1000, 1), "runs": repeats}


async def memory_with_documents(count: int, lines: int) -> dict:
    editor = Editor()
    await editor.start()
    try:
        # One small document first: the server imports what checking needs on the first one.
        await editor.open("file:///bench/first.wgsl", GEMM.read_text())
        before = rss_mib(editor.pid())
        text = synthetic_kernel(lines=lines)
        start = time.perf_counter()
        for index in range(count):
            # Distinct texts: nothing can be shared between documents.
            await editor.open(f"file:///bench/many_{index}.wgsl", text.replace("block comment", f"comment {index}"))
        opened = time.perf_counter() - start
        after = rss_mib(editor.pid())
        await asyncio.sleep(2.5)  # the server's idle collection
        settled = rss_mib(editor.pid())
    finally:
        await editor.stop()
    return {"documents": count, "lines_each": lines, "rss_mib_after_one_small_document": before,
            "rss_mib_all_open": after, "rss_mib_all_open_after_idle": settled,
            "open_to_diagnostics_seconds_all": round(opened, 2),
            "mib_per_document": round((settled - before) / count, 3) if before and settled else None}


async def main_async(quick: bool) -> dict:
    figures = {"load_average_at_start": [round(x, 2) for x in os.getloadavg()],
               "initialize": initialize_times(5 if quick else 20)}
    editor = Editor()
    await editor.start()
    try:
        figures["gemm_blocked"] = await measure_file(editor, "gemm_blocked", GEMM.read_text(), 20 if quick else 60)
        figures["kernel_1000_lines"] = await measure_file(editor, "k1000", synthetic_kernel(lines=1000),
                                                          15 if quick else 40)
        if not quick:
            figures["kernel_5000_lines"] = await measure_file(editor, "k5000", synthetic_kernel(lines=5000), 15)
        rounds = [await fast_typing(editor, f"typing{index}", synthetic_kernel(lines=1000), 2)
                  for index in range(1 if quick else 3)]
        waits = [r["last_keystroke_to_final_diagnostics_ms"] for r in rounds]
        figures["fast_typing_1000_lines"] = {"rounds": rounds, "worst_ms": max(waits),
                                             "median_ms": statistics.median(waits)}
    finally:
        await editor.stop()
    figures["memory"] = await memory_with_documents(100, 1000)
    figures["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    return figures


async def _edit_session(documents: list[tuple[str, str, int]], kept: dict) -> None:
    """One fresh server (the one SERVER names) and measure_file on each document, its samples kept raw."""
    editor = Editor()
    await editor.start()
    try:
        for name, text, characters in documents:
            await measure_file(editor, name, text, characters, kept.setdefault(name, {}))
    finally:
        await editor.stop()


def alternating(checkouts: dict[str, Path], rounds: int, quick: bool, matrix_heavy: bool) -> dict:
    """Edit -> diagnostics (measure_file's edits, hover, completion) of two trees' servers in one call, round
    by round as benchmarks/typing_cost.py alternates them, each round a fresh server per tree; a single run
    scatters more than trees differ, so the samples of all rounds are pooled per tree."""
    from .typing_cost import alternate

    if matrix_heavy:
        from .server_matrix import documents as matrix_documents
        documents = [("matrix_1000", matrix_documents(1, seed=1)[0], 15 if quick else 40)]
    else:
        documents = [("gemm_blocked", GEMM.read_text(), 20 if quick else 60),
                     ("k1000", synthetic_kernel(lines=1000), 15 if quick else 40)]
    kept: dict[str, dict] = {name: {} for name in checkouts}

    def measure(name: str, checkout: Path) -> None:
        use_checkout(checkout)
        asyncio.run(_edit_session(documents, kept[name]))

    load = [round(x, 2) for x in os.getloadavg()]
    alternate(checkouts, rounds, measure)
    return {"load_average_at_start": load, "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
            "rounds": rounds, "alternating": {name: str(path) for name, path in checkouts.items()},
            **{name: {document: {figure: percentiles(samples) for figure, samples in figures.items()}
                      for document, figures in by_document.items()} for name, by_document in kept.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples, no 5,000-line file")
    parser.add_argument("--notes", default="", help="added to the result's notes (e.g. how busy the machine was)")
    parser.add_argument("--checkout", type=Path, help="time this checkout's server (default: this one)")
    parser.add_argument("--matrix-heavy", action="store_true",
                        help="matrix-heavy documents, opening a workspace, and the editor anchor")
    parser.add_argument("--result", help="result file name under benchmarks/results/ (default: server_latency, "
                                         "or server_latency_matrix_heavy)")
    parser.add_argument("--against", type=Path, help="alternate this tree's server with this checkout's (or "
                        "--checkout's) in one call, round by round: edit -> diagnostics, hover, completion")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: rounds, a fresh server each")
    args = parser.parse_args()
    if args.against is not None:
        this = (args.checkout or ROOT).resolve()
        figures = alternating({"against": args.against.resolve(), "this": this}, args.rounds, args.quick,
                              args.matrix_heavy)
        path = write_result(args.result or "server_latency_alternating", figures, notes=(
            "Whole processes over stdio, default settings; the two trees alternate round by round (a fresh "
            "server each), samples pooled per tree. " + args.notes).strip())
        print(path.read_text())
        return
    if args.checkout is not None:
        use_checkout(args.checkout.resolve())
    if args.matrix_heavy:
        from .server_matrix import run

        load = [round(x, 2) for x in os.getloadavg()]
        figures = {"load_average_at_start": load, **asyncio.run(run(args.quick)),
                   "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
                   "checkout": str(args.checkout.resolve()) if args.checkout else str(Path.cwd())}
        path = write_result(args.result or "server_latency_matrix_heavy", figures, notes=(
            "Whole processes over stdio, default settings, one client (benchmarks/server_matrix.py says what "
            "each figure is). " + args.notes).strip())
        print(path.read_text())
        return
    args.result = args.result or "server_latency"
    figures = asyncio.run(main_async(args.quick))
    figures["checkout"] = str(args.checkout.resolve()) if args.checkout else str(Path.cwd())
    path = write_result(args.result, figures, notes=(
        "stdio, default settings (no --debounce-ms: diagnostics are checked as soon as the server is free, "
        "one check at a time per document, coalescing edits that arrive during a check); each edit re-parses "
        "the document and replays the syntax, semantic and uniformity results of the declarations it did not "
        "touch (coop_lsp/*/reuse.py), with the same diagnostics as a fresh lint; documents no one works on keep "
        "text, diagnostics and symbols only (3 stay whole). " + args.notes).strip())
    print(path.read_text())


if __name__ == "__main__":
    main()
