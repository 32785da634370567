"""A short differential campaign on a fixed seed: one-edit mutants of our examples and spec cases, Tint vs coop-lint.

The full campaign (benchmarks/differential.py, public shaders included) writes
benchmarks/results/differential.json. Here a few hundred mutants of what is in
the repository must cause no crash and no internal error, and the verdict
must agree with Tint at least as often as it did when the floor was measured.
"""

from __future__ import annotations

import random

import pytest

from benchmarks import differential, mutations

from .support import agreement

SEED, MUTANTS = 18, 240
# Verdict agreement, deliberate differences (U002) counted as agreeing, measured on this seed: 92.4%
# (220 of 238; the rest are misses of rule classes issue 18 has yet to add). The bases are the repository's
# own spec cases, so the mutants change as cases are added; the floor leaves room for that.
AGREEMENT_FLOOR = 0.90


@pytest.fixture(scope="module")
def campaign():
    from coop_lsp.devices.tint import tint_available

    if not tint_available():
        pytest.skip("wgpudawn is not installed")
    bases = differential.load_bases(None)
    records, accepted = differential.run_campaign(bases, MUTANTS, SEED, workers=2, use_naga=False)
    return records, accepted


@pytest.mark.tint
def test_mutants_never_crash_the_linter(campaign):
    records, _ = campaign
    crashes = [(r["base"], r["edit"], r["why"]) for r in records if r["category"] == "crash"]
    assert not crashes, crashes


@pytest.mark.tint
def test_verdicts_agree_with_tint_on_mutants(campaign):
    records, accepted = campaign
    judged = [r for r in records if r["category"] in differential.CATEGORIES]
    assert len(accepted) > 200 and len(judged) >= MUTANTS * 0.9
    planned = sum(1 for r in judged if r["category"] == "false_error" and differential.deliberate(r))
    rate = (sum(1 for r in judged if r["category"] in ("both_accept", "both_reject")) + planned) / len(judged)
    table = differential.summarise(records)["overall"]
    agreement.figure(f"agreement with Tint on {len(judged)} mutants (seed {SEED})",
                     f"{table['verdict_agreement']}; false errors {table['false_error']} "
                     f"({table['false_error_deliberate']} deliberate), missed {table['missed']}")
    assert rate >= AGREEMENT_FLOOR, differential.summarise(records)["disagreement_classes"]


@pytest.mark.tint
def test_every_false_error_on_mutants_is_deliberate(campaign):
    records, _ = campaign
    unplanned = [(r["base"], r["edit"], r["ours_first"]) for r in records
                 if r["category"] == "false_error" and not differential.deliberate(r)]
    assert not unplanned, unplanned


@pytest.mark.tint
def test_every_mutation_kind_is_exercised(campaign):
    records, _ = campaign
    assert {r["kind"] for r in records} == set(mutations.KINDS)


def test_mutants_are_the_same_for_a_seed():
    text = "enable f16;\n@group(0) @binding(0) var<storage, read_write> a: array<f32>;\n" \
           "@compute @workgroup_size(1) fn main() {\n  a[0] = 1.0 + f32(2u);\n  workgroupBarrier();\n}\n"
    first = [mutations.mutate(text, random.Random(f"7:{i}")) for i in range(50)]
    again = [mutations.mutate(text, random.Random(f"7:{i}")) for i in range(50)]
    assert first == again
    assert all(m is not None and m[1] != text for m in first)


def test_a_call_wrapped_in_a_non_uniform_branch():
    text = "@compute @workgroup_size(1) fn main() {\n  workgroupBarrier();\n}\n"
    mutated, description = mutations.branch_non_uniform(text, random.Random(0))
    assert "if (mutant_non_uniform == 0u) { workgroupBarrier(); }" in mutated
    assert "var<private> mutant_non_uniform: u32;" in mutated
    assert description == "line 2: call wrapped in a branch on a non-uniform value"


def test_a_negative_stride_naga_passes_unchecked_is_a_deliberate_difference():
    # naga 29 does not type-check coopLoad's stride; coop-lint holds it to the proposal's u32.
    record = {"category": "false_error", "oracle": "naga",
              "ours_first": ["T014", 3, "value -1 cannot be represented as 'u32' (the 'stride' argument of 'coopLoad')"]}
    assert differential.deliberate(record)
    record["ours_first"] = ["T014", 3, "value -1 cannot be represented as 'u32'"]
    assert not differential.deliberate(record)
