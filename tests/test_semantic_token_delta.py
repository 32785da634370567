"""The semantic token delta is one splice of whole tokens that turns the old array into the new one."""

from __future__ import annotations

import random

from coop_lsp.server.tokens import apply, delta


def test_delta_reproduces_the_new_tokens():
    rng = random.Random(3)
    for _ in range(500):
        old = [rng.randrange(4) for _ in range(5 * rng.randrange(0, 12))]
        new = list(old)
        at = 5 * rng.randrange(0, len(old) // 5 + 1)
        new[at:at + 5 * rng.randrange(0, 3)] = [rng.randrange(4) for _ in range(5 * rng.randrange(0, 3))]
        edits = delta(old, new)
        assert apply(old, edits) == new
        for edit in edits:
            assert edit.start % 5 == 0 and edit.delete_count % 5 == 0 and len(edit.data) % 5 == 0
    assert delta([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]) == []
