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

from ...semantic.builtins import language as lang
from ...semantic.context import CORE_TABLE

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

# Every builtin of every table, for the name sets below: each builtin's record says how uniform it is.
_ALL_BUILTINS = (*CORE_TABLE, *(builtin for dialect in lang.DIALECTS for builtin in dialect.builtins))


def _named(**field) -> frozenset[str]:
    ((key, value),) = field.items()
    return frozenset(b.name for b in _ALL_BUILTINS if getattr(b, key) == value)


# Builtin functions whose result is the same in every active invocation of a subgroup.
SUBGROUP_UNIFORM_RESULTS = _named(result=lang.SUBGROUP_UNIFORM)

# Builtin functions whose result never depends only on the arguments: each invocation sees its own.
NON_UNIFORM_RESULTS = _named(result=lang.NON_UNIFORM)


@dataclass(frozen=True)
class Requirement:
    """What a builtin needs: uniform control flow, and which arguments uniform."""

    rule: str  # Tint's diagnostic rule name, or "" for requirements no filter can switch off
    scope: str  # "uniform" (workgroup) or "subgroup uniform", as Tint's message says
    arguments: bool  # every argument must be uniform too


_BARRIER = Requirement("", "uniform", False)
_DERIVATIVE = Requirement("derivative_uniformity", "uniform", False)
_SUBGROUP = Requirement("subgroup_uniformity", "subgroup uniform", False)
# The matrix builtins' requirement carries the dialect's rule name (none for naga: no filter switches it off).
_MATRIX = {d.name: Requirement(d.uniformity_rule, "subgroup uniform", True) for d in lang.DIALECTS}
_BY_KIND = {lang.BARRIER: _BARRIER, lang.DERIVATIVE: _DERIVATIVE, lang.SUBGROUP: _SUBGROUP}

BARRIERS = _named(uniformity=lang.BARRIER)
# Implicit derivatives: fragment shaders only, controlled by derivative_uniformity.
DERIVATIVES = _named(uniformity=lang.DERIVATIVE)
MATRIX_BUILTINS = _named(uniformity=lang.MATRIX)


def requirement(builtin, dialect: str | None) -> Requirement | None:
    """What calling `builtin` (a table record, as the semantic model resolved the call) needs; a matrix
    builtin's requirement carries the rule name of `dialect`."""
    if builtin.uniformity == lang.MATRIX:
        return _MATRIX.get(dialect or "chromium")
    return _BY_KIND.get(builtin.uniformity)


def matrix_constructor_requirement(dialect: str) -> Requirement:
    return _MATRIX.get(dialect, _MATRIX["chromium"])
