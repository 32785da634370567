"""The WGSL being written, piece by piece, with the origin of each piece."""

from __future__ import annotations

from ..core.text import Span
from .origin import OriginMap, Piece

MAX_OUTPUT_BYTES = 16 << 20


class Output:
    def __init__(self) -> None:
        self.chunks: list[bytes] = []
        self.size = 0
        self.origins = OriginMap()
        self._run: Piece | None = None

    def copy(self, file: int, data: bytes, start: int, end: int) -> None:
        if end > start:
            self._write(data[start:end], Piece(self.size, self.size + end - start, file, start, end, True))

    def newlines(self, file: int, count: int, at: int) -> None:
        """Line breaks left by directives and left-out lines; a run of them maps to its first line's end."""
        if count <= 0:
            return
        pieces = self.origins.pieces
        last = pieces[-1] if pieces else None
        if last is not None and self._run is last and last.file == file:
            if self.size + count > MAX_OUTPUT_BYTES:
                raise TooLarge()
            self.chunks.append(b"\n" * count)
            self.size += count
            pieces[-1] = self._run = Piece(last.out_start, self.size, file, last.src_start, last.src_end, False)
            return
        self._write(b"\n" * count, Piece(self.size, self.size + count, file, at, at, False))
        self._run = self.origins.pieces[-1]

    def generated(self, file: int, text: bytes, src: Span, unresolved: bool = False) -> None:
        if text:
            self._write(text, Piece(self.size, self.size + len(text), file, src.start, src.end, False, unresolved))

    def _write(self, text: bytes, piece: Piece) -> None:
        if self.size + len(text) > MAX_OUTPUT_BYTES:
            raise TooLarge()
        self.chunks.append(text)
        self.size += len(text)
        self.origins.add(piece)


class TooLarge(Exception):
    pass

