"""The VS Code extension in a real VS Code (code-server), driven from Chromium as a person would use it.

The extension is the self-contained, platform-specific .vsix (its server and Python
libraries inside), installed into a fresh code-server profile and opened on a folder of
kernels that has no .venv, with no coop-lsp anywhere on PATH: PATH holds only a virtual
environment's bin/ (python3, and pip), the Python a kernel author has. That environment has
wgpu and numpy, which Run kernel needs and the extension does not bundle.

What is checked: the first open (the bundled server starts and its diagnostics appear; with
COOP_E2E_UPDATE_DOCS=1 its screenshot replaces docs/images/vscode-first-open.png),
syntax colouring, a type
error's squiggle and its Problems entry, hover on a subgroupMatrix builtin, completion,
a quick fix applied, Format Document, the Run kernel code lens (run on whatever adapter
wgpu finds: lavapipe in CI), a watch's values after a run as an inlay hint at its line
(with COOP_E2E_UPDATE_DOCS=1 its screenshot replaces docs/images/vscode-watch-values.png)
and the Tune kernel code lens (two sizes emulated on lavapipe, the
report opened as a page). Screenshots of each step go to $COOP_E2E_SHOTS (default
.e2e/screenshots).

Pieces, each skipped with the reason when missing (`./dev test` installs them):
code-server 4.96 (vscode-client/scripts/install-code-server.sh, into .e2e/),
Debian's Chromium (/usr/bin/chromium), Playwright for Python (its driver
only: no browser is downloaded), Node 20 and the client's npm packages
(to build the .vsix), and PyPI or pip's cache for the run environment's wgpu and numpy.
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

# Two sizes of one small kernel: a search space of two variants for the Tune kernel lens.
TUNE_ME = """\
@group(0) @binding(0) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    c[g.x] = f32(g.x);
}
"""
TUNE_ME_RUN = """\
dispatch = ["N / 4"]
[sizes]
N = 4
[[binding]]
binding = 0
type = "f32"
size = "N"
[check]
kind = "expression"
output = "c"
expected = "np.arange(N)"
[timing]
repetitions = 1
[tune]
targets = ["lavapipe"]
sizes = { N = [4, 8] }
"""

# A watch comment in a plain kernel: after Run kernel, its values per lane are an inlay hint at the line.
WATCH_ME = """\
// Each invocation scales its index by 3; the watch records v per lane when the kernel runs.
@group(0) @binding(0) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
    let v = f32(i) * 3.0;
    c[i] = v; // coop: watch v
}
"""
WATCH_ME_RUN = """\
dispatch = [1]
[[binding]]
binding = 0
type = "f32"
size = 8
[check]
kind = "expression"
output = "c"
expected = "np.arange(8) * 3.0"
[timing]
repetitions = 1
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
    (folder / "tune_me.wgsl").write_text(TUNE_ME)
    (folder / "tune_me.run.toml").write_text(TUNE_ME_RUN)
    (folder / "watch_me.wgsl").write_text(WATCH_ME)
    (folder / "watch_me.run.toml").write_text(WATCH_ME_RUN)
    return folder


RUN_ENV_PACKAGES = ["wgpu==0.32.0", "numpy==2.4.6"]  # as in pyproject.toml's `run` extra
FIRST_OPEN_SHOT = ROOT / "docs" / "images" / "vscode-first-open.png"
WATCH_SHOT = ROOT / "docs" / "images" / "vscode-watch-values.png"


def kernel_author_python(where: Path) -> Path:
    """A virtual environment with only what running kernels needs (no coop-lsp); returns its bin/.

    Kept in .e2e/ between runs: creating it downloads wgpu and numpy.
    """
    stamp = where / f".installed-{'-'.join(RUN_ENV_PACKAGES)}"
    bin_dir = where / "bin"
    if not stamp.exists():
        shutil.rmtree(where, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=120)
        done = subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                               *RUN_ENV_PACKAGES], capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            pytest.skip(f"could not install {' '.join(RUN_ENV_PACKAGES)} for the run environment: {done.stderr[-500:]}")
        stamp.touch()
    assert not (bin_dir / "coop-lsp").exists() and not (bin_dir / "coop-lint").exists()
    return bin_dir


def build_vsix(out: Path) -> Path:
    """The platform-specific package, as a release would ship it."""
    subprocess.run([str(ROOT / "vscode-client" / "scripts" / "build-vsix.sh"), str(out)], check=True, timeout=900)
    return out


