"""Editor features as plain data, without a server: hover, navigation, rename, completion, presentation."""

from __future__ import annotations

from pathlib import Path

import pytest

from coop_lsp.core.diagnostic import Diagnostic, Severity
from coop_lsp.core.text import Span
from coop_lsp.ide import Analysis
from coop_lsp.ide.actions import code_actions
from coop_lsp.ide.completion import completion, signature_help
from coop_lsp.ide.hover import hover
from coop_lsp.ide.navigation import (RenameError, definition, document_symbols, highlights, references, rename,
                                     workspace_symbols)
from coop_lsp.ide.presentation import folding_ranges, inlay_hints, selection_range, semantic_tokens
from coop_lsp.ide.settings import Settings

GEMM = (Path(__file__).resolve().parent.parent / "examples" / "chromium" / "gemm_blocked.wgsl").read_text()

SHADOW = """\
const scale = 2.0;
struct Pair { first: f32, second: vec2<f32> }
@compute @workgroup_size(1)
fn main() {
  var pair: Pair;
  let x = pair.first * scale;
  {
    let x = 3.0;
    pair.first = x;
  }
  pair.second.y = x + fma(x, x, x);
}
"""


def at(text: str, needle: str, delta: int = 0) -> int:
    return len(text[: text.index(needle) + delta].encode())


@pytest.fixture(scope="module")
def gemm() -> Analysis:
    return Analysis.of(GEMM)


@pytest.fixture(scope="module")
def shadow() -> Analysis:
    return Analysis.of(SHADOW)


def test_hover_types_names_and_expressions(gemm: Analysis):
    assert "let a0: subgroup_matrix_left<f16, 16, 16>" in hover(gemm, at(GEMM, "a0 =")).markdown
    assert "const K: u32 = 1024" in hover(gemm, at(GEMM, "K: u32")).markdown
    assert "alias TileA = subgroup_matrix_left<f16, 16, 16>" in hover(gemm, at(GEMM, "TileA =")).markdown
    result = hover(gemm, at(GEMM, "(sg / 2u)", 4))  # the operator of `sg / 2u`
    assert result.markdown == "```wgsl\nu32\n```" and GEMM.encode()[result.span.start:result.span.end] == b"sg / 2u"


def test_hover_builtin_and_matrix_type_docs(gemm: Analysis):
    docs = hover(gemm, at(GEMM, "subgroupMatrixMultiplyAccumulate", 2)).markdown
    assert "subgroupMatrixMultiplyAccumulate(" in docs and "Requires `enable" in docs
    assert "subgroup_matrix_result<f32, 16, 16>" in docs  # the type of this call
    docs = hover(gemm, at(GEMM, "subgroup_matrix_left<", 1)).markdown
    assert "subgroup_matrix_left<T, K, M>" in docs and "Chrome / Dawn" in docs


MATRIX_BINDINGS = """enable f16;
enable subgroups;
enable subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@group(0) @binding(2) var<storage, read> fixed: array<f16, 256>;
@group(0) @binding(3) var<storage, read> plain: array<f32>;
@compute @workgroup_size(32)
fn main() {
  let x = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>, row_major>(&a, 0u, 8u);
  let y = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, 0u, 16u);
  let z = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&fixed, 0u, 16u);
  subgroupMatrixStore<row_major>(&c, 0u, subgroup_matrix_result<f32, 16, 8>(), 16u);
  c[0] = plain[0];
}
"""


def test_hover_on_a_runtime_sized_matrix_binding_states_its_minimum_binding_size():
    # gpuweb draft (#6310, #6334): MinStorageSize = M x N x SizeOf(C); the binding's is the largest access's.
    analysis = Analysis.of(MATRIX_BINDINGS)
    text = hover(analysis, at(MATRIX_BINDINGS, "a: array")).markdown
    assert "Minimum binding size: **512 bytes**" in text and "loaded on line 11" in text and "16 x 16 x 2" in text
    text = hover(analysis, at(MATRIX_BINDINGS, "c[0]")).markdown  # at a use as at the declaration
    assert "Minimum binding size: **512 bytes**" in text and "stored on line 13" in text
    # A fixed-size array's size is its binding's (T016 checks it); a binding no matrix touches has no minimum.
    assert "Minimum binding size" not in hover(analysis, at(MATRIX_BINDINGS, "fixed: array")).markdown
    assert "Minimum binding size" not in hover(analysis, at(MATRIX_BINDINGS, "plain: array")).markdown


