"""While a statement is typed most versions do not parse, and each is explained: its syntax findings must cost
about the edited declaration, not the file, and be exactly the findings that counting the whole file gives."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks.server_matrix import documents
from coop_lsp.core.text import Position
from coop_lsp.syntax import Document, diagnostics as syntax, parse
from coop_lsp.syntax.parser import Parsed
from coop_lsp.syntax.reuse import DeclarationReuse

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "examples").rglob("*.wgsl")) + sorted((ROOT / "tests" / "spec" / "syntax").glob("*.wgsl"))
STATEMENTS = ["let y = max(1.0, 2.0); ", "var t: f32 = x[i] * 2.0; ", "if (a < b) { c = d; } ", "f(g(1), 2);"]


def _findings(parsed: Parsed, reuse=None) -> list:
    return [(d.code, d.span, d.message, d.related, d.fixes)
            for d in syntax.syntax_diagnostics(parsed, reuse=reuse)]


def _whole_file(parsed: Parsed, monkeypatch) -> list:
    """The findings with every fix tested on the whole file and every repair candidate parsed (no shortcut, no
    probe, no cut carried from another search), nothing cached."""
    syntax._tried.clear()
    syntax._tried_bytes = 0
    with monkeypatch.context() as patch:
        patch.setattr(syntax, "INSERTION_WINDOWS", False)
        patch.setattr(syntax, "REPAIR_SHORTCUT", False)
        patch.setattr(syntax, "REPAIR_LOOKAHEAD", False)
        patch.setattr(syntax, "CARRIED_CUTS", False)
        return _findings(parsed)


def _statement_starts(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if line.startswith("  ") and line.rstrip().endswith(";")]


def _edits(text: str, rng: random.Random):
    """Typing-like edits, as (line, character, deleted characters, inserted text): a statement typed one
    character at a time at a statement's start, then some of it deleted again; sometimes after a line was
    commented out."""
    lines = text.split("\n")
    starts = _statement_starts(lines)
    if starts and rng.random() < 0.5:
        # As the latency benchmark does: a comment typed at a line's start first, often an error that stays.
        line = rng.randrange(len(lines))
        yield line, 0, 0, "// "
    for _ in range(2 if starts else 0):
        line = rng.choice(starts)
        column = len(lines[line]) - len(lines[line].lstrip())
        statement = rng.choice(STATEMENTS)
        for index, char in enumerate(statement):
            yield line, column + index, 0, char
        for index in range(rng.randrange(1, 6)):
            yield line, column + len(statement) - 1 - index, 1, ""


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_typed_version_has_the_findings_of_the_whole_file_count(path: Path, monkeypatch) -> None:
    text = path.read_text(encoding="utf-8")
    rng = random.Random(path.name)
    document = Document(text)
    reuse = DeclarationReuse()
    errored = 0
    for line, character, deleted, inserted in _edits(text, rng):
        document.replace_range(Position(line, character), Position(line, character + deleted), inserted)
        incremental = Parsed(document.parsed.source, document.tree.copy())
        errored += incremental.root.has_error
        reuse.begin()
        found = _findings(incremental, reuse)
        reuse.end()
        assert found == _whole_file(incremental, monkeypatch), (line, character)
        fresh = parse(document.text)
        assert _findings(fresh) == _whole_file(fresh, monkeypatch)
    # In the spec files a statement line may sit inside a comment; in the examples typing breaks the parse.
    assert errored or path.parent.name == "syntax"


def test_junk_inserted_anywhere_has_the_findings_of_the_whole_file_count(monkeypatch) -> None:
    rng = random.Random(12)
    junk = ["(", ")", ";", "{", "}", "let x = ", "max(1.0", ",", "<", ">", "[", "fn f(", "var<", "*/", "/*"]
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        for _ in range(3):
            at = rng.randrange(len(text) + 1)
            edited = text[:at] + rng.choice(junk) + text[at:]
            parsed = parse(edited)
            assert _findings(parsed) == _whole_file(parsed, monkeypatch), (path.name, at)


def test_typing_a_statement_re_parses_only_the_declarations_around_it(counted) -> None:
    text = documents(1, seed=1)[0]
    lines = text.split("\n")
    line = next(i for i in _statement_starts(lines) if i > len(lines) // 2)
    document = Document(text)
    parsed_sizes = counted
    errored = 0
    for index, char in enumerate("let y = max(1.0, 2.0); "):
        document.replace_range(Position(line, index), Position(line, index), char)
        parsed = Parsed(document.parsed.source, document.tree.copy())
        if not parsed.root.has_error:
            continue
        errored += 1
        syntax._tried.clear()
        syntax._tried_bytes = 0
        parsed_sizes.clear()
        assert syntax.syntax_diagnostics(parsed)
        # Before: a fix's test re-parsed the whole 40 KB file on half of these versions.
        assert parsed_sizes and max(parsed_sizes) < len(text) // 8, (index, parsed_sizes)
    assert errored >= 20


def _counts_agree(parsed: Parsed) -> None:
    """The fixes' tests count findings without wording the parse errors; the count must be the findings'."""
    worded, counted = DeclarationReuse(), DeclarationReuse()
    for reuse in (None, (worded, counted)):
        if reuse is not None:
            worded.begin(), counted.begin()
        expected = len(syntax.syntax_diagnostics(parsed, False, worded if reuse else None))
        assert syntax._finding_total(parsed, counted if reuse else None) == expected
        if reuse is not None:
            worded.end(), counted.end()


def test_the_fixes_count_of_findings_is_the_number_of_findings_on_typed_versions_and_junk() -> None:
    rng = random.Random(16)
    junk = ["(", ")", ";", "{", "}", "let x = ", "max(1.0", ",", "<", ">", "[", "fn f(", "var<", "*/", "/*", "\xff"]
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        document = Document(text)
        for line, character, deleted, inserted in _edits(text, rng):
            document.replace_range(Position(line, character), Position(line, character + deleted), inserted)
            _counts_agree(Parsed(document.parsed.source, document.tree.copy()))
        for _ in range(3):
            at = rng.randrange(len(text) + 1)
            _counts_agree(parse(text[:at] + rng.choice(junk) + text[at:]))
    # Past MAX_SYNTAX_ERRORS the error walk stops: the count stops with it.
    _counts_agree(parse(")" * (3 * syntax.MAX_SYNTAX_ERRORS)))
    _counts_agree(parse(b"fn f() { let a = 1 \xff }"))


def test_a_fix_test_counts_findings_without_wording_the_parse_errors(monkeypatch) -> None:
    """Before, each fix's test worded every parse error of the window twice (and of the file once more when
    the window could not decide) only to count them."""
    text = documents(1, seed=1)[0]
    lines = text.split("\n")
    line = next(i for i in _statement_starts(lines) if i > len(lines) // 2)
    document = Document(text)
    worded, tested = [], []
    parse_errors, helps = syntax._parse_errors, syntax._insertion_helps
    monkeypatch.setattr(syntax, "_parse_errors", lambda *args: worded.append(1) or parse_errors(*args))
    monkeypatch.setattr(syntax, "_insertion_helps", lambda *args: tested.append(1) or helps(*args))
    explained = 0
    for index, char in enumerate("let y = max(1.0, 2.0); "):
        document.replace_range(Position(line, index), Position(line, index), char)
        parsed = Parsed(document.parsed.source, document.tree.copy())
        syntax._tried.clear()
        syntax._tried_bytes = 0
        syntax.syntax_diagnostics(parsed)
        explained += 1
    assert len(tested) >= 5  # the fixes were tested
    assert len(worded) == explained  # only the file's own errors were worded
