"""Formatting in the editor (coop_lsp/ide/formatting.py): document, range and on-type edits."""

from __future__ import annotations

from coop_lsp.core.text import Span
from coop_lsp.format import format_text
from coop_lsp.ide.formatting import format_document, format_on_type, format_range

UGLY = b"fn a(){let x=1;}\nfn b() {\n  let y=2;\n  if y>1 {return;}\n}\n"


def apply(data: bytes, edits) -> bytes:
    out, at = [], 0
    for edit in sorted(edits, key=lambda e: e.span.start):
        out += [data[at:edit.span.start], edit.new_text.encode()]
        at = edit.span.end
    return b"".join(out) + data[at:]


def test_document_edits_give_exactly_the_formatted_text():
    result = format_document(UGLY)
    assert result.refused is None and apply(UGLY, result.edits).decode() == format_text(UGLY).text
    assert format_document(format_text(UGLY).text.encode()).edits == []


def test_a_range_changes_only_the_white_space_between_the_tokens_of_its_lines():
    start = UGLY.index(b"  if")
    result = apply(UGLY, format_range(UGLY, Span(start, start + 4)).edits)
    assert result == b"fn a(){let x=1;}\nfn b() {\n  let y=2;\n    if y > 1 {\n        return;\n    }\n}\n"


def test_a_closing_brace_formats_the_construct_it_closes_and_a_semicolon_its_statement():
    after_brace = apply(UGLY, format_on_type(UGLY, UGLY.index(b"}") + 1, "}").edits)
    assert after_brace == b"fn a() {\n    let x = 1;\n}\n\nfn b() {\n  let y=2;\n  if y>1 {return;}\n}\n"
    after_semicolon = apply(UGLY, format_on_type(UGLY, UGLY.index(b"y=2;") + 4, ";").edits)
    assert after_semicolon == b"fn a(){let x=1;}\nfn b() {\n    let y = 2;\n  if y>1 {return;}\n}\n"


def test_on_type_does_nothing_in_broken_text_or_away_from_its_character():
    broken = b"fn a() {\n  let x = 1\n}\n"
    assert format_on_type(broken, len(broken) - 1, "}").edits == []
    assert format_on_type(UGLY, 3, "}").edits == []


def test_a_syntax_error_is_refused_with_its_reason():
    result = format_document(b"fn a() {\n  let x = 1\n}\n")
    assert result.edits == [] and "expected ';' after 'let' declaration" in result.refused


def test_a_large_document_gets_one_edit():
    big = b"".join(b"fn f%d(){return;}\n" % i for i in range(21_000))
    edits = format_document(big).edits
    assert len(edits) == 1 and apply(big, edits).decode() == format_text(big).text
