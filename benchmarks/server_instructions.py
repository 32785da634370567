"""Instructions the server's process spends per edit, whole (reading, parsing, scheduling, the analysis,
conversion, writing), counted under callgrind so that the machine's load does not move the figure.

    python -m benchmarks.server_instructions [--checkout PATH[=PYTHON]]... [--workload literal|lines]...
        [--edits 10] --result NAME

The real server (`python -m coop_lsp.server.main --no-cache --workers 0`) runs under valgrind's callgrind,
driven over its stdio by a scripted client in this process: initialize, open the 1,061-line matrix
document (server_matrix.documents(1, seed=1)[0]), three warm-up edits, then `--edits` edits, each sent once
the previous version's publishDiagnostics has arrived, then shutdown and exit. The same session runs again
with no timed edits; the difference over the edits is the figure per edit, and start-up, imports, the
open and the warm-up cancel. With --separate-threads, callgrind counts each thread apart: the analysis
thread (the check itself, thread 2: the analysis queue starts its thread when the server is made) against
the rest, the server's own steps (the event loop, the stdin reader).

- literal: a literal in a middle function counts up (20u, 21u, ...): every version is clean, new text with
  the findings of the version before at the same places (their LSP forms are reused).
- lines: a blank line goes in and out at the top of the document: every finding moves a line, so each
  version converts and serialises every diagnostic again.

Set apart from the count: the full garbage collection the server runs once it has been idle for a second
(idle_gc.py), whose moment depends on wall time: it is pushed out of the session by a wrapper.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from .common import write_result
from .lsp_stdio import StdioClient

HARNESS = Path(__file__).resolve().parent.parent
URI = "file:///bench/matrix_1000.wgsl"
WARM_UP = 3
ANALYSIS_THREAD = 2
WORKLOADS = ("literal", "lines")
# The server's command line, with the idle collector's wait made longer than any session (see above).
_LAUNCH = ("import sys; from coop_lsp.server import idle_gc; "
           "idle_gc.IdleCollector.__init__.__defaults__ = (1e9,) + idle_gc.IdleCollector.__init__.__defaults__[1:]; "
           "from coop_lsp.server.main import main; sys.exit(main(sys.argv[1:]))")
_TOTALS = re.compile(r"^(?:totals|summary):\s*(\d+)", re.M)


def _edits(workload: str, text: str):
    """Each version's content change (one partial change, in the positions of the version before)."""
    from .server_matrix import _toggle_site
    if workload == "lines":
        at = {"line": 0, "character": 0}
        for index in range(10**6):
            end = at if index % 2 == 0 else {"line": 1, "character": 0}
            yield {"range": {"start": at, "end": end}, "text": "\n" if index % 2 == 0 else ""}
        return
    line, column = _toggle_site(text)
    column = text.split("\n")[line].index("16u", column)
    current = "16u"
    for number in range(17, 10**6):
        new = f"{number}u"
        yield {"range": {"start": {"line": line, "character": column},
                         "end": {"line": line, "character": column + len(current)}}, "text": new}
        current = new


@dataclass
class Session:
    threads: dict[int, int]  # instructions per thread (callgrind's numbering, 1 the main thread); {} unless counted
    published: list  # the versions of the document's publishDiagnostics, in the order the client read them
    returncode: int | None  # the server's exit status


