"""The editor on matrix-heavy code: coop-lsp and the editor anchor (wgsl-analyzer), driven by one client.

    .venv/bin/python -m benchmarks.server_latency --matrix-heavy [--quick]

Documents come from benchmarks/matrix_kernels.py (tiled GEMM kernels, 21 a document: about 1,000 lines).
Whole server processes over stdio, default settings, as an editor starts them:

- edit -> diagnostics on a 1,000-line document. Workloads: commenting out a middle line (`// xxx` at the
  start of a `for (...) {` line: the brace goes, so every later version has a syntax error), typing a
  statement, and typing a comment after a statement and on a line of its own (server_latency.measure_file;
  coop-lsp only: every version gets its own diagnostics, so each keystroke is timed to its version's); and
  "toggle" edits, which insert `@@ ` after the name of a `let` and take it out again, so that every edit
  adds or removes syntax errors. Plain toggles return to a text seen two versions before, which coop-lsp's
  kept records replay; the toggles "with a counter" also add ` + N` to the `let`'s value as they take `@@ `
  out, N new each time, so that every version is new text and is checked. wgsl-analyzer publishes diagnostics without
  a version and only when they changed (and, by default, reports no unresolved names: a renaming toggle
  changed nothing it publishes); the toggle changes them on every edit, so both servers are timed on it,
  from sending the edit to the next publication for the document. wgsl-analyzer v0.9.5 parses neither
  `enable` nor a matrix builtin's template arguments: on the matrix-heavy documents it reports about 500
  parse errors and analyses nothing further, so the two servers are also timed on a plain 1,000-line
  document it parses whole (plain_document).
- opening a workspace: 100 distinct documents of about 1,000 lines, each ending in one function with a
  type error (so that each server has something to publish for every document), opened in one burst;
  the time until every document has had diagnostics with findings (wgsl-analyzer first publishes an
  empty list for each), counted from when the started server has answered a first request (its start is
  reported apart), and the server's resident memory then and after
  2.5 s idle. coop-lsp: cold (an empty result cache in COOP_LINT_CACHE_DIR) and warm (a new process, the
  same cache); right after the burst the first document is edited, and the time until that edit's
  diagnostics shows whether the document being worked on waits for the rest (it includes the server's
  first import of the checker, about 2 s here, which opening from the cache never needs).

The anchor is wgsl-analyzer built from source: the binary named by $WGSL_ANALYZER, else
/work/anchor/wgsl-analyzer/target/release/wgsl_analyzer; it is skipped, saying why, when neither exists.
How it was built here (outside the repository): the tag v0.9.5 (rust-version 1.84; later tags need a
newer rustc or fetch rust-analyzer from GitHub), its git dependencies replaced by the same crates from
crates.io (vfs, paths, text-edit -> ra_ap_vfs, ra_ap_paths, ra_ap_text_edit =0.0.177, of October 2023
like the pinned commit; la-arena 0.3.1; naga 24.0.0 from crates.io for the pinned wgpu commit), regex's
"unicode" feature named in crates/base_db (the tag's lock got it from tracing-subscriber 0.3.19; the
re-resolved lock does not, and the server panicked on its first document), then
`nice -n 10 cargo build --release -j 2 -p wgsl_analyzer`.
"""

from __future__ import annotations

import asyncio
import os
import random
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp

from .common import _FUNCTION
from .matrix_kernels import matrix_kernel_file
from .server_latency import SERVER, Editor, measure_file, percentiles, rss_mib

KERNELS_PER_DOCUMENT = 21  # about 1,000 lines
DOCUMENTS = 100
ANCHOR_DEFAULT = Path("/work/anchor/wgsl-analyzer/target/release/wgsl_analyzer")
BROKEN = "\nfn broken_{i}() {{\n  let wrong: u32 = 1.5;\n}}\n"


def anchor_binary() -> Path | None:
    named = os.environ.get("WGSL_ANALYZER")
    path = Path(named) if named else ANCHOR_DEFAULT
    return path if path.is_file() and os.access(path, os.X_OK) else None


def documents(count: int, seed: int = 37) -> list[str]:
    rng = random.Random(seed)
    return [matrix_kernel_file(rng, KERNELS_PER_DOCUMENT) + BROKEN.format(i=i) for i in range(count)]


