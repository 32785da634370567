"""The server's `coop-lsp.runKernel` command: runs the kernel of an open document and reports.

Arguments: [uri, entry_point?]. Uses the editor's text (unsaved edits included)
and the run description beside the file on disk (`<kernel>.run.toml`). The run
happens in a worker thread that waits on the runner's child process, so the
server stays responsive; the result comes back as the command's value
(markdown) and as a message.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp


def _path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    return Path(unquote(parsed.path)) if parsed.scheme == "file" else None


def run_report_markdown(uri: str, entry_point: str | None, text: str | None, workspace: Path | None = None) -> tuple[str, bool]:
    """(markdown report, ok) for the kernel at `uri`; never raises for the kernel's mistakes."""
    from ..runner.description import RunDescriptionError, load_run_description, sidecar_path
    from ..runner.execute import run_kernel

    path = _path(uri)
    if path is None:
        return "coop-lsp can run only kernels saved as files (file:// URIs).", False
    try:
        description = load_run_description(sidecar_path(path), workspace)
    except RunDescriptionError as error:
        return f"**Run kernel**: {error}\n\nSee docs/runner.md for the run description.", False
    if entry_point:
        description.entry_point = entry_point
    report = run_kernel(path, description, text=text)
    return report.render("markdown"), report.ok


# Not the event loop's default executor: asyncio.run joins that one before start_io returns, so a server
# whose client has gone would wait out a hanging kernel's time limit before it could kill the worker
# (main.py calls execute.stop_all_runs once start_io returns).
_RUNS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="coop-run")


def register(ls, command: str) -> None:
    @ls.command(command)
    async def run_kernel_command(*args):
        params = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        if not params or not isinstance(params[0], str):
            return "coop-lsp.runKernel expects [uri, entry_point?]"
        uri = params[0]
        entry = params[1] if len(params) > 1 and isinstance(params[1], str) else None
        state = getattr(ls, "documents", {}).get(uri)
        text = state.document.text if state is not None else None
        root = None
        try:
            root_uri = ls.workspace.root_uri
            root = _path(root_uri) if root_uri else None
        except Exception:  # noqa: BLE001 - no workspace: the description's folder is the limit
            root = None
        loop = asyncio.get_running_loop()
        markdown, ok = await loop.run_in_executor(_RUNS, run_report_markdown, uri, entry, text, root)
        first = markdown.splitlines()[0].lstrip("# ") if markdown else ""
        ls.window_show_message(lsp.ShowMessageParams(
            type=lsp.MessageType.Info if ok else lsp.MessageType.Warning, message=f"coop-lsp: {first}"))
        return markdown