def test_definition_and_references_respect_scopes(shadow: Analysis):
    inner_use = at(SHADOW, "= x;", 2)
    assert definition(shadow, inner_use) == [Span(at(SHADOW, "x = 3.0"), at(SHADOW, "x = 3.0") + 1)]
    outer_use = at(SHADOW, "x + fma")
    outer = references(shadow, outer_use)
    assert outer[0] == Span(at(SHADOW, "x = pair"), at(SHADOW, "x = pair") + 1)
    assert len(outer) == 5  # declaration, `x +`, three arguments of fma
    assert definition(shadow, at(SHADOW, "first * scale")) == [Span(at(SHADOW, "first:"), at(SHADOW, "first:") + 5)]
    kinds = {SHADOW.encode()[h.span.start - 2:h.span.end].decode(): h.kind
             for h in highlights(shadow, at(SHADOW, "pair: Pair"))}
    assert "read" in kinds.values() and "write" in kinds.values()


def test_rename_is_scope_correct_and_refuses_clashes(shadow: Analysis):
    edits = rename(shadow, at(SHADOW, "x = 3.0"), "inner")
    assert [e.span.start for e in edits] == [at(SHADOW, "x = 3.0"), at(SHADOW, "= x;") + 2]
    with pytest.raises(RenameError, match="reserved"):
        rename(shadow, at(SHADOW, "x = 3.0"), "loop")
    with pytest.raises(RenameError):
        rename(shadow, at(SHADOW, "x = pair"), "scale")  # `scale` is used where x is visible
    with pytest.raises(RenameError):
        rename(shadow, at(SHADOW, "x = pair"), "pair")


def test_symbols(shadow: Analysis, gemm: Analysis):
    symbols = document_symbols(shadow)
    assert [s.name for s in symbols] == ["scale", "Pair", "main"]
    assert [c.name for c in symbols[1].children] == ["first", "second"]
    assert {c.name for c in symbols[2].children} == {"pair", "x"}
    names = [s.name for s in workspace_symbols(gemm, "tile")]
    assert {"TileA", "TileB", "TileC", "SUB_TILES"} == set(names)


def test_completion_contexts(shadow: Analysis):
    text = SHADOW.replace("  pair.second.y", "  pair.second.\n  pair.second.y")
    analysis = Analysis.of(text)
    members = completion(analysis, at(text, "pair.second.\n", 12))
    assert [i.label for i in members][:2] == ["x", "y"]
    members = completion(analysis, at(text, "pair.first =", 5))
    assert [i.label for i in members] == ["first", "second"]
    everything = {i.label: i for i in completion(analysis, at(text, "  pair.first =", 2))}
    assert everything["fma"].insert_text == "fma(${1:e1}, ${2:e2}, ${3:e3})" and everything["fma"].snippet
    assert "loop" in everything and "vec4" in everything and "scale" in everything
    assert "subgroupMatrixLoad" in everything  # no dialect enabled: every table offers its builtins


def test_completion_of_directives_and_attributes():
    text = "diagnostic(off, c);\nenable chromium_ex\n@workgroup_size(1) @com\n"
    analysis = Analysis.of(text)
    rules = [i.label for i in completion(analysis, at(text, "c);", 1))]
    assert "coop.deprecated_builtin" in rules and "chromium.subgroup_matrix_uniformity" in rules
    assert "coop.syntax_error" not in rules  # syntax errors cannot be switched off
    assert "chromium_experimental_subgroup_matrix" in [i.label for i in completion(analysis, at(text, "_ex", 3))]
    assert "compute" in [i.label for i in completion(analysis, at(text, "@com", 4))]
    text = "enable chromium_experimental_subgroup_matrix;\nalias T = subgroup_matrix_left<f16, 1"
    analysis = Analysis.of(text)
    assert "16" in [i.label for i in completion(analysis, len(text.encode()) - 1)]
    assert "f16" in [i.label for i in completion(analysis, at(text, "f16"))]


