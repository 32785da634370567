"""The server's kernel runs: `coop-lsp.runKernel` and `coop-lsp.cancelRun`, and what the last run leaves.

runKernel's arguments: [uri, entry_point?]. It uses the editor's text (unsaved
edits included) and the run description beside the file on disk
(`<kernel>.run.toml`). The run happens in a worker thread that waits on the
runner's child process, so the server stays responsive. While it runs, a
cancellable work-done progress shows the worker's step; cancelling it (or the
request, or `coop-lsp.cancelRun [uri?]`) kills the run. The result comes back
as the command's value (markdown) and a message; the last result per entry
point is shown in hover and as an inlay hint on the entry point, and compile
errors become R001 diagnostics until the document changes. Until then too, the
run's prints and watches are inlay hints at their lines with a hover table per
lane, and when the check failed, the blame's re-run (as `coop-lint run` does on
a wrong result) marks the stores that wrote wrong elements (R004).
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp

from ..core.diagnostic import Diagnostic, Severity
from ..core.text import Span


def _path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    return Path(unquote(parsed.path)) if parsed.scheme == "file" else None


@dataclass
class LastRun:
    entry: str
    version: int | None  # the document version that ran
    report: object  # runner.execute.RunReport
    finished: float = field(default_factory=time.time)
    advice: str = ""  # markdown: the performance findings for the adapter's profile (ide.explain)
    _values: list | None = None  # ide.run_values.SiteValues of the run's prints and watches, once asked

    def summary(self) -> str:
        r = self.report
        parts = [r.status]
        if r.timing:
            parts.append(f"{r.timing['median_ms']:.3f} ms")
        if r.tflops is not None:
            parts.append(f"{r.tflops:.3g} TFLOP/s")
        if r.peak_fraction is not None:
            parts.append(f"{r.peak_fraction:.0%} of peak")
        return " · ".join(parts)


@dataclass
class KernelRuns:
    last: dict[str, dict[str, LastRun]] = field(default_factory=dict)  # uri -> entry point -> last run
    cancels: dict[str, set[threading.Event]] = field(default_factory=dict)  # uri -> runs in flight

    def record(self, uri: str, run: LastRun) -> None:
        self.last.setdefault(uri, {})[run.entry] = run

    def compile_diagnostics(self, uri: str, version: int | None, source) -> list[Diagnostic]:
        """R001 for the errors of the last runs of this very version of the document."""
        from ..runner.rules import KERNEL_COMPILE_ERROR

        out = []
        for run in self.last.get(uri, {}).values():
            if run.version != version:
                continue
            for error in run.report.source_errors:
                line = max(0, min(error["line"] - 1, source.line_count - 1))
                end = source.line_end(line)
                text = source.data[source.line_start(line):end]
                start = source.line_start(line) + len(text) - len(text.lstrip())
                where = "" if error["exact"] else " (in code the runner generated for this line)"
                out.append(Diagnostic(KERNEL_COMPILE_ERROR.code,
                                      f"{run.report.backend or 'the backend'} rejected the kernel: "
                                      f"{error['message']}{where}", Span(start, max(start, end)), Severity.ERROR))
        return out

    def _current(self, uri: str, version: int | None) -> list[LastRun]:
        """The runs of this very version of the document, oldest first."""
        return sorted((run for run in self.last.get(uri, {}).values() if run.version == version),
                      key=lambda run: run.finished)

    def site_values(self, uri: str, version: int | None, source) -> list:
        """The prints' and watches' values of the runs of this version; a site that two entry points' runs
        recorded shows the newer run's."""
        from ..ide.run_values import site_values
        from ..runner.debug_print import format_print

        by_place = {}
        for run in self._current(uri, version):
            if run._values is None:
                run._values = site_values(getattr(run.report, "debug", None) or {}, source, format_print)
            for values in run._values:
                by_place[values.span.start] = values
        return sorted(by_place.values(), key=lambda v: v.span.start)

    def blame_diagnostics(self, uri: str, version: int | None, analysis) -> list[Diagnostic]:
        """R004 where the blame of a failed run of this version found the writers of wrong elements."""
        from ..ide.run_values import blame_diagnostics
        from .features.kernels import _compute_entry_points

        runs = self._current(uri, version)
        if not any(getattr(run.report, "blame", None) for run in runs):
            return []
        entries = {symbol.name: symbol.span for symbol in _compute_entry_points(analysis)}
        out = []
        for run in runs:
            out += blame_diagnostics(getattr(run.report, "blame", None) or {}, analysis.source,
                                     entries.get(run.entry))
        return out


def run_report(uri: str, entry_point: str | None, text: str | None, workspace: Path | None = None,
               progress=None, cancel: threading.Event | None = None):
    """(markdown report, RunReport or None); never raises for the kernel's mistakes."""
    markdown, report, _ = _run(uri, entry_point, text, workspace, progress, cancel)
    return markdown, report


