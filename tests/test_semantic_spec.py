"""The semantic specification: every case in tests/spec/semantic, checked here and against Tint.

Cases in the Tint dialects (plain WGSL and chromium_experimental_subgroup_matrix)
are also compiled by the pinned Tint; the verdict and the first error line
must agree unless the case says why it differs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .support import agreement
from .support.compare import check_against_tint, check_expected
from .support.spec import load_cases

SPEC = Path(__file__).parent / "spec" / "semantic"
CASES = load_cases(SPEC) if SPEC.is_dir() else []


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
