"""An edit costs what it changes: the server's incremental path re-checks the edited function and what
depends on what changed, and its result is a from-scratch check's.

Each case drives the path the server takes for an open document (incremental re-parse, analysis of a
copy of the tree with the document's `Reuse`) on a matrix-heavy module, and reads how many function
bodies the semantic checker checked rather than replayed (`reuse.bodies.checked`) and how many
uniformity summaries were computed rather than replayed (`reuse.summaries.analysed`).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from benchmarks.common import matrix_library_kernel
from coop_lsp.ide import Analysis
from coop_lsp.lint import Reuse, lint_source
from coop_lsp.syntax import Document
from coop_lsp.syntax.parser import Parsed
from tests.test_lint_reuse import as_edit, lookups_agree, model_facts

ROOT = Path(__file__).resolve().parent.parent
FUNCTIONS = 24


class Editor:
    """One open document, analysed after each edit the way the server does it."""

    def __init__(self, text: str) -> None:
        self.document = Document(text)
        self.reuse = Reuse()
        self.analyse()

    def analyse(self):
        return Analysis.of_parsed(Parsed(self.document.source, self.document.tree.copy()), reuse=self.reuse).result

    def change(self, text: str):
        span, inserted = as_edit(self.document.source.data, text.encode())
        self.document.replace(span, inserted)
        assert self.document.text == text
        result = self.analyse()
        fresh = lint_source(text)
        assert result.diagnostics == fresh.diagnostics, text
        assert model_facts(result.model) == model_facts(fresh.model), text
        lookups_agree(result.model)
        return result


def kernel() -> str:
    return matrix_library_kernel(random.Random(5), functions=FUNCTIONS)


def loop_bound(text: str, function: int, bound: str) -> str:
    """`gemm_<function>`'s K loop runs to `bound` instead."""
    return re.sub(rf"(fn gemm_{function}\(.*?k < )\d+u", rf"\g<1>{bound}u", text, count=1, flags=re.S)


@pytest.mark.parametrize("bound", ["47", "4799"], ids=["same-length", "longer"])
def test_an_edit_inside_one_function_rechecks_that_function_only(bound: str) -> None:
    text = kernel()
    editor = Editor(text)
    assert editor.reuse.bodies.checked == FUNCTIONS + 1  # the first version: everything
    editor.change(loop_bound(text, 11, bound))
    assert editor.reuse.bodies.checked == 1, "only gemm_11's body is checked again"
    assert editor.reuse.bodies.replayed == FUNCTIONS
    # The uniformity of gemm_11 only: the entry point that calls it reads the same of gemm_11's new summary
    # (a loop bound changes no requirement), so its result is replayed like the other 23 functions'.
    assert editor.reuse.summaries.analysed == 1


def test_a_comment_typed_between_functions_rechecks_nothing() -> None:
    text = kernel()
    editor = Editor(text)
    changed = text.replace("fn gemm_7(", "// a note\nfn gemm_7(", 1)
    editor.change(changed)
    assert editor.reuse.bodies.checked == 0
    # The functions after the comment moved: the entry point, which names their places, is analysed again.
    assert editor.reuse.summaries.analysed <= 1


def test_an_edit_to_a_global_rechecks_its_users() -> None:
    text = kernel()
    editor = Editor(text)
    # Every gemm_ loads from `halves`: renamed, it is unresolved in every function, and each says so.
    result = editor.change(text.replace("var<storage, read> halves: array<f16>", "var<storage, read> halfs: array<f16>"))
    assert editor.reuse.bodies.checked == FUNCTIONS
    assert len([d for d in result.diagnostics if "halves" in d.message]) >= FUNCTIONS
    # The entry point uses neither `halves` nor `halfs`: replayed.
    assert editor.reuse.bodies.replayed == 1


def test_a_changed_signature_rechecks_its_callers() -> None:
    text = kernel()
    editor = Editor(text)
    result = editor.change(text.replace("fn gemm_3(row: u32, col: u32)", "fn gemm_3(row: u32, col: f32)", 1))
    # gemm_3 (its parameter's type changed) and main, whose call to it no longer types.
    assert editor.reuse.bodies.checked == 2
    assert [d for d in result.diagnostics if d.severity.name == "ERROR"]
    # Back again: both bodies replay the records of the first version, kept spare meanwhile, and the
    # error is gone.
    result = editor.change(text)
    assert editor.reuse.bodies.checked == 0
    assert editor.reuse.bodies.replayed == FUNCTIONS + 1
    assert not [d for d in result.diagnostics if d.severity.name == "ERROR"]


