"""The semantic specification: every case in tests/spec/semantic, checked here and against Tint.

Cases in the Tint dialects (plain WGSL and chromium_experimental_subgroup_matrix)
are also compiled by the pinned Tint; the verdict and the first error line
must agree unless the case says why it differs. Cases in the wgpu dialect are
validated by the pinned naga the same way.

The `test_spec_*` tests check the written expectations themselves against
the compilers, independently of our implementation, so that the
specification stays true while the implementation changes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .support import agreement
from .support.compare import check_against_tint, check_expected
from .support.oracles import check_against_naga, expectations_against_naga, expectations_against_tint, is_error
from .support.spec import load_cases

SPEC = Path(__file__).parent / "spec" / "semantic"
CASES = load_cases(SPEC) if SPEC.is_dir() else []
TINT_CASES = [c for c in CASES if c.tint_mode != "skip"]
NAGA_CASES = [c for c in CASES if c.naga_mode != "skip"]


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


@pytest.mark.naga
@pytest.mark.parametrize("case", NAGA_CASES, ids=[c.id for c in NAGA_CASES])
def test_case_agrees_with_naga(case, naga):
    agrees, why = check_against_naga(case, naga)
    agreement.record("naga", case.id, agrees)
    if case.naga_mode == "differs":
        assert not agrees, f"{case.id} is marked as differing from naga ({case.naga_reason}) but agrees"
    else:
        assert agrees, why


# ------------------------------------------------ the specification itself
@pytest.mark.tint
@pytest.mark.parametrize("case", TINT_CASES, ids=[c.id for c in TINT_CASES])
def test_spec_agrees_with_tint(case, tint):
    agrees, why = expectations_against_tint(case, tint)
    if case.tint_mode == "differs":
        assert not agrees, f"{case.id} is marked as differing from Tint ({case.tint_reason}) but agrees"
    else:
        assert agrees, why


@pytest.mark.naga
@pytest.mark.parametrize("case", NAGA_CASES, ids=[c.id for c in NAGA_CASES])
def test_spec_agrees_with_naga(case, naga):
    agrees, why = expectations_against_naga(case, naga)
    if case.naga_mode == "differs":
        assert not agrees, f"{case.id} is marked as differing from naga ({case.naga_reason}) but agrees"
    else:
        assert agrees, why


def test_spec_size_and_balance():
    assert len(CASES) >= 220
    valid = [c for c in CASES if not c.expected]
    assert len(valid) / len(CASES) >= 0.35, f"only {len(valid)} of {len(CASES)} cases are valid"
    codes = {e.code for c in CASES for e in c.expected}
    wanted = {f"T{n:03}" for n in range(1, 16)}
    assert wanted <= codes, sorted(wanted - codes)
    assert any(code.startswith("S") for code in codes)


def test_spec_dialects_that_tint_does_not_know_skip_it():
    for case in CASES:
        if re.search(r"^\s*enable\s+(wgpu_cooperative_matrix|subgroup_matrix)\s*;", case.source, re.MULTILINE):
            assert case.tint_mode == "skip", f"{case.id}: Tint does not know this dialect"


def test_spec_every_wgpu_case_asks_naga():
    for case in CASES:
        if "wgpu_cooperative_matrix" in case.source:
            assert case.naga_mode in ("compare", "differs"), case.id


def test_spec_annotation_codes_are_registered():
    for case in CASES:
        for expected in case.expected:
            is_error(expected.code)  # raises for an unknown code
