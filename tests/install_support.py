"""What the install-path tests share: a clean clone of the repository, fresh venvs, and the checks
that an installed coop-lint / coop-lsp behaves like the repository's own.

A clone of HEAD, not the working tree: what users install is what was committed (in CI the checkout
is already a clean clone; locally, commit first). Installs reuse pip's cache and PyPI, so the
tests skip, saying why, where there is no C compiler or no way to PyPI.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import urllib.request
from pathlib import Path

import pytest

from benchmarks.lsp_stdio import frame

ROOT = Path(__file__).resolve().parent.parent
REPO_BIN = Path(sys.executable).parent
# Lint runs that every install must answer exactly as the repository's coop-lint does: the examples
# as they are (no findings), and against device profiles (findings from the packaged profiles too).
LINT_RUNS = [
    ["examples"],
    ["--target", "nvidia-h100", "--target", "apple-m", "--target", "amd-rdna3", "examples"],
]


def missing_prerequisite() -> str | None:
    """Why installing from source cannot be tried here, or None."""
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if not shutil.which(shlex.split(compiler)[0]):
        return f"no C compiler ({compiler!r} is not on PATH): the grammar is compiled on install"
    index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple/").rstrip("/") + "/pip/"
    try:
        urllib.request.urlopen(index, timeout=15).close()
    except OSError as error:
        return f"no network to the package index ({index}: {error}); installs need coop-lsp's dependencies"
    return None


def run(command: list[str], cwd: Path | None = None, env: dict | None = None, timeout: float = 600,
        check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError(f"{shlex.join(map(str, command))} exited {done.returncode}\n"
                             f"--- stdout\n{done.stdout[-4000:]}\n--- stderr\n{done.stderr[-4000:]}")
    return done


def clean_env(**extra: str) -> dict:
    """This environment without the repository's venv: an installed command must stand on its own."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "COOP_LINT_CACHE_DIR")}
    env["PATH"] = os.pathsep.join(part for part in env.get("PATH", "").split(os.pathsep)
                                  if Path(part) != REPO_BIN)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env.update(extra)
    return env


def clean_clone(destination: Path, tag: str | None = None) -> Path:
    run(["git", "clone", "--quiet", "--no-hardlinks", ROOT, destination])
    if tag:
        run(["git", "-C", destination, "-c", "user.name=test", "-c", "user.email=test@example.invalid",
             "tag", "--force", tag])
    return destination


def fresh_venv(path: Path) -> Path:
    """A new venv made by the Python running the tests; returns its bin folder."""
    run([sys.executable, "-m", "venv", path])
    return path / "bin"


def reference_findings(cwd: Path) -> list[list]:
    """The repository's own coop-lint on the clone's examples, one JSON report per LINT_RUNS entry."""
    return lint_findings(REPO_BIN / "coop-lint", cwd, os.environ.copy())


def lint_findings(coop_lint: Path, cwd: Path, env: dict) -> list[list]:
    reports = []
    for arguments in LINT_RUNS:
        done = run([coop_lint, "--no-cache", "--output-format", "json", *arguments], cwd=cwd, env=env,
                   check=False)
        assert done.returncode in (0, 1), done.stderr
        reports.append(json.loads(done.stdout))
    return reports


def lsp_session(coop_lsp: Path, env: dict) -> tuple[list[dict], int]:
    """initialize, initialized, shutdown, exit over stdio: the messages the server sent, and its status."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": None, "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    done = subprocess.run([str(coop_lsp)], input=b"".join(map(frame, messages)), capture_output=True,
                          env=env, timeout=120)
    received, data = [], done.stdout
    while data:
        header, _, rest = data.partition(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in header.split(b"\r\n")
                          if line.lower().startswith(b"content-length")))
        received.append(json.loads(rest[:length]))
        data = rest[length:]
    return received, done.returncode


def check_installed(bin_dir: Path, clone: Path, expected: list[list], version: str, env: dict) -> None:
    """The installed commands give the repository's findings and answer LSP initialize."""
    coop_lint, coop_lsp = bin_dir / "coop-lint", bin_dir / "coop-lsp"
    assert run([coop_lint, "--version"], env=env).stdout.split() == ["coop-lint", version]
    assert run([coop_lsp, "--version"], env=env).stdout.split() == ["coop-lsp", version]
    assert lint_findings(coop_lint, clone, env) == expected
    received, status = lsp_session(coop_lsp, env)
    answer = next(message for message in received if message.get("id") == 1)
    assert answer["result"]["serverInfo"] == {"name": "coop-lsp", "version": version}
    assert "textDocumentSync" in answer["result"]["capabilities"]
    assert any(message.get("id") == 2 and "result" in message for message in received)
    assert status == 0
