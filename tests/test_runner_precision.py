"""Results judged at the kernel's own precision (issue 24, item 4).

A kernel accumulating in f16 is judged against the error f16 accumulation gives over its K, not against
its f32 output buffer's tolerance; --strict keeps the latter. The bound is checked against f16
accumulation simulated in NumPy (round to f16 after every addition, as the hardware's f16 accumulator
does) and against a real run on lavapipe."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from coop_lsp.runner.description import parse_run_description
from coop_lsp.runner.execute import check_results, run_kernel
from coop_lsp.runner.kernel import load_kernel
from coop_lsp.runner.precision import accumulator_types

FIXTURES = Path(__file__).parent / "fixtures" / "runner"
GEMM = """dispatch = [1]
[sizes]
M = 32
N = 32
K = {k}
[[binding]]
binding = 0
type = "f16"
size = "M * K"
[[binding]]
binding = 1
type = "f16"
size = "K * N"
[[binding]]
binding = 2
type = "f32"
size = "M * N"
[check]
kind = "gemm"
"""


def f16_accumulation(a, b, skip_last_tile=False):
    """C = A x B with every partial sum rounded to f16, one 16-wide K slice after another."""
    k = a.shape[1]
    acc = np.zeros((a.shape[0], b.shape[1]), np.float16)
    for start in range(0, k - (16 if skip_last_tile else 0), 16):
        for kk in range(start, start + 16):
            acc = (acc.astype(np.float32) + np.outer(a[:, kk], b[kk, :]).astype(np.float32)).astype(np.float16)
    return acc.astype(np.float32)


def inputs(k, low):
    rng = np.random.default_rng(7)
    a = rng.uniform(low, 1, (32, k)).astype(np.float16)
    b = rng.uniform(low, 1, (k, 32)).astype(np.float16)
    return {"a": a.reshape(-1), "b": b.reshape(-1), "c": np.zeros(32 * 32, np.float32)}, a, b


@pytest.mark.parametrize("k, low", [(1024, 0.0), (4096, 0.0), (4096, -1.0)])
def test_f16_accumulation_is_judged_correct_at_its_own_precision(k, low):
    data, a, b = inputs(k, low)
    desc = parse_run_description(GEMM.format(k=k))
    got = {"c": f16_accumulation(a.astype(np.float32), b.astype(np.float32)).reshape(-1)}
    types = {"a": "f16", "b": "f16", "c": "f32"}
    [own] = check_results(desc, data, got, types, {"f16"})
    assert own.verdict == "correct" and own.judged == f"f16 accumulation over K = {k}"
    assert own.max_abs_error < own.bound
    [strict] = check_results(desc, data, got, types, {"f16"}, strict=True)
    assert strict.verdict == "incorrect" and not strict.judged  # the f32 output's tolerance calls it wrong


@pytest.mark.parametrize("low", [-1.0, -0.5])
def test_a_missing_k_tile_is_incorrect_beyond_the_f16_error(low):
    data, a, b = inputs(1024, low)
    got = {"c": f16_accumulation(a.astype(np.float32), b.astype(np.float32), skip_last_tile=True).reshape(-1)}
    [check] = check_results(parse_run_description(GEMM.format(k=1024)), data, got,
                            {"a": "f16", "b": "f16", "c": "f32"}, {"f16"})
    assert check.verdict == "incorrect" and check.max_abs_error > check.bound


def test_an_f32_accumulator_keeps_the_output_tolerance():
    data, a, b = inputs(1024, 0.0)
    got = {"c": f16_accumulation(a.astype(np.float32), b.astype(np.float32)).reshape(-1)}
    [check] = check_results(parse_run_description(GEMM.format(k=1024)), data, got,
                            {"a": "f16", "b": "f16", "c": "f32"}, {"f32"})
    assert check.verdict == "incorrect" and not check.judged


def test_accumulator_types_come_from_the_result_matrices():
    assert accumulator_types(load_kernel((FIXTURES / "acc16.wgsl").read_text()).model) == {"f16"}
    example = Path(__file__).parent.parent / "examples" / "chromium" / "gemm_naive.wgsl"
    assert accumulator_types(load_kernel(example.read_text()).model) == {"f32"}


def test_f16_accumulation_on_lavapipe_is_within_its_error_and_the_report_says_so(adapter):
    report = run_kernel(FIXTURES / "acc16.wgsl", FIXTURES / "acc16.run.toml", backend="emulate")
    assert report.status == "correct", report.render()
    text = report.render()
    assert "c: correct: within the error of f16 accumulation over K = 256" in text
    assert "beyond the output type's tolerance" in text  # lavapipe really rounded to f16


def test_an_f16_accumulator_in_a_k_loop_is_marked_with_the_measured_error():
    from coop_lsp.lint import lint_source

    text = (FIXTURES / "acc16.wgsl").read_text()
    [finding] = [d for d in lint_source(text).diagnostics if d.code == "T050"]
    assert text[finding.span.start:finding.span.end] == "subgroupMatrixMultiplyAccumulate"
    assert "accumulates in f16 in a loop" in finding.message and "0.18% at K = 256 on lavapipe" in finding.message
    f32 = text.replace("subgroup_matrix_result<f16, 16, 16>", "subgroup_matrix_result<f32, 16, 16>").replace(
        "array<f16, 256>", "array<f32, 256>")
    assert [d for d in lint_source(f32).diagnostics if d.code == "T050"] == []


# The same kernel's result checked by an expression (issue 31, item 4): where the expression is the matrix
# product, the runner sees A, B and K and judges at f16 accumulation's precision as a gemm check does.
EXPRESSION = GEMM.replace('kind = "gemm"', 'kind = "expression"\noutput = "c"\nexpected = "{expected}"')
PRODUCTS = ["(a.reshape(M, K).astype(np.float64) @ b.reshape(K, N)).reshape(-1)",
            "np.matmul(a.reshape(M, K), b.reshape(K, N)).ravel()",
            "np.dot(a.reshape(M, K), b.reshape(K, N)).flatten()"]


@pytest.mark.parametrize("expected", PRODUCTS)
def test_an_expression_check_that_is_a_product_is_judged_at_f16_accumulations_precision(expected):
    data, a, b = inputs(4096, 0.0)
    got = {"c": f16_accumulation(a.astype(np.float32), b.astype(np.float32)).reshape(-1)}
    desc = parse_run_description(EXPRESSION.replace("{k}", "4096").replace("{expected}", expected))
    types = {"a": "f16", "b": "f16", "c": "f32"}
    [own] = check_results(desc, data, got, types, {"f16"})
    assert own.verdict == "correct" and own.judged == "f16 accumulation over K = 4096"
    assert not own.within_output_tolerance  # the f32 tolerance alone calls it wrong
    [strict] = check_results(desc, data, got, types, {"f16"}, strict=True)
    assert strict.verdict == "incorrect" and not strict.judged


def test_an_expression_check_the_runner_cannot_see_through_names_the_likely_cause():
    data, a, b = inputs(4096, 0.0)
    got = {"c": f16_accumulation(a.astype(np.float32), b.astype(np.float32)).reshape(-1)}
    expected = "(a.reshape(M, K).astype(np.float64) @ b.reshape(K, N)).reshape(-1) * 1.0"
    desc = parse_run_description(EXPRESSION.replace("{k}", "4096").replace("{expected}", expected))
    [check] = check_results(desc, data, got, {"a": "f16", "b": "f16", "c": "f32"}, {"f16"})
    assert check.verdict == "incorrect" and not check.judged
    assert "accumulates in f16" in check.hint and 'kind = "gemm"' in check.hint and "atol" in check.hint
    # An f32 accumulator: nothing to explain.
    [plain] = check_results(desc, data, got, {"a": "f16", "b": "f16", "c": "f32"}, {"f32"})
    assert plain.verdict == "incorrect" and plain.hint == ""


def test_a_missing_k_tile_is_incorrect_beyond_the_f16_error_in_an_expression_check_too():
    data, a, b = inputs(4096, -1.0)
    got = {"c": f16_accumulation(a.astype(np.float32), b.astype(np.float32), skip_last_tile=True).reshape(-1)}
    desc = parse_run_description(EXPRESSION.replace("{k}", "4096").replace("{expected}", PRODUCTS[0]))
    [check] = check_results(desc, data, got, {"a": "f16", "b": "f16", "c": "f32"}, {"f16"})
    assert check.verdict == "incorrect" and check.judged == "f16 accumulation over K = 4096"
