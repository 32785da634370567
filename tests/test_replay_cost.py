"""Replaying an unchanged function body costs next to nothing: the records it replays keep the struct types
of the previous version, and their entries are not copied into the new model one by one.

Every case compares the result with a from-scratch check (Editor.change does), and reads what the replay
did from the document's BodyReuse.
"""

from __future__ import annotations

import random

from benchmarks.matrix_kernels import matrix_kernel_file
from coop_lsp.semantic import types as t
from tests.test_edit_cost import Editor
from tests.test_lint_reuse import as_edit, lookups_agree

KERNELS = 4


def kernel() -> str:
    # Every gemm_ reads the uniform `params: Params`, a struct.
    return matrix_kernel_file(random.Random(1), KERNELS)


def params_type(result, text: str, function: int) -> t.Type:
    """The type of the first `params` named in gemm_<function>'s body."""
    start = text.index("params.", text.index(f"fn gemm_{function}("))
    found = result.model.type_at(len(text[:start].encode()), len(text[:start + 6].encode()), "identifier")
    assert isinstance(found, t.Reference) and isinstance(found.store, t.Struct), found
    return found.store


def test_an_unchanged_struct_is_the_same_type_in_the_next_version() -> None:
    text = kernel()
    editor = Editor(text)
    first = editor.analyse()
    before = params_type(first, text, 3)
    # gemm_0 changes; gemm_3 is replayed and moves by a line.
    changed = text.replace("  if (subgroups != 8u) {\n", "  if (subgroups != 8u) {\n    // a note\n", 1)
    result = editor.change(changed)
    assert editor.reuse.bodies.checked == 1 and editor.reuse.bodies.replayed == KERNELS - 1
    assert editor.reuse.bodies.remapped == 0, "no replayed record had to be mapped to new struct types"
    assert params_type(result, changed, 3) is before
    struct = next(s for s in result.model.symbols if s.name == "Params").type
    assert struct is before, "the declaration resolves to the previous version's object"


def test_a_changed_struct_is_a_new_type_everywhere() -> None:
    text = kernel()
    editor = Editor(text)
    before = params_type(editor.analyse(), text, 3)
    for changed in (text.replace("  alpha: f32,\n", "  alpha: f32,\n  beta: f32,\n", 1),
                    text.replace("  alpha: f32,\n", "  @align(16) alpha: f32,\n", 1),
                    text.replace("  alpha: f32,\n", "  @size(8) alpha: f32,\n", 1)):
        result = editor.change(changed)
        after = params_type(result, changed, 3)
        assert after is not before
        declared = next(s for s in result.model.symbols if s.name == "Params").type
        assert after is declared
        fresh = next(s for s in Editor(changed).analyse().model.symbols if s.name == "Params").type
        assert [(m.name, m.align, m.size) for m in declared.members] == \
            [(m.name, m.align, m.size) for m in fresh.members]
        editor.change(text)
        before = params_type(editor.analyse(), text, 3)


def test_a_replayed_body_adds_its_record_whole() -> None:
    text = kernel()
    editor = Editor(text)
    # gemm_1 changes; the lines it gains move gemm_2, gemm_3 and the entry point.
    start = text.index("fn gemm_1(")
    at = text.index("  if (subgroups != 8u) {\n", start)
    changed = text[:at] + "  let unused = 1u;\n" + text[at:]
    model = editor.change(changed).model
    lookups_agree(model)
    bodies = editor.reuse.bodies
    assert bodies.checked == 1 and len(model.replayed) == bodies.replayed == KERNELS - 1
    for segment in model.replayed:
        record = bodies.used[segment.start]
        # The record's own tables, not copies of them ...
        assert segment.types is record.types and segment.calls is record.builtin_calls
        assert segment.references is record.references
        assert segment.types and segment.references and segment.calls
        # ... and none of their entries copied into the tables the checker writes (which do hold the
        # function's attributes and signature, checked again in every version).
        delta = segment.delta
        assert not [k for k in segment.types if (k[0] + delta, k[1] + delta, k[2]) in model.written_types]
        assert not [k for k in segment.references if (k[0] + delta, k[1] + delta) in model.written_references]
        assert not [k for k in segment.calls if (k[0] + delta, k[1] + delta) in model.written_calls]
    moved = [segment for segment in model.replayed if segment.delta]
    assert moved, "the functions after gemm_1 moved"
    # A lookup in a moved body finds what a fresh check finds there.
    fresh = Editor(changed).analyse().model
    for segment in moved:
        for (start, end, kind), value in segment.types.items():
            key = (start + segment.delta, end + segment.delta, kind)
            assert model.type_at(*key).describe() == fresh.type_at(*key).describe()


MOVED = """@group(0) @binding(0) var<storage, read_write> first: array<f32>;
@group(0) @binding(0) var<storage, read_write> second: array<f32>;
var<private> shared_value: f32;

fn padding() {
  let unused = 1;
}

fn write_both(p: ptr<private, f32>, q: ptr<private, f32>) {
  *p = 1.0;
  *q = 2.0;
}

fn helper() {
  second[0] = first[0];
}

@compute @workgroup_size(1)
fn main() {
  helper();
  write_both(&shared_value, &shared_value);
}
"""


def test_moved_bodies_report_bindings_and_aliases_where_they_now_are() -> None:
    """What a replayed body's variable uses and pointer arguments lead to is reported at their new places
    (both are moved only when read)."""
    editor = Editor(MOVED)
    for typed in ("  let more = 2;\n", "  let more = 2;\n  let yet_more = 3;\n", ""):
        changed = MOVED.replace("  let unused = 1;\n", "  let unused = 1;\n" + typed)
        result = editor.change(changed)  # the same diagnostics as a fresh check
        assert editor.reuse.bodies.checked <= 1 and editor.reuse.bodies.replayed >= 3
        codes = [d.code for d in result.diagnostics]
        assert "T017" in codes, "first and second share a binding"
        assert any("aliases" in d.message for d in result.diagnostics)


def test_a_replayed_body_makes_its_local_symbols_only_when_asked() -> None:
    text = kernel()
    editor = Editor(text)
    changed = text.replace("  if (subgroups != 8u) {\n", "  if (subgroups != 8u) {\n    // a note\n", 1)
    span, inserted = as_edit(editor.document.source.data, changed.encode())
    editor.document.replace(span, inserted)
    model = editor.analyse().model  # the lint, uniformity included, asks for none
    assert len(model.replayed) == KERNELS - 1
    assert all(segment._locals is None for segment in model.replayed)
    # Asked for, they come in the order a fresh check gives.
    fresh = Editor(changed).analyse().model
    assert [(s.name, s.kind, s.span) for s in model.symbols] == [(s.name, s.kind, s.span) for s in fresh.symbols]
    assert all(segment._locals is not None for segment in model.replayed)
    lookups_agree(model)
