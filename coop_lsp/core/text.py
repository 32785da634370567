"""Source text and the three position systems that meet in a language tool.

tree-sitter counts UTF-8 bytes, people count characters, and LSP counts
UTF-16 code units. Everything inside coop-lsp is a byte offset into the
UTF-8 encoding; conversions happen here and only here.
"""

from __future__ import annotations

import bisect
import re
from itertools import accumulate
from dataclasses import dataclass, field

_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_UNITS = frozenset(("byte", "char", "utf16"))


@dataclass(frozen=True, slots=True)
class Span:
    """A half-open byte range [start, end) in the UTF-8 encoding of a source."""

    start: int
    end: int

    def __post_init__(self) -> None:
        if self.start < 0 or self.end < self.start:
            raise ValueError(f"invalid span {self.start}..{self.end}")

    def contains(self, offset: int) -> bool:
        return self.start <= offset < self.end or (self.start == self.end == offset)


# A Span's two fields set through their slots, as the constructor stores them but without the frozen class's
# __setattr__ guard and the bounds check: for the semantic layer's many spans of a node's offsets (always
# valid), made as `object.__new__(Span)` and these two; object.__setattr__ took twice as long.
SET_SPAN_START = Span.__dict__["start"].__set__
SET_SPAN_END = Span.__dict__["end"].__set__


@dataclass(frozen=True, slots=True)
class Position:
    """A zero-based line and a zero-based column, in the unit the caller asked for."""

    line: int
    column: int


