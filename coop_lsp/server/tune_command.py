"""The server's kernel tunes: the "Tune kernel" lens and `coop-lsp.tuneKernel`.

The lens goes beside "Run kernel" on the entry point a run description runs when that description
(with the configuration's variant sets) gives more than one variant: the space is the one
`coop-lint tune` builds (runner.tune.space), never a second reading of it. The command tunes the saved
file on this host's adapters, with no engine (runner.tune.local), in a worker thread; a cancellable
work-done progress says how many variants have finished and the best so far. Cancelling (the progress,
the request, or `coop-lsp.cancelRun [uri]`) launches nothing more and kills the running variant. At the
end the HTML report, the JSON for backends and the result records go to `.coop-lint/tune/` of the
workspace folder, and `window/showDocument` asks the client to open the report.

tuneKernel's arguments: [uri, entry_point?, options?]; its value is a dict: status ("done",
"cancelled" or "error"), markdown, and the paths it wrote (report, tuned, results).
"""

from __future__ import annotations

import asyncio
import re
import threading
from pathlib import Path

from lsprotocol import types as lsp

from .run_command import _RUNS, _path, _start_progress

OUTPUT_FOLDER = Path(".coop-lint") / "tune"
# (kernel, run description) -> ((their mtimes), (variant count, the description's entry point or None))
_SPACES: dict[tuple[Path, Path], tuple[tuple, tuple[int, str | None]]] = {}


def space_of(kernel: Path) -> tuple[int, str | None]:
    """(how many variants a tune of `kernel` tries, the entry point its run description names); (0, None)
    when there is no description or its space does not build (the Run kernel lens reports those)."""
    from ..runner.description import RunDescriptionError, load_run_description, sidecar_path
    from ..runner.tune.space import TuneError, build_space, read_tune_section

    run_path = sidecar_path(kernel)
    try:
        stamp = (kernel.stat().st_mtime_ns, run_path.stat().st_mtime_ns)
    except OSError:
        return 0, None
    cached = _SPACES.get((kernel, run_path))
    if cached is not None and cached[0] == stamp:
        return cached[1]
    try:
        entry = load_run_description(run_path).entry_point or None
        found = (len(build_space(kernel, run_path, read_tune_section(run_path), {}, {})), entry)
    except (TuneError, RunDescriptionError, OSError, ValueError):
        found = (0, None)
    _SPACES[(kernel, run_path)] = (stamp, found)
    return found


def tunable(kernel: Path | None, entry: str) -> bool:
    if kernel is None:
        return False
    count, named = space_of(kernel)
    return count > 1 and (named is None or named == entry)


def output_paths(root: Path, kernel: Path) -> dict[str, Path]:
    """Where a tune of `kernel` writes, inside `root`'s output folder whatever the kernel's name holds."""
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", kernel.stem).lstrip(".") or "kernel"
    folder = (root / OUTPUT_FOLDER).resolve()
    paths = {"report": folder / f"{stem}.tune.html", "tuned": folder / f"{stem}.tuned.json",
             "results": folder / f"{stem}.tune.jsonl"}
    for path in paths.values():
        if not path.is_relative_to(root.resolve()):
            raise ValueError(f"{path} is outside the workspace {root}")
    return paths


def _targets(kernel: Path, section, editor_targets: list[str]) -> list:
    """[tune] targets, else the editor's targets, else the configuration's (as `coop-lint tune` reads them,
    the editor's in place of --target)."""
    from ..lint.config import ConfigError, ConfigFinder
    from ..runner.tune.space import TuneError
    from ..runner.tune.targets import resolve

    names = list(section.targets) or list(editor_targets)
    if not names:
        try:
            names = list(ConfigFinder().for_path(kernel).settings_for(kernel).targets)
        except ConfigError as error:
            raise TuneError(str(error)) from None
    if not names:
        raise TuneError("no target: set [tune] targets in the run description, or the editor's coop-lsp targets")
    return resolve(list(dict.fromkeys(names)), kernel.parent)


def _best(records: list[dict]) -> dict | None:
    ok = [r for r in records if r.get("status") == "correct" and r.get("median_ms")]
    return min(ok, key=lambda r: r["median_ms"]) if ok else None