def plain_document(lines: int) -> str:
    """WGSL without matrices or `enable` that the anchor's parser takes whole: benchmarks/common.py's plain
    functions (each reading a storage array in a loop), with line comments for its block comments (which
    wgsl-analyzer v0.9.5 does not parse)."""
    header = "@group(0) @binding(0) var<storage, read_write> data: array<f32>;\n\n"
    parts, count, index = [header], header.count("\n"), 0
    while count < lines:
        text = _FUNCTION.format(i=index, k=16 + index % 48).replace("/* block comment", "// line comment")
        text = text.replace(f"comment {index} */", f"comment {index}")
        parts.append(text)
        count += text.count("\n")
        index += 1
    return "".join(parts)


def _toggle_site(text: str) -> tuple[int, int]:
    """The line and the column just after the name of a `let` (`row` in the matrix kernels, `a` in the plain
    functions) in the middle of the document, whose next line uses it."""
    lines = text.split("\n")
    for index in range(len(lines) // 2, len(lines)):
        for name in ("row", "a"):
            column = lines[index].find(f"let {name} = ")
            if column >= 0:
                return index, column + len("let ") + len(name)
    raise ValueError("no `let` to rename in the second half of the document")


async def toggle_edits(editor: Editor, uri: str, text: str, count: int, versioned: bool, counter: bool = False,
                       first_version: int = 2) -> dict:
    """`count` edits, each inserting `@@ ` into a `let` or taking it out; each timed to the next diagnostics.
    With `counter`, taking it out also adds ` + N` to the `let`'s value, N counting up: every version is
    text the server has not seen (without it, each clean version is the text of two versions before, and
    the server replays what it kept of that one's check)."""
    line, column = _toggle_site(text)
    statement = text.split("\n")[line]
    value = base = statement[column:statement.index(";", column)]  # ` = expression`, up to the `;`
    samples = []
    for index in range(count):
        version = first_version + index
        insert = index % 2 == 0
        if insert:
            end, new_text = column, "@@ "
        else:
            end = column + 3 + len(value)
            if counter:
                value = f"{base} + {1000 + index}"
            new_text = value
        change = lsp.TextDocumentContentChangePartial(
            range=lsp.Range(start=lsp.Position(line=line, character=column), end=lsp.Position(line=line, character=end)),
            text=new_text)
        before = editor.arrivals.get(uri, 0)
        event = editor.expect(uri, version) if versioned else None
        start = time.perf_counter()
        editor.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version), content_changes=[change]))
        if versioned:
            await asyncio.wait_for(event.wait(), 120)
        else:
            await editor.arrivals_beyond(uri, before)
        samples.append(time.perf_counter() - start)
    return percentiles(samples)


async def edit_latency(command: list[str] | None, text: str, count: int, versioned: bool) -> dict:
    editor = Editor()
    await editor.start(command)
    try:
        uri = "file:///bench/matrix_1000.wgsl"
        start = time.perf_counter()
        editor.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="wgsl", version=1, text=text)))
        await editor.arrivals_beyond(uri, 0)
        opened = time.perf_counter() - start
        await asyncio.sleep(1.0)  # whatever else the open publishes (wgsl-analyzer: twice) arrives first
        figures = {"lines": text.count("\n"), "open_to_diagnostics_ms": round(opened * 1000, 1),
                   "findings_after_open": editor.findings.get(uri),
                   "toggle_edit_to_diagnostics": await toggle_edits(editor, uri, text, count, versioned)}
        # `count` toggles leave the text as it was opened; these then count up from there.
        figures["toggle_with_a_counter_edit_to_diagnostics"] = await toggle_edits(
            editor, uri, text, count, versioned, counter=True, first_version=2 + count)
    finally:
        await editor.stop()
    return figures


