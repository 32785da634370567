"""Neovim, headless: the real editor runs editors/neovim/coop-lsp.lua as a user would.

One `nvim --headless -u NONE` session, driven by the Lua below:

- builds the parser with editors/neovim/build-parser.sh into the session's own
  ~/.local/share/nvim/site (XDG_DATA_HOME points into tmp_path), where the
  snippet must find it on Neovim's default 'runtimepath';
- loads the snippet with dofile(), opens a Chromium-dialect GEMM kernel and
  checks that its filetype is set, tree-sitter highlighting is running, the
  tree has no errors and the highlights query captures the matrix builtins;
- opens a copy of the kernel with a missing ';' and waits (bounded) for the
  server's diagnostics through vim.diagnostic.get;
- writes everything it saw as JSON, which the assertions below read.

Debian 12's Neovim is 0.7.2 (`apt-get install -y neovim`); the snippet also
runs on 0.9+. Set COOP_NVIM to test another Neovim binary. Skips when no
Neovim, C compiler or coop-lsp is installed.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SNIPPET = ROOT / "editors" / "neovim" / "coop-lsp.lua"
BUILD_PARSER = ROOT / "editors" / "neovim" / "build-parser.sh"
KERNEL = ROOT / "examples" / "chromium" / "gemm_blocked.wgsl"

BROKEN_FROM = "            let col = e % BN;\n"  # the ';' is removed in the broken copy
NVIM_TIMEOUT = 25  # seconds for the whole editor session; the Lua waits less
DIAGNOSTICS_WAIT_MS = 15000

DRIVER = r"""
local out = vim.env.COOP_TEST_OUT
local result = { errors = {} }

local function write_result()
  local file = io.open(out, "w")
  file:write(vim.fn.json_encode(result))
  file:close()
end

local function node_text(node, buf)
  if vim.treesitter.get_node_text then -- 0.9+
    return vim.treesitter.get_node_text(node, buf)
  end
  return vim.treesitter.query.get_node_text(node, buf) -- 0.7, 0.8
end

local function get_query(lang, name)
  if vim.treesitter.query.get then -- 0.9+
    return vim.treesitter.query.get(lang, name)
  end
  return vim.treesitter.get_query(lang, name)
end

local function attached_clients(buf)
  local names = {}
  local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = buf }) -- 0.10+
    or vim.lsp.buf_get_clients(buf)
  for _, client in pairs(clients) do
    table.insert(names, client.name)
  end
  return names
end

local function run()
  local v = vim.version()
  result.version = string.format("%d.%d.%d", v.major, v.minor, v.patch)

  -- What a user's init.lua does: load the snippet (COOP_LSP_REPO is set in the environment).
  dofile(vim.env.COOP_TEST_SNIPPET)

  -- The kernel that parses cleanly.
  vim.cmd("edit " .. vim.fn.fnameescape(vim.env.COOP_TEST_GOOD))
  local good = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[good].filetype
  result.parser_paths = vim.api.nvim_get_runtime_file("parser/wgsl_coop.so", true)
  result.highlighter = vim.treesitter.highlighter.active[good] ~= nil
  local tree = vim.treesitter.get_parser(good, "wgsl_coop"):parse()[1]
  result.good_has_error = tree:root():has_error()

  local query = get_query("wgsl_coop", "highlights")
  result.captures = {}
  for _, line in ipairs(vim.fn.json_decode(vim.env.COOP_TEST_LINES)) do
    local seen = {}
    for id, node in query:iter_captures(tree:root(), good, line, line + 1) do
      if node:start() == line then
        table.insert(seen, { query.captures[id], node_text(node, good) })
      end
    end
    result.captures[tostring(line)] = seen
  end

  -- The kernel with a syntax error: the server must report it.
  vim.cmd("edit " .. vim.fn.fnameescape(vim.env.COOP_TEST_BAD))
  local bad = vim.api.nvim_get_current_buf()
  local start = vim.loop.hrtime()
  result.got_diagnostics = vim.wait(tonumber(vim.env.COOP_TEST_WAIT_MS), function()
    return #vim.diagnostic.get(bad) > 0
  end, 50)
  result.diagnostics_ms = math.floor((vim.loop.hrtime() - start) / 1e6)
  -- Attaching to the first buffer can finish after the second one's diagnostics on a busy machine.
  vim.wait(tonumber(vim.env.COOP_TEST_WAIT_MS), function()
    return #attached_clients(good) > 0
  end, 50)
  result.clients_good = attached_clients(good)
  result.clients_bad = attached_clients(bad)
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bad)) do
    table.insert(result.diagnostics, {
      lnum = d.lnum, col = d.col, code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code),
      severity = d.severity, message = d.message, source = d.source,
    })
  end
end

local ok, err = xpcall(run, debug.traceback)
if not ok then
  table.insert(result.errors, tostring(err))