@dataclass(slots=True)
class SourceText:
    """Decoded source plus a line index for offset conversions.

    `decode_error` is set when the original bytes were not valid UTF-8; the
    text then holds U+FFFD in place of each bad sequence, so that positions
    still line up with what an editor shows.
    """

    text: str
    data: bytes = field(init=False)
    decode_error: int | None = None  # byte offset of the first invalid sequence
    _starts: list[int] | None = field(init=False, repr=False, default=None)
    # Whether the bytes hold a "\r" (None: not looked yet). An edit's text inherits a "no" when neither the
    # text nor the inserted bytes hold one: a keystroke then scans the whole text for it not at all (tree-sitter's
    # points and the line starts ask three or four times per edit).
    _carriage_return: bool | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        self.data = self.text.encode("utf-8", errors="surrogatepass")

    @property
    def _line_starts(self) -> list[int]:
        # Built on first use: a file coop-lint answers from its cache, with no findings, never needs it.
        if self._starts is None:
            # Lines end at "\r\n", "\n" or a lone "\r", as in LSP and in WGSL.
            if self.has_carriage_return():
                self._starts = [0, *(match.end() for match in _LINE_BREAK.finditer(self.data))]
            else:
                lines = self.data.split(b"\n")
                self._starts = [0, *accumulate(map((1).__add__, map(len, lines[:-1])))]
        return self._starts

    def has_carriage_return(self) -> bool:
        if self._carriage_return is None:
            self._carriage_return = has_carriage_return(self.data)
        return self._carriage_return

    def edited(self, start: int, end: int, inserted: bytes) -> "SourceText":
        """This text with the bytes [start, end) replaced by `inserted`. An editor sends an edit per
        keystroke: the line starts follow from this text's, where it has them, instead of a count over the
        whole text (positions convert through them for every diagnostic published)."""
        # One copy of the whole text (through views), not three (two slices and their sum).
        whole = memoryview(self.data)
        data = b"".join((whole[:start], inserted, whole[end:]))
        whole.release()
        # Decoded again in full: splicing the old text's pieces instead costs three copies of it, more than
        # the decoder's pass (which, for ASCII, copies as it checks).
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return SourceText(data.decode("utf-8", errors="replace"))  # as a fresh text of these bytes
        edited = SourceText.__new__(SourceText)
        # A strict decode encodes back to the same bytes: no second encoding of the whole text.
        edited.text, edited.data, edited.decode_error, edited._starts = text, data, None, None
        plain_breaks = not self.has_carriage_return() and not has_carriage_return(inserted)
        edited._carriage_return = False if plain_breaks else None
        starts = self._starts
        if starts is not None and plain_breaks:
            # "\n" breaks only: starts up to `start` stay, those whose break was replaced go, the inserted
            # breaks come in, and the rest move by the change in length.
            kept, moved = bisect.bisect_right(starts, start), bisect.bisect_right(starts, end)
            shift = len(inserted) - (end - start)
            new = starts[:kept]
            at = inserted.find(b"\n")
            while at >= 0:
                new.append(start + at + 1)
                at = inserted.find(b"\n", at + 1)
            # (map: the lines after the edit moved in C, not a step of Python each)
            new += map(shift.__add__, starts[moved:]) if shift else starts[moved:]
            edited._starts = new
        return edited

    @classmethod
    def from_bytes(cls, raw: bytes) -> "SourceText":
        try:
            return cls(raw.decode("utf-8"))
        except UnicodeDecodeError as error:
            return cls(raw.decode("utf-8", errors="replace"), decode_error=error.start)

    @property
    def line_count(self) -> int:
        return len(self._line_starts)

    def line_start(self, line: int) -> int:
        return self._line_starts[line]

    def line_end(self, line: int) -> int:
        """Byte offset of the end of `line`, excluding its line break."""
        if line + 1 < len(self._line_starts):
            end = self._line_starts[line + 1] - 1
            if self.data[end : end + 1] == b"\n" and end > self._line_starts[line] and \
                    self.data[end - 1 : end] == b"\r":
                end -= 1
            return end
        return len(self.data)

    def line_text(self, line: int) -> str:
        return self.data[self.line_start(line) : self.line_end(line)].decode("utf-8", errors="replace")

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self._line_starts, offset) - 1

    def position(self, offset: int, unit: str = "char") -> Position:
        """The line and column of a byte offset; `unit` is "byte", "char" or "utf16"."""
        return Position(*self.line_column(offset, unit))

    def line_column(self, offset: int, unit: str = "char") -> tuple[int, int]:
        """`position` as a plain pair (for the server, which converts every finding on every edit)."""
        offset = max(0, min(offset, len(self.data)))
        starts = self._line_starts
        line = bisect.bisect_right(starts, offset) - 1
        prefix = self.data[starts[line] : offset]
        if unit == "byte" or (prefix.isascii() and unit in _UNITS):  # ASCII: a byte is a character, a unit
            return line, len(prefix)
        decoded = prefix.decode("utf-8", errors="replace")
        if unit == "char":
            return line, len(decoded)
        if unit == "utf16":
            return line, _utf16_length(decoded)
        raise ValueError(f"unknown column unit {unit!r}")

    def offset(self, position: Position, unit: str = "char") -> int:
        """The byte offset of a line and column; positions past a line's end clamp to it."""
        if position.line < 0:
            return 0
        if position.line >= len(self._line_starts):
            return len(self.data)
        start = self._line_starts[position.line]
        end = self.line_end(position.line)
        if unit == "byte":
            return min(start + max(position.column, 0), end)
        line = self.data[start:end].decode("utf-8", errors="replace")
        if unit == "char":
            prefix = line[: max(position.column, 0)]
        elif unit == "utf16":
            # (ASCII: a unit is a character, as _utf16_prefix would count one by one)
            prefix = line[: max(position.column, 0)] if line.isascii() else _utf16_prefix(line, position.column)
        else:
            raise ValueError(f"unknown column unit {unit!r}")
        return start + len(prefix.encode("utf-8", errors="surrogatepass"))

    def slice(self, span: Span) -> str:
        return self.data[span.start : span.end].decode("utf-8", errors="replace")


def has_carriage_return(data: bytes) -> bool:
    """Whether `data` holds a "\r". Not `b"\r" in data`: bytes' `in` first tries its operand as a byte value,
    and for a bytes operand makes and drops a TypeError, its message formatted, on every call (five per
    keystroke, each before a scan of the whole text)."""
    return data.find(b"\r") >= 0


def _utf16_length(text: str) -> int:
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in text)


def _utf16_prefix(text: str, units: int) -> str:
    count = 0
    for index, ch in enumerate(text):
        width = 2 if ord(ch) > 0xFFFF else 1
        if count + width > units:
            return text[:index]
        count += width
    return text


def index_ranges(values: list[int]) -> str:
    """Sorted indices written as runs, "0-3,8,10-11": lanes and rows in run reports and editor hints."""
    parts, start = [], None
    for i, v in enumerate(values):
        if start is None:
            start = v
        if i + 1 == len(values) or values[i + 1] != v + 1:
            parts.append(str(start) if start == v else f"{start}-{v}")
            start = None
    return ",".join(parts)