def session(root: Path, python: str, workload: str, edits: int, keep: Path | None = None, valgrind: bool = True,
            timeout: float | None = None) -> Session:
    """One session, under callgrind unless `valgrind` is False (then nothing is counted: the client and the
    server's answers alone, as the tests run them); callgrind's files are copied into `keep` (for
    callgrind_annotate) if given. `timeout`: seconds after which the server is killed (the client then
    fails instead of waiting for ever)."""
    from .server_matrix import documents
    text = documents(1, seed=1)[0]
    changes = _edits(workload, text)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        counting = ["valgrind", "--tool=callgrind", "--separate-threads=yes", f"--callgrind-out-file={out}"]
        process = subprocess.Popen(
            [*(counting if valgrind else []), python, "-c", _LAUNCH, "--no-cache", "--workers", "0"],
            cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(root), PYTHONDONTWRITEBYTECODE="1"))
        watchdog = threading.Timer(timeout, process.kill) if timeout is not None else None
        if watchdog is not None:
            watchdog.start()
        client = StdioClient(process)
        try:
            client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
            client.notify("initialized", {})
            client.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "wgsl", "version": 1,
                                                                    "text": text}})
            client.diagnostics(URI, 1)
            for version in range(2, 2 + WARM_UP + edits):
                client.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": version},
                                                         "contentChanges": [next(changes)]})
                client.diagnostics(URI, version)
            client.request("shutdown", None)
            client.notify("exit", None)
            process.stdin.close()
            stderr = process.stderr.read().decode(errors="replace")
            process.wait(timeout=600)
        finally:
            if watchdog is not None:
                watchdog.cancel()
            if process.poll() is None:
                process.kill()
                process.wait()
        threads = {}
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            for path in Path(folder).glob("callgrind.out*"):
                shutil.copy(path, keep / f"{workload}-{edits}-{path.name}")
        for path in Path(folder).glob("callgrind.out*"):
            number = re.search(r"-(\d+)$", path.name)
            found = _TOTALS.findall(path.read_text(errors="replace"))
            if number and found:
                threads[int(number.group(1))] = int(found[-1])
    if valgrind and not threads:
        tail = (stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"{root} {workload}: {tail}")
    return Session(threads, client.published.get(URI, []), process.returncode)


def figures_of(done: dict[int, int], setup: dict[int, int], edits: int) -> dict:
    """A workload's figures: the instructions of the session with `edits` edits less those of the session
    without, per edit, in millions: whole, the analysis thread's, the rest (the server's own steps), and
    per thread; with both sessions' counts."""
    def per_edit(threads) -> float:
        return round((sum(done.get(t, 0) for t in threads) - sum(setup.get(t, 0) for t in threads)) / edits / 1e6, 3)
    every = set(done) | set(setup)
    return {"whole_M": per_edit(every), "analysis_thread_M": per_edit({ANALYSIS_THREAD}),
            "server_steps_M": per_edit(every - {ANALYSIS_THREAD}),
            "by_thread_M": {t: per_edit({t}) for t in sorted(every)}, "with_edits": done, "set_up_only": setup}


def _checkout(text: str) -> tuple[Path, str]:
    path, _, python = text.partition("=")
    root = Path(path).resolve()
    return root, python or str(root / ".venv" / "bin" / "python")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", action="append", default=[], help="PATH[=PYTHON] (default: this one)")
    parser.add_argument("--workload", action="append", choices=WORKLOADS, default=[])
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--keep", type=Path, help="a folder for callgrind's files of each session")
    parser.add_argument("--result", required=True)
    parser.add_argument("--notes", default="")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("benchmarks.server_instructions: valgrind is not installed", file=sys.stderr)
        return 2
    checkouts = [_checkout(text) for text in args.checkout] or [_checkout(str(HARNESS))]
    workloads = args.workload or list(WORKLOADS)
    figures: dict = {"unit": "edit (didChange to its publishDiagnostics)", "edits": args.edits, "checkouts": {}}
    for root, python in checkouts:
        per = {}
        for workload in workloads:
            keep = args.keep / root.name if args.keep is not None else None
            done = session(root, python, workload, args.edits, keep).threads
            setup = session(root, python, workload, 0, keep).threads
            per[workload] = figures_of(done, setup, args.edits)
            print(f"{root} {workload}: whole {per[workload]['whole_M']} M per edit, analysis thread "
                  f"{per[workload]['analysis_thread_M']}, the rest {per[workload]['server_steps_M']}", flush=True)
        figures["checkouts"][str(root)] = per
    path = write_result(args.result, figures, args.notes)
    print(f"written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
