"""The uniformity graph's searches and the walk's loops do less work for the same answers (issue 37).

Graph.spread is compared with a plain search on the graphs of generated matrix kernels, public kernels
and those kernels with junk inserted; the work tests count calls the old code made.
"""

import random
import sys

from benchmarks.common import matrix_heavy_kernel
from coop_lsp.analysis.uniformity import analyzer
from coop_lsp.analysis.uniformity.graph import Graph
from coop_lsp.analysis.uniformity.levels import SUBGROUP, TINT
from coop_lsp.semantic.checker import check
from coop_lsp.syntax import parse
from tests.support.trees import public_kernel_sample, with_junk

_JUNK = ["{", "}", ";", "for (;;) {", "loop {", "break;", "continue;", "return;", "if x {", "x = lid;",
         "var y = 0u;", "workgroupBarrier();", "&&"]


def _inputs() -> list[str]:
    texts = [matrix_heavy_kernel(random.Random(seed), functions=3) for seed in range(4)]
    texts += [path.read_text(encoding="utf-8", errors="replace") for path in public_kernel_sample(22, count=30)]
    rng = random.Random(22)
    texts += [junked for text in texts[:12] for junked in with_junk(rng, text, 2, _JUNK)]
    return texts


def _graphs(monkeypatch, texts: list[str]) -> list[tuple[Graph, list[int]]]:
    """Each analysed function's graph when it is evaluated, with its requirements' targets."""
    made = []
    evaluate = analyzer._FunctionAnalysis._evaluate

    def recorded(self):
        made.append((self.graph, [pending.target for pending in self.pending]))
        return evaluate(self)

    monkeypatch.setattr(analyzer._FunctionAnalysis, "_evaluate", recorded)
    for text in texts:
        parsed = parse(text)
        _, model = check(parsed, None, "auto")
        for level in (TINT, SUBGROUP):
            analyzer.UniformityAnalysis(parsed.root, parsed.source.data, model, level, "chromium").run()
    return made


def _plain_search(edges: list[list[int]], starts, seen: set[int]) -> set[int]:
    """What spread must answer, the slow way: each start searched on its own, depth first."""
    found = set(seen)
    for start in starts:
        if start in seen:
            continue
        stack = [start]
        while stack:
            node = stack.pop()
            if node in found:
                continue
            found.add(node)
            stack.extend(edges[node])
    return found


def test_spread_finds_what_a_plain_search_finds(monkeypatch):
    graphs = _graphs(monkeypatch, _inputs())
    rng = random.Random(5)
    asked = 0
    for graph, targets in graphs:
        if not targets:
            continue
        # The two searches of an evaluation: some targets, then the rest with what the first found.
        half = rng.randrange(len(targets) + 1)
        seen = graph.spread(targets[:half], set())
        assert seen == _plain_search(graph.edges, targets[:half], set())
        before = set(seen)
        assert graph.spread(targets[half:], seen) is seen
        assert seen == _plain_search(graph.edges, targets[half:], before)
        # From random nodes too, some already seen.
        starts = [rng.randrange(len(graph.edges)) for _ in range(3)]
        known = graph.spread(starts[:1], set())
        assert graph.spread(starts, set(known)) == _plain_search(graph.edges, starts, known)
        asked += 1
    # (The public corpora give most graphs; without them, on a fresh machine, the generated kernels and their
    # junked versions alone give about 60.)
    assert asked >= (100 if public_kernel_sample(22, count=1) else 40)


