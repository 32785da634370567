"""A document's line starts after an edit, updated from the previous version's, equal a fresh count over
the whole text (every diagnostic's position converts through them)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from coop_lsp.core.text import Position, SourceText, Span
from coop_lsp.syntax import Document

KERNEL = (Path(__file__).resolve().parent.parent / "examples" / "chromium" / "gemm_naive.wgsl").read_text()


@pytest.mark.parametrize("fragments", [
    ["\n", "a\nb", "\n\n", "x", "", "é\n", "🙂", "line\n  more\n"],
    ["\n", "a\nb", "x", "", "\r\n", "\r", "line\r\n  more\n"],  # once a "\r" is in, lines are counted again
], ids=["newlines", "carriage-returns"])
def test_line_starts_follow_edits_as_a_fresh_count_does(fragments: list[str]) -> None:
    rng = random.Random(7)
    document = Document(KERNEL)
    document.source.line_count  # the first version has its line starts: later ones follow from them
    for _ in range(300):
        data = document.source.data
        source = document.source
        if rng.random() < 0.3:  # at a line's start: where the kept and the moved line starts meet
            start = source.line_start(rng.randrange(source.line_count))
        else:
            start = rng.randrange(len(data) + 1)
        end = min(len(data), start + rng.choice([0, 1, 2, 5, 20]))
        start, end = (source.offset(source.position(o, "char"), "char") for o in (start, end))
        document.replace(Span(start, max(start, end)), rng.choice(fragments))
        fresh = SourceText(document.text)
        edited = document.source
        assert edited.line_count == fresh.line_count
        assert [edited.line_start(i) for i in range(edited.line_count)] == \
            [fresh.line_start(i) for i in range(fresh.line_count)]
        if rng.random() < 0.3:
            line = rng.randrange(edited.line_count)
            assert edited.offset(Position(line, 0)) == fresh.offset(Position(line, 0))
        at = rng.randrange(len(edited.data) + 1)
        assert edited.position(at, "utf16") == fresh.position(at, "utf16")
        assert edited.offset(Position(edited.line_count - 1, 2), "utf16") == \
            fresh.offset(Position(fresh.line_count - 1, 2), "utf16")


def test_line_starts_are_carried_over_not_recounted() -> None:
    first = SourceText("fn a() {}\nfn b() {}\n")
    assert first.line_count == 3
    edited = first.edited(3, 3, b"x\ny")
    assert edited.text == "fn x\nya() {}\nfn b() {}\n"
    assert edited._starts == [0, 5, 13, 23]  # before any use: carried over from `first`
    joined = edited.edited(4, 5, b"")
    assert joined._starts == [0, 12, 22] and joined.text == "fn xya() {}\nfn b() {}\n"
    # Without line starts to carry over (or with "\r" line breaks) they are counted on first use.
    assert SourceText("a\nb").edited(0, 0, b"x")._starts is None
    crlf = SourceText("a\r\nb")
    assert crlf.line_count == 2 and crlf.edited(0, 0, b"x")._starts is None
