"""Offsets, characters and UTF-16 units: the three position systems agree."""

from __future__ import annotations

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
