"""`initialize` answered before pygls is imported (coop_lsp/server/fast_start.py): the same answer as pygls's,
and a server that then works as usual."""

from __future__ import annotations

import json
import pprint
import subprocess
import sys
import time

import pytest
from lsprotocol import types as lsp
from pygls.protocol import default_converter
from pytest_lsp import client_capabilities

from benchmarks.lsp_stdio import frame, read_message
from coop_lsp.server.capabilities import CAPABILITIES, initialize_result
from coop_lsp.server.server import create_server

CLIENTS = {
    "nothing": {},
    "visual-studio-code": None,  # pytest-lsp's recorded capabilities of these editors
    "neovim": None,
    "utf-8 first": {"general": {"positionEncodings": ["utf-8", "utf-16"]}},
    "unknown encodings only": {"general": {"positionEncodings": ["ebcdic"]}},
    "rename without prepare": {"textDocument": {"rename": {"prepareSupport": False}}},
    "rename with prepare": {"textDocument": {"rename": {"prepareSupport": True}}},
}


def pygls_answer(params: dict) -> dict:
    """What pygls itself answers to `initialize` with the server's registered features."""
    protocol = create_server().protocol
    steps = protocol.lsp_initialize(protocol._converter.structure(params, lsp.InitializeParams))
    try:
        handler, args, _ = next(steps)
        handler(*args)
        next(steps)
    except StopIteration as stop:
        result = stop.value
    return json.loads(json.dumps(protocol._converter.unstructure(result)))


@pytest.mark.parametrize("client", list(CLIENTS))
def test_the_early_answer_is_pygls_answer(client):
    capabilities = CLIENTS[client]
    if capabilities is None:
        capabilities = json.loads(json.dumps(default_converter().unstructure(client_capabilities(client))))
    params = {"processId": None, "rootUri": None, "capabilities": capabilities}
    expected = pygls_answer(params)
    if client == "nothing":
        table = {k: v for k, v in expected["capabilities"].items() if k not in ("positionEncoding", "renameProvider")}
        assert table == CAPABILITIES, "replace CAPABILITIES in coop_lsp/server/capabilities.py with:\n" + \
            pprint.pformat(table, indent=1, width=110)
    assert initialize_result(params) == expected


def test_the_server_answers_initialize_once_and_then_serves():
    process = subprocess.Popen([sys.executable, "-m", "coop_lsp.server.main"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE)
    try:
        # Sent in one write, as clients do: the replay must hand pygls the rest intact.
        text = "fn f() -> u32 { return 1.5; }\n"
        process.stdin.write(
            frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                    "params": {"processId": None, "rootUri": None, "capabilities": {},
                               "initializationOptions": {"coop-lsp": {"rules": {"T004": False}}}}})
            + frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})
            + frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": "file:///k.wgsl", "languageId": "wgsl", "version": 1, "text": text}}})
            + frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
                "textDocument": {"uri": "file:///k.wgsl"}, "position": {"line": 0, "character": 3}}}))
        process.stdin.flush()
        messages = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            messages.append(read_message(process.stdout))
            if any(m.get("id") == 2 for m in messages) and any(
                    m.get("method") == "textDocument/publishDiagnostics" for m in messages):
                break
        answers = [m for m in messages if m.get("id") == 1]
        assert len(answers) == 1 and answers[0]["result"]["capabilities"]["hoverProvider"] is True
        hover = next(m for m in messages if m.get("id") == 2)
        assert "f" in json.dumps(hover["result"])
        published = next(m for m in messages if m.get("method") == "textDocument/publishDiagnostics")
        codes = [d["code"] for d in published["params"]["diagnostics"]]
        assert codes and "T004" not in codes  # initializationOptions reached the server's own handler
        process.stdin.write(frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
                            + frame({"jsonrpc": "2.0", "method": "exit"}))
        process.stdin.flush()
        assert process.wait(30) == 0
    finally:
        process.kill()


def _modules_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sys.modules))"
    return set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split())


def test_initialize_needs_neither_pygls_nor_the_checks():
    loaded = _modules_after("from coop_lsp.server import main, fast_start")
    assert not {m for m in loaded if m.split(".")[0] in ("pygls", "lsprotocol", "numpy", "cattrs")}
    assert not {m for m in loaded if m.startswith(("coop_lsp.lint", "coop_lsp.semantic", "coop_lsp.devices"))}


def test_the_server_loads_runners_numpy_and_tint_only_when_used():
    loaded = _modules_after("import coop_lsp.server.server")
    assert not {m for m in loaded if m.split(".")[0] in ("numpy", "wgpu", "wgpudawn")}
    assert not {m for m in loaded if m.startswith(("coop_lsp.runner", "coop_lsp.devices.tint", "coop_lsp.devices.live"))}
