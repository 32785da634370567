"""The uniformity analysis does work in proportion to what a kernel needs answered (issue 37, item 4).

Each test counts work on the analysis of generated matrix-heavy kernels (every function multiplies
subgroup matrices in a K loop between barriers, benchmarks/matrix_kernels.py), and checks on a kernel
with a real error that the shortcut still finds it.
"""

import random

import pytest

from benchmarks.common import matrix_heavy_kernel
from coop_lsp.analysis.uniformity import analyzer
from coop_lsp.analysis.uniformity.graph import Graph
from coop_lsp.analysis.uniformity.levels import TINT
from coop_lsp.semantic.checker import check
from coop_lsp.syntax import parse


def _analysed(source: str):
    parsed = parse(source)
    _, model = check(parsed, None, "auto")
    analysis = analyzer.UniformityAnalysis(parsed.root, parsed.source.data, model, TINT, "chromium")
    return analysis, analysis.run()


@pytest.fixture
def backward_searches(monkeypatch):
    """The goals of each backward search (Graph.reaching) made, with the graph's size."""
    made = []
    original = Graph.reaching

    def counted(graph, goals, known=None):
        made.append((tuple(goals), len(graph.edges)))
        return original(graph, goals, known)

    monkeypatch.setattr(Graph, "reaching", counted)
    return made


@pytest.fixture
def exit_walks(monkeypatch):
    """The kinds of the nodes _exits was asked about (it asks itself about the statements inside)."""
    asked = []
    original = analyzer._exits

    def counted(node, cache):
        asked.append(node.type)
        return original(node, cache)

    monkeypatch.setattr(analyzer, "_exits", counted)
    return asked


def test_a_correct_matrix_kernel_makes_no_backward_search(backward_searches):
    # Every function has requirements (barriers, matrix loads and multiplies); none can fail, so none needs
    # the reaching sets. On a graph of hundreds of nodes per function, each was an index of all its edges.
    analysis, failures = _analysed(matrix_heavy_kernel(random.Random(3), functions=8))
    assert failures == []
    assert len(analysis.summaries) == 8
    assert backward_searches == []


def test_a_real_error_is_still_searched_for_and_found(backward_searches):
    source = """enable chromium_experimental_subgroup_matrix;
enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<f16>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lane: u32) {
  if (lane > 3u) {
    workgroupBarrier();
  }
  for (var k = 0u; k < 4u; k++) {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>>(&out, lane * k, false, 8u);
  }
}
"""
    _, failures = _analysed(source)
    messages = [f.message for f in failures]
    assert "'workgroupBarrier' must only be called from uniform control flow" in messages
    assert "'subgroupMatrixLoad' requires argument 1 to be uniform" in messages
    assert backward_searches  # the goal was met, so the reaching sets were made


def test_loops_and_branches_that_spell_no_way_out_are_not_walked_for_one(exit_walks):
    # The generated kernels have an early 'return' in one branch per function and loops without 'break'
    # or 'continue': how control leaves a loop is known without asking about the statements inside it
    # (the K loop holds the staging loops, the tile loops and the barriers), only the branch is walked.
    analysis, failures = _analysed(matrix_heavy_kernel(random.Random(5), functions=8))
    assert failures == []
    loops = sum(kind == "for_statement" for kind in exit_walks)
    assert loops >= 8 * 4  # each loop is asked about once, when its analysis ends
    inside = [kind for kind in exit_walks if kind not in ("for_statement", "if_statement")]
    # Per function: the early return's condition, its block and the return itself.
    assert len(inside) <= 3 * 8, inside
