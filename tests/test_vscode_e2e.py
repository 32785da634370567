"""The VS Code extension in a real VS Code (code-server), driven from Chromium as a person would use it.

What is checked, on a workspace of the example kernels: syntax colouring,
a type error's squiggle and its Problems entry, hover on a subgroupMatrix
builtin, completion, a quick fix applied, Format Document, and the Run
kernel code lens (run on whatever adapter wgpu finds: lavapipe in CI).
Screenshots of each step go to $COOP_E2E_SHOTS (default .e2e/screenshots).

Pieces, each skipped with the reason when missing (`./dev test` installs them):
code-server 4.96 (vscode-client/scripts/install-code-server.sh, into .e2e/),
Debian's Chromium (/usr/bin/chromium), Playwright for Python (its driver
only: no browser is downloaded), Node 20 and the client's npm packages
(to build the .vsix).
"""

from __future__ import annotations

import json
import re
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from coop_lsp.format import format_text

ROOT = Path(__file__).resolve().parent.parent
CODE_SERVER = ROOT / ".e2e" / "code-server" / "node_modules" / "code-server"
CODE_SERVER_STAMP = ROOT / ".e2e" / "code-server" / ".installed-4.96.4"
CHROMIUM = Path(os.environ.get("COOP_E2E_CHROMIUM", "/usr/bin/chromium"))
SHOTS = Path(os.environ.get("COOP_E2E_SHOTS", ROOT / ".e2e" / "screenshots"))

MISTAKES = """\
// Two mistakes a kernel author makes: a value of the wrong type, and the
// deprecated bool form of subgroupMatrixLoad (coop-lsp offers a fix).
enable f16;
enable chromium_experimental_subgroup_matrix;

alias TileA = subgroup_matrix_left<f16, 8, 8>;

@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
    let scale: f32 = lane;
    let tile = subgroupMatrixLoad<TileA>(&a, 0u, false, 8u);
    out[lane] = scale;
}
"""

UGLY = """\
enable f16;
@group(0) @binding(0) var<storage,read_write> data: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
let i=id.x;
    if i<arrayLength(&data){data[i]=data[i]*2.0;}
}
"""


def _missing() -> str | None:
    if not CODE_SERVER_STAMP.exists():
        return "code-server 4.96 is not installed (vscode-client/scripts/install-code-server.sh; ./dev test runs it)"
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium; ./dev test does it as root)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install playwright; ./dev test does it)"
    if shutil.which("node") is None:
        return "no Node.js"
    return None


pytestmark = pytest.mark.skipif(_missing() is not None, reason=_missing() or "")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("kernels")
    shutil.copy(ROOT / "examples" / "chromium" / "gemm_naive.wgsl", folder)
    shutil.copy(ROOT / "examples" / "plain" / "gemm_tiled_f32.wgsl", folder)
    shutil.copy(ROOT / "examples" / "runs" / "gemm_tiled_f32.run.toml", folder)
    (folder / "mistakes.wgsl").write_text(MISTAKES)
    (folder / "ugly.wgsl").write_text(UGLY)
    return folder


@pytest.fixture(scope="module")
def code_server(tmp_path_factory, workspace):
    """code-server with the freshly built .vsix installed; yields its URL for the workspace."""
    home = tmp_path_factory.mktemp("code-server")
    vsix = home / "coop-lsp-wgsl.vsix"
    subprocess.run([str(ROOT / "vscode-client" / "scripts" / "build-vsix.sh"), str(vsix)], check=True, timeout=300)
    entry = [shutil.which("node"), str(CODE_SERVER / "out" / "node" / "entry.js")]
    common = ["--user-data-dir", str(home / "data"), "--extensions-dir", str(home / "extensions"),
              "--config", str(home / "config.yaml")]
    subprocess.run(entry + common + ["--install-extension", str(vsix)], check=True, timeout=120,
                   capture_output=True)
    user = home / "data" / "User"
    user.mkdir(parents=True, exist_ok=True)
    (user / "settings.json").write_text(json.dumps({
        "coopLsp.server.pythonPath": sys.executable,
        "security.workspace.trust.enabled": False,
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": False,
        "workbench.colorTheme": "Default Dark Modern",
        "telemetry.telemetryLevel": "off",
        "extensions.autoCheckUpdates": False,
        "editor.minimap.enabled": False,
        "files.autoSave": "off",
        "window.zoomLevel": 0,
    }))
    port = _free_port()
    log = open(home / "code-server.log", "w")
    process = subprocess.Popen(entry + common + [
        "--auth", "none", "--bind-addr", f"127.0.0.1:{port}", "--disable-telemetry", "--disable-update-check",
        "--disable-workspace-trust", "--disable-getting-started-override", str(workspace)],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}/?folder={workspace}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            time.sleep(0.3)
    else:
        process.kill()
        pytest.fail(f"code-server did not listen on {port}: {(home / 'code-server.log').read_text()[-2000:]}")
    yield url
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()


