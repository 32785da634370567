"""Uniformity results replayed where functions only moved: lines, comments or declarations added or removed above
the kernels or between functions, so that callers and callees move by different amounts; and where module
declarations changed that a function does not name.

A replayed result names places in its function and in every function it calls, directly or not; each must be
moved by the amount its own function moved (analysis/uniformity/reuse.py). These tests compare such versions,
edited as the server edits a document, with a fresh lint of the same text, and count the functions analysed
again per moved version.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from benchmarks.common import matrix_heavy_kernel, matrix_library_kernel
from benchmarks.replay_cost import _document
from coop_lsp.ide import Analysis
from coop_lsp.lint import Reuse, lint_source
from coop_lsp.syntax import Document
from coop_lsp.syntax.parser import Parsed
from tests.support.spec import load_cases
from tests.support.trees import public_kernel_sample
from tests.test_lint_reuse import as_edit

ROOT = Path(__file__).resolve().parent.parent
# Where a function's declaration starts: its attributes' first line, or its `fn` line.
FUNCTION_START = re.compile(r"^(?:@[^\n;{]*\n)*fn\s+(\w+)", re.MULTILINE)
REMOVABLE_LINE = re.compile(r"^(?:[ \t]*|[ \t]*//[^\n]*)\n", re.MULTILINE)
# Lines that only move what follows them; the declarations are new (their names are used nowhere).
MOVING_LINES = ("\n", "\n\n\n", "// moved by an edit above\n", "/* a block\n   comment */\n", "const moved_down = 1u;\n",
                "var<private> moved_private: u32;\n", "struct MovedS { a: u32 }\n", "alias MovedA = vec4<f32>;\n",
                "override moved_o: u32 = 2u;\n")
# Declarations added to the matrix document (after its enables): a function names none of them.
NEW_DECLARATIONS = ("const moved_down = 1u;\n", "var<private> moved_private: u32;\n",
                    "struct MovedS { a: u32 }\n", "override moved_o: u32 = 2u;\n")
# Lines that leave every function where it is relative to the others, and every text of one the same.
BLANK_LINES = ("\n", "\n\n", "// moved by an edit above\n", "/* a block comment */\n")

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
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  buf[li] = top(li);
}
@compute @workgroup_size(64)
fn other(@builtin(local_invocation_index) li: u32) {
  if (buf[li] > 2u) {
    buf[0] = middle(li);
  }
}
"""


SIZED = """enable subgroups;
diagnostic(off, subgroup_uniformity);
const WG = 64u;
const UNUSED = 1u;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn before() {
}
@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) li: u32) {
  if (li < 32u) {
    buf[li] = subgroupAdd(buf[li]);
  }
}
"""


def _functions(text: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group(1)) for m in FUNCTION_START.finditer(text)]


def _bodies(text: str) -> dict[str, str]:
    starts = _functions(text)
    ends = [start for start, _ in starts[1:]] + [len(text)]
    return {name: text[start:end] for (start, name), end in zip(starts, ends)}


def _roles(text: str) -> tuple[list[int], list[int]]:
    """The starts of callees (functions another one calls) and of callers (functions that call another)."""
    bodies = _bodies(text)
    callees, callers = [], []
    for start, name in _functions(text):
        called = re.compile(rf"\b{re.escape(name)}\s*\(")
        if any(len(called.findall(body)) > (1 if other == name else 0) for other, body in bodies.items()):
            callees.append(start)
        if any(other != name and re.search(rf"\b{re.escape(other)}\s*\(", bodies[name]) for other in bodies):
            callers.append(start)
    return callees, callers


