"""Kernels that are uniform in every subgroup but that Tint rejects.

Tint (workgroup-level check) rejects each one; coop-lint reproduces Tint's
error (U001) and says that the call is subgroup-uniform (U003), and with
Tint's rule switched off reports nothing: no U002, since no subgroup
diverges. benchmarks/results/subgroup_uniform_gpu.json records that the same
kernels, run on an NVIDIA H100 with the rule off, compute A x B correctly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coop_lsp.lint import lint_source
from tests.fixtures.subgroup_uniform.kernels import KERNELS, source

RESULTS = Path(__file__).resolve().parent.parent / "benchmarks" / "results" / "subgroup_uniform_gpu.json"


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_coop_lint_says_tint_rejects_a_subgroup_uniform_kernel(name):
    codes = [d.code for d in lint_source(source(name)).diagnostics]
    assert codes == ["U001", "U003"]


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_with_tints_rule_off_nothing_is_left(name):
    assert lint_source(source(name, suppress=True)).diagnostics == []


@pytest.mark.tint
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_tint_rejects_on_our_first_error_line_and_accepts_with_the_rule_off(name, tint):
    text = source(name)
    verdict = tint.compile(text)
    assert verdict.errors, "Tint accepted a kernel this test says it rejects"
    ours = lint_source(text)
    first = ours.diagnostics[0]
    assert ours.source.position(first.span.start).line + 1 == verdict.errors[0].line
    assert tint.compile(source(name, suppress=True)).accepted


def test_the_gpu_run_recorded_correct_results_for_every_kernel():
    recorded = json.loads(RESULTS.read_text())
    assert set(recorded["figures"]) == set(KERNELS)
    assert all(result["correct"] for result in recorded["figures"].values())
    assert "H100" in recorded["machine"]["adapter"]
