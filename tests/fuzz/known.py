"""Bugs found by fuzzing that are not fixed yet, each with its reproducer in tests/regressions/.

The fuzz tests count a problem that matches one of these patterns instead of
failing on it (they would otherwise fail on every run until the fix lands);
the regression test of each entry is xfail(strict=True), so it turns red the
day the bug is fixed, and then the entry is deleted from this table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class KnownBug:
    regression: str  # file name in tests/regressions/
    pattern: str  # regex searched in each problem string that invariants.py reports
    reason: str


KNOWN: tuple[KnownBug, ...] = (
    # Only trees with an error in them: a mismatch on a clean tree is a new bug. tree-sitter's
    # error recovery may differ between an incremental and a fresh parse of broken text; the
    # server lints a fresh parse, so its diagnostics are unaffected.
    KnownBug("incremental_error_recovery_differs.wgsl",
             r"incremental tree .*\((?:ERROR|MISSING).* differs from the fresh tree",
             "after an edit in broken code, Document.replace's incremental re-parse recovers from the error "
             "differently from a fresh parse of the same text"),
)


def known(problem: str) -> KnownBug | None:
    for bug in KNOWN:
        if re.search(bug.pattern, problem, re.DOTALL):
            return bug
    return None


def unknown_problems(problems: list[str]) -> list[str]:
    return [p for p in problems if known(p) is None]
