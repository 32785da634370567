"""Results judged at the kernel's own precision.

A kernel that multiplies f16 matrices into a `subgroup_matrix_result<f16>`
rounds every partial sum to f16, whatever type it stores to. Its error grows
with K and with the partial sums' size; judging it by the f32 output buffer's
tolerance calls a correct kernel wrong. Here the expected error of that
accumulation is derived per element from the operands, and a result is
incorrect only beyond it.

The estimate: each addition rounds to f16 (unit roundoff u = 2^-11), an
error of up to u times the running sum s_k. For an element whose products
have mean mu and spread sigma,
    S^2 = sum_k s_k^2  ~  K^2 sigma^2 / 2  +  K^3 mu^2 / 3,
estimated from the operands as K/2 (A^2 B^2)_ij + K/3 C_ij^2; the bound is
6 u S plus the final rounding of C. Were the rounding errors independent,
6 u S would be about ten standard deviations; they are not when the data
has a sign bias: small products are then swamped by a large running sum,
always in the same direction. f16 accumulation simulated in NumPy (seed 7,
32 x 32 outputs) gives largest errors of 1.2 to 2.2 u S when every product
is rounded separately, and 5.0 u S for K = 4096 with inputs in [0, 1];
adding a 16-wide block of products at once before rounding (as tensor
cores do) gives 0.3 to 0.4 u S.

What this cannot tell apart: for K = 4096 and inputs in [0, 1] a missing
16-wide K slice changes C by less than f16 accumulation's own error; with
signed inputs it is 9 to 140 times the error (tests/test_runner_precision.py).
"""

from __future__ import annotations

from ..semantic import types as t

UNIT_ROUNDOFF = {"f16": 2.0 ** -11, "f32": 2.0 ** -24}
SPREAD_FACTOR = 6.0


def accumulator_types(model) -> set[str]:
    """The element types of every result matrix in the kernel (`subgroup_matrix_result<T>`, naga's C role)."""
    found = set()
    for value in [v for _, v in model.expression_types()] + [s.type for s in model.symbols]:
        value = t.store_type(value) if value is not None else None
        if isinstance(value, t.CoopMatrix) and value.kind.role in ("result", "C"):
            found.add(value.element.name)
    return found


def accumulation_bound(a, b, reference, k: int, accumulator: str):
    """Per element: the largest error accumulating A x B in `accumulator` is expected to give."""
    import numpy as np

    u = UNIT_ROUNDOFF[accumulator]
    squares = np.square(a) @ np.square(b)
    spread = k / 2.0 * squares + k / 3.0 * np.square(reference)
    return SPREAD_FACTOR * u * np.sqrt(spread) + u * np.abs(reference)