end
write_result()
vim.cmd(ok and "qall!" or "cquit 3")
"""


def _nvim() -> str | None:
    explicit = os.environ.get("COOP_NVIM")
    return explicit if explicit else shutil.which("nvim")


def _server_dirs() -> list[str]:
    """Where `coop-lsp` may be: the checkout's .venv (the snippet's first choice) or this Python's bin."""
    dirs = [str(ROOT / ".venv" / "bin"), str(Path(sys.executable).parent)]
    return [d for d in dirs if (Path(d) / "coop-lsp").is_file()]


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    nvim = _nvim()
    if nvim is None:
        pytest.skip("Neovim is not installed (Debian: apt-get install -y neovim)")
    if shutil.which(os.environ.get("CC", "cc")) is None:
        pytest.skip("no C compiler to build the tree-sitter parser")
    if not _server_dirs():
        pytest.skip("coop-lsp is not installed (./dev lint creates .venv/bin/coop-lsp)")

    tmp = tmp_path_factory.mktemp("neovim")
    xdg = {name: tmp / name.lower() for name in
           ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")}
    for path in xdg.values():
        path.mkdir()
    env = {**os.environ, **{k: str(v) for k, v in xdg.items()}}
    env["PATH"] = os.pathsep.join([*_server_dirs(), env.get("PATH", "")])
    env.pop("COOP_LSP_PARSER", None)

    started = time.monotonic()
    build = subprocess.run(["bash", str(BUILD_PARSER)], env=env, capture_output=True, text=True, timeout=60)
    assert build.returncode == 0, build.stderr
    built = Path(build.stdout.strip())
    assert built == xdg["XDG_DATA_HOME"] / "nvim" / "site" / "parser" / "wgsl_coop.so"
    build_s = time.monotonic() - started

    source = KERNEL.read_text(encoding="utf-8")
    assert source.count(BROKEN_FROM) == 1
    broken = tmp / "work" / "gemm_blocked_broken.wgsl"
    broken.parent.mkdir()
    broken.write_text(source.replace(BROKEN_FROM, BROKEN_FROM.replace(";", "")), encoding="utf-8")
    lines = source.splitlines()
    broken_line = lines.index(BROKEN_FROM.rstrip("\n"))
    mma_line = next(i for i, text in enumerate(lines) if "subgroupMatrixMultiplyAccumulate(" in text)
    alias_line = next(i for i, text in enumerate(lines) if "subgroup_matrix_left<" in text)

    driver = tmp / "driver.lua"
    driver.write_text(DRIVER, encoding="utf-8")
    out = tmp / "result.json"
    env.update({
        "COOP_LSP_REPO": str(ROOT),
        "COOP_TEST_OUT": str(out),
        "COOP_TEST_SNIPPET": str(SNIPPET),
        "COOP_TEST_GOOD": str(KERNEL),
        "COOP_TEST_BAD": str(broken),
        "COOP_TEST_LINES": json.dumps([mma_line, alias_line]),
        "COOP_TEST_WAIT_MS": str(DIAGNOSTICS_WAIT_MS),
    })
    command = [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {driver}"]
    started = time.monotonic()
    # A session of its own, so that a timeout takes the server down with the editor.
    proc = subprocess.Popen(command, env=env, cwd=tmp, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=NVIM_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        pytest.fail(f"nvim did not finish in {NVIM_TIMEOUT} s:\n{output.decode(errors='replace')}")
    finally:
        try:  # whatever the editor left running (a server that ignored shutdown)
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    log = output.decode(errors="replace")
    assert out.is_file(), f"nvim exited {proc.returncode} without a result:\n{log}"
    result = json.loads(out.read_text(encoding="utf-8"))
    assert not result["errors"], "\n".join(result["errors"]) + "\n" + log
    assert proc.returncode == 0, log
    return {
        "result": result, "log": log, "built": built, "broken_line": broken_line,
        "mma_line": mma_line, "alias_line": alias_line,
        "nvim_s": time.monotonic() - started, "build_s": build_s,
    }


def test_neovim_version_is_supported(session):
    major, minor, _ = (int(x) for x in session["result"]["version"].split("."))
    assert (major, minor) >= (0, 7)


def test_filetype_and_parser_from_default_runtimepath(session):
    result = session["result"]
    assert result["filetype"] == "wgsl"
    assert result["parser_paths"] == [str(session["built"])]
    assert result["highlighter"], "tree-sitter highlighting did not start for the .wgsl buffer"
    assert result["good_has_error"] is False


def test_highlights_capture_matrix_builtins(session):
    captures = session["result"]["captures"]
    mma = {tuple(c) for c in captures[str(session["mma_line"])]}
    assert ("function.builtin", "subgroupMatrixMultiplyAccumulate") in mma
    assert ("number", "0") in mma
    alias = {tuple(c) for c in captures[str(session["alias_line"])]}
    assert ("type.builtin", "subgroup_matrix_left") in alias
    assert ("type.builtin", "f16") in alias


def test_server_reports_the_syntax_error(session):
    result = session["result"]
    assert result["got_diagnostics"], f"no diagnostics within {DIAGNOSTICS_WAIT_MS} ms:\n{session['log']}"
    assert "coop-lsp" in result["clients_bad"]
    assert "coop-lsp" in result["clients_good"]
    syntax = [d for d in result["diagnostics"] if d["code"] == "S001"]
    assert len(syntax) == 1, result["diagnostics"]
    (diagnostic,) = syntax
    assert diagnostic["lnum"] == session["broken_line"]
    assert diagnostic["severity"] == 1  # vim.diagnostic.severity.ERROR
    assert "';'" in diagnostic["message"]


def test_session_is_quick(session):
    assert session["nvim_s"] + session["build_s"] < 30
