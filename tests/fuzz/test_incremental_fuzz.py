"""Incremental re-parsing (syntax.Document.replace) equals a fresh parse after random edit sequences.

Edit sequences of inserts, deletes, replacements and undos at random places
of every seed; fragments are the tokens that change most in a tree
(brackets, template angles, comments, strings of keywords) plus whole
slices of other seeds. tests/test_incremental.py covers one kernel; this
covers every seed and undo.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import count, record
from .mutate import EDIT_FRAGMENTS, random_edits, seeds

FRAGMENTS = EDIT_FRAGMENTS

# (where in the document, 0..1; how many bytes to replace; what to insert, None = undo)
edit_steps = st.lists(
    st.tuples(st.floats(0, 1), st.integers(0, 40), st.one_of(st.sampled_from(FRAGMENTS), st.none(),
                                                           st.text(max_size=8))),
    min_size=1, max_size=20)


def _absolute(text: str, steps) -> list[tuple[int, int, str | None]]:
    # Positions relative to the original length; check_incremental clamps and snaps them.
    size = len(text.encode("utf-8"))
    return [(int(where * size), int(where * size) + length, inserted) for where, length, inserted in steps]


@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(st.integers(0, len(seeds()) - 1), edit_steps)
def test_incremental_equals_fresh_after_edit_sequences(worker, index, steps):
    text = seeds()[index].text
    outcome = worker.check("incremental", text, _absolute(text, steps))
    record(outcome)
    count("edit sequences (Hypothesis)")
    count("edits applied incrementally", len(steps))
    assert outcome.passes, f"seed {seeds()[index].name}\n{outcome.explain()}"


def test_incremental_typing_every_example_char_by_char(worker):
    """Each example typed from empty, a line at a time, and deleted again from the middle out."""
    failures = []
    edits_total = 0
    for seed in seeds():
        if not seed.name.startswith("examples/"):
            continue
        lines = seed.text.splitlines(keepends=True)
        edits, offset = [], 0
        for line in lines:
            edits.append((offset, offset, line))
            offset += len(line.encode("utf-8"))
        middle = offset // 2
        edits += [(middle, middle + 7, "")] * 30 + [(0, 0, None)] * 10
        outcome = worker.check("incremental", "", edits)
        edits_total += len(edits)
        if not outcome.passes:
            failures.append(f"{seed.name}\n{outcome.explain()}"[:3000])
    count("edits applied incrementally", edits_total)
    assert not failures, "\n\n".join(failures)


def test_random_edit_sequences_fixed_seed(worker):
    rng = random.Random(7)
    pool = seeds()
    failures = []
    for _ in range(200):
        seed = pool[rng.randrange(len(pool))]
        edits = random_edits(rng, seed.text)
        outcome = worker.check("incremental", seed.text, edits)
        count("edits applied incrementally", len(edits))
        count("edit sequences (fixed seed)")
        if not outcome.passes:
            failures.append(f"{seed.name}, edits {edits}\n{outcome.explain()}"[:3000])
    assert not failures, "\n\n".join(failures)
