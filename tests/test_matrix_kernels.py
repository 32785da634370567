"""The matrix-heavy benchmark corpus is real matrix code: every kernel multiplies subgroup matrices in a K
loop between staging barriers, and the files are valid and clean (else the benchmarks would time the
reporting of findings, not checking)."""

from __future__ import annotations

import random
import re

from benchmarks.matrix_kernels import matrix_kernel_file
from coop_lsp.lint.config import Settings
from coop_lsp.lint.files import PLAIN, lint_file


def _kernels(text: str) -> list[str]:
    return re.split(r"\n(?=// Kernel \d+:)", text)[1:]


def test_every_kernel_multiplies_in_a_k_loop_between_barriers():
    text = matrix_kernel_file(random.Random(11), kernels=12)
    kernels = _kernels(text)
    assert len(kernels) == 12
    for kernel in kernels:
        loop = kernel.index("for (var k0 = 0u; k0 < params.k;")
        first, second = (m.start() for m in re.finditer(r"workgroupBarrier\(\);", kernel))
        multiply = kernel.index("subgroupMatrixMultiplyAccumulate(")
        assert loop < first < multiply < second
        assert "a_stage[" in kernel[loop:first] and "subgroupMatrixStore<row_major>(&c" in kernel[second:]


def test_generated_files_are_clean_for_coop_lint():
    rng = random.Random(5)
    for _ in range(3):
        text = matrix_kernel_file(rng, kernels=16)
        _, findings = lint_file(text.encode(), Settings(), None, kind=PLAIN)
        assert [f"{d.code} {d.message}" for d in findings] == []


def test_a_file_of_32_kernels_is_about_fifteen_hundred_lines():
    lines = matrix_kernel_file(random.Random(3)).count("\n")
    assert 1300 < lines < 1800
