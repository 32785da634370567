"""The grammar is a package of its own (tree-sitter-wgsl/), and coop-lsp parses with the same grammar.

Other tools load the package (distribution tree-sitter-wgsl-coop, import name tree_sitter_wgsl):
`./dev` installs it into the venv beside coop-lsp. coop-lsp itself does not depend on it: its build
compiles the same sources (tree-sitter-wgsl/src) into coop_lsp.syntax._grammar. The corpus tests
of the grammar are run here through both bindings as well as by the tree-sitter CLI, so neither
binding can drift from the grammar the CLI tests.
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


def _symbols(language: ts.Language) -> list[tuple[str, bool]]:
    return [(language.node_kind_for_id(i), language.node_kind_is_named(i)) for i in range(language.node_kind_count)]


def test_coop_lsp_bundles_the_same_grammar_as_the_package():
    # Two compilations of one parser.c: same ABI, same symbols, same fields, same parse states.
    bundled, package = wgsl_language(), ts.Language(tree_sitter_wgsl.language())
    assert bundled.abi_version == package.abi_version == 14
    assert _symbols(bundled) == _symbols(package)
    assert [bundled.field_name_for_id(i) for i in range(1, bundled.field_count + 1)] == \
        [package.field_name_for_id(i) for i in range(1, package.field_count + 1)]
    assert bundled.parse_state_count == package.parse_state_count
    assert not parse("fn f() -> u32 { return 1u; }").root.has_error


def test_coop_lsp_needs_no_grammar_distribution():
    # pip resolves coop-lsp's requirements from an index, where tree-sitter-wgsl is somebody else's package.
    from importlib.metadata import requires

    assert not [r for r in requires("coop-lsp") or [] if r.lower().startswith("tree-sitter-wgsl")]
    # ... and its grammar is the extension compiled into its own package.
    from coop_lsp.syntax import _grammar, parser

    assert Path(_grammar.__file__).parent == Path(parser.__file__).parent
    assert ts.Language(_grammar.language()).name == wgsl_language().name


def test_the_package_ships_the_editor_queries():
    # nvim-treesitter, Helix and Zed read highlights from the grammar package.
    for name in ("highlights.scm", "locals.scm", "injections.scm"):
        shipped = GRAMMAR / "queries" / name
        assert shipped.read_bytes() == (GRAMMAR.parent / "queries" / name).read_bytes()


@pytest.mark.parametrize("binding", ["package", "coop_lsp"])
@pytest.mark.parametrize("source, expected, attributes", list(_corpus_cases()))
def test_corpus_case_through_the_python_binding(source, expected, attributes, binding):
    language = ts.Language(tree_sitter_wgsl.language()) if binding == "package" else wgsl_language()
    tree = ts.Parser(language).parse(source.encode("utf-8"))
    if ":error" in attributes:
        assert tree.root_node.has_error
        return
    assert _normalised(str(tree.root_node)) == _normalised(expected)
