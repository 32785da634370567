"""A check that uses the records of the versions before it gives the findings of a check without them.

The server checks each version against what the previous ones left (function bodies, headers, uniformity
summaries, syntax findings, carried steps: docs/architecture.md, "What an edit redoes"). The reuse tests
compare that with fresh checks on edit sequences their authors chose; this one edits every seed at random
places with the fragments that break structure most, and undoes, and compares each version with a check of
the same incremental tree without records (invariants.check_reuse). `benchmarks/fuzz_campaign.py --targets
reuse` runs the same check on many more inputs.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import count, record
from .invariants import check_reuse
from .mutate import EDIT_FRAGMENTS, seeds

edit_steps = st.lists(
    st.tuples(st.floats(0, 1), st.sampled_from((0, 0, 1, 3, 20)),
              st.one_of(st.sampled_from(EDIT_FRAGMENTS), st.none())),
    min_size=1, max_size=12)


@settings(deadline=None, max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(st.integers(0, len(seeds()) - 1), edit_steps)
def test_records_change_no_finding_after_random_edits(worker, index, steps):
    text = seeds()[index].text
    size = len(text.encode("utf-8"))
    edits = [(int(where * size), int(where * size) + length, inserted) for where, length, inserted in steps]
    outcome = worker.check("reuse", text, edits)
    record(outcome)
    count("edit sequences checked with and without records (Hypothesis)")
    assert outcome.passes, f"seed {seeds()[index].name}\n{outcome.explain()}"


def test_a_var_that_an_error_follows_keeps_no_old_finding():
    """Found by this check in a campaign: `var q` typed before `) ;` (a skipped token, an extra ERROR node)
    kept the "needs a type or an initializer" of the version where `;` followed it (header_reuse.py)."""
    text = "var q ;\n@compute @workgroup_size(1)\nfn main() {\n}\n"
    assert check_reuse(text, [(6, 6, ")")]) == []
    assert check_reuse(text, [(6, 6, ")"), (6, 7, ""), (6, 6, "))"), (0, 0, None)]) == []


def test_alias_findings_with_records_equal_those_without_while_statements_are_typed_and_undone():
    """The alias check's findings carried from the last version (semantic/carry.py, Carry.aliasing): typed
    character by character in each body of a module with alias findings, statements that change what the
    body accesses and passes, or nothing, then undone a character at a time."""
    from tests.test_carry import ALIAS_TYPED, ALIASING
    data = ALIASING.encode()
    for body in ("fn writes(", "fn bumps(", "fn caller(", "fn main("):
        at = data.index(b"{\n", data.index(body.encode())) + 2
        for statement in ALIAS_TYPED:
            typed = f"  {statement}\n"
            edits = [(at + i, at + i, char) for i, char in enumerate(typed)]
            assert check_reuse(ALIASING, edits + [(0, 0, None)] * len(typed)) == [], (body, statement)
