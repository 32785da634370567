"""`DiagnosticFilters.from_tree` on a text without the word "diagnostic" enters only the nodes with errors, without
searching each node's range for the word (`filters.WORD_SHORTCUT`): the same filters as searching every range."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from coop_lsp.core.text import SourceText
from coop_lsp.syntax import filters, parse
from coop_lsp.syntax.filters import DiagnosticFilters
from tests.support.trees import public_kernels_with_junk, with_junk
from tests.support.typing_workload import typed_versions

EXAMPLES = sorted(Path(__file__).resolve().parents[1].joinpath("examples").rglob("*.wgsl"))
# Filters with the word left out or cut short, so that recovery may make it up, and pieces that break the parse.
JUNK = ["(off, coop.x);\n", "@(warning, derivative_uniformity) ", "@ (off, coop.stride) {", "diagnos", "@diag(",
        "(info, chromium.subgroup_matrix_uniformity)", "{", "}", ";", "fn (", "let = ", "@", ")", "/*", "<"]


def _filters(root, source: SourceText, shortcut: bool, monkeypatch) -> list:
    monkeypatch.setattr(filters, "WORD_SHORTCUT", shortcut)
    return DiagnosticFilters.from_tree(root, source).filters


def _same(text: str, monkeypatch) -> None:
    parsed = parse(text)
    assert _filters(parsed.root, parsed.source, True, monkeypatch) == \
        _filters(parsed.root, parsed.source, False, monkeypatch), text


def test_the_shortcut_finds_the_filters_the_searches_find_while_a_statement_is_typed(monkeypatch) -> None:
    for parsed in typed_versions():
        assert _filters(parsed.root, parsed.source, True, monkeypatch) == \
            _filters(parsed.root, parsed.source, False, monkeypatch)


@pytest.mark.parametrize("seed", range(3))
def test_the_shortcut_finds_the_filters_the_searches_find_in_examples_with_junk(seed, monkeypatch) -> None:
    rng = random.Random(seed)
    checked = with_word = 0
    for path in EXAMPLES:
        text = path.read_text(encoding="utf-8", errors="replace")
        for variant in (text, text.replace("diagnostic", rng.choice(["", "diag", " "]))):
            for version in with_junk(rng, variant, 4, JUNK):
                _same(version, monkeypatch)
                checked += 1
                with_word += "diagnostic" in version
    assert checked > 100 and 0 < with_word < checked


def test_the_shortcut_finds_the_filters_the_searches_find_in_public_kernels_with_junk(monkeypatch) -> None:
    versions = 0
    for _, version in public_kernels_with_junk(21, 37, JUNK, per_file=3):
        _same(version, monkeypatch)
        _same(version.replace("diagnostic", ""), monkeypatch)
        versions += 1
    if versions == 0:
        pytest.skip("the public corpora are not on this machine")


def test_filters_whose_word_is_present_are_still_found(monkeypatch) -> None:
    parsed = parse("diagnostic (off, coop.x);\nfn f() { @diagnostic(off, coop.y) { let } }")
    assert [f.rule for f in _filters(parsed.root, parsed.source, True, monkeypatch)] == ["coop.y", "coop.x"]


class _CountedFinds(bytes):
    """Bytes that count the searches made in them."""

    finds = 0

    def find(self, *args):
        type(self).finds += 1
        return bytes.find(self, *args)


def test_a_broken_document_without_filters_is_searched_once() -> None:
    """Before, each node without an error on the way to the errors (each module-scope part of the benchmark's
    document, about 200 of them per version) had its range searched for the word."""
    versions = 0
    for parsed in typed_versions(comment_at_once=True):
        assert parsed.root.has_error
        source = SourceText.from_bytes(parsed.source.data)
        source.data = _CountedFinds(parsed.source.data)
        _CountedFinds.finds = 0
        assert DiagnosticFilters.from_tree(parsed.root, source).filters == []
        assert _CountedFinds.finds == 1
        versions += 1
    assert versions > 10
