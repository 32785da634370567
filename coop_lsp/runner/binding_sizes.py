"""The smallest storage buffer a subgroup-matrix kernel may be run with.

What each binding needs is worked out in analysis/binding_sizes.py (the gpuweb draft's MinStorageSize,
#6310 and #6334). Dawn enforces it for its own dialect (wgpudawn 0.32: "Binding size (256) of [Buffer] is
smaller than the minimum binding size (512)" for a 16x16 f16 load), so the runner refuses such a run
description before anything runs, naming both sizes, for Tint's and the proposal's kernels alike.
"""

from __future__ import annotations

from ..analysis.binding_sizes import MatrixAccess, largest_per_binding
from ..analysis.binding_sizes import matrix_accesses as _accesses
from .kernel import KernelModule

__all__ = ["MatrixAccess", "matrix_accesses", "too_small"]


def matrix_accesses(module: KernelModule) -> list[MatrixAccess]:
    """Each load or store of a subgroup matrix through `&binding`, in source order."""
    return _accesses(module.parsed.root, module.model, module.data)


def too_small(module: KernelModule, sizes: dict[tuple[int, int], int]) -> list[tuple[MatrixAccess, int]]:
    """The accesses whose binding's buffer (`sizes`: bytes by (group, binding)) is below MinStorageSize,
    with that buffer's size; the largest need of each binding only."""
    worst = {slot: access for slot, access in largest_per_binding(matrix_accesses(module)).items() if slot in sizes}
    return [(access, sizes[slot]) for slot, access in worst.items() if sizes[slot] < access.bytes]
