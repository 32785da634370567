"""Safety: the server executes nothing on open, change or save, and no setting makes it run a command.

The server runs in a child whose audit hook (PEP 578) logs every attempt to
start a process (subprocess, os.system, exec, spawn, posix_spawn, fork);
the tests then drive it with documents and settings written to tempt it
("command", "path", "$(touch ...)") and check the log is empty and the
marker file was never created.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from .conftest import count
from .lsp import RawServer

_HOOK = textwrap.dedent("""
    import os, sys, runpy
    LOG = os.environ["COOP_SPAWN_LOG"]
    WATCH = ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
             "pty.spawn", "os.startfile")
    def hook(event, args):
        if event in WATCH:
            with open(LOG, "a") as handle:
                handle.write(f"{event} {args!r}\\n")
            raise PermissionError(f"coop-lsp safety test: {event} refused")
    sys.addaudithook(hook)
""")
_SERVER = _HOOK + textwrap.dedent("""
    sys.argv = ["coop-lsp", "--debounce-ms", "0"]
    runpy.run_module("coop_lsp.server.main", run_name="__main__")
""")


def tempting(marker: Path) -> dict:
    """Settings whose keys and values look like commands a careless server might run."""
    shell = f"touch {marker}"
    return {
        "command": shell, "cmd": ["sh", "-c", shell], "path": "/bin/sh", "executable": "/bin/sh",
        "tint": {"path": "/bin/sh", "args": ["-c", shell]}, "naga": {"command": shell},
        "runner": {"command": shell, "env": {"LD_PRELOAD": str(marker)}}, "compiler": shell,
        "dialect": f"$({shell})", "targets": [f"$({shell})", f"; {shell}", f"`{shell}`"],
        "rules": {f"$({shell})": True, "T012": shell}, "severities": {"T012": f"$({shell})"},
        "formatter": shell, "onSave": shell, "preLaunchTask": shell,
    }


@pytest.fixture
def guarded(tmp_path):
    marker = tmp_path / "MARKER"
    log = tmp_path / "spawn.log"
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    # A workspace that asks for commands every way it could: lint config, editor settings, a kernel.
    (workspace / "coop-lint.toml").write_text(f'command = "touch {marker}"\n[runner]\ncommand = "touch {marker}"\n')
    (workspace / ".vscode").mkdir()
    (workspace / ".vscode" / "settings.json").write_text(json.dumps({"coop-lsp": tempting(marker)}))
    (workspace / "kernel.wgsl").write_text(f"// $(touch {marker})\n@compute @workgroup_size(1)\nfn main() {{}}\n")
    settings = {"coop-lsp": tempting(marker)}
    server = RawServer(argv=[sys.executable, "-c", _SERVER], settings=tempting(marker),
                       env={"COOP_SPAWN_LOG": str(log)}, cwd=workspace)
    server.initialize(root=workspace, initialization_options=settings)
    yield server, workspace, marker, log
    server.kill()


def test_the_guard_sees_a_process_start(tmp_path):
    """The audit hook itself works: a child that does start a process is caught."""
    import subprocess

    log = tmp_path / "spawn.log"
    code = _HOOK + "\nimport subprocess\ntry:\n    subprocess.run(['true'])\nexcept PermissionError:\n    pass\n"
    subprocess.run([sys.executable, "-c", code], env={"COOP_SPAWN_LOG": str(log)}, check=True, timeout=30)
    assert "subprocess.Popen" in log.read_text()


def _assert_nothing_ran(log: Path, marker: Path) -> None:
    assert not log.exists(), f"the server tried to start a process:\n{log.read_text()}"
    assert not marker.exists(), "a command from the workspace ran"


def test_nothing_is_executed_on_open_change_save(guarded):
    server, workspace, marker, log = guarded
    uri = (workspace / "kernel.wgsl").as_uri()
    text = (workspace / "kernel.wgsl").read_text()
    server.open(uri, text)
    server.diagnostics_for(uri, 1)
    server.change(uri, 2, [{"text": text + f"// `touch {marker}`\n"}])
    server.diagnostics_for(uri, 2)
    server.notify("textDocument/willSave", {"textDocument": {"uri": uri}, "reason": 1})
    server.notify("textDocument/didSave", {"textDocument": {"uri": uri}, "text": text})
    for method, params in (("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 4}}),
                           ("textDocument/codeLens", {"textDocument": {"uri": uri}}),
                           ("textDocument/diagnostic", {"textDocument": {"uri": uri}}),
                           ("workspace/diagnostic", {"previousResultIds": []})):
        reply = server.call(method, params)
        assert "error" not in reply, reply
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert server.shutdown() == 0
    count("safety: sessions with no process started")
    _assert_nothing_ran(log, marker)


def test_configuration_cannot_make_the_server_run_commands(guarded):
    server, workspace, marker, log = guarded
    uri = (workspace / "kernel.wgsl").as_uri()
    server.open(uri, (workspace / "kernel.wgsl").read_text())
    server.diagnostics_for(uri, 1)
    # Pushed settings, pulled settings (the client answers workspace/configuration with them), again.
    server.notify("workspace/didChangeConfiguration", {"settings": {"coop-lsp": tempting(marker)}})
    server.notify("workspace/didChangeConfiguration", {"settings": None})
    server.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": (workspace / "coop-lint.toml").as_uri(),
                                                                   "type": 2}]})
    # Commands by name: unknown ones, shell-looking ones, and the run action with hostile arguments.
    for command, arguments in (("sh", ["-c", f"touch {marker}"]), (f"touch {marker}", []),
                               ("coop-lsp.runKernel", [uri, f"main; touch {marker}"]),
                               ("coop-lsp.runKernel", [f"file://{marker}", "main"])):
        reply = server.call("workspace/executeCommand", {"command": command, "arguments": arguments})
        assert reply.get("error", {}).get("code") != -32603, reply
    reply = server.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 4}})
    assert "error" not in reply
    assert server.shutdown() == 0
    count("safety: sessions with no process started")
    _assert_nothing_ran(log, marker)
