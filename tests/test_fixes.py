"""Fixes do what they say: applying one removes its diagnostic, and Tint agrees with the result."""

from __future__ import annotations

import textwrap

import pytest

from coop_lsp.core.diagnostic import Diagnostic
from coop_lsp.lint import lint_source

DEPRECATED_LOAD = textwrap.dedent("""\
    enable chromium_experimental_subgroup_matrix;
    enable f16;
    @group(0) @binding(0) var<storage, read_write> A: array<f16>;
    @compute @workgroup_size(32)
    fn main() {
      let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&A, 0u, false, 16u);
      subgroupMatrixStore(&A, 256u, m, true, 16u);
    }
    """)

MISSING_F16 = textwrap.dedent("""\
    @group(0) @binding(0) var<storage, read_write> data: array<f16>;
    @compute @workgroup_size(1)
    fn main() { data[0] = data[1] * 2.0h; }
    """)


def apply(text: str, diagnostic: Diagnostic) -> str:
    data = text.encode()
    for edit in sorted(diagnostic.fixes[0].edits, key=lambda e: e.span.start, reverse=True):
        data = data[: edit.span.start] + edit.new_text.encode() + data[edit.span.end :]
    return data.decode()


def apply_all(text: str, code: str) -> str:
    while True:
        found = [d for d in lint_source(text).diagnostics if d.code == code and d.fixes]
        if not found:
            return text
        text = apply(text, found[0])


def test_deprecated_load_and_store_are_rewritten_to_the_current_form():
    before = [d for d in lint_source(DEPRECATED_LOAD).diagnostics if d.code == "T012"]
    assert len(before) == 2
    fixed = apply_all(DEPRECATED_LOAD, "T012")
    assert "subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&A, 0u, 16u)" in fixed
    assert "subgroupMatrixStore<col_major>(&A, 256u, m, 16u)" in fixed
    assert lint_source(fixed).diagnostics == []


def test_missing_f16_enable_is_added_once():
    diagnostics = [d for d in lint_source(MISSING_F16).diagnostics if d.code == "T007"]
    assert len(diagnostics) == 1
    fixed = apply(MISSING_F16, diagnostics[0])
    assert fixed.startswith("enable f16;\n")
    assert lint_source(fixed).diagnostics == []


@pytest.mark.tint
def test_tint_warns_before_and_is_silent_after_the_deprecation_fix(tint):
    assert [m.message for m in tint.compile(DEPRECATED_LOAD).warnings] == ["use of deprecated builtin"] * 2
    fixed = apply_all(DEPRECATED_LOAD, "T012")
    assert tint.compile(fixed).messages == ()


@pytest.mark.tint
def test_tint_accepts_the_module_after_the_enable_fix(tint):
    assert not tint.compile(MISSING_F16).accepted
    fixed = apply(MISSING_F16, [d for d in lint_source(MISSING_F16).diagnostics if d.code == "T007"][0])
    assert tint.compile(fixed).accepted


def test_the_standard_dialects_old_bool_form_is_rewritten_to_the_drafts():
    # gpuweb #6275 dropped the bool argument; the error carries the same rewrite as Tint's deprecation.
    text = DEPRECATED_LOAD.replace("chromium_experimental_subgroup_matrix", "subgroup_matrix")
    before = [d for d in lint_source(text).diagnostics if d.code == "T004"]
    # The store is judged once the load it stores is well-typed: one error at a time, each with its fix.
    assert len(before) == 1 and before[0].fixes
    fixed = apply_all(text, "T004")
    assert "subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&A, 0u, 16u)" in fixed
    assert "subgroupMatrixStore<col_major>(&A, 256u, m, 16u)" in fixed
    assert lint_source(fixed).diagnostics == []
