"""LSP's framing over a byte stream (a Content-Length header, a blank line, the JSON body), and a blocking
client of the real server's pipes, for the benchmarks and tests that drive the server as an editor does
but must see its bytes: the server's own reading and writing stay in what they measure or check."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(stream) -> dict:
    """The next message on `stream` (anything with readline and read); EOFError once it has ended."""
    length = None
    while True:
        line = stream.readline()
        if not line:
            raise EOFError("the server closed its output")
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(stream.read(length))


class StdioClient:
    """A synchronous client over a server process's stdin and stdout. It answers any request the server
    makes with null, and keeps the versions of each publishDiagnostics it reads (`published`, per uri, in
    the order they came)."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.process = process
        self.next_id = 0
        self.published: dict[str, list] = {}

    def send_bytes(self, body: bytes) -> None:
        """`body` framed as it is (it need not be JSON)."""
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def send(self, message: dict) -> None:
        self.send_bytes(json.dumps(message).encode())

    def read(self) -> dict:
        message = read_message(self.process.stdout)
        if message.get("method") == "textDocument/publishDiagnostics" and "id" not in message:
            params = message.get("params") or {}
            self.published.setdefault(params.get("uri"), []).append(params.get("version"))
        return message

    def notify(self, method: str, params) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params, id_=None) -> dict:
        """Sends a request (numbered in turn unless `id_` is given) and waits for its response."""
        if id_ is None:
            self.next_id += 1
            id_ = self.next_id
        self.send({"jsonrpc": "2.0", "id": id_, "method": method, "params": params})
        return self.response(id_)

    def response(self, id_) -> dict:
        return self.until(lambda m: m.get("id") == id_ and "method" not in m)

    def until(self, wanted: Callable[[dict], bool]) -> dict:
        while True:
            message = self.read()
            if "id" in message and "method" in message:
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            if wanted(message):
                return message

    def diagnostics(self, uri: str, version: int) -> dict:
        """Waits for the publishDiagnostics of `uri`'s `version`."""
        return self.until(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"]["uri"] == uri and m["params"].get("version") == version)
