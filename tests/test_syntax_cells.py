"""The syntax findings of a new module-scope part take those of its well-formed statements and declarations (cells)
from the document's reuse by their text (coop_lsp/syntax/diagnostics.py, `_findings_by_cells`): while a statement is
typed into a function, the function is broken and new on every version, and only the typed statement's surroundings
are new text. The findings must be those of a walk of the whole part; these tests compare them with a lint that keeps
nothing on typed versions, junk, and texts made so that a cell's text moves to other surroundings, and count the
identifiers checked."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks import typing_cost
from benchmarks.server_matrix import documents
from coop_lsp.syntax import diagnostics as syntax, parse
from coop_lsp.syntax.parser import Parsed
from coop_lsp.syntax.reuse import DeclarationReuse
from tests.support.trees import PUBLIC_CORPORA, public_kernels_with_junk, with_junk
from tests.support.typing_workload import statements_typed, typed_versions

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.wgsl"))
JUNK = ["(", ")", ";", "{", "}", "let x = ", "max(1.0", ",", "<", ">", "[", "fn f(", "var<", "@@ ", "1u 2u", "l",
        "let y = max(1.0, 2.0", "a.b(", "return ", "if x ", "x = ", "f(a, b", "// ", "for (", "/* */", "loop {",
        "continuing { ", "break if x; ", "fn g() {} ", "let _ = 1; ", "let loop = a + b << c; ", "@bad ", "*/"]
STATEMENTS = ["let y = max(1.0, 2.0); ", "var t: f32 = x[i] * 2.0; ", "if (a < b) { c = d; } ", "f(g(1), 2);",
              "for (var i = 0u; i < 4u; i++) { ", "let r = a + b << 2u; ", "loop { continuing { break if x; } } "]


def _fresh(parsed: Parsed, deferred: bool) -> list:
    """The findings of a lint that keeps nothing: every part walked whole."""
    return [(d.code, d.span, d.message, d.related, d.fixes)
            for d in syntax.syntax_diagnostics(parsed, deferred=[] if deferred else None)]


class _Counting(DeclarationReuse):
    """A reuse that counts the cells it gives back."""

    def __init__(self) -> None:
        super().__init__()
        self.cells = 0

    def get(self, key):
        found = super().get(key)
        self.cells += found is not None and key[0] == "cell"
        return found


class _Lints:
    """The versions of one document linted as the server does, with one reuse, and compared with fresh lints."""

    def __init__(self) -> None:
        self.reuse = _Counting()
        self.compared = 0

    def check(self, parsed: Parsed, deferred: bool = True) -> None:
        self.reuse.begin()
        kept = [(d.code, d.span, d.message, d.related, d.fixes)
                for d in syntax.syntax_diagnostics(parsed, reuse=self.reuse, deferred=[] if deferred else None)]
        self.reuse.end()
        assert kept == _fresh(parsed, deferred), parsed.source.data[:200]
        self.compared += 1


def _typed(text: str, rng: random.Random, statements: int = 2):
    """Statements typed one character at a time at statements' starts, after a line commented out at its start (half
    the time): the incremental trees, as the server has them."""
    return statements_typed(text, rng, STATEMENTS, statements, comment_out=0.5)


def test_the_typing_benchmark_s_versions_have_the_findings_of_whole_walks() -> None:
    lints = _Lints()
    for parsed in typed_versions():
        lints.check(parsed)
        lints.check(parse(parsed.source.data), deferred=False)
    assert lints.compared == 2 * (len(typing_cost.COMMENT) + len(typing_cost.STATEMENT))
    assert lints.reuse.cells >= 500, lints.reuse.cells


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_typing_and_junk_in_the_examples_have_the_findings_of_whole_walks(path: Path) -> None:
    rng = random.Random(path.name + "cells")
    text = path.read_text(encoding="utf-8")
    lints = _Lints()
    for parsed in _typed(text, rng):
        lints.check(parsed)
    for version in with_junk(rng, text, 6, JUNK):
        lints.check(parse(version), deferred=rng.random() < 0.5)


def test_typing_into_matrix_documents_has_the_findings_of_whole_walks() -> None:
    rng = random.Random(71)
    compared, cells = 0, 0
    for text in documents(3, seed=17):
        lints = _Lints()
        for parsed in _typed(text, rng):
            lints.check(parsed)
        compared += lints.compared
        cells += lints.reuse.cells
    assert compared >= 60 and cells >= 500, (compared, cells)


@pytest.mark.skipif(not any(c.is_dir() for c in PUBLIC_CORPORA), reason="the public corpora live outside the repository")
def test_junk_in_public_kernels_has_the_findings_of_whole_walks() -> None:
    lints = _Lints()
    for _, version in public_kernels_with_junk(23, 2323, JUNK, per_file=3):
        lints.check(parse(version))
    assert lints.compared >= 60


# ------------------------------------------------------------ a cell's text in other surroundings
_BODIES = [
    "loop {{ x = 1; continuing {{ break if a; }} }}",
    "for (var i = 0; i < 4; i++) {{ continuing {{ break if a; }} }}",
    "if a {{ fn h() {{}} }}",
    "if a {{ struct S {{ x: f32 }} }}",
    "while a {{ let loop = 1; let _ = a + b << c; }}",
    "if a {{ let q = a < b < c; @bad let r = 1; }}",
    "switch a {{ default {{ continuing {{ }} }} }}",
    "{{ break if a; x = 1; }}",
    "loop {{ continuing {{ break if a; x = 2; }} }}",
]
_SURROUNDINGS = [
    "fn {name}() {{\n  {body}\n  let broken = ;\n}}\n",
    "fn {name}() {{\n  loop {{\n    {body}\n  }}\n  let broken = ;\n}}\n",
    "fn {name}() {{\n  loop {{\n    {body}\n    continuing {{ let broken = ; }}\n  }}\n}}\n",
    "fn {name}() {{\n  if x {{ {body} }}\n  f(;\n}}\n",
    "fn {name}() {{\n  {body}\n}}\n",
    "fn {name}() {{\n  {body}\n",
]


def test_a_cell_s_text_in_other_surroundings_has_the_findings_of_whole_walks() -> None:
    """The same statement in other functions, loops and blocks, broken or not, version after version with one reuse:
    what a check reads around a node ('continuing' and 'break if' their block's parent, a misplaced function the name
    of the one around it) never comes from another place's findings."""
    rng = random.Random(72)
    lints = _Lints()
    for _ in range(120):
        body = rng.choice(_BODIES).format()
        parts = [rng.choice(_SURROUNDINGS).format(name=rng.choice(["f", "g", "main"]), body=body)
                 for _ in range(rng.randrange(1, 4))]
        lints.check(parse("const c = 1;\n" + "".join(parts) + "const d = 2;\n"), deferred=rng.random() < 0.5)
    assert lints.compared == 120 and lints.reuse.cells >= 200, lints.reuse.cells


