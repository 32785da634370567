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
    # The module directive decides nothing under the attribute: the suppression audit says so.
    assert codes == [("A001", Severity.WARNING), ("T012", Severity.INFO)]


def test_other_rule_names_do_not_apply():
    assert _codes(directive="diagnostic(off, coop.mixed_dialects);") == [("A001", Severity.WARNING),
                                                                          ("T012", Severity.WARNING)]


def test_errors_the_compiler_would_reject_cannot_be_switched_off():
    text = "diagnostic(off, coop.syntax_error);\nfn f() { let x = 1 }\n"
    assert [d.code for d in lint_source(text).diagnostics] == ["S001"]


@pytest.mark.tint
def test_tint_accepts_our_rule_names_in_filters(tint):
    text = KERNEL.format(directive="diagnostic(off, coop.deprecated_builtin);",
                         attribute="@diagnostic(warning, coop.matrix_stride)")
    assert tint.compile(text).accepted


# -- the suppression audit's fixes ------------------------------------------------

def _apply_only_fix(text: str, code: str) -> str:
    (finding,) = [d for d in lint_source(text).diagnostics if d.code == code]
    (fix,) = finding.fixes
    assert fix.safe
    data = text.encode()
    for edit in sorted(fix.edits, key=lambda e: -e.span.start):
        data = data[:edit.span.start] + edit.new_text.encode() + data[edit.span.end:]
    return data.decode()


def test_removing_an_unused_directive_takes_its_line():
    text = KERNEL.format(directive="diagnostic(off, coop.matrix_stride);", attribute="")
    fixed = _apply_only_fix(text, "A001")
    assert fixed == text.replace("diagnostic(off, coop.matrix_stride);\n", "")
    assert [d.code for d in lint_source(fixed).diagnostics] == ["T012"]


def test_removing_an_unused_attribute_keeps_the_function():
    text = KERNEL.format(directive="", attribute="@diagnostic(off, coop.matrix_stride) @must_use")
    fixed = _apply_only_fix(text, "A001")
    assert "@must_use\nfn load()" in fixed and "matrix_stride" not in fixed


def test_the_audit_can_itself_be_switched_off():
    assert _codes(directive="diagnostic(off, coop.unused_suppression);") == [("T012", Severity.WARNING)]


def test_a_file_that_does_not_parse_is_not_audited():
    text = "diagnostic(off, coop.deprecated_builtin);\nfn f() { let x = 1 }\n"
    assert [d.code for d in lint_source(text).diagnostics] == ["S001"]
