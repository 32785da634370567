"""Answering `initialize` before the server is imported.

pygls and lsprotocol take about 0.2-0.5 s to import, most of it building
lsprotocol's hundreds of message classes; the editor waits for the answer to
`initialize` before it sends anything else. So over stdio the command line
starts importing the server in a thread, reads the first message itself, and
if it is `initialize` answers it from `capabilities` (plain data, the same
answer pygls computes). The message is then replayed to pygls, which sets up
its workspace and runs the server's own `initialize` handler as usual; its
response to that request id is dropped (`CoopProtocol.answered_early`).
"""

from __future__ import annotations

import io
import json
from typing import BinaryIO

from .capabilities import initialize_result


def read_message(stream: BinaryIO) -> tuple[bytes, dict | None]:
    """The first message's raw bytes (headers included) and its JSON body, or None if it is not one we read.
    `stream` may be unbuffered (stdin's raw file): nothing past the message is read."""
    raw = bytearray()
    length = None
    while True:
        line = stream.readline()
        raw += line
        if not line:
            return bytes(raw), None
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii", errors="replace").partition(":")
        if name.strip().lower() == "content-length" and value.strip().isdigit():
            length = int(value.strip())
    if length is None:
        return bytes(raw), None
    body = bytearray()
    while len(body) < length:  # a raw file gives what the pipe holds: the body may come in parts
        part = stream.read(length - len(body))
        if not part:
            break
        body += part
    raw += body
    try:
        message = json.loads(body)
    except ValueError:
        return bytes(raw), None
    return bytes(raw), message if isinstance(message, dict) else None


def answer_initialize(message: dict | None, out: BinaryIO) -> object | None:
    """Writes the answer if `message` is an initialize request; returns its id (None: nothing answered)."""
    if message is None or message.get("method") != "initialize" or "id" not in message:
        return None
    params = message.get("params")
    if not _plausible(params):
        return None  # malformed: pygls answers it with the error it deserves
    body = json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": initialize_result(params)})
    out.write(f"Content-Length: {len(body)}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"
              .encode("ascii") + body.encode("ascii"))
    out.flush()
    return message["id"]


def _plausible(params) -> bool:
    """Whether pygls will accept these params (when unsure, leave the answer to pygls: slower, never wrong)."""
    if not isinstance(params, dict) or not isinstance(params.get("capabilities"), dict):
        return False
    expected = {"processId": int, "rootUri": str, "rootPath": str, "workspaceFolders": list, "locale": str,
                "clientInfo": dict, "trace": str}
    for name, kind in expected.items():
        value = params.get(name)
        if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
            return False
    folders = params.get("workspaceFolders") or []
    return all(isinstance(f, dict) and isinstance(f.get("uri"), str) and isinstance(f.get("name"), str)
               for f in folders)


class Replay:
    """A binary stream that gives `first` again before the rest of `stream` (for the server's reader,
    stdio.MessageReader, which reads in whatever pieces a stream gives, or has the event loop watch
    `stream` once it has taken `unread()`)."""

    def __init__(self, first: bytes, stream: BinaryIO) -> None:
        self._first = io.BytesIO(first)
        self._left = len(first)
        self.stream = stream

    def read_some(self, size: int) -> bytes:
        """What is left of `first`, else one read of the stream (on a raw file: what it holds, at least a
        byte unless it has ended); never waits for more once it has something."""
        if self._left:
            chunk = self._first.read(min(size, self._left))
            self._left -= len(chunk)
            return chunk
        return self.stream.read(size)

    def unread(self) -> bytes:
        """What is left of `first`, all of it: the stream's own bytes come next."""
        chunk = self._first.read(self._left)
        self._left = 0
        return chunk

    def close(self) -> None:
        self.stream.close()
