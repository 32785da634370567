"""With reuse, an entry point that nothing calls gets no inherited summary (analyzer.UncalledSummary), and a
later version that calls it has it analysed again when the caller reads it (reuse._WholeSummary).

The inherited part (a backward search to the control flow, the parameters and the pointees, and a path per
requirement that reaches one) was a fifth of a clean version's lint, for callers that WGSL forbids. The
shortcut is compared with a fresh lint on random edit sequences that call entry points (before and after
them, so that replayed ones move, from uniform and non-uniform control flow, with uniform and non-uniform
arguments), on matrix documents, the spec's cases, the examples and public kernels, with and without
uniformity findings.
"""

from __future__ import annotations

import random
import re

import pytest

from benchmarks.common import matrix_heavy_kernel
from coop_lsp.analysis.uniformity.analyzer import UncalledSummary, UniformityAnalysis
from coop_lsp.analysis.uniformity.graph import Graph
from coop_lsp.ide import Analysis
from coop_lsp.lint import Reuse, lint_source
from coop_lsp.syntax import Document
from coop_lsp.syntax.parser import Parsed
from tests.support.trees import public_kernel_sample
from tests.test_lint_reuse import CORPUS, as_edit, edit, valid_edit

# An entry point with a finding of its own (related notes that must move with it) and requirements on its
# parameters and control flow that a caller inherits.
FAILING = """enable chromium_experimental_subgroup_matrix;
enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<f16>;
var<workgroup> tile: array<f16, 64>;

fn helper(x: u32) -> u32 {
  return x * 2u;
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lane: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  if (lane > 3u) {
    workgroupBarrier();
  }
  if (wg.x > 1u) {
    storageBarrier();
  }
  let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>>(&out, helper(wg.y), false, 8u);
}

@compute @workgroup_size(64)
fn other(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  if (wg.z == 0u) {
    workgroupBarrier();
  }
  tile[lid.x] = out[wg.x];
}
"""

_ENTRY = re.compile(r"@(?:compute|fragment|vertex)[^\n]*\n(?:@[^\n]*\n)*fn ([A-Za-z_][A-Za-z0-9_]*)\(|"
                    r"@(?:compute|fragment|vertex)[^\n]*?fn ([A-Za-z_][A-Za-z0-9_]*)\(")
_ARGUMENTS = ["lane", "wg", "1u", "vec3<u32>(lane)", "vec3<u32>(2u)", "wg.x", "lid", "lid.x"]


def _entry_points(text: str) -> list[tuple[str, int]]:
    """(name, parameter count) of the entry points declared in `text` (by their spelling: good enough)."""
    found = []
    for match in _ENTRY.finditer(text):
        name = match.group(1) or match.group(2)
        depth, at = 1, match.end()
        while at < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[at], 0)
            at += 1
        found.append((name, text[match.end():at].count(":")))
    return found


def call_an_entry_point(text: str, rng: random.Random, serial: int) -> str:
    """A new function that calls an entry point, from uniform or non-uniform control flow, above or below."""
    entries = _entry_points(text)
    if not entries:
        return text
    name, count = rng.choice(entries)
    arguments = ", ".join(rng.choice(_ARGUMENTS) for _ in range(count))
    call = f"{name}({arguments});"
    body = rng.choice([f"  {call}", f"  if (lane > 3u) {{ {call} }}", f"  if (wg.x > 1u) {{\n    {call}\n  }}",
                       f"  workgroupBarrier();\n  {call}"])
    caller = (f"@compute @workgroup_size(64)\nfn calls{serial}(@builtin(local_invocation_index) lane: u32, "
              f"@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {{\n{body}\n}}"
              if rng.random() < 0.7 else f"fn calls{serial}(lane: u32, wg: vec3<u32>, lid: vec3<u32>) {{\n{body}\n}}")
    starts = [m.start() for m in re.finditer(r"(?m)^(?:@|fn )", text)] + [len(text)]
    at = rng.choice(starts)
    return text[:at] + caller + "\n" + text[at:]


def drop_a_caller(text: str, rng: random.Random) -> str:
    callers = list(re.finditer(r"(?:@compute @workgroup_size\(64\)\n)?fn calls\d+\([^\n]*\{\n(?:[^\n]*\n)*?\}\n",
                               text))
    if not callers:
        return text
    gone = rng.choice(callers)
    return text[:gone.start()] + text[gone.end():]


@pytest.fixture
def whole_summaries(monkeypatch) -> list[int]:
    """One entry per replayed uncalled summary that a caller read (so that it was analysed again)."""
    made: list[int] = []
    original = UniformityAnalysis.whole_summary

    def counted(analysis, function):
        made.append(function.start_byte)
        return original(analysis, function)

    monkeypatch.setattr(UniformityAnalysis, "whole_summary", counted)
    return made


