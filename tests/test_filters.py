"""Suppression in real WGSL: diagnostic directives and attributes for coop.<rule> names."""

from __future__ import annotations

import textwrap

import pytest

from coop_lsp.core.diagnostic import Severity
from coop_lsp.lint import lint_source

KERNEL = textwrap.dedent("""\
    {directive}
    enable chromium_experimental_subgroup_matrix;
    enable f16;
    @group(0) @binding(0) var<storage, read_write> A: array<f16>;
    {attribute}
    fn load() -> subgroup_matrix_left<f16, 16, 16> {{
      return subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&A, 0u, false, 16u);
    }}
    """)


def _codes(directive: str = "", attribute: str = "") -> list[tuple[str, Severity]]:
    text = KERNEL.format(directive=directive, attribute=attribute)
    return [(d.code, d.severity) for d in lint_source(text).diagnostics]


def test_the_deprecated_form_warns_by_default():
    assert _codes() == [("T012", Severity.WARNING)]


def test_module_directive_switches_a_rule_off():
    assert _codes(directive="diagnostic(off, coop.deprecated_builtin);") == []


def test_function_attribute_changes_severity_inside_the_function_only():
    assert _codes(attribute="@diagnostic(error, coop.deprecated_builtin)") == [("T012", Severity.ERROR)]


def test_innermost_filter_wins():
    codes = _codes(directive="diagnostic(off, coop.deprecated_builtin);",
                   attribute="@diagnostic(info, coop.deprecated_builtin)")
    assert codes == [("T012", Severity.INFO)]


def test_other_rule_names_do_not_apply():
    assert _codes(directive="diagnostic(off, coop.mixed_dialects);") == [("T012", Severity.WARNING)]


def test_errors_the_compiler_would_reject_cannot_be_switched_off():
    text = "diagnostic(off, coop.syntax_error);\nfn f() { let x = 1 }\n"
    assert [d.code for d in lint_source(text).diagnostics] == ["S001"]


@pytest.mark.tint
def test_tint_accepts_our_rule_names_in_filters(tint):
    text = KERNEL.format(directive="diagnostic(off, coop.deprecated_builtin);",
                         attribute="@diagnostic(warning, coop.matrix_stride)")
    assert tint.compile(text).accepted