def moved(text: str, rng: random.Random) -> str:
    """A version in which only where functions are changed: a line added at the top, above a callee, above a
    caller or above any function, or a blank or comment line removed above one; now and then the same with a
    statement added to a function below it, which is then analysed again and reads the moved summaries."""
    starts = [start for start, _ in _functions(text)]
    if not starts:
        return "\n" + text
    callees, callers = _roles(text)
    where = rng.random()
    target = 0 if where < 0.2 else rng.choice(callees if where < 0.5 and callees else
                                              callers if where < 0.8 and callers else starts)
    removable = list(REMOVABLE_LINE.finditer(text, 0, target)) if target else []
    if removable and rng.random() < 0.4:
        line = rng.choice(removable)
        new = text[:line.start()] + text[line.end():]
    else:
        new = text[:target] + rng.choice(MOVING_LINES) + text[target:]
    if rng.random() < 0.25:
        later = [m.end() for m in re.finditer(r"^fn [^\n]*\{\n", new, re.MULTILINE)]
        if later:
            at = rng.choice(later)
            new = new[:at] + "  let moved_by = 1u;\n" + new[at:]
    return new


def check_moves(text: str, rng: random.Random, steps: int, back: float = 0.3) -> int:
    """Moves `text`'s functions `steps` times in one document, as the server edits it, comparing every version
    with a fresh lint; now and then a version goes back to the first text. The summaries replayed."""
    reuse, document = Reuse(), Document(text)
    Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse)
    replayed, first, current = 0, text, text
    for _ in range(steps):
        current = first if rng.random() < back else moved(current, rng)
        span, inserted = as_edit(document.source.data, current.encode())
        document.replace(span, inserted)
        reused = Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse).result
        assert reused.diagnostics == lint_source(current).diagnostics, current
        replayed += reuse.summaries.replayed
    return replayed


def test_a_chain_of_callees_moved_by_different_amounts_names_each_where_it_is() -> None:
    fresh = lint_source(CHAIN).diagnostics
    # The failure in main names places in top, middle and leaf: each moves by its own amount below.
    assert any(len(d.related) >= 3 for d in fresh)
    reuse, document = Reuse(), Document(CHAIN)
    Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse)
    versions = [
        CHAIN.replace("fn middle", "\nfn middle"),  # middle and the rest move, leaf stays
        CHAIN.replace("fn middle", "\nfn middle").replace("fn top", "// top\nfn top"),  # top moves further
        CHAIN.replace("fn middle", "\nfn middle").replace("fn top", "// top\nfn top")
        .replace("buf[li] = top(li);", "buf[li] = top(li) + 1u;"),  # main analysed again, reading top's moved summary
        CHAIN.replace("fn leaf", "\n\nfn leaf").replace("buf[li] = top(li);", "buf[li] = top(li) + 1u;"),
        "// header comment\n" + CHAIN,
        CHAIN.replace("fn top", "\n\n\nfn top").replace("if (buf[li] > 2u)", "if (buf[li] > 3u)"),
        CHAIN,
    ]
    for version in versions:
        span, inserted = as_edit(document.source.data, version.encode())
        document.replace(span, inserted)
        reused = Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse).result
        assert reused.diagnostics == lint_source(version).diagnostics, version
    # (Each version replays the functions it did not change, wherever they moved.)
    assert reuse.summaries.replayed >= 5


def test_moves_in_the_examples_and_the_uniformity_spec_give_a_fresh_lints_result() -> None:
    texts = [path.read_text() for path in sorted((ROOT / "examples").rglob("*.wgsl"))]
    texts += [case.source for case in load_cases(ROOT / "tests" / "spec" / "uniformity")]
    rng = random.Random(23)
    replayed = sum(check_moves(text, rng, steps=6) for text in texts if _functions(text))
    assert replayed > 200


def test_moves_in_generated_matrix_kernels_give_a_fresh_lints_result() -> None:
    rng = random.Random(2323)
    replayed = sum(check_moves(make(random.Random(seed), functions=6), rng, steps=8)
                   for seed in range(3) for make in (matrix_heavy_kernel, matrix_library_kernel))
    assert replayed > 150


def test_moves_in_public_kernels_give_a_fresh_lints_result() -> None:
    sample = [path for path in public_kernel_sample(23, count=30) if path.stat().st_size < 40_000]
    if not sample:
        pytest.skip("the public corpora are not here")
    rng = random.Random(230)
    for path in sample:
        check_moves(path.read_text(encoding="utf-8", errors="replace"), rng, steps=4)


