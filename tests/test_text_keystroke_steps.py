"""What a keystroke's edit of a SourceText costs besides the edit itself: the edited text of an ASCII document is
spliced from the old one (no decoding of the whole text again), and the searches for "\\r" that choose how
line starts and tree-sitter points are computed use `find` (bytes' `in` tries its operand as a byte value
first, and makes and drops a TypeError for a bytes operand). The results stay those of a fresh text."""

from __future__ import annotations

import random

from coop_lsp.core.text import SourceText, Span
from coop_lsp.syntax import Document

TEXT = """@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lane: u32) {
  var acc = 0u;
  for (var i = 0u; i < 16u; i++) {
    acc += i * lane;
  }
}
"""
# Typed text of every kind: ASCII, a line break, several-byte characters, one outside the BMP (two UTF-16
# units), and a lone surrogate (not valid UTF-8: the edited text is then decoded with replacements).
TYPED = ["x", "", "\n", "  ", "é", "16u", "\U0001F600", "\ud800", "\n\n}", "é\n"]
# And line breaks of the other kinds, which change how line starts and points are counted.
BREAKS = ["\r\n", "\r", "x\r\ny"]


def _edits(rng: random.Random, count: int, typed=TYPED):
    size = len(TEXT)
    for _ in range(count):
        start = rng.randrange(size + 1)
        end = min(size, start + rng.choice([0, 0, 1, 3]))
        yield start, end, rng.choice(typed)


def test_edited_texts_equal_fresh_ones_for_every_kind_of_edit():
    rng = random.Random(24)
    for _ in range(20):
        source = SourceText(TEXT)
        source.line_count  # line starts known: the edit carries them over
        for start, end, typed in _edits(rng, 30, TYPED + BREAKS):
            start, end = min(start, len(source.data)), min(end, len(source.data))
            inserted = typed.encode("utf-8", errors="surrogatepass")
            after = source.edited(start, end, inserted)
            data = source.data[:start] + inserted + source.data[end:]
            try:
                fresh = SourceText(data.decode("utf-8"))
            except UnicodeDecodeError:
                fresh = SourceText(data.decode("utf-8", errors="replace"))
            assert (after.text, after.data, after.decode_error) == (fresh.text, fresh.data, fresh.decode_error)
            assert [after.line_start(n) for n in range(after.line_count)] == \
                [fresh.line_start(n) for n in range(fresh.line_count)]
            assert after.has_carriage_return() == fresh.has_carriage_return() == (b"\r" in data)
            source = after


class _Watched(bytes):
    """A text's bytes that count the `in` tests made of them with a bytes operand, and the searches of them
    for "\r" (by `in` or `find`)."""

    asked = scanned = 0

    def __contains__(self, item) -> bool:
        if isinstance(item, bytes):
            _Watched.asked += 1
            _Watched.scanned += item == b"\r"
        return super().__contains__(item)

    def find(self, *args) -> int:
        if args[0] == b"\r":
            _Watched.scanned += 1
        return super().find(*args)


def test_a_documents_edits_look_for_carriage_returns_without_in():
    rng = random.Random(7)
    watched, plain = Document(TEXT), Document(TEXT)
    _Watched.asked = 0
    for start, end, typed in _edits(rng, 60, TYPED + BREAKS):
        size = len(plain.source.data)
        span = Span(min(start, size), min(end, size))
        plain.replace(span, typed)
        watched.source.data = _Watched(watched.source.data)
        watched.replace(span, typed)
        assert watched.text == plain.text and str(watched.tree.root_node) == str(plain.tree.root_node)
    assert _Watched.asked == 0  # the base asked these bytes two or three times per edit (160 here)


def test_a_text_without_carriage_returns_is_scanned_for_one_once_however_often_it_is_edited():
    rng = random.Random(9)
    document = Document(TEXT)
    document.source.data = _Watched(document.source.data)
    _Watched.scanned = 0
    valid = [typed for typed in TYPED if typed != "\ud800"]  # (bytes that do not decode make a fresh text)
    for start, end, typed in _edits(rng, 40, valid):
        size = len(document.source.data)
        document.replace(Span(min(start, size), min(end, size)), typed)
        document.source.data = _Watched(document.source.data)
        assert document.source.line_count == len(document.source.data.split(b"\n"))
    assert _Watched.scanned == 1  # the opened text's; the base scanned each edited text three times or more
