"""How far into a text the parser must have read before an error in its tree became certain.

The repairs that word a syntax error (`diagnostics._first_repair`) parse one window many times, each time with
a token inserted at a later point or the same. When one such parse keeps an error well before its insertion
point, every later candidate keeps an error there too, and need not be parsed. This module bounds the bytes
that decided that error; the argument, from tree-sitter's parse loop (lib/src/parser.c) and this grammar's
external scanner (tree-sitter-wgsl/src/scanner.c):

1. The parser's work is a function of the bytes it has read: each round advances every stack version (a
   version stops once it is past the previous version's position, or fails on its lookahead), then
   condenses the versions. Nothing in it depends on bytes not yet read.
2. An ERROR or MISSING node is made only by error handling, and error handling starts in a condense where
   the best version is paused on a token it cannot use. Beside a version with no error a paused one is
   always removed (`ts_parser__compare_versions`: it costs less and is not in error), so at that moment no
   error-free version is left: every version that survives carries an error, and errors are never removed
   from a version, only wrapped in larger ones.
   The first error handled starts at or before the lookahead d it was handled at.
3. Let E be the first error of the final tree and T the first token at or after E's end. The first error
   handled is inside E or is E, so d starts at or before T. In a round the first version stops once it is
   past where the last one stood in the round before, and each later one once it has caught up with the one
   before it, so none is more than one token past the one before it. At most MAX_VERSION_COUNT +
   MAX_VERSION_COUNT_OVERFLOW + 1 (11) versions advance (`ts_parser__reduce` drops the rest): with the
   lookahead each has lexed, every token read up to that condense lies within the 13 tokens from T on.
4. No token but a comment spans whitespace or the start of a comment, so each piece of text between them
   holds at least one token: the tokens read lie within the first PIECES pieces from T.start. (A run of
   characters that start no token is lexed as one error token, across whitespace; so a piece with such a
   character, or any byte outside printable ASCII, shows nothing.) A token is read up to the first
   character that cannot continue it, and the scanner's template-list look-ahead from a '<' ends at the
   first ';', '{' or ':' outside comments; neither passes the first such character after the last of those
   pieces. The lexer has also decoded the character after it (at most 4 bytes of UTF-8).

So another text that has the same bytes up to the bound is handled the same way up to d, and its tree has an
error starting at or before d, before the bound. The bound is found on the repaired text and used only where
it falls before that parse's insertion point, where the repaired text and the window are the same.
"""

from __future__ import annotations

import re

# The tokens read from T on (3.), and three for safety.
PIECES = 16
# The character after the last stop, which the lexer has decoded: at most 4 bytes of UTF-8.
DECODED = 4

_PIECE_OR_COMMENT = re.compile(rb"//|/\*|(?:[^\s/]|/(?![/*]))+")
# Characters that start no WGSL token (and so are read in error mode), and bytes outside printable ASCII.
_UNRECOGNIZED = re.compile(rb"[^\t\n\v\f\r -~]|[\"#$'?\\`]")
_STOP_OR_COMMENT = re.compile(rb"[;{:]|//|/\*")
_NESTING = re.compile(rb"/\*|\*/")
# Line comments end at '\n' or '\r'; ending them later only leaves out pieces and stops: a later bound.
_LINE_END = re.compile(rb"\n")


def bound(data: bytes, token_start: int, limit: int) -> int | None:
    """The end of what the parser read to settle an error whose next token starts at `token_start`, when it is
    at most `limit`; None when it is not, or cannot be shown to be."""
    index: int | None = token_start
    pieces = 0
    while pieces < PIECES:
        start = index
        index, piece = _next(_PIECE_OR_COMMENT, data, index, limit)
        if index is None or piece and _UNRECOGNIZED.search(data, start, index):
            return None
        pieces += piece
    while True:
        index, stop = _next(_STOP_OR_COMMENT, data, index, limit)
        if index is None or index + DECODED > limit:
            return None
        if stop:
            return index + DECODED


def _next(pattern: re.Pattern, data: bytes, index: int, limit: int) -> tuple[int | None, int]:
    """The end of the next match of `pattern` before `limit`, comments read as the scanner reads them, and
    whether it was not a comment; None when there is none."""
    found = pattern.search(data, index, limit)
    if found is None:
        return None, 0
    mark, index = found.group(), found.end()
    if mark == b"//":
        found = _LINE_END.search(data, index, limit)
        return (None, 0) if found is None else (found.end(), 0)
    if mark == b"/*":
        depth = 1  # block comments nest
        while depth:
            found = _NESTING.search(data, index, limit)
            if found is None:
                return None, 0
            depth += 1 if found.group() == b"/*" else -1
            index = found.end()
        return index, 0
    return index, 1
