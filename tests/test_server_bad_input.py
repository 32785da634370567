"""The server over raw stdio: malformed JSON-RPC gets the protocol's errors and the server keeps serving."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from benchmarks.lsp_stdio import StdioClient, frame, read_message

URI = "file:///virtual/bad.wgsl"
TEXT = "@compute @workgroup_size(1)\nfn main() {\n  let answer = 42u;\n  let twice = answer * 2u;\n}\n"


class RawClient(StdioClient):
    def __init__(self) -> None:
        super().__init__(subprocess.Popen([sys.executable, "-m", "coop_lsp.server.main"], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL))


@pytest.fixture
def raw():
    client = RawClient()
    client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}}, id_=1)
    client.notify("initialized", {})
    client.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "wgsl", "version": 1,
                                                            "text": TEXT}})
    yield client
    try:
        client.request("shutdown", None, id_=999)
        client.notify("exit", None)
        client.process.wait(timeout=10)
    finally:
        if client.process.poll() is None:
            client.process.kill()


def hover(raw: RawClient, id_, line: int, character: int, uri: str = URI) -> dict:
    return raw.request("textDocument/hover", {"textDocument": {"uri": uri},
                                              "position": {"line": line, "character": character}}, id_)


def test_malformed_messages_get_errors_and_the_server_survives(raw: RawClient):
    raw.send_bytes(b'{"jsonrpc": "2.0", "id": 2, "method": ')  # not JSON
    parse_error = raw.response(None)
    assert parse_error["error"]["code"] == -32700
    assert raw.request("coop/unknown", {}, 3)["error"]["code"] == -32601
    bad = raw.request("textDocument/hover", {"textDocument": {"uri": URI}}, 4)  # no position
    assert bad["error"]["code"] in (-32602, -32603)
    bad = raw.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": -1}}, 5)
    assert "error" in bad
    ok = hover(raw, 6, 3, 16)  # `answer` in `answer * 2u`
    assert "let answer: u32" in ok["result"]["contents"]["value"]


def test_out_of_range_and_split_surrogates(raw: RawClient):
    assert hover(raw, 2, 500, 3)["result"] is None
    assert "error" not in hover(raw, 3, 2, 10_000)
    # An emoji is two UTF-16 units; an edit that starts between them must not corrupt the document.
    raw.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 2}, "contentChanges": [
        {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "// 😀\n"}]})
    raw.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 3}, "contentChanges": [
        {"range": {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 4}}, "text": "x"}]})
    result = hover(raw, 4, 4, 16)
    assert "let answer: u32" in result["result"]["contents"]["value"]


def test_requests_for_unopened_documents_and_edits_to_them(raw: RawClient):
    assert hover(raw, 2, 0, 0, uri="file:///nowhere/else.wgsl")["result"] is None
    raw.notify("textDocument/didChange", {"textDocument": {"uri": "file:///nowhere/else.wgsl", "version": 2},
                                          "contentChanges": [{"text": "garbage"}]})
    assert "let answer" in hover(raw, 3, 3, 16)["result"]["contents"]["value"]


def test_cancelled_request_gets_request_cancelled(raw: RawClient):
    from benchmarks.common import synthetic_kernel

    uri = "file:///virtual/big.wgsl"
    raw.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "wgsl", "version": 1,
                                                         "text": synthetic_kernel(lines=3000)}})
    raw.send({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
              "params": {"textDocument": {"uri": uri}, "position": {"line": 10, "character": 4}}})
    raw.notify("$/cancelRequest", {"id": 2})
    assert raw.response(2)["error"]["code"] == -32800
    assert "let answer: u32" in hover(raw, 3, 3, 16)["result"]["contents"]["value"]


def test_tcp_option():
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-m", "coop_lsp.server.main", "--tcp", f"127.0.0.1:{port}"],
                               stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                connection = socket.create_connection(("127.0.0.1", port), timeout=5)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        with connection:
            connection.sendall(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                      "params": {"processId": None, "rootUri": None, "capabilities": {}}}))
            reply = connection.makefile("rb")
            assert "hoverProvider" in read_message(reply)["result"]["capabilities"]
    finally:
        process.kill()
        process.wait()
