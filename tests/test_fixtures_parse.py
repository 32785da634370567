"""Every WGSL snippet from the seed documents and every example parses cleanly."""

from __future__ import annotations

from pathlib import Path

import pytest

from coop_lsp.lint import lint_source

ROOT = Path(__file__).resolve().parent.parent
SEED_SNIPPETS = sorted((ROOT / "tests" / "fixtures" / "seeds").glob("*.wgsl"))
# examples/templates are templates: tests/test_templates.py lints them with their variants.
EXAMPLES = sorted(p for p in (ROOT / "examples").rglob("*.wgsl") if "templates" not in p.relative_to(ROOT).parts)


def _has_error_nodes(tree) -> bool:
    return tree.root_node.has_error


@pytest.mark.parametrize("path", SEED_SNIPPETS + EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_parses_without_error_nodes(path):
    result = lint_source(path.read_bytes())
    assert not _has_error_nodes(result.parsed.tree), result.parsed.root
    assert [d for d in result.diagnostics if d.code.startswith("S")] == []


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_examples_are_clean(path):
    assert lint_source(path.read_bytes()).diagnostics == []


def test_there_is_a_naive_and_a_blocked_gemm_in_every_matrix_dialect():
    for dialect in ("wgpu", "chromium", "standard"):
        names = {p.stem for p in (ROOT / "examples" / dialect).glob("*.wgsl")}
        assert {"gemm_naive", "gemm_blocked"} <= names, dialect


def test_the_invalid_seed_snippet_is_reported_where_the_document_is_wrong():
    # Seed 000's matmul_tile example writes `coopLoad<_, A>`; `_` is not a name.
    path = ROOT / "tests" / "fixtures" / "seeds" / "invalid" / "s000_07_matmul_tile.wgsl"
    result = lint_source(path.read_bytes())
    syntax = [d for d in result.diagnostics if d.code.startswith("S")]
    assert sorted({result.source.position(d.span.start).line + 1 for d in syntax}) == [16, 17, 18]
    assert all("'_'" in d.message for d in syntax)


@pytest.mark.tint
@pytest.mark.parametrize("path", sorted((ROOT / "examples" / "chromium").glob("*.wgsl")),
                         ids=lambda p: p.name)
def test_chromium_examples_compile_in_tint_without_warnings(path, tint):
    verdict = tint.compile(path.read_text())
    assert verdict.failure is None
    assert [m for m in verdict.messages if m.severity in ("error", "warning")] == []
