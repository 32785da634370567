"""The formatter on perturbed kernels: comments and line breaks dropped between random tokens.

Every example and golden input, with comments (line, block, multi-line)
and white space inserted at random token gaps, must format to text with the
same tokens that formatting leaves unchanged. A fixed seed keeps it
reproducible; these inputs found a comma and a `{` swallowed by a line
comment before they were fixed.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from coop_lsp.format import format_text, token_stream
from coop_lsp.format.lexical import token_spans
from coop_lsp.syntax import parse

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [p.read_text() for p in sorted((ROOT / "examples").rglob("*.wgsl"))] + \
          [p.read_text() for p in sorted((ROOT / "tests" / "format").glob("*.in.wgsl"))]
INSERTS = [" // note\n", " /* c */ ", "\n/* a\n   b */\n", "\n\n", "   ", "\n        "]


def perturbed(rng: random.Random) -> str:
    text = rng.choice(SOURCES)
    for _ in range(rng.randint(1, 5)):
        spans = token_spans(text)
        at = spans[rng.randrange(len(spans))][1]
        text = text[:at] + rng.choice(INSERTS) + text[at:]
    return text


@pytest.mark.parametrize("seed", range(4))
def test_perturbed_kernels_keep_their_tokens_and_format_idempotently(seed: int):
    rng = random.Random(seed)
    formatted = 0
    for _ in range(60):
        text = perturbed(rng)
        before = parse(text)
        if before.root.has_error:
            continue
        result = format_text(text)
        assert result.text is not None, (result.refused, text)
        after = parse(result.text)
        assert not after.root.has_error, text
        assert token_stream(before.root, before.source.data) == token_stream(after.root, after.source.data), text
        assert format_text(result.text).text == result.text, text
        formatted += 1
    assert formatted > 40