def tune(kernel: Path, root: Path, editor_targets: list[str], progress=None,
         cancel: threading.Event | None = None) -> dict:
    """Tunes `kernel` on this host's adapters; never raises for the kernel's or the space's mistakes."""
    import json
    import time

    from ..runner.description import sidecar_path
    from ..runner.tune.local import LocalExecutor
    from ..runner.tune.report import summary_table, tune_page, tuned_json
    from ..runner.tune.results import ResultFile
    from ..runner.tune.session import TuneSession
    from ..runner.tune.space import TuneError, build_space, read_tune_section
    from ..runner.tune.targets import local_adapters

    run_path = sidecar_path(kernel)
    try:
        paths = output_paths(root, kernel)
        section = read_tune_section(run_path)
        targets = _targets(kernel, section, editor_targets)
        candidates = build_space(kernel, run_path, section, {}, {})
        session = TuneSession(kernel, run_path, candidates, targets)
        wanted = {t.resource for t in targets}
        executor = LocalExecutor({r: s for r, s in local_adapters().items() if r in wanted}, cancel)
        missing = session.unreachable(executor.resources())
        total = len(candidates) * len(targets)
        pruned = len(session.pruned())
        if progress is not None:
            progress(f"0/{total} variants ({pruned} pruned by the linter)", 0, total)

        seen: list[dict] = []

        def step(record: dict, done: int, count: int) -> None:
            seen.append(record)
            best = _best(seen)
            if progress is not None:
                tail = f", best so far {best['target']}: {best['label']} ({best['median_ms']:.4f} ms)" if best else ""
                progress(f"{done}/{count} variants{tail}", done, count)
        started = time.perf_counter()
        with ResultFile(paths["results"], kernel.name, fresh=True) as results:
            records = session.run(executor, results, step)
        wall = time.perf_counter() - started
    except (TuneError, ValueError, OSError) as error:
        return {"status": "error", "markdown": f"**Tune kernel**: {error}\n\nSee docs/tune.md for the search space."}
    except ModuleNotFoundError as error:
        return {"status": "error", "markdown": f"**Tune kernel** needs the Python package `{error.name}` "
                                               "(`pip install 'coop-lsp[run]'`), then restart the server."}
    finished = sum(r.get("status") not in ("cancelled",) for r in records)
    if cancel is not None and cancel.is_set():
        return {"status": "cancelled", "results": str(paths["results"]),
                "markdown": f"**Tune of {kernel.name} cancelled** after {finished}/{total} variants; "
                            f"the finished runs are in `{paths['results']}`."}
    notes = [f"{len(candidates)} variants, {len(targets)} targets, {pruned} (variant, target) pairs pruned by "
             f"the linter, run in {wall:.1f} s from the editor"]
    notes += [f"no adapter of this host is {t.name}: its variants were not run" for t in missing]
    tuned = tuned_json(records, targets, kernel.name)
    paths["report"].write_text(tune_page(records, targets, kernel.name, notes))
    paths["tuned"].write_text(json.dumps(tuned, indent=2) + "\n")
    best = _best(records)
    return {"status": "done", "report": str(paths["report"]), "tuned": str(paths["tuned"]),
            "results": str(paths["results"]), "best": {"target": best["target"], "label": best["label"],
                                                      "median_ms": best["median_ms"]} if best else None,
            "markdown": f"## Tune of {kernel.name}\n\n{summary_table(records, targets, markdown=True)}\n"
                        f"{notes[0]}\n\nReport: `{paths['report']}`\n"}


def _workspace(ls, kernel: Path) -> Path:
    """The workspace folder that holds `kernel`; the kernel's own folder when none does."""
    folders = []
    try:
        folders = [_path(f.uri) for f in (ls.workspace.folders or {}).values()]
        if ls.workspace.root_uri:
            folders.append(_path(ls.workspace.root_uri))
    except Exception:  # noqa: BLE001 - no workspace: the kernel's folder is the limit
        pass
    for folder in folders:
        if folder is not None and kernel.resolve().is_relative_to(folder.resolve()):
            return folder
    return kernel.parent


def register(ls, command: str) -> None:
    runs = ls.kernel_runs  # run_command's: coop-lsp.cancelRun cancels tunes too

    @ls.command(command)
    async def tune_kernel_command(*args):
        params = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        kernel = _path(params[0]) if params and isinstance(params[0], str) else None
        if kernel is None:
            return {"status": "error", "markdown": "coop-lsp.tuneKernel expects [uri] of a saved .wgsl file"}
        uri = params[0]
        loop = asyncio.get_running_loop()
        cancel = threading.Event()
        runs.cancels.setdefault(uri, set()).add(cancel)
        token = await _start_progress(ls, f"Tuning {kernel.name}", cancel)

        def progress(message: str, done: int, total: int) -> None:
            if token is not None:
                loop.call_soon_threadsafe(ls.work_done_progress.report, token, lsp.WorkDoneProgressReport(
                    message=message, percentage=int(100 * done / total) if total else None))
        try:
            result = await loop.run_in_executor(_RUNS, tune, kernel, _workspace(ls, kernel),
                                                 list(ls.settings.targets), progress, cancel)
        except asyncio.CancelledError:  # the client cancelled the request: stop the tune too
            cancel.set()
            raise
        finally:
            runs.cancels.get(uri, set()).discard(cancel)
            if token is not None:
                ls.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message="done"))
        first = result["markdown"].splitlines()[0].lstrip("# ").replace("**", "")
        ls.window_show_message(lsp.ShowMessageParams(
            type=lsp.MessageType.Info if result["status"] == "done" else lsp.MessageType.Warning,
            message=f"coop-lsp: {first}"))
        if result["status"] == "done":
            await _open(ls, Path(result["report"]))
        return result


async def _open(ls, report: Path) -> None:
    """Asks the client to open the report (as a page: it is HTML), where it can."""
    window = getattr(ls.client_capabilities, "window", None) if ls.client_capabilities else None
    if not getattr(getattr(window, "show_document", None), "support", False):
        return
    try:
        await asyncio.wait_for(ls.window_show_document_async(lsp.ShowDocumentParams(
            uri=report.as_uri(), external=True, take_focus=True)), timeout=10)
    except Exception:  # noqa: BLE001 - the report is written and its path returned: not opening it is no failure
        pass