def test_a_new_uniformity_requirement_reaches_the_callers() -> None:
    """gemm_5 starts to need a uniform `row` argument in a new way: the entry point is analysed again and
    reports the call made at a non-uniform row."""
    text = kernel().replace("gemm_5(tile.y * 16u, tile.x * 16u);",
                            "gemm_5(tile.y * 16u + u32(data[0]), tile.x * 16u);")
    editor = Editor(text)
    assert not any("workgroupBarrier" in d.message for d in editor.analyse().diagnostics)
    changed = text.replace("fn gemm_5(row: u32, col: u32) {\n", "fn gemm_5(row: u32, col: u32) {\n"
                           "  if (row > 4u) { workgroupBarrier(); }\n", 1)
    result = editor.change(changed)
    # gemm_5 and main, each at both levels (Tint's, and the subgroup level that runs where Tint's finds
    # something).
    assert editor.reuse.summaries.analysed == 4
    assert any("workgroupBarrier" in d.message for d in result.diagnostics), "the caller's new finding is reported"


# Edits to what others depend on: module-scope declarations and function signatures of real kernels.
DECLARATION_EDITS = [
    (r"\bu32 = (\d+)u;", lambda m, rng: f"u32 = {rng.choice([8, 16, 24, 32, 1024])}u;"),
    (r"array<f16>", lambda m, rng: rng.choice(["array<f16>", "array<f32>", "array<u32>"])),
    (r"array<f32>", lambda m, rng: rng.choice(["array<f32>", "array<f16>"])),
    (r"subgroup_matrix_(left|right|result)<f(16|32)", lambda m, rng: f"subgroup_matrix_{m.group(1)}<f{rng.choice(['16', '32'])}"),
    (r": u32\)", lambda m, rng: rng.choice([": u32)", ": i32)", ": f32)"])),
    (r"var<storage, read>", lambda m, rng: rng.choice(["var<storage, read>", "var<storage, read_write>"])),
    (r"var<workgroup>", lambda m, rng: rng.choice(["var<workgroup>", "var<private>"])),
    (r"@workgroup_size\(([A-Z_]+|\d+)", lambda m, rng: f"@workgroup_size({rng.choice(['64', '128', m.group(1)])}"),
]


def declaration_edit(text: str, rng: random.Random) -> str:
    pattern, replace = rng.choice(DECLARATION_EDITS)
    matches = list(re.finditer(pattern, text))
    if not matches:
        return text
    match = rng.choice(matches)
    return text[:match.start()] + replace(match, rng) + text[match.end():]


KERNELS = sorted((ROOT / "examples").glob("*/*.wgsl"))


@pytest.mark.parametrize("path", KERNELS, ids=[f"{p.parent.name}/{p.stem}" for p in KERNELS])
def test_edits_to_declarations_of_a_real_kernel_equal_a_fresh_check(path: Path) -> None:
    """After every edit to a global, a constant, a type or a signature, the diagnostics and model are a
    from-scratch check's (Editor.change compares them)."""
    rng = random.Random(path.name)
    text = path.read_text()
    editor = Editor(text)
    for _ in range(12):
        text = declaration_edit(text, rng)
        editor.change(text)


def test_a_line_added_in_one_function_moves_only_the_summaries_read() -> None:
    """The server's matrix document: a line added inside one function in the middle moves every later
    function, but no caller of theirs is analysed again, so their replayed summaries are never moved (only
    their failures, which are reported)."""
    from benchmarks.server_matrix import _toggle_site, documents

    text = documents(1, seed=1)[0]
    editor = Editor(text)
    line, _ = _toggle_site(text)
    lines = text.split("\n")
    changed = "\n".join(lines[:line] + ["  let spare = 1u;"] + lines[line:])
    editor.change(changed)
    summaries = editor.reuse.summaries
    assert editor.reuse.bodies.checked == 1
    assert summaries.analysed == 1 and summaries.replayed >= 20
    assert summaries.moved == 0
    # Headers: the edited function's body changed, not its header; every header is replayed.
    assert editor.reuse.bodies.headers.checked == 0


def test_a_syntax_error_typed_and_deleted_again_rechecks_nothing() -> None:
    """The server's toggle edit: `@@ ` typed inside a function (a version with a syntax error, whose
    function is checked afresh and recorded nowhere), then deleted. The clean version's text is the one
    before the error: every record of it was kept, so nothing is checked or analysed afresh."""
    from benchmarks.server_matrix import _toggle_site, documents

    text = documents(1, seed=1)[0]
    editor = Editor(text)
    line, column = _toggle_site(text)
    lines = text.split("\n")
    broken = "\n".join(lines[:line] + [lines[line][:column] + "@@ " + lines[line][column:]] + lines[line + 1:])
    for _ in range(2):
        editor.change(broken)
        others = editor.reuse.bodies.replayed  # (the broken function is checked without a record)
        editor.change(text)
        reuse = editor.reuse
        assert reuse.bodies.checked == 0 and reuse.bodies.replayed == others + 1
        assert reuse.bodies.headers.checked == 0
        assert reuse.summaries.analysed == 0 and reuse.accumulation.computed == 0