def test_mixed_operators_past_the_cap_walk_the_whole_part() -> None:
    chain = "; ".join(f"let v{i} = a + b << c" for i in range(syntax.MAX_PER_CODE + 20))
    lints = _Lints()
    for broken in ("", "let broken = ;"):
        lints.check(parse(f"fn f() {{ {chain}; {broken} }}\nconst d = 1;\n"))
        lints.check(parse(f"fn f() {{ if a {{ {chain}; }} {broken} }}\nconst d = 1;\n"))


def test_deeply_nested_statements_have_the_findings_of_whole_walks() -> None:
    lints = _Lints()
    for depth in (10, 40, 200):
        nested = "if a { " * depth + "let _ = 1; let loop = 2;" + " }" * depth
        lints.check(parse(f"fn f() {{ {nested} let broken = ; }}\nconst d = 1;\n"))
        lints.check(parse(f"fn f() {{ x = 1; {nested} let broken = ; }}\nconst d = 1;\n"))


# ------------------------------------------------------------ the cost
def test_typing_a_statement_checks_the_identifiers_of_the_typed_statement_s_surroundings_only(monkeypatch) -> None:
    """The latency benchmark's statement typed into its broken function, as the server lints it: every identifier of
    that function was checked again on every version (145 a version with the module-scope pieces the comment left);
    its well-formed statements are now kept."""
    checked: list[int] = []
    reserved_names = syntax._reserved_names

    def counting(parsed, nodes):
        checked.append(len(nodes["identifier"]))
        return reserved_names(parsed, nodes)

    monkeypatch.setattr(syntax, "_reserved_names", counting)
    reuse = DeclarationReuse()
    per_version = []
    for parsed in typed_versions(comment_at_once=True):
        checked.clear()
        reuse.begin()
        syntax.syntax_diagnostics(parsed, reuse=reuse, deferred=[])
        reuse.end()
        per_version.append(sum(checked))
    later = per_version[1:]
    assert max(later) <= 80, per_version
