"""The fix for integral vertex outputs and fragment inputs without `@interpolate(flat)`:
applied, it removes the finding, and Tint accepts the result."""

from __future__ import annotations

import textwrap

import pytest

from coop_lsp.lint import lint_source

SHADER = textwrap.dedent("""\
    enable chromium_experimental_subgroup_matrix;
    struct VertexOut {
      @builtin(position) position: vec4f,
      @location(0) index: u32,
      @location(1) @interpolate(linear) lane: i32,
    }
    @vertex fn vs() -> VertexOut { return VertexOut(vec4f(0.0), 1u, 2); }
    @fragment fn fs(@location(0) cell: vec2u) -> @location(0) vec4f { return vec4f(vec2f(cell), 0.0, 1.0); }
    """)


def fix_all(text: str) -> str:
    for _ in range(10):
        found = [d for d in lint_source(text).diagnostics if d.fixes and d.fixes[0].title == "Add @interpolate(flat)"]
        if not found:
            return text
        data = text.encode()
        for edit in sorted(found[0].fixes[0].edits, key=lambda e: e.span.start, reverse=True):
            data = data[: edit.span.start] + edit.new_text.encode() + data[edit.span.end :]
        text = data.decode()
    raise AssertionError("the fixes did not converge")


def test_each_integral_io_gets_the_fix():
    found = [d for d in lint_source(SHADER).diagnostics if "flat" in d.message]
    assert len(found) == 3 and all(d.fixes and d.fixes[0].title == "Add @interpolate(flat)" for d in found)


def test_the_fix_adds_flat_or_replaces_another_interpolation():
    fixed = fix_all(SHADER)
    assert "@location(0) @interpolate(flat) index: u32" in fixed
    assert "@location(1) @interpolate(flat) lane: i32" in fixed
    assert "@location(0) @interpolate(flat) cell: vec2u" in fixed
    assert [d for d in lint_source(fixed).diagnostics if d.severity.name == "ERROR"] == []


@pytest.mark.tint
def test_tint_accepts_the_fixed_shader(tint):
    assert not tint.compile(SHADER).accepted
    assert tint.compile(fix_all(SHADER)).accepted
