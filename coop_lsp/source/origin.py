"""Where each byte of generated WGSL came from.

A template becomes WGSL by copying source text, dropping directive lines and
writing macro values in place of macro names. The map records that as a
sorted list of pieces: a piece copied verbatim maps byte for byte, a piece
that was generated (a macro's value, a placeholder's value, the blank line
left by a directive) maps to the source range that produced it. Positions of
diagnostics, fixes, hover and navigation go through `locate` and `span`.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path

from ..core.text import Span


@dataclass(frozen=True, slots=True)
class Piece:
    out_start: int
    out_end: int
    file: int  # index into OriginMap.files
    src_start: int
    src_end: int
    verbatim: bool  # copied unchanged: byte-for-byte mapping
    # Generated text that no compiler would accept as written (a placeholder with no value): what
    # the checks say about it repeats the template layer's own finding.
    unresolved: bool = False


@dataclass(slots=True)
class OriginMap:
    files: list[Path | None] = field(default_factory=list)  # 0: the linted file
    pieces: list[Piece] = field(default_factory=list)
    _starts: list[int] = field(default_factory=list, repr=False)
    identity_length: int | None = None  # set for a plain file: every offset maps to itself in file 0

    @classmethod
    def identity(cls, path: Path | None, length: int) -> "OriginMap":
        return cls([path], [], [], length)

    @property
    def is_identity(self) -> bool:
        return self.identity_length is not None

    def add(self, piece: Piece) -> None:
        if piece.out_end <= piece.out_start:
            return
        last = self.pieces[-1] if self.pieces else None
        if (last is not None and last.verbatim and piece.verbatim and last.file == piece.file
                and last.out_end == piece.out_start and last.src_end == piece.src_start and not last.unresolved
                and not piece.unresolved):
            self.pieces[-1] = Piece(last.out_start, piece.out_end, last.file, last.src_start, piece.src_end, True)
            return
        self.pieces.append(piece)
        self._starts.append(piece.out_start)

    def piece_at(self, offset: int) -> Piece | None:
        if self.is_identity or not self.pieces:
            return None
        index = bisect.bisect_right(self._starts, offset) - 1
        if index < 0:
            return self.pieces[0]
        piece = self.pieces[index]
        if offset >= piece.out_end and index + 1 < len(self.pieces) and offset >= self.pieces[index + 1].out_start:
            return self.pieces[index + 1]
        return piece

    def locate(self, offset: int, end: bool = False) -> tuple[int, int]:
        """(file index, source offset) of an output offset; `end` treats it as the end of a range."""
        if self.is_identity:
            return 0, max(0, min(offset, self.identity_length))
        if not self.pieces:
            return 0, 0
        probe = offset - 1 if end and offset > 0 else offset
        piece = self.piece_at(probe)
        if piece is None:
            return 0, 0
        if piece.verbatim:
            delta = max(0, min(offset - piece.out_start, piece.src_end - piece.src_start))
            return piece.file, piece.src_start + delta
        return piece.file, (piece.src_end if end and offset > piece.out_start else piece.src_start)

    def span(self, span: Span) -> tuple[int, Span]:
        """The file and source range of an output range; a range that crosses files keeps its start's file."""
        file, start = self.locate(span.start)
        if span.end == span.start:
            return file, Span(start, start)
        end_file, end = self.locate(span.end, end=True)
        if end_file != file or end < start:
            piece = self.piece_at(span.start)
            end = piece.src_end if piece is not None else start
            end = max(end, start)
        return file, Span(start, end)

    def verbatim_span(self, span: Span) -> tuple[int, Span] | None:
        """The source range of an output range copied unchanged, or None (a fix may only edit such text)."""
        if self.is_identity:
            return 0, span
        piece = self.piece_at(span.start)
        if piece is None or not piece.verbatim:
            return None
        if span.end > piece.out_end and not (span.end == span.start):
            return None
        offset = piece.src_start - piece.out_start
        return piece.file, Span(span.start + offset, span.end + offset)

    def unresolved(self, span: Span) -> bool:
        piece = self.piece_at(span.start)
        return piece is not None and piece.unresolved

    def output_offset(self, file: int, offset: int) -> int | None:
        """The first output offset that a source offset produced (for hover and navigation), or None."""
        if self.is_identity:
            return offset if file == 0 else None
        for piece in self.pieces:
            if piece.file == file and piece.src_start <= offset < max(piece.src_end, piece.src_start + 1):
                return piece.out_start + (offset - piece.src_start if piece.verbatim else 0)
        return None