def test_spread_walks_the_list_it_grows_without_a_pop_per_node():
    # The forward search runs on every analysed function of a lint, and in a correct kernel it covers most
    # of the graph: it read each node through list.pop, a call per node.
    parsed = parse(matrix_heavy_kernel(random.Random(2), functions=4))
    _, model = check(parsed, None, "auto")
    graphs = []
    evaluate = analyzer._FunctionAnalysis._evaluate

    def recorded(self):
        graphs.append((self.graph, [pending.target for pending in self.pending]))
        return evaluate(self)

    analyzer._FunctionAnalysis._evaluate = recorded
    try:
        analyzer.UniformityAnalysis(parsed.root, parsed.source.data, model, TINT, "chromium").run()
    finally:
        analyzer._FunctionAnalysis._evaluate = evaluate
    calls = []

    def profiled(frame, event, arg):
        if event == "c_call":
            calls.append(arg.__name__)

    searched = 0
    for graph, targets in graphs:
        sys.setprofile(profiled)
        try:
            found = graph.spread(targets, set())
        finally:
            sys.setprofile(None)
        searched += len(found)
    assert searched > 500  # hundreds of nodes reached
    assert calls.count("pop") == 0, calls.count("pop")
    # A set's add and a list's append for each node found, and no more.
    assert len(calls) <= 2 * searched + 4 * len(graphs), (len(calls), searched)


def _steps(make) -> int:
    """The interpreter's steps (bytecode instructions) run by make(), in Python code of any frame."""
    steps = [0]

    def traced(frame, event, arg):
        frame.f_trace_opcodes = True

        def local(frame, event, arg):
            if event == "opcode":
                steps[0] += 1
            return local

        return local

    sys.settrace(traced)
    try:
        make()
    finally:
        sys.settrace(None)
    return steps[0]


def test_a_label_is_a_value_made_without_a_call_per_field():
    from coop_lsp.core.text import Span
    from coop_lsp.analysis.uniformity.graph import Label

    one, same = Label("branch", "control flow depends", Span(1, 4)), Label("branch", "control flow depends", Span(1, 4))
    other = Label("source", "control flow depends", Span(1, 4), Span(0, 2))
    assert one == same and hash(one) == hash(same) and one != other and len({one, same, other}) == 2
    assert repr(one) == "Label(kind='branch', message='control flow depends', span=Span(start=1, end=4), control_span=None)"
    # The walk makes one for every branch and every source it reads: a frozen dataclass set each field through
    # object.__setattr__, a call of its own (about forty steps; four stores now).
    span = Span(1, 4)
    assert _steps(lambda: Label("branch", "control flow depends", span)) < 25


def test_reads_of_uniform_module_variables_make_no_span(monkeypatch):
    # A kernel reads its uniforms and read-only buffers everywhere; a read names no source of non-uniformity,
    # so its span (a frozen object made field by field) was made for nothing.
    made = []
    span = analyzer._span

    def counted(node):
        made.append(node.type)
        return span(node)

    monkeypatch.setattr(analyzer, "_span", counted)

    def spans(reads: int, buffer: str = "params.n") -> tuple[int, list]:
        source = ("struct P { n: u32 }\n@group(0) @binding(0) var<uniform> params: P;\n"
                  "@group(0) @binding(1) var<storage, read> a: array<u32>;\n"
                  "@group(0) @binding(2) var<storage, read_write> out: array<u32>;\n"
                  "@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) lid: u32) {\n"
                  "  var total = 0u;\n"
                  + "".join(f"  total += {buffer} + a[{i}u];\n" for i in range(reads))
                  + "  workgroupBarrier();\n  out[lid] = total;\n}\n")
        made.clear()
        failures, _ = _analysed(source)
        return len(made), failures

    few, few_failures = spans(1)
    many, many_failures = spans(40)
    assert few_failures == many_failures == []
    assert many == few, (few, many)
    # A read that is a source still names it, at its own place.
    _, failures = spans(1, "out[0]")
    assert failures == [] and spans(40, "out[0]")[0] > few


def _analysed(source: str):
    parsed = parse(source)
    _, model = check(parsed, None, "auto")
    analysis = analyzer.UniformityAnalysis(parsed.root, parsed.source.data, model, TINT, "chromium")
    return analysis.run(), analysis.summaries