def check_versions(text: str, rng: random.Random, steps: int) -> int:
    """Edits `text` as the server does, mostly calling entry points, and compares every version's
    diagnostics with a fresh lint's; returns how many uniformity summaries were replayed."""
    reuse, document = Reuse(), Document(text)
    Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse)
    replayed = 0
    for step in range(steps):
        choice = rng.random()
        if choice < 0.45:
            text = call_an_entry_point(text, rng, step)
        elif choice < 0.6:
            text = drop_a_caller(text, rng)
        elif choice < 0.85 and any(line.endswith("{") and "switch" not in line and line.startswith((" ", "fn"))
                                   for line in text.split("\n")):  # (valid_edit's blocks)
            text = valid_edit(text, rng, step)
        else:
            text = edit(text, rng)
        span, inserted = as_edit(document.source.data, text.encode())
        document.replace(span, inserted)
        reused = Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse).result
        assert reused.diagnostics == lint_source(text).diagnostics, text
        replayed += reuse.summaries.replayed
    return replayed


def test_calling_a_replayed_uncalled_entry_point_equals_a_fresh_lint(whole_summaries) -> None:
    rng = random.Random(5)
    replayed = 0
    for _ in range(12):
        replayed += check_versions(FAILING, rng, steps=8)
    for seed in range(3):
        replayed += check_versions(matrix_heavy_kernel(random.Random(seed), functions=3), rng, steps=6)
    assert replayed > 200 and len(whole_summaries) > 20, (replayed, len(whole_summaries))


def test_calling_entry_points_of_the_spec_cases_and_examples_equals_a_fresh_lint(whole_summaries) -> None:
    rng = random.Random(8)
    texts = [text for text in CORPUS if _entry_points(text)]
    for text in texts[::3]:
        check_versions(text, rng, steps=4)
    assert len(whole_summaries) > 30, len(whole_summaries)


def test_calling_entry_points_of_public_kernels_equals_a_fresh_lint() -> None:
    files = [path for path in public_kernel_sample(21, count=20) if path.stat().st_size < 30_000]
    if not files:
        pytest.skip("the public corpora are not here")
    rng = random.Random(21)
    for path in files:
        check_versions(path.read_text(encoding="utf-8", errors="replace"), rng, steps=3)


def _server_versions(texts: list[str]) -> list[list]:
    """Each text's diagnostics, analysed one after the other as the server does, each checked against a
    fresh lint's."""
    reuse, document = Reuse(), Document(texts[0])
    found = [Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse).result.diagnostics]
    for text in texts[1:]:
        span, inserted = as_edit(document.source.data, text.encode())
        document.replace(span, inserted)
        found.append(Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse).result.diagnostics)
        assert found[-1] == lint_source(text).diagnostics, text
    return found


def test_a_replayed_uncalled_summary_is_analysed_again_only_when_read(whole_summaries) -> None:
    moved = FAILING.replace("return x * 2u;", "let y = x + 1u;\n  return y * 2u;")  # main and other move
    caller = ("@compute @workgroup_size(64)\nfn calls(@builtin(local_invocation_index) lane: u32) {\n"
              "  main(1u, vec3<u32>(lane));\n}\n")
    called = moved + caller
    found = _server_versions([FAILING, moved, called])
    assert whole_summaries == [called.index("@compute @workgroup_size(64)\nfn main")]  # read in the last only
    # The caller inherits main's requirement on its second argument, explained from inside main.
    inherited = [d for d in found[-1] if d.message == "'storageBarrier' must only be called from uniform control flow"]
    assert [d.span.start for d in inherited] == [called.index("storageBarrier")]
    assert any("'calls'" in r.message for r in inherited[0].related)


@pytest.fixture
def backward_searches(monkeypatch) -> list:
    made = []
    original = Graph.reaching

    def counted(graph, goals, known=None):
        made.append(tuple(goals))
        return original(graph, goals, known)

    monkeypatch.setattr(Graph, "reaching", counted)
    return made


def test_an_edited_entry_point_makes_no_backward_search_with_reuse(backward_searches) -> None:
    # A clean version of a matrix document: the edited kernel is analysed again. Its requirements (barriers,
    # matrix loads) reach no non-uniform value and nothing calls it, so nothing needs a backward search; the
    # inherited part searched back to its control flow and its parameters.
    text = matrix_heavy_kernel(random.Random(3), functions=4)
    reuse = Reuse()
    first = lint_source(text, reuse=reuse)
    assert backward_searches == []
    changed = text.replace("k0 += 16u", "k0 += 32u", 1)
    assert changed != text
    result = lint_source(changed, reuse=reuse)
    assert reuse.summaries.analysed == 1 and reuse.summaries.replayed == 3
    assert backward_searches == []
    assert first.diagnostics == lint_source(text).diagnostics
    assert result.diagnostics == lint_source(changed).diagnostics


def test_an_uncalled_entry_point_is_recorded_as_such() -> None:
    reuse = Reuse()
    lint_source(FAILING, reuse=reuse)
    summaries = [record.summary for record in reuse.summaries._records.previous.values()]
    assert sum(isinstance(s, UncalledSummary) for s in summaries) == 2  # main, other; not helper

