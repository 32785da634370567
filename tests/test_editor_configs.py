"""The editor configurations shipped in editors/: Neovim 0.11's lsp/coop_lsp.lua and Helix's languages.toml.

Debian 12 ships Neovim 0.7.2; no newer Neovim and no Helix can be installed
from the registries this project reaches, so what can run here runs:
the 0.11 file is loaded by the Neovim that is here (it is plain Lua that
returns the configuration table `vim.lsp.config` merges), and Helix's file is
read as TOML and checked against the server command and grammar package it
names. With COOP_NVIM pointing at Neovim 0.11+, or `hx` on PATH, the editors
themselves are asked too.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NVIM_CONFIG = ROOT / "editors" / "neovim" / "lsp" / "coop_lsp.lua"
HELIX_CONFIG = ROOT / "editors" / "helix" / "languages.toml"
NVIM = os.environ.get("COOP_NVIM") or shutil.which("nvim")


def _nvim_lua(expression: str, env_extra: dict[str, str]) -> str:
    env = dict(os.environ, **env_extra)
    completed = subprocess.run(
        [NVIM, "--headless", "-u", "NONE", "-i", "NONE", "-c", f"lua io.stdout:write({expression})", "-c", "qa!"],
        capture_output=True, timeout=20, env=env)
    assert completed.returncode == 0, completed.stderr.decode(errors="replace")
    return completed.stdout.decode()


@pytest.mark.skipif(NVIM is None, reason="no Neovim on PATH (apt-get install neovim) and COOP_NVIM unset")
def test_neovim_lsp_config_names_the_server_of_the_checkout(tmp_path):
    fake_repo = tmp_path / "coop-lsp"
    server = fake_repo / ".venv" / "bin" / "coop-lsp"
    server.parent.mkdir(parents=True)
    server.write_text("#!/bin/sh\n")
    server.chmod(0o755)
    config = json.loads(_nvim_lua(f"vim.fn.json_encode(dofile('{NVIM_CONFIG}'))", {"COOP_LSP_REPO": str(fake_repo)}))
    assert config["cmd"] == [str(server)]
    assert config["filetypes"] == ["wgsl"]
    assert "pyproject.toml" in config["root_markers"]


@pytest.mark.skipif(NVIM is None, reason="no Neovim on PATH (apt-get install neovim) and COOP_NVIM unset")
def test_neovim_lsp_config_falls_back_to_the_command_on_path(tmp_path):
    config = json.loads(_nvim_lua(f"vim.fn.json_encode(dofile('{NVIM_CONFIG}'))",
                                  {"COOP_LSP_REPO": str(tmp_path / "nowhere")}))
    assert config["cmd"] == ["coop-lsp"]


def test_neovim_0_11_attaches_the_server_through_vim_lsp_enable(tmp_path):
    if NVIM is None:
        pytest.skip("no Neovim")
    version = subprocess.run([NVIM, "--version"], capture_output=True, text=True).stdout.split()[1]
    major, minor = (int(part) for part in version.lstrip("v").split(".")[:2])
    if (major, minor) < (0, 11):
        pytest.skip(f"Neovim {version} has no vim.lsp.config (0.11+); set COOP_NVIM to a newer Neovim")
    kernel = tmp_path / "k.wgsl"
    kernel.write_text("fn f() { let x = ; }\n")
    rtp = NVIM_CONFIG.parent.parent
    lua = (f"vim.opt.runtimepath:prepend('{rtp}'); vim.lsp.enable('coop_lsp'); vim.cmd('edit {kernel}'); "
           "vim.wait(15000, function() return #vim.diagnostic.get(0) > 0 end); "
           "io.stdout:write(#vim.diagnostic.get(0) > 0 and 'diagnostics' or 'none')")
    completed = subprocess.run([NVIM, "--headless", "-u", "NONE", "-c", "filetype on", "-c", f"lua {lua}", "-c", "qa!"],
                               capture_output=True, timeout=30,
                               env=dict(os.environ, COOP_LSP_REPO=str(ROOT)))
    assert completed.stdout.decode().endswith("diagnostics"), completed.stderr.decode(errors="replace")


def test_helix_languages_toml_names_the_server_and_the_grammar_package():
    config = tomllib.loads(HELIX_CONFIG.read_text(encoding="utf-8"))
    server = config["language-server"]["coop-lsp"]
    assert Path(server["command"]).name == "coop-lsp"
    (language,) = config["language"]
    assert language["file-types"] == ["wgsl"]
    assert language["language-servers"] == ["coop-lsp"]
    (grammar,) = config["grammar"]
    assert grammar["name"] == language["grammar"]
    grammar_dir = Path(grammar["source"]["path"])
    # The path is the user's checkout; its tail must be the grammar package of this repository.
    package = ROOT / grammar_dir.name
    assert (package / "src" / "parser.c").is_file() and (package / "src" / "scanner.c").is_file()
    tree_sitter_json = json.loads((package / "tree-sitter.json").read_text())
    assert tree_sitter_json["grammars"][0]["scope"] == language["scope"]


@pytest.mark.skipif(shutil.which("hx") is None, reason="Helix is not installed (no registry reachable here ships it)")
def test_helix_health_finds_the_server(tmp_path):
    text = HELIX_CONFIG.read_text(encoding="utf-8").replace("/path/to/coop-lsp", str(ROOT))
    config_dir = tmp_path / "helix"
    config_dir.mkdir()
    (config_dir / "languages.toml").write_text(text)
    completed = subprocess.run(["hx", "--health", "wgsl"], capture_output=True, text=True, timeout=30,
                               env=dict(os.environ, XDG_CONFIG_HOME=str(tmp_path)))
    assert "coop-lsp" in completed.stdout and "✓" in completed.stdout, completed.stdout
