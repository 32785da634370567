"""The shortcuts the single-file lint takes for speed answer exactly as the work they replace."""

from coop_lsp.analysis.uniformity.graph import MAY_BE_NON_UNIFORM, Graph
from coop_lsp.core.memo import memoized
from coop_lsp.semantic import types as t
from coop_lsp.semantic.builtins.signature import match_call
from coop_lsp.semantic.context import CORE_TABLE


def test_a_memoized_function_is_called_once_per_arguments():
    calls = []

    @memoized()
    def square(x):
        calls.append(x)
        return x * x

    assert [square(3), square(3), square(4)] == [9, 9, 16]
    assert calls == [3, 4]


def test_a_memoized_function_still_answers_for_arguments_that_cannot_be_hashed():
    @memoized()
    def total(values):
        return sum(values)

    assert total([1, 2]) == 3
    assert total([1, 2, 3]) == 6


def test_a_memoized_function_keeps_at_most_its_limit():
    calls = []

    @memoized(limit=2)
    def same(x):
        calls.append(x)
        return x

    for x in (1, 2, 3, 1):
        same(x)
    assert calls == [1, 2, 3, 1]  # full at 3: what was kept is forgotten


def test_a_remembered_overload_match_equals_a_fresh_one():
    overloads = CORE_TABLE.get("fma").overloads
    first = match_call(overloads, [], [t.F32, t.F32, t.F32])
    again = match_call(overloads, [], [t.F32, t.F32, t.F32])
    assert again is first
    assert [m.result for m in first] == [t.F32]
    assert [m.result for m in match_call(overloads, [], [t.Vector(2, t.F32)] * 3)] == [t.Vector(2, t.F32)]


def test_the_graph_answers_paths_after_it_changes():
    graph = Graph()
    value = graph.node()
    assert graph.path_to(value) is None
    assert not graph.reaches(value, MAY_BE_NON_UNIFORM)
    middle = graph.node(MAY_BE_NON_UNIFORM)
    graph.add_edge(value, middle)  # a search made before must not answer for the changed graph
    assert graph.path_to(value) == [value, middle, MAY_BE_NON_UNIFORM]
    assert graph.reaches(value, MAY_BE_NON_UNIFORM)


def test_of_several_goals_the_nearest_is_found_and_among_equals_the_first_met():
    graph = Graph()
    far, near_a, near_b = graph.node(), graph.node(), graph.node()
    hop = graph.node(far)
    start = graph.node(near_b, hop, near_a)
    assert graph.path_to(start, {far, near_a}) == [start, near_a]
    assert graph.path_to(start, {near_a, near_b}) == [start, near_b]  # met first: its edge comes first
    assert graph.path_to(start, {far}) == [start, hop, far]


def test_a_path_is_the_same_whether_or_not_a_whole_search_was_made_first():
    # path_to stops at the first goal it meets unless a whole search from the start is at hand (reaches
    # makes one): both must name the same goal and the same path, on graphs with cycles and ties.
    import random
    rng = random.Random(7)
    for _ in range(300):
        size = rng.randint(4, 30)
        fresh, searched = Graph(), Graph()
        edges = [[rng.randrange(size) for _ in range(rng.randint(0, 3))] for _ in range(size)]
        for graph in (fresh, searched):
            for targets in edges:
                graph.node()
            for source, targets in enumerate(edges):
                for target in targets:
                    graph.add_edge(source, target)
        for _ in range(10):
            start = rng.randrange(size)
            goal = rng.choice([MAY_BE_NON_UNIFORM, rng.randrange(size), set(rng.sample(range(size), 3))])
            searched.reaches(start, MAY_BE_NON_UNIFORM)
            assert fresh.path_to(start, goal) == searched.path_to(start, goal)


def _quiet_names(source: str) -> set[str]:
    from coop_lsp.analysis.uniformity.quiet import quiet_functions
    from coop_lsp.semantic.checker import check
    from coop_lsp.syntax import parse

    parsed = parse(source)
    _, model = check(parsed, None, "auto")
    quiet = quiet_functions(parsed.root, parsed.source.data, model)
    return {parsed.source.text[f.child_by_field_name("name").start_byte:f.child_by_field_name("name").end_byte]
            for f in parsed.root.named_children if f.start_byte in quiet}


def test_only_functions_that_name_no_requirement_wait_for_a_caller():
    source = """enable chromium_experimental_subgroup_matrix;
enable f16;
alias Left = subgroup_matrix_left<f16, 8, 8>;
fn plain(x: u32) -> u32 { return x * 2u + u32(abs(f32(x))); }
fn barrier() { workgroupBarrier(); }
fn caller(x: u32) -> u32 { return plain(x); }
fn scan(x: u32) -> u32 { return subgroupAdd(x); }
fn aliased() { var m: Left; }
fn derivative(x: f32) -> f32 { return dpdx(x); }
"""
    assert _quiet_names(source) == {"plain"}


def test_a_module_scope_matrix_keeps_every_function_analysed():
    source = """enable chromium_experimental_subgroup_matrix;
enable f16;
var<private> m: subgroup_matrix_left<f16, 8, 8>;
fn plain(x: u32) -> u32 { return x * 2u; }
"""
    assert _quiet_names(source) == set()


