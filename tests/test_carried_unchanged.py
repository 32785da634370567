"""What an unchanged declaration costs a carried version (semantic/carry.py), and that the carried version is still
exactly a fresh check.

The work cases are ones the code before this did more: a new symbol stored every field of the dataclass
(twenty-four) where it now stores its own five; each version read every declaration's name from its node again
where it now takes the last version's name and place (the same objects where the place did not move); and the
search for the text's unchanged ends copied the whole text several times, where it now copies none of it.

The comparison cases edit real kernels at every line and generated 80-kernel files at ten lines spread over them
(a line moved down, a statement typed, both taken back), check each version with the document's reuse, and compare
it with a check of the same tree without one: the findings in the checker's own order (not sorted), the model,
and what an editor asks of it (the symbol at each name, the type at each expression).
"""

from __future__ import annotations

import dataclasses
import random
import tracemalloc
from pathlib import Path

import pytest

from benchmarks.common import matrix_heavy_kernel, matrix_library_kernel
from coop_lsp.core.text import Position, Span
from coop_lsp.ide.analysis import Analysis
from coop_lsp.lint.engine import LintResult
from coop_lsp.semantic.carry import _common_prefix, _common_suffix
from coop_lsp.semantic.checker import check
from coop_lsp.semantic.model import Symbol
from coop_lsp.semantic.reuse import BodyReuse
from coop_lsp.syntax import Document
from coop_lsp.syntax.parser import Parsed
from tests.test_lint_reuse import lookups_agree, model_facts

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ["chromium/gemm_tiled_4x4.wgsl", "chromium/gemm_tiled.wgsl", "standard/gemm_blocked.wgsl"]
STATEMENT = "  let carried_probe = 1u;\n"


def test_a_new_symbol_stores_only_its_own_fields_and_reads_every_other_as_its_default() -> None:
    symbol = Symbol("main", "function", Span(3, 7), None)
    assert set(vars(symbol)) == {"name", "kind", "span", "declaration", "resolved"}
    for field in dataclasses.fields(Symbol):
        if field.default is not dataclasses.MISSING:
            assert getattr(symbol, field.name) is field.default, field.name
    symbol.stage = "compute"
    assert symbol.stage == "compute" and Symbol("other", "function", Span(9, 14)).stage is None


def _versions(text: str, lines: list[int]):
    """Per line: a blank line put in above it, taken out; a statement typed there, taken out (the incremental
    trees, copies, as the server has them)."""
    document = Document(text)
    yield Parsed(document.parsed.source, document.tree.copy())
    for line in lines:
        for inserted in ("\n", STATEMENT):
            document.replace_range(Position(line, 0), Position(line, 0), inserted)
            yield Parsed(document.parsed.source, document.tree.copy())
            document.replace_range(Position(line, 0), Position(line + 1, 0), "")
            yield Parsed(document.parsed.source, document.tree.copy())
    assert document.text == text


def _editor_answers(parsed: Parsed, diagnostics: list, model) -> list:
    """What an editor asks at each symbol's name and at every seventh typed expression's start."""
    analysis = Analysis(parsed.source.text, None, LintResult(parsed.source, diagnostics, parsed, model, ()))
    answers = []
    for symbol in model.symbols:
        found = analysis.symbol_at(symbol.span.start)
        answers.append(None if found is None else (found[0].name, found[0].kind, found[0].span, found[1]))
    for (start, _, _), _ in sorted(model.expression_types())[::7]:
        found = analysis.expression_type_at(start)
        answers.append(repr(found))
    return answers


def _compared(versions) -> int:
    """Checks each version with one reuse and without any, compares them; the number of versions carried."""
    reuse = BodyReuse()
    carried = 0
    for parsed in versions:
        diagnostics, model = check(parsed, reuse)
        fresh, fresh_model = check(Parsed(parsed.source, parsed.tree.copy()), None)
        assert diagnostics == fresh, parsed.source.text  # (in the checker's order)
        assert model_facts(model) == model_facts(fresh_model)
        lookups_agree(model)
        assert _editor_answers(parsed, diagnostics, model) == _editor_answers(parsed, fresh, fresh_model)
        carried += reuse.carry.carried > 0
    return carried


@pytest.mark.parametrize("name", KERNELS)
def test_edits_at_every_line_of_a_real_kernel_check_as_a_fresh_check(name: str) -> None:
    text = (ROOT / "examples" / name).read_text()
    lines = range(len(text.split("\n")) - 1)
    assert _compared(_versions(text, list(lines))) > len(lines)


