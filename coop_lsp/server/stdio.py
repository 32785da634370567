"""Reading the client's messages on a thread of our own, one hand-off to the event loop per message.

pygls reads stdin through the event loop's executor, one `readline` per header line and one `read` for the
body: four thread hand-offs per message, and each waits for the GIL when the analysis thread is checking
(up to the interpreter's switch interval, 5 ms, every time). Here one thread reads whole messages and
passes each to the loop at once; pygls's own message loop then reads the same bytes from memory, so what
it makes of them, malformed headers included, does not change.
"""

from __future__ import annotations

import asyncio
import io
import re
import threading
from typing import BinaryIO

from .trace import mark

# pygls's rule for the header that gives the body's length (pygls.io_.run_async).
_CONTENT_LENGTH = re.compile(rb"^Content-Length: (\d+)\r\n$")


class MessageReader:
    """pygls's asynchronous reader (`readline`, `readexactly`) over messages read ahead by a thread."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._chunks: asyncio.Queue | None = None
        self._buffer = b""
        self._at = 0
        self._ended = False

    async def readline(self) -> bytes:
        parts = []
        while await self._fill():
            end = self._buffer.find(b"\n", self._at)
            stop = len(self._buffer) if end < 0 else end + 1
            parts.append(self._buffer[self._at:stop])
            self._at = stop
            if end >= 0:
                break
        return b"".join(parts)

    async def readexactly(self, n: int) -> bytes:
        parts = []
        while n > 0 and await self._fill():
            part = self._buffer[self._at:self._at + n]
            self._at += len(part)
            n -= len(part)
            parts.append(part)
        return b"".join(parts)

    async def _fill(self) -> bool:
        """Whether unread bytes are at hand (False once the stream has ended)."""
        if self._chunks is None:
            self._chunks = asyncio.Queue()
            threading.Thread(target=self._read, args=(asyncio.get_running_loop(), self._chunks),
                             name="coop-stdin", daemon=True).start()
        while self._at >= len(self._buffer) and not self._ended:
            chunk = await self._chunks.get()
            if not chunk:
                self._ended = True
            self._buffer, self._at = chunk, 0
        return not self._ended or self._at < len(self._buffer)

    def _read(self, loop: asyncio.AbstractEventLoop, chunks: asyncio.Queue) -> None:
        """On the reader thread: whole messages (headers and body) to the loop; b"" when the stream ends.
        A line pygls would skip (no length yet) goes over on its own, as pygls would see it."""
        def post(data: bytes) -> bool:
            try:
                loop.call_soon_threadsafe(chunks.put_nowait, data)
            except RuntimeError:  # the loop has closed: no one reads any more
                return False
            return True

        stream = _Chunked(self._stream)
        length, headers = 0, []
        try:
            while True:
                line = stream.readline()
                if not line:
                    break
                if not length and (match := _CONTENT_LENGTH.fullmatch(line)):
                    length = int(match.group(1))
                if not length:
                    if not post(line):
                        return
                    continue
                headers.append(line)
                if line.strip():
                    continue
                body = stream.read(length)
                mark("read")
                if not post(b"".join(headers) + body) or len(body) < length:
                    headers = []
                    break
                length, headers = 0, []
        except (OSError, ValueError):
            pass  # stdin closed under us: the end of the stream
        if headers:
            post(b"".join(headers))
        post(b"")


class _Chunked:
    """Lines and exact reads over a stream read in whatever pieces it gives: the main program hands over
    stdin's raw file (a Replay of it), whose reads hold no lock that a blocked read could keep at exit."""

    def __init__(self, stream) -> None:
        if hasattr(stream, "read_some"):
            self._read = stream.read_some
        elif isinstance(stream, io.RawIOBase) or not hasattr(stream, "read1"):
            self._read = stream.read
        else:
            self._read = stream.read1
        self._data = bytearray()

    def _more(self) -> bool:
        part = self._read(65536)
        if not part:
            return False
        self._data += part
        return True

    def readline(self) -> bytes:
        start = 0
        while (end := self._data.find(b"\n", start)) < 0:
            start = len(self._data)
            if not self._more():
                end = len(self._data) - 1
                break
        line = bytes(self._data[:end + 1])
        del self._data[:end + 1]
        return line

    def read(self, n: int) -> bytes:
        while len(self._data) < n and self._more():
            pass
        chunk = bytes(self._data[:n])
        del self._data[:n]
        return chunk
