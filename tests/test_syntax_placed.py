"""A well-formed module-scope part whose kind and text the last version had at its place, or as much further as the
text grew, takes that part's syntax findings (coop_lsp/syntax/placed.py): unchanged functions cost a few field reads and
a comparison per version, not a copy and hash of their text. The findings must be those of a lint that keeps
nothing; these tests compare them on edits at every line of real kernels (the examples, public kernels, generated
matrix kernels), on the typing benchmark's versions and on moves, and count the parts looked up by their text."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks.matrix_kernels import matrix_kernel_file
from benchmarks.replay_cost import _document
from coop_lsp.core.text import Position, Span
from coop_lsp.syntax import Document, diagnostics as syntax, parse
from coop_lsp.syntax.parser import Parsed
from coop_lsp.syntax.reuse import DeclarationReuse
from tests.support.trees import PUBLIC_CORPORA, public_kernel_sample
from tests.support.typing_workload import typed_versions

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.wgsl"))
# What is typed at a line's start: a blank line (everything after it moves), a comment (the line's code falls away or
# a function's rest goes to module scope), a broken token, a new declaration, and an unclosed block.
PIECES = ["\n", "// ", "@@ ", "const placed_here = 1u;\n", "fn g() {", "/* */", "}", "let"]


class _Counting(DeclarationReuse):
    """A reuse that counts the module-scope parts looked up by their text."""

    def __init__(self) -> None:
        super().__init__()
        self.by_text = 0

    def get(self, key):
        self.by_text += key[0] != "cell"
        return super().get(key)


def _as_compared(found) -> list:
    return [(d.code, d.span, d.message, d.severity, d.related, d.fixes) for d in found]


def _fresh(parsed: Parsed, deferred: bool) -> list:
    """A lint that keeps nothing, on a fresh parse of the same text and on the tree given."""
    fresh = _as_compared(syntax.syntax_diagnostics(parse(parsed.source.data), deferred=[] if deferred else None))
    if parsed.root.has_error:
        return fresh  # error recovery may differ between the incremental tree and a fresh one
    assert fresh == _as_compared(syntax.syntax_diagnostics(parsed, deferred=[] if deferred else None))
    return fresh


class _Lints:
    def __init__(self) -> None:
        self.reuse = _Counting()
        self.compared = 0

    def check(self, parsed: Parsed, deferred: bool = True) -> list:
        self.reuse.begin()
        kept = _as_compared(syntax.syntax_diagnostics(parsed, reuse=self.reuse, deferred=[] if deferred else None))
        self.reuse.end()
        expected = _as_compared(syntax.syntax_diagnostics(parsed, deferred=[] if deferred else None))
        assert kept == expected, parsed.source.data[:160]
        self.compared += 1
        return kept


def _edited_at_every_line(text: str, rng: random.Random, lines: list[int] | None = None):
    """For each line (or each of `lines`): a piece typed at its start, then taken out again; each version's incremental
    tree as the server has it (a copy)."""
    document = Document(text)
    yield Parsed(document.source, document.tree.copy())
    for line in range(text.count("\n") + 1) if lines is None else lines:
        piece = rng.choice(PIECES)
        document.replace_range(Position(line, 0), Position(line, 0), piece)
        yield Parsed(document.source, document.tree.copy())
        start = document.source.offset(Position(line, 0))
        document.replace(Span(start, start + len(piece.encode())), "")
        yield Parsed(document.source, document.tree.copy())


def _check_every_line(text: str, seed: int, lines: list[int] | None = None, deferred: bool = True) -> int:
    lints = _Lints()
    for parsed in _edited_at_every_line(text, random.Random(seed), lines):
        lints.check(parsed, deferred)
    return lints.compared


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_edits_at_every_line_of_the_examples_have_the_findings_of_a_lint_that_keeps_nothing(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert _check_every_line(text, 2401) == 1 + 2 * (text.count("\n") + 1)


def test_edits_at_every_line_of_generated_matrix_kernels_have_the_findings_of_a_lint_that_keeps_nothing() -> None:
    text = matrix_kernel_file(random.Random(2402), kernels=6)
    assert _check_every_line(text, 2403) == 1 + 2 * (text.count("\n") + 1)
    # Fixes tested at once: the counts of texts with a token inserted take parts by place from this version.
    assert _check_every_line(text, 2404, lines=list(range(0, text.count("\n"), 7)), deferred=False) > 20


@pytest.mark.skipif(not any(c.is_dir() for c in PUBLIC_CORPORA), reason="the public corpora live outside the repository")
def test_edits_at_every_line_of_public_kernels_have_the_findings_of_a_lint_that_keeps_nothing() -> None:
    compared = 0
    for index, path in enumerate(public_kernel_sample(24, 10)):
        text = path.read_text(encoding="utf-8", errors="replace")
        if len(text) <= 12_000:
            compared += _check_every_line(text, 2405 + index)
    assert compared >= 200, compared


def test_the_typing_benchmark_s_versions_have_the_findings_of_a_lint_that_keeps_nothing_and_read_no_part_s_text() -> None:
    """While the statement is typed below the commented-out header, every part but the broken function and the ERROR
    parts after it is unchanged: none is looked up by its text, and the function only once it parses (before, each of
    the 39 parts with children was, every version)."""
    lints = _Lints()
    read = []
    for parsed in typed_versions(comment_at_once=True):
        lints.reuse.by_text = 0
        lints.check(parsed)
        read.append(lints.reuse.by_text)
    assert read[0] > 30 and max(read[1:]) <= 1, read
    assert lints.compared == len(read) > 20
    # The comment typed a character at a time too (its second '/' makes new parts of the function's rest).
    lints = _Lints()
    for parsed in typed_versions():
        lints.check(parsed)


@pytest.mark.parametrize("line", ["\n", "const moved_down = 1u;\n"])
def test_a_line_inserted_above_every_function_moves_their_findings_and_reads_no_text_but_the_new_line_s(line: str) -> None:
    text = _document(21)
    document, lints = Document(text), _Lints()
    lints.check(Parsed(document.source, document.tree.copy()))
    at = 0 if line == "\n" else text.index("struct Params")
    for number in range(6):
        document.replace(Span(at, at) if number % 2 == 0 else Span(at, at + len(line)), line if number % 2 == 0 else "")
        lints.reuse.by_text = 0
        found = lints.check(Parsed(document.source, document.tree.copy()))
        assert found == _fresh(Parsed(document.source, document.tree.copy()), True)
        assert lints.reuse.by_text <= 1, (number, lints.reuse.by_text)


def test_a_part_where_the_last_version_had_another_kind_or_an_error_is_not_taken_by_place() -> None:
    """The same bytes, parsed otherwise: a function whose body a '/*' before it swallowed, and one with a reserved
    name that the edit made into a struct, keep the findings of their own text."""
    lints = _Lints()
    for text in ("fn f() { let loop = 1; }\nfn g() { let x = a + b << c; }\n",
                 "/*\nfn f() { let loop = 1; }\n*/ fn g() { let x = a + b << c; }\n",
                 "struct f { loop: u32 }\nfn g() { let x = a + b << c; }\n",
                 "fn f() { let loop = 1; }\nfn g() { let x = a + b << c; }\n",
                 "fn f() { let loop = 1; \nfn g() { let x = a + b << c; }\n",
                 "fn f() { let loop = 1; }\nfn g() { let x = a + b << c; }\n"):
        lints.check(parse(text))


SMALL = ("enable loop;\nfn a() { let loop = 1; }\nfn b() { let x = a + b << c; }\nstruct S { _: u32 }\n"
         "fn c() { let y = 1; }\n@bad fn d() { loop { continuing { break if x; } } }\nfn e() { let z = 2; }\n")


@pytest.mark.parametrize("seed", range(4))
def test_random_small_edits_have_the_findings_of_a_lint_that_keeps_nothing(seed: int) -> None:
    """Bytes replaced by as many others (a part keeps its place while its text changes, at its first or last byte
    too), inserted and deleted, one edit a version, in a module whose directive's findings depend on whether the module
    has an error."""
    rng = random.Random(seed)
    document, lints = Document(SMALL), _Lints()
    lints.check(Parsed(document.source, document.tree.copy()))
    for _ in range(300):
        size = len(document.source.data)
        at = rng.randrange(size + 1)
        kind = rng.random()
        if kind < 0.6 and at < size:
            document.replace(Span(at, at + 1), rng.choice(";{}_lopx :\n"))
        elif kind < 0.8:
            document.replace(Span(at, at), rng.choice(["_", "loop", ";", "}", "\n", " ", "x"]))
        else:
            document.replace(Span(at, min(size, at + rng.randrange(1, 4))), "")
        lints.check(Parsed(document.source, document.tree.copy()))
        if rng.random() < 0.1:
            document = Document(SMALL if rng.random() < 0.5 else document.text)
    assert lints.compared == 301


def test_every_byte_replaced_by_as_many_others_has_the_findings_of_a_lint_that_keeps_nothing() -> None:
    """Each byte of a small module replaced by one of a few others and put back, one version each: the part around it
    keeps its place while its text, and often its findings, change ('x' made '_' at a part's last bytes)."""
    text = SMALL + "const k = x;\nconst m = x + y << z;\nalias T = x;\n"
    document, lints = Document(text), _Lints()
    lints.check(Parsed(document.source, document.tree.copy()))
    for at in range(len(text)):
        for replacement in "_x;":
            if text[at] == replacement:
                continue
            document.replace(Span(at, at + 1), replacement)
            lints.check(Parsed(document.source, document.tree.copy()))
            document.replace(Span(at, at + 1), text[at])
            lints.check(Parsed(document.source, document.tree.copy()))
    assert lints.compared > 4 * len(text)
