"""What is uniform, at the two levels the analysis runs at.

"tint" reproduces Tint's verdicts (wgpudawn 0.32): workgroup uniformity, with
Tint's own exceptions (subgroup_id, subgroup_size and workgroup_id count as
uniform for matrix builtins). "subgroup" asks the question the hardware asks:
is the value the same in every invocation of one subgroup? There, subgroup
reductions and broadcasts produce uniform values, whatever their inputs.
Measured against Tint in tests/spec/uniformity.
"""

from __future__ import annotations

from dataclasses import dataclass

TINT, SUBGROUP = "tint", "subgroup"

# Builtin values that differ between invocations, at each level.
NON_UNIFORM_BUILTIN_VALUES = {
    TINT: frozenset({"local_invocation_id", "local_invocation_index", "global_invocation_id",
                     "subgroup_invocation_id", "position", "front_facing", "sample_index", "sample_mask",
                     "vertex_index", "instance_index", "primitive_index", "barycentric_coord"}),
    SUBGROUP: frozenset({"local_invocation_id", "local_invocation_index", "global_invocation_id",
                         "subgroup_invocation_id", "position", "front_facing", "sample_index", "sample_mask",
                         "vertex_index", "instance_index", "primitive_index", "barycentric_coord"}),
}

# Uniform within a subgroup, not across the workgroup: Tint lets subgroup and matrix builtins branch
# on these, but not barriers.
WORKGROUP_NON_UNIFORM_BUILTIN_VALUES = frozenset({"subgroup_id"})

# Builtin functions whose result is the same in every active invocation of a subgroup.
SUBGROUP_UNIFORM_RESULTS = frozenset({
    "subgroupBroadcastFirst", "subgroupBroadcast", "subgroupAdd", "subgroupMul", "subgroupMax", "subgroupMin",
    "subgroupAnd", "subgroupOr", "subgroupXor", "subgroupAll", "subgroupAny", "subgroupBallot",
})

# Builtin functions whose result never depends only on the arguments: each invocation sees its own.
NON_UNIFORM_RESULTS = frozenset({
    "atomicLoad", "atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicAnd", "atomicOr", "atomicXor",
    "atomicExchange", "atomicCompareExchangeWeak", "subgroupElect", "subgroupExclusiveAdd",
    "subgroupInclusiveAdd", "subgroupExclusiveMul", "subgroupInclusiveMul", "subgroupShuffle",
    "subgroupShuffleXor", "subgroupShuffleUp", "subgroupShuffleDown", "quadBroadcast", "quadSwapX",
    "quadSwapY", "quadSwapDiagonal",
})


@dataclass(frozen=True)
class Requirement:
    """What a builtin needs: uniform control flow, and which arguments uniform."""

    rule: str  # Tint's diagnostic rule name, or "" for requirements no filter can switch off
    scope: str  # "uniform" (workgroup) or "subgroup uniform", as Tint's message says
    arguments: bool  # every argument must be uniform too


_BARRIER = Requirement("", "uniform", False)
_DERIVATIVE = Requirement("derivative_uniformity", "uniform", False)
_SUBGROUP = Requirement("subgroup_uniformity", "subgroup uniform", False)
_MATRIX = {
    "chromium": Requirement("chromium.subgroup_matrix_uniformity", "subgroup uniform", True),
    "standard": Requirement("subgroup_matrix_uniformity", "subgroup uniform", True),
    "wgpu": Requirement("", "subgroup uniform", True),
}

BARRIERS = frozenset({"workgroupBarrier", "storageBarrier", "textureBarrier", "workgroupUniformLoad"})
# Implicit derivatives: fragment shaders only, controlled by derivative_uniformity.
DERIVATIVES = frozenset({"textureSample", "textureSampleBias", "textureSampleCompare", "dpdx", "dpdxCoarse",
                         "dpdxFine", "dpdy", "dpdyCoarse", "dpdyFine", "fwidth", "fwidthCoarse", "fwidthFine"})
MATRIX_BUILTINS = frozenset({
    "subgroupMatrixLoad", "subgroupMatrixStore", "subgroupMatrixMultiply", "subgroupMatrixMultiplyAccumulate",
    "subgroupMatrixScalarAdd", "subgroupMatrixScalarSubtract", "subgroupMatrixScalarMultiply",
    "coopLoad", "coopLoadT", "coopStore", "coopStoreT", "coopMultiplyAdd",
})


def requirement(name: str, category: str, dialect: str | None) -> Requirement | None:
    if name in BARRIERS:
        return _BARRIER
    if name in DERIVATIVES:
        return _DERIVATIVE
    if name in MATRIX_BUILTINS:
        return _MATRIX.get(dialect or "chromium")
    if category == "subgroup" and name.startswith(("subgroup", "quad")):
        return _SUBGROUP
    return None


def matrix_constructor_requirement(dialect: str) -> Requirement:
    return _MATRIX.get(dialect, _MATRIX["chromium"])
