"""Formatting every spec case and example: idempotent, the same tokens, the same findings, Tint's same verdict.

The cases with syntax errors are refused with a message that names the
error, and left exactly as they were.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from coop_lsp.format import format_text, token_stream
from coop_lsp.lint import lint_source
from coop_lsp.syntax import parse
from tests.support.spec import load_cases

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.wgsl"))
SOURCES = [(case.id, case.source) for directory in ("syntax", "semantic", "uniformity")
           for case in load_cases(ROOT / "tests" / "spec" / directory)] + \
          [(str(path.relative_to(ROOT)), path.read_text()) for path in EXAMPLES]


def _formatted() -> list[tuple[str, str, str]]:
    out = []
    for name, text in SOURCES:
        result = format_text(text)
        if result.text is not None:
            out.append((name, text, result.text))
    return out


FORMATTED = _formatted()


def test_every_case_that_parses_is_formatted_and_every_other_is_refused_with_its_syntax_error():
    """A tree with errors does not say where lines belong. Findings the syntax layer makes in a complete
    tree (a keyword used as a name, operators mixed without parentheses) do not stop formatting."""
    refused = 0
    for name, text in SOURCES:
        result = format_text(text)
        parsed = parse(text)
        unterminated = "S004" in {d.code for d in lint_source(text).diagnostics}
        if parsed.root.has_error or unterminated:
            first = next(d for d in lint_source(text).diagnostics if d.code.startswith("S"))
            assert result.text is None, name
            assert result.refused.startswith("not formatted: line "), name
            assert f"{first.message} ({first.code};" in result.refused, name
            refused += 1
        else:
            assert result.text is not None, (name, result.refused)
    assert len(FORMATTED) > 600 and refused > 10


def test_formatting_is_idempotent_and_keeps_every_token():
    for name, text, formatted in FORMATTED:
        assert format_text(formatted).text == formatted, name
        before, after = parse(text), parse(formatted)
        assert not after.root.has_error, name
        assert token_stream(before.root, before.source.data) == token_stream(after.root, after.source.data), name


def test_formatting_keeps_every_finding():
    """Same codes and messages in the same order; only where they are changes (a message that names a
    line names the line the code moved to)."""
    def findings(text: str):
        return [(d.code, re.sub(r"\bline \d+", "line N", d.message)) for d in lint_source(text).diagnostics]

    for name, text, formatted in FORMATTED:
        before, after = findings(text), findings(formatted)
        assert before == after, name


@pytest.mark.tint
def test_formatting_keeps_tints_verdict(tint):
    compared = 0
    for name, text, formatted in FORMATTED:
        before, after = tint.compile(text), tint.compile(formatted)
        if before.failure or after.failure:
            continue
        assert before.accepted == after.accepted, name
        assert sorted((m.severity, m.message) for m in before.messages) == \
            sorted((m.severity, m.message) for m in after.messages), name
        compared += 1
    assert compared > 600
