"""Reading the client's messages, and the message loop that hands them to pygls.

pygls reads stdin through the event loop's executor, one `readline` per header line and one `read` for the
body: four thread hand-offs per message, and each waits for the GIL when the analysis thread is checking
(up to the interpreter's switch interval every time). Here no thread is needed where stdin is a pipe or a
socket (what an editor gives a language server): the event loop watches it (`add_reader`) and reads what it
holds once it is readable, so a keystroke's message wakes one thread, the one that handles it. Elsewhere (a
file or a terminal, whose readiness a selector may not report, a buffered stream, Windows's loop) one
thread reads and passes each message's body to the loop, as before.

The messages are framed by pygls's rules (pygls.io_.run_async): a header pygls would skip, malformed or
not, is skipped here too, and `serve` handles each body as pygls's loop would (incoming.Decoder), its errors
reported the same way. pygls's loop read each message back from memory a line at a time, with a coroutine
step and a queue's wake-up for each, and built a JSON decoder per message; `serve` handles the bodies in the
callback that read them, without waking a task for each.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import stat
import threading
from collections.abc import Callable
from typing import BinaryIO

from pygls.exceptions import JsonRpcException

from .incoming import Decoder
from .trace import mark

# pygls's rule for the header that gives the body's length (pygls.io_.run_async).
_CONTENT_LENGTH = re.compile(rb"^Content-Length: (\d+)\r\n$")
_CHUNK = 65536

Message = tuple[tuple[int, ...], bytes]
"""The lengths a message's headers gave, as pygls logs them (a Content-Length of 0 is logged and read as no
length), and its body (shorter where the stream ended inside it); a body of b"" says the stream ended, with
the lengths of the headers read since the last body."""


class _Framer:
    """The messages of a byte stream fed in whatever pieces it comes in. A line before a Content-Length
    header is skipped, as pygls skips it; so are the headers of a message the stream ends in, whose body
    pygls would never read."""

    def __init__(self) -> None:
        self._data = bytearray()
        self._length = 0
        self._lengths: list[int] = []
        self._in_body = False  # the blank line after a length was read: the next bytes are the body
        self.ended = False

    def feed(self, part: bytes) -> list[Message]:
        """The messages `part` completes; b"" says the stream has ended (then the last one has a body of
        b"", as has the one after a body the end cut short)."""
        if self.ended:
            return []
        closing = not part
        data = self._data
        if part:
            data += part
        found: list[Message] = []
        while True:
            if self._in_body:
                length = self._length
                if len(data) < length and not closing:
                    return found
                body = bytes(data[:length])
                del data[:length]
                mark("read")
                found.append((tuple(self._lengths), body))
                self._length, self._lengths, self._in_body = 0, [], False
                if len(body) < length:
                    return self._end(found)
                continue
            end = data.find(b"\n")
            if end < 0:
                if not closing:
                    return found
                end = len(data) - 1  # the stream's last line, without its line break (b"" if none is left)
            line = bytes(data[:end + 1])
            del data[:end + 1]
            if not line:
                return self._end(found)
            if not self._length and (match := _CONTENT_LENGTH.fullmatch(line)):
                self._length = int(match.group(1))
                self._lengths.append(self._length)
            if self._length and not line.strip():
                self._in_body = True

    def broken(self) -> list[Message]:
        """The stream failed (closed under its reader): what was read of an unfinished message is dropped."""
        return [] if self.ended else self._end([])

    def _end(self, found: list[Message]) -> list[Message]:
        found.append((tuple(self._lengths), b""))
        self.ended = True
        self._data.clear()
        return found


class MessageReader:
    """The client's messages, read from `stream` and handed over on the event loop, in order."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._loop: asyncio.AbstractEventLoop | None = None
        self._framer = _Framer()
        self._handle: Callable[[tuple[int, ...], bytes], bool] | None = None
        self._finished: asyncio.Future | None = None
        self._watched: int | None = None  # the descriptor the loop watches, while it does
        self.threaded = False  # whether a thread reads (the stream could not be watched)

    async def each(self, handle: Callable[[tuple[int, ...], bytes], bool]) -> None:
        """Calls `handle(lengths, body)` on the loop for every message (see `Message`; b"" once the stream
        has ended) until it returns False. An exception from `handle` ends the reading and is raised here,
        except SystemExit and KeyboardInterrupt, which leave the loop at once (as from a task)."""
        loop = self._loop = asyncio.get_running_loop()
        self._handle, self._finished = handle, loop.create_future()
        if not self._watch(loop):
            self.threaded = True
            threading.Thread(target=self._read, args=(loop,), name="coop-stdin", daemon=True).start()
        try:
            await self._finished
        finally:
            self._unwatch()

    def _deliver(self, messages: list[Message]) -> None:
        """On the loop."""
        finished = self._finished
        for lengths, body in messages:
            if finished.done():
                return  # the handler asked for no more, or failed: nothing after that is handled
            try:
                more = self._handle(lengths, body)
            except (SystemExit, KeyboardInterrupt):
                finished.cancel()
                self._unwatch()
                raise
            except BaseException as error:  # noqa: BLE001 - raised in `each`, as the old loop's task raised it
                finished.set_exception(error)
                return
            if not more:
                finished.set_result(None)

    # ------------------------------------------------------------ read by the event loop
    def _watch(self, loop: asyncio.AbstractEventLoop) -> bool:
        fd = _watchable(self._stream)
        if fd is None:
            return False
        replayed = getattr(self._stream, "unread", None)
        pending = replayed() if replayed is not None else b""  # bytes read before the server started
        try:
            loop.add_reader(fd, self._readable)
        except (NotImplementedError, OSError, ValueError, RuntimeError):
            if pending:
                self._stream = _Prefixed(pending, self._stream)
            return False  # a loop without readiness for it (Windows's): the thread reads
        self._watched = fd
        if pending:
            loop.call_soon(self._deliver, self._framer.feed(pending))
        return True

    def _unwatch(self) -> None:
        if self._watched is not None:
            self._loop.remove_reader(self._watched)
            self._watched = None

    def _readable(self) -> None:
        """The loop's callback when stdin holds bytes (or has ended): one read takes what it holds."""
        try:
            part = os.read(self._watched, _CHUNK)
        except (BlockingIOError, InterruptedError):
            return  # nothing after all: a descriptor the client made non-blocking
        except OSError:
            found = self._framer.broken()
        else:
            found = self._framer.feed(part)
        if self._framer.ended:
            self._unwatch()
        self._deliver(found)

    # ------------------------------------------------------------ read by a thread
    def _read(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the reader thread: the messages of each piece read, to the loop."""
        read = _reading(self._stream)
        framer = self._framer
        while not framer.ended:
            try:
                part = read(_CHUNK)
            except (OSError, ValueError):
                found = framer.broken()  # stdin closed under us: the end of the stream
            else:
                found = framer.feed(part or b"")  # (None: a non-blocking file with nothing now, read as the end)
            if found:
                try:
                    loop.call_soon_threadsafe(self._deliver, found)
                except RuntimeError:
                    return  # the loop has closed: no one reads any more


async def serve(reader: MessageReader, protocol, stop_event: threading.Event, logger,
                error_handler=None) -> None:
    """pygls's message loop over `reader`'s messages, until the stream ends or `stop_event` is set (seen
    after a message is handled, as pygls's loop sees it)."""
    decoder = Decoder(protocol.structure_message)

    def handle(lengths: tuple[int, ...], body: bytes) -> bool:
        for length in lengths:
            logger.debug("Content length: %s", length)
        if not body:
            return False
        try:
            protocol.handle_message(decoder.message(body))
        except Exception as error:  # noqa: BLE001 - as pygls: reported, and the loop goes on
            logger.exception("Unable to handle message")
            if error_handler:
                error_handler(error, JsonRpcException)
        return not stop_event.is_set()

    if not stop_event.is_set():
        await reader.each(handle)


def _watchable(stream) -> int | None:
    """The descriptor of `stream` that the event loop may watch in place of a reading thread: a pipe's or a
    socket's, read without a buffer of our own in between (bytes a buffer held would never make the
    descriptor readable again). A Replay (fast_start.py) counts as its raw stream."""
    if os.name != "posix":
        return None
    raw = getattr(stream, "stream", stream) if hasattr(stream, "unread") else stream
    if not isinstance(raw, io.RawIOBase):
        return None
    try:
        fd = raw.fileno()
        mode = os.fstat(fd).st_mode
    except (OSError, ValueError):
        return None
    return fd if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) else None


def _reading(stream) -> Callable[[int], bytes]:
    """One read of `stream` that gives what it holds (at least a byte unless it has ended): the main program
    hands over stdin's raw file (a Replay of it), whose reads hold no lock that a blocked read could keep
    at exit."""
    if hasattr(stream, "read_some"):
        return stream.read_some
    if isinstance(stream, io.RawIOBase) or not hasattr(stream, "read1"):
        return stream.read
    return stream.read1


class _Prefixed:
    """`first`, then the rest of `stream`: a Replay's bytes handed back after a watch that failed."""

    def __init__(self, first: bytes, stream) -> None:
        self._first, self._read = first, _reading(stream)

    def read_some(self, size: int) -> bytes:
        if self._first:
            chunk, self._first = self._first[:size], self._first[size:]
            return chunk
        return self._read(size)
