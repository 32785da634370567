"""The editor features on fuzzed documents: hover, completion, signature help, navigation, rename,
selection ranges, semantic tokens, inlay hints, folding, code actions; at random offsets, never raising,
with every span they return inside the document."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import count, record
from .grammar import random_module
from .mutate import seeds
from .strategies import mutated_seeds, wgsl_modules

OFFSETS = st.lists(st.integers(0, 1 << 20), min_size=1, max_size=6)
SETTINGS = settings(deadline=None, max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                           HealthCheck.too_slow])


@SETTINGS
@given(wgsl_modules(), OFFSETS)
def test_features_on_generated_modules(worker, text, offsets):
    outcome = worker.check("ide", text, offsets)
    record(outcome)
    count("documents queried by the editor features")
    count("editor feature queries", 10 * len(offsets) + 5)
    assert outcome.passes, outcome.explain()


@SETTINGS
@given(mutated_seeds(), OFFSETS)
def test_features_on_mutated_seeds(worker, mutated, offsets):
    name, mutations, text = mutated
    if isinstance(text, bytes):  # editors hand the server decoded text
        text = text.decode("utf-8", errors="replace")
    outcome = worker.check("ide", text, offsets)
    record(outcome)
    count("documents queried by the editor features")
    count("editor feature queries", 10 * len(offsets) + 5)
    assert outcome.passes, f"seed {name}, mutations {mutations}\n{outcome.explain()}"


def test_features_at_every_token_of_the_examples(worker):
    failures = []
    for seed in seeds():
        if not seed.name.startswith("examples/"):
            continue
        size = len(seed.text.encode("utf-8"))
        offsets = list(range(0, size + 1, 7))
        outcome = worker.check("ide", seed.text, offsets)
        count("documents queried by the editor features")
        count("editor feature queries", 10 * len(offsets) + 5)
        if not outcome.passes:
            failures.append(f"{seed.name}\n{outcome.explain()}"[:3000])
    rng = random.Random(3)
    for index in range(30):
        text = random_module(random.Random(1000 + index))
        offsets = [rng.randrange(len(text) + 1) for _ in range(8)]
        outcome = worker.check("ide", text, offsets)
        count("documents queried by the editor features")
        count("editor feature queries", 10 * len(offsets) + 5)
        if not outcome.passes:
            failures.append(f"random_module(random.Random({1000 + index}))\n{outcome.explain()}"[:3000])
    assert not failures, "\n\n".join(failures)
