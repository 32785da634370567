"""A short fuzz run of the linter: generated modules, every seed, mutated seeds.

Each input goes through `invariants.check_lint` in a child process with a
time limit (worker.py): no exception, no X001, no hang, every span inside
the document, fixes that stay inside it, do not overlap and parse no worse.
The long campaigns are benchmarks/fuzz_campaign.py and benchmarks/fuzz_atheris.py.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import count, record
from .grammar import random_module
from .mutate import OPERATORS, as_text, mutate, seeds
from .strategies import mutated_seeds, wgsl_modules

FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                      HealthCheck.function_scoped_fixture])


@settings(FUZZ, max_examples=150)
@given(wgsl_modules())
def test_generated_modules(worker, text):
    count("generated modules (Hypothesis)")
    outcome = worker.check("lint", text)
    record(outcome)
    assert outcome.passes, outcome.explain()


@settings(FUZZ, max_examples=60)
@given(wgsl_modules(slips=25))
def test_generated_modules_with_many_slips(worker, text):
    count("generated modules with many slips (Hypothesis)")
    outcome = worker.check("lint", text)
    record(outcome)
    assert outcome.passes, outcome.explain()


@settings(FUZZ, max_examples=250)
@given(mutated_seeds())
def test_mutated_seeds(worker, mutated):
    name, mutations, text = mutated
    count("mutated seeds (Hypothesis)")
    outcome = worker.check("lint", text)
    record(outcome)
    assert outcome.passes, f"seed {name}, mutations {mutations}\n{outcome.explain()}"


def test_every_seed_and_a_mutation_of_each_kind(worker):
    """Every example, spec case and fixture as written, then once per mutation operator (fixed seed)."""
    rng = random.Random(12)
    failures = []
    checked = 0
    for seed in seeds():
        data = seed.text.encode("utf-8")
        inputs = [((), seed.text)]
        operator = rng.randrange(len(OPERATORS))  # one operator per seed, every operator over the set
        mutation = ((operator, rng.randrange(1 << 20), rng.randrange(1 << 16)),)
        inputs.append((mutation, as_text(mutate(data, mutation))))
        for mutations, text in inputs:
            outcome = worker.check("lint", text)
            record(outcome)
            checked += 1
            if not outcome.passes:
                failures.append(f"seed {seed.name}, mutations {list(mutations)}\n{outcome.explain()}")
    count("seeds and fixed mutations of them", checked)
    assert not failures, f"{len(failures)} failing inputs:\n\n" + "\n\n".join(f[:3000] for f in failures[:10])


def test_random_generated_modules_fixed_seed(worker):
    """The campaign's driver (random.Random) on a fixed seed: the same inputs every run."""
    failures = []
    for index in range(150):
        text = random_module(random.Random(index))
        outcome = worker.check("lint", text)
        record(outcome)
        if not outcome.passes:
            failures.append(f"random_module(random.Random({index}))\n{outcome.explain()}")
    count("generated modules (fixed seeds)", 150)
    assert not failures, f"{len(failures)} failing inputs:\n\n" + "\n\n".join(f[:3000] for f in failures[:10])


@pytest.mark.parametrize("text", [
    "", "\n", "\x00", "\ufeff", "\xff", b"\xff\xfe", b"\xed\xa0\x80", "/*", "/* /* */", "//", "{" * 3000,
    "(" * 3000, "fn f() {" + "{" * 2000, "fn f() { let x = " + "-" * 5000 + "1; }",
    "fn f() { let x = " + "(" * 1500 + "1" + ")" * 1500 + "; }", "a<" * 2000,
    "fn f() { let x = 1" + " + 1" * 20000 + "; }", "\r" * 1000, "\n" * 100000,
    "fn f() { " + "if true { " * 500 + "}" * 500 + " }",
])
def test_pathological_inputs(worker, text):
    count("pathological inputs")
    outcome = worker.check("lint", text)
    record(outcome)
    assert outcome.passes, outcome.explain()