@pytest.fixture(scope="module")
def page(code_server):
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1400, "height": 860}, device_scale_factor=1)
        page = context.new_page()
        page.goto(code_server)
        page.wait_for_selector(".monaco-workbench", timeout=60_000)
        page.wait_for_selector(".explorer-folders-view, .explorer-viewlet", timeout=60_000)
        yield page
        browser.close()


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.fixture(autouse=True)
def screenshot_on_failure(request):
    """A failing step leaves a picture of what the editor showed."""
    yield
    page = request.node.funcargs.get("page")
    if page is not None and getattr(request.node, "failed_call", False):
        shot(page, f"failed-{request.node.name}")


def run_command(page, title: str) -> None:
    page.keyboard.press("F1")
    page.wait_for_selector(".quick-input-widget .quick-input-box input", state="visible")
    page.keyboard.type(title)
    page.wait_for_selector(f".quick-input-list .monaco-list-row[aria-label*='{title}']", timeout=10_000)
    page.keyboard.press("Enter")


def open_file(page, name: str) -> None:
    """Opens a file from the Explorer, as a person would (Quick Open needs ripgrep)."""
    page.locator(".explorer-folders-view .monaco-list-row", has_text=name).first.dblclick()
    page.wait_for_selector(f".tab.active[aria-label*='{name}']", timeout=10_000)
    page.wait_for_selector(".editor-group-container.active .monaco-editor .view-lines", timeout=10_000)
    page.locator(".editor-group-container.active .monaco-editor .view-lines").click()


def go_to(page, line: int, column: int) -> None:
    page.keyboard.press("Control+G")
    page.wait_for_selector(".quick-input-widget .quick-input-box input", state="visible")
    page.keyboard.type(f"{line}:{column}")
    page.keyboard.press("Enter")


def token(page, text: str):
    """The rendered span of the first token with this text in the active editor."""
    return page.locator(".editor-group-container.active .view-line span span", has_text=text).first


def test_syntax_colouring_of_a_matrix_kernel(page):
    open_file(page, "gemm_naive.wgsl")
    go_to(page, 60, 1)
    token(page, "subgroupMatrixLoad").wait_for(state="visible", timeout=15_000)
    # The grammar colours first; the server's semantic tokens repaint a moment later.
    deadline = time.monotonic() + 20
    while True:
        colours = page.evaluate("""() => {
            const found = {};
            for (const span of document.querySelectorAll('.editor-group-container.active .view-line span span')) {
                const text = span.textContent.trim();
                if (text) found[text] = getComputedStyle(span).color;
            }
            return found;
        }""")
        comments = [colour for text, colour in colours.items() if text.startswith("//")]
        kinds = {colours.get("let"), colours.get("subgroupMatrixLoad"), colours.get("f16"), *comments[:1]}
        # Keywords, builtin functions, types and comments each have their own colour.
        if None not in kinds and len(kinds) == 4 and len(set(colours.values())) >= 5:
            break
        assert time.monotonic() < deadline, colours
        page.wait_for_timeout(500)
    shot(page, "01-colours")


