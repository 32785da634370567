"""The syntax checks reach the same nodes by cheaper questions: the walk sorts nodes by kind id instead of by a type
string made per node, the first and last tokens are reached by `child(index)` instead of lists of every child,
operands by field id, and the tree's root is taken from the tree instead of climbed to from an error. Each is
compared with the way it replaced, on well-formed and broken files, and its work is counted."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import tree_sitter as ts

from coop_lsp.syntax import diagnostics as syntax, parse
from coop_lsp.syntax.nodes import FIELD_LEFT, FIELD_RIGHT
from coop_lsp.syntax.parser import Parsed
from tests.support.trees import every_node, public_kernels_with_junk, with_junk
from tests.support.typing_workload import typed_versions

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "examples").rglob("*.wgsl")) + sorted((ROOT / "tests" / "spec" / "syntax").glob("*.wgsl"))
JUNK = ["(", ")", ";", "{", "}", "let x = ", "max(1.0", ",", "<", ">", "[", "fn f(", "var<", "*/", "/*", "@",
        "continuing {", "break if", "a + b << c", "__x", "loop", "@compute", "\x00", "é"]


def _versions() -> list[str]:
    """Every example and spec file, and broken versions of each with junk inserted, and of public kernels."""
    rng = random.Random(19)
    texts = []
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        texts.append(text)
        texts.extend(with_junk(rng, text, 4, JUNK))
    texts.extend(version for _, version in public_kernels_with_junk(19, 91, JUNK))
    return texts


VERSIONS = _versions()


# ------------------------------------------------------------------ the ways replaced, kept as references
def _walked_by_type(root: ts.Node) -> dict[str, list[ts.Node]]:
    found: dict[str, list[ts.Node]] = {kind: [] for kind in syntax._WATCHED}
    bucket = found.get(root.type)
    if bucket is not None:
        bucket.append(root)
    cursor = root.walk()
    descend = True
    while True:
        if descend and cursor.goto_first_child():
            node = cursor.node
        else:
            while not cursor.goto_next_sibling():
                if not cursor.goto_parent():
                    return found
            node = cursor.node
        descend = node.is_named
        if descend:
            bucket = found.get(node.type)
            if bucket is not None:
                bucket.append(node)


def _first_token_by_list(node: ts.Node) -> ts.Node | None:
    while node.child_count:
        node = node.children[0]
    return node if node.end_byte > node.start_byte else None


def _last_token_by_list(node: ts.Node) -> ts.Node | None:
    while node.child_count:
        node = node.children[-1]
    return node if node.end_byte > node.start_byte else None


def _statement_ending_at_climbed(near: ts.Node, at: int) -> ts.Node | None:
    root = near
    while root.parent is not None:
        root = root.parent
    return syntax._statement_ending_at(root, at)


def _key(node: ts.Node) -> tuple:
    return node.kind_id, node.start_byte, node.end_byte, node.is_missing, node.id


def _findings(parsed: Parsed) -> list:
    return [(d.code, d.span, d.message, d.related, d.fixes) for d in syntax.syntax_diagnostics(parsed)]


# ------------------------------------------------------------------ the same nodes
def test_the_walk_by_kind_id_finds_the_nodes_the_walk_by_type_finds() -> None:
    broken = 0
    for text in VERSIONS:
        parsed = parse(text)
        broken += parsed.root.has_error
        for part in [parsed.root, *parsed.root.children]:
            mine, theirs = syntax._walked_nodes(part), _walked_by_type(part)
            assert {k: sorted(map(_key, v)) for k, v in mine.items()} == \
                {k: sorted(map(_key, v)) for k, v in theirs.items()}, text[:80]
    assert broken > len(VERSIONS) // 2


def test_the_lists_of_named_children_find_the_nodes_the_cursor_walk_finds() -> None:
    broken = 0
    for parsed in [parse(text) for text in VERSIONS] + list(typed_versions()):
        for part in [parsed.root, *parsed.root.children]:
            broken += part.has_error
            mine, theirs = syntax._listed_nodes(part), syntax._walked_nodes(part)
            assert {k: sorted(map(_key, v)) for k, v in mine.items()} == \
                {k: sorted(map(_key, v)) for k, v in theirs.items()}, str(parsed.source.data[:80])
    assert broken > len(VERSIONS)


def test_tokens_by_child_index_are_the_tokens_by_child_lists() -> None:
    for text in VERSIONS:
        for node in every_node(parse(text).root):
            for mine, theirs in ((syntax._first_token(node), _first_token_by_list(node)),
                                 (syntax._last_token(node), _last_token_by_list(node))):
                assert (mine is None and theirs is None) or _key(mine) == _key(theirs)


def test_operands_by_field_id_are_the_operands_by_field_name() -> None:
    seen = 0
    for text in VERSIONS:
        for node in every_node(parse(text).root):
            if node.type == "binary_expression":
                seen += 1
                for field, name in ((FIELD_LEFT, "left"), (FIELD_RIGHT, "right")):
                    mine, theirs = node.child_by_field_id(field), node.child_by_field_name(name)
                    assert (mine is None and theirs is None) or _key(mine) == _key(theirs)
    assert seen > 100


def test_the_statement_before_a_missing_token_is_found_from_the_trees_root_as_from_the_error() -> None:
    asked = 0
    for text in VERSIONS:
        parsed = parse(text)
        for node in syntax._error_nodes(parsed.root):
            at = syntax._after_previous_token(parsed, node.start_byte)
            mine, theirs = syntax._statement_ending_at(parsed.root, at), _statement_ending_at_climbed(node, at)
            assert (mine is None and theirs is None) or _key(mine) == _key(theirs)
            asked += 1
    assert asked > 50


def test_every_finding_is_the_one_the_replaced_ways_give(monkeypatch) -> None:
    for text in VERSIONS:
        parsed = parse(text)
        syntax._tried.clear()
        syntax._tried_bytes = 0
        mine = _findings(parsed)
        syntax._tried.clear()
        syntax._tried_bytes = 0
        with monkeypatch.context() as patch:
            patch.setattr(syntax, "_walked_nodes", _walked_by_type)
            patch.setattr(syntax, "QUERY_MAX_BYTES", -1)  # every declaration walked, by type
            patch.setattr(syntax, "_first_token", _first_token_by_list)
            patch.setattr(syntax, "_last_token", _last_token_by_list)
            theirs = _findings(parsed)
        assert mine == theirs, text[:80]


# ------------------------------------------------------------------ the work
class _Counted:
    """A node, cursor or tree seen through a proxy that counts the attributes read; the nodes and cursors it
    hands out are counted too."""

    def __init__(self, inner, reads: Counter) -> None:
        self._inner, self._reads = inner, reads

    def __getattr__(self, name):
        self._reads[name] += 1
        value = getattr(self._inner, name)
        if isinstance(value, (ts.Node, ts.TreeCursor)):
            return _Counted(value, self._reads)
        if isinstance(value, list):
            return [_Counted(v, self._reads) if isinstance(v, ts.Node) else v for v in value]
        if callable(value):
            def call(*args, **kwargs):
                result = value(*args, **kwargs)
                return _Counted(result, self._reads) if isinstance(result, (ts.Node, ts.TreeCursor)) else result
            return call
        return value


def _broken_function() -> Parsed:
    return parse("fn f() {\n  let a = b + c * d;\n  let y = max(1.0\n  let z = a;\n}\n")


def test_the_walk_makes_no_type_string() -> None:
    reads: Counter = Counter()
    part = _broken_function().root.children[0]
    found = syntax._walked_nodes(_Counted(part, reads))
    assert sum(map(len, found.values())) > 5
    assert reads["type"] == 0 and reads["kind_id"] > 5


def test_first_and_last_tokens_make_no_list_of_children() -> None:
    reads: Counter = Counter()
    part = _Counted(_broken_function().root.children[0], reads)
    assert syntax._first_token(part) is not None and syntax._last_token(part) is not None
    assert reads["children"] == 0 and reads["child"] >= 2


def test_a_missing_semicolon_climbs_to_no_root() -> None:
    parsed = _broken_function()
    missing = next(node for node in syntax._error_nodes(parsed.root))
    reads: Counter = Counter()
    at = syntax._after_previous_token(parsed, missing.start_byte)
    syntax._expected_token(parsed, ";", at, _Counted(missing, reads), syntax._NO_FIX)
    assert reads["parent"] == 0


def test_a_broken_declaration_is_searched_without_a_cursor() -> None:
    """Before, a declaration with an error was walked by a cursor, asked to move and for its node at every node,
    named or not; now only the named nodes reach Python, each asked for its kind and its named children."""
    reads: Counter = Counter()
    part = _broken_function().root.children[0]
    found = syntax._nodes_by_type(_Counted(part, reads))
    named = sum(1 for node in every_node(part) if node.is_named)
    assert sum(map(len, found.values())) > 5
    assert reads["walk"] == 0 and reads["kind_id"] == reads["named_children"] == named