def _analysed_per_version(text: str, versions: list[str]) -> list[int]:
    """The functions analysed again in each version, less those analysed again in a version that moves
    nothing (a blank line added at the end): a body checked afresh every version (semantic/reuse.py) has its
    uniformity analysed afresh too."""
    reuse, document = Reuse(), Document(text)
    Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse)
    analysed = []
    for version in [text + "\n", text] + versions:
        span, inserted = as_edit(document.source.data, version.encode())
        document.replace(span, inserted)
        Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse)
        analysed.append(reuse.summaries.analysed)
        assert reuse.summaries.replayed > 0
    still, _, *moved = analysed
    assert still < len(_functions(text)) // 2
    return [count - still for count in moved]


def test_a_version_that_only_moves_functions_analyses_none_of_them_again() -> None:
    # The matrix document of the benchmarks: Enter pressed above the kernels and undone, lines between two
    # functions (on main, 14 of its 22 functions were analysed again each time a blank line went in or out at
    # the top, and every one the first time).
    text = _document(21)
    starts = [start for start, _ in _functions(text)]
    versions = ["\n" + text, text, "\n" + text, text, text[:starts[3]] + BLANK_LINES[3] + text[starts[3]:],
                text[:starts[-1]] + BLANK_LINES[1] + text[starts[-1]:], text]
    assert _analysed_per_version(text, versions) == [0] * len(versions)


@pytest.mark.parametrize("name", ["chain", "examples/chromium/gemm_pipelined.wgsl"])
def test_lines_above_callees_or_callers_analyse_none_of_them_again(name: str) -> None:
    text = CHAIN if name == "chain" else (ROOT / name).read_text()
    callees, callers = _roles(text)
    assert callees and callers and set(callees) != set(callers)
    versions = []
    for at in [callees[0], callees[-1], callers[0], callers[-1]]:
        versions += [text[:at] + line + text[at:] for line in BLANK_LINES] + [text]
    assert _analysed_per_version(text, versions) == [0] * len(versions)


def test_a_constant_that_only_a_functions_attributes_name_decides_its_replay() -> None:
    # WG is named by main's @workgroup_size only (not by its body): its value decides at which subgroup sizes
    # the lanes of `li < 32u` diverge. Other declarations change nothing main reads.
    versions = [SIZED.replace("const UNUSED = 1u;", "const UNUSED = 2u;"),
                "const added_first = 3u;\n" + SIZED,
                SIZED.replace("const WG = 64u;", "const WG = 32u;"),
                SIZED.replace("const WG = 64u;", "const WG = 32u;\nvar<private> p: u32;"),
                SIZED.replace("const WG = 64u;", "const WG = 128u;"),
                SIZED.replace("const WG = 64u;", "override WG: u32 = 64u;"),
                SIZED.replace("fn before", "const late = 2u;\nfn before"),
                SIZED]
    reuse, document = Reuse(), Document(SIZED)
    Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse)
    messages = set()
    for version in versions:
        span, inserted = as_edit(document.source.data, version.encode())
        document.replace(span, inserted)
        reused = Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse).result
        assert reused.diagnostics == lint_source(version).diagnostics, version
        messages.add(tuple(d.message for d in reused.diagnostics))
    assert len(messages) >= 3  # (the results differ between the versions)


def test_a_declaration_no_function_names_analyses_none_of_them_again() -> None:
    # On main, a constant added to the matrix document had all its 22 functions analysed again.
    text = _document(21)
    starts = [start for start, _ in _functions(text)]
    top = text.index("struct Params")
    versions = []
    for at in (top, starts[0], starts[len(starts) // 2], starts[-1]):
        for line in NEW_DECLARATIONS:
            versions += [text[:at] + line + text[at:], text]
    assert _analysed_per_version(text, versions) == [0] * len(versions)