def start_code_server(home: Path, vsix: Path, folder: Path, path_dirs: list[Path]):
    """code-server with `vsix` installed in a fresh profile under `home`, serving `folder`.

    Returns (process, url, log path). PATH is exactly `path_dirs`: the extension host sees
    nothing else (code-server itself is started by its absolute node path).
    """
    entry = [shutil.which("node"), str(CODE_SERVER / "out" / "node" / "entry.js")]
    common = ["--user-data-dir", str(home / "data"), "--extensions-dir", str(home / "extensions"),
              "--config", str(home / "config.yaml")]
    subprocess.run(entry + common + ["--install-extension", str(vsix)], check=True, timeout=300,
                   capture_output=True)
    user = home / "data" / "User"
    user.mkdir(parents=True, exist_ok=True)
    (user / "settings.json").write_text(json.dumps({
        "security.workspace.trust.enabled": False,
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": False,
        "workbench.colorTheme": "Default Dark Modern",
        "telemetry.telemetryLevel": "off",
        "extensions.autoCheckUpdates": False,
        "editor.minimap.enabled": False,
        "files.autoSave": "off",
        "window.zoomLevel": 0,
        # As a user would set them: the server gets `--workers 1 --cache-dir <home>/coop-cache`.
        "coopLsp.server.workers": 1,
        "coopLsp.server.cacheDirectory": "~/coop-cache",
    }))
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("PYTHON", "VIRTUAL_ENV", "COOP_"))}
    env["PATH"] = os.pathsep.join(map(str, path_dirs))
    env["HOME"] = str(home)
    # Otherwise the server asks the login shell for its environment (VS Code's resolveShellEnv), and
    # /etc/profile's PATH (with /usr/bin/python3) reaches the extension host. VS Code skips that when
    # started by its CLI, which it recognises by this variable.
    env["VSCODE_CLI"] = "1"
    port = _free_port()
    log_path = home / "code-server.log"
    log = open(log_path, "w")
    process = subprocess.Popen(entry + common + [
        "--auth", "none", "--bind-addr", f"127.0.0.1:{port}", "--disable-telemetry", "--disable-update-check",
        "--disable-workspace-trust", "--disable-getting-started-override", str(folder)],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env)
    log.close()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            time.sleep(0.3)
    else:
        process.kill()
        raise RuntimeError(f"code-server did not listen on {port}: {log_path.read_text()[-2000:]}")
    return process, f"http://127.0.0.1:{port}/?folder={folder}", log_path


def stop_code_server(process) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()


def extension_log(home: Path) -> str:
    """What the extension wrote to its "coop-lsp" output channel (VS Code keeps it in the profile's logs)."""
    return "\n".join(p.read_text(errors="replace") for p in sorted((home / "data" / "logs").rglob("*coop-lsp.log")))


@pytest.fixture(scope="module")
def editor_home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("code-server")


@pytest.fixture(scope="module")
def code_server(editor_home, workspace):
    """code-server with the freshly built self-contained .vsix installed; yields its URL for the workspace."""
    bin_dir = kernel_author_python(ROOT / ".e2e" / "run-python")
    vsix = build_vsix(editor_home / "coop-lsp-wgsl-linux-x64.vsix")
    try:
        process, url, _ = start_code_server(editor_home, vsix, workspace, [bin_dir])
    except RuntimeError as error:
        pytest.fail(str(error))
    yield url
    stop_code_server(process)


@pytest.fixture(scope="module")
def page(code_server):
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1400, "height": 860}, device_scale_factor=1)
        page = context.new_page()
        TIMES["goto"] = time.monotonic()
        page.goto(code_server)
        page.wait_for_selector(".monaco-workbench", timeout=60_000)
        page.wait_for_selector(".explorer-folders-view, .explorer-viewlet", timeout=60_000)
        yield page
        browser.close()


TIMES: dict[str, float] = {}


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


