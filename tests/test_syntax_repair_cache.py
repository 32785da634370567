"""The repairs that word a syntax error are re-parses of the declarations around it; their outcomes are kept by
those bytes, so a version whose error region did not change (the user edits another function) is explained
without re-parsing, with exactly the findings a computation from nothing gives."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from coop_lsp.syntax import diagnostics as syntax, parse

ROOT = Path(__file__).resolve().parent.parent
JUNK = ["@@ ", "{", "(", ";", "let = ", "fn (", "<", ")", "1u 2u", "->", "var<"]


def _findings(text: str) -> list:
    return [(d.code, d.span, d.message, d.related, d.fixes) for d in syntax.syntax_diagnostics(parse(text))]


def _uncached(text: str) -> list:
    syntax._tried.clear()
    syntax._tried_bytes = 0
    return _findings(text)


@pytest.mark.parametrize("path", sorted((ROOT / "examples").rglob("*.wgsl")), ids=lambda p: p.name)
def test_errors_kept_while_another_function_is_edited_are_explained_from_the_cache(path: Path, counted) -> None:
    rng = random.Random(path.name)
    text = path.read_text(encoding="utf-8")
    for _ in range(4):
        at = rng.randrange(len(text) // 2)
        errored = text[:at] + rng.choice(JUNK) + text[at:]
        expected = _uncached(errored)
        counted.clear()
        # Another edit at the end of the file (a comment): the error's window is usually the same bytes.
        later = errored + "\n// typed elsewhere\n"
        assert _findings(later) == _uncached(later)
        syntax._tried.clear()
        _findings(errored)
        counted.clear()
        assert _findings(errored) == expected
        assert not counted  # the same bytes again: no re-parse at all


def test_a_full_cache_starts_over_and_changes_nothing(monkeypatch) -> None:
    monkeypatch.setattr(syntax, "REPAIR_CACHE_BYTES", 2048)
    text = (ROOT / "examples" / "chromium" / "gemm_naive.wgsl").read_text(encoding="utf-8")
    rng = random.Random(3)
    for _ in range(12):
        at = rng.randrange(len(text))
        errored = text[:at] + rng.choice(JUNK) + text[at:]
        cached = _findings(errored)
        assert syntax._tried_bytes <= 2048 + len(errored)
        assert cached == _uncached(errored)
