"""The editor queries in queries/*.scm, against our grammar, through py-tree-sitter.

Every query must compile, and the captures must be the ones an editor shows:
matrix types and builtins of every dialect as builtins, keywords, comments,
numbers; locals, folds and indents must find something on a real kernel.

py-tree-sitter 0.26.1 evaluates `#not-any-of?` with more than one value
wrongly (it keeps a node whose text is in the list; one value works), so
`captures()` below re-checks `#any-of?` / `#not-any-of?` itself from the
pattern's text. `#lua-match?` and other Neovim-only predicates would be left
unevaluated by py-tree-sitter; patterns using them are skipped.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest
import tree_sitter as ts

from coop_lsp.syntax.parser import wgsl_language

ROOT = Path(__file__).resolve().parent.parent
QUERIES = ROOT / "queries"
EXAMPLES = ROOT / "examples"

QUERY_FILES = sorted(QUERIES.glob("*.scm"))
EXAMPLE_FILES = sorted(EXAMPLES.glob("*/*.wgsl"))

# Predicates py-tree-sitter cannot evaluate; a pattern using one is skipped.
UNSUPPORTED_PREDICATES = ("#lua-match?", "#vim-match?", "#contains?", "#has-ancestor?", "#has-parent?")

MATRIX_TYPES = {
    "wgpu": {"coop_mat8x8", "coop_mat16x16"},
    "chromium": {"subgroup_matrix_left", "subgroup_matrix_right", "subgroup_matrix_result"},
    "standard": {"subgroup_matrix_left", "subgroup_matrix_right", "subgroup_matrix_result"},
}
MATRIX_FUNCTIONS = {
    "wgpu": {"coopLoad", "coopLoadT", "coopStore", "coopStoreT", "coopMultiplyAdd"},
    "chromium": {"subgroupMatrixLoad", "subgroupMatrixStore", "subgroupMatrixMultiply",
                 "subgroupMatrixMultiplyAccumulate", "subgroupMatrixScalarAdd",
                 "subgroupMatrixScalarSubtract", "subgroupMatrixScalarMultiply"},
}
MATRIX_FUNCTIONS["standard"] = MATRIX_FUNCTIONS["chromium"]

_LIST_PREDICATE = re.compile(r'\(#(not-)?any-of\?\s+@([\w.]+)((?:\s+"[^"]*")+)\s*\)')


def _parse(source: bytes) -> ts.Tree:
    return ts.Parser(wgsl_language()).parse(source)


@cache
def _query(name: str) -> tuple[ts.Query, str]:
    text = (QUERIES / name).read_text(encoding="utf-8")
    return ts.Query(wgsl_language(), text), text


def _pattern_text(query: ts.Query, text: str, index: int) -> str:
    data = text.encode("utf-8")
    return data[query.start_byte_for_pattern(index):query.end_byte_for_pattern(index)].decode("utf-8")


def captures(name: str, source: bytes) -> dict[str, list[tuple[int, str, ts.Node]]]:
    """capture name -> [(pattern index, node text, node)], predicates re-checked."""
    query, text = _query(name)
    out: dict[str, list[tuple[int, str, ts.Node]]] = defaultdict(list)
    for index, match in ts.QueryCursor(query).matches(_parse(source).root_node):
        pattern = _pattern_text(query, text, index)
        if any(p in pattern for p in UNSUPPORTED_PREDICATES):
            continue
        nodes_text = {capture: [source[n.start_byte:n.end_byte].decode("utf-8") for n in nodes]
                      for capture, nodes in match.items()}
        ok = True
        for negated, capture, values in _LIST_PREDICATE.findall(pattern):
            allowed = set(re.findall(r'"([^"]*)"', values))
            for value in nodes_text.get(capture, []):
                if (value in allowed) == bool(negated):
                    ok = False
        if not ok:
            continue
        for capture, nodes in match.items():
            for node in nodes:
                out[capture].append((index, source[node.start_byte:node.end_byte].decode("utf-8"), node))
    return out


def texts(found: dict, capture: str) -> set[str]:
    return {text for _, text, _ in found.get(capture, [])}


def dialect_of(path: Path) -> str:
    return path.parent.name


# ------------------------------------------------------------------ compile

@pytest.mark.parametrize("path", QUERY_FILES, ids=lambda p: p.name)
def test_query_compiles(path: Path) -> None:
    query = ts.Query(wgsl_language(), path.read_text(encoding="utf-8"))
    assert query.pattern_count > 0


def test_all_expected_queries_exist() -> None:
    names = {p.name for p in QUERY_FILES}
    assert {"highlights.scm", "locals.scm", "folds.scm", "indents.scm", "injections.scm"} <= names


def test_examples_cover_every_dialect() -> None:
    assert {dialect_of(p) for p in EXAMPLE_FILES} >= {"wgpu", "chromium", "standard", "plain"}


# --------------------------------------------------------------- highlights

@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_highlights_on_example(path: Path) -> None:
    source = path.read_bytes()
    assert not _parse(source).root_node.has_error, f"{path} does not parse"
    found = captures("highlights.scm", source)
    dialect = dialect_of(path)
    if dialect in MATRIX_TYPES:
        used_types = {t for t in MATRIX_TYPES[dialect] if re.search(rf"\b{t}\b", source.decode())}
        used_functions = {f for f in MATRIX_FUNCTIONS[dialect] if re.search(rf"\b{f}\b\s*[<(]", source.decode())}
        assert used_types and used_functions, f"{path}: no matrix types/builtins to check"
        assert used_types <= texts(found, "type.builtin"), f"{path}: {used_types - texts(found, 'type.builtin')}"
        assert used_functions <= texts(found, "function.builtin"), \
            f"{path}: {used_functions - texts(found, 'function.builtin')}"
        # and never also as a plain type or a user function call
        assert not (used_types | used_functions) & (texts(found, "type") | texts(found, "function.call"))
    # plain WGSL builtins
    assert {"u32", "array"} <= texts(found, "type.builtin")
    assert not {"u32", "f32", "f16", "array", "vec3"} & texts(found, "type")
    assert "workgroupBarrier" not in texts(found, "function.call")
    if b"workgroupBarrier" in source:
        assert "workgroupBarrier" in texts(found, "function.builtin")
    # keywords
    keywords = set().union(*(texts(found, c) for c in found if c.startswith("keyword")))
    assert {"fn", "let", "var", "const", "for"} <= keywords, keywords
    if dialect != "plain":
        assert "enable" in texts(found, "keyword.directive")
    assert {"storage", "read_write"} <= texts(found, "keyword.modifier")
    # comments: every // line is inside a @comment node
    comment_rows = set()
    for _, _, node in found.get("comment", []):
        comment_rows.update(range(node.start_point[0], node.end_point[0] + 1))
    for row, line in enumerate(source.decode().splitlines()):
        if line.lstrip().startswith("//"):
            assert row in comment_rows, f"{path}:{row + 1} is not captured as @comment"
    # numbers
    numbers = texts(found, "number") | texts(found, "number.float")
    size = re.search(r"(?:const|override) M: u32 = (\d+u);", source.decode())  # every example declares its M
    assert size is not None and size.group(1) in numbers
    assert numbers <= {t for t in numbers if re.fullmatch(r"[0-9.xXa-fA-FpP+-]+[iufh]?", t)}
    # attributes and builtin values
    assert {"compute", "workgroup_size", "group", "binding", "builtin"} <= texts(found, "attribute")
    assert "workgroup_id" in texts(found, "variable.builtin")
    assert "main" in texts(found, "function")


def test_highlights_matrix_roles_and_literals() -> None:
    source = (b"enable wgpu_cooperative_matrix;\n"
              b"alias T = coop_mat8x8<f32, C>;\n"
              b"fn f() {\n"
              b"  let a = 0x1.8p3f + 1.5e-3 + 2h;\n"
              b"  let b = 0x1Fu + 7i;\n"
              b"  /* outer /* nested */ still */\n"
              b"  let c = true;\n"
              b"}\n")
    found = captures("highlights.scm", source)
    assert "coop_mat8x8" in texts(found, "type.builtin")
    assert "C" in texts(found, "constant.builtin")
    assert {"0x1.8p3f", "1.5e-3", "2h"} <= texts(found, "number.float")
    assert {"0x1Fu", "7i"} <= texts(found, "number")
    assert "/* outer /* nested */ still */" in texts(found, "comment")
    assert "true" in texts(found, "boolean")


def test_highlights_know_every_builtin_of_every_table() -> None:
    """Each function of the semantic builtin tables is highlighted as a builtin when called."""
    from coop_lsp.semantic import context

    tables = [context.CORE_TABLE, *context.MATRIX_TABLES.values()]
    names = {builtin.name for table in tables for builtin in table}
    assert len(names) > 100 and "subgroupMatrixScalarMultiply" in names and "coopLoadT" in names
    body = "".join(f"  _ = {name}(1);\n" for name in sorted(names))
    source = f"fn f() {{\n{body}}}\n".encode()
    found = captures("highlights.scm", source)
    missing = names - texts(found, "function.builtin")
    assert not missing, f"not highlighted as builtins: {sorted(missing)}"
    assert not names & texts(found, "function.call")


def test_user_names_are_not_builtins() -> None:
    source = b"struct Tile { x: f32 }\nfn helper(t: Tile) -> f32 { return t.x; }\nfn g() { let y = helper(Tile(1.0)); }\n"
    found = captures("highlights.scm", source)
    assert "helper" in texts(found, "function.call")
    assert "helper" not in texts(found, "function.builtin")
    assert "Tile" in texts(found, "type")
    assert "Tile" not in texts(found, "type.builtin")


# ------------------------------------------------ locals, folds, indents, ...

KERNEL = EXAMPLES / "chromium" / "gemm_blocked.wgsl"


def test_locals_on_a_kernel() -> None:
    found = captures("locals.scm", KERNEL.read_bytes())
    assert "main" in texts(found, "local.definition.function")
    assert {"wg", "lid", "sg"} <= texts(found, "local.definition.parameter")
    assert {"acc", "block_row", "a_slice"} <= texts(found, "local.definition.var")
    assert {"M", "BK", "PAD"} <= texts(found, "local.definition.constant")
    assert {"TileA", "TileC"} <= texts(found, "local.definition.type")
    assert len(found["local.scope"]) >= 5
    assert {"acc", "BK", "a_slice"} <= texts(found, "local.reference")


def test_folds_on_a_kernel() -> None:
    found = captures("folds.scm", KERNEL.read_bytes())
    folds = found["fold"]
    multiline = [n for _, _, n in folds if n.end_point[0] > n.start_point[0]]
    assert len(multiline) >= 6  # function body, loops, parameter list, ...
    assert any(n.type == "compound_statement" for n in multiline)
    assert any(n.type == "parameter_list" for n in multiline)


def test_indents_on_a_kernel() -> None:
    found = captures("indents.scm", KERNEL.read_bytes())
    assert len(found["indent.begin"]) >= 5
    assert {"}", ")"} <= texts(found, "indent.end")
    assert texts(found, "indent.branch")


def test_injections_mark_comments() -> None:
    query, _ = _query("injections.scm")
    found = captures("injections.scm", KERNEL.read_bytes())
    assert found["injection.content"]
    assert any("comment" in str(query.pattern_settings(i)) for i in range(query.pattern_count))


def test_textobjects_on_a_kernel() -> None:
    found = captures("textobjects.scm", KERNEL.read_bytes())
    for capture in ("function.outer", "function.inner", "parameter.outer", "loop.outer", "loop.inner",
                    "call.outer", "comment.outer", "conditional.outer"):
        assert found.get(capture), capture
