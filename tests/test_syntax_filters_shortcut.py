"""`DiagnosticFilters.from_tree` skips a broken subtree whose text has no severity word; these compare it
with the walk that descends every node with errors, and count the work the shortcut saves."""

from __future__ import annotations

import random

import pytest

from coop_lsp.syntax.filters import DiagnosticFilters, _filters_of
from coop_lsp.core.text import Span
from coop_lsp.syntax.parser import parse

from .support.trees import public_kernels_with_junk, with_junk
from .support.typing_workload import typed_versions


def _filters_by_full_walk(root, source) -> list:
    """from_tree before the shortcut: every node with errors is descended."""
    found = []
    data = source.data
    whole = Span(0, len(data))
    stack = [root]
    while stack:
        node = stack.pop()
        if not node.has_error and data.find(b"diagnostic", node.start_byte, node.end_byte) < 0:
            continue
        if node.type == "diagnostic_directive":
            found.extend(_filters_of(node, whole, source))
            continue
        if node.type == "attribute":
            control = next((c for c in node.children if c.type == "diagnostic_control"), None)
            target = node.parent
            if control is not None and target is not None:
                found.extend(_filters_of(node, Span(target.start_byte, target.end_byte), source))
            continue
        if node.child_count:
            stack.extend(node.children)
    return found


def _same_as_full_walk(text: str | bytes) -> None:
    parsed = parse(text)
    assert DiagnosticFilters.from_tree(parsed.root, parsed.source).filters == \
        _filters_by_full_walk(parsed.root, parsed.source), text


# Broken filters (a missing keyword, name or parenthesis) and words that only look like severities.
_JUNK = ["@(off, x)", "@diagnostic(off, coop.stride", "diagnostic(error, a.b", "@(error,", "(info, y)",
         "@diagnostic(warning", "offset", "{", "}", ")", "(", ";", "@", "@diagnostic(", "diagnostic(off",
         "fn g() { @diagnostic(off, derivative_uniformity) {", "info", "warnings", "errors", ",", "<", ">"]

_KERNEL = """\
diagnostic(off, derivative_uniformity);
enable f16;
@group(0) @binding(0) var<storage, read_write> A: array<f16>;
@diagnostic(warning, coop.stride)
fn load(offset: u32) -> f16 {
  @diagnostic(info, coop.deprecated_builtin) {
    let x = A[offset];
  }
  if (offset > 0u) @diagnostic(error, chromium.subgroup_matrix_uniformity) {
    return A[0];
  }
  return A[offset + 1u];
}
@compute @workgroup_size(1) fn main() { _ = load(0u); }
"""


@pytest.mark.parametrize("text", ["@(off, x) fn f() {}", "@ (off, derivative_uniformity)\nfn f() {}",
                                  "@diagnostic(off, x fn f() {}", "diagnostic(off, a.b", "(off, x);\nfn f() {}",
                                  "fn f() { @diagnostic(off, x) { let = ; } }", "@diagnostic(offx, y) fn f( {}"])
def test_hand_written_broken_filters_are_found_as_before(text):
    _same_as_full_walk(text)


def test_junk_in_a_kernel_with_every_kind_of_filter():
    broken_with_filters = 0
    for version in with_junk(random.Random(18), _KERNEL, 400, _JUNK):
        _same_as_full_walk(version)
        parsed = parse(version)
        broken_with_filters += parsed.root.has_error and bool(DiagnosticFilters.from_tree(parsed.root,
                                                                                          parsed.source).filters)
    assert broken_with_filters > 100  # the comparison covers broken files that keep filters


def test_random_typing_into_a_kernel_with_filters():
    rng = random.Random(1818)
    alphabet = "(){};,@<>: offdiagnosticwarningerrorinfo.x0"
    for _ in range(60):
        text = _KERNEL
        at = rng.randrange(len(text) + 1)
        for char in rng.choices(alphabet, k=12):
            text = text[:at] + char + text[at:]
            at += 1
            _same_as_full_walk(text)


def test_junk_in_public_kernels():
    checked = 0
    for _, version in public_kernels_with_junk(1818, 18, _JUNK):
        _same_as_full_walk(version)
        checked += 1
    if not checked:
        pytest.skip("the public kernels are not on this machine")


def test_typed_versions_of_the_benchmark():
    for parsed in typed_versions(comment_at_once=True):
        assert DiagnosticFilters.from_tree(parsed.root, parsed.source).filters == \
            _filters_by_full_walk(parsed.root, parsed.source)


class _CountedBytes(bytes):
    finds = 0

    def find(self, *args):
        _CountedBytes.finds += 1
        return super().find(*args)


def test_a_broken_kernel_without_filters_is_not_walked():
    """While a statement is typed, the broken function's error spine and its neighbours were each searched
    for the word 'diagnostic'; the file has no severity word, so nothing is."""
    versions = list(typed_versions(comment_at_once=True))
    assert all(parsed.root.has_error for parsed in versions[:-1])
    for parsed in versions:
        parsed.source.data = _CountedBytes(parsed.source.data)
        _CountedBytes.finds = 0
        assert DiagnosticFilters.from_tree(parsed.root, parsed.source).filters == []
        assert _CountedBytes.finds == 0