def test_first_open_runs_the_bundled_server(page, editor_home):
    """Opening a kernel in the fresh profile: diagnostics come from the server inside the .vsix."""
    TIMES["open"] = time.monotonic()
    open_file(page, "mistakes.wgsl")
    page.wait_for_selector(".editor-group-container.active .squiggly-error", timeout=90_000)
    TIMES["diagnostics"] = time.monotonic()
    run_command(page, "Problems: Focus on Problems View")
    page.locator(".markers-panel").get_by_text("initializer of type 'u32' where 'f32' is expected").first.wait_for(
        timeout=10_000)
    page.locator(".editor-group-container.active .monaco-editor .view-lines").click()
    page.wait_for_timeout(1000)
    shot(page, "00-first-open")
    if os.environ.get("COOP_E2E_UPDATE_DOCS") == "1":  # the documentation's picture, only when asked
        shutil.copy(SHOTS / "00-first-open.png", FIRST_OPEN_SHOT)
    log = extension_log(editor_home)
    assert "(the bundled coop-lsp" in log, log
    assert re.search(r"coop-lsp \S+ answered initialize", log), log
    assert "this extension is" not in log, log  # no version mismatch
    assert f"--workers 1 --cache-dir {editor_home / 'coop-cache'}" in log, log
    # The document the server checked is kept in the cache folder the settings named (written 0.5 s later).
    deadline = time.monotonic() + 30
    while not any(p.is_file() for p in (editor_home / "coop-cache").rglob("*")) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert any(p.is_file() for p in (editor_home / "coop-cache").rglob("*")), log
    notifications = page.locator(".notifications-toasts .notification-toast")
    assert notifications.count() == 0, notifications.all_inner_texts()
    print(f"first open to first diagnostics: {TIMES['diagnostics'] - TIMES['open']:.1f} s "
          f"({TIMES['diagnostics'] - TIMES['goto']:.1f} s from loading the editor)")


def test_syntax_colouring_of_a_matrix_kernel(page):
    open_file(page, "gemm_naive.wgsl")
    go_to(page, 60, 1)
    token(page, "subgroupMatrixLoad").wait_for(state="visible", timeout=15_000)
    # The grammar colours first; the server's semantic tokens repaint a moment later (once, at the end of
    # a full suite run in CI, more than 20 s later: the wait ends as soon as the colours are right).
    deadline = time.monotonic() + 45
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
        # Only the lines in view are rendered, and the window's height decides whether the bindings that
        # name f16 are among them (in CI they were not): any scalar type in view stands for the types.
        types = [colours[name] for name in ("f16", "f32", "u32") if name in colours]
        kinds = {colours.get("let"), colours.get("subgroupMatrixLoad"), *types[:1], *comments[:1]}
        # Keywords, builtin functions, types and comments each have their own colour.
        if None not in kinds and len(kinds) == 4 and len(set(colours.values())) >= 5:
            break
        assert time.monotonic() < deadline, (f"let, subgroupMatrixLoad, a type, comment: {sorted(map(str, kinds))}; "
                                             f"{len(set(colours.values()))} colours in all: {colours}")
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
    # On a loaded machine the edit can land after a Ctrl+S pressed at once, which then saves nothing:
    # save once the editor shows the fix, and again while the file on disk lacks it.
    token(page, "row_major").wait_for(state="visible", timeout=15_000)
    deadline = time.monotonic() + 20
    while "subgroupMatrixLoad<TileA, row_major>(&a, 0u, 8u)" not in (workspace / "mistakes.wgsl").read_text():
        assert time.monotonic() < deadline, (workspace / "mistakes.wgsl").read_text()
        page.keyboard.press("Control+S")
        page.wait_for_timeout(1000)


def test_format_document(page, workspace):
    open_file(page, "ugly.wgsl")
    run_command(page, "Format Document")
    page.wait_for_timeout(1000)
    expected = format_text(UGLY).text
    deadline = time.monotonic() + 20
    while (workspace / "ugly.wgsl").read_text() != expected:  # saved again if the edit came after a save
        assert time.monotonic() < deadline, (workspace / "ugly.wgsl").read_text()
        page.keyboard.press("Control+S")
        page.wait_for_timeout(1000)
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
    # The report opens a moment after the output: waited for here, so that it does not open over a later step.
    page.locator(".tab", has_text="Preview").first.wait_for(state="visible", timeout=30_000)
    page.wait_for_timeout(500)
    shot(page, "08-run-result")


