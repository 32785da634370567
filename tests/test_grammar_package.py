"""The grammar is a package of its own (tree-sitter-wgsl/), and coop-lsp parses through it.

Other tools load the same package: its Python binding is what `./dev` installs
into the venv, and the corpus tests of the grammar are run here through that
binding as well as by the tree-sitter CLI, so the binding cannot drift from the
grammar the CLI tests.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tree_sitter as ts
import tree_sitter_wgsl

from coop_lsp.syntax.parser import parse, wgsl_language

GRAMMAR = Path(__file__).resolve().parent.parent / "tree-sitter-wgsl"
_HEADER = re.compile(r"^(={3,})\n(.*?)\n\1\n", re.M | re.S)
_DIVIDER = re.compile(r"^-{3,}\n", re.M)


def _corpus_cases():
    for path in sorted((GRAMMAR / "test" / "corpus").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        headers = list(_HEADER.finditer(text))
        for header, following in zip(headers, headers[1:] + [None]):
            body = text[header.end():following.start() if following else len(text)]
            source, expected = _DIVIDER.split(body, maxsplit=1)
            title_lines = header.group(2).splitlines()
            attributes = {line.strip() for line in title_lines[1:] if line.strip().startswith(":")}
            yield pytest.param(source.rstrip("\n"), expected, attributes,
                               id=f"{path.stem}: {title_lines[0].strip()}")


def _normalised(sexp: str) -> str:
    return re.sub(r"\s+", " ", sexp.replace("(", " (").replace(")", ") ")).replace(" )", ")").strip()


def test_the_package_loads_into_py_tree_sitter_at_abi_14():
    language = ts.Language(tree_sitter_wgsl.language())
    # ABI 14 keeps the parser loadable by older editors (Neovim 0.7 from Debian).
    assert language.abi_version == 14
    tree = ts.Parser(language).parse(b"var<private> a: coop_mat8x8<f32, A>;")
    assert not tree.root_node.has_error


def test_coop_lsp_parses_with_the_package():
    # The same language object address: no private copy of the parser is compiled into coop_lsp.
    assert repr(wgsl_language()).split()[1] == repr(ts.Language(tree_sitter_wgsl.language())).split()[1]
    assert not parse("fn f() -> u32 { return 1u; }").root.has_error


def test_the_package_ships_the_editor_queries():
    # nvim-treesitter, Helix and Zed read highlights from the grammar package.
    for name in ("highlights.scm", "locals.scm", "injections.scm"):
        shipped = GRAMMAR / "queries" / name
        assert shipped.read_bytes() == (GRAMMAR.parent / "queries" / name).read_bytes()


@pytest.mark.parametrize("source, expected, attributes", list(_corpus_cases()))
def test_corpus_case_through_the_python_binding(source, expected, attributes):
    tree = ts.Parser(ts.Language(tree_sitter_wgsl.language())).parse(source.encode("utf-8"))
    if ":error" in attributes:
        assert tree.root_node.has_error
        return
    assert _normalised(str(tree.root_node)) == _normalised(expected)
