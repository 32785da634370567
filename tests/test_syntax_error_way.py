"""An error's explanation reads its neighbours from the walk that found it: the module-scope part around it, the token
after it, whether it lies at module scope, its field and the brackets around it come from the lists of children the
walk down from the root made, where each `parent` or sibling of tree-sitter 0.26 was a search from the root. Each
answer is compared with the searched one on well-formed, broken and typed versions, and the searches are counted."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from benchmarks.matrix_kernels import matrix_kernel_file
from coop_lsp.syntax import diagnostics as syntax, parse
from coop_lsp.syntax.parser import Parsed
from tests.support.trees import with_junk
from tests.support.typing_workload import statements_typed, typed_versions
from tests.test_syntax_node_access import _Counted

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.wgsl"))
JUNK = ["(", ")", ";", "{", "}", "let x = ", "max(1.0", ",", "<", ">", "[", "fn f(", "var<", "@", "enable",
        "continuing {", "loop {", "if a {", "for (", "a.b[", "\x00",
        "let = 1u;", "fn (", "struct { a: f32 }", " -;", "(1 + )", "const c = ;"]
# Errors that junk seldom makes: a MISSING name or expression (a field is asked), unclosed brackets.
HANDMADE = ["fn f() { f(a,); let b = -; }\nconst c = ;\n", "fn f() { let a = (1 + ); }\nfn g() { let b = v[(2 * ]; }\n",
            "fn f() {\n  if (a { let b = -; }\n", "struct S { a: array<f32, >, }\nconst c = ;\nfn g() { x = -; }\n"]
PIECES = ["let y = max(1.0, 2.0); ", "acc = acc + b[i];", "if (x > 2u) { return; }", "for (var j = 0u; j < 4u; j++) {"]


def _versions() -> list[Parsed]:
    rng = random.Random(25)
    texts = [path.read_text(encoding="utf-8") for path in EXAMPLES]
    texts.append(matrix_kernel_file(random.Random(7), kernels=3))
    versions = [parse(text) for text in texts + HANDMADE]
    for text in texts:
        versions.extend(parse(version) for version in with_junk(rng, text, 8, JUNK))
    versions.extend(list(typed_versions())[::3])
    for text in texts[:4]:
        versions.extend(list(statements_typed(text, rng, PIECES, 2, 1.0))[::4])
    return versions


VERSIONS = _versions()


def _key(node) -> tuple | None:
    return None if node is None else (node.kind_id, node.start_byte, node.end_byte, node.is_missing)


def test_each_error_comes_in_the_order_and_with_the_ancestors_the_tree_gives() -> None:
    errors = 0
    for parsed in VERSIONS:
        found = list(syntax._errors_on_their_way(parsed.root))
        assert [_key(node) for node, _ in found] == [_key(node) for node in syntax._error_nodes(parsed.root)]
        for node, way in found:
            errors += 1
            climbed, above = [], node.parent
            while above is not None:
                climbed.append(_key(above))
                above = above.parent
            assert [_key(step[0]) for step in reversed(way)] == climbed
            for parent, children, index in way:
                assert [_key(c) for c in children] == [_key(c) for c in parent.children]
            assert _key(way[-1][1][way[-1][2]] if way else parsed.root) == _key(node)
    assert errors > 500


def test_the_answers_read_from_the_way_are_the_searched_ones() -> None:
    asked = Counter()
    for parsed in VERSIONS:
        size = len(parsed.source.data)
        for node, way in syntax._errors_on_their_way(parsed.root):
            assert syntax._window_on_the_way(parsed, node, way) == syntax._repair_window(parsed, node)
            assert syntax._next_token_on_the_way(node, way, size) == syntax._next_token_start(node, size)
            assert (len(way) <= 1) == syntax._at_module_scope(node)
            asked["window"] += 1
            if node.is_missing and node.type == "identifier":
                parent, _, index = way[-1]
                assert parent.field_name_for_child(index) == syntax._field_of(node)
                asked["field"] += 1
            for closer in "})]>":
                assert _key(syntax._unclosed_opener(parsed, node, closer, way)) == \
                    _key(syntax._unclosed_opener(parsed, node, closer))
                asked["opener"] += 1
    assert asked["window"] > 500 and asked["field"] > 5 and asked["opener"] > 2000


def test_the_findings_are_those_of_the_searched_answers(monkeypatch) -> None:
    for parsed in VERSIONS[::2]:
        for explain in (True, False):
            syntax._tried.clear()
            syntax._tried_bytes = 0
            mine = syntax.syntax_diagnostics(parsed, explain=explain)
            syntax._tried.clear()
            syntax._tried_bytes = 0
            with monkeypatch.context() as patch:
                # Without the way: each answer searched from the error, as before.
                patch.setattr(syntax, "_errors_on_their_way",
                              lambda root, parts=None: ((n, None) for n in syntax._error_nodes(root)))
                theirs = syntax.syntax_diagnostics(parsed, explain=explain)
            assert mine == theirs, parsed.source.data[:80]


def test_explaining_the_errors_of_a_typed_version_searches_no_parent_or_sibling(monkeypatch) -> None:
    """While a statement is typed, about ten errors are explained per version, nearly all from the repair cache: the
    window, the token after the error and the scope of each were ten to twenty searches down from the root."""
    statement_ending_at = syntax._statement_ending_at
    # The statement before a missing ';' is found from a node the walk did not pass (tests/test_syntax_node_access.py).
    monkeypatch.setattr(syntax, "_statement_ending_at",
                        lambda root, at: statement_ending_at(getattr(root, "_inner", root), at))
    versions = list(typed_versions(comment_at_once=True))
    errors = 0
    for parsed in versions:
        syntax._parse_errors(parsed, True, None, [])  # the repair searches, made once
        reads: Counter = Counter()
        counted = Parsed(parsed.source, _Counted(parsed.tree, reads))
        errors += len(syntax._parse_errors(counted, True, None, []))
        assert reads["parent"] + reads["next_sibling"] + reads["prev_sibling"] == 0, reads
    assert errors > 8 * len(versions)