def focus_the_kernels_group(page) -> None:
    """Moves the focus to the first editor group, the kernels', so that the next file opened from the
    Explorer lands there and the lenses are looked for where they are drawn.

    A run's report is an untitled Markdown document and its preview, in a second group that keeps the
    focus. Closing the preview by its tab left the untitled document (and the focus) there; closing the
    reports unsaved makes VS Code reuse their untitled name, and the next report's preview then showed the
    old one. The reports stay open; only the focus moves, by command, whatever is drawn where.
    """
    run_command(page, "View: Focus First Editor Group")
    page.wait_for_function("""() => {
        const first = document.querySelector('.editor-group-container');
        return first !== null && first.classList.contains('active');
    }""", timeout=15_000)


def test_watch_values_after_a_run_are_an_inlay_hint(page):
    """Run kernel from the code lens on a kernel with `// coop: watch v`: the values the run recorded per lane
    appear at the line's end (docs/debugging.md; with COOP_E2E_UPDATE_DOCS=1 the screenshot replaces
    docs/images/vscode-watch-values.png)."""
    focus_the_kernels_group(page)  # an earlier step's report, whose group would hold the focus
    open_file(page, "watch_me.wgsl")
    lens = page.locator(".editor-group-container.active .codelens-decoration a:visible", has_text="Run kernel").first
    lens.wait_for(state="visible", timeout=30_000)
    lens.click()
    # v = 3 i for the eight lanes, as the kernel computed it on whatever adapter wgpu found.
    hint = page.locator(".monaco-editor .view-line", has_text="lane 0: 0.0, lane 1: 3.0, lane 2: 6.0").first
    hint.wait_for(state="visible", timeout=150_000)
    # The run's report opens beside the kernel, with every record.
    page.locator(".tab", has_text="Preview").first.wait_for(state="visible", timeout=30_000)
    page.wait_for_timeout(1000)
    shot(page, "10-watch-values")
    if os.environ.get("COOP_E2E_UPDATE_DOCS") == "1":  # the documentation's picture, only when asked
        shutil.copy(SHOTS / "10-watch-values.png", WATCH_SHOT)


def test_the_tune_kernel_code_lens_tunes_and_opens_the_report(page, workspace):
    # The run steps' reports open in a group beside the kernels and keep the focus there (in a clean clone
    # the lens was drawn but the active group was the report's, so the wait for it ran out).
    focus_the_kernels_group(page)
    open_file(page, "tune_me.wgsl")
    lens = page.locator(".editor-group-container.active .codelens-decoration a:visible", has_text="Tune kernel").first
    lens.wait_for(state="visible", timeout=60_000)
    lens.click()
    # The server's showDocument of the HTML report opens a page (a webview) beside the kernel.
    page.wait_for_selector(".tab[aria-label*='Tune: tune_me']", timeout=150_000)
    page.wait_for_timeout(1000)
    shot(page, "09-tune-report")
    assert (workspace / ".coop-lint" / "tune" / "tune_me.tuned.json").exists()


def test_without_python_one_message_and_no_restarts(tmp_path_factory, workspace, page, editor_home):
    """PATH with no Python at all: one notification naming what to install and the setting; nothing retries."""
    home = tmp_path_factory.mktemp("code-server-no-python")
    empty = tmp_path_factory.mktemp("empty-bin")
    vsix = editor_home / "coop-lsp-wgsl-linux-x64.vsix"  # built by the code_server fixture
    process, url, _ = start_code_server(home, vsix, workspace, [empty])
    # The module's browser (one Playwright per process), in a context of its own.
    context = page.context.browser.new_context(viewport={"width": 1400, "height": 860})
    try:
        other = context.new_page()
        other.goto(url)
        other.wait_for_selector(".explorer-folders-view .monaco-list-row", timeout=60_000)
        open_file(other, "gemm_naive.wgsl")
        toast = other.locator(".notifications-toasts .notification-toast", has_text="Python 3.11 or newer is needed")
        toast.first.wait_for(state="visible", timeout=60_000)
        other.wait_for_timeout(8000)  # a restart loop would show more by now
        shot(other, "09-no-python")
        texts = other.locator(".notifications-toasts .notification-toast").all_inner_texts()
    finally:
        context.close()
        stop_code_server(process)
    assert len(texts) == 1, texts
    assert "coopLsp.server.pythonPath" in texts[0] and "Install Python 3.11+" in texts[0], texts
    assert "Traceback" not in texts[0] and "File \"" not in texts[0], texts
    log = extension_log(home)
    assert log.count("Python 3.11 or newer is needed") == 1, log  # one attempt, no retries
