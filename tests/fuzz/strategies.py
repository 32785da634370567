"""Hypothesis strategies over the generator and the mutators.

Kept apart from grammar.py and mutate.py so that benchmarks/fuzz_campaign.py,
which imports those two, runs on a machine with only tree_sitter and the
standard library: Hypothesis is a test-suite dependency, not a campaign one.
"""

from __future__ import annotations

from hypothesis import strategies as st

from .grammar import Chooser, WgslGenerator
from .mutate import OPERATORS, as_text, mutate, seeds


class HypothesisChooser(Chooser):
    def __init__(self, draw) -> None:
        self.draw = draw

    def integer(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))


@st.composite
def wgsl_modules(draw, budget: int = 300, slips: int = 3) -> str:
    """One generated module; shrinks towards small modules."""
    return WgslGenerator(HypothesisChooser(draw), budget=budget, slips=slips).module()


mutations = st.lists(
    st.tuples(st.integers(0, len(OPERATORS) - 1), st.integers(0, 1 << 20), st.integers(0, 1 << 16)),
    min_size=1, max_size=6)


@st.composite
def mutated_seeds(draw) -> tuple[str, list[tuple[int, int, int]], str | bytes]:
    """(seed name, mutations, mutated text) for a seed drawn from every seed."""
    pool = seeds()
    seed = pool[draw(st.integers(0, len(pool) - 1))]
    applied = draw(mutations)
    return seed.name, applied, as_text(mutate(seed.text.encode("utf-8"), applied))
