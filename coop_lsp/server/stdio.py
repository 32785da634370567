"""Reading the client's messages on a thread of our own, and the message loop that hands them to pygls.

pygls reads stdin through the event loop's executor, one `readline` per header line and one `read` for the
body: four thread hand-offs per message, and each waits for the GIL when the analysis thread is checking
(up to the interpreter's switch interval, 5 ms, every time). Here one thread reads whole messages and
passes each body to the loop at once, and `serve` is pygls's message loop (pygls.io_.run_async) over those
bodies: the thread reads headers by the same rules, so a header pygls would skip, malformed or not, is
skipped here too, and each body is decoded and handled as pygls would (incoming.Decoder), its errors
reported the same way. pygls's loop read each message back from memory a line at a time, with a
coroutine step and a queue's wake-up for each, and built a JSON decoder per message.
"""

from __future__ import annotations

import asyncio
import io
import re
import threading
from collections import deque
from typing import BinaryIO

from pygls.exceptions import JsonRpcException

from .incoming import Decoder
from .trace import mark

# pygls's rule for the header that gives the body's length (pygls.io_.run_async).
_CONTENT_LENGTH = re.compile(rb"^Content-Length: (\d+)\r\n$")


class MessageReader:
    """The bodies of the client's messages, read ahead by a thread, in order."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._loop: asyncio.AbstractEventLoop | None = None
        self._arrived: deque[tuple[tuple[int, ...], bytes]] = deque()
        self._waiter: asyncio.Future | None = None

    async def message(self) -> tuple[tuple[int, ...], bytes]:
        """The next message: the lengths its headers gave as pygls logs them (a Content-Length of 0 is
        logged and read as no length), and its body (shorter where the stream ended inside it); a body of b""
        once the stream has ended, with the lengths of the headers read since the last body."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            threading.Thread(target=self._read, args=(self._loop,), name="coop-stdin", daemon=True).start()
        while not self._arrived:
            self._waiter = self._loop.create_future()
            await self._waiter
        lengths, body = self._arrived[0]
        if body:
            self._arrived.popleft()
        else:
            self._arrived[0] = ((), body)  # the end stays: it answers every later call
        return lengths, body

    def _arrive(self, message: tuple[tuple[int, ...], bytes]) -> None:
        """On the loop."""
        self._arrived.append(message)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _read(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the reader thread: each message's body to the loop, then b"" when the stream ends. A line
        before a Content-Length header is skipped, as pygls skips it; so are the headers of a message the
        stream ends in, whose body pygls would never read."""
        def post(lengths: list[int], body: bytes) -> bool:
            try:
                loop.call_soon_threadsafe(self._arrive, (tuple(lengths), body))
            except RuntimeError:  # the loop has closed: no one reads any more
                return False
            return True

        stream = _Chunked(self._stream)
        length, lengths = 0, []
        try:
            while True:
                line = stream.readline()
                if not line:
                    break
                if not length and (match := _CONTENT_LENGTH.fullmatch(line)):
                    length = int(match.group(1))
                    lengths.append(length)
                if not length or line.strip():
                    continue
                body = stream.read(length)
                mark("read")
                whole = len(body) == length
                sent = post(lengths, body)
                length, lengths = 0, []
                if not (sent and whole):
                    break
        except (OSError, ValueError):
            pass  # stdin closed under us: the end of the stream
        post(lengths, b"")


async def serve(reader: MessageReader, protocol, stop_event: threading.Event, logger,
                error_handler=None) -> None:
    """pygls's message loop over `reader`'s bodies, until the stream ends or `stop_event` is set."""
    decoder = Decoder(protocol.structure_message)
    while not stop_event.is_set():
        lengths, body = await reader.message()
        for length in lengths:
            logger.debug("Content length: %s", length)
        if not body:
            break
        try:
            protocol.handle_message(decoder.message(body))
        except Exception as error:  # noqa: BLE001 - as pygls: reported, and the loop goes on
            logger.exception("Unable to handle message")
            if error_handler:
                error_handler(error, JsonRpcException)


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
