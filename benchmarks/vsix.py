"""The self-contained VS Code extension: its .vsix size per platform, and its first start.

    .venv/bin/python benchmarks/vsix.py [--runs 3] [--targets linux-x64]

Size: `vscode-client/scripts/build-vsix.sh --target T` for each target this machine can
build (the grammar is compiled here, so the host's; other targets need their wheels built
on that platform), with the bundled folder's unpacked size beside it.

First start: a fresh code-server profile with the .vsix installed, opened on a folder of
kernels, PATH holding only a bare Python virtual environment (no coop-lsp, no network
needed). Timed in Chromium, as tests/test_vscode_e2e.py drives it: from clicking a kernel
in the Explorer to its first error squiggle (the server started by the extension, its
bundled libraries imported, the kernel checked, diagnostics drawn); and from loading the
editor page. The extension's own log gives the server's start-to-initialize time and
activation-to-first-diagnostics (the part that is the extension's and the server's, not
the editor's start).

Needs what the real-editor test needs (code-server in .e2e/, Chromium, Playwright).
Writes benchmarks/results/vsix.json.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import write_result  # noqa: E402
from tests import test_vscode_e2e as e2e  # noqa: E402  (its code-server and Chromium helpers)


def build(target: str, out_dir: Path) -> dict:
    out = out_dir / f"coop-lsp-wgsl-{target}.vsix"
    started = time.monotonic()
    subprocess.run([str(ROOT / "vscode-client" / "scripts" / "build-vsix.sh"), "--target", target, str(out)],
                   check=True, timeout=1800)
    with zipfile.ZipFile(out) as archive:
        bundled = [info for info in archive.infolist() if info.filename.startswith("extension/bundled/")]
        files = len(archive.infolist())
    return {
        "vsix_bytes": out.stat().st_size,
        "vsix_mib": round(out.stat().st_size / 2**20, 2),
        "files": files,
        "bundled_unpacked_mib": round(sum(i.file_size for i in bundled) / 2**20, 2),
        "build_s": round(time.monotonic() - started, 1),
        "path": str(out),
    }


def load() -> float:
    return round(os.getloadavg()[0], 1)


def first_start(vsix: Path, python_bin: Path, folder: Path) -> dict:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="coop-vsix-bench-") as home_name:
        home = Path(home_name)
        process, url, _ = e2e.start_code_server(home, vsix, folder, [python_bin])
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(e2e.CHROMIUM), args=["--no-sandbox"])
                page = browser.new_context(viewport={"width": 1400, "height": 860}).new_page()
                loaded = time.monotonic()
                page.goto(url)
                page.wait_for_selector(".explorer-folders-view .monaco-list-row", timeout=60_000)
                opened = time.monotonic()
                page.locator(".explorer-folders-view .monaco-list-row", has_text="mistakes.wgsl").first.dblclick()
                page.wait_for_selector(".editor-group-container.active .squiggly-error", timeout=120_000)
                shown = time.monotonic()
                browser.close()
        finally:
            e2e.stop_code_server(process)
        log = e2e.extension_log(home)
    initialize = re.search(r"answered initialize (\d+) ms after the start began", log)
    diagnostics = re.search(r"first diagnostics (\d+) ms after activation", log)
    if "(the bundled coop-lsp" not in log:
        raise RuntimeError(f"the bundled server did not start:\n{log}")
    return {
        "load_at_end": load(),
        "open_to_diagnostics_s": round(shown - opened, 2),
        "page_load_to_diagnostics_s": round(shown - loaded, 2),
        "server_start_to_initialize_s": round(int(initialize.group(1)) / 1000, 2) if initialize else None,
        # From the extension's activation (the editor decides when) to the first coop-lsp diagnostics.
        "activation_to_diagnostics_s": round(int(diagnostics.group(1)) / 1000, 2) if diagnostics else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--targets", nargs="+", default=["linux-x64"])
    options = parser.parse_args()
    missing = e2e._missing()
    if missing is not None:
        print(f"vsix benchmark: {missing}", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="coop-vsix-") as scratch_name:
        scratch = Path(scratch_name)
        sizes = {target: build(target, scratch) for target in options.targets}
        for target, size in sizes.items():
            print(f"{target}: {size['vsix_mib']} MiB .vsix, {size['bundled_unpacked_mib']} MiB bundled unpacked")

        # A kernel author's bare Python: a virtual environment with nothing installed.
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(scratch / "python")], check=True)
        folder = scratch / "kernels"
        folder.mkdir()
        for kernel in ["chromium/gemm_naive.wgsl", "plain/gemm_tiled_f32.wgsl"]:
            shutil.copy(ROOT / "examples" / kernel, folder)
        (folder / "mistakes.wgsl").write_text(e2e.MISTAKES)
        host = options.targets[0]
        runs = [first_start(Path(sizes[host]["path"]), scratch / "python" / "bin", folder) for _ in range(options.runs)]
        for run in runs:
            print(f"first start: {run}")
        python = subprocess.run([str(scratch / "python" / "bin" / "python"), "--version"], capture_output=True,
                                text=True).stdout.strip()

    for size in sizes.values():
        size.pop("path")
    figures = {
        "vsix": sizes,
        "first_start": {
            "target": host,
            "python": python,
            "runs": runs,
            "median_open_to_diagnostics_s": statistics.median(r["open_to_diagnostics_s"] for r in runs),
            "median_page_load_to_diagnostics_s": statistics.median(r["page_load_to_diagnostics_s"] for r in runs),
            "median_activation_to_diagnostics_s": statistics.median(
                r["activation_to_diagnostics_s"] for r in runs if r["activation_to_diagnostics_s"] is not None)
            if any(r["activation_to_diagnostics_s"] is not None for r in runs) else None,
        },
    }
    path = write_result("vsix", figures, notes=(
        "First start: fresh code-server 4.96 profile, Chromium via Playwright, PATH = a bare venv's bin/ only; "
        "open_to_diagnostics = double-click on mistakes.wgsl in the Explorer to its first error squiggle. "
        "The machine is shared (see cpus); timings are wall clock."))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
