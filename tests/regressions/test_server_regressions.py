"""Server bugs found by the stress tests (tests/fuzz/test_server_stress.py), xfail(strict=True) while open."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fuzz.lsp import RawServer
from tests.fuzz.test_server_stress import ClientDocument, actual, expected_diagnostics

HERE = Path(__file__).resolve().parent


def test_edit_in_a_document_with_lone_cr_line_endings():
    text = (HERE / "server_lone_cr_line_endings.wgsl").read_bytes().decode()
    uri = "file:///virtual/cr.wgsl"
    server = RawServer()
    try:
        server.initialize()
        server.open(uri, text)
        document = ClientDocument(text)
        at = text.index("1;")
        server.change(uri, 2, [document.edit(at, at + 1, "2")])  # line 1, character 10 for the client
        assert actual(server.diagnostics_for(uri, 2)) == expected_diagnostics(document.text)
    finally:
        server.shutdown()


def test_exit_without_shutdown_exits_with_status_1():
    server = RawServer()
    try:
        server.initialize()
        server.notify("exit", None)
        # Generous: the server handles `exit` only once its slow imports are done (lsprotocol's types alone
        # take about a second of CPU), and on a loaded 2-core CI machine that took more than 5 s. A server
        # that never exits still fails.
        assert server.wait(timeout=60) == 1
    finally:
        server.kill()
