"""The uniformity specification: every case in tests/spec/uniformity, checked here and against Tint.

Beyond verdict and first-error line, where both Tint and coop-lint report a
uniformity error, our notes (related locations) must be Tint's notes: the
same messages at the same positions, in the same order.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from coop_lsp.lint import lint_source

from .support import agreement
from .support.compare import check_against_tint, check_expected
from .support.spec import load_cases

SPEC = Path(__file__).parent / "spec" / "uniformity"
CASES = load_cases(SPEC) if SPEC.is_dir() else []
TINT_CASES = [c for c in CASES if c.tint_mode != "skip"]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case):
    check_expected(case)


@pytest.mark.tint
@pytest.mark.parametrize("case", TINT_CASES, ids=[c.id for c in TINT_CASES])
def test_case_agrees_with_tint(case, tint):
    agrees, why = check_against_tint(case, tint)
    if agrees and case.tint_mode != "differs":
        agrees, why = _same_notes(case, tint)
    agreement.record("Tint (uniformity)", case.id, agrees)
    if case.tint_mode == "differs":
        assert not agrees, f"{case.id} is marked as differing from Tint ({case.tint_reason}) but agrees"
    else:
        assert agrees, why


def _same_notes(case, tint) -> tuple[bool, str]:
    verdict = tint.compile(case.source)
    errors = [m for m in verdict.messages if m.severity == "error"]
    if not errors or "uniform" not in errors[0].message:
        return True, ""
    first = verdict.messages.index(errors[0])
    tint_notes = []
    for message in verdict.messages[first + 1 :]:
        if message.severity != "info":
            break
        tint_notes.append((message.line, message.column, message.message))
    result = lint_source(case.source)
    ours = [d for d in result.diagnostics if d.code == "U001"]
    if not ours:
        return False, "Tint reports a uniformity error and we report none"
    notes = []
    for related in ours[0].related:
        position = result.source.position(related.span.start)
        notes.append((position.line + 1, position.column + 1, related.message))
    if notes != tint_notes:
        return False, f"notes differ:\n  Tint: {tint_notes}\n  ours: {notes}"
    return True, ""


def test_there_are_enough_cases():
    assert len(CASES) >= 100
    beyond_tint = [c for c in CASES if c.tint_mode == "differs" or any(e.code in ("U002", "U003") for e in c.expected)]
    assert len(beyond_tint) >= 15