@pytest.mark.parametrize("seed", [3, 4])
def test_edits_over_a_generated_80_kernel_file_check_as_a_fresh_check(seed: int) -> None:
    make = matrix_library_kernel if seed % 2 else matrix_heavy_kernel
    text = make(random.Random(seed), functions=80)
    count = len(text.split("\n")) - 1
    # (lines spread over the file, its first and last among them: each version is checked twice over ~4,000 lines)
    lines = sorted(random.Random(seed).sample(range(1, count - 1), 8)) + [0, count - 1]
    assert _compared(_versions(text, lines)) > 16


def test_a_carried_version_takes_each_unchanged_declarations_name_and_place_from_the_last() -> None:
    text = matrix_library_kernel(random.Random(5), functions=6)
    document = Document(text)
    reuse = BodyReuse()
    _, before = check(Parsed(document.parsed.source, document.tree.copy()), reuse)
    body = text.index("{", text.index("fn gemm_2(")) + 1
    typed = "\n  let typed = 1u;"
    document.replace(Span(body, body), typed)
    _, after = check(Parsed(document.parsed.source, document.tree.copy()), reuse)
    assert reuse.carry.carried > 0

    def declared(model) -> dict:
        return {s.name: s for s in model.symbols if s.declaration is not None and s.declaration.parent is not None
                and s.declaration.parent.parent is None}

    was, now = declared(before), declared(after)
    assert now.keys() == was.keys()
    untouched = [name for name, s in now.items() if s.span.end <= body and name != "gemm_2"]
    moved = [name for name, s in now.items() if s.span.start > body]
    assert len(untouched) >= 3 and len(moved) >= 3
    for name in untouched:
        # (the same objects: nothing read from the node, nothing made)
        assert now[name].span is was[name].span and now[name].name is was[name].name
    for name in moved:
        assert now[name].span == Span(was[name].span.start + len(typed), was[name].span.end + len(typed))
        assert now[name].name is was[name].name


def test_finding_the_common_ends_of_two_texts_copies_neither() -> None:
    rng = random.Random(8)
    old = rng.randbytes(1 << 20)
    middle = len(old) // 2
    new = old[:middle] + b"typed" + old[middle:]
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        prefix = _common_prefix(old, new)
        suffix = _common_suffix(old, new, min(len(old), len(new)) - prefix)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (prefix, suffix) == (middle, len(old) - middle)
    assert peak < 64 * 1024, peak  # (a copy of either text is a mebibyte)


def test_a_redeclared_name_is_reported_at_every_carried_version_as_a_fresh_check_reports_it() -> None:
    # (the second 'A' declares nothing, so the next version has no name of it to carry: read from the tree again)
    text = ("const A = 1u;\nconst A = 2u;\n@compute @workgroup_size(1)\nfn main() {\n  let a = A;\n}\n"
            "fn helper() -> u32 {\n  return A;\n}\nconst B = A;\n")
    lines = [4, 7]
    versions = list(_versions(text, lines))
    assert _compared(versions) >= 4
    diagnostics, _ = check(versions[-1], None)
    assert [d.code for d in diagnostics].count("T002") == 1


def test_a_body_replayed_onto_equal_new_structs_keeps_its_locals_as_a_fresh_check_has_them() -> None:
    # A local holds only the fields set on it (Symbol's defaults are the class's): mapping a recorded body's
    # locals to this version's struct objects reads those it has.
    text = ("struct S { a: f32 }\nfn f() -> f32 {\n  var s: S;\n  let x = s.a;\n  let p = &s;\n  return x + (*p).a;\n}\n"
            "@compute @workgroup_size(1)\nfn main() {\n  let y = f();\n}\n")
    changed = text.replace("struct S { a: f32 }", "struct S { a: f32, b: f32 }")
    # (the same type in another text: its header is resolved again, to a new object equal to the first one's)
    spaced = text.replace("struct S { a: f32 }", "struct S {  a: f32 }")
    reuse = BodyReuse()
    remapped = 0
    for version in (text, changed, spaced, changed, text):
        parsed = Document(version).parsed
        diagnostics, model = check(Parsed(parsed.source, parsed.tree.copy()), reuse)
        fresh, fresh_model = check(Parsed(parsed.source, parsed.tree.copy()), None)
        assert diagnostics == fresh
        assert model_facts(model) == model_facts(fresh_model)
        assert [(s.name, s.kind, s.type.describe()) for s in model.symbols] \
            == [(s.name, s.kind, s.type.describe()) for s in fresh_model.symbols]
        remapped += reuse.remapped
    assert remapped > 0
