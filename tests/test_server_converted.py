"""The server converts a finding to LSP once for as long as it stays at the same lines and columns: over
random edits (non-ASCII text included), what it publishes equals a fresh conversion of every finding."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from coop_lsp.core.text import Span
from coop_lsp.lint import Reuse, lint_source
from coop_lsp.server.convert import ConvertedDiagnostics, Converter
from coop_lsp.syntax import Document
from tests.support.typing_workload import typed_versions

ROOT = Path(__file__).resolve().parent.parent
URI = "file:///virtual/k.wgsl"
FRAGMENTS = ["é", "🙂", "\n", "// note\n", "x", "", "  ", "let = ;", "\n\n"]


# Spec files with about a hundred findings each.
KERNELS = [ROOT / "tests" / "spec" / "semantic" / "consts.wgsl", ROOT / "tests" / "spec" / "uniformity" / "filters.wgsl"]


@pytest.mark.parametrize("unit", ["utf16", "char", "byte"])
@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.name)
def test_cached_conversion_equals_a_fresh_one_over_random_edits(path: Path, unit: str) -> None:
    rng = random.Random(f"{path.name}{unit}")
    document = Document(path.read_text(encoding="utf-8"))
    converted = ConvertedDiagnostics()
    reuse = Reuse()
    previous: dict[int, object] = {}
    kept = 0
    for _ in range(10):
        findings = lint_source(document.text, reuse=reuse).diagnostics
        convert = Converter(document.source, unit)
        published = converted.convert(convert, URI, findings)
        assert published == [convert.diagnostic(URI, d) for d in findings]
        kept += sum(1 for form in published if id(form) in previous)
        previous = {id(form): form for form in published}
        source = document.source
        start = source.offset(source.position(rng.randrange(len(source.data) + 1), "char"), "char")
        end = source.offset(source.position(min(len(source.data), start + rng.choice([0, 1, 4])), "char"), "char")
        document.replace(Span(start, max(start, end)), rng.choice(FRAGMENTS))
    assert kept > 0  # findings that did not move were not converted again


def test_line_column_equals_position_in_every_unit() -> None:
    document = Document("fn é() {}\n// 🙂 x\nfn b() {}\r\nlet")
    source = document.source
    for offset in range(len(source.data) + 1):
        for unit in ("byte", "char", "utf16"):
            position = source.position(offset, unit)
            assert source.line_column(offset, unit) == (position.line, position.column)
    with pytest.raises(ValueError):
        source.line_column(0, "furlongs")


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.name)
def test_findings_whose_bytes_moved_but_not_their_lines_and_columns_are_not_converted_again(path, monkeypatch):
    """Typing in a comment on the first line moves every later finding's bytes, none of its lines or columns."""
    document = Document("// note\n" + path.read_text(encoding="utf-8"))
    converted, reuse = ConvertedDiagnostics(), Reuse()
    findings = lint_source(document.text, reuse=reuse).diagnostics
    assert findings and all(finding.span.start > 8 for finding in findings)
    converted.convert(Converter(document.source, "utf16"), URI, findings)
    fresh, calls = Converter.diagnostic, []
    monkeypatch.setattr(Converter, "diagnostic", lambda self, uri, d: calls.append(d) or fresh(self, uri, d))
    for index in range(5):
        document.replace(Span(7 + index, 7 + index), "x")
        moved = lint_source(document.text, reuse=reuse).diagnostics
        assert [f.span.start for f in moved] == [f.span.start + index + 1 for f in findings]
        convert = Converter(document.source, "utf16")
        assert converted.convert(convert, URI, moved) == [fresh(convert, URI, d) for d in moved]
    assert calls == []


def test_cached_conversion_equals_a_fresh_one_on_the_typing_workload() -> None:
    """benchmarks/typing_cost.py's versions (a comment over a loop header, then a statement typed below)."""
    reuse, converted = Reuse(), ConvertedDiagnostics()
    compared = 0
    for parsed in typed_versions():
        findings = lint_source(parsed.source.text, reuse=reuse).diagnostics
        for unit in ("utf16", "byte"):
            convert = Converter(parsed.source, unit)
            assert converted.convert(convert, URI, findings) == [convert.diagnostic(URI, d) for d in findings]
            compared += len(findings)
    assert compared > 0