def test_a_quiet_function_still_carries_non_uniformity_to_its_caller():
    from coop_lsp.lint import lint_source

    source = """fn twice(x: u32) -> u32 { return x * 2u; }
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lane: u32) {
  if (twice(lane) > 3u) { workgroupBarrier(); }
}
"""
    findings = [d for d in lint_source(source).diagnostics if "workgroupBarrier" in d.message]
    assert len(findings) == 1
    assert any("local_invocation_index" in r.message or "lane" in r.message for r in findings[0].related)


_CALLERS_CASES = {
    # An entry point's requirements depend on its parameters; nothing calls it, so no summary is read.
    "entry point": """@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) lane: u32) {
  if (group.x > 3u) { workgroupBarrier(); }
  if (lane > 3u) { storageBarrier(); }
}
""",
    # A helper's requirement on its parameter reaches its caller's non-uniform argument.
    "helper": """fn sync_if(x: u32) { if (x > 3u) { workgroupBarrier(); } }
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lane: u32) { sync_if(lane); }
""",
    # Calling an entry point is an error, but the uniformity analysis still reads its summary there.
    "called entry point": """@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) group: vec3<u32>) { if (group.x > 3u) { workgroupBarrier(); } }
fn other(@builtin(local_invocation_index) lane: u32) { main(vec3(lane)); }
""",
    # Named in a comment only: counted as a possible caller, which costs time and changes nothing.
    "named in a comment": """// lonely() has no caller
fn lonely(x: u32) { if (x > 3u) { workgroupBarrier(); } }
""",
}


def _uniformity_findings(source: str):
    from coop_lsp.lint import lint_source

    return [(d.code, d.span, d.message, tuple((r.span, r.message) for r in d.related))
            for d in lint_source(source).diagnostics if d.code.startswith("U")]


def test_a_function_nothing_calls_has_the_same_findings_without_what_callers_would_read(monkeypatch):
    from coop_lsp.analysis.uniformity.analyzer import _FunctionAnalysis

    asked = {}
    may_be_called = _FunctionAnalysis._may_be_called

    def spied(self):
        asked[self.name] = may_be_called(self)
        return asked[self.name]

    for name, source in _CALLERS_CASES.items():
        monkeypatch.setattr(_FunctionAnalysis, "_may_be_called", spied)
        asked.clear()
        skipped = _uniformity_findings(source)
        seen = dict(asked)
        monkeypatch.setattr(_FunctionAnalysis, "_may_be_called", lambda self: True)
        assert skipped == _uniformity_findings(source), name
        if name == "entry point":
            assert seen == {"main": False}
            assert len(skipped) == 1 and "storageBarrier" in skipped[0][2]
        if name == "helper":
            assert seen["sync_if"] is True
            assert len(skipped) == 1 and "sync_if" in skipped[0][2] + "".join(m for _, m in skipped[0][3])
        if name == "called entry point":
            assert seen["main"] is True


def _syntax_findings(data: bytes):
    from coop_lsp.syntax import parse, syntax_diagnostics

    return [(d.code, d.span, d.message, d.fixes) for d in syntax_diagnostics(parse(data))]


def test_the_query_finds_what_the_cursor_walk_finds(monkeypatch):
    # Declarations are searched by a tree-sitter query; the walk it replaced must give the same findings.
    import random
    from pathlib import Path

    from benchmarks.common import synthetic_kernel
    from coop_lsp.syntax import diagnostics

    root = Path(__file__).resolve().parent
    inputs = [p.read_bytes() for p in sorted((root / "spec").rglob("*.wgsl"))]
    rng = random.Random(5)
    inputs += [synthetic_kernel(lines=200, rng=rng).encode() for _ in range(5)]
    inputs.append(b"fn f() {\n  let let = 1;\n  var __x = 2;\n  let _ = 3;\n  loop {\n    continuing { break if true; }\n"
                  b"    let y = 1;\n  }\n  let z = 1 & 2 | 3;\n}\n@computee fn g() {}\n/* open")
    queried = [_syntax_findings(data) for data in inputs]
    monkeypatch.setattr(diagnostics, "QUERY_MAX_BYTES", -1)  # every declaration walked
    walked = [_syntax_findings(data) for data in inputs]
    assert queried == walked
    assert sum(map(len, queried)) > 100


def test_a_declaration_too_large_for_the_query_is_walked(monkeypatch):
    # A query cursor slows down on deep trees (a chain of 100,000 operators: 35 s); the walk stays linear.
    from coop_lsp.syntax import diagnostics

    def refuse(root):
        raise AssertionError("queried a declaration of %d bytes" % (root.end_byte - root.start_byte))

    monkeypatch.setattr(diagnostics, "_queried_nodes", refuse)
    data = ("fn f() -> i32 {\n  return " + "1 + " * 100_000 + "1 & 2 | 3;\n}\n").encode()
    assert {code for code, *_ in _syntax_findings(data)} == {"S002"}
