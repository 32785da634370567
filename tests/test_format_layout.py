"""The formatter's layout, shown by golden files: tests/format/NAME.in.wgsl formats to NAME.out.wgsl.

Each pair shows one group of layout choices (directives and declarations,
statements, comments, long lists, the three matrix dialects). Files named
narrow* are formatted with indent-width 2 and line-width 60. After a
deliberate layout change, regenerate the .out files and read their diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from coop_lsp.format import Options, format_text, token_stream
from coop_lsp.syntax import parse

GOLDEN = Path(__file__).resolve().parent / "format"
CASES = sorted(GOLDEN.glob("*.in.wgsl"))


def options_for(path: Path) -> Options:
    return Options(indent_width=2, line_width=60) if path.name.startswith("narrow") else Options()


@pytest.mark.parametrize("source", CASES, ids=lambda p: p.name.removesuffix(".in.wgsl"))
def test_golden_layout(source: Path):
    expected = source.with_name(source.name.replace(".in.wgsl", ".out.wgsl")).read_text()
    options = options_for(source)
    result = format_text(source.read_text(), options)
    assert result.refused is None
    assert result.text == expected
    assert format_text(expected, options).text == expected  # idempotent
    before, after = parse(source.read_bytes()), parse(expected.encode())
    assert not after.root.has_error
    assert token_stream(before.root, before.source.data) == token_stream(after.root, after.source.data)


def test_golden_files_cover_every_construct_of_the_grammar():
    """Every named node type of the grammar appears in some golden input, so no construct's layout is untested."""
    import json

    node_types = json.loads((GOLDEN.parent.parent / "tree-sitter-wgsl" / "src" / "node-types.json").read_text())
    wanted = {t["type"] for t in node_types if t.get("named") and not t["type"].startswith("_")}
    seen: set[str] = set()
    for path in CASES:
        stack = [parse(path.read_bytes()).root]
        while stack:
            node = stack.pop()
            seen.add(node.type)
            stack.extend(node.children)
    missing = wanted - seen - {"ERROR"}
    assert not missing, f"no golden input holds {sorted(missing)}"


def test_a_long_binary_expression_breaks_after_an_operator_and_indents_the_rest():
    text = "fn f() {\n    let s = " + " + ".join(f"value_{i}" for i in range(12)) + ";\n}\n"
    lines = format_text(text, Options(line_width=60)).text.splitlines()
    assert all(len(line) <= 60 for line in lines)
    assert lines[1].endswith(" +") and lines[2].startswith("        value_")


def test_a_line_with_nothing_to_break_stays_long():
    name = "x" * 120
    text = f"const {name}: f32 = 1.0;\n"
    assert format_text(text).text == text


def test_crlf_line_endings_are_kept():
    assert format_text("fn f() {\r\nlet x=1;\r\n}\r\n").text == "fn f() {\r\n    let x = 1;\r\n}\r\n"


def test_an_empty_file_stays_empty():
    assert format_text("").text == ""
    assert format_text("\n\n   \n").text == ""
