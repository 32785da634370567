"""Offsets, characters and UTF-16 units: the three position systems agree."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coop_lsp.core.text import Position, SourceText


def test_positions_in_each_unit():
    source = SourceText("ab\n🙂é x\r\nlast")
    x = source.data.index(b"x")
    assert source.position(x, "byte") == Position(1, 7)
    assert source.position(x, "char") == Position(1, 3)
    assert source.position(x, "utf16") == Position(1, 4)
    assert source.line_text(1) == "🙂é x"
    assert source.line_text(2) == "last"


def test_invalid_utf8_is_replaced_and_remembered():
    source = SourceText.from_bytes(b"ok\xffok")
    assert source.decode_error == 2
    assert source.text == "ok\ufffdok"


def test_positions_past_a_line_end_clamp():
    source = SourceText("abc\ndef")
    assert source.offset(Position(0, 99)) == 3
    assert source.offset(Position(9, 0)) == len(source.data)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200))
def test_offset_and_position_round_trip(text):
    source = SourceText(text)
    index = 0
    for char in text:
        for unit in ("byte", "char", "utf16"):
            assert source.offset(source.position(index, unit), unit) == index
        index += len(char.encode())


@given(st.text(alphabet=st.sampled_from("ab \t\n\r;é🙂"), max_size=40), st.integers(-3, 45), st.integers(-1, 6))
def test_an_offset_in_utf16_units_is_counted_as_unit_by_unit(text, column, line):
    # (an ASCII line is sliced, the others counted unit by unit: both as this reference counts)
    from coop_lsp.core.text import _utf16_prefix
    source = SourceText(text)
    if 0 <= line < source.line_count:
        start, end = source.line_start(line), source.line_end(line)
        expected = start + len(_utf16_prefix(source.data[start:end].decode("utf-8"), column).encode("utf-8"))
        assert source.offset(Position(line, column), "utf16") == expected


def test_a_span_made_through_its_slots_is_the_span_its_constructor_makes():
    # The semantic layer makes spans of node offsets through the slot setters (SET_SPAN_START/END), not the
    # constructor; they must compare, hash and print alike, and the class must stay frozen to assignment.
    import dataclasses

    from coop_lsp.core.text import SET_SPAN_END, SET_SPAN_START, Span
    from coop_lsp.semantic.context import Context

    class Node:
        def __init__(self, start, end):
            self.start_byte, self.end_byte = start, end

    for start, end in ((0, 0), (3, 9), (7, 7), (2**31, 2**31 + 5)):
        made = object.__new__(Span)
        SET_SPAN_START(made, start)
        SET_SPAN_END(made, end)
        for span in (made, Context.span(Node(start, end))):
            assert span == Span(start, end) and hash(span) == hash(Span(start, end))
            assert repr(span) == repr(Span(start, end))
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.start = 1
