"""Errored versions, as the server lints them while a statement is typed: their syntax findings, with the error walk's
answers read from the way down (tests/test_syntax_error_way.py) and the module-scope parts listed once, are those of a
lint that keeps nothing and searches each answer from the error. Compared on a piece typed at every line of the
examples and of generated matrix kernels, and on statements typed a character at a time into their functions; the
lists of parts are counted."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks.matrix_kernels import matrix_kernel_file
from coop_lsp.core.text import Position, Span
from coop_lsp.syntax import Document, diagnostics as syntax
from coop_lsp.syntax.parser import Parsed
from coop_lsp.syntax.reuse import DeclarationReuse
from tests.support.typing_workload import statements_typed, typed_versions

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.wgsl"))
# Typed at a line's start: most leave the version broken (an unclosed call, a stray token, a header without its body).
PIECES = ["let y = max(1.0", "@@ ", "for (", "}", "x = a +", "// ", "let", "if (a {"]
STATEMENTS = ["let y = max(1.0, 2.0); ", "acc = acc + b[i * 4u];", "if (x > 2u) { return; }"]


def _as_compared(found) -> list:
    return [(d.code, d.span, d.message, d.severity, d.related, d.fixes) for d in found]


def _searched(parsed: Parsed, deferred: bool) -> list:
    """The findings of a lint that keeps nothing and climbs from each error for its neighbours, as before."""
    def errors(root, parts=None):
        return ((node, None) for node in syntax._error_nodes(root))

    kept = syntax._errors_on_their_way
    syntax._errors_on_their_way = errors
    try:
        return _as_compared(syntax.syntax_diagnostics(parsed, deferred=[] if deferred else None))
    finally:
        syntax._errors_on_their_way = kept


class _Lints:
    def __init__(self) -> None:
        self.reuse = DeclarationReuse()
        self.compared = self.broken = 0

    def check(self, parsed: Parsed, deferred: bool = True) -> None:
        self.reuse.begin()
        kept = _as_compared(syntax.syntax_diagnostics(parsed, reuse=self.reuse, deferred=[] if deferred else None))
        self.reuse.end()
        assert kept == _searched(parsed, deferred), parsed.source.data[:160]
        self.compared += 1
        self.broken += parsed.root.has_error


def _typed_at_every_line(text: str, rng: random.Random):
    """A piece typed at each line's start, then taken out again: each version's incremental tree (a copy)."""
    document = Document(text)
    for line in range(text.count("\n") + 1):
        piece = rng.choice(PIECES)
        document.replace_range(Position(line, 0), Position(line, 0), piece)
        yield Parsed(document.source, document.tree.copy())
        start = document.source.offset(Position(line, 0))
        document.replace(Span(start, start + len(piece.encode())), "")
        yield Parsed(document.source, document.tree.copy())


def _check(text: str, seed: int, deferred: bool = True) -> _Lints:
    lints = _Lints()
    rng = random.Random(seed)
    for parsed in _typed_at_every_line(text, rng):
        lints.check(parsed, deferred)
    for parsed in statements_typed(text, rng, STATEMENTS, 3, 0.5):
        lints.check(parsed, deferred)
    return lints


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_pieces_and_statements_typed_into_the_examples_have_the_findings_of_a_lint_that_keeps_nothing(path) -> None:
    text = path.read_text(encoding="utf-8")
    lints = _check(text, 2501)
    assert lints.compared > 2 * text.count("\n") and lints.broken > text.count("\n") // 2


def test_pieces_and_statements_typed_into_generated_matrix_kernels_have_the_findings_of_a_lint_that_keeps_nothing():
    text = matrix_kernel_file(random.Random(2502), kernels=4)
    lints = _check(text, 2503)
    assert lints.compared > 2 * text.count("\n") and lints.broken > text.count("\n") // 2
    # Fixes tested at once (each missing token's insertion counted in its window or in the file).
    lints = _Lints()
    rng = random.Random(2504)
    for parsed in statements_typed(text, rng, STATEMENTS, 2, 1.0):
        lints.check(parsed, deferred=False)
    assert lints.broken > 20


class _RootCounting:
    """A tree whose root counts the lists of its children made (each makes a Node of every module-scope part)."""

    def __init__(self, tree, made: list) -> None:
        self._tree, self._made = tree, made

    @property
    def root_node(self):
        return _CountedRoot(self._tree.root_node, self._made)


class _CountedRoot:
    def __init__(self, root, made: list) -> None:
        self._root, self._made = root, made

    @property
    def children(self):
        self._made.append(1)
        return self._root.children

    def __getattr__(self, name):
        return getattr(self._root, name)


def test_a_typed_version_lists_its_module_scope_parts_once() -> None:
    """The error walk and the declarations' findings each made the root's list of children (78 parts on the typing
    benchmark's versions, a tenth of the declarations' work); now the walk's is handed to the findings."""
    reuse, versions = DeclarationReuse(), 0
    for parsed in typed_versions(comment_at_once=True):
        made: list = []
        counted = Parsed(parsed.source, _RootCounting(parsed.tree, made))
        reuse.begin()
        found = syntax.syntax_diagnostics(counted, reuse=reuse, deferred=[])
        reuse.end()
        assert len(made) == 1 and len(found) > 8
        versions += 1
    assert versions > 20


def _checks_set_up(monkeypatch) -> list:
    """A list that grows by one for every set of checks run over collected nodes (one per walk of a part or cell)."""
    made: list = []
    checked = syntax._checked

    def counted(*args):
        made.append(1)
        return checked(*args)

    monkeypatch.setattr(syntax, "_checked", counted)
    return made


def test_the_broken_parts_of_a_typed_version_are_walked_together(monkeypatch) -> None:
    """While the statement is typed below the commented-out header, the broken function and the nine ERROR parts of
    its rest were each walked alone, each walk setting up its buckets and its five checks for a few nodes (ten per
    version); together, one walk, and one more for each new cell (the typed statement, its call, once they parse)."""
    lints = _Lints()
    made = _checks_set_up(monkeypatch)
    per_version = []
    for parsed in typed_versions(comment_at_once=True):
        lints.reuse.begin()
        syntax.syntax_diagnostics(parsed, reuse=lints.reuse, deferred=[])
        lints.reuse.end()
        broken = sum(part.has_error for part in parsed.root.children)
        per_version.append((broken, len(made)))
        made.clear()
    assert all(broken >= 9 for broken, _ in per_version), per_version
    walks = [walks for _, walks in per_version[1:]]
    assert max(walks) <= 4 and walks.count(1) >= 12, per_version  # before: 10 to 12 on every version


def test_broken_parts_with_more_operator_findings_together_than_are_kept_are_walked_alone() -> None:
    """`_mixed_operators` keeps the first MAX_PER_CODE + 1 of the operators it is given: past that many in the broken
    parts together, each part is walked alone, and the findings are still those of a lint that keeps nothing."""
    text = "".join(f"fn f{i}() {{ let x = a + b << c }}\n" for i in range(60)) + "const d = e & f | g;\n"
    text = text + text.replace("fn f", "fn g")
    lints = _Lints()
    document = Document(text)
    for version in range(3):
        lints.check(Parsed(document.source, document.tree.copy()))
        document.replace_range(Position(version, 0), Position(version, 0), "x ")
    assert lints.broken == 3
