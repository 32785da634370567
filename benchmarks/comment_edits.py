"""Edit -> diagnostics of this checkout's server against another's (main), alternating in one run, on the
1,061-line matrix-heavy document of benchmarks.server_matrix: commenting out a middle line (`// xxx...` at
its start, as server_latency's measure_file), typing a statement, a comment in a file with errors, toggling
a syntax error (plain, and with a counter), a comment after a statement, and indentation.

    .venv/bin/python -m benchmarks.comment_edits [--against /work/main] [--repeats 3] [--result comment_edits]

The middle line is a `for` header (`for (...) {`): commenting it out leaves its `}` unmatched, and every
later version has a syntax error. Its first two keystrokes (`/`, then `//`) change code, the others only
the comment's text: both are reported apart too. Each server is asked, right after the open, what VS Code
asks of a document it shows (semantic tokens, outline, folding ranges); until session 19 it was asked
nothing, so its first keystroke re-checked the whole document (see the first keystroke of a client that asks
nothing, reported apart). Until session 14 this workload was called "typing a
comment"; it is editing code. In the same (errored) file, after the statement, ` // xxx...` is typed
after the `;` of a statement line near the end of the document, in a function away from the error
(server/comment_edits.py: the shortcut for files with errors).

In a second server: the toggles (server_matrix.toggle_edits, plain, then with a counter so that every
version is new text), then ` // xxx...` after the `;` of a statement line of the second half, which keeps
the file free of errors (its keystrokes after ` //` are the comment shortcut's), then 12 spaces at the
start of the next statement line (indentation, which the shortcut takes too).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from pathlib import Path

from lsprotocol import types as lsp

from .common import write_result
from .server_latency import SERVER, Editor, percentiles
from .server_matrix import documents, toggle_edits

COMMENT_CHARACTERS = 40
STATEMENT = "let y = max(1.0, 2.0); "
TOGGLES = 60
INDENT = 12


def _server(checkout: Path | None) -> dict:
    if checkout is None:
        return {"command": [sys.executable, "-m", "coop_lsp.server.main"], "cwd": None, "env": None}
    return {"command": [str(checkout / ".venv" / "bin" / "python"), "-m", "coop_lsp.server.main"],
            "cwd": str(checkout), "env": dict(os.environ, PYTHONDONTWRITEBYTECODE="1")}


async def _ask_as_an_editor_shows_it(editor: Editor, uri: str) -> None:
    """What VS Code asks of a document it shows, right after opening it: its semantic tokens, outline and
    folding ranges. A server that leaves documents only opened to a worker (or the result cache) builds
    the model the first edit replays on these requests, as it does in the editor."""
    document = lsp.TextDocumentIdentifier(uri=uri)
    client = editor.client
    await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(text_document=document))
    await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=document))
    await client.text_document_folding_range_async(lsp.FoldingRangeParams(text_document=document))


@contextlib.asynccontextmanager
async def _opened(text: str, shown: bool = True):
    """A fresh server (the one SERVER names) with the document open and its first diagnostics in; `shown`:
    asked about as an editor showing it asks (False: a client that sends nothing but the text)."""
    editor = Editor()
    await editor.start()
    try:
        uri = "file:///bench/matrix_1000.wgsl"
        await editor.open(uri, text)
        if shown:
            await _ask_as_an_editor_shows_it(editor, uri)
        await asyncio.sleep(0.5)
        yield editor, uri
    finally:
        await editor.stop()


async def _session(server: dict, text: str) -> dict:
    SERVER.update(server)
    async with _opened(text) as (editor, uri):
        lines = text.split("\n")
        middle = text.count("\n") // 2
        comment = await editor.type_characters(uri, middle, ("// " + "x" * COMMENT_CHARACTERS)[:COMMENT_CHARACTERS])
        version = 2 + COMMENT_CHARACTERS
        code_line = next((i for i in range(middle + 1, len(lines)) if lines[i].startswith("  ") and
                          lines[i].rstrip().endswith(";")), middle + 1)
        statement = await editor.type_characters(uri, code_line, STATEMENT, first_version=version)
        version += len(STATEMENT)
        far = next(i for i in range(len(lines) * 7 // 8, len(lines)) if lines[i].startswith("  ")
                   and lines[i].rstrip().endswith(";"))
        typed = (" // " + "x" * COMMENT_CHARACTERS)[:COMMENT_CHARACTERS]
        errored = await editor.type_characters(uri, far, typed, version, column=len(lines[far]))
    # The same first keystroke in a client that asks nothing after opening: the document rested after its
    # open check (only its text, diagnostics and symbols kept), so this edit checks the whole document.
    async with _opened(text, shown=False) as (editor, uri):
        unasked = await editor.type_characters(uri, text.count("\n") // 2, "/")
    # The toggles in a server of their own, as server_matrix times them (versions from 2).
    async with _opened(text) as (editor, uri):
        toggles = await toggle_edits(editor, uri, text, TOGGLES, versioned=True)
        counted = await toggle_edits(editor, uri, text, TOGGLES, versioned=True, counter=True,
                                     first_version=2 + TOGGLES)
        version = 2 + 2 * TOGGLES
        # The counted toggles end on a `let` with ` + N` added: the lines below are as they were.
        # Then (the toggles leave the text as it was) a comment after a statement of the second half:
        # `//` after its `;` leaves the file free of errors.
        lines = text.split("\n")
        code_line = next(i for i in range(text.count("\n") // 2 + 3, len(lines)) if lines[i].startswith("  ")
                         and lines[i].rstrip().endswith(";"))
        typed = (" // " + "x" * COMMENT_CHARACTERS)[:COMMENT_CHARACTERS]
        trailing = await editor.type_characters(uri, code_line, typed, version, column=len(lines[code_line]))
        # Then indentation: spaces typed at the start of the next statement line.
        indent_line = next(i for i in range(code_line + 1, len(lines)) if lines[i].startswith("  ")
                           and lines[i].rstrip().endswith(";"))
        indenting = await editor.type_characters(uri, indent_line, " " * INDENT, version + COMMENT_CHARACTERS)
    return {"comment": comment, "unasked": unasked, "statement": statement, "errored": errored, "toggles": toggles,
            "counted": counted, "trailing": trailing, "indenting": indenting}


async def run(against: Path, repeats: int) -> dict:
    text = documents(1, seed=1)[0]
    servers = {"this_branch": _server(None), "main": _server(against)}
    samples: dict = {name: {"comment": [], "comment_text_only": [], "comment_code_keystrokes": [], "unasked": [], "statement": [],
                            "errored": [], "errored_text_only": [], "toggles": [], "counted": [], "trailing": [], "trailing_text_only": [], "indenting": []} for name in servers}
    load_start = os.getloadavg()
    for _ in range(repeats):
        for name, server in servers.items():
            got = await _session(server, text)
            mine = samples[name]
            mine["comment"] += got["comment"]
            mine["comment_code_keystrokes"] += got["comment"][:2]
            mine["unasked"] += got["unasked"]
            mine["comment_text_only"] += got["comment"][2:]
            mine["statement"] += got["statement"]
            mine["errored"] += got["errored"]
            mine["errored_text_only"] += got["errored"][3:]
            mine["toggles"].append(got["toggles"])
            mine["counted"].append(got["counted"])
            mine["trailing"] += got["trailing"]
            mine["trailing_text_only"] += got["trailing"][3:]
            mine["indenting"] += got["indenting"]
    figures: dict = {"document": {"lines": text.count("\n"), "bytes": len(text.encode())},
                     "repeats": repeats, "alternating": list(servers),
                     "load_average_at_start": [round(x, 2) for x in load_start]}
    for name, mine in samples.items():
        figures[name] = {
            # Named "typing_a_comment" (and its two parts likewise) until session 14.
            "commenting_out_a_loop_header": percentiles(mine["comment"]),
            "commenting_out_a_loop_header_after_the_first_two_keystrokes": percentiles(mine["comment_text_only"]),
            "commenting_out_a_loop_header_first_two_keystrokes": percentiles(mine["comment_code_keystrokes"]),
            # Until session 19 the first two keystrokes were timed with nothing asked after the open.
            "first_keystroke_when_the_client_asked_nothing_after_opening": percentiles(mine["unasked"]),
            "typing_a_statement": percentiles(mine["statement"]),
            "typing_a_comment_in_a_file_with_errors": percentiles(mine["errored"]),
            "typing_a_comment_in_a_file_with_errors_after_its_slashes": percentiles(mine["errored_text_only"]),
            "toggling_a_syntax_error_per_repeat": mine["toggles"],
            "toggling_a_syntax_error_with_a_counter_per_repeat": mine["counted"],
            "typing_a_comment_after_a_statement": percentiles(mine["trailing"]),
            "typing_a_comment_after_a_statement_after_its_slashes": percentiles(mine["trailing_text_only"]),
            "indenting_a_statement_line": percentiles(mine["indenting"]),
        }
    figures["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", type=Path, default=Path("/work/main"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--result", default="comment_edits")
    parser.add_argument("--notes", default="")
    args = parser.parse_args()
    figures = asyncio.run(run(args.against.resolve(), args.repeats))
    print(write_result(args.result, figures, args.notes))


if __name__ == "__main__":
    main()
