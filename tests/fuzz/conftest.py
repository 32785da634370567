from __future__ import annotations

from collections import Counter

import pytest

from .worker import Worker

# test name -> inputs checked (or edits applied, requests served...), printed at the end of the run.
FIGURES: Counter = Counter()


def count(what: str, amount: int = 1) -> None:
    FIGURES[what] += amount


def record(outcome) -> None:
    """Counts the known bugs (tests/fuzz/known.py) an input ran into."""
    if outcome.known_hits:
        FIGURES["inputs that hit a known bug (see tests/regressions/)"] += 1


@pytest.fixture(scope="session")
def worker():
    """One checking child process for the session; replaced whenever an input hangs or kills it."""
    with Worker() as child:
        yield child


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.section("fuzz and stress figures")
        for what, amount in sorted(FIGURES.items()):
            terminalreporter.write_line(f"{what}: {amount}")
