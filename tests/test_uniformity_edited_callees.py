"""Callers' uniformity results replayed where an edited callee's new summary reads as the old one.

An edit inside a helper gives it a new summary record; its callers are replayed when what they read of the
new summary is the same, its places aside, and analysed again otherwise (analysis/uniformity/reuse.py,
callee_reading.py). A caller's failures name places inside its callees (the barrier and the notes of the
call chain), and those move with the callee's text. These tests edit helpers of real kernels as the server
edits a document and compare every version's uniformity failures, whole and in order, and its diagnostics,
with those of an analysis that keeps nothing; handmade modules make edits that do change what a caller reads
(a parameter that must now be uniform, a barrier added, a return value or a pointer write that becomes
non-uniform), and counts say which functions each version analysed again.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from benchmarks.common import matrix_heavy_kernel, matrix_library_kernel
from coop_lsp.analysis.uniformity import analyzer
from coop_lsp.ide import Analysis
from coop_lsp.lint import Reuse, lint_source
from coop_lsp.syntax import Document
from coop_lsp.syntax.parser import Parsed
from tests.support.spec import load_cases
from tests.test_lint_reuse import as_edit
from tests.test_uniformity_moved_callees import _roles

ROOT = Path(__file__).resolve().parent.parent

# A barrier reached through a chain of helpers, and a helper each of whose versions below changes what its
# caller reads, or only where things are.
CHAIN = """enable subgroups;
@group(0) @binding(0) var<storage, read_write> buf: array<u32>;
var<workgroup> shared_value: u32;
fn leaf(v: u32) -> u32 {
  workgroupBarrier();
  return subgroupAdd(v);
}
fn middle(v: u32) -> u32 {
  let r = leaf(v);
  return r + shared_value;
}
fn top(x: u32) -> u32 {
  if (x > 0u) {
    return middle(x);
  }
  return 0u;
}
fn store(p: ptr<function, u32>, v: u32) {
  *p = v;
}
fn scale(v: u32) -> u32 {
  return v * 2u;
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  buf[li] = top(li);
  var kept = 0u;
  store(&kept, wg.x);
  if (kept > 1u) {
    workgroupBarrier();
  }
  let s = scale(wg.y);
  if (s > 3u) {
    storageBarrier();
  }
}
@compute @workgroup_size(64)
fn other(@builtin(local_invocation_index) li: u32) {
  if (buf[li] > 2u) {
    buf[0] = middle(li);
  }
}
"""

LEAF = "fn leaf(v: u32) -> u32 {\n  workgroupBarrier();\n  return subgroupAdd(v);\n}"
STORE = "fn store(p: ptr<function, u32>, v: u32) {\n  *p = v;\n}"
SCALE = "fn scale(v: u32) -> u32 {\n  return v * 2u;\n}"

# Each a replacement of one helper; `True` where its callers read something new (they are analysed again).
HELPER_VERSIONS = [
    (LEAF, LEAF.replace("{\n", "{\n  let first = 1u;\n", 1), False),  # the barrier and the rest move down
    (LEAF, LEAF.replace("subgroupAdd(v);", "subgroupAdd(v);\n  // after the last place read"), False),
    (LEAF, LEAF.replace("{\n", "{\n\n\n  // a comment above the barrier\n", 1), False),
    (LEAF, LEAF.replace("  workgroupBarrier();\n", ""), True),  # the barrier goes: nothing fails any more
    (LEAF, LEAF.replace("  workgroupBarrier();\n", "  workgroupBarrier();\n  storageBarrier();\n"), True),
    (LEAF, LEAF.replace("return subgroupAdd(v);", "if (v > 0u) {\n    workgroupBarrier();\n  }\n"
                        "  return subgroupAdd(v);"), True),  # the parameter must now be uniform
    (LEAF, LEAF.replace("return subgroupAdd(v);", "return subgroupAdd(v) + buf[0];"), True),  # a non-uniform return
    (LEAF, LEAF.replace("return subgroupAdd(v);", "return subgroupAdd(v) + middle(v);"), True),  # a cycle (invalid)
    (STORE, STORE.replace("*p = v;", "*p = buf[v];"), True),  # the pointer's new value is non-uniform
    (STORE, STORE.replace("*p = v;", "let unused = 3u;\n  *p = v;"), False),
    (SCALE, SCALE.replace("return v * 2u;", "return v * 2u + buf[0];"), True),  # the returned value too
    (SCALE, SCALE.replace("return v * 2u;", "let twice = v * 2u;\n  return twice;"), False),
    (SCALE, SCALE.replace("return v * 2u;", "return 0u;"), True),  # no longer depends on its parameter
]

# A statement added inside a helper, or a literal changed: each keeps most helpers' summaries as their
# callers read them, and moves the places after it.
ADDED_LINES = ("  let edited_here = 1u;\n", "  // an edited comment\n", "\n", "  _ = 2u;\n",
               "  workgroupBarrier();\n")
LITERAL = re.compile(r"\b\d+u\b")


@pytest.fixture
def failures(monkeypatch) -> list:
    """Each uniformity pass's failures, as it returned them (the level's name, then the list)."""
    found: list = []
    run = analyzer.UniformityAnalysis.run

    def recorded(analysis):
        result = run(analysis)
        found.append((analysis.level, list(result)))
        return result

    monkeypatch.setattr(analyzer.UniformityAnalysis, "run", recorded)
    return found


class Edits:
    """One document edited as the server edits it, each version compared with an analysis that keeps
    nothing: the uniformity failures whole and in order, and the diagnostics (a fresh lint's)."""

    def __init__(self, text: str, failures: list) -> None:
        self.reuse, self.document, self.failures = Reuse(), Document(text), failures
        # Per version: the functions analysed again, and the uniformity passes (tint's, and the subgroup
        # level's where Tint found a subgroup-scope failure): each pass analyses the edited function.
        self.analysed: list[int] = []
        self.passes: list[int] = []
        self.relinked = 0
        self.versions = 0
        Analysis.of_parsed(Parsed(self.document.source, self.document.tree.copy()), reuse=self.reuse)

    def to(self, text: str) -> None:
        span, inserted = as_edit(self.document.source.data, text.encode())
        self.document.replace(span, inserted)
        del self.failures[:]
        kept = Analysis.of_parsed(Parsed(self.document.source, self.document.tree.copy()), reuse=self.reuse)
        incremental = list(self.failures)
        self.analysed.append(self.reuse.summaries.analysed)
        self.passes.append(len(incremental))
        self.relinked += self.reuse.summaries.relinked
        self.versions += 1
        del self.failures[:]
        fresh_document = Document(text)
        Analysis.of_parsed(Parsed(fresh_document.source, fresh_document.tree.copy()), reuse=Reuse())
        assert incremental == self.failures, text
        assert kept.result.diagnostics == lint_source(text).diagnostics, text


def _body_lines(text: str, start: int) -> list[int]:
    """The starts of the lines inside the body of the function declared at `start` (after its `{` line,
    up to its closing brace's line)."""
    opening = text.index("{\n", start) + 2
    closing = text.find("\n}", opening)
    closing = len(text) if closing < 0 else closing + 1
    return [opening + m.start() for m in re.finditer(r"^", text[opening:closing], re.MULTILINE)
            if opening + m.start() < closing]


def edited_helper(text: str, rng: random.Random) -> str:
    """A version with one helper's body edited: a line added at one of its lines, or a literal of one of
    its lines changed, or the line removed."""
    callees, _ = _roles(text)
    if not callees:
        return text + "\n"
    lines = _body_lines(text, rng.choice(callees))
    if not lines:
        return text + "\n"
    at = rng.choice(lines)
    end = text.index("\n", at) + 1
    roll = rng.random()
    literal = LITERAL.search(text, at, end)
    if roll < 0.3 and literal is not None:
        return text[:literal.start()] + f"{rng.randint(0, 40)}u" + text[literal.end():]
    if roll < 0.38 and text[at:end].strip() not in ("", "}"):
        return text[:at] + text[end:]
    return text[:at] + rng.choice(ADDED_LINES) + text[at:]


def check_helper_edits(text: str, rng: random.Random, steps: int, failures: list, back: float = 0.25) -> Edits:
    edits, first, current = Edits(text, failures), text, text
    for _ in range(steps):
        current = first if rng.random() < back else edited_helper(current, rng)
        edits.to(current)
    return edits


def as_callees(kernels: str) -> str:
    """matrix_kernels' entry points made helpers of one entry point that calls each with its builtins:
    an edit in a kernel's body then reaches that entry point's uniformity."""
    helpers = re.sub(r"^@compute @workgroup_size\(\d+\)\n", "", kernels, flags=re.MULTILINE)
    helpers = re.sub(r"@builtin\(\w+\) ", "", helpers)
    names = re.findall(r"^fn (\w+)\(", helpers, re.MULTILINE)
    calls = "".join(f"  {name}(wg, lid, sg, subgroups);\n" for name in names)
    return (helpers + "\n@compute @workgroup_size(256)\n"
            "fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) lid: u32,\n"
            "        @builtin(subgroup_id) sg: u32, @builtin(num_subgroups) subgroups: u32) {\n"
            f"{calls}}}\n")


def test_helper_versions_that_change_what_callers_read_and_those_that_do_not(failures) -> None:
    edits = Edits(CHAIN, failures)
    fresh = lint_source(CHAIN).diagnostics
    assert any(len(d.related) >= 3 for d in fresh)  # main's failure names places in top, middle and leaf
    for old, new, read_otherwise in HELPER_VERSIONS:
        assert old in CHAIN and new != old
        version = CHAIN.replace(old, new)
        edits.to(version)
        # Every function of the module calls one helper or is one: only the edited helper itself, and the
        # callers that read something new of it (and their callers, where theirs changed too), are analysed.
        if read_otherwise:
            assert edits.analysed[-1] > edits.passes[-1], new
        else:
            assert edits.analysed[-1] == edits.passes[-1], new
        edits.to(CHAIN)
    assert edits.relinked > 0


def test_an_edit_in_a_leaf_relinks_the_whole_chain_and_moves_its_notes(failures) -> None:
    # One line above leaf's barrier: leaf is analysed again, and middle, top, main and other are replayed with
    # every note inside leaf moved down by the line (on the base all five functions were analysed again).
    edits = Edits(CHAIN, failures)
    for version in (CHAIN.replace(LEAF, LEAF.replace("{\n", "{\n  let first = 1u;\n", 1)),
                    CHAIN.replace(LEAF, LEAF.replace("{\n", "{\n  let first = 1u;\n  let second = 2u;\n", 1)),
                    CHAIN.replace(LEAF, LEAF.replace("{\n", "{\n  let second = 2u;\n", 1)),
                    CHAIN):
        edits.to(version)
    assert edits.analysed == edits.passes
    assert edits.relinked >= 4 * 4


@pytest.mark.parametrize("name", ["gemm_tiled_4x4", "gemm_tiled", "gemm_pipelined"])
def test_an_edit_in_a_helper_declared_after_its_entry_point_analyses_that_helper_alone(name: str, failures) -> None:
    # The later_helpers benchmark's edit, in each example whose entry point calls helpers declared after it:
    # a literal counted up in the last function (on the base, the entry point was analysed again each time).
    text = (ROOT / "examples" / "chromium" / f"{name}.wgsl").read_text()
    last = text.rindex("\nfn ")
    literal = LITERAL.search(text, last)
    assert literal is not None and last in [start - 1 for start in _roles(text)[0]]
    edits = Edits(text, failures)
    for number in range(17, 23):
        edits.to(text[:literal.start()] + f"{number}u" + text[literal.end():])
    assert edits.analysed == edits.passes
    assert edits.relinked >= 6


def test_edits_in_helpers_of_the_examples_and_the_uniformity_spec_give_a_fresh_analysis(failures) -> None:
    texts = [path.read_text() for path in sorted((ROOT / "examples").rglob("*.wgsl"))]
    texts += [case.source for case in load_cases(ROOT / "tests" / "spec" / "uniformity")]
    rng = random.Random(25)
    relinked = versions = 0
    for text in texts:
        if _roles(text)[0]:
            edits = check_helper_edits(text, rng, steps=6, failures=failures)
            relinked, versions = relinked + edits.relinked, versions + edits.versions
    assert versions > 100 and relinked > versions // 2, (relinked, versions)


def test_edits_in_helpers_of_generated_kernels_give_a_fresh_analysis(failures) -> None:
    rng = random.Random(2525)
    texts = [matrix_library_kernel(random.Random(seed), functions=5) for seed in range(2)]
    texts += [as_callees(matrix_heavy_kernel(random.Random(seed), functions=3)) for seed in range(2)]
    relinked = versions = 0
    for text in texts:
        assert _roles(text)[0], text[:200]
        edits = check_helper_edits(text, rng, steps=10, failures=failures)
        relinked, versions = relinked + edits.relinked, versions + edits.versions
    assert relinked > versions // 2, (relinked, versions)


def test_random_edits_in_the_handmade_chain_give_a_fresh_analysis(failures) -> None:
    rng = random.Random(250)
    edits = check_helper_edits(CHAIN, rng, steps=40, failures=failures)
    assert edits.relinked > 20