def test_signature_help(shadow: Analysis):
    help_ = signature_help(shadow, at(SHADOW, "fma(x, x", 7))
    assert help_.active_parameter == 1
    assert help_.signatures[help_.active_signature].label.startswith("fma(")
    label = help_.signatures[0].label
    start, end = help_.signatures[0].parameters[1]
    assert label[start:end] == "e2: T"


def test_presentation(shadow: Analysis):
    assert [h.label for h in inlay_hints(shadow)] == [": abstract-float", ": f32", ": f32"]
    tokens = {SHADOW.encode()[t.span.start:t.span.end].decode(): t for t in semantic_tokens(shadow)}
    assert tokens["fma"].type == "function" and "defaultLibrary" in tokens["fma"].modifiers
    assert tokens["Pair"].type == "struct" and tokens["first"].type == "property"
    folds = folding_ranges(shadow)
    assert any(f.start_line == 3 and f.end_line == 10 for f in folds)
    spans = selection_range(shadow, at(SHADOW, "scale;"))
    assert spans[0] == Span(at(SHADOW, "scale;"), at(SHADOW, "scale;") + 5)
    assert spans[-1] == Span(0, len(SHADOW.encode()))


def test_code_actions_carry_fixes_and_settings_filter():
    text = "@compute @workgroup_size(1)\nfn main() {\n  let x = 1\n}\n"
    analysis = Analysis.of(text)
    actions = code_actions(analysis, Span(0, len(text)))
    assert actions and actions[0].preferred and actions[0].edits[0].new_text == ";"
    found = [Diagnostic("T012", "deprecated", Span(0, 1), Severity.WARNING), Diagnostic("T003", "mismatch", Span(2, 3))]
    assert [d.code for d in Settings.from_json({"rules": {"coop.deprecated_builtin": False}}).apply(found)] == ["T003"]
    downgraded = Settings.from_json({"severities": {"T012": "hint", "T003": "hint"}}).apply(found)
    assert [d.severity for d in downgraded] == [Severity.HINT, Severity.ERROR]  # errors stay errors
    # Syntax errors cannot be switched off: every compiler rejects them.
    assert Settings.from_json({"rules": {"S001": False}}).apply(analysis.diagnostics) == analysis.diagnostics


def test_features_on_broken_and_empty_text():
    for text in ("", "fn", "fn f( {", "struct S { a: f32 ", "\x00\ud800"):
        analysis = Analysis.of(text)
        for offset in range(len(analysis.data) + 2):
            hover(analysis, offset)
            completion(analysis, offset)
            signature_help(analysis, offset)
            definition(analysis, offset)
            selection_range(analysis, offset)
        document_symbols(analysis)
        semantic_tokens(analysis)
        folding_ranges(analysis)
        inlay_hints(analysis)


MULTIPLY = """enable chromium_experimental_subgroup_matrix;
enable f16;
@group(0) @binding(0) var<storage, read_write> data: array<f16>;
@compute @workgroup_size(32)
fn main() {
  let a = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 16>>(&data, 0, false, 8);
  let b = subgroupMatrixLoad<subgroup_matrix_right<f16, 32, 8>>(&data, 0, false, 32);
  var acc = subgroup_matrix_result<f16, 32, 16>();
  acc = subgroupMatrixMultiplyAccumulate(a, b, acc);
}
"""


def test_inlay_hints_show_the_shape_of_a_matrix_multiply():
    analysis = Analysis.of(MULTIPLY)
    assert not [d for d in analysis.diagnostics if d.severity.label == "error"], analysis.diagnostics
    hints = {h.label for h in inlay_hints(analysis)}
    # Tint's left<T, K, M>, right<T, N, K>, result<T, N, M>: M = 16, N = 32, K = 8.
    assert " 16×32×8 (M×N×K)" in hints
    assert ": subgroup_matrix_left<f16, 8, 16>" in hints
    end = MULTIPLY.index("acc);") + len("acc)")
    assert [h.label for h in inlay_hints(analysis, Span(end, end))] == [" 16×32×8 (M×N×K)"]
