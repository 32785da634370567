"""The syntax specification: every case in tests/spec/syntax, checked here and against Tint."""

from __future__ import annotations

from pathlib import Path

import pytest

from .support import agreement
from .support.compare import check_against_tint, check_expected
from .support.spec import load_cases

CASES = load_cases(Path(__file__).parent / "spec" / "syntax")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case):
    check_expected(case)


@pytest.mark.tint
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_agrees_with_tint(case, tint):
    if case.tint_mode == "skip":
        pytest.skip(case.tint_reason)
    agrees, why = check_against_tint(case, tint)
    agreement.record("Tint", case.id, agrees)
    if case.tint_mode == "differs":
        assert not agrees, f"{case.id} is marked as differing from Tint ({case.tint_reason}) but agrees"
    else:
        assert agrees, why


def test_there_are_cases_of_every_kind():
    codes = {e.code for case in CASES for e in case.expected}
    assert {"S001", "S002", "S003", "S004"} <= codes
    assert any(not case.expected for case in CASES)