async def open_workspace(command: list[str] | None, env: dict | None, texts: list[str], edit: bool) -> dict:
    editor = Editor()
    started = time.perf_counter()
    await editor.start(command, env)
    try:
        # coop-lsp answers `initialize` before its imports are done (server/fast_start.py): the workspace
        # is timed from when the server answers a request, and the start is reported on its own.
        try:
            await asyncio.wait_for(editor.client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="")), 60)
        except Exception:  # noqa: BLE001 - a server without workspace symbols has still answered
            pass
        ready = time.perf_counter() - started
        pid = editor.pid()
        rss_started = rss_mib(pid)
        uris = [f"file:///bench/workspace/kernel_{i:03}.wgsl" for i in range(len(texts))]
        start = time.perf_counter()
        for uri, text in zip(uris, texts):
            editor.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
                text_document=lsp.TextDocumentItem(uri=uri, language_id="wgsl", version=1, text=text)))
        edited = None
        if edit:
            # The user edits the first document at once (a comment at its top): its diagnostics must not
            # wait for the other 99.
            event = editor.expect(uris[0], 2)
            sent = time.perf_counter()
            editor.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=uris[0], version=2),
                content_changes=[lsp.TextDocumentContentChangePartial(
                    range=lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0)),
                    text="// edited\n")]))
            await asyncio.wait_for(event.wait(), 300)
            edited = round((time.perf_counter() - sent) * 1000, 1)
        deadline = time.perf_counter() + 300
        while not all(editor.findings.get(uri) for uri in uris):
            editor.any_arrival.clear()
            await asyncio.wait_for(editor.any_arrival.wait(), max(0.001, deadline - time.perf_counter()))
        finished = max(editor.first_findings[uri] for uri in uris) - start
        rss_all, workers_all = rss_mib(pid), children_rss_mib(pid)
        await asyncio.sleep(2.5)
        rss_idle, workers_idle = rss_mib(pid), children_rss_mib(pid)
        with_findings = sum(1 for uri in uris if editor.findings.get(uri))
    finally:
        await editor.stop()
    return {"documents": len(texts), "lines": sum(t.count("\n") for t in texts),
            "process_start_to_first_answer_seconds": round(ready, 2),
            "seconds_to_all_diagnostics": round(finished, 2),
            "edit_to_diagnostics_during_open_ms": edited,
            "documents_with_findings": with_findings,
            "first_findings_published": dict(sorted(editor.messages.items(), key=lambda m: -m[1])[:3]),
            "rss_mib_started": rss_started, "rss_mib_all_diagnosed": rss_all, "rss_mib_after_idle": rss_idle,
            # coop-lsp's worker processes (server/check_pool.py) are part of its memory too.
            "child_processes_rss_mib_all_diagnosed": workers_all, "child_processes_rss_mib_after_idle": workers_idle}


def children_rss_mib(pid: int | None) -> list[float]:
    """The resident memory of each process the server started (its check workers), largest first."""
    if pid is None:
        return []
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == pid and (rss := rss_mib(int(entry))) is not None:
            found.append(rss)
    return sorted(found, reverse=True)


async def run(quick: bool) -> dict:
    text = documents(1, seed=1)[0]
    figures: dict = {"corpus": "matrix-heavy (benchmarks/matrix_kernels.py, 21 kernels a document)"}
    editor = Editor()
    await editor.start()
    try:
        figures["coop_lsp_typing_1000_lines"] = await measure_file(editor, "matrix_1000", text, 15 if quick else 40)
    finally:
        await editor.stop()
    toggles = 20 if quick else 60
    plain = plain_document(1000)
    figures["coop_lsp_edit_1000_lines"] = await edit_latency(None, text, toggles, versioned=True)
    figures["coop_lsp_edit_1000_plain_lines"] = await edit_latency(None, plain, toggles, versioned=True)
    texts = documents(20 if quick else DOCUMENTS)
    with tempfile.TemporaryDirectory() as cache:
        env = dict(SERVER["env"] or os.environ, COOP_LINT_CACHE_DIR=cache)
        figures["coop_lsp_open_workspace_cold"] = await open_workspace(None, env, texts, edit=False)
        figures["coop_lsp_open_workspace_warm"] = await open_workspace(None, env, texts, edit=False)
    with tempfile.TemporaryDirectory() as cache:
        # Again cold, with the first document edited at once (that edit's check is not cached).
        env = dict(SERVER["env"] or os.environ, COOP_LINT_CACHE_DIR=cache)
        figures["coop_lsp_open_workspace_cold_with_an_edit"] = await open_workspace(None, env, texts, edit=True)
    anchor = anchor_binary()
    if anchor is None:
        figures["anchor"] = {"skipped": "no wgsl-analyzer binary: set WGSL_ANALYZER or build it at "
                                        f"{ANCHOR_DEFAULT} (benchmarks/README.md)"}
        return figures
    figures["anchor"] = {"binary": str(anchor),
                         "edit_1000_lines": await edit_latency([str(anchor)], text, toggles, versioned=False),
                         "edit_1000_plain_lines": await edit_latency([str(anchor)], plain, toggles, versioned=False),
                         "open_workspace": await open_workspace([str(anchor)], None, texts, edit=False)}
    return figures