def _run(uri: str, entry_point: str | None, text: str | None, workspace: Path | None = None,
         progress=None, cancel: threading.Event | None = None):
    """(markdown report with the performance advice, RunReport or None, the advice alone)."""
    from ..runner.description import RunDescriptionError, load_run_description, sidecar_path
    from ..runner.execute import run_kernel

    path = _path(uri)
    if path is None:
        return "coop-lsp can run only kernels saved as files (file:// URIs).", None, ""
    try:
        description = load_run_description(sidecar_path(path), workspace)
    except RunDescriptionError as error:
        return f"**Run kernel**: {error}\n\nSee docs/runner.md for the run description.", None, ""
    if entry_point:
        description.entry_point = entry_point
    try:
        # As `coop-lint run` does by default: a wrong result is run again with its stores recorded, and the
        # editor marks the stores that wrote the wrong elements.
        report = run_kernel(path, description, text=text, progress=progress, cancel=cancel, blame="failed")
    except ModuleNotFoundError as error:
        # Running needs the `run` extra (wgpu, numpy), which the VS Code extension's bundled server leaves
        # to the interpreter it runs on: say where to install it rather than pass on a traceback.
        import sys

        return (f"**Run kernel** needs the Python package `{error.name}`, which the Python running coop-lsp "
                f"(`{sys.executable}`) lacks. Install what running kernels needs there: "
                f"`{sys.executable} -m pip install wgpu numpy` (or `pip install 'coop-lsp[run]'`), "
                "then restart the server."), None, ""
    advice = ""
    try:
        from ..ide.explain import advice_markdown

        advice = advice_markdown(report)
    except Exception:  # noqa: BLE001 - advice is extra: a failure in it must not lose the run's report
        advice = ""
    return report.render("markdown") + (f"\n{advice}" if advice else ""), report, advice


def run_report_markdown(uri: str, entry_point: str | None, text: str | None, workspace: Path | None = None):
    """(markdown report, ok), for callers that need no more."""
    markdown, report = run_report(uri, entry_point, text, workspace)
    return markdown, report is not None and report.ok


# Not the event loop's default executor: asyncio.run joins that one before start_io returns, so a server
# whose client has gone would wait out a hanging kernel's time limit before it could kill the worker
# (main.py calls execute.stop_all_runs once start_io returns).
_RUNS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="coop-run")


async def _start_progress(ls, title: str, cancel: threading.Event) -> str | None:
    """A cancellable work-done progress, where the client supports them; its token."""
    window = getattr(ls.client_capabilities, "window", None) if ls.client_capabilities else None
    if not getattr(window, "work_done_progress", False):
        return None
    token = f"coop-run-{uuid.uuid4()}"
    try:
        await asyncio.wait_for(ls.work_done_progress.create_async(token), timeout=5)
    except Exception:  # noqa: BLE001 - no progress bar is no reason not to run
        return None
    future = ls.work_done_progress.tokens.get(token)
    if future is not None:
        future.add_done_callback(lambda f: cancel.set() if f.cancelled() else None)
    ls.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(title=title, cancellable=True,
                                                                 message="starting"))
    return token


def _refresh_inlay_hints(ls) -> None:
    """Asks the client to fetch inlay hints again: the run's values are new hints on a document that did not
    change (VS Code asks again only on edits and scrolls)."""
    workspace = getattr(ls.client_capabilities, "workspace", None) if ls.client_capabilities else None
    inlay = getattr(workspace, "inlay_hint", None)
    if not getattr(inlay, "refresh_support", False):
        return
    try:
        future = ls.workspace_inlay_hint_refresh(None)
        # A client that answers with an error has had its chance: read the error, so that it is not logged.
        future.add_done_callback(lambda f: f.cancelled() or f.exception())
    except Exception:  # noqa: BLE001 - without the refresh the hints come with the next scroll or edit
        pass


def register(ls, command: str, cancel_command: str, republish) -> None:
    runs = KernelRuns()
    ls.kernel_runs = runs

    @ls.command(command)
    async def run_kernel_command(*args):
        params = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        if not params or not isinstance(params[0], str):
            return "coop-lsp.runKernel expects [uri, entry_point?]"
        uri = params[0]
        entry = params[1] if len(params) > 1 and isinstance(params[1], str) else None
        state = getattr(ls, "documents", {}).get(uri)
        text = state.document.text if state is not None else None
        version = state.document.version if state is not None else None
        root = None
        try:
            root_uri = ls.workspace.root_uri
            root = _path(root_uri) if root_uri else None
        except Exception:  # noqa: BLE001 - no workspace: the description's folder is the limit
            root = None
        loop = asyncio.get_running_loop()
        cancel = threading.Event()
        runs.cancels.setdefault(uri, set()).add(cancel)
        name = (_path(uri) or Path(uri)).name
        token = await _start_progress(ls, f"Running {entry or name}", cancel)

        def progress(step: str) -> None:
            if token is not None:
                loop.call_soon_threadsafe(ls.work_done_progress.report, token,
                                          lsp.WorkDoneProgressReport(message=step))
        try:
            markdown, report, advice = await loop.run_in_executor(_RUNS, _run, uri, entry, text, root, progress,
                                                                  cancel)
        except asyncio.CancelledError:  # the client cancelled the request: kill the run too
            cancel.set()
            raise
        finally:
            runs.cancels.get(uri, set()).discard(cancel)
            if token is not None:
                ls.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message="done"))
        if report is not None:
            runs.record(uri, LastRun(report.entry_point or entry or "", version, report, advice=advice))
            republish(uri)
            _refresh_inlay_hints(ls)
        first = markdown.splitlines()[0].lstrip("# ") if markdown else ""
        ok = report is not None and report.ok
        ls.window_show_message(lsp.ShowMessageParams(
            type=lsp.MessageType.Info if ok else lsp.MessageType.Warning, message=f"coop-lsp: {first}"))
        return markdown

    @ls.command(cancel_command)
    def cancel_run_command(*args):
        params = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        uris = [params[0]] if params and isinstance(params[0], str) else list(runs.cancels)
        cancelled = 0
        for uri in uris:
            for event in runs.cancels.get(uri, set()):
                event.set()
                cancelled += 1
        return cancelled