def test_a_type_error_is_squiggled_and_listed_in_problems(page):
    open_file(page, "mistakes.wgsl")
    page.wait_for_selector(".editor-group-container.active .squiggly-error", timeout=30_000)
    run_command(page, "Problems: Focus on Problems View")
    problems = page.locator(".markers-panel")
    problems.get_by_text("initializer of type 'u32' where 'f32' is expected").first.wait_for(timeout=10_000)
    page.wait_for_timeout(2000)  # time for a second copy to arrive, if there were one
    shot(page, "02-type-error")
    # Each finding once: the server both pushes and answers pulls, and the client shows one of them.
    assert problems.get_by_text("initializer of type 'u32' where 'f32' is expected").count() == 1
    assert problems.get_by_text("use of deprecated builtin").count() == 1


def test_hover_on_a_subgroup_matrix_builtin(page):
    open_file(page, "mistakes.wgsl")
    go_to(page, 14, 20)  # inside subgroupMatrixLoad
    page.wait_for_timeout(500)
    page.keyboard.press("Control+K")  # Show Hover at the cursor: steadier than the mouse's delay
    page.keyboard.press("Control+I")
    hover = page.locator(".monaco-hover:not(.hidden)").first
    hover.wait_for(state="visible", timeout=15_000)
    page.wait_for_timeout(300)
    shot(page, "03-hover")
    assert "subgroupMatrixLoad" in hover.inner_text()


def test_completion_offers_the_matrix_builtins(page):
    open_file(page, "mistakes.wgsl")
    go_to(page, 15, 23)
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    page.keyboard.type("    let r = subgroupMatrixMul")
    widget = page.locator(".suggest-widget.visible")
    if not widget.is_visible():
        page.keyboard.press("Control+Space")
    widget.wait_for(state="visible", timeout=15_000)
    widget.get_by_text("subgroupMatrixMultiplyAccumulate").first.wait_for(timeout=10_000)
    shot(page, "04-completion")
    page.keyboard.press("Escape")
    run_command(page, "File: Revert File")


def test_a_quick_fix_is_applied(page, workspace):
    open_file(page, "mistakes.wgsl")
    go_to(page, 14, 16)
    page.wait_for_selector(".editor-group-container.active .squiggly-warning", timeout=30_000)
    page.keyboard.press("Control+.")
    fix = page.locator(".action-widget .monaco-list-row", has_text="row_major").first
    fix.wait_for(state="visible", timeout=15_000)
    shot(page, "05-quick-fix")
    for _ in range(5):  # the menu's keyboard focus, as a person would move it
        if "focused" in (fix.get_attribute("class") or ""):
            break
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.keyboard.press("Control+S")
    deadline = time.monotonic() + 15
    while "subgroupMatrixLoad<TileA, row_major>(&a, 0u, 8u)" not in (workspace / "mistakes.wgsl").read_text():
        assert time.monotonic() < deadline, (workspace / "mistakes.wgsl").read_text()
        page.wait_for_timeout(200)


def test_format_document(page, workspace):
    open_file(page, "ugly.wgsl")
    run_command(page, "Format Document")
    page.wait_for_timeout(1000)
    page.keyboard.press("Control+S")
    expected = format_text(UGLY).text
    deadline = time.monotonic() + 15
    while (workspace / "ugly.wgsl").read_text() != expected:
        assert time.monotonic() < deadline, (workspace / "ugly.wgsl").read_text()
        page.wait_for_timeout(200)
    shot(page, "06-formatted")


def test_the_run_kernel_code_lens_runs_the_kernel_and_shows_the_result(page):
    open_file(page, "gemm_tiled_f32.wgsl")
    line = next(i for i, text in enumerate((ROOT / "examples" / "plain" / "gemm_tiled_f32.wgsl").read_text()
                                         .splitlines(), 1) if text.startswith("@compute"))
    go_to(page, line + 12, 1)  # the entry point in view
    lens = page.locator(".editor-group-container.active .codelens-decoration a:visible", has_text="Run kernel").first
    lens.wait_for(state="visible", timeout=30_000)
    shot(page, "07-code-lens")
    lens.click()
    # The run report goes to the "coop-lsp: kernel runs" output channel (and a Markdown preview beside).
    output = page.locator(".part.panel .view-lines")
    output.get_by_text(re.compile(r"\bcorrect\b", re.IGNORECASE)).first.wait_for(state="visible", timeout=150_000)
    page.wait_for_timeout(500)
    shot(page, "08-run-result")
