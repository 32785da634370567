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
